import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from helpers import sign_up, wait_text, click


def test_sign_up_check_in_and_sos(server, browsers, shot):
    alice = browsers()
    sign_up(alice, server, "Alice", "Lovelace", shot, note="Key under the <b>mat</b> & \"quotes\"")
    shot(alice, "home")
    status = alice.find_element(By.ID, "status")
    assert "tone-plenty" in status.get_attribute("class")
    assert "left" in alice.find_element(By.ID, "countdown").text
    assert alice.find_element(By.ID, "last-check-in").text == "never"

    # The countdown follows the server's clock: see "Getting close" after the clock moves below.

    alice.find_element(By.ID, "check-in").click()
    # The "Checked in" flash can be replaced by the live refresh the check-in itself
    # triggers (SSE), so wait for what stays: the last check-in time.
    wait_text(alice, "today at", css="#last-check-in")
    shot(alice, "checked_in")

    # A new rhythm is confirmed on a page that says where the deadline moves; then saved.
    alice.find_element(By.CSS_SELECTOR, "details summary").click()
    Select(alice.find_element(By.ID, "interval")).select_by_value(str(48 * 3600))
    alice.find_element(By.ID, "save-rhythm").click()
    wait_text(alice, "Change your rhythm?")
    assert "48 hours" in alice.find_element(By.ID, "main").text
    shot(alice, "confirm_rhythm")
    alice.find_element(By.ID, "confirm-rhythm").click()
    wait_text(alice, "Check-in settings saved.")
    wait_text(alice, "48 hours")
    # And back to a day, so the clock steps below mean what they say.
    alice.find_element(By.CSS_SELECTOR, "details summary").click()
    Select(alice.find_element(By.ID, "interval")).select_by_value(str(24 * 3600))
    alice.find_element(By.ID, "save-rhythm").click()
    # The confirmation is a new page: wait for it (the home page above has no such button).
    wait_text(alice, "Change your rhythm?")
    alice.find_element(By.ID, "confirm-rhythm").click()
    wait_text(alice, "Check-in settings saved.")

    # The server's clock moves 23.5 hours: getting close (text, not only colour).
    server.advance(23 * 3600 + 1800)
    alice.refresh()
    wait_text(alice, "Getting close")
    assert "tone-close" in alice.find_element(By.ID, "status").get_attribute("class")
    shot(alice, "getting_close")

    # SOS: five quick taps.
    sos = alice.find_element(By.ID, "sos")
    for _ in range(4):
        sos.click()
    assert alice.find_element(By.ID, "sos-progress").get_attribute("value") == "4"
    sos.click()
    wait_text(alice, "Alert active")
    assert "tone-alert" in alice.find_element(By.ID, "status").get_attribute("class")
    shot(alice, "sos_active")

    # A short press does not clear it; a 3-second hold does.
    clear = alice.find_element(By.ID, "sos-clear")
    ActionChains(alice).click_and_hold(clear).pause(1).release().perform()
    time.sleep(0.5)
    assert "Alert active" in alice.find_element(By.ID, "status").text
    clear = alice.find_element(By.ID, "sos-clear")
    ActionChains(alice).click_and_hold(clear).pause(3.5).release().perform()
    wait_text(alice, "Alert cleared")
    assert "Alert active" not in alice.find_element(By.ID, "status").text
    shot(alice, "sos_cleared")


def test_security_headers_and_csrf(server):
    import urllib.request, urllib.error
    response = urllib.request.urlopen(server.base + "/signin")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    cookies = response.headers.get_all("Set-Cookie")
    assert any("ls_csrf=" in c and "HttpOnly" in c and "SameSite=Lax" in c for c in cookies)
    request = urllib.request.Request(server.base + "/signin", data=b"phone=%2B447700900001", method="POST")
    try:
        urllib.request.urlopen(request)
        assert False, "POST without CSRF token must fail"
    except urllib.error.HTTPError as error:
        assert error.code == 403


