#!/usr/bin/env bash
# Runs the demo service under load with clock-agent off and on, alternating, in fresh JVMs, and prints the
# side-by-side table. Builds the agent and demo jars first when they are missing or older than their sources.
#
#   demo-app/run-demo.sh [--jdk PATH | --jdk 25] [--rounds N] [--requests N] [--warmup N] [--connections N]
#                        [--burst N] [--agent-options TEXT] [--max-seconds N] [--work-dir PATH]
#
# --jdk takes a JDK home, or a feature version to look for under /usr/lib/jvm (none found: a notice, and exit 0).
# Without it, the `java` on PATH runs everything. Defaults: 5 rounds of 20,000 warm-up + 60,000 measured requests
# over 8 connections, a 100,000-task virtual-thread burst on JDK 21+, agent options include=io.clockagent.demo.
set -euo pipefail

demo_dir=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$demo_dir")
agent_jar="$root/agent/target/clock-agent.jar"
demo_jar="$demo_dir/target/clock-agent-demo.jar"

java_bin=java
compare_args=()
while [ $# -gt 0 ]; do
  case "$1" in
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
    --help|-h)
      sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
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
exec "$java_bin" -cp "$demo_jar" io.clockagent.demo.compare.Compare \
  --agent "$agent_jar" --work-dir "$demo_dir/target/demo-runs" ${compare_args[@]+"${compare_args[@]}"}
