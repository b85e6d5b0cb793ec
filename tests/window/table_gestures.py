#!/usr/bin/env python3
"""Table gestures on the real release window (Xvfb + AT-SPI through driver.py beside this script).

Run by `tests/suite/window.rs` (an ignored test that .ci/run runs): starts the built binary
under Xvfb with real X key repeat and checks, as a person at the table would:
  - holding Space for 1.5 s ends exactly one turn (the X server sends ~20 repeats);
  - a double-click on the clock ends one turn.
Prints one JSON object; exits 0 when every check holds, 1 otherwise.

Usage: table_gestures.py BINARY OUT_DIR  (with Debian's /usr/bin/python3)
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

    os.makedirs(out_dir, exist_ok=True)
    data = tempfile.mkdtemp(prefix="gestures-")
    result = {"checks": {}}
    ok = True
    with driver.Session(data, lang="en_US.UTF-8", binary=binary) as s:
        result["autorepeat"] = s.autorepeat()
        # The window has only just come to the front: a click within 350 ms of that is taken
        # as the click that brought it there and does not start the clock (by design, see
        # ui::app::layout::ACTIVATION_CLICK). A person does not click that fast either.
        time.sleep(0.6)
        s.click("button", "Start")
        s.wait_until(lambda s: driver.clock(s)["state"] == "Running", timeout=5)
        time.sleep(1.0)
        s.hold("space", 1.5)
        time.sleep(0.5)
        stats = driver.timer_stats(s)
        turns = sum(int(row.get("Turns", "0") or 0) for row in stats.values())
        result["checks"]["hold_space_1_5s_turns"] = turns
        ok &= turns == 1
        now = s.find("label", re.compile(r"^Now · ")).name
        result["checks"]["now_after_hold"] = now
        ok &= now == "Now · Player 2"
        s.screenshot(os.path.join(out_dir, "after-hold.png"))

        # A double-click on the clock: one end of turn.
        time.sleep(1.0)
        s.click("push button", driver.CLOCK, repeat=2, delay_ms=120, settle=0.8)
        stats = driver.timer_stats(s)
        turns = sum(int(row.get("Turns", "0") or 0) for row in stats.values())
        result["checks"]["double_click_turns_total"] = turns
        ok &= turns == 2
        s.screenshot(os.path.join(out_dir, "after-double-click.png"))
    shutil.rmtree(data, ignore_errors=True)
    result["ok"] = bool(ok)
    print(json.dumps(result))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
