"""Browser tests of the LifeSignal web app: a real server (test clock) and headless Chromium."""
import json
import os
import re
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
BINARY = Path(os.environ.get("LIFESIGNAL_BIN", ROOT / ".build" / "debug" / "lifesignal"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.dir = tempfile.mkdtemp(prefix="lifesignal-web-")
        self.output = []
        self.lock = threading.Lock()
        self.process = subprocess.Popen(
            [str(BINARY), "serve", "--dev", "--test-clock", "--host", "127.0.0.1", "--port", str(self.port),
             "--database", os.path.join(self.dir, "web.sqlite")],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=self.dir)
        threading.Thread(target=self._read, daemon=True).start()
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.base + "/health", timeout=1)
                return
            except Exception:
                if self.process.poll() is not None:
                    raise RuntimeError("server exited:\n" + "".join(self.output))
                time.sleep(0.2)
        raise RuntimeError("server did not start:\n" + "".join(self.output))

    def _read(self):
        for line in self.process.stdout:
            with self.lock:
                self.output.append(line)

    def code_for(self, phone, after=0, timeout=10):
        """The latest sign-in code the server logged for `phone` (development mode)."""
        deadline = time.time() + timeout
        pattern = re.compile(r"sign-in code for " + re.escape(phone) + r": (\d{6})")
        while time.time() < deadline:
            with self.lock:
                lines = self.output[after:]
            codes = [m.group(1) for line in lines for m in [pattern.search(line)] if m]
            if codes:
                return codes[-1]
            time.sleep(0.1)
        raise AssertionError(f"no sign-in code for {phone} in the server log")

    def mark(self):
        with self.lock:
            return len(self.output)

    def advance(self, seconds):
        request = urllib.request.Request(
            self.base + "/test/clock/advance", data=json.dumps({"seconds": seconds}).encode(),
            headers={"Content-Type": "application/json"}, method="POST")
        urllib.request.urlopen(request, timeout=5).read()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture(scope="session")
def server():
    s = Server()
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
