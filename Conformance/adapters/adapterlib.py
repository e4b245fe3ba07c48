"""Shared by the Python adapters: reads the APNS_MOCK_* environment and the scenario's instruction file, and plays
the application around the library: it sends each push in order through `send`, and keeps a list of tokens the
library reported as gone (410), as an application would, so it never pushes to them again. Retries, back-off,
token refresh and connection handling are left to the library: that is what is graded."""
import json
import os
import sys
import urllib.parse

ENV = os.environ
URL = urllib.parse.urlsplit(ENV["APNS_MOCK_URL"])
HOST, PORT = URL.hostname, URL.port
CA_FILE = ENV["APNS_MOCK_CA_FILE"]
TEAM_ID, KEY_ID, KEY_FILE = ENV["APNS_MOCK_TEAM_ID"], ENV["APNS_MOCK_KEY_ID"], ENV["APNS_MOCK_KEY_FILE"]
BUNDLE_ID = ENV["APNS_MOCK_TOPIC"]
GONE = {"Unregistered", "ExpiredToken", "410"}
RESULTS = ENV.get("APNS_MOCK_SENDER_RESULTS")


def instructions():
    with open(ENV["APNS_MOCK_SCENARIO"]) as file:
        return json.load(file)


def pushes():
    return instructions()["pushes"]


def due_at_once():
    """The scenario's pushes are all due now (a broadcast): an application hands them to the library together,
    through whatever the library offers for that (concurrent sends, a batch call)."""
    return bool(instructions().get("dueAtOnce"))


def report(index, outcome):
    """Tells the runner what the library said for push `index` of the instruction file (None: a success), one JSON
    object a line in $APNS_MOCK_SENDER_RESULTS: the sender-side cross-check (docs/conformance.md)."""
    if RESULTS:
        with open(RESULTS, "a") as file:
            file.write(json.dumps({"index": index, "success": outcome is None, "said": outcome or "success"}) + "\n")


def run(send, name):
    """`send(push)` returns None when accepted, else the reason (or status) the library reported."""
    dead = set()
    for index, push in enumerate(pushes()):
        if push["deviceToken"] in dead:
            continue
        try:
            outcome = send(push)
        except Exception as error:  # the library raised: the reason is in the exception's name or text
            outcome = f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}"
        report(index, outcome)
        print(f"{name}: {push['deviceToken'][:8]}… {outcome or 'accepted'}", file=sys.stderr)
        if outcome and any(gone in str(outcome) for gone in GONE):
            dead.add(push["deviceToken"])
    return 0
