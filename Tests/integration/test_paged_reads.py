"""Admin reads page with a limit and a cursor, and the CLI reads every page it needs (issue 31: `deliveries
--limit 3000` returned 1,000 without a word)."""
import json
import os
import subprocess
import urllib.request

from conftest import BINARY, REPO
from test_inspector import browser  # noqa: F401  (the browser fixture)
from test_inspector_views import la_push

TOKEN = "8096c2f1a3b4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e"


def get(server, path):
    with urllib.request.urlopen(server.admin_url + path, timeout=30) as response:
        return json.load(response)


def test_deliveries_limit_above_one_page_reads_every_page(server):
    pushed = subprocess.run(
        [BINARY, "push", "--url", f"https://localhost:{server.tls_port}", "--admin-url", server.admin_url,
         "--device-token", TOKEN, "--repeat", "1300", "--concurrency", "50"],
        capture_output=True, text=True, cwd=REPO, timeout=300)
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr

    def cli(limit):
        result = subprocess.run([BINARY, "deliveries", "--admin-port", str(server.admin_port), "--json", "--limit", limit],
                                capture_output=True, text=True, timeout=60, env={**os.environ, "NO_COLOR": "1"})
        assert result.returncode == 0, result.stderr
        return [json.loads(line)["id"] for line in result.stdout.splitlines()]

    every = cli("3000")
    assert len(every) == 1300 and every == sorted(set(every)), "every delivery once, oldest first"
    newest = cli("1100")
    assert newest == every[-1100:]

    first = get(server, "/api/deliveries?limit=1000")
    assert len(first["deliveries"]) == 1000
    rest = get(server, "/api/deliveries?limit=1000&cursor=" + first["nextCursor"])
    assert len(rest["deliveries"]) == 300
    assert rest["nextCursor"] is None
    ids = [record["id"] for record in first["deliveries"] + rest["deliveries"]]
    assert sorted(ids, reverse=True) == ids and len(set(ids)) == 1300


def push_activities(server, tokens):
    requests_file = json.dumps([{
        "deviceToken": token, "pushType": "liveactivity",
        "payload": {"aps": {"timestamp": 1767225600, "event": "update", "content-state": {"n": index}}}}
        for index, token in enumerate(tokens)])
    pushed = subprocess.run(
        [BINARY, "push", "--url", f"https://localhost:{server.tls_port}", "--admin-url", server.admin_url,
         "--requests", "-", "--concurrency", "20"],
        capture_output=True, text=True, cwd=REPO, timeout=300, input=requests_file)
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr


def test_activities_page_with_a_cursor_and_report_what_changed(server):
    tokens = [f"{index:064x}" for index in range(1, 251)]
    push_activities(server, tokens)
    seen, cursor, pages = [], None, 0
    while pages < 10:
        pages += 1
        page = get(server, "/api/activities?limit=100" + (f"&cursor={cursor}" if cursor else ""))
        assert page["total"] == 250
        seen += [activity["token"] for activity in page["activities"]]
        cursor = page["nextCursor"]
        if cursor is None:
            break
    assert pages == 3 and seen == tokens

    since = page["changeSequence"]
    assert get(server, f"/api/activities?changed_since={since}") == {"activities": [], "changeSequence": since,
                                                                     "complete": True}


def test_inspector_loads_a_page_and_redraws_only_the_rows_a_push_changed(server, browser):
    tokens = [f"{index:064x}" for index in range(1, 251)]
    push_activities(server, tokens)
    browser.call("Page.navigate", url=f"{server.admin_url}/#activity={tokens[0]}")
    browser.wait_for("document.querySelectorAll('#activities tbody tr').length === 200")
    assert "200 of 250" in browser.evaluate("document.getElementById('activities-more').textContent")
    # Every row drawn so far is marked: a reload of the list would draw them again without the mark.
    browser.evaluate("[...document.querySelectorAll('#activities tbody tr')].forEach(r => r.kept = true)")

    la_push(server, tokens[5], {"aps": {"timestamp": 1767225700, "event": "end", "content-state": {"n": 5}}})
    browser.wait_for(f"document.querySelector('#activities tr[data-token=\"{tokens[5]}\"] td.state')"
                     f"?.textContent === 'ended'")
    kept = browser.evaluate("[...document.querySelectorAll('#activities tbody tr')].filter(r => r.kept).length")
    assert kept == 199, "only the changed row is drawn again"

    browser.evaluate("document.getElementById('activities-more').click()")
    browser.wait_for("document.querySelectorAll('#activities tbody tr').length === 250")
    assert browser.evaluate("document.getElementById('activities-more').hidden") is True
    fresh = "ee" * 32
    la_push(server, fresh, {"aps": {"timestamp": 1767225700, "event": "update", "content-state": {"n": 0}}})
    browser.wait_for(f"document.querySelector('#activities tr[data-token=\"{fresh}\"]') !== null")
    assert browser.evaluate("document.querySelectorAll('#activities tbody tr').length") == 251
