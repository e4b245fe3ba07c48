"""Live Activity state is kept with the data directory: after a graceful restart the activity, its timeline and its
last applied timestamp are still there (an older update is still ignored)."""
import json
import time
import urllib.error
import urllib.request

from helpers.h2client import H2Client
from helpers.tokens import pyjwt_token


def la_push(server, token, payload):
    client = H2Client(server.tls_port, ca=server.ca_path)
    headers = [("authorization", f"bearer {pyjwt_token()}"), ("apns-push-type", "liveactivity"),
               ("apns-topic", "com.example.app.push-type.liveactivity")]
    response = client.response(client.request("/3/device/" + token, headers, json.dumps(payload).encode()))
    client.close()
    assert response.status == 200
    return response.header("apns-id")


def test_activities_survive_a_graceful_restart(start_server, tmp_path):
    token = "9a" * 32
    now = int(time.time())
    first = start_server(data_dir=str(tmp_path))
    la_push(first, token, {"aps": {"timestamp": now, "event": "update", "content-state": {"phase": "cooking"}}})
    assert first.stop() == 0
    assert (tmp_path / "live-activities.json").exists()

    second = start_server(data_dir=str(tmp_path))
    activity = json.load(urllib.request.urlopen(f"{second.admin_url}/api/activities/{token}"))
    assert activity["contentState"] == {"phase": "cooking"}
    assert [entry["event"] for entry in activity["timeline"]] == ["update"]
    apns_id = la_push(second, token, {"aps": {"timestamp": now - 10, "event": "update", "content-state": {"phase": "x"}}})
    record = json.load(urllib.request.urlopen(f"{second.admin_url}/api/deliveries/{apns_id}"))
    assert record["liveActivity"]["code"] == "ignoredOlderTimestamp"


def test_in_memory_servers_keep_no_activities(start_server, tmp_path):
    server = start_server("--in-memory", data_dir=str(tmp_path))
    la_push(server, "8b" * 32, {"aps": {"timestamp": int(time.time()), "event": "update", "content-state": {}}})
    assert server.stop() == 0
    assert not (tmp_path / "live-activities.json").exists()
