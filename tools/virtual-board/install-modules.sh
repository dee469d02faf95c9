#!/usr/bin/env bash
# Copies kernel modules, with every module they depend on, from the unpacked Debian
# kernel into a root filesystem, adds the gpio-sim module built out of tree, and
# indexes them (depmod), so `modprobe NAME` works there. Used by build.sh (the
# initramfs) and build-rootfs.sh (the Debian root filesystem).
#
#   tools/virtual-board/install-modules.sh UNPACKED KREL GPIO_SIM_KO DEST MODULE...
set -euo pipefail
X=$1 KREL=$2 GPIO_SIM=$3 DEST=$4
shift 4
rm -rf "$DEST/lib/modules"; mkdir -p "$DEST/lib/modules/$KREL/extra"
cp "$GPIO_SIM" "$DEST/lib/modules/$KREL/extra/"
for module in "$@"; do
  modprobe -d "$X" -S "$KREL" --show-depends "$module" | awk '$1 == "insmod" {print $2}' | while read -r path; do
    mkdir -p "$DEST$(dirname "${path#"$X"}")"
    cp -n "$path" "$DEST${path#"$X"}"
  done
done
cp "$X/lib/modules/$KREL"/modules.{builtin,builtin.modinfo,order} "$DEST/lib/modules/$KREL/"
depmod -b "$DEST" "$KREL"
