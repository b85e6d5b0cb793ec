//! `score` and `audit` from the command line: the seed 002 sheet, the rule options, and every
//! kind of bad input (exit 2, row and column named, no panic).

use std::path::Path;
use std::process::Command;

use crate::util::data;
use proptest::prelude::*;
use serde_json::{Value, json};

/// Runs the CLI in-process: (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    // English output whatever the machine's locale (appended: argument numbers stay).
    let argv = std::iter::once("rummikub-companion")
        .chain(args.iter().copied())
        .chain(["--lang", "en"]);
    let code = rummikub_companion::cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).expect("utf-8 stdout"),
        String::from_utf8(err).expect("utf-8 stderr"),
    )
}

/// Runs the built binary: (exit code, stdout, stderr).
fn run_binary(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_rummikub-companion"))
        .env("LC_ALL", "C") // English output, whatever the machine's locale
        .args(args)
        .output()
        .expect("binary runs");
    (
        output.status.code().expect("exit code"),
        String::from_utf8(output.stdout).expect("utf-8 stdout"),
        String::from_utf8(output.stderr).expect("utf-8 stderr"),
    )
}

/// Writes `text` to a temporary CSV file and runs `command [flags] FILE` in-process.
fn run_text(command: &str, flags: &[&str], text: &str) -> (i32, String, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("sheet.csv");
    std::fs::write(&file, text).expect("write");
    let path = file.to_string_lossy().into_owned();
    let mut args = vec![command];
    args.extend_from_slice(flags);
    args.push(&path);
    run(&args)
}

fn json_of(stdout: &str) -> Value {
    serde_json::from_str(stdout).expect("one JSON object")
}

fn path(name: &str) -> String {
    data(name).to_string_lossy().into_owned()
}

// ---- score ----

#[test]
fn score_seed_002_prints_the_correct_totals_and_ranks() {
    let (code, out, err) = run_binary(&["score", &path("seed002_remaining.csv")]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let find = |label: &str| {
        lines
            .iter()
            .find(|l| l.starts_with(label))
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .unwrap_or_else(|| panic!("no {label} line in\n{out}"))
    };
    assert_eq!(find("Game1"), ["Game1", "+24", "-5", "-16", "-3", "루미"]);
    assert_eq!(find("Game3"), ["Game3", "-32", "-13", "-2", "+47", "알토"]);
    assert_eq!(find("total"), ["total", "+35", "-43", "-12", "+20"]);
    assert_eq!(find("wins"), ["wins", "2", "0", "1", "1"]);
    let ranks: Vec<Vec<&str>> = lines
        .iter()
        .filter(|l| l.starts_with("rank"))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        ranks,
        [
            ["rank", "1", "4", "3", "2", "by", "highest", "total"].as_slice(),
            [
                "rank", "1", "4", "3", "2", "by", "most", "wins,", "then", "total"
            ]
            .as_slice(),
        ]
    );
    assert!(out.contains("winner by highest total: 루미"), "{out}");
    assert!(
        out.contains("winner by most wins, then total (the other rule): 루미"),
        "{out}"
    );
}

#[test]
fn score_json_has_the_contract_fields() {
    let (code, out, err) = run(&["score", "--json", &path("seed002_remaining.csv")]);
    assert_eq!(code, 0, "{err}");
    let v = json_of(&out);
    assert_eq!(v["players"], json!(["루미", "큐브", "퍼니", "알토"]));
    assert_eq!(
        v["games"][0],
        json!({"label": "Game1", "points": [24, -5, -16, -3], "winner": "루미",
               "round": 1, "game": 1, "values": [0, 5, 16, 3], "went_out": true})
    );
    let points: Vec<Value> = (0..4).map(|i| v["games"][i]["points"].clone()).collect();
    assert_eq!(
        points,
        [
            json!([24, -5, -16, -3]),
            json!([-6, -11, 22, -5]),
            json!([-32, -13, -2, 47]),
            json!([49, -14, -16, -19])
        ]
    );
    assert_eq!(v["totals"], json!([35, -43, -12, 20]));
    assert_eq!(v["wins"], json!([2, 0, 1, 1]));
    assert_eq!(v["ranks"], json!([1, 4, 3, 2]));
    assert_eq!(v["final_rule"], "total");
    assert_eq!(v["winner"], json!(["루미"]));
}

