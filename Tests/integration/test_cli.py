"""The command line as a user runs it: keygen -> serve --key, then deliveries and explain against the running
server and against the store file."""
import json
import os
import re
import subprocess

from conftest import BINARY
from helpers.h2client import H2Client
from helpers.tokens import pyjwt_token


def run(*args, env=None):
    result = subprocess.run([BINARY, *args], capture_output=True, timeout=30,
                            env={**os.environ, "NO_COLOR": "1", **(env or {})})
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout.decode()


def test_keygen_key_serves_and_deliveries_and_explain_tell_why(start_server, tmp_path):
    output = run("keygen", "--team", "TEAM999999", "--out", str(tmp_path))
    flag = re.search(r"--key (TEAM999999:(\w{10}):(\S+\.p8))", output)
    assert flag, output
    key_id, key_path = flag.group(2), flag.group(3)
    server = start_server("--key", flag.group(1), "--topic", "TEAM999999:com.mine.app")

    client = H2Client(server.tls_port, ca=server.ca_path)
    token = pyjwt_token(team="TEAM999999", key_id=key_id, key_path=__import__("pathlib").Path(key_path))
    headers = [("authorization", f"bearer {token}"), ("apns-push-type", "liveactivity")]
    ok = client.response(client.request("/3/device/" + "ab" * 80, headers + [("apns-topic", "com.mine.app.push-type.liveactivity")],
                                        b'{"aps":{"timestamp":1767225600,"event":"update","content-state":{}}}'))
    bad = client.response(client.request("/3/device/" + "ab" * 80, headers + [("apns-topic", "com.mine.app")],
                                         b'{"aps":{"timestamp":1767225600,"event":"update","content-state":{}}}'))
    client.close()
    assert (ok.status, bad.status) == (200, 400)
    rejected_id = bad.header("apns-id")

    lines = run("deliveries", "--admin-port", str(server.admin_port), "--json").strip().splitlines()
    records = [json.loads(line) for line in lines]
    assert {record["status"] for record in records} == {200, 400}
    table = run("deliveries", "--admin-port", str(server.admin_port), "--rejected")
    assert "DeviceTokenNotForTopic" in table and "200" not in table.split("\n", 1)[1]

    explanation = run("explain", rejected_id, "--admin-port", str(server.admin_port))
    assert "DeviceTokenNotForTopic" in explanation
    assert ".push-type.liveactivity" in explanation, "the explanation says what to change"

    assert server.stop() == 0
    offline = run("explain", rejected_id, "--data-dir", server.data_dir)
    assert "DeviceTokenNotForTopic" in offline
