"""A phone's screen for the browser tests: 390 × 844 CSS px (an ordinary phone), and the same
phone at 200 % zoom (195 × 422 CSS px drawn at twice the pixels), and screenshots of both
named `<state>-390.png` and `<state>-200pct.png` in artifacts/screenshots/."""
from conftest import SCREENSHOTS

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
ZOOM_200 = {"width": 195, "height": 422, "deviceScaleFactor": 2, "mobile": True}

# How tall the header is, in CSS px, and how many rows its navigation takes.
HEADER = """
const top = document.querySelector('header.top'), links = [...document.querySelectorAll('#nav li')];
const rows = new Set(links.map(li => Math.round(li.getBoundingClientRect().top)));
return {height: top ? top.getBoundingClientRect().height : 0, rows: rows.size, viewport: innerHeight};
"""


def as_phone(driver, metrics=PHONE):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def header(driver):
    return driver.execute_script(HEADER)


def capture(driver, state, scroll_to=None):
    """Screenshots of what the page shows first (or from `scroll_to`, a CSS selector) on the
    phone and at 200 % zoom; the header takes one row and at most a fifth of the screen in
    both. The phone's size is kept afterwards."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for metrics, suffix in ((PHONE, "390"), (ZOOM_200, "200pct")):
        as_phone(driver, metrics)
        if scroll_to:
            driver.execute_script("document.querySelector(arguments[0]).scrollIntoView()", scroll_to)
        else:
            driver.execute_script("window.scrollTo(0, 0)")
        measured = header(driver)
        assert measured["height"] <= measured["viewport"] / 5, (state, suffix, measured)
        assert measured["rows"] <= 1, (state, suffix, measured)
        driver.save_screenshot(str(SCREENSHOTS / f"{state}-{suffix}.png"))
    as_phone(driver, PHONE)


def save_doc_shot(driver, folder, name, scroll_to=None):
    """A 390 × 844 screenshot for the docs: docs/screenshots/<folder>/<name>.png, of what the
    page shows first (or from `scroll_to`, a CSS selector)."""
    from pathlib import Path

    shots = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / folder
    shots.mkdir(parents=True, exist_ok=True)
    as_phone(driver)
    if scroll_to:
        driver.execute_script("document.querySelector(arguments[0]).scrollIntoView()", scroll_to)
    else:
        driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(str(shots / f"{name}.png"))