def test_check_in_offline_is_queued_and_sent_when_back_online(server, browsers, shot):
    erin = browsers()
    sign_up(erin, server, "Erin", "Offline")
    assert erin.find_element(By.ID, "last-check-in").text == "never"
    erin.set_network_conditions(offline=True, latency=0, download_throughput=-1, upload_throughput=-1)
    wait_text(erin, "You're offline", css="#offline")
    erin.find_element(By.ID, "check-in").click()
    wait_text(erin, "saved on this phone", css="#queued")
    assert erin.find_element(By.ID, "last-check-in").text == "never"
    shot(erin, "offline_queued")
    # Back online: the queued check-in (same id, so it counts once) goes out by itself.
    erin.set_network_conditions(offline=False, latency=0, download_throughput=-1, upload_throughput=-1)
    wait_text(erin, "today at", css="#last-check-in")
    assert not erin.find_element(By.ID, "queued").is_displayed()
    shot(erin, "online_sent")
    erin.refresh()
    wait_text(erin, "today at", css="#last-check-in")


def test_check_in_is_kept_until_the_server_says_it_is_stored(server, browsers, shot):
    """A database outage answers 503, an expired session a redirect to sign-in: neither is a
    stored check-in. The page keeps it, says so, never says "Checked in.", and sends it again
    until the server answers that it is stored."""
    faye = browsers()
    sign_up(faye, server, "Faye", "Outage")
    assert faye.find_element(By.ID, "last-check-in").text == "never"
    # The server's answers, as an outage gives them: 503 first, then a page that is no check-in.
    faye.execute_script("""
        window.__answers = [
          function () { return new Response("", { status: 503, headers: { "Retry-After": "5" } }); },
          function () { return new Response("<html>Sign in</html>", { status: 200, headers: { "Content-Type": "text/html" } }); }
        ];
        window.__tries = 0;
        var real = window.fetch;
        window.fetch = function (url, options) {
          if (String(url).indexOf("/check-in") >= 0) {
            window.__tries += 1;
            if (window.__answers.length) return Promise.resolve(window.__answers.shift()());
          }
          return real.apply(this, arguments);
        };
    """)
    faye.find_element(By.ID, "check-in").click()
    wait_text(faye, "Not sent yet", css="#queued")
    assert "Checked in" not in faye.find_element(By.ID, "main").text
    assert faye.find_element(By.ID, "last-check-in").text == "never"
    shot(faye, "check_in_not_sent_yet")
    # It is tried again by itself; after the two failed answers the server stores it.
    wait_text(faye, "today at", css="#last-check-in", timeout=30)
    assert faye.execute_script("return window.__tries") >= 3
    assert not faye.find_element(By.ID, "queued").is_displayed()
    assert faye.execute_script('return JSON.parse(localStorage.getItem("lifesignal.queue") || "[]").length') == 0
    faye.refresh()
    wait_text(faye, "today at", css="#last-check-in")


def test_form_tokens_are_bound_to_the_session_and_sign_out_leaves_nothing(server, browsers, shot):
    """A form token from one person's session does not work in another's; signing out clears
    the offline check-in queue and the cache, and no page is kept by the service worker."""
    ann, ben = browsers(), browsers()
    sign_up(ann, server, "Ann", "Shared")
    sign_up(ben, server, "Ben", "Other")
    anns_token = ann.find_element(By.CSS_SELECTOR, 'meta[name="csrf-token"]').get_attribute("content")
    bens_token = ben.find_element(By.CSS_SELECTOR, 'meta[name="csrf-token"]').get_attribute("content")
    assert anns_token != bens_token
    post = """
        const done = arguments[arguments.length - 1];
        fetch("/check-in", {method: "POST", credentials: "same-origin",
            body: new URLSearchParams({_csrf: arguments[0], id: crypto.randomUUID(), clientAt: String(Date.now())})})
          .then(r => done(r.status), () => done(0));
    """
    assert ben.execute_async_script(post, anns_token) == 403
    assert ben.execute_async_script(post, bens_token) < 400

    # Pages are never cached; only the shell and the offline page are.
    cached = """
        const done = arguments[arguments.length - 1];
        caches.keys().then(keys => Promise.all(keys.map(k => caches.open(k).then(c => c.keys()))))
          .then(lists => done([].concat(...lists).map(r => new URL(r.url).pathname)), () => done([]));
    """
    ann.get(server.base + "/contacts")
    wait_text(ann, "Contacts")
    paths = ann.execute_async_script(cached)
    assert "/" not in paths and "/contacts" not in paths, paths

    ann.execute_script('localStorage.setItem("lifesignal.queue", JSON.stringify([{id: "x", clientAt: 1}]))')
    ann.get(server.base + "/profile")
    click(ann, "#sign-out")
    wait_text(ann, "Sign in")
    assert ann.execute_script('return localStorage.getItem("lifesignal.queue")') is None
    shot(ann, "signed_out_clean")
