#!/usr/bin/env bash
# Runs a command inside a Debian build root (tools/debian-root/build.sh; trixie-arm64 is
# tools/arm64/build-root.sh's), in this project's directory at the same path, with the
# root's own Swift (Debian's swiftlang, when it has one) or else the host's (/opt/swift)
# on PATH:
#
#   tools/debian-root/run.sh SUITE COMMAND [ARGS…]
#
# The mounts it needs (proc, dev, the toolchain, the project, git's package mirror, and the
# cache of what the project made on this machine, read-only: its FFmpeg builds, which the
# project's .build links to — tools/cache.sh) live in a mount namespace of its own: they
# vanish with the command, whatever happens, and deleting the root can never reach through
# them.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tools/cache.sh"
SUITE=${1:?usage: tools/debian-root/run.sh SUITE COMMAND [ARGS…]}
shift
DIR="$ROOT/.build/roots/$SUITE"
case "$SUITE" in
  trixie-arm64) "$ROOT/tools/arm64/build-root.sh" ;;
  *) "$ROOT/tools/debian-root/build.sh" "$SUITE" ;;
esac
SWIFT_DIR=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift || echo /opt/swift/usr/bin/swift)")")")")
export DIR ROOT SWIFT_DIR CACHE
exec unshare --mount --propagation private /bin/bash -c '
  set -euo pipefail
  bind() { mkdir -p "$DIR$2"; mount --bind "$1" "$DIR$2"; mount -o remount,bind,ro "$DIR$2" 2>/dev/null || true; }
  mount -t proc proc "$DIR/proc"
  mount --rbind /dev "$DIR/dev"
  bind "$SWIFT_DIR" /opt/swift
  mkdir -p "$DIR$ROOT"; mount --bind "$ROOT" "$DIR$ROOT"
  # SwiftPM fetches dependencies with git as the host does (url rewrites, a local mirror).
  [ -f /etc/gitconfig ] && { touch "$DIR/etc/gitconfig"; mount --bind /etc/gitconfig "$DIR/etc/gitconfig"; }
  [ -d /opt/swift-packages ] && bind /opt/swift-packages /opt/swift-packages
  if [ -n "$CACHE" ] && [ -d "$CACHE" ]; then bind "$CACHE" "$CACHE"; fi
  cd "$ROOT"
  exec chroot "$DIR" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb PATH=/usr/libexec/swift/bin:/opt/swift/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$ROOT" "$@"
' run "$@"
