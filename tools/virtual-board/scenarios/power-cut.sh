# A power cut while the settings are saved (run in the virtual board; see front-panel.sh).
# The board's own disk (/dev/vda, an ext4 file system like the SD card's) holds the state
# file. $WRITER is delaybox-settings-writer. /mnt/phase says what this boot does:
# - `cut AFTER_S FIRST [--without-fsync]`: delaybox-settings-writer saves generation after
#   generation (from FIRST) there and reports each saved one in /mnt/reported.txt (on the host at once,
#   over 9p); AFTER_S seconds after its first report the board loses power (sysrq `b`:
#   reboot without syncing or unmounting: the kernel's page cache is gone).
# - `check`: the next boot mounts the disk (the journal is replayed, as at a board's boot)
#   and copies what is there to /mnt/found.json and /mnt/listing.txt.
. "$DELAYBOX_ROOT/tools/virtual-board/scenarios/common.sh"
mkdir -p /run/disk
mount -t ext4 /dev/vda /run/disk
set -- $(cat /mnt/phase)
case $1 in
  cut)
    "$WRITER" /run/disk/state.json "$3" ${4:-} > /mnt/reported.txt &
    wait_until 600 0.05 test -s /mnt/reported.txt
    sleep "$2"
    echo b > /proc/sysrq-trigger
    sleep 10
    echo "still running 10 s after the power cut" >&2
    exit 1 ;;
  check)
    ls -a /run/disk > /mnt/listing.txt
    if [ -e /run/disk/state.json ]; then cp /run/disk/state.json /mnt/found.json; fi
    umount /run/disk ;;
esac
