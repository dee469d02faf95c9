#!/usr/bin/env bash
# The arm64 build's part of `make test` (docs/deploy.md): in the arm64 build root
# (tools/arm64/build-root.sh), with Debian 13's Swift 6.0.3 — the compiler of the boards'
# own release —
# - the Debian 13 arm64 package, as `make deb ARCH=arm64` makes it, into .build/arm64/deb
#   (the tests of the arm64 programs, Arm64BuildTests, and the arm64 board use it): every
#   module of the package, and no warning from our code may appear with 6.0 either;
# - `make check`'s package (tools/check: the pure modules and their suites — engine,
#   simulation, mixer, controls, console, config, log, the audio ring, the web page's logic,
#   the system types), cross-compiled, and
#   its suites run under user-mode emulation (tools/arm64-run). (The whole package's test
#   bundle, built here before, compiled every module a second time for ~250 s of a fresh
#   machine's CI; the suites it adds need this machine's devices and servers and do not run
#   here. The C adapters' and the composition root's tests are compiled by Swift 6.3 only.)
#
#   tools/arm64/check.sh LOG_DIR
#
# The suites are built optimized (with -enable-testing): unoptimized, the same suites took
# 12 min under emulation; optimized, 53–58 s (55 s natively, unoptimized); 144 s on 2026-11-30
# with the station clock's suites, quiet machine, the three-hour scenarios left out. Their own
# scratch directory keeps the package's release build (static Swift runtime) apart.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LOGS=$1
FFMPEG=$("$ROOT/tools/ffmpeg/build.sh" trixie arm64)
run() { "$ROOT/tools/debian-root/run.sh" trixie-arm64 env PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig \
  PKG_CONFIG_PATH="$FFMPEG" "$@"; }

rm -rf "$ROOT/.build/arm64/deb"
"$ROOT/deploy/make-deb.sh" --arch arm64 --out "$ROOT/.build/arm64/deb" 2>&1 > /dev/null | tee "$LOGS/build-arm64-release.log"
"$ROOT/tools/check-warnings.sh" "$LOGS/build-arm64-release.log" " with Swift 6.0 for arm64"

TESTS="$ROOT/.build/debian13-arm64-tests"
run swift build -c release -Xswiftc -enable-testing --build-tests --swift-sdks-path /opt/swift-sdks --swift-sdk debian13-arm64 \
  --package-path "$ROOT/tools/check" --scratch-path "$TESTS" 2>&1 | tee "$LOGS/build-arm64.log"
"$ROOT/tools/check-warnings.sh" "$LOGS/build-arm64.log" " with Swift 6.0 for arm64"

# Not here: the FFmpeg and ALSA suites (real servers and devices; the arm64 board runs
# those programs) and the killed-writer test, which starts a program of this machine's own
# build (an emulated process cannot start another arm64 one without binfmt) — and the
# station clock's three-hour scenarios, as make check leaves them to make test: 240 s of
# this run's 533 s when run one test at a time, and at idle priority beside make test's
# host suites the whole run took 471 s of its tests' 600 s limits (CI-style run,
# 2026-11-30; one run starved past them). The test bundle links the shared Swift runtime:
# the arm64 one, from the build root.
LD_LIBRARY_PATH=/opt/swift-arm64/usr/libexec/swift/lib/swift/linux "$ROOT/tools/arm64-run" \
  "$TESTS/aarch64-unknown-linux-gnu/release/DelayboxCheckPackageTests.xctest" --testing-library swift-testing \
  --filter '^Delaybox(Engine|Simulation|Mixer|Controls|Console|Config|Log|Web|System)Tests\.' \
  --skip 'aWriterKilledAtRandom|theHeardDelayHoldsAgainstTheStationsClockForThreeHours' 2>&1 | tee "$LOGS/test-arm64.log"
grep -qE 'Test run with [1-9][0-9]* tests passed' "$LOGS/test-arm64.log" || { echo "make test: no arm64 test ran" >&2; exit 1; }
