from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from helpers import sign_up, wait_text
from phone_screens import save_doc_shot


def test_daily_deadline_is_set_shown_and_kept(server, browsers, shot):
    """"By 09:30 every day" is set from the web, shown on Home, and changing the reminder
    keeps it a daily deadline (the form no longer turns it back into an interval)."""
    ada = browsers()
    sign_up(ada, server, "Ada", "Byron", shot)
    ada.find_element(By.CSS_SELECTOR, "details summary").click()
    ada.find_element(By.ID, "rhythm-daily").click()
    # The time input's typing rules depend on the browser's locale: set it as a script would.
    ada.execute_script("document.getElementById('daily-time').value = '09:30'")
    zone = ada.find_element(By.CSS_SELECTOR, "input[name=timeZone]").get_attribute("value")
    assert zone, "the page fills in the browser's time zone"
    ada.find_element(By.ID, "save-rhythm").click()
    wait_text(ada, "Change your rhythm?")
    assert f"by 09:30 every day ({zone} time)" in ada.find_element(By.ID, "new-rhythm").text
    shot(ada, "confirm_daily_rhythm")
    ada.find_element(By.ID, "confirm-rhythm").click()
    wait_text(ada, "Check-in settings saved.")
    assert ada.find_element(By.ID, "rhythm-now").text == f"by 09:30 every day ({zone} time)"
    shot(ada, "home_daily_rhythm")

    # Change only the reminder: the form comes back as it is, a daily deadline at 09:30.
    ada.find_element(By.CSS_SELECTOR, "details summary").click()
    assert ada.find_element(By.ID, "rhythm-daily").is_selected()
    assert ada.find_element(By.ID, "daily-time").get_attribute("value") == "09:30"
    Select(ada.find_element(By.ID, "reminders")).select_by_value("2h")
    ada.find_element(By.ID, "save-rhythm").click()
    wait_text(ada, "Change your rhythm?")
    ada.find_element(By.ID, "confirm-rhythm").click()
    wait_text(ada, "Check-in settings saved.")
    assert ada.find_element(By.ID, "rhythm-now").text == f"by 09:30 every day ({zone} time)"


def test_times_are_written_in_the_persons_own_zone(server, browsers, shot):
    """A daily deadline of 09:30 in Abidjan (UTC+0, no DST) reads 18:30 to a person whose own
    zone is Tokyo (UTC+9, no DST): every time on a page is in the reader's zone, in words."""
    kai = browsers()
    sign_up(kai, server, "Kai", "Tanaka", shot)
    kai.find_element(By.CSS_SELECTOR, "details summary").click()
    kai.find_element(By.ID, "rhythm-daily").click()
    kai.execute_script(
        "document.getElementById('daily-time').value = '09:30';"
        "document.querySelector('input[name=timeZone]').value = 'Africa/Abidjan';")
    kai.find_element(By.ID, "save-rhythm").click()
    wait_text(kai, "Change your rhythm?")
    kai.find_element(By.ID, "confirm-rhythm").click()
    wait_text(kai, "Check-in settings saved.")

    kai.get(server.base + "/settings")
    field = kai.find_element(By.ID, "time-zone")
    field.clear()
    field.send_keys("Asia/Tokyo")
    kai.find_element(By.ID, "save-time-zone").click()
    wait_text(kai, "times are now written in Asia/Tokyo time")
    kai.get(server.base + "/")
    deadline = kai.find_element(By.ID, "deadline").text
    assert deadline.endswith("at 18:30") or deadline.endswith(", 18:30"), deadline
    assert "UTC" not in kai.find_element(By.ID, "main").text
    shot(kai, "home_in_tokyo_time")

    # An unknown zone is refused with a sentence, and nothing changes.
    kai.get(server.base + "/settings")
    field = kai.find_element(By.ID, "time-zone")
    field.clear()
    field.send_keys("Mars/Olympus")
    kai.find_element(By.ID, "save-time-zone").click()
    wait_text(kai, "That time zone is not known")
    assert kai.find_element(By.ID, "time-zone").get_attribute("value") == "Asia/Tokyo"


