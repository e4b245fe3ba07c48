"""a delivery answered 200 is durable before its response is sent. Under load from several connections,
the server is killed with SIGKILL; after a restart on the same data directory, every apns-id that got a 200 must
be in the store."""
import json
import threading
import time
import urllib.request
import uuid

from helpers.h2client import H2Client
from helpers.tokens import BUNDLE, pyjwt_token

LOAD_SECONDS = 2.0
CONNECTIONS = 6
STREAMS_IN_FLIGHT = 20


def test_every_200_survives_kill_9_under_load(start_server):
    server = start_server()
    acknowledged = []
    lock = threading.Lock()
    stop = threading.Event()

    def sender():
        try:
            client = H2Client(server.h2c_port, tls=False, timeout=5)
            token = pyjwt_token()
            headers = [("authorization", f"bearer {token}"), ("apns-topic", BUNDLE), ("apns-push-type", "alert")]
            first = client.response(client.request("/3/device/" + "ab" * 32, headers, b'{"aps":{"alert":"x"}}'))
            assert first.status == 200
            while not stop.is_set() and not client.closed:
                batch = {}
                for _ in range(STREAMS_IN_FLIGHT):
                    apns_id = str(uuid.uuid4())
                    stream = client.request("/3/device/" + "ab" * 32, headers + [("apns-id", apns_id)],
                                            b'{"aps":{"alert":"load"}}')
                    batch[stream] = apns_id
                client.wait_for(lambda: all(client.responses[s].ended for s in batch), timeout=5)
                with lock:
                    acknowledged.extend(apns_id for stream, apns_id in batch.items()
                                        if client.responses[stream].status == 200)
        except (OSError, AssertionError):
            pass  # the kill cuts connections mid-flight: only acknowledged ids count

    threads = [threading.Thread(target=sender, daemon=True) for _ in range(CONNECTIONS)]
    for thread in threads:
        thread.start()
    time.sleep(LOAD_SECONDS)
    with lock:
        acknowledged_before_kill = len(acknowledged)
    server.kill()
    stop.set()
    for thread in threads:
        thread.join(timeout=10)
    assert acknowledged_before_kill > 200, f"too little load to prove anything: {acknowledged_before_kill} pushes"

    restarted = start_server(data_dir=server.data_dir)
    with urllib.request.urlopen(f"{restarted.admin_url}/api/deliveries/export", timeout=30) as response:
        stored = {json.loads(line)["apnsId"] for line in response.read().decode().splitlines() if line.strip()}
    missing = [apns_id for apns_id in acknowledged if apns_id not in stored]
    print(f"kill -9 under load: {len(acknowledged)} acknowledged with 200, {len(stored)} stored, {len(missing)} missing")
    assert not missing, f"{len(missing)} of {len(acknowledged)} acknowledged deliveries lost, e.g. {missing[:3]}"
