# Sourced by the scripts that make things from known inputs — the build roots
# (tools/debian-root/build.sh, tools/arm64/build-root.sh) and the box's own FFmpeg builds
# (tools/ffmpeg/build.sh). What they make is kept once per machine, outside the checkout,
# so that another clone of the project (CI's fresh one, a second worktree) finds it made
# instead of spending ~15 minutes of CPU and downloads on it again (issue 43).
#
# An entry is a directory named for what it is and a hash of its inputs (the stamp its
# script compares anyway), made once and never changed in place: clones at different
# commits use different entries, or share one. The checkout's .build/… path becomes a
# link to it. Entries no clone has used for 30 days are removed when a new one is kept (a
# clone still linking to one then makes it again).
#
#   DELAYBOX_CACHE=DIR   where (default ~/.cache/delaybox); DELAYBOX_CACHE= turns it off
CACHE=${DELAYBOX_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/delaybox}

# The entry for NAME made from STAMP.
cache_entry() { echo "$CACHE/$1-$(printf '%s' "$2" | sha256sum | cut -c1-16)"; }

# cache_use DIR NAME STAMP: when the cache holds NAME made from STAMP, DIR becomes a link to
# it (returns 0). Otherwise DIR is left for a build in place — a link to another stamp's
# entry is removed, never the entry itself — and returns 1.
cache_use() {
  local dir=$1 entry
  if [ -n "$CACHE" ]; then
    entry=$(cache_entry "$2" "$3")
    if [ -e "$entry/.cached" ]; then
      touch "$entry/.used"
      [ "$(readlink "$dir")" = "$entry" ] && return 0
      rm -rf "$dir"   # a link: the link alone; an older build in place: as a rebuild would
      mkdir -p "$(dirname "$dir")"
      ln -s "$entry" "$dir"
      return 0
    fi
  fi
  if [ -L "$dir" ]; then rm -f "$dir"; fi
  return 1
}

# cache_keep DIR NAME STAMP: DIR, just made from STAMP, moves into the cache and a link takes
# its place. Should another clone have kept the same meanwhile, theirs stays and DIR goes.
cache_keep() {
  local dir=$1 entry
  [ -n "$CACHE" ] || return 0
  entry=$(cache_entry "$2" "$3")
  mkdir -p "$CACHE"
  find "$CACHE" -mindepth 2 -maxdepth 2 -name .used -mtime +30 -printf '%h\n' | while read -r old; do
    rm -rf "$old"
  done
  touch "$dir/.cached" "$dir/.used"
  mv -T "$dir" "$entry" 2>/dev/null || rm -rf "$dir"
  ln -s "$entry" "$dir"
}
