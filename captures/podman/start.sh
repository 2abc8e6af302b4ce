#!/usr/bin/env bash
# Start Podman 4.3.1's REST API service (`podman system service`, rootful) FRESH in HOME_DIR, seeded.
# Usage: ./start.sh PORT [HOME_DIR]
#   PORT      the port the service listens on (tcp:127.0.0.1:PORT); refused when taken
#   HOME_DIR  where its storage and its network configurations are made (default: mktemp -d); an
#             old one is replaced
# Env:  PODMAN  the podman binary (default: podman on PATH, Debian bookworm's 4.3.1; .ci/live-apps.sh)
# Prints "podman READY on <port>" once seeded; on SIGINT/SIGTERM stops the service.
# Podman keeps its state at fixed places (/var/lib/containers/storage, /run/containers/storage,
# /run/libpod, /etc/cni/net.d, its locks in /dev/shm). The service runs in a mount namespace of its
# own (`unshare --mount`, root) where HOME_DIR/storage is bind-mounted on /var/lib/containers,
# HOME_DIR/cni (the Debian package's default network `podman`, with a fixed clock) on /etc/cni/net.d,
# and fresh tmpfs on /run and /dev/shm: every start is new and isolated from the machine and from
# other starts, and the paths podman answers (a volume's Mountpoint) are the standard ones, the
# same on every start. Storage driver vfs, cgroupfs, events to a file. No registry is reached: the
# image is a docker-archive that make_image.py writes byte for byte the same (a fixed id), loaded
# with `podman load`. The seed (CLI, before the service starts): volumes pgdata (labels) and cache,
# the network backend (labels, subnet 10.89.10.0/24), the secret db-password, whose random id and
# clock are then replaced by fixed ones in the secrets' JSON files (5eed0000000000000000000a1,
# 2026-01-01T00:00:00Z). No container: podman takes no container id from its client, and a seeded
# one would read otherwise on every start. Network ids are the sha256 of their names, the image id
# is fixed; volume and network clocks are those of the start.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../kit/start-steps.sh"
PORT="${1:?usage: start.sh PORT [HOME_DIR]}"
HOME_DIR="${2:-$(mktemp -d)}"
PODMAN="${PODMAN:-$(command -v podman || true)}"
[ -x "$PODMAN" ] || { echo "podman not found: bash .ci/live-apps.sh install (Debian bookworm's podman 4.3.1)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "start.sh runs podman rootful: run it as root" >&2; exit 1; }

refuse_taken_port "$PORT"
mkdir -p "$HOME_DIR"
HOME_DIR="$(cd "$HOME_DIR" && pwd)"
rm -rf "$HOME_DIR/storage" "$HOME_DIR/cni"
mkdir -p "$HOME_DIR/storage" "$HOME_DIR/cni" /var/lib/containers /etc/cni/net.d
cp "$HERE/default-network.conflist" "$HOME_DIR/cni/87-podman-bridge.conflist"
touch -d 2026-01-01T00:00:00Z "$HOME_DIR/cni/87-podman-bridge.conflist"
python3 "$HERE/make_image.py" "$HOME_DIR/image.tar" >/dev/null

stop_app_on_signal
HOME_DIR="$HOME_DIR" PORT="$PORT" PODMAN="$PODMAN" SECRET_ID=5eed0000000000000000000a1 unshare --mount --propagation private -- /bin/bash -c '
set -euo pipefail
mount -t tmpfs -o mode=755 tmpfs /run
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
mount --bind "$HOME_DIR/storage" /var/lib/containers
mount --bind "$HOME_DIR/cni" /etc/cni/net.d
p() { "$PODMAN" --storage-driver vfs --cgroup-manager cgroupfs --events-backend file --log-level error "$@"; }
{
  p load -q -i "$HOME_DIR/image.tar"
  p volume create --label app=db --label tier=backend pgdata
  p volume create cache
  p network create --label app=db --subnet 10.89.10.0/24 --gateway 10.89.10.1 backend
  printf "capenv-throwaway-db-password" | p secret create db-password -
} >"$HOME_DIR/seed.log" 2>&1 || { cat "$HOME_DIR/seed.log" >&2; exit 1; }
# the seeded secret: its random id and clock become fixed ones in the two JSON files of the file driver
secrets=/var/lib/containers/storage/secrets
id="$(sed -n "s/^ *\"db-password\": \"\([0-9a-f]*\)\".*/\1/p" "$secrets/secrets.json")"
[ -n "$id" ] || { echo "the seeded secret was not found in $secrets/secrets.json" >&2; exit 1; }
sed -i "s/$id/$SECRET_ID/g; s/\"createdAt\": \"[^\"]*\"/\"createdAt\": \"2026-01-01T00:00:00Z\"/" "$secrets/secrets.json"
sed -i "s/$id/$SECRET_ID/g" "$secrets/filedriver/secretsdata.json"
exec "$PODMAN" --storage-driver vfs --cgroup-manager cgroupfs --events-backend file --log-level error \
  system service --time=0 "tcp:127.0.0.1:$PORT"
' &
APP_PID=$!
wait_until_up 600 0.2 "podman did not come up on $PORT" "http://127.0.0.1:$PORT/v4.3.1/libpod/_ping"
echo "podman READY on $PORT"
wait "$APP_PID"
