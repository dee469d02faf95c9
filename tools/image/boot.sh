#!/usr/bin/env bash
# Powers on a card (`make image`'s, written as a flasher would) on QEMU's arm64 `virt`
# machine the way a Pi's firmware starts it: the kernel and the initramfs config.txt names,
# with the command line cmdline.txt holds, read from the card's boot partition at each
# power-on — so Imager's customisation, which edits cmdline.txt and ends with a reboot, runs
# as on a Pi. The card is the board's disk and changes as a Pi's would.
#
#   tools/image/boot.sh CARD DIR SSH_PORT WEB_PORT [STATION_PORT]
#
# The board's UART (ttyAMA0, the box's serial console) is the socket DIR/serial.sock; the
# kernel's console (hvc0) goes to DIR/console.log, each power-on's after the last's. QEMU's
# user network, restricted (the board reaches nothing else), forwards 127.0.0.1:SSH_PORT to
# its port 22 and WEB_PORT to 80; with STATION_PORT the board reaches this machine's
# 127.0.0.1:STATION_PORT as 10.0.2.100:8000 (a station). FORWARDS adds forwards of its own
# (space-separated QEMU hostfwd rules: "tcp:127.0.0.1:PORT-:1883 udp:127.0.0.1:PORT-:123",
# a venue hub's broker and time). Its codec is an HD Audio line out
# (a PCI sound card, with a clock of its own, as a HAT's DAC has) whose output — what the
# board's jack would play — is written to DIR/codec.wav (48 kHz, 16-bit stereo; its header's
# sizes are right once QEMU ends). A reboot powers on again, up to BOOTS (4) times, each
# power-on's console and codec kept as DIR/console-N.log, codec-N.wav; a power-off ends it.
# Runs in the foreground.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BOARD_ARCH=arm64
. "$ROOT/tools/virtual-board/release.sh"
CARD=$(realpath "$1") DIR=$(realpath "$2") SSH_PORT=$3 WEB_PORT=$4 STATION_PORT=${5:-}
say() { echo "image boot: $*" >&2; }
# The boot partition: the first, where the Pi's firmware looks.
start=$(sfdisk -d "$CARD" | sed -n 's/.*start= *\([0-9]*\),.*/\1/p' | head -1)
[ -n "$start" ] || { say "$CARD has no partition table"; exit 2; }
FAT="$CARD@@$((start * 512))"
read_boot() { mcopy -n -i "$FAT" "::/$1" "$2"; }

network="user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:$SSH_PORT-:22,hostfwd=tcp:127.0.0.1:$WEB_PORT-:80"
# (A guestfwd to a TCP chardev is one connection, made at QEMU's start: each of the board's
# connections gets a relay of its own instead, bash's /dev/tcp.)
relay="bash -c 'exec 3<>/dev/tcp/127.0.0.1/$STATION_PORT; cat <&3 & cat >&3'"
for forward in ${FORWARDS:-}; do network+=",hostfwd=$forward"; done
[ -z "$STATION_PORT" ] || network+=",guestfwd=tcp:10.0.2.100:8000-cmd:$relay"
board_machine "$DIR"
for ((boot = 1; boot <= ${BOOTS:-4}; boot++)); do
  read_boot config.txt "$DIR/config.txt"
  kernel=$(sed -n 's/^kernel=//p' "$DIR/config.txt" | tail -1)
  initramfs=$(sed -n 's/^initramfs[ =]\([^ ]*\).*/\1/p' "$DIR/config.txt" | tail -1)
  [ -n "$kernel" ] && [ -n "$initramfs" ] || { say "config.txt names no kernel and initramfs"; exit 2; }
  read_boot "$kernel" "$DIR/kernel"
  read_boot "$initramfs" "$DIR/initramfs"
  read_boot cmdline.txt "$DIR/cmdline.txt"
  say "power-on $boot: $(cat "$DIR/cmdline.txt")"
  rm -f "$DIR/serial.sock"
  # Killed (a test's end), the board goes with it: QEMU would be left running, orphaned
  # (a trap is no help: the signals may come blocked from the caller).
  setpriv --pdeathsig KILL "${MACHINE[@]}" -m 1024 -smp "${BOARD_CPUS:-2}" -no-reboot -display none -monitor none \
    -kernel "$DIR/kernel" -initrd "$DIR/initramfs" \
    -append "$(tr -d '\n' < "$DIR/cmdline.txt") console=$KERNEL_CONSOLE" \
    -drive file="$CARD",format=raw,if=virtio \
    -audiodev wav,id=codec,path="$DIR/codec.wav",out.frequency=48000,out.channels=2,out.format=s16 \
    -device intel-hda -device hda-output,audiodev=codec \
    -netdev "$network" -device virtio-net-pci,netdev=net0 || true
  cp "$DIR/console.log" "$DIR/console-$boot.log"
  cp "$DIR/codec.wav" "$DIR/codec-$boot.wav" 2>/dev/null || true
  # QEMU ends on the guest's reboot and its power-off alike (-no-reboot): the journal's last
  # word tells them apart.
  tail -c 4000 "$DIR/console.log" | grep -q "reboot: Power down" && { say "powered off"; exit 0; }
done
say "rebooted ${BOOTS:-4} times: stopped"
