# Front panel on real kernel drivers (run in the virtual board, chrooted in the host's
# filesystem; tools/virtual-board/run.sh): gpio-sim carries the Pi panel's lines
# (board-configs/virtual-board.yaml), the appliance plays into snd-aloop. Turns the
# encoder three detents clockwise, presses play/pause (its contact bouncing), moves the play button
# (SIGHUP), sets the delay step live and turns one detent more, and records what the console says,
# what the status LED line shows and what the loopback's other side hears, in /mnt.
. "$DELAYBOX_ROOT/tools/virtual-board/scenarios/common.sh"
panel
start_appliance
# The panel's thread drives the LED within a blink step of the state; under emulation the
# real-time audio thread can hold the one virtual CPU for seconds: wait up to 10 s
# (each reading is kept in led-trace.txt with the guest's uptime).
led_on() {
  echo "$(cat "$SIM/sim_gpio26/value") $(cut -d' ' -f1 /proc/uptime)" >> /mnt/led-trace.txt
  [ "$(cat "$SIM/sim_gpio26/value")" = 1 ]
}
wait_until 100 0.1 led_on
ctl status > /mnt/status-led.txt 2>&1
cat "$SIM/sim_gpio26/value" > /mnt/led-0.txt
arecord -q -D hw:CARD=Loopback,DEV=1 -f S16_LE -r 48000 -c 2 -d 4 /mnt/capture.wav &
CAPTURE=$!
detent_cw; detent_cw; detent_cw
sleep 0.5
ctl status > /mnt/status-1.txt 2>&1
wait $CAPTURE
cat "$SIM/sim_gpio27/value" > /mnt/bias.txt   # held high by the bias the appliance requested
# The bounce comes while a real-time thread at the audio's priority holds the CPU for 20 ms
# at a time, with 1 ms gaps (for 1.5 s): what the appliance's own audio thread can do to it.
chrt -f 50 sh -c 'stop=$(( $(date +%s%N) + 1500000000 )); while [ "$(date +%s%N)" -lt $stop ]; do
  end=$(( $(date +%s%N) + 20000000 )); while [ "$(date +%s%N)" -lt $end ]; do :; done; sleep 0.001; done' &
HOG=$!
sleep 0.2
bouncing_press 17; wait $HOG; sleep 1
ctl status > /mnt/status-2.txt 2>&1
cat "$SIM/sim_gpio26/value" > /mnt/led-2.txt
ctl gpio > /mnt/gpio.txt 2>&1
# A reload that moves the play button to line 24: the panel requests its lines again.
line 24 up
# (in a file extending the running one, whose own `gpio:` may name the chip: arm64)
mv /mnt/board.yaml /mnt/board-before.yaml
printf 'extends: board-before.yaml\ngpio:\n  buttons:\n    play:\n      line: 24\n' > /mnt/board.yaml
kill -HUP "$APPLIANCE"
panel_again() { [ "$(grep -c 'front panel on' /mnt/delaybox.log)" -ge 2 ]; }
wait_until 100 0.2 panel_again
press 24; sleep 1
ctl status > /mnt/status-3.txt 2>&1
ctl gpio > /mnt/gpio-2.txt 2>&1
# The delay step set live from the console: the panel takes it for its next detent.
ctl config set defaults.delay_step 500 ms > /mnt/step.txt 2>&1
panel_third() { [ "$(grep -c 'front panel on' /mnt/delaybox.log)" -ge 3 ]; }
wait_until 50 0.2 panel_third || echo "the front panel was not started again" >> /mnt/step.txt
ctl status > /mnt/status-4.txt 2>&1
detent_cw; sleep 0.5
ctl status > /mnt/status-5.txt 2>&1
# Issue 44's knob_to_click_ms: twenty detents more, a third of a second apart. The box times
# each click from the kernel's timestamp of the detent's last edge to the click's first
# frame at the jack (behind the queue ALSA reports); `stats` sums up the latest.
for _ in $(seq 20); do detent_cw; sleep 0.1; done
ctl stats > /mnt/stats.txt 2>&1
stop_appliance
