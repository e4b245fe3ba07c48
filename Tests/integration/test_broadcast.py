"""Broadcast push (iOS 18) through the live server with real HTTP/2 clients (httpx, PyJWT): the channel-management
listener (create, read, list, delete), broadcast sends on the push listener, every reason of the broadcast error
table, the fan-out to activities subscribed with input-push-channel, and channels surviving a restart."""
import json
import pathlib
import ssl
import time
import urllib.request

import httpx
import pytest

from helpers.tokens import BUNDLE, LA_TOPIC, pyjwt_token

REQUEST_ID = "0F5C7E0A-4B8B-4D5E-9C1B-2D7A3F6E9A10"
START_TOKEN = "b4" * 32


def client(server):
    return httpx.Client(http2=True, verify=ssl.create_default_context(cafile=server.ca_path), timeout=10)


def manage_url(server, path, bundle=BUNDLE):
    return f"https://localhost:{server.announcement['manage_port']}/1/apps/{bundle}/{path}"


def send_url(server, bundle=BUNDLE):
    return f"https://localhost:{server.tls_port}/4/broadcasts/apps/{bundle}"


_JWT = []


def jwt_token():
    """One provider token for the whole file, as a real sender reuses it (a new token per request is
    TooManyProviderTokenUpdates)."""
    if not _JWT:
        _JWT.append(pyjwt_token())
    return _JWT[0]


def auth(extra=None):
    headers = {"authorization": f"bearer {jwt_token()}"}
    headers.update(extra or {})
    return headers


def create(http, server, policy=1, push_type="LiveActivity", bundle=BUNDLE):
    return http.post(manage_url(server, "channels", bundle), headers=auth(),
                     content=json.dumps({"message-storage-policy": policy, "push-type": push_type}))


def broadcast(http, server, channel, aps, extra=None, bundle=BUNDLE):
    headers = auth({"apns-channel-id": channel, "apns-push-type": "liveactivity", "apns-priority": "10",
                    "apns-expiration": "0"})
    headers.update(extra or {})
    return http.post(send_url(server, bundle), headers=headers, content=json.dumps({"aps": aps}))


def admin(server, path):
    with urllib.request.urlopen(f"{server.admin_url}{path}", timeout=10) as response:
        return json.load(response)


def serve(start_server, data_dir=None):
    return start_server("--manage-port", "0", data_dir=data_dir)


def test_channel_management_answers_as_apple_documents(start_server):
    server = serve(start_server)
    with client(server) as http:
        created = http.post(manage_url(server, "channels"), headers=auth({"apns-request-id": REQUEST_ID}),
                            content=b'{"message-storage-policy": 0, "push-type": "LiveActivity"}')
        assert created.http_version == "HTTP/2"
        assert created.status_code == 201, created.text
        assert created.headers["apns-request-id"] == REQUEST_ID
        assert created.content == b""
        channel = created.headers["apns-channel-id"]

        read = http.get(manage_url(server, "channels"), headers=auth({"apns-channel-id": channel}))
        assert read.status_code == 200
        assert read.json() == {"message-storage-policy": 0, "push-type": "LiveActivity"}
        assert read.headers["apns-request-id"]

        listed = http.get(manage_url(server, "all-channels"), headers=auth())
        assert listed.status_code == 200 and listed.json() == {"channels": [channel]}

        deleted = http.delete(manage_url(server, "channels"), headers=auth({"apns-channel-id": channel}))
        assert deleted.status_code == 204
        again = http.get(manage_url(server, "channels"), headers=auth({"apns-channel-id": channel}))
        assert again.status_code == 400 and again.json() == {"reason": "ChannelNotRegistered"}
        assert http.get(manage_url(server, "all-channels"), headers=auth()).json() == {"channels": []}

    record = admin(server, f"/api/deliveries/{REQUEST_ID}")
    assert record["status"] == 201 and record["path"] == f"/1/apps/{BUNDLE}/channels"


