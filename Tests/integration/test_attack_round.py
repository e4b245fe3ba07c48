"""The attack round and the crash cycles in their short form (`make stress` and `make crash-test N=…` run the
full ones): each script exits non-zero when an attack did not hold or an acknowledged delivery was lost."""
import os
import pathlib
import subprocess
import sys

from conftest import BINARY

STRESS = pathlib.Path(__file__).resolve().parents[1] / "stress"


def run(script, *args):
    result = subprocess.run([sys.executable, str(STRESS / script), *args], capture_output=True, timeout=600,
                            env={**os.environ, "APNS_MOCK_BIN": BINARY})
    output = result.stdout.decode(errors="replace") + result.stderr.decode(errors="replace")
    print(output)
    return result.returncode, output


def test_every_attack_of_the_short_round_holds_with_a_normal_client_served_alongside():
    status, output = run("attack_round.py", "--short")
    assert status == 0, output
    assert "all 14 attacks held" in output


def test_three_kill_9_cycles_under_load_lose_no_acknowledged_delivery():
    status, output = run("crash_test.py", "3")
    assert status == 0, output
    assert "crash test passed: 3 cycles" in output and ", 0 lost," in output
