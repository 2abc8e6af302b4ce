#!/usr/bin/env bash
# CI job: capenv on the lowest versions pyproject.toml declares (every `>=` floor pinned with `==`),
# then the smoke tests. A floor that no longer works (or that the other floors cannot reach together)
# fails here, not on a user's machine.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${1:-$(mktemp -d)/venv}"
constraints="$(mktemp)"
python3 - "$constraints" <<'PY'
import re, sys, tomllib
project = tomllib.load(open("pyproject.toml", "rb"))["project"]
pins = []
for requirement in project["dependencies"]:
    name, floor = re.match(r"^\s*([A-Za-z0-9_.\[\]-]+)\s*>=\s*([^,;\s]+)", requirement).groups()
    bare = name.split("[", 1)[0]
    pins.append(f"{bare}=={floor}")
open(sys.argv[1], "w").write("\n".join(pins) + "\n")
print("floors:", " ".join(pins))
PY
python3 -m venv "$venv"
"$venv/bin/pip" install -q --constraint "$constraints" -e . pytest pytest-xdist hypothesis
"$venv/bin/python" -m pytest -q -p no:cacheprovider tests/cli/test_cli_main.py tests/transport/test_transport_mcp.py \
    tests/transport/test_transport_http.py tests/bundle_build/test_pointers_rfc6901.py "${@:2}"
