#!/usr/bin/env python3
"""Scenario driver for privacyIDEA 3.14's REST API (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:18701 --mode capture [-v]

Every answer is an envelope `{"id", "jsonrpc": "2.0", "result": {"status", "value"}, "time", "version",
"versionnumber", "signature"}` (an error: `result.error {code, message}`, `status` false, and `detail`);
`time` is the answer's epoch clock and `signature` an RSA-PSS signature of the answer made with the key
of this start. Every call after the logins sends the admin JWT of token.txt in `PI-Authorization`
(no scheme); bodies are JSON. The seed (seed.py, run by start.sh, not recorded): README "Seed data".
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

TOKEN = (Path(__file__).resolve().parent / "token.txt").read_text().strip()
AUTH = {"PI-Authorization": TOKEN}


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose, token=None, headers=AUTH)


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", path, params=params or None, expect=expect)[1]

    def value(answer):
        return answer.get("result", {}).get("value") if isinstance(answer, dict) else answer

    def serials(answer):
        tokens = (value(answer) or {}).get("tokens") if isinstance(value(answer), dict) else None
        return [t["serial"] for t in tokens] if isinstance(tokens, list) else answer

    def names(answer):
        listed = value(answer)
        return sorted(p["name"] for p in listed) if isinstance(listed, list) else listed

    # ---- a. logins (the answers' tokens are not used: every later call sends token.txt's)
    call("POST", "/auth", {"username": "admin", "password": "wrong"}, headers={"PI-Authorization": ""}, expect=401)
    call("POST", "/auth", {"username": "admin", "password": "capenv-throwaway"}, headers={"PI-Authorization": ""},
         expect=200)
    call("GET", "/realm/", headers={"PI-Authorization": ""}, expect=401)

    # ---- b. reads before any write
    get("/healthz/")
    check("realms", sorted(value(get("/realm/")) or {}), ["corp", "partners"])
    get("/defaultrealm")
    get("/realm/superuser")
    get("/resolver/")
    get("/resolver/staff")
    get("/resolver/contractors")
    get("/resolver/nothing-here")
    get("/resolver/", type="passwdresolver")
    get("/user/", realm="corp")
    get("/user/", realm="partners")
    get("/user/", realm="corp", username="alice")
    check("policies", names(get("/policy/")), ["passthru-partners", "pin-from-userstore", "users-may-disable"])
    get("/policy/pin-from-userstore")
    get("/policy/users-may-disable")
    get("/policy/nothing-here")
    get("/policy/", scope="authentication")
    get("/policy/", scope="user")
    get("/policy/", active="false")
    get("/policy/", realm="partners")
    check("tokens", sorted(serials(get("/token/"))), ["SEED-HOTP-1", "SEED-HOTP-2", "SEED-SPASS-1", "SEED-SPASS-2"])
    get("/token/", serial="SEED-SPASS-1")
    get("/token/", serial="SEED-HOTP-2")
    get("/token/", serial="NO-SUCH-TOKEN")
    get("/token/", tokentype="hotp")
    get("/token/", tokentype="spass")
    get("/token/", user="alice", realm="corp")
    get("/token/", realm="partners")
    get("/token/", active="false")
    get("/token/", description="*static*")
    get("/token/", serial="SEED-*")
    get("/token/", sortby="serial")
    get("/token/", sortby="serial", sortdir="desc")
    get("/token/", sortby="description", sortdir="asc")
    get("/token/", sortby="serial", pagesize="2")
    get("/token/", sortby="serial", pagesize="2", page="2")
    get("/token/", sortby="serial", pagesize="3", page="2")
    get("/token/", pagesize="2", page="9")

    # ---- c. resolvers and realms: create, read, update (create-or-update at the name), delete
    call("POST", "/resolver/interns", {"type": "passwdresolver", "fileName": "staff.passwd"}, expect=200)
    get("/resolver/interns")
    get("/resolver/")
    call("POST", "/resolver/interns", {"type": "passwdresolver", "fileName": "contractors.passwd"}, expect=200)
    get("/resolver/interns")
    call("POST", "/realm/interns", {"resolvers": "interns"}, expect=200)
    check("realms after create", sorted(value(get("/realm/")) or {}), ["corp", "interns", "partners"])
    get("/user/", realm="interns")
    call("POST", "/realm/interns", {"resolvers": "interns,staff"}, expect=200)
    get("/realm/")
    get("/user/", realm="interns")
    call("POST", "/realm/interns", {"resolvers": "interns,no-such-resolver"}, expect=200)  # failed: [...]
    get("/realm/")
    call("POST", "/realm/no-resolvers", {}, expect=400)
    call("POST", "/realm/empty", {"resolvers": ""}, expect=400)
    call("POST", "/resolver/broken", {"fileName": "staff.passwd"}, expect=400)
    call("DELETE", "/resolver/interns", expect=400)  # still in realm interns
    call("DELETE", "/realm/interns", expect=200)
    get("/realm/")
    call("DELETE", "/realm/interns", expect=404)
    call("DELETE", "/resolver/interns", expect=200)
    get("/resolver/interns")
    get("/resolver/")
    call("DELETE", "/resolver/interns", expect=200)  # value -1: nothing was deleted
    call("POST", "/defaultrealm/partners", expect=200)
    get("/defaultrealm")
    get("/realm/")
    call("POST", "/defaultrealm/corp", expect=200)
    get("/defaultrealm")

    # ---- d. policies: create, read, update, enable/disable, delete
    call("POST", "/policy/lockout-admins", {"scope": "authentication", "action": "passthru", "realm": "corp",
                                            "description": "pass through to the user store", "priority": 3},
         expect=200)
    get("/policy/lockout-admins")
    check("policies after create", names(get("/policy/")),
          ["lockout-admins", "passthru-partners", "pin-from-userstore", "users-may-disable"])
    get("/policy/", scope="authentication")
    call("POST", "/policy/lockout-admins", {"scope": "authentication", "action": "otppin=tokenpin", "realm": "partners",
                                            "description": "PIN from the token", "priority": 4}, expect=200)
    get("/policy/lockout-admins")
    get("/policy/", realm="partners")
    call("POST", "/policy/disable/lockout-admins", expect=200)
    get("/policy/lockout-admins")
    get("/policy/", active="false")
    call("POST", "/policy/enable/lockout-admins", expect=200)
    get("/policy/lockout-admins")
    get("/policy/", active="true")
    call("POST", "/policy/user-self-service", {"scope": "user", "action": "enable", "realm": "partners",
                                               "active": False}, expect=200)
    get("/policy/user-self-service")
    get("/policy/", scope="user")
    call("POST", "/policy/bad scope", {"scope": "nope", "action": "x"}, expect=400)
    call("POST", "/policy/bad!name", {"scope": "authentication", "action": "passthru"}, expect=400)
    call("POST", "/policy/no-scope", {"action": "passthru"}, expect=400)
    call("POST", "/policy/disable/nothing-here", expect=404)
    call("DELETE", "/policy/lockout-admins", expect=200)
    get("/policy/lockout-admins")
    get("/policy/")
    call("DELETE", "/policy/lockout-admins", expect=404)
    call("DELETE", "/policy/nothing-here", expect=404)

    # ---- e. tokens: init (create, and again at the same serial), updates, assignment, delete
    call("POST", "/token/init", {"type": "spass", "serial": "NEW-SPASS-1", "description": "front desk",
                                 "pin": "desk-pin"}, expect=200)
    get("/token/", serial="NEW-SPASS-1")
    check("tokens after init", sorted(serials(get("/token/"))),
          ["NEW-SPASS-1", "SEED-HOTP-1", "SEED-HOTP-2", "SEED-SPASS-1", "SEED-SPASS-2"])
    get("/token/", tokentype="spass")
    get("/token/", sortby="serial", pagesize="2")
    call("POST", "/token/init", {"type": "hotp", "serial": "NEW-HOTP-1", "description": "bob's phone",
                                 "otpkey": "3132333435363738393031323334353637383930", "user": "bob",
                                 "realm": "corp"}, expect=200)
    get("/token/", serial="NEW-HOTP-1")
    get("/token/", user="bob", realm="corp")
    get("/token/", realm="corp")
    call("POST", "/token/description/NEW-SPASS-1", {"description": "front desk, level 2"}, expect=200)
    get("/token/", serial="NEW-SPASS-1")
    call("POST", "/token/disable/NEW-SPASS-1", {}, expect=200)
    get("/token/", serial="NEW-SPASS-1")
    get("/token/", active="false")
    call("POST", "/token/enable/NEW-SPASS-1", {}, expect=200)
    get("/token/", serial="NEW-SPASS-1")
    call("POST", "/token/set/NEW-SPASS-1", {"description": "set by set", "count_window": 20}, expect=200)
    get("/token/", serial="NEW-SPASS-1")
    call("POST", "/token/assign", {"serial": "NEW-SPASS-1", "user": "carol", "realm": "corp"}, expect=200)
    get("/token/", serial="NEW-SPASS-1")
    get("/token/", user="carol", realm="corp")
    call("POST", "/token/assign", {"serial": "NEW-SPASS-1", "user": "bob", "realm": "corp"}, expect=400)
    call("POST", "/token/unassign", {"serial": "NEW-SPASS-1"}, expect=200)
    get("/token/", serial="NEW-SPASS-1")
    call("POST", "/token/init", {"type": "spass", "serial": "NEW-SPASS-1", "description": "again at the serial",
                                 "pin": "desk-pin"}, expect=200)
    get("/token/", serial="NEW-SPASS-1")
    call("POST", "/token/description/SEED-SPASS-2", {"description": "spare, shelf 3"}, expect=200)
    get("/token/", serial="SEED-SPASS-2")
    call("POST", "/token/enable/SEED-HOTP-2", {}, expect=200)
    get("/token/", serial="SEED-HOTP-2")
    get("/token/", active="false")
    # errors
    call("POST", "/token/init", {"type": "spass", "serial": "NEW-SPASS-2", "user": "zed", "realm": "corp"},
         expect=400)
    call("POST", "/token/init", {"type": "spass", "serial": "NEW-SPASS-3", "user": "alice", "realm": "no-such-realm"},
         expect=400)
    call("POST", "/token/description/NO-SUCH-TOKEN", {"description": "x"}, expect=404)
    call("POST", "/token/disable/NO-SUCH-TOKEN", {}, expect=404)
    call("POST", "/token/assign", {"serial": "NO-SUCH-TOKEN", "user": "bob", "realm": "corp"}, expect=404)
    call("POST", "/token/init", raw="{not json", expect=400)
    # deletes
    call("DELETE", "/token/NEW-HOTP-1", expect=200)
    get("/token/", serial="NEW-HOTP-1")
    get("/token/", user="bob", realm="corp")
    call("DELETE", "/token/NEW-HOTP-1", expect=404)
    call("DELETE", "/token/SEED-SPASS-2", expect=200)
    check("tokens after deletes", sorted(serials(get("/token/"))),
          ["NEW-SPASS-1", "SEED-HOTP-1", "SEED-HOTP-2", "SEED-SPASS-1"])
    get("/token/", sortby="serial", pagesize="2", page="2")
    get("/token/", tokentype="spass")
    call("DELETE", "/realm/corp", expect=400)  # a user of it still holds a token
    call("DELETE", "/token/SEED-SPASS-1", expect=200)
    get("/token/", realm="corp")

    # ---- f. the lists once more after every write
    get("/realm/")
    get("/resolver/")
    get("/policy/")
    get("/policy/", scope="authentication")
    get("/token/")
    get("/token/", sortby="serial", sortdir="desc")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:18701")
