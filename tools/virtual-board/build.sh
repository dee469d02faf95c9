#!/usr/bin/env bash
# Builds the virtual board the hardware-in-the-loop tests run on (docs/hardware.md):
# Debian's own kernel under QEMU, a gpio-sim GPIO chip (built here out of tree: Debian's
# kernel does not ship it), snd-aloop as the codec and a serial port, booting a busybox
# initramfs that runs a test's scenario with this host's filesystem (the arm64 board: its
# own root filesystem, build-rootfs.sh) mounted read-only.
#
#   [BOARD_DEBIAN=12|13] [BOARD_ARCH=amd64|arm64] tools/virtual-board/build.sh
#
# The board runs Debian 12's kernel (6.1) or 13's (6.12), for x86 or (BOARD_ARCH=arm64,
# Debian 13) for the boards' CPU; its directory (tools/virtual-board/release.sh) gets
# vmlinuz and initramfs.cpio.gz. Debian packages are downloaded once into its debs/
# (~225 MB; arm64 ~265 MB) and never installed on the host; a rebuild with everything
# cached takes a few seconds. Another release than this machine's is built in that
# release's build root (tools/debian-root), and the arm64 board in the arm64 one
# (tools/arm64/build-root.sh, with Debian 13's aarch64 cross gcc), so that gpio-sim is
# compiled by the compiler its kernel was.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tools/virtual-board/release.sh"
. "$ROOT/tools/virtual-board/board-cache.sh"
if [ -z "${IN_BUILD_ROOT:-}" ] && board_cached; then
  echo "virtual-board (Debian $DEBIAN, $ARCH): ready: $BOARD (made before on this machine)" >&2
  exit 0
fi
if [ -z "${IN_BUILD_ROOT:-}" ] && { [ "$DEBIAN" != "$HOST_DEBIAN" ] || [ "$ARCH" != amd64 ]; }; then
  BUILD_ROOT=$SUITE
  [ "$ARCH" = amd64 ] || BUILD_ROOT=$SUITE-$ARCH
  exec "$ROOT/tools/debian-root/run.sh" "$BUILD_ROOT" env IN_BUILD_ROOT=1 BOARD_DEBIAN="$DEBIAN" BOARD_ARCH="$ARCH" \
    "$ROOT/tools/virtual-board/build.sh"
fi
OUT=$BOARD
mkdir -p "$OUT/debs"

say() { echo "virtual-board (Debian $DEBIAN, $ARCH): $*" >&2; }

for tool in cpio gcc make depmod; do
  command -v "$tool" >/dev/null || { say "missing $tool: run deploy/setup-host.sh"; exit 1; }
done

