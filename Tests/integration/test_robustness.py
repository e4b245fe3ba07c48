"""Bad input gets a clear error and loses nothing: malformed frames, forged tokens, clients that do not read or
vanish mid-request. After each, the server still answers new connections."""
import json
import socket
import ssl
import time

from helpers.h2client import H2Client, raw_frames, read_until_closed
from helpers.tokens import BUNDLE, alg_none_token, pyjwt_token

DEVICE = "a1" * 32
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def still_serving(server):
    client = H2Client(server.tls_port, ca=server.ca_path)
    headers = [("authorization", f"bearer {pyjwt_token()}"), ("apns-topic", BUNDLE), ("apns-push-type", "alert")]
    status = client.response(client.request(f"/3/device/{DEVICE}", headers, b'{"aps":{"alert":"x"}}')).status
    client.close()
    return status == 200


def test_malformed_frames_get_a_goaway_and_the_server_stays_up(server):
    for garbage in [
        b"\x00\x00\x03\x08\x00\x00\x00\x00\x00\x00\x00\x01",       # WINDOW_UPDATE of length 3 (must be 4)
        b"\x00\x00\x05\x04\x00\x00\x00\x00\x00" + b"\x00" * 5,           # SETTINGS with a length not a multiple of 6
        b"\xff\xff\xff\x00\x00\x00\x00\x00\x01" + b"x" * 64,             # DATA longer than MAX_FRAME_SIZE
        b"\x00\x00\x08\x01\x04\x00\x00\x00\x01" + b"\xff" * 8,           # HEADERS whose HPACK block is garbage
    ]:
        sock = socket.create_connection(("127.0.0.1", server.h2c_port), timeout=5)
        sock.sendall(PREFACE + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00" + garbage)
        frames = raw_frames(read_until_closed(sock))
        goaways = [frame for frame in frames if frame[0] == 7]
        assert goaways, f"no GOAWAY for {garbage[:12]!r}"
        assert int.from_bytes(goaways[0][3][4:8], "big") != 0, "a protocol error code"
        sock.close()
    assert still_serving(server)


def test_alg_none_and_forged_tokens_are_invalid_provider_tokens(server):
    for token in [alg_none_token(), pyjwt_token(team="EVILTEAM01"), pyjwt_token()[:-10] + "AAAAAAAAAA"]:
        client = H2Client(server.tls_port, ca=server.ca_path)
        headers = [("authorization", f"bearer {token}"), ("apns-topic", BUNDLE)]
        response = client.response(client.request(f"/3/device/{DEVICE}", headers, b'{"aps":{}}'))
        assert (response.status, json.loads(response.body)["reason"]) == (403, "InvalidProviderToken"), token
        client.close()
    assert still_serving(server)


def test_invalid_json_body_is_refused_with_a_json_reason(server):
    client = H2Client(server.tls_port, ca=server.ca_path)
    headers = [("authorization", f"bearer {pyjwt_token()}"), ("apns-topic", BUNDLE), ("apns-push-type", "alert")]
    response = client.response(client.request(f"/3/device/{DEVICE}", headers, b'{"aps": {'))
    assert response.status == 400
    assert json.loads(response.body) == {"reason": "BadRequestPayload"}
    client.close()


def test_a_client_that_never_reads_does_not_stop_others(server):
    context = ssl.create_default_context(cafile=server.ca_path)
    context.set_alpn_protocols(["h2"])
    silent = context.wrap_socket(socket.create_connection(("127.0.0.1", server.tls_port), timeout=5),
                                 server_hostname="localhost")
    silent.sendall(PREFACE + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00")
    # Thousands of PINGs whose ACKs it never reads.
    ping = b"\x00\x00\x08\x06\x00\x00\x00\x00\x00" + b"12345678"
    deadline = time.monotonic() + 3
    silent.setblocking(False)
    sent = 0
    while time.monotonic() < deadline and sent < 200_000:
        try:
            silent.send(ping * 64)
            sent += 64
        except (BlockingIOError, ssl.SSLWantWriteError, ssl.SSLWantReadError):
            break
        except (ConnectionResetError, BrokenPipeError, ssl.SSLError):
            break
    assert still_serving(server)
    silent.close()


def test_clients_vanishing_mid_request_lose_nothing_that_was_answered(server):
    for _ in range(20):
        client = H2Client(server.tls_port, ca=server.ca_path)
        headers = [("authorization", f"bearer {pyjwt_token()}"), ("apns-topic", BUNDLE), ("apns-push-type", "alert")]
        client.request(f"/3/device/{DEVICE}", headers, b'{"aps":{"alert":', end_stream=False)
        client.sock.close()
    assert still_serving(server)


def test_absurd_numbers_in_tokens_and_payloads_do_not_stop_the_server(start_server):
    import pathlib
    source = pathlib.Path(__file__).resolve().parents[2] / "Tests" / "APNSCoreTests" / "LiveActivity" / "Fixtures" / "DeliveryAttributes.swift"
    server = start_server("--activity-source", str(source))
    client = H2Client(server.tls_port, ca=server.ca_path)
    token = pyjwt_token()
    huge = 1e300
    payloads = [
        {"aps": {"timestamp": huge, "event": "update", "content-state": {"etaDate": huge, "progress": huge}}},
        {"aps": {"timestamp": -huge, "event": "end", "dismissal-date": huge, "stale-date": -huge, "content-state": {}}},
        {"aps": {"timestamp": 1767225600000, "event": "start", "attributes-type": "DeliveryAttributes",
                 "attributes": {"createdAt": huge}, "content-state": {}, "alert": "x", "relevance-score": huge}},
        {"aps": {"alert": "x", "stale-date": 1e200, "timestamp": 99999999999999999999999}},
    ]
    for number, payload in enumerate(payloads):
        headers = [("authorization", f"bearer {token}"), ("apns-topic", "com.example.app.push-type.liveactivity"),
                   ("apns-push-type", "liveactivity"), ("apns-expiration", "99999999999999999999")]
        response = client.response(client.request("/3/device/" + "b2" * 80, headers, json.dumps(payload).encode()))
        assert response.status in (200, 400), (number, response.status, response.body)
    client.close()
    for iat in [1e300, -1e300, "1e300", 10**30]:
        import jwt as pyjwt
        from helpers.tokens import KEY_ID, KEY_PATH, TEAM_ID
        forged = pyjwt.encode({"iss": TEAM_ID, "iat": iat}, KEY_PATH.read_text(), algorithm="ES256", headers={"kid": KEY_ID})
        other = H2Client(server.tls_port, ca=server.ca_path)
        headers = [("authorization", f"bearer {forged}"), ("apns-topic", BUNDLE), ("apns-push-type", "alert")]
        response = other.response(other.request(f"/3/device/{DEVICE}", headers, b'{"aps":{"alert":"x"}}'))
        assert response.status == 403, (iat, response.status, response.body)
        other.close()
    assert still_serving(server)
