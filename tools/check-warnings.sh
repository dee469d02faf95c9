#!/usr/bin/env bash
# Fails when a build log holds a warning from our own code (Sources/, Tests/): the
# zero-warnings rule, for every build `make test` makes.
#
#   tools/check-warnings.sh BUILD_LOG [WHERE]      # WHERE: " on Debian 13", for the message
set -euo pipefail
if grep -E '^/.*/(Sources|Tests)/.*warning:' "$1"; then
  echo "make test: warnings in our code${2:-} (above)"
  exit 1
fi
