#!/usr/bin/env python3
"""Check a HAR (plain or .gz): HAR 1.2 structure, entry count, status histogram, and a scan for
machine paths and secrets (MLflow here runs without auth).  Usage: python check_har.py FILE..."""
import collections
import gzip
import json
import re
import sys


REQ_KEYS = ["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize",
            "bodySize"]
RESP_KEYS = ["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL",
             "headersSize", "bodySize"]
SUSPECT = [r"/tmp/", r"/root/", r"/home/", r"/work/", r"site-packages", r"mlartifacts", r"sqlite:///",
           r"Traceback", r"password\"\s*:\s*\"[^\"]"]

for path in sys.argv[1:]:
    raw = (gzip.open if path.endswith(".gz") else open)(path, "rt", encoding="utf-8").read()
    har = json.loads(raw)
    log = har["log"]
    assert log["version"] == "1.2", log["version"]
    assert "name" in log["creator"] and "version" in log["creator"]
    ents = log["entries"]
    for i, e in enumerate(ents):
        for k in ["startedDateTime", "time", "request", "response", "cache", "timings"]:
            assert k in e, (i, k)
        for k in REQ_KEYS:
            assert k in e["request"], (i, "request", k)
        for k in RESP_KEYS:
            assert k in e["response"], (i, "response", k)
        assert "size" in e["response"]["content"] and "mimeType" in e["response"]["content"], i
        for k in ["send", "wait", "receive"]:
            assert k in e["timings"], (i, k)
    st = collections.Counter(e["response"]["status"] for e in ents)
    meth = collections.Counter(e["request"]["method"] for e in ents)
    tokens = collections.Counter()
    for e in ents:
        for h in e["request"]["headers"]:
            if h["name"].lower() == "authorization":
                tokens[h["value"]] += 1
    hits = {p: len(re.findall(p, raw)) for p in SUSPECT}
    print(f"{path}: HAR {log['version']} by {log['creator']['name']} {log['creator']['version']}, "
          f"{len(ents)} entries")
    print("  methods:", dict(meth))
    print("  statuses:", dict(sorted(st.items())))
    print("  Authorization values:", dict(tokens))
    print("  suspicious strings:", {k: v for k, v in hits.items() if v} or "none")
