"""The page bound (seeds: "The gate", "Reads"): a read on a page (limit, size, per_page and the
like, or a _start–_end range) of a whole list checks nothing once the collection holds more
entities than the page, which serving then answers from its recording. A size of zero is no
bound on a line whose recording listed items under it, while its other sizes and range still
bound the page."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.rules_engine import RuleSet, load_rules
from capenv.interpreter.view.paging import PagingRoles
from capenv.serving.state_index import StateIndex
from capenv.serving.state_reads import _page_size

_ROLES: list[PagingRoles] = []
"""The build's query-parameter roles (its ``view-query-params`` table), set by ``configure_pages``."""


def configure_pages(ruleset: RuleSet) -> None:
    """Use a rule set's ``view-query-params`` table (the pipeline calls this with the build's
    rules, so a maintainer's edited copy decides the page bound as it decided the view)."""
    _ROLES[:] = [PagingRoles(ruleset)]


def _roles() -> PagingRoles:
    if not _ROLES:  # a gate run outside a build: the packaged table
        configure_pages(load_rules())
    return _ROLES[0]


def page_bound(line: Any, view: Any) -> int | None:
    """The most entities a whole line's page lists (None: no bound)."""
    if line.membership != "all" or not line.query or line.queries:
        return None
    sizes = [size] if (size := _page_size(line, view)) is not None else []
    roles = _roles()
    for name, value in line.query:
        if roles.role(name) in ("limit", "end"):
            try:
                number = int(value)
            except ValueError:
                continue
            if number > 0:  # a size of zero on a whole line listed items under it: no bound
                sizes.append(number)
    return min(sizes) if sizes else None


def past_the_page(line: Any, view: Any, type_name: str, copy: StateIndex) -> bool:
    """The collection holds more entities than the line's page: serving answers from its recording."""
    bound = page_bound(line, view)
    if bound is None:
        return False
    held = copy.find_collection(line.collection or line.path, type_name)
    return held is not None and len(held.order) > bound
