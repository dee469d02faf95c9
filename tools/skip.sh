#!/usr/bin/env bash
# Records that part of `make test` cannot run here, and why (tools/test-report.sh lists
# it at the end). Run as root — where deploy/setup-host.sh installs everything — a skip is
# a failure instead.
#
#   tools/skip.sh "REASON"
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -eq 0 ]; then
  echo "make test: $1 cannot run, and as root nothing may be skipped" >&2
  exit 1
fi
mkdir -p out
echo "$1 (skipped)" >> out/skipped.txt
