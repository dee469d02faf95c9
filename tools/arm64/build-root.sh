#!/usr/bin/env bash
# The arm64 cross build root (docs/deploy.md): Debian 13 amd64 with Debian's own Swift 6.0.3
# (swiftlang, the compiler the boards' release packages), the arm64 libraries Delaybox links
# installed beside the amd64 ones (Debian's multiarch: /usr/lib/aarch64-linux-gnu), the
# arm64 Swift runtime (lib/swift and lib/swift_static from the arm64 swiftlang package) in
# /opt/swift-arm64, and a Swift SDK bundle describing them in /opt/swift-sdks — so that
# `swift build --swift-sdk debian13-arm64 --static-swift-stdlib` cross-compiles there, and
# dpkg-shlibdeps finds the arm64 libraries' packages for the .deb's Depends.
#
#   tools/arm64/build-root.sh        # .build/roots/trixie-arm64; once, ~5 minutes, ~1 GB
#
# Everything comes from Debian's archive, checked by apt against its keyring; the host's
# apt sources are not touched. Run commands in it with tools/debian-root/run.sh trixie-arm64.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tools/cache.sh"
DIR="$ROOT/.build/roots/trixie-arm64"
say() { echo "arm64-root: $*" >&2; }

INCLUDE=swiftlang,libc6-dev,pkgconf,binutils,git,ca-certificates,dpkg-dev,xz-utils,file
# The arm64 virtual board's kernel module (gpio-sim) and initramfs (tools/virtual-board/build.sh),
# and the box's own FFmpeg (tools/ffmpeg/build.sh).
INCLUDE+=,gcc-14-aarch64-linux-gnu,make,cpio,kmod
# GnuTLS and zlib: what the box's own FFmpeg links (tools/ffmpeg/build.sh builds it here with
# the cross compiler above).
ARM64=(libc6-dev libgcc-14-dev libstdc++-14-dev zlib1g-dev libgnutls28-dev libasound2-dev libgpiod-dev libyaml-dev
       libmosquitto-dev libmicrohttpd-dev libcrypt-dev)
# Made again when these lists or this script change; a first run in another clone on this
# machine takes it made (tools/cache.sh).
STAMP="$INCLUDE ${ARM64[*]} $(sha256sum < "$0" | cut -c1-16)"
[ "$(cat "$DIR/.done" 2>/dev/null)" = "$STAMP" ] && exit 0
cache_use "$DIR" root-trixie-arm64 "$STAMP" && { say "ready: $DIR (made before on this machine)"; exit 0; }
[ "$(id -u)" -eq 0 ] || { say "debootstrap needs root"; exit 1; }
rm -rf "$DIR"
mkdir -p "$DIR"
say "debootstrap trixie with swiftlang into $DIR"
debootstrap --variant=minbase --include="$INCLUDE" trixie "$DIR" http://deb.debian.org/debian > "$DIR.log" 2>&1 \
  || { tail -20 "$DIR.log" >&2; exit 1; }
in_root() { unshare --mount --propagation private sh -c 'mount -t proc proc "$0/proc" && exec chroot "$0" "$@"' "$DIR" "$@"; }
say "arm64 libraries (multiarch)"
in_root dpkg --add-architecture arm64
in_root apt-get update -qq >> "$DIR.log" 2>&1
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${ARM64[@]/%/:arm64}" >> "$DIR.log" 2>&1 \
  || { tail -20 "$DIR.log" >&2; exit 1; }
say "the arm64 Swift runtime"
in_root sh -c 'cd /tmp && apt-get download -qq swiftlang:arm64 libswiftlang:arm64' >> "$DIR.log" 2>&1
mkdir -p "$DIR/opt/swift-arm64"
for deb in "$DIR"/tmp/swiftlang_*_arm64.deb "$DIR"/tmp/libswiftlang_*_arm64.deb; do
  dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$DIR/opt/swift-arm64" --wildcards \
    './usr/libexec/swift/lib/swift/*' './usr/libexec/swift/lib/swift_static/*' './usr/libexec/swift/lib/clang/*' 2>/dev/null || true
done
rm -f "$DIR"/tmp/*.deb "$DIR"/var/cache/apt/archives/*.deb
[ -d "$DIR/opt/swift-arm64/usr/libexec/swift/lib/swift_static/linux" ] || { say "no arm64 static Swift runtime in swiftlang:arm64"; exit 1; }

# The SDK: this root's own /usr is the sysroot (its multiarch arm64 libraries) — seen
# through /opt/sysroot-arm64, so that the project's modules (elsewhere under /) do not
# count as the SDK's —, the arm64 Swift runtime beside it, Debian's compiler and lld (the
# host's bfd linker knows no aarch64).
mkdir -p "$DIR/opt/sysroot-arm64"
ln -sfn /usr "$DIR/opt/sysroot-arm64/usr"
ln -sfn usr/lib "$DIR/opt/sysroot-arm64/lib"
B="$DIR/opt/swift-sdks/debian13-arm64.artifactbundle"
mkdir -p "$B/debian13-arm64"
cat > "$B/info.json" <<'JSON'
{"schemaVersion": "1.0", "artifacts": {"debian13-arm64": {"type": "swiftSDK", "version": "6.0.3",
  "variants": [{"path": "debian13-arm64"}]}}}
JSON
cat > "$B/debian13-arm64/swift-sdk.json" <<'JSON'
{"schemaVersion": "4.0", "targetTriples": {"aarch64-unknown-linux-gnu": {
  "sdkRootPath": "/opt/sysroot-arm64",
  "swiftResourcesPath": "/opt/swift-arm64/usr/libexec/swift/lib/swift",
  "swiftStaticResourcesPath": "/opt/swift-arm64/usr/libexec/swift/lib/swift_static",
  "toolsetPaths": ["toolset.json"]}}}
JSON
cat > "$B/debian13-arm64/toolset.json" <<'JSON'
{"schemaVersion": "1.0", "rootPath": "/usr/libexec/swift/bin", "swiftCompiler": {"extraCLIOptions": ["-use-ld=lld"]}}
JSON
echo "$STAMP" > "$DIR/.done"
say "ready: $DIR ($(du -sh "$DIR" | cut -f1))"
cache_keep "$DIR" root-trixie-arm64 "$STAMP"
