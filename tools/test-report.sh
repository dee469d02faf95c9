#!/usr/bin/env bash
# The end of `make test`: one line per test that did not run and why, and the programs the
# tests started that are still running.
#
#   tools/test-report.sh RUN LOG...
#
# RUN is the mark make test gave its test runs (DELAYBOX_TEST_RUN, inherited by every
# program they start); LOG… are the runs' outputs; out/skipped.txt holds what make test
# itself could not prepare. Fails when a program a test started (icecast2, ffmpeg, qemu,
# delaybox, a helper) outlived the suite, naming it,
# and — run as root, where deploy/setup-host.sh can install everything a test needs —
# when anything was skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
run=$1; shift
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

# Programs that carry this run's mark in their environment.
left=$(for environ in /proc/[0-9]*/environ; do
  pid=${environ#/proc/}; pid=${pid%/environ}
  [ "$pid" = $$ ] && continue
  { tr '\0' '\n' < "$environ"; } 2>/dev/null | grep -qxF "DELAYBOX_TEST_RUN=$run" && ps -o pid=,etimes=,args= -p "$pid"
done || true)
if [ -n "$left" ]; then
  echo "make test: still running after the suite (started by a test, never stopped):"
  echo "$left"
  status=1
else
  echo "make test: no test left a program running"
fi
exit $status
