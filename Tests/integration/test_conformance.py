"""The shared case table (Conformance/cases/device-push.json), sent to a live server over HTTP/2 with real
provider tokens: the same cases the Swift unit runner checks against the pure validator.
Checks status, reason, apns-id echo, content type, 410 timestamp, and the warnings in the delivery record."""
import base64
import collections
import json
import pathlib
import re
import time
import urllib.parse
import urllib.request

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from helpers.h2client import H2Client
from helpers.tokens import TEAM_ID, pyjwt_token

REPO = pathlib.Path(__file__).resolve().parents[2]
TABLE = json.loads((REPO / "Conformance" / "cases" / "device-push.json").read_text())
UPPER_UUID = re.compile(r"^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$")
# Warnings other modules add on top of the rules' own (provider token, Live Activity device): not in the table.
OTHER_MODULES = ("jwt-", "auth-", "la-")

PRODUCTION_KEY_ID = "PRODKEY001"
TOPIC_KEY_ID = "TOPICKEY01"
OTHER_TEAM = "OTHERTEAM1"
OTHER_KEY_ID = "OTHERKEY01"


def new_key(directory, name):
    key = ec.generate_private_key(ec.SECP256R1())
    path = directory / f"AuthKey_{name}.p8"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))
    return path


def certificate_style(case):
    """MDM pushes are certificate-authenticated (A-SEND: the topic is the UID of the MDM certificate), so the live
    runner sends them on a server without provider-token authentication."""
    return case.get("auth") == "none" or ["apns-push-type", "mdm"] in case["request"]["headers"]


def server_group(case):
    configuration = case.get("configuration", {})
    return (case.get("registry", "empty"), json.dumps(configuration, sort_keys=True), certificate_style(case),
            case.get("auth") == "rejected:BadEnvironmentKeyInToken")


def body_of(request):
    if "bodyBase64" in request:
        return base64.b64decode(request["bodyBase64"])
    if "bodySize" in request:
        prefix = b'{"aps":{},"p":"'
        return prefix + b"a" * (request["bodySize"] - len(prefix) - 2) + b'"}'
    body = request.get("body")
    return None if body is None else body.encode()


class LiveRunner:
    def __init__(self, start_server, tmp_path):
        self.start_server = start_server
        self.tmp = tmp_path
        self.keys = {
            PRODUCTION_KEY_ID: new_key(tmp_path, PRODUCTION_KEY_ID),
            TOPIC_KEY_ID: new_key(tmp_path, TOPIC_KEY_ID),
            OTHER_KEY_ID: new_key(tmp_path, OTHER_KEY_ID),
        }
        self.servers = {}

    def server_for(self, case):
        group = server_group(case)
        if group in self.servers:
            return self.servers[group]
        registry, configuration, unauthenticated, observed_spelling = group
        configuration = json.loads(configuration)
        config = {
            "sampleCredentials": True,
            "teams": [
                {"teamID": TEAM_ID, "keys": [
                    {"keyID": PRODUCTION_KEY_ID, "p8": str(self.keys[PRODUCTION_KEY_ID]), "environment": "production"},
                    {"keyID": TOPIC_KEY_ID, "p8": str(self.keys[TOPIC_KEY_ID]), "topics": ["com.example.app"]}]},
                {"teamID": OTHER_TEAM, "bundleIDs": ["com.other.app"],
                 "keys": [{"keyID": OTHER_KEY_ID, "p8": str(self.keys[OTHER_KEY_ID])}]},
            ],
            "rules": {},
        }
        if registry == "declared":
            config["tokens"] = TABLE["registry"]
        if unauthenticated:
            config["allowUnauthenticated"] = True
        if observed_spelling:
            config["authentication"] = {"environmentMismatchReason": "observed"}
        if configuration.get("strict"):
            config["rules"]["strict"] = configuration["strict"]
        if configuration.get("nonJSONBody") == "acceptWithWarning":
            config["rules"]["nonJSONBody"] = "warn"
        if configuration.get("undeclaredTokens") == "acceptWithWarning":
            config["rules"]["undeclaredTokens"] = "warn"
        path = self.tmp / f"config-{len(self.servers)}.json"
        path.write_text(json.dumps(config))
        server = self.start_server("--config", str(path), "--production-port", "0")
        self.servers[group] = server
        return server

    def authorization(self, case, client, request_path):
        """Prepares the connection for the case's auth expectation; returns the authorization header (or None)."""
        auth = case.get("auth", "valid")
        if auth in ("valid", "none"):
            return pyjwt_token() if auth == "valid" and not certificate_style(case) else None
        reason = auth.split(":", 1)[1]
        if reason == "MissingProviderToken":
            return None
        if reason == "InvalidProviderToken":
            header, claims, signature = pyjwt_token().split(".")
            return f"{header}.{claims}.{signature[::-1]}"
        if reason == "ExpiredProviderToken":
            return pyjwt_token(iat=int(time.time()) - 7200)
        if reason in ("BadEnvironmentKeyIdInToken", "BadEnvironmentKeyInToken"):
            return pyjwt_token(key_id=PRODUCTION_KEY_ID, key_path=self.keys[PRODUCTION_KEY_ID])
        if reason == "TopicDisallowed":
            return pyjwt_token(team=OTHER_TEAM, key_id=OTHER_KEY_ID, key_path=self.keys[OTHER_KEY_ID])
        if reason == "UnrelatedKeyIdInToken":
            # Bind the connection with the team-scoped key, then push with the team's topic-specific key.
            self.bind(client, request_path, pyjwt_token())
            return pyjwt_token(key_id=TOPIC_KEY_ID, key_path=self.keys[TOPIC_KEY_ID])
        if reason == "TooManyProviderTokenUpdates":
            self.bind(client, request_path, pyjwt_token(iat=int(time.time()) - 60))
            return pyjwt_token()
        raise AssertionError(f"no live recipe for {auth}")

    @staticmethod
    def bind(client, path, token):
        headers = [("authorization", f"bearer {token}"), ("apns-topic", "com.example.app"), ("apns-push-type", "alert")]
        response = client.response(client.request("/3/device/" + "ab" * 32, headers, b'{"aps":{"alert":"bind"}}'))
        assert response.status == 200, f"binding push failed: {response.status} {response.body!r}"


