"""Reads: answer a read tool's call from the state, exactly as the read gate proved it (learned
queries included), else replay the nearest recording.

May import: the build side's ``bundle`` and ``manifest`` models, ``serving.state`` (the index it
renders from), ``serving.read_call``, ``serving.runtime_api``. Never ``writes``, ``catalog`` or the
transports.
"""
