#!/usr/bin/env bash
# Installs Delaybox on a board over SSH, checks that it plays, and rolls back when not
# (docs/deploy.md):
#
#   deploy/install.sh --host HOST [--board NAME] [options]
#
#   --host HOST        the board (an SSH destination: name or address)
#   --board NAME       the board config to use (`delaybox boards`; e.g. pi4-hifiberry-dacplus);
#                      without it the board keeps the one it has
#   --deb FILE         the package to install (default: built for the board's
#                      architecture and Debian release by deploy/make-deb.sh)
#   --from-repo URL    instead: add a club's signed repository (deploy/make-repo.sh's
#                      folder at URL) to the board's apt sources and install its newest
#                      release from there, so the box keeps following it (apt upgrade,
#                      `update`); the board fetches URL/<suite>.sources itself, and this
#                      script checks it (deploy/check-sources.sh) before the board takes it:
#                      https://, or http:// only with --fingerprint
#   --fingerprint FPR  the repository key's fingerprint as the club publishes it
#                      (make-repo.sh's KEY-FINGERPRINT.txt): the entry's key must be it
#   --port N, --user USER, --identity FILE, --ssh-option OPTION (repeatable): how to log
#                      in (default user root; another user needs password-less sudo)
#   --timeout S        how long the health check waits for the release to be up (default 60)
#   --web-password     set the web page's password before the release starts: asked twice on
#                      the terminal (no echo), or read as one line from standard input
#   --dry-run          look at the board and say what would be done; change nothing
#
# Steps: look at the board (architecture, Debian release from /etc/os-release — 12
# bookworm or 13 trixie, Raspberry Pi OS alike —, installed version, board config); build or
# check the package; copy it; install it with apt (dependencies from the board's
# archive); restart; health check through the console language (`delayboxctl status`
# until the state is playing); on failure, reinstall the release that was running before
# (kept on the board in /var/lib/delaybox-deploy) and check it again. Running it twice
# with the same package and board changes nothing the second time.
#
# Exit status: 0 installed and healthy (or nothing to do); 1 the new release failed its
# check and the previous one runs again; 2 bad arguments; 3 the board or the package
# could not be reached or made; 4 the new release failed and no healthy release could be
# put back (the log says what the board said).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "install: $*" >&2; }
fail() { say "$2"; exit "$1"; }

HOST="" PORT="" USER_NAME=root IDENTITY="" BOARD="" DEB="" REPO="" FINGERPRINT="" TIMEOUT=60 DRY_RUN=false ASK_PASSWORD=false WEB_PASSWORD="" WEB_PASSWORD_SET=""
SSH_OPTIONS=(-o BatchMode=yes -o ConnectTimeout=10 -o ServerAliveInterval=5 -o ServerAliveCountMax=3
             -o StrictHostKeyChecking=accept-new -o LogLevel=ERROR)
while [ $# -gt 0 ]; do
  case "$1" in
    --host) HOST=${2:?--host needs a board}; shift 2 ;;
    --board) BOARD=${2:?--board needs a name}; shift 2 ;;
    --deb) DEB=${2:?--deb needs a file}; shift 2 ;;
    --from-repo) REPO=${2:?--from-repo needs the repository\'s address}; shift 2 ;;
    --fingerprint) FINGERPRINT=${2:?--fingerprint needs the key\'s fingerprint}; shift 2 ;;
    --port) PORT=${2:?--port needs a number}; shift 2 ;;
    --user) USER_NAME=${2:?--user needs a name}; shift 2 ;;
    --identity) IDENTITY=${2:?--identity needs a key file}; shift 2 ;;
    --ssh-option) SSH_OPTIONS+=(-o "${2:?--ssh-option needs an option}"); shift 2 ;;
    --timeout) TIMEOUT=${2:?--timeout needs seconds}; shift 2 ;;
    --web-password) ASK_PASSWORD=true; shift ;;
    --dry-run) DRY_RUN=true; shift ;;
    -h|--help) sed -n '2,34p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) fail 2 "unknown option $1 (see --help)" ;;
  esac
