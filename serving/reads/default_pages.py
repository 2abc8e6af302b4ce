"""A list the application caps at a default page size (``ReadView.default_page``, learned by the
gate from ``view-default-page-caps``): a call naming no page is answered with the first ``size``
members in the collection's order, as the application listed them. A learned query naming no
page size that selects more members than that is refused: the capture shows the cap only for the
unqueried list, not which members a filtered one keeps."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import ListLine, ReadView

SIZE_KINDS = ("limit", "end")
"""Learned query kinds that name how many members a page holds (``from_state.PAGE_SIZE_KINDS``)."""


def capped_members(view: ReadView, line: ListLine, asked: Any,
                   members: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], str | None]:
    """The members a call asking ``asked`` is answered with, and why it is refused (None: it is not)."""
    cap = view.default_page
    if cap is None or len(members) <= cap.size:
        return members, None
    if not line.queries:
        if line.membership == "all" and not asked:
            return members[:cap.size], None
        return members, None
    sized = {spec.param for spec in line.queries if spec.kind in SIZE_KINDS}
    if any(name in sized for name, _ in (asked or ())):
        return members, None
    return members, (f"the application lists at most {cap.size} members when a call names no page size "
                     f"(records {', '.join(map(str, cap.record_ordinals))}), and this query selects "
                     f"{len(members)}: which of them it keeps is unproven; name a page size")
