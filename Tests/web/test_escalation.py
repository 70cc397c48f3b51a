"""Two people link by a contact link, ping and answer; the dependent misses a check-in (the
server's test clock moves), the responder sees the incident live, acknowledges, the dependent
checks in and the responder sees the all-clear — each browser only ever reacting to the other
through the server."""
import time

from selenium.webdriver.common.by import By

from helpers import click, sign_in_code, onboard, sign_up, visible, wait_text, new_phone, wait_for
from phone_screens import as_phone


def alice_watched_by_bob(server, browsers, shot, note="", phones=False):
    """Alice and Bob signed up in two browsers, Bob her responder (`link_as_dependent`); both
    on phone-sized screens when `phones`."""
    alice, bob = browsers(), browsers()
    sign_up(alice, server, "Alice", "Lovelace", note=note)
    sign_up(bob, server, "Bob", "Babbage")
    link_as_dependent(server, alice, bob, shot)
    if phones:
        as_phone(alice)
        as_phone(bob)
    return alice, bob


def link_as_dependent(server, alice, bob, shot):
    """Bob opens Alice's contact link and makes Alice his dependent (he becomes her responder)."""
    alice.get(server.base + "/contacts/add")
    wait_text(alice, "Your code")
    link = alice.find_element(By.ID, "my-link").get_attribute("href")
    assert link.startswith(server.base + "/contact/")
    assert alice.find_element(By.CSS_SELECTOR, "img.qr").get_attribute("src").endswith("/contacts/qr.svg")
    shot(alice, "alice_add_contact")

    bob.get(link)
    wait_text(bob, "Link with Alice Lovelace?")
    # A code shows a name, never the emergency note: that is for accepted contacts.
    assert "Spare key at number 4" not in bob.find_element(By.TAG_NAME, "main").text
    shot(bob, "bob_preview")
    # No role chosen: refused, nothing added.
    click(bob, "#add-contact")
    wait_text(bob, "at least one")
    click(bob, "#dependent")
    click(bob, "#add-contact")
    wait_text(bob, "Request sent. Nothing is shared until Alice Lovelace accepts.")
    wait_text(bob, "You asked to watch over Alice Lovelace.", css="#outgoing-requests")
    assert not bob.find_elements(By.CSS_SELECTOR, "#dependents li")

    # Alice is asked in words that say who would watch whom, and accepts.
    alice.get(server.base + "/contacts")
    wait_text(alice, "Bob Babbage asks to watch over you", css="#incoming-requests")
    shot(alice, "alice_contact_request")
    click(alice, "#incoming-requests button.primary")
    wait_text(alice, "You are now linked with Bob Babbage.")
    bob.get(server.base + "/contacts")
    wait_text(bob, "Plenty of time", css="#dependents")
    shot(bob, "bob_contacts")


def test_link_ping_miss_acknowledge_and_all_clear(server, browsers, shot):
    alice, bob = alice_watched_by_bob(server, browsers, shot, note="Spare key at number 4")

    # Alice sees Bob as her responder.
    alice.get(server.base + "/contacts")
    wait_text(alice, "Bob Babbage", css="#responders")

    # Bob pings Alice; her home page shows it live, without a reload.
    alice.get(server.base + "/")
    wait_text(alice, "Plenty of time")
    bob.get(server.base + "/contacts")
    click(bob, "#dependents a[href^='/contacts/']")
    wait_text(bob, "Ask if they're OK")
    click(bob, "#ping")
    wait_text(bob, "Ping sent.")
    wait_text(bob, "waiting for an answer", css="#contact-ping")
    wait_text(alice, "Bob Babbage asked if you're OK", css="#home-pings")
    shot(alice, "alice_pinged")
    click(alice, "#home-pings a")
    wait_text(alice, "Bob Babbage asked")
    shot(alice, "alice_pings")
    click(alice, "#answer-all")
    wait_text(alice, "All pings answered. You're checked in.")
    # Bob's contact page turns back to "ask" by itself once Alice answers.
    visible(bob, "#ping")
    shot(bob, "bob_ping_answered")

    # Alice misses her check-in: 24 h, then the 10-minute grace.
    bob.get(server.base + "/contacts")
    wait_text(bob, "Plenty of time", css="#dependents")
    server.advance(24 * 3600 + 11 * 60)
    wait_text(bob, "Missed check-in — open incident", css="#dependents")
    assert "Overdue" in bob.find_element(By.CSS_SELECTOR, "#dependents").text
    shot(bob, "bob_sees_overdue_live")
    click(bob, "#dependents a[href^='/incidents/']")
    wait_text(bob, "Missed check-in: Alice Lovelace")
    assert "Spare key at number 4" in bob.find_element(By.ID, "emergency-note").text
    # Delivery proof: who was told, on which channel, with what outcome.
    wait_text(bob, "Bob Babbage", css="#incident-told")
    shot(bob, "bob_incident")

    click(bob, "#acknowledge")
    wait_text(bob, "You're on it.")
    wait_text(bob, "Bob Babbage is on it.", css="#incident-status")
    shot(bob, "bob_acknowledged")

    # Alice checks in; Bob's incident page turns to the all-clear live.
    alice.get(server.base + "/")
    wait_text(alice, "Overdue")
    shot(alice, "alice_overdue")
    click(alice, "#check-in")
    wait_text(alice, "Checked in. Bob Babbage is being told you're OK.")
    wait_text(alice, "Plenty of time", css="#status")
    wait_text(bob, "Alice is safe", css="#incident-status")
    # The live refreshes that follow (the all-clear streams in) keep her confirmation.
    time.sleep(3)
    assert "Checked in. Bob Babbage is being told you're OK." in alice.find_element(By.ID, "main").text
    shot(bob, "bob_all_clear")

    # Bob's notifications have the story, newest first, and can be marked read.
    bob.get(server.base + "/notifications")
    wait_text(bob, "Alice Lovelace is safe")
    wait_text(bob, "Alice Lovelace missed a check-in")
    shot(bob, "bob_notifications")
    click(bob, "#read-all")
    wait_text(bob, "0 unread", css="#unread-count")


