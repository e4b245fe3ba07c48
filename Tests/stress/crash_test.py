#!/usr/bin/env python3
"""`make crash-test N=…`: N cycles of `kill -9` under load on one data directory. Each cycle starts the server on
the directory the previous one was killed on, pushes from several connections (h2, a client we did not write),
kills the server with SIGKILL mid-load, restarts it, and checks that every apns-id ever answered 200 is in the
store and that SQLite's `PRAGMA integrity_check` says ok. Exits non-zero on the first loss or corruption.

    Tests/stress/crash_test.py [CYCLES] [--load-seconds S]
"""
import argparse
import json
import os
import pathlib
import shutil
import sqlite3
import sys
import tempfile
import threading
import time
import urllib.request
import uuid

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "integration"))

from conftest import MockServer  # noqa: E402
from helpers.h2client import H2Client  # noqa: E402
from helpers.tokens import BUNDLE, pyjwt_token  # noqa: E402

CONNECTIONS = 6
STREAMS_IN_FLIGHT = 20
DEVICE = "ab" * 32


def load(server, acknowledged, lock, stop):
    """One connection pushing batches of STREAMS_IN_FLIGHT until `stop`; records each apns-id answered 200."""
    try:
        client = H2Client(server.h2c_port, tls=False, timeout=5)
        headers = [("authorization", f"bearer {pyjwt_token()}"), ("apns-topic", BUNDLE), ("apns-push-type", "alert")]
        if client.response(client.request(f"/3/device/{DEVICE}", headers, b'{"aps":{"alert":"x"}}')).status != 200:
            return
        for _ in range(1_000_000):
            if stop.is_set() or client.closed:
                return
            batch = {}
            for _ in range(STREAMS_IN_FLIGHT):
                apns_id = str(uuid.uuid4())
                stream = client.request(f"/3/device/{DEVICE}", headers + [("apns-id", apns_id)],
                                        b'{"aps":{"alert":"load"}}')
                batch[stream] = apns_id
            client.wait_for(lambda: all(client.responses[s].ended for s in batch), timeout=5)
            with lock:
                acknowledged.extend(a for s, a in batch.items() if client.responses[s].status == 200)
    except (OSError, AssertionError, Exception):  # the kill cuts connections mid-flight: only 200s count
        return


def stored_ids(server):
    with urllib.request.urlopen(f"{server.admin_url}/api/deliveries/export", timeout=60) as response:
        return {json.loads(line)["apnsId"] for line in response.read().decode().splitlines() if line.strip()}


def integrity(data_dir):
    connection = sqlite3.connect(f"file:{data_dir}/deliveries.sqlite?mode=ro", uri=True, timeout=30)
    try:
        return connection.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cycles", nargs="?", type=int, default=3)
    parser.add_argument("--load-seconds", type=float, default=1.5)
    args = parser.parse_args()
    data_dir = tempfile.mkdtemp(prefix="apns-mock-crash-")
    # Retention must not drop what this test checks.
    config = pathlib.Path(data_dir) / "crash-test-config.json"
    config.write_text(json.dumps({"retention": {"maxDeliveries": 100_000_000, "maxAgeSeconds": 1e9}}))
    server_args = ["--config", str(config)]
    acknowledged_all = []
    server = MockServer(server_args, data_dir=data_dir)
    print(f"crash test: {args.cycles} kill -9 cycles, {CONNECTIONS} connections × {STREAMS_IN_FLIGHT} streams, "
          f"data dir {data_dir}")
    total_start = time.monotonic()
    try:
        for cycle in range(1, args.cycles + 1):
            acknowledged, lock, stop = [], threading.Lock(), threading.Event()
            threads = [threading.Thread(target=load, args=(server, acknowledged, lock, stop), daemon=True)
                       for _ in range(CONNECTIONS)]
            for thread in threads:
                thread.start()
            time.sleep(args.load_seconds)  # load duration, not a wait for an event: the kill lands mid-flight
            with lock:
                before_kill = len(acknowledged)
            server.kill()
            stop.set()
            for thread in threads:
                thread.join(timeout=15)
            acknowledged_all.extend(acknowledged)
            restart_begin = time.monotonic()
            server = MockServer(server_args, data_dir=data_dir)
            restart_seconds = time.monotonic() - restart_begin
            stored = stored_ids(server)
            missing = [a for a in acknowledged_all if a not in stored]
            check = integrity(data_dir)
            print(f"cycle {cycle:3}: {len(acknowledged):6} acknowledged ({before_kill} before the kill), "
                  f"{len(stored):7} stored, {len(missing)} missing, integrity {check}, restart {restart_seconds:.2f} s",
                  flush=True)
            if missing or check != "ok":
                print(f"FAILED: {len(missing)} acknowledged deliveries lost (e.g. {missing[:3]}), integrity {check}")
                return 1
            if before_kill == 0:
                print("FAILED: no load reached the server before the kill")
                return 1
    finally:
        if server.process.poll() is None:
            server.stop()
    print(f"crash test passed: {args.cycles} cycles, {len(acknowledged_all)} acknowledged deliveries, 0 lost, "
          f"integrity ok after every restart ({time.monotonic() - total_start:.0f} s)")
    shutil.rmtree(data_dir, ignore_errors=True)  # kept only when the test fails, for a look at the file
    return 0


if __name__ == "__main__":
    sys.exit(main())
