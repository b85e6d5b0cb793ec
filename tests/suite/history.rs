//! History across evenings: the engine agrees with a plain recomputation over seeded sheets
//! (different tables, spellings, rules and match ends), and the `history` command reads a data
//! folder, skipping a corrupt sheet with a notice and without touching it.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::Command;

use chrono::{DateTime, Duration, Utc};
use proptest::prelude::RngExt;
use proptest::test_runner::TestRng;
use rummikub_companion::history::{History, history};
use rummikub_companion::rules::{FinalRule, Preset};
use rummikub_companion::score::Sheet;
use rummikub_companion::store::{SheetId, Store};
use serde_json::Value;

use crate::util::sheets::random_sheet;
use crate::util::{rng, t0};

/// The club: each player with the spellings they are typed with.
const CLUB: [&[&str]; 8] = [
    &["Ann", "ann", " ANN"],
    &["Bo", "bo"],
    &["루미"],
    &["큐브", " 큐브 "],
    &["Cy", "CY"],
    &["Dee"],
    &["Eun-ji", "eun-ji"],
    &["Fa"],
];

/// A seeded evening: 2–6 of the club (random spellings), a random preset and end, 0–14 games.
fn evening(r: &mut TestRng, day: i64, hours: i64) -> Sheet {
    let n = r.random_range(2..=6_usize);
    let mut members: Vec<usize> = (0..CLUB.len()).collect();
    for i in 0..n {
        let j = r.random_range(i..members.len());
        members.swap(i, j);
    }
    let names: Vec<&str> = members[..n]
        .iter()
        .map(|&m| CLUB[m][r.random_range(0..CLUB[m].len())])
        .collect();
    let preset = [Preset::Korean, Preset::English, Preset::Tournament][r.random_range(0..3_usize)];
    let (rounds, target) = match r.random_range(0..4_u32) {
        0 => (None, None),
        1 => (Some(r.random_range(1..=2_u32)), None),
        2 => (None, Some(r.random_range(30..=120_i64))),
        _ => (Some(2), Some(r.random_range(60..=200_i64))),
    };
    let games = r.random_range(0..=14_usize);
    let start: DateTime<Utc> = t0() + Duration::days(day) + Duration::hours(hours);
    let mut sheet = random_sheet(r, &names, preset.rules(), rounds, start, games);
    sheet.set_target(target).expect("target");
    sheet
}

fn evenings(seed: u64, count: i64) -> Vec<Sheet> {
    let mut r = rng(seed);
    // Days in a scrambled order, so the input is not in date order; about a third of the sheets
    // share a night with another (started a few hours later, some past midnight).
    (0..count)
        .map(|i| {
            let slot = (i * 37) % count;
            let (day, hours) = (slot / 3, slot % 3 * 3);
            evening(&mut r, day, hours)
        })
        .collect()
}

/// What the history should say about one player, recomputed plainly.
#[derive(Debug, Default, PartialEq)]
struct Expected {
    name: String,
    evenings: usize,
    games: usize,
    matches: usize,
    match_wins: usize,
    total: i64,
    best_game: Option<i64>,
    head_to_head: BTreeMap<String, usize>,
    cumulative: Vec<i64>,
}

/// Winners (seats) of totals and wins under a rule, by plain comparison.
fn plain_winners(totals: &[i64], wins: &[usize], rule: FinalRule) -> Vec<usize> {
    let key = |i: usize| match rule {
        FinalRule::Total => (0, totals[i]),
        FinalRule::Wins => (wins[i] as i64, totals[i]),
    };
    let best = (0..totals.len()).map(key).max().expect("players");
    (0..totals.len()).filter(|&i| key(i) == best).collect()
}

/// The games that decide the match, if the sheet is a match: all of an open-ended sheet, else
/// up to the first game that completes the rounds or reaches the target.
fn deciding_games(sheet: &Sheet) -> Option<usize> {
    let n = sheet.players().len();
    let count = sheet.scores().len();
    if sheet.planned_rounds().is_none() && sheet.target().is_none() {
        return Some(count);
    }
    let mut end = sheet
        .planned_rounds()
        .map(|r| r as usize * n)
        .filter(|&p| p <= count);
    if let Some(target) = sheet.target() {
        let mut totals = vec![0_i64; n];
        for (i, s) in sheet.scores().iter().enumerate() {
            for (total, p) in totals.iter_mut().zip(&s.points) {
                *total += p;
            }
            if totals.iter().any(|&t| t >= target) {
                end = Some(end.map_or(i + 1, |e| e.min(i + 1)));
                break;
            }
        }
    }
    end
}

