#!/usr/bin/env bash
# Builds the virtual board's root filesystem for the deploy tests (docs/hardware.md): a
# Debian 12 or 13 for x86 or arm64 (BOARD_DEBIAN, BOARD_ARCH: tools/virtual-board/release.sh)
# installed with debootstrap — systemd, udev, an SSH server, the libraries a
# Delaybox package depends on — with the virtual board's kernel modules (snd-aloop,
# gpio-sim, virtio networking) and a gpio-sim chip set up at boot like a board's panel.
# tools/virtual-board/boot.sh boots it; deploy/install.sh reaches it over SSH; the arm64
# board's scenarios run on it too (run.sh).
#
#   [BOARD_DEBIAN=12|13] [BOARD_ARCH=amd64|arm64] tools/virtual-board/build-rootfs.sh
#
# Writes the board's directory's rootfs.img (ext4, 2 GB sparse) and the SSH key that
# logs in as root (.build/virtual-board/key/id_ed25519). Needs tools/virtual-board/build.sh first.
# The first build downloads ~120 MB of packages and takes a few minutes (arm64: ~150 MB,
# and its packages are configured on the emulated board); later runs reuse it.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tools/virtual-board/release.sh"
. "$ROOT/tools/virtual-board/board-cache.sh"
OUT=$BOARD
FS="$OUT/debian"
IMAGE="$OUT/rootfs.img"
say() { echo "build-rootfs: $*" >&2; }

board_cached && { say "ready: $IMAGE (made before on this machine)"; exit 0; }
[ -f "$OUT/vmlinuz" ] || { say "no virtual board kernel: run tools/virtual-board/build.sh first"; exit 1; }
NATIVE=false
[ "$ARCH" = "$(dpkg --print-architecture)" ] && NATIVE=true
TOOLS=(debootstrap mkfs.ext4 ssh-keygen)
$NATIVE || TOOLS+=(qemu-system-aarch64 debugfs e2fsck)
for tool in "${TOOLS[@]}"; do
  command -v "$tool" >/dev/null || { say "missing $tool: run deploy/setup-host.sh"; exit 1; }
done
[ "$(id -u)" -eq 0 ] || { say "debootstrap needs root"; exit 1; }
KREL=$(cat "$OUT/rootfs/etc/kernel-release")
X="$OUT/unpacked"

# What a board running Delaybox has: an init, udev for /dev, SSH, and the package's
# dependencies (ALSA, libgpiod, GnuTLS, libyaml, libmosquitto, libmicrohttpd; FFmpeg is the
# package's own) — no network at test time, so they are here before.
INCLUDE=systemd,systemd-sysv,udev,dbus,openssh-server,kmod,procps,libyaml-0-2,libmosquitto1
case "$DEBIAN" in
  12) INCLUDE+=,libasound2,libgpiod2,libgnutls30,libmicrohttpd12 ;;
  13) INCLUDE+=,libasound2t64,libgpiod3,libgnutls30t64,libmicrohttpd12t64 ;;
esac
# The arm64 board's scenarios run on this root filesystem (run.sh): ALSA's tools to capture,
# ir-keytable (the package's keymap loader uses it) and v4l-utils' ir-ctl (the remote's codes).
$NATIVE || INCLUDE+=,alsa-utils,ir-keytable,v4l-utils
# This machine's board is also where the box meets Wi-Fi (issue 60): NetworkManager (Raspberry
# Pi OS's) and polkit to let the service's user ask it, and for the test's other radios — the
# club's router (hostapd, dnsmasq's DHCP) and a phone (wpa_supplicant, its page relayed by
# socat) — on mac80211_hwsim's simulated radios, each in a network namespace of its own.
$NATIVE && INCLUDE+=,network-manager,polkitd,libpam-systemd,wpasupplicant,hostapd,iw,dnsmasq-base,socat,iproute2

