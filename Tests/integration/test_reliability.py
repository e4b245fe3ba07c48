"""The holes an attack round found, each closed and kept closed: a header block of one-byte HPACK references,
a second server on the same push port or data directory, store failures, slow or idle connections, unbounded
request bodies. Every wait is on an event (a response, EOF, a process exit), bounded by a socket timeout."""
import json
import socket
import subprocess
import time
import urllib.request

import h2.exceptions
import hpack

from conftest import BINARY, REPO
from helpers.h2client import H2Client, Response, raw_frames
from helpers.tokens import BUNDLE, pyjwt_token

DEVICE = "a1" * 32
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
EMPTY_SETTINGS = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"


def frame(frame_type, flags, stream_id, payload):
    return len(payload).to_bytes(3, "big") + bytes([frame_type, flags]) + stream_id.to_bytes(4, "big") + payload


def header_flood(fields):
    """HEADERS (END_STREAM) + CONTINUATION frames on stream 1: a valid request's pseudo-headers, then `fields`
    copies of HPACK static entry 19 (`accept`, empty), one byte each."""
    block = b"\x83\x87\x84" + b"\x01\x09localhost" + b"\x93" * fields
    chunks = [block[i:i + 16384] for i in range(0, len(block), 16384)]
    out = b""
    for index, chunk in enumerate(chunks):
        flags = (0x1 if index == 0 else 0) | (0x4 if index == len(chunks) - 1 else 0)
        out += frame(0x1 if index == 0 else 0x9, flags, 1, chunk)
    return out


TOKEN = pyjwt_token()


def push(client, body=b'{"aps":{"alert":"x"}}'):
    """One alert push; the same provider token every time (a new token per push would be refused as
    TooManyProviderTokenUpdates)."""
    headers = [("authorization", f"bearer {TOKEN}"), ("apns-topic", BUNDLE), ("apns-push-type", "alert")]
    return client.response(client.request(f"/3/device/{DEVICE}", headers, body))


def read_frames_until(sock, predicate, limit=200):
    """Reads frames until `predicate(frames)` holds or the peer closes (socket timeout bounds each read)."""
    data = b""
    for _ in range(limit):
        frames = raw_frames(data)
        if predicate(frames):
            return frames
        try:
            chunk = sock.recv(65536)
        except (socket.timeout, ConnectionResetError):
            break
        if not chunk:
            break
        data += chunk
    return raw_frames(data)


def test_a_header_block_of_144k_one_byte_fields_gets_431_while_another_client_is_served(start_server):
    server = start_server("--threads", "1")
    attacker = socket.create_connection(("127.0.0.1", server.h2c_port), timeout=10)
    attacker.sendall(PREFACE + EMPTY_SETTINGS + header_flood(144_000))
    # One event loop: before the fix this block held it for about 95 s, and this push timed out.
    normal = H2Client(server.tls_port, ca=server.ca_path, timeout=10)
    assert push(normal).status == 200
    normal.close()
    frames = read_frames_until(attacker, lambda fs: any(f[0] == 1 and f[2] == 1 for f in fs))
    answers = [f for f in frames if f[0] == 1 and f[2] == 1]
    assert answers, f"no answer on the flooded stream: {[(f[0], f[2]) for f in frames]}"
    headers = dict(hpack.Decoder().decode(answers[0][3]))
    assert headers[":status"] == "431"
    attacker.close()


def run_second_server(*args):
    """Starts another `apns-mock serve` that is expected to refuse to start; returns (exit status, stderr)."""
    command = [BINARY, "serve", "--admin-port", "0"] + list(args)
    result = subprocess.run(command, capture_output=True, timeout=30, cwd=REPO)
    return result.returncode, result.stderr.decode(errors="replace")


def test_a_second_server_on_a_taken_push_port_exits_with_a_message_naming_the_port(start_server):
    first = start_server()
    status, stderr = run_second_server("--port", str(first.tls_port), "--in-memory")
    assert status != 0
    assert f"port {first.tls_port} is already in use" in stderr, stderr
    # The first server still gets every push.
    client = H2Client(first.tls_port, ca=first.ca_path)
    assert all(push(client).status == 200 for _ in range(8))
    client.close()


def test_a_second_server_on_the_same_data_directory_exits_with_a_message(start_server):
    first = start_server()
    status, stderr = run_second_server("--port", "0", "--data-dir", first.data_dir)
    assert status != 0
    assert f"the data directory {first.data_dir} is in use by another apns-mock (pid {first.process.pid})" in stderr, stderr


