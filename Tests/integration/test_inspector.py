"""Drives the web inspector in headless Chromium through the Chrome DevTools Protocol (stdlib only: a tiny
WebSocket client below), against a real `apns-mock serve` started by the `server` fixture (conftest.py).

Checks: the page loads, a rejected push sent after loading appears without a reload with
its explanation, and an HTML-laden payload is shown as text and never executes.
"""
import base64
import json
import os
import re
import select
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import time
import urllib.request

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


class WebSocket:
    """Just enough RFC 6455 for CDP: client-masked text frames out, unmasked frames in."""

    def __init__(self, url):
        match = re.match(r"ws://([^/:]+):(\d+)(/.*)", url)
        host, port, path = match.group(1), int(match.group(2)), match.group(3)
        self.sock = socket.create_connection((host, port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        response = b""
        while b"\r\n\r\n" not in response:
            response += self.sock.recv(4096)
        head, self.buffer = response.split(b"\r\n\r\n", 1)
        assert b" 101 " in head.split(b"\r\n")[0], head

    def send(self, text):
        data = text.encode()
        header = bytearray([0x81])
        if len(data) < 126:
            header.append(0x80 | len(data))
        elif len(data) < 65536:
            header.append(0x80 | 126)
            header += struct.pack(">H", len(data))
        else:
            header.append(0x80 | 127)
            header += struct.pack(">Q", len(data))
        mask = os.urandom(4)
        self.sock.sendall(bytes(header) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("websocket closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self):
        message = b""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(length)
            message += payload
            if first & 0x80:
                return message.decode()


class Browser:
    """Headless Chromium with one page, driven over CDP."""

    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="apns-inspector-")
        self.process = subprocess.Popen(
            [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--remote-debugging-port=0", f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            start_new_session=True)  # its own process group: close() kills the helpers Chromium starts too
        port = None
        deadline = time.time() + 30
        while time.time() < deadline and port is None:
            line = self.process.stderr.readline()
            found = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if found:
                port = int(found.group(1))
        assert port, "chromium did not start its DevTools endpoint"
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = next(t for t in targets if t["type"] == "page")
        self.ws = WebSocket(page["webSocketDebuggerUrl"])
        self.next_id = 0
        self.call("Page.enable")
        self.call("Runtime.enable")

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.receive())
            if message.get("id") == ident:
                assert "error" not in message, message
                return message.get("result", {})

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        assert "exceptionDetails" not in result, result
        return result["result"].get("value")

    def wait_for(self, expression, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.2)
        raise AssertionError(f"timed out waiting for {expression}")

    def close(self):
        """Kills Chromium's whole process group (its zygote and renderers outlived the main process and wrote into
        the profile after it was removed), waits for each of them to exit, then removes the profile."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        wait_for_exit(group_members(self.process.pid), timeout=10)
        shutil.rmtree(self.profile, ignore_errors=True)


def group_members(group):
    """The pids of process group `group`'s processes (after SIGKILL none joins it)."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:
            members.append(int(entry))
    return members


def wait_for_exit(pids, timeout):
    """Waits on each process's pidfd, readable once it has exited (a zombie's at once), at most `timeout` seconds."""
    descriptors = []
    for pid in pids:
        try:
            descriptors.append(os.pidfd_open(pid))
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + timeout
    try:
        waiting = list(descriptors)
        while waiting and time.monotonic() < deadline:
            exited, _, _ = select.select(waiting, [], [], deadline - time.monotonic())
            waiting = [descriptor for descriptor in waiting if descriptor not in exited]
    finally:
        for descriptor in descriptors:
            os.close(descriptor)


@pytest.fixture
def browser():
    if CHROMIUM is None:
        pytest.fail("chromium is not installed (Debian package `chromium`)")
    browser = Browser()
    yield browser
    browser.close()


def send_push(server, token, payload, headers=()):
    """POST a push over h2c with curl (HTTP/2 prior knowledge); returns the HTTP status."""
    command = ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--http2-prior-knowledge",
               "-X", "POST", "--data-binary", payload, "-H", "apns-topic: com.example.app",
               "-H", "apns-push-type: alert"]
    for header in headers:
        command += ["-H", header]
    command.append(f"http://127.0.0.1:{server.h2c_port}/3/device/{token}")
    return int(subprocess.run(command, capture_output=True, text=True, timeout=30).stdout or 0)


ROW_FOR_TOKEN = """(() => {{
  const row = [...document.querySelectorAll('#deliveries tbody tr')]
    .find(r => r.querySelector('td[title="{token}"]'));
  if (!row) return null;
  return {{ verdict: row.children[2].textContent, reason: row.children[3].textContent,
           explanation: row.children[6].textContent, id: row.getAttribute('data-id') }};
}})()"""


def test_a_rejected_push_appears_live_with_its_explanation(server, browser):
    browser.call("Page.navigate", url=server.admin_url + "/")
    browser.wait_for("document.getElementById('status')?.textContent === 'live'")
    token = "ab" * 32
    # No authorization header: APNs answers 403 MissingProviderToken.
    status = send_push(server, token, '{"aps":{"alert":"hello"}}')
    assert status == 403
    row = browser.wait_for(ROW_FOR_TOKEN.format(token=token))
    assert "rejected" in row["verdict"]
    assert row["reason"] == "MissingProviderToken"
    assert row["explanation"].strip() != ""
    browser.evaluate(f"document.querySelector('tr[data-id=\"{row['id']}\"]').click()")
    explanation = browser.wait_for("document.getElementById('detail-explanation')?.textContent")
    assert explanation == row["explanation"]
    assert browser.evaluate("document.querySelector('#detail .fix')?.textContent || ''").startswith("How to fix")


def test_html_in_a_payload_is_shown_as_text_and_never_runs(server, browser):
    browser.call("Page.navigate", url=server.admin_url + "/")
    browser.wait_for("document.getElementById('status')?.textContent === 'live'")
    token = "cd" * 32
    hostile = ('{"aps":{"alert":"<img src=x onerror=\\"window.__pwned=1\\">"},'
               '"note":"<script>window.__pwned=2</script>"}')
    send_push(server, token, hostile)
    row = browser.wait_for(ROW_FOR_TOKEN.format(token=token))
    browser.evaluate(f"document.querySelector('tr[data-id=\"{row['id']}\"]').click()")
    shown = browser.wait_for("document.getElementById('detail-payload')?.textContent")
    assert '<img src=x onerror=\\"window.__pwned=1\\">' in shown or '<img src=x onerror="window.__pwned=1">' in shown
    assert "<script>window.__pwned=2</script>" in shown
    time.sleep(0.5)
    assert browser.evaluate("typeof window.__pwned") == "undefined"
    assert browser.evaluate("document.querySelectorAll('main img, main script').length") == 0
