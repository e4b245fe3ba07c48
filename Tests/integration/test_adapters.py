"""The matrix's findings about real sender libraries, reproduced: each adapter of Conformance/adapters (the real
library, installed in its venv by with-python.sh) runs one scenario under `apns-mock conformance sender`, and the
verdicts the matrix publishes for it come out again."""
import json
import subprocess

import pytest

from conftest import BINARY, REPO

TIMEOUT = 600  # the first run of a Python adapter creates its venv (pip install from PyPI)

ALERTS_BURST = {
    # adapter: {rule: verdict} in the alerts-burst scenario (twenty alerts to one device)
    "aioapns": {"auth.es256": "pass", "auth.reuse": "pass", "connection.reuse": "pass"},
    "apns2": {"auth.es256": "warn", "auth.reuse": "pass", "connection.reuse": "pass"},
    # kalyke: a string iat (APNs accepts it) and a new token on a new connection per push: warnings; the TLS
    # handshake per push fails connection.reuse (A-CONN: APNs treats it as a denial-of-service attack).
    "kalyke": {"auth.es256": "warn", "auth.reuse": "warn", "connection.reuse": "fail"},
    "pyapns-client": {"auth.es256": "warn", "auth.reuse": "pass", "connection.reuse": "fail"},
    "django-push-notifications": {"accepted.warnings": "warn", "auth.reuse": "warn", "connection.reuse": "fail"},
    "apns-mock-push": {"accepted.warnings": "pass", "auth.es256": "pass", "auth.reuse": "pass", "connection.reuse": "pass"},
}


def run_scenario(adapter, scenario, tmp_path):
    report = tmp_path / f"{adapter}.json"
    result = subprocess.run([BINARY, "conformance", "sender", "--adapter", adapter, "--scenario", scenario,
                             "--json", str(report)], capture_output=True, text=True, cwd=REPO, timeout=TIMEOUT)
    assert result.returncode in (0, 1), result.stdout + result.stderr[-3000:]
    data = json.loads(report.read_text())
    for check in data["crossChecks"]:  # what the library said agrees with what the mock recorded
        assert check["lostAnswers"] == [], (adapter, check)
    rules = data["rules"]
    return {rule["id"].split("/", 1)[1]: rule["verdict"] for rule in rules}, result


@pytest.mark.parametrize("adapter", sorted(ALERTS_BURST))
def test_each_library_shows_its_published_token_and_connection_habits(adapter, tmp_path):
    verdicts, result = run_scenario(adapter, "alerts-burst", tmp_path)
    assert verdicts["accepted.status"] == "pass", result.stdout
    for rule, verdict in ALERTS_BURST[adapter].items():
        assert verdicts[rule] == verdict, (rule, result.stdout)


@pytest.mark.parametrize("adapter, verdict", [("pyapns-client", "warn"), ("aioapns", "fail"), ("apns-mock-push", "pass")])
def test_after_a_503_libraries_retry_too_soon_not_at_all_or_with_back_off(adapter, verdict, tmp_path):
    # pyapns-client retries at once (warn: the push got through); aioapns returns the 503 and the push is lost.
    verdicts, result = run_scenario(adapter, "service-unavailable", tmp_path)
    assert verdicts["error.transient"] == verdict, result.stdout


@pytest.mark.parametrize("adapter, verdict", [("apns2", "pass"), ("apns-mock-push", "pass"), ("curl", "warn")])
def test_a_broadcast_due_at_once_is_pipelined_by_libraries_that_can(adapter, verdict, tmp_path):
    verdicts, result = run_scenario(adapter, "pipelining", tmp_path)
    assert verdicts["connection.pipelining"] == verdict, result.stdout
    assert verdicts["connection.streams"] == "pass", result.stdout
