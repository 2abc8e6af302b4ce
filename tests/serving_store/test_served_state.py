"""Serving on the store, in process: each served write is one recorded commit, runtimes sharing a
store see each other's changes (incrementally, and as a full reload would), a lost race is
decided again, idempotency keys, data/reset and data/add as one batch."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from typing import Any

import pytest
from serving_store_support import POST_BODY, posts_of

from capenv.interpreter.bundle.jsonvalue import dumps, loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest
from capenv.serving.state.subjects import Subjects
from capenv.serving.store import (
    Commit, MemoryStore, RecordEnvelope, Store, StoreBackendError, StoreUnreachable, SubjectWrite, open_store,
)
from capenv.serving.transport.tool_result import tool_result


class CountingStore(MemoryStore):
    """A MemoryStore that keeps every accepted commit and counts loads, and can run a hook
    (another writer getting in first) before a commit."""

    def __init__(self) -> None:
        super().__init__()
        self.commits: list[Commit] = []
        self.loads = 0
        self.heads = 0  # revision reads: the head checks
        self.before_commit: Any = None

    def commit(self, envelope: RecordEnvelope, writes: Sequence[SubjectWrite]) -> Commit:
        hook, self.before_commit = self.before_commit, None
        if hook is not None:
            hook()
        commit = super().commit(envelope, writes)
        self.commits.append(commit)
        return commit

    def commit_replace(self, prepared, expect, revision, extra=None):
        commit = super().commit_replace(prepared, expect, revision, extra)
        self.commits.append(commit)
        return commit

    def load(self, subject_type: str, subject_id: str):
        self.loads += 1
        return super().load(subject_type, subject_id)

    def revision(self, subject_type: str, subject_id: str):
        self.heads += 1
        return super().revision(subject_type, subject_id)


class SharedHandle(Store):
    """A second handle on one MemoryStore (closing it leaves the store open), as a second
    process would hold its own connection to one SQLite file."""

    def __init__(self, store: Store) -> None:
        self.inner = store

    def commit(self, envelope, writes):
        return self.inner.commit(envelope, writes)

    def load(self, subject_type, subject_id):
        return self.inner.load(subject_type, subject_id)

    def revision(self, subject_type, subject_id):
        return self.inner.revision(subject_type, subject_id)

    def list_ids(self, subject_type):
        return self.inner.list_ids(subject_type)

    def history(self, subject_type, subject_id):
        return self.inner.history(subject_type, subject_id)

    def snapshot(self, subject_types=None):
        return self.inner.snapshot(subject_types)

    def close(self) -> None:
        return None


def create(runtime: EnvironmentRuntime, key: str | None = None, **members: Any) -> dict[str, Any]:
    answer = runtime.call_tool("post_posts", {"body": {**POST_BODY, **members}}, idempotency_key=key)
    assert not answer.is_error, answer.structured
    return answer.structured


def post_ids(runtime: EnvironmentRuntime) -> list[int]:
    return [post["id"] for post in runtime.read("get_posts")["body"]]


def kinds(store: Store, bundle, commit: Commit) -> list[str]:
    subjects = Subjects(bundle.view.evidence_id)
    return [subjects.kind_of(w.subject_type) for w in commit.writes]


# --- one write, one commit -------------------------------------------------------------------------


def test_a_served_write_is_one_commit_holding_the_change_meta_log_and_history(bundle) -> None:
    store = CountingStore()
    runtime = EnvironmentRuntime(bundle, store=store)
    assert len(store.commits) == 1 and kinds(store, bundle, store.commits[0])[-3:] == ["meta", "log", "write"]
    created = create(runtime, key="k-create")
    assert created["body"]["id"] == 4
    assert len(store.commits) == 2
    commit = store.commits[-1]
    assert commit.record_id == "k-create"
    assert kinds(store, bundle, commit) == ["entity", "meta", "log", "write"]
    subjects = Subjects(bundle.view.evidence_id)
    meta = store.load(subjects.meta, "meta")
    assert meta.state["counter"] == 1 and meta.revision == 2
    assert store.load(subjects.log, "2".zfill(16)).state == {
        "record_id": "k-create", "kind": "write", "subjects": [["entity", '["/posts","4"]']]}
    record = store.load(subjects.write, "k-create").state
    entry = loads(record["entry"])
    assert record["position"] == 2 and record["plan"] == f"post_posts@{bundle.info.rules_revision}"
    assert entry["request"] == {"tool": "post_posts", "path": "/posts", "query": [], "body": POST_BODY}
    assert entry["rules_revision"] == bundle.info.rules_revision and entry["counter"] == 1
    assert entry["result"]["status"] == 201 and entry["result"]["body"]["id"] == 4
    assert entry["result"]["provenance"]["state"]["view"] == "create"
    assert entry["changed"] == ["4"]

    # Sent without an idempotency key (nothing looks them up by record id), the writes keep their
    # history record in their log entry: one subject fewer.
    runtime.call_tool("patch_posts_by_post_id", {"post_id": "4", "body": {"views": 9}})
    runtime.call_tool("put_profile", {"body": {"name": "n", "bio": "b"}})
    runtime.call_tool("delete_comments_by_comment_id", {"comment_id": "1"})
    assert [kinds(store, bundle, c) for c in store.commits[2:]] == [
        ["entity", "meta", "log"], ["document", "meta", "log"], ["entity", "meta", "log"]]
    assert store.commits[-1].writes[0].deleted  # a delete is a tombstone
    logged = store.load(subjects.log, "3".zfill(16)).state
    record_id = store.commits[2].record_id
    assert store.load(subjects.write, record_id) is None
    assert {k: logged[k] for k in ("record_id", "kind", "subjects", "position")} == {
        "record_id": record_id, "kind": "write", "subjects": [["entity", '["/posts","4"]']], "position": 3}
    assert logged["plan"] == f"patch_posts_by_post_id@{bundle.info.rules_revision}"
    entry = loads(logged["entry"])
    assert entry["request"]["body"] == {"views": 9} and entry["result"]["body"]["views"] == 9
    assert entry["changed"] == ["views"] and entry["counter"] == 2


def test_a_write_that_changes_nothing_commits_nothing(bundle) -> None:
    store = CountingStore()
    runtime = EnvironmentRuntime(bundle, store=store)
    missing = runtime.call_tool("patch_posts_by_post_id", {"post_id": "404", "body": {"views": 1}})
    refused = runtime.call_tool("post_posts", {"body": {"title": "only"}})
    assert missing.structured["state"]["view"] == "missing" and refused.is_error
    assert len(store.commits) == 1  # the first install only


def test_data_reset_and_data_add_are_one_commit_each(bundle) -> None:
    store = CountingStore()
    runtime = EnvironmentRuntime(bundle, store=store)
    initial = runtime.data_get()
    for _ in range(3):
        create(runtime)
    before = len(store.commits)
    runtime.data_reset()
    assert len(store.commits) == before + 1 and runtime.data_get() == initial
    reset = store.commits[-1]
    subjects = Subjects(bundle.view.evidence_id)
    assert reset.subject_types == frozenset(subjects.all_types())  # the reset's own commit replaced them whole:
    assert len(store.list_ids(subjects.type_of("entity"))) == len(posts_of(json.loads(initial))) + sum(
        len(c["entities"]) for c in json.loads(initial)["collections"] if c["path"] != "/posts")  # no created post
    assert store.list_ids(subjects.write) == [reset.record_id]  # the episode's records gone
    assert len(store.list_ids(subjects.log)) == 1
    document = json.loads(initial)
    posts_of(document).pop(0)
    runtime.data_add(json.dumps(document).encode())
    assert len(store.commits) == before + 2
    assert post_ids(runtime) == [2, 3]
    assert json.loads(runtime.data_get()) == document


# --- idempotency -----------------------------------------------------------------------------------


def test_an_exact_retry_answers_the_original_bytes_even_after_the_state_moved_on(bundle) -> None:
    store = CountingStore()
    runtime = EnvironmentRuntime(bundle, store=store)
    first = runtime.call_tool("post_posts", {"body": POST_BODY}, idempotency_key="k-1")
    create(runtime)  # the state moves on: post 5
    runtime.call_tool("patch_posts_by_post_id", {"post_id": "4", "body": {"views": 50}})
    commits = len(store.commits)
    again = runtime.call_tool("post_posts", {"body": POST_BODY}, idempotency_key="k-1")
    assert len(store.commits) == commits  # no new commit
    assert tool_result(again).content[0].text == tool_result(first).content[0].text
    assert again.structured == first.structured and again.structured["body"]["id"] == 4
    assert post_ids(runtime) == [1, 2, 3, 4, 5]

    other = runtime.call_tool("post_posts", {"body": {**POST_BODY, "title": "other"}}, idempotency_key="k-1")
    assert other.is_error and other.structured["kind"] == "conflict"
    assert "idempotency key 'k-1' was already used for a different request (post_posts /posts" in \
        other.structured["message"]
    elsewhere = runtime.call_tool("patch_posts_by_post_id", {"post_id": "1", "body": {"views": 1}},
                                  idempotency_key="k-1")
    assert elsewhere.is_error and "post_posts /posts" in elsewhere.structured["message"]
    assert len(store.commits) == commits and post_ids(runtime) == [1, 2, 3, 4, 5]


def test_the_http_idempotency_key_header_is_the_record_id(bundle) -> None:
    runtime = EnvironmentRuntime(bundle)

    def post(body: dict[str, Any], key: str | None) -> tuple[int, bytes]:
        headers = (("content-type", "application/json"),) + ((("idempotency-key", key),) if key is not None else ())
        answer = runtime.http(HttpRequest("POST", "/posts", (), headers, dumps(body)))
        return answer.status, answer.body

    first = post(POST_BODY, "h-1")
    assert first[0] == 201 and json.loads(first[1])["id"] == 4
    assert post(POST_BODY, "h-1") == first
    # The same request over MCP under the same key is the same request.
    assert runtime.call_tool("post_posts", {"body": POST_BODY}, idempotency_key="h-1").structured["body"]["id"] == 4
    status, body = post({**POST_BODY, "views": 2}, "h-1")
    assert status == 409
    refusal = json.loads(body)
    assert refusal["error"] == "conflict" and "idempotency key 'h-1'" in refusal["message"]
    assert post(POST_BODY, "  ")[0] == 400
    assert post(POST_BODY, None)[0] == 201  # without a key, a new write
    assert post_ids(runtime) == [1, 2, 3, 4, 5]


def test_concurrent_calls_under_one_key_make_one_write(bundle, sqlite_url) -> None:
    runtimes = [EnvironmentRuntime(bundle, store=sqlite_url) for _ in range(4)]
    barrier = threading.Barrier(len(runtimes))
    answers: list[Any] = [None] * len(runtimes)

    def call(i: int) -> None:
        barrier.wait()
        answers[i] = runtimes[i].call_tool("post_posts", {"body": POST_BODY}, idempotency_key="same")

    threads = [threading.Thread(target=call, args=(i,)) for i in range(len(runtimes))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    texts = {tool_result(answer).content[0].text for answer in answers}
    assert len(texts) == 1, texts
    assert all(post_ids(r) == [1, 2, 3, 4] for r in runtimes)
    for runtime in runtimes:
        runtime.close()


# --- one state, several runtimes -----------------------------------------------------------------


def shared_runtimes(bundle, kind: str, sqlite_url: str) -> tuple[EnvironmentRuntime, EnvironmentRuntime, Any]:
    if kind == "memory":
        store = MemoryStore()
        return (EnvironmentRuntime(bundle, store=SharedHandle(store)),
                EnvironmentRuntime(bundle, store=SharedHandle(store)), lambda: SharedHandle(store))
    return (EnvironmentRuntime(bundle, store=sqlite_url), EnvironmentRuntime(bundle, store=sqlite_url),
            lambda: open_store(sqlite_url))


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_runtimes_sharing_a_store_serve_one_state(bundle, sqlite_url, kind) -> None:
    first, second, reopen = shared_runtimes(bundle, kind, sqlite_url)

    def agree() -> bytes:
        fresh = EnvironmentRuntime(bundle, store=reopen())  # a full reload, to compare the incremental ones with
        document = fresh.data_get()
        assert first.data_get() == document and second.data_get() == document
        return document

    assert create(first)["body"]["id"] == 4
    assert create(second)["body"]["id"] == 5  # the sequence continues across runtimes
    assert second.read("get_posts_by_post_id", {"post_id": "4"})["body"]["title"] == "load"
    assert not second.call_tool("patch_posts_by_post_id", {"post_id": "4", "body": {"views": 44}}).is_error
    assert first.read("get_posts_by_post_id", {"post_id": "4"})["body"]["views"] == 44
    assert not first.call_tool("delete_comments_by_comment_id", {"comment_id": "2"}).is_error
    assert 2 not in [c["id"] for c in second.read("get_comments")["body"]]
    assert not second.call_tool("put_profile", {"body": {"name": "shared", "bio": "one state"}}).is_error
    assert first.read("get_profile")["body"]["name"] == "shared"
    agree()

    # A state without /posts: the next create makes the collection again, as a new subject.
    document = json.loads(first.data_get())
    document["collections"] = [c for c in document["collections"] if c["path"] != "/posts"]
    first.data_add(json.dumps(document).encode())
    assert "/posts" not in [c["path"] for c in json.loads(second.data_get())["collections"]]
    assert create(second)["body"]["id"] == 1
    assert [e["id"] for e in posts_of(json.loads(first.data_get()))] == [1]
    held = json.loads(agree())
    assert [c["path"] for c in held["collections"]][-1] == "/posts"

    second.data_reset()
    assert post_ids(first) == [1, 2, 3]
    assert create(first)["body"]["id"] == 4
    agree()


def test_a_write_that_loses_a_race_is_decided_again(bundle) -> None:
    store = CountingStore()
    first = EnvironmentRuntime(bundle, store=SharedHandle(store))
    second = EnvironmentRuntime(bundle, store=SharedHandle(store))
    won: list[dict[str, Any]] = []
    # The second runtime decides on the state it read; the first commits before it does.
    store.before_commit = lambda: won.append(create(first, title="first"))
    lost_then_won = create(second, title="second")
    assert won[0]["body"]["id"] == 4 and lost_then_won["body"]["id"] == 5
    assert [p["title"] for p in second.read("get_posts")["body"]][-2:] == ["first", "second"]
    assert first.data_get() == second.data_get() == EnvironmentRuntime(bundle, store=SharedHandle(store)).data_get()


def test_a_write_without_a_key_reads_no_head_before_its_commit(bundle) -> None:
    """The commit's expectation on meta is the head check of a write without a key: no store read
    before it while nothing else wrote."""
    store = CountingStore()
    runtime = EnvironmentRuntime(bundle, store=SharedHandle(store))
    create(runtime)
    store.heads = store.loads = 0
    assert create(runtime)["body"]["id"] == 5
    assert (store.heads, store.loads) == (0, 0)


def test_a_write_decided_on_a_copy_the_store_moved_past_is_decided_again(bundle) -> None:
    """A runtime whose copy lacks what another wrote since is refused there (the post missing),
    answered nothing committed (a delete's recorded absence) or loses its commit; each is decided
    again on the store's state, and answers as a runtime that had read it first."""
    store = CountingStore()
    first = EnvironmentRuntime(bundle, store=SharedHandle(store))
    second = EnvironmentRuntime(bundle, store=SharedHandle(store))
    assert post_ids(second) == [1, 2, 3]
    made = str(create(first, title="made elsewhere")["body"]["id"])
    patched = second.call_tool("patch_posts_by_post_id", {"post_id": made, "body": {"views": 7}})
    assert not patched.is_error and patched.structured["status"] == 200, patched.structured
    assert first.read("get_posts_by_post_id", {"post_id": made})["body"]["views"] == 7
    comment = first.call_tool("post_comments", {"body": {"body": "made elsewhere", "postId": 1}})
    assert not comment.is_error, comment.structured
    made = str(comment.structured["body"]["id"])
    deleted = second.call_tool("delete_comments_by_comment_id", {"comment_id": made})
    assert not deleted.is_error and deleted.structured["status"] < 300, deleted.structured
    assert int(made) not in [c["id"] for c in first.read("get_comments")["body"]]
    assert not first.call_tool("delete_comments_by_comment_id", {"comment_id": "2"}).is_error
    # held by second's copy, gone from the store: accepted there, its commit lost, refused again
    gone = second.call_tool("patch_comments_by_comment_id", {"comment_id": "2", "body": {"body": "late"}})
    assert gone.structured.get("status", 0) >= 400 or gone.is_error, gone.structured
    create(first, title="third")
    assert create(second, title="fourth")["body"]["id"] == 6
    assert first.data_get() == second.data_get() == EnvironmentRuntime(bundle, store=SharedHandle(store)).data_get()


def test_runtimes_writing_at_once_leave_every_write_and_unique_sequence_values(bundle, sqlite_url) -> None:
    runtimes = [EnvironmentRuntime(bundle, store=sqlite_url) for _ in range(4)]
    per_runtime = 40
    ids: list[list[int]] = [[] for _ in runtimes]

    def work(i: int) -> None:
        for n in range(per_runtime):
            ids[i].append(create(runtimes[i], title=f"r{i}-{n}")["body"]["id"])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(runtimes))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    served = [i for chunk in ids for i in chunk]
    assert len(served) == len(set(served)) == per_runtime * len(runtimes)
    held = post_ids(runtimes[0])
    assert sorted(held) == held and set(held) == {1, 2, 3, *served}
    for runtime in runtimes:
        runtime.close()


