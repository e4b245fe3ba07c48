"""Fault injection (docs/configuration.md, "Fault injection"): each fault kind is provoked through the admin API or
the configuration file and observed with a real client we did not write (curl, Python h2, httpx, aioapns). No
timing assertions: every wait is on an event (a frame, a record, a timeout of the client itself)."""
import asyncio
import json
import socket
import ssl
import subprocess
import urllib.error
import urllib.request

import h2.events
import h2.settings
import httpx
import pytest

from conftest import BINARY
from helpers.h2client import H2Client
from helpers.tokens import BUNDLE, KEY_ID, KEY_PATH, TEAM_ID, pyjwt_token
from test_inspector import ROW_FOR_TOKEN, browser  # noqa: F401 (the `browser` fixture)

TOKEN = "ab" * 32
OTHER = "cd" * 32
PAYLOAD = b'{"aps":{"alert":"hi"}}'


def admin(server, method, path, body=None):
    request = urllib.request.Request(f"{server.admin_url}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def add_fault(server, spec):
    status, body = admin(server, "POST", "/api/config/faults", spec)
    assert status == 200, body
    return body


def records(server, **filters):
    query = "&".join(f"{key}={value}" for key, value in filters.items())
    return admin(server, "GET", f"/api/deliveries?{query}")[1]["deliveries"]


JWT = pyjwt_token()  # one provider token for the whole module: APNs limits token changes (TooManyProviderTokenUpdates)


def headers(push_type="alert", topic=BUNDLE):
    return [("authorization", f"bearer {JWT}"), ("apns-topic", topic), ("apns-push-type", push_type)]


def h2_push(client, token=TOKEN):
    return client.request(f"/3/device/{token}", headers(), PAYLOAD)


def httpx_client(server, **options):
    return httpx.Client(http2=True, verify=ssl.create_default_context(cafile=server.ca_path), **options)


def httpx_push(client, server, token=TOKEN):
    return client.post(f"https://localhost:{server.tls_port}/3/device/{token}", content=PAYLOAD,
                       headers=dict(headers()))


def curl_push(server, token=TOKEN, extra=()):
    """POST over h2c with curl (HTTP/2 prior knowledge); returns (status, body)."""
    command = ["curl", "-s", "--http2-prior-knowledge", "-o", "-", "-w", "\n%{http_code}", "-X", "POST",
               "--max-time", "30", *extra]
    for name, value in headers():
        command += ["-H", f"{name}: {value}"]
    command += ["--data-binary", PAYLOAD.decode(), f"http://127.0.0.1:{server.h2c_port}/3/device/{token}"]
    result = subprocess.run(command, capture_output=True, timeout=60)
    body, _, code = result.stdout.decode().rpartition("\n")
    return int(code), body


def wait_for_record(server, token):
    """The first record for `token`, waiting for it with the admin API's long poll (bounded)."""
    with urllib.request.urlopen(f"{server.admin_url}/api/deliveries/wait?token={token}&after_id=0&timeout_ms=20000",
                                timeout=30) as response:
        assert response.status == 200, "no delivery record for the token"
        return json.load(response)


# --- answers -----------------------------------------------------------------------------------------------

def test_a_scripted_410_reaches_curl_with_a_timestamp_and_the_record_is_marked_injected(server):
    add_fault(server, {"deviceToken": TOKEN, "reason": "Unregistered", "remaining": 1})
    status, body = curl_push(server)
    assert status == 410
    answer = json.loads(body)
    assert answer["reason"] == "Unregistered" and isinstance(answer["timestamp"], int)
    record = records(server, token=TOKEN)[0]
    assert record["injected"]["fault"] == {"deviceToken": TOKEN, "reason": "Unregistered", "status": 410, "remaining": 1}
    assert record["injected"]["index"] == 0 and record["injected"]["rulesAnswer"] == "200"
    assert record["ruleId"] == "fault.answer" and "would have answered 200" in record["explanation"]
    assert curl_push(server)[0] == 200, "remaining 1: used up"


def test_503_for_the_next_3_pushes_then_the_rules_again_seen_by_httpx(server):
    add_fault(server, {"reason": "ServiceUnavailable", "remaining": 3})
    with httpx_client(server) as client:
        statuses = [httpx_push(client, server).status_code for _ in range(4)]
    assert statuses == [503, 503, 503, 200]


@pytest.mark.parametrize("reason,status", [("TooManyProviderTokenUpdates", 429), ("ExpiredProviderToken", 403)])
def test_provider_token_faults_carry_the_status_apns_pairs_with_the_reason(server, reason, status):
    add_fault(server, {"keyID": KEY_ID, "teamID": TEAM_ID, "reason": reason, "remaining": 1})
    with httpx_client(server) as client:
        response = httpx_push(client, server)
    assert (response.status_code, response.json()["reason"]) == (status, reason)


def test_unregister_after_two_pushes_flips_a_declared_token_so_the_rules_answer_410(server):
    assert admin(server, "POST", "/api/config/tokens", {"token": TOKEN, "bundleID": BUNDLE})[0] == 200
    add_fault(server, {"deviceToken": TOKEN, "unregisterAfter": 2})
    with httpx_client(server) as client:
        responses = [httpx_push(client, server) for _ in range(3)]
    assert [r.status_code for r in responses] == [200, 200, 410]
    assert responses[2].json()["reason"] == "Unregistered" and isinstance(responses[2].json()["timestamp"], int)
    tokens = admin(server, "GET", "/api/config/tokens")[1]
    assert "unregistered" in json.dumps(tokens[0]["state"])
    assert "injected" not in records(server, token=TOKEN)[0], "the rules answered: the registry says unregistered"


def test_seeded_random_500s_repeat_exactly_in_another_run(start_server):
    spec = {"reason": "InternalServerError", "probability": 0.2, "seed": 7}
    runs = []
    for _ in range(2):
        server = start_server()
        add_fault(server, spec)
        client = H2Client(server.h2c_port, tls=False)
        runs.append([client.response(h2_push(client)).status for _ in range(60)])
        client.close()
        counters = admin(server, "GET", "/api/config/faults")[1][0]["counters"]
        assert counters == {"matched": 60, "fired": runs[-1].count(500)}
    assert runs[0] == runs[1]
    assert 0 < runs[0].count(500) < 60


# --- refusals ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("spec,message", [
    ({"deviceToken": TOKEN, "reason": "Unregisterd"}, 'unknown reason "Unregisterd" (did you mean "Unregistered"?)'),
    ({"deviceToken": "", "reason": "Unregistered"}, "deviceToken must not be empty"),
    ({"deviceTokn": TOKEN, "blackHole": True}, 'unknown key "deviceTokn" (did you mean "deviceToken"?)'),
    ([{"blackHole": True}, {"resetStream": "REFUSED"}], '[1]: resetStream "REFUSED" is not an HTTP/2 error code'),
])
def test_a_spec_that_is_not_understood_is_refused_with_400_and_nothing_is_applied(server, spec, message):
    status, body = admin(server, "POST", "/api/config/faults", spec)
    assert status == 400 and message in body["error"], body
    assert admin(server, "GET", "/api/config/faults") == (200, [])


