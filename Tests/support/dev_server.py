"""`lifesignal serve --dev` on a throwaway SQLite file and a free port, for the Python test
tools (the browser tests and the API fuzz): started, waited for on /health, its output kept so
development sign-in codes can be read from it, and stopped."""
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DevServer:
    def __init__(self, binary, name, extra_args=(), database=None):
        """`database`: a PostgreSQL URL; by default a SQLite file in a fresh directory."""
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.dir = tempfile.mkdtemp(prefix=f"lifesignal-{name}-")
        self.output = []
        self.lock = threading.Lock()
        self.process = subprocess.Popen(
            [str(binary), "serve", "--dev", *extra_args, "--host", "127.0.0.1", "--port", str(self.port),
             "--database", database or os.path.join(self.dir, f"{name}.sqlite")],
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

    def log(self):
        with self.lock:
            return "".join(self.output)

    def mark(self):
        with self.lock:
            return len(self.output)

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
        raise AssertionError(f"no sign-in code for {phone} in the server log:\n{self.log()}")

    def channel_code_for(self, address, timeout=10):
        """The latest code that proves a channel to `address`, as a development server shows
        it (it goes nowhere else: not the notifications, the stream or the timeline)."""
        deadline = time.time() + timeout
        pattern = re.compile(r"channel code for " + re.escape(address) + r": (\d{6})")
        while time.time() < deadline:
            codes = [m.group(1) for m in pattern.finditer(self.log())]
            if codes:
                return codes[-1]
            time.sleep(0.1)
        raise AssertionError(f"no channel code for {address} in the server log:\n{self.log()}")

    def advance(self, seconds):
        """Moves the server's test clock (`--test-clock`)."""
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
            self.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)
