#!/usr/bin/env python3
"""The Meld tab's "Whole table" and "Referee a turn" in the real release window, as a table
uses them: tiles clicked on the picker, the rack typed on the keyboard (real key events),
Enter starting a new set; the answer read back through AT-SPI. Prints one JSON line.

usage: whole_table.py BINARY OUT_DIR
"""
import json
import os
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402


def main() -> int:
    binary, out_dir = sys.argv[1:3]
    os.makedirs(out_dir, exist_ok=True)
    data = tempfile.mkdtemp(prefix="whole-table-")
    checks = {}
    with driver.Session(data, lang="en_US.UTF-8", binary=binary) as s:
        time.sleep(0.6)  # past the click that brought the window to the front
        s.click("button", "Meld check")
        s.click("button", "Whole table")
        for tile in ["R5", "R6", "R7"]:
            s.click("button", tile, settle=0.15)
        s.click("button", "New set")
        for tile in ["B9", "K9", "O9"]:
            s.click("button", tile, settle=0.15)
        # The rack typed, as a keyboard would.
        s.type_into(s.find("field", "Rack"), "R8 K2")
        s.find("label", "Best play: 1 tile from the rack (8 points)", timeout=10)
        checks["best_play"] = True
        checks["changed_marked"] = s.exists("label", "changed")
        checks["kept_marked"] = s.exists("label", "as it was")
        s.screenshot(os.path.join(out_dir, "whole-table-real.png"))

        s.click("button", "Referee a turn")
        s.type_into(s.find("field", "Table before"), "R5 R6 R7")
        s.key("Return")  # a new set, the cursor stays
        s.type_text("B9 K9 O9")
        s.type_into(s.find("field", "Table after"), "R5 R6 R7 R8 | B9 K9")
        s.type_into(s.find("field", "Rack before (optional)"), "R8 K1")
        s.find("label", "Illegal turn:", timeout=5)
        checks["illegal"] = True
        checks["pocketed"] = s.exists("label", "• taken off the table: O9")
        s.screenshot(os.path.join(out_dir, "referee-real.png"))
    ok = all(checks.values())
    print(json.dumps({"ok": ok, "checks": checks}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