def test_a_bad_spec_in_the_configuration_file_is_a_start_up_error(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"scriptedAnswers": [{"deviceToken": "", "status": 410, "reason": "Unregistered"}]}))
    result = subprocess.run([BINARY, "serve", "--config", str(config), "--port", "0", "--admin-port", "0"],
                            capture_output=True, timeout=30)
    assert result.returncode != 0
    assert "deviceToken must not be empty" in result.stderr.decode()


def test_faults_from_the_configuration_file_are_active_from_start_up(start_server, tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"scriptedAnswers": [{"topic": BUNDLE, "resetStream": "INTERNAL_ERROR"}]}))
    server = start_server("--config", str(config))
    client = H2Client(server.h2c_port, tls=False)
    assert client.response(h2_push(client)).reset_code == 2
    client.close()


# --- HTTP/2 faults -----------------------------------------------------------------------------------------

def test_rst_stream_refused_stream_is_seen_by_h2_and_recorded_without_status(server):
    add_fault(server, {"deviceToken": TOKEN, "resetStream": "REFUSED_STREAM"})
    client = H2Client(server.tls_port, ca=server.ca_path)
    response = client.response(h2_push(client))
    assert response.reset_code == h2.errors.ErrorCodes.REFUSED_STREAM and response.status is None
    assert client.response(h2_push(client, token=OTHER)).status == 200, "the connection stays usable"
    client.close()
    record = records(server, token=TOKEN)[0]
    assert record["status"] is None and record["injected"]["effect"] == "resetStream"


def test_rst_stream_internal_error_is_an_error_for_httpx(server):
    add_fault(server, {"resetStream": "INTERNAL_ERROR", "remaining": 1})
    with httpx_client(server) as client:
        with pytest.raises(httpx.RemoteProtocolError):
            httpx_push(client, server)
        assert httpx_push(client, server).status_code == 200


