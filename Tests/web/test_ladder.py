"""The ladder on a phone, by keyboard: Alice puts Bob on the first step, marks that he has her
key and adds a second step after 20 minutes; the plan reads back with real times. Her SOS then
shows Bob where it stands on her ladder."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from helpers import sign_up, wait_text
from phone_screens import as_phone, capture, save_doc_shot
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


def link_responder(server, alice, other, name):
    """`other` (called `name`) opens Alice's contact link and becomes her responder."""
    alice.get(server.base + "/contacts/add")
    wait_text(alice, "Your code")
    link = alice.find_element(By.ID, "my-link").get_attribute("href")
    other.get(link)
    wait_text(other, "Link with Alice Lovelace?")
    other.find_element(By.ID, "dependent").click()
    other.find_element(By.ID, "add-contact").click()
    wait_text(other, "Request sent.")
    alice.get(server.base + "/contacts")
    wait_text(alice, f"{name} asks to watch over you", css="#incoming-requests")
    alice.find_element(By.CSS_SELECTOR, "#incoming-requests button.primary").click()
    wait_text(alice, f"You are now linked with {name}.")


def test_the_ladder_and_an_incident_climbing_it_for_the_docs(server, browsers):
    """docs/screenshots/ladder/: her ladder (Bob, then Carol 15 minutes later) and Bob's
    incident page as her missed check-in climbs it and ends with nobody on it."""
    alice, bob, carol = browsers(), browsers(), browsers()
    sign_up(alice, server, "Alice", "Lovelace", note="Spare key at number 4")
    sign_up(bob, server, "Bob", "Babbage")
    sign_up(carol, server, "Carol", "Shaw")
    link_responder(server, alice, bob, "Bob Babbage")
    link_responder(server, alice, carol, "Carol Shaw")

    as_phone(alice)
    alice.get(server.base + "/profile/ladder")
    wait_text(alice, "If you miss ", css="#ladder-preview")
    steps = alice.find_element(By.ID, "steps")
    steps.send_keys("2")
    wait = alice.find_element(By.ID, "wait-2")
    wait.send_keys(Keys.CONTROL, "a")
    wait.send_keys("15")
    for person in alice.find_elements(By.CSS_SELECTOR, ".ladder-person"):
        choice = person.find_element(By.TAG_NAME, "select")
        Select(choice).select_by_visible_text("Step 1" if "Bob" in person.text else "Step 2")
        if "Bob" in person.text:
            person.find_element(By.CSS_SELECTOR, "input[type=checkbox]").send_keys(Keys.SPACE)
    alice.find_element(By.ID, "save-ladder").send_keys(Keys.ENTER)
    wait_text(alice, "Saved. Open alerts keep the order they started with.")
    preview = alice.find_element(By.ID, "ladder-preview").text
    assert preview.index("Bob Babbage") < preview.index("Carol Shaw"), preview
    save_doc_shot(alice, "ladder", "ladder")
    save_doc_shot(alice, "ladder", "ladder-edit", scroll_to="#ladder-edit-h")

    # She misses her check-in (24 h and the 10-minute grace): step 1, Bob.
    as_phone(bob)
    server.advance(24 * 3600 + 11 * 60)
    bob.get(server.base + "/contacts")
    wait_text(bob, "Missed check-in — open incident", css="#dependents")
    bob.get(bob.find_element(By.CSS_SELECTOR, "#dependents a[href^='/incidents/']").get_attribute("href"))
    wait_text(bob, "Step 1 of 2.", css="#ladder-state")
    assert "The next step is told" in bob.find_element(By.ID, "ladder-state").text
    save_doc_shot(bob, "ladder", "incident-step-1")

    # Nobody says "I'm on it": Carol 15 minutes later, then everyone is called 30 after that.
    server.advance(16 * 60)
    bob.refresh()
    wait_text(bob, "Step 2 of 2.", css="#ladder-state")
    server.advance(31 * 60)
    bob.refresh()
    wait_text(bob, "Nobody has confirmed they are coming", css="#nobody-coming")
    save_doc_shot(bob, "ladder", "incident-exhausted")

