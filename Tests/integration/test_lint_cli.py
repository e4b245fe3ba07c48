"""`apns-mock lint`: the server's rules and the Live Activity device, offline, as a pre-commit hook would run it:
exit 0 (accepted and applied, warnings printed), 1 (APNs would reject, or the device would not apply), 2 (usage)."""
import json
import subprocess

from conftest import BINARY, REPO

SOURCE = str(REPO / "Conformance" / "scenarios" / "DeliveryAttributes.swift")
LA_TOPIC = "com.example.app.push-type.liveactivity"


def lint(*args, stdin=None):
    return subprocess.run([BINARY, "lint", *args], capture_output=True, text=True, cwd=REPO, timeout=60, input=stdin)


def test_a_good_alert_passes(tmp_path):
    path = tmp_path / "alert.json"
    path.write_text('{"aps":{"alert":{"title":"Hi"}}}')
    result = lint(str(path), "--push-type", "alert", "--topic", "com.example.app")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ACCEPTED" in result.stdout and "APNs would answer 200" in result.stdout


def test_a_warning_is_printed_but_passes():
    result = lint("-", "--push-type", "background", "--priority", "10", stdin='{"aps":{"content-available":1}}')
    assert result.returncode == 0, result.stdout
    assert "background-priority-10" in result.stdout


def test_an_apns_rejection_fails_with_the_reason():
    result = lint("-", "--push-type", "liveactivity", "--topic", "com.example.app",
                  stdin='{"aps":{"event":"end","timestamp":1767225600}}')
    assert result.returncode == 1
    assert "REJECTED" in result.stdout and "400 DeviceTokenNotForTopic" in result.stdout


def test_a_content_state_the_app_cannot_decode_fails_with_the_device_outcome():
    payload = '{"aps":{"event":"update","timestamp":1767225600,"content-state":{"status":"late","minutesLeft":"ten"}}}'
    result = lint("-", "--push-type", "liveactivity", "--topic", LA_TOPIC, "--activity-source", SOURCE,
                  "--attributes-type", "DeliveryAttributes", "--event", "update", stdin=payload)
    assert result.returncode == 1, result.stdout
    assert "device: dropped: content-state does not decode" in result.stdout
    assert "minutesLeft" in result.stdout


def test_json_output():
    payload = '{"aps":{"event":"update","timestamp":1767225600,"content-state":{"status":"late","minutesLeft":10}}}'
    result = lint("-", "--activity-source", SOURCE, "--attributes-type", "DeliveryAttributes", "--json", stdin=payload)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["pushType"] == "liveactivity" and report["topic"] == LA_TOPIC
    assert report["status"] == 200 and report["passes"] is True
    assert report["liveActivity"]["code"] == "applied"


def test_usage_errors_exit_2(tmp_path):
    assert lint(str(tmp_path / "missing.json")).returncode == 2
    assert lint("-", "--push-type", "telegram", stdin="{}").returncode == 2
    result = lint("-", "--activity-source", SOURCE, "--attributes-type", "Nope", stdin='{"aps":{"event":"end"}}')
    assert result.returncode == 2 and "Nope" in result.stderr
