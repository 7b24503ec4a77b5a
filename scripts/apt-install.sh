#!/usr/bin/env bash
# Installs the given Debian packages with apt-get (through sudo unless root), or fails saying why it cannot.
# Used by ensure-etcd.sh and ensure-tools.sh when a program the tests run is missing.
set -euo pipefail

if [ $# -eq 0 ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "apt-install: $* missing and no apt-get to install it; install it yourself" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "apt-install: installing $* needs root or sudo" >&2
    exit 1
  fi
  sudo=(sudo)
fi
echo "apt-install: installing Debian's $*" >&2
${sudo[@]+"${sudo[@]}"} apt-get update
${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"
