#!/usr/bin/env bash
# Makes sure `etcd` and `etcdctl` are on the PATH: the registry and cluster tests start real etcd processes,
# and the test of README's cluster snippet runs etcdctl. If either is missing, installs Debian's etcd-server
# and etcd-client (apt-get, with sudo unless root), then checks `etcd --version`. A no-op when both are there.
set -euo pipefail

if ! command -v etcd >/dev/null 2>&1 || ! command -v etcdctl >/dev/null 2>&1; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-etcd: no etcd (or etcdctl) on the PATH and no apt-get to install it; install etcd 3.4 or later yourself" >&2
    exit 1
  fi
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "ensure-etcd: no etcd on the PATH; installing it needs root or sudo" >&2
      exit 1
    fi
    sudo=(sudo)
  fi
  echo "ensure-etcd: installing Debian's etcd-server and etcd-client" >&2
  ${sudo[@]+"${sudo[@]}"} apt-get update
  ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y etcd-server etcd-client
fi

if ! version="$(etcd --version 2>&1)"; then
  echo "ensure-etcd: \`etcd --version\` failed:" >&2
  echo "$version" >&2
  exit 1
fi
echo "ensure-etcd: $(printf '%s\n' "$version" | head -n 1) at $(command -v etcd)"
