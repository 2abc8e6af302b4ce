#!/usr/bin/env python3
"""Seed a fresh privacyIDEA 3.14 through its own API (standard library only).

Usage: seed.py BASE_URL TOKEN  (run by start.sh on the app port, never through the recording proxy)

Every call sends the admin JWT of token.txt in `PI-Authorization`. What it makes (README "Seed data"):
- passwd resolvers `staff` (staff.passwd: alice, bob, carol) and `contractors` (contractors.passwd:
  dave, erin), the files named relative to the server's working directory;
- realms `corp` (resolver staff; the default realm, the first made) and `partners` (contractors);
- policies `pin-from-userstore` (authentication, otppin=userstore, realm corp), `passthru-partners`
  (authentication, passthru, realm partners, priority 2) and `users-may-disable` (user scope,
  disable, realm corp, inactive);
- tokens (fixed serials, ids 1-4 in this order): `SEED-SPASS-1` (spass, alice in corp), `SEED-SPASS-2`
  (spass, unassigned), `SEED-HOTP-1` (hotp with a fixed key, dave in partners) and `SEED-HOTP-2`
  (hotp, unassigned, then disabled).
"""
import json
import sys
import urllib.request

BASE, TOKEN = sys.argv[1].rstrip("/"), sys.argv[2].strip()


def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, data=data, method=method,
                                     headers={"PI-Authorization": TOKEN, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        result = json.loads(answer.read())["result"]
    if not result.get("status"):
        raise SystemExit(f"{method} {path}: {result}")
    return result.get("value")


call("POST", "/resolver/staff", {"type": "passwdresolver", "fileName": "staff.passwd"})
call("POST", "/resolver/contractors", {"type": "passwdresolver", "fileName": "contractors.passwd"})
call("POST", "/realm/corp", {"resolvers": "staff"})
call("POST", "/realm/partners", {"resolvers": "contractors"})
call("POST", "/policy/pin-from-userstore", {"scope": "authentication", "action": "otppin=userstore",
                                            "realm": "corp", "description": "PIN is the LDAP/passwd password"})
call("POST", "/policy/passthru-partners", {"scope": "authentication", "action": "passthru", "realm": "partners",
                                           "priority": 2})
call("POST", "/policy/users-may-disable", {"scope": "user", "action": "disable", "realm": "corp", "active": False})
call("POST", "/token/init", {"type": "spass", "serial": "SEED-SPASS-1", "description": "alice static",
                             "pin": "seed-pin-1", "user": "alice", "realm": "corp"})
call("POST", "/token/init", {"type": "spass", "serial": "SEED-SPASS-2", "description": "spare", "pin": "seed-pin-2"})
call("POST", "/token/init", {"type": "hotp", "serial": "SEED-HOTP-1", "description": "dave's phone",
                             "otpkey": "3132333435363738393031323334353637383930", "user": "dave",
                             "realm": "partners"})
call("POST", "/token/init", {"type": "hotp", "serial": "SEED-HOTP-2", "description": "lost hardware token",
                             "otpkey": "3837363534333231303938373635343332313039"})
call("POST", "/token/disable/SEED-HOTP-2", {})
