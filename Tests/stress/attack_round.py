#!/usr/bin/env python3
"""`make stress`: the attack round, kept in the project. Each attack runs against a real `apns-mock serve` on
loopback, bounded in count and time, while a normal client pushes alongside on its own connection. Prints one
row per attack: whether it held, the server's CPU and peak RSS during the attack, and the normal client's p99.

    Tests/stress/attack_round.py [--short]      (--short: smaller counts, for `make test`)

An attack HOLDS when its own check passes (the server answered as documented in docs/reliability.md) AND the
normal client kept being answered (no error, p99 under NORMAL_P99_LIMIT). Exits 1 when any attack did not hold.
"""
import argparse
import json
import os
import pathlib
import select
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "integration"))

import hpack  # noqa: E402

from conftest import BINARY, REPO, MockServer  # noqa: E402
from helpers.h2client import H2Client, raw_frames  # noqa: E402
from helpers.tokens import BUNDLE, pyjwt_token  # noqa: E402
from helpers import store_damage  # noqa: E402

DEVICE = "a1" * 32
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
EMPTY_SETTINGS = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
PARTIAL_CLIENT_HELLO = b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 16
NORMAL_P99_LIMIT = 1.0  # seconds: generous; an event loop stalled by an attack shows as seconds or a timeout
TOKEN = pyjwt_token()
HEADERS = [("authorization", f"bearer {TOKEN}"), ("apns-topic", BUNDLE), ("apns-push-type", "alert")]


def frame(frame_type, flags, stream_id, payload):
    return len(payload).to_bytes(3, "big") + bytes([frame_type, flags]) + stream_id.to_bytes(4, "big") + payload


# -- measuring the server -------------------------------------------------------------------------------------

class ProcessMeter:
    """CPU seconds and RSS of a process from /proc, sampled by a thread while an attack runs."""

    def __init__(self, pid):
        self.pid = pid
        self.peak_rss_kib = 0
        self._stop = threading.Event()

    def cpu_seconds(self):
        with open(f"/proc/{self.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / 100.0  # utime + stime, in clock ticks of 1/100 s

    def rss_kib(self):
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def __enter__(self):
        self.start_cpu, self.start_time = self.cpu_seconds(), time.monotonic()
        self.peak_rss_kib = self.rss_kib()
        threading.Thread(target=self._sample, daemon=True).start()
        return self

    def _sample(self):
        while not self._stop.wait(0.05):
            try:
                self.peak_rss_kib = max(self.peak_rss_kib, self.rss_kib())
            except OSError:
                return

    def __exit__(self, *exc):
        self._stop.set()
        self.cpu_percent = 100.0 * (self.cpu_seconds() - self.start_cpu) / max(1e-3, time.monotonic() - self.start_time)
        self.peak_rss_kib = max(self.peak_rss_kib, self.rss_kib())


class NormalClient:
    """One sender pushing one request at a time on its own TLS connection, recording each latency."""

    def __init__(self, server, request=None):
        self.server = server
        self.request = request or (f"/3/device/{DEVICE}", HEADERS, b'{"aps":{"alert":"n"}}')
        self.latencies = []  # (finished at, seconds)
        self.errors = []
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        client = None
        while not self._stop.is_set():
            try:
                if client is None or client.closed:
                    client = H2Client(self.server.tls_port, ca=self.server.ca_path, timeout=5)
                    client.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                began = time.monotonic()
                response = client.response(client.request(*self.request))
                if response.status != 200:
                    self.errors.append((time.monotonic(), f"status {response.status}"))
                    client = None
                    continue
                self.latencies.append((time.monotonic(), time.monotonic() - began))
            except OSError as error:
                self.errors.append((time.monotonic(), str(error)))
                client = None
            self._stop.wait(0.01)

    def window(self, start, end):
        values = sorted(latency for at, latency in self.latencies if start <= at <= end + 5)
        errors = [e for at, e in self.errors if start <= at <= end]
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))] if values else float("inf")
        return p99, len(values), errors

    def stop(self):
        self._stop.set()
        self.thread.join(timeout=10)


# -- the attacks ----------------------------------------------------------------------------------------------
# Each returns (held: bool, detail: str). `size` scales counts: 1 for --short, larger for the full round.

