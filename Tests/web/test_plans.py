"""Plans on a phone: Alice starts "check on me by …" with sealed details and an instruction;
Bob hears the headline only; she is late, and Bob's alert page names the plan, her
instruction with a Call button, and opens the details at his asking; "I'm back" ends it.
Screenshots at 390 × 844 in docs/screenshots/plans/."""
from selenium.webdriver.common.by import By

from helpers import click, wait_text
from phone_screens import save_doc_shot
from test_escalation import alice_watched_by_bob

DETAILS = "Route: Rax north face via Gaisloch. Car: VW Golf W-4711X at Preiner Gscheid."


def test_a_plan_is_sealed_until_she_is_late_and_ends_when_she_is_back(server, browsers, shot):
    alice, bob = alice_watched_by_bob(server, browsers, shot, phones=True)

    alice.get(server.base + "/")
    click(alice, "#plans-link")
    wait_text(alice, "Start a plan")
    alice.find_element(By.ID, "plan-title").send_keys("Hiking the Rax trail")
    alice.find_element(By.ID, "plan-details").send_keys(DETAILS)
    alice.find_element(By.ID, "plan-instruction").send_keys("Call mountain rescue 140")
    save_doc_shot(alice, "plans", "start", scroll_to="#new-plan-h")
    click(alice, "#start-plan-button")
    wait_text(alice, "Started “Hiking the Rax trail”")
    assert "Hiking the Rax trail" in alice.find_element(By.ID, "running-plans").text
    save_doc_shot(alice, "plans", "running")

    # Bob hears the headline and the time, never the details.
    bob.get(server.base + "/notifications")
    wait_text(bob, "Alice Lovelace: Hiking the Rax trail")
    assert "Gaisloch" not in bob.page_source
    save_doc_shot(bob, "plans", "responder-before")
    # On her page: the plan she told him about, headline and time only.
    bob.get(server.base + "/contacts")
    click(bob, "#dependents a[href^='/contacts/']")
    wait_text(bob, "Hiking the Rax trail", css="#contact-plans")
    assert "Gaisloch" not in bob.page_source and "rescue" not in bob.page_source
    save_doc_shot(bob, "plans", "responder-person-before", scroll_to="#contact-status")

    # She is late (the form's default is three hours ahead; past it and her grace).
    server.advance(4 * 3600)
    bob.get(server.base + "/contacts")
    click(bob, "#dependents a[href^='/incidents/']")
    wait_text(bob, "Hiking the Rax trail", css="#plan")
    assert bob.find_element(By.ID, "plan-call").get_attribute("href") == "tel:140"
    assert "Gaisloch" not in bob.page_source
    click(bob, "#open-sealed")
    wait_text(bob, "Gaisloch", css="#plan-details")
    save_doc_shot(bob, "plans", "responder-after", scroll_to="#plan")

    # "I'm back": the alert ends.
    alice.get(server.base + "/plans")
    click(alice, "#running-plans button.primary")
    wait_text(alice, "Welcome back")
    bob.refresh()
    assert "Gaisloch" not in bob.page_source
    assert not bob.find_elements(By.ID, "acknowledge"), "the alert is over"
