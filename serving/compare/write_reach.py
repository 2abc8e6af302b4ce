"""What a diverging write reached on each side (``reach.WriteReach``), read from its requests and
answers: its own path, the entities it named, made or acted on, what its body sent, the paths its
answer holds, and its probe's ``affects``. ``CompareSession`` asks this for every write whose answers
disagree; ``divergence`` reads the result."""

from __future__ import annotations

from typing import Any, Callable
from urllib.parse import parse_qsl, unquote, urlsplit

from .call_records import CallResult, SideState
from .judge import parsed_body
from .placeholders import fill
from .reach import WriteReach, batch_groups, batch_names, sent_items, sent_leaves, top_labels
from .sides import SIDES, Observed, Outgoing
from .tool_index import ToolIndex, segments
from .values import drawn_format, generated_format


def reach_of(result: CallResult, fresh: dict[str, set[Any]], tools: ToolIndex, states: dict[str, SideState],
             values_for: Callable[[str], dict[str, Any]]) -> WriteReach:
    """What a diverging write reached on each side (``reach.WriteReach``): its own path (none for a
    create in a collection) and an href ending in it, its path's parameters, the values its probe saved
    from its answer, the generated values its answer showed first (a create's: every value its answer
    showed first that it did not send), the members its body sent (inside an envelope), the paths its
    answer holds, and its probe's ``affects``."""
    own_paths, entities, named, links, affects, parents = {}, {}, {}, {}, {}, {}
    batch, sent_values, labels, items, referents = {}, {}, {}, {}, {}
    collection: dict[str, tuple[str, ...]] = {}
    for side in SIDES:
        path = result.requests[side].path
        parameters, parents[side], creates = tools.write_target(result.probe.method, path)
        if not parameters and result.probe.method in ("PUT", "PATCH", "DELETE") and segments(path):
            parameters = (unquote(segments(path)[-1]),)  # a tool of a literal path: its item is its last segment
        elif not parameters and (result.tool.name is None or not creates) and segments(path) \
                and unquote(segments(path)[-1]) in states[side].answered:
            # no tool, or a literal path's that makes nothing: a last segment an answer showed before names
            # the entity it acts on (a POST /token/disable/SEED-SPASS-1 of a serial a token list showed,
            # POST /defaultrealm/partners); a route's word names none
            parameters = (unquote(segments(path)[-1]),)
        hrefs = set()
        if not creates:
            own_paths[side] = segments(tools.read_as(result.probe.method, path))
            hrefs.add("/" + "/".join(own_paths[side]))  # an href naming the entity it wrote ends so
        if creates or result.probe.method == "DELETE":
            written = segments(tools.read_as(result.probe.method, path))
            collection[side] = written if creates else written[:-1]
        saved = {states[side].saved[n] for n in result.probe.save if n in states[side].saved}
        made = {value for value in fresh[side] if generated_format(value) is not None}
        if creates and 200 <= result.answers[side].status < 300:  # the id it drew: a number or a drawn
            # value its answer showed first and its request did not send
            made |= {value for value in fresh[side] - request_values(result.requests[side])
                     if (isinstance(value, int) and not isinstance(value, bool)) or drawn_format(value) is not None}
            made |= hrefs_below(fresh[side], path)
        sent = form_fields(result.requests[side]) or body_sent(result.requests[side])  # a form names alike
        batch[side] = batch_groups(sent)  # a body of one list of objects wrote each of them
        items[side] = sent_items(sent) if creates else ()
        if result.probe.method == "POST":  # a batch create of names made each of them
            made = made | batch_names(sent)
        entities[side] = frozenset({*parameters, *saved, *made, *hrefs})
        last_read = states[side].objects.get(own_paths.get(side, ()))
        if result.probe.method == "DELETE" and last_read:
            referents[side] = frozenset(value for value in scalars(last_read) if generated_format(value)
                                        is not None) - entities[side]
        last = path.rstrip("/").rsplit("/", 1)[-1]
        sent_values[side], labels[side] = sent_leaves(sent, unquote(last)), top_labels(sent)
        if isinstance(sent, dict) and len(sent) == 1 and isinstance(next(iter(sent.values())), dict):
            sent = next(iter(sent.values()))  # an envelope naming the type ({"project": {...}})
        # a create's body names what it makes (a slug); an update's, values many others may hold
        named[side] = frozenset((name, value) for name, value in sent.items() if isinstance(value, str)) \
            if isinstance(sent, dict) and result.probe.method == "POST" else frozenset()
        answer = scalars(parsed_body(result.answers[side])[1])
        links[side] = frozenset(value for value in answer if isinstance(value, str) and "/" in value)
        affects[side] = tuple(segments(tools.read_as("GET", fill(extra, values_for(side),
                                                                          escape_segment=True)[0]))
                              for extra in result.probe.affects)
    succeeded = frozenset(side for side in SIDES if 200 <= result.answers[side].status < 300)
    alone = {frozenset({"live"}): 1, frozenset({"model"}): -1}.get(succeeded, 0)
    adds = 1 if creates else -1 if result.probe.method == "DELETE" else 0
    return WriteReach(result.index, own_paths, entities, named, links,
                      {side: frozenset(values) for side, values in parents.items()}, affects,
                      id_members(result, entities), batch, sent_values, labels, succeeded,
                      collection, result.probe.method == "DELETE", alone * adds, referents, items)