def header_block_flood(server, size):
    """HEADERS + CONTINUATION of one-byte static-table references (once 95 s of one event loop for 144 KB)."""
    fields = 144_000
    answered = 0
    for _ in range(2 * size):
        sock = socket.create_connection(("127.0.0.1", server.h2c_port), timeout=10)
        block = b"\x83\x87\x84\x01\x09localhost" + b"\x93" * fields
        chunks = [block[i:i + 16384] for i in range(0, len(block), 16384)]
        data = PREFACE + EMPTY_SETTINGS
        for index, chunk in enumerate(chunks):
            flags = (0x1 if index == 0 else 0) | (0x4 if index == len(chunks) - 1 else 0)
            data += frame(0x1 if index == 0 else 0x9, flags, 1, chunk)
        sock.sendall(data)
        frames = read_frames(sock, lambda fs: any(f[0] == 1 and f[2] == 1 for f in fs))
        answers = [f for f in frames if f[0] == 1 and f[2] == 1]
        if answers and dict(hpack.Decoder().decode(answers[0][3])).get(":status") == "431":
            answered += 1
        sock.close()
    return answered == 2 * size, f"{answered}/{2 * size} blocks of {fields} fields answered 431"


def read_frames(sock, predicate, limit=500):
    data = b""
    for _ in range(limit):
        if predicate(raw_frames(data)):
            break
        try:
            chunk = sock.recv(65536)
        except (socket.timeout, ConnectionResetError, ssl.SSLError):
            break
        if not chunk:
            break
        data += chunk
    return raw_frames(data)


def partial_client_hellos(server, size):
    """Connections that stop in the middle of their ClientHello: closed at the handshake timeout."""
    count = 300 * size
    socks = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", server.tls_port), timeout=15)
        sock.sendall(PARTIAL_CLIENT_HELLO)
        socks.append(sock)
    closed = 0
    for sock in socks:
        try:
            if sock.recv(1) == b"":
                closed += 1
        except (ConnectionResetError, socket.timeout):
            closed += isinstance(sys.exc_info()[1], ConnectionResetError)
        sock.close()
    return closed == count, f"{closed}/{count} partial handshakes closed by the server"


def request_body_hoarding(server, size):
    """Authenticated connections opening streams with 60 KB bodies and no END_STREAM (once 1 GB of RSS)."""
    connections, streams = (6, 300) if size == 1 else (12, 999)
    before = ProcessMeter(server.process.pid).rss_kib()
    refused = sent_streams = 0
    clients = []
    for _ in range(connections):
        client = H2Client(server.tls_port, ca=server.ca_path, timeout=10)
        client.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        client.response(client.request(f"/3/device/{DEVICE}", HEADERS, b'{"aps":{}}'))
        client.wait_for(lambda: client.remote_settings.get(3, 0) >= 1000)
        body = b"x" * 60_000
        for _ in range(streams):
            stream_id = client.conn.get_next_available_stream_id()
            client.responses[stream_id] = __import__("helpers.h2client", fromlist=["Response"]).Response(stream_id)
            client.conn.send_headers(stream_id, [(":method", "POST"), (":authority", "localhost"), (":scheme", "https"),
                                                 (":path", f"/3/device/{DEVICE}")] + HEADERS)
            sent_streams += 1
            offset = 0
            for _ in range(1000):
                if offset >= len(body) or client.responses[stream_id].ended:
                    break
                window = min(client.conn.local_flow_control_window(stream_id), client.conn.max_outbound_frame_size)
                if window <= 0:
                    client._flush()
                    client._receive_once()
                    continue
                try:
                    client.conn.send_data(stream_id, body[offset:offset + window])
                except Exception:
                    break
                offset += window
            client._flush()
        clients.append(client)
    for client in clients:
        client.wait_for(lambda: any(r.reset_code == 7 for r in client.responses.values()), timeout=5)
        refused += sum(1 for r in client.responses.values() if r.reset_code == 7)
    growth_mib = (ProcessMeter(server.process.pid).rss_kib() - before) / 1024
    cap_mib = server.total_body_cap >> 20
    for client in clients:
        client.close()
    held = growth_mib < cap_mib + 64
    return held, (f"{sent_streams} streams × 60 KB held open on {connections} connections: {refused} refused, "
                  f"RSS +{growth_mib:.0f} MiB (total cap {cap_mib} MiB)")


