"""Client certificates for certificate-based provider authentication tests: the mock's own `apns-mock certgen`
issues the trusted ones (from certs/dev-ca.pem, which the server trusts by default); `self_signed` makes one in
APNs' shape that no trusted CA issued."""
import datetime
import subprocess

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

DEVELOPMENT_OID = "1.2.840.113635.100.6.3.1"
PRODUCTION_OID = "1.2.840.113635.100.6.3.2"


def certgen(binary, directory, bundle="com.example.app", environment="development", topics=()):
    """Runs `apns-mock certgen`; returns (cert.pem, key.pem, .p12) paths."""
    directory.mkdir(parents=True, exist_ok=True)
    command = [binary, "certgen", "--bundle", bundle, "--environment", environment, "--out", str(directory)]
    if topics:
        command += ["--topics", ",".join(topics)]
    subprocess.run(command, check=True, capture_output=True, timeout=30)
    base = directory / bundle
    return (str(base) + ".cert.pem", str(base) + ".key.pem", str(base) + ".p12")


def self_signed(directory, bundle="com.example.app"):
    """An APNs-shaped development certificate that signs itself (no trusted CA issued it)."""
    directory.mkdir(parents=True, exist_ok=True)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.USER_ID, bundle),
                      x509.NameAttribute(NameOID.COMMON_NAME, f"Apple Development IOS Push Services: {bundle}")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                   .serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(minutes=1)).not_valid_after(now + datetime.timedelta(days=1))
                   .add_extension(x509.UnrecognizedExtension(x509.ObjectIdentifier(DEVELOPMENT_OID), b"\x05\x00"),
                                  critical=False)
                   .sign(key, hashes.SHA256()))
    cert_path = directory / "self-signed.cert.pem"
    key_path = directory / "self-signed.key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return (str(cert_path), str(key_path))
