# Delaybox: the two commands a newcomer needs are `make run` and `make test`.
SHELL := /bin/bash
.SHELLFLAGS := -eo pipefail -c
export PATH := $(PATH):/opt/swift/usr/bin
## The box's own FFmpeg for this machine's release and CPU, which every build here links
## (tools/ffmpeg/build.sh; deploy/setup-host.sh builds it, or finds it built).
export PKG_CONFIG_PATH := $(CURDIR)/.build/ffmpeg/$(shell . /etc/os-release && echo $$VERSION_CODENAME)-$(shell dpkg --print-architecture)/lib/pkgconfig
SWIFT ?= swift
OUT := out

.PHONY: setup setup-release setup-image setup-check build binaries release deb image image-test run check format format-check test test-lanes test-arm64-board bench ffmpeg-status clean

setup:
	@deploy/setup-host.sh

## What a release needs and no more: a club's machine without the test kit (issue 57).
setup-release:
	@deploy/setup-host.sh --release

setup-image:
	@deploy/setup-host.sh --image

build: setup
	$(SWIFT) build

## The release binaries for this machine (what `make run` and `make bench` run).
binaries: setup
	$(SWIFT) build -c release

## A club's release (docs/deploy.md, "Publishing releases"): every package from this commit
## (Debian 12 and 13 for amd64, Debian 13 for arm64) and the signed apt repository made
## from them in out/repo. RELEASE_KEY=FILE (an OpenPGP secret key) signs it; with
## RELEASE_URL=URL (where out/repo will be served) the packages carry its apt source and
## out/repo holds bookworm.sources and trixie.sources for the boxes to add.
release: setup-release
	@test -n "$(RELEASE_KEY)" || { echo "make release: RELEASE_KEY=path/to/secret-key is needed (docs/deploy.md)" >&2; exit 2; }
	@git diff --quiet HEAD || { echo "make release: the tree has changes not committed; a release is one commit" >&2; exit 2; }
	rm -rf $(OUT)/release && mkdir -p $(OUT)/release
	RELEASE_URL=$(RELEASE_URL) RELEASE_KEY=$(abspath $(RELEASE_KEY)) deploy/make-deb.sh --debian 12 --out $(OUT)/release
	RELEASE_URL=$(RELEASE_URL) RELEASE_KEY=$(abspath $(RELEASE_KEY)) deploy/make-deb.sh --debian 13 --out $(OUT)/release
	RELEASE_URL=$(RELEASE_URL) RELEASE_KEY=$(abspath $(RELEASE_KEY)) deploy/make-deb.sh --arch arm64 --out $(OUT)/release
	deploy/make-repo.sh --key $(RELEASE_KEY) $(if $(RELEASE_URL),--url $(RELEASE_URL)) --out $(OUT)/repo $(OUT)/release/*.deb

## The Debian package for this machine's architecture and release, in out/deb
## (docs/deploy.md; DEBIAN=13 or 12 builds for that release in its build root, ARCH=arm64
## cross-compiles with an installed Swift SDK).
deb: setup
	deploy/make-deb.sh $(if $(ARCH),--arch $(ARCH)) $(if $(DEBIAN),--debian $(DEBIAN))

## The card a club flashes (docs/image.md): out/image/delaybox-VERSION-arm64.img.xz, its
## .sha256 and rpi-imager.json (Raspberry Pi Imager's list; IMAGE_URL=URL is where the image
## will be served). Debian 13 for arm64 from Debian's archive with the arm64 package of this
## commit; with RELEASE_URL and RELEASE_KEY its boxes update from the club's repository.
## ~40 minutes: the image's packages are configured on an emulated board. BASE=FILE.img.xz
## puts the same layer onto a card a club downloaded (Raspberry Pi OS Lite arm64: a Pi 5,
## pcm512x HATs), its packages from the base's own sources (~15 minutes, needs the network).
image: setup-image
	@test -z "$(BASE)" || test -f "$(BASE)" || { echo "make image: BASE=$(BASE) is no file" >&2; exit 2; }
	rm -rf $(OUT)/image && mkdir -p $(OUT)/image/deb
	RELEASE_URL=$(RELEASE_URL) RELEASE_KEY=$(if $(RELEASE_KEY),$(abspath $(RELEASE_KEY))) deploy/make-deb.sh --arch arm64 --out $(OUT)/image/deb
	IMAGE_URL=$(IMAGE_URL) $(if $(BASE),tools/image/onto-base.sh $(OUT)/image/deb/*.deb $(abspath $(BASE)),tools/image/build.sh $(OUT)/image/deb/*.deb) $(OUT)/image

## Issue 68's acceptance on the card `make image` made (or DELAYBOX_IMAGE=FILE.img.xz): written
## as a flasher would and booted on the emulated arm64 board with nobody logging in, once as
## it comes and once with each form of Raspberry Pi Imager's customisation (~8 minutes; docs/image.md).
image-test: setup setup-image
	@mkdir -p $(OUT)
	@echo "$$(date +%s.%N)-$$$$" > $(OUT)/test-run
	$(SWIFT) build --build-tests 2>&1 | tee $(OUT)/build.log
	@tools/check-warnings.sh $(OUT)/build.log
	DELAYBOX_TEST_RUN=$$(cat $(OUT)/test-run) tools/bounded-tests.sh 45 $(OUT)/test-image.log \
	  .build/debug/DelayboxPackageTests.xctest --testing-library swift-testing --filter 'VirtualBoardImageTests/'
	@tools/test-report.sh $$(cat $(OUT)/test-run) $(OUT)/test-image.log

## Runs the appliance on this host: the simulated board (board-configs/simulated-host.yaml),
## its demo channel delayed 5 s to out/delaybox.wav, settings kept in out/state.json.
run: binaries
	@mkdir -p $(OUT)
	.build/release/delaybox run --board board-configs/simulated-host.yaml --state $(OUT)/state.json \
	    --socket $(OUT)/control.sock $(RUN_ARGS)

## The inner loop (issue 43): the pure modules' suites — engine, simulation, mixer, console,
## controls, config, log, the audio ring, the web page's logic, the system types — in a
## package of their own (tools/check, linking these sources) that builds no FFmpeg, ALSA,
## GPIO, MQTT or HTTP adapter and starts no server or board: it needs Swift and libyaml's
## headers only, and runs in under a minute once built (36 s). `make test` runs what it
## leaves out: the writer killed at random (it needs a program of the main package's), the
## three-hour station-clock scenarios (90 s unoptimized) and the half-hour lock scenarios
## (37 s; the rest 34 s). FILTER=WORD:
## the suites and tests whose names match (`make check FILTER=WebApp`).
check: setup-check
	@mkdir -p $(OUT)
	$(SWIFT) build --build-tests --package-path tools/check 2>&1 | tee $(OUT)/check-build.log
	@tools/check-warnings.sh $(OUT)/check-build.log " in make check's package"
	@$(MAKE) --no-print-directory format-check
	@tools/web-page.py --check
	$(SWIFT) test --skip-build --package-path tools/check --skip aWriterKilledAtRandom --skip ForThreeHours \
	  --skip WithinSecondsWithoutAStep $(if $(FILTER),--filter '$(FILTER)')

setup-check:
	@deploy/setup-host.sh --check

## Formats every Swift file as .swift-format says (the toolchain's `swift format`); `make
## test` and `make check` fail on a file it would change.
format:
	$(SWIFT) format --in-place --recursive --parallel Sources Tests Package.swift tools

format-check:
	@$(SWIFT) format lint --strict --recursive --parallel Sources Tests Package.swift tools \
	  || { echo "make: the files above are not formatted as .swift-format says: make format" >&2; exit 1; }

## The suites that measure the box against real time to the millisecond (the heard delay
## within 5 ms of the set one, a box joining an ad break where its stamped start says): a
## test target of their own, so that a new one is among them by where it is written. make
## test runs them alone after this machine's other suites, one suite at a time, while only
## the idle-priority builds run (why, and the runs that showed it: docs/development.md).
QUIET_SUITES := 'DelayboxOnAirTests\.'

## The suites that read the packages the other platforms' builds make (make test runs them
## after those builds).
PACKAGE_SUITES := 'DelayboxCLITests\.(Arm64BuildTests|DeployTests|ReleaseRepositoryTests)/'

## Builds (zero warnings in our code) and passes every test; ends with what was skipped
## and why (as root, a skip fails the run) and fails if a test left a program running.
test: setup
	@mkdir -p $(OUT)
	@# Every program the tests start inherits this run's mark, so that the report at the end
	@# finds the ones left running by their environment, whoever else runs what.
	@echo "$$(date +%s.%N)-$$$$" > $(OUT)/test-run
	@# The report at the end reads every test log there: none of an earlier run's.
	@rm -f $(OUT)/skipped.txt $(OUT)/test-*.log $(OUT)/test-*.out
	@# The build roots and the boards' kernels and root filesystems, made meanwhile.
	@tools/warm-roots.sh start $(OUT)
	$(SWIFT) build --build-tests 2>&1 | tee $(OUT)/build.log
	@tools/check-warnings.sh $(OUT)/build.log
	@$(MAKE) --no-print-directory format-check
	@# docs/architecture.md's module graph is the package's (tools/module-graph.py).
	@tools/module-graph.py --check docs/architecture.md
	@# The page's files: the program's copy made from them, the script parsing (node --check).
	@tools/web-page.py --check
	@# The other platforms' builds — Debian 13's, the arm64 package with Swift 6.0 and make
	@# check's pure suites under emulation, the virtual boards with their
	@# packages — at idle priority in the background from here on: the fuzzers' compile
	@# leaves a core idle and this machine's suites more than half the CPU, and they take only
	@# what is idle (tools/platform-builds.sh).
	@tools/platform-builds.sh start $(OUT)
	@tools/warm-roots.sh idle $(OUT)
	@# Every parser of outside bytes under libFuzzer (docs/security.md): the kept inputs that
	@# once found something, then 15 s of each target (the long runs' figures are in the doc).
	tools/fuzz/run --replay && tools/fuzz/run --seconds 15 || { tools/platform-builds.sh stop $(OUT); exit 1; }
	@# This machine's suites in one process (`make test-lanes` runs them in several at once,
	@# in half the time, but real-time tests starve there: README); straight from the test
	@# bundle, so that the release build beside them does not wait for SwiftPM's lock. The
	@# suites of the packages come after the builds that make them.
	DELAYBOX_TEST_RUN=$$(cat $(OUT)/test-run) tools/bounded-tests.sh 30 $(OUT)/test-host.log \
	  .build/debug/DelayboxPackageTests.xctest --testing-library swift-testing --skip VirtualBoard $(PACKAGE_SUITES:%=--skip %) \
	  $(QUIET_SUITES:%=--skip %) || { tools/platform-builds.sh stop $(OUT); exit 1; }
	@# (The emulated boards that configure their root filesystems stop meanwhile: tools/warm-roots.sh.)
	@tools/warm-roots.sh pause $(OUT)
	@# Their files in memory, WAV outputs among them (a sound card's stand-in, written and
	@# flushed each period on the audio thread): on the disk the builds' writes can stall a
	@# flush, which no sound card does — the likely cause of one restart's first mark heard
	@# 70.9 ms late under CI's load (2026-11-29; never alone or beside CPU load).
	TMPDIR=$$([ -w /dev/shm ] && echo /dev/shm || echo /tmp) DELAYBOX_TEST_RUN=$$(cat $(OUT)/test-run) \
	  tools/bounded-tests.sh 15 $(OUT)/test-quiet.log \
	  .build/debug/DelayboxPackageTests.xctest --testing-library swift-testing --no-parallel \
	  $(QUIET_SUITES:%=--filter %) \
	  || { tools/platform-builds.sh stop $(OUT); exit 1; }
	@tools/warm-roots.sh resume $(OUT)
	tools/platform-builds.sh wait $(OUT)
	@# Debian 13's FFmpeg 7.1, alsa-lib 1.2.14 and libgpiod 2: the adapters tested there.
	@if [ -e .build/roots/trixie/.done ]; then tools/debian-root/check.sh trixie $(OUT) test; fi
	DELAYBOX_TEST_RUN=$$(cat $(OUT)/test-run) tools/bounded-tests.sh 20 $(OUT)/test-packages.log \
	  .build/debug/DelayboxPackageTests.xctest --testing-library swift-testing $(PACKAGE_SUITES:%=--filter %)
	@# A virtual board takes a whole core under emulation: after the real-time tests above, so
	@# they keep theirs; this machine's release's board and the Pi's (arm64) at once, a core
	@# each, each its scenarios and then its deploy, then the front panel's scenario, which
	@# times a bouncing button, on each in turn (tools/board-tests.sh).
	DELAYBOX_TEST_RUN=$$(cat $(OUT)/test-run) tools/board-tests.sh 30 $(OUT)
	@tools/test-report.sh $$(cat $(OUT)/test-run) $(OUT)/test-*.log

## This machine's suites (not the boards') as several test processes at once
## (tools/test-lanes.py): about 3 minutes instead of 6, for a quicker look after `make test`
## has built everything. Some real-time tests starve under it (README): `make test` runs
## them in one process.
test-lanes: setup
	@mkdir -p $(OUT)
	$(SWIFT) build --build-tests
	tools/test-lanes.py --parallel 3 --busy 1 --idle 40 --logs $(OUT) --skip VirtualBoard .build/debug/DelayboxPackageTests.xctest

## The arm64 virtual board alone (docs/hardware.md): its hardware-in-the-loop scenarios and
## deploy with rollback — the arm64 package on an emulated Debian 13 arm64 board, as `make
## test` runs them beside this machine's board — for a quicker look at the Pi's platform.
test-arm64-board: setup
	@mkdir -p $(OUT)
	@echo "$$(date +%s.%N)-$$$$" > $(OUT)/test-run
	@rm -f $(OUT)/skipped.txt
	$(SWIFT) build --build-tests 2>&1 | tee $(OUT)/build.log
	@tools/check-warnings.sh $(OUT)/build.log
	tools/arm64/check.sh $(OUT)
	BOARD_ARCH=arm64 tools/virtual-board/build.sh
	BOARD_ARCH=arm64 tools/virtual-board/build-rootfs.sh
	DELAYBOX_BOARDS=debian13-arm64 DELAYBOX_TEST_RUN=$$(cat $(OUT)/test-run) tools/bounded-tests.sh 50 $(OUT)/test-arm64-board.log \
	  .build/debug/DelayboxPackageTests.xctest --testing-library swift-testing --filter 'VirtualBoard(Deploy)?Tests/' --skip PowerCut
	@tools/test-report.sh $$(cat $(OUT)/test-run) $(OUT)/test-arm64-board.log

## Whether the FFmpeg each release bundles is the newest Debian's archive has (security
## updates, docs/security.md): fails when it is not — rebuild and publish the releases.
ffmpeg-status:
	@tools/ffmpeg/status.sh

## Prints benchmark figures, one `name: value` per line (about 10 minutes; needs mpv, installed here).
bench: binaries
	@deploy/setup-host.sh --bench
	@# The arm64 figures need the Pi package (its build root and release are made once;
	@# later runs rebuild what changed and repackage).
	@deploy/make-deb.sh --out .build/deb > /dev/null || echo "make bench: no package for this machine (above): its sizes are skipped"
	@deploy/make-deb.sh --arch arm64 --out .build/arm64/deb > /dev/null || echo "make bench: no arm64 package (above): its figures are skipped"
	.build/release/delaybox-bench

clean:
	rm -rf .build $(OUT)
