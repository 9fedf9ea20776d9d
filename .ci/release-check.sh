#!/usr/bin/env bash
# Checks what a release would publish, and that the agent jar is reproducible, for the price of one more build of the
# agent module (tests skipped).
#
# It expects agent/target/clock-agent.jar from an earlier build of the same tree (in CI, `mvn -B verify` on a fresh
# clone, just before). It sets that jar aside, builds the agent again from clean with -Prelease, and then:
#   (a) every release artefact exists: the jar, its sources, javadoc, CycloneDX SBOM, the published pom, and a .sha256
#       of each;
#   (b) each .sha256 matches its file (sha256sum -c, as a user checks a download);
#   (c) the SBOM is JSON that names the agent and byte-buddy-agent (the jar carries it, relocated), each with the
#       version the build used; the published pom has Maven Central's metadata, no byte-buddy-agent dependency and no
#       path of this checkout; the jar carries META-INF/LICENSE and NOTICE;
#   (d) the new jar is byte for byte the one set aside. A reproducible jar lets anyone check that a published jar
#       comes from its tag; comparing with the earlier build rather than building twice saves a build;
#   (e) the agent image, built again from that jar with its installers compiled afresh, has the digest of the one
#       set aside (image/target/clock-agent-image-VERSION.tar, from the same earlier build), where that build made one.
# A jar that differs is explained entry by entry (which entries, with their sha256 in each jar; or, with the same
# contents, the zip metadata: order, timestamps, compression), so that the cause can be fixed where it arises.
#
# .ci/run calls it after the tests and before the fuzz, whose work folder (agent/target/fuzz) the clean would remove.
#
# Usage: .ci/release-check.sh   (from anywhere; builds with `mvn`, needs unzip, zipinfo, sha256sum and python3)
# Without agent/target/clock-agent.jar it builds one first, which costs a second build.
set -euo pipefail
cd "$(dirname "$0")/.."

target=agent/target
jar=clock-agent.jar

fail() {
  echo "release-check: FAILED: $*" >&2
  exit 1
}

saved=$(mktemp -d)
trap 'rm -rf "$saved"' EXIT

if [ ! -f "$target/$jar" ]; then
  echo "release-check: no $target/$jar from an earlier build; building one first (a second build, slower)"
  mvn -B -q -pl agent -am clean package -DskipTests
fi
cp "$target/$jar" "$saved/$jar"
image_archives=(image/target/clock-agent-image-*.tar)
if [ -f "${image_archives[0]}" ]; then
  cp "${image_archives[0]}" "$saved/"
fi

# Clean, so that nothing of the first build (classes, the native library, generated headers) can reach the second:
# each jar then stands for a build from scratch. -pl agent alone: the parent pom comes from ../pom.xml, nothing from
# ~/.m2 of this project. -q: Maven's log only on failure.
mvn -B -q -Prelease -pl agent clean verify -DskipTests

# (a) Every artefact, named as the release profile in agent/pom.xml writes them.
artefacts=(
  "$jar"
  clock-agent-sources.jar
  clock-agent-javadoc.jar
  clock-agent-cyclonedx.json
  dependency-reduced-pom.xml
)
for artefact in "${artefacts[@]}"; do
  [ -s "$target/$artefact" ] || fail "$target/$artefact is missing or empty"
  [ -s "$target/$artefact.sha256" ] || fail "$target/$artefact.sha256 is missing or empty"
done

# (b) In the artefacts' folder: a .sha256 names its file by its bare name, as it will sit beside it after a download.
checksums=()
for artefact in "${artefacts[@]}"; do
  checksums+=("$artefact.sha256")
done
(cd "$target" && sha256sum --check --strict --quiet "${checksums[@]}") || fail "a .sha256 does not match its file"

# (c) The versions to expect come from the build's own inputs, not from a copy here that would go stale: the agent's
# from the jar's manifest, Byte Buddy's from the parent pom's property.
agent_version=$(unzip -p "$target/$jar" META-INF/MANIFEST.MF | sed -n 's/^Implementation-Version: *//p' | tr -d '\r')
byte_buddy_version=$(sed -n 's:.*<byte-buddy.version>\(.*\)</byte-buddy.version>.*:\1:p' pom.xml)
[ -n "$agent_version" ] || fail "$jar has no Implementation-Version"
[ -n "$byte_buddy_version" ] || fail "pom.xml has no byte-buddy.version"
python3 - "$target/clock-agent-cyclonedx.json" "$agent_version" "$byte_buddy_version" <<'EOF' || fail "the SBOM"
import json, sys
path, agent_version, byte_buddy_version = sys.argv[1:]
with open(path) as f:
    bom = json.load(f)  # not JSON: fails here, with the parser's message
problems = []
if bom.get("bomFormat") != "CycloneDX":
    problems.append("bomFormat is %r, not CycloneDX" % bom.get("bomFormat"))
main = bom.get("metadata", {}).get("component", {})
if (main.get("group"), main.get("name"), main.get("version")) != ("io.clockagent", "clock-agent", agent_version):
    problems.append("its subject is %s:%s:%s, not io.clockagent:clock-agent:%s"
                    % (main.get("group"), main.get("name"), main.get("version"), agent_version))