# The kernel Debian's linux-image-ARCH points at, and its build files. The kernel, its
# headers and busybox are the board's architecture's (name:ARCH); the headers' build tools
# (linux-kbuild: 6.1 on Debian 12, 6.12.N+deb13 on 13) run here, so they are this machine's.
kernel_package() { apt-cache depends "linux-image-$ARCH:$ARCH" 2>/dev/null | awk '/Depends: linux-image-/ {print $2; exit}'; }
KPKG=$(kernel_package)
# A machine with every package installed may have no package lists (a container image's
# are cleaned; CI runs apt-get update only when it installs something).
[ -n "$KPKG" ] || { say "apt has no package lists: apt-get update"; apt-get update -qq; KPKG=$(kernel_package); }
[ -n "$KPKG" ] || { say "apt knows no linux-image-$ARCH:$ARCH"; exit 1; }
KPKG=${KPKG%:*}
KREL=${KPKG#linux-image-}
KSERIES=$(echo "$KREL" | cut -d. -f1,2)
KBUILD=$(apt-cache depends "linux-headers-$KREL:$ARCH" | awk '/Depends: linux-kbuild-/ {print $2; exit}')
KBUILD=${KBUILD%:*}
PACKAGES=("$KPKG:$ARCH" "linux-headers-$KREL:$ARCH" "linux-headers-${KREL%-"$ARCH"}-common" "$KBUILD"
          "linux-source-$KSERIES" "busybox-static:$ARCH")
cd "$OUT/debs"
for package in "${PACKAGES[@]}"; do
  ls "${package%:*}"_*.deb >/dev/null 2>&1 || { say "downloading $package"; apt-get download -q "$package" 2>/dev/null \
    || { apt-get update -qq && apt-get download -q "$package"; }; }
done

# Unpacked kernel, headers and sources (once).
X="$OUT/unpacked"
if [ ! -e "$X/.done-$KREL" ]; then
  rm -rf "$X"; mkdir -p "$X"
  for package in "${PACKAGES[@]}"; do
    [ "$package" = "linux-source-$KSERIES" ] || dpkg -x "$OUT/debs/${package%:*}"_*.deb "$X"
  done
  dpkg-deb --fsys-tarfile "$OUT/debs/linux-source-${KSERIES}"_*.deb | tar -x -C "$X" "./usr/src/linux-source-$KSERIES.tar.xz"
  tar -xJf "$X/usr/src/linux-source-$KSERIES.tar.xz" -C "$X" \
    "linux-source-$KSERIES/drivers/gpio/gpio-sim.c" "linux-source-$KSERIES/drivers/gpio/gpiolib.h" \
    "linux-source-$KSERIES/kernel/irq/irq_sim.c"
  rm "$X/usr/src/linux-source-$KSERIES.tar.xz"
  # Debian 13's packages put everything under /usr (merged /usr): the old paths lead there.
  for dir in lib bin sbin; do [ -e "$X/$dir" ] || [ ! -d "$X/usr/$dir" ] || ln -s "usr/$dir" "$X/$dir"; done
  depmod -b "$X" "$KREL"  # the package leaves that to its installation
  # The headers' Makefile includes the common part by absolute path.
  sed -i "s|^include /usr/src/|include $X/usr/src/|" "$X/usr/src/linux-headers-$KREL/Makefile"
  touch "$X/.done-$KREL"
fi

# gpio-sim, out of tree: its driver and the IRQ simulator it needs, as one module.
# irq_to_desc is not exported to modules; generic_handle_irq does the same here.
MOD="$OUT/gpio-sim"
if [ ! -e "$MOD/gpio-sim-oot.ko" ]; then
  rm -rf "$MOD"; mkdir -p "$MOD"
  cp "$X/linux-source-$KSERIES/drivers/gpio/gpio-sim.c" "$X/linux-source-$KSERIES/drivers/gpio/gpiolib.h" \
     "$X/linux-source-$KSERIES/kernel/irq/irq_sim.c" "$MOD/"
  sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$MOD/irq_sim.c"
  printf 'obj-m := gpio-sim-oot.o\ngpio-sim-oot-y := gpio-sim.o irq_sim.o\n' > "$MOD/Kbuild"
  say "building gpio-sim for $KREL"
  # No BTF for a test module (Debian 13's kernels would want pahole for it).
  make -s -C "$X/usr/src/linux-headers-$KREL" M="$MOD" CONFIG_DEBUG_INFO_BTF_MODULES= modules >/dev/null 2>"$MOD/build.log" \
    || { cat "$MOD/build.log" >&2; exit 1; }
fi

# The initramfs: busybox, the modules the tests need with their dependencies (rc-loopback:
# an IR receiver whose transmitter loops back to it, the NEC decoder and evdev carry a
# remote's keys to the appliance), and /init
# (tools/virtual-board/init). Programs are not copied in: the guest mounts this host's
# filesystem read-only over 9p (the arm64 board: its own root filesystem, with the project
# over 9p) and runs them there (chrooted), with the libraries they were built against —
# FFmpeg alone links ~150 of them.
R="$OUT/rootfs"
rm -rf "$R"; mkdir -p "$R"/{bin,dev,proc,sys,host,newroot,etc}
cp "$X/bin/busybox" "$R/bin/busybox"
ln -s busybox "$R/bin/sh"  # init links the other applets (busybox is the board's CPU's: it may not run here)
MODULES=(configfs snd-aloop 9p 9pnet_virtio virtio_pci virtio_blk ext4 crc32c_generic)
# The IR chain where the kernel builds it (Debian's amd64 kernels do; the remote scenario
# runs on those boards).
for module in evdev rc-loopback ir-nec-decoder; do
  if modprobe -d "$X" -S "$KREL" --show-depends "$module" >/dev/null 2>&1; then MODULES+=("$module"); else say "no $module in $KREL"; fi
done
"$ROOT/tools/virtual-board/install-modules.sh" "$X" "$KREL" "$MOD/gpio-sim-oot.ko" "$R" "${MODULES[@]}"
cp "$ROOT/tools/virtual-board/init" "$R/init"
chmod +x "$R/init"
echo "$KREL" > "$R/etc/kernel-release"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) > "$OUT/initramfs.cpio.gz"
cp "$X/boot/vmlinuz-$KREL" "$OUT/vmlinuz"
say "ready: $OUT/vmlinuz, $OUT/initramfs.cpio.gz ($(du -h "$OUT/initramfs.cpio.gz" | cut -f1))"