done
[ -n "$HOST" ] || fail 2 "which board? --host HOST (see --help)"
[ -z "$DEB" ] || [ -z "$REPO" ] || fail 2 "--deb or --from-repo, not both"
# The address is passed to a shell on the board (ssh joins its arguments into one command
# line): a URL's plain characters only, never a quote, `;`, `&`, `$` or a space.
[[ -z "$REPO" || "$REPO" =~ ^https?://[A-Za-z0-9._~:/%+=@-]+$ ]] \
  || fail 2 "--from-repo takes the repository's http(s) address (make-repo.sh's folder on a web host), not '$REPO'"
# Over plain http anyone on the path could hand the board their own entry and key, and so
# root: only with the key's fingerprint, which the club publishes elsewhere.
[[ -z "$REPO" || "$REPO" == https://* || -n "$FINGERPRINT" ]] \
  || fail 2 "--from-repo over http:// needs --fingerprint (the club's KEY-FINGERPRINT.txt), or use https://"
[[ -z "$FINGERPRINT" || "$(tr -d ' ' <<<"$FINGERPRINT")" =~ ^[0-9A-Fa-f]{40}$ ]] \
  || fail 2 "--fingerprint takes the key's 40 hex digits (KEY-FINGERPRINT.txt), not '$FINGERPRINT'"
REPO=${REPO%/}
# The web password is asked before anything is done (not after minutes of copying).
if $ASK_PASSWORD && ! $DRY_RUN; then
  if [ -t 0 ]; then
    read -rs -p "The web page's password for $HOST: " WEB_PASSWORD; echo >&2
    read -rs -p "Again: " again; echo >&2
    [ "$WEB_PASSWORD" = "$again" ] || fail 2 "the two passwords differ"
  else
    IFS= read -r WEB_PASSWORD || true
  fi
  [ ${#WEB_PASSWORD} -ge 8 ] || fail 2 "the web password is too short: at least 8 characters"
fi
[[ "$TIMEOUT" =~ ^[0-9]+$ ]] || fail 2 "--timeout takes whole seconds, not '$TIMEOUT'"
BOARD=${BOARD%.yaml}
[[ -z "$BOARD" || "$BOARD" =~ ^[A-Za-z0-9._-]+$ ]] || fail 2 "--board takes a board config's name (e.g. pi4-hifiberry-dacplus), not '$BOARD'"
[ -n "$PORT" ] && SSH_OPTIONS+=(-p "$PORT")
[ -n "$IDENTITY" ] && SSH_OPTIONS+=(-i "$IDENTITY" -o IdentitiesOnly=yes)
SUDO=""
[ "$USER_NAME" = root ] || SUDO="sudo -n"
TARGET="$USER_NAME@$HOST"
# One SSH connection for the whole install, shared by its commands and its copy: each new
# connection is a key exchange and a login, which a Pi Zero (or the emulated test board)
# takes seconds over. Closed when the script ends, however it ends.
CONNECTION=$(mktemp -d "${TMPDIR:-/tmp}/delaybox-install.XXXXXX")
SSH_OPTIONS+=(-o ControlMaster=auto -o "ControlPath=$CONNECTION/ssh" -o ControlPersist=60)
trap 'ssh -o "ControlPath=$CONNECTION/ssh" -O exit "$TARGET" >/dev/null 2>&1 || true; rm -rf "$CONNECTION"' EXIT
STORE=/var/lib/delaybox-deploy   # on the board: current.deb (the healthy release), board.yaml before a change
BOARD_FILE=/etc/delaybox/board.yaml

# Runs a shell script (stdin) on the board as root, with the arguments given.
on_board() { ssh "${SSH_OPTIONS[@]}" "$TARGET" $SUDO sh -s -- "$@"; }

# --- Look at the board (read-only).
say "looking at $TARGET${PORT:+ (port $PORT)}"
facts=$(on_board <<'EOF'
echo "arch=$(dpkg --print-architecture)"
echo "os=$(. /etc/os-release && echo "$ID ${VERSION_ID:-} ${VERSION_CODENAME:-}")"
echo "version=$(dpkg-query -W -f='${Status} ${Version}' delaybox 2>/dev/null | sed -n 's/^install ok installed //p')"
echo "current=$(sha256sum /var/lib/delaybox-deploy/current.deb 2>/dev/null | cut -d' ' -f1)"
echo "board=$(sed -n 's|^extends: */usr/share/delaybox/board-configs/\(.*\)\.yaml$|\1|p' /etc/delaybox/board.yaml 2>/dev/null)"
test -f /etc/delaybox/board.yaml && echo "has_board=yes"
echo "active=$(systemctl is-active delaybox.service 2>/dev/null)"
EOF
) || fail 3 "cannot reach $TARGET over SSH as root (key login${SUDO:+ and password-less sudo}); ssh said it above"
fact() { sed -n "s/^$1=//p" <<<"$facts"; }
ARCH=$(fact arch) INSTALLED=$(fact version) CURRENT_SUM=$(fact current) CURRENT_BOARD=$(fact board)
[ -n "$ARCH" ] || fail 3 "$TARGET did not say its architecture (is it Debian? dpkg --print-architecture)"
# The release decides the package (its libraries' sonames); Raspberry Pi OS says ID=raspbian
# on 32-bit images and debian on 64-bit ones, with Debian's VERSION_ID either way.
read -r OS_ID OS_VERSION OS_CODENAME <<<"$(fact os)"
case "$OS_VERSION" in
  12|13) DEBIAN=$OS_VERSION ;;
  *) fail 2 "$TARGET runs ${OS_ID:-an unknown system} ${OS_VERSION:-} ${OS_CODENAME:-}: Delaybox supports Debian 12 (bookworm) and 13 (trixie), Raspberry Pi OS on either" ;;
esac
board_said=${CURRENT_BOARD:-none}
[ -z "$CURRENT_BOARD" ] && [ "$(fact has_board)" = yes ] && board_said="its own $BOARD_FILE"
say "the board: $ARCH, Debian $DEBIAN, delaybox ${INSTALLED:-not installed}, board config $board_said, service $(fact active)"

# --- The package.
if [ -n "$REPO" ]; then
  # The board adds the repository (the entry make-repo.sh wrote for its suite, with the key
  # inside) and fetches its newest release into the store: apt checks the signatures, and
  # the steps below install and check it as they do a copied package.
  if $DRY_RUN; then say "dry run: would add $REPO/$OS_CODENAME.sources to the board's apt sources and install its newest delaybox"; exit 0; fi
  say "adding $REPO to the board's apt sources"
  # The board fetches the entry (its network, its view of the address); it is checked here,
  # where gpg is, and only then written into the board's apt sources.
  entry=$(on_board "$REPO" "$OS_CODENAME" <<'EOF'
/usr/lib/apt/apt-helper download-file "$1/$2.sources" /tmp/delaybox.sources >/tmp/delaybox-apt.log 2>&1 \
  || { echo "the board could not fetch $1/$2.sources:"; tail -3 /tmp/delaybox-apt.log; exit 1; }
head -c 65537 /tmp/delaybox.sources; rm -f /tmp/delaybox.sources
EOF
  ) || fail 3 "$(echo "$entry" | sed 's/^/  /')"
  printf '%s\n' "$entry" > "$CONNECTION/entry.sources"
  why=$("$ROOT/deploy/check-sources.sh" "$CONNECTION/entry.sources" "$REPO" "$OS_CODENAME" "$FINGERPRINT" 2>&1) \
    || fail 3 "$why; nothing was added to the board"
  fetched=$({ echo "entry=/etc/apt/sources.list.d/delaybox.sources"
    echo "cat > \$entry.new <<'DELAYBOX_SOURCES_END'"; cat "$CONNECTION/entry.sources"; echo "DELAYBOX_SOURCES_END"
    cat <<'EOF'
set -e
store=/var/lib/delaybox-deploy
mkdir -p $store
mv $entry.new $entry
apt-get update -q -o DPkg::Lock::Timeout=300 >/tmp/delaybox-apt.log 2>&1 || true
if grep -E '^(E|W):' /tmp/delaybox-apt.log | grep -F "$1"; then exit 1; fi
cd $store && rm -f delaybox_*.deb
apt-get download -q delaybox >/tmp/delaybox-apt.log 2>&1 || { echo "the repository has no delaybox for this board:"; tail -3 /tmp/delaybox-apt.log; exit 1; }
mv delaybox_*.deb incoming.deb
echo "sum=$(sha256sum incoming.deb | cut -d' ' -f1)"
echo "version=$(dpkg-deb -f incoming.deb Version)"
echo "arch=$(dpkg-deb -f incoming.deb Architecture)"
echo "boards=$(dpkg-deb -c incoming.deb | sed -n 's|.*/usr/share/delaybox/board-configs/\([^/]*\)\.yaml$|\1|p' | grep -vx base | sort | tr '\n' ' ')"
EOF
  } | on_board "$REPO") || fail 3 "$(echo "$fetched" | sed 's/^/  /')"
  SUM=$(sed -n 's/^sum=//p' <<<"$fetched") VERSION=$(sed -n 's/^version=//p' <<<"$fetched") boards=$(sed -n 's/^boards=//p' <<<"$fetched")
  say "the repository's release for this board: $VERSION"
else
if [ -z "$DEB" ]; then
  say "building the package for $ARCH, Debian $DEBIAN"
  DEB=$("$ROOT/deploy/make-deb.sh" --arch "$ARCH" --debian "$DEBIAN") || fail 3 "the package could not be built (above)"
fi
[ -f "$DEB" ] || fail 2 "no package at $DEB"
PKG_ARCH=$(dpkg-deb -f "$DEB" Architecture) VERSION=$(dpkg-deb -f "$DEB" Version)
[ "$PKG_ARCH" = "$ARCH" ] || fail 2 "$DEB is for $PKG_ARCH; the board is $ARCH (build with deploy/make-deb.sh --arch $ARCH)"
[[ "$VERSION" == *"~deb$DEBIAN" ]] \
  || fail 2 "$DEB ($VERSION) is not for Debian $DEBIAN, which the board runs (build with deploy/make-deb.sh --debian $DEBIAN)"
SUM=$(sha256sum "$DEB" | cut -d' ' -f1)
boards=$(dpkg-deb -c "$DEB" | sed -n 's|.*/usr/share/delaybox/board-configs/\([^/]*\)\.yaml$|\1|p' | grep -vx base | sort | tr '\n' ' ')
fi
if [ -n "$BOARD" ]; then
  [[ " $boards" == *" $BOARD "* ]] || fail 2 "no board config '$BOARD' in $VERSION; there are: $boards"
elif [ "$(fact has_board)" != yes ]; then
  fail 2 "the board has no board config yet: name one with --board (one of: $boards)"
fi
CHANGE_BOARD=false
[ -n "$BOARD" ] && [ "$BOARD" != "$CURRENT_BOARD" ] && CHANGE_BOARD=true

# --- Health: the release's own (`release-check --healthy`: up, answering `status` in any
# state, not restarted — whatever the station does); a release from before it had that,
# rolled back to, by the console's `status` saying playing (or paused).
# Prints the last status on failure, with the service's state and its latest warnings.
health_check() {
  on_board "$TIMEOUT" <<'EOF'
deadline=$(( $(date +%s) + $1 ))
if grep -q -- '--healthy)' /usr/lib/delaybox/release-check 2>/dev/null; then
  DELAYBOX_RELEASE_TIMEOUT=$1 /usr/lib/delaybox/release-check --healthy && exit 0
  deadline=0 status="" state=""
fi
while [ "$(date +%s)" -lt "$deadline" ]; do
  status=$(delayboxctl status 2>&1) && state=$(echo "$status" | sed -n 's/^state: //p') || state=""
  case "$state" in
    playing|paused) echo "healthy: $state, $(echo "$status" | sed -n 's/^delay_ms: //p') ms delay"; exit 0 ;;
  esac
  # A unit that gave up, or keeps failing, or could not start at all, will not get
  # better by waiting.
  case "$(systemctl is-active delaybox.service)" in failed) break ;; esac
  [ "$(systemctl show -p NRestarts --value delaybox.service)" -ge 3 ] && { echo "the service keeps failing (restarted 3 times)"; break; }
  systemctl show -p ConditionResult delaybox.service | grep -q '=no' && { echo "not started: no /etc/delaybox/board.yaml"; break; }
  sleep 1
done
[ "$deadline" = 0 ] || echo "unhealthy: service $(systemctl is-active delaybox.service), state ${state:-not answering} ($(echo "$status" | head -1))"
# Its last words, each once (a restart loop repeats them): the program's own first, then
# systemd's last two about it. (Six lines of both, as they came, were often all systemd's:
# each restart adds four lines of its own, which pushed the program's reason out.)
words=$(journalctl -u delaybox.service -n 40 --no-pager -o cat 2>/dev/null | awk 'NF && !seen[$0]++')
systemd='^(delaybox\.service: |Started |Starting |Stopped |Stopping |Failed to start |Scheduled restart)'
{ echo "$words" | grep -Ev "$systemd|^$" | tail -4; echo "$words" | grep -E "$systemd" | tail -2; } | sed 's/^/  journal: /'
exit 1
EOF
}

# Sets the web page's password on the board (standard input, never a command line) when
# --web-password asked for it, before the new release starts, so that its page never
# offers a first-password window: through the running service when there is one, else
# written straight beside the state file (`delaybox web-password`, as the service's user)
# once the package is unpacked. $1: "running" or "file".
set_web_password() {
  [ -n "$WEB_PASSWORD" ] && [ -z "$WEB_PASSWORD_SET" ] || return 0
  local answer command="delayboxctl web password"
  [ "$1" = file ] && command="sh -c 'install -d -o delaybox -g delaybox -m 0750 /var/lib/delaybox \
    && exec runuser -u delaybox -- delaybox web-password --state /var/lib/delaybox/state.json'"
  if answer=$(printf '%s\n' "$WEB_PASSWORD" | ssh "${SSH_OPTIONS[@]}" "$TARGET" $SUDO $command 2>&1); then
    WEB_PASSWORD_SET=yes
    say "the web page's password is set: http://$HOST/"
  elif [ "$1" = file ]; then
    fail 3 "the web page's password was not set: $answer"
  fi
}

# --- Nothing to do?
if [ "$SUM" = "$CURRENT_SUM" ] && [ "$INSTALLED" = "$VERSION" ] && ! $CHANGE_BOARD; then
  if $DRY_RUN; then say "dry run: $VERSION is installed already; would only check its health"; exit 0; fi
  if report=$(health_check); then say "$VERSION is installed already and $report; nothing to do"; set_web_password running; exit 0; fi
  say "$VERSION is installed already but $report; installing it again"
fi

if $DRY_RUN; then
  say "dry run: would copy $(basename "$DEB") ($(du -h "$DEB" | cut -f1)) to $TARGET:$STORE/incoming.deb"
  $CHANGE_BOARD && say "dry run: would write $BOARD_FILE: extends: /usr/share/delaybox/board-configs/$BOARD.yaml"
  say "dry run: would install $VERSION (over ${INSTALLED:-nothing}), restart delaybox, and wait up to $TIMEOUT s for it to play"
  if [ -n "$CURRENT_SUM" ]; then say "dry run: on failure, would roll back to ${INSTALLED} (kept in $STORE/current.deb)"
  else say "dry run: on failure, nothing to roll back to (no release installed by this script yet)"; fi
  exit 0
fi

# --- Copy, install, restart.
if [ -z "$REPO" ]; then
  say "copying $(basename "$DEB") ($(du -h "$DEB" | cut -f1))"
  # Through /tmp: the login user may not write $STORE (sudo moves it there).
  scp -q "${SSH_OPTIONS[@]/#-p/-P}" "$DEB" "$TARGET:/tmp/delaybox-incoming.deb" || fail 3 "copying to $TARGET failed (scp said it above)"
  on_board <<<"mkdir -p $STORE && mv /tmp/delaybox-incoming.deb $STORE/incoming.deb && sha256sum $STORE/incoming.deb" | grep -q "^$SUM " \
    || fail 3 "the package did not arrive whole (checksum differs); nothing was installed"
fi

# Installs a package kept in $STORE (and the board choice), restarting the service.
# $1: incoming.deb or current.deb; $2: a board name, "" to keep it, or "restore".
install_release() {
  on_board "$1" "$2" <<'EOF'
set -e
store=/var/lib/delaybox-deploy board_file=/etc/delaybox/board.yaml
mkdir -p /etc/delaybox
case "$2" in
  "") ;;
  restore) if [ -f $store/board.yaml.before ]; then cp $store/board.yaml.before $board_file; fi ;;
  *) [ -f $board_file ] && cp $board_file $store/board.yaml.before
     printf '# Written by deploy/install.sh --board %s\nextends: /usr/share/delaybox/board-configs/%s.yaml\n' "$2" "$2" > $board_file.new
     mv $board_file.new $board_file ;;
