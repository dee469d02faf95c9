#!/usr/bin/env bash
# Removes from the tree FS what dpkg's path filters RULES leave out (deploy/image/
# dpkg-excludes), as dpkg would have had they been in force: the last rule that matches a
# path decides; a `*` matches across directories. For what was unpacked before the filters
# were (debootstrap's first stage, a kernel package taken apart to check its modules).
#
#   tools/image/prune.sh RULES FS
set -euo pipefail
RULES=$1 FS=${2%/}
kinds=() patterns=()
while IFS= read -r line; do
  case "$line" in
    path-exclude=*) kinds+=(exclude) patterns+=("${line#path-exclude=}") ;;
    path-include=*) kinds+=(include) patterns+=("${line#path-include=}") ;;
    '' | '#'*) ;;
    *) echo "prune.sh: $RULES: not a path filter: $line" >&2; exit 2 ;;
  esac
done < "$RULES"
removed=0
while IFS= read -r -d '' file; do
  path=${file#"$FS"} verdict=include
  for i in "${!patterns[@]}"; do
    # shellcheck disable=SC2254 # the rule is a pattern
    case "$path" in ${patterns[$i]}) verdict=${kinds[$i]} ;; esac
  done
  if [ "$verdict" = exclude ]; then rm -f "$file"; removed=$((removed + 1)); fi
done < <(find "$FS" -xdev ! -type d -print0)
echo "prune.sh: $removed files left out of $FS" >&2
