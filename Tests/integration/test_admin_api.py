"""The admin API against a real `apns-mock serve` (the `server` fixture in conftest.py starts it with ports 0 and
exposes `admin_url`, `tls_port`, `h2c_port`). Pushes go over h2c with curl (HTTP/2 prior knowledge)."""
import json
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request


def send_push(server, token, payload='{"aps":{"alert":"hi"}}', headers=()):
    command = ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--http2-prior-knowledge", "-X", "POST",
               "--data-binary", payload, "-H", "apns-topic: com.example.app", "-H", "apns-push-type: alert"]
    for header in headers:
        command += ["-H", header]
    command.append(f"http://127.0.0.1:{server.h2c_port}/3/device/{token}")
    return int(subprocess.run(command, capture_output=True, text=True, timeout=30).stdout or 0)


def get(server, path):
    """(status, content type, body bytes)."""
    try:
        with urllib.request.urlopen(server.admin_url + path, timeout=90) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


def test_health_answers_ok(server):
    status, content_type, body = get(server, "/api/health")
    assert status == 200 and content_type.startswith("application/json")
    assert json.loads(body)["status"] == "ok"


def test_head_gets_the_get_answers_headers_and_no_body(server):
    """RFC 9110 §9.3.2: no content in an answer to HEAD; its Content-Length is the GET answer's."""
    path = "/api/deliveries?token=nobody"
    _, _, get_body = get(server, path)
    with socket.create_connection(("127.0.0.1", server.admin_port), timeout=30) as sock:
        sock.sendall(f"HEAD {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.admin_port}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        for _ in range(100):  # until the server closes (Connection: close)
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200")
    assert f"Content-Length: {len(get_body)}".encode() in head.split(b"\r\n")
    assert body == b"", f"HEAD answered with a body: {body[:80]!r}"


def test_a_rejected_push_is_listed_filtered_and_explained(server):
    token = "ef" * 32
    assert send_push(server, token) == 403  # no provider token
    status, _, body = get(server, f"/api/deliveries?token={token}&accepted=false")
    assert status == 200
    deliveries = json.loads(body)["deliveries"]
    assert len(deliveries) == 1
    record = deliveries[0]
    assert record["reason"] == "MissingProviderToken" and record["status"] == 403
    assert record["explanation"]
    status, _, body = get(server, "/api/deliveries/" + record["apnsId"])
    assert status == 200 and json.loads(body)["id"] == record["id"]
    status, _, body = get(server, f"/api/deliveries?token={token}&accepted=true")
    assert json.loads(body)["deliveries"] == []


def test_long_poll_returns_the_next_matching_delivery(server):
    token = "a1" * 32
    _, _, body = get(server, "/api/deliveries?limit=1")
    after = json.loads(body)["latestId"]
    result = {}

    def wait():
        result["response"] = get(server, f"/api/deliveries/wait?token={token}&after_id={after}&timeout_ms=20000")

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.3)
    started = time.time()
    assert get(server, "/api/health")[0] == 200  # the loop is not blocked by the parked long poll
    assert time.time() - started < 5
    send_push(server, "b2" * 32)
    send_push(server, token)
    waiter.join(30)
    status, _, body = result["response"]
    assert status == 200 and json.loads(body)["deviceToken"] == token


def test_long_poll_times_out_with_204(server):
    status, _, body = get(server, "/api/deliveries/wait?token=nobody&timeout_ms=200")
    assert status == 204 and body == b""


def test_export_is_json_lines_and_delete_resets(server):
    send_push(server, "c3" * 32)
    status, content_type, body = get(server, "/api/deliveries/export")
    assert status == 200 and content_type.startswith("application/x-ndjson")
    lines = [json.loads(line) for line in body.splitlines()]
    assert lines and [r["id"] for r in lines] == sorted(r["id"] for r in lines)
    request = urllib.request.Request(server.admin_url + "/api/deliveries", method="DELETE")
    with urllib.request.urlopen(request) as response:
        assert json.loads(response.read())["deleted"] >= 1
    assert json.loads(get(server, "/api/deliveries")[2])["deliveries"] == []


def test_metrics_are_prometheus_text(server):
    send_push(server, "d4" * 32)
    status, content_type, body = get(server, "/metrics")
    assert status == 200 and content_type.startswith("text/plain")
    text = body.decode()
    assert "# TYPE apns_mock_requests_total counter" in text
    assert 'apns_mock_rejections_total{reason="MissingProviderToken"}' in text
    assert "apns_mock_response_latency_seconds_bucket" in text


def test_unknown_delivery_is_404_and_bad_parameter_is_400(server):
    assert get(server, "/api/deliveries/00000000-0000-0000-0000-000000000000")[0] == 404
    assert get(server, "/api/deliveries?accepted=perhaps")[0] == 400


def test_deeply_nested_admin_bodies_are_refused_and_the_server_stays_up(server):
    """A newline then 513 nested brackets made Foundation's JSONDecoder trap (SIGILL) inside the admin API: the
    fuzzer's admin-body target found it. Every config section refuses it with 400 and the server keeps serving."""
    body = b"\n" + b"[" * 513
    for section in ("tokens", "keys", "faults", "connection"):
        request = urllib.request.Request(server.admin_url + f"/api/config/{section}", data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status = response.status
        except urllib.error.HTTPError as error:
            status = error.code
        assert status in (400, 404), section
    status, _, body = get(server, "/api/health")
    assert status == 200 and json.loads(body)["status"] == "ok"


def test_free_text_search_reads_the_stored_records(server):
    """`q` matches the record's search text (header "name: value", payload, explanation, any case) in the SQLite
    store, which keeps no search column: text only a JSON key holds matches nothing, and `limit` counts matches."""
    token = "5e" * 32
    for index in range(3):
        assert send_push(server, token, payload='{"aps":{"alert":"Parcel %d: Out For Delivery"}}' % index) == 403

    def search(query, extra=""):
        status, _, body = get(server, f"/api/deliveries?token={token}&q={urllib.parse.quote(query)}{extra}")
        assert status == 200
        return json.loads(body)["deliveries"]

    assert len(search("out for delivery")) == 3
    assert len(search('"alert":"parcel 1')) == 1
    assert len(search("APNS-PUSH-TYPE: alert")) == 3
    assert len(search("missingprovidertoken")) == 3
    assert search("latencyMicroseconds") == []
    newest = search("parcel", "&limit=2")
    assert [json.loads(record["payload"])["aps"]["alert"] for record in newest] == [
        "Parcel 2: Out For Delivery", "Parcel 1: Out For Delivery"]
