#!/usr/bin/env bash
# Starts through -agentpath with the shipped library (zig, glibc 2.17) against one the host's gcc builds from the
# same sources, alternating the two every round: the class-heavy program with its packages in scope, and
# `java -version`. Prints each library's highest glibc version, the medians with their quartiles, and the median of
# the per-round ratio. Run from the repository root after `mvn -B -pl agent,benchmarks -am package -DskipTests`:
#
#   benchmarks/native-toolchain-comparison.sh JAVA ROUNDS
set -euo pipefail
java=$1
rounds=$2
root=$PWD
work=$root/benchmarks/target/native-toolchain-comparison
rm -rf "$work"
mkdir -p "$work/shipped" "$work/host-gcc"

# Each library beside its own copy of the jar, as -agentpath finds it.
for library in shipped host-gcc; do
  cp "$root/agent/target/clock-agent.jar" "$work/$library/"
done
unzip -q -j "$work/shipped/clock-agent.jar" 'io/clockagent/agent/native/linux-amd64/libclockagent.so' -d "$work/shipped"
cp -r "$root/agent/target/classes" "$work/classes"
javac_home=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
CLOCK_AGENT_NATIVE_TOOLCHAIN=host sh "$root/agent/src/main/c/build.sh" "$javac_home" "$work/classes" "$work/headers" \
  >"$work/host-gcc-build.log" 2>&1
cp "$work/classes/io/clockagent/agent/native/linux-amd64/libclockagent.so" "$work/host-gcc/"
for library in shipped host-gcc; do
  echo "$library: needs up to $(objdump -T "$work/$library/libclockagent.so" | grep -o 'GLIBC_[0-9.]*' | sort -V | tail -1)"
done

class_path=$root/benchmarks/target/benchmarks.jar
jars=()
for jar in "$root"/benchmarks/target/classheavy/*.jar; do
  class_path=$class_path:$jar
  jars+=("$jar")
done
include=org.apache:org.h2:jakarta
micros() {
  local start
  start=$(date +%s%N)
  "$java" "$@" >/dev/null 2>&1
  echo $(( ($(date +%s%N) - start) / 1000 ))
}
# One untimed start, so that the first round pays no cold file cache.
micros "-agentpath:$work/shipped/libclockagent.so=include=$include" -cp "$class_path" \
  io.clockagent.bench.classheavy.ClassHeavyProgram "${jars[@]}" >/dev/null
: >"$work/class-heavy.txt"
: >"$work/version.txt"
for _ in $(seq 1 "$rounds"); do
  for library in shipped host-gcc; do
    echo "$library $(micros "-agentpath:$work/$library/libclockagent.so=include=$include" -cp "$class_path" \
      io.clockagent.bench.classheavy.ClassHeavyProgram "${jars[@]}")" >>"$work/class-heavy.txt"
  done
  for library in host-gcc shipped; do
    echo "$library $(micros "-agentpath:$work/$library/libclockagent.so" -version)" >>"$work/version.txt"
  done
done
python3 - "$work" <<'PY'
import statistics
import sys

work = sys.argv[1]
for start in ("class-heavy", "version"):
    rows = [line.split() for line in open(f"{work}/{start}.txt")]
    shipped = [int(micros) for library, micros in rows if library == "shipped"]
    host = [int(micros) for library, micros in rows if library == "host-gcc"]
    ratios = [a / b for a, b in zip(shipped, host)]

    def quartiles(values):
        ordered = sorted(values)
        return ordered[len(ordered) // 4], ordered[(3 * len(ordered)) // 4]

    def ms(values):
        low, high = quartiles(values)
        return f"{statistics.median(values) / 1000:.1f} ms ({low / 1000:.1f}-{high / 1000:.1f})"

    low, high = quartiles(ratios)
    print(f"{start}: {len(shipped)} rounds; shipped {ms(shipped)}; host gcc {ms(host)};"
          f" per round shipped/host gcc {statistics.median(ratios):.3f} ({low:.3f}-{high:.3f})")
PY
