# Sourced by tools/ffmpeg/build.sh and status.sh: Debian's archive as the box's FFmpeg
# sees it — the source packages of one release (SUITE and SUITE-security, where Debian's
# security updates of FFmpeg arrive), through an apt state of the project's own under
# .build/ffmpeg/apt/SUITE. The host's apt sources and lists are not touched; apt checks
# the indexes against Debian's archive keyring, and every file it downloads against them.
#
# Sets FFMPEG_BASE; defines archive_update SUITE, archive_version SUITE (the newest ffmpeg
# source version, epoch and all: 7:7.1.5-0+deb13u1) and archive_source SUITE VERSION DIR
# (that version's source, Debian's patches applied, extracted into DIR).
FFMPEG_BASE=${FFMPEG_BASE:-$ROOT/.build/ffmpeg}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

archive_apt() {
  local apt="$FFMPEG_BASE/apt/$1"
  shift
  "$@" -q -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
    -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o Dir::State::status=/dev/null \
    -o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)"
}

archive_update() {
  local apt="$FFMPEG_BASE/apt/$1"
  [ -r "$KEYRING" ] || { echo "ffmpeg: no $KEYRING (debian-archive-keyring): Debian's archive cannot be checked" >&2; return 1; }
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
  printf 'deb-src [signed-by=%s] http://deb.debian.org/debian %s main\n' "$KEYRING" "$1" > "$apt/sources.list"
  printf 'deb-src [signed-by=%s] http://deb.debian.org/debian-security %s-security main\n' "$KEYRING" "$1" >> "$apt/sources.list"
  archive_apt "$1" apt-get update > "$apt/update.log" 2>&1 || { cat "$apt/update.log" >&2; return 1; }
  # apt prints a signature it could not check as a warning and goes on without that index.
  ! grep -qE '^(W|E): .*(NO_PUBKEY|not signed|signature)' "$apt/update.log" || { cat "$apt/update.log" >&2; return 1; }
}

archive_version() {
  local newest="" v
  for v in $(archive_apt "$1" apt-cache showsrc ffmpeg 2>/dev/null | sed -n 's/^Version: //p'); do
    if [ -z "$newest" ] || dpkg --compare-versions "$v" gt "$newest"; then newest=$v; fi
  done
  echo "$newest"
}

archive_source() {
  local suite=$1 version=$2 dir=$3 download
  download=$(mktemp -d "$FFMPEG_BASE/download.XXXXXX")
  (cd "$download" && archive_apt "$suite" apt-get source --download-only "ffmpeg=$version") > "$download.log" 2>&1 \
    || { cat "$download.log" >&2; rm -rf "$download" "$download.log"; return 1; }
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")"
  dpkg-source -x "$download"/ffmpeg_*.dsc "$dir" > "$download.log" 2>&1 || { cat "$download.log" >&2; rm -rf "$download"; return 1; }
  rm -rf "$download" "$download.log"
}
