//! The exported CSV: a byte-order mark for spreadsheets, headers in the UI language, rows
//! labelled as on screen, the rules, totals and winners — and `score` reads it back to the same
//! result. The plain tables too: the points table passes `audit`, the facts read back.

use std::process::Command;

use rummikub_companion::rules::{FinalRule, Preset, RuleSet};
use rummikub_companion::score::audit::{audit, read_paper_csv};
use rummikub_companion::score::export::{ExportLabels, sheet_csv, sheet_csv_named};
use rummikub_companion::score::table::{points_csv, read_score_csv, score_csv};
use rummikub_companion::score::{Game, GameNumber, Hand, Players, Sheet};
use rummikub_companion::tile::parse_rack;
use serde_json::Value;

use crate::util::sheets::random_sheet;
use crate::util::{rng, seed_sheet, t0};

const KOREAN: ExportLabels<'static> = ExportLabels {
    game: "게임",
    points: "점수",
    total: "합계",
    wins: "승",
    rank: "순위",
    winner: "우승",
    leader: "선두",
    other_winner: "다른 규칙의 우승",
    other_leader: "다른 규칙의 선두",
    rules: "규칙",
    remaining: "남은 패",
};

fn korean_label(n: GameNumber) -> String {
    format!("{}라운드 {}게임", n.round, n.in_round)
}

fn english_label(n: GameNumber) -> String {
    format!("Round {}, game {}", n.round, n.in_round)
}

/// Runs the built `score` on `text` with `flags`: (exit code, JSON, stderr).
fn score_binary(text: &str, flags: &[&str]) -> (i32, Value, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("export.csv");
    std::fs::write(&file, text).expect("write");
    let output = Command::new(env!("CARGO_BIN_EXE_rummikub-companion"))
        .env("LC_ALL", "C") // English output, whatever the machine's locale
        .arg("score")
        .arg("--json")
        .args(flags)
        .arg(&file)
        .output()
        .expect("binary runs");
    let stdout = String::from_utf8(output.stdout).expect("utf-8");
    let stderr = String::from_utf8(output.stderr).expect("utf-8");
    let json = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (output.status.code().expect("exit code"), json, stderr)
}

/// Every record of the CSV (BOM removed), as cells.
fn records(text: &str) -> Vec<Vec<String>> {
    let body = text.strip_prefix('\u{feff}').expect("a BOM");
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(body.as_bytes())
        .records()
        .map(|r| r.expect("valid CSV").iter().map(str::to_owned).collect())
        .collect()
}

fn row<'a>(rows: &'a [Vec<String>], first: &str) -> &'a [String] {
    rows.iter()
        .find(|r| r[0] == first)
        .map(|r| &r[1..])
        .unwrap_or_else(|| panic!("no row {first:?} in {rows:?}"))
}

#[test]
fn the_export_starts_with_a_byte_order_mark() {
    let sheet = seed_sheet(Preset::Korean.rules());
    let text = sheet_csv(
        &sheet,
        &ExportLabels::ENGLISH,
        "Korean manual",
        &english_label,
    );
    assert_eq!(&text.as_bytes()[..3], [0xEF, 0xBB, 0xBF]);
    assert_eq!(text.matches('\u{feff}').count(), 1);
}

#[test]
fn the_seed_sheet_exports_its_points_totals_ranks_winner_and_rules() {
    let sheet = seed_sheet(Preset::Korean.rules());
    let rules = "Korean manual · joker 30 · highest total";
    let text = sheet_csv(&sheet, &ExportLabels::ENGLISH, rules, &english_label);
    let rows = records(&text);
    assert_eq!(rows[0], ["game", "루미", "큐브", "퍼니", "알토"]);
    assert_eq!(row(&rows, "# Round 1, game 1"), ["+24", "-5", "-16", "-3"]);
    assert_eq!(row(&rows, "# Round 1, game 3"), ["-32", "-13", "-2", "+47"]);
    assert_eq!(row(&rows, "# total"), ["+35", "-43", "-12", "+20"]);
    assert_eq!(row(&rows, "# wins"), ["2", "0", "1", "1"]);
    assert_eq!(row(&rows, "# rank"), ["1", "4", "3", "2"]);
    // One round of four games was planned and played: the match is over.
    assert_eq!(row(&rows, "# winner"), ["루미"]);
    assert_eq!(row(&rows, "# winner by the other rule"), ["루미"]);
    assert_eq!(row(&rows, "# rules"), [rules]);
    // The facts, labelled as on screen.
    assert_eq!(row(&rows, "Round 1, game 2"), ["6", "11", "0", "5"]);
}

