"""Zou's key-value store (Redis) kept in memory, for capenv's capture: imported before zou.

Zou 1.0.97 asks Redis whether a person's token is revoked on every authenticated call and keeps
login counters and its config store there; no Redis server runs here. fakeredis answers those
commands in process (one in-memory server per process, shared by every client of it), and the
event publisher (Socket.IO over a Redis message queue, for Kitsu's live updates) is left off, as
Zou leaves it when Redis is unreachable.
"""
import fakeredis
import redis

redis.StrictRedis = fakeredis.FakeStrictRedis
redis.Redis = fakeredis.FakeRedis

from zou.app.stores import publisher_store  # noqa: E402  (after the patch above)

publisher_store.init = lambda: None
