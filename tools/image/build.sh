#!/usr/bin/env bash
# Makes the card a club flashes (issue 68, `make image`): Debian 13 for arm64 from Debian's
# archive alone — linux-image-arm64 and raspi-firmware (non-free-firmware), the recipe of
# Debian's own Raspberry Pi images — with the box's package, NetworkManager, Avahi and the
# first-boot layer (deploy/image), as one file Raspberry Pi Imager writes.
#
#   tools/image/build.sh DEB OUT
#
# DEB is the box's arm64 package (deploy/make-deb.sh --arch arm64; with RELEASE_URL it names
# the club's signed repository, so flashed boxes update by themselves). Writes OUT/
# delaybox-VERSION-arm64.img.xz, its .sha256 and rpi-imager.json (Imager's os_list; IMAGE_URL
# is where the .img.xz will be served, its directory by default). Unpacked here by
# debootstrap's first stage; the packages are configured by their own scripts on the
# emulated board's CPU, booted from the image's own kernel (no binfmt registration, no
# loop mount): ~30 minutes under software emulation. Needs root (debootstrap).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DEB=$(realpath "$1")
OUT=$(realpath -m "$2")
say() { echo "image: $*" >&2; }
for tool in debootstrap mkfs.ext4 mkfs.vfat mcopy sfdisk qemu-system-aarch64 e2fsck debugfs zerofree cpio xz depmod modprobe; do
  command -v "$tool" >/dev/null || { say "missing $tool: run deploy/setup-host.sh"; exit 1; }
done
[ "$(id -u)" -eq 0 ] || { say "debootstrap needs root"; exit 1; }
[ "$(dpkg-deb -f "$DEB" Architecture)" = arm64 ] || { say "$DEB is not an arm64 package"; exit 2; }
VERSION=$(dpkg-deb -f "$DEB" Version)
NAME="delaybox-${VERSION//[~+]/-}-arm64"
WORK="$OUT/work"
# What a Pi's box needs of its kernel: HDMI and its audio, the Pi's own audio, the HATs'
# I²S codecs, Wi-Fi, an IR remote, the SD card, Ethernet (Pi 4 GENET, Pi 5 MACB, Pi 3 USB),
# USB and NVMe disks, the hotspot's NAT; and the emulated board's disks.
NEEDED_MODULES="vc4 v3d snd_soc_hdmi_codec snd_bcm2835 snd_soc_bcm2835_i2s snd_soc_simple_card snd_soc_pcm5102a
  snd_soc_wm8960 brcmfmac gpio_ir_recv sdhci_iproc bcm2835 mmc_block ext4 vfat nls_ascii nls_cp437 genet macb lan78xx
  smsc95xx usb_storage uas sd_mod nvme i2c_bcm2835 spi_bcm2835 pwm_bcm2835 xhci_pci pcie_brcmstb dwc2 nft_masq
  virtio_blk virtio_pci virtio_net"
FS="$WORK/root"
rm -rf "$WORK"; mkdir -p "$WORK" "$OUT"

# The box's dependencies (and what it recommends: the address said aloud, ALSA's tools, the
# page password's dictionary) from its control file, so the package installs with no network.
needs=$(dpkg-deb -f "$DEB" Depends Recommends | sed 's/^[A-Za-z]*: //' | tr ',' '\n' \
  | sed 's/(.*)//; s/|.*//; s/ //g' | grep -v '^$' | sort -u | paste -sd,)
# A Pi's: the kernel and its initramfs, the Pi's boot firmware (it copies the kernel, the
# device trees and config.txt/cmdline.txt onto the boot partition), the Wi-Fi's firmware;
# NetworkManager (the box's Wi-Fi keeper and hotspot), Avahi (NAME.local), time by chrony (to
# a millisecond of a venue's hub, which serves it to the room), mosquitto (off until the page
# makes the box a venue's hub: issue 70), SSH (off until asked), growing the root (sfdisk,
# resize2fs); busybox for the setup boot only.
INCLUDE="systemd,systemd-sysv,udev,dbus,kmod,initramfs-tools,linux-image-arm64,raspi-firmware,firmware-brcm80211"
INCLUDE+=",wireless-regdb,network-manager,wpasupplicant,avahi-daemon,libnss-mdns,chrony,mosquitto,openssh-server"
INCLUDE+=",ca-certificates,fdisk,e2fsprogs,dosfstools,iproute2,procps,sudo,busybox-static,$needs"

