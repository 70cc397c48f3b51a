"""PostgreSQL stopped for real under a signed-in page: a server of this test's own on a
PostgreSQL server of its own, stopped for 10 seconds while the person presses "I'm OK"."""
import subprocess
import time

import pytest
from selenium.webdriver.common.by import By

from conftest import BINARY
from dev_server import DevServer
from helpers import sign_up, wait_text
from private_postgres import PrivatePostgres


@pytest.fixture
def outage_server():
    postgres = PrivatePostgres()
    server = DevServer(BINARY, "outage", extra_args=("--test-clock",), database=postgres.url)
    yield server, postgres
    server.stop()
    postgres.stop()


def stored_check_ins(postgres):
    done = subprocess.run(["psql", postgres.url.split("?")[0], "-Atc", "SELECT COUNT(*) FROM check_ins"],
                          capture_output=True, text=True, timeout=30,
                          env={"PGPASSWORD": "lifesignal", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return int(done.stdout.strip())


def test_a_database_outage_keeps_the_session_and_loses_no_check_in(outage_server, browsers, shot):
    server, postgres = outage_server
    gil = browsers()
    sign_up(gil, server, "Gil", "Outage")
    assert stored_check_ins(postgres) == 0

    postgres.pause()
    stopped = time.time()
    # Three presses while the database is gone: each kept on the phone, none called sent.
    for _ in range(3):
        gil.find_element(By.ID, "check-in").click()
        wait_text(gil, "Not sent yet", css="#queued")
        time.sleep(1)
    assert "Checked in" not in gil.find_element(By.ID, "main").text
    assert gil.find_element(By.ID, "last-check-in").text == "never"
    assert gil.execute_script('return JSON.parse(localStorage.getItem("lifesignal.queue") || "[]").length') == 3
    shot(gil, "outage_not_sent_yet")
    # A page asked for during the outage says so, keeps the session and looks again by itself.
    gil.get(server.base + "/")
    wait_text(gil, "briefly unavailable", timeout=15)
    assert "Sign in" not in gil.find_element(By.TAG_NAME, "body").text
    shot(gil, "outage_page")
    time.sleep(max(0, 10 - (time.time() - stopped)))

    postgres.resume()
    back = time.time()
    # Still signed in: the outage page turns back into Home by itself (not the sign-in page),
    # and the queue goes out by itself.
    wait_text(gil, "today at", css="#last-check-in", timeout=30)
    deadline = time.time() + 30
    while gil.execute_script('return JSON.parse(localStorage.getItem("lifesignal.queue") || "[]").length') and time.time() < deadline:
        time.sleep(0.2)
    assert gil.execute_script('return JSON.parse(localStorage.getItem("lifesignal.queue") || "[]").length') == 0
    assert stored_check_ins(postgres) == 3, "every press during the outage is stored, once"
    print(f"outage browser test: back_to_all_stored_s={time.time() - back:.1f}")
    shot(gil, "outage_all_stored")
