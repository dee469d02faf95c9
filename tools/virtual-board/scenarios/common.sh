# Shared by the scenarios (sourced; run in the virtual board, chrooted in the host's
# filesystem). $DELAYBOX_BIN holds delaybox and delayboxctl; /mnt is the test's directory.

# delayboxctl against the appliance's control socket.
ctl() { timeout 20 "$DELAYBOX_BIN/delayboxctl" "$@" --socket /run/control.sock; }

# Starts the appliance on $BOARD (default /mnt/board.yaml) at a 2 s delay (log: /mnt/delaybox.log), sets
# APPLIANCE to its PID and waits until it plays (its status: /mnt/status-0.txt).
start_appliance() {
  "$DELAYBOX_BIN/delaybox" run --board "${BOARD:-/mnt/board.yaml}" --state /run/state.json --socket /run/control.sock \
    --delay 2 > /mnt/delaybox.log 2>&1 &
  APPLIANCE=$!
  for i in $(seq 120); do
    ctl status > /mnt/status-0.txt 2>&1 && grep -q playing /mnt/status-0.txt && return 0
    sleep 0.5
  done
  return 1
}

# Stops the appliance as systemd would and reports how it ended.
stop_appliance() {
  kill "$APPLIANCE"
  wait "$APPLIANCE"
  echo "appliance exit $?"
}

# The front panel on gpio-sim (board-configs/base.yaml's lines): creates the chip
# (gpiochip0, 32 lines) with every input released (the panel's pull-ups); SIM is its
# sysfs directory, where each line's level can be set and the LED's read.
panel() {
  CFG=/sys/kernel/config/gpio-sim/board0
  mkdir -p $CFG/bank0
  echo 32 > $CFG/bank0/num_lines
  echo 1 > $CFG/live
  SIM=/sys/devices/platform/$(cat $CFG/dev_name)/$(cat $CFG/bank0/chip_name)
  for l in 5 6 13 17 22 27; do line $l up; done
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
