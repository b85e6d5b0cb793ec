#!/usr/bin/python3
"""Fast typing with Tab between the add-game form's fields, on the real window.

A scorer types `0<Tab>12<Tab>22<Tab>32` as one stream (xdotool, at 100, 80 and 60 ms a key, three
times each) into a fresh form; every value must land in its own field. (Before, 5 of 30 streams
gave `0 / 122 / 2 / 32` or everything in the first field.) Prints one JSON object; exit 0 when
every stream landed.

Usage: tab_typing.py BINARY OUT_DIR
"""
import json
import os
import shutil
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402


def main() -> int:
    binary, out_dir = sys.argv[1:3]
    os.makedirs(out_dir, exist_ok=True)
    data = tempfile.mkdtemp(prefix="tab-typing-")
    streams = []
    try:
        with driver.Session(data, lang="en_US.UTF-8", binary=binary) as s:
            s.key("F3")
            s.click("button", "New sheet")
            for delay in [100, 80, 60] * 3:
                s.click("button", "Add game")
                first = s.find("entry", "Player 1")
                s.click(first, settle=0.3)
                s._xdo("type", "--delay", str(delay), "--", "0\t12\t22\t32")
                time.sleep(0.8)
                got = [n.text for n in s.find_all("entry")]
                streams.append({"delay_ms": delay, "fields": got,
                                "ok": got == ["0", "12", "22", "32"]})
                s.click("button", "Cancel", settle=0.3)
            s.screenshot(os.path.join(out_dir, "tab-typing.png"))
    finally:
        shutil.rmtree(data, ignore_errors=True)
    ok = all(st["ok"] for st in streams)
    print(json.dumps({"ok": ok, "streams": streams}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