def test_sos_reaches_the_responder_live(server, browsers, shot):
    alice, bob = alice_watched_by_bob(server, browsers, shot, note="Spare key at number 4")

    # A drill first: Bob is told on his channel and the report shows the outcome.
    alice.get(server.base + "/timeline")
    wait_text(alice, "Bob Babbage", css="#preview")
    click(alice, "#run-drill")
    wait_text(alice, "Drill sent to every responder")
    wait_text(alice, "Bob Babbage", css="#drill-recipients")
    wait_text(alice, "delivered", css="#drill-recipients")
    shot(alice, "alice_drill_report")

    bob.get(server.base + "/contacts")
    wait_text(bob, "Plenty of time", css="#dependents")
    alice.get(server.base + "/")
    sos = alice.find_element(By.ID, "sos")
    for _ in range(5):
        sos.click()
    wait_text(alice, "Alert sent.")
    wait_text(bob, "SOS — Alice Lovelace needs help", css="#dependents")
    shot(bob, "bob_sees_sos")
    click(bob, "#dependents a[href^='/incidents/']")
    wait_text(bob, "SOS alert: Alice Lovelace")
    wait_text(bob, "asked for help", css="#incident-status")
    shot(bob, "bob_sos_incident")


def test_contact_link_opened_before_signing_in(server, browsers, shot):
    alice, carol = browsers(), browsers()
    sign_up(alice, server, "Alice", "Lovelace")
    alice.get(server.base + "/contacts/add")
    link = alice.find_element(By.ID, "my-link").get_attribute("href")
    # The code reads in groups of four, with Copy (and Share where the browser has it).
    shown = alice.find_element(By.ID, "my-code").text
    assert len(shown.split(" ")) == 8 and all(len(group) == 4 for group in shown.split(" ")), shown
    assert link.endswith(shown.replace(" ", ""))
    click(alice, "#copy-link")
    wait_for(alice, lambda d: d.find_element(By.ID, "share-state").text in ("Link copied.", "Select the link above and copy it."))

    # Carol has no account yet: the link sends her through sign-in and onboarding, then back.
    carol.get(link)
    wait_text(carol, "Sign in")
    sign_in_code(carol, server, new_phone())
    onboard(carol, "Carol", "Shannon")
    wait_text(carol, "Link with Alice Lovelace?")
    shot(carol, "carol_preview_after_sign_up")
    click(carol, "#responder")
    click(carol, "#add-contact")
    wait_text(carol, "Request sent. Nothing is shared until Alice Lovelace accepts.")

    # Alice accepts: Carol made Alice her responder, so Alice now watches over Carol.
    alice.get(server.base + "/contacts")
    wait_text(alice, "Carol Shannon asks you to watch over them", css="#incoming-requests")
    click(alice, "#incoming-requests button.primary")
    wait_text(alice, "Carol Shannon", css="#dependents")
    carol.get(server.base + "/contacts")
    wait_text(carol, "Alice Lovelace", css="#responders")
    shot(alice, "alice_sees_carol")


def test_a_ping_answered_i_need_help_raises_an_alert(server, browsers, shot):
    alice, bob = alice_watched_by_bob(server, browsers, shot, note="Spare key at number 4")
    bob.get(server.base + "/contacts")
    click(bob, "#dependents a[href^='/contacts/']")
    click(bob, "#ping")
    wait_text(bob, "Ping sent.")

    alice.get(server.base + "/")
    wait_text(alice, "Bob Babbage asked if you're OK", css="#home-pings")
    click(alice, "#ping-banner")
    wait_text(alice, "Bob Babbage asked")
    shot(alice, "ping_with_help_button")
    click(alice, "button[id^='help-']")
    wait_text(alice, "Alert sent. We're telling Bob Babbage now")
    wait_text(alice, "Alert active")
    shot(alice, "help_raised")
    # Bob's Home is taken over by Alice's alert, with her note first.
    bob.get(server.base + "/")
    wait_text(bob, "Emergency alert raised")
    wait_text(bob, "Spare key at number 4")
    shot(bob, "bob_sees_help")
