"""A sorted list whose order or page depends on entities equal in every sort key: serving keeps the
state's order among them (a stable sort), which is the application's tie-break only where a
recording showed it (``QuerySpec.tie_order_proven``, per direction); otherwise a page on which such
entities stand is refused, naming them, and a sort or page the tie does not reach is answered."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import loads
from capenv.interpreter.bundle.models import QuerySpec
from capenv.serving.reads.queries import unproven_tie
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

SORT = QuerySpec(param="sort", kind="sort", descending_prefix="-")
LIMIT = QuerySpec(param="limit", kind="limit")
TASKS = [{"id": 1, "rank": 2}, {"id": 2, "rank": 1}, {"id": 3, "rank": 2}]


def test_a_tie_on_the_page_is_refused_unless_proven():
    reason = unproven_tie((SORT,), (("sort", "rank"),), TASKS, "id")
    assert reason is not None and "id '1', '3'" in reason and "'rank'" in reason
    assert unproven_tie((SORT,), (("sort", "id"),), TASKS, "id") is None  # no tie
    proven = SORT.model_copy(update={"tie_order_proven": ("asc",)})
    assert unproven_tie((proven,), (("sort", "rank"),), TASKS, "id") is None
    assert unproven_tie((proven,), (("sort", "-rank"),), TASKS, "id") is not None  # another direction


def test_a_page_the_tie_does_not_reach_is_answered():
    assert unproven_tie((SORT, LIMIT), (("sort", "rank"), ("limit", "1")), TASKS, "id") is None
    assert unproven_tie((SORT, LIMIT), (("sort", "rank"), ("limit", "2")), TASKS, "id") is not None  # the boundary


def tasks_app(*, recorded_tie: bool) -> HarBuilder:
    """A list sorted by rank; with ``recorded_tie`` its recording held two tasks of rank 2, listed
    in the order the whole listing holds them (the application breaks ties by insertion)."""
    held = TASKS if recorded_tie else [TASKS[0], TASKS[1]]
    har = (HarBuilder()
           .call("GET", "/tasks", response=held)
           .call("GET", "/tasks", query=[("sort", "rank")], response=sorted(held, key=lambda t: t["rank"]))
           .call("GET", "/tasks", query=[("sort", "-rank")],
                 response=sorted(held, key=lambda t: -t["rank"]))
           .call("GET", "/tasks", query=[("sort", "id")], response=held))
    if not recorded_tie:
        har = (har.call("POST", "/tasks", body={"rank": 2}, status=201, response=TASKS[2])
                  .call("GET", "/tasks/3", response=TASKS[2])
                  .call("GET", "/tasks", response=TASKS))
    return har


def _get(runtime, query):
    answer = runtime.http(HttpRequest("GET", "/tasks", query, (), b""))
    return answer.status, loads(answer.body) if answer.body else None


def test_a_tie_the_capture_never_showed_broken_is_refused():
    """The recordings sorted two tasks of distinct rank; a third of an equal rank makes a tie no
    recording showed broken: the sort by rank is refused, naming the tied tasks, where serving
    would have guessed the application's order."""
    runtime = EnvironmentRuntime(build_from(tasks_app(recorded_tie=False)))
    assert _get(runtime, (("sort", "rank"),)) == (200, [TASKS[1], TASKS[0]])
    made = runtime.http(HttpRequest("POST", "/tasks", (), (("content-type", "application/json"),), b'{"rank": 2}'))
    assert made.status == 201, made.body
    status, body = _get(runtime, (("sort", "rank"),))
    assert status == 501, body
    text = str(body)
    assert "tie-break" in text and "'1', '3'" in text
    assert _get(runtime, (("sort", "id"),)) == (200, TASKS)  # no tie: answered


def test_a_recorded_tie_proves_the_order_in_its_direction():
    runtime = EnvironmentRuntime(build_from(tasks_app(recorded_tie=True)))
    assert _get(runtime, (("sort", "rank"),)) == (200, [TASKS[1], TASKS[0], TASKS[2]])
    assert _get(runtime, (("sort", "-rank"),)) == (200, [TASKS[0], TASKS[2], TASKS[1]])


def test_a_proven_tie_break_is_used_only_where_the_held_order_is_the_id_order():
    """The recordings showed ties in the order the entities were held, which was also their id
    order: an entity made later with a lesser id (a random one) tells the two readings apart."""
    proven = SORT.model_copy(update={"tie_order_proven": ("asc",)})
    in_id_order = [{"id": "a1", "rank": 2}, {"id": "c3", "rank": 2}]
    assert unproven_tie((proven,), (("sort", "rank"),), in_id_order, "id") is None
    made_later = in_id_order + [{"id": "b2", "rank": 2}]
    reason = unproven_tie((proven,), (("sort", "rank"),), made_later, "id")
    assert reason is not None and "not their 'id' order" in reason
    held_first = proven.model_copy(update={"tie_order_unlike_ids": ("asc",)})
    assert unproven_tie((held_first,), (("sort", "rank"),), made_later, "id") is None


def test_a_recorded_tie_out_of_id_order_proves_the_held_order():
    """Tied entities listed in the order they were held, not their ids' (random ids): the held
    order decides, which serving keeps, also for an entity made later with a lesser id."""
    held = [{"id": "c3", "rank": 2}, {"id": "a1", "rank": 2}, {"id": "b2", "rank": 1}]
    har = (HarBuilder()
           .call("GET", "/tasks", response=held)
           .call("GET", "/tasks", query=[("sort", "rank")], response=[held[2], held[0], held[1]])
           .call("GET", "/tasks", query=[("sort", "id")], response=sorted(held, key=lambda t: t["id"])))
    bundle = build_from(har)
    spec = next(q for v in bundle.view.views for q in v.learned_queries if q.kind == "sort")
    assert spec.tie_order_proven == ("asc",) and spec.tie_order_unlike_ids == ("asc",)
    assert _get(EnvironmentRuntime(bundle), (("sort", "rank"),)) == (200, [held[2], held[0], held[1]])
