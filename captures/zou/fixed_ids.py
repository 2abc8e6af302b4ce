"""Reproducible ids for the seed only (imported by seed.py, never by wsgi.py).

Zou draws every id with uuid.uuid4(); seed.py, which makes the whole starting state in one
process, draws them from a generator with a fixed seed instead, so every start holds the same task
types, statuses, admin and seed entities under the same ids (the probes name them). The served
application (gunicorn on wsgi.py) keeps uuid4: the ids of the recorded creates are Zou's own.
"""
import random
import uuid

_draws = random.Random(20261201)


def _reproducible_uuid4():
    return uuid.UUID(int=_draws.getrandbits(128), version=4)


uuid.uuid4 = _reproducible_uuid4