def test_a_broadcast_reaches_every_subscribed_activity_and_a_deleted_channel_stops_updates(start_server):
    server = serve(start_server)
    jwt = jwt_token()
    now = int(time.time())
    with client(server) as http:
        channel = create(http, server).headers["apns-channel-id"]
        tokens = [START_TOKEN, "c5" * 32]
        for token in tokens:
            start = http.post(
                f"https://localhost:{server.tls_port}/3/device/{token}",
                headers={"authorization": f"bearer {jwt}", "apns-topic": LA_TOPIC, "apns-push-type": "liveactivity",
                         "apns-priority": "10"},
                content=json.dumps({"aps": {
                    "event": "start", "timestamp": now, "attributes-type": "ScoreAttributes",
                    "attributes": {"match": "final"}, "content-state": {"score": 0},
                    "alert": {"title": "Kick-off", "body": "0-0"}, "input-push-channel": channel}}))
            assert start.status_code == 200, start.text
        channels = admin(server, "/api/config/channels")["channels"]
        assert channels[0]["id"] == channel and channels[0]["subscribers"] == tokens

        sent = broadcast(http, server, channel, {"event": "update", "timestamp": now + 1, "content-state": {"score": 1}},
                         {"apns-request-id": REQUEST_ID})
        assert sent.status_code == 200, sent.text
        assert sent.headers["apns-request-id"] == REQUEST_ID
        assert sent.headers["apns-unique-id"]
        record = admin(server, f"/api/deliveries/{REQUEST_ID}")
        assert record["liveActivity"]["code"] == "broadcastFanOut"
        for token in tokens:
            assert f"{token}: applied" in record["liveActivity"]["explanation"]
            activity = admin(server, f"/api/activities/{token}")
            assert activity["contentState"] == {"score": 1}
            assert activity["timeline"][-1]["apnsId"] == REQUEST_ID

        stale = broadcast(http, server, channel, {"event": "update", "timestamp": now, "content-state": {"score": 9}})
        record = admin(server, f"/api/deliveries/{stale.headers['apns-request-id']}")
        assert stale.status_code == 200 and "ignoredOlderTimestamp" in record["liveActivity"]["explanation"]

        started = broadcast(http, server, channel, {"event": "start", "timestamp": now + 2, "content-state": {"score": 2}})
        record = admin(server, f"/api/deliveries/{started.headers['apns-request-id']}")
        assert started.status_code == 200 and record["liveActivity"]["code"] == "broadcastCannotStart"
        assert any(w["code"] == "broadcast-start-event" for w in record["warnings"])

        assert http.delete(manage_url(server, "channels"), headers=auth({"apns-channel-id": channel})).status_code == 204
        after = broadcast(http, server, channel, {"event": "update", "timestamp": now + 3, "content-state": {"score": 3}})
        assert after.status_code == 400 and after.json() == {"reason": "ChannelNotRegistered"}
        assert admin(server, f"/api/activities/{START_TOKEN}")["contentState"] == {"score": 1}


