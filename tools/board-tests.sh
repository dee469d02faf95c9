#!/usr/bin/env bash
# The virtual boards' tests: this machine's release on its own CPU and the Pi's — Debian 13
# on arm64, emulated — a test process per board, both at once, each running its board's
# scenarios (VirtualBoardTests) and then its deploy (VirtualBoardDeployTests): a board is
# one emulated CPU, which takes one of this machine's cores. One after the other per board,
# not a stage for all boards' scenarios and then one for their deploys: the two boards'
# shares differ by stage (this machine's board has the power cuts, the arm64 board the
# slower deploy: 2026-11-27, at once, scenarios 299 s and 145 s, deploys 457 s and 658 s),
# so each stage waited for its slower board (moving two scenarios across evened out the
# first; the deploys' left a core idle ~200 s); together they come to 756 s and 803 s, and
# the boards' part of a warm make test went from 17.5 to 15.3 minutes. The power cuts run on this machine's board only (their
# writer is this machine's program). The front panel's scenario runs last, on each board in
# turn with the machine to itself: it times a bouncing button to the millisecond and
# measures knob_to_click_ms, and with two boards at once (no core left for anything else)
# the host took a board's CPU away for longer than the 10 ms debounce between two bounces,
# which the board's kernel then dated as two presses (CI19: paused and played again).
#
#   tools/board-tests.sh MINUTES LOG_DIR
#
# Each run is bounded by MINUTES (tools/bounded-tests.sh) and logged to
# LOG_DIR/test-board-BOARD.log, LOG_DIR/test-deploy-BOARD.log and LOG_DIR/test-board-panel.log;
# the boards' output is printed whole, a board at a time, when both have ended.
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
# A board per core: the deploy's board, alone, would get more CPUs (VirtualBoardDeployTests).
export BOARD_CPUS=1

# One board's scenarios but the front panel's, then its deploy: BOARD [ARGS for the scenarios…].
board_tests() {
  local board=$1 scenarios deploy
  shift
  DELAYBOX_BOARDS=$board "$ROOT/tools/bounded-tests.sh" "$minutes" "$logs/test-board-$board.log" \
    "$bundle" --testing-library swift-testing --filter 'VirtualBoardTests/' --skip FrontPanel "$@"
  scenarios=$?
  DELAYBOX_BOARDS=$board "$ROOT/tools/bounded-tests.sh" "$minutes" "$logs/test-deploy-$board.log" \
    "$bundle" --testing-library swift-testing --filter VirtualBoardDeployTests
  deploy=$?
  return $((scenarios | deploy))
}
pids=()
board_tests "$host" > "$logs/test-board-$host.out" 2>&1 &
pids+=($!)
if [ ${#boards[@]} -gt 1 ]; then
  board_tests debian13-arm64 --skip PowerCut > "$logs/test-board-debian13-arm64.out" 2>&1 &
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
