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
#   tools/warm-roots.sh pause|resume LOG_DIR # their emulated boards stopped, and going on
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
                 echo "BOARD_ARCH=arm64 tools/virtual-board/build-rootfs.sh" ;;
    board-*) echo "BOARD_DEBIAN=${1#board-} tools/virtual-board/build.sh"
             echo "BOARD_DEBIAN=${1#board-} tools/virtual-board/build-rootfs.sh" ;;
  esac
}

step() {
  local name=$1 started=$SECONDS line
  while read -r line; do
    echo "warm-roots: $line"
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
  pause|resume)
    # The real-time suites run alone (make test's QUIET_SUITES): the emulated boards that
    # configure a root filesystem — the arm64 one is ~9 minutes of two emulated CPUs and
    # their disk writes — stop meanwhile (SIGSTOP) and go on after (SIGCONT). Only the
    # emulators: a chain's shell and its watcher keep running, so a chain still ends with
    # make (end_session's SIGKILL ends a stopped process too). The guest's clock jumps by
    # the pause, which a root filesystem's second stage does not mind. (Until 2026-11-27 the
    # arm64 board's was held until the host suites had all run: CI9 failed a real-time test
    # with it beside them, but CI10 failed the same one with it held. Beside them it is made
    # by the time the other builds are (CI12: 926 s, done 400 s before them); the fresh run's
    # length did not change — those builds are its critical path, 1651 s against CI11's 1655.)
    [ -e "$logs/warm-started" ] || exit 0
    signal=STOP
    [ "$action" = resume ] && signal=CONT
    for pid in $(cat "$logs/warm-started"); do
      session=$(ps -o sid= -p "$pid" | tr -d ' ')
      [ -z "$session" ] || pkill "-$signal" -s "$session" '^qemu-system' || true
    done
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
  *) echo "usage: tools/warm-roots.sh start|wait|idle|pause|resume LOG_DIR [STEP…]" >&2; exit 2 ;;
esac
