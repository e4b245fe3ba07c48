"""`scripts/bench --check` judges figures against the committed thresholds: one row per threshold, exit 0 only when
every one is met. These tests feed it figures (`--figures`, no measuring: no callgrind, no h2load) and check the
verdict and the exit status; the committed thresholds file is checked for what docs/performance.md says of it."""
import json
import pathlib
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]
BENCH = REPO / "scripts" / "bench"
COMMITTED = REPO / "scripts" / "bench-thresholds.json"

THRESHOLDS = {
    "measured_on": "test",
    "instructions": {"short": 2000, "long": 12000, "tokens": "many", "margin": 0.10, "configurations": [
        {"kind": "la-update", "store": "in-memory", "baseline": 1000, "limit": 1100},
        {"kind": "alert", "store": "sqlite", "baseline": 2000, "limit": 2200},
    ]},
    "h2load": {"command": "la-update/many/c4", "store": "sqlite", "floor": 0.35, "runs": 3, "requests": 1000},
}


def judged(tmp_path, figures, thresholds=THRESHOLDS):
    (tmp_path / "thresholds.json").write_text(json.dumps(thresholds))
    (tmp_path / "figures.json").write_text(json.dumps(figures))
    result = subprocess.run([sys.executable, str(BENCH), "--check", "--thresholds", str(tmp_path / "thresholds.json"),
                             "--figures", str(tmp_path / "figures.json")], capture_output=True, text=True, timeout=60)
    table = [line for line in result.stdout.splitlines() if line.startswith("| ")][2:]  # after the header rows
    rows = {line.split(" | ")[0].lstrip("| "): line.rstrip(" |").split(" | ")[-1] for line in table}
    return result, rows


def figures(la=1050, alert=2100, ratio=0.40, errors=0):
    return {"instructions": {"la-update/in-memory": la, "alert/sqlite": alert},
            "h2load": {"nghttpd": [100_000.0], "apns-mock": [ratio * 100_000], "ratio": ratio, "errors": errors}}


def test_every_threshold_met_exits_0_with_a_row_each(tmp_path):
    result, rows = judged(tmp_path, figures(la=1100, ratio=0.35))  # on the limit is within it
    assert result.returncode == 0, result.stdout + result.stderr
    assert rows == {"instructions per push, la-update, in-memory": "met",
                    "instructions per push, alert, sqlite": "met",
                    "h2load la-update/many/c4, apns-mock sqlite ÷ nghttpd req/s": "met"}, result.stdout


def test_instructions_over_the_limit_exit_1_naming_the_row(tmp_path):
    result, rows = judged(tmp_path, figures(alert=2201))
    assert result.returncode == 1, result.stdout
    assert rows["instructions per push, alert, sqlite"] == "NOT MET"
    assert rows["instructions per push, la-update, in-memory"] == "met"
    assert "2 of 3 thresholds met; 1 NOT MET" in result.stdout


def test_ratio_under_the_floor_exits_1(tmp_path):
    result, rows = judged(tmp_path, figures(ratio=0.34))
    assert result.returncode == 1, result.stdout
    assert rows["h2load la-update/many/c4, apns-mock sqlite ÷ nghttpd req/s"] == "NOT MET"


def test_an_h2load_run_in_error_fails_the_ratio_even_when_the_best_runs_meet_it(tmp_path):
    result, rows = judged(tmp_path, figures(ratio=0.50, errors=1))
    assert result.returncode == 1, result.stdout
    assert rows["h2load la-update/many/c4, apns-mock sqlite ÷ nghttpd req/s"] == "NOT MET"


def test_a_configuration_not_measured_is_not_met(tmp_path):
    measured = figures()
    del measured["instructions"]["la-update/in-memory"]
    result, rows = judged(tmp_path, measured)
    assert result.returncode == 1, result.stdout
    assert "| instructions per push, la-update, in-memory | not measured |" in result.stdout


def test_the_json_output_judged_again_gives_the_same_verdict(tmp_path):
    (tmp_path / "thresholds.json").write_text(json.dumps(THRESHOLDS))
    (tmp_path / "figures.json").write_text(json.dumps(figures(alert=2201)))
    first = subprocess.run([sys.executable, str(BENCH), "--check", "--json", "--thresholds",
                            str(tmp_path / "thresholds.json"), "--figures", str(tmp_path / "figures.json")],
                           capture_output=True, text=True, timeout=60)
    assert first.returncode == 1, first.stdout + first.stderr
    (tmp_path / "earlier.json").write_text(first.stdout)
    again = subprocess.run([sys.executable, str(BENCH), "--check", "--thresholds", str(tmp_path / "thresholds.json"),
                            "--figures", str(tmp_path / "earlier.json")], capture_output=True, text=True, timeout=60)
    assert again.returncode == 1 and "2 of 3 thresholds met; 1 NOT MET" in again.stdout, again.stdout + again.stderr


def test_the_committed_thresholds_are_todays_figures_plus_the_margin(tmp_path):
    committed = json.loads(COMMITTED.read_text())
    settings = committed["instructions"]
    assert {(row["kind"], row["store"]) for row in settings["configurations"]} == {
        ("la-update", "in-memory"), ("la-update", "sqlite"), ("alert", "in-memory"), ("alert", "sqlite"),
        ("rejected", "in-memory")}
    for row in settings["configurations"]:
        assert row["limit"] == round(row["baseline"] * (1 + settings["margin"])), row
    assert settings["margin"] == 0.10
    assert committed["h2load"]["floor"] == 0.35
    # Its own baselines meet it; 11 % more instructions in one configuration does not.
    baselines = {"instructions": {f"{row['kind']}/{row['store']}": row["baseline"]
                                  for row in settings["configurations"]},
                 "h2load": {"nghttpd": [1.0], "apns-mock": [0.35], "ratio": 0.35, "errors": 0}}
    result, _ = judged(tmp_path, baselines, committed)
    assert result.returncode == 0, result.stdout
    baselines["instructions"]["la-update/sqlite"] = round(baselines["instructions"]["la-update/sqlite"] * 1.11)
    result, rows = judged(tmp_path, baselines, committed)
    assert result.returncode == 1 and rows["instructions per push, la-update, sqlite"] == "NOT MET", result.stdout
