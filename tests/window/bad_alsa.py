#!/usr/bin/env python3
"""The release window starts under Xvfb with a malformed ALSA configuration (a typo in
~/.asoundrc is enough to make the audio library panic): the window must come up, say there is
no sound output, and run the timer. Prints one JSON object; exit 0 when it does.

Usage: bad_alsa.py BINARY TABLEBOT_DIR OUT_DIR
"""
import json
import os
import sys
import tempfile
import time


def main() -> int:
    binary, tablebot_dir, out_dir = sys.argv[1:4]
    sys.path.insert(0, tablebot_dir)
    import tablebot as tb  # noqa: E402

    os.makedirs(out_dir, exist_ok=True)
    conf = os.path.join(tempfile.mkdtemp(prefix="alsa-"), "asound.conf")
    with open(conf, "w") as f:
        f.write("pcm.!default {\n  type plug\n  slave.pcm \"broken\n")  # unterminated
    os.environ["ALSA_CONFIG_PATH"] = conf
    data = tempfile.mkdtemp(prefix="bad-alsa-")
    result = {}
    with tb.Session(data, lang="en_US.UTF-8", binary=binary) as s:
        result["notice"] = s.exists("label", "No sound output was found: alerts are shown on screen only.")
        s.click("button", "Start")
        time.sleep(1.2)
        result["clock"] = tb.clock(s)["state"]
        result["alive"] = s.app_alive()
        s.screenshot(os.path.join(out_dir, "bad-alsa.png"))
    result["ok"] = bool(result["notice"] and result["alive"] and result["clock"] == "Running")
    print(json.dumps(result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
