#!/usr/bin/env python3
"""The page's files (Sources/DelayboxWeb/page: delaybox.html, .js, .css) embedded in the
program as Sources/DelayboxWeb/WebPageFiles.swift, which the box serves (WebAssets): the
files are what an editor, a linter and a reviewer read; the Swift file is made from them.

  tools/web-page.py --write   # after editing a file of the page
  tools/web-page.py --check   # make check and make test: fails while the Swift file is stale,
                              # or the script does not parse (node --check)
"""
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGE = ROOT / "Sources/DelayboxWeb/page"
OUT = ROOT / "Sources/DelayboxWeb/WebPageFiles.swift"
FILES = [("html", "delaybox.html", "The markup: every screen, shown or hidden by the script."),
         ("js", "delaybox.js", "The script."),
         ("css", "delaybox.css", "The style.")]
DELIMITER = '"""##'


def generated() -> str:
    out = ["// Made by tools/web-page.py from Sources/DelayboxWeb/page: edit those files, then run",
           "// `tools/web-page.py --write` (make check and make test fail while this file is stale).",
           "",
           "/// The page's three files, as the box serves them (WebAssets).",
           "enum WebPageFiles {"]
    for name, file, doc in FILES:
        text = (PAGE / file).read_text(encoding="utf-8")
        if DELIMITER in text or "\r" in text:
            sys.exit(f"web-page: {file} holds {DELIMITER!r} or a carriage return, which the Swift literal cannot")
        out.append(f"    /// {doc} ({file})")
        out.append(f'    static let {name} = ##"""')
        # Every line of the file, the empty one after its last newline too: the literal ends
        # with that newline, as the file does.
        out.extend(("        " + line) if line else "" for line in text.split("\n"))
        out.append(f"        {DELIMITER}")
        out.append("")
    out[-1] = "}"
    return "\n".join(out) + "\n"


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "--write":
        OUT.write_text(generated(), encoding="utf-8")
        return 0
    if mode != "--check":
        print(__doc__.strip(), file=sys.stderr)
        return 2
    status = 0
    if not OUT.exists() or OUT.read_text(encoding="utf-8") != generated():
        print(f"web-page: {OUT.relative_to(ROOT)} is not made from the page's files: tools/web-page.py --write",
              file=sys.stderr)
        status = 1
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        print("web-page: no node to check the script (apt-get install nodejs)", file=sys.stderr)
        return 1
    if subprocess.run([node, "--check", str(PAGE / "delaybox.js")]).returncode != 0:
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
