#!/usr/bin/env bash
# The box's own FFmpeg (docs/security.md, "The box's own FFmpeg"): Debian's ffmpeg source
# package of one release — the newest its archive has, security updates included —
# configured LGPL-only with --disable-everything and the list in tools/ffmpeg/components,
# built static (position-independent: it is linked into delaybox) with the release's own
# compiler and GnuTLS, in its build root (tools/debian-root; arm64 with the arm64 root's
# cross compiler). Prints the directory of the pkg-config file `delaybox-ffmpeg.pc` that
# Package.swift's CFFmpeg links through:
#
#   tools/ffmpeg/build.sh SUITE ARCH        # bookworm or trixie; amd64 or arm64 (trixie)
#
# Kept in .build/ffmpeg/SUITE-ARCH, stamped with the source's version and this list: a
# later run asks the archive (a second) and rebuilds only when either changed (about a
# minute on two cores) and another clone on this machine has not built the same
# (tools/cache.sh). Offline, the last build is used, with a warning.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tools/cache.sh"
SUITE=${1:?usage: tools/ffmpeg/build.sh SUITE ARCH}
ARCH=${2:?usage: tools/ffmpeg/build.sh SUITE ARCH}
say() { echo "ffmpeg: $*" >&2; }
. "$ROOT/tools/ffmpeg/archive.sh"
PREFIX="$FFMPEG_BASE/$SUITE-$ARCH"
HOST_SUITE=$(. /etc/os-release && echo "$VERSION_CODENAME")
HOST_ARCH=$(dpkg --print-architecture)

# Where it is built: natively for this machine's release and CPU, else in a build root.
IN_ROOT=()
CROSS=()
if [ "$ARCH" = "$HOST_ARCH" ]; then
  [ "$SUITE" = "$HOST_SUITE" ] || IN_ROOT=("$ROOT/tools/debian-root/run.sh" "$SUITE")
elif [ "$ARCH/$SUITE" = arm64/trixie ]; then
  IN_ROOT=("$ROOT/tools/debian-root/run.sh" trixie-arm64 env PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
  CROSS=(--enable-cross-compile --arch=aarch64 --target-os=linux --cross-prefix=aarch64-linux-gnu- --cc=aarch64-linux-gnu-gcc-14)
else
  say "no build for $ARCH on $SUITE (amd64 on either release, arm64 on trixie)"; exit 2
fi

stamp_of() { echo "$1 $(cat "$ROOT/tools/ffmpeg/components" "$0" | sha256sum | cut -c1-16)"; }
if ! archive_update "$SUITE"; then
  [ -e "$PREFIX/.done" ] || { say "Debian's archive cannot be reached and no FFmpeg was built for $SUITE $ARCH"; exit 1; }
  say "warning: Debian's archive cannot be reached: the FFmpeg built before ($(cat "$PREFIX/.done")), perhaps not the newest"
  echo "$PREFIX/lib/pkgconfig"; exit 0
fi
VERSION=$(archive_version "$SUITE")
[ -n "$VERSION" ] || { say "Debian's $SUITE archive lists no ffmpeg source"; exit 1; }
STAMP=$(stamp_of "$VERSION")
if [ "$(cat "$PREFIX/.done" 2>/dev/null)" = "$STAMP" ]; then echo "$PREFIX/lib/pkgconfig"; exit 0; fi
if cache_use "$PREFIX" "ffmpeg-$SUITE-$ARCH" "$STAMP"; then echo "$PREFIX/lib/pkgconfig"; exit 0; fi
# Where the build will stay, which its pkg-config file names: the cache's entry, or here.
KEPT=$PREFIX
[ -z "$CACHE" ] || KEPT=$(cache_entry "ffmpeg-$SUITE-$ARCH" "$STAMP")

SOURCE="$FFMPEG_BASE/src/ffmpeg-${VERSION#*:}"
if [ ! -e "$SOURCE/.done" ]; then
  say "Debian's ffmpeg $VERSION source ($SUITE)"
  archive_source "$SUITE" "$VERSION" "$SOURCE"
  touch "$SOURCE/.done"
fi

CONFIG=(--prefix="$PREFIX.new" --enable-static --disable-shared --enable-pic --disable-programs --disable-doc
        --disable-debug --disable-everything --disable-autodetect --disable-avdevice --disable-avfilter
        --disable-swscale --disable-postproc --enable-network --enable-gnutls --enable-zlib
        --extra-version="${VERSION#*-}" "${CROSS[@]}" --pkg-config=pkg-config
        # Hardened as Debian builds its own (dpkg-buildflags): stack protector, clash
        # protection, fortified libc calls — this code parses strangers' bytes.
        --extra-cflags="-fstack-protector-strong -fstack-clash-protection -D_FORTIFY_SOURCE=2")
while read -r kind names; do
  case "$kind" in ''|'#'*) continue ;; esac
  for name in $names; do CONFIG+=("--enable-$kind=$name"); done
