#!/usr/bin/python3
"""A club's format and a season in the real release window, in Korean (the Event tab, F6).

A venue's finished night is made beforehand with the command line in a folder of its own and
exported as a signed bundle. In the window: the German format chosen from the Format menu (the
form then shows its placement points), eight players typed with a club and a division, the event
created (its format named), round 1 seated; then the Season part: a season typed and created, the
bundle's path typed and imported (its players in the season's standings), a copy of the bundle
with one byte changed refused with the file named, and the season shown on the TV (the TV page
names it). Screenshots at 960x720 and 800x600. Prints one JSON line; exit 0 when all holds.

usage: event_formats.py BINARY OUT_DIR
"""
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402

PLAYERS = ["가람,서울,U18", "나래,서울,U18", "다온,부산,U18", "라희,부산,U18",
           "마루,서울,Open", "바다,부산,Open", "사랑,서울,Open", "아라,부산,Open"]
HANGUL_DELAY_MS = 150  # xdotool types a Hangul syllable through a remapped key: slower is sure


def cli(binary: str, data: str, *args: str, stdin: str = "") -> str:
    env = dict(os.environ, RUMMIKUB_COMPANION_DATA=data)
    done = subprocess.run([binary, *args], env=env, input=stdin, capture_output=True,
                          text=True, timeout=60)
    if done.returncode != 0:
        raise RuntimeError(f"{args}: {done.stderr}")
    return done.stdout


def venue_bundle(binary: str, out: str) -> str:
    """A finished one-round night at another venue, exported signed."""
    data = tempfile.mkdtemp(prefix="venue-")
    players = os.path.join(data, "players.txt")
    with open(players, "w") as f:
        f.write("\n".join(["Ann,East", "Bo,East", "Cy,West", "Di,West"]) + "\n")
    cli(binary, data, "event", "new", "Spring cup", "--players", players, "--games", "1",
        "--seed", "7", "--lang", "en")
    seated = json.loads(cli(binary, data, "event", "seat", "--json", "--lang", "en"))
    names = seated["tables"][0]["players"]
    sheet = "game," + ",".join(names) + "\n1,0,12,30,7\n"
    cli(binary, data, "event", "result", "--table", "1", "-", "--lang", "en", stdin=sheet)
    bundle = os.path.join(out, "spring.bundle.json")
    cli(binary, data, "event", "export", "--venue", "East hall", "--out", bundle, "--lang", "en")
    return bundle


def main() -> int:
    binary, out_dir = sys.argv[1:3]
    os.makedirs(out_dir, exist_ok=True)
    bundle = venue_bundle(binary, out_dir)
    tampered = os.path.join(out_dir, "tampered.bundle.json")
    text = open(bundle).read()
    with open(tampered, "w") as f:
        f.write(text.replace("East", "Eest", 1))
    data = tempfile.mkdtemp(prefix="event-formats-")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with open(os.path.join(data, "settings.json"), "w") as f:
        json.dump({"version": 1, "settings": {"language": "Korean", "event_port": port}}, f)
    checks = {}
    with driver.Session(data, lang="ko_KR.UTF-8", binary=binary) as s:
        time.sleep(0.6)
        s.key("F6")
        s.click(s.find("combo box", "대회 방식"))
        s.click(s.find(None, re.compile(r"^독일: 순위별 배정")))
        checks["placement_shown"] = s.exists("field", re.compile(r"^4인 테이블의 순위 점수"))
        s.type_into(s.find("field", "대회 이름"), "")
        s.type_text("목요 클럽", delay_ms=HANGUL_DELAY_MS)
        s.type_into(s.find("field", re.compile(r"^선수, 한 줄에 한 명")), "")
        for i, line in enumerate(PLAYERS):
            if i:
                s.key("Return")
            s.type_text(line, delay_ms=HANGUL_DELAY_MS)
        s.click("checkbox", re.compile(r"^부마다 따로 배정"))
        s.click("button", "대회 만들기")
        s.find("label", re.compile(r"^선수 8명 · 0라운드"), timeout=10)
        checks["format_named"] = s.exists("label", re.compile(r"독일"))
        s.click("button", "다음 라운드 배정")
        s.find("label", re.compile(r"^1라운드를 배정했습니다"), timeout=10)
        shown = " ".join(s.labels())
        checks["seated_each_name"] = all(p.split(",")[0] in shown for p in PLAYERS)
        for w, h in [(960, 720), (800, 600)]:
            subprocess.run(["xdotool", "windowsize", s.window_id(), str(w), str(h)], check=True)
            time.sleep(1.0)
            s.screenshot(os.path.join(out_dir, f"event-format-ko-{w}x{h}.png"))
        subprocess.run(["xdotool", "windowsize", s.window_id(), "1100", "860"], check=True)
        time.sleep(1.0)
        # The Season part: a season made, a venue's bundle imported, a tampered one refused.
        s.click(s.find(None, "시즌"))
        s.type_into(s.find("field", "시즌 이름"), "")
        s.type_text("2027 리그", delay_ms=HANGUL_DELAY_MS)
        s.click("button", "시즌 만들기")
        s.find(None, re.compile(r"2027 리그"), timeout=10)
        s.type_into(s.find("field", re.compile(r"^가져올 번들 파일")), tampered)
        s.click("button", "이 시즌으로 가져오기")
        time.sleep(1.0)
        checks["tampered_refused"] = any("tampered.bundle.json" in label for label in s.labels())
        checks["tampered_counts_nothing"] = not s.exists("label", "Ann")
        s.type_into(s.find("field", re.compile(r"^가져올 번들 파일")), bundle)
        s.click("button", "이 시즌으로 가져오기")
        s.find("label", "Ann", timeout=10)
        checks["imported"] = s.exists("label", "Di")
        s.screenshot(os.path.join(out_dir, "season-ko.png"))
        s.click("button", "TV에 보이기")
        s.find("button", "TV에서 내리기", timeout=10)
        checks["shown_on_tv"] = True
        subprocess.run(["xdotool", "windowsize", s.window_id(), "800", "600"], check=True)
        time.sleep(1.0)
        s.screenshot(os.path.join(out_dir, "season-ko-800x600.png"))
    ok = all(checks.values())
    print(json.dumps({"ok": ok, "checks": checks}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
