"""`apns-mock check` grades by one principle (docs/conformance.md): FAIL when a push is rejected, lost or dropped,
WARN for advice that loses nothing, and the user chooses what fails the build. Each test is a case a real sender
was graded wrongly by before (issue 31), run live with httpx senders against the embedded mock."""
import json
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest

from conftest import BINARY, REPO
from test_check import SENDER, check, sender_mode, verdicts

ACTIVITY = """import ActivityKit
import Foundation

struct OrderAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var eta: Date
    }
    var id: String
}
"""


def test_a_delay_does_not_hide_a_rejection():
    result = check("--inject", "delay=20", "--only", "accepted.status", "--", sys.executable, SENDER, "bad-token")
    assert result.returncode == 1, result.stdout + result.stderr
    assert verdicts(result.stdout)["accepted.status"] == "FAIL"
    assert "0 of 1 request accepted" in result.stdout


def test_a_token_per_connection_warns_and_does_not_fail():
    result = check("--only", "auth.reuse", "--", sys.executable, SENDER, "token-per-connection")
    assert result.returncode == 0, result.stdout + result.stderr
    assert verdicts(result.stdout)["auth.reuse"] == "WARN", result.stdout


def test_a_stream_reset_is_not_an_unknown_reason():
    result = check("--inject", "reset:every=2", "--only", "error.unknown-reason", "--", sys.executable, SENDER, "tolerates-resets")
    assert verdicts(result.stdout)["error.unknown-reason"] == "n/a", result.stdout + result.stderr


def test_a_warning_only_the_checks_configuration_can_clear_is_not_held_against_the_sender():
    # Live Activity pushes without --activity-source: the mock says la-content-state-unchecked.
    result = check("--fail-on", "warn", "--only", "accepted.warnings", "--", sys.executable, SENDER, "good")
    assert result.returncode == 0, result.stdout + result.stderr
    assert verdicts(result.stdout)["accepted.warnings"] == "PASS"
    assert "la-content-state-unchecked not held against the sender" in result.stdout


def test_a_push_dropped_after_a_503_fails_by_default():
    result = check("--", sys.executable, SENDER, "transient-dropped")
    assert result.returncode == 1, result.stdout + result.stderr
    assert verdicts(result.stdout)["error.transient"] == "FAIL" and "the push is lost" in result.stdout


def test_a_unix_epoch_date_the_app_reads_as_2057_fails(tmp_path):
    source = tmp_path / "OrderActivity.swift"
    source.write_text(ACTIVITY)
    result = check("--activity-source", str(source), "--only", "accepted.warnings", "--", sys.executable, SENDER, "unix-date")
    assert result.returncode == 1, result.stdout + result.stderr
    assert verdicts(result.stdout)["accepted.warnings"] == "FAIL" and "la-content-state-unix-date" in result.stdout


def test_a_warning_is_visible_in_junit_and_json(tmp_path):
    junit, report = tmp_path / "r.xml", tmp_path / "r.json"
    result = check("--junit", str(junit), "--json", str(report), "--", sys.executable, SENDER, "string-iat")
    assert result.returncode == 0, result.stdout + result.stderr
    case = next(case for case in ElementTree.parse(junit).getroot().iter("testcase") if case.get("name").startswith("auth.es256"))
    assert case.find("properties/property[@name='verdict']").get("value") == "warn"
    assert case.find("system-err").text.startswith("WARN ")
    data = json.loads(report.read_text())
    assert "auth.es256" in data["warnedRules"] and data["failedRules"] == []


def test_a_push_accepted_twice_fails_duplicates():
    result = check("--only", "accepted.duplicates", "--", sys.executable, SENDER, "resends-every-push")
    assert result.returncode == 1, result.stdout + result.stderr
    assert verdicts(result.stdout)["accepted.duplicates"] == "FAIL" and "accepted 2 times" in result.stdout


def test_the_user_chooses_what_fails_the_build(tmp_path):
    demoted = check("--severity", "accepted.status=warn", "--", sys.executable, SENDER, "bad-token")
    assert demoted.returncode == 0 and verdicts(demoted.stdout)["accepted.status"] == "WARN", demoted.stdout
    expected = check("--expect-fail", "accepted.status", "--", sys.executable, SENDER, "bad-token")
    assert expected.returncode == 0, expected.stdout
    held = check("--expect-fail", "accepted.status", "--only", "accepted.status", "--", sys.executable, SENDER, "good")
    assert held.returncode == 1 and "expected to fail (--expect-fail), but it did not" in held.stdout
    grading = tmp_path / "grading.json"
    grading.write_text(json.dumps({"failOn": "warn", "severity": {"auth.es256": "skip"}}))
    strict = check("--grading", str(grading), "--", sys.executable, SENDER, "string-iat")
    assert strict.returncode == 1 and "FAILED: accepted.warnings" in strict.stdout, strict.stdout
    assert verdicts(strict.stdout)["auth.es256"] == "n/a"
    typo = check("--severity", "auth.reues=warn", "--", "true")
    assert typo.returncode == 2 and len(typo.stderr.strip().splitlines()) == 1 and "auth.reues" in typo.stderr


@pytest.mark.parametrize("option", ["--json", "--junit", "--html"])
def test_a_report_path_in_a_missing_folder_stops_before_the_command_runs(option, tmp_path):
    marker = tmp_path / "ran"
    result = check(option, str(tmp_path / "missing" / "report"), "--", "/bin/sh", "-c", f"touch {marker}")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "does not exist" in result.stderr, result.stderr
    assert not marker.exists(), "the command must not run"


def test_the_commands_own_output_stays_out_of_the_report():
    code = "print('HELLO FROM' + ' THE COMMAND')"
    result = check("--only", "accepted.status", "--", sys.executable, "-c", code)
    assert "HELLO FROM THE COMMAND" not in result.stdout and "HELLO FROM THE COMMAND" in result.stderr
    assert result.stdout.startswith("apns-mock check: ")


def test_the_sender_side_cross_check_finds_an_answer_the_sender_did_not_get(tmp_path):
    # An adapter that sends with curl but tells the runner every push failed: what a lost answer looks like.
    liar = tmp_path / "liar.sh"
    liar.write_text(f"""#!/bin/sh
APNS_MOCK_SENDER_RESULTS= {REPO}/Conformance/adapters/curl || exit 1
python3 -c 'import json,sys
for i, _ in enumerate(json.load(open(sys.argv[1]))["pushes"]): print(json.dumps({{"index": i, "success": False, "said": "Connection reset by peer"}}))
' "$APNS_MOCK_SCENARIO" > "$APNS_MOCK_SENDER_RESULTS"
""")
    liar.chmod(0o755)
    report = tmp_path / "reports" / "liar.json"
    report.parent.mkdir()
    result = sender_mode("--adapter", str(liar), "--scenario", "unregistered-token", "--json", str(report))
    assert "MOCK BUG: push #" in result.stdout, result.stdout + result.stderr
    checks = json.loads(report.read_text())["crossChecks"]
    assert len(checks) == 1 and checks[0]["lostAnswers"], checks
    matrix = subprocess.run([sys.executable, str(REPO / "scripts" / "conformance-matrix"), str(report.parent),
                             str(tmp_path / "m.md"), str(tmp_path / "m.html")], capture_output=True, text=True)
    assert matrix.returncode == 1 and "MOCK BUG" in matrix.stderr
    honest = sender_mode("--adapter", "curl", "--scenario", "unregistered-token", "--json", str(report))
    assert json.loads(report.read_text())["crossChecks"][0]["lostAnswers"] == [], honest.stdout
