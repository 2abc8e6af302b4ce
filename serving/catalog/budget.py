"""The discovery budget of the catalog's descriptions (DESIGN.md §5 budgets; write-effects
"Catalog").

Each description may use ``tool_description_characters``, and all of them together
``discovery_characters``. When the full descriptions do not fit, every tool gets the same
ceiling (descriptions under it keep their length) and each is rendered at the largest sample
level that fits its allowance; only a description whose fixed text alone is too long is cut,
at a word boundary.
"""

from __future__ import annotations

from typing import Any

from .descriptions import Draft, cut_at_word


def fit_budget(drafts: list[Draft], per_tool: int, total: int) -> tuple[list[str], list[dict[str, Any]]]:
    """Each draft rendered within its allowance, and one report entry per draft sampled or cut."""
    full = [draft.render() for draft in drafts]
    wanted = [min(len(text), per_tool) for text in full]
    ceiling = _ceiling(wanted, total)
    texts, hits = [], []
    for draft, text in zip(drafts, full):
        allowance = min(len(text), per_tool, ceiling)
        fitted, how = _render_within(draft, allowance)
        texts.append(fitted)
        if how != "full":
            budget = "tool_description_characters" if allowance == per_tool else "discovery_characters"
            hits.append({"tool": draft.tool, "budget": budget, "allowance": allowance,
                         "wanted": len(text), "used": len(fitted), "effect": how})
    return texts, hits


def _ceiling(wanted: list[int], total: int) -> int:
    """The largest per-description ceiling c with sum(min(w, c)) <= total (water filling)."""
    if sum(wanted) <= total:
        return max(wanted, default=0)
    remaining, count = total, len(wanted)
    for index, length in enumerate(sorted(wanted)):
        share = remaining // (count - index)
        if length > share:
            return share
        remaining -= length
    return max(wanted, default=0)


def _render_within(draft: Draft, allowance: int) -> tuple[str, str]:
    text = draft.render()
    if len(text) <= allowance:
        return text, "full"
    for level in range(draft.levels - 1, -1, -1):
        text = draft.render(level)
        if len(text) <= allowance:
            return text, f"sampled: at most {level} names or values per list"
    text = draft.render(samples=False)
    if len(text) <= allowance:
        return text, "sampled: parameter and field lists left out"
    return cut_at_word(text, allowance), "cut at a word boundary"
