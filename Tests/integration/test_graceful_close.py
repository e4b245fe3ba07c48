"""Graceful close (docs/transport.md, "Closing a connection"): wherever the server ends a connection (a GOAWAY
fault, an idle timeout, a graceful shutdown, a protocol error), every answer it wrote reaches the client, even a
client that reads slowly and is still sending: the server finishes the streams it promised to answer, shuts down
its write side (after TLS close_notify), reads and discards what the client still sends, and closes once the client
has closed. Checked with clients we did not write (Python h2, curl, apns-mock push is ours but talks to nghttp2)
against what the mock recorded (admin API).

The slow reader: a client with a 4 KiB socket receive buffer does not read while 500 answers are written, so most
of them wait in the server's kernel send queue. Once the server has sent its FIN (its side of the connection is in
FIN_WAIT1), the client sends one more request, as a sender does that wrote it before it read the GOAWAY. A server
that had closed its socket resets the connection when those bytes arrive, and the kernel drops the answers still
queued: the client never sees answers the mock recorded as 200."""
import json
import signal
import socket
import subprocess
import time
import urllib.request

import h2.settings
import pytest

from conftest import BINARY
from helpers.h2client import H2Client, raw_frames
from helpers.tokens import BUNDLE, pyjwt_token

IN_FLIGHT = 500
SMALL_RECEIVE_BUFFER = 4096
PAYLOAD = b'{"aps":{"alert":"hi"}}'
GOAWAY_EVERY_500 = {"goaway": {"reason": "Shutdown", "after": "answer"}, "every": 500}
# /proc/net/tcp states: the server's side once it has queued its FIN.
FIN_SENT = {"04": "FIN_WAIT1", "05": "FIN_WAIT2", "06": "TIME_WAIT", "07": "CLOSE", "0B": "CLOSING", "09": "LAST_ACK"}