/// Ann wins two small games, Bo one big one: the final rules disagree.
const DISAGREE: &str = "game,Ann,Bo,Cy\n1,0,2,2\n2,0,3,1\n3,40,0,30\n";

#[test]
fn score_final_rule_switch() {
    // Totals Ann 4+4−40 = −32, Bo −2−3+70 = +65, Cy −33; wins 2, 1, 0.
    let (code, out, _) = run_text("score", &["--json"], DISAGREE);
    assert_eq!(code, 0);
    let v = json_of(&out);
    assert_eq!(v["totals"], json!([-32, 65, -33]));
    assert_eq!(
        (v["ranks"].clone(), v["winner"].clone()),
        (json!([2, 1, 3]), json!(["Bo"]))
    );
    assert_eq!(v["winner_by"]["wins"], json!(["Ann"]));
    let (code, out, _) = run_text("score", &["--json", "--final", "wins"], DISAGREE);
    assert_eq!(code, 0);
    let v = json_of(&out);
    assert_eq!(v["final_rule"], "wins");
    assert_eq!(
        (v["ranks"].clone(), v["winner"].clone()),
        (json!([1, 2, 3]), json!(["Ann"]))
    );
    let (_, out, _) = run_text("score", &["--preset", "english"], DISAGREE);
    assert!(
        out.contains("winner by most wins, then total: Ann"),
        "{out}"
    );
    assert!(
        out.contains("winner by highest total (the other rule): Bo"),
        "{out}"
    );
}

#[test]
fn score_jokers_not_melded_ties_and_pool_out() {
    // Bo holds R5 and a joker; Cy had not melded (rack 12).
    let text = "game,Ann,Bo,Cy\n1,0,R5 J,12*\n";
    let points = |flags: &[&str]| {
        let (code, out, err) = run_text("score", flags, text);
        assert_eq!(code, 0, "{err}");
        json_of(&out)["games"][0]["points"].clone()
    };
    // Korean: joker 30 → Bo 35; not melded counts the rack 12; Ann +47.
    assert_eq!(points(&["--json"]), json!([47, -35, -12]));
    // --joker 50: Bo 55.
    assert_eq!(points(&["--json", "--joker", "50"]), json!([67, -55, -12]));
    // Tournament: joker 50, not melded a flat 100.
    assert_eq!(
        points(&["--json", "--preset", "tournament"]),
        json!([155, -55, -100])
    );
    // Pool out with a tie for lowest, the winner marked with "!" (Bo): Ann 0, Cy −3.
    let (code, out, _) = run_text("score", &["--json"], "game,Ann,Bo,Cy\n1,6,6!,9\n");
    assert_eq!(code, 0);
    let v = json_of(&out);
    assert_eq!(v["games"][0]["points"], json!([0, 3, -3]));
    assert_eq!(v["games"][0]["went_out"], false);
    // Pool out, single lowest: no mark needed.
    let (_, out, _) = run_text("score", &[], "game,Ann,Bo\n1,3,10\n");
    assert!(out.contains("Ann (pool out)"), "{out}");
}

fn assert_bad(command: &str, text: &str, expected: &str) {
    let (code, out, err) = run_text(command, &[], text);
    assert_eq!(code, 2, "{command} {text:?}: {out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains(expected),
        "{text:?}\nexpected: {expected}\ngot: {err}"
    );
    assert!(err.contains("sheet.csv"), "names the file: {err}");
}