def admin_json(server, path):
    with urllib.request.urlopen(server.admin_url + path, timeout=10) as response:
        return json.loads(response.read())


def wait_for_stderr(server, text, attempts=200):
    """The stderr reader is a thread: wait (bounded) for the line to arrive."""
    for _ in range(attempts):
        if text in server.stderr:
            return True
        time.sleep(0.05)
    return False


def test_a_push_whose_record_cannot_be_stored_is_not_200_and_health_says_why(start_server):
    server = start_server()
    client = H2Client(server.tls_port, ca=server.ca_path)
    assert push(client).status == 200
    acknowledged = 1
    # A file-size limit of 1 byte on the running server: every write that grows the store's files fails (EFBIG),
    # as on a full disk.
    subprocess.run(["prlimit", f"--pid={server.process.pid}", "--fsize=1:unlimited"], check=True)
    for _ in range(2000):
        response = push(client)
        if response.status != 200:
            break
        acknowledged += 1
    assert response.status == 503
    assert json.loads(response.body) == {"reason": "ServiceUnavailable"}
    assert response.header("apns-id")
    health = admin_json(server, "/api/health")
    assert health["status"] == "degraded"
    assert "delivery store cannot record deliveries" in health["degradedReason"]
    assert wait_for_stderr(server, "the delivery store cannot record deliveries")
    # The store recovers when writes work again; every 200 ever sent has its record.
    subprocess.run(["prlimit", f"--pid={server.process.pid}", "--fsize=unlimited:unlimited"], check=True)
    assert push(client).status == 200
    acknowledged += 1
    health = admin_json(server, "/api/health")
    assert health["status"] == "ok" and "degradedReason" not in health
    assert health["deliveries"] == acknowledged
    client.close()


# A ClientHello cut short: TLS record header and the start of the handshake message, no more.
PARTIAL_CLIENT_HELLO = b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 16


def wait_for_eof(sock, limit=100):
    """Reads until the server closes the connection (EOF or reset); each read is bounded by the socket timeout.
    Returns True when it closed."""
    for _ in range(limit):
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return True
        except socket.timeout:
            return False
        if not chunk:
            return True
    return False


def test_a_connection_stuck_in_its_tls_handshake_is_closed_after_the_handshake_timeout(start_server):
    server = start_server("--handshake-timeout", "0.3")
    stuck = socket.create_connection(("127.0.0.1", server.tls_port), timeout=10)
    stuck.sendall(PARTIAL_CLIENT_HELLO)
    assert wait_for_eof(stuck)
    # So is a cleartext connection that never finishes the HTTP/2 client preface.
    half = socket.create_connection(("127.0.0.1", server.h2c_port), timeout=10)
    half.sendall(PREFACE[:10])
    assert wait_for_eof(half)
    client = H2Client(server.tls_port, ca=server.ca_path)
    assert push(client).status == 200
    client.close()


def test_an_idle_connection_gets_goaway_then_is_closed(start_server):
    server = start_server("--idle-timeout", "0.3")
    client = H2Client(server.tls_port, ca=server.ca_path)
    assert push(client).status == 200
    assert client.wait_for(lambda: client.goaway is not None)
    assert client.goaway.error_code == 0
    assert client.wait_for(lambda: client.closed)


def test_a_request_that_stops_sending_is_reset_after_the_stream_timeout(start_server):
    server = start_server("--stream-timeout", "0.3")
    client = H2Client(server.tls_port, ca=server.ca_path)
    assert push(client).status == 200
    headers = [("authorization", f"bearer {TOKEN}"), ("apns-topic", BUNDLE), ("apns-push-type", "alert")]
    stalled = client.request(f"/3/device/{DEVICE}", headers, b'{"aps":{"alert":', end_stream=False)
    response = client.response(stalled)
    assert response.reset_code == 8  # CANCEL
    assert push(client).status == 200, "the connection still serves"
    client.close()


