"""A sender under test for `apns-mock check`: httpx over HTTP/2 with PyJWT tokens, reading the APNS_MOCK_*
environment. `python sender.py MODE` behaves well (MODE=good) or breaks exactly one conformance rule."""
import asyncio
import json
import os
import sys
import time

import httpx
import jwt

TOKEN = "ab" * 32
OTHER = "cd" * 32
ENV = os.environ


def make_jwt(iat=None):
    with open(ENV["APNS_MOCK_KEY_FILE"], "rb") as key_file:
        key = key_file.read()
    claims = {"iss": ENV["APNS_MOCK_TEAM_ID"], "iat": int(time.time()) if iat is None else iat}
    return jwt.encode(claims, key, algorithm="ES256", headers={"kid": ENV["APNS_MOCK_KEY_ID"]})


class Sender:
    def __init__(self):
        self.client = httpx.Client(http2=True, verify=ENV["APNS_MOCK_CA_FILE"], timeout=10)
        self.jwt = make_jwt()

    def push(self, aps, token=TOKEN, push_type="alert", jwt_token=None, client=None):
        topic = ENV["APNS_MOCK_TOPIC"] + (".push-type.liveactivity" if push_type == "liveactivity" else "")
        headers = {"authorization": "bearer " + (jwt_token or self.jwt), "apns-topic": topic,
                   "apns-push-type": push_type, "apns-priority": "10"}
        response = (client or self.client).post(ENV["APNS_MOCK_URL"] + "/3/device/" + token, headers=headers,
                                                content=json.dumps({"aps": aps}).encode())
        return response.status_code


def script(answer):
    """A scripted answer for the next push to OTHER (admin API), as a fault would give."""
    body = dict(deviceToken=OTHER, remaining=1, **answer)
    httpx.post(ENV["APNS_MOCK_ADMIN_URL"] + "/api/config/faults", json=body).raise_for_status()


def main(mode):
    sender = Sender()
    now = int(time.time())
    alert = {"alert": {"title": "Hi", "body": "there"}}
    if mode == "good":
        for i in range(3):
            assert sender.push({"alert": f"message {i}"}) == 200
        sender.push({"event": "start", "timestamp": now, "attributes-type": "A", "attributes": {"n": 1},
                     "content-state": {"n": 1}, **alert}, token=OTHER, push_type="liveactivity")
        sender.push({"event": "update", "timestamp": now + 1, "content-state": {"n": 2}}, token=OTHER, push_type="liveactivity")
        sender.push({"event": "end", "timestamp": now + 2, "content-state": {"n": 3}}, token=OTHER, push_type="liveactivity")
    elif mode == "bad-token":
        sender.push(alert, token="not-a-token")
    elif mode == "token-per-push":
        for i in range(3):
            sender.push({"alert": f"message {i}"}, jwt_token=make_jwt())
    elif mode == "string-iat":
        sender.push(alert, jwt_token=make_jwt(iat=str(now)))
    elif mode == "hour-old-token":
        sender.push(alert, jwt_token=make_jwt(iat=now - 3700))
    elif mode == "connection-per-push":
        for i in range(3):
            with httpx.Client(http2=True, verify=ENV["APNS_MOCK_CA_FILE"]) as client:
                sender.push({"alert": f"message {i}"}, client=client)
    elif mode == "ms-timestamp":
        sender.push({"event": "update", "timestamp": now * 1000, "content-state": {"n": 1}}, push_type="liveactivity")
    elif mode == "start-without-alert":
        sender.push({"event": "start", "timestamp": now, "attributes-type": "A", "attributes": {"n": 1},
                     "content-state": {"n": 1}}, push_type="liveactivity")
    elif mode == "update-after-end":
        sender.push({"event": "end", "timestamp": now, "content-state": {"n": 1}}, push_type="liveactivity")
        sender.push({"event": "update", "timestamp": now + 1, "content-state": {"n": 2}}, push_type="liveactivity")
    elif mode in ("gone-reused", "gone-dropped"):
        script({"status": 410, "reason": "Unregistered"})
        if sender.push(alert, token=OTHER) == 410 and mode == "gone-reused":
            sender.push({"alert": "again"}, token=OTHER)
    elif mode in ("permanent-retried", "permanent-dropped"):
        script({"status": 413, "reason": "PayloadTooLarge"})
        if sender.push(alert, token=OTHER) == 413 and mode == "permanent-retried":
            sender.push(alert, token=OTHER)
    elif mode in ("transient-hot", "transient-backoff"):
        script({"status": 503, "reason": "ServiceUnavailable"})
        if sender.push(alert, token=OTHER) == 503:
            if mode == "transient-backoff":
                time.sleep(1.0)  # the sender's back-off under test, not a test wait
            sender.push(alert, token=OTHER)
    elif mode == "transient-dropped":  # an order service that drops the push when APNs says 503 or 429
        script({"status": 503, "reason": "ServiceUnavailable"})
        sender.push(alert, token=OTHER)
        sender.push({"alert": "next order"})
    elif mode == "token-per-connection":  # Pushy's model: each connection mints its own provider token
        for _ in range(2):
            with httpx.Client(http2=True, verify=ENV["APNS_MOCK_CA_FILE"], timeout=10) as client:
                own = make_jwt(iat=int(time.time()))
                for i in range(3):
                    assert sender.push({"alert": f"message {i} on {id(client)}"}, jwt_token=own, client=client) == 200
    elif mode == "resends-every-push":  # re-sends each push whatever the answer (a retried future that had succeeded)
        for i in range(2):
            sender.push({"alert": f"order {i} shipped"})
            sender.push({"alert": f"order {i} shipped"})
    elif mode == "unix-date":  # an eta Date sent as Unix seconds: the app shows it in 2057
        sender.push({"event": "start", "timestamp": now, "attributes-type": "OrderAttributes", "attributes": {"id": "A-1"},
                     "content-state": {"eta": now + 600}, **alert}, push_type="liveactivity")
    elif mode == "tolerates-resets":  # two pushes; a reset stream is reported and the service exits 1
        failed = 0
        for i in range(2):
            try:
                failed += sender.push({"alert": f"message {i}"}) != 200
            except httpx.HTTPError as error:
                print(f"push {i}: {error!r}", file=sys.stderr)
                failed += 1
        return 1 if failed else 0
    elif mode in ("expired-same-token", "expired-fresh-token"):
        script({"status": 403, "reason": "ExpiredProviderToken"})
        if sender.push(alert, token=OTHER) == 403:
            sender.push(alert, token=OTHER, jwt_token=make_jwt() if mode == "expired-fresh-token" else None)
    elif mode == "bad-content-state":  # against examples/DeliveryActivity.swift: minutesLeft must be an Int
        sender.push({"event": "start", "timestamp": now, "attributes-type": "DeliveryAttributes",
                     "attributes": {"orderNumber": "A-1"}, "content-state": {"status": "new", "minutesLeft": 5}, **alert},
                    push_type="liveactivity")
        sender.push({"event": "update", "timestamp": now + 1, "content-state": {"status": "late", "minutesLeft": "soon"}},
                    push_type="liveactivity")
    elif mode == "over-budget":
        for i in range(4):
            sender.push({"event": "update", "timestamp": now + i, "content-state": {"n": i}}, push_type="liveactivity")
    elif mode in ("stops-at-410", "ignores-410"):
        for i in range(3):
            if sender.push({"alert": f"message {i}"}) == 410 and mode == "stops-at-410":
                break
    elif mode in ("pipelined", "one-at-a-time"):
        return pipelined(12) if mode == "pipelined" else [sender.push({"alert": f"message {i}"}) for i in range(12)] and 0
    elif mode in ("goaway-reconnects", "goaway-gives-up"):
        return goaway(mode == "goaway-reconnects")
    else:
        print("unknown mode " + mode, file=sys.stderr)
        return 3
    return 0


