"""Profile, settings, notifications and the timeline, as one person uses them."""
import base64
import datetime
import json
import os
import tempfile
import time
import urllib.request

import pytest

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from helpers import click, fill, sign_up, wait_text


def confirm_channel_code(driver, server, address):
    """Reads the code a new channel was sent (a development server shows it in its log; it is
    never a notification) and enters it in the settings."""
    code = server.channel_code_for(address)
    driver.get(server.base + "/notifications")
    assert "Your LifeSignal code" not in driver.find_element(By.TAG_NAME, "main").text
    driver.get(server.base + "/settings")
    driver.find_element(By.CSS_SELECTOR, "#channels input[name=code]").send_keys(code)
    click(driver, "#channels form[action$='/verify'] button")

# A 1×1 PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")


def test_profile_settings_timeline_and_notifications(server, browsers, shot):
    dana = browsers()
    sign_up(dana, server, "Dana", "Scott")

    # Profile: names and note, with every value escaped on the way back.
    dana.get(server.base + "/profile")
    wait_text(dana, "Where you're signed in")
    fill(dana, "lastName", "Scott-Ng")
    fill(dana, "note", '<script>alert("x")</script> insulin in the fridge')
    click(dana, "#save-profile")
    wait_text(dana, "Profile saved.")
    assert dana.find_element(By.ID, "note").get_attribute("value").startswith('<script>alert("x")</script>')
    # A bad name is refused and changes nothing.
    fill(dana, "firstName", "D4na!")
    click(dana, "#save-profile")
    wait_text(dana, "name")
    assert dana.find_element(By.ID, "firstName").get_attribute("value") == "Dana"

    # Picture: a PNG is accepted and shown; a text file is refused.
    with tempfile.NamedTemporaryFile(suffix=".png", delete=False) as f:
        f.write(PNG)
    dana.find_element(By.ID, "avatar").send_keys(f.name)
    click(dana, "#upload-avatar")
    wait_text(dana, "Picture saved.")
    assert dana.find_element(By.ID, "my-avatar").get_attribute("naturalWidth") == "1"
    with tempfile.NamedTemporaryFile(suffix=".png", delete=False) as g:
        g.write(b"not a picture at all")
    dana.find_element(By.ID, "avatar").send_keys(g.name)
    click(dana, "#upload-avatar")
    wait_text(dana, "PNG or JPEG", css=".flash")
    os.unlink(f.name), os.unlink(g.name)
    # This browser is listed as a session.
    assert "this browser" in dana.find_element(By.CSS_SELECTOR, "table").text
    shot(dana, "profile")

    # Settings: grace, a channel, a pause and its end.
    dana.get(server.base + "/settings")
    Select(dana.find_element(By.ID, "grace")).select_by_value("30")
    click(dana, "#save-grace")
    wait_text(dana, "Grace period saved: 30 minutes.")
    click(dana, "details > summary")
    fill(dana, "address", "not-an-address")
    click(dana, "#add-channel-button")
    wait_text(dana, "Enter one e-mail address like name@example.com.")
    click(dana, "details > summary")
    fill(dana, "address", "dana@example.com")
    click(dana, "#add-channel-button")
    # A mailbox receives nothing but its code until the code comes back.
    wait_text(dana, "Sending a code to dana@example.com")
    wait_text(dana, "waiting for its code", css="#channels")
    confirm_channel_code(dana, server, "dana@example.com")
    wait_text(dana, "E-mail confirmed: alerts go there now.")
    wait_text(dana, "dana@example.com", css="#channels")
    assert "waiting for its code" not in dana.find_element(By.ID, "channels").text
    # Back in ten days (counted from the server's day: its clock is the test clock).
    today = dana.find_element(By.ID, "until").get_attribute("min")
    back = (datetime.date.fromisoformat(today) + datetime.timedelta(days=10)).isoformat()
    assert dana.find_element(By.ID, "until").get_attribute("max") > back
    dana.execute_script("document.getElementById('until').value = arguments[0]", back)
    click(dana, "#pause")
    wait_text(dana, "Paused until", css="#pause-state")
    shot(dana, "settings_paused")
    dana.get(server.base + "/")
    wait_text(dana, "Paused until", css="#status")
    dana.get(server.base + "/settings")
    click(dana, "#resume")
    wait_text(dana, "Pause ended.")

    # Timeline: the preview names what would happen, the drill reports its deliveries,
    # the chain verifies and the export is the JSON of the entries.
    dana.get(server.base + "/timeline")
    wait_text(dana, "Reminder to you", css="#preview")
    wait_text(dana, "Chain intact", css="#chain-state")
    assert "Grace" in dana.find_element(By.ID, "history").text or "Paused" in dana.find_element(By.ID, "history").text
    shot(dana, "timeline")
    # A drill needs someone to tell (the drill with responders is in test_escalation).
    click(dana, "#run-drill")
    wait_text(dana, "Add a responder before running a drill.")
    cookies = {c["name"]: c["value"] for c in dana.get_cookies()}
    request = urllib.request.Request(
        server.base + "/timeline/export.json", headers={"Cookie": f"ls_session={cookies['ls_session']}"})
    response = urllib.request.urlopen(request)
    assert "attachment" in response.headers["Content-Disposition"]
    entries = json.loads(response.read())
    assert [e["sequence"] for e in entries] == list(range(1, len(entries) + 1))
    assert any(e["kind"] == "paused" for e in entries)

    # Notifications: filters and read state. 23 h 45 min on, the 30-minute reminder is due
    # (a "system" notification); the page updates itself when it arrives.
    server.advance(23 * 3600 + 45 * 60)
    dana.get(server.base + "/notifications?category=system")
    wait_text(dana, "Time to check in", css="#notifications")
    shot(dana, "notifications_system")
    dana.get(server.base + "/notifications?category=pings")
    wait_text(dana, "Nothing here yet.")
    dana.get(server.base + "/notifications?unread=1")
    wait_text(dana, "Time to check in", css="#notifications")
    unread = int(dana.find_element(By.ID, "unread-count").text.split()[0])
    assert unread >= 1
    click(dana, "#notifications form[action$='/read'] button")
    wait_text(dana, f"{unread - 1} unread", css="#unread-count")
    if unread > 1:
        click(dana, "#read-all")
    wait_text(dana, "0 unread", css="#unread-count")
    dana.get(server.base + "/notifications")
    assert "Time to check in" in dana.find_element(By.ID, "notifications").text

    # Sign out ends the session.
    dana.get(server.base + "/profile")
    click(dana, "#sign-out")
    wait_text(dana, "Sign in")
    dana.get(server.base + "/profile")
    wait_text(dana, "Sign in")


