"""Certificate-based provider authentication (TLS client certificates) with real clients that load certificates:
curl --cert/--key, Python ssl + h2, httpx, aioapns (client_cert), kalyke's VoIPCertificateClient, apns2-up (the
PyAPNs2 family), and `apns-mock push --cert`. Certificates come from `apns-mock certgen` (the mock's TEST-ONLY CA,
trusted by the server by default); an untrusted one is self-signed. Each APNs answer is covered: 200 with the topic
defaulted to the bundle ID, TopicDisallowed, BadTopic, MissingTopic for a multi-topic certificate,
BadCertificateEnvironment, BadCertificate, a Live Activity push refused, a token on a certificate connection ignored,
and MissingProviderToken without either. (pyapns-client has no certificate option: token authentication only.)"""
import asyncio
import json
import pathlib
import subprocess
import urllib.request

import pytest
from cryptography import x509
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

from conftest import BINARY, CA
from helpers.certificates import DEVELOPMENT_OID, PRODUCTION_OID, certgen, self_signed
from helpers.h2client import H2Client

TOPICS_OID = "1.2.840.113635.100.6.3.6"
DEVICE = "d1" * 32
ALERT = b'{"aps":{"alert":"hi"}}'


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    base = tmp_path_factory.mktemp("certs")
    return {
        "development": certgen(BINARY, base / "development"),
        "production": certgen(BINARY, base / "production", environment="production"),
        "multi": certgen(BINARY, base / "multi", environment="both", topics=["com.example.app.voip"]),
        "untrusted": self_signed(base / "untrusted"),
    }


@pytest.fixture
def mock(start_server):
    return start_server("--production-port", "0")


def record(server, apns_id):
    with urllib.request.urlopen(f"{server.admin_url}/api/deliveries/{apns_id}", timeout=10) as response:
        return json.load(response)


def curl(port, cert=None, headers=(), body=ALERT, token=DEVICE):
    command = ["curl", "-sS", "--http2", "--cacert", CA, "-o", "-", "-D", "-", "--max-time", "20",
               "-X", "POST", "--data-binary", body.decode()]
    if cert:
        command += ["--cert", cert[0], "--key", cert[1]]
    for header in headers:
        command += ["-H", header]
    done = subprocess.run(command + [f"https://localhost:{port}/3/device/{token}"], capture_output=True, timeout=30)
    assert done.returncode == 0, done.stderr
    head, _, body_text = done.stdout.decode().partition("\r\n\r\n")
    status = int(head.split()[1])
    fields = dict(line.split(": ", 1) for line in head.split("\r\n")[1:] if ": " in line)
    reason = json.loads(body_text)["reason"] if body_text.strip() else None
    return status, reason, fields.get("apns-id")


