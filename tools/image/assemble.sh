#!/usr/bin/env bash
# Puts a card together from its two partitions, made apart (tools/image/build.sh): an MBR
# (a Pi 3 boots from nothing else) with the FAT boot partition at 1 MiB and the ext4 root
# after it. Sparse: the zeros of a root not yet grown take no room until compressed.
#
#   tools/image/assemble.sh IMAGE BOOT.vfat ROOT.ext4
set -euo pipefail
IMAGE=$1 BOOT=$2 ROOTFS=$3
mib() { echo $(( ($(stat -c %s "$1") + 1048575) / 1048576 )); }
boot_mb=$(mib "$BOOT") root_mb=$(mib "$ROOTFS")
rm -f "$IMAGE"
truncate -s $((1 + boot_mb + root_mb))M "$IMAGE"
# A disk identifier of its own per image: the partitions are found by their labels.
printf 'label: dos\nlabel-id: 0x%08x\nstart=1MiB, size=%sMiB, type=c, bootable\nstart=%sMiB, size=%sMiB, type=83\n' \
  "$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')" "$boot_mb" $((1 + boot_mb)) "$root_mb" | sfdisk -q "$IMAGE"
dd if="$BOOT" of="$IMAGE" bs=1M seek=1 conv=notrunc,sparse status=none
dd if="$ROOTFS" of="$IMAGE" bs=1M seek=$((1 + boot_mb)) conv=notrunc,sparse status=none