# (name, request, expected status, expected reason). Requests are built against a live channel `C` (policy 1) and
# a no-storage channel `N` (policy 0); `limited` runs against a server whose channel limit is already reached.
def _reasons():
    good_aps = {"event": "update", "timestamp": 1767225600, "content-state": {"score": 1}}
    send = {"kind": "send", "aps": good_aps, "headers": {}}
    return [
        ("BadPath", {"kind": "manage", "method": "GET", "path": "channels/abc"}, 404),
        ("MethodNotAllowed", {"kind": "manage", "method": "PUT", "path": "channels"}, 405),
        ("MethodNotAllowed", {**send, "method": "GET"}, 405),
        ("TopicDisallowed", {**send, "bundle": LA_TOPIC}, 400),
        ("MissingProviderToken", {**send, "headers": {"authorization": None}}, 403),
        ("InvalidProviderToken", {**send, "headers": {"authorization": "bearer not.a.jwt"}}, 403),
        ("ExpiredProviderToken", {**send, "headers": {"authorization": "expired"}}, 403),
        ("TopicMismatch", {**send, "bundle": "com.example.notours"}, 403),
        ("FeatureNotEnabled", {**send, "bundle": "com.example.nobroadcast"}, 400),
        ("BadMessageId", {**send, "headers": {"apns-request-id": "42"}}, 400),
        ("MissingChannelId", {**send, "headers": {"apns-channel-id": None}}, 400),
        ("BadChannelId", {**send, "headers": {"apns-channel-id": "***"}}, 400),
        ("ChannelNotRegistered", {**send, "headers": {"apns-channel-id": "dW5rbm93bg=="}}, 400),
        ("MissingPushType", {**send, "headers": {"apns-push-type": None}}, 400),
        ("InvalidPushType", {**send, "headers": {"apns-push-type": "alert"}}, 400),
        ("BadPriority", {**send, "headers": {"apns-priority": "3"}}, 400),
        ("BadExpirationDate", {**send, "headers": {"apns-expiration": "tomorrow"}}, 400),
        ("BadExpirationDate", {**send, "channel": "N", "headers": {"apns-expiration": "4102444800"}}, 400),
        ("PayloadEmpty", {**send, "raw": b""}, 400),
        ("PayloadTooLarge", {**send, "raw": b'{"aps":{"x":"' + b"x" * 5200 + b'"}}'}, 413),
        ("BadRequestPayload", {**send, "raw": b"score=1"}, 400),
        ("BadRequestParams", {"kind": "manage", "method": "POST", "path": "channels",
                              "body": {"message-storage-policy": 1, "push-type": "LiveActivity", "x": 1}}, 400),
        ("MissingChannelQueueSize", {"kind": "manage", "method": "POST", "path": "channels",
                                     "body": {"push-type": "LiveActivity"}}, 400),
        ("MissingPushType", {"kind": "manage", "method": "POST", "path": "channels",
                             "body": {"message-storage-policy": 1}}, 400),
        ("InvalidPushType", {"kind": "manage", "method": "POST", "path": "channels",
                             "body": {"message-storage-policy": 1, "push-type": "Alert"}}, 400),
        ("CannotCreateChannelConfig", {"kind": "manage", "method": "POST", "path": "channels", "limited": True,
                                       "body": {"message-storage-policy": 1, "push-type": "LiveActivity"}}, 400),
    ]


@pytest.fixture(scope="module")
def reason_servers(tmp_path_factory):
    """Two servers (normal, and one whose channel limit is 2 and is reached), started once for the whole table."""
    from conftest import MockServer
    config = {"broadcast": {"disabledBundleIDs": ["com.example.nobroadcast"], "channelLimit": 2},
              "teams": [{"teamID": "TEAM123456", "bundleIDs": [BUNDLE, "com.example.nobroadcast"],
                         "keys": [{"keyID": "ABC123DEFG", "p8": "certs/AuthKey_ABC123DEFG.p8"}]}]}
    path = tmp_path_factory.mktemp("broadcast") / "config.json"
    path.write_text(json.dumps(config))
    server = MockServer(["--manage-port", "0", "--config", str(path)])
    with client(server) as http:
        channels = {"C": create(http, server, policy=1).headers["apns-channel-id"],
                    "N": create(http, server, policy=0).headers["apns-channel-id"]}
    yield server, channels
    assert server.stop() == 0