#[test]
fn score_bad_input_names_row_and_column() {
    let h = "game,Ann,Bo,Cy\n";
    assert_bad(
        "score",
        &format!("{h}1,0,3\n"),
        "row 2: 3 cells, expected 4",
    );
    assert_bad(
        "score",
        &format!("{h}1,0,3,4,5\n"),
        "row 2: 5 cells, expected 4",
    );
    assert_bad(
        "score",
        "game,Ann,Bo,ann\n",
        "row 1, columns 2 and 4: header: two players are called \"ann\"",
    );
    assert_bad(
        "score",
        "game,Ann,,Cy\n",
        "row 1, column 3: header: player 2 has no name",
    );
    assert_bad(
        "score",
        "game,Ann\n1,0\n",
        "row 1: header: a sheet needs 2 to 6 players, not 1",
    );
    assert_bad(
        "score",
        "game,A,B,C,D,E,F,G\n",
        "a sheet needs 2 to 6 players, not 7",
    );
    assert_bad("score", "", "the file is empty");
    assert_bad(
        "score",
        &format!("{h}1,0,-5,4\n"),
        "row 2, column 3: Bo: \"-5\" is negative",
    );
    assert_bad(
        "score",
        &format!("{h}1,0,5,4\n2,0,five,4\n"),
        "row 3, column 3: Bo: \"five\" is neither a number nor tiles",
    );
    assert_bad(
        "score",
        &format!("{h}1,0,R14 K3,4\n"),
        "row 2, column 3: Bo: \"R14 K3\" is neither a number nor tiles: number 14 in \"R14\" is outside 1–13",
    );
    assert_bad(
        "score",
        &format!("{h}1,0,3.5,4\n"),
        "row 2, column 3: Bo: \"3.5\" is not a whole number",
    );
    assert_bad(
        "score",
        &format!("{h}1,0,,4\n"),
        "row 2, column 3: Bo: no remaining value",
    );
    assert_bad(
        "score",
        &format!("{h}1,0,!,4\n"),
        "row 2, column 3: Bo: \"!\" has marks but no remaining value",
    );
    assert_bad(
        "score",
        &format!("{h}1,0,0,4\n"),
        "row 2, columns 2 and 3: Ann and Bo both have remaining 0, but only one player can go out",
    );
    assert_bad(
        "score",
        &format!("{h}1,4!,4!,9\n"),
        "row 2, columns 2 and 3: Ann and Bo are both marked winner with \"!\"",
    );
    assert_bad(
        "score",
        &format!("{h}1,5,9,5\n"),
        "row 2, columns 2 and 4: Ann and Cy tie for the lowest remaining value (5); mark the winner with \"!\"",
    );
    assert_bad(
        "score",
        &format!("{h}1,5,9!,7\n"),
        "row 2, columns 2 and 3: Bo is named the winner with 9 left, but Ann has less (5)",
    );
    assert_bad(
        "score",
        &format!("{h}1,0*,9,7\n"),
        "row 2, column 2: Ann went out (remaining 0), so cannot be marked as not having melded",
    );
    assert_bad(
        "score",
        &format!("{h}1,0,99999,7\n"),
        "99999 is more than any rack can hold",
    );
}

