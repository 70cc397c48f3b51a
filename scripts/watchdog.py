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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stall", type=int, default=600)
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
        return follow(child, selector, running, began, args.stall)
    except KeyboardInterrupt:
        end(child)
        return 130


def follow(child, selector, running: dict[str, float], began: float, stall: int) -> int:
    last_progress = began
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
                line = raw.decode("utf-8", "replace")
                if "case passing" in line:
                    continue
                if match := STARTED.search(line):
                    running[match.group(1)] = now
                    last_progress = now
                elif match := ENDED.search(line):
                    running.pop(match.group(1), None)
                    last_progress = now
            sys.stdout.flush()
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
