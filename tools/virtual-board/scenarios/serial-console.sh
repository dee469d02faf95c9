# The console on the board's serial port (run in the virtual board; see front-panel.sh):
# the appliance takes /dev/ttyS1, which QEMU connects to the test's serial.sock. Starts
# the appliance, says so in /mnt/ready, and keeps it running until the test, done with
# the console, writes /mnt/done (at most 120 s).
set -u
. "$DELAYBOX_ROOT/tools/virtual-board/scenarios/common.sh"
start_appliance
touch /mnt/ready
for i in $(seq 240); do [ -e /mnt/done ] && break; sleep 0.5; done
stop_appliance
