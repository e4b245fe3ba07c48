"""The inspector says what happened, in headless Chromium: "How to fix" is the text of the rule that decided (the
same words the admin API's `fix` and `apns-mock explain` show: one source, HowToFix), a push whose warnings mean the
device will misbehave is not a plain green "200 accepted" (list, detail, activity view), and the activity's preview
card marks the keys the device ignores and shows Date fields as the dates the app decodes."""
import json
import subprocess
import time
import urllib.request

from conftest import BINARY, REPO
from helpers.h2client import H2Client
from helpers.tokens import pyjwt_token
from test_inspector import browser  # noqa: F401  (the browser fixture)
from test_inspector_views import screenshot

GREEN = "rgb(26, 127, 55)"
PURPLE = "rgb(130, 80, 223)"
LA_TOPIC = "com.example.app.push-type.liveactivity"


def push(server, token, payload, topic=LA_TOPIC, push_type="liveactivity", extra=(), method="POST", jwt=True):
    """One push over TLS with a fresh connection; returns (status, reason, apns-id)."""
    client = H2Client(server.tls_port, ca=server.ca_path)
    headers = [("apns-topic", topic), ("apns-push-type", push_type)] + list(extra)
    if jwt:
        headers.insert(0, ("authorization", f"bearer {pyjwt_token()}"))
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    response = client.response(client.request("/3/device/" + token, headers, body, method=method))
    client.close()
    reason = json.loads(response.body).get("reason") if response.body else None
    return response.status, reason, response.header("apns-id")


def record(server, apns_id):
    return json.load(urllib.request.urlopen(f"{server.admin_url}/api/deliveries/{apns_id}"))


def explain_fix(server, apns_id):
    """The `how to fix:` line of `apns-mock explain`, without its label."""
    done = subprocess.run([BINARY, "explain", apns_id, "--admin-port", str(server.admin_port)],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith("how to fix: ")]
    assert len(lines) == 1, done.stdout
    return lines[0][len("how to fix: "):]


def page_fix(browser, server, delivery):
    """The "How to fix" box of the delivery's detail, once the detail shows that delivery."""
    browser.call("Page.navigate", url=f"{server.admin_url}/#delivery={delivery['id']}")
    browser.wait_for(f"[...document.querySelectorAll('#detail dd')].some(dd => dd.textContent === '{delivery['apnsId']}')")
    return browser.evaluate("document.querySelector('#detail .fix')?.textContent || ''")


def colour(browser, selector):
    return browser.evaluate(f"getComputedStyle(document.querySelector({json.dumps(selector)})).color")


def test_readme_first_error_how_to_fix_names_the_topic_suffix(server, browser, tmp_path):
    # The README's first error: a Live Activity push to the bare bundle ID (no .push-type.liveactivity).
    now = int(time.time())
    status, reason, apns_id = push(server, "ab" * 80, {"aps": {"timestamp": now, "event": "update",
                                                                "content-state": {"progress": 0.5}}},
                                   topic="com.example.app")
    assert (status, reason) == (400, "DeviceTokenNotForTopic")
    delivery = record(server, apns_id)
    assert delivery["ruleId"] == "topic.push-type-suffix"
    shown = page_fix(browser, server, delivery)
    assert shown.startswith("How to fix: ")
    assert ".push-type.liveactivity" in shown
    assert "another app" not in shown, shown
    assert shown == "How to fix: " + delivery["fix"] == "How to fix: " + explain_fix(server, apns_id)
    screenshot(browser, "how-to-fix-topic-suffix", tmp_path)

    # `apns-mock push` of the same mistake prints the same sentence.
    done = subprocess.run([BINARY, "push", "--url", f"https://localhost:{server.tls_port}", "--admin-url",
                           server.admin_url, "--device-token", "ab" * 80, "--topic", "com.example.app",
                           "--event", "update", "--content-state", '{"progress":0.5}'],
                          capture_output=True, text=True, cwd=REPO, timeout=30)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "  how to fix: " + delivery["fix"] in done.stdout.splitlines(), done.stdout
    # And `apns-mock lint` of that payload, with no server.
    done = subprocess.run([BINARY, "lint", "-", "--push-type", "liveactivity", "--topic", "com.example.app"],
                          input='{"aps":{"event":"update","timestamp":%d,"content-state":{"progress":0.5}}}' % now,
                          capture_output=True, text=True, cwd=REPO, timeout=30)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "  how to fix: " + delivery["fix"] in done.stdout.splitlines(), done.stdout


