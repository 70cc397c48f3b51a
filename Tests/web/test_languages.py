"""LifeSignal in the reader's language: pages carry `lang` and `dir`, Settings changes the
language, Home, the SOS page and a responder's takeover read in German and Arabic (right to
left), and a walk in the pseudo-locale (`xx-PS`: every catalogue string bracketed and
accented) finds no hard-coded English in the parts of the pages moved into the catalogue.
Screenshots at 390 × 844: docs/screenshots/languages/<page>-<language>.png."""
import re
from pathlib import Path

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from helpers import click, sign_up, wait_for
from phone_screens import PHONE, as_phone
from test_escalation import link_as_dependent

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "languages"


def choose_language(driver, server, tag):
    """Settings → Your language. The pseudo-locale is not offered there: the test adds it to
    the list as a browser could, and the server takes any well-formed tag."""
    driver.get(server.base + "/settings")
    wait_for(driver, lambda d: d.find_elements(By.ID, "language"))
    select = driver.find_element(By.ID, "language")
    if tag not in [o.get_attribute("value") for o in select.find_elements(By.TAG_NAME, "option")]:
        driver.execute_script(
            "const o = document.createElement('option'); o.value = arguments[0]; o.textContent = arguments[0];"
            "document.getElementById('language').appendChild(o);", tag)
    Select(select).select_by_value(tag)
    click(driver, "#save-language")
    wait_for(driver, lambda d: saved(d, tag))


def saved(driver, tag):
    """The settings page after the save: its flash is there (in the new language)."""
    try:
        flash = driver.find_elements(By.CSS_SELECTOR, "p.flash")
        return bool(flash) and bool(flash[0].text) and driver.current_url.endswith("/settings")
    except StaleElementReferenceException:
        return False


def html(driver):
    root = driver.find_element(By.TAG_NAME, "html")
    return root.get_attribute("lang"), root.get_attribute("dir")


