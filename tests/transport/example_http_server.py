"""Run ``run_http(ExampleRuntime())`` on 127.0.0.1 and a free port, printing its URLs."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from transport_example_runtime import ExampleRuntime  # noqa: E402

from capenv.serving.transport.http_app import Access, run_http  # noqa: E402

EXAMPLE_TOKEN = "example-grader-token"

if __name__ == "__main__":
    run_http(ExampleRuntime(), "127.0.0.1", 0, access=Access(data_token=EXAMPLE_TOKEN))
    print("stopped", flush=True)
