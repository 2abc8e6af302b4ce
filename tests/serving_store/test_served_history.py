"""The history of served writes: kept with request, plan, rules revision, result and changed
fields; ``capenv history verify`` replays it on the initial state and names the first outcome
that differs (exit 1), says so when all agree (exit 0), and refuses bad input (exit 2).
The history is the episode's: a data/reset or data/add starts a new one and forgets the one
before it (so the store stays the size of one episode), and the history replays from it."""

from __future__ import annotations

import json

import pytest
from serving_store_support import POST_BODY, posts_of
from support.served import capenv

from capenv.interpreter.bundle.jsonvalue import dumps, loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.state.history import verify_history
from capenv.serving.state.subjects import Subjects
from capenv.serving.store import Expect, RecordEnvelope, SubjectWrite, open_store


def episode(runtime: EnvironmentRuntime) -> None:
    """Every kind of write: creates, an update, a document write, a delete."""
    for n in range(3):
        runtime.call_tool("post_posts", {"body": {**POST_BODY, "title": f"p{n}"}}, idempotency_key=f"create-{n}")
    runtime.call_tool("patch_posts_by_post_id", {"post_id": "5", "body": {"views": 55}})
    runtime.call_tool("post_comments", {"body": {"body": "hello", "postId": 5}})
    runtime.call_tool("patch_profile", {"body": {"theme": "dark"}})
    runtime.call_tool("delete_comments_by_comment_id", {"comment_id": "1"})


def session(runtime: EnvironmentRuntime) -> None:
    """An episode, then a reset, a write, an add and a write."""
    episode(runtime)
    document = json.loads(runtime.data_get())
    runtime.data_reset()
    runtime.call_tool("post_posts", {"body": POST_BODY})
    posts_of(document).append({"id": 90, "value": {**POST_BODY, "id": 90}, "records": []})
    runtime.data_add(json.dumps(document).encode())
    runtime.call_tool("post_posts", {"body": POST_BODY})  # continues after 90


def test_a_session_replays_to_every_recorded_outcome(bundle, sqlite_url) -> None:
    runtime = EnvironmentRuntime(bundle, store=sqlite_url)
    session(runtime)
    assert runtime.read("get_posts")["body"][-1]["id"] == 91
    runtime.close()
    with open_store(sqlite_url) as store:
        verification = verify_history(bundle, store)
    assert verification.agrees, verification.difference
    # the add and the write after it: the episodes before the last add are forgotten
    assert verification.to_json() == {"agrees": True, "changes": 2, "writes": 1, "first_difference": None}


def test_an_episode_replays_from_the_initial_state(bundle, sqlite_url) -> None:
    runtime = EnvironmentRuntime(bundle, store=sqlite_url)
    episode(runtime)
    runtime.close()
    with open_store(sqlite_url) as store:
        verification = verify_history(bundle, store)
    assert verification.to_json() == {"agrees": True, "changes": 8, "writes": 7, "first_difference": None}


def test_the_in_process_store_keeps_a_history_too(bundle) -> None:
    runtime = EnvironmentRuntime(bundle)
    episode(runtime)
    verification = verify_history(bundle, runtime._holder.store)  # the runtime's own MemoryStore
    assert verification.agrees and verification.writes == 7
    session(runtime)
    verification = verify_history(bundle, runtime._holder.store)
    assert verification.agrees and verification.writes == 1


def tamper(store_url: str, bundle, record_id: str, change) -> None:
    """Rewrite one history entry in place (a new revision of its subject), as a bad actor could."""
    subjects = Subjects(bundle.view.evidence_id)
    with open_store(store_url) as store:
        stored = store.load(subjects.write, record_id)
        entry = loads(stored.state["entry"])
        change(entry)
        state = {**stored.state, "entry": dumps(entry).decode()}
        store.commit(RecordEnvelope(f"tamper-{record_id}", "2026-01-01T00:00:00Z", "tester"),
                     [SubjectWrite(subjects.write, record_id, Expect.revision(stored.revision), state)])


