#!/usr/bin/env bash
# The x86 virtual boards' scenarios (VirtualBoardTests), a test process per Debian release,
# both at once: a scenario's board is one emulated CPU, which takes one of this machine's
# cores and leaves the other idle, so the two releases one after the other took 550 s.
# The power cuts run on this machine's release's board only (as they did before). The
# front panel's scenario runs afterwards, on each board in turn with the machine to
# itself: it times a bouncing button to the millisecond and measures knob_to_click_ms,
# and with both boards at once (no core left for anything else) the host took a board's
# CPU away for longer than the 10 ms debounce between two bounces, which the board's
# kernel then dated as two presses (CI19: paused and played again).
#
#   tools/board-tests.sh MINUTES LOG_DIR
#
# Each run is bounded (tools/bounded-tests.sh) and logged to LOG_DIR/test-board-*.log;
# the two at once print their output whole when both have ended.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
minutes=$1 logs=$2
host=$(. /etc/os-release && echo "$VERSION_ID")
bundle="$ROOT/.build/debug/DelayboxPackageTests.xctest"
releases=("$host")
# Debian 13's board as VirtualBoard.releases has it: when built, or as root (make test
# builds it; missing, it fails rather than goes unnoticed).
if [ "$host" != 13 ] && { [ -e "$ROOT/.build/virtual-board/debian13/vmlinuz" ] || [ "$(id -u)" = 0 ]; }; then
  releases+=(13)
fi

pids=()
for release in "${releases[@]}"; do
  skip=()
  [ "$release" = "$host" ] || skip=(--skip PowerCut)
  skip+=(--skip FrontPanel)
  DELAYBOX_BOARD_RELEASE=$release "$ROOT/tools/bounded-tests.sh" "$minutes" "$logs/test-board-$release.log" \
    "$bundle" --testing-library swift-testing --filter 'VirtualBoardTests/' "${skip[@]}" > "$logs/test-board-$release.out" 2>&1 &
  pids+=($!)
done
status=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || status=1
  echo "── the Debian ${releases[$i]} board:"
  cat "$logs/test-board-${releases[$i]}.out"
done
"$ROOT/tools/bounded-tests.sh" "$minutes" "$logs/test-board-panel.log" \
  "$bundle" --testing-library swift-testing --filter 'VirtualBoardTests/theFrontPanel' || status=1
exit "$status"
