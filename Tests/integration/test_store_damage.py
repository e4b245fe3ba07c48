"""What the store does and says when its own file is damaged (docs/reliability.md, "Store damage"). Each test makes
the damage itself, on a copy of a store a real server wrote, with sqlite3 or byte writes."""
import json
import os
import pathlib
import signal
import subprocess
import urllib.request

import pytest

from conftest import BINARY, REPO
from helpers import store_damage as damage

ROWS = 300


@pytest.fixture(scope="module")
def written_store():
    """A store of ROWS deliveries written by a real server, stopped cleanly; tests damage copies of it."""
    from conftest import MockServer
    server = MockServer([])
    try:
        apns_ids = damage.fill(server, ROWS)
    finally:
        assert server.stop() == 0
    yield server.data_dir, apns_ids


@pytest.fixture
def store_copy(written_store):
    directory = damage.copy_store(written_store[0])
    yield directory
    damage.remove(directory)


def get(server, path):
    with urllib.request.urlopen(server.admin_url + path, timeout=30) as response:
        return response.status, dict(response.headers), response.read()


def get_json(server, path):
    return json.loads(get(server, path)[2])


def cli_deliveries(*args):
    result = subprocess.run([BINARY, "deliveries", "--json", "--limit", str(ROWS * 2), *args], capture_output=True,
                            timeout=60, cwd=REPO)
    lines = [json.loads(line) for line in result.stdout.decode().splitlines() if line.strip()]
    return result.returncode, lines, result.stderr.decode(errors="replace")


@pytest.mark.parametrize("make_damage", [damage.replace_record, damage.flip_record_bytes],
                         ids=["record blob replaced", "64 bytes flipped in mid-file"])
def test_one_damaged_row_is_left_out_and_named_and_every_other_row_reads_back(store_copy, start_server, make_damage):
    bad = ROWS // 2
    make_damage(store_copy, bad)
    server = start_server(data_dir=store_copy)

    status, _, body = get(server, f"/api/deliveries?limit={ROWS}")
    listed = json.loads(body)
    assert status == 200
    assert sorted(record["id"] for record in listed["deliveries"]) == [i for i in range(1, ROWS + 1) if i != bad]
    assert [row["id"] for row in listed["undecodable"]] == [bad]

    health = get_json(server, "/api/health")
    assert health["status"] == "degraded" and str(bad) in health["degradedReason"]
    assert [row["id"] for row in health["undecodableDeliveries"]] == [bad]
    assert "apns_mock_store_degraded 1" in get(server, "/metrics")[2].decode()

    status, headers, body = get(server, "/api/deliveries/export")
    assert status == 200 and len(body.decode().splitlines()) == ROWS - 1
    assert headers["X-Undecodable-Deliveries"] == str(bad)

    searched = get_json(server, "/api/deliveries?q=n7&limit=1000")["deliveries"]
    assert {record["id"] for record in searched} >= {8, 71}  # "n7" and "n70".."n79" (ids are 1-based)

    assert get(server, f"/api/deliveries/{bad + 1}")[0] == 200
    with pytest.raises(urllib.error.HTTPError) as lookup:
        get(server, f"/api/deliveries/{bad}")
    assert f"delivery {bad} could not be decoded" in lookup.value.read().decode()

    code, lines, stderr = cli_deliveries("--admin-port", str(server.admin_port))
    assert code == 0 and len(lines) == ROWS - 1 and f"left out: {bad} (" in stderr

    check = json.loads(urllib.request.urlopen(urllib.request.Request(
        server.admin_url + "/api/store/check", data=b"{}", method="POST",
        headers={"Content-Type": "application/json"}), timeout=60).read())
    assert check["status"] == "damaged" and check["rows"] == ROWS and [r["id"] for r in check["undecodable"]] == [bad]


def test_the_cli_reads_a_store_file_with_a_damaged_row_and_names_it(store_copy):
    damage.replace_record(store_copy, 7)
    code, lines, stderr = cli_deliveries("--data-dir", store_copy)
    assert code == 0 and len(lines) == ROWS - 1 and "left out: 7 (" in stderr


