#!/bin/sh
# Builds the native library (the class filter behind -javaagent, and the -agentpath entry) into the agent's classes,
# where the shaded jar picks it up: one libclockagent.so for each Linux architecture a compiler is found for, under
# native/linux-<os.arch>/, the folder named as the JVM names its architecture (os.arch), never after the build host.
# Without any compiler the jar carries no library, the agent filters in Java, and the build goes on with a notice.
# The class-file constants the C rewriter shares with the Java one, the option grammar the C option parser shares
# with the Java one, the cached clock's class file and the banner's parts come from the Java side's compiled classes:
# first class_file_format.h, option_grammar.h, cached_clock_class.h and banner.h are written into HEADER_DIRECTORY,
# which the tests and the fuzzer include as well, and the class that loads the library for -javaagent from Java 24 on,
# renamed into java.lang, into CLASSES_DIRECTORY.
# Usage: build.sh JAVA_HOME CLASSES_DIRECTORY HEADER_DIRECTORY. Warnings fail the build: this code runs inside every
# class load.
set -eu
java_home=$1
classes=$2
headers=$3
sources=$(dirname "$0")

generator=$headers/generator
rm -rf "$generator"
"$java_home/bin/javac" -nowarn -d "$generator" -cp "$classes" \
  "$sources/../../build/java/io/clockagent/agent/internal/CHeader.java" \
  "$sources/../../build/java/io/clockagent/agent/internal/classfile/ClassFileFormatHeader.java" \
  "$sources/../../build/java/io/clockagent/agent/internal/options/OptionGrammarHeader.java" \
  "$sources/../../build/java/io/clockagent/agent/internal/clock/CachedClockClassHeader.java" \
  "$sources/../../build/java/io/clockagent/agent/internal/diagnostics/BannerHeader.java" \
  "$sources/../../build/java/io/clockagent/agent/internal/install/NativeStartLibraryClassFile.java"
"$java_home/bin/java" -cp "$generator:$classes" io.clockagent.agent.internal.classfile.ClassFileFormatHeader \
  "$headers/class_file_format.h"
"$java_home/bin/java" -cp "$generator:$classes" io.clockagent.agent.internal.options.OptionGrammarHeader \
  "$headers/option_grammar.h"
"$java_home/bin/java" -cp "$generator:$classes" io.clockagent.agent.internal.clock.CachedClockClassHeader \
  "$headers/cached_clock_class.h"
"$java_home/bin/java" -cp "$generator:$classes" io.clockagent.agent.internal.diagnostics.BannerHeader \
  "$headers/banner.h"
"$java_home/bin/java" -cp "$generator:$classes" io.clockagent.agent.internal.install.NativeStartLibraryClassFile \
  "$classes"
rm -rf "$generator"

# The compiler for a GNU target triplet: its cross compiler, or a plain gcc that targets it natively.
compiler_for() {
  if command -v "$1-gcc" >/dev/null 2>&1; then
    echo "$1-gcc"
  elif command -v gcc >/dev/null 2>&1 && [ "$(gcc -dumpmachine 2>/dev/null)" = "$1" ]; then
    echo gcc
  fi
}

# A library left by an earlier build could outlive the compiler that made it.
rm -rf "$classes/io/clockagent/agent/native"
# Always there, empty without a compiler: the package phase stores whatever it holds into the jar again (pom.xml).
mkdir -p "$classes/io/clockagent/agent/native"
built=""
for platform in amd64:x86_64-linux-gnu aarch64:aarch64-linux-gnu; do
  arch=${platform%%:*}
  triplet=${platform#*:}
  compiler=$(compiler_for "$triplet")
  if [ -z "$compiler" ]; then
    echo "notice: no C compiler for $triplet (Debian: apt-get install gcc-$(echo "$triplet" | tr _ -)); the jar" \
      "carries no native class filter for linux-$arch, where the agent filters in Java" >&2
    continue
  fi
  output=$classes/io/clockagent/agent/native/linux-$arch
  mkdir -p "$output"
  # jni_md.h under include/linux is the same for every Linux architecture. -z nodelete: the JDK unloads a library
  # once the class loader that loaded it is collected, as the -javaagent entry's is after premain, but the hook
  # stays registered with the JVM for the JVM's life, so the library's code must too.
  "$compiler" -std=c11 -O2 -shared -fPIC -fvisibility=hidden -Wl,-z,nodelete -Wall -Wextra -Werror \
    -I"$java_home/include" -I"$java_home/include/linux" -I"$headers" \
    -o "$output/libclockagent.so" "$sources/native_filter.c" "$sources/agent_entry.c" \
    "$sources/java_agent_start.c" "$sources/class_scan.c" "$sources/call_site_rewriter.c" \
    "$sources/agent_options.c" "$sources/jvmti_allocate.c" -ldl
  built="$built linux-$arch"
done
echo "native library (class filter, -agentpath entry, -javaagent start) built for:${built:- no platform}"