# --- reading what other processes wrote ---------------------------------------------------------


def test_a_read_checks_one_head_and_reloads_only_what_changed(bundle) -> None:
    store = CountingStore()
    reader = EnvironmentRuntime(bundle, store=SharedHandle(store))
    writer = EnvironmentRuntime(bundle, store=SharedHandle(store))
    reader.read("get_posts")
    store.loads = store.heads = 0
    reader.read("get_posts")
    assert (store.heads, store.loads) == (1, 0)  # nothing changed: meta's revision only, no state read
    create(writer)
    create(writer)
    store.loads = store.heads = 0
    assert post_ids(reader) == [1, 2, 3, 4, 5]
    assert (store.heads, store.loads) == (1, 1 + 2 + 2)  # then meta, two log entries, the two changed entities


def test_a_long_gap_or_a_reset_elsewhere_reloads_whole(bundle) -> None:
    """Past the budget ``catch_up_entries`` log entries behind, a read reloads from one snapshot
    (the store's meta read, no log entry nor entity loaded one by one)."""
    store = CountingStore()
    assert bundle.view.budgets.catch_up_entries == 1000
    bundle = bundle.model_copy(update={"view": bundle.view.model_copy(
        update={"budgets": bundle.view.budgets.model_copy(update={"catch_up_entries": 2})})})
    reader = EnvironmentRuntime(bundle, store=SharedHandle(store))
    writer = EnvironmentRuntime(bundle, store=SharedHandle(store))
    reader.read("get_posts")
    for _ in range(3):
        create(writer)
    store.loads = store.heads = 0
    assert post_ids(reader) == [1, 2, 3, 4, 5, 6]
    assert (store.heads, store.loads) == (1, 1)  # three behind, past two: meta, then one snapshot
    create(writer)
    create(writer)
    store.loads = store.heads = 0
    assert post_ids(reader) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert (store.heads, store.loads) == (1, 1 + 2 + 2)  # two behind: entry by entry
    writer.data_reset()
    assert post_ids(reader) == [1, 2, 3]
    assert reader.data_get() == writer.data_get()


