#!/usr/bin/env bash
# Boots the virtual board with its own root filesystem (tools/virtual-board/build-rootfs.sh):
# Debian with systemd, an SSH server, snd-aloop and gpio-sim — a board to deploy to.
#
#   [BOARD_DEBIAN=12|13] [BOARD_CPUS=N] [WEB_PORT=N] [RELAY_PORT=N] tools/virtual-board/boot.sh DIR PORT
#
# Runs in the foreground until the board powers off or is killed. The board is reachable
# only through 127.0.0.1:PORT, forwarded to its SSH port (QEMU's user network, restricted:
# the board cannot reach anything else), with WEB_PORT 127.0.0.1:WEB_PORT to its port 80
# (the web page), and with RELAY_PORT 127.0.0.1:RELAY_PORT to its port 8081 (where a test
# relays a browser's requests through a simulated phone's radio). Writes go to a throwaway overlay, so every boot
# starts from the same image. The board's console (ttyS0, kernel and systemd) goes to
# DIR/console.log; its second serial port (the board's console, ttyS1) is the socket
# DIR/serial.sock. Log in with: ssh -i .build/virtual-board/key/id_ed25519 -p PORT root@127.0.0.1
#
# BOARD_CPUS (default 1): the board's emulated CPUs, each a thread of this machine's. More
# than this machine has cores left for the board is slower, not faster: two boards of two
# CPUs each on 2 cores took 41-48 s to boot and 118-121 s to install a release, of one CPU
# each 32-39 s and 88-96 s (2026-11-26, the guests' spinning on CPUs not running).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tools/virtual-board/release.sh"
DIR=$(realpath "$1")
PORT=$2
[ -f "$BOARD/rootfs.img" ] || { echo "boot.sh: no root filesystem: run tools/virtual-board/build-rootfs.sh" >&2; exit 2; }
board_machine "$DIR"
exec "${MACHINE[@]}" -m 1024 -smp "${BOARD_CPUS:-1}" -no-reboot -display none -monitor none \
  -kernel "$BOARD/vmlinuz" -initrd "$BOARD/initramfs.cpio.gz" \
  -append "console=$KERNEL_CONSOLE board.root=/dev/vda panic=-1" \
  -drive file="$BOARD/rootfs.img",format=raw,if=virtio,snapshot=on \
  -netdev user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:"$PORT"-:22${WEB_PORT:+,hostfwd=tcp:127.0.0.1:$WEB_PORT-:80}${RELAY_PORT:+,hostfwd=tcp:127.0.0.1:$RELAY_PORT-:8081} -device virtio-net-pci,netdev=net0