def vm_rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def hold_streams(port, ca, streams, body_size):
    """One authenticated connection that opens `streams` streams and sends `body_size` bytes on each WITHOUT
    END_STREAM. Returns (client, stream ids)."""
    client = H2Client(port, ca=ca, timeout=10)
    client.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no Nagle wait per window update
    assert push(client).status == 200  # authenticated: MAX_CONCURRENT_STREAMS rises to 1000
    client.wait_for(lambda: client.remote_settings.get(3, 0) >= streams)
    headers = [("authorization", f"bearer {TOKEN}"), ("apns-topic", BUNDLE), ("apns-push-type", "alert")]
    body = b"x" * body_size
    ids = []
    for _ in range(streams):
        stream_id = client.conn.get_next_available_stream_id()
        client.responses[stream_id] = Response(stream_id)
        client.conn.send_headers(stream_id, [(":method", "POST"), (":authority", "localhost"), (":scheme", "https"),
                                             (":path", f"/3/device/{DEVICE}")] + headers)
        ids.append(stream_id)
        offset = 0
        for _ in range(10_000):
            if offset >= len(body) or client.responses[stream_id].ended:
                break
            window = min(client.conn.local_flow_control_window(stream_id), client.conn.max_outbound_frame_size)
            if window <= 0:
                client._flush()
                client._receive_once()
                continue
            try:
                client.conn.send_data(stream_id, body[offset:offset + window])
            except h2.exceptions.StreamClosedError:
                break
            offset += window
        client._flush()
    return client, ids


def test_request_bodies_held_open_are_capped_and_memory_stays_bounded(start_server):
    connection_cap, total_cap = 1 << 20, 4 << 20
    server = start_server("--threads", "1", "--connection-body-buffer", str(connection_cap),
                          "--total-body-buffer", str(total_cap), "--stream-timeout", "600")
    warmup = H2Client(server.tls_port, ca=server.ca_path)
    assert push(warmup).status == 200
    before = vm_rss_kib(server.process.pid)
    held = [hold_streams(server.tls_port, server.ca_path, streams=150, body_size=60_000) for _ in range(6)]
    # 6 × 150 × 60,000 bytes = 54 MB sent and held open; the server keeps at most the 4 MiB total cap of it.
    for client, ids in held:
        client.wait_for(lambda: sum(1 for i in ids if client.responses[i].reset_code == 7) > 0)
    refused = sum(1 for client, ids in held for i in ids if client.responses[i].reset_code == 7)
    assert refused >= 6 * 150 - (total_cap // 60_000) - 6, f"only {refused} streams refused"
    growth_mib = (vm_rss_kib(server.process.pid) - before) / 1024
    assert growth_mib < 32, f"RSS grew by {growth_mib:.1f} MiB with a {total_cap >> 20} MiB body cap"
    assert push(warmup).status == 200, "a normal push is still answered"
    for client, _ in held:
        client.close()
    warmup.close()


def curl_admin(server, *args):
    """curl (a client we did not write) against the admin API; returns (status, body)."""
    result = subprocess.run(["curl", "-s", "-o", "-", "-w", "\n%{http_code}", "--max-time", "10", *args],
                            capture_output=True, timeout=30, check=True)
    body, _, status = result.stdout.decode().rpartition("\n")
    return int(status), body


def test_the_admin_api_refuses_what_a_hostile_web_page_could_send(start_server):
    import httpx
    server = start_server()
    faults = server.admin_url + "/api/config/faults"
    fault = '{"status":500,"reason":"InternalServerError","remaining":1}'
    # A cross-origin "simple" POST (no preflight): text/plain, from a page's origin.
    assert curl_admin(server, "-X", "POST", faults, "-H", "content-type: text/plain", "-d", fault)[0] == 415
    assert curl_admin(server, "-X", "POST", faults, "-H", "content-type: application/json",
                      "-H", "origin: https://evil.example", "-d", fault)[0] == 403
    # DNS rebinding: a hostile name resolving to 127.0.0.1 reaches the server with its own Host.
    status, body = curl_admin(server, server.admin_url + "/api/deliveries", "-H", "host: attacker.example")
    assert status == 403 and "DNS-rebinding" in body
    with httpx.Client(timeout=10) as client:
        assert client.get(server.admin_url + "/api/deliveries", headers={"origin": "null"}).status_code == 403
        # Nothing changed; the real thing still works.
        assert client.get(faults).json() == []
        accepted = client.post(faults, content=fault, headers={"content-type": "application/json"})
        assert accepted.status_code == 200, accepted.text
        same_origin = client.get(server.admin_url + "/api/health", headers={"origin": server.admin_url})
        assert same_origin.status_code == 200
        assert len(client.get(faults).json()) == 1
