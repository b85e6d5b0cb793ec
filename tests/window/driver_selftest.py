#!/usr/bin/env python3
"""A self-test of driver.py's app restart and window-manager calls, on the real window (with
openbox: Session(wm=True)):
  - kill_app(SIGKILL) ends the app only, and a read then says the app is gone;
  - restart_app() starts it again on the same data folder and buses, and its tree is read again
    (the clock, the Start button) and it takes clicks;
  - minimise() iconifies the window, restore() brings it back, and it takes clicks again;
  - on exit every process the session started is gone.
Prints one JSON object; exits 0 when every check holds, 1 otherwise.

Usage: driver_selftest.py BINARY OUT_DIR  (with Debian's /usr/bin/python3; needs openbox)
"""
import json
import os
import shutil
import signal
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402  (needs Debian's python3 with gi)


def main() -> int:
    binary, out_dir = sys.argv[1:3]
    os.makedirs(out_dir, exist_ok=True)
    data = tempfile.mkdtemp(prefix="driver-selftest-")
    checks = {}
    t0 = time.monotonic()
    try:
        with driver.Session(data, binary=binary, wm=True) as s:
            checks["first_clock"] = driver.clock(s)["state"]
            first_pid = s.app.pid

            # A crash: the app only; the display and the buses stay.
            checks["kill_status"] = s.kill_app(signal.SIGKILL)
            checks["alive_after_kill"] = s.app_alive()
            try:
                s.tree()
                checks["read_after_kill"] = "read a tree from a dead app"
            except driver.AppExited:
                checks["read_after_kill"] = "AppExited"

            started = time.monotonic()
            s.restart_app()
            checks["restart_s"] = round(time.monotonic() - started, 2)
            checks["new_pid"] = s.app.pid != first_pid
            checks["clock_after_restart"] = driver.clock(s)["state"]
            s.click("button", "Start")
            s.wait_until(lambda s: driver.clock(s)["state"] == "Running", timeout=5,
                         what="the clock to run after the restart")
            checks["running_after_restart"] = True
            s.click("button", "Pause")
            s.wait_until(lambda s: driver.clock(s)["state"] == "Paused", timeout=5,
                         what="the clock to pause")

            # Minimise and restore with the window manager.
            wid = s.window_id()
            s.minimise()
            checks["minimised"] = s.is_minimised()
            checks["alive_while_minimised"] = s.app_alive()
            s.restore()
            checks["restored"] = not s.is_minimised()
            checks["same_window"] = s.window_id() == wid
            s.click("button", "Resume")
            s.wait_until(lambda s: driver.clock(s)["state"] == "Running", timeout=5,
                         what="the clock to run after restore")
            checks["running_after_restore"] = True
            s.screenshot(os.path.join(out_dir, "selftest-restored.png"))
            pids = s.pids()
    finally:
        shutil.rmtree(data, ignore_errors=True)
    checks["left_running"] = [f"{n} {p}" for n, p in pids.items() if driver._alive(p)]
    checks["total_s"] = round(time.monotonic() - t0, 1)
    ok = (checks["first_clock"] == "Ready" and checks["kill_status"] == -signal.SIGKILL
          and not checks["alive_after_kill"] and checks["read_after_kill"] == "AppExited"
          and checks["new_pid"] and checks["clock_after_restart"] == "Ready"
          and checks["minimised"] and checks["alive_while_minimised"] and checks["restored"]
          and checks["same_window"] and not checks["left_running"])
    print(json.dumps({"ok": bool(ok), "checks": checks}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
