#!/bin/sh
# Builds the native class filter into the agent's classes, where the shaded jar picks it up.
# Usage: build.sh JAVA_HOME OUTPUT_DIRECTORY. Warnings fail the build: this code runs inside every class load.
set -eu
java_home=$1
output=$2/io/clockagent/agent/native/linux-x86_64
sources=$(dirname "$0")
if ! command -v gcc >/dev/null 2>&1; then
  echo "error: gcc is needed to build the native class filter (Debian: apt-get install gcc)" >&2
  exit 1
fi
mkdir -p "$output"
gcc -std=c11 -O2 -shared -fPIC -fvisibility=hidden -Wall -Wextra -Werror \
  -I"$java_home/include" -I"$java_home/include/linux" \
  -o "$output/libclassfilter.so" "$sources/class_filter.c" "$sources/call_site_rewriter.c"
