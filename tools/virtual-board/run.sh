#!/usr/bin/env bash
# Boots the virtual board (tools/virtual-board/build.sh) on a scenario and waits for it
# to power off:
#
#   [BOARD_DEBIAN=12|13] [BOARD_ARCH=amd64|arm64] tools/virtual-board/run.sh DIR [TIMEOUT_S]
#
# DIR holds scenario.sh (and whatever it reads); it is the guest's /mnt, writable, where
# the scenario leaves its results, scenario.log and scenario.status. The guest sees this
# host's filesystem read-only (chrooted) — for another Debian release than this
# machine's, that release's build root (tools/debian-root), and for the arm64 board its
# own root filesystem (build-rootfs.sh; a snapshot), with this project at its own path, so the
# scenario runs with that release's and CPU's libraries — no network, 1 CPU and 512 MB
# under QEMU's software emulation; its kernel log goes to DIR/console.log, the serial port
# the board's console takes (tools/virtual-board/release.sh) is DIR/serial.sock.
# Exit status: the scenario's; 124 when it did not finish in time (default 240 s); 125 when the board went
# down before its scenario finished (a power cut on purpose, a panic: see console.log). With BOARD_DISK=FILE
# in the environment, FILE (a raw disk image) is the guest's /dev/vda, written back as
# the guest's block layer writes it: what the guest had not written when it lost power
# (sysrq `b`) is not there at the next boot, as on an SD card. (`cache=unsafe`: QEMU
# completes a write only once it is in this host's page cache, which outlives the guest's
# power cut, so the guest's flushes need not also wait for this host's disk: on a busy
# host that wait is the likeliest cause of a journal replay once seen hung for minutes.)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tools/virtual-board/release.sh"
DIR=$(realpath "$1")
TIMEOUT=${2:-240}
[ -f "$BOARD/vmlinuz" ] || { echo "run.sh: no virtual board: run tools/virtual-board/build.sh" >&2; exit 2; }
# The scenario's root: this host's filesystem, another release's build root, or — another
# CPU's board — the board's own root filesystem, with the project shared at its own path.
HOSTFS=/
APPEND=""
if [ "$ARCH" != amd64 ]; then
  [ -f "$BOARD/rootfs.img.stamp" ] || { echo "run.sh: no $ARCH root filesystem: run BOARD_ARCH=$ARCH tools/virtual-board/build-rootfs.sh" >&2; exit 2; }
  # First on the bus, so it is /dev/vda (a BOARD_DISK is /dev/vdb here).
  SCENARIO_ROOT=(-drive file="$BOARD/rootfs.img",format=raw,if=virtio,snapshot=on
                 -virtfs local,path="$ROOT",mount_tag=project,security_model=none,readonly=on,multidevs=remap)
  APPEND="board.hostdisk=/dev/vda board.project=$ROOT"
else
  if [ "$DEBIAN" != "$HOST_DEBIAN" ]; then
    HOSTFS="$ROOT/.build/roots/$SUITE"
    [ -e "$HOSTFS/.done" ] || { echo "run.sh: no Debian $DEBIAN build root: run tools/debian-root/build.sh $SUITE" >&2; exit 2; }
  fi
  SCENARIO_ROOT=(-virtfs local,path="$HOSTFS",mount_tag=host,security_model=none,readonly=on,multidevs=remap)
fi
if [ "$HOSTFS" != / ]; then
  # The project inside it, in a mount namespace of this run's own (gone when it ends).
  [ -n "${RUN_SH_NAMESPACE:-}" ] || exec unshare --mount --propagation private env RUN_SH_NAMESPACE=1 "$0" "$@"
  mkdir -p "$HOSTFS$ROOT"
  mount --bind "$ROOT" "$HOSTFS$ROOT"
fi
rm -f "$DIR/scenario.status"
board_machine "$DIR"
qemu=0
timeout --kill-after=10 "$TIMEOUT" "${MACHINE[@]}" -m 512 -smp 1 -no-reboot -display none -monitor none \
  -kernel "$BOARD/vmlinuz" -initrd "$BOARD/initramfs.cpio.gz" -append "console=$KERNEL_CONSOLE quiet panic=-1 $APPEND" \
  "${SCENARIO_ROOT[@]}" \
  -virtfs local,path="$DIR",mount_tag=out,security_model=none -nic none \
  ${BOARD_DISK:+-drive file="$BOARD_DISK",if=virtio,format=raw,cache=unsafe} > "$DIR/qemu.log" 2>&1 || qemu=$?
if [ ! -f "$DIR/scenario.status" ]; then
  if [ "$qemu" = 124 ] || [ "$qemu" = 137 ]; then
    echo "run.sh: the scenario did not finish within $TIMEOUT s; the board's console ended with:" >&2
    tail -n 15 "$DIR/console.log" >&2
    exit 124
  fi
  echo "run.sh: the board went down before its scenario finished (qemu exit $qemu; see $DIR/console.log)" >&2
  exit 125
fi
exit "$(cat "$DIR/scenario.status")"