@pytest.mark.parametrize("make_damage", [
    lambda directory: damage.overwrite_page(directory, damage.page_count(directory) // 2),
    damage.overwrite_header, damage.truncate_to_half, damage.random_bytes,
], ids=["a page overwritten", "bad header", "truncated file", "random bytes"])
def test_a_damaged_file_is_refused_naming_it_and_recover_salvages_its_readable_rows(
        store_copy, start_server, make_damage):
    make_damage(store_copy)
    before = damage.store_files(store_copy)
    path = os.path.join(store_copy, damage.STORE)

    code, stderr = damage.serve_refused(store_copy)
    assert code == 2, stderr
    assert f"the delivery store {path} is damaged" in stderr and "--recover" in stderr, stderr
    assert damage.store_files(store_copy)[damage.STORE] == before[damage.STORE]  # refused without a change

    server = start_server("--recover", data_dir=store_copy)
    line = damage.stderr_line(server, "recovered the delivery store")
    assert line, server.stderr
    kept = int(line.split("kept ")[1].split(" ")[0])
    lost = int(line.split("lost ")[1].split(" ")[0].rstrip(";,"))
    aside = [name for name in os.listdir(store_copy) if ".damaged-" in name and not name.endswith(("-wal", "-shm"))]
    assert len(aside) == 1 and open(os.path.join(store_copy, aside[0]), "rb").read() == before[damage.STORE]
    health = get_json(server, "/api/health")
    assert health["status"] == "ok" and health["deliveries"] == kept
    listed = get_json(server, f"/api/deliveries?limit={ROWS}")["deliveries"]
    assert len(listed) == kept
    assert kept + lost <= ROWS
    if make_damage is damage.truncate_to_half or "page" in line:
        assert kept > 0


def test_a_damaged_file_with_commits_in_its_wal_is_refused_before_anything_is_written_to_it(store_copy):
    damage.leave_wal_frames(store_copy)
    damage.overwrite_page(store_copy, damage.page_count(store_copy) // 2)
    files = damage.store_files(store_copy)
    code, stderr = damage.serve_refused(store_copy)
    assert code == 2 and "is damaged" in stderr, stderr
    after = damage.store_files(store_copy)
    # No checkpoint copied the WAL into the damaged file, and the WAL is as it was (SQLite may rebuild its -shm).
    assert after[damage.STORE] == files[damage.STORE] and after[damage.STORE + "-wal"] == files[damage.STORE + "-wal"]


def test_a_page_overwritten_is_recovered_keeping_every_row_outside_that_page(store_copy, start_server):
    damage.overwrite_page(store_copy, damage.page_count(store_copy) // 2)
    server = start_server("--recover", data_dir=store_copy)
    line = damage.stderr_line(server, "recovered the delivery store")
    assert line, server.stderr
    kept = int(line.split("kept ")[1].split(" ")[0])
    lost = int(line.split("lost ")[1].split(" ")[0].rstrip(";,"))
    # An 8 KiB page holds at most ~16 of these rows.
    assert kept >= ROWS - 20 and kept + lost == ROWS, line
    pushed = damage.fill(server, 1)
    assert get_json(server, f"/api/deliveries/{pushed[0]}")["apnsId"].lower() == pushed[0].lower()


def test_a_file_of_another_schema_version_is_moved_aside_unread_and_the_store_starts_empty(store_copy, start_server):
    """Not damage: another release's file. It is kept byte for byte under a name that says what it is."""
    damage.sql(store_copy, "PRAGMA user_version = 6")
    before = (pathlib.Path(store_copy) / damage.STORE).read_bytes()
    server = start_server(data_dir=store_copy)
    line = damage.stderr_line(server, "schema version 6")
    assert line and "moved aside" in line, server.stderr
    moved = [path for path in pathlib.Path(store_copy).glob(damage.STORE + ".v6-moved-*")
             if not path.name.endswith(("-wal", "-shm"))]
    assert len(moved) == 1 and str(moved[0]) in line
    assert moved[0].read_bytes() == before
    health = get_json(server, "/api/health")
    assert health["deliveries"] == 0
    assert any(str(moved[0]) in note for note in health["storeNotes"])
    pushed = damage.fill(server, 1)
    assert get_json(server, f"/api/deliveries/{pushed[0]}")["apnsId"].lower() == pushed[0].lower()


def test_frames_a_truncated_wal_drops_are_reported_when_the_store_opens(start_server):
    server = start_server()
    damage.fill(server, 50)
    server.kill()  # no checkpoint: the deliveries are in the WAL
    wal = pathlib.Path(server.data_dir) / (damage.STORE + "-wal")
    size = wal.stat().st_size
    assert size > damage.PAGE_SIZE * 4
    os.truncate(wal, size - 3000)  # the last commit loses the end of its last frame
    (pathlib.Path(server.data_dir) / "apns-mock.lock").unlink(missing_ok=True)
    again = start_server(data_dir=server.data_dir)
    assert "a partial frame of" in (damage.stderr_line(again, "write-ahead log") or ""), again.stderr
    notes = get_json(again, "/api/health")["storeNotes"]
    assert any("write-ahead log" in note for note in notes)


def test_the_inspector_status_dot_says_the_store_is_degraded_naming_the_row(store_copy, start_server):
    from test_inspector import CHROMIUM, Browser
    if CHROMIUM is None:
        pytest.fail("chromium is not installed (Debian package `chromium`)")
    damage.replace_record(store_copy, 42)
    server = start_server(data_dir=store_copy)
    browser = Browser()
    try:
        browser.call("Page.navigate", url=server.admin_url + "/")
        browser.wait_for("document.getElementById('status')?.textContent === 'store degraded'")
        assert "42" in browser.evaluate("document.getElementById('status').title")
    finally:
        browser.close()
