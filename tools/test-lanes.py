#!/usr/bin/env python3
"""Runs a swift-testing bundle as several processes at once ("lanes"), so that tests which
wait on real time do not wait for each other.

Why: the Swift runtime's cooperative pool is as wide as the machine has cores (2 here), and
a test blocked on a real-time wait (audio playing, a server restarting, a child process)
holds one of its threads. One process of the host suites ran 372 s with the CPU 71 % idle
(`/usr/bin/time`: 217 s of CPU on 2 cores). Each lane is a process with a pool of its own.

Lanes: every `.serialized` suite alone (those are the long real-time sequences), and the
rest of each test module together. The longest lanes start first: as long as they took in
this checkout's last run (LOGS/lane-times.txt), else as tools/lane-times.txt says (a fresh
clone's order; a lane named in neither counts as long). The real-time tests must not be starved
into failing by others' work (at 4 and 5 lanes, boxes writing to a WAV file were late under
the CPU-bound suites — an ad break's tests failed): a lane that kept the CPU busy more than
half its time (by the same figures) is busy: it runs at nice 19, using what the real-time
ones leave, beside at most M-1 other busy ones; and
a lane starts only when at least --idle percent of the CPU was idle or niced over the last
half second (or it waited 30 s).

    tools/test-lanes.py --parallel N --busy M --idle PERCENT --logs DIR [--skip REGEX]... BUNDLE

At most N real-time lanes and M busy ones run at once.

Each lane's output is printed whole when it ends (lanes never interleave), its log kept in
DIR/lanes/. Exits 0 when every lane passed; on SIGTERM (tools/bounded-tests.sh's time
limit) stops the lanes and prints what they had printed so far.
"""
import argparse
import concurrent.futures
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITE_DECLARATION = re.compile(
    r"@Suite\((?P<traits>(?:[^@])*?)\)\s*(?:final\s+)?(?:struct|class|enum|actor)\s+(?P<name>\w+)", re.S
)


def serialized_suites() -> set[str]:
    """The names of the top-level suites whose traits say `.serialized`."""
    names = set()
    for path in (ROOT / "Tests").rglob("*.swift"):
        for match in SUITE_DECLARATION.finditer(path.read_text(encoding="utf-8")):
            if ".serialized" in match.group("traits"):
                names.add(match.group("name"))
    return names


def idle_fraction(seconds: float) -> float:
    """The share of the machine's CPU time that was idle, or spent at a lower priority, over
    the next `seconds`."""

    def sample() -> tuple[int, int]:
        fields = [int(v) for v in open("/proc/stat").readline().split()[1:]]
        return fields[1] + fields[3] + fields[4], sum(fields)  # nice + idle + iowait, total

    idle0, total0 = sample()
    time.sleep(seconds)
    idle1, total1 = sample()
    return (idle1 - idle0) / max(1, total1 - total0)


def listed_tests(bundle: str) -> list[str]:
    out = subprocess.run(
        [bundle, "--testing-library", "swift-testing", "--list-tests"],
        check=True, capture_output=True, text=True,
    ).stdout
    return [line.strip() for line in out.splitlines() if "/" in line and not line.startswith(" ")]


class Lane:
    def __init__(self, name: str, filters: list[str], skips: list[str], tests: int):
        self.name, self.filters, self.skips, self.tests = name, filters, skips, tests
        self.busy = False  # mostly on the CPU when last timed: runs niced
        self.log = None
        self.process = None
        self.seconds = 0.0
        self.cpu_seconds = 0.0
        self.status = None