def rapid_reset(server, size):
    """HEADERS immediately followed by RST_STREAM, many times (CVE-2023-44487 shape)."""
    count = 5000 * size
    sock = socket.create_connection(("127.0.0.1", server.h2c_port), timeout=10)
    encoder = hpack.Encoder()
    data = PREFACE + EMPTY_SETTINGS
    for index in range(count):
        stream_id = 2 * index + 1
        block = encoder.encode([(":method", "POST"), (":scheme", "https"), (":path", f"/3/device/{DEVICE}"),
                                (":authority", "localhost")])
        data += frame(0x1, 0x4, stream_id, block) + frame(0x3, 0, stream_id, (8).to_bytes(4, "big"))
    try:
        sock.sendall(data)
    except OSError:
        pass
    sock.close()
    return True, f"{count} streams opened and reset"


def ping_flood(server, size):
    """PINGs whose ACKs are never read."""
    count = 50_000 * size
    sock = socket.create_connection(("127.0.0.1", server.h2c_port), timeout=5)
    sock.setblocking(False)
    sent = 0
    ping = frame(0x6, 0, 0, b"12345678") * 64
    data = PREFACE + EMPTY_SETTINGS
    try:
        sock.send(data)
        deadline = time.monotonic() + 5
        while sent < count and time.monotonic() < deadline:
            try:
                sock.send(ping)
                sent += 64
            except BlockingIOError:
                time.sleep(0.001)
    except OSError:
        pass
    sock.close()
    return True, f"{sent} PINGs sent without reading"


def descriptor_exhaustion(server, size):
    """More connections than the process may open (its limit lowered to 256): accepting pauses instead of
    spinning, the log is rate-limited, and the server serves again once connections close."""
    subprocess.run(["prlimit", f"--pid={server.process.pid}", "--nofile=256:256"], check=True)
    lines_before = len(server.stderr_lines)
    socks = []
    for _ in range(400 * size):
        try:
            socks.append(socket.create_connection(("127.0.0.1", server.h2c_port), timeout=2))
        except OSError:
            break
    meter = ProcessMeter(server.process.pid)
    with meter:
        time.sleep(2)  # measure what the server does while over its limit
    log_lines = len(server.stderr_lines) - lines_before
    for sock in socks:
        sock.close()
    after = H2Client(server.h2c_port, tls=False, timeout=10)
    status = after.response(after.request(f"/3/device/{DEVICE}", HEADERS, b'{"aps":{}}')).status
    after.close()
    held = meter.cpu_percent < 50 and log_lines < 20 and status == 200
    return held, (f"{len(socks)} connections over a 256-descriptor limit: CPU {meter.cpu_percent:.0f}% while "
                  f"saturated, {log_lines} log lines, then a new connection got {status}")


def second_server_same_port(server, size):
    result = subprocess.run([BINARY, "serve", "--port", str(server.tls_port), "--admin-port", "0", "--in-memory"],
                            capture_output=True, timeout=30, cwd=REPO)
    message = result.stderr.decode(errors="replace")
    held = result.returncode != 0 and f"port {server.tls_port} is already in use" in message
    return held, f"second server exit {result.returncode}: {message.strip()[:90]}"


def second_server_same_data_dir(server, size):
    result = subprocess.run([BINARY, "serve", "--port", "0", "--admin-port", "0", "--data-dir", server.data_dir],
                            capture_output=True, timeout=30, cwd=REPO)
    message = result.stderr.decode(errors="replace")
    held = result.returncode != 0 and "is in use by another apns-mock" in message
    return held, f"second server exit {result.returncode}: {message.strip()[:90]}"


def store_cannot_write(server, size):
    """Every write that grows the store fails (file-size limit, as a full disk): no 200 without a record."""
    client = H2Client(server.tls_port, ca=server.ca_path, timeout=10)
    statuses = {}
    count_before = admin(server, "/api/health")["deliveries"]
    subprocess.run(["prlimit", f"--pid={server.process.pid}", "--fsize=1:unlimited"], check=True)
    for _ in range(300 * size):
        status = client.response(client.request(f"/3/device/{DEVICE}", HEADERS, b'{"aps":{}}')).status
        statuses[status] = statuses.get(status, 0) + 1
    health = admin(server, "/api/health")
    subprocess.run(["prlimit", f"--pid={server.process.pid}", "--fsize=unlimited:unlimited"], check=True)
    recovered = client.response(client.request(f"/3/device/{DEVICE}", HEADERS, b'{"aps":{}}')).status
    stored = admin(server, "/api/health")["deliveries"] - count_before
    client.close()
    ok_count = statuses.get(200, 0) + (recovered == 200)
    held = statuses.get(503, 0) > 0 and health["status"] == "degraded" and stored == ok_count
    return held, f"answers {statuses}, health {health['status']}, {ok_count} answered 200 = {stored} stored"


