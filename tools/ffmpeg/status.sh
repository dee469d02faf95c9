#!/usr/bin/env bash
# `make ffmpeg-status` (docs/security.md, "Security updates"): for each release and CPU a
# package is made for, the FFmpeg version the last build bundled and the newest Debian's
# archive has now (SUITE and SUITE-security). Fails when the archive is newer: the
# releases must then be rebuilt (`make release`, which builds the newest) and published.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tools/ffmpeg/archive.sh"
behind=0
for build in bookworm-amd64 trixie-amd64 trixie-arm64; do
  suite=${build%-*}
  bundled=$(cat "$FFMPEG_BASE/$build/source-version" 2>/dev/null || echo "")
  archive_update "$suite" || { echo "ffmpeg-status: Debian's $suite archive cannot be reached" >&2; exit 2; }
  newest=$(archive_version "$suite")
  if [ -z "$bundled" ]; then
    verdict="not built here (tools/ffmpeg/build.sh $suite ${build##*-})"
  elif dpkg --compare-versions "$newest" gt "$bundled"; then
    verdict="OUT OF DATE: Debian has $newest; rebuild and publish the releases (make release)"
    behind=1
  else
    verdict="up to date"
  fi
  printf '%-15s bundled %-22s archive %-22s %s\n' "$build" "${bundled:--}" "$newest" "$verdict"
done
exit $behind