def test_each_rules_fix_text_is_the_one_shown_everywhere(server, browser):
    now = int(time.time())
    la = {"aps": {"timestamp": now, "event": "update", "content-state": {"progress": 0.5}}}
    cases = {
        "topic.push-type-suffix": push(server, "ab" * 32, la, topic="com.example.app"),
        "headers.apns-priority": push(server, "ab" * 32, la, extra=[("apns-priority", "7")]),
        "headers.apns-id": push(server, "ab" * 32, la, extra=[("apns-id", "not-a-uuid")]),
        "headers.apns-push-type": push(server, "ab" * 32, la, push_type="LiveActivity"),
        "token.format": push(server, "xyz", la),
        "topic.has-bundle-id": push(server, "ab" * 32, la, topic=".push-type.liveactivity"),
        "payload.not-empty": push(server, "ab" * 32, b""),
        "auth.provider-token": push(server, "ab" * 32, la, jwt=False),
    }
    # Declaring a token makes every other one undeclared: the token rules come last.
    declared = "cd" * 32
    request = urllib.request.Request(f"{server.admin_url}/api/config/tokens", method="POST",
                                     data=json.dumps({"token": declared, "bundleID": "com.example.app",
                                                      "kind": "liveActivityUpdate"}).encode(),
                                     headers={"Content-Type": "application/json"})
    assert urllib.request.urlopen(request).status == 200
    cases["token.topic"] = push(server, declared, {"aps": {"alert": "hi"}}, topic="com.example.app", push_type="alert")
    cases["token.declared"] = push(server, "ef" * 32, la)

    fixes = {}
    for rule, (status, reason, apns_id) in cases.items():
        delivery = record(server, apns_id)
        assert delivery["ruleId"] == rule, (rule, status, reason, delivery.get("explanation"))
        assert delivery["fix"], rule
        assert page_fix(browser, server, delivery) == "How to fix: " + delivery["fix"], rule
        assert explain_fix(server, apns_id) == delivery["fix"], rule
        fixes[rule] = (reason, delivery["fix"])
    # One reason, two mistakes, two texts: the rule decides what to fix.
    assert fixes["topic.push-type-suffix"][0] == fixes["token.topic"][0] == "DeviceTokenNotForTopic"
    assert fixes["topic.push-type-suffix"][1] != fixes["token.topic"][1]
    assert fixes["token.format"][0] == fixes["token.declared"][0] == "BadDeviceToken"
    assert fixes["token.format"][1] != fixes["token.declared"][1]
    assert "authorization: bearer" in fixes["auth.provider-token"][1]


def verdict_cells(browser):
    return browser.evaluate("[...document.querySelectorAll('#deliveries tbody tr td:nth-child(3)')]"
                            ".map(td => [td.textContent, getComputedStyle(td).color])")


