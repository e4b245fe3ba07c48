"""the HTTP/2 transport as APNs clients see it, driven over real sockets by clients we did not write
(curl, nghttp, Python h2 and httpx)."""
import json
import re
import socket
import ssl
import subprocess
import threading

import h2.settings
import httpx
import pytest

from helpers.h2client import H2Client, raw_frames, read_until_closed
from helpers.tokens import BUNDLE, LA_TOPIC, openssl_token, pyjwt_token

DEVICE = "a1" * 32
UPPER_UUID = re.compile(r"^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$")
ALERT = b'{"aps":{"alert":"hello"}}'


def alert_headers(token=None, extra=()):
    return [("authorization", f"bearer {token or pyjwt_token()}"), ("apns-topic", BUNDLE),
            ("apns-push-type", "alert")] + list(extra)


def curl(args, timeout=20):
    result = subprocess.run(["curl", "-sS", "--max-time", "15"] + args, capture_output=True, timeout=timeout)
    return result


def parse_curl(output):
    """curl -D - output (headers then body) -> (status, headers dict, body)."""
    text = output.decode()
    head, _, body = text.partition("\r\n\r\n")
    lines = head.split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body


# -- TLS, ALPN, h2c ------------------------------------------------------------------------------------------

def test_curl_over_tls_with_alpn_h2_and_the_dev_ca(server):
    result = curl(["--http2", "--cacert", server.ca_path, "-D", "-", "-o", "-",
                   "-H", f"authorization: bearer {pyjwt_token()}", "-H", f"apns-topic: {BUNDLE}",
                   "-H", "apns-push-type: alert", "--data-binary", ALERT.decode(),
                   f"https://localhost:{server.tls_port}/3/device/{DEVICE}"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(b"HTTP/2 200")
    status, headers, body = parse_curl(result.stdout)
    assert status == 200 and body == ""
    assert UPPER_UUID.match(headers["apns-id"])


def test_curl_connect_to_keeps_the_apple_host_name_for_sni_and_authority(server):
    result = curl(["--http2", "--cacert", server.ca_path, "-D", "-",
                   "--connect-to", f"api.sandbox.push.apple.com:443:127.0.0.1:{server.tls_port}",
                   "-H", f"authorization: bearer {openssl_token()}", "-H", f"apns-topic: {LA_TOPIC}",
                   "-H", "apns-push-type: liveactivity", "--data-binary",
                   '{"aps":{"timestamp":1700000000,"event":"update","content-state":{}}}',
                   f"https://api.sandbox.push.apple.com/3/device/{'ab' * 80}"])
    assert result.returncode == 0, result.stderr
    assert parse_curl(result.stdout)[0] == 200


def test_curl_http2_prior_knowledge_on_the_h2c_port(server):
    result = curl(["--http2-prior-knowledge", "-D", "-", "-H", f"authorization: bearer {pyjwt_token()}",
                   "-H", f"apns-topic: {BUNDLE}", "--data-binary", ALERT.decode(),
                   f"http://127.0.0.1:{server.h2c_port}/3/device/{DEVICE}"])
    assert result.returncode == 0, result.stderr
    assert parse_curl(result.stdout)[0] == 200


def test_nghttp_gets_apns_answers(server, tmp_path):
    body = str(tmp_path / "body.json")
    with open(body, "wb") as handle:
        handle.write(ALERT)
    result = subprocess.run(["nghttp", "-v", "-H", ":method: POST", "-H", f"authorization: bearer {pyjwt_token()}",
                             "-H", "apns-topic: com.example.app", "-d", body,
                             f"https://127.0.0.1:{server.tls_port}/3/devices/{DEVICE}"],
                            capture_output=True, timeout=20)
    output = result.stdout.decode()
    assert ":status: 404" in output
    assert '{"reason":"BadPath"}' in output
    assert "SETTINGS_MAX_HEADER_LIST_SIZE(0x06):8000" in output


@pytest.mark.parametrize("alpn", [True, False], ids=["alpn-h2", "no-alpn"])
def test_h2_over_tls_with_and_without_alpn(server, alpn):
    client = H2Client(server.tls_port, alpn=alpn, ca=server.ca_path)
    assert client.selected_alpn == ("h2" if alpn else None)
    stream = client.request(f"/3/device/{DEVICE}", alert_headers(), ALERT)
    response = client.response(stream)
    assert response.status == 200
    client.close()


def test_httpx_http2(server):
    with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=server.ca_path), timeout=10) as client:
        response = client.post(f"https://localhost:{server.tls_port}/3/device/{DEVICE}", content=ALERT,
                               headers=dict(alert_headers()))
    assert response.http_version == "HTTP/2"
    assert response.status_code == 200


# -- SETTINGS, PING, PRIORITY, host --------------------------------------------------------------------------