def test_certgen_issues_an_apple_shaped_certificate_a_key_and_a_p12(certs, tmp_path):
    cert_path, key_path, p12_path = certs["multi"]
    certificate = x509.load_pem_x509_certificate(open(cert_path, "rb").read())
    assert certificate.subject.get_attributes_for_oid(NameOID.USER_ID)[0].value == "com.example.app"
    assert certificate.subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value == \
        "Apple Push Services: com.example.app"
    oids = {extension.oid.dotted_string for extension in certificate.extensions}
    assert {DEVELOPMENT_OID, PRODUCTION_OID, TOPICS_OID} <= oids
    topics = certificate.extensions.get_extension_for_oid(x509.ObjectIdentifier(TOPICS_OID)).value.value
    assert b"com.example.app.voip" in topics and b"voip" in topics
    ca = x509.load_pem_x509_certificate(open(CA, "rb").read())
    certificate.verify_directly_issued_by(ca)
    key, bundled, _ = pkcs12.load_key_and_certificates(open(p12_path, "rb").read(), b"apns-mock")
    assert bundled == certificate and key is not None

    development = x509.load_pem_x509_certificate(open(certs["development"][0], "rb").read())
    assert {e.oid.dotted_string for e in development.extensions} >= {DEVELOPMENT_OID}
    assert PRODUCTION_OID not in {e.oid.dotted_string for e in development.extensions}
    assert TOPICS_OID not in {e.oid.dotted_string for e in development.extensions}

    again = subprocess.run([BINARY, "certgen", "--bundle", "com.example.app", "--out",
                            str(pathlib_parent(cert_path))], capture_output=True, text=True, timeout=30)
    assert again.returncode != 0 and "already exists" in again.stderr, "certgen never overwrites"
    bad = subprocess.run([BINARY, "certgen", "--bundle", "com example", "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=30)
    assert bad.returncode != 0 and "not a bundle ID" in bad.stderr


def pathlib_parent(path):
    return pathlib.Path(path).parent


def test_curl_with_a_certificate_gets_each_apns_answer(mock, certs):
    development, production, untrusted = certs["development"], certs["production"], certs["untrusted"]
    alert = ["apns-push-type: alert"]

    status, reason, apns_id = curl(mock.tls_port, development, alert)
    assert (status, reason) == (200, None)
    accepted = record(mock, apns_id)
    assert accepted["topic"] == "com.example.app", "topic omitted: APNs defaults it to the certificate's bundle ID"
    assert accepted["clientCertificate"]["bundleId"] == "com.example.app"
    assert accepted["clientCertificate"]["environments"] == ["development"]
    assert accepted["clientCertificate"]["topics"] == ["com.example.app"]
    assert accepted["clientCertificate"]["trusted"] is True
    assert "UID=com.example.app" in accepted["clientCertificate"]["subject"]
    assert "providerToken" not in accepted

    assert curl(mock.tls_port, development, alert + ["apns-topic: com.other.app"])[:2] == (400, "TopicDisallowed")
    assert curl(mock.tls_port, development, alert + ["apns-topic: com example"])[:2] == (400, "BadTopic")
    assert curl(mock.tls_port, development, ["apns-push-type: liveactivity",
                                             "apns-topic: com.example.app.push-type.liveactivity"],
                body=b'{"aps":{"timestamp":1767225600,"event":"update","content-state":{}}}')[:2] == \
        (400, "TopicDisallowed"), "Live Activity pushes need token authentication (F-712499)"
    assert curl(mock.production_port, development, alert)[:2] == (403, "BadCertificateEnvironment")
    assert curl(mock.tls_port, production, alert)[:2] == (403, "BadCertificateEnvironment")
    assert curl(mock.production_port, production, alert)[:2] == (200, None)
    status, reason, apns_id = curl(mock.tls_port, untrusted, alert + ["apns-topic: com.example.app"])
    assert (status, reason) == (403, "BadCertificate")
    refused = record(mock, apns_id)
    assert refused["clientCertificate"]["trusted"] is False and "not trusted" in refused["clientCertificate"]["problem"]
    assert curl(mock.tls_port, None, alert + ["apns-topic: com.example.app"])[:2] == (403, "MissingProviderToken"), \
        "no certificate and no token: token authentication as before"


def test_h2_certificate_for_the_wrong_environment_gets_403_then_goaway(mock, certs):
    client = H2Client(mock.production_port, ca=CA, cert=certs["development"][:2], timeout=10)
    try:
        response = client.response(client.request(
            "/3/device/" + DEVICE, [("apns-topic", "com.example.app"), ("apns-push-type", "alert")], ALERT))
        assert response.status == 403
        assert json.loads(response.body) == {"reason": "BadCertificateEnvironment"}
        client.wait_for(lambda: client.goaway is not None)
        assert client.goaway.error_code == 0
        assert json.loads(client.goaway.additional_data) == {"reason": "BadCertificateEnvironment"}
    finally:
        client.close()


def test_h2_certificate_connection_allows_many_streams_at_once(mock, certs):
    client = H2Client(mock.tls_port, ca=CA, cert=certs["development"][:2], timeout=10)
    try:
        client.wait_settings()
        assert client.conn.remote_settings.max_concurrent_streams == 1000, \
            "the one-stream rule is for connections that must first present a valid token"
    finally:
        client.close()


def test_httpx_with_a_multi_topic_certificate(mock, certs):
    import ssl

    import httpx

    cert, key, _ = certs["multi"]
    context = ssl.create_default_context(cafile=CA)
    context.load_cert_chain(cert, key)
    with httpx.Client(http2=True, verify=context, timeout=10) as client:
        url = f"https://localhost:{mock.tls_port}/3/device/{DEVICE}"
        missing = client.post(url, headers={"apns-push-type": "alert"}, content=ALERT)
        assert (missing.status_code, missing.json()["reason"]) == (400, "MissingTopic"), \
            "several topics: apns-topic is required"
        voip = client.post(url, headers={"apns-push-type": "voip", "apns-topic": "com.example.app.voip"},
                           content=b'{"aps":{},"call":"1"}')
        assert voip.status_code == 200 and voip.http_version == "HTTP/2"
        other = client.post(url, headers={"apns-push-type": "complication",
                                          "apns-topic": "com.example.app.complication"}, content=ALERT)
        assert (other.status_code, other.json()["reason"]) == (400, "TopicDisallowed")
        with_token = client.post(url, headers={"apns-push-type": "alert", "apns-topic": "com.example.app",
                                               "authorization": "bearer not-a-jwt"}, content=ALERT)
        assert with_token.status_code == 200, "APNs ignores authorization on certificate connections (A-SEND)"
    ignored = record(mock, with_token.headers["apns-id"])
    assert [w["code"] for w in ignored["warnings"]] == ["token-on-certificate-connection"]
    recorded = record(mock, voip.headers["apns-id"])
    assert recorded["clientCertificate"]["topics"] == ["com.example.app", "com.example.app.voip"]
    assert recorded["clientCertificate"]["environments"] == ["development", "production"]


def test_verify_mode_checks_a_token_on_a_certificate_connection(start_server, certs, tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"rules": {"tokenOnCertificateConnection": "verify"}}))
    server = start_server("--config", str(config))
    status, reason, _ = curl(server.tls_port, certs["development"],
                             ["apns-push-type: alert", "apns-topic: com.example.app", "authorization: bearer x.y.z"])
    assert (status, reason) == (403, "InvalidProviderToken")


