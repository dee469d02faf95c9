# Sourced by make test's background chains (tools/platform-builds.sh, tools/warm-roots.sh):
# each runs as a session of its own — out of reach of a Ctrl-C at make, and nothing of
# make's output held open — that ends with the make that started it, whichever way that make
# ends, every process of it: SwiftPM starts each compiler in a process group of its own, and
# one left behind when CI8's chain was stopped by its process group was still running,
# orphaned, an hour and a half later.

# The make that started the calling script: its parent, or the parent of make's shell for
# the line when that shell did not exec it.
caller_make() {
  local pid=$PPID
  [ "$(ps -o comm= -p "$pid")" = make ] || pid=$(ps -o ppid= -p "$pid" | tr -d ' ')
  echo "$pid"
}

# Ends every process of session SID.
end_session() {
  pkill -TERM -s "$1" 2>/dev/null || return 0
  sleep 2
  pkill -KILL -s "$1" 2>/dev/null || true
}

# In a session's leader: ends the session once the make in DELAYBOX_MAKE_PID is gone.
end_with_make() {
  [ -n "${DELAYBOX_MAKE_PID:-}" ] || return 0
  (while kill -0 "$DELAYBOX_MAKE_PID" 2>/dev/null; do sleep 2; done; end_session $$) < /dev/null > /dev/null 2>&1 &
}