def test_settings_arrive_first_with_apns_values_and_streams_open_up_after_the_first_valid_token(server):
    client = H2Client(server.tls_port, ca=server.ca_path)
    settings = client.wait_settings()
    assert settings[h2.settings.SettingCodes.HEADER_TABLE_SIZE] == 4096
    assert settings[h2.settings.SettingCodes.MAX_FRAME_SIZE] == 16384
    assert settings[h2.settings.SettingCodes.MAX_HEADER_LIST_SIZE] == 8000
    assert settings[h2.settings.SettingCodes.INITIAL_WINDOW_SIZE] == 65535
    assert settings[h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS] == 1
    first = client.events[0]
    assert type(first).__name__ == "RemoteSettingsChanged"
    client.response(client.request(f"/3/device/{DEVICE}", alert_headers(), ALERT))
    assert client.wait_for(lambda: client.remote_settings[h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS] == 1000)
    client.close()


def test_a_new_token_on_the_same_connection_within_20_minutes_is_too_many_updates(server):
    client = H2Client(server.tls_port, ca=server.ca_path)
    assert client.response(client.request(f"/3/device/{DEVICE}", alert_headers(pyjwt_token()), ALERT)).status == 200
    second = client.response(client.request(f"/3/device/{DEVICE}", alert_headers(openssl_token()), ALERT))
    assert second.status == 429
    assert json.loads(second.body) == {"reason": "TooManyProviderTokenUpdates"}
    client.close()


def test_ping_is_acked_and_priority_is_ignored(server):
    client = H2Client(server.tls_port, ca=server.ca_path)
    client.ping(b"12345678")
    assert client.wait_for(lambda: client.ping_acks == [b"12345678"])
    stream = client.request(f"/3/device/{DEVICE}", alert_headers(), ALERT)
    client.send_priority(stream)
    assert client.response(stream).status == 200
    client.close()


def test_host_header_in_place_of_authority(server):
    client = H2Client(server.tls_port, alpn=False, ca=server.ca_path)
    stream = client.request(f"/3/device/{DEVICE}", alert_headers(), ALERT, use_host_header=True)
    assert client.response(stream).status == 200
    client.close()


def test_body_split_over_several_data_frames_and_no_body_at_all(server):
    client = H2Client(server.tls_port, ca=server.ca_path)
    token = pyjwt_token()  # one token per connection: switching within 20 minutes is TooManyProviderTokenUpdates
    split = client.request(f"/3/device/{DEVICE}", alert_headers(token), ALERT, split_body_into=5)
    assert client.response(split).status == 200
    empty = client.request(f"/3/device/{DEVICE}", alert_headers(token), None)
    response = client.response(empty)
    assert response.status == 400
    assert json.loads(response.body) == {"reason": "PayloadEmpty"}
    client.close()


# -- HTTP/1.x -------------------------------------------------------------------------------------------------

def goaway_of(data):
    frames = [frame for frame in raw_frames(data) if frame[0] == 7]
    assert frames, f"no GOAWAY in {data!r}"
    payload = frames[0][3]
    return int.from_bytes(payload[:4], "big"), int.from_bytes(payload[4:8], "big"), payload[8:]


def test_http1_request_on_h2c_gets_apns_goaway(server):
    sock = socket.create_connection(("127.0.0.1", server.h2c_port), timeout=5)
    sock.sendall(b"POST /3/device/x HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n")
    last_stream, error, debug = goaway_of(read_until_closed(sock))
    assert (last_stream, error, debug) == (0, 1, b"Unexpected HTTP/1.x request: POST /3/device/x")


def test_http1_request_on_tls_gets_apns_goaway(server):
    context = ssl.create_default_context(cafile=server.ca_path)
    context.set_alpn_protocols(["http/1.1"])
    sock = context.wrap_socket(socket.create_connection(("127.0.0.1", server.tls_port), timeout=5),
                               server_hostname="localhost")
    sock.sendall(b"GET /3/device/abc HTTP/1.1\r\nHost: localhost\r\n\r\n")
    assert goaway_of(read_until_closed(sock)) == (0, 1, b"Unexpected HTTP/1.x request: GET /3/device/abc")


def test_curl_http1_gets_no_http1_answer(server):
    result = curl(["--http1.1", "--cacert", server.ca_path, "-d", "{}",
                   f"https://localhost:{server.tls_port}/3/device/{DEVICE}"])
    assert result.returncode != 0


# -- what reaches the rules, response shape --------------------------------------------------------------------

