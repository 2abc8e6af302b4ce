"""The page bound (seeds: "The gate", "Reads"): a read on a page (limit, size, per_page and the
like, or a _start–_end range) of a whole list checks nothing once the collection holds more
entities than the page, which serving then answers from its recording. A size of zero is no
bound on a line whose recording listed items under it, while its other sizes and range still
bound the page."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.view.paging import PagingRoles
from capenv.serving.reads.from_state import _page_size
from capenv.serving.state.index import StateIndex


def page_bound(line: Any, view: Any, roles: PagingRoles) -> int | None:
    """The most entities a whole line's page lists (None: no bound), the query parameters' roles
    as the build's ``view-query-params`` table gives them."""
    if line.membership != "all" or not line.query or line.queries:
        return None
    sizes = [size] if (size := _page_size(line, view)) is not None else []
    for name, value in line.query:
        if roles.role(name) in ("limit", "end"):
            try:
                number = int(value)
            except ValueError:
                continue
            if number > 0:  # a size of zero on a whole line listed items under it: no bound
                sizes.append(number)
    return min(sizes) if sizes else None


def past_the_page(line: Any, view: Any, type_name: str, copy: StateIndex, roles: PagingRoles) -> bool:
    """The collection holds more entities than the line's page: serving answers from its recording."""
    bound = page_bound(line, view, roles)
    if bound is None:
        return False
    held = copy.find_collection(line.collection or line.path, type_name)
    return held is not None and len(held.order) > bound
