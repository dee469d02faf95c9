# The console on the board's serial port (run in the virtual board; see front-panel.sh):
# the appliance takes /dev/ttyS1, which QEMU connects to the test's serial.sock. Starts
# the appliance, says so in /mnt/ready, and keeps it running until the test, done with
# the console, writes /mnt/done (at most 120 s).
. "$DELAYBOX_ROOT/tools/virtual-board/scenarios/common.sh"
start_appliance
# Enough recorded that the test's `delay 2.5` is within what can be set.
four_seconds_recorded() { [ "$(ctl status | awk '/^available_delay_ms:/ {print $2}')" -ge 4000 ] 2>/dev/null; }
wait_until 60 0.5 four_seconds_recorded
touch /mnt/ready
wait_until 240 0.5 test -e /mnt/done
stop_appliance
