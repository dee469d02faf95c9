"""Box → Venue on two boxes' pages, in a real browser (Debian's chromium, driven by
Playwright) at a phone's size, as an owner sets a venue up without a terminal: the first
box made the venue's hub, a second box added there (its join code and key shown), the
second box's page hearing the hub on the LAN (Avahi) and joining it with the key — and the
hub's page then lists the second box, heard through the broker the hub set up.

  web_venue.py --hub http://127.0.0.1:PORT --box http://127.0.0.1:PORT --out DIR

Run by Tests/DelayboxCLITests/WebPageVenueTests.swift, which plays root's venue helper
for both boxes (its files under a test directory, a real mosquitto started from them).
"""
import argparse
import re
import sys

from playwright.sync_api import expect, sync_playwright

from phone import open_phone, stepper, log_in

PASSWORD = "correct horse battery"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hub", required=True)
    parser.add_argument("--box", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    step = stepper("web venue")
    with sync_playwright() as playwright:
        browser, hub, errors = open_phone(playwright)
        hub.goto(args.hub)
        log_in(hub, PASSWORD)
        step("the hub's page: in no venue yet")
        expect(hub.locator("#venue-part")).to_be_visible(timeout=10000)
        expect(hub.locator("#venue-now")).to_contain_text("in no venue")
        expect(hub.locator("#venue-add-form")).to_be_hidden()
        hub.fill("#venue-group", "pub")
        hub.click("#venue-hub-form button[type=submit]")
        step("made the hub")
        expect(hub.locator("#venue-now")).to_have_text("This box is the hub of venue pub.", timeout=30000)
        expect(hub.locator("#venue-add-form")).to_be_visible()
        expect(hub.locator("#venue-join-form")).to_be_hidden()
        hub.fill("#venue-box", "screen2")
        hub.click("#venue-add-form button[type=submit]")
        expect(hub.locator("#venue-code-row")).to_be_visible(timeout=30000)
        code = hub.input_value("#venue-code")
        assert code.startswith("delaybox-venue:") and "/pub/screen2/" in code, code
        key = hub.inner_text("#venue-key")
        assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", key), key
        hub.screenshot(path=f"{args.out}/venue-hub.png", full_page=True)

        step("the second box's page: a wrong code refused")
        # Another phone: both boxes are 127.0.0.1 here, and a browser keeps one cookie per host.
        box = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
        box.on("pageerror", lambda error: errors.append(str(error)))
        box.goto(args.box)
        log_in(box, PASSWORD)
        expect(box.locator("#venue-join-form")).to_be_visible(timeout=10000)
        box.fill("#venue-join-code", "delaybox-venue:not/a/code")
        box.click("#venue-join-form button[type=submit]")
        expect(box.locator("#message")).to_contain_text("copy it again", timeout=10000)
        expect(box.locator("#venue-now")).to_contain_text("in no venue")
        step("the second box hears the hub on the LAN")
        expect(box.locator("#venue-hubs-part")).to_be_visible()
        for _ in range(10):
            box.click("#venue-look")
            expect(box.locator("#message")).not_to_have_text("Listening for hubs…", timeout=15000)
            if box.locator("#venue-hubs").is_visible():
                break
        expect(box.locator("#venue-hubs")).to_contain_text("pub")
        box.locator("#venue-hubs li", has_text="pub").get_by_role("button").click()
        expect(box.locator("#venue-key-form")).to_be_visible()
        wrong = "AAAA-BBBB" if key != "AAAA-BBBB" else "CCCC-DDDD"
        box.fill("#venue-join-key", wrong)
        box.click("#venue-key-form button[type=submit]")
        expect(box.locator("#message")).to_contain_text("no such key", timeout=30000)
        expect(box.locator("#venue-now")).to_contain_text("in no venue")
        box.fill("#venue-join-key", key.lower())
        box.click("#venue-key-form button[type=submit]")
        expect(box.locator("#venue-now")).to_contain_text("in venue pub", timeout=30000)
        expect(box.locator("#venue-leave")).to_be_visible()
        box.screenshot(path=f"{args.out}/venue-box.png", full_page=True)

        step("the hub hears the box through its broker")
        expect(hub.locator("#group-boxes")).to_be_visible(timeout=30000)
        expect(hub.locator("#group-boxes")).to_contain_text("screen2", timeout=30000)
        expect(hub.locator("#group-boxes")).to_contain_text("release ")
        expect(box.locator("#group-name")).to_have_text("pub", timeout=30000)

        step("the venue's update in stages, from the hub's page")
        expect(hub.locator("#venue-update-form")).to_be_visible()
        expect(box.locator("#venue-update-form")).to_be_hidden()
        hub.fill("#venue-canary", "screen2")
        hub.click("#venue-update-form button[type=submit]")
        expect(hub.locator("#message")).to_contain_text("screen2 first", timeout=10000)
        step("done")
        browser.close()
    if errors:
        print("page errors:", errors, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
