"""``capenv compare``: the same calls to the live application and to the model, call by call
(DESIGN.md §7 "Compare", §10).

* ``probes`` — the probe file format (YAML) and its validation;
* ``placeholders`` — ``{name}`` identities saved by earlier probes, per side;
* ``sides`` — the live application over HTTP, the model in process or over HTTP;
* ``values``, ``jsondiff``, ``judge`` — clock and generated-id formats, the mapped JSON diff,
  one call's verdict (``same`` / ``different`` / ``refused``);
* ``tool_index``, ``session`` — the tool behind a call, served or not, and the run itself;
* ``divergence`` — whether an earlier diverging write explains a difference, or it is a *suspect*: what a
  write reached (``reach``), values naming an entity (``naming``), list items set aside as a write's
  (``set_aside``), differences a write explains where it reached in part (``consequences``);
* ``pairing``, ``explore`` — values drawn anew at each start paired entity by entity, and the
  reads of the seed state derived from the bundle (``compare --explore``);
* ``render`` — the text table and the JSON report.

From Python::

    results = compare(bundle, probe_file, live_url)          # the model in process
    print(render_text(results, live_url, "in-process model"))

May import: the runtime and ``serving.runtime_api``, the build side's ``bundle`` and
``manifest`` models. Never the transports.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from capenv.interpreter.bundle.io import Bundle

from .explore import Derived, Exploration, Skipped, derive_probes, explore
from .judge import DIFFERENT, REFUSED, SAME
from .probes import Probe, ProbeFile, ProbeFileError, load_probes, parse_probes
from .render import render_json, render_text, report_document, summary, summary_line
from .call_records import CallResult
from .session import CompareSession
from .sides import HttpSide, Observed, Outgoing, RuntimeSide, Side, SideUnreachable
from .tool_index import ToolIndex

__all__ = [
    "DIFFERENT", "REFUSED", "SAME", "CallResult", "CompareSession", "Derived", "Exploration", "HttpSide", "Observed",
    "Outgoing", "Probe", "ProbeFile", "ProbeFileError", "RuntimeSide", "Side", "SideUnreachable", "Skipped",
    "ToolIndex", "compare", "compare_explored", "derive_probes", "explore", "load_probes", "parse_probes",
    "render_json", "render_text", "report_document", "summary", "summary_line",
]


def compare(bundle: Bundle, probe_file: ProbeFile, live: str | Side, model: str | Side | None = None,
            *, timeout: float | None = None, verify_tls: bool = True) -> list[CallResult]:
    """Send every probe to ``live`` (a URL or a ``Side``) and to ``model`` (a URL, a ``Side``,
    or None: a fresh in-process ``EnvironmentRuntime`` of ``bundle``); the results in order.
    ``verify_tls=False``: an https ``live`` URL's certificate is not checked."""
    with _sides(bundle, live, model, timeout, verify_tls) as (live_side, model_side):
        return CompareSession(live_side, model_side, ToolIndex(bundle)).run(probe_file)


def compare_explored(bundle: Bundle, live: str | Side, model: str | Side | None = None,
                     probe_file: ProbeFile | None = None, *, timeout: float | None = None,
                     verify_tls: bool = True) -> Exploration:
    """``compare`` of the reads ``derive_probes`` finds in ``bundle`` (to a fresh application and a
    fresh model: both hold the seed), then of ``probe_file``'s own calls, if any, in one session;
    the results, and the derived reads skipped with why (``explore``)."""
    with _sides(bundle, live, model, timeout, verify_tls) as (live_side, model_side):
        return explore(CompareSession(live_side, model_side, ToolIndex(bundle)), derive_probes(bundle), probe_file)


@contextmanager
def _sides(bundle: Bundle, live: str | Side, model: str | Side | None, timeout: float | None,
           verify_tls: bool) -> Iterator[tuple[Side, Side]]:
    options = {} if timeout is None else {"timeout": timeout}
    live_side = HttpSide(live, "live", verify_tls=verify_tls, **options) if isinstance(live, str) else live
    runtime = None
    if model is None:
        from capenv.serving.runtime import EnvironmentRuntime

        runtime = EnvironmentRuntime(bundle)
        model_side: Side = RuntimeSide(runtime)
    else:
        model_side = HttpSide(model, "model", **options) if isinstance(model, str) else model
    try:
        yield live_side, model_side
    finally:
        if runtime is not None:
            runtime.close()