def test_aioapns_client_cert(mock, certs, tmp_path):
    import ssl

    import aioapns.connection as connection
    from aioapns import APNs, NotificationRequest, PushType

    cert, key, _ = certs["development"]
    combined = tmp_path / "combined.pem"
    combined.write_text(open(cert).read() + open(key).read())
    connection.APNsDevelopmentClientProtocol.APNS_SERVER = "localhost"
    connection.APNsTLSClientProtocol.APNS_PORT = mock.tls_port

    async def send():
        client = APNs(client_cert=str(combined), topic="com.example.app", use_sandbox=True,
                      ssl_context=ssl.create_default_context(cafile=CA))
        accepted = await client.send_notification(NotificationRequest(
            device_token=DEVICE, message={"aps": {"alert": "hi"}}, push_type=PushType.ALERT))
        return accepted

    accepted = asyncio.run(asyncio.wait_for(send(), timeout=30))
    assert accepted.is_successful, accepted.description
    assert record(mock, accepted.notification_id)["clientCertificate"]["bundleId"] == "com.example.app"


def test_kalyke_voip_certificate_client(mock, certs, monkeypatch):
    monkeypatch.setenv("SSL_CERT_FILE", CA)
    from kalyke import VoIPApnsConfig
    from kalyke.clients.voip_certificate import VoIPCertificateClient

    port = mock.tls_port

    class MockVoIPCertificateClient(VoIPCertificateClient):
        @property
        def _base_url(self):
            return f"https://localhost:{port}"

    cert, key, _ = certs["multi"]
    with pytest.warns(DeprecationWarning):
        client = MockVoIPCertificateClient(use_sandbox=True, auth_key_filepath=cert, key_filepath=key)
    apns_id = asyncio.run(asyncio.wait_for(client.send_message(
        device_token=DEVICE, payload={"call": "1"}, apns_config=VoIPApnsConfig(topic="com.example.app.voip")),
        timeout=30))
    assert record(mock, apns_id)["status"] == 200


