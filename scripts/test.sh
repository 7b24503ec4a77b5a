#!/usr/bin/env bash
# Runs every test of every module: `mvn -B verify`, after making sure an `etcd` binary is on the PATH (the
# cluster tests start their own etcd processes, and etcd is the one thing Maven cannot fetch) and the tools
# the HTTP tests run (curl, and chromium with chromedriver for the console), and that the JDK 25 that several
# suites also run on is there (-Djdk25.home=<dir> points at another). Arguments are passed to Maven.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-jdk25.sh "$@"
bash scripts/ensure-etcd.sh
bash scripts/ensure-tools.sh
mvn -B verify "$@"
