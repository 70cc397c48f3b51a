"""Screenshots of the moments that matter most, on a phone (390 × 844) and at 200 % zoom, for
people to look at: the person during grace (overdue, before anyone is alerted), during her
SOS and after its all-clear; the responder's Home taken over by her SOS, the incident page
with who was told, and both after the alert ends; Settings after a code that could not be
sent. It walks there through the pages as people do and asserts only the structure that
says it got there (the words are still being changed) and a header of one row that leaves
the screen to the page. Files: artifacts/screenshots/<state>-390.png and -200pct.png."""
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from helpers import click, fill, sign_up, wait_for, wait_text
from phone_screens import as_phone, capture
from test_languages import has_class, pair


def test_screens_of_grace_sos_and_all_clear_for_the_person_and_her_responder(server, browsers, shot):
    ada, bob = pair(server, browsers, shot)

    # Grace: her deadline has passed, the 10 minutes before her responders are alerted have not.
    server.advance(24 * 3600 + 60)
    ada.get(server.base + "/")
    wait_for(ada, lambda d: has_class(d, "#status", "tone-overdue"))
    assert ada.find_elements(By.ID, "check-in")
    capture(ada, "person-grace")

    # She checks in, then raises an SOS (five taps).
    click(ada, "#check-in")
    wait_for(ada, lambda d: has_class(d, "#status", "tone-plenty"))
    sos = ada.find_element(By.ID, "sos")
    for _ in range(5):
        sos.click()
    wait_for(ada, lambda d: has_class(d, "#status", "tone-alert"))
    wait_for(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#help li"))
    capture(ada, "person-sos")

    # Bob's Home is taken over by her SOS; the incident page says who was told, each
    # delivery a block of its own on the phone.
    bob.get(server.base + "/")
    wait_for(bob, lambda d: d.find_elements(By.CSS_SELECTOR, "section.takeover a[href^='tel:']"))
    capture(bob, "responder-takeover")
    incident = bob.find_element(By.CSS_SELECTOR, "section.takeover a[href^='/incidents/']").get_attribute("href")
    bob.get(incident)
    wait_for(bob, lambda d: d.find_elements(By.CSS_SELECTOR, "#incident-told tbody td"))
    assert bob.execute_script("return getComputedStyle(document.querySelector('#incident-told td')).display") == "block"
    assert bob.execute_script("return document.querySelector('#incident-told table').getBoundingClientRect().right") <= 390
    capture(bob, "responder-incident", scroll_to="#incident-told")

    # She ends it with the three-second hold.
    clear = ada.find_element(By.ID, "sos-clear")
    ActionChains(ada).click_and_hold(clear).pause(3.5).release().perform()
    wait_for(ada, lambda d: not has_class(d, "#status", "tone-alert") and not d.find_elements(By.ID, "sos-clear"))
    capture(ada, "person-all-clear")

    # Bob's incident page turns to the all-clear by itself; his Home is no longer taken over.
    wait_for(bob, lambda d: has_class(d, "#incident-status", "tone-plenty"))
    capture(bob, "responder-after-alert-incident")
    bob.get(server.base + "/")
    wait_for(bob, lambda d: d.find_elements(By.ID, "status"))
    assert not bob.find_elements(By.CSS_SELECTOR, "section.takeover")
    capture(bob, "responder-after-alert")


def test_screens_of_settings_after_a_code_that_could_not_be_sent(server, browsers, shot):
    gus = browsers()
    sign_up(gus, server, "Gus", "Grey")
    as_phone(gus)
    gus.get(server.base + "/settings")
    click(gus, "details > summary")
    Select(gus.find_element(By.ID, "kind")).select_by_value("sms")
    fill(gus, "address", "+44 7700 900998")
    click(gus, "#add-channel-button")
    wait_for(gus, lambda d: d.find_elements(By.CSS_SELECTOR, "#channels [id^='code-state-']"))
    # This development server has no text provider: the outbox's try fails, and the page,
    # looked at again, marks the code's state as an error.
    for _ in range(50):
        if gus.find_elements(By.CSS_SELECTOR, "#channels .code-state.error"):
            break
        time.sleep(0.2)
        gus.get(server.base + "/settings")
    assert gus.find_elements(By.CSS_SELECTOR, "#channels .code-state.error")
    capture(gus, "settings-channel-code-failed", scroll_to="#channels")
