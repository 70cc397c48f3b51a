"""A PostgreSQL server of one test's own (`scripts/postgres.sh` with a state file of its own),
so the test can stop it for real — an outage — and start it again, without touching the
server the other suites share."""
import os
import re
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "postgres.sh"


class PrivatePostgres:
    def __init__(self):
        self.state = tempfile.mktemp(prefix="lifesignal-pg-", suffix=".state")
        printed = self._run("start")
        match = re.search(r"LIFESIGNAL_TEST_POSTGRES_URL='([^']+)'", printed)
        if not match:
            raise RuntimeError("scripts/postgres.sh printed no URL:\n" + printed)
        # A 10-second connect timeout, as for the shared test server: a loaded run can take
        # longer than 2 s to open a connection (a stopped server refuses at once).
        self.url = match.group(1)

    def _run(self, command):
        environment = dict(os.environ, LIFESIGNAL_PG_STATE=self.state)
        done = subprocess.run([str(SCRIPT), command], env=environment, capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise RuntimeError(f"scripts/postgres.sh {command} failed:\n{done.stdout}{done.stderr}")
        return done.stdout

    def pause(self):
        """Stops the server at once (connections cut), keeping its data."""
        self._run("pause")

    def resume(self):
        self._run("resume")

    def stop(self):
        self._run("stop")
