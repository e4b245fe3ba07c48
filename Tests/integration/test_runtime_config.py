"""Run-time configuration through the admin API (docs/configuration.md): declared tokens, signing keys and
scripted answers (fault injection) change the answers of a running server."""
import json
import urllib.error
import urllib.request

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from helpers.h2client import H2Client
from helpers.tokens import BUNDLE, LA_TOPIC, pyjwt_token

TOKEN = "c0" * 80


def admin(server, method, path, body=None):
    request = urllib.request.Request(f"{server.admin_url}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def push(server, topic=LA_TOPIC, push_type="liveactivity", token=TOKEN, jwt=None, client=None):
    own = client is None
    client = client or H2Client(server.tls_port, ca=server.ca_path)
    headers = [("authorization", f"bearer {jwt or pyjwt_token()}"), ("apns-topic", topic), ("apns-push-type", push_type)]
    body = b'{"aps":{"timestamp":1767225600,"event":"update","content-state":{}}}'
    response = client.response(client.request(f"/3/device/{token}", headers, body))
    if own:
        client.close()
    return response


def test_a_declared_token_and_a_scripted_410_change_the_answers(server):
    assert push(server).status == 200, "no token declared: any well-formed token is accepted"
    status, tokens = admin(server, "POST", "/api/config/tokens",
                           {"token": TOKEN, "bundleID": BUNDLE, "kind": "liveActivityUpdate"})
    assert status == 200 and tokens[0]["token"] == TOKEN
    wrong = push(server, topic=BUNDLE, push_type="alert")
    assert (wrong.status, json.loads(wrong.body)["reason"]) == (400, "DeviceTokenNotForTopic")

    status, faults = admin(server, "POST", "/api/config/faults",
                           {"deviceToken": TOKEN, "status": 410, "reason": "Unregistered", "remaining": 1})
    assert status == 200 and len(faults) == 1
    gone = push(server)
    body = json.loads(gone.body)
    assert gone.status == 410 and body["reason"] == "Unregistered" and isinstance(body["timestamp"], int)
    assert push(server).status == 200, "the script was used up"
    assert admin(server, "GET", "/api/config/faults") == (200, [])


def test_a_scripted_goaway_carries_the_reason_as_debug_data(server):
    admin(server, "POST", "/api/config/faults", {"status": 503, "reason": "Shutdown", "goAway": True, "remaining": 1})
    client = H2Client(server.tls_port, ca=server.ca_path)
    response = push(server, client=client)
    assert (response.status, json.loads(response.body)["reason"]) == (503, "Shutdown")
    assert client.wait_for(lambda: client.goaway is not None, timeout=5)
    assert json.loads(client.goaway.additional_data) == {"reason": "Shutdown"}
    client.close()


def test_a_key_registered_at_run_time_verifies_tokens_of_its_team(server, tmp_path):
    key = ec.generate_private_key(ec.SECP256R1())
    key_path = tmp_path / "AuthKey_KEY6543210.p8"
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    public_pem = key.public_key().public_bytes(serialization.Encoding.PEM,
                                               serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    other = pyjwt_token(team="TEAM654321", key_id="KEY6543210", key_path=key_path)
    before = push(server, topic="com.other.app", push_type="alert", jwt=other)
    assert (before.status, json.loads(before.body)["reason"]) == (403, "InvalidProviderToken")
    status, view = admin(server, "POST", "/api/config/keys", {"teamID": "TEAM654321", "keyID": "KEY6543210",
                                                              "publicKeyPEM": public_pem, "bundleIDs": ["com.other.app"]})
    assert status == 200 and any(entry["keyID"] == "KEY6543210" for entry in view["keys"])
    assert push(server, topic="com.other.app", push_type="alert", jwt=other).status == 200
    disallowed = push(server, topic=BUNDLE, push_type="alert", jwt=other)
    assert (disallowed.status, json.loads(disallowed.body)["reason"]) == (400, "TopicDisallowed")


def test_bad_configuration_requests_get_clear_errors(server):
    status, body = admin(server, "POST", "/api/config/tokens", {"token": "xyz", "bundleID": BUNDLE})
    assert status == 400 and "hex" in body["error"]
    status, body = admin(server, "POST", "/api/config/nothing", {})
    assert status == 404 and "tokens, keys or faults" in body["error"]