esac
export DEBIAN_FRONTEND=noninteractive
# An installer at the board means now: the package restarts the service at once.
export DELAYBOX_RESTART=now
# Dependencies come from the board's archive; the site file the installer edited stays.
if ! apt-get install -y -q --no-install-recommends --allow-downgrades --reinstall \
     -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "$store/$1" > /tmp/delaybox-apt.log 2>&1; then
  sed 's/^/  apt: /' /tmp/delaybox-apt.log | tail -15; exit 1
fi
sed -n 's/^\(Setting up\|delaybox:\).*/  &/p' /tmp/delaybox-apt.log
EOF
} >&2

# Restarts the service on the release installed (the health check says why if it fails).
restart_service() { on_board <<<"systemctl restart delaybox.service 2>/dev/null || true" >&2; }

# The box's own healer (/usr/lib/delaybox/release-check) stands aside while this script
# checks and rolls back; told afterwards which release plays.
keep_release() { on_board <<<"rm -f /run/delaybox-deploy; [ ! -x /usr/lib/delaybox/release-check ] || /usr/lib/delaybox/release-check --keep" >&2; }
on_board <<<"touch /run/delaybox-deploy"
say "installing $VERSION${INSTALLED:+ over $INSTALLED}$($CHANGE_BOARD && echo ", board config $BOARD")"
[ "$(fact active)" = active ] && set_web_password running
if install_release incoming.deb "$($CHANGE_BOARD && echo "$BOARD")" && set_web_password file && restart_service \
  && report=$(health_check); then
  on_board <<<"mv $STORE/incoming.deb $STORE/current.deb; rm -f $STORE/board.yaml.before"
  keep_release
  say "$VERSION on $HOST: $report"
  exit 0
fi
say "$VERSION on $HOST failed its check:"
echo "${report:-  (the package did not install: apt said it above)}" | sed 's/^/install:   /' >&2

# --- Roll back.
if [ -z "$CURRENT_SUM" ]; then
  on_board <<<"rm -f /run/delaybox-deploy"
  fail 4 "nothing to roll back to (the board had no release installed by this script); $VERSION stays installed"
fi
say "rolling back to $INSTALLED"
if install_release current.deb "$($CHANGE_BOARD && echo restore)" && restart_service && report=$(health_check); then
  on_board <<<"rm -f $STORE/incoming.deb $STORE/board.yaml.before"
  keep_release
  say "rolled back to $INSTALLED on $HOST: $report"
  exit 1
fi
echo "$report" | sed 's/^/install:   /' >&2
on_board <<<"rm -f /run/delaybox-deploy"
fail 4 "the rollback to $INSTALLED did not play either: not the release's fault? (the stream, the sound card, the board config); see journalctl -u delaybox on the board"