#[test]
fn score_file_problems_and_usage() {
    let (code, _, err) = run(&["score", "/no/such/file.csv"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read /no/such/file.csv"), "{err}");
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("latin1.csv");
    std::fs::write(&file, b"game,Ren\xe9,Bo\n1,0,3\n").expect("write");
    let (code, _, err) = run(&["score", &file.to_string_lossy()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("is not UTF-8 text (invalid byte at offset 8)"),
        "{err}"
    );
    let (code, _, err) = run(&["score", "--final", "most", "x.csv"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown final-winner rule"), "{err}");
    let (code, _, _) = run(&["score"]);
    assert_eq!(code, 2);
}

#[test]
fn score_accepts_what_spreadsheets_write() {
    // A byte-order mark, CRLF line ends, quoted cells with commas, blank rows, Korean tiles.
    let text = "\u{feff}game,Ann,Bo\r\n1,0,\"R5, K7\"\r\n,,\r\n2,빨강3 조커*,0\r\n";
    let (code, out, err) = run_text("score", &["--json"], text);
    assert_eq!(code, 0, "{err}");
    let v = json_of(&out);
    assert_eq!(v["games"][0]["points"], json!([12, -12]));
    assert_eq!(v["games"][1]["points"], json!([-33, 33]));
    assert_eq!(v["games"][1]["label"], "2");
}

// ---- audit ----

#[test]
fn audit_names_the_errors_of_the_printed_seed_002_sheet() {
    let (code, out, err) = run_binary(&["audit", &path("seed002_printed.csv")]);
    assert_eq!(code, 1, "{err}");
    let problems: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("  - ")).collect();
    assert_eq!(
        problems,
        [
            "total of 루미: written +34, should be +35 (1 too low)",
            "total of 알토: written -21, should be +20 (41 too low)",
            "rank of 퍼니: written 2, should be 3 under both final rules",
            "rank of 알토: written 3, should be 2 under both final rules",
        ]
    );
    assert!(out.contains("4 problems found"), "{out}");
    assert!(
        out.contains(
            "the written ranks match neither final rule; \
             they rank the written (wrong) totals by highest total"
        ),
        "{out}"
    );
    assert!(out.contains("sums to 0"), "{out}");
}

#[test]
fn audit_json_of_the_seed() {
    let (code, out, _) = run(&["audit", "--json", &path("seed002_printed.csv")]);
    assert_eq!(code, 1);
    let v = json_of(&out);
    assert_eq!(v["clean"], false);
    assert_eq!(v["problems"].as_array().map(Vec::len), Some(4));
    assert_eq!(v["games"][3]["points"], json!([49, -14, -16, -19]));
    assert_eq!(v["games"][3]["sum"], 0);
    assert_eq!(v["totals"]["written"], json!([34, -43, -12, -21]));
    assert_eq!(v["totals"]["correct"], json!([35, -43, -12, 20]));
    assert_eq!(v["wins"]["written"], json!([2, 0, 1, 1]));
    assert_eq!(v["wins"]["correct"], json!([2, 0, 1, 1]));
    assert_eq!(v["ranks"]["written"], json!([1, 4, 2, 3]));
    assert_eq!(v["ranks"]["by_total"], json!([1, 4, 3, 2]));
    assert_eq!(v["ranks"]["by_wins"], json!([1, 4, 3, 2]));
    assert_eq!(v["ranks"]["matches"], json!([]));
    assert_eq!(v["ranks"]["follow_written_totals"], "total");
}

#[test]
fn audit_of_a_corrected_seed_sheet_is_clean() {
    let fixed = std::fs::read_to_string(data("seed002_printed.csv"))
        .expect("fixture")
        .replace("+ 34,- 43,- 12,- 21", "+ 35,- 43,- 12,+ 20")
        .replace("1 위,4위,2 위,3 위", "1 위,4위,3 위,2 위");
    let (code, out, _) = run_text("audit", &[], &fixed);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("no problems found"), "{out}");
    assert!(
        out.contains("the written ranks match both final rules"),
        "{out}"
    );
}

#[test]
fn audit_reports_rows_totals_wins_and_which_rule_the_ranks_follow() {
    // Row 3 sums to +1 (a slip), written with a Unicode minus and spaced signs.
    let text = "game,Ann,Bo,Cy\n\
                1,0,+2,−2\n\
                2,+ 5,- 3,- 1\n\
                3,-4,+10,-6\n\
                승 수,1,2,0\n\
                합계,+1,+9,-9\n\
                순위,2,1,3\n";
    let (code, out, _) = run_text("audit", &[], text);
    assert_eq!(code, 1, "{out}");
    let problems: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("  - ")).collect();
    assert_eq!(problems, ["row 3 (2): points sum to +1, not 0"]);
    // Ranks 2 1 3 are right by total (Bo 9, Ann 1, Cy −9) and by wins (Bo 2, Ann 1).
    assert!(out.contains("match both final rules"), "{out}");

    // Ranks that follow the English rule only.
    let text = "game,Ann,Bo,Cy\n1,+4,-2,-2\n2,+4,-3,-1\n3,-40,+70,-30\nrank,1,2,3\n";
    let (code, out, _) = run_text("audit", &["--json"], text);
    assert_eq!(code, 0, "{out}");
    assert_eq!(json_of(&out)["ranks"]["matches"], json!(["wins"]));
    // Wrong wins and several winners in one row.
    let text = "game,Ann,Bo,Cy\n1,+4,+2,-6\nwins,0,1,0\n";
    let (code, out, _) = run_text("audit", &[], text);
    assert_eq!(code, 1);
    assert!(
        out.contains("row 2 (1): Ann and Bo all have positive points; a game has one winner"),
        "{out}"
    );
    assert!(out.contains("wins of Bo: written 1, should be 0"), "{out}");
}

#[test]
fn audit_bad_input() {
    let h = "game,Ann,Bo\n";
    assert_bad(
        "audit",
        &format!("{h}1,+4,x\n"),
        "row 2, column 3: Bo: \"x\" is not signed points (+24, -5)",
    );
    assert_bad(
        "audit",
        &format!("{h}1,+4,-4\nrank,1,3\n"),
        "row 3, column 3: Bo: \"3\" is not a rank (1, 1 위)",
    );
    assert_bad(
        "audit",
        &format!("{h}1,+4,-4\nwins,-1,1\n"),
        "row 3, column 2: Ann: \"-1\" is not a number of wins",
    );
    assert_bad(
        "audit",
        &format!("{h}1,+4,-4\ntotal,4,-4\n합계,4,-4\n"),
        "row 4: a second \"total\" row",
    );
    assert_bad("audit", &format!("{h}1,+4\n"), "row 2: 2 cells, expected 3");
    assert_bad("audit", "game,Ann,Ann\n", "two players are called \"Ann\"");
}

// ---- no panic on any input ----

fn cell() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{1,3}[!*]{0,2}",
        "[-+−]? ?[0-9]{1,12}",
        "([RBKOJ][0-9]{1,2} ?){0,4}[*!]?",
        "[^,\n\"]{0,6}",
        Just(String::new()),
    ]
}

