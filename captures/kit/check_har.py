#!/usr/bin/env python3
"""Check recorded HARs (plain or .gz) before they join the corpus: HAR 1.2 structure, entry count,
methods and statuses, the Authorization values sent, and a scan for machine paths and secrets.

Usage: python captures/kit/check_har.py [--suspect REGEX ...] FILE...
Each capture's README names the extra patterns its own secrets need (a throwaway password, a data
directory); the machine-path patterns below are always scanned.
"""
import argparse
import collections
import gzip
import json
import re

REQUEST_KEYS = ["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize",
                "bodySize"]
RESPONSE_KEYS = ["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL",
                 "headersSize", "bodySize"]
ALWAYS_SUSPECT = [r"/tmp/", r"/root/", r"/home/", r"/work/", r"site-packages", r"node_modules",
                  r"Traceback", r"password\"\s*:\s*\"[^\"]"]


def check_structure(log: dict) -> None:
    assert log["version"] == "1.2", log["version"]
    assert "name" in log["creator"] and "version" in log["creator"]
    for i, entry in enumerate(log["entries"]):
        for key in ["startedDateTime", "time", "request", "response", "cache", "timings"]:
            assert key in entry, (i, key)
        for key in REQUEST_KEYS:
            assert key in entry["request"], (i, "request", key)
        for key in RESPONSE_KEYS:
            assert key in entry["response"], (i, "response", key)
        assert "size" in entry["response"]["content"] and "mimeType" in entry["response"]["content"], i
        for key in ["send", "wait", "receive"]:
            assert key in entry["timings"], (i, key)


def summarise(path: str, suspects: list[str]) -> None:
    raw = (gzip.open if path.endswith(".gz") else open)(path, "rt", encoding="utf-8").read()
    log = json.loads(raw)["log"]
    check_structure(log)
    entries = log["entries"]
    statuses = collections.Counter(e["response"]["status"] for e in entries)
    methods = collections.Counter(e["request"]["method"] for e in entries)
    tokens = collections.Counter(h["value"] for e in entries for h in e["request"]["headers"]
                                 if h["name"].lower() == "authorization")
    hits = {pattern: len(re.findall(pattern, raw)) for pattern in suspects}
    print(f"{path}: HAR {log['version']} by {log['creator']['name']} {log['creator']['version']}, "
          f"{len(entries)} entries")
    print("  methods:", dict(methods))
    print("  statuses:", dict(sorted(statuses.items())))
    print("  Authorization values:", dict(tokens) or "none")
    print("  suspicious strings:", {k: v for k, v in hits.items() if v} or "none")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--suspect", action="append", default=[], metavar="REGEX",
                        help="one more pattern that must not appear (a throwaway secret, a data path)")
    args = parser.parse_args()
    for path in args.files:
        summarise(path, ALWAYS_SUSPECT + args.suspect)


if __name__ == "__main__":
    main()
