#!/usr/bin/env bash
# The build and the C adapters' tests against another Debian release's libraries (make
# test): builds everything with its tests in the release's build root (into
# .build/debianN; no warning from our code may appear there either), then runs the tests
# of the adapters whose C library differs by release — FFmpeg, alsa-lib, libgpiod — there.
#
#   tools/debian-root/check.sh SUITE LOG_DIR [build|test]
#
# make test builds (`build`) in the background beside this machine's suites, and runs the
# tests (`test`) afterwards in the foreground: among them are the audio suites, which play
# in real time.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=$1 LOGS=$2 PHASE=${3:-all}
number=$(case "$SUITE" in trixie) echo 13 ;; bookworm) echo 12 ;; esac)
# With the box's own FFmpeg for that release (tools/ffmpeg/build.sh).
FFMPEG=$("$ROOT/tools/ffmpeg/build.sh" "$SUITE" "$(dpkg --print-architecture)")
run() { "$ROOT/tools/debian-root/run.sh" "$SUITE" env PKG_CONFIG_PATH="$FFMPEG" "$@"; }
if [ "$PHASE" != test ]; then
  run swift build --build-tests --scratch-path "$ROOT/.build/debian$number" 2>&1 | tee "$LOGS/build-$SUITE.log"
  "$ROOT/tools/check-warnings.sh" "$LOGS/build-$SUITE.log" " on Debian $number"
fi
[ "$PHASE" != build ] || exit 0
run swift test --skip-build --scratch-path "$ROOT/.build/debian$number" \
  --filter 'DelayboxFFmpegTests|DelayboxAudioTests|DelayboxControlsTests\.GPIO' 2>&1 | tee "$LOGS/test-$SUITE.log"