def test_a_millisecond_timestamp_is_not_a_plain_green_accept(server, browser, tmp_path):
    token = "be" * 32
    now = int(time.time())
    status, _, broken = push(server, token, {"aps": {"timestamp": now * 1000, "event": "update",
                                                     "content-state": {"phase": "cooking"}}})
    assert status == 200
    delivery = record(server, broken)
    assert delivery["status"] == 200 and delivery["liveActivity"]["code"] == "applied"
    assert "la-timestamp-milliseconds" in delivery["deviceWillMisbehave"]
    status, _, fine = push(server, "bf" * 32, {"aps": {"timestamp": now, "event": "update",
                                                       "content-state": {"phase": "cooking"}}})
    assert status == 200 and "deviceWillMisbehave" not in record(server, fine)

    browser.call("Emulation.setDeviceMetricsOverride", width=1400, height=900, deviceScaleFactor=1, mobile=False)
    browser.call("Page.navigate", url=f"{server.admin_url}/#delivery={delivery['id']}")
    headline = browser.wait_for("document.getElementById('detail-verdict')?.textContent")
    assert headline == "200 OK — device will misbehave"
    assert colour(browser, "#detail-verdict") == PURPLE
    assert "la-timestamp-milliseconds" in browser.evaluate("document.getElementById('detail-misbehaves').textContent")
    browser.wait_for("document.querySelectorAll('#deliveries tbody tr').length === 2")
    assert verdict_cells(browser) == [["200 accepted", GREEN], ["200 · device will misbehave", PURPLE]]
    # Its explanation column says why, not the device's "applied".
    explanation = browser.evaluate("document.querySelector('#deliveries tbody tr:nth-child(2) td:nth-child(7)').textContent")
    assert explanation.startswith("⚠ aps-timestamp-milliseconds: "), explanation
    screenshot(browser, "device-will-misbehave", tmp_path)

    # The activity view marks that push in its pushes table and on the timeline.
    browser.call("Page.navigate", url=f"{server.admin_url}/#activity={token}")
    browser.wait_for("document.querySelectorAll('#activity-timeline circle.mark').length === 1")
    assert browser.evaluate("document.querySelector('#activity-timeline circle.mark').getAttribute('data-misbehaves')") \
        .split() == delivery["deviceWillMisbehave"]
    row = browser.evaluate("document.querySelector('#activity-pushes tbody tr').textContent")
    assert "device will misbehave" in row and "la-timestamp-milliseconds" in row
    assert colour(browser, "#activity-pushes tbody tr .verdict.misbehaves") == PURPLE
    # The millisecond timestamp the device applied is shown as a date, not as a raw number.
    applied = browser.evaluate("[...document.querySelectorAll('#activity-detail dt')]"
                               ".find(dt => dt.textContent === 'last applied timestamp').nextElementSibling.textContent")
    assert applied.startswith(time.strftime("%Y-%m-%d", time.gmtime(now))) and "Unix ms" in applied, applied
    screenshot(browser, "activity-will-misbehave", tmp_path)


ACTIVITY_SOURCE = """
import ActivityKit

struct PizzaAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var phase: String
        var deliveredBy: Date
    }

    var orderNumber: String
}
"""


def test_preview_marks_ignored_keys_and_shows_dates_as_the_app_decodes_them(start_server, browser, tmp_path):
    source = tmp_path / "PizzaAttributes.swift"
    source.write_text(ACTIVITY_SOURCE)
    server = start_server("--activity-source", str(source))
    token = "ca" * 32
    now = int(time.time())
    honest = now - 978307200 + 1800  # half an hour from now, as seconds since 2001
    status, _, _ = push(server, token, {"aps": {"timestamp": now, "event": "update",
                                                "content-state": {"phase": "oven", "deliveredBy": honest,
                                                                  "courierNote": "ring twice"}}})
    assert status == 200
    browser.call("Page.navigate", url=f"{server.admin_url}/#activity={token}")
    browser.wait_for("document.querySelector('#activity-preview') !== null")
    fields = browser.evaluate("[...document.querySelectorAll('#activity-preview dt')]"
                              ".map(dt => [dt.textContent, dt.className, dt.nextElementSibling.textContent])")
    by_key = {key: (cls, value) for key, cls, value in fields}
    assert by_key["courierNote"][0] == "ignored" and "ignored by the device" in by_key["courierNote"][1]
    assert by_key["phase"][0] == "" and by_key["deliveredBy"][0] == ""
    expected = time.strftime("%Y-%m-%d %H:%M", time.gmtime(now + 1800))
    assert by_key["deliveredBy"][1].startswith(expected), by_key["deliveredBy"]

    # A Date sent as Unix seconds: the card shows the 2057 date the app decodes, flagged, and the push is marked.
    status, _, unix = push(server, token, {"aps": {"timestamp": now + 1, "event": "update",
                                                   "content-state": {"phase": "on the way", "deliveredBy": now + 1800}}})
    assert status == 200
    assert "la-content-state-unix-date" in record(server, unix)["deviceWillMisbehave"]
    browser.wait_for("document.querySelectorAll('#activity-timeline circle.mark').length === 2")
    shown = browser.wait_for("(() => { const dd = document.querySelector('#activity-preview dd.misbehaves');"
                             " return dd && dd.textContent; })()")
    assert shown.startswith("2057-") and "Unix seconds" in shown, shown
    assert browser.evaluate("document.querySelectorAll('#activity-timeline circle.mark.misbehaves').length") == 1
    screenshot(browser, "preview-ignored-keys-and-dates", tmp_path)
