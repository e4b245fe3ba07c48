"""`apns-mock check -- <command>`: the runner starts its own mock, runs a real sender (httpx over HTTP/2, PyJWT),
grades what arrived and exits 0 / 1 / 2. Every main rule is shown failing with a sender that breaks it and holding
with one that does not."""
import json
import os
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest

from conftest import BINARY, REPO

SENDER = str(pathlib.Path(__file__).parent / "helpers" / "sender.py")
EXAMPLE = str(REPO / "examples" / "live_activity_service.py")
TIMEOUT = 120


def check(*args, cwd=REPO):
    return subprocess.run([BINARY, "check", *args], capture_output=True, text=True, cwd=cwd, timeout=TIMEOUT)


def verdicts(stdout):
    """{rule: verdict} from the terminal report."""
    found = {}
    for line in stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] in ("PASS", "WARN", "FAIL", "n/a"):
            found[parts[1]] = parts[0]
    return found


def test_a_well_behaved_sender_passes_every_rule():
    result = check("--", sys.executable, SENDER, "good")
    assert result.returncode == 0, result.stdout + result.stderr
    rules = verdicts(result.stdout)
    assert rules["accepted.status"] == "PASS" and rules["auth.reuse"] == "PASS" and rules["device.after-end"] == "PASS"
    assert "FAIL" not in rules.values()


@pytest.mark.parametrize("mode, rule", [
    ("bad-token", "accepted.status"),
    ("token-per-push", "auth.reuse"),
    ("hour-old-token", "auth.refresh"),
    ("connection-per-push", "connection.reuse"),
    ("ms-timestamp", "device.timestamps"),
    ("start-without-alert", "device.start"),
    ("update-after-end", "device.after-end"),
    ("gone-reused", "error.token-gone"),
    ("permanent-retried", "error.permanent"),
    ("transient-dropped", "error.transient"),
    ("expired-same-token", "auth.expired-retry"),
])
def test_a_sender_that_breaks_a_rule_fails_it_by_name(mode, rule):
    # Back-off threshold far from both senders' timing (immediate retry; 1 s sleep): no wall-clock race.
    result = check("--only", rule, "--min-backoff-ms", "900", "--", sys.executable, SENDER, mode)
    assert result.returncode == 1, result.stdout + result.stderr
    assert verdicts(result.stdout)[rule] == "FAIL", result.stdout
    assert "FAILED: " + rule in result.stdout


@pytest.mark.parametrize("mode, rule", [
    ("gone-dropped", "error.token-gone"),
    ("permanent-dropped", "error.permanent"),
    ("transient-backoff", "error.transient"),
    ("expired-fresh-token", "auth.expired-retry"),
])
def test_a_sender_that_handles_the_error_passes(mode, rule):
    result = check("--only", rule, "--min-backoff-ms", "900", "--", sys.executable, SENDER, mode)
    assert result.returncode == 0, result.stdout + result.stderr
    assert verdicts(result.stdout)[rule] == "PASS", result.stdout


@pytest.mark.parametrize("mode, rule", [("string-iat", "auth.es256"), ("transient-hot", "error.transient")])
def test_a_deviation_that_loses_nothing_warns(mode, rule):
    # A string iat (APNs accepts it); a retry 0 ms after a 503 that got through.
    result = check("--only", rule, "--min-backoff-ms", "900", "--", sys.executable, SENDER, mode)
    assert result.returncode == 0, result.stdout + result.stderr
    assert verdicts(result.stdout)[rule] == "WARN", result.stdout


def test_warnings_fail_only_under_strict():
    lenient = check("--only", "accepted.warnings", "--", sys.executable, SENDER, "string-iat")
    assert lenient.returncode == 0 and verdicts(lenient.stdout)["accepted.warnings"] == "WARN"
    assert "jwt-iat-string" in lenient.stdout
    strict = check("--strict", "--only", "accepted.warnings", "--", sys.executable, SENDER, "string-iat")
    assert strict.returncode == 1 and "FAILED: accepted.warnings" in strict.stdout