@pytest.mark.parametrize("reason,case,status", _reasons(), ids=[f"{r[0]}-{i}" for i, r in enumerate(_reasons())])
def test_every_broadcast_reason_over_http2(reason_servers, reason, case, status):
    server, channels = reason_servers
    headers = {"authorization": f"bearer {jwt_token()}"}
    if case["kind"] == "send":
        headers.update({"apns-channel-id": channels[case.get("channel", "C")], "apns-push-type": "liveactivity",
                        "apns-priority": "10", "apns-expiration": "0"})
    for name, value in case.get("headers", {}).items():
        if value is None:
            headers.pop(name, None)
        elif value == "expired":
            headers[name] = f"bearer {pyjwt_token(iat=int(time.time()) - 7200)}"
        else:
            headers[name] = value
    if case["kind"] == "send":
        url = send_url(server, case.get("bundle", BUNDLE))
        body = case["raw"] if "raw" in case else json.dumps({"aps": case["aps"]}).encode()
    else:
        url = manage_url(server, case["path"])
        body = json.dumps(case["body"]).encode() if "body" in case else None
    with client(server) as http:
        response = http.request(case.get("method", "POST"), url, headers=headers, content=body)
    assert response.http_version == "HTTP/2"
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    assert response.json() == {"reason": reason}
    assert response.headers["apns-request-id"]


def test_channels_and_subscribers_survive_a_restart(start_server, tmp_path):
    data_dir = str(tmp_path)
    first = serve(start_server, data_dir=data_dir)
    with client(first) as http:
        channel = create(http, first, push_type="liveactivity").headers["apns-channel-id"]
    assert first.stop() == 0
    second = serve(start_server, data_dir=data_dir)
    with client(second) as http:
        read = http.get(manage_url(second, "channels"), headers=auth({"apns-channel-id": channel}))
        assert read.status_code == 200 and read.json()["message-storage-policy"] == 1
    assert [c["id"] for c in admin(second, "/api/config/channels")["channels"]] == [channel]


def test_broadcast_send_answers_on_every_host_name_libraries_use(start_server):
    server = serve(start_server)
    with client(server) as http:
        channel = create(http, server).headers["apns-channel-id"]
        for host in ["api.sandbox.push.apple.com", "api-broadcast.sandbox.push.apple.com", "api.push.apple.com"]:
            response = broadcast(http, server, channel, {"event": "update", "timestamp": 1, "content-state": {}},
                                 {"host": host})
            assert response.status_code == 200, (host, response.text)


def test_the_reference_sender_manages_channels_and_broadcasts(start_server):
    """`apns-mock channels create|list|get|delete` and `apns-mock push --channel` against the live server."""
    import subprocess
    from conftest import BINARY, CA
    server = serve(start_server)
    manage = ["--url", f"https://localhost:{server.announcement['manage_port']}", "--ca-file", CA]

    def run(*args):
        return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=30)

    created = run("channels", "create", "--storage-policy", "0", "--json", *manage)
    assert created.returncode == 0, created.stderr
    channel = json.loads(created.stdout)["apns-channel-id"]
    listed = run("channels", "list", "--json", *manage)
    assert json.loads(listed.stdout)["body"] == {"channels": [channel]}
    assert json.loads(run("channels", "get", channel, "--json", *manage).stdout)["body"]["message-storage-policy"] == 0

    push = ["--url", f"https://localhost:{server.tls_port}", "--ca-file", CA, "--admin-url", server.admin_url]
    started = run("push", *push, "--device-token", START_TOKEN, "--event", "start", "--attributes-type", "Score",
                  "--attributes", "{}", "--content-state", '{"score":0}', "--alert-title", "Kick-off",
                  "--input-push-channel", channel)
    assert started.returncode == 0, started.stdout + started.stderr
    sent = run("push", *push, "--channel", channel, "--event", "update", "--content-state", '{"score":1}', "--json")
    assert sent.returncode == 0, sent.stdout + sent.stderr
    assert json.loads(sent.stdout.splitlines()[0])["status"] == 200
    assert admin(server, f"/api/activities/{START_TOKEN}")["contentState"] == {"score": 1}
    refused = run("push", *push, "--channel", channel, "--event", "update", "--content-state", "{}",
                  "--expiration", "4102444800")
    assert refused.returncode == 1 and "BadExpirationDate" in refused.stdout

    assert run("channels", "delete", channel, *manage).returncode == 0
    gone = run("channels", "get", channel, *manage)
    assert gone.returncode == 1 and "ChannelNotRegistered" in gone.stdout


