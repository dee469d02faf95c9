#!/usr/bin/env bash
# Packages Delaybox as a Debian package for a board (docs/deploy.md):
#
#   deploy/make-deb.sh [--arch amd64|arm64|armhf] [--debian 12|13] [--out DIR] [--bin DIR]
#
# Builds the release (deploy/build-release.sh: static Swift runtime, cross-compiled for
# another architecture, in its build root for another Debian release) unless --bin names
# a directory that already holds delaybox and delayboxctl, and writes
# DIR/delaybox_VERSION_ARCH.deb (default DIR: out/deb). With RELEASE_URL and RELEASE_KEY
# in the environment (make release), the package also ships the apt source of the
# repository it is published in (/etc/apt/sources.list.d/delaybox.sources, a conffile the
# same as the repository's SUITE.sources), so a box keeps following it. Prints the package's path on
# stdout. A package is for one Debian release (the libraries' sonames differ: libgpiod.so.2
# or .3, libgnutls30 or 30t64); the version is the program's, then the commit's time and
# hash, then the release (0.1.0+git20261123.021500.b91fa69~deb13), so each commit upgrades
# the one before and a board upgraded from Debian 12 to 13 takes the 13 package.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "make-deb: $*" >&2; }

. "$ROOT/deploy/debian-release.sh"
ARCH=$(dpkg --print-architecture)
DEBIAN=""
OUT="$ROOT/out/deb"
BIN=""
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) ARCH=${2:?--arch needs a value}; shift 2 ;;
    --debian) DEBIAN=${2:?--debian needs 12 or 13}; suite "$DEBIAN" >/dev/null || exit 2; shift 2 ;;
    --out) OUT=${2:?--out needs a directory}; shift 2 ;;
    --bin) BIN=${2:?--bin needs a directory}; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) say "unknown option $1 (see --help)"; exit 2 ;;
  esac
done
# This machine's release by default; for another CPU, Debian 13: its Swift (6.0.3) is the
# one Debian packages for arm64 (tools/arm64).
[ -n "$DEBIAN" ] || DEBIAN=$([ "$ARCH" = "$(dpkg --print-architecture)" ] && echo "$HOST_DEBIAN" || echo 13)
[ -n "$BIN" ] || BIN=$("$ROOT/deploy/build-release.sh" --arch "$ARCH" --debian "$DEBIAN")
in_release "$DEBIAN"
# How this machine runs the programs (for the manual page): natively, in the release's
# build root, or an arm64 build under emulation (tools/arm64-run).
RUN=("${IN_RELEASE[@]}")
if [ "$ARCH" != "$(dpkg --print-architecture)" ]; then RUN=(false); fi
if [ "$ARCH" = arm64 ] && command -v qemu-aarch64-static >/dev/null; then RUN=("$ROOT/tools/arm64-run"); fi
for program in delaybox delayboxctl; do
  [ -x "$BIN/$program" ] || { say "no $BIN/$program"; exit 1; }
done

base=$(sed -n 's/.*static let source = "\(.*\)".*/\1/p' "$ROOT/Sources/DelayboxApp/DelayboxVersion.swift")
VERSION="$base"
if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
  VERSION="$base+git$(TZ=UTC git -C "$ROOT" log -1 --date=format-local:%Y%m%d.%H%M%S --format=%cd).$(git -C "$ROOT" rev-parse --short=7 HEAD)"
  git -C "$ROOT" diff --quiet HEAD -- Sources Package.swift deploy board-configs || VERSION="$VERSION.modified"
fi
VERSION="$VERSION~deb$DEBIAN"

