#!/usr/bin/env bash
# Builds Delaybox's release binaries for a board's architecture, with the Swift standard
# library, Foundation and the box's own FFmpeg (tools/ffmpeg) linked in statically, so the
# board needs no Swift runtime and no FFmpeg — only the C libraries Debian packages (ALSA,
# libgpiod, GnuTLS …).
#
#   deploy/build-release.sh [--arch amd64|arm64|armhf] [--debian 12|13]
#
# The default is this machine's architecture and Debian release, built natively. Another
# release is built in its own build root (tools/debian-root: its FFmpeg, ALSA and
# libgpiod, this machine's Swift), into .build/debianN. Another architecture is
# cross-compiled with a Swift SDK for it (`swift sdk list`); when none is installed, this
# says what to install and fails. Prints the directory holding the binaries on stdout.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$PATH:/opt/swift/usr/bin"
say() { echo "build-release: $*" >&2; }

. "$ROOT/deploy/debian-release.sh"
ARCH=$(dpkg --print-architecture)
NATIVE=$ARCH
DEBIAN=""
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) ARCH=${2:?--arch needs a value}; shift 2 ;;
    --debian) DEBIAN=${2:?--debian needs 12 or 13}; suite "$DEBIAN" >/dev/null || exit 2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) say "unknown option $1 (see --help)"; exit 2 ;;
  esac
done
# This machine's release by default; for another CPU, Debian 13: its Swift (6.0.3) is the
# one Debian packages for arm64 (tools/arm64).
[ -n "$DEBIAN" ] || DEBIAN=$([ "$ARCH" = "$(dpkg --print-architecture)" ] && echo "$HOST_DEBIAN" || echo 13)

# Debian's architecture names → the target triples Swift SDKs are made for.
case "$ARCH" in
  amd64) TRIPLE=x86_64-unknown-linux-gnu ;;
  arm64) TRIPLE=aarch64-unknown-linux-gnu ;;
  armhf) TRIPLE=armv7-unknown-linux-gnueabihf ;;
  *) say "unsupported architecture '$ARCH' (amd64, arm64 or armhf)"; exit 2 ;;
esac

PRODUCTS=(delaybox delayboxctl)
# Full RELRO, as Debian hardens its own programs, linked by the toolchain's lld: Debian
# 13 has no gold, and its bfd linker leaves a Swift program without RELRO even when asked.
HARDENING=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now)
FLAGS=(-c release --static-swift-stdlib "${HARDENING[@]}")
in_release "$DEBIAN"
[ "$DEBIAN" = "$HOST_DEBIAN" ] || FLAGS+=(--scratch-path "$ROOT/.build/debian$DEBIAN")
if [ "$ARCH" != "$NATIVE" ]; then
  # An installed SDK names its triple's CPU in its id (swift-sdk-generator: …_debian_bookworm_aarch64).
  cpu=${TRIPLE%%-*}
  sdk=$(swift sdk list 2>/dev/null | grep -E "(^|[_-])${cpu}([_-]|$)" | head -1 || true)
  if [ -n "$sdk" ]; then
    say "cross-compiling for $TRIPLE with the installed Swift SDK $sdk"
    FLAGS+=(--swift-sdk "$sdk")
  elif [ "$ARCH" = arm64 ] && [ "$DEBIAN" = 13 ]; then
    # The project's own: Debian 13's Swift 6.0.3 and its arm64 libraries (tools/arm64).
    say "cross-compiling for $TRIPLE in the arm64 build root (Debian 13's Swift 6.0.3)"
    IN_RELEASE=("$ROOT/tools/debian-root/run.sh" trixie-arm64 env PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
    FLAGS=(-c release --static-swift-stdlib "${HARDENING[@]}" --swift-sdks-path /opt/swift-sdks --swift-sdk debian13-arm64
           --scratch-path "$ROOT/.build/debian13-arm64")
  else
    say "no Swift SDK for $TRIPLE is installed ($(swift sdk list 2>&1 | head -1))."
    [ "$ARCH" = arm64 ] && say "For Debian 13 (Raspberry Pi OS trixie) this script makes one itself: --arch arm64 --debian 13."
    say "Install one for Debian $DEBIAN ($ARCH) that also carries the C libraries Delaybox links:"
    say "  swift-sdk-generator make-linux-sdk --target $TRIPLE --distribution-name debian \\"
    say "      --distribution-version $DEBIAN (from github.com/swiftlang/swift-sdk-generator),"
    say "  with libgnutls28-dev zlib1g-dev libasound2-dev"
    say "  libgpiod-dev libyaml-dev libmosquitto-dev for $ARCH added to its sysroot, then: swift sdk install BUNDLE"
    say "Or build natively on a $ARCH board (or a $ARCH Debian VM): deploy/build-release.sh"
    exit 3
  fi
fi

# The box's own FFmpeg for this release and CPU (tools/ffmpeg/build.sh), linked statically.
FFMPEG=$("$ROOT/tools/ffmpeg/build.sh" "$(suite "$DEBIAN")" "$ARCH")
IN_RELEASE+=(env PKG_CONFIG_PATH="$FFMPEG")

cd "$ROOT"
for product in "${PRODUCTS[@]}"; do
  say "building $product ($ARCH, Debian $DEBIAN, release, static Swift runtime)"
  "${IN_RELEASE[@]}" swift build "${FLAGS[@]}" --product "$product" >&2
done
"${IN_RELEASE[@]}" swift build "${FLAGS[@]}" --show-bin-path