def test_an_mcp_retry_under_its_idempotency_key_gets_the_original_result(bundle, sqlite_url) -> None:
    import anyio
    from mcp import Client
    from support.http_thread import http_in_thread

    runtime = EnvironmentRuntime(bundle, store=sqlite_url)

    async def main(url: str) -> None:
        with anyio.fail_after(30):
            async with Client(url) as client:
                first = await client.call_tool("post_posts", {"body": POST_BODY}, meta={"idempotencyKey": "m-1"})
                await client.call_tool("post_posts", {"body": POST_BODY})
                again = await client.call_tool("post_posts", {"body": POST_BODY}, meta={"idempotencyKey": "m-1"})
                assert first.is_error is False and again.is_error is False
                assert again.content[0].text == first.content[0].text
                assert again.structured_content == first.structured_content
                assert first.structured_content["body"]["id"] == 4
                other = await client.call_tool("post_posts", {"body": {**POST_BODY, "views": 3}},
                                               meta={"idempotencyKey": "m-1"})
                assert other.is_error is True
                assert "idempotency key 'm-1' was already used for a different request" in \
                    other.structured_content["message"]

    with http_in_thread(runtime) as serving:
        anyio.run(main, serving.url(runtime.reserved_mcp_path()))
    assert post_ids(runtime) == [1, 2, 3, 4, 5]
    runtime.close()


