#!/usr/bin/env python3
"""A small example service that sends Live Activity pushes for a food delivery: start, a few updates, end.

It reads where to send and with which credentials from the environment that `apns-mock check` sets
(APNS_MOCK_URL, APNS_MOCK_CA_FILE, APNS_MOCK_TEAM_ID, APNS_MOCK_KEY_ID, APNS_MOCK_KEY_FILE, APNS_MOCK_TOPIC), so

    apns-mock check -- python3 examples/live_activity_service.py

grades exactly what this code sends. It has ONE deliberate bug, which the check finds: after the order is
delivered it ends the activity and then still sends a "rate your driver" update to the ended activity.
Run with --fixed to leave the bug out.

Needs httpx[http2] and pyjwt[crypto] (examples/requirements.txt).
"""
import json
import os
import sys
import time

import httpx
import jwt

DEVICE_TOKEN = os.environ.get("EXAMPLE_DEVICE_TOKEN", "5e" * 32)


class APNsSender:
    """One HTTP/2 connection and one provider token, reused for every push (refreshed after 50 minutes)."""

    def __init__(self):
        self.url = os.environ.get("APNS_MOCK_URL", "https://localhost:2197")
        self.team_id = os.environ["APNS_MOCK_TEAM_ID"]
        self.key_id = os.environ["APNS_MOCK_KEY_ID"]
        with open(os.environ["APNS_MOCK_KEY_FILE"], "rb") as key_file:
            self.key = key_file.read()
        self.topic = os.environ["APNS_MOCK_TOPIC"] + ".push-type.liveactivity"
        self.client = httpx.Client(http2=True, verify=os.environ["APNS_MOCK_CA_FILE"], timeout=10)
        self.token = None
        self.token_made = 0.0

    def provider_token(self):
        if self.token is None or time.time() - self.token_made > 50 * 60:
            self.token_made = time.time()
            self.token = jwt.encode({"iss": self.team_id, "iat": int(self.token_made)}, self.key, algorithm="ES256",
                                    headers={"kid": self.key_id})
        return self.token

    def send(self, aps, priority=10):
        headers = {
            "authorization": f"bearer {self.provider_token()}",
            "apns-topic": self.topic,
            "apns-push-type": "liveactivity",
            "apns-priority": str(priority),
        }
        response = self.client.post(f"{self.url}/3/device/{DEVICE_TOKEN}", headers=headers,
                                    content=json.dumps({"aps": aps}).encode())
        reason = response.json().get("reason") if response.content else None
        print(f"{aps['event']:6} -> {response.status_code} {reason or ''}")
        return response.status_code == 200


def deliver_order(sender, fixed):
    now = int(time.time())
    sender.send({
        "event": "start", "timestamp": now, "attributes-type": "DeliveryAttributes",
        "attributes": {"orderNumber": "A-1042"},
        "content-state": {"status": "preparing", "minutesLeft": 25},
        "alert": {"title": "Order A-1042", "body": "Your order is being prepared"},
    })
    for step, (status, minutes) in enumerate([("cooking", 18), ("on the way", 9), ("around the corner", 2)], 1):
        sender.send({"event": "update", "timestamp": now + step, "content-state": {"status": status, "minutesLeft": minutes}},
                    priority=5)
    sender.send({"event": "end", "timestamp": now + 4, "content-state": {"status": "delivered", "minutesLeft": 0},
                 "dismissal-date": now + 3600})
    if not fixed:
        # BUG (deliberate): the activity has ended; the device ignores this update.
        sender.send({"event": "update", "timestamp": now + 5,
                     "content-state": {"status": "rate your driver", "minutesLeft": 0}}, priority=5)


def main():
    fixed = "--fixed" in sys.argv[1:]
    sender = APNsSender()
    deliver_order(sender, fixed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
