#!/usr/bin/env bash
# The virtual boards' scenarios (VirtualBoardTests): this machine's release on its own CPU
# and the Pi's — Debian 13 on arm64, emulated — a test process per board, both at once: a
# scenario's board is one emulated CPU, which takes one of this machine's cores and would
# leave the other idle (the arm64 board's process ends with two of this machine's board's
# scenarios, below). The power cuts run on this machine's board only (their writer is
# this machine's program). The front panel's scenario runs afterwards, on each board in
# turn with the machine to itself: it times a bouncing button to the millisecond and
# measures knob_to_click_ms, and with two boards at once (no core left for anything else)
# the host took a board's CPU away for longer than the 10 ms debounce between two bounces,
# which the board's kernel then dated as two presses (CI19: paused and played again).
#
#   tools/board-tests.sh MINUTES LOG_DIR
#
# Each run is bounded (tools/bounded-tests.sh) and logged to LOG_DIR/test-board-*.log;
# the two at once print their output whole when both have ended.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
minutes=$1 logs=$2
host=debian$(. /etc/os-release && echo "$VERSION_ID")
bundle="$ROOT/.build/debug/DelayboxPackageTests.xctest"
boards=("$host")
# The arm64 board as VirtualBoard.boards has it: when built, or as root (make test builds
# it; missing, it fails rather than goes unnoticed).
if [ -e "$ROOT/.build/virtual-board/debian13-arm64/rootfs.img.stamp" ] || [ "$(id -u)" = 0 ]; then
  boards+=(debian13-arm64)
fi

# One board's scenarios but the front panel's, filtered: BOARD LOG_NAME FILTER [ARGS…].
scenarios() {
  local board=$1 name=$2 filter=$3
  shift 3
  DELAYBOX_BOARDS=$board "$ROOT/tools/bounded-tests.sh" "$minutes" "$logs/test-board-$name.log" \
    "$bundle" --testing-library swift-testing --filter "$filter" --skip FrontPanel "$@"
}
# This machine's board has more to run (the power cuts): the arm64 board's process runs two
# of its scenarios after its own, so that both end near together (2026-11-27, at once: this
# machine's 299 s, the arm64 board's 145 s).
SHARED='VirtualBoardTests/(theConsoleAnswers|everyListedFormat)'
pids=()
if [ ${#boards[@]} = 1 ]; then
  scenarios "$host" "$host" 'VirtualBoardTests/' > "$logs/test-board-$host.out" 2>&1 &
  pids+=($!)
else
  scenarios "$host" "$host" 'VirtualBoardTests/' --skip "$SHARED" > "$logs/test-board-$host.out" 2>&1 &
  pids+=($!)
  (
    scenarios debian13-arm64 debian13-arm64 'VirtualBoardTests/' --skip PowerCut; own=$?
    scenarios "$host" "$host-shared" "$SHARED"; shared=$?
    exit $((own | shared))
  ) > "$logs/test-board-debian13-arm64.out" 2>&1 &
  pids+=($!)
fi
status=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || status=1
  echo "── the ${boards[$i]} board:"
  cat "$logs/test-board-${boards[$i]}.out"
done
DELAYBOX_BOARDS="${boards[*]}" "$ROOT/tools/bounded-tests.sh" "$minutes" "$logs/test-board-panel.log" \
  "$bundle" --testing-library swift-testing --filter 'VirtualBoardTests/theFrontPanel' || status=1
exit "$status"
