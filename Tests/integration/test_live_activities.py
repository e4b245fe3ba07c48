"""through the live server: schemas derived from the app's own ActivityAttributes Swift source, what the
simulated device does with each push (APNs still answers 200), strict mode, and the admin API's activity view."""
import json
import pathlib
import time
import urllib.request

from helpers.h2client import H2Client
from helpers.tokens import LA_TOPIC, pyjwt_token

REPO = pathlib.Path(__file__).resolve().parents[2]
SOURCE = REPO / "Tests" / "APNSCoreTests" / "LiveActivity" / "Fixtures" / "DeliveryAttributes.swift"
TOKEN = "a7" * 80
REFERENCE_DATE_OFFSET = 978307200


def state(progress, eta_unix):
    return {"phase": "on_the_way", "progress": progress, "etaDate": eta_unix - REFERENCE_DATE_OFFSET,
            "trackingURL": "https://example.com/t/1", "stopsLeft": 2, "observed": 0}


def send(server, client, token, aps, priority="10"):
    headers = [("authorization", f"bearer {token}"), ("apns-topic", LA_TOPIC), ("apns-push-type", "liveactivity"),
               ("apns-priority", priority)]
    response = client.response(client.request(f"/3/device/{TOKEN}", headers, json.dumps({"aps": aps}).encode()))
    record = get(server, f"/api/deliveries/{response.header('apns-id')}")
    return response, record


def get(server, path):
    with urllib.request.urlopen(f"{server.admin_url}{path}", timeout=10) as response:
        return json.load(response)


def test_the_device_applies_drops_and_ignores_pushes_while_apns_answers_200(start_server):
    server = start_server("--activity-source", str(SOURCE))
    deadline = time.monotonic() + 5
    while "Live Activity schemas: DeliveryAttributes" not in server.stderr and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "Live Activity schemas: DeliveryAttributes" in server.stderr, server.stderr
    client = H2Client(server.tls_port, ca=server.ca_path)
    jwt = pyjwt_token()
    now = int(time.time())

    applied, record = send(server, client, jwt, {"timestamp": now, "event": "update",
                                                 "content-state": state(0.5, now + 600)})
    assert applied.status == 200
    assert record["liveActivity"]["code"] == "applied", record

    missing = state(0.6, now + 600)
    del missing["phase"]
    dropped, record = send(server, client, jwt, {"timestamp": now + 1, "event": "update", "content-state": missing})
    assert dropped.status == 200, "APNs does not look inside content-state"
    assert record["liveActivity"]["code"] == "droppedUndecodableContentState"
    assert "phase" in record["liveActivity"]["explanation"]
    assert any(w["code"] == "la-content-state-invalid" for w in record["warnings"])

    unix_date = state(0.7, now + 600)
    unix_date["etaDate"] = now + 600
    _, record = send(server, client, jwt, {"timestamp": now + 2, "event": "update", "content-state": unix_date})
    date_warnings = [w for w in record["warnings"] if w["code"] == "la-content-state-unix-date"]
    assert date_warnings and "978307200" in date_warnings[0]["message"]

    older, record = send(server, client, jwt, {"timestamp": now - 100, "event": "update",
                                               "content-state": state(0.1, now + 600)})
    assert older.status == 200 and record["liveActivity"]["code"] == "ignoredOlderTimestamp"

    _, record = send(server, client, jwt, {"timestamp": (now + 3) * 1000, "event": "update",
                                           "content-state": state(0.8, now + 600)})
    assert any(w["code"] == "la-timestamp-milliseconds" for w in record["warnings"])

    activity = get(server, f"/api/activities/{TOKEN}")
    assert activity["token"] == TOKEN and activity["attributesType"] in (None, "DeliveryAttributes")
    assert activity["contentState"]["progress"] in (0.7, 0.8, 0.5)
    outcomes = [entry["outcome"] for entry in activity["timeline"]]
    assert outcomes[:4] == ["applied", "droppedUndecodableContentState", "applied", "ignoredOlderTimestamp"]
    listed = get(server, "/api/activities")["activities"]
    assert [entry["token"] for entry in listed] == [TOKEN]
    client.close()


def test_strict_mode_answers_a_device_drop_with_a_mock_reason(start_server):
    server = start_server("--activity-source", str(SOURCE), "--strict")
    client = H2Client(server.tls_port, ca=server.ca_path)
    now = int(time.time())
    bad = state(0.5, now + 600)
    del bad["trackingURL"]
    response, record = send(server, client, pyjwt_token(), {"timestamp": now, "event": "update", "content-state": bad})
    assert response.status == 400
    assert json.loads(response.body)["reason"] == "MockDeviceDroppedContentState"
    assert record["strict"] is True
    assert "not APNs behaviour" in record["explanation"]
    client.close()


def test_a_schema_declared_as_json_in_the_config_file_is_enforced_like_swift_sources(start_server, tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"liveActivities": {"schemas": [{
        "attributesType": "ScoreAttributes",
        "attributes": {"homeTeam": "String"},
        "contentState": {"home": "Int", "away": "Int", "clock": "Date"}}]}}))
    server = start_server("--config", str(config))
    client = H2Client(server.tls_port, ca=server.ca_path)
    now = int(time.time())
    _, record = send(server, client, pyjwt_token(), {"timestamp": now, "event": "update",
                                                     "content-state": {"home": "2", "away": 1, "clock": 0}})
    assert record["liveActivity"]["code"] == "droppedUndecodableContentState"
    assert "home" in record["liveActivity"]["explanation"]
    client.close()
