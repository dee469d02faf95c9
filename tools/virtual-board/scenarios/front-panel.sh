# Front panel on real kernel drivers (run in the virtual board, chrooted in the host's
# filesystem; tools/virtual-board/run.sh): gpio-sim carries the Pi panel's lines
# (board-configs/virtual-board.yaml), the appliance plays into snd-aloop. Turns the
# encoder three detents clockwise, presses play/pause, and records what the console says,
# what the status LED line shows and what the loopback's other side hears, in /mnt.
set -u
CFG=/sys/kernel/config/gpio-sim/board0
mkdir -p $CFG/bank0
echo 32 > $CFG/bank0/num_lines
echo 1 > $CFG/live
SIM=/sys/devices/platform/$(cat $CFG/dev_name)/$(cat $CFG/bank0/chip_name)
line() { echo "pull-$2" > "$SIM/sim_gpio$1/pull"; }
for l in 5 6 13 17 22 27; do line $l up; done   # released: the panel's pull-ups
# One quarter step of the encoder (A on line 5, B on line 6) as raw levels "AB".
ab() {
  case $1 in 0?) line 5 down ;; *) line 5 up ;; esac
  case $1 in ?0) line 6 down ;; *) line 6 up ;; esac
  sleep 0.004
}
detent_cw() { ab 10; ab 00; ab 01; ab 11; sleep 0.25; }
. "$DELAYBOX_ROOT/tools/virtual-board/scenarios/common.sh"
start_appliance
# The panel's thread drives the LED within a blink step of the state; under emulation the
# real-time audio thread can hold the one virtual CPU for seconds: wait up to 10 s
# (each reading is kept in led-trace.txt with the guest's uptime).
for i in $(seq 100); do
  echo "$(cat "$SIM/sim_gpio26/value") $(cut -d' ' -f1 /proc/uptime)" >> /mnt/led-trace.txt
  [ "$(cat "$SIM/sim_gpio26/value")" = 1 ] && break
  sleep 0.1
done
ctl status > /mnt/status-led.txt 2>&1
cat "$SIM/sim_gpio26/value" > /mnt/led-0.txt
arecord -q -D hw:CARD=Loopback,DEV=1 -f S16_LE -r 48000 -c 2 -d 4 /mnt/capture.wav &
CAPTURE=$!
detent_cw; detent_cw; detent_cw
sleep 0.5
ctl status > /mnt/status-1.txt 2>&1
wait $CAPTURE
line 17 down; sleep 0.1; line 17 up; sleep 1
ctl status > /mnt/status-2.txt 2>&1
cat "$SIM/sim_gpio26/value" > /mnt/led-2.txt
ctl gpio > /mnt/gpio.txt 2>&1
stop_appliance