def _conformance_cases():
    import pathlib
    path = pathlib.Path(__file__).resolve().parents[2] / "Conformance" / "cases" / "broadcast.json"
    return json.loads(path.read_text())["cases"]


@pytest.fixture(scope="module")
def conformance_servers(tmp_path_factory):
    """One live server per distinct case configuration; the team owns com.example.app and com.example.nobroadcast."""
    from conftest import MockServer
    servers = {}
    for case in _conformance_cases():
        key = json.dumps(case.get("configuration") or {}, sort_keys=True)
        if key in servers:
            continue
        config = {"broadcast": case.get("configuration") or {},
                  "teams": [{"teamID": "TEAM123456", "bundleIDs": [BUNDLE, "com.example.nobroadcast"],
                             "keys": [{"keyID": "ABC123DEFG", "p8": "certs/AuthKey_ABC123DEFG.p8"}]}]}
        path = tmp_path_factory.mktemp("broadcast-conformance") / "config.json"
        path.write_text(json.dumps(config))
        servers[key] = MockServer(["--manage-port", "0", "--config", str(path)])
    yield servers
    for server in servers.values():
        assert server.stop() == 0


def _body(request):
    if "bodySize" in request:
        prefix = b'{"aps":{},"p":"'
        return prefix + b"a" * (request["bodySize"] - len(prefix) - 2) + b'"}'
    return request.get("body", "").encode()


@pytest.mark.parametrize("case", _conformance_cases(), ids=lambda case: case["id"])
def test_broadcast_conformance_case_over_http2(conformance_servers, case):
    """Conformance/cases/broadcast.json against the live server: channels set up through the management API."""
    server = conformance_servers[json.dumps(case.get("configuration") or {}, sort_keys=True)]
    ids = {}
    with client(server) as http:
        if case.get("setup") == "channels":
            deleted = create(http, server).headers["apns-channel-id"]
            assert http.delete(manage_url(server, "channels"), headers=auth({"apns-channel-id": deleted})).status_code == 204
            ids = {"{deletedChannel}": deleted, "{channel}": create(http, server).headers["apns-channel-id"],
                   "{noStoreChannel}": create(http, server, policy=0).headers["apns-channel-id"]}

    def substitute(text):
        for placeholder, value in ids.items():
            text = text.replace(placeholder, value)
        return text

    request = case["request"]
    headers = [(name, substitute(value)) for name, value in request["headers"]]
    authorization = {"rejected:MissingProviderToken": None,
                     "rejected:InvalidProviderToken": jwt_token()[:-6] + "AAAAAA",
                     "rejected:ExpiredProviderToken": pyjwt_token(iat=int(time.time()) - 7200)}.get(
        case.get("auth", "valid"), jwt_token())
    if authorization:
        headers.insert(0, ("authorization", f"bearer {authorization}"))
    port = server.announcement["manage_port"] if case.get("listener") == "manage" else server.tls_port
    with client(server) as http:
        response = http.request(request["method"], f"https://localhost:{port}{substitute(request['path'])}",
                                headers=headers, content=_body(request))
    expect = case["expect"]
    assert response.http_version == "HTTP/2"
    assert response.status_code == expect["status"], response.text
    if expect["reason"]:
        assert response.json() == {"reason": expect["reason"]}
    request_id = response.headers["apns-request-id"]
    record = admin(server, f"/api/deliveries/{request_id}")
    assert sorted(w["code"] for w in record["warnings"]) == sorted(expect["warnings"])


