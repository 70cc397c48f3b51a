"""Location, only when it matters: Alice turns sharing on (the settings card says what it does
and previews exactly what a responder would see); her SOS goes out at once and her browser's
position (Chromium's geolocation override) follows it; Bob sees it first on her alert's page,
with a map link and a geo: link and no map fetched, and it is gone from his page at the
all-clear. Screenshots at 390 × 844 in docs/screenshots/location/."""
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from helpers import click, sign_up, wait_for, wait_text
from phone_screens import as_phone, save_doc_shot
from test_escalation import alice_watched_by_bob


def place(driver, server, latitude, longitude, accuracy):
    """The browser may read its position, and reads this one."""
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.base, "permissions": ["geolocation"]})
    driver.execute_cdp_cmd(
        "Emulation.setGeolocationOverride", {"latitude": latitude, "longitude": longitude, "accuracy": accuracy})


def test_her_sos_shows_her_location_to_bob_until_the_all_clear(server, browsers, shot):
    alice, bob = alice_watched_by_bob(server, browsers, shot, phones=True)
    place(alice, server, 51.5007292, -0.1246254, 35)

    # Off until she turns it on: the SOS form asks nothing of the browser.
    alice.get(server.base + "/")
    assert alice.find_element(By.ID, "sos-form").get_attribute("data-locate") is None
    alice.get(server.base + "/settings")
    assert not alice.find_element(By.ID, "share-location").is_selected()
    wait_text(alice, "never in the background", css="#location-card")
    click(alice, "#share-location")
    click(alice, "#save-location")
    wait_text(alice, "Location sharing is on.")
    assert alice.find_element(By.ID, "share-location").is_selected()
    preview = alice.find_element(By.ID, "location-preview").text
    assert "Last location:" in preview and "from Alice's SOS" in preview
    save_doc_shot(alice, "location", "switch", scroll_to="#location-card")

    # Her SOS: five quick taps. The alert goes out; then her position is read and sent.
    alice.get(server.base + "/")
    assert alice.find_element(By.ID, "sos-form").get_attribute("data-locate") == "sos"
    sos = alice.find_element(By.ID, "sos")
    for _ in range(5):
        sos.click()
    wait_text(alice, "Alert active")
    wait_text(alice, "Your responders see where you were at", css="#own-location")
    assert "within 35 m" in alice.find_element(By.ID, "own-location").text

    # Bob: her location first on the alert's page, beside Call; links, no map fetched.
    bob.get(server.base + "/contacts")
    click(bob, "#dependents a[href^='/incidents/']")
    wait_text(bob, "Last location:", css="#location")
    line = bob.find_element(By.ID, "location-line").text
    assert "just now, within 35 m, from Alice's SOS" in line, line
    assert bob.find_element(By.ID, "location-map").get_attribute("href") == (
        "https://www.openstreetmap.org/?mlat=51.5007292&mlon=-0.1246254#map=17/51.5007292/-0.1246254")
    assert bob.find_element(By.ID, "location-geo").get_attribute("href") == "geo:51.5007292,-0.1246254"
    loaded = bob.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert not [url for url in loaded if "openstreetmap" in url or "tile" in url], loaded
    save_doc_shot(bob, "location", "responder-during-sos")

    # Alice sees in her history that Bob looked.
    alice.get(server.base + "/timeline")
    wait_text(alice, "Bob Babbage saw your location")

    # The all-clear: a 3-second hold. Gone from Bob's page.
    alice.get(server.base + "/")
    clear = alice.find_element(By.ID, "sos-clear")
    ActionChains(alice).click_and_hold(clear).pause(3.5).release().perform()
    wait_text(alice, "Alert cleared")
    bob.refresh()
    wait_for(bob, lambda d: not d.find_elements(By.ID, "acknowledge"))
    assert not bob.find_elements(By.ID, "location")
    assert "51.5007" not in bob.page_source
    save_doc_shot(bob, "location", "responder-after-all-clear")


def test_at_check_ins_only_when_she_chose_it(server, browsers, shot):
    """"Also when I check in": her check-in is stored first, then her position follows it; the
    settings preview then shows her own kept location instead of the example."""
    ada = browsers()
    sign_up(ada, server, "Ada", "Walker")
    as_phone(ada)
    place(ada, server, 48.2081743, 16.3738189, 20)
    ada.get(server.base + "/")
    assert ada.find_element(By.ID, "check-in-form").get_attribute("data-locate-now") is None
    ada.get(server.base + "/settings")
    click(ada, "#share-location")
    click(ada, "#share-location-check-ins")
    click(ada, "#save-location")
    wait_text(ada, "Location sharing is on, at check-ins too.")
    wait_text(ada, "An example", css="#location-preview")

    ada.get(server.base + "/")
    assert ada.find_element(By.ID, "check-in-form").get_attribute("data-locate-now") == "check_in"
    ada.find_element(By.ID, "check-in").click()
    wait_text(ada, "today at", css="#last-check-in")

    def kept(driver):
        driver.get(server.base + "/settings")
        return "from Ada's check-in" in driver.find_element(By.ID, "location-preview").text

    wait_for(ada, kept)
    assert "An example" not in ada.find_element(By.ID, "location-preview").text
    assert "within 20 m" in ada.find_element(By.ID, "location-preview-line").text
