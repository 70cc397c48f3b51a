"""The graded answer on Home: "I'm OK — please call me today" beside "I'm OK"."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import ask_to_watch, click, sign_up, wait_text
from phone_screens import as_phone


def test_call_me_checks_in_and_asks_the_responders_once_a_day(server, browsers, shot):
    ada, bob = browsers(), browsers()
    sign_up(ada, server, "Ada", "Caller")
    sign_up(bob, server, "Bob", "Listener")

    # Nobody watches over her yet: the check-in counts, and the page says nobody could be asked.
    click(ada, "#check-in-call-me")
    wait_text(ada, "nobody could be asked to call you")
    wait_text(ada, "today at", css="#last-check-in")

    ask_to_watch(server, bob, ada, "Ada Caller")
    ada.get(server.base + "/contacts")
    click(ada, "#incoming-requests button.primary")
    wait_text(ada, "You are now linked with Bob Listener.")

    # On a 390 px phone both buttons fit, nothing scrolls sideways, and the keyboard reaches it.
    ada.get(server.base + "/")
    as_phone(ada)
    button = ada.find_element(By.ID, "check-in-call-me")
    assert button.text == "I'm OK — please call me today"
    fits = ada.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return {wide: document.documentElement.scrollWidth, left: r.left, right: r.right, height: r.height};",
        button)
    assert fits["wide"] <= 390 and fits["left"] >= 0 and fits["right"] <= 390, fits
    assert fits["height"] >= 44, fits
    ada.execute_script("arguments[0].focus()", button)
    assert ada.switch_to.active_element == button
    ada.switch_to.active_element.send_keys(Keys.ENTER)
    wait_text(ada, "We've asked Bob Listener to call you today.")
    shot(ada, "call_me_asked")

    # Bob is told, quietly: a notification, no alert taking over his Home.
    bob.get(server.base + "/notifications")
    wait_text(bob, "Ada Caller would like a call today", css="#notifications")
    assert "This is not an alert." in bob.find_element(By.ID, "notifications").text
    bob.get(server.base + "/")
    assert not bob.find_elements(By.CSS_SELECTOR, ".takeover")
    # Beside her name on his Home, for her day.
    wait_text(bob, "asked for a call today", css="#watched")

    # Without JavaScript (the form alone, posted by the browser): checked in, nobody told again.
    ada.get(server.base + "/")
    ada.execute_script(
        "const form = document.getElementById('check-in-form'), bare = form.cloneNode(true);"
        "form.replaceWith(bare); bare.querySelector('#check-in-call-me').click();")
    wait_text(ada, "You already asked for a call today, so nobody was told again.")
    bob.get(server.base + "/notifications")
    wait_text(bob, "Ada Caller would like a call today", css="#notifications")
    assert bob.find_element(By.ID, "notifications").text.count("would like a call today") == 1
