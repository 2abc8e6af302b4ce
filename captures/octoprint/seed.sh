#!/usr/bin/env bash
# Seed a fresh OctoPrint through its API (run by start.sh, not recorded): users alice and bob,
# a group "operators", a printer profile "workshop_mk3", folders models/ and archive/ on local
# storage with two small G-code files, and the appearance name.
# Usage: seed.sh BASE_URL API_KEY
set -euo pipefail
URL="$1"; KEY="$2"
api() {  # METHOD PATH JSON
  curl -sf -o /dev/null -X "$1" -H "X-Api-Key: $KEY" -H "Content-Type: application/json" \
    --data "$3" "$URL$2"
}
form() {  # PATH curl -F arguments...
  local path="$1"; shift
  curl -sf -o /dev/null -H "X-Api-Key: $KEY" "$@" "$URL$path"
}
api POST /api/access/groups '{"key": "operators", "name": "Operators", "description": "Run the printers", "permissions": ["CONNECTION", "CONTROL", "FILES_LIST", "FILES_UPLOAD", "STATUS"], "subgroups": [], "default": false}'
api POST /api/access/users '{"name": "alice", "password": "alice-throwaway-1", "active": true, "groups": ["users", "operators"], "permissions": []}'
api POST /api/access/users '{"name": "bob", "password": "bob-throwaway-1", "active": false, "groups": ["users"], "permissions": []}'
api POST /api/printerprofiles '{"profile": {"id": "workshop_mk3", "name": "Workshop MK3", "model": "Prusa i3 MK3", "color": "blue", "volume": {"width": 250, "depth": 210, "height": 210}, "heatedBed": true}}'
form /api/files/local -F foldername=models -F path=
form /api/files/local -F foldername=archive -F path=
G1="G28 ; home\nG1 Z5 F5000\nG1 X10 Y10 F3000\nM84\n"
G2="G28 ; home\nM104 S200\nG1 X50 Y50 Z0.3 F1500\nM104 S0\nM84\n"
form /api/files/local -F "file=@-;filename=cube.gcode" -F path=models < <(printf "$G1")
form /api/files/local -F "file=@-;filename=bracket.gcode" -F path=models < <(printf "$G2")
form /api/files/local -F "file=@-;filename=old_part.gcode" -F path=archive < <(printf "$G1")
api POST /api/settings '{"appearance": {"name": "Workshop Printer"}}'
# The G-code analysis runs in the background after each upload: wait until every file shows its
# gcodeAnalysis, so the recording starts from a settled seed.
for i in $(seq 1 150); do
  n=$(curl -sf -H "X-Api-Key: $KEY" "$URL/api/files?recursive=true" | grep -c '"gcodeAnalysis"' || true)
  [ "$n" -ge 3 ] && exit 0
  sleep 0.2
done
echo "the seed's G-code analysis did not finish" >&2; exit 1
