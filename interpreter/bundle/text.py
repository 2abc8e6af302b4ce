"""Text the ops derive from a body member: slugs and markup-free text."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# The characters a slug keeps; the build side's slug rule (rules/create-fields.yaml, ``kept``)
# judges with the same class, so a field it calls a slug is one serving writes alike.
SLUG_KEPT = "a-z0-9"
_OTHER_RUNS = re.compile(f"[^{SLUG_KEPT}]+")


def slugify(text: str) -> str:
    """Lower case, runs of other characters joined by ``-``, none at either end
    (``Hello, World!`` -> ``hello-world``)."""
    return _OTHER_RUNS.sub("-", text.lower()).strip("-")


# Elements whose end starts a new block of text, and elements whose content is no text at all.
_BLOCKS = frozenset({
    "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "figcaption", "figure",
    "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p",
    "pre", "section", "table", "tr", "ul",
})
_HIDDEN = frozenset({"script", "style", "template", "head", "title"})


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.current: list[str] = []
        self.hidden_depth = 0

    def _end_block(self) -> None:
        text = "".join(self.current).strip()
        if text:
            self.blocks.append(text)
        self.current = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self.hidden_depth += 1
        elif tag == "br":
            self.current.append("\n")
        elif tag in _BLOCKS:
            self._end_block()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            self.current.append("\n")
        elif tag in _BLOCKS:
            self._end_block()

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden_depth = max(0, self.hidden_depth - 1)
        elif tag in _BLOCKS:
            self._end_block()

    def handle_data(self, data: str) -> None:
        if not self.hidden_depth:
            self.current.append(data)


def strip_markup(html: str) -> str:
    """The text an HTML fragment shows: tags and comments dropped, entities decoded, blocks
    (paragraphs, headings, list items…) separated by a blank line, ``<br>`` kept as a newline."""
    collector = _TextCollector()
    collector.feed(html)
    collector.close()
    collector._end_block()
    return "\n\n".join(collector.blocks)


def loose_spelling(text: str) -> str:
    """What two spellings of one key share: letter case folded, one final dot dropped (a DNS name
    is the same with or without its final dot, in any letter case), dashes dropped (a UUID or a
    Syncthing device id is read with or without the dashes between its groups)."""
    folded = text.casefold()
    folded = folded[:-1] if folded.endswith(".") else folded
    return folded.replace("-", "")