#[test]
fn the_export_round_trips_through_score() {
    let mut r = rng(21);
    let names = ["Ann", "Bo", "루미", "Dee", "Eve"];
    for (case, (preset, final_flag)) in [
        (Preset::Korean, "total"),
        (Preset::English, "wins"),
        (Preset::Tournament, "total"),
    ]
    .into_iter()
    .enumerate()
    {
        for n in [2, 3, 5] {
            let mut sheet = random_sheet(&mut r, &names[..n], preset.rules(), Some(2), t0(), 2 * n);
            // Tiles, a named tie winner and a not-melded player survive the trip too.
            let mut hands = vec![Hand::of_value(7); n];
            hands[0] = Hand::of_tiles(parse_rack("R5 K7 J").expect("rack")).without_meld();
            hands[1] = Hand::of_value(7);
            sheet
                .add_game(Game::new(hands).with_winner(1))
                .expect("a pool-out game with a named winner");
            let text = sheet_csv(&sheet, &ExportLabels::ENGLISH, "rules", &english_label);
            let (code, json, err) = score_binary(&text, &["--preset", preset.name()]);
            assert_eq!(code, 0, "case {case}, {n} players: {err}");
            let standings = sheet.standings();
            assert_eq!(
                json["totals"],
                serde_json::json!(standings.totals),
                "case {case}"
            );
            assert_eq!(json["wins"], serde_json::json!(standings.wins));
            assert_eq!(json["final_rule"], final_flag);
            let points: Vec<Vec<i64>> = sheet.scores().iter().map(|s| s.points.clone()).collect();
            let read: Vec<Value> = json["games"].as_array().expect("games").clone();
            assert_eq!(read.len(), sheet.games().len());
            for (i, game) in read.iter().enumerate() {
                assert_eq!(game["points"], serde_json::json!(points[i]));
                assert_eq!(game["label"], english_label(sheet.number(i)));
            }
            let rule = sheet.rules().final_rule;
            let winners: Vec<&str> = standings.winners(rule).iter().map(|&i| names[i]).collect();
            assert_eq!(json["winner"], serde_json::json!(winners));
        }
    }
}

#[test]
fn the_export_names_the_winner_and_a_shared_first_place() {
    let players = Players::new(["Ann", "Bo", "Cy"]).expect("players");
    let mut sheet = Sheet::new(players, RuleSet::default(), Some(1), t0()).expect("sheet");
    let out = |w: usize| {
        Game::new(
            (0..3)
                .map(|i| Hand::of_value(if i == w { 0 } else { 10 }))
                .collect(),
        )
    };
    sheet.add_game(out(0)).expect("game");
    let text = sheet_csv(&sheet, &ExportLabels::ENGLISH, "r", &english_label);
    let rows = records(&text);
    assert_eq!(
        row(&rows, "# leader"),
        ["Ann"],
        "still playing: a leader, not a winner"
    );
    assert!(rows.iter().all(|r| r[0] != "# winner"));
    sheet.add_game(out(1)).expect("game");
    sheet.add_game(out(2)).expect("game");
    let rows = records(&sheet_csv(
        &sheet,
        &ExportLabels::ENGLISH,
        "r",
        &english_label,
    ));
    assert_eq!(row(&rows, "# winner"), ["Ann", "Bo", "Cy"], "all tied on 0");
    sheet.set_final_rule(FinalRule::Wins);
    let rows = records(&sheet_csv(
        &sheet,
        &ExportLabels::ENGLISH,
        "r",
        &english_label,
    ));
    assert_eq!(
        row(&rows, "# winner"),
        ["Ann", "Bo", "Cy"],
        "one win each, same total"
    );
}

#[test]
fn korean_headers_and_row_labels() {
    let sheet = seed_sheet(Preset::Korean.rules());
    let text = sheet_csv(
        &sheet,
        &KOREAN,
        "한국어판 · 조커 30 · 최고 총점",
        &korean_label,
    );
    let rows = records(&text);
    assert_eq!(rows[0][0], "게임");
    assert_eq!(row(&rows, "# 1라운드 4게임"), ["+49", "-14", "-16", "-19"]);
    assert_eq!(row(&rows, "# 합계"), ["+35", "-43", "-12", "+20"]);
    assert_eq!(row(&rows, "# 승"), ["2", "0", "1", "1"]);
    assert_eq!(row(&rows, "# 순위"), ["1", "4", "3", "2"]);
    assert_eq!(row(&rows, "# 우승"), ["루미"]);
    assert_eq!(row(&rows, "# 규칙"), ["한국어판 · 조커 30 · 최고 총점"]);
    assert_eq!(row(&rows, "1라운드 1게임"), ["0", "5", "16", "3"]);
    assert!(
        !text.contains("total") && !text.contains("winner"),
        "{text}"
    );
    let (code, json, err) = score_binary(&text, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json["totals"], serde_json::json!([35, -43, -12, 20]));
    assert_eq!(json["games"][0]["label"], "1라운드 1게임");
}