fn recompute(sheets: &[Sheet], rule: Option<FinalRule>) -> HashMap<String, Expected> {
    let mut dated: Vec<&Sheet> = sheets.iter().filter(|s| !s.games().is_empty()).collect();
    dated.sort_by_key(|s| s.created());
    let mut out: HashMap<String, Expected> = HashMap::new();
    let mut h2h: HashMap<(String, String), usize> = HashMap::new();
    // The night each player last played: nights run 06:00–06:00 (UTC here).
    let mut last_night: HashMap<String, chrono::NaiveDate> = HashMap::new();
    for sheet in dated {
        let night = (sheet.created() - Duration::hours(6)).date_naive();
        let names = sheet.players().names();
        let keys: Vec<String> = names.iter().map(|n| n.trim().to_lowercase()).collect();
        let decided = deciding_games(sheet);
        let n = names.len();
        let (mut totals, mut wins) = (vec![0_i64; n], vec![0_usize; n]);
        if let Some(k) = decided {
            for s in &sheet.scores()[..k] {
                for (total, p) in totals.iter_mut().zip(&s.points) {
                    *total += p;
                }
                wins[s.winner] += 1;
            }
        }
        let winners = plain_winners(&totals, &wins, rule.unwrap_or(sheet.rules().final_rule));
        for seat in 0..n {
            let e = out.entry(keys[seat].clone()).or_default();
            e.name = names[seat].trim().to_owned();
            let same_night = last_night.insert(keys[seat].clone(), night) == Some(night);
            if !same_night {
                e.evenings += 1;
            }
            for s in sheet.scores() {
                e.games += 1;
                e.total += s.points[seat];
                e.best_game = Some(
                    e.best_game
                        .map_or(s.points[seat], |b| b.max(s.points[seat])),
                );
                for other in 0..n {
                    if other != seat {
                        let pair = (keys[seat].clone(), keys[other].clone());
                        let beat = usize::from(s.points[seat] > s.points[other]);
                        *h2h.entry(pair).or_insert(0) += beat;
                    }
                }
            }
            if same_night {
                e.cumulative.pop();
            }
            e.cumulative.push(e.total);
            if decided.is_some() {
                e.matches += 1;
                if winners.contains(&seat) {
                    e.match_wins += 1;
                }
            }
        }
    }
    let display: HashMap<String, String> = out
        .iter()
        .map(|(k, e)| (k.clone(), e.name.clone()))
        .collect();
    for ((a, b), won) in h2h {
        let e = out.get_mut(&a).expect("player");
        e.head_to_head.insert(display[&b].clone(), won);
    }
    out
}

fn as_expected(h: &History) -> HashMap<String, Expected> {
    h.players
        .iter()
        .map(|p| {
            let e = Expected {
                name: p.name.clone(),
                evenings: p.evenings,
                games: p.games,
                matches: p.matches,
                match_wins: p.match_wins,
                total: p.total,
                best_game: p.best_game,
                head_to_head: p.head_to_head.clone(),
                cumulative: p.cumulative.iter().map(|c| c.total).collect(),
            };
            (p.key.clone(), e)
        })
        .collect()
}