def test_a_watch_only_account_is_never_overdue_and_can_start_a_rhythm(server, browsers, shot):
    """Someone who only watches over others: no countdown, no "Overdue", ever; a rhythm can be
    chosen at any time, and it starts from then."""
    wes = browsers()
    sign_up(wes, server, "Wes", "Watcher", shot)
    wes.find_element(By.CSS_SELECTOR, "details summary").click()
    wes.find_element(By.ID, "rhythm-watch").click()
    wes.find_element(By.ID, "save-rhythm").click()
    wait_text(wes, "You only watch over others now")
    wait_text(wes, "Watching over others", css="#status")
    assert not wes.find_elements(By.ID, "countdown")
    # No "I'm OK": nothing is expected of her.
    assert not wes.find_elements(By.ID, "check-in")
    shot(wes, "watch_only_home")

    server.advance(10 * 86400)
    wes.refresh()
    wait_text(wes, "Watching over others", css="#status")
    assert "Overdue" not in wes.find_element(By.ID, "main").text

    # Back to checking in: a whole day from now, not overdue at once.
    wes.find_element(By.CSS_SELECTOR, "details summary").click()
    assert wes.find_element(By.ID, "rhythm-watch").is_selected()
    wes.find_element(By.ID, "rhythm-interval").click()
    Select(wes.find_element(By.ID, "interval")).select_by_value(str(24 * 3600))
    wes.find_element(By.ID, "save-rhythm").click()
    wait_text(wes, "Change your rhythm?")
    assert wes.find_element(By.ID, "new-deadline").text.startswith("tomorrow at")
    wes.find_element(By.ID, "confirm-rhythm").click()
    wait_text(wes, "Check-in settings saved.")
    wait_text(wes, "Plenty of time", css="#status")


def test_two_daily_times_with_a_rest_day(server, browsers, shot):
    """Two daily times on their days, set with plain form fields: 09:30 Monday to Saturday and
    21:30 on weekdays, Sunday a rest day. Said in words on the confirmation and on Home, the
    form comes back as saved, and two times too close together are refused with nothing changed."""
    ada = browsers()
    sign_up(ada, server, "Ada", "Lovelace", shot)
    ada.find_element(By.CSS_SELECTOR, "details summary").click()
    ada.find_element(By.ID, "rhythm-daily").click()
    ada.execute_script(
        "document.getElementById('daily-time').value = '09:30';"
        "document.getElementById('daily-time-2').value = '21:30';"
        "document.querySelector('input[name=timeZone]').value = 'Europe/Vienna';")
    for box in ("days-1-sun", "days-2-sat", "days-2-sun"):
        ada.find_element(By.ID, box).click()
    ada.find_element(By.ID, "save-rhythm").click()
    wait_text(ada, "Change your rhythm?")
    said = "by 09:30 from Monday to Saturday; by 21:30 on weekdays (Europe/Vienna time)"
    assert ada.find_element(By.ID, "new-rhythm").text == said
    ada.find_element(By.ID, "confirm-rhythm").click()
    wait_text(ada, "Check-in settings saved.")
    assert ada.find_element(By.ID, "rhythm-now").text == said

    # The form comes back as saved: two rows, Sunday unticked on both, the others empty.
    ada.find_element(By.CSS_SELECTOR, "details summary").click()
    assert ada.find_element(By.ID, "rhythm-daily").is_selected()
    assert ada.find_element(By.ID, "daily-time").get_attribute("value") == "09:30"
    assert ada.find_element(By.ID, "daily-time-2").get_attribute("value") == "21:30"
    assert ada.find_element(By.ID, "daily-time-3").get_attribute("value") == ""
    assert not ada.find_element(By.ID, "days-1-sun").is_selected()
    assert ada.find_element(By.ID, "days-1-sat").is_selected()
    assert not ada.find_element(By.ID, "days-2-sat").is_selected()
    assert ada.find_element(By.ID, "days-2-fri").is_selected()
    save_doc_shot(ada, "schedules", "daily-times", scroll_to="#rhythm-daily")

    # A third time a quarter of an hour after 21:30 is refused; the schedule stays as it was.
    ada.execute_script("document.getElementById('daily-time-3').value = '21:45';")
    ada.find_element(By.ID, "save-rhythm").click()
    wait_text(ada, "Daily times must be at least an hour apart.")
    ada.get(server.base + "/")
    assert ada.find_element(By.ID, "rhythm-now").text == said
