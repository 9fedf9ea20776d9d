#!/usr/bin/env bash
# Runs clock-agent's benchmarks on JDK 17 and, where installed, JDK 25, and prints their tables.
#
#   benchmarks/run.sh [all|clock-read|startup] [--no-build]
#
#   clock-read  JMH: one System.currentTimeMillis() call without and with the agent, 1 and 2 threads (~2.5 min/JDK)
#   startup     java -version (20 runs per variant) and the class-heavy program (10 runs per variant) (~2 min/JDK)
#   fidelity    staleness of the cached clock and its ticker's CPU, beside the usual updaters (~5 min/JDK; not in all)
#   peers       JMH: one read of clock-agent, the direct call, SystemClock, Log4j2, Agrona (~3.5 min/JDK; not in all)
#   --no-build  use the jars already in agent/target and benchmarks/target
#
# Environment: JDK17_HOME and JDK25_HOME pick the JDKs (defaults: the `java` on PATH, and the first
# /usr/lib/jvm/*25* directory); CLOCKAGENT_JAR points at another clock-agent.jar (default: agent/target/).
# The tables are also written to benchmarks/target/results-<jdk>.md.
set -euo pipefail

which_benchmarks=all
build=true
for argument in "$@"; do
  case "$argument" in
    all|clock-read|startup|fidelity|peers) which_benchmarks="$argument" ;;
    --no-build) build=false ;;
    *) echo "unknown argument '$argument'; usage: $0 [all|clock-read|startup|fidelity|peers] [--no-build]" >&2; exit 2 ;;
  esac
done

module_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root_dir="$(dirname "$module_dir")"
jar="$module_dir/target/benchmarks.jar"

if $build; then
  echo "building agent and benchmarks ..."
  (cd "$root_dir" && mvn -B -q -pl agent,benchmarks package -DskipTests)
fi

agent_property=()
if [[ -n "${CLOCKAGENT_JAR:-}" ]]; then
  agent_property=("-Dclockagent.jar=$CLOCKAGENT_JAR")
fi

jdk17="${JDK17_HOME:-}"
if [[ -z "$jdk17" ]]; then
  jdk17="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
fi
jdk25="${JDK25_HOME:-}"
if [[ -z "$jdk25" ]]; then
  for candidate in /usr/lib/jvm/*25*; do
    if [[ -x "$candidate/bin/java" ]]; then
      jdk25="$candidate"
      break
    fi
  done
fi

run_on() {
  local label="$1" home="$2"
  local results="$module_dir/target/results-$label.md"
  : > "$results"
  echo
  echo "==================== $label: $home"
  if [[ "$which_benchmarks" == all || "$which_benchmarks" == clock-read ]]; then
    "$home/bin/java" "${agent_property[@]}" -cp "$jar" io.clockagent.bench.ClockReadComparison | tee -a "$results"
  fi
  if [[ "$which_benchmarks" == all || "$which_benchmarks" == startup ]]; then
    "$home/bin/java" "${agent_property[@]}" -cp "$jar" io.clockagent.bench.StartupComparison \
      --java "$home/bin/java" | tee -a "$results"
  fi
  if [[ "$which_benchmarks" == fidelity ]]; then
    "$home/bin/java" "${agent_property[@]}" -cp "$jar" io.clockagent.bench.FidelityComparison \
      --java "$home/bin/java" | tee -a "$results"
  fi
  if [[ "$which_benchmarks" == peers ]]; then
    "$home/bin/java" "${agent_property[@]}" -cp "$jar" io.clockagent.bench.PeerReadComparison | tee -a "$results"
  fi
}

run_on jdk17 "$jdk17"
if [[ -n "$jdk25" ]]; then
  run_on jdk25 "$jdk25"
else
  echo
  echo "NOTICE: no JDK 25 found (set JDK25_HOME, or install one under /usr/lib/jvm/*25*); its runs are skipped."
fi
