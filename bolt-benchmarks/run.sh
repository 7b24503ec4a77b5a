#!/usr/bin/env bash
# Builds bolt-benchmarks (and what it depends on) and runs the benchmark with the given arguments.
#   bolt-benchmarks/run.sh                 # everything; rewrites docs/benchmarks.md
#   bolt-benchmarks/run.sh --quick         # a rough look (labelled as such)
#   bolt-benchmarks/run.sh scaling         # the scaling curves only: docs/scaling.md and docs/img/scaling-*.png
#   bolt-benchmarks/run.sh load --systems boltgen --workloads async-256 --payloads 100 --runs 1 --keep-server
#   bolt-benchmarks/run.sh mesh            # the mesh-agent contest: docs/benchmarks-mesh.md, docs/img/mesh-qps.png
#   bolt-benchmarks/run.sh help
# Set BENCH_SKIP_BUILD=1 to use the jar already built; MVN_ARGS passes extra arguments to the build.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${BENCH_SKIP_BUILD:-}" != "1" ]]; then
  echo "building bolt-benchmarks ..." >&2
  mvn -B -q package -DskipTests -pl bolt-benchmarks -am ${MVN_ARGS:-}
fi
exec java -jar bolt-benchmarks/target/bolt-benchmarks.jar "$@"
