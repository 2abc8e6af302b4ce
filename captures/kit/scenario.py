"""What every capture's driver.py shares: a sequential httpx client that sleeps a little before each
call, counts calls, and reports every unexpected status or value on stderr; and the command line
(`--base`, `--mode`, `--seed`, `-v`).

A driver imports it with ``sys.path.insert(0, str(Path(__file__).parent.parent / "kit"))`` and
keeps only its scenario: what it calls, in which order, and what it expects.
"""
import argparse
import json
import random
import sys
import time
from typing import Callable

import httpx

SEND_TOKEN = object()  # call(token=...) default: the driver's own token


class Driver:
    """``call`` answers ``(status, JSON or text)``; ``expect`` names the status the scenario needs."""

    def __init__(self, base: str, min_sleep: float, max_sleep: float, verbose: bool, *,
                 token: str | None = None, scheme: str = "Bearer", headers: dict[str, str] | None = None):
        """``headers``: request headers every call sends (identity headers an application trusts
        without a token); a call's own ``headers`` win."""
        self.c = httpx.Client(base_url=base, timeout=60.0)
        self.min_sleep, self.max_sleep, self.verbose = min_sleep, max_sleep, verbose
        self.token, self.scheme = token, scheme
        self.headers = dict(headers or {})
        self.n = 0
        self.unexpected = 0

    def call(self, method, path, body=None, raw=None, params=None, expect=None, token=SEND_TOKEN,
             headers=None):
        """``headers``: more request headers for this call (an Accept asking for another shape, a
        Content-Type other than JSON for a ``raw`` body: a form, a JSON Patch)."""
        time.sleep(random.uniform(self.min_sleep, self.max_sleep))
        token = self.token if token is SEND_TOKEN else token
        headers, content = {**self.headers, **(headers or {})}, None
        if token is not None:
            headers["Authorization"] = f"{self.scheme} {token}"
        if raw is not None or body is not None:
            headers.setdefault("Content-Type", "application/json")
            content = raw if raw is not None else json.dumps(body)
        r = self.c.request(method, path, headers=headers, params=params, content=content)
        self.c.cookies.clear()  # no session cookie: every call stands on its token alone
        self.n += 1
        if self.verbose:
            print(f"{self.n - 1:5d} {method:6s} {r.request.url.raw_path.decode()} -> {r.status_code}",
                  file=sys.stderr)
        if expect is not None and r.status_code != expect:
            self.unexpected += 1
            print(f"UNEXPECTED #{self.n - 1} {method} {path} {params or ''}: {r.status_code} "
                  f"(expected {expect}) {r.text[:300]}", file=sys.stderr)
        try:
            return r.status_code, r.json()
        except ValueError:
            return r.status_code, r.text

    def get(self, path, expect=200, **params):
        """The body of a GET whose query parameters are the keywords."""
        return self.call("GET", path, params=params or None, expect=expect)[1]

    def check(self, what, got, want):
        if got != want:
            self.unexpected += 1
            print(f"UNEXPECTED after call #{self.n - 1}: {what} = {got!r}, expected {want!r}",
                  file=sys.stderr)


def drive(scenarios: dict[str, Callable[..., None]], make_driver: Callable[..., Driver], *,
        default_base: str, sleeps: dict[str, tuple[float, float]] | None = None,
        rounds: int | None = None) -> None:
    """Parse the command line, seed the randomness and run the chosen scenario with its sleeps.

    ``rounds``: the default of ``--rounds``, for scenarios (a large mode) that repeat a round.
    """
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default=default_base)
    parser.add_argument("--mode", choices=sorted(scenarios), default="capture")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("-v", "--verbose", action="store_true")
    if rounds is not None:
        parser.add_argument("--rounds", type=int, default=rounds)
    args = parser.parse_args()
    random.seed(args.seed)
    low, high = (sleeps or {}).get(args.mode, (0.05, 0.15))
    driver = make_driver(args.base, low, high, args.verbose)
    if rounds is not None and args.mode != "capture":
        scenarios[args.mode](driver, args.rounds)
    else:
        scenarios[args.mode](driver)
    print(f"done: {driver.n} calls, {driver.unexpected} unexpected", file=sys.stderr)
