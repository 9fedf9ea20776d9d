#!/usr/bin/env bash
# Runs clock-agent's benchmarks on every JDK it finds and prints their tables.
#
#   benchmarks/run.sh [all|clock-read|startup|fidelity|peers|library-clocks] [--no-build]
#
#   clock-read  JMH: one System.currentTimeMillis() call without and with the agent, 1 and 2 threads, every JDK side by
#               side in one run (~2.5 min per JDK)
#   startup     java -version (20 runs per variant) and the class-heavy program (10 runs per variant) (~2 min per JDK)
#   fidelity    staleness of the cached clock and its ticker's CPU, beside the usual updaters (~5 min per JDK 17+;
#               not in all)
#   peers       JMH: one read of clock-agent, the direct call, SystemClock, Log4j2, Agrona (~3.5 min per JDK 17+;
#               not in all)
#   library-clocks
#               the library clocks service (mybatis-plus, Hutool, Sentinel, Dubbo clock threads) without and with the
#               agent, at 1,000 requests a second and idle, on the host's and the emulated slow clock (~5 min per JDK;
#               not in all)
#   --no-build  use the jars already in agent/target and benchmarks/target
#
# The JDKs: the `java` on PATH (17 or later; it also runs the runners and is the reference the others are compared
# with), the homes listed in CLOCK_AGENT_JDKS (`:`-separated, as for the integration tests; fetch 11 and 21 with
# integration-tests/fetch-jdks.sh) and the first /usr/lib/jvm/*25*. CLOCKAGENT_JAR points at another clock-agent.jar
# (default: agent/target/). The tables are also written to benchmarks/target/results-*.md.
set -euo pipefail

which_benchmarks=all
build=true
for argument in "$@"; do
  case "$argument" in
    all|clock-read|startup|fidelity|peers|library-clocks) which_benchmarks="$argument" ;;
    --no-build) build=false ;;
    *) echo "unknown argument '$argument'; usage: $0 [all|clock-read|startup|fidelity|peers|library-clocks] [--no-build]" >&2; exit 2 ;;
  esac
done

module_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root_dir="$(dirname "$module_dir")"
jar="$module_dir/target/benchmarks.jar"

if $build; then
  echo "building agent and benchmarks ..."
  modules=agent,benchmarks
  # The library clocks benchmark forks its stack service, which it needs built too.
  if [[ "$which_benchmarks" == library-clocks ]]; then
    modules+=,stacks/library-clocks-service
  fi
  (cd "$root_dir" && mvn -B -q -pl "$modules" -am package -DskipTests)
fi

agent_property=()
if [[ -n "${CLOCKAGENT_JAR:-}" ]]; then
  agent_property=("-Dclockagent.jar=$CLOCKAGENT_JAR")
fi

runner_home="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
homes=("$runner_home")
add_home() {
  local home existing
  home="$(readlink -f "$1")"
  [[ -x "$home/bin/java" ]] || { echo "NOTICE: $1 has no bin/java; skipped" >&2; return; }
  for existing in "${homes[@]}"; do
    [[ "$existing" == "$home" ]] && return
  done
  homes+=("$home")
}
IFS=: read -r -a listed <<< "${CLOCK_AGENT_JDKS:-}"
for home in "${listed[@]}"; do
  [[ -n "$home" ]] && add_home "$home"
done
for candidate in /usr/lib/jvm/*25*; do
  if [[ -x "$candidate/bin/java" ]]; then
    add_home "$candidate"
    break
  fi
done

feature_of() {
  sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release"
}

runner=("$runner_home/bin/java" "${agent_property[@]}" -cp "$jar")
results="$module_dir/target"
echo "JDKs: ${homes[*]}"

if [[ "$which_benchmarks" == all || "$which_benchmarks" == clock-read ]]; then
  java_options=()
  for home in "${homes[@]}"; do
    java_options+=(--java "$home/bin/java")
  done
  "${runner[@]}" io.clockagent.bench.ClockReadComparison "${java_options[@]}" | tee "$results/results-clock-read.md"
fi

for home in "${homes[@]}"; do
  label="jdk$(feature_of "$home")"
  echo
  echo "==================== $label: $home"
  if [[ "$which_benchmarks" == all || "$which_benchmarks" == startup ]]; then
    "${runner[@]}" io.clockagent.bench.StartupComparison --java "$home/bin/java" \
      | tee "$results/results-startup-$label.md"
  fi
  if [[ "$which_benchmarks" == library-clocks ]]; then
    "${runner[@]}" io.clockagent.bench.LibraryClocksComparison --java "$home/bin/java" \
      | tee "$results/results-library-clocks-$label.md"
  fi
  if [[ "$which_benchmarks" == fidelity || "$which_benchmarks" == peers ]]; then
    if (( $(feature_of "$home") < 17 )); then
      echo "NOTICE: the $which_benchmarks benchmark runs on JDK 17 and later; $label skipped"
      continue
    fi
    # These runners fork, or run in, the JVM that runs them.
    if [[ "$which_benchmarks" == fidelity ]]; then
      "$home/bin/java" "${agent_property[@]}" -cp "$jar" io.clockagent.bench.FidelityComparison \
        --java "$home/bin/java" | tee "$results/results-fidelity-$label.md"
    else
      "$home/bin/java" "${agent_property[@]}" -cp "$jar" io.clockagent.bench.PeerReadComparison \
        | tee "$results/results-peers-$label.md"
    fi
  fi
done