def test_authorization_with_trailing_space_reaches_the_rules(server):
    result = curl(["--http2", "--cacert", server.ca_path, "-D", "-", "-H", "authorization: bearer ",
                   "-H", f"apns-topic: {BUNDLE}", "-d", "{}", f"https://localhost:{server.tls_port}/3/device/{DEVICE}"])
    status, headers, body = parse_curl(result.stdout)
    assert status == 403
    assert headers["content-type"] == "application/json"
    assert json.loads(body) == {"reason": "MissingProviderToken"}


def test_apns_id_is_echoed_byte_for_byte_and_errors_are_one_json_data_frame(server):
    client = H2Client(server.tls_port, ca=server.ca_path)
    lower = "4f0b1c36-2a5e-4b8a-9d3c-1e2f3a4b5c6d"
    ok = client.response(client.request(f"/3/device/{DEVICE}", alert_headers(extra=[("apns-id", lower)]), ALERT))
    assert ok.header("apns-id") == lower
    bad = client.response(client.request("/3/devices/x", alert_headers(), ALERT))
    assert bad.status == 404
    assert bad.data_frames == 1
    assert bad.header("content-type") == "application/json"
    assert json.loads(bad.body) == {"reason": "BadPath"}
    assert UPPER_UUID.match(bad.header("apns-id"))
    client.close()


def test_head_is_answered_without_a_body_for_curl_and_nghttp(server, tmp_path):
    """RFC 9110 §9.3.2: an answer to HEAD has no content. DATA after it is a stream error for HTTP/2 clients (curl
    exits 92, nghttp resets the stream)."""
    result = curl(["--http2", "--cacert", server.ca_path, "-I", f"https://localhost:{server.tls_port}/3/device/{DEVICE}"])
    assert result.returncode == 0, result.stderr
    status, headers, body = parse_curl(result.stdout)
    assert status == 405 and body == ""
    assert int(headers["content-length"]) > 0, "the length of the answer GET would have, without the body"
    result = subprocess.run(["nghttp", "-v", "-H", ":method: HEAD", f"https://127.0.0.1:{server.tls_port}/3/device/{DEVICE}"],
                            capture_output=True, timeout=20)
    output = result.stdout.decode()
    assert result.returncode == 0 and ":status: 405" in output, output
    assert "send RST_STREAM" not in output and "recv DATA" not in output, output


def test_a_100_kib_body_is_refused_without_killing_the_server(server):
    client = H2Client(server.tls_port, ca=server.ca_path)
    stream = client.request(f"/3/device/{DEVICE}", alert_headers(), b"{" + b" " * (100 * 1024) + b"}")
    response = client.response(stream)
    assert response.status == 413
    assert json.loads(response.body) == {"reason": "PayloadTooLarge"}
    client.close()
    after = H2Client(server.tls_port, ca=server.ca_path)
    assert after.response(after.request(f"/3/device/{DEVICE}", alert_headers(), ALERT)).status == 200
    after.close()


def test_a_header_list_over_8000_bytes_gets_431(server):
    client = H2Client(server.h2c_port, tls=False)
    stream = client.request(f"/3/device/{DEVICE}", alert_headers(extra=[("x-padding", "p" * 9000)]), ALERT)
    response = client.response(stream)
    assert response.status == 431
    client.close()


def test_many_connections_and_streams_at_once(server):
    failures = []

    def one_connection():
        try:
            client = H2Client(server.tls_port, ca=server.ca_path)
            token = pyjwt_token()
            first = client.response(client.request(f"/3/device/{DEVICE}", alert_headers(token), ALERT))
            streams = [client.request(f"/3/device/{DEVICE}", alert_headers(token), ALERT) for _ in range(20)]
            statuses = [client.response(stream).status for stream in streams]
            if first.status != 200 or statuses != [200] * 20:
                failures.append((first.status, statuses))
            client.close()
        except Exception as error:  # noqa: BLE001 - collect and report every failure
            failures.append(repr(error))

    threads = [threading.Thread(target=one_connection) for _ in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures


def test_sigterm_with_an_open_idle_connection_sends_goaway_and_exits_zero(start_server):
    server = start_server()
    client = H2Client(server.tls_port, ca=server.ca_path)
    assert client.response(client.request(f"/3/device/{DEVICE}", alert_headers(), ALERT)).status == 200
    assert server.stop() == 0
    client.wait_for(lambda: client.goaway is not None or client.closed, timeout=5)
    assert client.goaway is not None and client.goaway.error_code == 0


def test_the_production_listener_answers_without_apns_unique_id(start_server):
    server = start_server("--production-port", "0")
    for port, has_unique_id in [(server.tls_port, True), (server.production_port, False)]:
        client = H2Client(port, ca=server.ca_path)
        response = client.response(client.request(f"/3/device/{DEVICE}", alert_headers(), ALERT))
        assert response.status == 200
        assert (response.header("apns-unique-id") is not None) == has_unique_id, port
        client.close()
