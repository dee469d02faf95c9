#!/usr/bin/env bash
# Makes the build roots and the virtual boards' kernels and root filesystems in the
# background while `make test` compiles and fuzzes (issue 43: a fresh machine's make test
# spent ~7 minutes of its 45 in debootstrap, downloads and dpkg, one after the other, with
# the CPU half idle). Each is made by its own script, exactly as make test's later steps
# would make it; those steps run the scripts again afterwards, which return at once when
# the thing is made — or fail, and say why, as they would have without this.
#
#   tools/warm-roots.sh start LOG_DIR        # two chains of steps, niced, in the background
#   tools/warm-roots.sh wait LOG_DIR STEP…   # until those steps end; prints what they printed
#   tools/warm-roots.sh idle LOG_DIR         # the chains at idle priority from now on
#   tools/warm-roots.sh go LOG_DIR           # what waits for this machine's suites goes on
#
# Steps: trixie-root (the Debian 13 build root), arm64-root, board-12, board-13 and
# board-arm64 (a board's kernel, then its root filesystem; the arm64 board's kernel module
# is built in the arm64 root, its root filesystem configured on the emulated board itself,
# the longest step). Chains: arm64-root → board-arm64, and trixie-root → this machine's
# release's board (make test boots those two); each chain at nice 10, ending with the make
# that started it. Not run as root, nothing is started: debootstrap needs root, and the
# later steps say so.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/make-session.sh"
action=${1:-} logs=${2:-}

# A step's command lines (VARIABLE=value… script).
commands() {
  case $1 in
    trixie-root) echo "tools/debian-root/build.sh trixie" ;;
    arm64-root) echo "tools/arm64/build-root.sh" ;;
    board-arm64) echo "BOARD_ARCH=arm64 tools/virtual-board/build.sh"
                 echo "@hold"
                 echo "BOARD_ARCH=arm64 tools/virtual-board/build-rootfs.sh" ;;
    board-*) echo "BOARD_DEBIAN=${1#board-} tools/virtual-board/build.sh"
             echo "BOARD_DEBIAN=${1#board-} tools/virtual-board/build-rootfs.sh" ;;
  esac
}

# Until make test says `go`: the arm64 board's root filesystem, configured on the emulated
# board — ~9 minutes of two emulated CPUs and their disk writes — is not made while this
# machine's suites run, the real-time ones alone last. Beside them, at idle priority, a run
# failed a real-time test (CI9); a run with it held failed the same one (CI10), so it may not
# have been the cause: letting it run beside the host suites and stopping it for the
# real-time ones alone would save ~5 minutes fresh.
hold() {
  local started=$SECONDS
  until [ -e "$logs/warm-go" ]; do sleep 2; done
  echo "warm-roots: held $((SECONDS - started)) s, until this machine's suites had run"
}

step() {
  local name=$1 started=$SECONDS line
  while read -r line; do
    echo "warm-roots: $line"
    if [ "$line" = @hold ]; then hold; continue; fi
    # shellcheck disable=SC2086 # a command line: VARIABLE=value… script
    nice -n 10 env $line || { echo "warm-roots: '$line' failed; make test tries it again and says why"; break; }
  done < <(commands "$name") > "$logs/warm-$name.log" 2>&1
  echo "warm-roots: $name took $((SECONDS - started)) s" >> "$logs/warm-$name.log"
  touch "$logs/warm-$name.done"
}

case "$action" in
  start)
    [ "$(id -u)" -eq 0 ] || exit 0
    rm -f "$logs"/warm-*
    cd "$ROOT"
    : > "$logs/warm-started"
    # Each chain a session of its own that ends with make (tools/make-session.sh).
    make_pid=$(caller_make)
    for chain in "arm64-root board-arm64" "trixie-root board-$(. /etc/os-release && echo "$VERSION_ID")"; do
      # shellcheck disable=SC2086 # the chain's steps, as words
      DELAYBOX_MAKE_PID=$make_pid setsid "$0" chain "$logs" $chain < /dev/null > /dev/null 2>&1 &
      echo $! >> "$logs/warm-started"
    done
    ;;
  chain)
    shift 2
    end_with_make
    for name in "$@"; do step "$name"; done
    ;;
  wait)
    [ -e "$logs/warm-started" ] || exit 0
    shift 2
    started=$SECONDS
    # (A chain that is gone — killed — is not waited for: the later steps make it.)
    alive() { for pid in $(cat "$logs/warm-started"); do kill -0 "$pid" 2>/dev/null && return 0; done; return 1; }
    for name in "$@"; do
      until [ -e "$logs/warm-$name.done" ] || ! alive; do sleep 1; done
    done
    echo "warm-roots: waited $((SECONDS - started)) s for $* (made in the background):"
    for name in "$@"; do cat "$logs/warm-$name.log" 2>/dev/null; done
    ;;
  go)
    # This machine's suites have run (or make test stopped): what is held goes on.
    touch "$logs/warm-go"
    ;;
  idle)
    # While this machine's suites run (tools/platform-builds.sh): the chains and every
    # process of theirs, parents first so that what they start next inherits it.
    [ -e "$logs/warm-started" ] || exit 0
    demote() {
      chrt --all-tasks --idle --pid 0 "$1" 2>/dev/null || return 0
      for child in $(pgrep -P "$1"); do demote "$child"; done
    }
    for pid in $(cat "$logs/warm-started"); do demote "$pid"; done
    ;;
  *) echo "usage: tools/warm-roots.sh start|wait|idle|go LOG_DIR [STEP…]" >&2; exit 2 ;;
esac