def test_goaway_after_the_answer_makes_aioapns_reconnect(server):
    import aioapns.connection as connection
    from aioapns import APNs, NotificationRequest, PushType

    connection.APNsDevelopmentClientProtocol.APNS_SERVER = "localhost"
    connection.APNsTLSClientProtocol.APNS_PORT = server.tls_port
    add_fault(server, {"goaway": {"reason": "Shutdown", "after": "answer"}, "remaining": 1})

    async def send():
        client = APNs(key=KEY_PATH.read_text(), key_id=KEY_ID, team_id=TEAM_ID, topic=BUNDLE, use_sandbox=True,
                      ssl_context=ssl.create_default_context(cafile=server.ca_path))
        def notification():
            return NotificationRequest(device_token=TOKEN, message={"aps": {"alert": "hi"}}, push_type=PushType.ALERT)

        results = [await client.send_notification(notification())]
        # aioapns closes the connection when it sees the GOAWAY, but its pool forgets the connection only once the
        # transport reports it lost; a send in between reaches a closed h2 state machine (an aioapns race, not ours).
        for _ in range(500):
            if not client.pool.connections:
                break
            await asyncio.sleep(0.01)
        assert not client.pool.connections, "aioapns dropped the connection that got GOAWAY"
        for _ in range(2):
            results.append(await client.send_notification(notification()))
        return results

    results = asyncio.run(asyncio.wait_for(send(), timeout=60))
    assert all(result.is_successful for result in results), [r.description for r in results]
    delivered = sorted(records(server, token=TOKEN), key=lambda record: record["id"])
    assert len(delivered) == 3
    assert delivered[0]["injected"]["effect"] == "goaway"
    assert delivered[1]["connectionId"] != delivered[0]["connectionId"], "aioapns reconnected after the GOAWAY"


def test_goaway_before_the_answer_names_the_last_stream_and_leaves_the_request_unprocessed(server):
    add_fault(server, {"deviceToken": OTHER, "goaway": {"reason": "Shutdown", "after": "before"}})
    client = H2Client(server.tls_port, ca=server.ca_path)
    first = h2_push(client)
    assert client.response(first).status == 200
    second = h2_push(client, token=OTHER)
    assert client.wait_for(lambda: client.goaway is not None)
    assert client.goaway.last_stream_id == first and client.goaway.error_code == 0
    assert json.loads(client.goaway.additional_data) == {"reason": "Shutdown"}
    assert client.responses[second].status is None, "stream above last-stream-id: not processed, retry elsewhere"
    client.close()
    assert records(server, token=OTHER)[0]["status"] is None


def test_goaway_after_3_streams_on_each_connection(server):
    add_fault(server, {"goaway": {"reason": "Shutdown", "afterStreams": 3}})
    client = H2Client(server.h2c_port, tls=False)
    statuses = []
    for _ in range(2):
        statuses.append(client.response(h2_push(client)).status)
        assert client.goaway is None
    statuses.append(client.response(h2_push(client)).status)
    assert client.wait_for(lambda: client.goaway is not None)
    assert statuses == [200, 200, 200] and json.loads(client.goaway.additional_data) == {"reason": "Shutdown"}
    client.close()


def test_a_mid_connection_settings_change_of_max_concurrent_streams_is_seen_by_h2(server):
    add_fault(server, {"maxConcurrentStreams": 5, "remaining": 1})
    client = H2Client(server.tls_port, ca=server.ca_path)
    client.wait_settings()
    initial = client.remote_settings[h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS]
    assert client.response(h2_push(client)).status == 200
    assert client.wait_for(lambda: client.remote_settings[h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS] == 5)
    assert initial != 5
    assert client.response(h2_push(client)).status == 200, "a later valid token does not undo the injected limit"
    assert client.remote_settings[h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS] == 5
    client.close()


def test_closing_the_tcp_connection_without_goaway(server):
    add_fault(server, {"deviceToken": TOKEN, "closeConnection": True})
    client = H2Client(server.h2c_port, tls=False)
    stream = h2_push(client)
    assert client.wait_for(lambda: client.closed)
    assert client.goaway is None and client.responses[stream].status is None
    status, _ = curl_push(server)
    assert status == 0, "curl sees the connection closed without an answer"
    assert records(server, token=TOKEN)[0]["injected"]["effect"] == "closeConnection"


def test_a_black_hole_makes_httpx_time_out_and_the_stream_is_recorded_without_status(server):
    add_fault(server, {"deviceToken": TOKEN, "blackHole": True})
    with httpx_client(server, timeout=httpx.Timeout(10, read=0.5)) as client:
        with pytest.raises(httpx.ReadTimeout):
            httpx_push(client, server)
        assert httpx_push(client, server, token=OTHER).status_code == 200, "the server answers other streams"
    record = records(server, token=TOKEN)[0]
    assert record["status"] is None and record["injected"]["effect"] == "blackHole"


