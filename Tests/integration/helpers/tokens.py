"""Provider tokens made by implementations we did not write: PyJWT (raw r||s signature) and Apple's documented
openssl shell recipe (DER signature)."""
import base64
import json
import pathlib
import subprocess
import time

import jwt

CERTS = pathlib.Path(__file__).resolve().parents[3] / "certs"
TEAM_ID = "TEAM123456"
KEY_ID = "ABC123DEFG"
KEY_PATH = CERTS / "AuthKey_ABC123DEFG.p8"
BUNDLE = "com.example.app"
LA_TOPIC = BUNDLE + ".push-type.liveactivity"


def pyjwt_token(iat=None, team=TEAM_ID, key_id=KEY_ID, key_path=KEY_PATH):
    issued = int(time.time()) if iat is None else iat
    return jwt.encode({"iss": team, "iat": issued}, key_path.read_text(), algorithm="ES256", headers={"kid": key_id})


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def openssl_token(iat=None, team=TEAM_ID, key_id=KEY_ID, key_path=KEY_PATH):
    """As in Apple's "Sending push notifications using command-line tools": openssl dgst -sha256 -sign (DER)."""
    issued = int(time.time()) if iat is None else iat
    header = _b64url(json.dumps({"alg": "ES256", "kid": key_id}).encode())
    claims = _b64url(json.dumps({"iss": team, "iat": issued}).encode())
    signature = subprocess.run(["openssl", "dgst", "-binary", "-sha256", "-sign", str(key_path)],
                               input=f"{header}.{claims}".encode(), capture_output=True, check=True).stdout
    return f"{header}.{claims}.{_b64url(signature)}"


def alg_none_token(team=TEAM_ID, key_id=KEY_ID):
    header = _b64url(json.dumps({"alg": "none", "kid": key_id}).encode())
    claims = _b64url(json.dumps({"iss": team, "iat": int(time.time())}).encode())
    return f"{header}.{claims}."
