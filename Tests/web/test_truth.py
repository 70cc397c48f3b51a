"""The person in trouble is told the truth, live, and a responder sees who needs them first:
the dependent's home during her SOS says who was told and how it went and shows "Bob is on it"
the moment Bob acknowledges on his own page; Bob's Home is taken over by her SOS with Call and
Text; a person nobody watches over is never told her responders know anything."""
from selenium.webdriver.common.by import By

from helpers import click, sign_up, wait_text
from test_escalation import link_as_dependent


def test_sos_takes_over_the_responders_home_and_the_dependent_sees_bob_is_on_it_live(server, browsers, shot):
    alice, bob = browsers(), browsers()
    sign_up(alice, server, "Alice", "Lovelace", note="Spare key at number 4")
    bob_phone = sign_up(bob, server, "Bob", "Babbage")
    link_as_dependent(server, alice, bob, shot)
    alice_phone = None

    # Bob's Home lists the people he watches over first.
    bob.get(server.base + "/")
    wait_text(bob, "Alice Lovelace", css="#watched")
    shot(bob, "bob_home_watching")

    # Alice raises an SOS: her home is about the alert and says who was told and how it went.
    alice.get(server.base + "/")
    sos = alice.find_element(By.ID, "sos")
    for _ in range(5):
        sos.click()
    wait_text(alice, "Alert sent. We're telling Bob Babbage now")
    wait_text(alice, "Bob Babbage: written to the server log (development)", css="#help")
    wait_text(alice, "1 of 1 responder reached", css="#help")
    # Her country's emergency number, with a Call button (a UK number: 999).
    assert alice.find_element(By.ID, "call-emergency").get_attribute("href") == "tel:999"
    assert alice.find_element(By.ID, "call-emergency").text == "Call 999"
    main = alice.find_element(By.ID, "main").text
    assert "responders know you're OK" not in main
    assert "left" not in alice.find_element(By.ID, "status").text  # no countdown beside the alert
    shot(alice, "alice_sos_who_was_told")

    # Bob's Home is taken over live: who, since when, the note, Call and Text, "I'm on it".
    wait_text(bob, "Alice Lovelace needs help", css="main")
    takeover = bob.find_element(By.CSS_SELECTOR, "section.takeover")
    assert "Spare key at number 4" in takeover.text
    call = takeover.find_element(By.CSS_SELECTOR, "a[href^='tel:']")
    text = takeover.find_element(By.CSS_SELECTOR, "a[href^='sms:']")
    alice_phone = call.get_attribute("href")[len("tel:"):]
    assert alice_phone.startswith("+44") and text.get_attribute("href") == "sms:" + alice_phone
    assert call.text == "Call Alice" and text.text == "Text Alice"
    # The takeover comes before Bob's own status.
    assert bob.find_element(By.CSS_SELECTOR, "main section").get_attribute("class").startswith("card takeover")
    shot(bob, "bob_home_takeover")

    # Bob says "I'm on it" from his Home; Alice sees it by name without reloading.
    click(bob, "section.takeover button.primary")
    wait_text(bob, "You're on it.")
    wait_text(bob, "Bob Babbage is on it.", css="#incident-status")
    # The incident page: the note first, Call and Text, one sentence under each action.
    assert bob.find_element(By.CSS_SELECTOR, "#call").get_attribute("href") == "tel:" + alice_phone
    assert bob.find_element(By.CSS_SELECTOR, "#text").get_attribute("href") == "sms:" + alice_phone
    hints = bob.find_elements(By.CSS_SELECTOR, "#incident-actions .action .hint")
    assert len(hints) == len(bob.find_elements(By.CSS_SELECTOR, "#incident-actions .action"))
    wait_text(bob, "Bob Babbage: written to the server log (development)", css="#incident-told")
    shot(bob, "bob_incident_actions")

    wait_text(alice, "Bob Babbage is on it, since", css="#on-it")
    wait_text(alice, "on it since", css="#told")
    shot(alice, "alice_sees_bob_is_on_it")

    # Alice's notifications say who was alerted and who is on it.
    alice.get(server.base + "/notifications")
    wait_text(alice, "Bob Babbage has been alerted")
    wait_text(alice, "Bob Babbage is on it")
    shot(alice, "alice_notifications")
    assert bob_phone


def test_nobody_watching_is_said_plainly(server, browsers, shot):
    dora = browsers()
    sign_up(dora, server, "Dora", "Nobody")
    wait_text(dora, "Nobody is watching over you yet", css="#no-responders")
    assert dora.find_element(By.CSS_SELECTOR, "#no-responders a").get_attribute("href").endswith("/contacts/add")
    click(dora, "#check-in")
    wait_text(dora, "Checked in. Nobody is watching over you yet")
    assert "responders know" not in dora.find_element(By.ID, "main").text
    shot(dora, "dora_checked_in_nobody_watching")

    # An SOS with nobody to tell says so instead of "your responders have been told".
    sos = dora.find_element(By.ID, "sos")
    for _ in range(5):
        sos.click()
    wait_text(dora, "nobody is watching over you yet")
    wait_text(dora, "Nobody has been told", css="#help")
    assert "have been told" not in dora.find_element(By.ID, "status").text
    shot(dora, "dora_sos_nobody_told")


