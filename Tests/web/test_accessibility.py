import json

from axe_selenium_python import Axe

from helpers import sign_up, wait_text


def serious(driver):
    """axe-core's serious and critical violations on the current page."""
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(n["target"][0] for n in v["nodes"][:3])
        for v in results["violations"] if v["impact"] in ("serious", "critical")
    ]


def test_every_page_has_no_serious_accessibility_violations(server, browsers, shot):
    """axe-core (from PyPI's axe-selenium-python) on every page a person reaches: signed out,
    then signed in, at a phone's size."""
    ana = browsers()
    ana.get(server.base + "/")
    wait_text(ana, "Sign in")
    found = {"/ (signed out)": serious(ana)}
    sign_up(ana, server, "Ana", "Able", shot)
    for path in ["/", "/contacts", "/contacts/add", "/notifications", "/profile", "/settings", "/pings",
                 "/timeline", "/no-such-page"]:
        ana.get(server.base + path)
        found[path] = serious(ana)
    problems = {path: issues for path, issues in found.items() if issues}
    assert not problems, json.dumps(problems, indent=1)


# Elements that reach past the right edge of the page, except inside a container that
# scrolls sideways on purpose (a data table may; WCAG 1.4.10 allows it).
OVERFLOW = """
const width = document.documentElement.clientWidth;
const scrolls = el => { for (let a = el.parentElement; a; a = a.parentElement) {
  const x = getComputedStyle(a).overflowX; if (x === 'auto' || x === 'scroll') return true; } return false; };
const wide = [];
for (const el of document.querySelectorAll('body *')) {
  const r = el.getBoundingClientRect();
  if (r.width > 0 && r.height > 0 && r.right > width + 1 && !scrolls(el))
    wide.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className ? '.' + el.className : '') + ' → ' + Math.round(r.right) + 'px');
}
return {page: document.documentElement.scrollWidth, width, wide: wide.slice(0, 5)};
"""


def test_every_page_reads_at_200_percent_zoom(server, browsers, shot):
    """At 200 % zoom on a phone (412 px wide, so 206 CSS px), every page reflows into one
    column: nothing reaches past the right edge, so nobody has to scroll sideways to read.
    Includes the pages of an SOS: the person's, the responder's Home and the incident."""
    from selenium.webdriver.common.by import By
    from test_escalation import link_as_dependent
    alice, bob = browsers(), browsers()
    for driver in (alice, bob):
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 206, "height": 457, "deviceScaleFactor": 2, "mobile": True})
    alice.get(server.base + "/")
    wait_text(alice, "Sign in")
    found = {"/signin": alice.execute_script(OVERFLOW)}
    shot(alice, "zoom200_signin")
    sign_up(alice, server, "Alice", "Lovelace", note="Spare key at number 4")
    sign_up(bob, server, "Bob", "Babbage")
    link_as_dependent(server, alice, bob, shot)
    for path in ["/", "/contacts", "/contacts/add", "/notifications", "/profile", "/settings", "/pings",
                 "/timeline", "/no-such-page"]:
        alice.get(server.base + path)
        found[path] = alice.execute_script(OVERFLOW)
        shot(alice, "zoom200" + path.replace("/", "_"))

    alice.get(server.base + "/")
    sos = alice.find_element(By.ID, "sos")
    for _ in range(5):
        sos.click()
    wait_text(alice, "Alert sent.")
    found["/ (SOS)"] = alice.execute_script(OVERFLOW)
    shot(alice, "zoom200_sos")
    bob.get(server.base + "/")
    wait_text(bob, "I'm on it")
    found["/ (responder during the SOS)"] = bob.execute_script(OVERFLOW)
    shot(bob, "zoom200_responder_home_sos")
    bob.get(bob.find_element(By.CSS_SELECTOR, "a[href^='/incidents/']").get_attribute("href"))
    wait_text(bob, "Spare key at number 4")
    found["/incidents/…"] = bob.execute_script(OVERFLOW)
    shot(bob, "zoom200_incident")
    problems = {path: result for path, result in found.items() if result["wide"] or result["page"] > result["width"] + 1}
    assert not problems, json.dumps(problems, indent=1)
