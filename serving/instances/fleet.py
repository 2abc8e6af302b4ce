"""The fleet: many isolated environments of one bundle in one server (``docs/instances.md``).

``InstanceFleet(template, store)`` shares the template runtime's immutable parts with every instance
(``EnvironmentRuntime.sibling``) and installs the initial state once as the frozen base
(``base``). An instance is a runtime whose state is an overlay store over that base
(``overlay``) and a holder that reads the base's copy until its first write (``holder``).

The registry (``registry``) lives in the fleet's store; this process keeps the runtimes of the
instances it has served, opened on first use, so another process's instance on the same
PostgreSQL store is reached here too. An instance not used for ``idle_seconds`` is deleted, its
storage reclaimed (``expire_idle``, run as instances are created and listed).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import DataPlaneRefusal
from capenv.serving.store import MemoryStore, Store

from .base import FrozenBase
from .holder import InstanceStateHolder
from .overlay import OverlayStore
from .registry import Registry, instance_subjects, new_id, record_prefix

TOUCH_EVERY_FRACTION = 10
"""The registry records an instance's last use, and idle instances are looked for, at most once
per this fraction of the idle time."""


class UnknownInstance(LookupError):
    """No instance (or snapshot) of that id: never created here, deleted, or expired."""

    def __init__(self, what: str, given: str) -> None:
        self.message = (f"no {what} {given!r} in this fleet (deleted, expired, or never created); "
                        f"{'POST /_capenv/instances creates one' if what == 'instance' else 'snapshot an instance first'}")
        super().__init__(self.message)


@dataclass
class _Live:
    runtime: EnvironmentRuntime
    holder: InstanceStateHolder
    used: float
    touched: float


class InstanceFleet:
    def __init__(self, template: EnvironmentRuntime, store: Store | None = None, *,
                 idle_seconds: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        """``store``: the fleet's store (None: one in this process's memory); ``idle_seconds``:
        how long an unused instance lives (None: until deleted)."""
        if not template.state_available or template.replay_only:
            raise DataPlaneRefusal("instances need a state to copy: this environment serves every read by replay")
        self.template = template
        self.store = store if store is not None else MemoryStore()
        self._shared = not isinstance(self.store, MemoryStore)  # other processes may write to it
        self.idle_seconds = idle_seconds
        self._clock = clock
        self._lock = threading.RLock()
        self._live: dict[str, _Live] = {}
        self._swept = float("-inf")
        self.environment = template.bundle.view.evidence_id
        self.registry = Registry(self.store, self.environment)
        self.base = FrozenBase.install(*template.state_parts())

    # --- the data plane's verbs -------------------------------------------------------------

    def create(self, from_snapshot: str | None = None) -> str:
        """A new instance, from the initial state or from a snapshot; its id."""
        self.expire_idle()
        document = None
        if from_snapshot is not None:
            document = self.registry.snapshot_document(from_snapshot)
            if document is None:
                raise UnknownInstance("snapshot", from_snapshot)
        instance_id = new_id()
        self.registry.add_instance(instance_id, from_snapshot)
        live = self._open(instance_id)
        if document is not None:
            live.runtime.data_add(document)
        return instance_id

    def runtime(self, instance_id: str) -> EnvironmentRuntime:
        """The instance's runtime (opened here on first use); raises ``UnknownInstance``."""
        with self._lock:
            live = self._live.get(instance_id)
        if live is None or self._shared:  # another process may have deleted it
            if self.registry.instance(instance_id) is None:
                with self._lock:
                    self._live.pop(instance_id, None)
                raise UnknownInstance("instance", instance_id)
        if live is None:
            live = self._open(instance_id)
        now = self._clock()
        live.used = now
        if self.idle_seconds is not None and now - live.touched > self.idle_seconds / TOUCH_EVERY_FRACTION:
            live.touched = now
            self.registry.touch(instance_id)
        return live.runtime

    def instance_subjects(self, instance_id: str) -> Any:
        """The subject types an instance's own state is kept under in the fleet's store."""
        return instance_subjects(self.environment, instance_id)

    def live_ids(self) -> list[str]:
        """The instances this process holds open."""
        with self._lock:
            return list(self._live)

    def instances(self) -> list[dict[str, Any]]:
        self.expire_idle()
        return [{"id": instance_id, **held.state} for instance_id, held in self.registry.instances().items()]

    def snapshot(self, instance_id: str) -> str:
        document = self.runtime(instance_id).data_get()
        return self.registry.add_snapshot(instance_id, document)

    def delete_snapshot(self, snapshot_id: str) -> None:
        if not self.registry.remove_snapshot(snapshot_id):
            raise UnknownInstance("snapshot", snapshot_id)

    def delete(self, instance_id: str) -> None:
        with self._lock:
            live = self._live.pop(instance_id, None)
        if not self.registry.remove_instance(instance_id) and live is None:
            raise UnknownInstance("instance", instance_id)

    def expire_idle(self) -> list[str]:
        """Delete the instances unused for ``idle_seconds``: those this process served by their
        last use here, the others by the last use the registry recorded."""
        if self.idle_seconds is None:
            return []
        now = self._clock()
        if now - self._swept < self.idle_seconds / TOUCH_EVERY_FRACTION:
            return []  # the registry is read at most this often (every create and listing asks)
        self._swept = now
        with self._lock:
            local = {i: live.used for i, live in self._live.items()}
        expired = [i for i, used in local.items() if now - used > self.idle_seconds]
        wall = time.time()
        for instance_id, held in self.registry.instances().items():
            if instance_id not in local and wall - _epoch(held.state["touched_at"]) > self.idle_seconds:
                expired.append(instance_id)
        for instance_id in expired:
            try:
                self.delete(instance_id)
            except UnknownInstance:
                pass
        return expired

    def close(self) -> None:
        self.store.close()

    # --- opening an instance ------------------------------------------------------------

    def _open(self, instance_id: str) -> _Live:
        subjects = instance_subjects(self.environment, instance_id)
        overlay = OverlayStore(self.base, self.store, subjects, record_prefix(instance_id))
        made: list[InstanceStateHolder] = []

        def open_state(bundle: Any, writes: Any, encode: Any) -> InstanceStateHolder:
            holder = InstanceStateHolder(overlay, self.base, bundle, writes, encode, shared=self._shared)
            holder.load(bundle.view.state)
            made.append(holder)
            return holder

        runtime = self.template.sibling(open_state)
        now = self._clock()
        live = _Live(runtime, made[0], now, now)
        with self._lock:
            return self._live.setdefault(instance_id, live)


def _epoch(text: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(text).timestamp()
