"""`apns-mock push` against a live mock: what the server recorded (admin API), exit statuses 0 / 1 / 2, the
APNS_MOCK_* environment, Live Activity flags, `--repeat` over one connection, GOAWAY and retries."""
import collections
import json
import socket
import subprocess
import time
import urllib.request

from conftest import BINARY, CA, REPO

TOKEN = "8096c2f1a3b4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e"
TIMEOUT = 120


def push(server, *args, env=None, stdin=None):
    command = [BINARY, "push", "--url", f"https://localhost:{server.tls_port}", "--admin-url", server.admin_url, *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=REPO, timeout=TIMEOUT, env=env, input=stdin)


def deliveries(server, limit=1000):
    with urllib.request.urlopen(f"{server.admin_url}/api/deliveries?limit={limit}&order=asc", timeout=10) as response:
        return json.load(response)["deliveries"]


def record(server, apns_id):
    with urllib.request.urlopen(f"{server.admin_url}/api/deliveries/{apns_id}", timeout=10) as response:
        return json.load(response)


def post_fault(server, fault):
    request = urllib.request.Request(f"{server.admin_url}/api/config/faults", data=json.dumps(fault).encode(),
                                     headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


def header(delivery, name):
    return next((h["value"] for h in delivery["headers"] if h["name"] == name), None)


def test_an_alert_is_recorded_as_sent_and_printed(server):
    result = push(server, "--device-token", TOKEN, "--alert-title", "Hi", "--alert-body", "there", "--priority", "10",
                  "--collapse-id", "greeting")
    assert result.returncode == 0, result.stderr
    line = result.stdout.splitlines()[0]
    assert line.startswith("200") and "apns-id " in line and "apns-unique-id " in line
    apns_id = line.split("apns-id ")[1].split()[0]
    stored = record(server, apns_id)
    assert stored["status"] == 200
    assert stored["deviceToken"] == TOKEN
    assert stored["topic"] == "com.example.app" and stored["pushType"] == "alert"
    assert header(stored, "apns-priority") == "10" and header(stored, "apns-collapse-id") == "greeting"
    assert json.loads(stored["payload"]) == {"aps": {"alert": {"title": "Hi", "body": "there"}}}
    assert stored["providerToken"]["header"] == {"alg": "ES256", "kid": "ABC123DEFG"}
    assert isinstance(stored["providerToken"]["claims"]["iat"], int)
    assert stored["tls"]["alpn"] == "h2"


def test_live_activity_start_from_flags_reaches_the_device(server):
    result = push(server, "--device-token", TOKEN, "--event", "start", "--attributes-type", "DeliveryAttributes",
                  "--attributes", '{"orderNumber":"A-1"}', "--content-state", '{"status":"preparing","minutesLeft":20}',
                  "--alert-title", "Order A-1", "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout.splitlines()[0])
    assert answer["status"] == 200 and answer["reason"] is None
    assert answer["liveActivity"]["code"] == "applied", answer
    stored = record(server, answer["apnsID"])
    assert stored["topic"] == "com.example.app.push-type.liveactivity" and stored["pushType"] == "liveactivity"
    aps = json.loads(stored["payload"])["aps"]
    assert aps["event"] == "start" and isinstance(aps["timestamp"], int) and aps["timestamp"] < 10**11
    assert aps["attributes-type"] == "DeliveryAttributes" and aps["alert"] == {"title": "Order A-1"}


def test_a_rejection_exits_1_with_the_reason_and_the_mocks_explanation(server):
    result = push(server, "--device-token", "zz" * 32)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.startswith("400 BadDeviceToken")
    assert "mock: " in result.stdout and "rule: token.format" in result.stdout


def test_json_answer_has_the_contract_fields(server):
    result = push(server, "--device-token", "zz" * 32, "--json")
    assert result.returncode == 1
    answer = json.loads(result.stdout)
    assert answer["status"] == 400 and answer["reason"] == "BadDeviceToken"
    assert answer["apnsID"] and answer["apnsUniqueID"]
    assert answer["ruleID"] == "token.format"


def test_a_refused_connection_exits_2():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = subprocess.run([BINARY, "push", "--url", f"https://127.0.0.1:{port}", "--device-token", TOKEN],
                            capture_output=True, text=True, cwd=REPO, timeout=TIMEOUT)
    assert result.returncode == 2
    assert "apns-mock push: cannot connect" in result.stderr and "refused" in result.stderr


def test_usage_errors_exit_2_before_anything_is_sent(server):
    for args in (["--event", "start"], ["--priority", "7"], ["--push-type", "telegram"], ["--sandbox"]):
        result = push(server, "--device-token", TOKEN, *args)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
    assert deliveries(server) == []


def test_repeat_200_with_concurrency_20_uses_one_connection(server):
    result = push(server, "--device-token", TOKEN, "--repeat", "200", "--concurrency", "20")
    assert result.returncode == 0, result.stderr
    assert "200 pushes in" in result.stdout and "over 1 connection" in result.stdout
    assert "answers: 200 ×200" in result.stdout and "p50" in result.stdout and "p99" in result.stdout
    records = deliveries(server)
    assert len(records) == 200
    assert len({r["connectionId"] for r in records}) == 1
    assert len({r["providerToken"]["fingerprint"] for r in records}) == 1


def test_connections_spread_the_load(server):
    result = push(server, "--device-token", TOKEN, "--repeat", "60", "--concurrency", "10", "--connections", "3")
    assert result.returncode == 0, result.stderr
    records = deliveries(server)
    per_connection = collections.Counter(r["connectionId"] for r in records)
    assert len(records) == 60 and sorted(per_connection.values()) == [20, 20, 20], per_connection
    assert len({r["providerToken"]["fingerprint"] for r in records}) == 1


def test_environment_of_check_needs_no_flags(start_server):
    server = start_server("--key", f"TEAM123456:ABC123DEFG:{REPO / 'certs' / 'AuthKey_ABC123DEFG.p8'}",
                          "--topic", "TEAM123456:com.acme.app")
    env = {"PATH": "/usr/bin:/bin", "APNS_MOCK_URL": f"https://localhost:{server.tls_port}", "APNS_MOCK_CA_FILE": CA,
           "APNS_MOCK_KEY_FILE": str(REPO / "certs" / "AuthKey_ABC123DEFG.p8"), "APNS_MOCK_KEY_ID": "ABC123DEFG",
           "APNS_MOCK_TEAM_ID": "TEAM123456", "APNS_MOCK_TOPIC": "com.acme.app", "APNS_MOCK_ADMIN_URL": server.admin_url}
    result = subprocess.run([BINARY, "push", "--device-token", TOKEN, "--push-type", "voip"], capture_output=True,
                            text=True, cwd="/", timeout=TIMEOUT, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert deliveries(server)[0]["topic"] == "com.acme.app.voip"


def test_payload_from_standard_input_is_sent_byte_for_byte(server):
    body = '{"aps" : {"alert":"from stdin"}, "custom": [1, 2]}'
    result = push(server, "--device-token", TOKEN, "--payload", "-", stdin=body)
    assert result.returncode == 0, result.stderr
    assert deliveries(server)[0]["payload"] == body


def test_h2c_with_prior_knowledge(server):
    result = subprocess.run([BINARY, "push", "--url", f"http://127.0.0.1:{server.h2c_port}", "--device-token", TOKEN],
                            capture_output=True, text=True, cwd=REPO, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    assert deliveries(server)[0].get("tls") is None


def test_a_503_is_retried_after_a_back_off(server):
    post_fault(server, {"deviceToken": TOKEN, "status": 503, "reason": "ServiceUnavailable", "remaining": 1})
    result = push(server, "--device-token", TOKEN, "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    answer = json.loads(result.stdout)
    assert answer["attempts"] == 2 and "503 ServiceUnavailable" in answer["history"][0]
    first, second = deliveries(server)
    assert first["status"] == 503 and second["status"] == 200
    assert second["receivedAtNanos"] - first["receivedAtNanos"] >= 900_000_000


def test_expired_provider_token_is_resent_with_a_fresh_token_on_a_new_connection(server):
    post_fault(server, {"deviceToken": TOKEN, "status": 403, "reason": "ExpiredProviderToken", "remaining": 1})
    result = push(server, "--device-token", TOKEN)
    assert result.returncode == 0, result.stdout + result.stderr
    first, second = deliveries(server)
    assert first["reason"] == "ExpiredProviderToken" and second["status"] == 200
    assert first["providerToken"]["fingerprint"] != second["providerToken"]["fingerprint"]
    assert first["connectionId"] != second["connectionId"]


def test_goaway_moves_the_rest_to_a_new_connection(server):
    post_fault(server, {"status": 503, "reason": "Shutdown", "goAway": True, "remaining": 1})
    result = push(server, "--device-token", TOKEN, "--repeat", "10", "--concurrency", "4", "--retries", "0")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "answers: 200 ×9, 503 Shutdown ×1" in result.stdout
    records = deliveries(server)
    assert len(records) == 10 and len({r["connectionId"] for r in records}) == 2


def test_requests_file_keeps_live_activity_order_and_skips_gone_tokens(server, tmp_path):
    gone = "c3" * 32
    post_fault(server, {"deviceToken": gone, "status": 410, "reason": "Unregistered"})
    pushes = [{"deviceToken": gone, "pushType": "alert", "payload": '{"aps":{"alert":"1"}}'}]
    now = int(time.time())
    for event, ts in (("start", now), ("update", now + 1), ("update", now + 2), ("end", now + 3)):
        aps = {"event": event, "timestamp": ts, "content-state": {"step": ts}}
        if event == "start":
            aps.update({"attributes-type": "DeliveryAttributes", "attributes": {"n": 1}, "alert": {"title": "go"}})
        pushes.append({"deviceToken": TOKEN, "pushType": "liveactivity", "payload": json.dumps({"aps": aps})})
    pushes.append({"deviceToken": gone, "pushType": "alert", "payload": '{"aps":{"alert":"2"}}'})
    path = tmp_path / "pushes.json"
    path.write_text(json.dumps({"pushes": pushes}))
    result = push(server, "--requests", str(path), "--concurrency", "8", "--json")
    assert result.returncode == 1, result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert sorted(a["index"] for a in answers) == list(range(6))
    assert next(a for a in answers if a["index"] == 5)["skipped"].startswith("its token was answered 410")
    live = [r for r in deliveries(server) if r["deviceToken"] == TOKEN]
    assert [json.loads(r["payload"])["aps"]["timestamp"] for r in live] == [now, now + 1, now + 2, now + 3]
    assert all(r["liveActivity"]["code"] == "applied" for r in live), [r["liveActivity"] for r in live]
    assert len([r for r in deliveries(server) if r["deviceToken"] == gone]) == 1


def test_check_grades_apns_mock_push_and_every_rule_holds():
    # --repeat sends the same push 20 times: the device would show it 20 times, which accepted.duplicates fails;
    # a load test expects exactly that failure.
    result = subprocess.run([BINARY, "check", "--expect-fail", "accepted.duplicates", "--", BINARY, "push",
                             "--device-token", TOKEN, "--repeat", "20", "--concurrency", "5"],
                            capture_output=True, text=True, cwd=REPO, timeout=TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "19 of them a push accepted before" in result.stdout
    assert [line for line in result.stdout.splitlines() if line.startswith("FAIL")] == [
        next(line for line in result.stdout.splitlines() if line.startswith("FAIL  accepted.duplicates"))]
    assert "PASS  connection.reuse" in result.stdout
    assert "PASS  auth.reuse" in result.stdout and "PASS  auth.es256" in result.stdout


def test_the_apns_mock_push_adapter_passes_every_scenario_it_can_run():
    result = subprocess.run([BINARY, "conformance", "sender", "--adapter", "apns-mock-push"], capture_output=True,
                            text=True, cwd=REPO, timeout=TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "FAIL" not in result.stdout
    verdicts = {}
    for line in result.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] in ("PASS", "WARN", "FAIL", "n/a"):
            verdicts.setdefault(parts[1].split("/", 1)[-1], set()).add(parts[0])
    for rule in ("auth.expired-retry", "error.transient", "error.token-gone", "device.timestamps", "auth.reuse",
                 "connection.reuse", "error.permanent", "connection.pipelining", "error.goaway"):
        assert "PASS" in verdicts.get(rule, set()), (rule, result.stdout)
