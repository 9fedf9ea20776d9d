#!/bin/sh
# Prints the path of the zig that builds the project's native code (zig cc: the agent's libraries against glibc 2.17,
# the image's static installer against musl), or nothing where none can be had: the zig named by CLOCK_AGENT_ZIG, or a
# pinned ziglang from the Python package index, fetched once into a cache (CLOCK_AGENT_TOOLCHAIN_CACHE, default
# ~/.cache/clock-agent) and reused. With --version, prints the pinned version instead.
#
#   agent/src/build/zig.sh [--version]
set -eu
zig_version=0.15.2
if [ "${1:-}" = --version ]; then
  echo "$zig_version"
  exit 0
fi
toolchain_cache=${CLOCK_AGENT_TOOLCHAIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/clock-agent}
if [ -n "${CLOCK_AGENT_ZIG:-}" ]; then
  echo "$CLOCK_AGENT_ZIG"
  exit 0
fi
zig_home=$toolchain_cache/ziglang-$zig_version
if [ ! -x "$zig_home/ziglang/zig" ] && command -v python3 >/dev/null 2>&1 \
    && python3 -m pip --version >/dev/null 2>&1 && mkdir -p "$toolchain_cache" 2>/dev/null; then
  echo "notice: fetching ziglang $zig_version from the Python package index into $zig_home (once)" >&2
  # Into a folder of this build's own, then renamed, so that builds side by side never see half a toolchain.
  partial=$(mktemp -d "$toolchain_cache/ziglang-$zig_version.partial.XXXXXX")
  # Few retries and a short timeout: offline, the build goes on without zig soon.
  if PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check --no-cache-dir \
      --retries 1 --timeout 30 --target "$partial" "ziglang==$zig_version" >&2; then
    mv "$partial" "$zig_home" 2>/dev/null || rm -rf "$partial"
  else
    rm -rf "$partial"
  fi
fi
if [ -x "$zig_home/ziglang/zig" ]; then
  echo "$zig_home/ziglang/zig"
fi
