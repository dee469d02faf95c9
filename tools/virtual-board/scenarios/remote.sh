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
EVENTS=/dev/input/$(ls /sys/class/rc/"$RC"/input*/ | grep '^event' | head -n 1)
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
# The kernel's own record of the keys (struct input_event, 24 bytes each), read beside the
# appliance: the test counts its key-downs. A held key is one key-down and its autorepeats —
# unless the board stalls longer than rc-core's key-up timeout between two of the remote's
# messages (the host's load can take the emulated CPU away that long): then the kernel
# itself reports a release and a second press, and the appliance must count both.
cat "$EVENTS" > /mnt/remote-events.bin &
READER=$!
reading() { ls -l /proc/"$READER"/fd | grep -q "$EVENTS"; }
wait_until 100 0.1 reading
# A press: one NEC message; a key held: the message again every 100 ms (the remote's own
# repeat), which rc-core turns into the key's autorepeat.
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
send 0x40                                   # >>| → 2.3 s
wait_until 40 0.5 status_has "delay_ms: 2300" status-before-recall.txt
send 0x5e                                   # 3: recall
wait_until 40 0.5 status_has "delay_ms: 2100" status-recalled.txt
send 0x47                                   # CH+
wait_until 40 0.5 status_has "channel: Away" status-channel.txt
ctl remote > /mnt/remote.txt 2>&1
kill "$READER"
stop_appliance
