#!/usr/bin/env bash
# Makes the signed apt repository a club publishes (docs/deploy.md, "Publishing releases"):
#
#   deploy/make-repo.sh --key SECRET_KEY [--url URL] [--out DIR] PACKAGE.deb...
#   deploy/make-repo.sh --sources SUITE --key SECRET_KEY --url URL   # one suite's entry, on stdout
#
# SECRET_KEY is the path of an OpenPGP secret key (armoured or binary; keep the file off
# the web host); it is imported into a throwaway keyring, never into the caller's. A key
# with a passphrase (as it should have: the file gives root on every box) is unlocked
# once: the passphrase is asked on the terminal, or read as one line from standard input,
# and handed to that keyring's own agent only (gpg-preset-passphrase), never to a command
# line. Each package goes to its Debian release's suite (…~deb12: bookworm,
# …~deb13: trixie), component main, with Debian's reprepro, which signs InRelease and
# Release.gpg. DIR (default out/repo) is the folder to put on any static web host:
# dists/, pool/, the public key (delaybox-archive-keyring.gpg, .asc), its fingerprint
# (KEY-FINGERPRINT.txt) and, when URL says where DIR will be served, a deb822 source
# per suite (bookworm.sources, trixie.sources) with the key inside — the one file a box
# needs. reprepro's own state (its conf and database) is kept beside it in DIR.state, so
# that the next release is added to the same repository; DIR holds only what is published.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "make-repo: $*" >&2; }
KEY="" URL="" OUT="$ROOT/out/repo" SOURCES=""
while [ $# -gt 0 ]; do
  case "$1" in
    --key) KEY=${2:?--key needs a file}; shift 2 ;;
    --url) URL=${2:?--url needs the repository\'s address}; shift 2 ;;
    --out) OUT=${2:?--out needs a directory}; shift 2 ;;
    --sources) SOURCES=${2:?--sources needs a suite}; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) say "unknown option $1 (see --help)"; exit 2 ;;
    *) break ;;
  esac
done
[ -r "$KEY" ] || { say "no readable secret key at '${KEY}' (--key FILE)"; exit 2; }
for tool in gpg reprepro; do command -v "$tool" >/dev/null || { say "$tool is missing (deploy/setup-host.sh installs it)"; exit 1; }; done

GNUPGHOME=$(mktemp -d)
export GNUPGHOME
trap 'gpgconf --kill all >/dev/null 2>&1 || true; rm -rf "$GNUPGHOME"' EXIT
gpg --batch --quiet --import "$KEY" 2>/dev/null || { say "$KEY is not an OpenPGP key"; exit 2; }
FINGERPRINT=$(gpg --batch --with-colons --list-secret-keys | awk -F: '/^fpr:/ { print $10; exit }')
[ -n "$FINGERPRINT" ] || { say "$KEY holds no secret key: a repository is signed with one"; exit 2; }
# Signs without asking when the key has no passphrase; else unlocks it once.
signs() { echo delaybox | gpg --batch --pinentry-mode error -u "$FINGERPRINT" --clearsign >/dev/null 2>&1; }
if [ -z "$SOURCES" ] && ! signs; then
  if [ -t 0 ]; then read -rs -p "The passphrase of $KEY: " PASSPHRASE; echo >&2
  else IFS= read -r PASSPHRASE || true; fi
  [ -n "$PASSPHRASE" ] || { say "$KEY has a passphrase: give it on the terminal or as a line on standard input"; exit 2; }
  echo allow-preset-passphrase > "$GNUPGHOME/gpg-agent.conf"
  gpgconf --kill gpg-agent
  for grip in $(gpg --batch --with-keygrip --with-colons --list-secret-keys | awk -F: '/^grp:/ { print $10 }'); do
    printf '%s' "$PASSPHRASE" | /usr/lib/gnupg/gpg-preset-passphrase --preset "$grip" || true
  done
  unset PASSPHRASE
  signs || { say "the passphrase does not unlock $KEY"; exit 2; }
fi

# A suite's deb822 source, its key inline (apt 2.3.10 and later: Debian 12 and 13).
sources() {
  printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By:\n' "$URL" "$1"
  gpg --batch --armor --export "$FINGERPRINT" | sed 's/^$/./; s/^/ /'
}
if [ -n "$SOURCES" ]; then
  [ -n "$URL" ] || { say "--sources needs --url"; exit 2; }
  sources "$SOURCES"
  exit 0
fi
[ $# -gt 0 ] || { say "no packages given"; exit 2; }

STATE="$OUT.state"
mkdir -p "$STATE/conf" "$OUT"
cat > "$STATE/conf/distributions" <<DIST
Origin: Delaybox
Label: Delaybox
Suite: bookworm
Codename: bookworm
Architectures: amd64 arm64
Components: main
Description: Delaybox releases for Debian 12 (Raspberry Pi OS bookworm)
SignWith: $FINGERPRINT

Origin: Delaybox
Label: Delaybox
Suite: trixie
Codename: trixie
Architectures: amd64 arm64
Components: main
Description: Delaybox releases for Debian 13 (Raspberry Pi OS trixie)
SignWith: $FINGERPRINT
DIST
printf 'basedir %s\noutdir %s\n' "$STATE" "$OUT" > "$STATE/conf/options"
for deb in "$@"; do
  case "$deb" in
    *~deb12_*) suite=bookworm ;;
    *~deb13_*) suite=trixie ;;
    *) say "$deb: not a package for Debian 12 or 13 (…~deb12_ARCH.deb, …~deb13_ARCH.deb)"; exit 2 ;;
  esac
  reprepro --silent -b "$STATE" includedeb "$suite" "$deb" || { say "reprepro refused $deb (above)"; exit 1; }
  say "$suite: $(basename "$deb")"
done
gpg --batch --export "$FINGERPRINT" > "$OUT/delaybox-archive-keyring.gpg"
gpg --batch --armor --export "$FINGERPRINT" > "$OUT/delaybox-archive-keyring.asc"
echo "$FINGERPRINT" > "$OUT/KEY-FINGERPRINT.txt"
if [ -n "$URL" ]; then
  for suite in bookworm trixie; do sources "$suite" > "$OUT/$suite.sources"; done
fi
say "signed with $FINGERPRINT: $OUT (publish it as it is; keep $STATE for the next release)"
