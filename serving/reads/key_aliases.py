"""Refuse a key an item view's type lacks where another type holds its entities under other keys
(``ReadView.key_aliases``, ``view-key-aliases``): the application may answer that key as another
name of an entity the state holds (libpod's ``podman`` for Docker's ``bridge``), which the capture
does not show, so the learned absence is no answer for it."""

from __future__ import annotations

from capenv.interpreter.bundle.models import ReadView
from capenv.interpreter.bundle.values import decode_once
from capenv.serving.read_call import CallRefused


def refuse_aliased_key(view: ReadView, raw_id: str, *, type_name: str, field: str) -> None:
    """Refuse, saying which keys are accepted, when the view's type has proven aliases."""
    if not view.key_aliases:
        return
    call_key = decode_once(raw_id)
    named = next((a for a in view.key_aliases if a.other_key == call_key), None)
    shown = ", ".join(f'"{a.other_key}" in {a.other_type} is "{a.key}" here' for a in view.key_aliases[:3])
    why = (f'"{call_key}" is that entity\'s key in {named.other_type} (the same "{named.identity_member}"); '
           f'read it as "{named.key}"') if named is not None else \
        "the application may answer it as another name of one it holds, which the capture does not show"
    raise CallRefused(f'the state holds no {type_name} whose "{field}" is "{call_key}", but the capture shows '
                      f"entities of {type_name} held in another type under other keys ({shown}): {why}; "
                      f"a key the state holds is accepted", http_status=409)
