#!/usr/bin/env python3
"""Seed a fresh Alertmanager 0.25.0 through its API v2 (not recorded).

Usage: python3 seed.py BASE_URL

Alerts (POST /api/v2/alerts): five firing alerts with fixed startsAt and endsAt (endsAt in 2099,
so none resolves while the application runs), routed by team to the receivers of
alertmanager.yml; A1 (critical) inhibits A2 (warning, same alertname).
Silences (POST /api/v2/silences): Alertmanager generates their ids (random UUIDs, another on every
start) and sets an active silence's startsAt to the time of the call; endsAt values are fixed.
S1 and S2 are active, S3 pending (it starts in 2027), S4 expired (created, then DELETEd:
Alertmanager expires a silence, it stays listed).
Standard library only.
"""
import json
import sys
import time
import urllib.request

FIRING_SINCE, FIRING_UNTIL = "2026-11-30T08:00:00.000Z", "2099-01-01T00:00:00.000Z"


def alert(name, instance, team, severity, summary):
    return {"labels": {"alertname": name, "instance": instance, "team": team, "severity": severity},
            "annotations": {"summary": summary}, "startsAt": FIRING_SINCE, "endsAt": FIRING_UNTIL,
            "generatorURL": f"http://prometheus.example/graph?g0.expr={name}"}


ALERTS = [
    alert("DiskFull", "db1", "ops", "critical", "Disk of db1 is 95% full"),         # A1
    alert("DiskFull", "db2", "ops", "warning", "Disk of db2 is 85% full"),          # A2
    alert("HighLatency", "web1", "web", "warning", "p99 latency of web1 above 2s"),  # A3
    alert("InstanceDown", "cache1", "ops", "critical", "cache1 does not answer"),    # A4
    alert("CertExpiry", "lb1", "web", "info", "Certificate of lb1 expires in 10 days"),  # A5
]


def matcher(name, value, regex=False):
    return {"name": name, "value": value, "isRegex": regex, "isEqual": True}


def silence(matchers, created_by, comment, ends_at, starts_at=None):
    # startsAt: now for an active silence (Alertmanager moves a past start to the call's time)
    starts = starts_at or time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
    return {"matchers": matchers, "startsAt": starts, "endsAt": ends_at, "createdBy": created_by,
            "comment": comment}


SILENCES = [
    silence([matcher("instance", "db2")], "alice", "Replacing the disk of db2",
            "2027-03-01T00:00:00.000Z"),                                             # S1 active
    silence([matcher("alertname", "Cert.*", regex=True)], "bob", "Certificates renew on Friday",
            "2027-02-01T00:00:00.000Z"),                                             # S2 active
    silence([matcher("team", "web")], "carol", "Web deploy window",
            "2027-06-01T12:00:00.000Z", "2027-06-01T08:00:00.000Z"),                 # S3 pending
    silence([matcher("instance", "cache1")], "alice", "Cache restart",
            "2027-01-15T00:00:00.000Z"),                                             # S4, expired below
]


def call(base, method, path, body=None):
    request = urllib.request.Request(base + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read()
        return json.loads(text) if text else None


def main(base):
    call(base, "POST", "/api/v2/alerts", ALERTS)
    ids = [call(base, "POST", "/api/v2/silences", body)["silenceID"] for body in SILENCES]
    call(base, "DELETE", f"/api/v2/silence/{ids[3]}")
    # the inhibitor reads new alerts asynchronously: wait until A2 shows inhibited
    for _ in range(100):
        if any(a["status"]["inhibitedBy"] for a in call(base, "GET", "/api/v2/alerts")):
            return
        time.sleep(0.1)
    raise SystemExit("A2 never showed inhibited")


if __name__ == "__main__":
    main(sys.argv[1])