done < "$ROOT/tools/ffmpeg/components"

BUILD="$FFMPEG_BASE/build/$SUITE-$ARCH"
rm -rf "$BUILD" "$PREFIX.new"
mkdir -p "$BUILD"
say "building ffmpeg $VERSION for $SUITE $ARCH (log: $BUILD.log)"
# The C libraries' flags, as the binaries that link this FFmpeg need them (FFmpeg's own .pc
# files, static, list them under Libs), in one pkg-config file.
"${IN_ROOT[@]}" bash -c '
  set -e
  cd "$1" && shift
  prefix=$1 && shift
  "$@"
  make -j"$(nproc)"
  make install
  flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --libs libavformat libavcodec libswresample libavutil)
  echo "$flags" > "$prefix/lib/pkgconfig/libs.txt"
' build "$BUILD" "$PREFIX.new" "$SOURCE/configure" "${CONFIG[@]}" > "$BUILD.log" 2>&1 \
  || { tail -30 "$BUILD.log" >&2; say "the build failed (above; all of it in $BUILD.log)"; exit 1; }

# SwiftPM links with what a pkg-config file's Libs say, without --static, and takes only
# -L and -l: -pthread becomes -lpthread, and the final prefix replaces the build's.
# FFmpeg's archives get names of their own (libdelaybox_avformat.a …): another package's
# pkg-config file may put the system's library directory first, where Debian's
# libavformat-dev has its libavformat.so and .a, and -lavformat would take those. GCC
# inlines the atomics FFmpeg uses on both CPUs: no libatomic (one package fewer on a board).
libs=""
for flag in $(cat "$PREFIX.new/lib/pkgconfig/libs.txt"); do
  case "$flag" in
    -L*|-latomic) ;;
    -pthread) libs+=" -lpthread" ;;
    -lavformat|-lavcodec|-lswresample|-lavutil)
      mv "$PREFIX.new/lib/lib${flag#-l}.a" "$PREFIX.new/lib/libdelaybox_${flag#-l}.a"
      libs+=" -ldelaybox_${flag#-l}" ;;
    -l*) case " $libs " in *" $flag "*) ;; *) libs+=" $flag" ;; esac ;;
  esac
done
# Only the box's own pkg-config file: FFmpeg's would name the archives by their old names.
rm -f "$PREFIX.new"/lib/pkgconfig/lib*.pc "$PREFIX.new/lib/pkgconfig/libs.txt"
# The headers and archives live in a directory named for this build, which the pkg-config
# file names: SwiftPM does not look at a library's archive to decide whether to link
# again, but a changed -I and -L recompile what imports CFFmpeg and link the programs
# anew — a release made after a security update carries the new FFmpeg.
TAG="build-$(echo "$STAMP" | sha256sum | cut -c1-12)"
mkdir -p "$PREFIX.new/$TAG/lib"
mv "$PREFIX.new/include" "$PREFIX.new/$TAG/include"
mv "$PREFIX.new"/lib/*.a "$PREFIX.new/$TAG/lib/"
rm -rf "$PREFIX"
mv "$PREFIX.new" "$PREFIX"
cat > "$PREFIX/lib/pkgconfig/delaybox-ffmpeg.pc" <<EOF
prefix=$KEPT/$TAG
Name: delaybox-ffmpeg
Description: the box's own FFmpeg: Debian's $VERSION source for $SUITE $ARCH, static, tools/ffmpeg/components
Version: ${VERSION#*:}
Cflags: -I\${prefix}/include
Libs: -L\${prefix}/lib$libs
EOF
printf '%s\n' "$VERSION" > "$PREFIX/source-version"
rm -rf "$BUILD"
echo "$STAMP" > "$PREFIX/.done"
say "ready: $PREFIX ($VERSION; $(du -sh "$PREFIX/$TAG/lib" | cut -f1) of static libraries)"
cache_keep "$PREFIX" "ffmpeg-$SUITE-$ARCH" "$STAMP"
echo "$PREFIX/lib/pkgconfig"
