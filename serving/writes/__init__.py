"""Writes: execute one call of a write plan (check it, compute every field with the serving ops,
edit the state, answer), the one path both the gate and serving take.

May import: the build side's ``bundle`` and ``manifest`` models, ``serving.ops``,
``serving.state`` (index and edits), ``serving.reads`` (rendering the answer),
``serving.read_call``. Never ``catalog``, the runtime or the transports.
"""
