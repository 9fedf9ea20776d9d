#!/bin/sh
# Fuzzes each entry point of the native code that reads untrusted bytes, one libFuzzer harness each (HARNESS_fuzzer.c:
# scan for class_scan.c, rewrite for call_site_rewriter.c, options for agent_options.c with option_text.c), under
# AddressSanitizer and UndefinedBehaviorSanitizer. Every harness first replays each of its saved inputs once (the
# class-file harnesses regressions/, the options harness options-corpus/); then they fuzz side by side, as many at a
# time as there are cores (on two, the options harness after the other two), the class-file harnesses for SECONDS and
# the options harness for at most $FUZZ_OPTIONS_SECONDS of them (default 20: its grammar is small, and its coverage
# levels off within some ten seconds). The class-file harnesses are seeded with those inputs and the class files of the
# Byte Buddy, Kotlin, Scala and Groovy jars the agent's tests use (the versions its pom pins; Maven fetches any that
# ~/.m2 lacks), the options harness with options-corpus/; each uses its dictionary (class_file.dict, options.dict) and
# prints its executions, coverage and crashes. A crashing input lands in
# WORK/crashes/HARNESS/; once the bug is fixed, keep it in regressions/ (a class file) or options-corpus/ (options),
# which this script replays, and FuzzRegressionReplayTest, NativeRewriterParityTest and OptionsCorpusParityTest too.
# After the options harness has fuzzed, OptionsCorpusCheck runs the Java parser and the C parser (the parity driver,
# under the sanitizers) on every input of the corpus it grew and fails on any difference between their outcomes.
#
#   agent/src/test/c/fuzz/fuzz.sh SECONDS [HARNESS...]     (default: every harness; SECONDS 0: replay only)
#
# WORK is $FUZZ_WORK, by default agent/target/fuzz; the harnesses, the seeds and the corpus each harness grows stay
# there between runs (delete WORK/seeds to gather the seeds again). Needs clang with libFuzzer (Debian: apt-get
# install clang), the JDK's headers ($JAVA_HOME, else the JDK of the java on the PATH), the agent built (for the
# class_file_format.h and option_grammar.h it writes), to fuzz the class-file harnesses, Maven, and, to check the
# options corpus, the agent's tests compiled and gcc (mvn -B -pl agent test-compile).
# Exit status: 0 no crash, or no clang with libFuzzer here, which one line starting "notice:" says (unless
# FUZZ_REQUIRED=1, as CI sets it: then 2); 1 a crash or a failed check; 2 a usage error, a harness that does not build,
# or seeds that Maven cannot fetch.
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
# class_file_format.h and option_grammar.h, which the build writes from the Java side's constants.
headers=$agent/target/generated-sources/c
work=${FUZZ_WORK:-$agent/target/fuzz}
java_home=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}
options_seconds=${FUZZ_OPTIONS_SECONDS:-20}
case $options_seconds in
  '' | *[!0-9]*) echo "FUZZ_OPTIONS_SECONDS must be a number of seconds; $usage" >&2; exit 2 ;;
esac
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

# What each harness reads: its C sources, its dictionary, and the folder of saved inputs it replays and starts from.
harness_sources() {
  case $1 in
    options) echo "$sources/agent_options.c $sources/option_text.c" ;;
    *) echo "$sources/class_scan.c $sources/call_site_rewriter.c" ;;
  esac
}
harness_dictionary() {
  case $1 in
    options) echo "$here/options.dict" ;;
    *) echo "$here/class_file.dict" ;;
  esac
}
fuzz_seconds() {
  if [ "$1" = options ] && [ "$seconds" -gt "$options_seconds" ]; then
    echo "$options_seconds"
  else
    echo "$seconds"
  fi
}
# The limits each input runs under, replayed or fuzzed: the options harness's make a parser whose time or memory grows
# faster than its input fail on the long inputs of its corpus (a 200,000-byte text parses in some milliseconds and a
# few hundred kilobytes), which the class-file harnesses' would not.
harness_limits() {
  case $1 in
    options) echo "-max_len=262144 -timeout=5 -rss_limit_mb=512 -malloc_limit_mb=16" ;;
    *) echo "-timeout=10 -rss_limit_mb=2048" ;;
  esac
}
harness_inputs() {
  case $1 in
    options) echo "$here/options-corpus" ;;
    *) echo "$here/regressions" ;;
  esac
}

mkdir -p "$work"
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -std=c11 -Wall -Wextra -Werror"
# Tried on an empty harness first, so that a harness that fails to build fails the run instead of skipping it.
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
  'int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return data == NULL && size > 0; }' \
  > "$work/probe.c"
# shellcheck disable=SC2086 # the flags are words
if ! command -v clang >/dev/null 2>&1 || ! clang $flags -o "$work/probe" "$work/probe.c" >"$work/probe.log" 2>&1; then
  if [ "${FUZZ_REQUIRED:-0}" = 1 ]; then
    echo "no clang with libFuzzer here, and FUZZ_REQUIRED=1 (see $work/probe.log)" >&2
    exit 2
  fi
  echo "notice: no clang with libFuzzer here (Debian: apt-get install clang libclang-rt-dev; see $work/probe.log);" \
    "not fuzzed"
  exit 0
