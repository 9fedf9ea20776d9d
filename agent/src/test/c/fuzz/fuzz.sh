#!/bin/sh
# Fuzzes the native class filter's class-file reading (rewrite_fuzzer.c) with libFuzzer under AddressSanitizer and
# UndefinedBehaviorSanitizer, seeded with the class files of the agent's test class path (javac's output in Byte Buddy,
# and the Kotlin, Scala and Groovy runtimes) and the regression inputs, then prints the executions, the coverage and
# the findings. A crashing input is written to WORK/crashes/; keep it in regressions/ once the bug is fixed, where
# fuzz.sh and NativeRewriterParityTest replay it.
#
#   agent/src/test/c/fuzz/fuzz.sh SECONDS [WORK]     (WORK default: agent/target/fuzz; the corpus grows there)
#
# Needs clang with libFuzzer (Debian: apt-get install clang) and a JDK; run after the agent's test-compile (mvn -B -pl
# agent test-compile), which fetches the seed jars. Without clang it says so and exits 0. Exit status 1: a finding.
set -eu
seconds=${1:?usage: fuzz.sh SECONDS [WORK]}
here=$(cd "$(dirname "$0")" && pwd)
agent=$(cd "$here/../../../.." && pwd)
work=${2:-$agent/target/fuzz}
java_home=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")

mkdir -p "$work/corpus" "$work/seeds" "$work/crashes"
fuzzer=$work/rewrite_fuzzer
if ! command -v clang >/dev/null 2>&1 \
    || ! clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -std=c11 -Wall -Wextra -Werror \
        -I"$java_home/include" -I"$java_home/include/linux" -I"$agent/src/main/c" -o "$fuzzer" \
        "$here/rewrite_fuzzer.c" "$agent/src/main/c/call_site_rewriter.c" 2>"$work/build.log"; then
  echo "notice: no clang with libFuzzer here (Debian: apt-get install clang; see $work/build.log); not fuzzed"
  exit 0
fi

# Seeds: every class file of the test class path's jars that names the clock method, and one in twenty of the others,
# which stop at the scan until a mutation inserts the name (the dictionary has it), for the variety of their pools.
if [ ! -f "$work/seeds/.done" ]; then
  (cd "$agent" && mvn -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$work/classpath")
  tr ':' '\n' < "$work/classpath" | grep '\.jar$' | while read -r jar; do
    name=$(basename "$jar" .jar)
    mkdir -p "$work/unpacked/$name"
    (cd "$work/unpacked/$name" && unzip -q -o "$jar" '*.class' 2>/dev/null || true)
  done
  find "$work/unpacked" -name '*.class' | sort > "$work/class-files"
  xargs grep -l currentTimeMillis < "$work/class-files" > "$work/seed-list" || true
  awk 'NR % 20 == 0' "$work/class-files" >> "$work/seed-list"
  number=0
  while read -r file; do
    number=$((number + 1))
    cp "$file" "$work/seeds/$number.class"
  done < "$work/seed-list"
  rm -rf "$work/unpacked"
  touch "$work/seeds/.done"
fi
echo "seeds: $(ls "$work/seeds" | wc -l) class files, $(ls "$here/regressions" | wc -l) regression inputs"

status=0
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 "$fuzzer" -max_total_time="$seconds" \
  -print_final_stats=1 -dict="$here/class_file.dict" -artifact_prefix="$work/crashes/" -timeout=10 -rss_limit_mb=2048 \
  "$work/corpus" "$work/seeds" "$here/regressions" > "$work/fuzz.log" 2>&1 || status=$?
executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log")
coverage=$(grep -E '^#[0-9]+' "$work/fuzz.log" | tail -1 | grep -o 'cov: [0-9]* ft: [0-9]*' || true)
crashes=$(ls "$work/crashes" | wc -l)
echo "rewrite_fuzzer: ${seconds} s, ${executions:-?} executions, ${coverage:-coverage unknown}, corpus" \
  "$(ls "$work/corpus" | wc -l) inputs, findings: $crashes (log: $work/fuzz.log)"
if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
  grep -E 'ERROR|SUMMARY|runtime error|deadly signal' "$work/fuzz.log" | head -20
  exit 1
fi
