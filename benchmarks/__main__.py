"""``python -m benchmarks [build] [serving] [http] [soak] [fleet] [lists] [--output FILE | --no-write]``."""

from __future__ import annotations

import sys

from benchmarks import build, fleet, list_read, mock_vs_json_server, runner, serving, soak

RUNNERS = {"build": build.run, "serving": serving.run, "http": mock_vs_json_server.run, "soak": soak.run, "fleet": fleet.run,
           "lists": list_read.run}

if __name__ == "__main__":
    sys.exit(runner.main(None, RUNNERS))
