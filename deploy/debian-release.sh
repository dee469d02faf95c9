# Sourced by the deploy scripts: Debian releases by number. Sets HOST_DEBIAN (this
# machine's major release) and provides `suite N` (13 → trixie) and IN_RELEASE=(…), the
# prefix that runs a command in release $DEBIAN's build root (tools/debian-root), empty
# when that is this machine's own release.
HOST_DEBIAN=$(. /etc/os-release && echo "${VERSION_ID%%.*}")
suite() {
  case "$1" in
    12) echo bookworm ;;
    13) echo trixie ;;
    *) echo "Debian $1 is not supported (12 bookworm, 13 trixie)" >&2; return 2 ;;
  esac
}
# Sets IN_RELEASE for release $1.
in_release() {
  IN_RELEASE=()
  if [ "$1" != "$HOST_DEBIAN" ]; then IN_RELEASE=("$ROOT/tools/debian-root/run.sh" "$(suite "$1")"); fi
}