say "debootstrap trixie arm64 (first stage) into $FS"
debootstrap --foreign --arch arm64 --variant=minbase --components=main,non-free-firmware --include="$INCLUDE" \
  trixie "$FS" http://deb.debian.org/debian > "$WORK/debootstrap.log" 2>&1 || { tail -20 "$WORK/debootstrap.log" >&2; exit 1; }

# The setup boot runs the image's own kernel (tools/image/setup-boot.sh); what the card
# leaves out of it (deploy/image/dpkg-excludes) must not be any module the box needs, or what
# those need: checked here, on the kernel package as the card will hold it.
K="$WORK/kernel"
mkdir -p "$K"
dpkg -x "$(ls "$FS"/var/cache/apt/archives/linux-image-[0-9]*_arm64.deb | head -1)" "$K"
dpkg -x "$(ls "$FS"/var/cache/apt/archives/busybox-static_*_arm64.deb)" "$K/busybox"
KREL=$(basename "$(ls -d "$K"/lib/modules/* "$K"/usr/lib/modules/* 2>/dev/null | head -1)")
[ -d "$K/lib" ] || ln -s usr/lib "$K/lib"
"$ROOT/tools/image/prune.sh" "$ROOT/deploy/image/dpkg-excludes" "$K"
depmod -b "$K" "$KREL"
for module in $NEEDED_MODULES; do
  modprobe -d "$K" -S "$KREL" --show-depends "$module" >/dev/null 2>&1 \
    || { say "the card would leave out $module (or what it needs): see deploy/image/dpkg-excludes"; exit 1; }
done

# The layer (one customiser for every base: tools/image/layer.sh) goes in before the second
# stage; what needs the image's programs runs in it.
mkdir -p "$FS/boot/firmware"
install -m 644 "$DEB" "$FS/var/cache/delaybox.deb"
"$ROOT/tools/image/layer.sh" "$FS" debian
# What the first stage unpacked before dpkg's filters were in place.
"$ROOT/tools/image/prune.sh" "$FS/etc/dpkg/dpkg.cfg.d/delaybox-image-excludes" "$FS"
# Only the packages the first stage fetched are looked up (the whole index, parsed by perl
# again and again, takes most of an hour emulated); no fsync after every file meanwhile.
for index in "$FS"/var/lib/apt/lists/*_Packages; do
  awk 'NR == FNR {fetched[$1]; next} /^Package: / {keep = ($2 in fetched)} keep' "$FS/debootstrap/debpaths" "$index" > "$index.new"
  mv "$index.new" "$index"
done
echo force-unsafe-io > "$FS/etc/dpkg/dpkg.cfg.d/image-setup"
cat > "$FS/image-setup.sh" <<'EOF'
#!/bin/sh
# Runs once, on the emulated board (tools/image/build.sh).
set -e
DEBOOTSTRAP_DIR=/debootstrap /bin/sh /debootstrap/debootstrap --second-stage
dpkg -i /var/cache/delaybox.deb
rm /var/cache/delaybox.deb
/usr/lib/delaybox-image/configure
dpkg --purge busybox-static
rm -f /etc/dpkg/dpkg.cfg.d/image-setup /var/cache/apt/archives/*.deb /var/lib/apt/lists/*_Packages
EOF

# The card: a FAT boot partition (512 MiB, as Raspberry Pi OS's: FAT32 needs 65525 clusters,
# and a Pi 5's firmware and two kernels fit with room) and the ext4 root, which the first
# boot grows to the card. Both are made apart and put together last (tools/image/assemble.sh).
BOOT_MB=512 ROOT_MB=1536
mkfs.vfat -F 32 -n RASPIFIRM -C "$WORK/boot.vfat" $((BOOT_MB * 1024)) >/dev/null
mkfs.ext4 -q -F -L RASPIROOT -d "$FS" "$WORK/root.ext4" "${ROOT_MB}M"
rm -rf "$FS"
"$ROOT/tools/image/setup-boot.sh" "$K" "$WORK" "$WORK/root.ext4" "$WORK/boot.vfat"
mdir -i "$WORK/boot.vfat" ::/config.txt >/dev/null 2>&1 || { say "the boot partition has no config.txt: raspi-firmware did not run"; exit 1; }

IMAGE="$OUT/$NAME.img"
"$ROOT/tools/image/assemble.sh" "$IMAGE" "$WORK/boot.vfat" "$WORK/root.ext4"
"$ROOT/tools/image/publish.sh" "$IMAGE" "$OUT"
rm -rf "$WORK"