def test_verify_on_the_command_line_names_the_first_outcome_that_differs(bundle, bundle_path, sqlite_url) -> None:
    runtime = EnvironmentRuntime(bundle, store=sqlite_url)
    episode(runtime)
    runtime.close()
    agrees = capenv("history", "verify", "--bundle", str(bundle_path), "--store", sqlite_url)
    assert agrees.returncode == 0, agrees.stderr.decode()
    assert "8 changes replayed (7 writes): every recorded outcome reproduced" in agrees.stdout.decode()

    tamper(sqlite_url, bundle, "create-1", lambda entry: entry["result"]["body"].update(title="rewritten"))
    tamper(sqlite_url, bundle, "create-2", lambda entry: entry["result"].update(status=500))
    differs = capenv("history", "verify", "--bundle", str(bundle_path), "--store", sqlite_url, "--json")
    assert differs.returncode == 1, differs.stderr.decode()
    first = json.loads(differs.stdout)["first_difference"]
    assert first == {"position": 3, "record_id": "create-1", "what": "post_posts /posts",
                     "detail": 'body.title: recorded "rewritten", replayed "p1"'}
    text = capenv("history", "verify", "--bundle", str(bundle_path), "--store", sqlite_url)
    assert text.returncode == 1
    assert "differs at position 3 (record 'create-1', post_posts /posts)" in text.stdout.decode()


def test_a_write_sent_without_a_key_is_replayed_from_its_log_entry(bundle, sqlite_url) -> None:
    """Its history record is in its log entry (no ``write`` subject): replayed from there, and a
    rewritten one named like any other."""
    runtime = EnvironmentRuntime(bundle, store=sqlite_url)
    episode(runtime)
    runtime.close()
    subjects = Subjects(bundle.view.evidence_id)
    with open_store(sqlite_url) as store:
        position = "5".zfill(16)  # the install, three keyed creates, then the update sent without a key
        stored = store.load(subjects.log, position)
        assert stored.state["kind"] == "write" and store.load(subjects.write, stored.state["record_id"]) is None
        entry = loads(stored.state["entry"])
        assert entry["request"]["tool"] == "patch_posts_by_post_id"
        entry["result"]["body"]["views"] = 56
        state = {**stored.state, "entry": dumps(entry).decode()}
        store.commit(RecordEnvelope("tamper-log", "2026-01-01T00:00:00Z", "tester"),
                     [SubjectWrite(subjects.log, position, Expect.revision(stored.revision), state)])
        verification = verify_history(bundle, store)
    assert verification.difference is not None and verification.difference.position == 5
    assert verification.difference.what == "patch_posts_by_post_id /posts/5"
    assert verification.difference.detail == "body.views: recorded 56, replayed 55"


def test_a_stored_state_that_drifted_from_its_history_is_named(bundle, sqlite_url) -> None:
    runtime = EnvironmentRuntime(bundle, store=sqlite_url)
    runtime.call_tool("post_posts", {"body": POST_BODY})
    runtime.close()
    subjects = Subjects(bundle.view.evidence_id)
    with open_store(sqlite_url) as store:  # an entity changed behind the history's back
        entity_type = subjects.type_of("entity")
        stored = store.load(entity_type, '["/posts","4"]')
        state = {**stored.state, "value": {**stored.state["value"], "views": 2}}
        store.commit(RecordEnvelope("drift", "2026-01-01T00:00:00Z", "tester"),
                     [SubjectWrite(entity_type, '["/posts","4"]', Expect.revision(stored.revision), state)])
        verification = verify_history(bundle, store)
    assert verification.difference is not None
    assert verification.difference.what == "the final state"
    assert "views: recorded 2, replayed 1" in verification.difference.detail


@pytest.mark.parametrize("store_arg, phrase", [
    ("bogus:x", "accepted forms"),
    ("sqlite:{empty}", "holds no history for environment"),
])
def test_bad_input_is_exit_2(bundle_path, tmp_path, store_arg, phrase) -> None:
    empty = tmp_path / "empty.sqlite"
    open_store(f"sqlite:{empty}").close()
    result = capenv("history", "verify", "--bundle", str(bundle_path), "--store", store_arg.format(empty=empty))
    assert result.returncode == 2, result.stderr
    assert phrase in result.stderr.decode() and "Traceback" not in result.stderr.decode()