def test_a_content_state_the_app_cannot_decode_fails_device_applied():
    result = check("--activity-source", "examples/DeliveryActivity.swift", "--only", "device.applied",
                   "--", sys.executable, SENDER, "bad-content-state")
    assert result.returncode == 1, result.stdout + result.stderr
    assert verdicts(result.stdout)["device.applied"] == "FAIL"
    assert "droppedUndecodableContentState" in result.stdout


def test_pushes_over_the_priority_10_budget_fail_device_budget(tmp_path):
    config = tmp_path / "budget.json"
    config.write_text(json.dumps({"liveActivities": {"budgetPerHour": 2}}))
    result = check("--config", str(config), "--only", "device.budget", "--", sys.executable, SENDER, "over-budget")
    assert result.returncode == 1, result.stdout + result.stderr
    assert verdicts(result.stdout)["device.budget"] == "FAIL" and "throttled" in result.stdout
    within = check("--only", "device.budget", "--", sys.executable, SENDER, "over-budget")
    assert within.returncode == 0, within.stdout


@pytest.mark.parametrize("mode, verdict, status", [("ignores-410", "FAIL", 1), ("stops-at-410", "PASS", 0)])
def test_an_injected_fault_reaches_the_sender(mode, verdict, status):
    result = check("--inject", "Unregistered", "--only", "error.token-gone", "--", sys.executable, SENDER, mode)
    assert result.returncode == status, result.stdout + result.stderr
    assert verdicts(result.stdout)["error.token-gone"] == verdict
    assert "injected: Unregistered" in result.stdout


@pytest.mark.parametrize("mode, verdict, status", [("goaway-gives-up", "FAIL", 1), ("goaway-reconnects", "PASS", 0)])
def test_a_sender_must_reconnect_after_goaway(mode, verdict, status):
    # A raw h2 sender: after the GOAWAY that ends every second answer, one opens a new connection, one gives up.
    result = check("--inject", "goaway:every=2", "--only", "error.goaway", "--", sys.executable, SENDER, mode)
    assert result.returncode == status, result.stdout + result.stderr
    assert verdicts(result.stdout)["error.goaway"] == verdict, result.stdout


@pytest.mark.parametrize("mode, verdict", [("one-at-a-time", "WARN"), ("pipelined", "PASS")])
def test_pipelining_is_graded_when_answers_are_slow_enough_to_tell(mode, verdict):
    # Twelve pushes due at once, each answer held 30 ms by an injected delay: the sequential sender is warned.
    result = check("--inject", "delay=30", "--only", "connection", "--", sys.executable, SENDER, mode)
    assert result.returncode == 0, result.stdout + result.stderr
    rules = verdicts(result.stdout)
    assert rules["connection.pipelining"] == verdict, result.stdout
    assert rules["connection.streams"] == "PASS" and rules["connection.reuse"] == "PASS"
    if verdict == "WARN":
        strict = check("--strict", "--inject", "delay=30", "--only", "connection.pipelining", "--", sys.executable, SENDER, mode)
        assert strict.returncode == 1 and "FAILED: connection.pipelining" in strict.stdout


def test_the_example_service_has_one_bug_and_the_check_names_it():
    result = check("--activity-source", "examples/DeliveryActivity.swift", "--", sys.executable, EXAMPLE)
    assert result.returncode == 1, result.stdout + result.stderr
    rules = verdicts(result.stdout)
    assert [rule for rule, verdict in rules.items() if verdict == "FAIL"] == ["device.after-end"]
    fixed = check("--strict", "--activity-source", "examples/DeliveryActivity.swift", "--", sys.executable, EXAMPLE, "--fixed")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr


def test_the_command_gets_the_mock_environment(tmp_path):
    dump = tmp_path / "env.json"
    code = "import json,os,sys; json.dump({k: v for k, v in os.environ.items() if k.startswith('APNS_MOCK_')}, open(sys.argv[1], 'w'))"
    result = check("--", sys.executable, "-c", code, str(dump), cwd=tmp_path)
    env = json.loads(dump.read_text())
    env.pop("APNS_MOCK_BIN", None)  # the test suite's own variable, inherited
    assert set(env) == {"APNS_MOCK_URL", "APNS_MOCK_HOST", "APNS_MOCK_PORT", "APNS_MOCK_CA_FILE", "APNS_MOCK_TEAM_ID",
                        "APNS_MOCK_KEY_ID", "APNS_MOCK_KEY_FILE", "APNS_MOCK_TOPIC", "APNS_MOCK_ADMIN_URL"}
    assert env["APNS_MOCK_URL"] == "https://localhost:" + env["APNS_MOCK_PORT"]
    assert os.path.isabs(env["APNS_MOCK_CA_FILE"]) and os.path.exists(env["APNS_MOCK_CA_FILE"])
    assert os.path.isabs(env["APNS_MOCK_KEY_FILE"]) and os.path.exists(env["APNS_MOCK_KEY_FILE"])
    assert env["APNS_MOCK_TOPIC"] == "com.example.app"
    assert result.returncode == 1 and "no request arrived" in result.stdout, "a sender that sent nothing does not pass"


def test_exit_status_two_when_the_runner_cannot_run():
    assert check("--", "no-such-command-here").returncode == 2
    assert "command not found" in check("--", "no-such-command-here").stderr
    assert check("--inject", "Unregisterd:5%", "--", "true").returncode == 2
    assert check().returncode == 2, "no command"


def test_a_failing_command_fails_the_check_and_says_so():
    result = check("--", sys.executable, "-c", "import sys; sys.exit(3)")
    assert result.returncode == 1
    assert "the command itself failed (exit status 3)" in result.stdout


def test_reports_json_junit_and_html(tmp_path):
    paths = {kind: tmp_path / f"report.{kind}" for kind in ("json", "xml", "html")}
    result = check("--json", str(paths["json"]), "--junit", str(paths["xml"]), "--html", str(paths["html"]),
                   "--", sys.executable, SENDER, "bad-token")
    assert result.returncode == 1
    report = json.loads(paths["json"].read_text())
    assert report["result"] == "fail" and report["exitStatus"] == 1
    status_rule = next(rule for rule in report["rules"] if rule["id"] == "accepted.status")
    assert status_rule["verdict"] == "fail" and "BadDeviceToken" in status_rule["findings"][0]["message"]
    assert any("curl --http2" in request["curl"] for request in report["requests"])
    tree = ElementTree.parse(paths["xml"])
    cases = list(tree.getroot().iter("testcase"))
    assert cases and all(case.get("name") for case in cases)
    failed = [case.get("name") for case in cases if case.find("failure") is not None]
    assert failed == ["accepted.status: Accepted by APNs"]
    html = paths["html"].read_text()
    assert "BadDeviceToken" in html and "curl --http2" in html and "/3/device/not-a-token" in html


MAKE_JWT = ("import jwt,os,time; e=os.environ; print(jwt.encode({'iss': e['APNS_MOCK_TEAM_ID'], 'iat': int(time.time())}, "
            "open(e['APNS_MOCK_KEY_FILE']).read(), algorithm='ES256', headers={'kid': e['APNS_MOCK_KEY_ID']}))")


def test_the_curl_line_of_a_failure_reproduces_it(tmp_path):
    report = tmp_path / "report.json"
    first = check("--json", str(report), "--", sys.executable, SENDER, "bad-token")
    assert first.returncode == 1
    data = json.loads(report.read_text())
    failed_id = next(rule for rule in data["rules"] if rule["id"] == "accepted.status")["findings"][0]["requests"][0]
    line = next(request["curl"] for request in data["requests"] if request["id"] == failed_id)
    # The line runs as the command of a second check: same request, same answer, same failed rule.
    again = check("--json", str(report), "--", "/bin/sh", "-c", f'JWT=$("{sys.executable}" -c "{MAKE_JWT}") && {line}')
    assert again.returncode == 1, again.stdout + again.stderr
    replayed = json.loads(report.read_text())
    assert [(r["status"], r["reason"], r["path"]) for r in replayed["requests"]] == [(400, "BadDeviceToken", "/3/device/not-a-token")]


