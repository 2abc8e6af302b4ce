"""An in-process cache with the two django-redis methods Nautobot calls beside Django's API.

Nautobot clears cached lookups with ``cache.delete_pattern(glob)`` and serialises IP allocation
with ``cache.lock(name)``; Django's local-memory cache has neither. One server process answers
every request (captures/nautobot/start.sh), so a process-local cache and lock are what Redis
would give it; no Redis server runs.
"""
import fnmatch
import threading

from django.core.cache.backends.locmem import LocMemCache


class PatternLocMemCache(LocMemCache):
    _locks: dict[str, threading.Lock] = {}

    def delete_pattern(self, pattern, version=None):
        wanted = self.make_key(pattern, version=version)
        with self._lock:
            matching = [key for key in self._cache if fnmatch.fnmatchcase(key, wanted)]
            for key in matching:
                self._delete(key)
        return len(matching)

    def lock(self, name, **_redis_options):
        return self._locks.setdefault(name, threading.Lock())
