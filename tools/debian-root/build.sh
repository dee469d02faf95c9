#!/usr/bin/env bash
# A Debian build root for one release, so that this machine (any Debian with Swift at
# /opt/swift) builds Delaybox against that release's own libraries — FFmpeg, ALSA and
# libgpiod differ by release (Debian 13: FFmpeg 7.1, libgpiod 2.2; Debian 12: 5.1, 1.6); the
# box's own FFmpeg is built there from that release's source (tools/ffmpeg/build.sh).
# debootstrap into .build/roots/SUITE; the host's apt sources are not touched, and
# packages come signed from Debian's archive (debootstrap checks the Release file with
# debian-archive-keyring).
#
#   tools/debian-root/build.sh SUITE        # trixie (13) or bookworm (12)
#
# The host's Swift toolchain is used inside it (tools/debian-root/run.sh bind-mounts
# /opt/swift): Swift 6.3 for Debian 12 runs on Debian 13's newer glibc. First build:
# ~250 MB downloaded, about 3 minutes; later runs return at once, and so does a first run
# in another clone on this machine (tools/cache.sh).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tools/cache.sh"
SUITE=${1:?usage: tools/debian-root/build.sh SUITE}
DIR="$ROOT/.build/roots/$SUITE"
say() { echo "debian-root: $*" >&2; }

case "$SUITE" in
  trixie) RELEASE_LIBS=libstdc++-14-dev,libgcc-14-dev,libcurl4t64,libelf1t64 ;;
  bookworm) RELEASE_LIBS=libstdc++-12-dev,libgcc-12-dev,libcurl4,libelf1 ;;
  *) say "unknown release '$SUITE' (trixie or bookworm)"; exit 2 ;;
esac
# What building Delaybox needs there: the C libraries' headers, pkg-config, what the
# Swift toolchain itself links (libstdc++, libcurl, libxml2, libedit, sqlite), what the box's
# own FFmpeg is built with (GnuTLS, zlib, nasm for its x86 assembly: tools/ffmpeg), git for
# SwiftPM, and dpkg-dev: the package's Depends are computed against this release. For
# the release's virtual board (BOARD_DEBIAN=N tools/virtual-board/build.sh): gcc, make,
# kmod and cpio (libelf for the kernel's objtool) build its gpio-sim module and initramfs
# with the release's own compiler, and its scenarios run here (alsa-utils records and
# sets the codec; ir-keytable and ir-ctl load a remote's keymap and send its codes). ffmpeg encodes what the FFmpeg adapter's tests decode there,
# and python3 serves an encrypted HLS stream to them (StaticHTTPServer; curl sees it ready).
INCLUDE=libc6-dev,pkgconf,binutils,git,ca-certificates,dpkg-dev,xz-utils,$RELEASE_LIBS
INCLUDE+=,libgnutls28-dev,nasm,libasound2-dev,libgpiod-dev,libyaml-dev,libmosquitto-dev,libmicrohttpd-dev,libcrypt-dev
INCLUDE+=,libxml2,libedit2,libsqlite3-0,libncurses6,zlib1g-dev,tzdata
INCLUDE+=,gcc,make,kmod,cpio,alsa-utils,ffmpeg,ir-keytable,v4l-utils,python3,curl
# Made again when this list changes.
[ "$(cat "$DIR/.done" 2>/dev/null)" = "$INCLUDE" ] && exit 0
cache_use "$DIR" "root-$SUITE" "$INCLUDE" && { say "ready: $DIR (made before on this machine)"; exit 0; }
[ "$(id -u)" -eq 0 ] || { say "debootstrap needs root"; exit 1; }
command -v debootstrap >/dev/null || { say "missing debootstrap: run deploy/setup-host.sh"; exit 1; }
rm -rf "$DIR"
mkdir -p "$DIR"
say "debootstrap $SUITE into $DIR"
debootstrap --variant=minbase --include="$INCLUDE" "$SUITE" "$DIR" http://deb.debian.org/debian > "$DIR.log" 2>&1 \
  || { tail -20 "$DIR.log" >&2; exit 1; }
rm -f "$DIR"/var/cache/apt/archives/*.deb
echo "$INCLUDE" > "$DIR/.done"
say "ready: $DIR ($(du -sh "$DIR" | cut -f1))"
cache_keep "$DIR" "root-$SUITE" "$INCLUDE"
