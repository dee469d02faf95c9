#!/usr/bin/env bash
# Writes the manual page delaybox(1) on stdout, from the programs' own --help, so it
# says what the installed binaries do (deploy/make-deb.sh packages it):
#
#   deploy/manpage.sh PATH/TO/delaybox VERSION
#
# delayboxctl is expected beside delaybox; each subcommand of both gets its section.
# MANPAGE_RUN, when set, is the command that runs them (a release's build root,
# tools/arm64-run for an arm64 build).
set -euo pipefail
read -r -a RUN <<<"${MANPAGE_RUN:-}"
run() { "${RUN[@]}" "$@"; }
DELAYBOX=$1
VERSION=$2
CTL="$(dirname "$DELAYBOX")/delayboxctl"

# Subcommand names: the indented words under SUBCOMMANDS: in the top-level help.
subcommands() { run "$1" --help | awk '/^SUBCOMMANDS:/ {on=1; next} on && /^  [a-z]/ {print $1}'; }
# Help text as roff: verbatim lines, with roff's control characters escaped.
verbatim() { printf '.nf\n'; sed -e 's/\\/\\e/g' -e 's/^\([.'"'"']\)/\\\&\1/'; printf '.fi\n'; }

cat <<ROFF
.TH DELAYBOX 1 "" "delaybox $VERSION" "Delaybox"
.SH NAME
delaybox, delayboxctl \\- live commentary delayed to match the TV picture
.SH SYNOPSIS
.B delaybox run \\-\\-board
.I FILE
.RB [ \\-\\-site
.IR FILE ]
.br
.B delayboxctl
.I COMMAND
.RI [ ARGUMENTS ]
.SH DESCRIPTION
ROFF
run "$DELAYBOX" --help | verbatim
for sub in $(subcommands "$DELAYBOX"); do
  printf '.SS "delaybox %s"\n' "$sub"
  run "$DELAYBOX" help "$sub" | verbatim
done
printf '.SH DELAYBOXCTL\n'
run "$CTL" --help | verbatim
for sub in $(subcommands "$CTL"); do
  printf '.SS "delayboxctl %s"\n' "$sub"
  run "$CTL" help "$sub" | verbatim
done
# The console's commands (delayboxctl's default subcommand sends them as typed): a section
# each, from the language's own help (`delayboxctl line help`: a command a line, then
# `delayboxctl line help NAME`), those with a subcommand of their own above already.
shown=" $(subcommands "$CTL" | tr '\n' ' ') "
for name in $(run "$CTL" line help | awk '/^[a-z]+ / {print $1}'); do
  case "$shown" in *" $name "*) continue ;; esac
  printf '.SS "delayboxctl %s"\n' "$name"
  run "$CTL" line help "$name" | verbatim
done
cat <<'ROFF'
.SH FILES
.TP
.I /etc/delaybox/board.yaml
The board config (usually one line: extends: /usr/share/delaybox/board-configs/NAME.yaml).
.TP
.I /etc/delaybox/delaybox.conf
The site file: the installer's channels and defaults, laid over the board config.
.TP
.I /var/lib/delaybox/state.json
The settings kept across restarts: delay, volume, channel, presets.
.TP
.I /run/delaybox/control.sock
The control socket delayboxctl talks to.
.SH SEE ALSO
.BR systemctl (1),
.BR journalctl (1);
/usr/share/doc/delaybox/ (console.md, board-config.md, daemon.md, hardware.md, deploy.md).
ROFF
