#!/usr/bin/env bash
# Makes sure there is a JDK 25 where the build looks for one: the suites of several modules run on the build's
# JDK 17 and again on JDK 25 (docs/build.md, "Two JDKs"), on ${jdk25.home}/bin/java, by default
# /usr/lib/jvm/temurin-25-jdk-amd64. Arguments are Maven's: a -Djdk25.home=<dir> among them points elsewhere.
# Checks only, with the message the build itself gives: no registry this build uses ships a JDK.
set -euo pipefail

home=/usr/lib/jvm/temurin-25-jdk-amd64
for arg in "$@"; do
  case "$arg" in
    -Djdk25.home=*) home="${arg#-Djdk25.home=}" ;;
  esac
done

if [[ ! -x "$home/bin/java" || ! -x "$home/bin/javac" ]]; then
  echo "ensure-jdk25: No JDK 25 at $home (jdk25.home). The tests of bolt-runtime, bolt-hessian, bolt-json," \
    "bolt-sofarpc, bolt-sofarpc-it, bolt-processor, example-service and bolt-spring-boot-starter run on JDK 17" \
    "and again on JDK 25, and bolt-it builds its projects on both (docs/build.md, \"Two JDKs\"). Point the build" \
    "at a JDK 25 with -Djdk25.home=<its home directory> (bash scripts/test.sh -Djdk25.home=<dir>), or install" \
    "one (Eclipse Temurin 25, say) at /usr/lib/jvm/temurin-25-jdk-amd64." >&2
  exit 1
fi
version="$("$home/bin/java" -version 2>&1 | head -n 1)"
if [[ "$version" != *' "25'* ]]; then
  echo "ensure-jdk25: $home (jdk25.home) is not a JDK 25: \`java -version\` says $version" >&2
  exit 1
fi
echo "ensure-jdk25: $version at $home"
