# Every format the box's FFmpeg is built with, played on the board by the release's own
# delaybox (issue 40; run in the virtual board, see front-panel.sh): the test made one
# fixture per format in /mnt/formats/NAME/NAME; each is decoded as fast as it reads
# (`play --fast`) into /mnt/played/NAME.wav, its output in /mnt/played/NAME.log.
. "$DELAYBOX_ROOT/tools/virtual-board/scenarios/common.sh"
mkdir -p /mnt/played
for dir in /mnt/formats/*/; do
  name=$(basename "$dir")
  "$DELAYBOX_BIN/delaybox" play "$dir$name" --fast --delay 0 --for 2.5 --output "wav:/mnt/played/$name.wav" \
    > "/mnt/played/$name.log" 2>&1 || echo "$name: exit $?"
done
