"""The web inspector as a person sees it, in headless Chromium: the third verdict in its own colour in the list and
the detail headline, deep links (#delivery=ID, #activity=TOKEN), the list keeping its columns when a detail opens,
and the Live Activities view: live updates, a timeline SVG with one mark per push coloured by outcome and the
8 h / 12 h limits, a preview card with dates shown as dates. Screenshots of each view are written to
$APNS_MOCK_SCREENSHOTS (default: the test's temporary directory)."""
import base64
import json
import os
import pathlib
import time
import urllib.request

from helpers.h2client import H2Client
from helpers.tokens import pyjwt_token
from test_inspector import browser, send_push  # noqa: F401  (the browser fixture)

GREEN, RED, AMBER = "rgb(26, 127, 55)", "rgb(207, 34, 46)", "rgb(188, 76, 0)"
LA_TOPIC = "com.example.app.push-type.liveactivity"


def la_push(server, token, payload):
    client = H2Client(server.tls_port, ca=server.ca_path)
    headers = [("authorization", f"bearer {pyjwt_token()}"), ("apns-push-type", "liveactivity"),
               ("apns-topic", LA_TOPIC)]
    response = client.response(client.request("/3/device/" + token, headers, json.dumps(payload).encode()))
    client.close()
    assert response.status == 200
    return response.header("apns-id")


def delivery_id(server, apns_id):
    return json.load(urllib.request.urlopen(f"{server.admin_url}/api/deliveries/{apns_id}"))["id"]


def screenshot(browser, name, tmp_path):
    directory = pathlib.Path(os.environ.get("APNS_MOCK_SCREENSHOTS") or tmp_path)
    directory.mkdir(parents=True, exist_ok=True)
    browser.call("Emulation.setDeviceMetricsOverride", width=1400, height=900, deviceScaleFactor=1, mobile=False)
    data = browser.call("Page.captureScreenshot", format="png")["data"]
    path = directory / f"{name}.png"
    path.write_bytes(base64.b64decode(data))
    assert path.stat().st_size > 10_000, "a blank page"
    return path


def colour(browser, selector):
    return browser.evaluate(f"getComputedStyle(document.querySelector({json.dumps(selector)})).color")


def test_third_verdict_colours_and_delivery_deep_link(server, browser, tmp_path):
    token = "ef" * 32
    now = int(time.time())
    assert send_push(server, "ab" * 32, '{"aps":{"alert":"no token"}}') == 403
    la_push(server, token, {"aps": {"timestamp": now, "event": "update", "content-state": {"progress": 0.5}}})
    ignored = la_push(server, token, {"aps": {"timestamp": now - 60, "event": "update", "content-state": {"progress": 0.4}}})
    ignored_id = delivery_id(server, ignored)

    browser.call("Emulation.setDeviceMetricsOverride", width=1400, height=900, deviceScaleFactor=1, mobile=False)
    browser.call("Page.navigate", url=f"{server.admin_url}/#delivery={ignored_id}")
    headline = browser.wait_for("document.getElementById('detail-verdict')?.textContent")
    assert headline == "200 OK — ignored"
    assert colour(browser, "#detail-verdict") == AMBER
    browser.wait_for("document.querySelectorAll('#deliveries tbody tr').length === 3")
    verdicts = browser.evaluate("[...document.querySelectorAll('#deliveries tbody tr td:nth-child(3)')]"
                                ".map(td => [td.textContent, getComputedStyle(td).color])")
    assert verdicts == [["200 · ignored", AMBER], ["200 accepted", GREEN], ["403 rejected", RED]]
    # The list keeps every column, readable, while the detail is open.
    widths = browser.evaluate("[...document.querySelectorAll('#deliveries thead th')].map(th => th.getBoundingClientRect().width)")
    assert len(widths) == 7 and min(widths) > 20, widths
    assert browser.evaluate("document.querySelector('#deliveries tr.selected')?.getAttribute('data-id')") == str(ignored_id)
    screenshot(browser, "deliveries-third-verdict", tmp_path)

    # The filter for the third verdict.
    browser.evaluate("(() => { const s = document.getElementById('filter-verdict'); s.value = 'ignored';"
                     " s.dispatchEvent(new Event('change')); })()")
    browser.wait_for("document.querySelectorAll('#deliveries tbody tr').length === 1")
    assert browser.evaluate("document.querySelector('#deliveries tbody tr td:nth-child(3)').textContent") == "200 · ignored"


def test_activity_deep_link_timeline_preview_and_live_update(server, browser, tmp_path):
    token = "bc" * 32
    now = int(time.time())
    la_push(server, token, {"aps": {"timestamp": now, "event": "update",
                                    "content-state": {"phase": "preparing", "etaDate": 788918400},
                                    "stale-date": now + 5 * 3600,
                                    "alert": {"title": "Order update", "body": "Your pizza is in the oven"}}})
    la_push(server, token, {"aps": {"timestamp": now - 30, "event": "update", "content-state": {"phase": "late"}}})

    browser.call("Emulation.setDeviceMetricsOverride", width=1400, height=900, deviceScaleFactor=1, mobile=False)
    browser.call("Page.navigate", url=f"{server.admin_url}/#activity={token}")
    browser.wait_for("document.querySelectorAll('#activity-timeline circle.mark').length === 2")
    assert browser.evaluate("document.getElementById('view-activities').hidden") is False
    marks = browser.evaluate("[...document.querySelectorAll('#activity-timeline circle.mark')]"
                             ".map(c => [c.getAttribute('data-outcome'), getComputedStyle(c).fill])")
    assert marks == [["applied", GREEN], ["ignoredOlderTimestamp", AMBER]]
    labels = browser.evaluate("[...document.querySelectorAll('#activity-timeline .limit-label')].map(t => t.textContent)")
    assert labels == ["8 h: ends", "12 h: removed", "stale"]
    preview = browser.evaluate("document.getElementById('activity-preview').textContent")
    assert "Order update" in preview and "Your pizza is in the oven" in preview and "preparing" in preview
    # ActivityKit's 2001-based seconds shown as a date.
    assert "2026-01-01 00:00:00 UTC" in preview
    assert colour(browser, "#activity-pushes tbody tr:nth-child(2) td:last-child") == AMBER
    screenshot(browser, "activity-timeline", tmp_path)

    # Live: a push sent while the page is open adds a mark without a reload.
    la_push(server, token, {"aps": {"timestamp": now + 30, "event": "update", "content-state": {"phase": "on the way"}}})
    browser.wait_for("document.querySelectorAll('#activity-timeline circle.mark').length === 3")
    assert "on the way" in browser.evaluate("document.getElementById('activity-preview').textContent")
    browser.wait_for("document.querySelector('#activities tbody tr') !== null")
    screenshot(browser, "activity-live", tmp_path)
