"""Adapter for pyapns-client (LIB-pyapns-client): one APNSClient for the run, pointed at the mock through
`root_cert_path` and `_base_url`; the payload is passed through as it is."""
import json

from pyapns_client import APNSClient, IOSNotification

import adapterlib as lib


class RawPayload:
    def __init__(self, text):
        self.data = json.loads(text)

    def to_json(self):
        return json.dumps(self.data, separators=(",", ":")).encode()


def main():
    client = APNSClient(mode=APNSClient.MODE_DEV, root_cert_path=lib.CA_FILE, auth_key_path=lib.KEY_FILE,
                        auth_key_id=lib.KEY_ID, team_id=lib.TEAM_ID)
    client._base_url = lib.ENV["APNS_MOCK_URL"]

    def send(push):
        client.push(notification=IOSNotification(payload=RawPayload(push["payload"]), topic=push["topic"],
                                                 push_type=push["pushType"], priority=str(push.get("priority", 10))),
                    device_token=push["deviceToken"])

    return lib.run(send, "pyapns-client")


if __name__ == "__main__":
    raise SystemExit(main())