def test_an_sos_whose_e_mail_fails_says_so_and_the_text_still_goes(server, browsers, shot):
    """Bob's only channel is an e-mail address this server cannot send to (no SMTP here): his
    alert fails there, the text to his verified number goes anyway, and Alice's page says
    both. Nobody reads "told" of the e-mail."""
    from selenium.webdriver.support.ui import Select
    from test_account import confirm_channel_code
    alice, bob = browsers(), browsers()
    sign_up(alice, server, "Alice", "Lovelace", note="Spare key at number 4")
    sign_up(bob, server, "Bob", "Babbage")
    link_as_dependent(server, alice, bob, shot)
    bob.get(server.base + "/settings")
    click(bob, "details > summary")
    Select(bob.find_element(By.ID, "kind")).select_by_value("email")
    bob.find_element(By.ID, "address").send_keys("bob@example.com")
    click(bob, "#add-channel-button")
    wait_text(bob, "Sending a code to bob@example.com")
    confirm_channel_code(bob, server, "bob@example.com")
    wait_text(bob, "bob@example.com", css="#channels")

    alice.get(server.base + "/")
    sos = alice.find_element(By.ID, "sos")
    for _ in range(5):
        sos.click()
    wait_text(alice, "Alert sent.")
    wait_text(alice, "(e-mail failed)", css="#help")
    help_text = alice.find_element(By.ID, "help").text
    assert "Bob Babbage: written to the server log (development)" in help_text, help_text
    assert "1 of 1 responder reached" in help_text
    shot(alice, "sos_email_failed_text_delivered")

    # Bob's incident page has the proof: the e-mail's failure and why, the text delivered.
    bob.get(server.base + "/")
    bob.get(bob.find_element(By.CSS_SELECTOR, "a[href^='/incidents/']").get_attribute("href"))
    wait_text(bob, "Who was told")
    table = bob.find_element(By.TAG_NAME, "table").text
    assert "failed" in table and "delivered" in table, table
    shot(bob, "incident_email_failed")


def test_a_contact_code_typed_as_shown_links_and_a_wrong_one_is_kept_as_an_error(server, browsers, shot):
    """The code is typed exactly as the page shows it (groups of four with spaces); with
    dashes it reads too. A wrong code stays in the field and is shown as an error."""
    from helpers import fill
    alice, bob = browsers(), browsers()
    sign_up(alice, server, "Alice", "Lovelace")
    sign_up(bob, server, "Bob", "Babbage")
    alice.get(server.base + "/contacts/add")
    shown = alice.find_element(By.ID, "my-code").text
    assert " " in shown, shown

    bob.get(server.base + "/contacts/add")
    fill(bob, "code", "1234 5678 nope")
    click(bob, "form[action='/contacts/lookup'] button")
    wait_text(bob, "That is not a LifeSignal contact code.", css="#code-error")
    assert "error" in bob.find_element(By.ID, "code-error").get_attribute("class")
    assert bob.find_element(By.ID, "code").get_attribute("value") == "1234 5678 nope"
    assert bob.find_element(By.ID, "code").get_attribute("aria-invalid") == "true"
    shot(bob, "contact_code_wrong")

    # A well-formed code nobody has: kept and shown as an error too.
    unknown = "0000 0000 0000 0000 0000 0000 0000 0000"
    fill(bob, "code", unknown)
    click(bob, "form[action='/contacts/lookup'] button")
    wait_text(bob, "code", css="#code-error")
    assert bob.find_element(By.ID, "code").get_attribute("value").replace(" ", "") == unknown.replace(" ", "")

    fill(bob, "code", shown)
    click(bob, "form[action='/contacts/lookup'] button")
    wait_text(bob, "Link with Alice Lovelace?")

    bob.get(server.base + "/contacts/add")
    fill(bob, "code", shown.replace(" ", "-"))
    click(bob, "form[action='/contacts/lookup'] button")
    wait_text(bob, "Link with Alice Lovelace?")


def test_live_or_visibly_not_live_after_the_stream_cap_answers_429(server, browsers, shot):
    """Too many open streams (tabs, devices) and the page's stream is refused with a 429: the
    page says it is not live, keeps trying with growing pauses, and is live again once a
    stream is free."""
    import http.client
    from helpers import wait_for
    alice = browsers()
    sign_up(alice, server, "Alice", "Lovelace")
    cookie = alice.get_cookie("ls_session")["value"]
    held = []
    try:
        # Other "devices" take every stream the cap allows.
        for _ in range(20):
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            connection.request("GET", "/events", headers={"Cookie": "ls_session=" + cookie, "Accept": "text/event-stream"})
            response = connection.getresponse()
            if response.status == 429:
                connection.close()
                break
            assert response.status == 200, response.status
            held.append(connection)
        assert held, "no stream was open before the cap"
        alice.get(server.base + "/")
        wait_text(alice, "Not live", css="#not-live")
        assert "Reload" in alice.find_element(By.ID, "not-live").text
        shot(alice, "not_live_after_429")
    finally:
        for connection in held:
            connection.close()
    # The server notices the closed streams at its next keep-alive; the page gets one then.
    wait_for(alice, lambda d: not d.find_element(By.ID, "not-live").is_displayed(), timeout=150)
