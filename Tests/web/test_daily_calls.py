"""Daily calls set up by family, on a phone: Bob asks LifeSignal to call his mother every
day at 09:30, sees the request waiting for her yes, prints her card, and takes the request
back. Alice chooses a daily call for herself on the rhythm page."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import sign_up, wait_text
from phone_screens import as_phone, capture


def test_bob_sets_up_daily_calls_for_his_mother(server, browsers, shot):
    bob = browsers()
    sign_up(bob, server, "Bob", "Becker")
    as_phone(bob)
    bob.get(server.base + "/contacts")
    bob.find_element(By.ID, "daily-calls-link").send_keys(Keys.ENTER)
    wait_text(bob, "Daily calls for someone", css="h1")
    bob.find_element(By.ID, "setup-first").send_keys("Mia")
    bob.find_element(By.ID, "setup-last").send_keys("Becker")
    bob.find_element(By.ID, "setup-phone").send_keys("+15551234599")
    time = bob.find_element(By.ID, "setup-time")
    bob.execute_script("arguments[0].value = '09:30'", time)
    zone = bob.find_element(By.ID, "setup-zone")
    zone.clear()
    zone.send_keys("Europe/Berlin")
    capture(bob, "daily-call-setup", scroll_to="#setup-new-h")
    bob.find_element(By.ID, "setup-save").send_keys(Keys.ENTER)
    wait_text(bob, "We'll call Mia Becker to ask.")
    state = bob.find_element(By.CSS_SELECTOR, "#setups .setup-state").text
    assert "Waiting for their yes" in state, state
    assert "every day at 09:30 (Europe/Berlin)" in bob.find_element(By.ID, "setups").text
    capture(bob, "daily-call-pending")

    # Her card: the keys, in large type, and a print button.
    bob.find_element(By.CSS_SELECTOR, "a[id^='card-']").send_keys(Keys.ENTER)
    wait_text(bob, "LifeSignal calls you every day", css="h1")
    keys = bob.find_element(By.ID, "card-keys").text
    assert "I'm OK" in keys and "Stop these calls (press 8 twice)" in keys, keys
    assert "Every day at 09:30" in bob.find_element(By.ID, "daily-call-card").text
    assert bob.execute_script("return document.documentElement.scrollWidth") <= 390
    capture(bob, "daily-call-card")

    # Taken back before she answered.
    bob.get(server.base + "/contacts/daily-calls")
    bob.find_element(By.CSS_SELECTOR, "button[id^='cancel-']").send_keys(Keys.ENTER)
    wait_text(bob, "Taken back: LifeSignal will not call Mia Becker.")
    assert "Taken back before they answered." in bob.find_element(By.ID, "setups").text


def test_alice_chooses_a_daily_call_on_the_rhythm_page(server, browsers, shot):
    alice = browsers()
    sign_up(alice, server, "Alice", "Lovelace", shot)
    alice.find_element(By.CSS_SELECTOR, "details summary").click()
    alice.find_element(By.ID, "rhythm-call").click()
    alice.execute_script("document.getElementById('call-time').value = '08:15'")
    alice.find_element(By.ID, "save-rhythm").click()
    wait_text(alice, "Change your rhythm?")
    assert "a call every day at 08:15" in alice.find_element(By.ID, "new-rhythm").text
    alice.find_element(By.ID, "confirm-rhythm").click()
    wait_text(alice, "Check-in settings saved.")
    now = alice.find_element(By.ID, "rhythm-now").text
    assert now.startswith("a call every day at 08:15") and "your phone, tried up to 3 times" in now, now
    # The form comes back as it is: a daily call at 08:15, three tries.
    alice.find_element(By.CSS_SELECTOR, "details summary").click()
    assert alice.find_element(By.ID, "rhythm-call").is_selected()
    assert alice.find_element(By.ID, "call-time").get_attribute("value") == "08:15"