def test_explain_shows_the_certificate(mock, certs):
    _, _, apns_id = curl(mock.tls_port, certs["development"], ["apns-push-type: alert", "apns-topic: com.other.app"])
    done = subprocess.run([BINARY, "explain", apns_id, "--admin-port", str(mock.admin_port)], capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert "Client certificate" in done.stdout
    assert "com.example.app" in done.stdout and "TopicDisallowed" in done.stdout


def push_with(server, *args, port=None):
    command = [BINARY, "push", "--url", f"https://localhost:{port or server.tls_port}", "--admin-url", server.admin_url,
               "--device-token", DEVICE, "--json", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_push_cli_sends_with_a_certificate(mock, certs):
    cert, key, _ = certs["development"]
    sent = push_with(mock, "--cert", cert, "--cert-key", key, "--alert-body", "hi")
    assert sent.returncode == 0, sent.stdout + sent.stderr
    answer = json.loads(sent.stdout.splitlines()[0])
    stored = record(mock, answer["apnsID"])
    assert stored["clientCertificate"]["bundleId"] == "com.example.app"
    assert "providerToken" not in stored and not any(h["name"] == "authorization" for h in stored["headers"]), \
        "a certificate push sends no token"

    wrong = push_with(mock, "--cert", cert, "--cert-key", key, port=mock.production_port)
    assert wrong.returncode == 1, wrong.stdout + wrong.stderr
    assert json.loads(wrong.stdout.splitlines()[0])["reason"] == "BadCertificateEnvironment"

    both = push_with(mock, "--cert", cert, "--key-file", "x.p8")
    assert both.returncode == 2 and "choose one" in both.stderr


def test_inspector_shows_the_certificate(mock, certs):
    from test_inspector import ROW_FOR_TOKEN, Browser, CHROMIUM

    if CHROMIUM is None:
        pytest.fail("chromium is not installed (Debian package `chromium`)")
    browser = Browser()
    try:
        browser.call("Page.navigate", url=mock.admin_url + "/")
        browser.wait_for("document.getElementById('status')?.textContent === 'live'")
        token = "ce" * 32
        assert curl(mock.tls_port, certs["multi"], ["apns-push-type: alert", "apns-topic: com.other.app"],
                    token=token)[:2] == (400, "TopicDisallowed")
        row = browser.wait_for(ROW_FOR_TOKEN.format(token=token))
        browser.evaluate(f"document.querySelector('tr[data-id=\"{row['id']}\"]').click()")
        detail = browser.wait_for(
            "(t => t.includes('Client certificate') ? t : null)(document.getElementById('detail')?.textContent || '')")
        for shown in ("UID=com.example.app", "development, production", "com.example.app, com.example.app.voip"):
            assert shown in detail
    finally:
        browser.close()


def test_push_cli_sends_with_a_p12(mock, certs):
    _, _, p12 = certs["development"]
    sent = push_with(mock, "--cert", p12, "--cert-password", "apns-mock")
    assert sent.returncode == 0, sent.stdout + sent.stderr
    assert record(mock, json.loads(sent.stdout.splitlines()[0])["apnsID"])["clientCertificate"]["bundleId"] == \
        "com.example.app"
    wrong = push_with(mock, "--cert", p12, "--cert-password", "nope")
    assert wrong.returncode == 2 and "wrong --cert-password" in wrong.stderr


def test_pyapns2_family_certificate_credentials(mock, certs, tmp_path):
    """apns2-up, the maintained PyAPNs2 fork (hyper): CertificateCredentials with one PEM holding certificate and key."""
    from apns2 import errors
    from apns2.client import APNsClient
    from apns2.credentials import CertificateCredentials
    from apns2.payload import Payload

    cert, key, _ = certs["development"]
    combined = tmp_path / "combined.pem"
    combined.write_text(open(cert).read() + open(key).read())
    credentials = CertificateCredentials(str(combined))
    credentials._Credentials__ssl_context.load_verify_locations(CA)  # trust the mock's TEST-ONLY CA

    class MockAPNsClient(APNsClient):
        SANDBOX_SERVER = "localhost"
        ALTERNATIVE_PORT = mock.tls_port

    client = MockAPNsClient(credentials, use_sandbox=True, use_alternative_port=True)
    client.send_notification(DEVICE, Payload(alert="hi"), topic="com.example.app")
    with pytest.raises(errors.TopicDisallowed):
        client.send_notification(DEVICE, Payload(alert="hi"), topic="com.other.app")
    with urllib.request.urlopen(f"{mock.admin_url}/api/deliveries?token={DEVICE}", timeout=10) as response:
        statuses = sorted(d["status"] for d in json.load(response)["deliveries"])
    assert statuses == [200, 400]


def test_channel_management_and_broadcast_sends_with_a_certificate(start_server, certs):
    """Broadcast and channel management accept certificate connections too (A-BSEND shows one): the certificate's
    environment and bundle decide, with httpx presenting the certificate over HTTP/2."""
    server = start_server("--manage-port", "0")
    manage = f"https://localhost:{server.announcement['manage_port']}/1/apps/com.example.app"
    send = f"https://localhost:{server.tls_port}/4/broadcasts/apps/com.example.app"
    create = {"message-storage-policy": 1, "push-type": "LiveActivity"}
    import ssl

    import httpx

    def client(kind):
        context = ssl.create_default_context(cafile=CA)
        context.load_cert_chain(*certs[kind][:2])
        return httpx.Client(http2=True, verify=context, timeout=20)

    with client("development") as http:
        created = http.post(f"{manage}/channels", json=create)
        assert created.status_code == 201, created.text
        channel = created.headers["apns-channel-id"]
        sent = http.post(send, headers={"apns-channel-id": channel, "apns-push-type": "LiveActivity", "apns-priority": "10",
                                        "apns-expiration": "0"},
                         content=b'{"aps":{"event":"update","timestamp":1,"content-state":{}}}')
        assert sent.status_code == 200, sent.text
        other = http.get(manage.replace("com.example.app", "com.other.app") + "/all-channels")
        assert (other.status_code, other.json()["reason"]) == (403, "TopicMismatch")
    with client("production") as http:
        wrong = http.get(f"{manage}/all-channels")
        assert (wrong.status_code, wrong.json()["reason"]) == (403, "BadCertificateEnvironment")
    with client("untrusted") as http:
        untrusted = http.get(f"{manage}/all-channels")
        assert (untrusted.status_code, untrusted.json()["reason"]) == (403, "BadCertificate")
