//! The turn referee, in the engine and through the `play` and `referee` commands as processes
//! (output, JSON shape, exit codes, both languages).

use std::process::{Command, Output};

use rummikub_companion::i18n::play as words;
use rummikub_companion::lang::Language;
use rummikub_companion::referee::{Reason, TurnContext, Verdict, judge};
use rummikub_companion::tile::{parse_rack, parse_sets};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rummikub-companion"))
        .env("LC_ALL", "C")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn pocketed_foreign_and_broken_are_all_named() {
    let before = parse_sets("R5 R6 R7 | B9 K9 O9").expect("parses");
    let after = parse_sets("R5 R6 R7 R8 | B9 K9 | K13 K12 K11").expect("parses");
    let rack = parse_rack("R8 K11 K12").expect("parses");
    let ruling = judge(&before, &after, Some(&rack), &TurnContext::default());
    assert_eq!(ruling.verdict, Verdict::Illegal);
    let o9 = parse_rack("O9").expect("tile");
    let k13 = parse_rack("K13").expect("tile");
    assert!(matches!(
        &ruling.reasons[0],
        Reason::BrokenSet { index: 1, .. }
    ));
    assert_eq!(ruling.reasons[1], Reason::Pocketed(o9));
    assert_eq!(ruling.reasons[2], Reason::NotFromRack(k13));
    let ko: Vec<String> = ruling
        .reasons
        .iter()
        .map(|r| words::reason(Language::Korean, r))
        .collect();
    assert!(ko[0].contains("파9 검9"), "{ko:?}");
    assert_eq!(ko[1], "테이블에서 사라진 타일: 주9");
    assert_eq!(ko[2], "받침대에 없던 타일: 검13");
    let en: Vec<String> = ruling
        .reasons
        .iter()
        .map(|r| words::reason(Language::English, r))
        .collect();
    assert_eq!(en[1], "taken off the table: O9");
    assert_eq!(en[2], "not from the player's rack: K13");
}

#[test]
fn a_joker_may_move_but_never_leave() {
    let before = parse_sets("R5 J R7").expect("parses");
    let moved = parse_sets("R5 R6 R7 J").expect("parses");
    let rack = parse_rack("R6").expect("parses");
    let ok = judge(&before, &moved, Some(&rack), &TurnContext::default());
    assert_eq!(ok.verdict, Verdict::Legal);
    let taken = parse_sets("R5 R6 R7").expect("parses");
    let bad = judge(&before, &taken, Some(&rack), &TurnContext::default());
    assert_eq!(
        bad.reasons,
        vec![Reason::Pocketed(parse_rack("J").expect("joker"))]
    );
}

#[test]
fn referee_command_exit_codes_and_json() {
    let legal = run(&[
        "referee",
        "--before",
        "R5 R6 R7",
        "--after",
        "R5 R6 R7 R8",
        "--rack",
        "R8",
        "--json",
    ]);
    assert_eq!(legal.status.code(), Some(0));
    let v = json(&legal);
    assert_eq!(v["verdict"], "legal");
    assert_eq!(v["laid"], serde_json::json!(["R8"]));

    let illegal = run(&[
        "referee",
        "--before",
        "R5 R6 R7",
        "--after",
        "R5 R6 | R7 R8 R9",
        "--timeout",
    ]);
    assert_eq!(illegal.status.code(), Some(1));
    let out = text(&illegal.stdout);
    assert!(out.contains("Illegal turn"), "{out}");
    assert!(out.contains("draw 3"), "{out}");

    let ko = run(&[
        "referee",
        "--lang",
        "ko",
        "--before",
        "R5 R6 R7 | B9 K9 O9",
        "--after",
        "R5 R6 R7 | B9 K9 O9 J",
    ]);
    assert_eq!(ko.status.code(), Some(0));
    let out = text(&ko.stdout);
    assert!(out.contains("놓은 타일: 조커"), "{out}");

    let bad = run(&["referee", "--before", "R5 R6 R14", "--after", "R5 R6 R7"]);
    assert_eq!(bad.status.code(), Some(2));
    let err = text(&bad.stderr);
    assert!(err.contains("--before") && err.contains("R14"), "{err}");
}

