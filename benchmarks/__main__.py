"""``python -m benchmarks [build] [serving] [http] [soak] [fleet] [lists] [--output FILE | --no-write | --quick]``."""

from __future__ import annotations

import os
import sys

from benchmarks.scale import QUICK_ENV

if "--quick" in sys.argv[1:]:  # before the sections are imported: their sizes are read at import
    os.environ[QUICK_ENV] = "1"

from benchmarks import build, fleet, list_read, mock_vs_json_server, runner, serving, soak  # noqa: E402

RUNNERS = {"build": build.run, "serving": serving.run, "http": mock_vs_json_server.run, "soak": soak.run, "fleet": fleet.run,
           "lists": list_read.run}

if __name__ == "__main__":
    sys.exit(runner.main(None, RUNNERS))
