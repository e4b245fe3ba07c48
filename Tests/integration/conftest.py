"""Starts the real `apns-mock serve` binary for each test that asks for it, on loopback with ports chosen by the
kernel, and stops it with SIGTERM (graceful shutdown must exit 0)."""
import atexit
import json
import os
import pathlib
import shutil
import signal
import subprocess
import tempfile
import threading
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
CERTS = REPO / "certs"
CA = str(CERTS / "dev-ca.pem")
BINARY = os.environ.get("APNS_MOCK_BIN", str(REPO / ".build" / "debug" / "apns-mock"))
START_TIMEOUT = 20


class MockServer:
    def __init__(self, args, data_dir=None):
        if data_dir is None:
            data_dir = tempfile.mkdtemp(prefix="apns-mock-test-")
            # Kept until the test run ends (a test may restart a server on the same directory), then removed.
            atexit.register(shutil.rmtree, data_dir, ignore_errors=True)
        self.data_dir = data_dir
        self.killed = False
        command = [BINARY, "serve", "--port", "0", "--h2c-port", "0", "--admin-port", "0",
                   "--data-dir", self.data_dir] + list(args)
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO)
        self.stderr_lines = []
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.announcement = self._read_announcement()
        self.host = self.announcement["host"]
        self.tls_port = self.announcement["tls_port"]
        self.h2c_port = self.announcement["h2c_port"]
        self.production_port = self.announcement.get("production_port")
        self.admin_port = self.announcement["admin_port"]
        self.admin_url = f"http://127.0.0.1:{self.admin_port}" if self.admin_port else None
        self.ca_path = CA

    def _drain_stderr(self):
        for line in self.process.stderr:
            self.stderr_lines.append(line.decode(errors="replace"))

    def _read_announcement(self):
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                if self.process.poll() is not None:
                    raise RuntimeError(f"apns-mock exited with {self.process.returncode}: {''.join(self.stderr_lines)}")
                continue
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if message.get("event") == "listening":
                threading.Thread(target=lambda: [None for _ in self.process.stdout], daemon=True).start()
                return message
        self.process.kill()
        raise RuntimeError("apns-mock did not announce its ports in time")

    def kill(self):
        """SIGKILL, as a crash would; the fixture then expects no clean exit."""
        self.killed = True
        self.process.kill()
        self.process.wait(timeout=10)

    def stop(self, timeout=10):
        """SIGTERM; returns the exit status (SIGKILL after `timeout` seconds)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
                raise AssertionError("apns-mock did not exit within %ss of SIGTERM" % timeout)
        return self.process.returncode

    @property
    def stderr(self):
        return "".join(self.stderr_lines)


@pytest.fixture
def start_server(request):
    """Factory: start_server(*extra_args) -> MockServer; every server is stopped (and must exit 0) at teardown."""
    servers = []

    def start(*args, data_dir=None):
        server = MockServer(args, data_dir=data_dir)
        servers.append(server)
        return server

    yield start
    for server in servers:
        if server.killed:
            continue
        status = server.stop()
        if request.node.rep_call.failed if hasattr(request.node, "rep_call") else False:
            print("--- apns-mock stderr ---\n" + server.stderr)
        assert status == 0, f"apns-mock exited with {status} after SIGTERM; stderr:\n{server.stderr}"


@pytest.fixture
def server(start_server):
    return start_server()


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, "rep_" + report.when, report)