def admin_from_a_web_page(server, size):
    faults = server.admin_url + "/api/config/faults"
    attempts = [
        ("POST", faults, {"Content-Type": "text/plain"}, b'{"status":500}'),
        ("POST", faults, {"Content-Type": "application/json", "Origin": "https://evil.example"}, b'{"status":500}'),
        ("GET", server.admin_url + "/api/deliveries", {"Host": "attacker.example"}, None),
    ]
    statuses = []
    for method, url, headers, body in attempts:
        request = urllib.request.Request(url, data=body, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                statuses.append(response.status)
        except urllib.error.HTTPError as error:
            statuses.append(error.code)
    faults_now = admin(server, "/api/config/faults")
    return statuses == [415, 403, 403] and faults_now == [], f"answers {statuses}, faults {faults_now}"


# -- growth: what clients send must not grow the server without bound (docs/reliability.md, "Growth") ----------

LA_TOPIC = BUNDLE + ".push-type.liveactivity"
LA_HEADERS = [("authorization", f"bearer {TOKEN}"), ("apns-topic", LA_TOPIC), ("apns-push-type", "liveactivity")]
LA_BODY = b'{"aps":{"timestamp":1767225600,"event":"update","content-state":{"n":1}}}'
# The Live Activity sender beside the listing: one token pushed again and again.
LIVE_ACTIVITY_REQUEST = (f"/3/device/{'c1' * 32}", LA_HEADERS, LA_BODY)


def push_distinct_tokens(server, count, first=0, token_header=None):
    """`count` Live Activity pushes over h2c, each to a token of its own (h2load, 100 streams in flight)."""
    with tempfile.TemporaryDirectory() as directory:
        uris = pathlib.Path(directory) / "uris"
        uris.write_text("".join(f"http://127.0.0.1:{server.h2c_port}/3/device/{index:064x}\n"
                                for index in range(first, first + count)))
        body = pathlib.Path(directory) / "body"
        body.write_bytes(LA_BODY)
        headers = token_header or LA_HEADERS
        # One connection: h2load starts every client at the top of the URI list.
        command = ["h2load", "-n", str(count), "-c", "1", "-m", "100", "-i", str(uris), "-d", str(body)]
        for name, value in headers:
            command += ["-H", f"{name}: {value}"]
        result = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    done = next((line for line in result.stdout.splitlines() if line.startswith("requests:")), "")
    succeeded = int(done.split(" succeeded")[0].rsplit(" ", 1)[1]) if " succeeded" in done else 0
    # The server opens each connection with MAX_CONCURRENT_STREAMS 1, as APNs does, and raises it after; h2load
    # sends its first 100 streams before it reads that, so up to 99 of them may be refused (not retried by h2load).
    ok = result.returncode == 0 and succeeded >= count - 99
    return ok, f"{succeeded} of {count} answered 200" + ("" if ok else f" ({done or result.stdout[-200:]})")


def read_every_activity(server, page_limit=1000):
    """Pages through GET /api/activities; returns (activities read, seconds, slowest page in seconds)."""
    read, cursor, slowest, began = 0, None, 0.0, time.monotonic()
    for _ in range(10_000):
        started = time.monotonic()
        page = admin(server, f"/api/activities?limit={page_limit}" + (f"&cursor={cursor}" if cursor else ""))
        slowest = max(slowest, time.monotonic() - started)
        read += len(page["activities"])
        cursor = page["nextCursor"]
        if cursor is None:
            break
    return read, time.monotonic() - began, slowest


def live_activity_listing(server, size):
    """N activities on the device, then every page of GET /api/activities read while a Live Activity sender
    pushes alongside (this row's normal client): the read never holds the device while it serializes."""
    count = 5_000 if size == 1 else 100_000
    ok, pushed = push_distinct_tokens(server, count)
    server.listing_started = time.monotonic()
    read, seconds, slowest = read_every_activity(server)
    total = admin(server, "/api/activities?limit=1")["total"]
    held = ok and read == total and total >= count - 99
    return held, (f"{count} activities ({pushed}); every page read: {read} in {seconds:.2f} s, slowest page of 1000 "
                  f"{slowest * 1000:.0f} ms; the normal client here pushes Live Activity updates")


def distinct_tokens_beyond_the_limit(server, size):
    """A sender pushing to ever new Live Activity tokens: the device keeps at most `tokenLimit` of them."""
    count = 30_000 if size == 1 else 1_000_000
    meter = ProcessMeter(server.process.pid)
    before = meter.rss_kib() / 1024
    began = time.monotonic()
    ok, pushed = push_distinct_tokens(server, count, first=1 << 40)
    seconds = time.monotonic() - began
    after = meter.rss_kib() / 1024
    total = admin(server, "/api/activities?limit=1")["total"]
    held = ok and total <= server.token_limit
    return held, (f"{count} distinct tokens ({pushed}) in {seconds:.1f} s ({seconds / count * 1e6:.0f} µs each): device "
                  f"keeps {total} (tokenLimit {server.token_limit}), RSS {before:.0f} → {after:.0f} MiB")


def unknown_key_ids(server, size):
    """Provider tokens naming key ids nobody registered: each answered 403 InvalidProviderToken, none kept."""
    count = 2_000 if size == 1 else 100_000
    meter = ProcessMeter(server.process.pid)
    before = meter.rss_kib() / 1024
    client = H2Client(server.tls_port, ca=server.ca_path, timeout=10)
    statuses = {}
    began = time.monotonic()
    for index in range(count):
        token = pyjwt_token(key_id=f"K{index:09d}"[:10])
        headers = [("authorization", f"bearer {token}"), ("apns-topic", BUNDLE), ("apns-push-type", "alert")]
        status = client.response(client.request(f"/3/device/{DEVICE}", headers, b'{"aps":{"alert":"x"}}')).status
        statuses[status] = statuses.get(status, 0) + 1
        if client.closed:
            client = H2Client(server.tls_port, ca=server.ca_path, timeout=10)
    seconds = time.monotonic() - began
    client.close()
    after = meter.rss_kib() / 1024
    return statuses == {403: count}, (f"{count} unknown key ids: answers {statuses}, {seconds / count * 1e6:.0f} µs "
                                      f"each, RSS {before:.0f} → {after:.0f} MiB")


def parked_long_polls(server, size):
    """More long polls than the admin server parks: the first 64 wait, the rest are answered 503 at once."""
    count = 100 if size == 1 else 400
    sockets, statuses = [], {}
    request = (f"GET /api/deliveries/wait?token={'ff' * 32}&timeout_ms=20000 HTTP/1.1\r\n"
               f"Host: 127.0.0.1:{server.admin_port}\r\n\r\n").encode()
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", server.admin_port), timeout=10)
        sock.sendall(request)
        sockets.append(sock)
    # The refused ones answer at once; wait (bounded) until every one beyond the 64 parked has, then the rest
    # (still silent) are the parked ones.
    waiting = set(sockets)
    deadline = time.monotonic() + 30
    while len(waiting) > 64 and time.monotonic() < deadline:
        readable, _, _ = select.select(list(waiting), [], [], 1.0)
        for sock in readable:
            waiting.discard(sock)
            try:
                status = int(sock.recv(64).split()[1])
            except (OSError, IndexError, ValueError):
                status = "closed"
            statuses[status] = statuses.get(status, 0) + 1
    statuses["parked"] = len(waiting)
    for sock in sockets:
        sock.close()
    health = admin(server, "/api/health")["status"]
    return statuses.get("parked") == 64 and statuses.get(503) == count - 64, f"{count} long polls: {statuses}, health {health}"


def store_copy_of(server):
    """A consistent copy of `server`'s store (sqlite3 .backup while it runs) and how many rows it holds."""
    directory = store_damage.copy_store(server.data_dir)
    return directory, store_damage.rows_in_file(pathlib.Path(directory) / store_damage.STORE)


def store_row_undecodable(server, size):
    """One row's record blob replaced in a copy of the store: every other row still exports, the bad one is named."""
    store_damage.fill(server, 50 * size)
    directory, rows = store_copy_of(server)
    bad = store_damage.middle_id(directory)
    store_damage.replace_record(directory, bad)
    copy = MockServer([], data_dir=directory)
    try:
        with urllib.request.urlopen(copy.admin_url + "/api/deliveries/export", timeout=60) as response:
            lines = len(response.read().splitlines())
            named = response.headers.get("X-Undecodable-Deliveries")
        health = admin(copy, "/api/health")
    finally:
        copy.stop()
        store_damage.remove(directory)
    held = lines == rows - 1 and named == str(bad) and health["status"] == "degraded"
    return held, f"{lines} of {rows} rows exported, undecodable named: {named}, health {health['status']}"


def store_page_overwritten(server, size):
    """A page in the middle of a copy of the store overwritten: refused naming the file, then --recover salvages."""
    store_damage.fill(server, 50 * size)
    directory, rows = store_copy_of(server)
    store_damage.overwrite_page(directory, store_damage.page_count(directory) // 2)
    before = store_damage.store_files(directory)[store_damage.STORE]
    code, stderr = store_damage.serve_refused(directory)
    refused = code == 2 and "is damaged" in stderr and "--recover" in stderr
    copy = MockServer(["--recover"], data_dir=directory)
    try:
        line = store_damage.stderr_line(copy, "recovered the delivery store") or ""
        listed = admin(copy, "/api/health")["deliveries"]
    finally:
        copy.stop()
    aside = [path for path in pathlib.Path(directory).glob(store_damage.STORE + ".damaged-*")
             if not path.name.endswith(("-wal", "-shm"))]
    kept = int(line.split("kept ")[1].split(" ")[0]) if line else -1
    lost = int(line.split("lost ")[1].split(" ")[0].rstrip(";,")) if line else -1
    intact = len(aside) == 1 and aside[0].read_bytes() == before
    store_damage.remove(directory)
    held = refused and kept > 0 and kept + lost == rows and listed == kept and intact
    return held, (f"refused (exit {code}); --recover kept {kept}, lost {lost} of {rows}, {listed} served, "
                  f"damaged file {'kept intact' if intact else 'CHANGED OR MISSING'}")


def store_wal_truncated(server, size):
    """A server killed with its deliveries in the WAL, the WAL cut mid-frame: the dropped frames are reported."""
    own = MockServer([])
    store_damage.fill(own, 50 * size)
    own.process.kill()
    own.process.wait(timeout=10)
    wal = pathlib.Path(own.data_dir) / (store_damage.STORE + "-wal")
    os.truncate(wal, wal.stat().st_size - 3000)
    (pathlib.Path(own.data_dir) / "apns-mock.lock").unlink(missing_ok=True)
    again = MockServer([], data_dir=own.data_dir)
    try:
        notes = admin(again, "/api/health").get("storeNotes", [])
    finally:
        again.stop()
    said = [note for note in notes if "write-ahead log" in note]
    logged = store_damage.stderr_line(again, "write-ahead log") is not None
    return bool(said) and logged, (said[0][:90] + "…") if said else "nothing said"


def admin(server, path):
    with urllib.request.urlopen(server.admin_url + path, timeout=10) as response:
        return json.loads(response.read())


# Attacks that share the main server, then those that need one of their own (they change its limits).
SHARED = [
    ("header-block flood (CONTINUATION, 1-byte fields)", header_block_flood),
    ("partial ClientHellos", partial_client_hellos),
    ("request bodies held open", request_body_hoarding),
    ("rapid reset", rapid_reset),
    ("PING flood, ACKs unread", ping_flood),
    ("second server on the push port", second_server_same_port),
    ("second server on the data directory", second_server_same_data_dir),
    ("admin API from a web page", admin_from_a_web_page),
    ("store: one row undecodable", store_row_undecodable),
    ("store: a page overwritten", store_page_overwritten),
    ("store: WAL truncated", store_wal_truncated),
]
OWN_SERVER = [
    ("descriptor limit reached", descriptor_exhaustion, True),
    ("store cannot write (disk full)", store_cannot_write, False),
]
# Growth bounds, each on a server of its own: (name, attack, normal client's request or None for alerts,
# the Live Activity token limit of the short round or None; the full round keeps the default).
GROWTH = [
    ("Live Activity listing during Live Activity pushes", live_activity_listing, LIVE_ACTIVITY_REQUEST, None),
    ("distinct Live Activity tokens beyond the limit", distinct_tokens_beyond_the_limit, None, 10_000),
    ("provider tokens with unknown key ids", unknown_key_ids, None, None),
    ("long polls beyond the parking limit", parked_long_polls, None, None),
]


def run_attack(server, name, attack, size, with_normal=True, normal_request=None):
    if not with_normal:
        meter = ProcessMeter(server.process.pid)
        start = time.monotonic()
        with meter:
            held, detail = attack(server, size)
        return {"attack": name, "held": held and server.process.poll() is None, "cpu": meter.cpu_percent,
                "rss_mib": meter.peak_rss_kib / 1024, "p99_ms": float("nan"), "pushes": 0,
                "seconds": time.monotonic() - start, "detail": detail + " (no normal client: every push fails here)"}
    normal = NormalClient(server, normal_request)
    for _ in range(500):  # wait (bounded) for the normal client's first answer
        if normal.latencies or normal.errors:
            break
        time.sleep(0.01)
    meter = ProcessMeter(server.process.pid)
    start = time.monotonic()
    with meter:
        try:
            held, detail = attack(server, size)
        except Exception as error:  # an attack that crashes its own client still gets a row
            held, detail = False, f"attack client failed: {error!r}"
    end = time.monotonic()
    # An attack that prepares before it attacks says when the attack began (the p99 is of that window).
    start = getattr(server, "listing_started", start)
    for _ in range(300):  # let the normal client finish the push in flight
        if any(at > end for at, _ in normal.latencies) or normal.errors:
            break
        time.sleep(0.01)
    normal.stop()
    p99, pushes, errors = normal.window(start, end)
    alive = server.process.poll() is None
    normal_ok = pushes > 0 and p99 < NORMAL_P99_LIMIT and not errors
    return {
        "attack": name, "held": held and normal_ok and alive, "cpu": meter.cpu_percent,
        "rss_mib": meter.peak_rss_kib / 1024, "p99_ms": p99 * 1000, "pushes": pushes, "seconds": end - start,
        "detail": detail + ("" if normal_ok else f"; normal client: {pushes} pushes, errors {errors[:2]}")
        + ("" if alive else "; SERVER DIED"),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", action="store_true", help="small counts (the version `make test` runs)")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args()
    size = 1 if args.short else 4
    rows = []
    total_cap = 64 << 20
    common = ["--threads", "1", "--handshake-timeout", "1", "--total-body-buffer", str(total_cap)]
    server = MockServer(common)
    server.total_body_cap = total_cap
    try:
        for name, attack in SHARED:
            rows.append(run_attack(server, name, attack, size))
            print_row(rows[-1])
    finally:
        server.stop()
    for name, attack, with_normal in OWN_SERVER:
        own = MockServer(common)
        own.total_body_cap = total_cap
        try:
            rows.append(run_attack(own, name, attack, size, with_normal))
            print_row(rows[-1])
        finally:
            own.stop()
    for name, attack, normal_request, token_limit in GROWTH:
        limit = 200_000
        server_args = list(common)
        if token_limit and size == 1:
            limit = token_limit
            config = pathlib.Path(tempfile.mkdtemp(prefix="apns-mock-attack-")) / "mock.json"
            config.write_text(json.dumps({"liveActivities": {"tokenLimit": limit}}))
            server_args += ["--config", str(config)]
        own = MockServer(server_args)
        own.token_limit = limit
        try:
            rows.append(run_attack(own, name, attack, size, True, normal_request))
            print_row(rows[-1])
        finally:
            # A graceful stop saves every Live Activity it keeps (live-activities.json): up to tokenLimit of them.
            began = time.monotonic()
            own.stop(timeout=600)
            rows[-1]["detail"] += f"; graceful stop {time.monotonic() - began:.1f} s"
    print()
    print(table(rows))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(rows, indent=1))
    failed = [row["attack"] for row in rows if not row["held"]]
    if failed:
        print(f"NOT HELD: {', '.join(failed)}")
        return 1
    print(f"all {len(rows)} attacks held ({'short' if args.short else 'full'} round, server --threads 1)")
    return 0


def print_row(row):
    print(f"- {row['attack']}: {'held' if row['held'] else 'NOT HELD'} — {row['detail']}", flush=True)


def table(rows):
    lines = ["| attack | held | server CPU | peak RSS | normal p99 (pushes) |", "|---|---|---:|---:|---:|"]
    for row in rows:
        p99 = "—" if row["pushes"] == 0 else f"{row['p99_ms']:.1f} ms ({row['pushes']})"
        lines.append(f"| {row['attack']} | {'yes' if row['held'] else 'NO'} | {row['cpu']:.0f}% | "
                     f"{row['rss_mib']:.0f} MiB | {p99} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