def test_a_black_holed_stream_reset_by_the_client_is_forgotten(server):
    add_fault(server, {"deviceToken": TOKEN, "blackHole": True})
    client = H2Client(server.h2c_port, tls=False)
    for _ in range(3):
        stream = h2_push(client)
        wait_for_record(server, TOKEN)
        client.conn.reset_stream(stream)
        client._flush()
    client.ping()
    assert client.wait_for(lambda: client.ping_acks)
    assert client.response(h2_push(client, token=OTHER)).status == 200
    client.close()


# --- latency and connections --------------------------------------------------------------------------------

def test_a_delayed_answer_arrives_after_its_record_is_written(server):
    add_fault(server, {"deviceToken": TOKEN, "delayMs": 60000})
    client = H2Client(server.h2c_port, tls=False)
    stream = h2_push(client)
    record = wait_for_record(server, TOKEN)
    assert record["injected"]["effect"] == "delay"
    assert not client.responses[stream].ended, "the record exists; the answer is still on the event loop's timer"
    client.close()
    admin(server, "POST", "/api/config/faults", {"clear": True})
    add_fault(server, {"delayMs": {"min": 1, "max": 30}, "seed": 3})
    status, _ = curl_push(server)
    assert status == 200


def test_a_stalled_tls_handshake_times_out_the_client_then_handshakes_work_again(server):
    assert admin(server, "POST", "/api/config/serverFaults", {"handshakeStallMs": 600000})[0] == 200
    raw = socket.create_connection(("127.0.0.1", server.tls_port), timeout=0.5)
    context = ssl.create_default_context(cafile=server.ca_path)
    with pytest.raises((socket.timeout, TimeoutError)):
        context.wrap_socket(raw, server_hostname="localhost")
    raw.close()
    assert admin(server, "POST", "/api/config/serverFaults", {}) == (200, {})
    client = H2Client(server.tls_port, ca=server.ca_path)
    assert client.response(h2_push(client)).status == 200
    client.close()


def test_an_accept_delay_holds_back_the_servers_settings(server):
    assert admin(server, "POST", "/api/config/serverFaults", {"acceptDelayMs": 600000})[0] == 200
    client = H2Client(server.h2c_port, tls=False, timeout=0.5)
    assert not client.wait_settings(), "no SETTINGS while the connection waits to be accepted"
    client.close()
    admin(server, "POST", "/api/config/serverFaults", {"acceptDelayMs": 1})
    client = H2Client(server.h2c_port, tls=False)
    assert client.wait_settings()
    client.close()


def test_connections_beyond_the_maximum_are_closed(server):
    assert admin(server, "POST", "/api/config/serverFaults", {"maxConnections": 1})[0] == 200
    first = H2Client(server.h2c_port, tls=False)
    assert first.response(h2_push(first)).status == 200
    status, _ = curl_push(server)
    assert status == 0, "the second connection is closed at once"
    assert first.response(h2_push(first)).status == 200
    first.close()
    status, body = admin(server, "POST", "/api/config/serverFaults", {"maxConections": 1})
    assert status == 400 and "maxConections" in body["error"]


def test_explain_shows_the_injected_fault(server):
    add_fault(server, {"deviceToken": TOKEN, "reason": "ServiceUnavailable"})
    assert curl_push(server)[0] == 503
    apns_id = records(server, token=TOKEN)[0]["apnsId"]
    result = subprocess.run([BINARY, "explain", apns_id, "--admin-port", str(server.admin_port)],
                            capture_output=True, timeout=30, env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin"})
    output = result.stdout.decode()
    assert result.returncode == 0, result.stderr.decode()
    assert "INJECTED FAULT #0 (answer)" in output and "the rules would have answered 200" in output


def test_the_inspector_marks_an_injected_answer(server, browser):
    add_fault(server, {"deviceToken": TOKEN, "reason": "ServiceUnavailable", "remaining": 1})
    browser.call("Page.navigate", url=server.admin_url + "/")
    browser.wait_for("document.getElementById('status')?.textContent === 'live'")
    assert curl_push(server)[0] == 503
    row = browser.wait_for(ROW_FOR_TOKEN.format(token=TOKEN))
    browser.evaluate(f"document.querySelector('tr[data-id=\"{row['id']}\"]').click()")
    banner = browser.wait_for("document.getElementById('detail-injected')?.textContent")
    assert banner.startswith("Injected fault #0 (answer): ") and "the rules would have answered 200" in banner
    assert '"reason":"ServiceUnavailable"' in banner
