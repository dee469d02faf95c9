#!/usr/bin/env bash
# Makes the build roots and the virtual boards' kernels and root filesystems in the
# background while `make test` compiles and fuzzes (issue 43: a fresh machine's make test
# spent ~7 minutes of its 45 in debootstrap, downloads and dpkg, one after the other, with
# the CPU half idle). Each is made by its own script, exactly as make test's later steps
# would make it; those steps run the scripts again afterwards, which return at once when
# the thing is made — or fail, and say why, as they would have without this.
#
#   tools/warm-roots.sh start LOG_DIR   # two chains of them, niced, in the background
#   tools/warm-roots.sh wait LOG_DIR    # until both chains end; prints what they printed
#
# Chain 1 (each chain at nice 10): Debian 13 build root → Debian 13 board's kernel (built in that root) → its root
# filesystem. Chain 2: Debian 12 board's kernel → its root filesystem → the arm64 build
# root. Not run as root, nothing is started: debootstrap needs root, and the later steps
# say so.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
action=$1 logs=$2

chain() {
  local name=$1; shift
  for step in "$@"; do
    echo "warm-roots: $step"
    # shellcheck disable=SC2086 # a step is a command line: VARIABLE=value… script
    nice -n 10 env $step || { echo "warm-roots: '$step' failed; make test tries it again and says why"; break; }
  done > "$logs/warm-$name.log" 2>&1
  echo done >> "$logs/warm-$name.status"
}

case "$action" in
  start)
    [ "$(id -u)" -eq 0 ] || exit 0
    rm -f "$logs"/warm-*.log "$logs"/warm-*.status
    cd "$ROOT"
    for n in 1 2; do
      case $n in
        1) steps=("tools/debian-root/build.sh trixie" "BOARD_DEBIAN=13 tools/virtual-board/build.sh"
                  "BOARD_DEBIAN=13 tools/virtual-board/build-rootfs.sh") ;;
        2) steps=("BOARD_DEBIAN=12 tools/virtual-board/build.sh" "BOARD_DEBIAN=12 tools/virtual-board/build-rootfs.sh"
                  "tools/arm64/build-root.sh") ;;
      esac
      # Niced: the compiler and the fuzzers in the foreground come first. Nothing of make's
      # output is held open, so a make that stops early is not kept waiting for them.
      : > "$logs/warm-$n.log"
      (chain "$n" "${steps[@]}") < /dev/null > /dev/null 2>&1 &
    done
    ;;
  wait)
    [ -e "$logs/warm-1.log" ] || exit 0
    started=$SECONDS
    until [ -e "$logs/warm-1.status" ] && [ -e "$logs/warm-2.status" ]; do sleep 1; done
    echo "warm-roots: waited $((SECONDS - started)) s for the build roots and boards made in the background:"
    cat "$logs/warm-1.log" "$logs/warm-2.log"
    ;;
  *) echo "usage: tools/warm-roots.sh start|wait LOG_DIR" >&2; exit 2 ;;
esac
