# Sourced by the virtual board's scripts (with ROOT set): which Debian release the board
# runs — BOARD_DEBIAN from the environment (12 or 13), this machine's own by default.
# Sets DEBIAN, SUITE and BOARD, the board's build directory (.build/virtual-board/debianN).
. "$ROOT/deploy/debian-release.sh"
DEBIAN=${BOARD_DEBIAN:-$HOST_DEBIAN}
SUITE=$(suite "$DEBIAN")
BOARD="$ROOT/.build/virtual-board/debian$DEBIAN"