def admin_post(server, path, body):
    request = urllib.request.Request(f"{server.admin_url}{path}", method="POST", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


def recorded(server, token):
    """Every delivery recorded for `token` (admin API export: all of them, oldest first)."""
    with urllib.request.urlopen(f"{server.admin_url}/api/deliveries/export?token={token}", timeout=30) as response:
        return [json.loads(line) for line in response.read().decode().splitlines() if line.strip()]


def wait_for_records(server, token, count, checks=2000):
    """The event: `count` deliveries for `token` are recorded (looked up every 10 ms, at most `checks` times)."""
    for _ in range(checks):
        records = recorded(server, token)
        if len(records) >= count:
            return records
        time.sleep(0.01)
    raise AssertionError(f"only {len(records)} of {count} deliveries recorded")


def server_side_state(server_port, client_port):
    """The TCP state of the server's socket of the connection from `client_port` (None once it is gone)."""
    with open("/proc/net/tcp") as table:
        for line in table.readlines()[1:]:
            fields = line.split()
            local, remote = fields[1], fields[2]
            if int(local.split(":")[1], 16) == server_port and int(remote.split(":")[1], 16) == client_port:
                return fields[3]
    return None


def wait_until_the_server_sent_its_fin(server_port, client_port, checks=6000):
    """The event: the server has written all it had to say and queued its FIN (looked up every 5 ms, bounded)."""
    for _ in range(checks):
        state = server_side_state(server_port, client_port)
        if state is None or state in FIN_SENT:
            return state
        time.sleep(0.005)
    raise AssertionError(f"the server never ended the connection (state {state})")


def headers(token):
    return [("authorization", f"bearer {token}"), ("apns-topic", BUNDLE), ("apns-push-type", "alert")]


def slow_reader(server, tls):
    port = server.tls_port if tls else server.h2c_port
    client = H2Client(port, tls=tls, ca=server.ca_path, receive_buffer=SMALL_RECEIVE_BUFFER, timeout=30)
    client.server_port = port
    return client


def open_up(client, device, jwt):
    """The first request, answered: APNs (and the mock) allow one stream until a valid provider token."""
    assert client.response(client.request(f"/3/device/{device}", headers(jwt), PAYLOAD)).status == 200
    assert client.wait_for(
        lambda: client.remote_settings.get(h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS) == 1000)


def send_without_reading(client, device, jwt, count):
    return [client.request(f"/3/device/{device}", headers(jwt), PAYLOAD) for _ in range(count)]


def late_request_then_read_to_the_end(client, device, jwt):
    """One more request, written before the client read the GOAWAY, then every byte the server sends."""
    late = client.request(f"/3/device/{device}", headers(jwt), PAYLOAD)
    client.wait_for(lambda: client.closed, timeout=60)
    return late


def assert_every_recorded_answer_arrived(client, streams, late, records):
    received = {response.header("apns-id").upper() for response in client.responses.values() if response.status == 200}
    answered = {record["apnsId"].upper() for record in records if record["status"] == 200}
    lost = answered - received
    assert not lost, (f"{len(lost)} answers recorded as 200 never reached the client: recorded {len(answered)}, "
                      f"received {len(received)}; the connection ended with {client.end}")
    assert received == answered
    assert client.goaway is not None and client.goaway.error_code == 0
    last = client.goaway.last_stream_id
    assert all(client.responses[stream].status == 200 for stream in streams if stream <= last)
    assert late > last and client.responses[late].status is None, "above the last stream id: not processed"
    assert client.end == "eof", f"the server ended the connection with {client.end}, not a clean close"


@pytest.mark.parametrize("tls", [False, True], ids=["h2c", "tls"])
def test_a_goaway_fault_with_500_in_flight_loses_no_recorded_answer(server, tls):
    device = ("a1" if tls else "a2") * 32
    jwt = pyjwt_token()
    client = slow_reader(server, tls)
    open_up(client, device, jwt)
    admin_post(server, "/api/config/faults", GOAWAY_EVERY_500)
    streams = send_without_reading(client, device, jwt, IN_FLIGHT)
    wait_until_the_server_sent_its_fin(client.server_port, client.local_port)
    late = late_request_then_read_to_the_end(client, device, jwt)
    records = recorded(server, device)
    assert any("injected" in record for record in records), "the GOAWAY fault fired"
    assert_every_recorded_answer_arrived(client, streams, late, records)
    client.close()


def test_an_idle_timeout_loses_no_recorded_answer(start_server):
    server = start_server("--idle-timeout", "2")
    device = "a3" * 32
    jwt = pyjwt_token()
    client = slow_reader(server, tls=True)
    open_up(client, device, jwt)
    streams = send_without_reading(client, device, jwt, IN_FLIGHT)
    wait_until_the_server_sent_its_fin(client.server_port, client.local_port)
    late = late_request_then_read_to_the_end(client, device, jwt)
    assert_every_recorded_answer_arrived(client, streams, late, recorded(server, device))
    client.close()


def test_a_graceful_shutdown_loses_no_recorded_answer(start_server):
    server = start_server()
    device = "a4" * 32
    jwt = pyjwt_token()
    client = slow_reader(server, tls=True)
    open_up(client, device, jwt)
    streams = send_without_reading(client, device, jwt, IN_FLIGHT)
    records = wait_for_records(server, device, IN_FLIGHT + 1)
    server.process.send_signal(signal.SIGTERM)
    wait_until_the_server_sent_its_fin(client.server_port, client.local_port)
    late = late_request_then_read_to_the_end(client, device, jwt)
    client.close()
    assert server.stop(timeout=30) == 0, server.stderr
    assert_every_recorded_answer_arrived(client, streams, late, records)


def test_apns_mock_push_through_a_goaway_every_500_answers_gets_every_answer(server):
    """The done-when run of issue 31: 2,000 pushes, 500 in flight, a GOAWAY after every 500th answer. Streams above
    a GOAWAY's last-stream-id were not processed and go again on a new connection (RFC 9113 §6.8); every other
    push gets its answer, and the mock recorded each push once."""
    device = "a5" * 32
    admin_post(server, "/api/config/faults", GOAWAY_EVERY_500)
    result = subprocess.run(
        [BINARY, "push", "--url", f"https://localhost:{server.tls_port}", "--admin-url", server.admin_url,
         "--device-token", device, "--repeat", "2000", "--concurrency", "500"],
        capture_output=True, timeout=300)
    output = result.stdout.decode() + result.stderr.decode()
    records = recorded(server, device)
    assert result.returncode == 0, f"recorded {len(records)}: {output[-2000:]}"
    assert "answers: 200 ×2000" in output, output[-2000:]
    assert len(records) == 2000 and all(record["status"] == 200 for record in records)
    assert sum("injected" in record for record in records) == 4, "a GOAWAY after the 500th, 1000th, 1500th, 2000th"


# --- protocol errors ----------------------------------------------------------------------------------------

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def frame(kind, flags, stream, payload):
    return len(payload).to_bytes(3, "big") + bytes([kind, flags]) + stream.to_bytes(4, "big") + payload


def read_to_the_end(sock, limit=1000):
    """Everything the server sends, and how it ended: "eof" or the error's name (bounded by `limit` reads)."""
    data = b""
    for _ in range(limit):
        try:
            chunk = sock.recv(65536)
        except OSError as error:
            return data, type(error).__name__
        if not chunk:
            return data, "eof"
        data += chunk
    return data, "still open"


@pytest.mark.parametrize("kind", ["DATA", "HEADERS"])
def test_a_frame_over_max_frame_size_gets_goaway_frame_size_error_and_a_clean_close(server, kind):
    """h2spec 4.2/2 (DATA) and 4.2/3 (HEADERS): GOAWAY(FRAME_SIZE_ERROR), then FIN as nghttpd does, not RST; the
    rest of the oversized frame and whatever follows it are read and discarded."""
    sock = socket.create_connection(("127.0.0.1", server.h2c_port), timeout=30)
    opening = b""
    if kind == "DATA":
        # A stream whose request is not finished (no END_STREAM): literal, never-indexed fields, no HPACK state.
        fields = b"".join(b"\x10" + bytes([len(name)]) + name + bytes([len(value)]) + value for name, value in [
            (b":method", b"POST"), (b":scheme", b"http"), (b":authority", b"localhost"), (b":path", b"/3/device/x")])
        opening = frame(1, 0x4, 1, fields)
    sock.sendall(PREFACE + frame(4, 0, 0, b"") + opening)
    # One byte over SETTINGS_MAX_FRAME_SIZE (16,384), and more bytes behind it, as a client still sending would.
    oversized = frame(0, 0, 1, b"\0" * 16385) if kind == "DATA" else frame(1, 0x4, 3, b"\0" * 16385)
    trailing = b"\0" * 65536
    try:
        sock.sendall(oversized + trailing)
    except OSError:
        pass  # a server that reset the connection at once: what it sent is still read below
    data, end = read_to_the_end(sock)
    sock.close()
    goaways = [payload for frame_type, _, _, payload in raw_frames(data) if frame_type == 7]
    assert goaways and int.from_bytes(goaways[0][4:8], "big") == 6, f"no GOAWAY(FRAME_SIZE_ERROR) in {data[:200]!r}"
    assert end == "eof", f"the connection ended with {end}, not a clean close"
