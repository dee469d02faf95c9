# An IR remote on real kernel drivers (run in the virtual board, chrooted in the host's
# filesystem; tools/virtual-board/run.sh): rc-loopback is the IR receiver — what its
# transmitter sends comes back to it —, the kernel's NEC decoder and the shipped keymap
# (deploy/rc_keymaps/car-mp3.toml, loaded by the package's loader, deploy/debian/load-keymap,
# from the board config's remote.keymap, as udev and the service run it on a board) turn
# the Car MP3 remote's codes into keys, and the appliance reads them from the receiver's input device,
# found by its name, with the shipped remote's keys (board-configs/remotes/car-mp3.yaml).
# Each key's effect is recorded from the control socket in /mnt.
. "$DELAYBOX_ROOT/tools/virtual-board/scenarios/common.sh"
RC=$(ls /sys/class/rc | head -n 1)
LIRC=/dev/$(ls "/sys/class/rc/$RC" | grep '^lirc' | head -n 1)
NAME=$(cat /sys/class/rc/"$RC"/input*/name)
echo "$NAME" > /mnt/receiver-name.txt
cat > /mnt/remote-board.yaml <<YAML
extends: [/mnt/board.yaml, $DELAYBOX_ROOT/board-configs/remotes/car-mp3.yaml]
remote:
  device: $NAME
  keymap: $DELAYBOX_ROOT/deploy/rc_keymaps/car-mp3.toml
channels:
  - name: Home
    url: demo://commentary
  - name: Away
    url: demo://commentary?cycle=3600
YAML
BOARD=/mnt/remote-board.yaml
DELAYBOX_BOARD=$BOARD DELAYBOX_PROGRAM="$DELAYBOX_BIN/delaybox" sh "$DELAYBOX_ROOT/deploy/debian/load-keymap" --all > /mnt/keytable.txt 2>&1
panel
start_appliance
wait_until 60 0.5 grep -q "remote: '$NAME'" /mnt/delaybox.log
# A press: one NEC message; a key held: the message again every ~110 ms (each write lasts
# the message's 67.5 ms, then a 40 ms gap), which rc-core turns into the key's autorepeat.
# rc-core releases a key when no message came for the receiver's timeout plus NEC's 110 ms;
# rc-loopback's 100 ms timeout left ~100 ms of margin, and a board stalled that long by the
# host's load had the kernel itself report a release and a second press in the middle of a
# hold (stop 51's CI: nine presses for eight keys). 300 ms triples the margin and still
# releases a single press (410 ms) before the kernel's autorepeat would begin (500 ms).
ir-ctl -d "$LIRC" --timeout 300000
# The same key again is a new press only once rc-core has released it (410 ms after its
# last message): before, it would be the held key's repeat. The wait is the point.
released() { sleep 0.6; }
send() { ir-ctl -d "$LIRC" -S "nec:$1"; }
hold() {
  args=""
  for i in $(seq "$2"); do args="$args -S nec:$1"; done
  # shellcheck disable=SC2086
  ir-ctl -d "$LIRC" --gap=40000 $args
}
# Waits until `status` has LINE (e.g. "delay_ms: 2100"), keeping the last in /mnt/$2.
status_has() { ctl status > "/mnt/$2" 2>&1; grep -q "^$1\$" "/mnt/$2"; }
send 0x40                                   # >>| more delay
wait_until 40 0.5 status_has "delay_ms: 2100" status-delay.txt
send 0x15                                   # VOL+
wait_until 40 0.5 status_has "volume: 52" status-volume.txt
released
hold 0x15 15                                # VOL+ held ~1.6 s
# Its repeats are all taken once two readings half a second apart agree (above 52).
volume_settled() {
  ctl status > /mnt/status-volume-held.txt 2>&1
  now=$(sed -n 's/^volume: //p' /mnt/status-volume-held.txt)
  if [ -n "$now" ] && [ "$now" != 52 ] && [ "$now" = "${last_volume:-}" ]; then return 0; fi
  last_volume=$now
  return 1
}
wait_until 40 0.5 volume_settled
hold 0x5e 15                                # 3 held: save 2.1 s in preset 3
preset_saved() { grep -q "preset 3 saved" /mnt/delaybox.log; }
wait_until 40 0.5 preset_saved
send 0x40                                   # >>| → 2.2 s
wait_until 40 0.5 status_has "delay_ms: 2200" status-between.txt
released
send 0x40                                   # >>| → 2.3 s
wait_until 40 0.5 status_has "delay_ms: 2300" status-before-recall.txt
send 0x5e                                   # 3: recall
wait_until 40 0.5 status_has "delay_ms: 2100" status-recalled.txt
send 0x47                                   # CH+
wait_until 40 0.5 status_has "channel: Away" status-channel.txt
ctl remote > /mnt/remote.txt 2>&1
stop_appliance
