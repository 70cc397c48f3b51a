"""Sealed details at a locked door: Alice writes hers on their own page; Bob sees none of it on
her alert's page until he opens them, and then Alice is told he did. Nothing of them is in the
emergency note her contacts always see."""
from selenium.webdriver.common.by import By

from helpers import click, sign_up, wait_text
from test_escalation import link_as_dependent


def test_a_responder_opens_sealed_details_during_an_sos_and_she_is_told(server, browsers, shot):
    alice, bob = browsers(), browsers()
    sign_up(alice, server, "Alice", "Lovelace", note="Allergic to penicillin")
    sign_up(bob, server, "Bob", "Babbage")
    link_as_dependent(server, alice, bob, shot)

    # Her own page: who may open them, and the form (line breaks kept).
    alice.get(server.base + "/profile/sealed-details")
    wait_text(alice, "Only your responders, and only while an alert about you is open.")
    field = alice.find_element(By.ID, "sealed")
    field.send_keys("Key under the blue pot")
    field.send_keys("\n")
    field.send_keys("Door code 4711")
    click(alice, "#save-sealed")
    wait_text(alice, "Sealed details saved.")
    assert alice.find_element(By.ID, "sealed").get_attribute("value") == "Key under the blue pot\nDoor code 4711"
    shot(alice, "alice_sealed_details")

    # Before any alert, Bob's view of her holds the note and nothing sealed.
    bob.get(server.base + "/contacts")
    assert "blue pot" not in bob.find_element(By.TAG_NAME, "main").text

    alice.get(server.base + "/")
    sos = alice.find_element(By.ID, "sos")
    for _ in range(5):
        sos.click()
    wait_text(alice, "Alert sent.")

    # Bob's alert page: the note, the button, no details yet.
    bob.get(server.base + "/")
    wait_text(bob, "Alice Lovelace needs help", css="main")
    bob.get(bob.find_element(By.CSS_SELECTOR, "a[href^='/incidents/']").get_attribute("href"))
    wait_text(bob, "Allergic to penicillin")
    assert "blue pot" not in bob.find_element(By.TAG_NAME, "main").text
    wait_text(bob, "Alice is told who opened them.", css="#incident-actions")
    click(bob, "#open-sealed")
    wait_text(bob, "Door code 4711", css="#sealed-details")
    details = bob.find_element(By.CSS_SELECTOR, "#sealed-details .sealed-text").text
    assert details.splitlines() == ["Key under the blue pot", "Door code 4711"], details
    shot(bob, "bob_opened_sealed_details")

    # She is told, by name.
    alice.get(server.base + "/notifications")
    wait_text(alice, "Bob Babbage read your sealed details")
    shot(alice, "alice_told_sealed_details_read")
