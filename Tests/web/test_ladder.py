"""The ladder on a phone, by keyboard: Alice puts Bob on the first step, marks that he has her
key and adds a second step after 20 minutes; the plan reads back with real times. Her SOS then
shows Bob where it stands on her ladder."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from helpers import sign_up, wait_text
from phone_screens import as_phone, capture
from test_escalation import link_as_dependent


def test_she_orders_her_people_by_keyboard_on_a_phone(server, browsers, shot):
    alice, bob = browsers(), browsers()
    sign_up(alice, server, "Alice", "Lovelace")
    sign_up(bob, server, "Bob", "Babbage")
    link_as_dependent(server, alice, bob, shot)
    as_phone(alice)

    alice.get(server.base + "/profile")
    alice.find_element(By.ID, "ladder-link").send_keys(Keys.ENTER)
    wait_text(alice, "Who is told, in what order", css="h1")
    wait_text(alice, "If you miss ", css="#ladder-preview")
    # Nothing spills sideways at 390 px.
    assert alice.execute_script("return document.documentElement.scrollWidth") <= 390

    person = alice.find_element(By.CSS_SELECTOR, ".ladder-person select")
    person.send_keys("Step 1")
    assert Select(person).first_selected_option.text == "Step 1"
    alice.find_element(By.CSS_SELECTOR, ".ladder-person input[type=checkbox]").send_keys(Keys.SPACE)
    steps = alice.find_element(By.ID, "steps")
    steps.send_keys("2")
    assert Select(steps).first_selected_option.text == "2"
    wait = alice.find_element(By.ID, "wait-2")
    wait.send_keys(Keys.CONTROL, "a")
    wait.send_keys("20")
    capture(alice, "ladder", scroll_to="#ladder-edit-h")
    alice.find_element(By.ID, "save-ladder").send_keys(Keys.ENTER)
    wait_text(alice, "Saved. Open alerts keep the order they started with.")
    preview = alice.find_element(By.ID, "ladder-preview").text
    assert "Bob Babbage" in preview, preview
    assert "nobody has answered: everyone is called" in preview, preview
    assert alice.find_element(By.CSS_SELECTOR, ".ladder-person input[type=checkbox]").is_selected()
    assert alice.find_element(By.ID, "wait-2").get_attribute("value") == "20"
    capture(alice, "ladder-saved")

    # Her SOS tells every step at once; Bob reads where it stands.
    alice.get(server.base + "/")
    sos = alice.find_element(By.ID, "sos")
    for _ in range(5):
        sos.click()
    wait_text(alice, "Alert sent.")
    as_phone(bob)
    bob.get(server.base + "/")
    wait_text(bob, "Alice Lovelace needs help", css="main")
    bob.get(bob.find_element(By.CSS_SELECTOR, "a[href^='/incidents/']").get_attribute("href"))
    wait_text(bob, "Step 2 of 2.", css="#ladder-state")
    capture(bob, "incident-ladder")
