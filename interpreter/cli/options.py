"""Options several verbs share; nothing heavy is imported here, so registering a verb stays cheap."""

from __future__ import annotations

import argparse


def add_capture_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--origin", help="the application's origin (default: the most frequent JSON-answering one)")
    parser.add_argument("--overrides", help="a YAML file correcting the inferred manifest")
    parser.add_argument("--rules", help="a rules directory (default: the packaged rules/)")
