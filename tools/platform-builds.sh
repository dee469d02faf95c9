#!/usr/bin/env bash
# The other platforms' builds of `make test`, in the background while this machine's suites
# run: Debian 13's build in its build root (make test runs its adapters' tests afterwards,
# in the foreground: they play in real time), the arm64 package and make check's pure
# suites built with Swift 6.0 and run under emulation, the virtual boards (this machine's
# release's and the arm64 one) and the packages. This machine's suites leave more than half
# the CPU idle (measured: 57 % idle over their 450 s, waiting on real time), and these
# builds only compute: at
# SCHED_IDLE they take that idle CPU and nothing the suites' real-time tests wait for
# (a waking normal-priority thread preempts an idle-priority one at once). Run one after
# the other, as before, they took ~630 s after the suites' ~450 s.
#
#   tools/platform-builds.sh start LOG_DIR   # the chain, at idle priority, in the background
#   tools/platform-builds.sh wait LOG_DIR    # until it ends; prints its log; its status
#   tools/platform-builds.sh stop LOG_DIR    # ends it (make test stopping early)
#   tools/platform-builds.sh run LOG_DIR     # the chain itself, in the foreground
#
# The chain stops at its first failure, as make test's stages do; a step that cannot be
# made here is a skip (tools/skip.sh: as root, a failure).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tools/make-session.sh"
action=${1:-} logs=${2:-}
[ -n "$logs" ] || { echo "usage: tools/platform-builds.sh start|wait|stop|run LOG_DIR" >&2; exit 2; }

chain() {
  set -eo pipefail
  cd "$ROOT"
  tools/warm-roots.sh wait "$logs" trixie-root
  # Debian 13's FFmpeg 7.1, alsa-lib 1.2.14 and libgpiod 2: built there (make test runs the
  # adapters' tests there afterwards, in the foreground).
  tools/debian-root/build.sh trixie || tools/skip.sh "the Debian 13 build root could not be made (above): the Debian 13 build and its tests"
  if [ -e .build/roots/trixie/.done ]; then tools/debian-root/check.sh trixie "$logs" build; fi
  # The boards' CPU: Debian 13's arm64 package (every module built with Swift 6.0), and make
  # check's pure suites built with it and run under emulation (tools/arm64/check.sh).
  tools/warm-roots.sh wait "$logs" arm64-root
  tools/arm64/build-root.sh || tools/skip.sh "the arm64 build root could not be made (above): the arm64 build and its tests"
  if [ -e .build/roots/trixie-arm64/.done ]; then tools/arm64/check.sh "$logs"; fi
  # The boards make test boots (docs/hardware.md, docs/deploy.md): this machine's release's,
  # with its package, and the Pi's (Debian 13 on arm64), whose package tools/arm64/check.sh
  # made; and Debian 13's amd64 package, built in its build root, which the packages' tests
  # check.
  local host
  host=$(. /etc/os-release && echo "$VERSION_ID")
  tools/warm-roots.sh wait "$logs" "board-$host" board-arm64
  BOARD_DEBIAN=$host tools/virtual-board/build.sh \
    || tools/skip.sh "the Debian $host virtual board could not be built (above): its tests"
  BOARD_DEBIAN=$host tools/virtual-board/build-rootfs.sh \
    || tools/skip.sh "the Debian $host board's root filesystem could not be built (above): its deploy test"
  BOARD_ARCH=arm64 tools/virtual-board/build.sh \
    || tools/skip.sh "the arm64 virtual board could not be built (above): its tests"
  BOARD_ARCH=arm64 tools/virtual-board/build-rootfs.sh \
    || tools/skip.sh "the arm64 board's root filesystem could not be built (above): its tests"
  for n in 12 13; do
    rm -rf ".build/virtual-board/debian$n/release"
    deploy/make-deb.sh --debian "$n" --out ".build/virtual-board/debian$n/release" > /dev/null \
      || tools/skip.sh "the Debian $n package could not be built (above): its tests"
  done
}

case "$action" in
  run)
    echo $$ > "$logs/platform-builds.pid"
    end_with_make
    chain
    ;;
  start)
    rm -f "$logs/platform-builds.status" "$logs/platform-builds.pid"
    : > "$logs/platform-builds.started"
    # Its own session (tools/make-session.sh; `stop` ends it), at idle priority (its
    # children inherit it).
    ( DELAYBOX_MAKE_PID=$(caller_make) setsid chrt --idle 0 "$0" run "$logs" > "$logs/platform-builds.log" 2>&1
      echo $? > "$logs/platform-builds.status" ) < /dev/null > /dev/null 2>&1 &
    ;;
  wait)
    [ -e "$logs/platform-builds.started" ] || { echo "platform-builds: not started" >&2; exit 1; }
    started=$SECONDS
    # (Gone without a status — killed — it is not waited for.)
    until [ -e "$logs/platform-builds.status" ]; do
      pid=$(cat "$logs/platform-builds.pid" 2>/dev/null || echo 0)
      if [ "$pid" != 0 ] && ! kill -0 "$pid" 2>/dev/null; then sleep 1; break; fi
      sleep 1
    done
    echo "platform-builds: waited $((SECONDS - started)) s for the other platforms' builds (made in the background):"
    cat "$logs/platform-builds.log"
    status=$(cat "$logs/platform-builds.status" 2>/dev/null || echo 1)
    [ "$status" = 0 ] || echo "make test: the other platforms' builds failed (above)" >&2
    exit "$status"
    ;;
  stop)
    pid=$(cat "$logs/platform-builds.pid" 2>/dev/null) || exit 0
    end_session "$pid"
    ;;
  *) echo "usage: tools/platform-builds.sh start|wait|stop|run LOG_DIR" >&2; exit 2 ;;
esac
