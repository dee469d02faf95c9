"""Backup, restore and undo from the page, in a real browser (Debian's chromium, driven by
Playwright) at a phone's size, as an owner does it. Three phases around the boxes'
restarts, which the test does (as systemd would: a restore exits with status 75):

  --phase take     box A, logged in: Box → Backup → Download a backup, kept at --backup;
                   then with "Include the passwords" and a passphrase, kept at --backup.sealed
                   (the passwords sealed: none of them readable in it)
  --phase restore  box B, new (no password yet): its first page refuses a corrupted copy
                   of the file with its line and changes nothing, refuses the sealed file
                   with a wrong passphrase, then restores the sealed file with the right one
  --phase undo     box B started again on it: the owner logs in with A's password (the
                   backup's), sees A's delay (and that an undo would take the restore
                   back), changes the delay, and "Undo the last change" puts it back

Run by Tests/DelayboxCLITests/WebPageBackupTests.swift; screenshots go to --out.

  web_backup.py --phase take|restore|undo --url http://127.0.0.1:PORT --backup FILE --out DIR
"""
import argparse
import json
import sys

from playwright.sync_api import expect, sync_playwright

from phone import open_phone, stepper, log_in

PASSWORD = "correct horse battery"
PASSPHRASE = "orange bicycle lamp"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phase", required=True, choices=["take", "restore", "undo"])
    parser.add_argument("--url", required=True)
    parser.add_argument("--backup", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    step = stepper(f"web backup ({args.phase})")
    with sync_playwright() as playwright:
        browser, page, errors = open_phone(playwright)
        page.goto(args.url)
        if args.phase == "take":
            step("log in and download a backup")
            log_in(page, PASSWORD)
            expect(page.locator("#delay-set")).to_have_text("7 s", timeout=10000)
            with page.expect_download() as download:
                page.click("#backup-download")
            name = download.value.suggested_filename
            assert name.startswith("delaybox-") and name.endswith(".json"), name
            download.value.save_as(args.backup)
            backup = json.load(open(args.backup))
            assert backup["delaybox_backup"] == 1 and backup["settings"]["delayMs"] == 7000, backup
            assert "Club Radio" in backup["config"], backup
            assert "passwords" not in backup, backup
            page.screenshot(path=f"{args.out}/backup-1-take.png", full_page=True)

            step("the passwords too, sealed with a passphrase")
            page.check("#backup-passwords")
            page.fill("#backup-passphrase", "short")
            page.click("#backup-download")
            expect(page.locator("#message")).to_contain_text("at least 8 characters", timeout=10000)
            page.fill("#backup-passphrase", PASSPHRASE)
            with page.expect_download() as sealed:
                page.click("#backup-download")
            assert sealed.value.suggested_filename == name, sealed.value.suggested_filename
            sealed.value.save_as(args.backup + ".sealed")
            text = open(args.backup + ".sealed").read()
            backup = json.loads(text)
            assert backup["passwords"]["setting"].startswith("$y$") and backup["passwords"]["sealed"], backup
            assert "$y$" not in text.replace(backup["passwords"]["setting"], ""), "the page's hash is sealed"
            expect(page.locator("#message")).to_contain_text("keep the passphrase apart from the file")
        elif args.phase == "restore":
            step("a new box's first page: a corrupted backup is refused")
            expect(page.locator("#setup")).to_be_visible(timeout=15000)
            text = open(args.backup).read()
            broken = text.replace('"volume" : ', '"volume" : ,', 1)
            line = next(n for n, row in enumerate(text.split("\n"), 1) if '"volume"' in row)
            page.set_input_files("#setup-restore", files=[{"name": "broken.json", "mimeType": "application/json", "buffer": broken.encode()}])
            expect(page.locator("#message")).to_contain_text("not restored, nothing changed", timeout=10000)
            expect(page.locator("#message")).to_contain_text(f"line {line}")
            page.screenshot(path=f"{args.out}/backup-2-refused.png", full_page=True)

            step("the sealed backup with a wrong passphrase is refused")
            page.fill("#setup-passphrase", "orange bicycle lamb")
            page.set_input_files("#setup-restore", args.backup + ".sealed")
            expect(page.locator("#message")).to_contain_text(
                "not restored, nothing changed: the passphrase does not open its passwords", timeout=10000)

            step("the sealed backup with its passphrase is restored, passwords and all")
            page.fill("#setup-passphrase", PASSPHRASE)
            page.set_input_files("#setup-restore", args.backup + ".sealed")
            expect(page.locator("#message")).to_contain_text("Restored: delay 2 s → 7 s", timeout=10000)
            expect(page.locator("#message")).to_contain_text("the page's password is the backup's")
            expect(page.locator("#message")).to_contain_text("The box restarts on it.")
            page.screenshot(path=f"{args.out}/backup-3-restored.png", full_page=True)
        else:
            step("back on the backup: A's password, and A's delay")
            expect(page.locator("#setup")).to_be_hidden(timeout=15000)
            log_in(page, PASSWORD)
            expect(page.locator("#delay-set")).to_have_text("7 s", timeout=10000)
            expect(page.locator("#channel option", has_text="Club Radio")).to_have_count(1)
            # The restore itself is a change: undone, it would put B back as it was before.
            expect(page.locator("#backup-last")).to_contain_text("Undo: delay 7 s → 2 s", timeout=10000)

            step("a change, and the undo says what it puts back")
            page.fill("#delay-ms", "9000")
            page.click("#delay-form button[type=submit]")
            expect(page.locator("#delay-set")).to_have_text("9 s", timeout=10000)
            # The copy is kept once the delay rests (2 s) and is written; the page asks again
            # every 3 s while its text is unchanged.
            expect(page.locator("#backup-last")).to_have_text("Undo: delay 9 s → 7 s", timeout=20000)
            page.click("#backup-undo")
            expect(page.locator("#message")).to_contain_text("Undone: delay 9 s → 7 s.", timeout=10000)
            page.screenshot(path=f"{args.out}/backup-4-undone.png", full_page=True)

        assert not errors, f"the page's errors: {errors}"
        browser.close()
    print(f"web backup ({args.phase}): all passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
