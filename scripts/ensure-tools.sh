#!/usr/bin/env bash
# Makes sure the programs the tests run are on the PATH: `curl` (README's HTTP snippet and the HTTP tests call
# the server with it, over HTTP/1.1, HTTP/2 and TLS), `chromium` with `chromedriver` (the console's test
# drives a headless browser) and `wrk` (bolt-benchmarks' http command loads HTTP servers with it; its smoke test
# runs it). If one is missing, installs its Debian package (apt-get, with sudo unless root).
# A no-op when all are there. etcd has scripts/ensure-etcd.sh.
set -euo pipefail

# command:package
tools=(curl:curl chromium:chromium chromedriver:chromium-driver wrk:wrk)
missing=()
for tool in "${tools[@]}"; do
  if ! command -v "${tool%%:*}" >/dev/null 2>&1; then
    missing+=("${tool#*:}")
  fi
done

bash "$(dirname "$0")/apt-install.sh" ${missing[@]+"${missing[@]}"}

if ! curl --version 2>&1 | grep -q nghttp2; then
  echo "ensure-tools: this curl has no HTTP/2 (no nghttp2); the HTTP/2 tests need Debian's curl 7.88 or later" >&2
  exit 1
fi
echo "ensure-tools: $(curl --version | head -n 1 | cut -d' ' -f1-2) at $(command -v curl);" \
  "$(chromium --version 2>/dev/null | head -n 1) at $(command -v chromium); chromedriver at $(command -v chromedriver);" \
  "wrk at $(command -v wrk)"
