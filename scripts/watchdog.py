#!/usr/bin/env python3
"""Runs a test command, passing its output through line by line, and ends it if it stalls.

    scripts/watchdog.py [--stall SECONDS] -- swift test ...

A test run that hangs must fail quickly and say where, not use up CI's 90 minutes and print
nothing (a run once waited an hour on a PostgreSQL statement that never answered; the log it
left ended mid-line in a block-buffered stdout). So:

- the child writes line-buffered (`stdbuf -oL -eL`), and every line is passed on at once;
- swift-testing's "Test X started" / "passed" / "failed" lines are followed, so the tests still
  running are known at any moment;
- after STALL seconds (default 600) in which no test started or ended, the watchdog prints the
  tests still running, ends the whole process group (SIGTERM, then SIGKILL 10 s later) and
  exits with 124. Output alone does not count as progress: a stuck test beside a server that
  logs a reconnect every few seconds is still stuck.

- once a test has run for SLOW seconds (default 100, just short of the suites' 120-s limits;
  swift-testing starts most tests at once, so tens of seconds is normal under load), the
  watchdog prints what the machine is waiting on, at most twice a run: PostgreSQL's sessions,
  those busy or in a transaction, and ungranted locks (when `LIFESIGNAL_TEST_POSTGRES_URL` is
  set), and the test process's threads by kernel state. None of that stops the process. When
  a test then fails on its time limit, the run is red anyway, and the watchdog also prints
  every thread's stack (gdb, when installed; gdb stops the process while it reads, for up to a
  minute with a debug build, which would fail tests that were only slow). A stall that CI meets
  once in a dozen runs is then explained by the run's own log.

The child's own exit status is returned otherwise.
"""

import argparse
import os
import re
import selectors
import signal
import subprocess
import sys
import time

