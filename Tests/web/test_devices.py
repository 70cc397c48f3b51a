"""Check-in links on a phone: Alice makes one for her kitchen sensor (its address shown once,
with a QR code and recipes), it checks her in with nothing but a POST, and while she is
overdue its call shows on Bob's alert page as activity she has not confirmed — the alert
stays open. Screenshots at 390 × 844 in docs/screenshots/devices/."""
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By

from helpers import click, wait_text
from phone_screens import save_doc_shot
from test_escalation import alice_watched_by_bob


def press(server, url):
    """What a button or Home Assistant does: POST to the address, no sign-in."""
    path = urllib.parse.urlparse(url).path
    request = urllib.request.Request(server.base + path, data=b"", method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read().decode()


def test_a_sensor_link_is_made_used_and_shown_as_activity(server, browsers, shot):
    alice, bob = alice_watched_by_bob(server, browsers, shot, phones=True)

    alice.get(server.base + "/profile")
    click(alice, "#device-links-link")
    wait_text(alice, "No check-in links yet.")
    alice.find_element(By.ID, "device-name").send_keys("Kitchen motion sensor")
    click(alice, "#make-device-link")
    wait_text(alice, "Copy this address now: it is shown only once.")
    url = alice.find_element(By.ID, "device-url").get_attribute("value")
    assert "/d/lsd_" in url, url
    assert alice.find_element(By.ID, "device-qr").get_attribute("src").startswith("data:image/svg+xml;base64,")
    assert "curl -fsS -X POST " + url in alice.find_element(By.ID, "recipe-curl").text
    save_doc_shot(alice, "devices", "new-link")

    assert press(server, url) == (200, "OK\n")
    alice.get(server.base + "/profile/devices")
    wait_text(alice, "Kitchen motion sensor", css="#device-links")
    assert "Shown as activity" in alice.find_element(By.ID, "device-links").text
    assert "lsd_" not in alice.page_source
    save_doc_shot(alice, "devices", "links")

    # She misses her next check-in; the sensor fires while the alert is open.
    server.advance(24 * 3600 + 11 * 60)
    bob.get(server.base + "/contacts")
    wait_text(bob, "Missed check-in — open incident", css="#dependents")
    click(bob, "#dependents a[href^='/incidents/']")
    wait_text(bob, "Missed check-in: Alice Lovelace")
    assert press(server, url) == (200, "OK\n")
    bob.refresh()
    wait_text(bob, "not confirmed by Alice", css="#device-activity")
    assert "Kitchen motion sensor" in bob.find_element(By.ID, "device-activity").text
    assert bob.find_elements(By.ID, "acknowledge"), "the alert stays open"
    save_doc_shot(bob, "devices", "incident-activity", scroll_to="#device-activity")

