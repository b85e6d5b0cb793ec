#!/usr/bin/env python3
"""The Whole table answer's steps in the real release window, in English and Korean, at the
default size (960x720) and at 800x600: the table and the rack typed with real keys, the steps
read back through AT-SPI, then stepped through with the right and left arrow keys (real key
events, no text field focused) and the Next button, a screenshot at each step. Prints one
JSON line.

usage: whole_table_steps.py BINARY OUT_DIR
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402

TABLE = "R5 J R7"
RACK = "R6 B9 K9"

WORDS = {
    "en_US.UTF-8": dict(
        tag="en", tab="Meld check", mode="Whole table", table="Table", rack="Rack",
        next="Next", back="Back", heading="How to play it:",
        steps=["1. Put R6 in place of the joker in R5 J R7.",
               "2. Take the freed joker from R5 R6 R7 J to start a new set.",
               "3. Add B9 K9 to J."],
        at=["Step 1 of 3", "Step 2 of 3", "Step 3 of 3"], done="All 3 steps done",
        before="The table before this step:", after="The table after this play:",
        new="new", tiles="most tiles",
        rank="Most tiles from the rack, then the fewest table sets changed, then the fewest tiles moved, then the most points"),
    "ko_KR.UTF-8": dict(
        tag="ko", tab="등록 확인", mode="테이블 전체", table="테이블", rack="받침대",
        next="다음", back="이전", heading="놓는 순서:",
        steps=None,  # read from the window, compared with the English run's count
        at=["3단계 중 1단계", "3단계 중 2단계", "3단계 중 3단계"], done="3단계 모두 끝",
        before="이 단계 전의 테이블:", after="이렇게 놓은 뒤의 테이블:", new="새로 만듦", tiles="최다 타일",
        rank="받침대 타일을 가장 많이, 같으면 바뀌는 테이블 묶음을 가장 적게, 그다음 옮기는 타일을 가장 적게, 그다음 점수를 가장 크게"),
}


def run(binary: str, out_dir: str, lang: str, size: tuple) -> dict:
    w = WORDS[lang]
    checks = {}
    data = tempfile.mkdtemp(prefix="whole-table-steps-")
    tag = f"{w['tag']}-{size[0]}x{size[1]}"
    with driver.Session(data, lang=lang, binary=binary) as s:
        time.sleep(0.6)
        subprocess.run(["xdotool", "windowsize", s.window_id(), str(size[0]), str(size[1])],
                       check=True)
        time.sleep(0.5)
        checks["size"] = tuple(s.window_box()[2:]) == size
        s.click("tab", w["tab"])
        s.click("button", w["mode"])
        s.type_into(s.find("field", w["table"]), TABLE)
        s.type_into(s.find("field", w["rack"]), RACK)
        s.find("label", w["heading"], timeout=10)
        checks["steps_listed"] = True
        if w["steps"]:
            checks["steps_in_words"] = all(s.exists("label", line) for line in w["steps"])
        else:
            listed = [x for x in s.labels() if x[:2] in ("1.", "2.", "3.")]
            checks["steps_in_words"] = len(listed) == 3 and all(
                any("\uac00" <= ch <= "\ud7a3" for ch in x) for x in listed)
        checks["step_1"] = bool(s.find("label", w["at"][0], timeout=5))
        checks["table_now"] = s.exists("label", w["before"])
        s.screenshot(os.path.join(out_dir, f"steps-{tag}-1.png"))
        # How plays rank: the hover text of the measure chosen (at the top of the view).
        x, y = s.find("radio", w["tiles"]).center
        s._xdo("mousemove", str(x), str(y))
        checks["rank_told"] = bool(s.find("label", w["rank"], timeout=5))
        s.screenshot(os.path.join(out_dir, f"steps-{tag}-rank.png"))
        # The keys are the steps' once no text field has the keyboard: a click on the heading.
        s.click(s.find("label", w["heading"]), settle=0.3)
        s.key("Right", settle=0.4)
        checks["right_key"] = bool(s.find("label", w["at"][1], timeout=5))
        s.screenshot(os.path.join(out_dir, f"steps-{tag}-2.png"))
        s.click("button", w["next"], settle=0.4)
        checks["next_button"] = bool(s.find("label", w["at"][2], timeout=5))
        s.key("Right", settle=0.4)
        checks["all_done"] = bool(s.find("label", w["done"], timeout=5))
        checks["table_after"] = s.exists("label", w["after"])
        checks["new_marked"] = s.exists("label", w["new"])
        s.screenshot(os.path.join(out_dir, f"steps-{tag}-done.png"))
        s.key("Left", settle=0.4)
        checks["left_key"] = bool(s.find("label", w["at"][2], timeout=5))
        s.click("button", w["back"], settle=0.4)
        checks["back_button"] = bool(s.find("label", w["at"][1], timeout=5))
    return checks


def main() -> int:
    binary, out_dir = sys.argv[1:3]
    os.makedirs(out_dir, exist_ok=True)
    if len(sys.argv) == 7 and sys.argv[3] == "--one":
        # One run in this process (libatspi keeps to the first session's bus).
        lang, size = sys.argv[4], (int(sys.argv[5]), int(sys.argv[6]))
        print(json.dumps(run(binary, out_dir, lang, size)))
        return 0
    runs = {}
    for lang in WORDS:
        for size in [(960, 720), (800, 600)]:
            key = f"{WORDS[lang]['tag']}-{size[0]}x{size[1]}"
            done = subprocess.run(
                [sys.executable, os.path.abspath(__file__), binary, out_dir, "--one", lang,
                 str(size[0]), str(size[1])], capture_output=True, text=True, timeout=300)
            try:
                runs[key] = json.loads(done.stdout.strip().splitlines()[-1])
            except (IndexError, ValueError):
                runs[key] = {"error": done.stderr[-2000:]}
    ok = all(r and "error" not in r and all(r.values()) for r in runs.values())
    print(json.dumps({"ok": ok, "runs": runs}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