#[test]
fn play_command_prints_the_new_table() {
    let out = run(&[
        "play",
        "--table",
        "R5 R6 R7 | B9 K9 O9",
        "--rack",
        "R8 R9 K2",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["count"], 2);
    assert_eq!(v["points"], 17);
    assert_eq!(v["placed"], serde_json::json!(["R8", "R9"]));
    assert_eq!(v["changed"], serde_json::json!([1]));
    assert_eq!(
        v["table"][1],
        serde_json::json!(["R5", "R6", "R7", "R8", "R9"])
    );

    let by_points = run(&[
        "play", "--table", "R3 R4 R5", "--rack", "R2 R6 J", "--by", "points", "--json",
    ]);
    assert_eq!(json(&by_points)["points"], 38, "R2 R6 and the joker at 30");

    let nothing = run(&[
        "play", "--table", "R5 R6 R7", "--rack", "K1", "--lang", "ko",
    ]);
    assert_eq!(nothing.status.code(), Some(1));
    assert!(text(&nothing.stdout).contains("빨5 빨6 빨7"));

    let xp = run(&["play", "--table", "R5 R6 R7", "--rack", "R5 R5", "--json"]);
    assert_eq!(xp.status.code(), Some(2), "three R5 in a standard set");
    let xp = run(&["play", "--xp", "--table", "R5 R6 R7", "--rack", "R5 R5"]);
    assert_eq!(
        xp.status.code(),
        Some(1),
        "XP: three R5 exist, but they fit nowhere"
    );

    let broken = run(&[
        "play", "--table", "R5 B6 K7", "--rack", "K1", "--lang", "ko",
    ]);
    assert_eq!(broken.status.code(), Some(2));
    assert!(
        text(&broken.stderr).contains("1번째 묶음"),
        "{}",
        text(&broken.stderr)
    );
}

/// `play --json` writes the steps as DESIGN.md's contract says (set indices as the table
/// stands before each step: the sets given from 0, new sets appended as they are made), and
/// the steps replayed on the table give the new table; plain `play` numbers them in words, in
/// English and Korean, and marks new sets as new.
#[test]
fn play_command_says_how_to_play_it() {
    let args = ["play", "--table", "R5 J R7", "--rack", "R6 B9 K9"];
    let out = run(&[&args[..], &["--json"]].concat());
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(
        v["steps"],
        serde_json::json!([
            {"kind": "swap", "tiles": ["R6"], "from": "rack", "to": 0},
            {"kind": "swap", "tiles": ["J"], "from": 0, "to": "new"},
            {"kind": "add", "tiles": ["B9", "K9"], "from": "rack", "to": 1},
        ])
    );
    // Replayed: set 0 is R5 R6 R7, set 1 (made by the second step) holds the joker, B9, K9.
    let table = v["table"].as_array().expect("the new table");
    assert!(
        table.contains(&serde_json::json!(["R5", "R6", "R7"])),
        "{v}"
    );
    assert!(table.contains(&serde_json::json!(["B9", "K9", "J"])), "{v}");

    let en = text(&run(&[&args[..], &["--lang", "en"]].concat()).stdout);
    for line in [
        "* B9 K9 J  (new)",
        "* R5 R6 R7  (changed)",
        "Tiles moved: 4",
        "How to play it:",
        "  1. Put R6 in place of the joker in R5 J R7.",
        "  2. Take the freed joker from R5 R6 R7 J to start a new set.",
        "  3. Add B9 K9 to J.",
    ] {
        assert!(en.contains(line), "{line:?} not in\n{en}");
    }
    let ko = text(&run(&[&args[..], &["--lang", "ko"]].concat()).stdout);
    for line in [
        "(새로 만듦)",
        "옮기는 타일: 4개",
        "놓는 순서:",
        "  1. 빨5 조커 빨7의 조커 자리에 놓기: 빨6",
        "  2. 풀려난 조커를 빨5 빨6 빨7 조커에서 떼어 새 묶음 만들기",
        "  3. 조커에 붙이기: 파9 검9",
    ] {
        assert!(ko.contains(line), "{line:?} not in\n{ko}");
    }

    // Nothing laid: no steps.
    let nothing = run(&["play", "--table", "R5 R6 R7", "--rack", "K1", "--json"]);
    assert_eq!(json(&nothing)["steps"], serde_json::json!([]));
}