fi
for header in class_file_format.h option_grammar.h; do
  if [ ! -f "$headers/$header" ]; then
    echo "no $headers/$header: build the agent first (mvn -B -pl agent process-classes)" >&2
    exit 2
  fi
done
failed=0
for harness in $harnesses; do
  inputs=$(harness_inputs "$harness")
  # shellcheck disable=SC2086,SC2046 # the flags and the sources are words
  if ! clang $flags -I"$java_home/include" -I"$java_home/include/linux" -I"$sources" -I"$headers" \
      -o "$work/${harness}_fuzzer" "$here/${harness}_fuzzer.c" $(harness_sources "$harness") \
      >"$work/$harness-build.log" 2>&1; then
    cat "$work/$harness-build.log" >&2
    exit 2
  fi
  # Given files rather than folders, libFuzzer runs each once, and stops at the first that fails.
  # shellcheck disable=SC2046 # the limits are words
  if [ -z "$(ls "$inputs")" ] || "$work/${harness}_fuzzer" $(harness_limits "$harness") "$inputs"/* \
      > "$work/$harness-replay.log" 2>&1; then
    echo "$harness: $(ls "$inputs" | wc -l) saved inputs of $(basename "$inputs")/ replayed, no crash"
  else
    echo "$harness: a saved input of $(basename "$inputs")/ fails again (log: $work/$harness-replay.log)"
    grep -E 'Running:|ERROR|SUMMARY|runtime error|deadly signal' "$work/$harness-replay.log" | tail -20
    failed=1
  fi
done
if [ "$seconds" -eq 0 ] || [ "$failed" -ne 0 ]; then
  exit "$failed"
fi

# Seeds of the class-file harnesses: every class file of those jars that names the clock method, and one in twenty of
# the others, which carry the variety of their pools to the mutations that insert the name (the dictionary holds it).
case " $harnesses " in *" scan "* | *" rewrite "*) class_files=1 ;; *) class_files=0 ;; esac
if [ "$class_files" -eq 1 ] && [ ! -f "$work/seeds/.done" ]; then
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
if [ "$class_files" -eq 1 ]; then
  echo "seeds: $(ls "$work/seeds" | wc -l) class files, and the regression inputs"
fi

# Starts one harness fuzzing in the background; its status lands in WORK/HARNESS.status.
start_fuzzing() {
  harness=$1
  crashes=$work/crashes/$harness
  inputs=$(harness_inputs "$harness")
  mkdir -p "$work/corpus/$harness" "$crashes"
  # The corpus it grows first: libFuzzer writes what it finds into the first folder.
  set -- "$work/corpus/$harness" "$inputs"
  if [ "$harness" != options ]; then
    set -- "$@" "$work/seeds"
  fi
  touch "$work/$harness.started"
  # A status left by an earlier run must not stand in for one this run failed to write.
  rm -f "$work/$harness.status"
  (
    status=0
    # shellcheck disable=SC2046 # the limits are words
    UBSAN_OPTIONS=print_stacktrace=1 "$work/${harness}_fuzzer" -max_total_time="$(fuzz_seconds "$harness")" \
      -print_final_stats=1 -dict="$(harness_dictionary "$harness")" -artifact_prefix="$crashes/" \
      $(harness_limits "$harness") "$@" > "$work/$harness.log" 2>&1 || status=$?
    echo "$status" > "$work/$harness.status"
  ) &
}

# Side by side, each on a core of its own: a round of as many harnesses as there are cores, then the next; the
# options harness, the shortest, last.
ordered=""
for harness in $harnesses; do
  [ "$harness" = options ] || ordered="$ordered $harness"
done
case " $harnesses " in *" options "*) ordered="$ordered options" ;; esac
running=0
for harness in $ordered; do
  if [ "$running" -ge "$cores" ]; then
    wait
    running=0
  fi
  start_fuzzing "$harness"
  running=$((running + 1))
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
  echo "$harness: fuzzed up to $(fuzz_seconds "$harness") s, ${executions:-?} executions (${per_second:-?}/s)," \
    "${coverage:-coverage unknown}, corpus $(ls "$work/corpus/$harness" | wc -l) inputs, crashes: $found (log: $log)"
  if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
    grep -E 'ERROR|SUMMARY|runtime error|deadly signal|Test unit written' "$log" | head -20
    failed=1
  fi
done

# The options harness's corpus, differentially: the Java parser's outcome on each input against the C parser's.
if case " $harnesses " in *" options "*) true ;; *) false ;; esac; then
  check=io/clockagent/agent/internal/options/OptionsCorpusCheck
  if [ ! -f "$agent/target/test-classes/$check.class" ]; then
    echo "no $agent/target/test-classes/$check.class: compile the agent's tests first" \
      "(mvn -B -pl agent test-compile)" >&2
    exit 2
  fi
  if (cd "$agent" && "$java_home/bin/java" -cp "target/test-classes:target/classes" "$(echo "$check" | tr / .)" \
      "$work/corpus/options" > "$work/options-check.log" 2>&1); then
    tail -1 "$work/options-check.log"
  else
    echo "options: the Java and C parsers differ on the corpus, or the check failed (log: $work/options-check.log)"
    head -30 "$work/options-check.log"
    failed=1
  fi
fi
exit "$failed"
