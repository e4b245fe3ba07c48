"""Real APNs sender libraries, pointed at the mock over TLS with the TEST-ONLY CA (recipes in
the README's "Other senders" table). Each must get APNs' answers and its deliveries must be recorded."""
import asyncio
import json
import os
import ssl
import time
import urllib.request

import pytest

from helpers.tokens import BUNDLE, KEY_ID, KEY_PATH, LA_TOPIC, TEAM_ID

LA_TOKEN = "c0" * 80
DEVICE = "d1" * 32


def deliveries(server, **filters):
    query = "&".join(f"{key}={value}" for key, value in filters.items())
    with urllib.request.urlopen(f"{server.admin_url}/api/deliveries?{query}", timeout=10) as response:
        return json.load(response)["deliveries"]


def la_update(progress=0.5):
    return {"aps": {"timestamp": int(time.time()), "event": "update", "content-state": {"progress": progress}}}


def test_aioapns_without_alpn_sends_a_live_activity_update(server):
    import aioapns.connection as connection
    from aioapns import APNs, NotificationRequest, PushType

    connection.APNsDevelopmentClientProtocol.APNS_SERVER = "localhost"
    connection.APNsTLSClientProtocol.APNS_PORT = server.tls_port

    async def send():
        client = APNs(key=KEY_PATH.read_text(), key_id=KEY_ID, team_id=TEAM_ID, topic=LA_TOPIC, use_sandbox=True,
                      ssl_context=ssl.create_default_context(cafile=server.ca_path))
        accepted = await client.send_notification(NotificationRequest(
            device_token=LA_TOKEN, message=la_update(), push_type=PushType.LIVEACTIVITY, priority=5))
        wrong_topic = await client.send_notification(NotificationRequest(
            device_token="zz", message=la_update(), push_type=PushType.LIVEACTIVITY))
        return accepted, wrong_topic

    accepted, bad_token = asyncio.run(asyncio.wait_for(send(), timeout=30))
    assert accepted.is_successful, accepted.description
    assert not bad_token.is_successful and bad_token.description == "BadDeviceToken"
    records = deliveries(server, token=LA_TOKEN)
    assert records and records[0]["status"] == 200
    assert records[0]["tls"].get("alpn") is None, "aioapns offers no ALPN: HTTP/2 by prior knowledge over TLS"
    assert records[0]["providerToken"]["claims"]["iss"] == TEAM_ID  # claims are a JSON object in the admin API


def test_kalyke_live_activity_client_gets_apns_id_and_a_known_reason(server, monkeypatch):
    monkeypatch.setenv("SSL_CERT_FILE", server.ca_path)
    from kalyke import LiveActivityApnsConfig, LiveActivityClient
    from kalyke import exceptions

    port = server.tls_port

    class MockLiveActivityClient(LiveActivityClient):
        @property
        def _base_url(self):
            return f"https://localhost:{port}"

    client = MockLiveActivityClient(use_sandbox=True, team_id=TEAM_ID, auth_key_id=KEY_ID,
                                    auth_key_filepath=str(KEY_PATH))
    apns_id = asyncio.run(asyncio.wait_for(client.send_message(
        device_token=LA_TOKEN, payload=la_update(),
        apns_config=LiveActivityApnsConfig(topic=LA_TOPIC)), timeout=30))
    assert len(apns_id) == 36
    with pytest.raises(exceptions.BadDeviceToken):
        asyncio.run(asyncio.wait_for(client.send_message(
            device_token="not-hex", payload=la_update(),
            apns_config=LiveActivityApnsConfig(topic=LA_TOPIC)), timeout=30))
    records = deliveries(server, token=LA_TOKEN)
    assert [record["status"] for record in records] == [200]
    accepted = records[0]
    assert any(warning["code"] == "jwt-iat-string" for warning in accepted["warnings"]), \
        "kalyke sends iat as a string: accepted, with a warning"


def test_pyapns_client_alert_push(server):
    from pyapns_client import APNSClient, IOSNotification

    class RawPayload:
        def __init__(self, data):
            self.data = data

        def to_json(self):
            return json.dumps(self.data, separators=(",", ":")).encode()

    client = APNSClient(mode=APNSClient.MODE_DEV, root_cert_path=server.ca_path, auth_key_path=str(KEY_PATH),
                        auth_key_id=KEY_ID, team_id=TEAM_ID)
    client._base_url = f"https://localhost:{server.tls_port}"
    client.push(notification=IOSNotification(payload=RawPayload({"aps": {"alert": "hi"}}), topic=BUNDLE,
                                             push_type="alert", priority="10"),
                device_token=DEVICE)
    records = deliveries(server, token=DEVICE)
    assert records and records[0]["status"] == 200
    assert any(warning["code"] == "jwt-iat-float" for warning in records[0]["warnings"]), \
        "pyapns-client sends iat as a float: accepted, with a warning"
