"""``capenv report BUNDLE --html FILE`` (issue #13): one self-contained page (no script, no asset
or link leaving it) naming every tool with served or why not, each write's evidence records
linked to the recorded calls and its trace, the initial state's types and counts, and the rules
that decided. With a Chromium on the machine it is rendered headless and screenshotted."""

from __future__ import annotations

import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from capenv.interpreter.bundle.io import read_bundle
from support.served import capenv


class Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.sources: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        attributes = dict(attrs)
        self.tags.append(tag)
        if "id" in attributes:
            self.ids.add(attributes["id"])
        if tag == "a":
            self.links.append(attributes.get("href", ""))
        for name in ("src", "srcset", "data"):
            if name in attributes:
                self.sources.append(attributes[name])
        if tag == "link":
            self.sources.append(attributes.get("href", ""))

    def handle_data(self, data) -> None:
        self.text.append(data)


@pytest.fixture(scope="module")
def page_file(bundle_dir, tmp_path_factory) -> Path:
    output = tmp_path_factory.mktemp("html") / "report.html"
    done = capenv("report", str(bundle_dir("json-server")), "--html", str(output))
    assert done.returncode == 0, done.stderr
    return output


def test_the_page_is_self_contained_and_its_links_land(page_file: Path) -> None:
    page = Page()
    page.feed(page_file.read_text(encoding="utf-8"))
    assert "script" not in page.tags and "iframe" not in page.tags and page.sources == []
    assert page.links and all(link.startswith("#") for link in page.links)
    assert {link[1:] for link in page.links} <= page.ids  # every internal link has its target
    assert "@import" not in page_file.read_text() and "url(" not in page_file.read_text()


def test_the_page_says_what_is_served_and_why_not(page_file: Path, bundle_dir) -> None:
    bundle = read_bundle(bundle_dir("json-server"))
    page = Page()
    page.feed(page_file.read_text(encoding="utf-8"))
    text = " ".join(page.text)
    for tool in bundle.manifest.tools:
        assert tool.name in text
    for plan in bundle.view.writes:
        assert f"write-{plan.tool}" in page.ids and f"trace-{plan.tool}" in page.ids
        if not plan.served:
            assert f"not served: {plan.reason}" in text
        for ordinal in plan.checked_record_ordinals:
            assert f"#record-{ordinal}" in page.links
    for entity_type in bundle.view.types:
        assert entity_type.name in text
    decided = {e.rule_id for p in bundle.view.writes for e in p.traces if e.outcome == "match" and e.rule_id}
    assert decided and all(rule in text for rule in decided)  # the rules that decided, by id


def test_html_takes_one_target(bundle_dir, tmp_path: Path) -> None:
    bundle = str(bundle_dir("json-server"))
    done = capenv("report", bundle, bundle, "--html", str(tmp_path / "r.html"))
    assert done.returncode == 2 and "one" in done.stderr.decode() and not (tmp_path / "r.html").exists()


def _chromium() -> str | None:
    return next((found for name in ("chromium", "chromium-browser", "google-chrome")
                 if (found := shutil.which(name))), None)


@pytest.mark.skipif(_chromium() is None, reason="no Chromium on this machine (Debian: apt-get install chromium)")
def test_chromium_renders_the_page(page_file: Path, tmp_path: Path) -> None:
    screenshot = tmp_path / "report.png"
    common = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
              "--user-data-dir=" + str(tmp_path / "profile")]
    subprocess.run(common + [f"--screenshot={screenshot}", "--window-size=1280,2000", page_file.as_uri()],
                   check=True, capture_output=True, timeout=120)
    assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and screenshot.stat().st_size > 10_000
    dom = subprocess.run(common + ["--dump-dom", page_file.as_uri()], check=True, capture_output=True, text=True,
                         timeout=120).stdout
    assert "Rules that decided" in dom and "Initial state" in dom and "post_posts" in dom
