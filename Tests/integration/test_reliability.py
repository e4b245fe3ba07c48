"""The holes an attack round found, each closed and kept closed: a header block of one-byte HPACK references,
a second server on the same push port or data directory, store failures, slow or idle connections, unbounded
request bodies. Every wait is on an event (a response, EOF, a process exit), bounded by a socket timeout."""
import json
import socket
import subprocess

import hpack

from conftest import BINARY, REPO
from helpers.h2client import H2Client, raw_frames
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


def push(client, body=b'{"aps":{"alert":"x"}}'):
    headers = [("authorization", f"bearer {pyjwt_token()}"), ("apns-topic", BUNDLE), ("apns-push-type", "alert")]
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