fn sheet_text() -> impl Strategy<Value = String> {
    (1_usize..8, 0_usize..6).prop_flat_map(|(players, rows)| {
        let header = proptest::collection::vec("[A-Za-z가-힣]{0,3}", players);
        let body = proptest::collection::vec(
            (
                prop_oneof![
                    Just("g".to_owned()),
                    Just("total".to_owned()),
                    Just("순위".to_owned())
                ],
                proptest::collection::vec(cell(), players.saturating_sub(1)..=players + 1),
            ),
            rows,
        );
        (header, body).prop_map(|(header, body)| {
            let mut text = format!("game,{}\n", header.join(","));
            for (label, cells) in body {
                text.push_str(&format!("{label},{}\n", cells.join(",")));
            }
            text
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn score_and_audit_never_panic(text in sheet_text(), json in any::<bool>()) {
        let flags: &[&str] = if json { &["--json"] } else { &[] };
        for command in ["score", "audit"] {
            let (code, out, err) = run_text(command, flags, &text);
            prop_assert!((0..=2).contains(&code));
            if code == 2 {
                prop_assert!(err.starts_with("error: "), "{}", err);
            } else {
                prop_assert!(!out.is_empty());
            }
            if json && code != 2 {
                prop_assert!(serde_json::from_str::<Value>(&out).is_ok());
            }
        }
    }
}

#[test]
fn fixtures_exist() {
    for name in ["seed002_printed.csv", "seed002_remaining.csv"] {
        assert!(Path::new(&data(name)).is_file(), "{name}");
    }
}
