from selenium.webdriver.common.by import By

from helpers import wait_text


def test_a_stranger_is_told_what_lifesignal_is_and_a_wrong_address_is_a_page(server, browsers, shot):
    stranger = browsers()
    stranger.get(server.base + "/")
    wait_text(stranger, "Sign in")
    what = stranger.find_element(By.ID, "what").text
    how = stranger.find_element(By.ID, "how").text
    assert "check in" in what and "alone" in what
    assert "SOS" in how and "told" in how
    # The explanation comes before the form.
    assert stranger.find_element(By.ID, "what").location["y"] < stranger.find_element(By.ID, "phone").location["y"]
    shot(stranger, "first_screen")

    stranger.get(server.base + "/no-such-page")
    wait_text(stranger, "Page not found")
    body = stranger.find_element(By.TAG_NAME, "body").text
    assert "{" not in body and "not_found" not in body
    stranger.find_element(By.LINK_TEXT, "Go to LifeSignal").click()
    wait_text(stranger, "Sign in")
    shot(stranger, "not_found_page")
