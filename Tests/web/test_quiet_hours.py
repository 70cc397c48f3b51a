from selenium.webdriver.common.by import By

from helpers import sign_up, wait_text


def test_quiet_hours_are_set_and_turned_off_without_script(server, browsers, shot):
    """Quiet hours on the settings page: plain fields, saved and shown again; start and end the
    same is refused with nothing changed; unticked turns them off."""
    ada = browsers()
    sign_up(ada, server, "Ada", "Quiet", shot)
    ada.get(server.base + "/settings")
    assert not ada.find_element(By.ID, "quiet-on").is_selected()
    ada.find_element(By.ID, "quiet-on").click()
    ada.execute_script(
        "document.getElementById('quiet-from').value = '22:30';"
        "document.getElementById('quiet-to').value = '06:45';")
    ada.find_element(By.ID, "save-quiet").click()
    wait_text(ada, "Quiet hours saved: reminders wait from 22:30 until 06:45.")
    assert ada.find_element(By.ID, "quiet-on").is_selected()
    assert ada.find_element(By.ID, "quiet-from").get_attribute("value") == "22:30"
    shot(ada, "quiet_hours")

    ada.execute_script("document.getElementById('quiet-to').value = '22:30';")
    ada.find_element(By.ID, "save-quiet").click()
    wait_text(ada, "Quiet hours need a start and an end")
    ada.get(server.base + "/settings")
    assert ada.find_element(By.ID, "quiet-to").get_attribute("value") == "06:45"

    ada.find_element(By.ID, "quiet-on").click()
    ada.find_element(By.ID, "save-quiet").click()
    wait_text(ada, "Quiet hours are off")
    assert not ada.find_element(By.ID, "quiet-on").is_selected()
