# The sound card vanishes and comes back (run in the virtual board; see front-panel.sh):
# while the appliance plays into snd-aloop, the card is taken from its driver (sysfs
# unbind: to the appliance, exactly a card pulled out) for 3 s and given back. Records
# the appliance's log, its status before, during and after, and the loopback's other side
# after the card is back, in /mnt.
. "$DELAYBOX_ROOT/tools/virtual-board/scenarios/common.sh"
DRIVER=/sys/bus/platform/drivers/snd_aloop
# A demo channel whose first event (muted) comes after 800 s: the capture holds the timecode
# however long the reopening took. (With the default 90 s cycle, a reopening that took the
# back-off's longest turns put the capture past the demo's "muted" at 20 s, and it held the
# mute music: CI, one run in four here.)
cat > /mnt/pulled-board.yaml <<'YAML'
extends: /mnt/board.yaml
channels:
  - name: Timecode
    url: demo://commentary?cycle=3600
YAML
BOARD=/mnt/pulled-board.yaml
start_appliance
sleep 1                                     # the point: a second of playing before the card goes
echo snd_aloop.0 > $DRIVER/unbind
echo "unbound: $(ls /proc/asound/ | tr '\n' ' ')"
sleep 3                                     # the point: the card away for 3 s
ctl status > /mnt/status-1.txt 2>&1
ctl stats > /mnt/stats-1.txt 2>&1
echo snd_aloop.0 > $DRIVER/bind
echo "bound: $(ls /proc/asound/ | tr '\n' ' ')"
# The appliance retries with back-off (at most 5 s apart): give it time to reopen.
reopened() { [ "$(grep -c 'audio output alsa:hw:CARD=Loopback,DEV=0:' /mnt/delaybox.log)" -ge 2 ]; }
wait_until 40 0.5 reopened
sleep 1                                     # the point: the capture starts a second into the reopened output
arecord -q -D hw:CARD=Loopback,DEV=1 -f S16_LE -r 48000 -c 2 -d 3 /mnt/capture.wav
ctl status > /mnt/status-2.txt 2>&1
ctl stats > /mnt/stats-2.txt 2>&1
# The health check calls the output working again once it has stayed up 5 s, looking
# once a second: stopping before then (the steps above take ~5 s) would race it.
works_again() { grep -q 'output works again' /mnt/delaybox.log; }
wait_until 20 0.5 works_again
stop_appliance