# The board's own files — plain files, so that they can go in before another CPU's packages
# are configured: the kernel's modules the board uses, with what they depend on; the
# panel's GPIO chip, gpio-sim set up at boot with 32 lines, labelled virtual-board-panel
# (gpiochip0 on x86; the arm64 `virt` machine's own chip comes first there); DHCP from QEMU's
# user network on the virtio NIC; SSH for root with the key.
board_files() {
  local wifi=()
  # WPA2's CCMP and its management frames' CMAC: the crypto API loads them when a key is set.
  $NATIVE && wifi=(mac80211_hwsim ccm ctr cmac gcm)
  "$ROOT/tools/virtual-board/install-modules.sh" "$X" "$KREL" "$OUT/gpio-sim/gpio-sim-oot.ko" "$FS" configfs snd-aloop virtio_net "${wifi[@]}"
  mkdir -p "$FS/etc/modules-load.d" "$FS/usr/local/sbin" "$FS/etc/systemd/system" "$FS/etc/systemd/network"
  printf 'snd-aloop\ngpio-sim-oot\n' > "$FS/etc/modules-load.d/virtual-board.conf"
  printf '%s\n' '#!/bin/sh' \
    "# Creates the virtual board's GPIO chip (gpio-sim, 32 lines), as a Pi's header chip." \
    'CFG=/sys/kernel/config/gpio-sim/board0' \
    'mkdir -p $CFG/bank0 && echo 32 > $CFG/bank0/num_lines && echo virtual-board-panel > $CFG/bank0/label' \
    'echo 1 > $CFG/live' > "$FS/usr/local/sbin/virtual-board-gpio"
  chmod +x "$FS/usr/local/sbin/virtual-board-gpio"
  printf '%s\n' '[Unit]' "Description=The virtual board's GPIO chip (gpio-sim)" \
    'After=systemd-modules-load.service sys-kernel-config.mount' 'Before=delaybox.service' \
    '[Service]' 'Type=oneshot' 'ExecStart=/usr/local/sbin/virtual-board-gpio' 'RemainAfterExit=yes' \
    '[Install]' 'WantedBy=multi-user.target' > "$FS/etc/systemd/system/virtual-board-gpio.service"
  printf '%s\n' '[Match]' 'Name=en* eth*' '[Network]' 'DHCP=ipv4' > "$FS/etc/systemd/network/10-virtio.network"
  # NetworkManager leaves the wire (the tests' SSH, systemd-networkd's) alone: to it the
  # board has no network until its Wi-Fi joins one.
  if $NATIVE; then
    mkdir -p "$FS/etc/NetworkManager/conf.d"
    printf '%s\n' '[keyfile]' 'unmanaged-devices=interface-name:en*;interface-name:eth*' \
      > "$FS/etc/NetworkManager/conf.d/virtual-board.conf"
  fi
  echo virtual-board > "$FS/etc/hostname"
  echo "/dev/vda / ext4 defaults 0 1" > "$FS/etc/fstab"
  install -d -m 700 "$FS/root/.ssh"
  install -m 600 "$KEY.pub" "$FS/root/.ssh/authorized_keys"
}
ENABLE="systemd-networkd.service virtual-board-gpio.service ssh.service"
MASK="apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer"

