#!/bin/sh
# Builds the native library (the -agentpath and attach entries, and the start of -javaagent) into the agent's classes,
# where the shaded jar picks it up: one libclockagent.so for each Linux architecture (amd64, aarch64), which loads on
# glibc 2.17 and later and on musl alike, under native/linux-<os.arch>/, the folder named as the JVM names its
# architecture (os.arch), never after the build host.
# Without any compiler the jar carries no library, the agent filters in Java, and the build goes on with a notice.
# The class-file constants the C rewriter shares with the Java one, the option grammar the C option parser shares
# with the Java one, the cached clock's class file, the banner's parts and everything of the Java side the library
# names (its classes, methods, fields and shared constants) come from the Java side's compiled classes: first
# class_file_format.h, option_grammar.h, cached_clock_class.h, banner.h and java_contract.h are written into
# HEADER_DIRECTORY,
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
  "$sources/../../build/java/io/clockagent/agent/internal/JavaContractHeader.java" \
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
"$java_home/bin/java" -cp "$generator:$classes" io.clockagent.agent.internal.JavaContractHeader \
  "$headers/java_contract.h"
"$java_home/bin/java" -cp "$generator:$classes" io.clockagent.agent.internal.install.NativeStartLibraryClassFile \
  "$classes"
rm -rf "$generator"

# The toolchain. The libraries must load on every Linux a JVM runs on: glibc from 2.17 (CentOS 7) on and musl (Alpine),
# whatever the build host. A host gcc links against the host's glibc, whose newest symbol versions (GLIBC_2.34 on
# Debian 12) an older glibc refuses, and on x86-64 it names ld-linux-x86-64.so.2, which musl does not have. zig cc
# links against the glibc 2.17 symbol versions whatever the host, so it is the toolchain: a pinned ziglang from the
# Python package index, fetched once into a cache and reused, or the zig named by CLOCK_AGENT_ZIG (agent/src/build/
# zig.sh, which builds the image's installer too). Only where zig cannot be had does the build fall back to the host's
# gcc, loudly: NativeLibraryPortabilityTest and MuslLoadTest then skip where a developer builds and fail where
# CLOCK_AGENT_EXPECTED_NATIVE_PLATFORMS is set (CI). CLOCK_AGENT_NATIVE_TOOLCHAIN=host asks for the host's gcc.
zig_version=$("$sources/../../build/zig.sh" --version)

# The host compiler for a GNU target triplet: its cross compiler, or a plain gcc that targets it natively.
compiler_for() {
  if command -v "$1-gcc" >/dev/null 2>&1; then
    echo "$1-gcc"
  elif command -v gcc >/dev/null 2>&1 && [ "$(gcc -dumpmachine 2>/dev/null)" = "$1" ]; then
    echo gcc
  fi
}

zig=""
if [ "${CLOCK_AGENT_NATIVE_TOOLCHAIN:-zig}" != host ]; then
  zig=$("$sources/../../build/zig.sh")
fi
if [ -n "$zig" ]; then
  toolchain="zig $zig_version, glibc 2.17"
else
  toolchain="host gcc"
  if [ "${CLOCK_AGENT_NATIVE_TOOLCHAIN:-zig}" != host ]; then
    echo "WARNING: no zig (neither CLOCK_AGENT_ZIG nor ziglang $zig_version from the Python package index through" \
      "python3 -m pip); the native libraries are built with the host's gcc, if any, against its glibc: they may" \
      "not load on an older glibc nor on musl, and NativeLibraryPortabilityTest and MuslLoadTest fail where" \
      "CLOCK_AGENT_EXPECTED_NATIVE_PLATFORMS is set" >&2
  fi
fi
# The tests read which toolchain built the libraries from here.
echo "$toolchain" > "$headers/native-toolchain"

# A library left by an earlier build could outlive the compiler that made it.
rm -rf "$classes/io/clockagent/agent/native"
# Always there, empty without a compiler: the package phase stores whatever it holds into the jar again (pom.xml).
mkdir -p "$classes/io/clockagent/agent/native"
built=""
for platform in amd64:x86_64-linux-gnu aarch64:aarch64-linux-gnu; do
  arch=${platform%%:*}
  triplet=${platform#*:}
  if [ -n "$zig" ]; then
    # TLS descriptors, as aarch64 has by default: the general-dynamic model's __tls_get_addr would tie the x86-64
    # library to ld-linux-x86-64.so.2. -g0: zig cc would otherwise keep debug information.
    compiler="$zig cc -target $triplet.2.17 -g0"
    [ "$arch" = amd64 ] && compiler="$compiler -mtls-dialect=gnu2"
  else
    compiler=$(compiler_for "$triplet")
  fi
  if [ -z "$compiler" ]; then
    echo "notice: no C compiler for $triplet (zig from the Python package index through python3 -m pip, or" \
      "Debian: apt-get install gcc-$(echo "$triplet" | tr _ -)); the jar carries no native class filter for" \
      "linux-$arch, where the agent filters in Java" >&2
    continue
  fi
  output=$classes/io/clockagent/agent/native/linux-$arch
  mkdir -p "$output"
  # jni_md.h under include/linux is the same for every Linux architecture. -z nodelete: the JDK unloads a library
  # once the class loader that loaded it is collected, as the -javaagent entry's is after premain, but the hook
  # stays registered with the JVM for the JVM's life, so the library's code must too.
  # shellcheck disable=SC2086 # $compiler is a command and its target flags
  $compiler -std=c11 -O2 -shared -fPIC -fvisibility=hidden -Wl,-z,nodelete -Wall -Wextra -Werror \
    -I"$java_home/include" -I"$java_home/include/linux" -I"$headers" \
    -o "$output/libclockagent.so" "$sources"/*.c -ldl
  built="$built linux-$arch"
done
if [ -n "$built" ]; then
  echo "native library (-agentpath and attach entries, -javaagent start) built with $toolchain for:$built"
else
  echo "native library (-agentpath and attach entries, -javaagent start) built for no platform"
fi
