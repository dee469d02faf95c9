# Sourced by tools/virtual-board/build.sh and build-rootfs.sh (after release.sh): a board
# made once per machine (tools/cache.sh), as the build roots and FFmpeg are — another clone
# (CI's fresh one) boots the same kernel, initramfs and root filesystem image instead of
# downloading ~400 MB and running debootstrap again (the arm64 board's image is configured
# on the emulated board: ~7 minutes). Tests only read these files (boot.sh and run.sh boot
# the image as a throwaway snapshot), so clones can share them.
#
# The entry holds what a test boots; it is named for the board and a hash of the scripts
# that make it (Debian's kernel and packages as they were that day: an entry no clone has
# used for 30 days goes, as the roots' do). The SSH key its image lets in is kept once per
# machine too (KEY), so that every cached image takes it.
. "$ROOT/tools/cache.sh"
KEYS="$ROOT/.build/virtual-board/key"
KEY="$KEYS/id_ed25519"
BOARD_PRODUCTS=(vmlinuz initramfs.cpio.gz rootfs.img rootfs.img.stamp)

# The key the boards' images let in as root: the machine's; a clone's own (made here, or
# before there was a cache) becomes the machine's. (Both boards' builds ask at once in
# make test: one at a time.)
board_key() {
  mkdir -p "$(dirname "$KEYS")"
  (
    flock 9
    cache_use "$KEYS" virtual-board-key ed25519 && exit 0
    if [ ! -f "$KEY" ]; then
      mkdir -p "$KEYS"
      ssh-keygen -q -t ed25519 -N "" -C delaybox-virtual-board -f "$KEY"
    fi
    cache_keep "$KEYS" virtual-board-key ed25519
  ) 9> "$(dirname "$KEYS")/.key.lock"
}

# What the board is made from: the scripts, the board, the key it lets in.
board_stamp() {
  printf '%s %s %s\n' "$ARCH" "$DEBIAN" "$(cat "$KEY.pub" 2>/dev/null)"
  cat "$ROOT"/tools/virtual-board/{release.sh,board-cache.sh,build.sh,build-rootfs.sh,init,install-modules.sh} | sha256sum
}

# board_cached: when this machine made this board before, its files become links to that
# (returns 0); otherwise links to another entry are removed, for a build in place.
board_cached() {
  local product
  board_key
  if cache_use "$BOARD/made" "board-debian$DEBIAN-$ARCH" "$(board_stamp)"; then
    for product in "${BOARD_PRODUCTS[@]}"; do
      [ ! -e "$BOARD/made/$product" ] || ln -sfn "made/$product" "$BOARD/$product"
    done
    return 0
  fi
  for product in "${BOARD_PRODUCTS[@]}"; do [ ! -L "$BOARD/$product" ] || rm -f "$BOARD/$product"; done
  return 1
}

# board_keep: the board just made goes into the cache (a copy: the clone keeps its build).
board_keep() {
  local product
  [ -n "$CACHE" ] || return 0
  rm -rf "$BOARD/made"
  mkdir -p "$BOARD/made"
  for product in "${BOARD_PRODUCTS[@]}"; do
    [ ! -e "$BOARD/$product" ] || cp --sparse=always "$BOARD/$product" "$BOARD/made/$product"
  done
  cache_keep "$BOARD/made" "board-debian$DEBIAN-$ARCH" "$(board_stamp)"
}
