#!/usr/bin/env bash
# The end of `make test`: one line per test that did not run and why, and the programs the
# tests started that are still running.
#
#   tools/test-report.sh STARTED LOG...
#
# STARTED is when make test began (seconds since the epoch); LOG… are the test runs'
# outputs; out/skipped.txt holds what make test itself could not prepare. Fails when a
# program a test started (icecast2, ffmpeg, qemu, delaybox) outlived the suite, naming it,
# and — run as root, where deploy/setup-host.sh can install everything a test needs —
# when anything was skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$1; shift
status=0

skipped=$( { cat out/skipped.txt 2>/dev/null || true; grep -h -E '(Test|Suite) .* skipped' "$@" 2>/dev/null || true; } | sed 's/^[^A-Za-z]* //')
if [ -n "$skipped" ]; then
  echo "make test: skipped:"
  echo "$skipped" | sed 's/^/  /'
  if [ "$(id -u)" -eq 0 ]; then
    echo "make test: run as root, nothing may be skipped (deploy/setup-host.sh installs what every test needs)"
    status=1
  fi
else
  echo "make test: nothing skipped"
fi

# Programs started since make test began (their age is less than make test's).
age=$(( $(date +%s) - started ))
left=$(ps -eo pid=,etimes=,args= | awk -v age="$age" '$2 <= age' |
       grep -E ' (/[^ ]*/)?(icecast2|ffmpeg|qemu-system-[a-z0-9_]+|delaybox|delayboxctl|delaybox-settings-writer|python3 -c .*SOURCE)( |$)' || true)
if [ -n "$left" ]; then
  echo "make test: still running after the suite (started by a test, never stopped):"
  echo "$left"
  status=1
else
  echo "make test: no test left a program running"
fi
exit $status
