"""Graceful shutdown with work in progress: SIGTERM while an admin long poll is parked. The server answers the
poll (503, the admin API is stopping) before it exits, and exits 0 well before the poll's own 60 s timeout."""
import pathlib
import subprocess
import time

LONG_POLL_THREAD = "apns-admin-poll"  # the name AdminServer gives each long poll's thread (15 bytes, as Linux keeps)


def thread_names(pid):
    names = []
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        try:
            names.append((task / "comm").read_text().strip())
        except OSError:  # the thread ended meanwhile
            pass
    return names


def wait_for_thread(pid, name, checks=4000):
    """The event: a thread called `name` exists in process `pid` (checked every 5 ms, at most `checks` times)."""
    for _ in range(checks):
        if name in thread_names(pid):
            return True
        time.sleep(0.005)
    return False


def test_sigterm_answers_a_parked_long_poll_and_exits_0(start_server):
    server = start_server()
    curl = subprocess.Popen(
        ["curl", "-sS", "-i", f"{server.admin_url}/api/deliveries/wait?timeout_ms=60000"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert wait_for_thread(server.process.pid, LONG_POLL_THREAD), "the long poll never parked"
        # Well under the poll's 60 s: a server waiting for the poll to time out fails here.
        assert server.stop(timeout=30) == 0, server.stderr
        output, errors = curl.communicate(timeout=30)
    finally:
        if curl.poll() is None:
            curl.kill()
    text = output.decode(errors="replace")
    assert curl.returncode == 0, f"curl got no answer: {errors.decode(errors='replace')}"
    assert text.startswith("HTTP/1.1 503"), text
    assert "the admin API is stopping" in text
