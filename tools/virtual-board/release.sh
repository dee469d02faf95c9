# Sourced by the virtual board's scripts (with ROOT set): which board they build or boot —
# BOARD_ARCH from the environment (amd64, this machine's CPU, by default; arm64, the
# boards' CPU, emulated) and BOARD_DEBIAN (12 or 13; this machine's own by default, 13 for
# arm64: the arm64 package is built for Debian 13 only). Sets ARCH, DEBIAN, SUITE and
# BOARD, the board's build directory (.build/virtual-board/debianN, debian13-arm64).
. "$ROOT/deploy/debian-release.sh"
ARCH=${BOARD_ARCH:-amd64}
case "$ARCH" in
  amd64) DEBIAN=${BOARD_DEBIAN:-$HOST_DEBIAN} ;;
  arm64) DEBIAN=${BOARD_DEBIAN:-13}
         [ "$DEBIAN" = 13 ] || { echo "virtual board: an arm64 board runs Debian 13 (the arm64 package is built for it only)" >&2; exit 2; } ;;
  *) echo "virtual board: BOARD_ARCH is amd64 or arm64, not $ARCH" >&2; exit 2 ;;
esac
SUITE=$(suite "$DEBIAN")
BOARD="$ROOT/.build/virtual-board/debian$DEBIAN"
[ "$ARCH" = amd64 ] || BOARD+="-$ARCH"

# Sets MACHINE to the QEMU command line of the board's CPU and consoles: the kernel's console
# (KERNEL_CONSOLE, for its command line) written to DIR/console.log, and the board's serial
# console — the port the appliance's console takes — on the Unix socket DIR/serial.sock.
# x86: two 16550 UARTs (ttyS0, ttyS1). arm64: QEMU's `virt` machine has one UART, a PL011
# as on a Pi (ttyAMA0): the board's; the kernel's console is a virtio console (hvc0).
# Software emulation throughout (see docs/hardware.md); a Cortex-A72 is a Pi 4's CPU.
board_machine() {
  local board_port=(-chardev socket,id=board,path="$1/serial.sock",server=on,wait=off -serial chardev:board)
  case "$ARCH" in
    amd64) MACHINE=(qemu-system-x86_64 -accel tcg,thread=multi -cpu max -serial file:"$1/console.log" "${board_port[@]}")
           KERNEL_CONSOLE=ttyS0 ;;
    arm64) MACHINE=(qemu-system-aarch64 -M virt -accel tcg,thread=multi -cpu cortex-a72 "${board_port[@]}"
                    -device virtio-serial-pci -chardev file,id=log,path="$1/console.log" -device virtconsole,chardev=log)
           KERNEL_CONSOLE=hvc0 ;;
  esac
}
