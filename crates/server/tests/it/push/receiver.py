"""An independent Web Push receiver for the tests (issue 38): what a browser does with a push
message, written apart from the site's Rust. `keys` makes a browser's subscription keys;
`open` decrypts a message body with them (RFC 8291 with RFC 8188's aes128gcm, by http_ece)
and checks the VAPID Authorization header (RFC 8292) against the site's public key.
Prints JSON on stdout; exits non-zero, saying why, on any failure."""

import base64
import json
import os
import sys
import time

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils


def b64d(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def keys():
    private = ec.generate_private_key(ec.SECP256R1())
    point = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    scalar = private.private_numbers().private_value.to_bytes(32, "big")
    print(json.dumps({"private": b64e(scalar), "p256dh": b64e(point), "auth": b64e(os.urandom(16))}))


def check_vapid(header, site_key, origin):
    if not header.startswith("vapid "):
        sys.exit(f"Authorization is not 'vapid ...': {header!r}")
    parts = dict(p.strip().split("=", 1) for p in header[len("vapid "):].split(","))
    if parts.get("k") != site_key:
        sys.exit(f"k={parts.get('k')!r} is not the site's key {site_key!r}")
    token = parts["t"]
    head, claims, signature = token.split(".")
    if json.loads(b64d(head)).get("alg") != "ES256":
        sys.exit("the JWT is not ES256")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64d(site_key))
    raw = b64d(signature)
    der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    claims = json.loads(b64d(claims))
    if claims.get("aud") != origin:
        sys.exit(f"aud {claims.get('aud')!r} is not the push service's origin {origin!r}")
    now = time.time()
    if not now < claims["exp"] <= now + 24 * 3600 + 60:
        sys.exit(f"exp {claims['exp']} is not within 24 h from now ({now})")
    sub = claims.get("sub", "")
    if not (sub.startswith("mailto:") or sub.startswith("https:")):
        sys.exit(f"sub {sub!r} is neither mailto: nor https:")
    return claims


def open_message(private, auth, body_path, authorization, site_key, origin):
    scalar = int.from_bytes(b64d(private), "big")
    key = ec.derive_private_key(scalar, ec.SECP256R1())
    with open(body_path, "rb") as f:
        body = f.read()
    plain = http_ece.decrypt(body, private_key=key, auth_secret=b64d(auth), version="aes128gcm")
    claims = check_vapid(authorization, site_key, origin)
    print(json.dumps({"message": json.loads(plain), "claims": claims}))


if __name__ == "__main__":
    if sys.argv[1:2] == ["keys"]:
        keys()
    elif sys.argv[1:2] == ["open"] and len(sys.argv) == 8:
        open_message(*sys.argv[2:])
    else:
        sys.exit("usage: receiver.py keys | open PRIVATE AUTH BODY_FILE AUTHORIZATION SITE_KEY ORIGIN")
