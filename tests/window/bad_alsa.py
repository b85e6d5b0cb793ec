#!/usr/bin/env python3
"""The release window starts under Xvfb with a malformed ALSA configuration (a typo in
~/.asoundrc is enough to make the audio library panic): the window must come up, say there is
no sound output, and run the timer. Prints one JSON object; exit 0 when it does.

Usage: bad_alsa.py BINARY OUT_DIR  (with Debian's /usr/bin/python3; the driver is driver.py here)
"""
import json
import os
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
    conf = os.path.join(tempfile.mkdtemp(prefix="alsa-"), "asound.conf")
    with open(conf, "w") as f:
        f.write("pcm.!default {\n  type plug\n  slave.pcm \"broken\n")  # unterminated
    data = tempfile.mkdtemp(prefix="bad-alsa-")
    result = {}
    with driver.Session(data, lang="en_US.UTF-8", binary=binary,
                        env={"ALSA_CONFIG_PATH": conf}) as s:
        notice = "No sound output was found: alerts are shown on screen only."
        try:  # polls: the notice may come a frame after the first tree
            result["notice"] = bool(s.find("label", notice, timeout=5))
        except driver.DriverError:
            result["notice"] = False
        s.click("button", "Start")
        time.sleep(1.2)
        result["clock"] = driver.clock(s)["state"]
        result["alive"] = s.app_alive()
        s.screenshot(os.path.join(out_dir, "bad-alsa.png"))
    shutil.rmtree(data, ignore_errors=True)
    shutil.rmtree(os.path.dirname(conf), ignore_errors=True)
    result["ok"] = bool(result["notice"] and result["alive"] and result["clock"] == "Running")
    print(json.dumps(result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
