#!/usr/bin/env python3
"""Scenario driver for Alertmanager 0.25.0's API v2 (talks to the mitmproxy reverse proxy in front of it).

Usage:
  python driver.py --base http://127.0.0.1:42651 --mode capture [-v]

No token: Alertmanager's API has no authentication. The seed (seed.py, run by start.sh, not
recorded): alerts A1-A5 and silences S1, S2 (active), S3 (pending), S4 (expired), whose ids
Alertmanager generated at start: the driver reads them from the first silence list.
Every call is sequential, with a random 50-150 ms sleep before it.
"""
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from scenario import Driver, drive  # noqa: E402  (captures/kit: what every driver shares)

API = "/api/v2"
ZERO = "00000000-0000-0000-0000-000000000000"   # a silence id no silence ever had
NEVER = "5f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f"  # another (a version 4 UUID)


def make_driver(base, min_sleep, max_sleep, verbose):
    return Driver(base, min_sleep, max_sleep, verbose)


def now():
    """The time of the call, as amtool sends it (milliseconds, Z)."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + f".{int(time.time() * 1000) % 1000:03d}Z"


def matcher(name, value, regex=False, equal=True):
    return {"name": name, "value": value, "isRegex": regex, "isEqual": equal}


def capture(d):
    call, check = d.call, d.check

    def get(path, expect=200, **params):
        return call("GET", API + path, params=params or None, expect=expect)[1]

    def post(path, body=None, expect=200, raw=None):
        return call("POST", API + path, body, raw=raw, expect=expect)[1]

    def delete(path, expect=200):
        return call("DELETE", API + path, expect=expect)[1]

    def silence_id(answer):
        return answer.get("silenceID") if isinstance(answer, dict) else None

    # ---- a. reads before any write: status, receivers, alerts and groups, every silence, absences
    get("/status")
    get("/receivers")
    alerts = get("/alerts")
    get("/alerts/groups")
    silences = get("/silences")
    by_comment = {s["comment"]: s["id"] for s in silences}
    s1, s2, s3, s4 = (by_comment[c] for c in ("Replacing the disk of db2", "Certificates renew on Friday",
                                              "Web deploy window", "Cache restart"))
    for sid in (s1, s2, s3, s4):
        get(f"/silence/{sid}")
    get("/alerts", filter='team="ops"')
    get("/alerts", filter='severity="critical"')
    get("/alerts", silenced="false")
    get("/alerts", silenced="false", inhibited="false")
    get("/alerts", receiver="web")
    get("/alerts", active="false")
    get("/alerts/groups", filter='team="web"')
    get("/silences", filter='instance="db2"')
    get("/silences", filter='team="web"')
    get(f"/silence/{ZERO}", 404)
    get(f"/silence/{NEVER}", 404)
    get("/silence/not-a-silence-id", 422)
    get(f"/silence/{alerts[0]['fingerprint']}", 422)     # an alert's fingerprint read as a silence id

    # ---- b. creates: POST /silences answers {"silenceID": ...} only; each followed by reads
    s5 = silence_id(post("/silences", {"matchers": [matcher("alertname", "HighLatency")],
                                       "startsAt": now(), "endsAt": "2027-01-10T00:00:00.000Z",
                                       "createdBy": "dave", "comment": "Investigating web1 latency"}))
    get(f"/silence/{s5}")
    get("/silences")
    get("/alerts")                                        # A3 now suppressed by S5
    get("/alerts/groups")
    s6 = silence_id(post("/silences", {"matchers": [matcher("instance", "db.*", regex=True)],
                                       "startsAt": now(), "endsAt": "2027-04-01T00:00:00.000Z",
                                       "createdBy": "erin", "comment": "Database maintenance"}))
    get(f"/silence/{s6}")
    get("/silences")
    get("/alerts", filter='alertname="DiskFull"')
    s7 = silence_id(post("/silences", {"matchers": [matcher("severity", "info")],
                                       "startsAt": "2027-05-01T00:00:00.000Z",
                                       "endsAt": "2027-05-02T00:00:00.000Z",
                                       "createdBy": "frank", "comment": "Quiet info alerts on May Day"}))
    get(f"/silence/{s7}")
    get("/silences")
    s8 = silence_id(post("/silences", {"matchers": [matcher("alertname", "InstanceDown"),
                                                    matcher("instance", "cache1", equal=False)],
                                       "startsAt": now(), "endsAt": "2027-02-15T00:00:00.000Z",
                                       "createdBy": "grace", "comment": "Instances other than cache1"}))
    get(f"/silence/{s8}")
    get("/silences")
    get("/alerts", filter='alertname="InstanceDown"')

    # ---- c. updates: POST /silences with the id of a held silence
    # a pending silence is updated in place (same id), times and comment included
    a = post("/silences", {"id": s7, "matchers": [matcher("severity", "info")],
                           "startsAt": "2027-05-01T06:00:00.000Z", "endsAt": "2027-05-03T00:00:00.000Z",
                           "createdBy": "frank", "comment": "Moved to Saturday"})
    check("pending silence kept its id", silence_id(a), s7)
    get(f"/silence/{s7}")
    get("/silences")
    # an active silence sent back with its stored startsAt is updated in place too
    held = get(f"/silence/{s5}")
    a = post("/silences", {"id": s5, "matchers": held["matchers"], "startsAt": held["startsAt"],
                           "endsAt": "2027-01-20T00:00:00.000Z", "createdBy": "dave",
                           "comment": "Still investigating web1 latency"})
    check("active silence kept its id", silence_id(a), s5)
    get(f"/silence/{s5}")
    get("/silences")
    # other matchers: the old silence is expired and a new one (another id) replaces it
    held = get(f"/silence/{s6}")
    s6b = silence_id(post("/silences", {"id": s6, "matchers": [matcher("instance", "db1")],
                                        "startsAt": held["startsAt"], "endsAt": "2027-04-01T00:00:00.000Z",
                                        "createdBy": "erin", "comment": "Only db1 now"}))
    check("replaced silence got a new id", s6b != s6, True)
    get(f"/silence/{s6}")
    get(f"/silence/{s6b}")
    get("/silences")
    get("/alerts", filter='alertname="DiskFull"')
    # an expired silence cannot change: sending its id makes a new one
    s4b = silence_id(post("/silences", {"id": s4, "matchers": [matcher("instance", "cache1")],
                                        "startsAt": now(), "endsAt": "2027-01-16T00:00:00.000Z",
                                        "createdBy": "alice", "comment": "Cache restart, second try"}))
    get(f"/silence/{s4}")
    get(f"/silence/{s4b}")
    get("/silences")
    get("/alerts", filter='alertname="InstanceDown"')
    # an active silence sent with a new startsAt (now): replaced as well
    held = get(f"/silence/{s8}")
    s8b = silence_id(post("/silences", {"id": s8, "matchers": held["matchers"], "startsAt": now(),
                                        "endsAt": held["endsAt"], "createdBy": "grace",
                                        "comment": "Instances other than cache1, renewed"}))
    get(f"/silence/{s8}")
    get(f"/silence/{s8b}")

    # ---- d. DELETE /silence/{id} expires the silence: it stays, state expired, endsAt now
    delete(f"/silence/{s5}")
    get(f"/silence/{s5}")
    get("/silences")
    get("/alerts")                                        # A3 active again
    delete(f"/silence/{s1}")                              # a seeded silence
    get(f"/silence/{s1}")
    get("/alerts", filter='instance="db2"')               # A2 still inhibited by A1
    get("/silences")
    delete(f"/silence/{s5}")                              # expiring an expired silence: 200 again
    get(f"/silence/{s5}")
    delete(f"/silence/{s3}")                              # a pending silence
    get(f"/silence/{s3}")
    get("/silences", filter='team="web"')

    # ---- e. alerts: POST /alerts takes an array and answers an empty 200
    post("/alerts", [{"labels": {"alertname": "QueueBacklog", "instance": "mq1", "team": "ops",
                                 "severity": "warning"},
                      "annotations": {"summary": "1200 messages waiting on mq1"},
                      "startsAt": "2026-12-01T10:00:00.000Z", "endsAt": "2099-01-01T00:00:00.000Z"}])
    get("/alerts")
    get("/alerts", filter='alertname="QueueBacklog"')
    get("/alerts/groups")
    # the same labels again: the alert is updated (annotations replaced)
    post("/alerts", [{"labels": {"alertname": "QueueBacklog", "instance": "mq1", "team": "ops",
                                 "severity": "warning"},
                      "annotations": {"summary": "3400 messages waiting on mq1", "runbook": "queues.md"},
                      "startsAt": "2026-12-01T10:00:00.000Z", "endsAt": "2099-01-01T00:00:00.000Z"}])
    get("/alerts", filter='alertname="QueueBacklog"')
    # an endsAt in the past resolves the alert: lists drop it
    post("/alerts", [{"labels": {"alertname": "HighLatency", "instance": "web1", "team": "web",
                                 "severity": "warning"},
                      "annotations": {"summary": "p99 latency of web1 above 2s"},
                      "startsAt": "2026-11-30T08:00:00.000Z", "endsAt": "2026-12-01T00:00:00.000Z"}])
    get("/alerts")
    get("/alerts/groups")
    # two alerts in one call, one without a team (the default receiver)
    post("/alerts", [{"labels": {"alertname": "HighLatency", "instance": "web2", "team": "web",
                                 "severity": "critical"},
                      "startsAt": "2026-12-02T09:00:00.000Z", "endsAt": "2099-01-01T00:00:00.000Z"},
                     {"labels": {"alertname": "Watchdog", "severity": "none"},
                      "annotations": {"summary": "Always firing"},
                      "startsAt": "2026-12-02T09:00:00.000Z", "endsAt": "2099-01-01T00:00:00.000Z"}])
    get("/alerts")
    get("/alerts", receiver="default")
    get("/alerts", filter='severity="critical"', silenced="false")
    get("/alerts/groups", filter='team="web"')

    # ---- f. silence and alert filters over the changed state
    get("/silences", filter='instance="db1"')
    get("/silences", filter='alertname="HighLatency"')
    get("/silences", filter='alertname=~"High.*"')
    get("/silences", filter='severity="info"')
    get("/silences", filter='createdBy="alice"')         # filters read the matchers, not the fields: []
    call("GET", API + "/silences", params=[("filter", 'alertname="InstanceDown"'),
                                           ("filter", 'instance="cache1"')], expect=200)
    get("/alerts", filter='team=~"web|ops"', active="true", silenced="false", inhibited="false")
    get("/alerts", unprocessed="true")
    get("/alerts/groups", receiver="ops")

    # ---- g. failures
    post("/silences", {"id": str(uuid.UUID(int=0x5eed0000000000000000000000000001)),
                       "matchers": [matcher("alertname", "Chosen")], "startsAt": now(),
                       "endsAt": "2027-01-01T00:00:00.000Z", "createdBy": "ivan",
                       "comment": "A client-chosen id"}, expect=404)
    post("/silences", {"matchers": [], "startsAt": now(), "endsAt": "2027-01-01T00:00:00.000Z",
                       "createdBy": "ivan", "comment": "No matchers"}, expect=422)
    post("/silences", {"matchers": [matcher("alertname", "Backwards")], "startsAt": "2027-01-02T00:00:00.000Z",
                       "endsAt": "2027-01-01T00:00:00.000Z", "createdBy": "ivan",
                       "comment": "Ends before it starts"}, expect=400)
    post("/silences", {"matchers": [matcher("alertname", "Anonymous")], "startsAt": now(),
                       "endsAt": "2027-01-01T00:00:00.000Z", "comment": "No author"}, expect=422)
    post("/silences", {"matchers": [matcher("alertname", "Silent")], "startsAt": now(),
                       "endsAt": "2027-01-01T00:00:00.000Z", "createdBy": "ivan"}, expect=422)
    post("/silences", {"matchers": [matcher("alertname", "(", regex=True)], "startsAt": now(),
                       "endsAt": "2027-01-01T00:00:00.000Z", "createdBy": "ivan",
                       "comment": "A regex that does not compile"}, expect=400)
    post("/silences", {"matchers": [matcher("alertname", "Past")], "startsAt": "2026-01-01T00:00:00.000Z",
                       "endsAt": "2026-01-02T00:00:00.000Z", "createdBy": "ivan",
                       "comment": "Ended last January"}, expect=400)
    post("/silences", raw='{"matchers": [', expect=400)
    post("/alerts", {"labels": {"alertname": "NotAnArray"}}, expect=400)
    post("/alerts", [{"labels": {}}], expect=400)
    post("/alerts", [{"labels": {"0bad": "name"}}], expect=400)
    post("/alerts", [{"annotations": {"summary": "no labels"}}], expect=422)
    get("/silences", 400, filter="{bad")
    get("/alerts", 400, filter='team="ops')
    delete(f"/silence/{ZERO}", 500)                     # Alertmanager answers 500 "silence not found"
    delete("/silence/not-a-silence-id", 422)
    call("PUT", API + "/silences", {"comment": "no PUT"}, expect=405)
    get("/silence/", 404)

    # ---- h. final state
    get("/alerts")
    get("/alerts/groups")
    get("/silences")
    for sid in (s1, s2, s3, s4, s4b, s5, s6, s6b, s7, s8, s8b):
        get(f"/silence/{sid}")
    get("/receivers")


if __name__ == "__main__":
    drive({"capture": capture}, make_driver, default_base="http://127.0.0.1:42651")