# Under the project, so that the release's build root sees it at the same path.
mkdir -p "$ROOT/.build"
STAGE=$(mktemp -d "$ROOT/.build/make-deb.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT
P="$STAGE/pkg"
install -d "$P/DEBIAN" "$P/usr/bin" "$P/lib/systemd/system" "$P/lib/udev/rules.d" "$P/etc/delaybox" \
  "$P/usr/share/delaybox/board-configs/remotes" "$P/usr/share/delaybox/rc_keymaps" "$P/usr/share/doc/delaybox" "$P/usr/share/man/man1"

# The program, without its symbols (16 MB instead of 83). delayboxctl is a link to it:
# called by that name, delaybox is delayboxctl (a multi-call program, as busybox), so the
# board holds one static Swift runtime, not two (14 MB each).
STRIP=strip
if [ "$ARCH" != "$(dpkg --print-architecture)" ]; then STRIP=$(command -v llvm-strip || command -v /opt/swift/usr/bin/llvm-strip || echo true); fi
install -m 755 "$BIN/delaybox" "$P/usr/bin/delaybox"
"$STRIP" "$P/usr/bin/delaybox"
ln -s delaybox "$P/usr/bin/delayboxctl"
install -m 644 "$ROOT/deploy/delaybox.service" "$ROOT/deploy/delaybox.socket" "$ROOT/deploy/delaybox-update.path" \
  "$ROOT/deploy/delaybox-update.service" "$ROOT/deploy/delaybox-board.path" "$ROOT/deploy/delaybox-board.service" "$ROOT/deploy/delaybox-autoupdate.timer" \
  "$ROOT/deploy/delaybox-wifi.path" "$ROOT/deploy/delaybox-wifi.service" \
  "$ROOT/deploy/delaybox-venue.path" "$ROOT/deploy/delaybox-venue.service" \
  "$ROOT/deploy/delaybox-autoupdate.service" "$P/lib/systemd/system/"
# Found as NAME.local's web page (avahi-daemon, on Raspberry Pi OS), and Wi-Fi that does not
# doze (NetworkManager manages Raspberry Pi OS's Wi-Fi): docs/web.md.
install -d "$P/etc/avahi/services" "$P/etc/NetworkManager/conf.d" "$P/etc/apt/apt.conf.d" "$P/usr/lib/delaybox"
# An upgrade that heals itself: apt's hook checks a new release and rolls a failed one back.
install -m 755 "$ROOT/deploy/debian/release-check" "$P/usr/lib/delaybox/release-check"
install -m 755 "$ROOT/deploy/debian/load-keymap" "$P/usr/lib/delaybox/load-keymap"
# The package's version, which the installed program reports (`version`, MQTT): what apt
# knows it by, so that a group's boxes can ask apt for the release their canary plays.
printf '%s\n' "$VERSION" > "$P/usr/share/delaybox/version"
# The FFmpeg source the program links (the copyright file's FFmpeg stanza points here).
FFMPEG_SOURCE="$ROOT/.build/ffmpeg/$(suite "$DEBIAN")-$ARCH/source-version"
[ -r "$FFMPEG_SOURCE" ] || { say "no $FFMPEG_SOURCE: the box's FFmpeg for Debian $DEBIAN $ARCH was not built (tools/ffmpeg/build.sh)"; exit 1; }
printf 'ffmpeg %s, from Debian %s (%s): apt-get source ffmpeg=%s\n' "$(cat "$FFMPEG_SOURCE")" "$DEBIAN" "$(suite "$DEBIAN")" \
  "$(cat "$FFMPEG_SOURCE")" > "$P/usr/share/doc/delaybox/FFMPEG-SOURCE"
# lintian's one override: the FFmpeg linked in on purpose (the file says why).
install -d "$P/usr/share/lintian/overrides"
install -m 644 "$ROOT/deploy/debian/lintian-overrides" "$P/usr/share/lintian/overrides/delaybox"
install -m 644 "$ROOT/deploy/debian/80delaybox-heal" "$P/etc/apt/apt.conf.d/80delaybox-heal"
install -m 644 "$ROOT/deploy/debian/delaybox.avahi-service" "$P/etc/avahi/services/delaybox.service"
install -m 644 "$ROOT/deploy/debian/delaybox-wifi-powersave.conf" "$P/etc/NetworkManager/conf.d/delaybox-wifi-powersave.conf"
install -m 644 "$ROOT/deploy/debian/60-delaybox-gpio.rules" "$ROOT/deploy/debian/70-delaybox-ir.rules" "$P/lib/udev/rules.d/"
install -m 644 "$ROOT/deploy/debian/delaybox.conf" "$P/etc/delaybox/delaybox.conf"
install -m 644 "$ROOT"/board-configs/*.yaml "$P/usr/share/delaybox/board-configs/"
install -m 644 "$ROOT"/board-configs/remotes/*.yaml "$P/usr/share/delaybox/board-configs/remotes/"
install -m 644 "$ROOT"/deploy/rc_keymaps/*.toml "$P/usr/share/delaybox/rc_keymaps/"
install -m 644 "$ROOT/README.md" "$ROOT"/docs/*.md "$ROOT/deploy/debian/copyright" "$P/usr/share/doc/delaybox/"
# The changelog a Debian tool looks for (a native package's: changelog.gz): this build's
# entry, from the commit it was built from.
{
  printf 'delaybox (%s) unstable; urgency=medium\n\n' "$VERSION"
  printf '  * %s\n' "$(git -C "$ROOT" log -1 --format='Built from commit %h: %s' 2>/dev/null | cut -c1-70 || echo 'Built outside git')"
  printf '\n -- Delaybox maintainers <maintainers@delaybox.invalid>  %s\n' \
    "$(LC_ALL=C git -C "$ROOT" log -1 --date=rfc2822 --format=%cd 2>/dev/null || LC_ALL=C date -R)"
} | gzip -9n > "$P/usr/share/doc/delaybox/changelog.gz"
for script in postinst prerm postrm; do install -m 755 "$ROOT/deploy/debian/$script" "$P/DEBIAN/"; done
printf '%s\n' /etc/delaybox/delaybox.conf /etc/avahi/services/delaybox.service \
  /etc/NetworkManager/conf.d/delaybox-wifi-powersave.conf /etc/apt/apt.conf.d/80delaybox-heal > "$P/DEBIAN/conffiles"
if [ -n "${RELEASE_URL:-}" ]; then
  install -d "$P/etc/apt/sources.list.d"
  "$ROOT/deploy/make-repo.sh" --sources "$(suite "$DEBIAN")" --key "${RELEASE_KEY:?RELEASE_URL needs RELEASE_KEY}" --url "$RELEASE_URL" \
    > "$P/etc/apt/sources.list.d/delaybox.sources"
  chmod 644 "$P/etc/apt/sources.list.d/delaybox.sources"
  echo /etc/apt/sources.list.d/delaybox.sources >> "$P/DEBIAN/conffiles"
fi

# The manual page, from the programs' own --help (when they run on this machine, in the
# release's build root).
if "${RUN[@]}" "$P/usr/bin/delaybox" --version >/dev/null 2>&1; then
  MANPAGE_RUN="${RUN[*]}" "$ROOT/deploy/manpage.sh" "$P/usr/bin/delaybox" "$VERSION" | gzip -9n > "$P/usr/share/man/man1/delaybox.1.gz"
  ln -s delaybox.1.gz "$P/usr/share/man/man1/delayboxctl.1.gz"  # one page has both programs
else
  say "the $ARCH programs do not run here: no manual page (delaybox --help on the board has it all)"
  rmdir "$P/usr/share/man/man1"
fi

# Depends: what the programs link, as dpkg-shlibdeps finds it in the release (its build
# root) for this machine's architecture, or in the arm64 build root (whose arm64 libraries
# dpkg knows) for arm64; Debian 12's package names for another one.
[ "$ARCH" = arm64 ] && [ "$DEBIAN" = 13 ] && IN_RELEASE=("$ROOT/tools/debian-root/run.sh" trixie-arm64)
if [ "$ARCH" = "$(dpkg --print-architecture)" ] || [ "$ARCH/$DEBIAN" = arm64/13 ]; then
  mkdir -p "$STAGE/debian"
  printf 'Source: delaybox\n\nPackage: delaybox\nArchitecture: any\n' > "$STAGE/debian/control"
  SHLIBS=$(cd "$STAGE" && "${IN_RELEASE[@]}" sh -c 'cd "$1" && dpkg-shlibdeps -O "-e$2"' - "$STAGE" "$P/usr/bin/delaybox" \
    2>/dev/null | sed -n 's/^shlibs:Depends=//p')
else
  SHLIBS="libasound2 (>= 1.2.8), libgnutls30 (>= 3.7.9), zlib1g (>= 1:1.2.0), libgpiod2 (>= 1.6), libyaml-0-2, libmosquitto1, libmicrohttpd12, libcrypt1, libc6 (>= 2.36), libgcc-s1, libstdc++6"
fi
SIZE=$(du -sk "$P" | cut -f1)
cat > "$P/DEBIAN/control" <<EOF
Package: delaybox
Version: $VERSION
Architecture: $ARCH
Maintainer: Delaybox maintainers <maintainers@delaybox.invalid>
Section: sound
Priority: optional
Installed-Size: $SIZE
Depends: $SHLIBS, passwd, systemd, init-system-helpers (>= 1.54~)
Recommends: espeak-ng, alsa-utils, libpwquality1, cracklib-runtime
Suggests: ir-keytable, network-manager, mosquitto, chrony
Description: live commentary delayed to match the TV picture
 Delaybox plays a live audio stream (a sports club's live commentary)
 delayed by a knob-set amount so that it matches the TV picture, with mute
 music and ads by the stream's state, GPIO buttons, a rotary encoder and
 an IR remote, ALSA output and a serial console.
EOF

mkdir -p "$OUT"
DEB="$OUT/delaybox_${VERSION}_${ARCH}.deb"
dpkg-deb --root-owner-group -Zxz -z6 --build "$P" "$DEB" >/dev/null
say "built $DEB ($(du -h "$DEB" | cut -f1))"
echo "$DEB"
