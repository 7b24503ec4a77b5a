#!/usr/bin/env bash
# Runs README's two commands as a newcomer on a fresh machine would: in a clean clone of this repository's
# HEAD, each with a local Maven repository of its own that starts empty. Every Maven build honours it: the
# outer build and every build or JVM it starts (the IT builds of bolt-it, the SOFARPC peer's class path, the
# Netty-version and Micrometer class paths, the example's and the benchmarks' child processes) get their jars
# from it or through it, never from ~/.m2. Proof of that: nothing in ~/.m2/repository may change during the
# run; the script fails naming any file that did (so run nothing else that uses ~/.m2 meanwhile).
#
# Order: README's test command first (`bash scripts/test.sh`, alone, as the developers' guide requires it to
# pass on a fresh machine), then README's build-and-run command in a second empty repository, so that
# neither leans on what the other downloaded. At the end it prints each command's wall time, the tests run
# (every surefire report of the outer build and of the IT builds) and how much each repository downloaded.
#
# Needs: git, a JDK 17+, Maven, and access to Maven Central (or the mirror of ~/.m2/settings.xml). Tools the
# tests run (etcd, curl, chromium, chromedriver, wrk) are installed by scripts/test.sh as usual, if missing.
# Usage: bash scripts/fresh-check.sh [--keep] [work directory]
#   --keep          keep the work directory (clone, repositories, logs) after a passing run; a failing run
#                   always keeps it
#   work directory  where to clone and keep the repositories (default: a new directory under ${TMPDIR:-/tmp});
#                   it must not exist yet
# Takes about 40 minutes on 2 cores and downloads about 1 GB: run it before a stop that changes a pom, a
# build script or a nested build (docs/build.md, "A fresh machine").
set -euo pipefail

keep=false
if [ "${1:-}" = "--keep" ]; then
  keep=true
  shift
fi
source_repo="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -gt 0 ]; then
  work="$1"
  if [ -e "$work" ]; then
    echo "fresh-check: $work exists; give a directory that does not" >&2
    exit 2
  fi
  mkdir -p "$work"
else
  work="$(mktemp -d "${TMPDIR:-/tmp}/boltgen-fresh.XXXXXX")"
fi
work="$(cd "$work" && pwd)"

if [ -n "$(git -C "$source_repo" status --porcelain)" ]; then
  echo "fresh-check: uncommitted changes in $source_repo are not checked: the clone is of HEAD," \
    "$(git -C "$source_repo" rev-parse --short HEAD)" >&2
fi
git clone --quiet --no-local "$source_repo" "$work/clone"
echo "fresh-check: clone of $(git -C "$work/clone" rev-parse --short HEAD) in $work/clone"

user_repo="$HOME/.m2/repository"
marker="$work/started"
touch "$marker"

# Runs one README command (a bash string, as README has it) in the clone, with Maven's local repository set
# to $1 through MAVEN_OPTS, which the mvn launcher reads and every mvn the build starts inherits. Logs to $2.
run_readme_command() {
  local repository="$1" log="$2" command="$3" started ended
  mkdir -p "$repository"
  echo "fresh-check: running \`$command\` with an empty local repository $repository (log: $log)"
  started=$(date +%s)
  if ! (cd "$work/clone" && MAVEN_OPTS="${MAVEN_OPTS:-} -Dmaven.repo.local=$repository" bash -c "$command") \
      >"$log" 2>&1; then
    echo "fresh-check: \`$command\` failed after $(($(date +%s) - started)) s; the end of its log:" >&2
    tail -n 60 "$log" >&2
    echo "fresh-check: kept $work" >&2
    exit 1
  fi
  ended=$(date +%s)
  echo "fresh-check: \`$command\` passed in $((ended - started)) s; its repository holds" \
    "$(du -sh "$repository" | cut -f1) in $(find "$repository" -type f | wc -l) files"
}

# The test count of every surefire report under the clone: the outer build's and the IT builds'.
count_tests() {
  find "$work/clone" -path '*/surefire-reports/TEST-*.xml' -print0 \
    | xargs -0 -r grep -ho '<testsuite [^>]*>' \
    | awk '{
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^tests=/) { gsub(/[^0-9]/, "", $i); tests += $i }
          if ($i ~ /^skipped=/) { gsub(/[^0-9]/, "", $i); skipped += $i }
          if ($i ~ /^failures=/) { gsub(/[^0-9]/, "", $i); failed += $i }
          if ($i ~ /^errors=/) { gsub(/[^0-9]/, "", $i); failed += $i }
        }
        suites++
      }
      END { printf "%d tests in %d classes, %d failed, %d skipped\n", tests, suites, failed, skipped }'
}

test_started=$(date +%s)
run_readme_command "$work/repository-test" "$work/test.log" "bash scripts/test.sh"
test_seconds=$(($(date +%s) - test_started))
tests="$(count_tests)"

build_started=$(date +%s)
run_readme_command "$work/repository-build" "$work/build.log" \
  "mvn -B -q install -DskipTests && java -jar example-service/target/example-service.jar"
build_seconds=$(($(date +%s) - build_started))
if ! grep -q "all calls behaved as expected" "$work/build.log"; then
  echo "fresh-check: the example did not print \"all calls behaved as expected\"; kept $work" >&2
  exit 1
fi

if [ -d "$user_repo" ]; then
  touched="$(find "$user_repo" -newer "$marker" -type f | head -n 20)"
  if [ -n "$touched" ]; then
    echo "fresh-check: a build wrote to $user_repo instead of its own local repository:" >&2
    echo "$touched" >&2
    echo "fresh-check: kept $work" >&2
    exit 1
  fi
fi

echo "fresh-check: passed. test command: ${test_seconds} s, $tests;" \
  "downloaded $(du -sh "$work/repository-test" | cut -f1)." \
  "build-and-run command: ${build_seconds} s, downloaded $(du -sh "$work/repository-build" | cut -f1)." \
  "Nothing written to $user_repo."
if [ "$keep" = true ]; then
  echo "fresh-check: kept $work"
else
  rm -rf "$work"
fi
