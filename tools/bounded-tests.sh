#!/usr/bin/env bash
# Runs a test command for at most MINUTES, its output to the terminal and LOG. A suite's
# time limit records a failure but cannot stop a test blocked in a system call (CI7 here:
# a test waited 20 minutes on a child Foundation never saw end); past MINUTES the run is
# stopped and the tests that started and never finished are named.
#
#   tools/bounded-tests.sh MINUTES LOG COMMAND...
set -uo pipefail
minutes=$1 log=$2; shift 2
timeout --kill-after=30 "${minutes}m" "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" = 124 ] || [ "$status" = 137 ]; then
  echo "make test: stopped after $minutes min; started and never finished:"
  grep -oE '◇ Test [A-Za-z0-9_]+\(' "$log" | sed -E 's/◇ Test //; s/\($//' | sort -u | while read -r name; do
    grep -qE "(✔|✘) Test $name\(" "$log" || echo "  $name"
  done
fi
exit "$status"
