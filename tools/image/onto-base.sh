#!/usr/bin/env bash
# The Delaybox layer put onto a card a club already has (issue 68, `make image BASE=…`):
# Raspberry Pi OS Lite for arm64 (the Raspberry Pi kernel: a Pi 5, and HATs whose overlays
# only it has), or any card of its shape — a FAT boot partition with config.txt and
# cmdline.txt, then an ext4 root. The same layer as `make image`'s (tools/image/layer.sh),
# the box's package installed with what it needs from the base's own apt sources, configured
# on the emulated board (tools/image/setup-boot.sh, with Debian's kernel: a Pi's own does not
# start on QEMU's `virt`). The base's partitions stay where they are, its disk identifier
# too (Raspberry Pi OS finds its root by it); the root grows by 1 GiB for the packages, and is
# then made as small as its files and 256 MiB.
#
#   tools/image/onto-base.sh DEB BASE.img[.xz] OUT
#
# Writes OUT/delaybox-VERSION-arm64-on-BASENAME.img.xz, its .sha256 and rpi-imager.json.
# Needs the network (Debian's archive for the setup kernel; the base's for its packages).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DEB=$(realpath "$1") BASE=$(realpath "$2") OUT=$(realpath -m "$3")
say() { echo "image: $*" >&2; }
for tool in sfdisk mtype e2fsck resize2fs debugfs zerofree qemu-system-aarch64 apt-get xz tar; do
  command -v "$tool" >/dev/null || { say "missing $tool: run deploy/setup-host.sh"; exit 1; }
done
[ "$(dpkg-deb -f "$DEB" Architecture)" = arm64 ] || { say "$DEB is not an arm64 package"; exit 2; }
VERSION=$(dpkg-deb -f "$DEB" Version)
BASENAME=$(basename "$BASE"); BASENAME=${BASENAME%.xz}; BASENAME=${BASENAME%.img}
NAME="delaybox-${VERSION//[~+]/-}-arm64-on-$BASENAME"
WORK="$OUT/work"
rm -rf "$WORK"; mkdir -p "$WORK" "$OUT"
CARD="$WORK/card.img"
case "$BASE" in
  *.xz) xz -dc "$BASE" > "$CARD" ;;
  *) cp --sparse=always "$BASE" "$CARD" ;;
esac

