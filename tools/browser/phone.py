"""What the browser scripts share: a phone's browser (Debian's chromium at a phone's size,
touch) with the page's script errors collected, and a step log timed from the start."""
import time

from playwright.sync_api import expect


def open_phone(playwright):
    """A browser, and a page in it at a phone's size whose script errors and dialogs are
    collected in the returned list."""
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: errors.append("a dialog opened: " + dialog.message))
    return browser, page, errors


def stepper(label: str):
    """A function that prints each step with the seconds since this call."""
    began = time.monotonic()

    def step(name: str) -> None:
        print(f"{label}: {name} [{time.monotonic() - began:.1f} s]", flush=True)

    return step


def log_in(page, password: str, timeout: int = 15000) -> None:
    """The page's login form, once it shows, with `password`: the owner's controls then show."""
    expect(page.locator("#login")).to_be_visible(timeout=timeout)
    page.fill("#login-password", password)
    page.click("#login-form button[type=submit]")
    expect(page.locator("#controls")).to_be_visible(timeout=timeout)


def choose_password(page, password: str, timeout: int = 5000) -> None:
    """A new box's first password, typed twice in its form: the owner's controls then show."""
    page.fill("#setup-password", password)
    page.fill("#setup-again", password)
    page.click("#setup-form button[type=submit]")
    expect(page.locator("#controls")).to_be_visible(timeout=timeout)