/// Regression: the comment rule that lets `score` read exports must not swallow a game row
/// labelled `#1`; only `#` alone or followed by a space starts a comment.
#[test]
fn regression_hash_labels_are_games_and_only_hash_space_is_a_comment() {
    let text = "# a note before the header\ngame,Ann,Bo\n#1,0,5\n# 2,0,99\n#,1,1\n#2,4,0\n";
    let (code, json, err) = score_binary(text, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json["games"].as_array().map(Vec::len), Some(2));
    assert_eq!(json["games"][0]["label"], "#1");
    assert_eq!(json["totals"], serde_json::json!([1, -1]));
}

#[test]
fn a_row_label_that_looks_like_a_comment_is_still_read_as_a_game() {
    let sheet = seed_sheet(Preset::Korean.rules());
    let text = sheet_csv(&sheet, &ExportLabels::ENGLISH, "r", &|n| {
        format!("# {}", n.overall)
    });
    let (code, json, err) = score_binary(&text, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json["games"].as_array().map(Vec::len), Some(4));
}

#[test]
fn the_points_table_passes_audit_and_the_facts_table_reads_back() {
    let mut sheet = seed_sheet(RuleSet::default());
    sheet
        .add_game(
            Game::new(vec![
                Hand::of_value(4),
                Hand::of_value(4),
                Hand::of_tiles(parse_rack("R5 J").expect("tiles")).without_meld(),
                Hand::of_value(9),
            ])
            .with_winner(1),
        )
        .expect("game");
    let report = audit(&read_paper_csv(&points_csv(&sheet)).expect("reads"));
    assert!(report.is_clean(), "{:?}", report.findings());
    assert_eq!(report.totals, sheet.standings().totals);

    let text = score_csv(&sheet);
    assert!(text.contains("4!") && text.contains("R5 J*"), "{text}");
    let back = read_score_csv(&text, *sheet.rules(), sheet.created()).expect("reads");
    assert_eq!(back.sheet.standings(), sheet.standings());
    assert_eq!(back.sheet.scores(), sheet.scores());
}

/// Issue 23.9: a Korean window's CSV keeps the racks as the table calls the tiles (`빨5 조커`),
/// marks included, and `score` reads the file back to the same games; English keeps `R5 J`.
#[test]
fn a_korean_export_names_rack_tiles_in_korean_and_reads_back_the_same() {
    use rummikub_companion::i18n;
    use rummikub_companion::lang::Language;
    let players = Players::new(["루미", "Bo", "Cy"]).expect("players");
    let mut sheet = Sheet::new(players, RuleSet::default(), None, t0()).expect("sheet");
    let rack = |text: &str| Hand::of_tiles(parse_rack(text).expect("rack"));
    let game = Game::new(vec![
        Hand::of_value(0),
        rack("R5 J"),
        rack("K7 O13").without_meld(),
    ]);
    sheet.add_game(game).expect("game");
    let tied = Game::new(vec![rack("B3"), rack("R3"), Hand::of_value(20)]).with_winner(1);
    sheet.add_game(tied).expect("tied game");

    let korean = |t| i18n::tile(Language::Korean, t);
    let text = sheet_csv_named(&sheet, &KOREAN, "규칙", &korean_label, &korean);
    let rows = records(&text);
    let facts = |rows: &[Vec<String>], label: &str| -> Vec<String> {
        rows.iter()
            .rev()
            .find(|r| r[0] == label)
            .map(|r| r[1..].to_vec())
            .expect(label)
    };
    assert_eq!(
        facts(&rows, "1라운드 1게임"),
        ["0", "빨5 조커", "검7 주13*"]
    );
    assert_eq!(facts(&rows, "1라운드 2게임"), ["파3", "빨3!", "20"]);
    let back = read_score_csv(&text, RuleSet::default(), t0()).expect("score reads it");
    assert_eq!(back.sheet.scores(), sheet.scores());
    assert_eq!(back.sheet.games()[0].hands, sheet.games()[0].hands);

    let english = sheet_csv(&sheet, &ExportLabels::ENGLISH, "r", &english_label);
    let rows = records(&english);
    assert_eq!(facts(&rows, "Round 1, game 1"), ["0", "R5 J", "K7 O13*"]);
}
