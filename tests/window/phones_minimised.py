#!/usr/bin/python3
"""A phone ends a turn while the laptop's window is minimised (openbox), on the real window.

The table turns Phones on in Settings (on loopback: the app's server listens on every interface
and answers only local-network peers, and 127.0.0.1 is one), starts the clock, minimises the
window. A phone (this script, over HTTP) ends the first player's turn: the answer must come in
well under a second, say the change is on disk, and `status --json` must name the next player,
all while the window stays minimised (no frame drawn). Prints one JSON object; exit 0 when all
holds.

Usage: phones_minimised.py BINARY OUT_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402


def post(url: str, body: dict) -> tuple:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read()), time.monotonic() - started
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}"), time.monotonic() - started


def main() -> int:
    binary, out_dir = sys.argv[1:3]
    os.makedirs(out_dir, exist_ok=True)
    data = tempfile.mkdtemp(prefix="phones-minimised-")
    checks = {}
    try:
        # A free port for the phones' server, so parallel runs do not collide.
        import socket
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        with open(os.path.join(data, "settings.json"), "w") as f:
            json.dump({"version": 1, "settings": {"language": "English", "phone_port": port,
                                                 "players": ["Ann", "Bo", "Cy"]}}, f)
        with driver.Session(data, lang="en_US.UTF-8", binary=binary, wm=True) as s:
            s.key("F4")
            s.click("checkbox", "Phones as the table's buttons (local network)")
            link = s.find("label", re.compile(r"^http://.*/p/[0-9a-f]{32}/$"), timeout=10).name
            base = re.sub(r"^http://[^/]+", f"http://127.0.0.1:{port}", link)
            checks["link"] = link
            s.key("F1")
            s.click("button", "Start")
            s.wait_until(lambda s: driver.clock(s)["state"] == "Running", timeout=5,
                         what="the clock to run")
            time.sleep(1.0)
            with urllib.request.urlopen(base + "state", timeout=10) as r:
                state = json.loads(r.read())
            s.minimise()
            checks["minimised"] = s.is_minimised()
            time.sleep(0.5)
            status, body, took = post(base + "action",
                                      {"action": "end_turn", "seat": 0, "turn": state["turn"]})
            checks["status"], checks["answer"], checks["answer_s"] = status, body, round(took, 3)
            checks["still_minimised"] = s.is_minimised()
            out = subprocess.run([binary, "status", "--json"], capture_output=True, text=True,
                                 env={**os.environ, "RUMMIKUB_COMPANION_DATA": data,
                                      "LC_ALL": "C"}, timeout=30)
            checks["status_json_current"] = json.loads(out.stdout)["timer"]["current"]
            s.restore()
            checks["window_now"] = s.find("label", re.compile(r"^Now · ")).name
            s.screenshot(os.path.join(out_dir, "phones-minimised-after.png"))
    finally:
        shutil.rmtree(data, ignore_errors=True)
    ok = (checks.get("minimised") and checks.get("still_minimised") and checks.get("status") == 200
          and checks.get("answer", {}).get("saved") is True and checks.get("answer_s", 9) < 1.0
          and checks.get("status_json_current") == "Bo" and checks.get("window_now") == "Now · Bo")
    print(json.dumps({"ok": bool(ok), "checks": checks}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