class FailingStore(CountingStore):
    """Fails the next commit: before it lands (``StoreBackendError``) or after (``StoreUnreachable``:
    the answer was lost, the commit was not)."""

    def __init__(self) -> None:
        super().__init__()
        self.fail: str | None = None

    def commit(self, envelope: RecordEnvelope, writes: Sequence[SubjectWrite]) -> Commit:
        fail, self.fail = self.fail, None
        if fail == "before":
            raise StoreBackendError("disk full")
        commit = super().commit(envelope, writes)
        if fail == "after":
            raise StoreUnreachable("connection lost after the commit")
        return commit


def test_a_commit_that_fails_leaves_no_trace_in_what_is_served(bundle) -> None:
    store = FailingStore()
    runtime = EnvironmentRuntime(bundle, store=SharedHandle(store))
    store.fail = "before"
    with pytest.raises(StoreBackendError):
        runtime.call_tool("post_posts", {"body": POST_BODY})
    assert post_ids(runtime) == [1, 2, 3]  # the local copy was reloaded from the store
    assert create(runtime)["body"]["id"] == 4


def test_a_commit_whose_answer_was_lost_is_sent_again_and_lands_once(bundle) -> None:
    store = FailingStore()
    runtime = EnvironmentRuntime(bundle, store=SharedHandle(store))
    store.fail = "after"
    assert create(runtime)["body"]["id"] == 4  # the same envelope and batch again: the original commit
    assert len(store.commits) == 3  # the install, the commit, and the retry answered from its record id
    assert store.commits[1] == store.commits[2]
    assert post_ids(runtime) == [1, 2, 3, 4]
