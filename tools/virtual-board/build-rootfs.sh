#!/usr/bin/env bash
# Builds the virtual board's root filesystem for the deploy tests (docs/hardware.md): a
# Debian 12 or 13 (BOARD_DEBIAN, as tools/virtual-board/build.sh) installed with debootstrap — systemd, udev, an SSH server, the libraries a
# Delaybox package depends on — with the virtual board's kernel modules (snd-aloop,
# gpio-sim, virtio networking) and a gpio-sim chip set up at boot like a board's panel.
# tools/virtual-board/boot.sh boots it; deploy/install.sh reaches it over SSH.
#
#   [BOARD_DEBIAN=12|13] tools/virtual-board/build-rootfs.sh
#
# Writes .build/virtual-board/debianN/rootfs.img (ext4, 2 GB sparse) and the SSH key that
# logs in as root (.build/virtual-board/id_ed25519). Needs tools/virtual-board/build.sh first.
# The first build downloads ~120 MB of packages and takes a few minutes; later runs reuse it.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tools/virtual-board/release.sh"
OUT=$BOARD
KEY="$ROOT/.build/virtual-board/id_ed25519"
FS="$OUT/debian"
IMAGE="$OUT/rootfs.img"
say() { echo "build-rootfs: $*" >&2; }

[ -f "$OUT/vmlinuz" ] || { say "no virtual board kernel: run tools/virtual-board/build.sh first"; exit 1; }
for tool in debootstrap mkfs.ext4 ssh-keygen; do
  command -v "$tool" >/dev/null || { say "missing $tool: run deploy/setup-host.sh"; exit 1; }
done
[ "$(id -u)" -eq 0 ] || { say "debootstrap needs root"; exit 1; }
KREL=$(cat "$OUT/rootfs/etc/kernel-release")
X="$OUT/unpacked"

# What a board running Delaybox has: an init, udev for /dev, SSH, and the package's
# dependencies (FFmpeg, ALSA, libgpiod) — no network at test time, so they are here before.
INCLUDE=systemd,systemd-sysv,udev,dbus,openssh-server,kmod,procps
case "$DEBIAN" in
  12) INCLUDE+=,libasound2,libgpiod2,libavformat59,libavcodec59,libswresample4,libavutil57 ;;
  13) INCLUDE+=,libasound2t64,libgpiod3,libavformat61,libavcodec61,libswresample5,libavutil59 ;;
esac
if [ ! -e "$FS/.done" ]; then
  rm -rf "$FS"
  say "debootstrap $SUITE into $FS"
  debootstrap --variant=minbase --include="$INCLUDE" "$SUITE" "$FS" http://deb.debian.org/debian > "$OUT/debootstrap.log" 2>&1 \
    || { tail -20 "$OUT/debootstrap.log" >&2; exit 1; }
  rm -f "$FS"/var/cache/apt/archives/*.deb
  touch "$FS/.done"
fi

# The kernel's modules the board uses, with what they depend on.
"$ROOT/tools/virtual-board/install-modules.sh" "$X" "$KREL" "$OUT/gpio-sim/gpio-sim-oot.ko" "$FS" configfs snd-aloop virtio_net
printf 'snd-aloop\ngpio-sim-oot\n' > "$FS/etc/modules-load.d/virtual-board.conf"

# The panel's GPIO chip: gpio-sim set up at boot, as gpiochip0 with 32 lines.
cat > "$FS/usr/local/sbin/virtual-board-gpio" <<'EOF'
#!/bin/sh
# Creates the virtual board's GPIO chip (gpio-sim, 32 lines), as a Pi's gpiochip0.
CFG=/sys/kernel/config/gpio-sim/board0
mkdir -p $CFG/bank0 && echo 32 > $CFG/bank0/num_lines && echo 1 > $CFG/live
EOF
chmod +x "$FS/usr/local/sbin/virtual-board-gpio"
cat > "$FS/etc/systemd/system/virtual-board-gpio.service" <<'EOF'
[Unit]
Description=The virtual board's GPIO chip (gpio-sim)
After=systemd-modules-load.service sys-kernel-config.mount
Before=delaybox.service
[Service]
Type=oneshot
ExecStart=/usr/local/sbin/virtual-board-gpio
RemainAfterExit=yes
[Install]
WantedBy=multi-user.target
EOF

# Network: DHCP from QEMU's user network on the virtio NIC; SSH for root with the key.
cat > "$FS/etc/systemd/network/10-virtio.network" <<'EOF'
[Match]
Name=en* eth*
[Network]
DHCP=ipv4
EOF
echo virtual-board > "$FS/etc/hostname"
echo "/dev/vda / ext4 defaults 0 1" > "$FS/etc/fstab"
[ -f "$KEY" ] || ssh-keygen -q -t ed25519 -N "" -C delaybox-virtual-board -f "$KEY"
install -d -m 700 "$FS/root/.ssh"
install -m 600 "$KEY.pub" "$FS/root/.ssh/authorized_keys"
systemctl --root="$FS" enable systemd-networkd.service virtual-board-gpio.service ssh.service >/dev/null 2>&1
systemctl --root="$FS" mask apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer >/dev/null 2>&1 || true

rm -f "$IMAGE"
mkfs.ext4 -q -F -L board-root -d "$FS" "$IMAGE" 2G
say "ready: $IMAGE ($(du -h "$IMAGE" | cut -f1) used)"
