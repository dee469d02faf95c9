#!/usr/bin/env bash
# Issue 57: `make release` on a club's machine — Debian 12 with Swift and nothing else (no
# chromium, QEMU, Icecast or Playwright: the test kit) — makes the signed repository, the
# signing key's passphrase asked once. Builds that machine: a fresh minbase bookworm
# (debootstrap: make, git, ca-certificates) with this machine's Swift at /opt/swift, a clean
# clone of HEAD, a throwaway key with a passphrase; runs `make release` there as a
# volunteer would (it installs what it needs itself: setup-host.sh --release), then checks
# the repository and that no test kit came with it. The build roots and FFmpeg builds come
# from this machine's cache (tools/cache.sh) as they would from a volunteer's earlier run.
#
#   tools/release-bare-root.sh        (root; ~N min: three release builds)
#
# Not part of make test: three release builds cost more than CI's budget; run by hand
# before a release changes how releases are made (docs/deploy.md, "Publishing releases").
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/cache.sh"
DIR="$ROOT/.build/roots/bare-release"
say() { echo "release-bare-root: $*" >&2; }
[ "$(id -u)" -eq 0 ] || { say "debootstrap and chroot need root"; exit 1; }
# What is committed: a clean clone of HEAD.
git -C "$ROOT" diff --quiet HEAD || say "builds HEAD ($(git -C "$ROOT" log -1 --format=%h)); changes not committed are not in it"
began=$SECONDS
rm -rf "$DIR"
mkdir -p "$DIR"
say "debootstrap bookworm (minbase, make, git, ca-certificates) into $DIR"
debootstrap --variant=minbase --include=make,git,ca-certificates bookworm "$DIR" http://deb.debian.org/debian \
  > "$DIR.log" 2>&1 || { tail -20 "$DIR.log" >&2; exit 1; }
# A volunteer's clone and key: the key with a passphrase, exported as a file (gpg's own
# agent and keyring stay in a throwaway home, ended below).
mkdir -p "$DIR/work"
git clone -q "$ROOT" "$DIR/work/delaybox"
KEYHOME=$(mktemp -d)
trap 'gpgconf --homedir "$KEYHOME" --kill all 2>/dev/null || true; rm -rf "$KEYHOME"' EXIT
PASSPHRASE="a volunteer's long passphrase"
gpg --homedir "$KEYHOME" --batch --pinentry-mode loopback --passphrase "$PASSPHRASE" \
  --quick-gen-key "Club releases <releases@club.invalid>" ed25519 sign never 2> /dev/null
gpg --homedir "$KEYHOME" --batch --pinentry-mode loopback --passphrase "$PASSPHRASE" --armor \
  --export-secret-keys > "$DIR/work/release-key.asc"
SWIFT_DIR=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift || echo /opt/swift/usr/bin/swift)")")")")
export DIR SWIFT_DIR CACHE PASSPHRASE
say "make release in the bare machine"
unshare --mount --propagation private /bin/bash -c '
  set -euo pipefail
  bind() { mkdir -p "$DIR$1"; mount --bind "$1" "$DIR$1"; }
  # Its root a mount point, as a machine'"'"'s is: the build roots'"'"' own mount namespaces
  # (tools/debian-root/run.sh) change its propagation, which a plain chroot refuses.
  mount --bind "$DIR" "$DIR"
  mount -t proc proc "$DIR/proc"
  mount --rbind /dev "$DIR/dev"
  mount -t sysfs sys "$DIR/sys"
  mkdir -p "$DIR/opt/swift"; mount --bind "$SWIFT_DIR" "$DIR/opt/swift"
  [ -f /etc/gitconfig ] && { touch "$DIR/etc/gitconfig"; mount --bind /etc/gitconfig "$DIR/etc/gitconfig"; }
  [ -d /opt/swift-packages ] && bind /opt/swift-packages
  [ -n "$CACHE" ] && [ -d "$CACHE" ] && bind "$CACHE"
  cp /etc/resolv.conf "$DIR/etc/resolv.conf"
  echo "$PASSPHRASE" | chroot "$DIR" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/opt/swift/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/sh -c "cd /work/delaybox && make release RELEASE_KEY=/work/release-key.asc"
' > "$DIR.make.log" 2>&1 || { tail -30 "$DIR.make.log" >&2; say "make release failed ($DIR.make.log)"; exit 1; }
REPO="$DIR/work/delaybox/out/repo"
for file in dists/bookworm/InRelease dists/trixie/InRelease KEY-FINGERPRINT.txt; do
  [ -s "$REPO/$file" ] || { say "no $file in the repository"; exit 1; }
done
debs=$(find "$REPO/pool" -name '*.deb' | wc -l)
[ "$debs" -eq 3 ] || { say "the repository holds $debs packages, not 3"; exit 1; }
kit=$(chroot "$DIR" dpkg-query -W -f '${Package}\n' chromium qemu-system-x86 qemu-system-arm icecast2 mosquitto lintian 2>/dev/null || true)
[ -z "$kit" ] || { say "the test kit came with it: $kit"; exit 1; }
say "passed: a signed repository of $debs packages from a bare Debian 12 with Swift, in $((SECONDS - began)) s"
say "packages installed by make release: $(chroot "$DIR" dpkg-query -W -f '${Package}\n' | wc -l) (the test kit: none)"
