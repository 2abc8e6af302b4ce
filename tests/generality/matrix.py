"""The convention matrix: REST conventions as axes, a pairwise sample of their combinations.

Every value of every axis meets every value of every other axis in at least one sampled style (a
greedy pairwise cover, drawn with a fixed seed, so the sample is the same on every run). Each style
is a ``Conventions`` of ``ConventionApp``; ``test_matrix`` records its session, builds it, serves the
application on loopback HTTP and holds the model to it on the probes.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from .conventions import Conventions

AXES: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "list": [("bare", {"list_shape": "bare"}), ("data", {"list_shape": "data"}), ("success", {"list_shape": "success"}),
             ("plural-meta", {"list_shape": "plural_meta"}), ("drf", {"list_shape": "drf"}),
             ("items-total", {"list_shape": "items_total"}), ("plural-total", {"list_shape": "plural_total"}),
             ("meta-pages", {"list_shape": "meta_pages"})],
    "item": [("bare", {"item_shape": "bare"}), ("data", {"item_shape": "data"}), ("success", {"item_shape": "success"}),
             ("plural-one", {"item_shape": "plural_one"}), ("singular", {"item_shape": "singular"})],
    "bodies": [("bare", {}), ("as-items", {"body_shape": "as-items"})],
    "ids": [("sequence", {"ids": "sequence"}), ("uuid", {"ids": "uuid"}), ("hex24", {"ids": "hex24"}),
            ("name", {"ids": "name"}), ("spaced-name", {"ids": "name", "spaced_names": True}),
            ("key", {"ids": "name", "key_member": "key"})],
    "slash": [("no-slash", {}), ("slash", {"slash": True})],
    "collections": [("fixed", {}), ("generic", {"generic_segment": True})],
    "update": [("patch", {"update": "PATCH"}), ("put", {"update": "PUT"}),
               ("patch-mask", {"update": "PATCH", "update_mask": True}),
               ("json-patch", {"update": "PATCH", "json_patch": True})],
    "delete": [("204", {"delete_answer": "204"}), ("200-entity", {"delete_answer": "200_entity"}),
               ("200-empty", {"delete_answer": "200_empty"}), ("200-message", {"delete_answer": "200_message"}),
               ("soft-204", {"delete_answer": "204", "soft_delete": True}),
               ("soft-200-entity", {"delete_answer": "200_entity", "soft_delete": True})],
    "create": [("201-entity", {"create_answer": "201_entity"}), ("201-id", {"create_answer": "201_id"}),
               ("200-entity", {"create_answer": "200_entity"})],
    "stamps": [("times", {}), ("times-version", {"version_counter": True})],
    "absence": [("404-detail", {"absence": "404_detail"}), ("404-problem", {"absence": "404_problem"}),
                ("404-empty", {"absence": "404_empty"}), ("403-errors", {"absence": "403_errors"}),
                ("404-html", {"absence": "404_html"})],
    "prefix": [("api", {"prefix": "/api"}), ("versioned", {"prefix": "/api/v1"}), ("root", {"prefix": ""})],
    "clocks": [("iso-ms-z", {"clocks": "iso-ms-z"}), ("iso-us-offset", {"clocks": "iso-us-offset"}),
               ("epoch", {"clocks": "epoch-seconds"}), ("iso-seconds", {"clocks": "iso-whole-seconds-z"}),
               ("http-date", {"clocks": "http-date"})],
    "errors": [("422-detail", {}), ("400-problem", {"errors": "problem", "invalid_status": 400}),
               ("422-errors", {"errors": "errors"})],
    "update-answer": [("entity", {}), ("204", {"update_answer": "204"}), ("200-success", {"update_answer": "200_success"})],
    "pages": [("unpaged", {}), ("page-of-4", {"page_size": 4})],
    "paging": [("offset", {}), ("page", {"paging": "page"})],
    "extra": [("none", {}), ("queries", {"queries": True}), ("comments", {"comments": True}),
              ("settings", {"settings": True}), ("nested", {"nested": True}), ("actions", {"actions": "segment"}),
              ("version-required", {"concurrency": "version"}), ("if-match", {"concurrency": "if-match"}),
              ("updated-at-required", {"concurrency": "updated_at"}), ("slugs", {"slugs": True, "slug_reads": True}),
              ("slug-path", {"slugs": True, "slug_reads": True, "slug_path": "slug", "slug_renames": True}),
              ("by-name-path", {"slugs": True, "slug_reads": True, "slug_path": "by-name", "slug_renames": True})],
    "list queries": [("none", {}), ("order-by", {"query_style": "order_by"}), ("sort-colon", {"query_style": "sort_colon"}),
                     ("filter-eq", {"query_style": "brackets"}), ("filter-plain", {"query_style": "plain_brackets"}),
                     ("filter-json", {"query_style": "json_filter"}), ("expand", {"query_style": "expand"}),
                     ("include", {"query_style": "include"})],
    "projection": [("none", {}), ("fields", {"projection": "comma"}), ("fields-keeps-id", {"projection": "comma-keeps-id"}),
                   ("fields-indexed", {"projection": "indexed"}), ("fields-appended", {"projection": "appended"})],
    "names": [("snake", {}), ("mongo-camel", {"names": "mongo-camel"}), ("short", {"names": "short"})],
    "links": [("no-links", {}), ("url", {"links": "url"}), ("hal", {"links": "hal"})],
    "order": [("oldest-first", {}), ("newest-first", {"order": "newest-first"}),
              ("recent-first", {"order": "recent-first"})],
    "members": [("flat", {}), ("rich", {"rich_members": True})],
    "seed-reads": [("items-read", {}), ("first-item-read", {"seed_item_reads": "first"}),
                   ("lists-only", {"seed_item_reads": "none"})],
    "pace": [("100ms", {}), ("1100ms", {"call_gap_ms": 1100})],
    "item path": [("plural", {}), ("singular", {"item_singular": True})],
}
SEED = 16
CANDIDATES = 40
"""Random rows drawn for each sampled style; the one covering most uncovered pairs is kept."""
CI_SLICE = 8
"""How many of the sampled styles the default test run holds (``CAPENV_MATRIX=all``: every one)."""


def _pairs(row: tuple[int, ...]) -> set[tuple[int, int, int, int]]:
    return {(a, row[a], b, row[b]) for a, b in itertools.combinations(range(len(row)), 2)}


def sample(seed: int = SEED) -> list[tuple[int, ...]]:
    """Rows of value indexes, one per axis, covering every pair of values of two axes."""
    sizes = [len(values) for values in AXES.values()]
    uncovered = {(a, i, b, j) for a, b in itertools.combinations(range(len(sizes)), 2)
                 for i in range(sizes[a]) for j in range(sizes[b])}
    chance = random.Random(seed)
    rows: list[tuple[int, ...]] = []
    while uncovered:
        # the first pair still uncovered is forced into every candidate, so each row makes progress
        a, i, b, j = min(uncovered)
        best, gain = None, -1
        for _ in range(CANDIDATES):
            row = [chance.randrange(size) for size in sizes]
            row[a], row[b] = i, j
            covered = len(_pairs(tuple(row)) & uncovered)
            if covered > gain:
                best, gain = tuple(row), covered
        assert best is not None
        rows.append(best)
        uncovered -= _pairs(best)
    return rows


def style(row: tuple[int, ...]) -> Conventions:
    """The conventions of one row, named by its axes' values."""
    chosen = [values[index] for values, index in zip(AXES.values(), row)]
    settings: dict[str, Any] = {}
    for _, values in chosen:
        settings.update(values)
    if settings.pop("body_shape", None):  # request bodies wrapped as the item answers are (data for success)
        settings["body_shape"] = {"success": "data"}.get(settings.get("item_shape", "bare"), settings.get("item_shape", "bare"))
    return Conventions("/".join(name for name, _ in chosen), **settings)


def styles(seed: int = SEED) -> list[Conventions]:
    return [style(row) for row in sample(seed)]
