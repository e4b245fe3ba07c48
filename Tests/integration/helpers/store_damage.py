"""Damage made to a copy of a real store file, with SQLite's own tool (sqlite3) or byte writes: what a bad disk, a
half-copied backup or an unlucky operator does. Shared by test_store_damage.py and the attack round."""
import os
import pathlib
import random
import shutil
import sqlite3
import subprocess
import tempfile
import time

from conftest import BINARY, REPO, MockServer
from helpers.h2client import H2Client
from helpers.tokens import BUNDLE, pyjwt_token

DEVICE = "b2" * 32
STORE = "deliveries.sqlite"
PAGE_SIZE = 8192


def fill(server, count):
    """`count` alert pushes over h2c, each answered 200 (so each is a stored row); returns their apns-ids."""
    headers = [("authorization", f"bearer {pyjwt_token()}"), ("apns-topic", BUNDLE), ("apns-push-type", "alert")]
    client = H2Client(server.h2c_port, tls=False, timeout=10)
    ids = []
    for number in range(count):
        response = client.response(client.request(f"/3/device/{DEVICE}", headers, b'{"aps":{"alert":"n%d"}}' % number))
        assert response.status == 200, response.status
        ids.append(response.header("apns-id"))
    client.close()
    return ids


def copy_store(data_dir):
    """A consistent copy of the store in `data_dir` (sqlite3 .backup: safe while a server writes it), in a new
    directory; returns the directory."""
    target = tempfile.mkdtemp(prefix="apns-mock-damage-")
    subprocess.run(["sqlite3", str(pathlib.Path(data_dir) / STORE), f".backup {pathlib.Path(target) / STORE}"],
                   check=True, capture_output=True, timeout=60)
    # The copy in rollback-journal form reads the same; the store turns WAL on again when it opens it.
    return target


def sql(data_dir, statement):
    return subprocess.run(["sqlite3", str(pathlib.Path(data_dir) / STORE), statement], check=True,
                          capture_output=True, timeout=60).stdout.decode().strip()


def block_of(data_dir, row_id):
    """The block table holding `row_id`."""
    tables = sql(data_dir, "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'deliveries_[0-9]*'")
    firsts = sorted(int(name.split("_")[1]) for name in tables.split())
    return "deliveries_%d" % max(first for first in firsts if first <= row_id)


def replace_record(data_dir, row_id):
    """One row's record blob replaced by random bytes."""
    sql(data_dir, f"UPDATE {block_of(data_dir, row_id)} SET record = randomblob(48) WHERE id = {row_id}")


def flip_record_bytes(data_dir, row_id, count=64):
    """`count` bytes flipped (XOR 0xFF) in the file where `row_id`'s record starts: a bad disk in mid-file."""
    blob = bytes.fromhex(sql(data_dir, f"SELECT hex(record) FROM {block_of(data_dir, row_id)} WHERE id = {row_id}"))
    path = pathlib.Path(data_dir) / STORE
    data = bytearray(path.read_bytes())
    offset = data.find(blob[:48])
    assert offset > 0 and data.find(blob[:48], offset + 1) < 0, "the record's bytes are not unique in the file"
    for index in range(offset, offset + count):
        data[index] ^= 0xFF
    path.write_bytes(bytes(data))


def leave_wal_frames(data_dir):
    """A committed write left in the store's WAL (not copied into the file), as a crash leaves it: a table created
    beside the store's blocks, committed with automatic checkpoints off, and the file and its WAL copied back before
    the closing connection checkpoints them."""
    path = pathlib.Path(data_dir) / STORE
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA wal_autocheckpoint=0")
    connection.execute("CREATE TABLE left_in_the_wal(x)")
    connection.commit()
    held = {suffix: pathlib.Path(str(path) + suffix).read_bytes() for suffix in ("", "-wal")}
    connection.close()
    for suffix, data in held.items():
        pathlib.Path(str(path) + suffix).write_bytes(data)
    pathlib.Path(str(path) + "-shm").unlink(missing_ok=True)
    assert len(held["-wal"]) > PAGE_SIZE


def page_count(data_dir):
    return (pathlib.Path(data_dir) / STORE).stat().st_size // PAGE_SIZE


def overwrite_page(data_dir, page):
    """Page `page` (0-based) overwritten with random bytes (seeded: the same bytes every run)."""
    with open(pathlib.Path(data_dir) / STORE, "r+b") as file:
        file.seek(page * PAGE_SIZE)
        file.write(random.Random(page).randbytes(PAGE_SIZE))


def overwrite_header(data_dir):
    with open(pathlib.Path(data_dir) / STORE, "r+b") as file:
        file.write(random.Random(1).randbytes(100))


def truncate_to_half(data_dir):
    path = pathlib.Path(data_dir) / STORE
    os.truncate(path, (path.stat().st_size // 2 // PAGE_SIZE) * PAGE_SIZE + 1000)


def random_bytes(data_dir):
    path = pathlib.Path(data_dir) / STORE
    path.write_bytes(random.Random(2).randbytes(path.stat().st_size))


def serve_refused(data_dir, *args):
    """Runs `serve` on `data_dir` expecting it to refuse: (exit status, standard error)."""
    result = subprocess.run([BINARY, "serve", "--port", "0", "--admin-port", "0", "--data-dir", str(data_dir), *args],
                            capture_output=True, timeout=60, cwd=REPO)
    return result.returncode, result.stderr.decode(errors="replace")


def store_files(data_dir):
    """{name: bytes} of every store file in `data_dir`."""
    return {path.name: path.read_bytes() for path in pathlib.Path(data_dir).glob(STORE + "*")}


def remove(data_dir):
    shutil.rmtree(data_dir, ignore_errors=True)


def rows_in_file(path):
    """Rows in every block table of the store file at `path` (read with Python's sqlite3)."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = [name for (name,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'deliveries_[0-9]*'")]
        return sum(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in tables)
    finally:
        connection.close()


def stderr_line(server, text, timeout=20):
    """The first line of `server`'s standard error containing `text`. `serve` writes it before its start-up line,
    but the thread that collects standard error may not have read it yet: waits for it (bounded)."""
    deadline = time.monotonic() + timeout
    while True:
        line = next((line for line in list(server.stderr_lines) if text in line), None)
        if line is not None or time.monotonic() > deadline or server.process.poll() is not None:
            return line
        time.sleep(0.01)


def middle_id(data_dir):
    """The id in the middle of the store's rows."""
    tables = sql(data_dir, "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'deliveries_[0-9]*'")
    union = " UNION ALL ".join(f"SELECT id FROM {name}" for name in tables.split())
    return int(sql(data_dir, f"SELECT id FROM ({union}) ORDER BY id LIMIT 1 OFFSET (SELECT count(*) / 2 FROM ({union}))"))


__all__ = ["MockServer"]