if $NATIVE; then
  # Made again when the package list changes.
  if [ "$(cat "$FS/.done" 2>/dev/null)" != "$INCLUDE" ]; then
    rm -rf "$FS"
    say "debootstrap $SUITE into $FS"
    debootstrap --variant=minbase --include="$INCLUDE" "$SUITE" "$FS" http://deb.debian.org/debian > "$OUT/debootstrap.log" 2>&1 \
      || { tail -20 "$OUT/debootstrap.log" >&2; exit 1; }
    rm -f "$FS"/var/cache/apt/archives/*.deb
    echo "$INCLUDE" > "$FS/.done"
  fi
  board_files
  # Without the archive's package index (~50 MB, which the board cannot refresh: it reaches
  # nothing), as the arm64 board below: under emulation apt parsed it on every run — an
  # `apt-get update` took 18-19 s with it, 10 s without (the Debian 12 board, 2026-11-26),
  # and the deploy test runs several. The package's dependencies are installed already.
  rm -f "$FS"/var/lib/apt/lists/*_Packages
  systemctl --root="$FS" enable $ENABLE >/dev/null 2>&1
  systemctl --root="$FS" mask $MASK >/dev/null 2>&1 || true
  rm -f "$IMAGE"
  mkfs.ext4 -q -F -L board-root -d "$FS" "$IMAGE" 2G
  board_keep
  say "ready: $IMAGE ($(du -h "$IMAGE" | cut -f1) used)"
  exit 0
fi

# Another CPU's Debian (the arm64 board): unpacked here by debootstrap's first stage, then
# its packages configured by their own programs on the board itself — the image booted
# with `board.setup` (tools/virtual-board/init) — so no binfmt registration (a change to
# this machine) is needed. (proot with qemu-aarch64-static was tried: it aborts in
# systemd's scripts. A 9p share cannot be the target: QEMU refuses to open the device
# nodes debootstrap checks.) Emulated, this takes minutes: the image is kept until this
# script, the modules or the packages change.
STAMP="$KREL $INCLUDE $(cat "$0" "$ROOT/tools/virtual-board/install-modules.sh" "$OUT/gpio-sim/gpio-sim-oot.ko" | sha256sum | cut -c1-16)"
if [ "$(cat "$IMAGE.stamp" 2>/dev/null)" = "$STAMP" ]; then
  board_keep
  say "ready: $IMAGE (as built before)"
  exit 0
fi
rm -rf "$FS" "$IMAGE" "$IMAGE.stamp"
say "debootstrap $SUITE $ARCH (first stage) into $FS"
debootstrap --foreign --arch "$ARCH" --variant=minbase --include="$INCLUDE" "$SUITE" "$FS" http://deb.debian.org/debian \
  > "$OUT/debootstrap.log" 2>&1 || { tail -20 "$OUT/debootstrap.log" >&2; exit 1; }
# The second stage looks packages up in the archive's whole index (56 MB) with perl, again
# and again: emulated, that alone takes most of an hour. It needs only the packages the
# first stage fetched (the board never runs apt: no network). dpkg's fsync after every
# file is left out while it runs: a board that loses power then is built again anyway.
for index in "$FS"/var/lib/apt/lists/*_Packages; do
  awk 'NR == FNR {fetched[$1]; next} /^Package: / {keep = ($2 in fetched)} keep' "$FS/debootstrap/debpaths" "$index" > "$index.new"
  mv "$index.new" "$index"
done
echo force-unsafe-io > "$FS/etc/dpkg/dpkg.cfg.d/board-setup"
board_files
printf '%s\n' '#!/bin/sh' '# Runs once, on the board (tools/virtual-board/build-rootfs.sh).' 'set -e' \
  'DEBOOTSTRAP_DIR=/debootstrap /bin/sh /debootstrap/debootstrap --second-stage' \
  "systemctl enable $ENABLE" "systemctl mask $MASK" \
  'rm -f /etc/dpkg/dpkg.cfg.d/board-setup /var/cache/apt/archives/*.deb /var/lib/apt/lists/*_Packages' > "$FS/board-setup.sh"
mkfs.ext4 -q -F -L board-root -d "$FS" "$IMAGE" 2G
rm -rf "$FS"
say "second stage of $SUITE $ARCH on the board (emulated)"
board_machine "$OUT"
timeout --kill-after=10 3600 "${MACHINE[@]}" -m 1024 -smp 2 -no-reboot -display none -monitor none \
  -kernel "$OUT/vmlinuz" -initrd "$OUT/initramfs.cpio.gz" -append "console=$KERNEL_CONSOLE board.setup=/dev/vda panic=-1" \
  -drive file="$IMAGE",format=raw,if=virtio,cache=unsafe -nic none >> "$OUT/debootstrap.log" 2>&1 || true
e2fsck -fy "$IMAGE" >> "$OUT/debootstrap.log" 2>&1 || true
debugfs -R "cat /board-setup.log" "$IMAGE" >> "$OUT/debootstrap.log" 2>/dev/null || true
if [ "$(debugfs -R "cat /board-setup.status" "$IMAGE" 2>/dev/null)" != 0 ]; then
  say "the second stage on the board failed ($OUT/debootstrap.log, $OUT/console.log):"
  tail -20 "$OUT/debootstrap.log" >&2
  exit 1
fi
printf 'rm /board-setup.sh\nrm /board-setup.log\nrm /board-setup.status\n' | debugfs -w -f - "$IMAGE" > /dev/null 2>&1
echo "$STAMP" > "$IMAGE.stamp"
board_keep
say "ready: $IMAGE ($(du -h "$IMAGE" | cut -f1) used)"
