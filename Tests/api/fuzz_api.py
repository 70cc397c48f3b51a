"""Fuzzes the /v1 API against its own OpenAPI document with schemathesis, every check on.

Starts `lifesignal serve --dev` on a throwaway SQLite file and a free port, signs people in
through the development code flow (the code is read from the server's log), and runs
`st run` with the configuration beside this file: deterministic generation (the same cases
every run) and a bounded number of examples per operation, so a run takes a couple of
minutes and fails the same way twice. Exits with schemathesis's status.

    .venv/bin/python Tests/api/fuzz_api.py [extra `st run` options]

LIFESIGNAL_BIN names the binary (default .build/debug/lifesignal); FUZZ_MAX_EXAMPLES sets
the examples per operation; FUZZ_SEED=n explores with random generation from seed n instead.
"""
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from dev_server import DevServer  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
BINARY = Path(os.environ.get("LIFESIGNAL_BIN", ROOT / ".build" / "debug" / "lifesignal"))
MAX_EXAMPLES = os.environ.get("FUZZ_MAX_EXAMPLES", "30")
SEED = os.environ.get("FUZZ_SEED")


class Server(DevServer):
    """`lifesignal serve --dev` with the calls the fuzz needs to set up people and links."""

    def __init__(self):
        super().__init__(BINARY, "fuzz")

    def call(self, method, path, body=None, token=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read()
                return response.status, json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"{method} {path} answered {error.code}: {error.read().decode()}") from None

    def sign_in(self, phone, first, last):
        """A person signed in with the development code flow and onboarded; their session token."""
        after = self.mark()
        self.call("POST", "/v1/auth/code", {"phone": phone})
        _, signed_in = self.call(
            "POST", "/v1/auth/verify", {"phone": phone, "code": self.code_for(phone, after), "deviceName": "schemathesis"})
        token = signed_in["token"]
        self.call("PATCH", "/v1/me", {"firstName": first, "lastName": last}, token=token)
        return token


def check_live_events(server, ada, eve):
    """Reads Ada's live event stream while a status, a contacts and a notification event happen,
    and checks every event against `LiveEvent` and its data against the event's content schema
    (schemathesis reads only the first event of a stream)."""
    import http.client
    import jsonschema_rs

    document = json.loads(urllib.request.urlopen(server.base + "/v1/openapi.json", timeout=10).read())

    def validator(ref):
        return jsonschema_rs.validator_for({**document, "$ref": ref})

    live_event = validator("#/components/schemas/LiveEvent")
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", "/v1/events", headers={"Authorization": f"Bearer {ada}"})
    response = connection.getresponse()
    assert response.status == 200, response.status
    assert response.getheader("Content-Type") == "text/event-stream", response.getheader("Content-Type")

    # Ada checks in (status), Eve asks to watch over her (contacts, notification).
    server.call("POST", "/v1/check-ins", {"id": str(uuid.uuid4())}, token=ada)
    _, code = server.call("GET", "/v1/contact-code", token=ada)
    server.call("POST", "/v1/contacts", {"code": code["code"], "roles": {"dependent": True}}, token=eve)

    seen, problems, block = {}, [], []
    deadline = time.time() + 10
    while time.time() < deadline and not {"status", "contacts", "notification"} <= seen.keys():
        try:
            line = response.fp.readline().decode()
        except TimeoutError:
            break
        if line.strip():
            block.append(line.rstrip("\n"))
            continue
        fields = {}
        for entry in block:
            if entry.startswith(":"):
                continue
            name, _, value = entry.partition(":")
            fields[name] = fields.get(name, "") + value.removeprefix(" ")
        block = []
        if "data" not in fields:
            continue
        event = {key: fields[key] for key in ("event", "data") if key in fields}
        seen[event.get("event")] = seen.get(event.get("event"), 0) + 1
        for error in live_event.iter_errors(event):
            problems.append(f"{event}: {error}")
        branch = {"status": "StatusEvent", "notification": "NotificationEvent", "contacts": "ContactsEvent"}.get(event.get("event"))
        if branch:
            content = validator(f"#/components/schemas/{branch}/properties/data/contentSchema")
            for error in content.iter_errors(json.loads(event["data"])):
                problems.append(f"{event['event']} data {event['data']}: {error}")
    connection.close()
    missing = {"status", "contacts", "notification"} - seen.keys()
    print(f"fuzz: live events seen {seen}", flush=True)
    if missing:
        problems.append(f"no {sorted(missing)} event arrived")
    return problems


def main(extra):
    if not BINARY.exists():
        sys.exit(f"fuzz: {BINARY} is missing; build it with `swift build --product lifesignal`")
    server = Server()
    try:
        # Ada is the person under test. Operations that end a session or an account get
        # people of their own, so they cannot sign Ada out halfway through the run.
        ada = server.sign_in("+447700900101", "Ada", "Lovelace")
        eve = server.sign_in("+447700900105", "Eve", "Watcher")
        problems = check_live_events(server, ada, eve)
        for problem in problems:
            print("fuzz: live event:", problem, flush=True)
        if problems:
            return 1
        # Real contacts, so the contact, ping and status operations reach more than a 404:
        # Eve watches over Ada (her request above), Ada watches over Fay.
        fay = server.sign_in("+447700900106", "Fay", "Watched")
        _, code = server.call("GET", "/v1/contact-code", token=ada)
        server.call("POST", "/v1/contacts", {"code": code["code"], "roles": {"responder": True}}, token=fay)
        _, requests = server.call("GET", "/v1/contact-requests", token=ada)
        for request in requests["incoming"]:
            server.call("POST", f"/v1/contact-requests/{request['id']}/accept", {"roles": request["roles"]}, token=ada)
        contacts = {name: server.call("GET", "/v1/me", token=token)[1]["id"] for name, token in [("EVE", eve), ("FAY", fay)]}
        env = dict(os.environ)
        env.update({
            "LS_TOKEN": ada,
            "LS_SIGN_OUT_TOKEN": server.sign_in("+447700900102", "Bob", "Sign-Out"),
            "LS_DELETE_TOKEN": server.sign_in("+447700900103", "Cy", "Delete"),
            "LS_REVOKE_TOKEN": server.sign_in("+447700900104", "Di", "Revoke"),
        })
        # schemathesis fills ${VARIABLES} in from the environment except in dictionaries.
        config = (HERE / "schemathesis.toml").read_text()
        for name, id in contacts.items():
            config = config.replace("${LS_%s_ID}" % name, id)
        config_file = Path(server.dir) / "schemathesis.toml"
        config_file.write_text(config.replace('directory = "artifacts/', f'directory = "{ROOT}/artifacts/'))
        st = ROOT / ".venv" / "bin" / "st"
        command = [
            str(st), "--config-file", str(config_file), "run",
            f"{server.base}/v1/openapi.json", "--url", server.base,
            "--checks", "all", *(["--seed", SEED] if SEED else ["--generation-deterministic"]),
            "--max-examples", MAX_EXAMPLES, "--workers", "1", "--no-color",
            *extra,
        ]
        print("fuzz:", " ".join(command), flush=True)
        started = time.time()
        result = subprocess.run(command, env=env, cwd=ROOT)
        print(f"fuzz: schemathesis finished in {time.time() - started:.0f} s with exit code {result.returncode}", flush=True)
        problems = [line for line in server.log().splitlines() if "unexpected error" in line or "request failed" in line]
        if problems:
            print("fuzz: the server logged failures:\n" + "\n".join(problems[:20]), flush=True)
            return 1
        return result.returncode
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
