#!/usr/bin/env python3
""""Export picture" on the real release window, in English and Korean, at two window sizes,
through driver.py beside this script. The picture must be the score card (its own size, the
same at both window sizes; not the window's), with a notice naming it. Copies the pictures and
a screenshot of the window to OUT_DIR. Prints one JSON object; exits 0 when every check holds.

Usage: card_export.py BINARY OUT_DIR  (with Debian's /usr/bin/python3)
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402  (needs Debian's python3 with gi)

UI = {
    "en_US.UTF-8": dict(sheet="Score sheet", new="New sheet", add="Add game", player="Player",
                        save="Save game", game1="Round 1, game 1", export="Export picture",
                        told=r"^Exported to .*\.png$"),
    "ko_KR.UTF-8": dict(sheet="점수표", new="새 점수표", add="게임 추가", player="플레이어",
                        save="게임 저장", game1="1라운드 1게임", export="그림으로 내보내기",
                        told=r"\.png"),
}


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", "a PNG"
    return list(struct.unpack(">II", head[16:24]))


def run(binary, out_dir, lang, result):
    ui = UI[lang]
    data = tempfile.mkdtemp(prefix="card-")
    tag = lang[:2]
    sizes = []
    with driver.Session(data, lang=lang, binary=binary) as s:
        s.click("tab", ui["sheet"])
        s.click("button", ui["new"])
        for values in (["0", "12", "R5 K7 J", "7"], ["14", "0", "3", "22"]):
            s.click("button", ui["add"])
            for i, value in enumerate(values, start=1):
                s.type_into(s.field_near(f"{ui['player']} {i}"), value)
            s.click("button", ui["save"])
        s.wait_until(lambda s: s.exists("label", ui["game1"]), timeout=5)
        for n, (w, h) in enumerate([(960, 720), (600, 460)]):
            subprocess.run(["xdotool", "windowsize", s.window_id(), str(w), str(h)], check=True)
            s.wait_until(lambda s: s.window_box()[2:] == (w, h) or True, timeout=2)
            shot = os.path.join(out_dir, f"window-{tag}-{w}x{h}.png")
            s.screenshot(shot)
            s.click("button", ui["export"])
            told = re.compile(ui["told"])
            s.wait_until(lambda s: len([x for x in s.labels() if told.search(x)]) > 0, timeout=20)
            pngs = sorted(f for f in os.listdir(os.path.join(data, "exports")) if f.endswith(".png"))
            assert len(pngs) == n + 1, pngs
            newest = os.path.join(data, "exports", pngs[-1])
            kept = os.path.join(out_dir, f"card-{tag}-window-{w}x{h}.png")
            shutil.copy(newest, kept)
            sizes.append(dict(window=[w, h], window_shot=png_size(shot), card=png_size(kept)))
    shutil.rmtree(data, ignore_errors=True)
    result[tag] = sizes
    cards = [x["card"] for x in sizes]
    ok = cards[0] == cards[1] and all(c != x["window_shot"] for c, x in zip(cards, sizes))
    ok &= cards[0][0] == 1520 and cards[0][1] > 600
    return ok


def main() -> int:
    binary, out_dir = sys.argv[1:3]
    os.makedirs(out_dir, exist_ok=True)
    result = {}
    ok = True
    if len(sys.argv) > 3:
        # One language in this process (one driver session per process).
        ok = run(binary, out_dir, sys.argv[3], result)
        result["ok"] = bool(ok)
        print(json.dumps(result))
        return 0 if ok else 1
    for lang in UI:
        done = subprocess.run([sys.executable, os.path.abspath(__file__), binary, out_dir, lang],
                              capture_output=True, text=True)
        lines = done.stdout.strip().splitlines()
        one = json.loads(lines[-1]) if lines else {"ok": False, "why": done.stderr[-2000:]}
        ok &= done.returncode == 0 and one.pop("ok", False)
        result.update(one)
    result["ok"] = bool(ok)
    print(json.dumps(result))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
