import itertools
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

_numbers = itertools.count(100)


def new_phone():
    return f"+4477009{int(time.time()) % 1000:03d}{next(_numbers) % 1000:03d}"[:13]


def wait_text(driver, text, timeout=30, css="body"):
    WebDriverWait(driver, timeout).until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, css), text))


def fill(driver, name, value):
    field = driver.find_element(By.NAME, name)
    field.clear()
    field.send_keys(value)


def submit(driver, css):
    driver.find_element(By.CSS_SELECTOR, css).click()


def sign_up(driver, server, first, last, shot=None, note=""):
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
    wait_text(driver, "Welcome to LifeSignal")
    fill(driver, "firstName", first)
    fill(driver, "lastName", last)
    if note:
        fill(driver, "note", note)
    if shot: shot(driver, "onboarding")
    submit(driver, "form[action='/onboarding'] button")
    wait_text(driver, "Plenty of time")
    return phone
