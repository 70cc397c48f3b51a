"""Live or visibly not live, one stream per browser: the tabs of a browser share one stream
(the leader tab holds it and passes events on), the lead passes to another tab when the
leader's closes, and a stream the server refuses (429, too many open) is tried again until
the page is live, every tab saying meanwhile that it is not. The server's own count of open
streams is the judge, not the page's word."""
from selenium.webdriver.common.by import By

from helpers import sign_up, wait_for, wait_text
from live_streams import HeldStreams, live_role, open_streams, session_token


def test_two_tabs_share_one_stream_and_the_lead_passes_when_the_leader_closes(server, browsers, shot):
    alice = browsers()
    sign_up(alice, server, "Alice", "Tabs")
    token = session_token(alice)
    first = alice.current_window_handle
    wait_for(alice, lambda d: live_role(d) == "leader")

    alice.switch_to.new_window("tab")
    second = alice.current_window_handle
    alice.get(server.base + "/")
    wait_text(alice, "Plenty of time", css="#status")
    wait_for(alice, lambda d: live_role(d) == "follower")
    # The pages passed through while signing up held streams of their own; the server finds
    # them gone at its next keep-alive. Then two tabs hold one stream: with a stream per tab
    # the count would stay at 2.
    wait_for(alice, lambda d: open_streams(server, token) == 1, timeout=60)

    # An event reaches the tab without a stream: the reminder (30 minutes before the
    # deadline) is a notification, and the follower's navigation shows it unread, unreloaded.
    assert not alice.find_elements(By.ID, "badge-unread")
    server.advance(24 * 3600 - 29 * 60)
    wait_for(alice, lambda d: d.find_elements(By.ID, "badge-unread"))
    shot(alice, "follower_tab_told_live")
    alice.switch_to.window(first)
    wait_for(alice, lambda d: d.find_elements(By.ID, "badge-unread"))

    # The leader's tab closes: the other takes the lead, opens the stream and is live on its
    # own (the deadline passes and its status turns overdue without a reload).
    alice.close()
    alice.switch_to.window(second)
    wait_for(alice, lambda d: live_role(d) == "leader")
    server.advance(30 * 60)
    wait_text(alice, "Overdue", css="#status")
    signs = alice.find_elements(By.ID, "not-live")
    assert not signs or not signs[0].is_displayed()
    wait_for(alice, lambda d: open_streams(server, token) == 1, timeout=60)
    shot(alice, "new_leader_live")


def test_a_refused_stream_is_tried_again_and_every_tab_says_it_is_not_live_meanwhile(server, browsers, shot):
    alice = browsers()
    sign_up(alice, server, "Alice", "Capped")
    token = session_token(alice)
    # No live page in this browser while the cap is filled.
    alice.get(server.base + "/static/app.css")
    held = HeldStreams(server, token)
    try:
        # Other devices take every stream the cap allows. Streams of pages this browser left
        # count until the server's next keep-alive finds them gone; once they are, the freed
        # places are taken too, so the cap is full of streams that stay.
        held.open_until_refused()
        wait_for(alice, lambda d: open_streams(server, token) == len(held.connections), timeout=60)
        held.open_until_refused()
        assert open_streams(server, token) == len(held.connections) > 0

        alice.get(server.base + "/")
        wait_for(alice, lambda d: live_role(d) == "leader")
        wait_text(alice, "Not live", css="#not-live")
        assert "Reload" in alice.find_element(By.ID, "not-live").text
        first = alice.current_window_handle
        # A second tab hears from the leader that the browser is not live, and says so too.
        alice.switch_to.new_window("tab")
        alice.get(server.base + "/contacts")
        wait_for(alice, lambda d: live_role(d) == "follower")
        wait_text(alice, "Not live", css="#not-live")
        shot(alice, "follower_not_live_after_429")
    finally:
        held.close()
    # Freed (the server notices at its next keep-alive), the leader's next try gets a stream,
    # and both tabs drop the sign by themselves.
    wait_for(alice, lambda d: not d.find_element(By.ID, "not-live").is_displayed(), timeout=150)
    alice.switch_to.window(first)
    wait_for(alice, lambda d: not d.find_element(By.ID, "not-live").is_displayed(), timeout=30)
    wait_for(alice, lambda d: open_streams(server, token) == 1, timeout=60)
    shot(alice, "live_again")