def test_skip_leaves_a_rule_out_of_the_verdict():
    result = check("--skip", "accepted.status", "--", sys.executable, SENDER, "bad-token")
    assert "accepted.status" not in verdicts(result.stdout), result.stdout
    assert result.returncode == 0, "the only failing rule was skipped"
    only = check("--only", "auth", "--skip", "auth.refresh", "--", sys.executable, SENDER, "good")
    assert set(verdicts(only.stdout)) == {"auth.es256", "auth.reuse", "auth.expired-retry"}, only.stdout


def test_the_junit_report_counts_what_it_contains(tmp_path):
    junit = tmp_path / "report.xml"
    check("--strict", "--junit", str(junit), "--", sys.executable, SENDER, "string-iat")
    root = ElementTree.parse(junit).getroot()
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    assert suites
    for suite in suites:
        cases = list(suite.iter("testcase"))
        assert int(suite.get("tests")) == len(cases)
        assert int(suite.get("failures", "0")) == sum(case.find("failure") is not None for case in cases)
        assert int(suite.get("skipped", "0")) == sum(case.find("skipped") is not None for case in cases)
        assert all(case.get("name") and case.get("classname") for case in cases)


def test_list_shows_the_rules_without_running():
    result = check("--list")
    assert result.returncode == 0
    assert "error.token-gone" in result.stdout and "A-TOKEN" in result.stdout


# -- apns-mock conformance sender --------------------------------------------------------------------------------

SCENARIO_SENDER = str(pathlib.Path(__file__).parent / "helpers" / "scenario_sender.py")


def sender_mode(*args):
    return subprocess.run([BINARY, "conformance", "sender", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=TIMEOUT)


def test_a_well_behaved_library_passes_every_scenario(tmp_path):
    report = tmp_path / "sender.json"
    result = sender_mode("--adapter", f"{sys.executable} {SCENARIO_SENDER} good", "--json", str(report),
                         "--min-backoff-ms", "900")
    assert result.returncode == 0, result.stdout + result.stderr
    rules = {rule["id"]: rule["verdict"] for rule in json.loads(report.read_text())["rules"]}
    for graded in ("unregistered-token/error.token-gone", "service-unavailable/error.transient",
                   "expired-provider-token/auth.expired-retry", "permanent-error/error.permanent",
                   "alerts-burst/connection.reuse", "live-activity-lifecycle/device.timestamps"):
        assert rules[graded] == "pass", (graded, result.stdout)


@pytest.mark.parametrize("mode, rule", [
    ("keeps-pushing-to-410", "unregistered-token/error.token-gone"),
    ("drops-on-503", "service-unavailable/error.transient"),
    ("keeps-expired-token", "expired-provider-token/auth.expired-retry"),
])
def test_a_library_that_mishandles_an_answer_fails_the_scenario(mode, rule):
    scenario = rule.split("/")[0]
    result = sender_mode("--adapter", f"{sys.executable} {SCENARIO_SENDER} {mode}", "--scenario", scenario,
                         "--min-backoff-ms", "900")
    assert result.returncode == 1, result.stdout + result.stderr
    assert verdicts(result.stdout)[rule] == "FAIL", result.stdout


def test_a_library_that_retries_at_once_is_warned():
    result = sender_mode("--adapter", f"{sys.executable} {SCENARIO_SENDER} retries-without-backoff", "--scenario",
                         "service-unavailable", "--min-backoff-ms", "900")
    assert result.returncode == 0, result.stdout + result.stderr
    assert verdicts(result.stdout)["service-unavailable/error.transient"] == "WARN", result.stdout


def test_the_curl_recipe_opens_a_connection_per_push():
    result = sender_mode("--adapter", "curl", "--scenario", "alerts-burst")
    assert result.returncode == 1, result.stdout + result.stderr
    rules = verdicts(result.stdout)
    assert rules["alerts-burst/connection.reuse"] == "FAIL"
    assert rules["alerts-burst/auth.reuse"] == "PASS" and rules["alerts-burst/accepted.status"] == "PASS"


def test_sender_mode_lists_and_refuses_an_unknown_adapter():
    listing = sender_mode("--list")
    assert listing.returncode == 0
    assert "alerts-burst" in listing.stdout and "aioapns" in listing.stdout
    assert sender_mode("--adapter", "no-such-adapter-or-command").returncode == 2
    assert sender_mode().returncode == 2, "no adapter"