def id_members(result: CallResult, entities: dict[str, frozenset[Any]]) -> frozenset[str]:
    """The members naming a write's entities: where its probe saved a value, and those of its answers
    (either side) holding one of the entities it named."""
    members = {pointer.rsplit("/", 1)[-1] for pointer in result.probe.save.values() if pointer}
    for side in SIDES:
        answer = parsed_body(result.answers[side])[1]
        named = {str(value) for value in entities[side]}
        if isinstance(answer, dict):
            members |= {name for name, value in answer.items()
                        if not isinstance(value, (dict, list, bool)) and value is not None and str(value) in named}
    return frozenset(members)


def request_values(request: Outgoing) -> set[Any]:
    """The strings and numbers a request sent in its path and body."""
    return {segment for segment in request.path.split("/") if segment} | scalars(body_sent(request))


def hrefs_below(shown_first: set[Any], collection: str) -> set[str]:
    """Of the values a create's answer showed first, each href one segment below the collection it created
    in (RT's ``_url`` ``.../user/gina`` of a POST to ``/user``), and that segment: the entity it made, by its
    path and name (a link to its parent, shown before, names another)."""
    base = "/" + "/".join(segments(collection))
    found = set()
    for value in shown_first:
        if isinstance(value, str) and "/" in value:
            tail = value.rstrip("/")
            path = urlsplit(tail).path if "://" in tail else tail
            head, _, last = path.rpartition("/")
            if last and head.endswith(base):
                found |= {last, unquote(last), base + "/" + last}
    return found


def form_fields(request: Outgoing) -> dict[str, str] | None:
    """The fields of a form-encoded request body (``title=Start_here&action=delete``), or None."""
    form = any(name.lower() == "content-type" and value.startswith("application/x-www-form-urlencoded")
               for name, value in request.headers)
    return dict(parse_qsl(request.body.decode("utf-8", "replace"))) if form and request.body else None


def body_sent(request: Outgoing) -> Any:
    """The JSON a request sent (its text when it is none, None when it sent no body)."""
    if not request.body:
        return None
    return parsed_body(Observed(0, (("content-type", "application/json"),), request.body))[1]


def scalars(value: Any) -> set[Any]:
    """The strings and numbers inside a JSON value (hashable leaves, for ``seen``)."""
    found: set[Any] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) or (not isinstance(item, bool) and item is not None):
            found.add(item)
    return found
