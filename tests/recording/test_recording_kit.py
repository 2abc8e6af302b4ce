"""captures/kit: the check every recorded HAR passes before it joins the corpus."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CHECK = REPO / "captures" / "kit" / "check_har.py"


def _entry(url: str, body: str) -> dict:
    return {"startedDateTime": "2026-01-01T00:00:00Z", "time": 1, "cache": {},
            "timings": {"send": 0, "wait": 1, "receive": 0},
            "request": {"method": "GET", "url": url, "httpVersion": "HTTP/1.1", "cookies": [],
                        "headers": [{"name": "Authorization", "value": "Token t"}], "queryString": [],
                        "headersSize": -1, "bodySize": 0},
            "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [],
                         "headers": [], "content": {"size": len(body), "mimeType": "application/json",
                                                     "text": body},
                         "redirectURL": "", "headersSize": -1, "bodySize": len(body)}}


def _check(tmp_path: Path, entries: list[dict], *extra: str) -> subprocess.CompletedProcess:
    har = tmp_path / "capture.har"
    har.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "t", "version": "1"},
                                       "entries": entries}}))
    return subprocess.run([sys.executable, str(CHECK), *extra, str(har)], capture_output=True, text=True)


def test_a_clean_har_passes_and_is_summarised(tmp_path: Path) -> None:
    result = _check(tmp_path, [_entry("http://127.0.0.1:1/a", '{"id": 1}')])
    assert result.returncode == 0, result.stderr
    assert "1 entries" in result.stdout and "suspicious strings: none" in result.stdout
    assert "'Token t': 1" in result.stdout


def test_machine_paths_and_named_secrets_are_reported(tmp_path: Path) -> None:
    body = '{"error": "/home/someone/app.py", "key": "my-throwaway-pass"}'
    result = _check(tmp_path, [_entry("http://127.0.0.1:1/a", body)], "--suspect", "throwaway-pass")
    assert "'/home/': 1" in result.stdout and "'throwaway-pass': 1" in result.stdout


def test_a_har_missing_a_required_member_fails(tmp_path: Path) -> None:
    entry = _entry("http://127.0.0.1:1/a", "{}")
    del entry["timings"]
    result = _check(tmp_path, [entry])
    assert result.returncode != 0 and "timings" in result.stderr
