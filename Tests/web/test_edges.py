"""The edges where people are most at risk, in a phone browser: during grace the person is told
when the alert goes out and to whom; her responder reads her clock and the deadline she missed,
and is told "Alice is safe" when it ends; someone who joins to watch over a neighbour is never
put on a rhythm; a "no" to a request stays visible; a rhythm change into the past asks first."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from helpers import ask_to_watch, click, fill, new_phone, sign_in_code, sign_up, submit, wait_text


def test_grace_then_alert_then_alice_is_safe(server, browsers, shot):
    alice, bob = browsers(), browsers()
    sign_up(alice, server, "Alice", "Grace")
    sign_up(bob, server, "Bob", "Babbage")
    # Bob asks to watch over Alice; she accepts.
    ask_to_watch(server, bob, alice, "Alice Grace")
    alice.get(server.base + "/contacts")
    click(alice, "#incoming-requests button.primary")
    wait_text(alice, "You are now linked with Bob Babbage.")
    alice.get(server.base + "/")
    click(alice, "#check-in")
    wait_text(alice, "Checked in.")

    # Past her deadline, inside the grace: when the alert goes out, and to whom.
    server.advance(24 * 3600 + 60)
    alice.get(server.base + "/")
    wait_text(alice, "If you don't check in by", css="#grace")
    assert "we alert Bob Babbage." in alice.find_element(By.ID, "grace").text
    shot(alice, "alice_grace")

    # The alert: Bob's Home names the deadline she missed, not the moment the alert went out.
    server.advance(10 * 60)
    bob.get(server.base + "/")
    wait_text(bob, "Missed the check-in due", css="section.takeover")
    click(bob, "section.takeover button.primary")
    wait_text(bob, "You're on it.")

    # She checks in: the takeover gives way to "Alice is safe", and nobody is "on it" any more.
    alice.get(server.base + "/")
    click(alice, "#check-in")
    wait_text(alice, "Checked in.")
    bob.get(server.base + "/")
    wait_text(bob, "Alice Grace is safe", css="main")
    assert "checked in today at" in bob.find_element(By.CSS_SELECTOR, "section.all-clear").text
    assert not bob.find_elements(By.CSS_SELECTOR, "section.takeover")
    shot(bob, "bob_alice_is_safe")
    click(bob, "section.all-clear button")
    bob.get(server.base + "/")
    wait_text(bob, "People you watch over", css="#watched")
    assert not bob.find_elements(By.CSS_SELECTOR, "section.all-clear")


def test_someone_who_only_watches_is_asked_and_never_overdue(server, browsers, shot):
    wes = browsers()
    sign_up(wes, server, "Wes", "Watcher", shot=shot, rhythm="watch")
    assert not wes.find_elements(By.ID, "check-in")
    assert "Nobody is watching over you" not in wes.find_element(By.ID, "main").text
    server.advance(3 * 86400)
    wes.get(server.base + "/")
    wait_text(wes, "Watching over others", css="#status")
    assert "Overdue" not in wes.find_element(By.ID, "main").text
    shot(wes, "wes_watch_only_home")


def test_onboarding_chooses_nothing_for_the_person(server, browsers):
    ivy = browsers()
    ivy.get(server.base + "/")
    sign_in_code(ivy, server, new_phone())
    fill(ivy, "firstName", "Ivy")
    fill(ivy, "lastName", "Asked")
    submit(ivy, "#continue")
    wait_text(ivy, "Step 2 of 3")
    submit(ivy, "#continue")
    wait_text(ivy, "Do you want check-ins yourself?")
    for choice in ("interval", "daily", "watch"):
        assert not ivy.find_element(By.ID, "rhythm-" + choice).is_selected()
    # Only the chosen option's fields show.
    assert not ivy.find_element(By.ID, "interval").is_displayed()
    click(ivy, "#rhythm-daily")
    assert ivy.find_element(By.ID, "daily-time").is_displayed()
    assert not ivy.find_element(By.ID, "interval").is_displayed()


def test_a_declined_request_stays_visible_and_a_request_opens_accept(server, browsers):
    ann, ben = browsers(), browsers()
    sign_up(ann, server, "Ann", "Asker")
    sign_up(ben, server, "Ben", "Busy")
    ask_to_watch(server, ann, ben, "Ben Busy")
    # Ben's notification opens the page where he can answer.
    ben.get(server.base + "/notifications")
    wait_text(ben, "Answer the request", css="#notifications")
    click(ben, "#notifications a[href='/contacts#requests-card']")
    wait_text(ben, "Ann Asker asks to watch over you", css="#incoming-requests")
    click(ben, "#incoming-requests button[id^='decline-']")
    wait_text(ben, "Request declined. Nothing is shared.")
    # Answered: the notification is read; Ann sees the "no".
    ben.get(server.base + "/notifications")
    wait_text(ben, "Ann Asker", css="#notifications")
    assert "Unread" not in ben.find_element(By.ID, "notifications").text
    assert "Answer the request" not in ben.find_element(By.ID, "notifications").text
    ann.get(server.base + "/contacts")
    wait_text(ann, "Ben Busy declined your request", css="#declined-card")


def test_a_rhythm_change_into_the_past_asks_first(server, browsers):
    kit = browsers()
    sign_up(kit, server, "Kit", "Late")
    click(kit, "#check-in")
    wait_text(kit, "Checked in.")
    server.advance(10 * 3600)
    kit.get(server.base + "/")
    kit.find_element(By.CSS_SELECTOR, "details summary").click()
    Select(kit.find_element(By.ID, "interval")).select_by_value(str(8 * 3600))
    click(kit, "#save-rhythm")
    wait_text(kit, "This makes you overdue now", css="#overdue-warning")
    click(kit, "#confirm-rhythm")
    wait_text(kit, "Check-in settings saved.")
