"""Days off on a phone: Alice plans a pause ahead in her settings; Bob is told and sees it
coming on her page, then sees it hold ("Set by Alice Lovelace"). Carol, already late with an
alert open, must say what becomes of it before she can pause. Screenshots at 390 × 844 in
docs/screenshots/days-off/."""
import datetime

from selenium.webdriver.common.by import By

from helpers import click, sign_up, wait_text
from phone_screens import as_phone, save_doc_shot
from test_escalation import alice_watched_by_bob


def set_date(driver, element_id, value):
    driver.execute_script("document.getElementById(arguments[0]).value = arguments[1]", element_id, value)


def test_days_off_ahead_are_told_shown_and_hold(server, browsers, shot):
    alice, bob = alice_watched_by_bob(server, browsers, shot, phones=True)

    alice.get(server.base + "/settings")
    wait_text(alice, "No days off planned.", css="#pause-card")
    # From tomorrow (the first day the form offers, on the server's clock) for three days.
    first = alice.find_element(By.ID, "off-from").get_attribute("min")
    back = (datetime.date.fromisoformat(first) + datetime.timedelta(days=3)).isoformat()
    set_date(alice, "off-from", first)
    set_date(alice, "off-until", back)
    click(alice, "#plan-pause")
    wait_text(alice, "Days off planned from")
    assert "From" in alice.find_element(By.ID, "days-off").text
    assert not alice.find_elements(By.ID, "no-days-off")
    save_doc_shot(alice, "days-off", "planned", scroll_to="#pause-card")
    alice.get(server.base + "/")
    wait_text(alice, "Away from", css="#pause-note")

    # Bob is told, and sees it coming on her page.
    bob.get(server.base + "/notifications")
    wait_text(bob, "Alice Lovelace planned days off")
    bob.get(server.base + "/contacts")
    click(bob, "#dependents a[href^='/contacts/']")
    wait_text(bob, "Away from", css="#pause-note")
    save_doc_shot(bob, "days-off", "responder-ahead", scroll_to="#contact-status")

    # Two days on she is away: her page says until when and who set it; nothing is overdue.
    server.advance(2 * 86400)
    bob.refresh()
    wait_text(bob, "Set by Alice Lovelace.", css="#pause-note")
    assert bob.find_element(By.CSS_SELECTOR, "#contact-status [data-status]").get_attribute("data-status") == "paused"
    save_doc_shot(bob, "days-off", "responder-during", scroll_to="#contact-status")


def test_pausing_while_late_asks_what_becomes_of_the_alert(server, browsers, shot):
    carol = browsers()
    sign_up(carol, server, "Carol", "Shannon")
    as_phone(carol)
    # A day and a half without a word: her missed check-in is open.
    server.advance(36 * 3600)
    carol.get(server.base + "/settings")
    wait_text(carol, "What about that alert?", css="#open-incident")
    today = carol.find_element(By.ID, "until").get_attribute("min")
    set_date(carol, "until", (datetime.date.fromisoformat(today) + datetime.timedelta(days=2)).isoformat())
    save_doc_shot(carol, "days-off", "pause-while-late", scroll_to="#pause-card")
    # The choice is required: the form does not go without it.
    click(carol, "#pause")
    assert carol.find_elements(By.ID, "open-incident")
    click(carol, "#open-incident input[value='resolve']")
    click(carol, "#pause")
    wait_text(carol, "Paused until", css="#pause-state")
    carol.get(server.base + "/")
    wait_text(carol, "Paused until", css="#status")
