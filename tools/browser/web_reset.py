"""A factory reset from the page, in a real browser (Debian's chromium, driven by Playwright)
at a phone's size, as an owner does it. Two phases around the box's restart, which the test
does (as systemd would: the box exits with status 75 after a reset):

  --phase reset   log in, change the delay; Box → Factory reset: a wrong password and a
                  missing word change nothing, then the password and `reset` reset the box
  --phase after   the box started again: the page asks for a new password, takes it, and
                  shows the board's delay

Run by Tests/DelayboxCLITests/WebPageResetTests.swift; screenshots go to --out.

  web_reset.py --phase reset|after --url http://127.0.0.1:PORT --ctl DELAYBOXCTL --socket SOCKET --out DIR
"""
import argparse
import json
import subprocess
import sys

from playwright.sync_api import expect, sync_playwright

from phone import open_phone, stepper, log_in, choose_password

PASSWORD = "correct horse battery"
NEW_PASSWORD = "a new owner's long password"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phase", required=True, choices=["reset", "after"])
    parser.add_argument("--url", required=True)
    parser.add_argument("--ctl", required=True)
    parser.add_argument("--socket", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    def ctl(*words: str) -> dict:
        result = subprocess.run([args.ctl, "--socket", args.socket, "--json", *words], capture_output=True, text=True, timeout=10)
        return json.loads(result.stdout) if result.stdout.startswith("{") else {"error": result.stdout + result.stderr}

    step = stepper(f"web reset ({args.phase})")
    with sync_playwright() as playwright:
        browser, page, errors = open_phone(playwright)
        page.goto(args.url)
        if args.phase == "reset":
            step("log in and set a delay of the owner's")
            log_in(page, PASSWORD)
            page.fill("#delay-ms", "7000")
            page.click("#delay-form button[type=submit]")
            expect(page.locator("#delay-set")).to_have_text("7 s", timeout=10000)

            step("a wrong password resets nothing")
            page.fill("#reset-password", "not the password")
            page.fill("#reset-confirm", "reset")
            page.click("#reset-form button[type=submit]")
            expect(page.locator("#message")).to_have_text("the password is wrong: nothing was reset")
            assert ctl("status").get("delay_ms") == 7000, "the delay kept"

            step("the word not typed resets nothing")
            page.fill("#reset-password", PASSWORD)
            page.fill("#reset-confirm", "yes")
            page.click("#reset-form button[type=submit]")
            expect(page.locator("#message")).to_contain_text("type the word reset")
            page.screenshot(path=f"{args.out}/reset-1-form.png", full_page=True)

            step("the password and the word: the box is reset")
            page.fill("#reset-password", PASSWORD)
            page.fill("#reset-confirm", "reset")
            page.click("#reset-form button[type=submit]")
            expect(page.locator("#message")).to_have_text(
                "The box is reset and restarts: choose its new password here within 30 minutes.")
            page.screenshot(path=f"{args.out}/reset-2-done.png", full_page=True)
        else:
            step("the box is back: the page asks for a new password")
            expect(page.locator("#setup")).to_be_visible(timeout=15000)
            expect(page.locator("#controls")).to_be_hidden()
            expect(page.locator("#delay-set")).to_have_text("2 s", timeout=15000)
            page.screenshot(path=f"{args.out}/reset-3-back.png", full_page=True)
            choose_password(page, NEW_PASSWORD)

        assert not errors, f"the page's errors: {errors}"
        browser.close()
    print(f"web reset ({args.phase}): all passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
