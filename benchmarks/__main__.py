"""``python -m benchmarks [SECTION ...] [--output FILE | --no-write | --quick]`` (sections: ``benchmarks.document.ORDER``)."""

from __future__ import annotations

import os
import sys

from benchmarks.scale import QUICK_ENV

if "--quick" in sys.argv[1:]:  # before the sections are imported: their sizes are read at import
    os.environ[QUICK_ENV] = "1"

from benchmarks import (  # noqa: E402
    build, data_add, fleet, list_read, mcp_vs_sdk, mock_vs_json_server, rss_churn, runner, serving, soak,
)

RUNNERS = {"build": build.run, "serving": serving.run, "http": mock_vs_json_server.run, "mcp": mcp_vs_sdk.run,
           "soak": soak.run, "fleet": fleet.run, "lists": list_read.run, "rss": rss_churn.run, "add": data_add.run}

if __name__ == "__main__":
    sys.exit(runner.main(None, RUNNERS))
