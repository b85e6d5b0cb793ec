#!/usr/bin/python3
"""The first minute at a table and the keys that never surprise (issue 49), on the real window
at its default size (960x720) with the notices a laptop without sound or a screen-saver service
shows (Xvfb has no sound card; the private session bus has no screen saver), in one language.

As a new group would: four seats ("Add player" clicked as needed); every seat's name field and
"Add player" are inside the window and under no notice; the four names are typed with Return
between them (the clock stays stopped, all four are set); Backspace on the Timer takes back no
rename; Tab from the last name then Space swaps no seat and starts the clock. On the score
sheet: Enter on a half-typed game is refused and `12<Tab>7<Tab>3` typed after it all lands;
Ctrl+Z on the Meld tab changes no sheet; Ctrl+N opens the add-game form. Screenshots at
960x720 (notices whole, then folded) and 800x600.

Usage: first_minute.py BINARY OUT_DIR LANG   (LANG: en or ko; prints one JSON object, exit 0 when
every check holds)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402

WORDS = {
    "en": {
        "locale": "en_US.UTF-8",
        "seat": "Player {}",
        "add_player": "Add player",
        "names": ["Ann", "Bo", "Cy", "Dee"],
        "no_sound": "No sound output",
        "no_awake": "cannot be kept awake",
        "running": "Running",
        "new_sheet": "New sheet",
        "add_game": "Add game",
        "edit": "Edit",
        "refused": "type what is left",
        "cancel": "Cancel",
        "delete": "Delete",
    },
    "ko": {
        "locale": "ko_KR.UTF-8",
        "seat": "플레이어 {}",
        "add_player": "플레이어 추가",
        "names": ["Ann", "Bo", "Cy", "Dee"],
        "no_sound": "소리를 낼 장치가 없습니다",
        "no_awake": "화면을 켜 둘 수 없습니다",
        "running": "진행 중",
        "new_sheet": "새 점수표",
        "add_game": "게임 추가",
        "edit": "고치기",
        "refused": "남은 값을 입력하세요",
        "cancel": "취소",
        "delete": "지우기",
    },
}


def inside(node, box) -> bool:
    x, y, w, h = box
    return node.x >= x and node.y >= y and node.x + node.w <= x + w and node.y + node.h <= y + h


def overlaps(a, b) -> bool:
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


def shot(s, out_dir: str, name: str) -> str:
    """The window's client area as a PNG (the screen cropped to it)."""
    full = os.path.join(out_dir, f"screen-{name}")
    s.screenshot(full)
    x, y, w, h = s.window_box()
    path = os.path.join(out_dir, name)
    subprocess.run(["convert", full, "-crop", f"{w}x{h}+{x}+{y}", "+repage", path], check=True)
    os.remove(full)
    return path


def seats(s, w):
    return [n for n in s.find_all("entry")
            if re.fullmatch(w["seat"].format(r"\d"), n.label)]


def names_now(s, w) -> list:
    return [n.text for n in sorted(seats(s, w), key=lambda n: n.y)]