#[test]
fn history_agrees_with_a_plain_recomputation() {
    for seed in 0..12 {
        let sheets = evenings(100 + seed, 25);
        for rule in [None, Some(FinalRule::Total), Some(FinalRule::Wins)] {
            let h = history(&sheets, rule);
            let expected = recompute(&sheets, rule);
            assert_eq!(as_expected(&h), expected, "seed {seed}, rule {rule:?}");
            // Averages and the chart series are consistent with the figures.
            for p in &h.players {
                let avg = p.average().expect("games");
                assert!((avg * p.games as f64 - p.total as f64).abs() < 1e-6);
                assert_eq!(p.cumulative.last().map(|c| c.total), Some(p.total));
                assert!(p.cumulative.windows(2).all(|w| w[0].evening < w[1].evening));
                assert!(p.cumulative.windows(2).all(|w| w[0].at <= w[1].at));
            }
            let counted = sheets.iter().filter(|s| !s.is_empty()).count();
            assert_eq!(h.evenings.len(), counted);
            assert!(h.evenings.windows(2).all(|w| w[0].created <= w[1].created));
            // Sorted: most match wins, then highest total.
            assert!(
                h.players
                    .windows(2)
                    .all(|w| (w[0].match_wins, w[0].total) >= (w[1].match_wins, w[1].total))
            );
        }
    }
}

/// Issue 23.13: "Evenings" counts nights at the table, not sheets — a "New sheet" after a match,
/// or a game past midnight, is the same evening; the chart has one point per night.
#[test]
fn evenings_count_nights_so_sheets_of_one_night_count_once() {
    use chrono::{FixedOffset, TimeZone};
    use rummikub_companion::history::history_at;
    use rummikub_companion::rules::RuleSet;
    use rummikub_companion::score::{Game, Hand, Players};
    let seoul = FixedOffset::east_opt(9 * 3600).expect("offset");
    let at = |d, h, m| {
        seoul
            .with_ymd_and_hms(2024, 5, d, h, m, 0)
            .single()
            .expect("time")
            .with_timezone(&Utc)
    };
    let sheet = |when, loser: u32| {
        let players = Players::new(["Ann", "Bo"]).expect("players");
        let mut s = Sheet::new(players, RuleSet::default(), None, when).expect("sheet");
        s.add_game(Game::new(vec![Hand::of_value(0), Hand::of_value(loser)]))
            .expect("game");
        s
    };
    // One night: 19:00, a new sheet at 23:30, another at 01:30; then the next night at 19:00.
    let sheets = [
        sheet(at(1, 19, 0), 10),
        sheet(at(1, 23, 30), 5),
        sheet(at(2, 1, 30), 1),
        sheet(at(2, 19, 0), 7),
    ];
    let h = history_at(&sheets, None, seoul);
    assert_eq!((h.evenings.len(), h.nights), (4, 2));
    let ann = h.player("ann").expect("Ann");
    assert_eq!((ann.evenings, ann.games, ann.total), (2, 4, 23));
    // One chart point per night: the total after the night's last sheet.
    let points: Vec<(usize, i64)> = ann.cumulative.iter().map(|c| (c.night, c.total)).collect();
    assert_eq!(points, [(0, 16), (1, 23)]);
    // Read nine hours behind UTC, the 01:30 sheet starts that table's afternoon of 1 May, a
    // night of its own with the last sheet: the table's time zone decides the nights.
    let h = history_at(
        &sheets,
        None,
        FixedOffset::west_opt(9 * 3600).expect("offset"),
    );
    let ann = h.player("ann").expect("Ann");
    let points: Vec<(usize, i64)> = ann.cumulative.iter().map(|c| (c.night, c.total)).collect();
    assert_eq!(points, [(0, 15), (1, 23)]);
}

#[test]
fn spellings_fold_to_one_player_shown_as_most_recently_typed() {
    let sheets = evenings(7, 30);
    let h = history(&sheets, None);
    let keys: Vec<&str> = h.players.iter().map(|p| p.key.as_str()).collect();
    for (i, k) in keys.iter().enumerate() {
        assert!(!keys[..i].contains(k), "{k} twice");
    }
    assert!(h.players.len() <= CLUB.len());
    // The latest non-empty evening's spellings are the display names of its players.
    let latest = sheets
        .iter()
        .filter(|s| !s.is_empty())
        .max_by_key(|s| s.created())
        .expect("an evening");
    for name in latest.players().names() {
        assert_eq!(h.player(name).map(|p| p.name.as_str()), Some(name.trim()));
    }
}

#[test]
fn the_order_of_the_sheets_does_not_matter() {
    let sheets = evenings(8, 20);
    let mut reversed: Vec<&Sheet> = sheets.iter().collect();
    reversed.reverse();
    let a = history(&sheets, Some(FinalRule::Wins));
    let b = history(reversed, Some(FinalRule::Wins));
    assert_eq!(a.players, b.players);
}

