"""Every page beyond Home and the incident, walked in the pseudo-locale (`xx-PS`: every
catalogue string bracketed and accented): signed out (sign-in, code; the browser asks for
the pseudo-locale first), onboarding, and signed in (profile, phone code, settings, token,
webhook secret, rhythm confirm, timeline, drill, contacts, a contact, add contact, contact
preview, roles confirm, a person watched over, pings, notifications). No English may be left
on them: not in text, aria-labels, placeholders, alt texts or the page's title."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from helpers import click, fill, new_phone, wait_for
from test_languages import choose_language, english_in

KNOWN = ["Alice's script", "Alice Lovelace", "Bob Babbage", "Alice", "Bob", "Spare key at number 4",
         "https://example.com/lifesignal-hook", "LifeSignal", "AL", "BB"]

# Visible text and the attributes people read, in `main` and the header. Left out, as data
# rather than words: codes and links (`code`, `.code`), history entries recorded in the hash
# chain when they happened (`.recorded`), and a select's closed options.
WORDS = """
const out = [];
const skip = '.flash, script, style, [hidden], code, .code, .recorded, option';
for (const region of document.querySelectorAll('header.top, main')) {
  const walker = document.createTreeWalker(region, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, parent = node.parentElement;
    if (!parent || parent.closest(skip)) continue;
    if (!parent.getClientRects().length || getComputedStyle(parent).visibility === 'hidden') continue;
    const text = node.textContent.trim();
    if (text) out.push(text);
  }
  for (const el of region.querySelectorAll('[aria-label], [placeholder], img[alt]')) {
    if (el.closest(skip)) continue;
    for (const name of ['aria-label', 'placeholder', 'alt']) {
      const value = el.getAttribute(name);
      if (value) out.push(value);
    }
  }
}
out.push(document.title);
return out;
"""


def english_left(driver):
    return english_in(driver.execute_script(WORDS), KNOWN)


def pseudo_browser(browsers):
    """A browser whose first language is the pseudo-locale, for the pages before sign-in."""
    driver = browsers()
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Language": "xx-PS"}})
    return driver


def ready(driver, css):
    wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete" and d.find_elements(By.CSS_SELECTOR, css))


def test_every_page_in_the_pseudo_locale(server, browsers):
    left = {}

    def walk(driver, name, css="main"):
        ready(driver, css)
        left[name] = english_left(driver)

    # Signed out, then onboarding: the pseudo-locale is the browser's language.
    ada = pseudo_browser(browsers)
    phone = new_phone()
    ada.get(server.base + "/signin")
    walk(ada, "sign-in", "#phone")
    mark = server.mark()
    fill(ada, "phone", phone)
    click(ada, "form[action='/signin'] button")
    ready(ada, "#code")
    # The wait before a new code, written by the script, is in the page's words too.
    wait_for(ada, lambda d: d.find_element(By.ID, "resend-wait").text.startswith("["))
    walk(ada, "code", "#code")
    fill(ada, "code", server.code_for(phone, after=mark))
    click(ada, "form[action='/signin/code'] button")
    walk(ada, "onboarding (names)", "#firstName")
    fill(ada, "firstName", "Alice")
    fill(ada, "lastName", "Lovelace")
    click(ada, "#continue")
    walk(ada, "onboarding (note)", "#note")
    fill(ada, "note", "Spare key at number 4")
    click(ada, "#continue")
    walk(ada, "onboarding (rhythm)", "#rhythm-interval")
    ada.find_element(By.ID, "rhythm-interval").click()
    click(ada, "#continue")
    ready(ada, "#check-in")
    assert ada.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"

    # Bob signs up in English and chooses the pseudo-locale in Settings.
    bob = browsers()
    bob_phone = new_phone()
    bob.get(server.base + "/signin")
    ready(bob, "#phone")
    mark = server.mark()
    fill(bob, "phone", bob_phone)
    click(bob, "form[action='/signin'] button")
    ready(bob, "#code")
    fill(bob, "code", server.code_for(bob_phone, after=mark))
    click(bob, "form[action='/signin/code'] button")
    ready(bob, "#firstName")
    fill(bob, "firstName", "Bob")
    fill(bob, "lastName", "Babbage")
    click(bob, "#continue")
    ready(bob, "#note")
    click(bob, "#continue")
    ready(bob, "#rhythm-watch")
    bob.find_element(By.ID, "rhythm-watch").click()
    click(bob, "#continue")
    ready(bob, "#status")
    choose_language(bob, server, "xx-PS")

    # Bob asks to watch over Alice with her link; she accepts.
    ada.get(server.base + "/contacts/add")
    walk(ada, "add contact", "#my-link")
    link = ada.find_element(By.ID, "my-link").get_attribute("href")
    bob.get(link)
    walk(bob, "contact preview", "#add-contact")
    click(bob, "#dependent")
    click(bob, "#add-contact")
    ready(bob, "#outgoing-requests")
    walk(bob, "contacts (waiting)", "#outgoing-requests")
    ada.get(server.base + "/contacts")
    walk(ada, "contacts (request)", "#incoming-requests")
    click(ada, "#incoming-requests button.primary")
    ready(ada, "#responders li")
    walk(ada, "contacts", "#responders li")

    # A person Bob watches over: her page, and a ping she answers on Pings.
    bob.get(server.base + "/contacts")
    ready(bob, "#dependents li")
    walk(bob, "contacts (dependent)", "#dependents li")
    bob.find_element(By.CSS_SELECTOR, "#dependents li a[href^='/contacts/']").click()
    walk(bob, "a person watched over", "#ping")
    click(bob, "#ping")
    ready(bob, "#clear-ping")
    walk(bob, "a person watched over (pinged)", "#clear-ping")
    ada.get(server.base + "/pings")
    walk(ada, "pings", "#answer-all")
    ada.get(server.base + "/contacts")
    ready(ada, "#responders li")
    ada.find_element(By.CSS_SELECTOR, "#responders li a[href^='/contacts/']").click()
    walk(ada, "a contact", "#save-roles")
    # Asking Bob to be watched over too is confirmed first.
    click(ada, "#dependent")
    click(ada, "#save-roles")
    walk(ada, "roles confirm", "#confirm-roles")

    # Her own pages.
    ada.get(server.base + "/profile")
    walk(ada, "profile", "#save-profile")
    fill(ada, "phone", new_phone())
    click(ada, "form[action='/profile/phone'] button")
    walk(ada, "phone code", "#code")
    ada.get(server.base + "/profile")
    ready(ada, "#token-name")
    fill(ada, "name", "Alice's script")
    click(ada, "form[action='/profile/tokens'] button")
    walk(ada, "token", "#new-token")
    ada.get(server.base + "/settings")
    walk(ada, "settings", "#save-grace")
    ada.execute_script("document.querySelector('#add-channel').closest('details').open = true")
    Select(ada.find_element(By.ID, "kind")).select_by_value("webhook")
    fill(ada, "address", "https://example.com/lifesignal-hook")
    click(ada, "#add-channel-button")
    walk(ada, "webhook secret", "#signing-secret")
    ada.get(server.base + "/")
    ready(ada, "#save-rhythm")
    ada.execute_script("document.querySelector('#save-rhythm').closest('details').open = true")
    ada.find_element(By.ID, "rhythm-interval").click()
    Select(ada.find_element(By.ID, "interval")).select_by_value(str(8 * 3600))
    click(ada, "#save-rhythm")
    walk(ada, "rhythm confirm", "#confirm-rhythm")
    # Bob's notifications before the drill: a drill's notice is still written in English by
    # LifeSignalCore (Drills.runDrill), outside the pages.
    bob.get(server.base + "/notifications")
    walk(bob, "notifications (Bob)", "#unread-count")
    ada.get(server.base + "/timeline")
    walk(ada, "timeline", "#run-drill")
    click(ada, "#run-drill")
    walk(ada, "drill", "#drill-recipients li")
    ada.get(server.base + "/notifications")
    walk(ada, "notifications", "#unread-count")
    assert {page: texts for page, texts in left.items() if texts} == {}