def main() -> int:
    binary, out_dir, lang = sys.argv[1:4]
    w = WORDS[lang]
    os.makedirs(out_dir, exist_ok=True)
    data = tempfile.mkdtemp(prefix="first-minute-")
    checks = {}
    try:
        with driver.Session(data, lang=w["locale"], binary=binary) as s:
            box = s.window_box()
            checks["window"] = list(box[2:])
            # The screen is kept awake only while a turn runs: the first turn brings that
            # notice (there is no screen saver service here), Backspace takes the turn back.
            s.find("label", re.compile(re.escape(w["no_sound"])), timeout=10)
            s.key("space", settle=0.5)
            s.find("label", re.compile(re.escape(w["no_awake"])), timeout=10)
            s.key("BackSpace", settle=0.5)
            checks["clock_at_start"] = driver.clock(s)["state"]
            notices = [s.find("label", re.compile(re.escape(w[k])), timeout=10)
                       for k in ("no_sound", "no_awake")]
            checks["notices"] = len(notices)
            while len(seats(s, w)) < 4:
                s.click("button", w["add_player"])
            fields = sorted(seats(s, w), key=lambda n: n.y)
            add = s.find("button", w["add_player"])
            on_screen = fields + [add]
            checks["seats_and_add_inside"] = all(inside(n, box) for n in on_screen)
            checks["seats_under_no_notice"] = not any(
                overlaps(n, notice) for n in on_screen for notice in notices)
            shot(s, out_dir, f"timer-960x720-notices-{lang}.png")
            # Four names, Return between them (and after the last).
            s.click(fields[0], settle=0.3)
            s.key("ctrl+a")
            for name in w["names"]:
                s.type_text(name, delay_ms=60)
                s.key("Return", settle=0.3)
            time.sleep(0.5)
            checks["names_after_return"] = names_now(s, w)
            checks["clock_after_return"] = driver.clock(s)["state"]
            # Backspace with no field focused: no rename is taken back.
            s.key("BackSpace", settle=0.5)
            checks["names_after_backspace"] = names_now(s, w)
            # Tab from the last name, then Space: no seat swapped, the clock runs.
            fields = sorted(seats(s, w), key=lambda n: n.y)
            s.click(fields[-1], settle=0.3)
            s.key("Tab", settle=0.3)
            s.key("space", settle=0.6)
            checks["names_after_tab_space"] = names_now(s, w)
            checks["clock_after_tab_space"] = driver.clock(s)["state"]
            time.sleep(8.5)  # the notices that need no action fold once read
            shot(s, out_dir, f"timer-960x720-folded-{lang}.png")
            s.key("space", settle=0.3)  # a turn: the clock keeps running

            # The score sheet: a refused Enter, then 12<Tab>7<Tab>3 all lands.
            s.key("F3", settle=0.4)
            s.click("button", w["new_sheet"])
            s.click("button", re.compile("^" + re.escape(w["add_game"])))
            first = s.find("entry", w["names"][0])
            s.click(first, settle=0.3)
            s.type_text("0\t", delay_ms=80)
            s.key("Return", settle=0.5)
            checks["refused_said"] = bool(s.find("label", re.compile(re.escape(w["refused"]))))
            shot(s, out_dir, f"sheet-refused-{lang}.png")
            s._xdo("type", "--delay", "80", "--", "12\t7\t3")
            time.sleep(0.8)
            checks["fields_after_refused"] = [
                s.find("entry", name).text for name in w["names"]]
            s.key("Return", settle=0.6)
            checks["games_saved"] = len(s.find_all("button", w["edit"]))
            # Ctrl+Z on the Meld tab changes no sheet.
            s.key("F2", settle=0.4)
            s.key("ctrl+z", settle=0.5)
            shot(s, out_dir, f"meld-ctrl-z-{lang}.png")
            s.key("F3", settle=0.5)
            checks["games_after_meld_ctrl_z"] = len(s.find_all("button", w["edit"]))
            # Ctrl+N from another tab opens the add-game form on the sheet.
            s.key("F1", settle=0.4)
            s.key("ctrl+n", settle=0.6)
            checks["ctrl_n_form"] = bool(s.find("entry", w["names"][0], timeout=3))
            s.click("button", w["cancel"], settle=0.5)
            shot(s, out_dir, f"sheet-960x720-{lang}.png")
            # 800x600: the timer's seats and the sheet's Edit/Delete inside the window.
            s._xdo("windowsize", "--sync", s.window_id(), "800", "600")
            time.sleep(1.0)
            s._geometry()
            box = s.window_box()
            checks["small_window"] = list(box[2:])
            # The sheet scrolled down to the form: back up to the games (the wheel, over them).
            s.click_at(box[0] + box[2] // 2, box[1] + 2 * box[3] // 3, button=4, repeat=10,
                       delay_ms=30)
            time.sleep(0.6)
            # Edit and Delete were cut off at the window's right edge.
            edits = s.find_all("button", w["edit"]) + s.find_all("button", w["delete"])
            checks["sheet_edit_delete_800"] = [[n.x - box[0], n.x + n.w - box[0]] for n in edits]
            checks["sheet_edit_inside_800"] = len(edits) == 2 and all(
                box[0] <= n.x and n.x + n.w <= box[0] + box[2] for n in edits)
            shot(s, out_dir, f"sheet-800x600-{lang}.png")
            s.key("F1", settle=0.5)
            fields = seats(s, w)
            checks["seats_inside_800"] = all(inside(n, box) for n in fields)
            shot(s, out_dir, f"timer-800x600-{lang}.png")
    finally:
        shutil.rmtree(data, ignore_errors=True)
    names = w["names"]
    ok = (checks["window"] == [960, 720]
          and checks["clock_at_start"] != w["running"]
          and checks["seats_and_add_inside"] and checks["seats_under_no_notice"]
          and checks["names_after_return"] == names
          and checks["clock_after_return"] != w["running"]
          and checks["names_after_backspace"] == names
          and checks["names_after_tab_space"] == names
          and checks["clock_after_tab_space"] == w["running"]
          and checks["refused_said"]
          and checks["fields_after_refused"] == ["0", "12", "7", "3"]
          and checks["games_saved"] == 1
          and checks["games_after_meld_ctrl_z"] == 1
          and checks["ctrl_n_form"]
          and checks["sheet_edit_inside_800"] and checks["seats_inside_800"])
    print(json.dumps({"ok": ok, "lang": lang, "checks": checks}, ensure_ascii=False))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
