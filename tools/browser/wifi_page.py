"""The box's page on its own hotspot, as a phone on it sees it (issue 60): chromium's
requests go through a simulated phone's radio on the x86 virtual board (relayed by the
board's port 8081: tools/virtual-board/wifi-world.sh). Log in, find the network the box saw
before it opened its hotspot, choose it, give its password, join. Screenshots to --out.
Run by Tests/DelayboxCLITests/VirtualBoardDeployTests.swift.

  wifi_page.py --url http://127.0.0.1:PORT --password PAGE --network SSID --network-password PASS --out DIR
"""
import argparse
import sys

from playwright.sync_api import expect, sync_playwright


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--password", required=True, help="the page's password")
    parser.add_argument("--network", required=True)
    parser.add_argument("--network-password", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page = phone.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(args.url, timeout=60000)
        expect(page.locator("#login")).to_be_visible(timeout=30000)
        page.fill("#login-password", args.password)
        page.click("#login-form button[type=submit]")
        expect(page.locator("#wifi-part")).to_be_visible(timeout=30000)
        expect(page.locator("#wifi-now")).to_contain_text("On no network.")
        expect(page.locator("#wifi-now")).to_contain_text("open: ")
        expect(page.locator("#wifi-network option", has_text=args.network)).to_have_count(1)
        page.select_option("#wifi-network", args.network)
        page.fill("#wifi-password", args.network_password)
        page.screenshot(path=f"{args.out}/wifi-1-choose.png", full_page=True)
        page.click("#wifi-form button[type=submit]")
        expect(page.locator("#message")).to_contain_text("Joining " + args.network, timeout=30000)
        page.screenshot(path=f"{args.out}/wifi-2-joining.png", full_page=True)
        browser.close()
    if errors:
        print("page errors: " + "; ".join(errors))
        return 1
    print("wifi page: joined from the hotspot")
    return 0


if __name__ == "__main__":
    sys.exit(main())
