# The programme at the jack (run in the virtual board; see front-panel.sh): the board
# plays through a "hardware" volume control on the codec's card — ALSA's softvol, which
# puts a `Digital` control on the Loopback card like a DAC HAT's — and the loopback's
# other side is recorded while the console raises the delay by 300 ms and the encoder, in
# volume mode, raises the volume three detents. The test measures the pips' shift and the
# level change in /mnt/capture.wav.
. "$DELAYBOX_ROOT/tools/virtual-board/scenarios/common.sh"
export HOME=/mnt   # alsa-lib reads ~/.asoundrc: the softvol device "board"
cat > /mnt/.asoundrc <<'ALSA'
pcm.board {
  type softvol
  slave.pcm "hw:CARD=Loopback,DEV=0"
  control { name "Digital Playback Volume"; card Loopback }
  min_dB -51.0
  max_dB 0.0
  resolution 256
}
ALSA
# The board: the virtual board's, through that control, on a demo channel whose first
# event (muted) comes after 800 s, so nothing but the timecode plays.
cat > /mnt/volume-board.yaml <<'YAML'
extends: /mnt/board.yaml
audio:
  device: board
  mixer: Digital
channels:
  - name: Timecode
    url: demo://commentary?cycle=3600
YAML
BOARD=/mnt/volume-board.yaml
# The control appears on the card when its PCM is first opened, as a DAC's is there at boot.
aplay -q -D board -t raw -f S16_LE -r 48000 -c 2 -d 1 /dev/zero
panel
start_appliance
amixer -c Loopback sget Digital > /mnt/mixer-0.txt 2>&1
# Each step's time (timeline.txt) tells the test which pips were heard at which setting:
# under emulation a step takes far longer than its sleeps (each delayboxctl, each level
# set on a GPIO line is a process started on one emulated CPU), so the capture runs
# until 4 s after the volume is confirmed set, however long that took.
ctl stats > /mnt/stats-0.txt 2>&1          # xruns before the capture: the test compares
mark capture
arecord -q -D hw:CARD=Loopback,DEV=1 -f S16_LE -r 48000 -c 2 /mnt/capture.wav &
CAPTURE=$!
sleep 5                                     # the point: 5 s of pips at the first delay
mark delay
ctl delay +0.3 > /mnt/delay.txt 2>&1
mark delay-set
sleep 5                                     # the point: 5 s of pips at the new delay
mark push
press 13                                   # the encoder's push: the knob turns the volume
sleep 0.3
detent_cw; detent_cw; detent_cw
sleep 1.5
ctl status > /mnt/status-1.txt 2>&1
amixer -c Loopback sget Digital > /mnt/mixer-1.txt 2>&1
mark volume-set
sleep 4
kill -INT $CAPTURE
wait $CAPTURE || echo "arecord ended by SIGINT ($?)"
ctl stats > /mnt/stats.txt 2>&1             # resyncs, late renders, xruns: shown if the shift is off
stop_appliance
