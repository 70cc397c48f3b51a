import itertools
import time

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

_numbers = itertools.count(100)


def new_phone():
    return f"+4477009{int(time.time()) % 1000:03d}{next(_numbers) % 1000:03d}"[:13]


def wait_text(driver, text, timeout=30, css="body"):
    """Waits until `text` is in the element `css`. Live refreshes replace elements while
    the driver reads them; a read that fails that way is simply tried again."""
    def present(d):
        try:
            return text in d.find_element(By.CSS_SELECTOR, css).text
        except WebDriverException:
            return False
    WebDriverWait(driver, timeout, poll_frequency=0.2).until(present, message=f"{text!r} never appeared in {css}")


def fill(driver, name, value):
    field = driver.find_element(By.NAME, name)
    field.clear()
    field.send_keys(value)


def click(driver, css, timeout=30):
    """Clicks the element `css`, finding it again if a live refresh replaced it meanwhile."""
    def clicked(d):
        try:
            d.find_element(By.CSS_SELECTOR, css).click()
            return True
        except (StaleElementReferenceException, NoSuchElementException):
            return False
    WebDriverWait(driver, timeout, poll_frequency=0.2).until(clicked, message=f"could not click {css}")


submit = click


def sign_up(driver, server, first, last, shot=None, note="", rhythm="interval"):
    phone = new_phone()
    driver.get(server.base + "/")
    wait_text(driver, "Sign in")
    if shot: shot(driver, "signin")
    mark = server.mark()
    fill(driver, "phone", phone)
    submit(driver, "form[action='/signin'] button")
    wait_text(driver, "Enter your code")
    wait_text(driver, "You can ask for a new code in", css="#resend-wait")
    if shot: shot(driver, "code")
    fill(driver, "code", server.code_for(phone, after=mark))
    submit(driver, "form[action='/signin/code'] button")
    onboard(driver, first, last, shot, note, rhythm)
    wait_text(driver, "Watching over others" if rhythm == "watch" else "Plenty of time")
    return phone


def onboard(driver, first, last, shot=None, note="", rhythm="interval"):
    """The three onboarding steps: names, emergency note, and whether (and how) to check in."""
    wait_text(driver, "Step 1 of 3")
    fill(driver, "firstName", first)
    fill(driver, "lastName", last)
    if shot: shot(driver, "onboarding_names")
    submit(driver, "#continue")
    wait_text(driver, "Step 2 of 3")
    if note:
        fill(driver, "note", note)
    if shot: shot(driver, "onboarding_note")
    submit(driver, "#continue")
    wait_text(driver, "Step 3 of 3")
    wait_text(driver, "Do you want check-ins yourself?")
    driver.find_element(By.ID, "rhythm-" + rhythm).click()
    if shot: shot(driver, "onboarding_rhythm")
    submit(driver, "#continue")


def sign_in_code(driver, server, phone):
    """Signs in an existing or new number from the sign-in page (already open)."""
    mark = server.mark()
    fill(driver, "phone", phone)
    submit(driver, "form[action='/signin'] button")
    wait_text(driver, "Enter your code")
    fill(driver, "code", server.code_for(phone, after=mark))
    submit(driver, "form[action='/signin/code'] button")


def wait_for(driver, condition, timeout=30):
    return WebDriverWait(driver, timeout).until(condition)


def visible(driver, css, timeout=30):
    return WebDriverWait(driver, timeout).until(EC.visibility_of_element_located((By.CSS_SELECTOR, css)))


def ask_to_watch(server, watcher, person, person_name):
    """`watcher` opens `person`'s contact link and asks to watch over them (nothing is shared yet)."""
    person.get(server.base + "/contacts/add")
    watcher.get(person.find_element(By.ID, "my-link").get_attribute("href"))
    wait_text(watcher, "Link with " + person_name + "?")
    click(watcher, "#dependent")
    click(watcher, "#add-contact")
    wait_text(watcher, "Request sent.")
