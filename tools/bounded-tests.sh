#!/usr/bin/env bash
# Runs a test command for at most MINUTES, its output to the terminal and LOG. A suite's
# time limit records a failure but cannot stop a test blocked in a system call (CI7 here:
# a test waited 20 minutes on a child Foundation never saw end); past MINUTES the run is
# stopped and the tests that started and never finished are named. A failed run ends
# with its failures again: CI keeps only the tail of a long log (stop 49's told "1 issue"
# and not which).
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
if [ "$status" != 0 ]; then
  echo "make test: what failed in $log (each issue and the lines it printed with it):"
  # An issue's message may span lines; they run until the next event line (◇ ✔ ✘ ↳ ✘).
  awk '/recorded an issue|error:|Fatal error|Crash|signal code/ { n = 12; print "  " $0; next }
       n > 0 && !/^(◇|✔|✘|􀟈|􁁛|􀢄) / { n--; print "    " $0; next }
       { n = 0 }
       /^✘ (Test|Suite)/ { print "  " $0 }' "$log" | head -150
fi
exit "$status"
