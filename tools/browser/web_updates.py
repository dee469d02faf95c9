"""Box → Updates on the page, in a real browser (Debian's chromium, driven by Playwright) at
a phone's size, as an owner uses it: the updater's last word and the last rollback shown,
"Check now" and "Install at the next pause" asked of root's updater, the nightly look
switched off — and still off after the box restarted (the second phase).

  web_updates.py --phase updates|after --url http://127.0.0.1:PORT --runtime DIR --out DIR

Run by Tests/DelayboxCLITests/WebPageUpdatesTests.swift, which plays root's updater (the
release files it reads) and restarts the box between the phases.
"""
import argparse
import os
import sys
import time

from playwright.sync_api import expect, sync_playwright

from phone import open_phone, stepper, log_in

PASSWORD = "correct horse battery"


def request(runtime: str, wanted: str) -> None:
    """Waits until the box left root's updater `wanted` (its update-request file)."""
    path = os.path.join(runtime, "update-request")
    deadline = time.monotonic() + 10
    text = None
    while time.monotonic() < deadline:
        try:
            with open(path) as file:
                text = file.read()
            if text == wanted + "\n":
                return
        except FileNotFoundError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"the updater was asked {text!r}, not {wanted!r}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phase", required=True, choices=["updates", "after"])
    parser.add_argument("--url", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    step = stepper(f"web updates ({args.phase})")
    with sync_playwright() as playwright:
        browser, page, errors = open_phone(playwright)
        page.goto(args.url)
        log_in(page, PASSWORD)
        if args.phase == "updates":
            step("the updater's last word and the last rollback, as the box has them")
            expect(page.locator("#updates-part")).to_be_visible(timeout=10000)
            expect(page.locator("#update-release")).to_have_text("Release: up to date: 1.2.0-1~deb13")
            expect(page.locator("#update-rollback")).to_contain_text("1.3.0-1~deb13 failed its check")
            expect(page.locator("#update-daily")).to_be_checked()
            page.screenshot(path=f"{args.out}/updates-1.png", full_page=True)

            step("Check now: root's updater asked to look")
            page.click("#update-check")
            expect(page.locator("#message")).to_contain_text("Looking for a new release")
            request(args.runtime, "check")

            step("what it found shows by itself")
            with open(os.path.join(os.environ["DELAYBOX_RELEASE_DIRECTORY"], "status"), "w") as file:
                file.write("checked 2026-11-30 12:00: 1.4.0-1~deb13 is available (1.2.0-1~deb13 plays)\n")
            expect(page.locator("#update-release")).to_contain_text("1.4.0-1~deb13 is available", timeout=10000)

            step("Install at the next pause: root's updater asked to install, the restart when quiet")
            page.click("#update-install")
            expect(page.locator("#message")).to_contain_text("starts at the next pause")
            request(args.runtime, "later")

            step("nightly updates off")
            page.click("#update-daily")
            expect(page.locator("#message")).to_have_text("Nightly updates off.")
            expect(page.locator("#update-daily")).not_to_be_checked()
            page.screenshot(path=f"{args.out}/updates-2.png", full_page=True)
        else:
            step("restarted: nightly updates still off")
            expect(page.locator("#updates-part")).to_be_visible(timeout=10000)
            expect(page.locator("#update-daily")).not_to_be_checked()
        assert not errors, f"the page's errors: {errors}"
        browser.close()
    print(f"web updates ({args.phase}): all passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