def pipelined(count):
    """`count` pushes due at once, all in flight together on one HTTP/2 connection (httpx.AsyncClient)."""
    async def run():
        token = make_jwt()
        headers = {"authorization": "bearer " + token, "apns-topic": ENV["APNS_MOCK_TOPIC"], "apns-push-type": "alert"}
        async with httpx.AsyncClient(http2=True, verify=ENV["APNS_MOCK_CA_FILE"], timeout=10) as client:
            answers = await asyncio.gather(*[
                client.post(ENV["APNS_MOCK_URL"] + "/3/device/" + TOKEN, headers=headers,
                            content=json.dumps({"aps": {"alert": f"message {i}"}}).encode()) for i in range(count)])
        return 0 if all(answer.status_code == 200 for answer in answers) else 1
    return asyncio.run(run())


def goaway(reconnect, count=6):
    """Pushes one at a time on a raw HTTP/2 connection (h2). After the server's GOAWAY a good sender opens a new
    connection and sends again what was not answered; the broken one gives up and exits 1."""
    from h2client import H2Client  # helpers/ is this script's directory
    port, jwt_token = int(ENV["APNS_MOCK_PORT"]), make_jwt()
    headers = [("authorization", "bearer " + jwt_token), ("apns-topic", ENV["APNS_MOCK_TOPIC"]), ("apns-push-type", "alert")]
    client = H2Client(port, ca=ENV["APNS_MOCK_CA_FILE"])
    for i in range(count):
        for _attempt in range(3):
            if client.goaway is not None or client.closed:
                if not reconnect:
                    print("GOAWAY: giving up", file=sys.stderr)
                    return 1
                client.close()
                client = H2Client(port, ca=ENV["APNS_MOCK_CA_FILE"])
            try:
                answer = client.response(client.request("/3/device/" + TOKEN, headers,
                                                        json.dumps({"aps": {"alert": f"message {i}"}}).encode()))
            except Exception as error:  # the connection was already closed under us
                print(f"push {i}: {error!r}", file=sys.stderr)
                answer = None
            if answer is not None and answer.status == 200:
                break
            if not reconnect:
                return 1
    client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
