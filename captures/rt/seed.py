#!/usr/bin/env python3
"""Seed a fresh Request Tracker 5.0.3 through its REST 2.0 API (standard library only).

Usage: seed.py BASE_URL USER PASSWORD

Runs directly on the application's port (start.sh), never through a recording proxy, with HTTP
Basic authentication of root. RT's initial data already holds queue 1 "General" (2 "___Approvals"
is hidden), users RT_System, Nobody and root; every principal (user, group, queue role group)
shares one id sequence, so the ids below are fixed on every fresh start only because the seed
always makes the same things in the same order. What it makes (README "Seed data"):
  users   alice (privileged), bob (privileged), carol (unprivileged, a requestor)
  queues  Support, Engineering
  tickets 1 Support "Printer jams on floor 2" (requestor carol, priority 10, a comment),
          2 Support "VPN drops at noon" (owner alice, open),
          3 Engineering "Build server out of disk" (owner bob, priority 50),
          4 General "Welcome packet for new hires" (resolved)
"""
import base64
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "kit"))
from seed_calls import checked_call  # noqa: E402  (captures/kit: what every seed shares)

BASE, USER, PASSWORD = sys.argv[1].rstrip("/") + "/REST/2.0", sys.argv[2], sys.argv[3]
AUTH = {"Authorization": "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()}


def send(method, path, body=None):
    answer = checked_call(BASE, method, path, AUTH, body, expect=(200, 201))
    # RT answers an update 200 with a list of messages, a refusal among them (nothing changed)
    if method == "PUT" and not (isinstance(answer, list) and answer and all("changed" in m for m in answer)):
        raise SystemExit(f"seed: {method} {path} did not change everything: {answer!r}")
    return answer


for name, email, real_name, privileged in (("alice", "alice@capenv.test", "Alice Liddell", 1),
                                           ("bob", "bob@capenv.test", "Bob Builder", 1),
                                           ("carol", "carol@example.net", "Carol Danvers", 0)):
    send("POST", "/user", {"Name": name, "EmailAddress": email, "RealName": real_name,
                           "Privileged": privileged, "Organization": "capenv"})

send("POST", "/queue", {"Name": "Support", "Description": "Customer support",
                        "CorrespondAddress": "support@capenv.test"})
send("POST", "/queue", {"Name": "Engineering", "Description": "Internal engineering"})

send("POST", "/ticket", {"Queue": "Support", "Subject": "Printer jams on floor 2", "Requestor": "carol@example.net",
                         "Priority": 10, "Content": "The printer on floor 2 jams twice a day.",
                         "ContentType": "text/plain"})
send("POST", "/ticket/1/comment", {"Content": "Toner was replaced last week.", "ContentType": "text/plain"})
send("POST", "/ticket", {"Queue": "Support", "Subject": "VPN drops at noon", "Owner": "alice", "Status": "open",
                         "Content": "Every day at noon.", "ContentType": "text/plain"})
send("POST", "/ticket", {"Queue": "Engineering", "Subject": "Build server out of disk", "Owner": "bob",
                         "Priority": 50, "Content": "/var is full.", "ContentType": "text/plain"})
send("POST", "/ticket", {"Queue": "General", "Subject": "Welcome packet for new hires",
                         "Content": "Print ten packets.", "ContentType": "text/plain"})
send("PUT", "/ticket/4", {"Status": "resolved"})
