# Shared by the scenarios (sourced; run in the virtual board, chrooted in the host's
# filesystem). $DELAYBOX_BIN holds delaybox and delayboxctl; /mnt is the test's directory.

# delayboxctl against the appliance's control socket.
ctl() { timeout 20 "$DELAYBOX_BIN/delayboxctl" "$@" --socket /run/control.sock; }

# Starts the appliance on /mnt/board.yaml at a 2 s delay (log: /mnt/delaybox.log), sets
# APPLIANCE to its PID and waits until it plays (its status: /mnt/status-0.txt).
start_appliance() {
  "$DELAYBOX_BIN/delaybox" run --board /mnt/board.yaml --state /run/state.json --socket /run/control.sock \
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
