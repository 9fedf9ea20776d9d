#!/bin/sh
# Builds the agent image (image/target/clock-agent-image-VERSION.tar, an OCI archive for linux/amd64 and linux/arm64;
# AgentImage.java): first the installer for each platform, static, so that it needs nothing of the image, with zig cc
# against musl (agent/src/build/zig.sh), else with musl-gcc and Debian's aarch64 cross compiler, then the archive
# from the agent jar and its libraries. Where the jar carries no library for a platform, or no compiler builds the
# installer, says so in one notice and builds no image; where CLOCK_AGENT_EXPECTED_NATIVE_PLATFORMS is set (CI), fails.
#
#   image/src/build/build-image.sh JAVA_HOME CLASSES AGENT_JAR VERSION CREATED TARGET_FOLDER
set -eu
java_home=$1
classes=$2
agent_jar=$3
version=$4
created=$5
target=$6
here=$(cd "$(dirname "$0")" && pwd)
sources=$here/../main/c
installers=$target/installers
mkdir -p "$installers"
output=$target/clock-agent-image-$version.tar
rm -f "$output"

no_image() {
  if [ -n "${CLOCK_AGENT_EXPECTED_NATIVE_PLATFORMS:-}" ]; then
    echo "no agent image: $1" >&2
    exit 1
  fi
  echo "notice: no agent image: $1"
  exit 0
}

zig=$("$here/../../../agent/src/build/zig.sh")
for platform in amd64:x86_64:musl-gcc arm64:aarch64:aarch64-linux-gnu-gcc; do
  arch=${platform%%:*}
  rest=${platform#*:}
  triplet=${rest%%:*}
  fallback=${rest#*:}
  if [ -n "$zig" ]; then
    compiler="$zig cc -target $triplet-linux-musl"
  elif command -v "$fallback" >/dev/null 2>&1; then
    compiler=$fallback
  else
    no_image "no compiler for the $arch installer (zig from the Python package index, or $fallback)"
  fi
  # -s and no build id: the same source makes the same bytes, as the image's digest must not change between builds.
  # shellcheck disable=SC2086 # $compiler is a command and its target flags
  $compiler -std=c11 -Os -static -s -Wl,--build-id=none -Wall -Wextra -Werror -o "$installers/install-$arch" \
    "$sources/install.c"
done
for library in linux-amd64 linux-aarch64; do
  if ! "$java_home/bin/jar" tf "$agent_jar" | grep -qx "io/clockagent/agent/native/$library/libclockagent.so"; then
    no_image "$agent_jar carries no library for $library"
  fi
done
"$java_home/bin/java" -cp "$classes" io.clockagent.image.AgentImage "$agent_jar" "$installers" "$version" \
  "$created" "$output"
