#!/usr/bin/env bash
# Prepares a Debian 12 host to build, run and test Delaybox: checks the Swift toolchain
# and installs the Debian packages the build and the tests need (only those missing).
# Later features add their packages to PACKAGES below. With --bench, also the benchmark's
# peers.
set -euo pipefail

# What a release needs (`make release`, `--release`: a club's machine builds and signs
# the boxes' packages without the test kit). The playback engine itself needs no C library.
BUILD_PACKAGES=(
  libc6-dev libstdc++-12-dev libgcc-12-dev libcurl4 libxml2 libedit2 libsqlite3-0 libncurses6 tzdata   # what Swift's own tools link and build with (swift.org's list for Debian 12): a machine where Swift was only unpacked
  ca-certificates   # the package manager fetches Swift dependencies over https
  git               # ... through git
  pkg-config        # finds the box's FFmpeg for the CFFmpeg module
  nasm libgnutls28-dev zlib1g-dev debian-archive-keyring   # the box's own FFmpeg (tools/ffmpeg/build.sh): its x86 assembly, TLS, zlib; Debian's source checked
  gcc make          # ... compiled
  libgpiod-dev      # buttons, encoder and LEDs (libgpiod 1.6)
  libyaml-dev       # the board configs' YAML parser
  libasound2-dev    # the audio output (alsa-lib 1.2)
  libmosquitto-dev  # MQTT (libmosquitto 2.0)
  libmicrohttpd-dev libcrypt-dev   # the web page: its HTTP server, its password's yescrypt hash
  debootstrap       # the Debian 13 and arm64 build roots (tools/debian-root, tools/arm64)
  qemu-user-static  # tools/arm64-run: the arm64 build's programs run under emulation
  dpkg-dev binutils xz-utils   # deploy/make-deb.sh: dpkg-shlibdeps, strip, the package's compression
  reprepro gnupg    # deploy/make-repo.sh: the signed apt repository
)
# What `make image` adds (`--image`): the card's FAT boot partition and partition table, its
# packages configured on an emulated arm64 board (a busybox initramfs), the deleted packages'
# blocks zeroed.
IMAGE_PACKAGES=(dosfstools mtools fdisk qemu-system-arm cpio kmod e2fsprogs zerofree)
# What the tests add: real servers, the virtual boards, a browser, the linters.
TEST_PACKAGES=(
  ffmpeg            # tests encode real MP3, Ogg/Opus and AAC, and feed a live Icecast source
  icecast2          # the stream tests run a real server on loopback
  curl              # ... and talk to its admin API (tools/delaybox-broadcast)
  python3           # http.server serves deliberately broken streams to the tests
  openssl           # a self-signed certificate for the https certificate-failure test
  systemd           # systemd-analyze verifies the unit file and rates its exposure
  alsa-utils        # aplay/amixer, for an installer checking a board's card by hand
  espeak-ng         # the delay read out aloud after the knob rests (tones when missing)
  qemu-system-x86   # the virtual board: QEMU (its initramfs and gpio-sim module: cpio, kmod, the image's); the arm64 board's, qemu-system-arm, the image's too
  openssh-client    # ... its Debian root filesystem (e2fsprogs: the image's), reached over SSH by deploy/install.sh
  lintian           # the packages are checked lintian-clean
  ir-keytable v4l-utils   # the virtual board's IR remote: the shipped keymap loaded, NEC codes sent (ir-ctl)
  mosquitto mosquitto-clients   # the MQTT tests run a real broker on loopback and talk to it as the outside world
  chrony            # a venue's time: the tests run a chrony pair on loopback (chronyd -x: this machine's clock untouched)
  avahi-daemon      # a venue's hubs heard on the LAN: the tests run avahi-daemon (no D-Bus) with a hub's announcement
  libpwquality1 cracklib-runtime   # the web password checked against cracklib's dictionary (opened at run time)
  chromium python3-venv   # the page's browser tests: Debian's chromium driven by Playwright (PyPI), no browser download
  procps            # ps, pgrep: make test's background builds are found, demoted and ended by them
  nodejs            # the page's script checked (node --check: tools/web-page.py)
)
# What `make check` needs beside Swift: the pure modules' one C library, libyaml, and node.
CHECK_PACKAGES=(libyaml-dev pkg-config nodejs)   # (nodejs: the page's script checked, tools/web-page.py)
# `--release`: the build's alone (no browser, QEMU system, servers or Playwright). `--image`:
# the build's and the image's (`make image`).
# `--check`: make check's alone (no FFmpeg built either).
# `--bench`: also the peers `make bench` measures Delaybox against. `--list`: the packages
# that would be asked for, one a line, and nothing installed.
RELEASE_ONLY=false LIST_ONLY=false CHECK_ONLY=false
PACKAGES=("${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}" "${IMAGE_PACKAGES[@]}")
for argument in "$@"; do
  case "$argument" in
    --release) RELEASE_ONLY=true PACKAGES=("${BUILD_PACKAGES[@]}") ;;
    --image) RELEASE_ONLY=true PACKAGES=("${BUILD_PACKAGES[@]}" "${IMAGE_PACKAGES[@]}") ;;
    --check) CHECK_ONLY=true PACKAGES=("${CHECK_PACKAGES[@]}") ;;
    --bench) PACKAGES+=(mpv) ;;
    --list) LIST_ONLY=true ;;
    *) echo "usage: setup-host.sh [--release | --image | --check | --bench] [--list]" >&2; exit 2 ;;
  esac
done
if $LIST_ONLY; then printf '%s\n' "${PACKAGES[@]}"; exit 0; fi

if ! command -v swift >/dev/null 2>&1 && [ ! -x /opt/swift/usr/bin/swift ]; then
  echo "setup-host: no Swift toolchain found (expected 'swift' on PATH or /opt/swift)." >&2
  echo "setup-host: install Swift 6.x for Debian 12 from swift.org and retry." >&2
  exit 1
fi

missing=()
for package in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup-host: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

$CHECK_ONLY && exit 0

# The page's browser tests (Tests/DelayboxCLITests/WebPageBrowserTests.swift): Playwright for
# Python in a virtual environment of the package's own, driving Debian's chromium.
VENV="$(cd "$(dirname "$0")/.." && pwd)/.build/browser-venv"
if ! $RELEASE_ONLY && ! "$VENV/bin/python" -c "import playwright" 2>/dev/null; then
  echo "setup-host: Playwright for the browser tests into $VENV"
  rm -rf "$VENV"
  /usr/bin/python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check playwright==1.65.2
fi

# The box's own FFmpeg for this machine (tools/ffmpeg/build.sh): the Makefile's PKG_CONFIG_PATH.
"$(cd "$(dirname "$0")/.." && pwd)/tools/ffmpeg/build.sh" "$(. /etc/os-release && echo "$VERSION_CODENAME")" "$(dpkg --print-architecture)" > /dev/null