def screenshot(driver, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    as_phone(driver, PHONE)
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(str(SHOTS / f"{name}.png"))


def pair(server, browsers, shot):
    ada, bob = browsers(), browsers()
    sign_up(ada, server, "Alice", "Lovelace", note="Spare key at number 4")
    sign_up(bob, server, "Bob", "Babbage")
    link_as_dependent(server, ada, bob, shot)
    as_phone(ada)
    as_phone(bob)
    return ada, bob


def has_class(driver, css, name):
    try:
        return name in driver.find_element(By.CSS_SELECTOR, css).get_attribute("class").split()
    except Exception:
        return False


def sos(ada):
    wait_for(ada, lambda d: d.execute_script("return document.readyState") == "complete" and d.find_elements(By.ID, "sos"))
    button = ada.find_element(By.ID, "sos")
    for _ in range(5):
        button.click()
    wait_for(ada, lambda d: has_class(d, "#status", "tone-alert"))
    wait_for(ada, lambda d: d.find_elements(By.CSS_SELECTOR, "#help li"))


def clear(ada):
    ActionChains(ada).click_and_hold(ada.find_element(By.ID, "sos-clear")).pause(3.5).release().perform()
    wait_for(ada, lambda d: not d.find_elements(By.ID, "sos-clear"))


def test_home_sos_and_takeover_in_german_and_arabic(server, browsers, shot):
    ada, bob = pair(server, browsers, shot)
    lang, direction = html(ada)
    assert lang.startswith("en") and direction == "ltr"
    for tag, direction, check_in, on_it in (("de", "ltr", "Mir geht es gut", "Ich kümmere mich"), ("ar", "rtl", "أنا بخير", "أنا أتولّى الأمر")):
        choose_language(ada, server, tag)
        choose_language(bob, server, tag)
        ada.get(server.base + "/")
        wait_for(ada, lambda d: d.find_elements(By.ID, "check-in"))
        assert html(ada) == (tag, direction)
        assert ada.find_element(By.ID, "check-in").text.startswith(check_in)
        # The countdown the script writes keeps the page's language.
        wait_for(ada, lambda d: d.find_element(By.ID, "countdown").text)
        countdown = ada.find_element(By.ID, "countdown").text
        assert ("noch" in countdown) if tag == "de" else ("متبقٍ" in countdown), countdown
        screenshot(ada, f"home-{tag}")

        sos(ada)
        assert html(ada) == (tag, direction)
        screenshot(ada, f"sos-{tag}")

        bob.get(server.base + "/")
        wait_for(bob, lambda d: d.find_elements(By.CSS_SELECTOR, "section.takeover a[href^='tel:']"))
        assert html(bob) == (tag, direction)
        takeover = bob.find_element(By.CSS_SELECTOR, "section.takeover").text
        assert "Alice Lovelace" in takeover and on_it in takeover, takeover
        screenshot(bob, f"takeover-{tag}")
        # The alert he was sent is in his language too.
        bob.get(server.base + "/notifications")
        body = bob.find_element(By.TAG_NAME, "main").text
        assert ("Alice Lovelace braucht" if tag == "de" else "Alice Lovelace يحتاج إلى مساعدة") in body, body
        clear(ada)


# Text that is data, not words: names, numbers, times, the emergency note, punctuation.
DATA = re.compile(r"^[\s\d:.,/+()\-–—·%#…\[\]]*$")
KNOWN = ["Alice Lovelace", "Bob Babbage", "Alice", "Bob", "Spare key at number 4", "LifeSignal"]

VISIBLE_TEXT = """
const out = [];
for (const region of document.querySelectorAll(arguments[0])) {
  const walker = document.createTreeWalker(region, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, parent = node.parentElement;
    if (!parent || parent.closest('.flash, script, style, [hidden]')) continue;
    if (!parent.getClientRects().length || getComputedStyle(parent).visibility === 'hidden') continue;
    const text = node.textContent.trim();
    if (text) out.push(text);
  }
  for (const el of region.querySelectorAll('[aria-label]')) out.push(el.getAttribute('aria-label'));
}
return out;
"""

# The parts of pages whose words come from the catalogue.
CONVERTED = "header.top, #status, #help, #sos-card, #check-in-form, section.takeover, #incident-status, #incident-actions, #incident-told, #emergency-call, #language-card"


def english_in(texts, known):
    """The texts that are neither data (once the known names are taken out) nor pseudo-locale
    words (bracketed, accented): English a page still shows."""
    found = []
    for text in texts:
        rest = text
        for name in known:
            rest = rest.replace(name, "")
        if DATA.match(rest):
            continue
        if "[" in text or re.search(r"[áéíóüýçñÁÉÍÖÜÝÇÑ]", text):
            continue
        found.append(text)
    return found


def english_left(driver):
    return english_in(driver.execute_script(VISIBLE_TEXT, CONVERTED), KNOWN)


def test_pseudo_locale_walk_finds_no_hard_coded_english(server, browsers, shot):
    ada, bob = pair(server, browsers, shot)
    choose_language(ada, server, "xx-PS")
    choose_language(bob, server, "xx-PS")
    left = {}
    ada.get(server.base + "/")
    wait_for(ada, lambda d: d.find_elements(By.ID, "check-in"))
    wait_for(ada, lambda d: d.find_element(By.ID, "countdown").text.startswith("["))
    left["home"] = english_left(ada)
    ada.get(server.base + "/settings")
    left["settings (language)"] = english_left(ada)
    ada.get(server.base + "/")
    sos(ada)
    left["sos"] = english_left(ada)
    bob.get(server.base + "/")
    wait_for(bob, lambda d: d.find_elements(By.CSS_SELECTOR, "section.takeover"))
    left["takeover"] = english_left(bob)
    bob.get(bob.find_element(By.CSS_SELECTOR, "section.takeover a[href^='/incidents/']").get_attribute("href"))
    wait_for(bob, lambda d: d.find_elements(By.CSS_SELECTOR, "#incident-told tbody td"))
    left["incident"] = english_left(bob)
    assert {page: texts for page, texts in left.items() if texts} == {}


def test_the_offline_page_reads_in_the_language_the_app_last_showed(server, browsers):
    """The offline page is static (the service worker shows it without a server): its words
    come in every language with it, and it reads in the language the last page was in."""
    d = browsers()
    d.get(server.base + "/signin")
    # app.js keeps the page's language (the browser's here: English, with its region or not).
    wait_for(d, lambda d: (d.execute_script('return localStorage.getItem("lifesignal.lang")') or "").startswith("en"))
    d.execute_script('localStorage.setItem("lifesignal.lang", "de")')
    d.get(server.base + "/static/offline.html")
    wait_for(d, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Sie sind offline")
    assert d.execute_script("return document.documentElement.lang") == "de"
    assert d.title == "Offline · LifeSignal"
    click(d, "#offline-check-in")
    wait_for(d, lambda d: d.find_element(By.ID, "offline-saved").text.startswith("Meldung auf diesem Telefon gespeichert"))
    assert d.find_element(By.ID, "offline-check-in").text == "Mir geht es gut"
    d.execute_script('localStorage.setItem("lifesignal.lang", "ar")')
    d.refresh()
    wait_for(d, lambda d: d.find_element(By.TAG_NAME, "h1").text == "أنت غير متصل")
    assert d.execute_script("return document.documentElement.dir") == "rtl"
    d.execute_script('localStorage.removeItem("lifesignal.queue")')
