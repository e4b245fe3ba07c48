"""Adapter for the PyAPNs2 family (LIB-pyapns2): `apns2-up` 0.9.0, the maintained fork of PyAPNs2 that installs the
`apns2` module on hyper-up (PyAPNs2 itself, `apns2` 0.7.2, needs `hyper`, which does not import on Python 3.10+).
One APNsClient with TokenCredentials for the whole run, pointed at the mock by its host and port class attributes;
the mock's CA goes into the credentials' SSL context (TokenCredentials takes none). Pushes go one at a time through
send_notification_async + get_notification_result (send_notification takes no push type); when the scenario's
pushes are all due at once they go through send_notification_batch, the library's own pipelining call.

apns2 knows no `liveactivity` push type and builds `aps` from its Payload fields only, so the adapter hands it the
scenario's payload through a Payload whose dict() is that payload and the push type as a value it copies into the
header: what an application sending Live Activities with apns2 has to do."""
import json

from apns2.client import APNsClient, Notification, NotificationPriority
from apns2.credentials import TokenCredentials
from apns2.payload import Payload
from hyper.tls import init_context

import adapterlib as lib


class RawPayload(Payload):
    def __init__(self, text):
        super().__init__()
        self.raw = json.loads(text)

    def dict(self):
        return self.raw


class PushType:  # apns2's NotificationType has no `liveactivity`; the client reads only `.value`
    def __init__(self, value):
        self.value = value


def make_client():
    APNsClient.SANDBOX_SERVER, APNsClient.DEFAULT_PORT = lib.HOST, lib.PORT
    credentials = TokenCredentials(auth_key_path=lib.KEY_FILE, auth_key_id=lib.KEY_ID, team_id=lib.TEAM_ID)
    credentials._Credentials__ssl_context = init_context(cert_path=lib.CA_FILE)
    return APNsClient(credentials, use_sandbox=True)


def priority(push):
    return NotificationPriority(str(push.get("priority", 10)))


def main():
    client = make_client()
    pushes = lib.pushes()
    if lib.due_at_once() and len({(p["topic"], p["pushType"], p.get("priority")) for p in pushes}) == 1:
        first = pushes[0]
        results = client.send_notification_batch(
            [Notification(push["deviceToken"], RawPayload(push["payload"])) for push in pushes], topic=first["topic"],
            priority=priority(first), push_type=PushType(first["pushType"]))
        index_of = {push["deviceToken"]: index for index, push in enumerate(pushes)}
        for token, result in results.items():
            lib.report(index_of[token], None if result == "Success" else str(result))
            print(f"apns2: {token[:8]}… {result}", flush=True)
        return 0

    def send(push):
        stream = client.send_notification_async(push["deviceToken"], RawPayload(push["payload"]), topic=push["topic"],
                                                priority=priority(push), push_type=PushType(push["pushType"]))
        result = client.get_notification_result(stream)
        return None if result == "Success" else str(result)

    return lib.run(send, "apns2")


if __name__ == "__main__":
    raise SystemExit(main())
