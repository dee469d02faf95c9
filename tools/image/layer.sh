#!/usr/bin/env bash
# The Delaybox layer of a card (issue 68), put onto a root file system FS (or a directory of
# files laid over one) before its last configuration: the first-boot service and script,
# the helpers Raspberry Pi Imager's firstrun.sh calls (put in their places by the configure
# step where the base has none of its own), the configure step (deploy/image/configure, run
# on the system itself), and — on a Debian base — the file system table, apt's sources and
# the boot firmware's settings a Raspberry Pi OS base has of its own.
#
#   tools/image/layer.sh FS debian|raspios
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FS=$1 BASE=$2
L="$ROOT/deploy/image"
install -D -m 755 "$L/delaybox-firstboot" "$FS/usr/lib/delaybox-image/delaybox-firstboot"
install -D -m 755 "$L/configure" "$FS/usr/lib/delaybox-image/configure"
install -D -m 644 "$L/delaybox-firstboot.service" "$FS/etc/systemd/system/delaybox-firstboot.service"
install -D -m 755 "$L/imager_custom" "$FS/usr/lib/delaybox-image/imager_custom"
install -D -m 755 "$L/userconf" "$FS/usr/lib/delaybox-image/userconf"
echo delaybox > "$FS/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\tdelaybox\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' > "$FS/etc/hosts"
case "$BASE" in
  debian)
    mkdir -p "$FS/etc/default" "$FS/etc/apt/sources.list.d"
    printf '%s\n' 'LABEL=RASPIROOT / ext4 rw,noatime,errors=remount-ro 0 1' \
      'LABEL=RASPIFIRM /boot/firmware vfat rw,noatime,umask=0077 0 2' > "$FS/etc/fstab"
    rm -f "$FS/etc/apt/sources.list"
    printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' 'Suites: trixie trixie-updates' \
      'Components: main non-free-firmware' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' '' \
      'Types: deb' 'URIs: http://deb.debian.org/debian-security' 'Suites: trixie-security' \
      'Components: main non-free-firmware' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
      > "$FS/etc/apt/sources.list.d/debian.sources"
    # config.txt is raspi-firmware's, made again at each kernel update: these lines go in
    # it every time. The Pi's own audio (headphone jack, HDMI) is off unless asked for.
    printf '%s\n' 'dtparam=audio=on' > "$FS/etc/default/raspi-firmware-custom"
    # What the card leaves out, kept out by kernel updates too.
    install -D -m 644 "$L/dpkg-excludes" "$FS/etc/dpkg/dpkg.cfg.d/delaybox-image-excludes" ;;
  raspios) ;;
  *) echo "layer.sh: the base is debian or raspios, not $BASE" >&2; exit 2 ;;
esac