// ---- the command ----

fn history_binary(data: &Path, args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_rummikub-companion"))
        .env("LC_ALL", "C") // English output, whatever the machine's locale
        .arg("history")
        .args(args)
        .env("RUMMIKUB_COMPANION_DATA", data)
        .output()
        .expect("binary runs");
    (
        output.status.code().expect("exit code"),
        String::from_utf8(output.stdout).expect("utf-8"),
        String::from_utf8(output.stderr).expect("utf-8"),
    )
}

/// A data folder with the seeded evenings saved, and one corrupt sheet among them.
fn saved_folder(sheets: &[Sheet]) -> (tempfile::TempDir, std::path::PathBuf) {
    let folder = tempfile::tempdir().expect("temp dir");
    let store = Store::open(folder.path()).expect("store");
    for (i, sheet) in sheets.iter().enumerate() {
        let id = SheetId::new(&format!("evening-{i:03}")).expect("id");
        store.save_sheet(&id, sheet).expect("save");
    }
    let corrupt = folder.path().join("sheets").join("evening-500.json");
    std::fs::write(
        &corrupt,
        "{\"version\": 1, \"sheet\": {\"players\": [\"Ann\"",
    )
    .expect("write");
    (folder, corrupt)
}

#[test]
fn the_command_skips_a_corrupt_sheet_with_a_notice_and_leaves_it_alone() {
    let sheets = evenings(9, 15);
    let (folder, corrupt) = saved_folder(&sheets);
    let (code, out, err) = history_binary(folder.path(), &["--json", "--final", "wins"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("evening-500.json"),
        "the notice names the file: {err}"
    );
    assert!(err.contains("is not valid JSON"), "{err}");
    let json: Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(
        json["skipped"],
        serde_json::json!([corrupt.display().to_string()])
    );
    assert!(corrupt.exists(), "a report never renames or deletes a file");
    let expected = history(&sheets, Some(FinalRule::Wins));
    let players = json["players"].as_array().expect("players");
    assert_eq!(players.len(), expected.players.len());
    for (got, want) in players.iter().zip(&expected.players) {
        assert_eq!(got["name"], want.name);
        assert_eq!(got["evenings"], want.evenings);
        assert_eq!(got["games"], want.games);
        assert_eq!(got["match_wins"], want.match_wins);
        assert_eq!(got["total"], want.total);
        assert_eq!(got["best_game"], serde_json::json!(want.best_game));
        assert_eq!(got["head_to_head"], serde_json::json!(want.head_to_head));
        let avg = got["average"].as_f64().expect("average");
        assert!((avg - want.average().expect("games")).abs() < 1e-9);
    }
    assert_eq!(json["final_rule"], "wins");
}

#[test]
fn the_command_prints_a_table_with_every_player() {
    let sheets = evenings(10, 6);
    let (folder, _) = saved_folder(&sheets);
    let (code, out, err) = history_binary(folder.path(), &[]);
    assert_eq!(code, 0, "{err}");
    let expected = history(&sheets, None);
    assert!(out.contains("match wins"), "{out}");
    assert!(out.contains("head to head"), "{out}");
    for p in &expected.players {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(p.name.as_str()))
            .unwrap_or_else(|| panic!("no line for {} in\n{out}", p.name));
        let cells: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cells[1], p.evenings.to_string(), "{line}");
        assert_eq!(cells[2], p.games.to_string(), "{line}");
        assert_eq!(cells[4], p.match_wins.to_string(), "{line}");
    }
}

#[test]
fn the_command_on_an_empty_or_unreadable_data_folder() {
    let folder = tempfile::tempdir().expect("temp dir");
    let (code, out, _) = history_binary(&folder.path().join("not-yet"), &["--json"]);
    assert_eq!(code, 0, "no data folder yet: nothing saved");
    let json: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(json["players"], serde_json::json!([]));
    let file = folder.path().join("a-file");
    std::fs::write(&file, "x").expect("write");
    let (code, _, err) = history_binary(&file, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("a-file"), "{err}");
}
