#!/usr/bin/env python3
"""Scenario driver for the PowerDNS Authoritative Server 4.7.3 HTTP API (talks to the mitmproxy
reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42661 --mode capture [-v]

Every call sends the throwaway API key of start.sh in `X-API-Key`.
The seed (seed.py, run by start.sh, not recorded): zones `example.org.` (Native) and `example.net.`
(Master, account "ops"), both with a fixed SOA (serial 1, soa_edit_api ""); the TSIG key `seed-key`;
metadata ALLOW-AXFR-FROM on example.org. and X-Owner on example.net.
Zone and TSIG key ids end in a dot (`example.org.`, `seed-key.`); cryptokey ids are integers.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API_KEY = "pdns-capture-key-not-a-secret-0001"   # start.sh's throwaway key
SERVER = "/api/v1/servers/localhost"
ZONES = f"{SERVER}/zones"
TSIG = f"{SERVER}/tsigkeys"
ORG, NET = "example.org.", "example.net."
DEMO, LAB = "demo.test.", "lab.example."     # zones the scenario creates (the client names them)


def make_driver(base, min_sleep, max_sleep, verbose):
    driver = Driver(base, min_sleep, max_sleep, verbose)
    driver.c.headers["X-API-Key"] = API_KEY
    return driver


def rrset(name, rtype, ttl, *contents, changetype=None):
    entry = {"name": name, "type": rtype, "ttl": ttl,
             "records": [{"content": content, "disabled": False} for content in contents]}
    if changetype:
        entry["changetype"] = changetype
    return entry


def capture(d):
    call, check = d.call, d.check

    get = d.get

    def patch(zone, *rrsets, expect=204):
        return call("PATCH", f"{ZONES}/{zone}", {"rrsets": list(rrsets)}, expect=expect)[1]

    # ---- a. reads before any write: the server, every list and item, absences
    get("/api/v1/servers")
    get(SERVER)
    get(ZONES)
    get(f"{ZONES}/{ORG}")
    get(f"{ZONES}/{NET}")
    get(f"{ZONES}/example.org")                   # the same zone, named without its final dot
    get(f"{ZONES}/{ORG}/export")
    get(f"{ZONES}/{ORG}/metadata")
    get(f"{ZONES}/{ORG}/metadata/ALLOW-AXFR-FROM")
    get(f"{ZONES}/{NET}/metadata")
    get(f"{ZONES}/{NET}/metadata/X-Owner")
    get(f"{ZONES}/{ORG}/cryptokeys")
    get(TSIG)
    get(f"{TSIG}/seed-key.")
    get(f"{ZONES}/nowhere.test.", 404)            # a zone that never existed
    get(f"{TSIG}/no-such-key.", 404)             # a key that never existed
    get(f"{ZONES}/seed-key.", 404)                # a TSIG key's id read as a zone
    get(f"{TSIG}/{ORG}", 404)                     # a zone's id read as a TSIG key
    get(f"{ZONES}/nowhere.test./metadata", 404)
    get(f"{ZONES}/{ORG}/cryptokeys/77", 404)

    # ---- b. creates, each followed by its item read and the list
    a = call("POST", ZONES, {"name": DEMO, "kind": "Native", "nameservers": ["ns1.demo.test."],
                             "rrsets": [rrset("www.demo.test.", "A", 300, "203.0.113.5")]}, expect=201)[1]
    check("zone id", a.get("id") if isinstance(a, dict) else None, DEMO)
    get(f"{ZONES}/{DEMO}")
    get(ZONES)
    call("POST", ZONES, {"name": LAB, "kind": "Master", "account": "lab", "soa_edit_api": "",
                         "nameservers": [],
                         "rrsets": [rrset(LAB, "SOA", 3600, f"ns1.{LAB} hostmaster.{LAB} 7 10800 3600 604800 3600"),
                                    rrset(LAB, "NS", 3600, f"ns1.{LAB}"),
                                    rrset(f"app.{LAB}", "A", 120, "203.0.113.80")]}, expect=201)
    get(f"{ZONES}/{LAB}")
    get(ZONES)
    get(f"{ZONES}/{LAB}/export")
    a = call("POST", TSIG, {"name": "xfer-key", "algorithm": "hmac-sha256"}, expect=201)[1]  # generated key
    check("tsig id", a.get("id") if isinstance(a, dict) else None, "xfer-key.")
    get(f"{TSIG}/xfer-key.")
    get(TSIG)
    call("POST", TSIG, {"name": "given-key", "algorithm": "hmac-sha512",
                        "key": "Z2l2ZW4ta2V5LWZvci10aGUtY2FwdHVyZS1vbmx5"}, expect=201)
    get(f"{TSIG}/given-key.")
    get(TSIG)
    call("POST", f"{ZONES}/{DEMO}/metadata", {"kind": "X-Note", "metadata": ["made by the driver"]}, expect=201)
    get(f"{ZONES}/{DEMO}/metadata/X-Note")
    get(f"{ZONES}/{DEMO}/metadata")
    call("POST", f"{ZONES}/{ORG}/metadata", {"kind": "X-Note", "metadata": ["seeded zone", "second value"]},
         expect=201)
    get(f"{ZONES}/{ORG}/metadata/X-Note")
    get(f"{ZONES}/{ORG}/metadata")
    k = call("POST", f"{ZONES}/{LAB}/cryptokeys", {"keytype": "csk", "active": True,
                                                    "algorithm": "ECDSAP256SHA256"}, expect=201)[1]
    key_id = k.get("id") if isinstance(k, dict) else 1
    get(f"{ZONES}/{LAB}/cryptokeys/{key_id}")
    get(f"{ZONES}/{LAB}/cryptokeys")
    get(f"{ZONES}/{LAB}")                         # dnssec: true now

    # ---- c. updates: PATCH rrsets (204), PUT zone metadata (204), PUT of a key or metadata (200)
    patch(ORG, rrset("www.example.org.", "A", 300, "192.0.2.11", changetype="REPLACE"))
    get(f"{ZONES}/{ORG}")
    get(f"{ZONES}/example.org")
    get(f"{ZONES}/{ORG}/export")
    patch(ORG, rrset("ftp.example.org.", "A", 900, "192.0.2.21", "192.0.2.22", changetype="REPLACE"))
    get(f"{ZONES}/{ORG}")
    patch(ORG, rrset("example.org.", "TXT", 3600, changetype="DELETE"))
    get(f"{ZONES}/{ORG}")
    patch(ORG, rrset("mail.example.org.", "A", 60, "192.0.2.26", changetype="REPLACE"),
          rrset("ftp.example.org.", "A", 900, changetype="DELETE"))
    get(f"{ZONES}/{ORG}")
    get(ZONES)
    patch(DEMO, rrset("api.demo.test.", "CNAME", 300, "www.demo.test.", changetype="REPLACE"))
    get(f"{ZONES}/{DEMO}")                        # soa_edit_api DEFAULT: the serial moves
    get(ZONES)
    patch(NET, rrset("www.example.net.", "AAAA", 600, "2001:db8::8", changetype="REPLACE"))
    get(f"{ZONES}/{NET}")
    call("PUT", f"{ZONES}/{NET}", {"kind": "Native", "account": "ops2"}, expect=204)
    get(f"{ZONES}/{NET}")
    get(ZONES)
    call("PUT", f"{ZONES}/{LAB}", {"account": "lab2"}, expect=204)
    get(f"{ZONES}/{LAB}")
    call("PUT", f"{ZONES}/{ORG}/metadata/X-Note", {"metadata": ["rewritten"]}, expect=200)
    get(f"{ZONES}/{ORG}/metadata/X-Note")
    get(f"{ZONES}/{ORG}/metadata")
    call("PUT", f"{TSIG}/xfer-key.", {"algorithm": "hmac-sha512"}, expect=200)
    get(f"{TSIG}/xfer-key.")
    call("PUT", f"{TSIG}/seed-key.", {"key": "cmVrZXllZC1zZWVkLWtleS1zZWNyZXQ="}, expect=200)
    get(f"{TSIG}/seed-key.")
    get(TSIG)
    call("PUT", f"{ZONES}/{LAB}/cryptokeys/{key_id}", {"active": False}, expect=204)
    get(f"{ZONES}/{LAB}/cryptokeys/{key_id}")
    get(f"{ZONES}/{LAB}/cryptokeys")

    # ---- d. deletes, each followed by a read of what is gone and the list
    call("DELETE", f"{ZONES}/{DEMO}/metadata/X-Note", expect=200)
    get(f"{ZONES}/{DEMO}/metadata/X-Note")         # 200 with an empty metadata list, not 404
    get(f"{ZONES}/{DEMO}/metadata")
    call("DELETE", f"{TSIG}/given-key.", expect=204)
    get(f"{TSIG}/given-key.", 404)
    get(TSIG)
    call("DELETE", f"{ZONES}/{LAB}/cryptokeys/{key_id}", expect=204)
    get(f"{ZONES}/{LAB}/cryptokeys/{key_id}", 404)
    get(f"{ZONES}/{LAB}/cryptokeys")
    call("DELETE", f"{ZONES}/{DEMO}", expect=204)
    get(f"{ZONES}/{DEMO}", 404)
    get(f"{ZONES}/{DEMO}/metadata", 404)
    get(ZONES)
    a = call("POST", ZONES, {"name": DEMO, "kind": "Native", "nameservers": ["ns9.demo.test."]}, expect=201)[1]
    get(f"{ZONES}/{DEMO}")                         # the name again: a new zone, no records of the old one
    get(ZONES)

    # ---- e. queries: a zone by name, without DNSSEC fields, without rrsets; search-data
    get(ZONES, zone=ORG)
    get(ZONES, zone=LAB)
    get(ZONES, zone="nowhere.test.")
    get(ZONES, dnssec="false")
    get(f"{ZONES}/{NET}", rrsets="false")
    get(f"{SERVER}/search-data", q="www*")
    get(f"{SERVER}/search-data", q="*.example.org.")
    get(f"{SERVER}/search-data", q="192.0.2.*")
    get(f"{SERVER}/search-data", q="*example*", object_type="zone")
    get(f"{SERVER}/search-data", q="*", object_type="record", max="4")
    get(f"{SERVER}/search-data", q="nothing-matches-this")
    get(f"{SERVER}/statistics", statistic="uptime")

    # ---- f. refusals
    call("POST", ZONES, {"name": ORG, "kind": "Native"}, expect=409)                  # exists
    call("POST", ZONES, {"name": "no-final-dot.test", "kind": "Native"}, expect=422)
    call("POST", ZONES, {"kind": "Native"}, expect=422)                               # no name
    patch(ORG, {"name": "www.example.org.", "type": "A", "ttl": 300, "records": []}, expect=422)  # no changetype
    call("POST", ZONES, raw="{not json", expect=400)
    patch("nowhere.test.", rrset("www.nowhere.test.", "A", 300, "192.0.2.1", changetype="REPLACE"), expect=404)
    patch(ORG, rrset("www.example.com.", "A", 300, "192.0.2.1", changetype="REPLACE"), expect=422)  # out of zone
    patch(ORG, rrset("www.example.org.", "A", 300, "192.0.2.1", changetype="UPSERT"), expect=422)
    patch(ORG, rrset("www.example.org.", "A", 300, "not-an-address", changetype="REPLACE"), expect=422)
    call("PUT", f"{ZONES}/nowhere.test.", {"account": "x"}, expect=404)
    call("DELETE", f"{ZONES}/nowhere.test.", expect=404)
    call("POST", TSIG, {"name": "seed-key", "algorithm": "hmac-sha256"}, expect=409)
    call("POST", TSIG, {"name": "odd-key", "algorithm": "hmac-nope"}, expect=400)
    call("PUT", f"{TSIG}/no-such-key.", {"algorithm": "hmac-sha256"}, expect=404)
    call("DELETE", f"{TSIG}/given-key.", expect=404)                               # already gone
    call("POST", f"{ZONES}/{ORG}/metadata", {"kind": "BOGUS", "metadata": ["x"]}, expect=422)
    call("POST", f"{ZONES}/{ORG}/cryptokeys", {"keytype": "zsk", "active": True, "algorithm": "nope"},
         expect=422)

    # ---- g. final state
    get(ZONES)
    for zone in (ORG, NET, LAB, DEMO):
        get(f"{ZONES}/{zone}")
        get(f"{ZONES}/{zone}/metadata")
    get(f"{ZONES}/{ORG}/export")
    get(TSIG)
    get(f"{TSIG}/seed-key.")
    get(f"{TSIG}/xfer-key.")
    get(f"{TSIG}/given-key.", 404)


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42661")
