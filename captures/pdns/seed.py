#!/usr/bin/env python3
"""Seed a fresh PowerDNS Authoritative Server through its HTTP API (standard library only).

Usage: python3 seed.py BASE_URL API_KEY    (start.sh runs it on the API port, not recorded)

Two zones with every record fixed, so a read of the seed answers the same on every start and on
every day: each zone is created with its own SOA record (serial 1) and `soa_edit_api: ""`, which
keeps PowerDNS from stamping a date-based serial (YYYYMMDDnn) on it now or on a later PATCH.
Also a TSIG key with a key the seed chooses, and one metadata entry per zone.
"""
import json
import sys
import urllib.request

SERVER = "/api/v1/servers/localhost"


def soa(zone: str) -> dict:
    return {"name": zone, "type": "SOA", "ttl": 3600,
            "records": [{"content": f"ns1.{zone} hostmaster.{zone} 1 10800 3600 604800 3600", "disabled": False}]}


def rrset(name: str, rtype: str, ttl: int, *contents: str) -> dict:
    return {"name": name, "type": rtype, "ttl": ttl,
            "records": [{"content": content, "disabled": False} for content in contents]}


ZONES = [
    {"name": "example.org.", "kind": "Native", "soa_edit_api": "", "nameservers": [],
     "rrsets": [soa("example.org."),
                rrset("example.org.", "NS", 3600, "ns1.example.org.", "ns2.example.org."),
                rrset("www.example.org.", "A", 300, "192.0.2.10"),
                rrset("mail.example.org.", "A", 300, "192.0.2.25"),
                rrset("example.org.", "MX", 3600, "10 mail.example.org."),
                rrset("example.org.", "TXT", 3600, '"v=spf1 mx -all"')]},
    {"name": "example.net.", "kind": "Master", "account": "ops", "soa_edit_api": "", "nameservers": [],
     "rrsets": [soa("example.net."),
                rrset("example.net.", "NS", 3600, "ns1.example.net."),
                rrset("www.example.net.", "A", 600, "198.51.100.7"),
                rrset("www.example.net.", "AAAA", 600, "2001:db8::7"),
                rrset("api.example.net.", "CNAME", 600, "www.example.net.")]},
]
TSIG_KEYS = [{"name": "seed-key", "algorithm": "hmac-sha256", "key": "c2VlZC1rZXktc2VjcmV0LW5vdC1hLXNlY3JldA=="}]
METADATA = [("example.org.", {"kind": "ALLOW-AXFR-FROM", "metadata": ["192.0.2.0/24"]}),
            ("example.net.", {"kind": "X-Owner", "metadata": ["ops-team"]})]


def main() -> None:
    base, key = sys.argv[1], sys.argv[2]

    def post(path: str, body: dict) -> None:
        request = urllib.request.Request(base + SERVER + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"X-API-Key": key, "Content-Type": "application/json"})
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback, never a proxy
        with opener.open(request, timeout=30) as response:
            assert response.status == 201, (path, response.status)

    for zone in ZONES:
        post("/zones", zone)
    for tsig in TSIG_KEYS:
        post("/tsigkeys", tsig)
    for zone, entry in METADATA:
        post(f"/zones/{zone}/metadata", entry)


if __name__ == "__main__":
    main()
