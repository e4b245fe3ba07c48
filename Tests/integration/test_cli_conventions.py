"""What a newcomer meets first: config files refused with file, line and column (exit 2); --version; one exit-code
scheme (0 ok, 1 not found, 2 usage/connection); the third verdict (200 · ignored) in `deliveries` and its
`--device` filter; piped output never cut; the JWT served as JSON objects."""
import json
import os
import subprocess
import time
import urllib.request

from conftest import BINARY
from helpers.h2client import H2Client
from helpers.tokens import pyjwt_token


def run(*args, env=None, cwd=None):
    return subprocess.run([BINARY, *args], capture_output=True, timeout=30, cwd=cwd,
                          env={**os.environ, "NO_COLOR": "1", **(env or {})})


def test_serve_with_a_trailing_comma_config_exits_2_naming_file_line_and_column(tmp_path):
    config = tmp_path / "bad.json"
    config.write_text('{\n  "port": 0,\n  "admin": {"port": 0},\n}\n')
    result = run("serve", "--config", str(config), "--in-memory")
    assert result.returncode == 2, result.stderr
    assert result.stderr.decode().strip() == (
        f"apns-mock: configuration {config}:4:1: trailing comma before '}}' (JSON allows no comma after the last member)")


def test_serve_with_a_misspelled_key_exits_2_with_did_you_mean(tmp_path):
    config = tmp_path / "typo.json"
    config.write_text('{"port": 0, "adminPort": 0}')
    result = run("serve", "--config", str(config), "--in-memory")
    assert result.returncode == 2
    assert f'configuration {config}:1:13: unknown key "adminPort" at the top level; did you mean "admin": {{"port": ...}}?' \
        in result.stderr.decode()


def test_serve_with_a_missing_config_is_one_clear_line(tmp_path):
    result = run("serve", "--config", str(tmp_path / "nope.json"), "--in-memory")
    assert result.returncode == 2
    text = result.stderr.decode()
    assert "nope.json: no such file" in text and "NSCocoaErrorDomain" not in text
    assert len(text.strip().splitlines()) == 1, text


def test_version_and_exit_codes():
    version = run("--version")
    assert version.returncode == 0 and version.stdout.decode().strip()[0].isdigit()
    # No server on this port: a connection error is 2.
    unreachable = run("deliveries", "--admin-port", "1")
    assert unreachable.returncode == 2, unreachable.stderr
    # A usage error is 2, not ArgumentParser's 64.
    assert run("deliveries", "--limit", "many").returncode == 2


def test_explain_of_an_unknown_delivery_exits_1_with_a_message(start_server):
    server = start_server()
    result = run("explain", "--admin-port", str(server.admin_port), "no-such-id")
    assert result.returncode == 1
    assert result.stderr.decode().strip() == "apns-mock: no delivery with apns-id or id no-such-id"
    assert "USAGE" not in result.stderr.decode()


def test_an_empty_list_says_so(start_server):
    server = start_server()
    result = run("deliveries", "--admin-port", str(server.admin_port))
    assert result.returncode == 0
    assert result.stdout.decode().strip() == "No deliveries (newest 50 looked at)."
    json_result = run("deliveries", "--admin-port", str(server.admin_port), "--json")
    assert json_result.stdout == b"" and b"No deliveries" in json_result.stderr


def test_an_ignored_live_activity_push_is_a_third_verdict_with_its_filter(start_server):
    server = start_server()
    client = H2Client(server.tls_port, ca=server.ca_path)
    headers = [("authorization", f"bearer {pyjwt_token()}"), ("apns-push-type", "liveactivity"),
               ("apns-topic", "com.example.app.push-type.liveactivity")]
    token = "cd" * 32
    now = int(time.time())
    for stamp in (now, now - 100):
        body = json.dumps({"aps": {"timestamp": stamp, "event": "update", "content-state": {}}}).encode()
        assert client.response(client.request("/3/device/" + token, headers, body)).status == 200
    client.close()

    api = f"{server.admin_url}/api/deliveries?device=ignored"
    ignored = json.load(urllib.request.urlopen(api))["deliveries"]
    assert [d["liveActivity"]["code"] for d in ignored] == ["ignoredOlderTimestamp"]
    # The JWT header and claims are JSON objects, not JSON text inside JSON.
    assert ignored[0]["providerToken"]["header"]["alg"] == "ES256"
    assert ignored[0]["providerToken"]["claims"]["iss"] == "TEAM123456"

    # Piped, with COLUMNS=80 as CI sets it: the table is not cut, and the ignored push reads "200 · ignored".
    table = run("deliveries", "--admin-port", str(server.admin_port), env={"COLUMNS": "80"}).stdout.decode()
    rows = table.strip().splitlines()
    assert len(rows) == 3, table
    assert "200 · ignored" in rows[2] and "200 · ignored" not in rows[1]
    explanation = ignored[0]["explanation"] if "explanation" in ignored[0] else ignored[0]["liveActivity"]["explanation"]
    assert rows[2].endswith(explanation) and len(rows[2]) > 80
    filtered = run("deliveries", "--admin-port", str(server.admin_port), "--device", "ignored").stdout.decode()
    assert len(filtered.strip().splitlines()) == 2 and "200 · ignored" in filtered


def test_keygen_writes_under_the_data_directory_not_the_working_directory(tmp_path):
    result = run("keygen", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    written = list((tmp_path / ".apns-mock" / "keys").glob("AuthKey_*.p8"))
    assert len(written) == 1 and not list(tmp_path.glob("*.p8"))
    assert (written[0].stat().st_mode & 0o777) == 0o600
    assert ".gitignore" in result.stdout.decode()