def lanes_for(tests: list[str], skips: list[str]) -> list[Lane]:
    kept = [t for t in tests if not any(re.search(s, t) for s in skips)]
    serialized = serialized_suites()
    by_suite, by_module = {}, {}
    for test in kept:
        suite_id = test.split("/", 1)[0]  # Module.Suite
        module, suite = suite_id.split(".", 1)
        if suite in serialized:
            by_suite.setdefault(suite_id, []).append(test)
        else:
            by_module.setdefault(module, []).append(test)
    lanes = [Lane(s, ["^" + re.escape(s) + "/"], skips, len(t)) for s, t in sorted(by_suite.items())]
    for module, module_tests in sorted(by_module.items()):
        own = [s for s in by_suite if s.startswith(module + ".")]
        lane_skips = skips + ["^" + re.escape(s) + "/" for s in own]
        lanes.append(Lane(module, ["^" + re.escape(module) + r"\."], lane_skips, len(module_tests)))
    return lanes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parallel", type=int, required=True)
    parser.add_argument("--busy", type=int, required=True)
    parser.add_argument("--idle", type=float, required=True)
    parser.add_argument("--logs", required=True)
    parser.add_argument("--skip", action="append", default=[])
    parser.add_argument("bundle")
    options = parser.parse_args()

    logs = Path(options.logs)
    (logs / "lanes").mkdir(parents=True, exist_ok=True)
    times_file = logs / "lane-times.txt"
    previous = {}  # name: (seconds, CPU seconds)
    for line in (times_file if times_file.exists() else ROOT / "tools/lane-times.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            seconds, cpu, name = line.split(" ", 2)
            previous[name] = (float(seconds), float(cpu))
    lanes = lanes_for(listed_tests(options.bundle), options.skip)
    lanes.sort(key=lambda lane: -previous.get(lane.name, (1e6, 0))[0])
    for lane in lanes:
        seconds, cpu = previous.get(lane.name, (0, 0))
        lane.busy = cpu > 0.5 * seconds > 0
    gate = threading.Lock()

    printing = threading.Lock()
    stopping = threading.Event()

    def run(lane: Lane) -> None:
        with gate:  # one lane at a time looks at the CPU, so two do not see the same idle time
            waited = time.monotonic()
            while idle_fraction(0.5) * 100 < options.idle and time.monotonic() - waited < 30:
                pass
        if stopping.is_set():
            return
        arguments = (["nice", "-n", "19"] if lane.busy else []) + [options.bundle, "--testing-library", "swift-testing"]
        for f in lane.filters:
            arguments += ["--filter", f]
        for s in lane.skips:
            arguments += ["--skip", s]
        lane.log = logs / "lanes" / (lane.name + ".log")
        started = time.monotonic()
        with open(lane.log, "w") as log:
            lane.process = subprocess.Popen(arguments, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            _, status, usage = os.wait4(lane.process.pid, 0)
            lane.status = os.waitstatus_to_exitcode(status)
            lane.process.returncode = lane.status
            lane.cpu_seconds = usage.ru_utime + usage.ru_stime
        lane.seconds = time.monotonic() - started
        with printing:
            verdict = "passed" if lane.status == 0 else f"FAILED (exit {lane.status})"
            verdict += " at nice 19" if lane.busy else ""
            print(
                f"── lane {lane.name}: {lane.tests} tests, {verdict} in {lane.seconds:.1f} s"
                f" ({lane.cpu_seconds:.1f} s of CPU)", flush=True)
            sys.stdout.write(lane.log.read_text(errors="replace"))
            sys.stdout.flush()

    def stop(signum, frame):
        stopping.set()
        with printing:
            for lane in lanes:
                if lane.process is not None and lane.status is None:
                    try:
                        os.killpg(lane.process.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    print(f"── lane {lane.name}: stopped unfinished; what it printed:", flush=True)
                    sys.stdout.write(lane.log.read_text(errors="replace"))
            sys.stdout.flush()
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    started = time.monotonic()
    with (
        concurrent.futures.ThreadPoolExecutor(max_workers=options.parallel) as real_time,
        concurrent.futures.ThreadPoolExecutor(max_workers=options.busy) as busy,
    ):
        runs = [(busy if lane.busy else real_time).submit(run, lane) for lane in lanes]
        for finished in runs:
            finished.result()
    wall = time.monotonic() - started

    times_file.write_text("".join(f"{lane.seconds:.1f} {lane.cpu_seconds:.1f} {lane.name}\n" for lane in lanes))
    failed = [lane for lane in lanes if lane.status != 0]
    tests = sum(lane.tests for lane in lanes)
    cpu = sum(lane.cpu_seconds for lane in lanes)
    print(
        f"lanes: {tests} tests in {len(lanes)} lanes, at most {options.parallel} + {options.busy} busy at a time, {wall:.1f} s"
        f" ({cpu:.0f} s of CPU); the longest:")
    for lane in sorted(lanes, key=lambda lane: -lane.seconds)[:5]:
        print(f"  {lane.seconds:6.1f} s  {lane.name} ({lane.cpu_seconds:.1f} s of CPU)")
    if failed:
        print("lanes failed: " + ", ".join(lane.name for lane in failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
