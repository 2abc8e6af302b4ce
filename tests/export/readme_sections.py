"""Reading an exported README back: its counts and the tool names each section lists."""

from __future__ import annotations

import re
from dataclasses import dataclass

COUNTS = re.compile(r"^(\d+) tools: (\d+) read tools \((\d+) answer from the served state, the others replay the "
                    r"capture\) and (\d+) write tools that change the served state\.$", re.M)
SECTION = re.compile(r"^### (.+?) \((\d+)\)$", re.M)
BULLET = re.compile(r"^- `([^`]+)`", re.M)


@dataclass(frozen=True)
class ReadmeTools:
    total: int
    reads: int
    reads_from_state: int
    writes: int
    sections: dict[str, tuple[int, list[str]]]
    """Section title -> (the count in its heading, the tool names its bullets list)."""


def readme_tools(text: str) -> ReadmeTools:
    counts = COUNTS.search(text)
    assert counts, text[:2000]
    sections = {}
    headings = list(SECTION.finditer(text))
    for index, heading in enumerate(headings):
        end = headings[index + 1].start() if index + 1 < len(headings) else text.index("\n## ", heading.end())
        sections[heading.group(1)] = (int(heading.group(2)), BULLET.findall(text[heading.end():end]))
    total, reads, from_state, writes = (int(g) for g in counts.groups())
    return ReadmeTools(total, reads, from_state, writes, sections)
