"""The page on a running box, in a real browser (Debian's chromium, driven by Playwright),
at a phone's size: first visit and password, the delay's buttons, a change made elsewhere
(delayboxctl, as the knob would) arriving live, tap-to-sync both ways, a stranger's markup
shown as text, the board the HAT names chosen, log out and log in, and nothing changed without a session. Screenshots of
each screen go to --out. Run by Tests/DelayboxCLITests/WebPageBrowserTests.swift.

  web_page.py --url http://127.0.0.1:PORT --ctl DELAYBOXCTL --socket SOCKET --out DIR
"""
import argparse
import json
import os
import subprocess
import sys
import time

from playwright.sync_api import expect, sync_playwright

from phone import open_phone, stepper

PASSWORD = "correct horse battery"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--ctl", required=True)
    parser.add_argument("--socket", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--hostile", required=True, help="the hostile channel name the board config carries")
    parser.add_argument("--station", required=True, help="a station's .pls link to add")
    parser.add_argument("--peer-socket", required=True, help="the control socket of another box of the page's venue group")
    parser.add_argument("--runtime", required=True, help="the box's runtime directory (where board use leaves its request)")
    args = parser.parse_args()

    def ctl(*words: str, socket: str = "") -> dict:
        result = subprocess.run([args.ctl, "--socket", socket or args.socket, "--json", *words], capture_output=True, text=True, timeout=10)
        return json.loads(result.stdout) if result.stdout.startswith("{") else {"error": result.stdout + result.stderr}

    def delay_ms(socket: str = "") -> int:
        return int(ctl("status", socket=socket)["delay_ms"])

    step = stepper("web page")

    with sync_playwright() as playwright:
        browser, page, errors = open_phone(playwright)

        step("first visit: the status, and a password to choose")
        page.goto(args.url)
        expect(page.locator("#setup")).to_be_visible()
        expect(page.locator("#controls")).to_be_hidden()
        expect(page.locator("#state")).to_have_text("playing", timeout=15000)
        page.screenshot(path=f"{args.out}/1-first-visit.png", full_page=True)

        step("a stranger's markup in a channel name is shown as text")
        expect(page.locator("#channel-name")).to_have_text(args.hostile)
        assert page.evaluate("window.pwned") is None, "markup from a channel name ran"

        step("the password set from the phone")
        page.fill("#setup-password", PASSWORD)
        page.fill("#setup-again", PASSWORD)
        page.click("#setup-form button[type=submit]")
        expect(page.locator("#controls")).to_be_visible()
        expect(page.locator("#setup")).to_be_hidden()
        page.screenshot(path=f"{args.out}/2-controls.png", full_page=True)

        step("+1 s on the page: the box's delay grows by a second")
        before = delay_ms()
        page.click("button[data-line='delay +1']")
        deadline = time.monotonic() + 5
        while delay_ms() != before + 1000 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert delay_ms() == before + 1000, f"delay {delay_ms()} after +1 s from {before}"

        step("a change made elsewhere (delayboxctl, as the knob would) arrives on the page live")
        ctl("delay", "4.2")
        expect(page.locator("#delay-set")).to_have_text("4.2 s", timeout=3000)
        started = time.monotonic()
        ctl("delay", "4.5")
        expect(page.locator("#delay-set")).to_have_text("4.5 s", timeout=3000)
        print(f"web page: knob to page {1000 * (time.monotonic() - started):.0f} ms", flush=True)

        def tap_sync(first: str, second: str, gap: float, word: str) -> int:
            """Taps `first`, waits `gap` s, taps `second`: the delay's change (ms)."""
            before = delay_ms()
            page.click(first)
            time.sleep(gap)
            page.click(second)
            expect(page.locator("#message")).to_contain_text(word, timeout=3000)
            return delay_ms() - before

        step("tap-to-sync: heard before seen raises the delay by the gap")
        raised = tap_sync("#tap-hear", "#tap-see", 0.8, "raised")
        assert 700 <= raised <= 1300, f"heard 0.8 s before seen: the delay changed by {raised} ms"

        step("tap-to-sync: seen before heard lowers it")
        lowered = -tap_sync("#tap-see", "#tap-hear", 0.5, "lowered")
        assert 400 <= lowered <= 1000, f"seen 0.5 s before heard: the delay changed by {-lowered} ms"
        page.screenshot(path=f"{args.out}/3-synced.png", full_page=True)

        step("a delay past any maximum: refused in the console's words")
        page.fill("#delay-ms", "999999999")
        page.click("#delay-form button[type=submit]")
        expect(page.locator("#message")).to_contain_text("a delay is at most", timeout=3000)
        expect(page.locator("#message")).to_have_class("bad")

        step("another browser without a session changes nothing")
        stranger = browser.new_context()
        answer = stranger.request.post(f"{args.url}/api/command", form={"line": "volume 7"},
                                       headers={"X-Delaybox-CSRF": "login", "Origin": args.url})
        assert answer.status == 401, f"a command without a session: {answer.status}"
        forged = stranger.request.post(f"{args.url}/api/command", form={"line": "volume 7"},
                                       headers={"X-Delaybox-CSRF": "x", "Origin": "http://evil.example"})
        assert forged.status == 403, f"a command from another site: {forged.status}"
        assert int(ctl("status")["volume"]) != 7
        stranger.close()

        step("a station added from its .pls link plays, said as the box has it, and is kept")
        page.fill("#add-name", "Club Radio")
        page.fill("#add-link", args.station)
        page.click("#add-form button[type=submit]")
        expect(page.locator("#channel-name")).to_have_text("Club Radio", timeout=5000)
        expect(page.locator("#state")).to_have_text("playing", timeout=15000)
        expect(page.locator("#add-question")).to_have_text("Playing Club Radio.", timeout=5000)
        page.screenshot(path=f"{args.out}/4-station-added.png", full_page=True)
        page.click("#add-keep")
        # Answered once written durably — the file, its folder, then the undo copy — and the
        # box gives `config save` 30 s for that (ConsoleRequest.patienceSeconds): under make
        # test's builds an ext4 fsync waits for their dirty data too (3 s once; CI18 past
        # 15 s, the file written and read again but the answer not yet on the page). The page
        # waits as long as the box does.
        expect(page.locator("#message")).to_contain_text("Kept", timeout=30000)
        expect(page.locator("#add-decide")).to_be_hidden()
        expect(page.locator("#channel option", has_text="Club Radio")).to_have_count(1)

        step("the machine's figures and a console line from the page")
        expect(page.locator("#machine")).to_contain_text("Addresses")
        page.fill("#console-line", "ads off")
        page.click("#console-form button[type=submit]")
        expect(page.locator("#console-answer")).to_contain_text("result: ok")
        assert ctl("ads").get("ads") in ("off", False), f"ads after 'ads off' from the page: {ctl('ads')}"
        page.fill("#console-line", "config set defaults.delay_step 3 h")
        page.click("#console-form button[type=submit]")
        expect(page.locator("#console-answer")).to_contain_text("error: ")

        step("the venue group's delay from this page reaches the group's other box")
        expect(page.locator("#group-name")).to_have_text("hall", timeout=5000)
        expect(page.locator("#group-row")).to_be_visible()
        mine, theirs = delay_ms(), delay_ms(args.peer_socket)
        page.click("button[data-line='delay +1']")
        expect(page.locator("#delay-set")).not_to_have_text("—")
        page.check("#whole-group")
        page.click("button[data-line='delay +1']")
        deadline = time.monotonic() + 10
        while delay_ms(args.peer_socket) != theirs + 1000 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert delay_ms(args.peer_socket) == theirs + 1000, f"the other box: {delay_ms(args.peer_socket)} ms, was {theirs}"
        while delay_ms() != mine + 2000 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert delay_ms() == mine + 2000, f"this box: once alone, once with the group: {delay_ms()} ms, was {mine}"
        # The other box as this one last heard it: its own report on the group's topic.
        expect(page.locator("#group-boxes")).to_contain_text(f"peer: ", timeout=12000)
        expect(page.locator("#group-boxes")).to_contain_text(f"{(theirs + 1000) // 1000} s", timeout=12000)
        page.uncheck("#whole-group")
        # Whether it plays as one with the room: what status says of its clock (no chrony
        # here: why it does not align).
        expect(page.locator("#room-clock")).to_be_visible(timeout=5000)
        expect(page.locator("#room-clock")).to_contain_text("The room's clock: " + ctl("status")["venue_clock"])

        step("the board the HAT names is proposed, and chosen with a second tap")
        expect(page.locator("#board-hat")).to_have_text("The HAT says it is HiFiBerry DAC+ Pro.")
        expect(page.locator("#board")).to_have_value("pi4-hifiberry-dacplus")
        expect(page.locator("#board option:checked")).to_contain_text("(the HAT's)")
        expect(page.locator("#board option", has_text="(this box)")).to_have_count(1)
        page.click("#board-use")
        expect(page.locator("#board-question")).to_contain_text("It restarts on it.")
        page.click("#board-no")
        expect(page.locator("#board-decide")).to_be_hidden()
        assert not os.path.exists(f"{args.runtime}/board-request"), "cancelled: nothing asked"
        page.click("#board-use")
        page.click("#board-yes")
        expect(page.locator("#message")).to_contain_text("asked for pi4-hifiberry-dacplus", timeout=15000)
        with open(f"{args.runtime}/board-request", encoding="utf-8") as request:
            assert request.read() == "pi4-hifiberry-dacplus\n", "root's helper is asked for the board"

        step("the last hour's log downloads")
        with page.expect_download() as download:
            page.click("#journal")
        saved = download.value.path()
        text = open(saved, encoding="utf-8").read()
        assert download.value.suggested_filename == "delaybox-last-hour.log", download.value.suggested_filename
        assert "channel: Club Radio" in text and " notice " in text, f"the log downloaded: {text[-400:]}"
        stranger = browser.new_context()
        assert stranger.request.get(f"{args.url}/api/journal").status == 401, "the log without a session"
        stranger.close()

        step("log out, a wrong password refused, the right one lets in")
        page.click("#logout")
        expect(page.locator("#login")).to_be_visible()
        expect(page.locator("#controls")).to_be_hidden()
        page.fill("#login-password", "not it at all")
        page.click("#login-form button[type=submit]")
        expect(page.locator("#message")).to_have_text("wrong password")
        page.screenshot(path=f"{args.out}/5-login.png", full_page=True)
        page.fill("#login-password", PASSWORD)
        page.click("#login-form button[type=submit]")
        expect(page.locator("#controls")).to_be_visible()

        # The club's station in the jack for the test's last look: playing, as the box says
        # (under load a raised delay is still building here), then 3 s of it.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            status = ctl("status")
            if status.get("state") == "playing" and status.get("channel") == "Club Radio":
                break
            time.sleep(0.2)
        assert status.get("state") == "playing" and status.get("channel") == "Club Radio", f"at the end: {status}"
        time.sleep(3)

        step("the desktop's layout")
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=f"{args.out}/6-desktop.png", full_page=True)

        assert not errors, f"the page's errors: {errors}"
        browser.close()
    print("web page: all passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