STARTED = re.compile(r"◇ Test (.+?) started\.")
ENDED = re.compile(r"[✔✘] Test (.+?) (?:with \d+ test cases? )?(?:passed|failed)")
# swift-testing colours its symbols when it thinks a terminal reads it.
TIME_LIMIT = "Time limit was exceeded"
COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stall", type=int, default=600)
    parser.add_argument("--slow", type=int, default=100)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command")

    child = subprocess.Popen(
        ["stdbuf", "-oL", "-eL", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    running: dict[str, float] = {}
    began = time.monotonic()
    selector = selectors.DefaultSelector()
    selector.register(child.stdout, selectors.EVENT_READ)
    try:
        return follow(child, selector, running, began, args.stall, args.slow)
    except KeyboardInterrupt:
        end(child)
        return 130


def follow(child, selector, running: dict[str, float], began: float, stall: int, slow: int) -> int:
    last_progress = began
    diagnosed: set[str] = set()
    stacks_printed = False
    pending = b""
    while True:
        events = selector.select(timeout=5)
        now = time.monotonic()
        if events:
            chunk = os.read(child.stdout.fileno(), 65536)
            if not chunk:
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for raw in lines:
                sys.stdout.buffer.write(raw + b"\n")
                line = COLOUR.sub("", raw.decode("utf-8", "replace"))
                if TIME_LIMIT in line and not stacks_printed:
                    stacks_printed = True
                    diagnose(child, running, now, slow, stacks=True)
                if "case passing" in line:
                    continue
                if match := STARTED.search(line):
                    if match.group(1) != "run":  # "Test run started.": the whole run
                        running[match.group(1)] = now
                    last_progress = now
                elif match := ENDED.search(line):
                    running.pop(match.group(1), None)
                    last_progress = now
            sys.stdout.flush()
        overdue = [name for name, since in running.items() if now - since > slow and name not in diagnosed]
        if overdue and len(diagnosed) < 2:
            diagnosed.update(running)
            diagnose(child, running, now, slow)
        if now - last_progress > stall:
            stalled(running, now, now - began, stall)
            end(child)
            return 124
    if pending:
        sys.stdout.buffer.write(pending + b"\n")
        sys.stdout.flush()
    return child.wait()


def stalled(running: dict[str, float], now: float, elapsed: float, stall: int) -> None:
    print(f"\nwatchdog: no test started or ended for {stall} s, {elapsed:.0f} s into the run; ending it.", flush=True)
    if running:
        print("watchdog: tests still running (seconds since each started):")
        for name, since in sorted(running.items(), key=lambda item: item[1]):
            print(f"watchdog:   {now - since:6.0f}  {name}")
    else:
        print("watchdog: no swift-testing test was running (a stall outside a test).")
    sys.stdout.flush()


def diagnose(child: subprocess.Popen, running: dict[str, float], now: float, slow: int, stacks: bool = False) -> None:
    """What the tests that ran long are waiting on, seen from outside the process."""
    say = lambda text: print(f"watchdog-diagnose: {text}", flush=True)
    if stacks:
        say("a test failed on its time limit; what the machine is waiting on, with every thread's stack:")
    else:
        say(f"a test has run for over {slow} s; what the machine is waiting on:")
    for name, since in sorted(running.items(), key=lambda item: item[1]):
        say(f"  running {now - since:6.0f} s  {name}")
    url = os.environ.get("LIFESIGNAL_TEST_POSTGRES_URL")
    if url:
        queries = {
            "sessions by database and state": "SELECT datname, state, wait_event_type, wait_event, count(*) "
            "FROM pg_stat_activity WHERE backend_type = 'client backend' GROUP BY 1, 2, 3, 4 ORDER BY 5 DESC",
            "sessions not idle, or in a transaction, for over 5 s": "SELECT pid, datname, state, wait_event_type, "
            "wait_event, now() - xact_start AS in_tx, now() - state_change AS in_state, left(query, 160) "
            "FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND "
            "(state <> 'idle' OR xact_start IS NOT NULL) AND now() - coalesce(xact_start, state_change) > "
            "interval '5 seconds' ORDER BY xact_start",
            "locks not granted": "SELECT l.pid, l.locktype, l.mode, l.relation::regclass, "
            "pg_blocking_pids(l.pid) AS blocked_by FROM pg_locks l WHERE NOT l.granted",
            "connections in use": "SELECT count(*) AS used, current_setting('max_connections') AS max FROM pg_stat_activity",
        }
        for title, sql in queries.items():
            say(f"PostgreSQL: {title}")
            run_and_print(["psql", url, "-X", "-q", "-P", "pager=off", "-c", sql], say)
    for pid in processes_in_group(child.pid):
        say(f"process {pid}: {read(f'/proc/{pid}/cmdline').replace(chr(0), ' ')[:200]}")
        tasks = sorted(os.listdir(f"/proc/{pid}/task")) if os.path.isdir(f"/proc/{pid}/task") else []
        kinds: dict[str, int] = {}
        for tid in tasks:
            base = f"/proc/{pid}/task/{tid}"
            stat = read(f"{base}/stat")
            state = stat.rsplit(")", 1)[-1].split()[0] if ")" in stat else "?"
            kind = f"{read(f'{base}/comm').strip():<16} state={state} wchan={read(f'{base}/wchan') or '-'}"
            kinds[kind] = kinds.get(kind, 0) + 1
        for kind, count in sorted(kinds.items(), key=lambda item: -item[1]):
            say(f"  {count:4} threads  {kind}")
        if stacks and "xctest" in read(f"/proc/{pid}/cmdline") and subprocess.run(["which", "gdb"], capture_output=True).returncode == 0:
            say(f"stacks of process {pid} (gdb, 12 frames a thread):")
            run_and_print(["gdb", "-p", str(pid), "-batch", "-nx", "-ex", "set pagination off",
                           "-ex", "thread apply all bt 12"], say, timeout=90)
    say("end of diagnosis; the run goes on.")


def processes_in_group(group: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getpgid(int(entry)) == group:
                    found.append(int(entry))
            except OSError:
                continue
    return sorted(found)


def read(path: str) -> str:
    try:
        with open(path, "r", errors="replace") as file:
            return file.read()
    except OSError:
        return ""


def run_and_print(command: list[str], say, timeout: int = 20) -> None:
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, errors="replace")
        for line in (result.stdout + result.stderr).splitlines():
            if line.strip() and not line.startswith(("[New LWP", "[Thread debugging", "Using host libthread")):
                say(f"    {line}")
    except (OSError, subprocess.TimeoutExpired) as error:
        say(f"    ({command[0]} failed: {error})")


def end(child: subprocess.Popen) -> None:
    """SIGTERM to the child's whole process group (servers the tests started too), then SIGKILL."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(child.pid, sig)
        except ProcessLookupError:
            return
        try:
            child.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


if __name__ == "__main__":
    sys.exit(main())
