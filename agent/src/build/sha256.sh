#!/bin/sh
# Writes FILE.sha256 beside each FILE named, in sha256sum's format ("<hex>  <name>"), so that a user who downloads a
# release file and its .sha256 into one folder checks it with `sha256sum -c FILE.sha256`. Run from the folder the
# files are in: the name inside must be the bare file name, never a build machine's path.
# Usage (the release profile, agent/pom.xml): sha256.sh FILE...
set -eu
for file in "$@"; do
  # A missing file must fail the release build here, not leave a release without its checksum.
  [ -f "$file" ] || { echo "sha256.sh: no $file in $(pwd)" >&2; exit 1; }
  sha256sum -- "$file" > "$file.sha256"
done
