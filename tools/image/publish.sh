#!/usr/bin/env bash
# What a club publishes beside its apt repository (issue 68): the image compressed
# (IMAGE.xz), its SHA-256 (IMAGE.xz.sha256, as sha256sum writes it) and rpi-imager.json,
# Raspberry Pi Imager's os_list: a "custom repository" URL that lists the image. IMAGE_URL is
# where IMAGE.xz will be served (its name alone by default: beside the list).
#
#   [IMAGE_URL=URL] [INIT_FORMAT=…] [DEVICES='"pi4-64bit", …'] tools/image/publish.sh IMAGE OUT
#
# INIT_FORMAT: "systemd" by default (Imager writes firstrun.sh, which the card's imager_custom
# carries out), "cloudinit-rpi" for a base with cloud-init. DEVICES: Imager's board tags the
# card starts on: Debian's kernel has no driver for a Pi 5's SD card.
set -euo pipefail
IMAGE=$1 OUT=$2
NAME=$(basename "$IMAGE")
extract_size=$(stat -c %s "$IMAGE")
extract_sha256=$(sha256sum "$IMAGE" | cut -d' ' -f1)
xz -T0 -9 -f -k "$IMAGE"
[ "$(dirname "$IMAGE")" -ef "$OUT" ] || mv -f "$IMAGE.xz" "$OUT/$NAME.xz"
(cd "$OUT" && sha256sum "$NAME.xz" > "$NAME.xz.sha256")
download_size=$(stat -c %s "$OUT/$NAME.xz")
download_sha256=$(cut -d' ' -f1 "$OUT/$NAME.xz.sha256")
url=${IMAGE_URL:-$NAME.xz}
DEVICES=${DEVICES:-'"pi3-64bit", "pi4-64bit"'} INIT_FORMAT=${INIT_FORMAT:-systemd}
cat > "$OUT/rpi-imager.json" <<JSON
{
  "os_list": [
    {
      "name": "Delaybox",
      "description": "The club's live commentary, delayed to match the TV picture. Set up from a phone: no terminal.",
      "url": "$url",
      "extract_size": $extract_size,
      "extract_sha256": "$extract_sha256",
      "image_download_size": $download_size,
      "image_download_sha256": "$download_sha256",
      "release_date": "$(date -u +%Y-%m-%d)",
      "devices": [$DEVICES],
      "init_format": "$INIT_FORMAT"
    }
  ]
}
JSON
rm -f "$IMAGE"
echo "image: $OUT/$NAME.xz ($((download_size / 1048576)) MB; $((extract_size / 1048576)) MB written to the card)" >&2
