#!/usr/bin/env bash
# What installing a package adds to a board that has only Debian's base (the packages of
# priority required and important, as a fresh Debian 13 arm64 system has; Raspberry Pi
# OS Lite has these and more): apt's own answer (`apt-get install --simulate`), against
# Debian 13's arm64 archive, without touching this machine's apt. For `make bench`:
#
#   tools/board-new-packages.sh [--no-recommends] DEB [PACKAGE…]
#
# prints `COUNT MB` — how many packages apt would add (DEB's Depends and, as apt does by
# default, its Recommends; only the Depends with --no-recommends) and their installed size
# (MiB); with PACKAGE… also those (what the package would add with them, e.g. the system's
# FFmpeg it once depended on).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RECOMMENDS=()
if [ "${1:-}" = --no-recommends ]; then RECOMMENDS=(--no-install-recommends); shift; fi
DEB=$(realpath "${1:?usage: tools/board-new-packages.sh [--no-recommends] DEB [PACKAGE…]}")
shift
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
D="$ROOT/.build/board-packages/trixie-arm64"
mkdir -p "$D/lists/partial" "$D/cache/archives/partial"
{
  printf 'deb [arch=arm64 signed-by=%s] http://deb.debian.org/debian trixie main\n' "$KEYRING"
  printf 'deb [arch=arm64 signed-by=%s] http://deb.debian.org/debian-security trixie-security main\n' "$KEYRING"
} > "$D/sources.list"
apt_() {
  "$@" -q -o Dir::Etc::SourceList="$D/sources.list" -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$D/lists" \
    -o Dir::Cache="$D/cache" -o Dir::State::status="$D/status" -o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)" \
    -o APT::Architecture=arm64 -o APT::Architectures=arm64 -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
}
: > "$D/status"
apt_ apt-get update > "$D/update.log" 2>&1 || { cat "$D/update.log" >&2; exit 1; }
# The base system: every package of priority required or important and what they depend
# on (apt's own answer, from nothing installed), marked installed.
# (apt may keep its lists compressed, as this machine's configuration says: apt-helper reads either.)
packages() { for index in "$D"/lists/*_binary-arm64_Packages*; do /usr/lib/apt/apt-helper cat-file "$index"; done; }
base=$(packages | awk 'BEGIN { RS = "" } /\nPriority: (required|important)\n/ { sub(/^Package: /, ""); sub(/\n.*/, ""); print }')
# shellcheck disable=SC2086  # one package name per word
apt_ apt-get install --simulate --no-install-recommends $base 2>&1 | awk '/^Inst / { print $2 }' > "$D/base.txt"
[ -s "$D/base.txt" ] || { echo "board-new-packages: apt found no base system" >&2; exit 1; }
packages | awk -v list="$D/base.txt" 'BEGIN { while ((getline name < list) > 0) base[name] = 1; RS = ""; ORS = "\n\n" }
  { name = $0; sub(/^Package: /, "", name); sub(/\n.*/, "", name) }
  name in base && !(name in done) { done[name] = 1; print $0 "\nStatus: install ok installed" }' > "$D/status"
# apt prints a line per package it would install: "Inst libgnutls30t64 (3.8.9-3 Debian:13.2/stable [arm64])".
plan=$(apt_ apt-get install --simulate "${RECOMMENDS[@]}" "$DEB" "$@" 2>&1) || { echo "$plan" >&2; exit 1; }
echo "$plan" | awk '/^Inst / && $2 != "delaybox" { print $2, substr($3, 2) }' > "$D/added.txt"
# Their installed sizes (KiB), from the archive's index: one pass.
kib=$(packages | awk -v list="$D/added.txt" 'BEGIN { while ((getline line < list) > 0) { split(line, f, " "); want[f[1] " " f[2]] = 1 }; RS = "" }
  { name = $0; sub(/^Package: /, "", name); sub(/\n.*/, "", name)
    version = $0; sub(/.*\nVersion: /, "", version); sub(/\n.*/, "", version)
    size = $0; if (!sub(/.*\nInstalled-Size: /, "", size)) size = 0; sub(/\n.*/, "", size) }
  (name " " version) in want && !((name " " version) in seen) { seen[name " " version] = 1; total += size }
  END { print total + 0 }')
echo "$(grep -c . "$D/added.txt" || true) $(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }')"
