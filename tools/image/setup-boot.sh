#!/usr/bin/env bash
# The setup boot of a card's system (issue 68), shared by both bases (tools/image/build.sh,
# tools/image/onto-base.sh): Debian's arm64 kernel on the emulated board (QEMU's `virt`,
# software emulation) with a busybox initramfs (tools/image/setup-init) that mounts ROOT at /
# and BOOT at /boot/firmware, unpacks LAYER (a tar of files for the root, optional) and runs
# the root's /image-setup.sh in it, with the network of QEMU's user mode (Debian's archive,
# or the base's own). Afterwards the setup's files are gone and the root's free blocks are
# zeros (they compress to nothing).
#
#   tools/image/setup-boot.sh KERNEL_DIR WORK ROOT.ext4 BOOT.vfat [LAYER.tar]
#
# KERNEL_DIR holds the unpacked kernel package (boot/vmlinuz-*, lib/modules/*) and busybox
# (busybox/bin/busybox or busybox/usr/bin/busybox).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
K=$1 WORK=$2 ROOTFS=$3 BOOTFS=$4 LAYER=${5:-}
say() { echo "image: $*" >&2; }
KREL=$(basename "$(ls -d "$K"/lib/modules/* "$K"/usr/lib/modules/* 2>/dev/null | head -1)")
[ -n "$KREL" ] || { say "no kernel in $K"; exit 1; }
[ -d "$K/lib" ] || ln -s usr/lib "$K/lib"
depmod -b "$K" "$KREL"
I="$WORK/initramfs"
rm -rf "$I"
mkdir -p "$I"/{bin,dev,proc,sys,newroot}
cp "$(ls "$K"/busybox/usr/bin/busybox "$K"/busybox/bin/busybox 2>/dev/null | head -1)" "$I/bin/busybox"
ln -s busybox "$I/bin/sh"
for module in virtio_pci virtio_blk virtio_net crc32c_generic ext4 vfat nls_cp437 nls_ascii; do
  modprobe -d "$K" -S "$KREL" --show-depends "$module" | awk '$1 == "insmod" {print $2}' | while read -r path; do
    mkdir -p "$I/lib/modules/$KREL/$(dirname "${path#*/modules/"$KREL"/}")"
    cp -n "$path" "$I/lib/modules/$KREL/${path#*/modules/"$KREL"/}"
  done
done
cp "$K/lib/modules/$KREL"/modules.{builtin,builtin.modinfo,order} "$I/lib/modules/$KREL/"
depmod -b "$I" "$KREL"
install -m 755 "$ROOT/tools/image/setup-init" "$I/init"
(cd "$I" && find . | cpio -o -H newc --quiet | gzip -1) > "$WORK/setup-initramfs.gz"
rm -rf "$I"

layer=()
[ -z "$LAYER" ] || layer=(-drive file="$LAYER",format=raw,if=virtio,readonly=on)
say "setup on the emulated board (Debian's kernel $KREL)"
timeout --kill-after=10 5400 qemu-system-aarch64 -M virt -accel tcg,thread=multi -cpu cortex-a72 -m 1024 -smp 2 \
  -no-reboot -display none -monitor none -serial file:"$WORK/console.log" \
  -kernel "$K/boot/vmlinuz-$KREL" -initrd "$WORK/setup-initramfs.gz" -append "console=ttyAMA0 panic=-1" \
  -drive file="$ROOTFS",format=raw,if=virtio,cache=unsafe \
  -drive file="$BOOTFS",format=raw,if=virtio,cache=unsafe "${layer[@]}" \
  -nic user,model=virtio-net-pci >> "$WORK/setup.log" 2>&1 || true
e2fsck -fy "$ROOTFS" >> "$WORK/setup.log" 2>&1 || true
debugfs -R "cat /image-setup.log" "$ROOTFS" > "$WORK/image-setup.log" 2>/dev/null || true
if [ "$(debugfs -R "cat /image-setup.status" "$ROOTFS" 2>/dev/null)" != 0 ]; then
  say "the setup failed ($WORK/image-setup.log, $WORK/console.log):"
  tail -20 "$WORK/image-setup.log" >&2
  exit 1
fi
printf 'rm /image-setup.sh\nrm /image-setup.log\nrm /image-setup.status\n' | debugfs -w -f - "$ROOTFS" >/dev/null 2>&1
zerofree "$ROOTFS"