def test_a_text_message_channel_is_added_proved_and_removed(server, browsers, shot):
    """Someone without a smartphone app: a text-message channel, proved with the code sent to it."""
    gus = browsers()
    sign_up(gus, server, "Gus", "Grey", shot)
    gus.get(server.base + "/settings")
    click(gus, "details > summary")
    Select(gus.find_element(By.ID, "kind")).select_by_value("sms")
    fill(gus, "address", "+44 7700 900999")
    click(gus, "#add-channel-button")
    wait_text(gus, "Sending a code to +447700900999")
    wait_text(gus, "waiting for its code", css="#channels")
    # This development server has no text provider: the page says the code was not sent,
    # never "sent" (looked at again until the outbox has tried).
    def code_state():
        return gus.find_element(By.CSS_SELECTOR, "#channels [id^='code-state-']").text
    for _ in range(50):
        gus.get(server.base + "/settings")
        if code_state().startswith("The code could not be sent"):
            break
        time.sleep(0.2)
    assert code_state().startswith("The code could not be sent"), code_state()
    assert "sent" not in code_state().replace("could not be sent", "")
    gus.execute_script("document.getElementById('channels').scrollIntoView()")
    shot(gus, "sms_channel_code_not_sent")
    confirm_channel_code(gus, server, "+447700900999")
    wait_text(gus, "Text message confirmed: alerts go there now.")
    assert "+447700900999" in gus.find_element(By.ID, "channels").text
    shot(gus, "sms_channel_proved")
    click(gus, "#channels form[action$='/remove'] button")
    wait_text(gus, "Channel removed.")
    assert "+447700900999" not in gus.find_element(By.ID, "channels").text


def test_numbers_are_typed_the_way_people_write_them_at_home(server, browsers, shot):
    """A UK mobile typed as people in the UK write it ("07700 9…"), with the country picked
    beside it, signs in; the same number with the wrong country is refused with a sentence and
    nothing is sent; a landline for calls is typed the same way in the settings."""
    from helpers import new_phone, onboard
    ivy = browsers()
    ivy.get(server.base + "/signin")
    wait_text(ivy, "Sign in")
    phone = new_phone()  # +4477009…
    national = "0" + phone[3:7] + " " + phone[7:]
    picker = Select(ivy.find_element(By.ID, "region"))
    picker.select_by_value("US")
    fill(ivy, "phone", national)
    mark = server.mark()
    click(ivy, "form[action='/signin'] button")
    wait_text(ivy, "That is not a phone number in United States. Check it, or pick its country.")
    with pytest.raises(AssertionError):
        server.code_for(phone, after=mark, timeout=1)
    shot(ivy, "national_number_wrong_country")

    Select(ivy.find_element(By.ID, "region")).select_by_value("GB")
    assert ivy.find_element(By.ID, "phone").get_attribute("value") == national  # kept for correcting
    click(ivy, "form[action='/signin'] button")
    wait_text(ivy, "Enter your code")
    wait_text(ivy, phone)  # "We sent a 6-digit code to +4477009…"
    fill(ivy, "code", server.code_for(phone, after=mark))
    click(ivy, "form[action='/signin/code'] button")
    onboard(ivy, "Ivy", "Lane")
    wait_text(ivy, "Plenty of time")

    # The country picked is remembered: the settings offer it for a landline.
    ivy.get(server.base + "/settings")
    click(ivy, "details > summary")
    assert Select(ivy.find_element(By.ID, "region")).first_selected_option.get_attribute("value") == "GB"
    Select(ivy.find_element(By.ID, "kind")).select_by_value("voice")
    fill(ivy, "address", "020 7946 0999")
    shot(ivy, "landline_typed_nationally")
    click(ivy, "#add-channel-button")
    wait_text(ivy, "Sending a code to +442079460999")

    # The same landline as a text channel is refused, and offered as a call.
    click(ivy, "details > summary")
    Select(ivy.find_element(By.ID, "kind")).select_by_value("sms")
    fill(ivy, "address", "020 7946 0998")
    click(ivy, "#add-channel-button")
    wait_text(ivy, "That number is a landline, so it can't receive texts. Add it as a phone call instead.")
    assert "+442079460998" not in ivy.find_element(By.ID, "channels").text
    shot(ivy, "landline_refused_for_texts")


def test_the_browsers_language_picks_the_country(server):
    """Before anyone picks, the country offered is the one the browser's language names."""
    for language, country in [("fr-FR,fr;q=0.9", "FR"), ("en-GB,en;q=0.8", "GB"), ("de", "DE")]:
        request = urllib.request.Request(server.base + "/signin", headers={"Accept-Language": language})
        html = urllib.request.urlopen(request).read().decode()
        assert f'<option value="{country}" selected>' in html, language
        assert html.count(" selected>") == 1