# The base's two partitions, by the table's numbers (sectors of 512 bytes).
read -r boot_start boot_size root_start root_size < <(sfdisk -d "$CARD" 2>/dev/null | awk -F'[=, ]+' '
  /start=/ { for (i = 1; i <= NF; i++) { if ($i == "start") s[n + 0] = $(i + 1); if ($i == "size") z[n + 0] = $(i + 1) }; n++ }
  END { if (n >= 2) print s[0], z[0], s[1], z[1] }') || true
[ -n "${root_size:-}" ] || { say "$BASE: no partition table with a boot and a root partition"; exit 2; }
dd if="$CARD" of="$WORK/boot.vfat" bs=512 skip="$boot_start" count="$boot_size" status=none
dd if="$CARD" of="$WORK/root.ext4" bs=512 skip="$root_start" count="$root_size" conv=sparse status=none
for file in config.txt cmdline.txt; do
  mtype -i "$WORK/boot.vfat" "::/$file" >/dev/null 2>&1 || { say "$BASE: its first partition has no $file: not a Raspberry Pi card"; exit 2; }
done
[ "$(blkid -p -s TYPE -o value "$WORK/root.ext4")" = ext4 ] || { say "$BASE: its second partition is not ext4"; exit 2; }
e2fsck -fy "$WORK/root.ext4" > "$WORK/setup.log" 2>&1 || true
truncate -s +1G "$WORK/root.ext4"
resize2fs "$WORK/root.ext4" >> "$WORK/setup.log" 2>&1

# The setup kernel: Debian 13's for arm64 and busybox, fetched once (checked by apt against
# Debian's keys) and kept in OUT/../image-setup-kernel.
K="$(dirname "$OUT")/image-setup-kernel"
if [ ! -e "$K/ready" ]; then
  rm -rf "$K"; A="$K/apt"
  mkdir -p "$A/lists/partial" "$A/cache/archives/partial" "$A/etc"
  : > "$A/status"
  echo 'deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main' > "$A/etc/sources.list"
  apt=(-o Dir::Etc::SourceList="$A/etc/sources.list" -o Dir::Etc::SourceParts=/nonexistent -o Dir::State::Lists="$A/lists"
    -o Dir::Cache="$A/cache" -o Dir::State::status="$A/status" -o APT::Architecture=arm64 -o Debug::NoLocking=1)
  apt-get "${apt[@]}" -qq update
  kernel=$(apt-cache "${apt[@]}" depends linux-image-arm64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
  (cd "$A" && apt-get "${apt[@]}" -qq download "$kernel:arm64" busybox-static:arm64 2>/dev/null)
  dpkg -x "$A"/linux-image-*.deb "$K"
  dpkg -x "$A"/busybox-static_*.deb "$K/busybox"
  rm -rf "$A"
  touch "$K/ready"
fi

# The layer as a tar the setup unpacks into the root: files only, root's, so that no
# directory of the base changes its mode or owner.
STAGE="$WORK/layer"
mkdir -p "$STAGE/var/cache"
install -m 644 "$DEB" "$STAGE/var/cache/delaybox.deb"
"$ROOT/tools/image/layer.sh" "$STAGE" raspios
cat > "$STAGE/image-setup.sh" <<'EOF'
#!/bin/sh
# Runs once, on the emulated board (tools/image/onto-base.sh): the box's package with what it
# needs, from the base's own sources, through QEMU's user network.
set -e
export DEBIAN_FRONTEND=noninteractive
cp -P /etc/resolv.conf /etc/resolv.conf.image-setup 2>/dev/null || true
rm -f /etc/resolv.conf
echo 'nameserver 10.0.2.3' > /etc/resolv.conf
apt-get -q update
apt-get -q install -y /var/cache/delaybox.deb network-manager avahi-daemon libnss-mdns chrony mosquitto openssh-server sudo
rm /var/cache/delaybox.deb
/usr/lib/delaybox-image/configure
rm -f /etc/resolv.conf
if [ -e /etc/resolv.conf.image-setup ] || [ -L /etc/resolv.conf.image-setup ]; then mv /etc/resolv.conf.image-setup /etc/resolv.conf; fi
rm -rf /var/lib/apt/lists/*
EOF
(cd "$STAGE" && find . -type f | sort | tar -cf "$WORK/layer.tar" --owner=0 --group=0 --numeric-owner -T -)
rm -rf "$STAGE"
"$ROOT/tools/image/setup-boot.sh" "$K" "$WORK" "$WORK/root.ext4" "$WORK/boot.vfat" "$WORK/layer.tar"

# The root as small as its files and 256 MiB (the first boot grows it to the card), so that
# the card Imager writes is no larger than it must be.
e2fsck -fy "$WORK/root.ext4" >> "$WORK/setup.log" 2>&1 || true
resize2fs -M "$WORK/root.ext4" >> "$WORK/setup.log" 2>&1
block_size=$(dumpe2fs -h "$WORK/root.ext4" 2>/dev/null | awk '/^Block size:/ {print $3}')
blocks=$(dumpe2fs -h "$WORK/root.ext4" 2>/dev/null | awk '/^Block count:/ {print $3}')
root_bytes=$(( (blocks * block_size + 256 * 1048576 + 1048575) / 1048576 * 1048576 ))
truncate -s "$root_bytes" "$WORK/root.ext4"
resize2fs "$WORK/root.ext4" >> "$WORK/setup.log" 2>&1

# Back onto the card: the root partition in the table at its new size (the disk identifier
# kept), both partitions written where they were.
# The old root cut off first: the new one is written sparse, and its zeros must not let the
# old one's blocks show through.
truncate -s $((root_start * 512)) "$CARD"
truncate -s $((root_start * 512 + root_bytes)) "$CARD"
echo "$root_start, $((root_bytes / 512))" | sfdisk -q --no-reread --no-tell-kernel -N 2 "$CARD"
dd if="$WORK/boot.vfat" of="$CARD" bs=512 seek="$boot_start" conv=notrunc status=none
dd if="$WORK/root.ext4" of="$CARD" bs=512 seek="$root_start" conv=notrunc,sparse status=none
IMAGE="$OUT/$NAME.img"
mv "$CARD" "$IMAGE"
# Imager's customisation in the form the base reads: cloud-init's where the base has it
# (Raspberry Pi OS 13), else firstrun.sh through the helpers. A Pi 5 starts the Raspberry Pi
# kernel; Debian's (a Debian-built base) has no driver for its SD card.
INIT_FORMAT=systemd DEVICES='"pi3-64bit", "pi4-64bit"'
debugfs -R "stat /usr/bin/cloud-init" "$WORK/root.ext4" 2>/dev/null | grep -q Inode && INIT_FORMAT=cloudinit-rpi
mtype -i "$WORK/boot.vfat" ::/kernel_2712.img >/dev/null 2>&1 && DEVICES='"pi3-64bit", "pi4-64bit", "pi5-64bit"'
INIT_FORMAT=$INIT_FORMAT DEVICES=$DEVICES "$ROOT/tools/image/publish.sh" "$IMAGE" "$OUT"
rm -rf "$WORK"
