"""`apns-mock conformance server URL`: the case table replayed against a live endpoint. Against our own server
every gradable case passes (TLS and h2c); against an HTTP/1.1-only server (`python -m http.server`) it says so and
exits 1; with nothing listening it cannot run (exit 2)."""
import json
import socket
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

from conftest import BINARY, REPO

TIMEOUT = 180
TABLE = json.loads((REPO / "Conformance" / "cases" / "device-push.json").read_text())


def conformance_server(*args):
    return subprocess.run([BINARY, "conformance", "server", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=TIMEOUT)


def test_our_server_passes_every_gradable_case(server, tmp_path):
    report_path, junit_path = tmp_path / "report.json", tmp_path / "junit.xml"
    result = conformance_server(f"https://localhost:{server.tls_port}", "--admin-url", server.admin_url,
                                "--json", str(report_path), "--junit", str(junit_path))
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(report_path.read_text())
    assert report["failed"] == 0
    assert report["passed"] >= 90, report["passed"]
    assert report["passed"] + report["skipped"] == len(TABLE["cases"])
    skipped = [case for case in report["cases"] if case["verdict"] == "skip"]
    assert all(case["messages"] and case["messages"][0].startswith("needs") for case in skipped)
    suite = ElementTree.parse(junit_path).getroot()
    cases = suite.findall(".//testcase")
    assert len(cases) == len(TABLE["cases"]) and all(case.get("name") for case in cases)


def test_h2c_and_a_prefix_selection(server):
    result = conformance_server(f"http://127.0.0.1:{server.h2c_port}", "--only", "auth-", "--only", "ok-")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS  auth-MissingProviderToken" in result.stdout and "PASS  auth-TooManyProviderTokenUpdates" in result.stdout
    assert "PASS  ok-alert-64" in result.stdout and "badpath" not in result.stdout.lower()


def test_a_wrong_answer_fails_the_case(start_server, tmp_path):
    # A server whose rules reject background pushes at priority 10 (strict mode) is not APNs for that case.
    config = tmp_path / "strict.json"
    config.write_text(json.dumps({"rules": {"strict": ["background-priority-10"]}}))
    server = start_server("--config", str(config))
    result = conformance_server(f"https://localhost:{server.tls_port}", "--only", "background-priority-10")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "FAIL  background-priority-10" in result.stdout
    assert "status 400, expected 200" in result.stdout


def test_an_http11_only_server_is_reported_and_exits_1(tmp_path):
    http = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = http.stdout.readline()
        port = int(line.split("port ")[1].split()[0])
        result = conformance_server(f"http://127.0.0.1:{port}")
    finally:
        http.terminate()
        http.wait(timeout=10)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "FAIL  transport.http2" in result.stdout and "does not speak HTTP/2" in result.stdout
    assert "0 passed" in result.stdout


def test_nothing_listening_cannot_run():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = conformance_server(f"https://127.0.0.1:{port}")
    assert result.returncode == 2
    assert "cannot connect" in result.stderr


HTTPS_11_SERVER = """
import http.server, ssl, sys
server = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(sys.argv[1], sys.argv[2])
context.set_alpn_protocols(["http/1.1"])
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
"""


def test_a_tls_server_that_chooses_http11_in_alpn_is_reported(tmp_path):
    certs = REPO / "certs"
    http = subprocess.Popen([sys.executable, "-c", HTTPS_11_SERVER, str(certs / "server.pem"), str(certs / "server.key")],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(http.stdout.readline())
        graded = conformance_server(f"https://localhost:{port}")
        pushed = subprocess.run([BINARY, "push", "--url", f"https://localhost:{port}", "--device-token", "ab" * 32],
                                capture_output=True, text=True, cwd=REPO, timeout=TIMEOUT)
    finally:
        http.terminate()
        http.wait(timeout=10)
    assert graded.returncode == 1, graded.stdout + graded.stderr
    assert "FAIL  transport.http2" in graded.stdout and "chose http/1.1 in ALPN" in graded.stdout
    assert pushed.returncode == 2
    assert "speaks HTTP/1.1 only" in pushed.stderr


def test_outside_a_checkout_the_case_table_is_named_not_looked_up_in_the_build_tree(server, tmp_path):
    """The case table is a file of an apns-mock checkout: run elsewhere (as from the tarball), the command names
    the file it looked for and how to give one, instead of reading the tree the binary was built from."""
    result = subprocess.run([BINARY, "conformance", "server", f"https://localhost:{server.tls_port}"],
                            capture_output=True, text=True, cwd=tmp_path, timeout=TIMEOUT)
    assert result.returncode == 2, result.stdout + result.stderr
    assert str(tmp_path / "Conformance" / "cases" / "device-push.json") in result.stderr
    assert "--cases FILE" in result.stderr
