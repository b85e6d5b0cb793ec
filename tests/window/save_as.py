#!/usr/bin/env python3
""""Save CSV as…" on the real release window, on a machine with no save dialog (Xvfb with a
private session bus: no desktop portal, no zenity), through driver.py beside this script.

Run by `tests/suite/window.rs` (an ignored test that .ci/run runs). A person clicks "Save CSV
as…" after a game; no dialog can open here, so the CSV must land in the exports folder and a
notice must say so and why. Then "Export picture" must write a PNG and say so. Prints one JSON
object; exits 0 when every check holds, 1 otherwise.

Usage: save_as.py BINARY OUT_DIR  (with Debian's /usr/bin/python3)
"""
import json
import os
import re
import shutil
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402  (needs Debian's python3 with gi)


def main() -> int:
    binary, out_dir = sys.argv[1:3]

    for tool in ("zenity",):
        if shutil.which(tool):
            print(json.dumps({"ok": False, "why": f"{tool} is installed: a dialog would open"}))
            return 1
    os.makedirs(out_dir, exist_ok=True)
    data = tempfile.mkdtemp(prefix="save-as-")
    result = {"checks": {}}
    ok = True
    with driver.Session(data, lang="en_US.UTF-8", binary=binary) as s:
        s.click("tab", "Score sheet")
        s.click("button", "New sheet")
        s.click("button", "Add game")
        for i, value in enumerate(["0", "12", "R5 K7 J", "7"], start=1):
            s.type_into(s.field_near(f"Player {i}"), value)
        s.click("button", "Save game")
        s.wait_until(lambda s: s.exists("label", "Round 1, game 1"), timeout=5)
        asked = time.monotonic()
        s.click("button", "Save CSV as…")
        notice = re.compile(r"^No save dialog could open on this system")
        s.wait_until(lambda s: s.exists("label", notice), timeout=10)
        result["checks"]["notice_after_s"] = round(time.monotonic() - asked, 2)
        line = s.find("label", notice).name
        result["checks"]["notice"] = line
        exports = sorted(os.listdir(os.path.join(data, "exports")))
        result["checks"]["exports"] = exports
        ok &= len(exports) == 1 and exports[0].endswith(".csv")
        ok &= line.endswith(exports[0]) if exports else False
        with open(os.path.join(data, "exports", exports[0]), "rb") as f:
            head = f.read(3)
        result["checks"]["bom"] = head == b"\xef\xbb\xbf"
        ok &= head == b"\xef\xbb\xbf"
        ok &= s.exists("button", "Open folder")
        s.screenshot(os.path.join(out_dir, "save-as-no-dialog.png"))

        # "Export picture": the sheet and its chart as a PNG, with a notice naming it, even
        # when nothing else moves in the window afterwards.
        s.click("button", "Export picture")
        picture = re.compile(r"^Exported to .*\.png$")
        s.wait_until(lambda s: s.exists("label", picture), timeout=10)
        pngs = [f for f in os.listdir(os.path.join(data, "exports")) if f.endswith(".png")]
        result["checks"]["pictures"] = pngs
        ok &= len(pngs) == 1
        if pngs:
            with open(os.path.join(data, "exports", pngs[0]), "rb") as f:
                ok &= f.read(8) == b"\x89PNG\r\n\x1a\n"
    shutil.rmtree(data, ignore_errors=True)
    result["ok"] = bool(ok)
    print(json.dumps(result))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
