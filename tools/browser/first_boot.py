"""A flashed box's first minutes from a phone, in a real browser (Debian's chromium, driven by
Playwright) at a phone's size: the page of a box nobody has touched shows it playing its demo
channel and asks for a password; the owner chooses one, pastes a station's link, hears it
play and keeps it. With --hub, the owner then makes the box the venue's hub (Box → Venue) and
adds a box, whose join code is printed (`join code: CODE`). Screenshots of each screen go to
--out. Run by Tests/DelayboxCLITests/VirtualBoardImageTests.swift on a card booted on the
emulated board.

  first_boot.py --url http://127.0.0.1:PORT --station URL --out DIR [--hub GROUP --add BOX]
"""
import argparse
import sys

from playwright.sync_api import expect, sync_playwright

from phone import open_phone, stepper

PASSWORD = "club house speakers"
# The emulated board is ~10 times slower than a Pi: its answers get this long (ms).
SLOW = 60000


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--station", required=True, help="a station's link to paste")
    parser.add_argument("--out", required=True)
    parser.add_argument("--hub", help="the venue this box then becomes the hub of")
    parser.add_argument("--add", default="screen2", help="the box then let into the venue")
    args = parser.parse_args()
    step = stepper("first boot page")

    with sync_playwright() as playwright:
        browser, page, errors = open_phone(playwright)

        step("a box nobody has touched: its demo channel playing, a password to choose")
        page.goto(args.url, timeout=SLOW)
        expect(page.locator("#setup")).to_be_visible(timeout=SLOW)
        expect(page.locator("#state")).to_have_text("playing", timeout=SLOW)
        page.screenshot(path=f"{args.out}/1-first-visit.png", full_page=True)

        step("the password chosen on the phone")
        page.fill("#setup-password", PASSWORD)
        page.fill("#setup-again", PASSWORD)
        page.click("#setup-form button[type=submit]")
        expect(page.locator("#controls")).to_be_visible(timeout=SLOW)

        step("the club's station pasted: it plays, and is kept")
        page.fill("#add-name", "Club Radio")
        page.fill("#add-link", args.station)
        page.click("#add-form button[type=submit]")
        expect(page.locator("#channel-name")).to_have_text("Club Radio", timeout=SLOW)
        expect(page.locator("#state")).to_have_text("playing", timeout=SLOW)
        page.screenshot(path=f"{args.out}/2-station-playing.png", full_page=True)
        page.click("#add-keep")
        expect(page.locator("#message")).to_contain_text("Kept", timeout=SLOW)
        expect(page.locator("#channel option", has_text="Club Radio")).to_have_count(1)
        if args.hub:
            step("the venue's hub made from the page: its broker and time server started by root")
            expect(page.locator("#venue-part")).to_be_visible(timeout=SLOW)
            expect(page.locator("#venue-now")).to_contain_text("in no venue", timeout=SLOW)
            page.fill("#venue-group", args.hub)
            page.click("#venue-hub-form button[type=submit]")
            # Root restarts mosquitto and chrony: seconds on a Pi, longer emulated.
            try:
                expect(page.locator("#venue-now")).to_have_text(
                    f"This box is the hub of venue {args.hub}.", timeout=3 * SLOW)
            except AssertionError:
                print("the page said: " + (page.locator("#message").text_content() or ""), file=sys.stderr)
                raise
            page.fill("#venue-box", args.add)
            page.click("#venue-add-form button[type=submit]")
            expect(page.locator("#venue-code-row")).to_be_visible(timeout=3 * SLOW)
            page.screenshot(path=f"{args.out}/3-venue-hub.png", full_page=True)
            print("join code: " + page.input_value("#venue-code"))
        browser.close()
    if errors:
        print("first boot page: script errors: " + "; ".join(errors), file=sys.stderr)
        return 1
    step("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
