# Shared by the scenarios (sourced; run in the virtual board, chrooted in the host's
# filesystem). $DELAYBOX_BIN holds delaybox and delayboxctl; /mnt is the test's directory.
# Every step must succeed: the first that fails ends the scenario with its status (the
# test fails and shows scenario.log, where each step is traced).
set -eux

# Runs `CMD…` every INTERVAL s until it succeeds, at most TRIES times; fails (naming
# what it waited for) when it never does.
wait_until() {
  tries=$1 interval=$2; shift 2
  for i in $(seq "$tries"); do
    "$@" && return 0
    sleep "$interval"
  done
  echo "gave up waiting for: $*" >&2
  return 1
}

# delayboxctl against the appliance's control socket.
ctl() { timeout 20 "$DELAYBOX_BIN/delayboxctl" "$@" --socket /run/control.sock; }

# Starts the appliance on $BOARD (default /mnt/board.yaml) at a 2 s delay (log: /mnt/delaybox.log), sets
# APPLIANCE to its PID and waits until it plays (its status: /mnt/status-0.txt).
start_appliance() {
  "$DELAYBOX_BIN/delaybox" run --board "${BOARD:-/mnt/board.yaml}" --state /run/state.json --socket /run/control.sock \
    --delay 2 > /mnt/delaybox.log 2>&1 &
  APPLIANCE=$!
  wait_until 120 0.5 is_playing
}
is_playing() { ctl status > /mnt/status-0.txt 2>&1 && grep -q playing /mnt/status-0.txt; }

# Notes when step NAME happened, on the guest's uptime (s), in /mnt/timeline.txt.
mark() { echo "$1 $(cut -d' ' -f1 /proc/uptime)" >> /mnt/timeline.txt; }

# Stops the appliance as systemd would; fails unless it exits 0.
stop_appliance() {
  kill "$APPLIANCE"
  status=0
  wait "$APPLIANCE" || status=$?
  echo "appliance exit $status"
  return "$status"
}

# The front panel on gpio-sim (board-configs/base.yaml's lines): creates the chip
# (gpiochip0 — on the arm64 board gpiochip1, after the machine's own —, 32 lines, labelled
# virtual-board-panel) with the inputs released (the panel's pull-ups) — all but the
# preset button's (27), which only the pull-up the appliance requests holds high; SIM
# is its sysfs directory, where each line's level can be set and the LED's read.
panel() {
  CFG=/sys/kernel/config/gpio-sim/board0
  mkdir -p $CFG/bank0
  echo 32 > $CFG/bank0/num_lines
  echo virtual-board-panel > $CFG/bank0/label
  echo 1 > $CFG/live
  SIM=/sys/devices/platform/$(cat $CFG/dev_name)/$(cat $CFG/bank0/chip_name)
  for l in 5 6 13 17 22; do line $l up; done
}
line() { echo "pull-$2" > "$SIM/sim_gpio$1/pull"; }
# One quarter step of the encoder (A on line 5, B on line 6) as raw levels "AB".
ab() {
  case $1 in 0?) line 5 down ;; *) line 5 up ;; esac
  case $1 in ?0) line 6 down ;; *) line 6 up ;; esac
  sleep 0.004
}
detent_cw() { ab 10; ab 00; ab 01; ab 11; sleep 0.25; }
# A short press of the button on line $1.
press() { line "$1" down; sleep 0.1; line "$1" up; }
# A short press whose contact bounces: four changes within a millisecond or so, then held
# down for 0.1 s and released. The changes are written at real-time priority 55: on the
# board's one emulated CPU a thread at the appliance's audio priority (FIFO 50) could
# otherwise hold the shell between two of them for longer than the debounce (10 ms), and
# by their kernel timestamps they would be two real presses. The kernel's irq threads
# that report the edges are raised to 60, above the writer: below it, they would run
# only once it is done, and the kernel would report the four changes as one edge.
bouncing_press() {
  for comm in /proc/[0-9]*/comm; do
    case $(cat "$comm") in irq/*) thread=${comm#/proc/}; chrt -f -p 60 "${thread%/comm}" ;; esac
  done
  SIM=$SIM chrt -f 55 sh -c 'for level in down up down up down; do echo "pull-$level" > "$SIM/sim_gpio$1/pull"; done' bounce "$1"
  sleep 0.1; line "$1" up
}
