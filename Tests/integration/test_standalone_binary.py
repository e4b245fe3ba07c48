"""The binary alone, copied into an empty directory with no source tree, certs/ or resource bundle beside it, serves
(push port, admin API, inspector page), pushes, lints and checks; and bad numbers or paths on the command line are
one-line errors with exit 2 before anything starts, never a crash."""
import json
import os
import pathlib
import shutil
import subprocess
import urllib.request

import pytest

from conftest import BINARY

TOKEN = "ab" * 32


@pytest.fixture
def lone(tmp_path):
    """The binary copied alone into an empty directory, run from there with a home of its own."""
    directory = tmp_path / "lone"
    directory.mkdir()
    binary = directory / "apns-mock"
    shutil.copy2(BINARY, binary)
    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path / "home"),
                   "LD_LIBRARY_PATH": os.environ.get("LD_LIBRARY_PATH", "")}
    return directory, binary, environment


def run(arguments, cwd, env, timeout=60, input_text=None):
    return subprocess.run(arguments, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                          input=input_text)


def test_a_copied_binary_serves_pushes_lints_and_checks_from_an_empty_directory(lone):
    directory, binary, env = lone
    server = subprocess.Popen([str(binary), "serve", "--port", "0", "--admin-port", "0", "--in-memory"],
                              cwd=directory, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        announcement = None
        for line in server.stdout:  # the start-up line, or the end of output if it exited
            if '"listening"' in line:
                announcement = json.loads(line)
                break
        assert announcement, f"serve did not start: {server.stderr.read() if server.poll() is not None else ''}"
        admin = f"http://127.0.0.1:{announcement['admin_port']}"
        with urllib.request.urlopen(admin + "/", timeout=10) as page:
            assert page.status == 200 and b"<html" in page.read().lower()
        with urllib.request.urlopen(admin + "/inspector.js", timeout=10) as script:
            assert script.status == 200 and len(script.read()) > 1000
        pushed = run([str(binary), "push", "--url", f"https://localhost:{announcement['tls_port']}",
                      "--admin-url", admin, "--device-token", TOKEN, "--alert-body", "hello"], directory, env)
        assert pushed.returncode == 0, pushed.stderr
        assert pushed.stdout.startswith("200"), pushed.stdout
        with urllib.request.urlopen(admin + "/api/health", timeout=10) as health:
            assert json.loads(health.read())["deliveries"] == 1
    finally:
        server.terminate()
        assert server.wait(timeout=30) == 0

    linted = run([str(binary), "lint", "-"], directory, env, input_text='{"aps":{"alert":"x"}}')
    assert linted.returncode == 0 and "ACCEPTED" in linted.stdout, linted.stdout + linted.stderr

    sender = directory / "send.sh"
    sender.write_text(f'#!/bin/sh\nexec "{binary}" push --device-token {TOKEN} --alert-body hello\n')
    sender.chmod(0o755)
    checked = run([str(binary), "check", "--", str(sender)], directory, env, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "OK: every rule holds" in checked.stdout
    # Nothing was written beside the binary but the sender: the TEST-ONLY credentials went to the user's cache.
    assert sorted(path.name for path in directory.iterdir()) == ["apns-mock", "send.sh"]
    assert (pathlib.Path(env["HOME"]) / ".cache/apns-mock/test-only-certs/dev-ca.pem").exists()


@pytest.mark.parametrize("arguments, message", [
    (["serve", "--port", "70000"], "--port"),  # a port: crashed with SIGILL
    (["serve", "--admin-port", "99999"], "--admin-port"),  # listened on 65535
    (["serve", "--h2c-port", "-1"], "--h2c-port"),
    (["check", "--port", "65536", "--", "touch", "ran"], "--port"),  # the command must not run
    (["serve", "--threads", "0"], "--threads"),  # a count
    (["serve", "--idle-timeout", "inf"], "idleTimeoutSeconds"),  # a duration
    (["serve", "--stream-timeout=0"], "streamTimeoutSeconds"),
    (["serve", "--config", "/nonexistent/apns-mock.json"], "/nonexistent/apns-mock.json"),  # a path
    (["serve", "--tls-cert", "/nonexistent/server.pem"], "/nonexistent/server.pem"),
    (["push", "--repeat", "0", "--device-token", TOKEN], "--repeat"),
])
def test_a_bad_number_or_path_is_a_one_line_error_with_exit_2_before_anything_starts(lone, arguments, message):
    directory, binary, env = lone
    result = run([str(binary)] + arguments + (["--in-memory"] if arguments[0] == "serve" else []), directory, env)
    assert result.returncode == 2, f"exit {result.returncode}: {result.stderr}"
    lines = result.stderr.strip().splitlines()
    assert lines and message in lines[0], result.stderr
    assert "Illegal instruction" not in result.stderr and "Fatal error" not in result.stderr
    assert not (directory / "ran").exists()