@pytest.fixture(scope="module")
def cases():
    return TABLE["cases"]


def test_every_case_of_the_shared_table_against_a_live_server(start_server, tmp_path, cases):
    runner = LiveRunner(start_server, tmp_path)
    failures = []
    by_group = collections.defaultdict(list)
    for case in cases:
        by_group[server_group(case)].append(case)
    for group_cases in by_group.values():
        for case in group_cases:
            problem = run_case(runner, case)
            if problem:
                failures.append(f"{case['id']}: {problem}")
    assert len(cases) >= 100
    assert not failures, "\n".join(failures)


def run_case(runner, case):
    server = runner.server_for(case)
    request = case["request"]
    port = server.production_port if case.get("environment") == "production" else server.tls_port
    client = H2Client(port, ca=server.ca_path, timeout=10)
    try:
        authorization = runner.authorization(case, client, request["path"])
        headers = [(name, value) for name, value in request["headers"]]
        if authorization is not None and not any(name == "authorization" for name, _ in headers):
            headers.insert(0, ("authorization", f"bearer {authorization}"))
        response = client.response(client.request(request["path"], headers, body_of(request),
                                                  method=request.get("method", "POST")))
    finally:
        client.close()
    expect = case["expect"]
    if response.status != expect["status"]:
        return f"status {response.status}, expected {expect['status']} (body {response.body!r})"
    sent_ids = [value for name, value in request["headers"] if name == "apns-id"]
    apns_id = response.header("apns-id")
    if len(sent_ids) == 1 and expect["status"] != 400 and apns_id != sent_ids[0]:
        return f"apns-id {apns_id!r} is not the echo of {sent_ids[0]!r}"
    if not sent_ids and not UPPER_UUID.match(apns_id or ""):
        return f"apns-id {apns_id!r} is not an upper-case UUID"
    if expect["status"] == 200:
        if response.body:
            return f"200 with a body {response.body!r}"
    else:
        if response.header("content-type") != "application/json":
            return f"content-type {response.header('content-type')!r}"
        body = json.loads(response.body)
        if body.get("reason") != expect.get("reason"):
            return f"reason {body.get('reason')!r}, expected {expect.get('reason')!r}"
        if "timestamp" in expect and body.get("timestamp") != expect["timestamp"]:
            return f"timestamp {body.get('timestamp')!r}, expected {expect['timestamp']}"
        if expect["status"] != 410 and "timestamp" in body:
            return "timestamp on a non-410 answer"
    record = fetch_record(server, apns_id)
    warnings = sorted(w["code"] for w in record["warnings"] if not w["code"].startswith(OTHER_MODULES))
    if warnings != sorted(expect.get("warnings", [])):
        return f"warnings {warnings}, expected {sorted(expect.get('warnings', []))}"
    if expect.get("strict") and not record["strict"]:
        return "a strict answer not labelled strict in the record"
    return None


def fetch_record(server, apns_id):
    url = f"{server.admin_url}/api/deliveries/{urllib.parse.quote(apns_id, safe='')}"
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)
