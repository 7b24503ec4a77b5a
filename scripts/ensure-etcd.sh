#!/usr/bin/env bash
# Makes sure `etcd` and `etcdctl` are on the PATH: the registry and cluster tests start real etcd processes,
# and the test of README's cluster snippet runs etcdctl. If either is missing, installs Debian's etcd-server
# and etcd-client (apt-get, with sudo unless root), then checks `etcd --version`. A no-op when both are there.
set -euo pipefail

if ! command -v etcd >/dev/null 2>&1 || ! command -v etcdctl >/dev/null 2>&1; then
  bash "$(dirname "$0")/apt-install.sh" etcd-server etcd-client
fi

if ! version="$(etcd --version 2>&1)"; then
  echo "ensure-etcd: \`etcd --version\` failed:" >&2
  echo "$version" >&2
  exit 1
fi
echo "ensure-etcd: $(printf '%s\n' "$version" | head -n 1) at $(command -v etcd)"
