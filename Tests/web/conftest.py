"""Browser tests of the LifeSignal web app: a real server (test clock) and headless Chromium."""
import os
import re
import sys
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
BINARY = Path(os.environ.get("LIFESIGNAL_BIN", ROOT / ".build" / "debug" / "lifesignal"))

sys.path.insert(0, str(ROOT / "Tests" / "support"))
from dev_server import DevServer  # noqa: E402


@pytest.fixture(scope="session")
def server():
    s = DevServer(BINARY, "web", extra_args=("--test-clock",))
    yield s
    s.stop()


def make_browser():
    os.environ["SE_OFFLINE"] = "true"
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=412,915"]:
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.implicitly_wait(0)
    return driver


@pytest.fixture(autouse=True)
def new_hour(server):
    """Every test starts an hour later on the shared server's test clock, so the per-address
    sign-in code limit (30 an hour, all browsers here are 127.0.0.1) counts one test's
    sign-ups, whichever tests run before it."""
    server.advance(3600)


@pytest.fixture
def browsers(request):
    """A factory of browsers (one per person); all are closed at the end of the test."""
    made = []

    def make():
        driver = make_browser()
        made.append(driver)
        return driver

    yield make
    for driver in made:
        driver.quit()


class Shots:
    def __init__(self, name):
        self.name = re.sub(r"[^a-zA-Z0-9_]+", "_", name)
        self.count = 0
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def __call__(self, driver, label):
        self.count += 1
        driver.save_screenshot(str(SCREENSHOTS / f"{self.name}_{self.count:02d}_{label}.png"))


@pytest.fixture
def shot(request):
    return Shots(request.node.name)
