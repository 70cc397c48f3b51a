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
    assert not problems, problems
