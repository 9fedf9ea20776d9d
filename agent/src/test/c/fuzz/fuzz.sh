#!/bin/sh
# Fuzzes each entry point of the native class filter that reads class bytes, one libFuzzer harness each
# (HARNESS_fuzzer.c: scan for class_scan.c, rewrite for call_site_rewriter.c), under AddressSanitizer and
# UndefinedBehaviorSanitizer. Every harness first replays each input in regressions/ once; then all fuzz side by side
# for SECONDS, seeded with those inputs and the class files of the Byte Buddy, Kotlin, Scala and Groovy jars the agent's
# tests use (the versions its pom pins; Maven fetches any that ~/.m2 lacks), and each prints its executions, coverage
# and crashes. A crashing input lands in WORK/crashes/HARNESS/; once the bug is fixed, keep it in regressions/, which
# this script, FuzzRegressionReplayTest and NativeRewriterParityTest replay.
#
#   agent/src/test/c/fuzz/fuzz.sh SECONDS [HARNESS...]     (default: every harness; SECONDS 0: replay only)
#
# WORK is $FUZZ_WORK, by default agent/target/fuzz; the harnesses, the seeds and the corpus each harness grows stay
# there between runs (delete WORK/seeds to gather the seeds again). Needs clang with libFuzzer (Debian: apt-get
# install clang), the JDK's headers ($JAVA_HOME, else the JDK of the java on the PATH), the agent built (for the
# class_file_format.h it writes) and, to fuzz, Maven.
# Exit status: 0 no crash, or no clang with libFuzzer here, which one line starting "notice:" says; 1 a crash or a
# failed check; 2 a usage error, a harness that does not build, or seeds that Maven cannot fetch.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
all=$(cd "$here" && ls ./*_fuzzer.c | sed 's|^\./||; s|_fuzzer\.c$||' | paste -sd ' ')
usage="usage: fuzz.sh SECONDS [HARNESS...], harnesses: $all"
seconds=${1:-}
case $seconds in
  '' | *[!0-9]*) echo "$usage" >&2; exit 2 ;;
esac
shift
harnesses=${*:-$all}
for harness in $harnesses; do
  if [ ! -f "$here/${harness}_fuzzer.c" ]; then
    echo "no harness $harness; $usage" >&2
    exit 2
  fi
done
agent=$(cd "$here/../../../.." && pwd)
sources=$agent/src/main/c
# class_file_format.h, which the build writes from the Java rewriter's constants.
headers=$agent/target/generated-sources/c
work=${FUZZ_WORK:-$agent/target/fuzz}
java_home=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}

mkdir -p "$work"
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -std=c11 -Wall -Wextra -Werror"
# Tried on an empty harness first, so that a harness that fails to build fails the run instead of skipping it.
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
  'int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return data == NULL && size > 0; }' \
  > "$work/probe.c"
# shellcheck disable=SC2086 # the flags are words
if ! command -v clang >/dev/null 2>&1 || ! clang $flags -o "$work/probe" "$work/probe.c" >"$work/probe.log" 2>&1; then
  echo "notice: no clang with libFuzzer here (Debian: apt-get install clang; see $work/probe.log); not fuzzed"
  exit 0
fi
if [ ! -f "$headers/class_file_format.h" ]; then
  echo "no $headers/class_file_format.h: build the agent first (mvn -B -pl agent process-classes)" >&2
  exit 2
fi
failed=0
for harness in $harnesses; do
  # shellcheck disable=SC2086
  if ! clang $flags -I"$java_home/include" -I"$java_home/include/linux" -I"$sources" -I"$headers" \
      -o "$work/${harness}_fuzzer" \
      "$here/${harness}_fuzzer.c" "$sources/class_scan.c" "$sources/call_site_rewriter.c" \
      >"$work/$harness-build.log" 2>&1; then
    cat "$work/$harness-build.log" >&2
    exit 2
  fi
  # Given files rather than folders, libFuzzer runs each once, and stops at the first that fails.
  if [ -z "$(ls "$here/regressions")" ] \
      || "$work/${harness}_fuzzer" "$here"/regressions/* > "$work/$harness-replay.log" 2>&1; then
    echo "$harness: $(ls "$here/regressions" | wc -l) regression inputs replayed, no crash"
  else
    echo "$harness: a regression input fails again (log: $work/$harness-replay.log)"
    grep -E 'Running:|ERROR|SUMMARY|runtime error|deadly signal' "$work/$harness-replay.log" | tail -20
    failed=1
  fi
done
if [ "$seconds" -eq 0 ] || [ "$failed" -ne 0 ]; then
  exit "$failed"
fi

# Seeds: every class file of those jars that names the clock method, and one in twenty of the others, which carry
# the variety of their pools to the mutations that insert the name (the dictionary holds it).
if [ ! -f "$work/seeds/.done" ]; then
  rm -rf "$work/seeds" "$work/unpacked"
  mkdir -p "$work/seeds"
  if ! (cd "$agent" && mvn -B -q dependency:build-classpath -Dmdep.includeScope=test \
      -DincludeArtifactIds=byte-buddy,kotlin-stdlib,scala-library,groovy -Dmdep.outputFile="$work/classpath" \
      >"$work/seeds.log" 2>&1); then
    cat "$work/seeds.log" >&2
    exit 2
  fi
  tr ':' '\n' < "$work/classpath" | while read -r jar; do
    mkdir -p "$work/unpacked/$(basename "$jar" .jar)"
    (cd "$work/unpacked/$(basename "$jar" .jar)" && unzip -q -o "$jar" '*.class')
  done
  number=0
  { grep -rl currentTimeMillis "$work/unpacked" || true; find "$work/unpacked" -name '*.class' | sort \
    | awk 'NR % 20 == 0'; } | sort -u | while read -r file; do
    number=$((number + 1))
    cp "$file" "$work/seeds/$number.class"
  done
  rm -rf "$work/unpacked"
  touch "$work/seeds/.done"
fi
echo "seeds: $(ls "$work/seeds" | wc -l) class files, and the regression inputs"

# The harnesses fuzz side by side, each on a core of its own where there are enough.
for harness in $harnesses; do
  crashes=$work/crashes/$harness
  mkdir -p "$work/corpus/$harness" "$crashes"
  touch "$work/$harness.started"
  # A status left by an earlier run must not stand in for one this run failed to write.
  rm -f "$work/$harness.status"
  (
    status=0
    UBSAN_OPTIONS=print_stacktrace=1 "$work/${harness}_fuzzer" -max_total_time="$seconds" -print_final_stats=1 \
      -dict="$here/class_file.dict" -artifact_prefix="$crashes/" -timeout=10 -rss_limit_mb=2048 \
      "$work/corpus/$harness" "$work/seeds" "$here/regressions" > "$work/$harness.log" 2>&1 || status=$?
    echo "$status" > "$work/$harness.status"
  ) &
done
wait
for harness in $harnesses; do
  crashes=$work/crashes/$harness
  log=$work/$harness.log
  status=$(cat "$work/$harness.status")
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  per_second=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  coverage=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -o 'cov: [0-9]* ft: [0-9]*' || true)
  found=$(find "$crashes" -type f -newer "$work/$harness.started" | wc -l)
  echo "$harness: fuzzed up to ${seconds} s, ${executions:-?} executions (${per_second:-?}/s)," \
    "${coverage:-coverage unknown}, corpus $(ls "$work/corpus/$harness" | wc -l) inputs, crashes: $found (log: $log)"
  if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
    grep -E 'ERROR|SUMMARY|runtime error|deadly signal|Test unit written' "$log" | head -20
    failed=1
  fi
done
exit "$failed"
