#!/usr/bin/env bash
# Checks a club repository's apt entry (make-repo.sh's SUITE.sources) before a board adds
# it: whoever can change the file in transit (an http: link, a hostile network) gets root
# on the box through apt, so it must be exactly what make-repo.sh writes (docs/security.md):
#
#   deploy/check-sources.sh FILE URL SUITE [FINGERPRINT]
#
# One stanza; only Types (deb), URIs (exactly URL), Suites (exactly SUITE), Components and
# Signed-By holding one OpenPGP public key inline — never a path, never Trusted,
# Allow-Insecure or anything else apt would loosen a check with. With FINGERPRINT (40 hex
# digits, spaces allowed: what the club publishes) the key's own fingerprint must be it
# (gpg --show-keys). Exit status 0 when it passes; 1 with the reason on stderr.
set -euo pipefail
FILE=${1:?the entry} URL=${2:?the repository} SUITE=${3:?the suite} FINGERPRINT=${4:-}
refuse() { echo "the repository's $SUITE.sources: $*" >&2; exit 1; }
[ "$(wc -c < "$FILE")" -le 65536 ] || refuse "larger than 64 KiB: not an entry make-repo.sh writes"
LC_ALL=C grep -q $'\r' "$FILE" && refuse "has carriage returns"

# Fields by name (a continuation line belongs to the field above); comments dropped.
declare -A value=()
stanzas=0 field="" in_stanza=false
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in
    \#*) continue ;;
    "" | *[![:space:]]*) ;;
    *) line="" ;;  # spaces only: a blank line
  esac
  if [ -z "$line" ]; then in_stanza=false; continue; fi
  if [[ "$line" == [[:space:]]* ]]; then
    [ -n "$field" ] && $in_stanza || refuse "a continuation line with no field above it"
    value[$field]+=$'\n'"${line:1}"
    continue
  fi
  $in_stanza || { stanzas=$((stanzas + 1)); in_stanza=true; }
  [ "$stanzas" -le 1 ] || refuse "holds more than one repository: one stanza is taken"
  [[ "$line" =~ ^([A-Za-z][A-Za-z0-9-]*):[[:space:]]*(.*)$ ]] || refuse "'${line:0:40}' is not a field"
  field=${BASH_REMATCH[1]}
  case "${field,,}" in
    types|uris|suites|components|signed-by) ;;
    *) refuse "'$field' is not taken (make-repo.sh writes Types, URIs, Suites, Components and Signed-By only)" ;;
  esac
  field=${field,,}
  [ -z "${value[$field]+set}" ] || refuse "'$field' is written twice"
  value[$field]=${BASH_REMATCH[2]%"${BASH_REMATCH[2]##*[![:space:]]}"}
done < "$FILE"
[ "$stanzas" -eq 1 ] || refuse "holds no repository"
[ "${value[types]:-}" = deb ] || refuse "Types is '${value[types]:-}', not deb"
[ "${value[uris]:-}" = "${URL%/}" ] || [ "${value[uris]:-}" = "${URL%/}/" ] \
  || refuse "URIs is '${value[uris]:-}', not the repository it came from ($URL)"
[ "${value[suites]:-}" = "$SUITE" ] || refuse "Suites is '${value[suites]:-}', not $SUITE"
[ "${value[components]:-}" = main ] || refuse "Components is '${value[components]:-}', not main"
key=${value[signed-by]:-}
[[ "$key" == $'\n-----BEGIN PGP PUBLIC KEY BLOCK-----'* ]] \
  || refuse "Signed-By does not hold the repository's key inline (a path or nothing: apt would trust other keys)"
[ "$(grep -c -- '-----BEGIN PGP' <<<"$key")" -eq 1 ] || refuse "Signed-By holds more than one key block; one is taken"

[ -n "$FINGERPRINT" ] || exit 0
wanted=$(tr -d ' ' <<<"$FINGERPRINT" | tr 'a-f' 'A-F')
[[ "$wanted" =~ ^[0-9A-F]{40}$ ]] || refuse "--fingerprint takes the key's 40 hex digits, not '$FINGERPRINT'"
command -v gpg >/dev/null || refuse "gpg is needed here to check the key's fingerprint (apt-get install gpg)"
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
# The armored key as it was before it went into the entry: " ." lines are its blank lines.
keys=$(sed 's/^\.$//' <<<"${key#$'\n'}" | GNUPGHOME=$home gpg --batch --show-keys --with-colons 2>/dev/null) \
  || refuse "Signed-By's key cannot be read"
[ "$(grep -c '^pub:' <<<"$keys")" -eq 1 ] || refuse "Signed-By holds $(grep -c '^pub:' <<<"$keys") keys; one is taken"
# The primary key's fingerprint: the first fpr record, right after pub.
found=$(awk -F: '$1 == "fpr" { print $10; exit }' <<<"$keys")
[ "$found" = "$wanted" ] || refuse "its key is $found, not the fingerprint given ($wanted): not the club's repository"