found = [c.get("version") for c in bom.get("components", [])
         if (c.get("group"), c.get("name")) == ("net.bytebuddy", "byte-buddy-agent")]
if found != [byte_buddy_version]:
    problems.append("byte-buddy-agent %s expected among its components, found %s" % (byte_buddy_version, found or "none"))
for problem in problems:
    print("release-check: SBOM %s: %s" % (path, problem), file=sys.stderr)
sys.exit(1 if problems else 0)
EOF
python3 - "$target/dependency-reduced-pom.xml" <<'EOF' || fail "the published pom"
# The pom that deploy publishes with the jar. Maven Central refuses one without this metadata; a byte-buddy-agent
# dependency in it would put a second, unrelocated copy on every user's class path.
# A path of this checkout in it (Maven interpolates some, as with a profile in agent/pom.xml) would make it differ
# from one machine or folder to the next.
import os, sys, xml.etree.ElementTree as ET
path = sys.argv[1]
ns = {"m": "http://maven.apache.org/POM/4.0.0"}
pom = ET.parse(path).getroot()
problems = []
with open(path) as f:
    if os.getcwd() in f.read():
        problems.append("it names this checkout's folder, %s" % os.getcwd())
# Inherited from the parent pom, which a release publishes too, except name and description, which are never inherited.
for element in ("m:name", "m:description"):
    if not (pom.findtext(element, namespaces=ns) or "").strip():
        problems.append("no <%s>" % element[2:])
for dependency in pom.findall("m:dependencies/m:dependency", ns):
    if dependency.findtext("m:artifactId", namespaces=ns) == "byte-buddy-agent":
        problems.append("it lists byte-buddy-agent as a dependency, which the jar carries relocated")
parent = ET.parse("pom.xml").getroot()
for element in ("m:url", "m:licenses/m:license/m:name", "m:scm/m:connection", "m:scm/m:developerConnection",
                "m:scm/m:url", "m:developers/m:developer/m:name"):
    if not (parent.findtext(element, namespaces=ns) or "").strip():
        problems.append("the parent pom, which it inherits from, has no <%s>" % element.replace("m:", ""))
for problem in problems:
    print("release-check: published pom %s: %s" % (path, problem), file=sys.stderr)
sys.exit(1 if problems else 0)
EOF
for entry in META-INF/LICENSE META-INF/NOTICE; do
  unzip -l "$target/$jar" "$entry" >/dev/null || fail "$jar has no $entry"
done

# (d) Reproducibility. On a difference, say where: first the entries whose contents differ, each with its sha256 in
# both jars; if every entry's contents agree, the zip metadata (order, timestamps, sizes, compression) that differs.
entry_hashes() {
  local archive=$1 entry
  while IFS= read -r entry; do
    case $entry in */) continue ;; esac
    printf '%s  %s\n' "$(unzip -p "$archive" "$entry" | sha256sum | cut -d' ' -f1)" "$entry"
  done < <(zipinfo -1 "$archive" | LC_ALL=C sort)
}
if ! cmp -s "$saved/$jar" "$target/$jar"; then
  echo "release-check: $jar is not reproducible: the earlier build's and this one differ" >&2
  entry_hashes "$saved/$jar" > "$saved/earlier.txt"
  entry_hashes "$target/$jar" > "$saved/again.txt"
  if ! diff "$saved/earlier.txt" "$saved/again.txt" >&2; then
    echo "release-check: ('<' the earlier build's entries, '>' this build's, as sha256 and name)" >&2
  else
    echo "release-check: the same entries with the same contents; the zip metadata differs:" >&2
    diff <(zipinfo -l "$saved/$jar") <(zipinfo -l "$target/$jar") >&2 || true
  fi
  fail "$jar differs between two builds of the same tree"
fi

# (e) The image, again: its digest is what a registry names it by, so it too must come out the same from the same tree.
if [ -f "${image_archives[0]}" ]; then
  image=$(basename "${image_archives[0]}")
  mvn -B -q -pl image clean package
  [ -f "image/target/$image" ] || fail "the image module built no image/target/$image again"
  cmp -s "$saved/$image" "image/target/$image" \
    || fail "$image differs between two builds of the same tree (sha256 $(sha256sum "$saved/$image" | cut -c1-64)" \
      "and $(sha256sum "image/target/$image" | cut -c1-64))"
  image_note="; $image reproducible (sha256 $(sha256sum "image/target/$image" | cut -c1-64))"
else
  image_note="; no agent image from the earlier build to compare"
fi

# The jar that was checked runs: its command line reports the version the SBOM names.
version_output=$(java -jar "$target/$jar" --version) || fail "java -jar $jar --version failed"
grep -qF "clock-agent $agent_version" <<<"$version_output" \
  || fail "java -jar $jar --version does not report $agent_version: $version_output"

echo "release-check: OK: $jar $agent_version reproducible (sha256 $(cut -d' ' -f1 "$target/$jar.sha256"))$image_note;" \
  "release artefacts in $target: ${artefacts[*]}, each with its .sha256"
