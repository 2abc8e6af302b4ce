"""Refuse an update sending an object the capture never shows the application storing whole
(``WritePlan.object_merges``, learned by ``interpreter/plans/object_merges``): one leaving out a key
the entity holds in that member, which the application may keep (Medusa merges ``metadata``) or
drop, or one holding an empty text or null, which it may take as removing the key. The call is
refused, state unchanged, saying what is accepted. The gate replays recorded calls and never runs
this check (``WriteEnv.checks_references``)."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.bundle.object_keys import holding, left_out

from .calls import WriteRefusal


def refuse_unproven_merges(plan: WritePlan, body: dict[str, Any], entity: dict[str, Any]) -> None:
    for merge in plan.object_merges:
        sent = body.get(merge.member)
        if not isinstance(sent, dict):
            continue
        if merge.check == "held-keys":
            found = next(left_out(entity.get(merge.member), sent), None)
            why = (f"leaves out {merge.member}{found}, which the entity holds: the application may keep it (merging the "
                   "object sent into the one held) or drop it, and no recorded call shows which")
        else:
            found = next(holding(sent, merge.values), None)
            why = (f"sends {merge.member}{found} as an empty text or null, which the application may take as removing "
                   "the key, and no recorded call shows it stored")
        if found is not None:
            raise WriteRefusal(f"member {merge.member!r} {why}; accepted: {merge.described}")
