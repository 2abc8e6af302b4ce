"""Values a probe file mints anew for every call: a token the client signs itself.

Some applications take no fixed credential: the client signs a short-lived token per call (a JWT
whose ``iat`` must be within the last few minutes, signed with a shared secret), so no value
written into a probe file stays valid for a whole run. A probe file names such a value once::

    minted:
      api_token: {jwt: {algorithm: HS512, secret: "...", issued_at: iat}}
    headers:
      authorization: "Bearer {api_token}"

and every call sends a fresh one, the same to both sides.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

_DIGESTS = {"HS256": hashlib.sha256, "HS384": hashlib.sha384, "HS512": hashlib.sha512}


def _base64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _json_part(value: dict[str, Any]) -> str:
    return _base64url(json.dumps(value, separators=(",", ":")).encode("utf-8"))


class JwtSpec(BaseModel):
    """An HMAC-signed JWT: ``claims`` as given, ``issued_at`` (a claim name) set to the call's
    time (moved by ``issued_offset``) in whole seconds, and ``expires_in`` seconds later under ``exp`` when given."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    algorithm: Literal["HS256", "HS384", "HS512"] = "HS256"
    secret: str
    claims: dict[str, Any] = {}
    issued_at: str | None = "iat"
    issued_offset: int = 0
    """Seconds added to the call's time for ``issued_at``: negative for a token issued that long
    ago (an expired one, which a probe sends to see it refused)."""
    expires_in: int | None = None

    def mint(self, now: float) -> str:
        claims = dict(self.claims)
        now += self.issued_offset
        if self.issued_at:
            claims[self.issued_at] = int(now)
        if self.expires_in is not None:
            claims["exp"] = int(now) + self.expires_in
        signed = f"{_json_part({'typ': 'JWT', 'alg': self.algorithm})}.{_json_part(claims)}"
        signature = hmac.new(self.secret.encode("utf-8"), signed.encode("ascii"), _DIGESTS[self.algorithm]).digest()
        return f"{signed}.{_base64url(signature)}"


class MintedValue(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    jwt: JwtSpec

    def mint(self, now: float | None = None) -> str:
        return self.jwt.mint(time.time() if now is None else now)
