"""An instance's state holder: a ``StoreStateHolder`` over the instance's overlay store that
starts on the base's own in-process copy.

Until its first write an instance reads the base's ``StateMirror`` (never changed) and answers
data/get with the base's bytes, so a new or idle instance holds no copy of the state at all.
Its first write, or a change another process committed to it, gives it its own copy first:
the containers of the state (collections' orders and maps, documents) copied, the entities'
values shared with the base, since a write replaces an entity's value rather than editing it
(``state/edits.py``; an op edits only values it copied, ``ops/pointers.py``).
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import StateSnapshot
from capenv.serving.state.index import HeldCollection, StateIndex
from capenv.serving.state.mirror import StateMirror
from capenv.serving.state.ranks import copy_ranks
from capenv.serving.state.records import RESET
from capenv.serving.state.stored import StoreStateHolder
from capenv.serving.state.subjects import META_ID, Subjects

from .base import FrozenBase
from .overlay import OverlayStore


class InstanceStateHolder(StoreStateHolder):
    def __init__(self, store: OverlayStore, base: FrozenBase, bundle: Any, writes: Any, encode: Any, *,
                 shared: bool) -> None:
        # its own subject types from the start: the bound forgets the instance's journal entries by them
        super().__init__(store, bundle, writes, encode, shared=shared, subjects=store.subjects)
        self._base = base

    def load(self, initial: StateSnapshot) -> None:
        """A fresh instance (or one whose delta holds no write yet) adopts the base's copy."""
        base = self._base.mirror
        if self.store.revision(self.subjects.meta, META_ID) == base.position:
            self._adopt(base, self._base.encoded)
        else:
            super().load(initial)

    @property
    def pristine(self) -> bool:
        """Still reading the base's copy (nothing written to this instance yet)."""
        return self._mirror is self._base.mirror

    def refresh(self) -> None:
        if self.pristine and self._shared and \
                self.store.revision(self.subjects.meta, META_ID) != self._base.mirror.position:
            self._own_copy()
        super().refresh()

    def reset(self, initial: StateSnapshot) -> None:
        self.refresh()
        if not self.pristine:  # a pristine instance is the initial state, its clock at its start
            super().reset(initial)

    def _commit_install(self, prepared: Any, kind: str, **options: Any) -> None:
        """A reset or add: on a pristine instance a reset changes nothing, and an add is diffed
        against the instance's own copy (the base's names the base's subjects)."""
        if self.pristine and not options.get("only_if_absent"):
            self.refresh()
            if self.pristine and kind == RESET:
                return
            if self.pristine:
                self._own_copy()
        super()._commit_install(prepared, kind, **options)

    def write(self, plan: Any, tool: str, call: Any, key: str | None = None) -> Any:
        if self.pristine:
            self._own_copy()
        return super().write(plan, tool, call, key)

    def _own_copy(self) -> None:
        encoded = self._encoded
        self._adopt(copy_mirror(self._base.mirror, self.subjects), encoded)


def copy_mirror(base: StateMirror, subjects: Subjects) -> StateMirror:
    """A mirror the instance may change, sharing the entities' values with ``base``; its
    revisions are the base's, named by the instance's subject types."""
    index = base.index
    copied = StateIndex(index.evidence_id, {path: _copy_collection(c) for path, c in index.collections.items()},
                        dict(index.documents), dict(index.document_records), index.known)
    mirror = StateMirror(subjects, copied, base.meta, base.position)
    rename = {base.subjects.type_of(kind): subjects.type_of(kind)
              for kind in ("collection", "entity", "document", "meta", "log", "write")}
    mirror.revisions.by_type = {rename[t]: dict(ids) for t, ids in base.revisions.by_type.items()}
    mirror.entity_ranks = {path: copy_ranks(ranks) for path, ranks in base.entity_ranks.items()}
    mirror.collection_ranks = dict(base.collection_ranks)
    mirror.document_ranks = dict(base.document_ranks)
    return mirror


def _copy_collection(held: HeldCollection) -> HeldCollection:
    return HeldCollection(held.path, held.type, dict(held.args), list(held.order), dict(held.entities),
                          dict(held.ids), dict(held.records), dict(held.maxima),
                          {name: dict(counts) for name, counts in held.held_values.items()},
                          None if held.member_counts is None else dict(held.member_counts), set(held.unplaced),
                          nesting=None if held.nesting is None else set(held.nesting))