def test_the_inspector_lists_channels_and_their_subscribed_activities(start_server):
    """Headless Chromium: the Live Activities view shows each channel with its subscribers; a subscriber opens
    its activity."""
    from test_inspector import Browser
    server = serve(start_server)
    now = int(time.time())
    with client(server) as http:
        channel = create(http, server).headers["apns-channel-id"]
        start = http.post(
            f"https://localhost:{server.tls_port}/3/device/{START_TOKEN}",
            headers={"authorization": f"bearer {jwt_token()}", "apns-topic": LA_TOPIC, "apns-push-type": "liveactivity"},
            content=json.dumps({"aps": {"event": "start", "timestamp": now, "attributes-type": "Score",
                                        "attributes": {}, "content-state": {"score": 0},
                                        "alert": {"title": "Kick-off", "body": "0-0"}, "input-push-channel": channel}}))
        assert start.status_code == 200
    browser = Browser()
    try:
        browser.call("Page.navigate", url=f"{server.admin_url}/#activity={START_TOKEN}")
        browser.wait_for("document.querySelectorAll('#channels tbody tr').length === 1")
        cells = browser.evaluate("[...document.querySelectorAll('#channels tbody tr td')].map(td => td.textContent)")
        assert cells[0] == channel and cells[1] == BUNDLE and cells[2] == "development"
        assert browser.evaluate("document.getElementById('channels-empty').hidden") is True
        browser.evaluate("document.querySelector('#channels tbody a').click()")
        browser.wait_for("document.getElementById('activity-detail').hidden === false")
    finally:
        browser.close()


def test_channels_belong_to_one_environment(start_server):
    """A channel created on the production management listener serves production sends only (A-CHAN)."""
    server = start_server("--manage-port", "0", "--production-port", "0", "--production-manage-port", "0")
    production_manage = server.announcement["production_manage_port"]
    with client(server) as http:
        created = http.post(f"https://localhost:{production_manage}/1/apps/{BUNDLE}/channels", headers=auth(),
                            content=b'{"message-storage-policy": 1, "push-type": "LiveActivity"}')
        assert created.status_code == 201, created.text
        channel = created.headers["apns-channel-id"]
        headers = auth({"apns-channel-id": channel, "apns-push-type": "liveactivity", "apns-priority": "10",
                        "apns-expiration": "0"})
        body = json.dumps({"aps": {"event": "update", "timestamp": 1, "content-state": {}}})
        production = http.post(f"https://localhost:{server.production_port}/4/broadcasts/apps/{BUNDLE}",
                               headers=headers, content=body)
        assert production.status_code == 200, production.text
        development = http.post(send_url(server), headers=headers, content=body)
        assert development.status_code == 400 and development.json() == {"reason": "ChannelNotRegistered"}
        assert http.get(manage_url(server, "all-channels"), headers=auth()).json() == {"channels": []}


def test_conformance_server_grades_the_broadcast_cases(start_server):
    """`apns-mock conformance server --manage-url` replays Conformance/cases/broadcast.json against a live mock; the
    cases that need server configuration are skipped with the reason."""
    import subprocess
    from conftest import BINARY
    server = serve(start_server)
    cases = str(pathlib.Path(__file__).resolve().parents[2] / "Conformance" / "cases" / "broadcast.json")
    result = subprocess.run(
        [BINARY, "conformance", "server", f"https://localhost:{server.tls_port}",
         "--manage-url", f"https://localhost:{server.announcement['manage_port']}", "--admin-url", server.admin_url,
         "--cases", cases], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    skipped = [line for line in result.stdout.splitlines() if line.startswith("skip")]
    assert len(skipped) == 3 and all("needs a server configured with" in line for line in skipped), skipped
    assert "0 failed" in result.stdout
    without = subprocess.run(
        [BINARY, "conformance", "server", f"https://localhost:{server.tls_port}", "--cases", cases],
        capture_output=True, text=True, timeout=120)
    assert "give --manage-url" in without.stdout and "0 passed" in without.stdout
