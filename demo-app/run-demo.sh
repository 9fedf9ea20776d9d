#!/usr/bin/env bash
# Runs the demo service under load with clock-agent off and on, alternating, in fresh JVMs, and prints the
# side-by-side table with the agent's own verdict: first on this host's clock, then on an emulated slow clock (every
# clock read a system call, as on hosts without a vDSO clock), where caching pays. Builds the agent and demo jars first
# when they are missing or older than their sources, and the slow-clock library with the C compiler on PATH.
#
#   demo-app/run-demo.sh [--quick] [--jdk PATH | --jdk 25] [--rounds N] [--requests N] [--warmup N]
#                        [--connections N] [--burst N] [--agent-options TEXT] [--max-seconds N] [--work-dir PATH]
#
# --quick: fewer requests, one round on this host's clock and seven on the slow clock, whose spread the agent's saved
# CPU is judged by, with a warm-up long enough for the agent to know a direct read's price in the service (what CI
# runs).
# --jdk takes a JDK home, or a feature version to look for under /usr/lib/jvm (none found: a notice, and exit 0).
# Without it, the `java` on PATH runs everything. Defaults: 5 rounds of 120,000 warm-up + 60,000 measured requests over
# 8 connections on each clock, a 100,000-task virtual-thread burst on JDK 21+, agent options include=io.clockagent.demo.
# Exits 1 if any run fails a check.
set -euo pipefail

demo_dir=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$demo_dir")
agent_jar="$root/agent/target/clock-agent.jar"
demo_jar="$demo_dir/target/clock-agent-demo.jar"

java_bin=java
# A warm-up long enough for the JVM's compiles to settle before the measured requests (see the slow clock's rounds
# below); a --warmup given after it wins.
compare_args=(--warmup 120000)
# The slow clock's check of the agent's saved CPU against the measured difference needs a spread across rounds, which
# each JVM's own pace makes wide: seven rounds. Run flat out, the measured difference also counts the JVM's own fixed
# work, its compiles mostly, spread over the more requests the agent serves, which the agent charges at its mean rate
# over its pairs of windows; 120,000 warm-up requests let the compiles settle first, after 20,000 the measured rounds
# spread from 24 to 382 ms a second (2026-12-02).
slow_clock_args=()
work_dir="$demo_dir/target/demo-runs"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick)
      compare_args+=(--rounds 1 --warmup 5000 --requests 10000 --burst 10000)
      slow_clock_args=(--rounds 7 --warmup 120000 --requests 40000)
      shift
      ;;
    --jdk)
      [ $# -ge 2 ] || { echo "run-demo: --jdk needs a JDK home or a feature version such as 25" >&2; exit 2; }
      jdk=$2
      shift 2
      if [[ "$jdk" =~ ^[0-9]+$ ]]; then
        found=""
        for candidate in /usr/lib/jvm/*"$jdk"*; do
          if [ -x "$candidate/bin/java" ]; then found=$candidate; break; fi
        done
        if [ -z "$found" ]; then
          echo "notice: no JDK $jdk under /usr/lib/jvm; skipping the JDK $jdk comparison"
          exit 0
        fi
        jdk=$found
      fi
      [ -x "$jdk/bin/java" ] || { echo "run-demo: no bin/java under '$jdk'; --jdk takes a JDK home" >&2; exit 2; }
      java_bin="$jdk/bin/java"
      ;;
    --work-dir)
      [ $# -ge 2 ] || { echo "run-demo: --work-dir needs a directory" >&2; exit 2; }
      work_dir=$2
      shift 2
      ;;
    --help|-h)
      sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      compare_args+=("$1")
      shift
      ;;
  esac
done

stale() {
  local jar=$1
  shift
  [ ! -f "$jar" ] && return 0
  [ -n "$(find "$@" -newer "$jar" -type f -print -quit 2>/dev/null)" ]
}

if stale "$agent_jar" "$root/pom.xml" "$root/agent/pom.xml" "$root/agent/src/main" \
    || stale "$demo_jar" "$root/pom.xml" "$demo_dir/pom.xml" "$demo_dir/src/main"; then
  echo "run-demo: building the agent and demo jars (mvn -B -q -pl demo-app -am package -DskipTests)"
  (cd "$root" && mvn -B -q -pl demo-app -am package -DskipTests)
fi

# Compare forks the demo JVMs with the same JDK it runs on.
compare() {
  "$java_bin" -cp "$demo_jar" io.clockagent.demo.compare.Compare --agent "$agent_jar" "$@"
}

status=0
compare --work-dir "$work_dir" ${compare_args[@]+"${compare_args[@]}"} || status=1

# The emulation's source is the integration tests' own; built here so that the demo needs no test run first.
slow_clock_source="$root/integration-tests/src/test/c/slowclock.c"
slow_clock="$demo_dir/target/slowclock/libslowclock.so"
compiler=$(command -v gcc || command -v cc || true)
echo
if [ "$(uname -s)" != Linux ]; then
  echo "slow-clock comparison skipped: its emulation preloads a library into Linux's C library, and this is $(uname -s)"
  exit $status
fi
if [ -z "$compiler" ]; then
  echo "slow-clock comparison skipped: no C compiler (gcc or cc) on PATH to build the emulation library from" \
    "integration-tests/src/test/c/slowclock.c"
  exit $status
fi
if stale "$slow_clock" "$slow_clock_source"; then
  mkdir -p "$(dirname "$slow_clock")"
  "$compiler" -shared -fPIC -O2 -o "$slow_clock" "$slow_clock_source"
fi
compare --work-dir "$work_dir-slow-clock" --slow-clock "$slow_clock" \
  ${compare_args[@]+"${compare_args[@]}"} ${slow_clock_args[@]+"${slow_clock_args[@]}"} || status=1
exit $status
