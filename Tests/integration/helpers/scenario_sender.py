"""A scenario adapter for `apns-mock conformance sender`, on httpx (HTTP/2) and PyJWT: `good` handles every answer
as Apple asks (one connection, one token, retry 503 after a back-off, fresh token after ExpiredProviderToken,
never push to a 410 token again); each other mode breaks one rule."""
import json
import os
import sys
import time

import httpx
import jwt

ENV = os.environ


def make_jwt():
    with open(ENV["APNS_MOCK_KEY_FILE"], "rb") as key_file:
        return jwt.encode({"iss": ENV["APNS_MOCK_TEAM_ID"], "iat": int(time.time())}, key_file.read(),
                          algorithm="ES256", headers={"kid": ENV["APNS_MOCK_KEY_ID"]})


def main(mode):
    client = httpx.Client(http2=True, verify=ENV["APNS_MOCK_CA_FILE"], timeout=10)
    token = make_jwt()
    dead = set()
    with open(ENV["APNS_MOCK_SCENARIO"]) as instructions:
        pushes = json.load(instructions)["pushes"]
    for push in pushes:
        if push["deviceToken"] in dead and mode != "keeps-pushing-to-410":
            continue
        for attempt in range(3):
            headers = {"authorization": "bearer " + token, "apns-topic": push["topic"], "apns-push-type": push["pushType"]}
            if "priority" in push:
                headers["apns-priority"] = str(push["priority"])
            answer = client.post(ENV["APNS_MOCK_URL"] + "/3/device/" + push["deviceToken"], headers=headers,
                                 content=push["payload"].encode())
            reason = answer.json().get("reason") if answer.content else None
            if answer.status_code == 410:
                dead.add(push["deviceToken"])
            elif answer.status_code in (429, 500, 503):
                if mode == "drops-on-503":
                    break  # the push is lost
                if mode != "retries-without-backoff":
                    time.sleep(1.0 * (attempt + 1))  # the sender's back-off under test
                continue
            elif reason == "ExpiredProviderToken" and mode != "keeps-expired-token":
                token = make_jwt()
                continue
            elif reason == "ExpiredProviderToken":
                continue
            break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
