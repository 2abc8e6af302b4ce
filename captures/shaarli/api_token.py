#!/usr/bin/env python3
"""Mint a Shaarli REST API v1 token (standard library only): a JWT signed HS512 with the instance's
api.secret whose only claim is `iat`, the current time. Shaarli accepts it for 540 s
(ApiMiddleware::$TOKEN_DURATION) and refuses one issued in the future.

Usage: api_token.py SECRET   (prints the token)
"""
import base64
import hashlib
import hmac
import json
import sys
import time


def _base64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def mint(secret: str, issued_at: int | None = None) -> str:
    header = _base64url(json.dumps({"typ": "JWT", "alg": "HS512"}, separators=(",", ":")).encode())
    payload = _base64url(json.dumps({"iat": int(time.time()) if issued_at is None else issued_at},
                                    separators=(",", ":")).encode())
    signature = hmac.new(secret.encode(), f"{header}.{payload}".encode(), hashlib.sha512).digest()
    return f"{header}.{payload}.{_base64url(signature)}"


if __name__ == "__main__":
    print(mint(sys.argv[1]))
