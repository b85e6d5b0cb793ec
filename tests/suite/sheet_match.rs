//! A match has an end: planned rounds or a target total end it at the right game for 2–6
//! players, ties in the final standings are reported as ties, games after the end leave the
//! result alone, and sheets saved before targets existed still load.

use chrono::{Duration, TimeZone, Utc};
use proptest::prelude::RngExt;
use rummikub_companion::rules::{FinalRule, Preset, RuleSet};
use rummikub_companion::score::{Game, Hand, MatchState, Players, ScoreError, Sheet, SheetState};
use rummikub_companion::store::{SheetId, Store};

use crate::util::sheets::{random_game, random_sheet};
use crate::util::{rng, t0};

const NAMES: [&str; 6] = ["루미", "큐브", "Ann", "Bo", "Cy", "Dee"];

fn players(n: usize) -> Players {
    Players::new(&NAMES[..n]).expect("players")
}

/// A game where `winner` goes out and everyone else holds `left`.
fn out(n: usize, winner: usize, left: u32) -> Game {
    Game::new(
        (0..n)
            .map(|i| Hand::of_value(if i == winner { 0 } else { left }))
            .collect(),
    )
}

fn finished(sheet: &Sheet) -> rummikub_companion::score::MatchEnd {
    match sheet.match_state() {
        MatchState::Finished(end) => end,
        other => panic!("expected a finished match, got {other:?}"),
    }
}

#[test]
fn planned_rounds_end_the_match_after_players_times_rounds_games() {
    let mut r = rng(11);
    for n in 2..=6 {
        for rounds in 1..=3_u32 {
            let planned = rounds as usize * n;
            let mut sheet =
                Sheet::new(players(n), RuleSet::default(), Some(rounds), t0()).expect("sheet");
            for played in 0..planned {
                assert_eq!(
                    sheet.match_state(),
                    MatchState::Playing {
                        games_left: Some(planned - played),
                        to_target: None
                    },
                    "{n} players, {rounds} rounds, after {played} games"
                );
                sheet.add_game(random_game(&mut r, n)).expect("game");
            }
            let end = finished(&sheet);
            assert_eq!(end.after_game, planned, "{n} players, {rounds} rounds");
            assert!(end.rounds_done);
            assert!(end.target_reached_by.is_empty());
            assert_eq!(end.games_after, 0);
            assert_eq!(end.standings, sheet.standings());
            assert_eq!(end.winners, sheet.standings().winners(FinalRule::Total));
            assert_eq!(
                end.other_winners,
                sheet.standings().winners(FinalRule::Wins)
            );
        }
    }
}

/// The first game (1-based) after which some running total reaches `target`: recomputed here
/// from the points alone.
fn first_reaching(sheet: &Sheet, target: i64) -> Option<usize> {
    let n = sheet.players().len();
    let mut totals = vec![0_i64; n];
    for (i, score) in sheet.scores().iter().enumerate() {
        for (total, p) in totals.iter_mut().zip(&score.points) {
            *total += p;
        }
        if totals.iter().any(|&t| t >= target) {
            return Some(i + 1);
        }
    }
    None
}

#[test]
fn a_target_total_ends_the_match_after_the_game_that_reaches_it() {
    let mut r = rng(12);
    for n in 2..=6 {
        for case in 0..20 {
            let target = r.random_range(20..=150_i64);
            let mut sheet = random_sheet(&mut r, &NAMES[..n], RuleSet::default(), None, t0(), 0);
            sheet.set_target(Some(target)).expect("target");
            for _ in 0..30 {
                sheet.add_game(random_game(&mut r, n)).expect("game");
                let expected = first_reaching(&sheet, target);
                match (sheet.match_state(), expected) {
                    (MatchState::Finished(end), Some(after)) => {
                        assert_eq!(end.after_game, after, "{n} players, case {case}");
                        assert!(!end.target_reached_by.is_empty());
                        assert!(
                            end.target_reached_by
                                .iter()
                                .all(|&i| end.standings.totals[i] >= target)
                        );
                        assert!(!end.rounds_done);
                    }
                    (
                        MatchState::Playing {
                            games_left,
                            to_target,
                        },
                        None,
                    ) => {
                        assert_eq!(games_left, None);
                        let leader = sheet.standings().totals.into_iter().max().expect("totals");
                        assert_eq!(to_target, Some(target - leader));
                        assert!(target - leader > 0);
                    }
                    (state, expected) => {
                        panic!("{n} players, case {case}: {state:?} but expected end {expected:?}")
                    }
                }
            }
        }
    }
}

#[test]
fn with_rounds_and_a_target_the_first_to_come_ends_the_match() {
    // 3 players, 2 rounds (6 games); Ann wins 20 a game from each of the two others (+40).
    let mut sheet = Sheet::new(players(3), RuleSet::default(), Some(2), t0()).expect("sheet");
    sheet.set_target(Some(100)).expect("target");
    for _ in 0..2 {
        sheet.add_game(out(3, 0, 20)).expect("game");
    }
    assert!(!sheet.match_state().is_finished());
    sheet.add_game(out(3, 0, 20)).expect("game"); // Ann at 120
    let end = finished(&sheet);
    assert_eq!((end.after_game, end.rounds_done), (3, false));
    assert_eq!(end.target_reached_by, vec![0]);
    // A target nobody reaches: the rounds end it.
    sheet.set_target(Some(10_000)).expect("target");
    for _ in 0..3 {
        sheet.add_game(out(3, 1, 1)).expect("game");
    }
    let end = finished(&sheet);
    assert_eq!((end.after_game, end.rounds_done), (6, true));
    assert!(end.target_reached_by.is_empty());
}

#[test]
fn ties_in_the_final_standings_are_reported_as_shared_wins() {
    // Two players, one round: each wins 10 once. Tied on total and on wins.
    let mut sheet = Sheet::new(players(2), Preset::Korean.rules(), Some(1), t0()).expect("sheet");
    sheet.add_game(out(2, 0, 10)).expect("game");
    sheet.add_game(out(2, 1, 10)).expect("game");
    let end = finished(&sheet);
    assert_eq!(end.winners, vec![0, 1]);
    assert_eq!(end.other_winners, vec![0, 1]);
    assert_eq!(end.standings.by_total, vec![1, 1]);

    // English rule: wins first, then total; still tied shares the place.
    // 4 players, 1 round: 루미 and 큐브 each win one game by 10 from everyone, Ann one by 5,
    // Bo one by 30: wins 1/1/1/1, totals decide.
    let mut sheet = Sheet::new(players(4), Preset::English.rules(), Some(1), t0()).expect("sheet");
    sheet.add_game(out(4, 0, 10)).expect("game"); // 루미 +30
    sheet.add_game(out(4, 1, 10)).expect("game"); // 큐브 +30
    sheet.add_game(out(4, 2, 5)).expect("game"); // Ann +15
    sheet.add_game(out(4, 3, 1)).expect("game"); // Bo +3
    let end = finished(&sheet);
    assert_eq!(end.rule, FinalRule::Wins);
    assert_eq!(end.standings.totals, vec![14, 14, -6, -22]);
    assert_eq!(
        end.winners,
        vec![0, 1],
        "same wins, same total: a shared first place"
    );
    assert_eq!(end.other_winners, vec![0, 1]);

    // Wins beat total under the English rule; the Korean winner differs.
    let mut sheet = Sheet::new(players(2), Preset::English.rules(), Some(2), t0()).expect("sheet");
    sheet.add_game(out(2, 0, 1)).expect("game");
    sheet.add_game(out(2, 0, 1)).expect("game");
    sheet.add_game(out(2, 0, 1)).expect("game");
    sheet.add_game(out(2, 1, 50)).expect("game");
    let end = finished(&sheet);
    assert_eq!(end.winners, vec![0], "3 wins to 1");
    assert_eq!(end.other_winners, vec![1], "+47 total");
}

#[test]
fn games_added_after_the_end_are_kept_but_do_not_change_the_result() {
    let mut sheet = Sheet::new(players(2), RuleSet::default(), Some(1), t0()).expect("sheet");
    sheet.add_game(out(2, 0, 5)).expect("game");
    sheet.add_game(out(2, 0, 5)).expect("game");
    let before = finished(&sheet);
    assert_eq!(before.winners, vec![0]);
    // Bo wins big afterwards: the game is recorded, the result stays.
    let index = sheet
        .add_game(out(2, 1, 90))
        .expect("a game after the end is accepted");
    assert_eq!(index, 2);
    assert_eq!(sheet.standings().winners(FinalRule::Total), vec![1]);
    let after = finished(&sheet);
    assert_eq!(after.after_game, 2);
    assert_eq!(after.games_after, 1);
    assert_eq!(after.winners, before.winners);
    assert_eq!(after.standings, before.standings);
    // Playing on: raise the rounds and the match is open again.
    sheet.set_planned_rounds(Some(2)).expect("rounds");
    assert_eq!(
        sheet.match_state(),
        MatchState::Playing {
            games_left: Some(1),
            to_target: None
        }
    );
    // Deleting a game of a finished match re-opens it too.
    sheet.set_planned_rounds(Some(1)).expect("rounds");
    sheet.delete_game(2).expect("delete");
    sheet.delete_game(1).expect("delete");
    assert!(!sheet.match_state().is_finished());
}

#[test]
fn an_open_ended_sheet_never_finishes() {
    let mut r = rng(13);
    let sheet = random_sheet(&mut r, &NAMES[..4], RuleSet::default(), None, t0(), 40);
    assert_eq!(
        sheet.match_state(),
        MatchState::Playing {
            games_left: None,
            to_target: None
        }
    );
    assert_eq!(sheet.summary().state, SheetState::Playing);
}

#[test]
fn a_target_below_one_is_refused_and_leaves_the_sheet_alone() {
    let mut sheet = Sheet::new(players(3), RuleSet::default(), None, t0()).expect("sheet");
    sheet.set_target(Some(200)).expect("target");
    for bad in [0, -5] {
        let e = sheet.set_target(Some(bad)).expect_err("refused");
        assert_eq!(e, ScoreError::TargetNotPositive(bad));
        assert_eq!(
            e.to_string(),
            format!("a target total must be at least 1 (or none), not {bad}")
        );
    }
    assert_eq!(sheet.target(), Some(200));
    sheet.set_target(None).expect("no target");
    assert_eq!(sheet.target(), None);
}

#[test]
fn sheets_saved_before_targets_existed_still_load_and_targets_round_trip() {
    let old = r#"{"players":["Ann","Bo"],"rules":{},"planned_rounds":2,
        "created":"2024-05-01T19:00:00Z","games":[{"hands":[{"left":0},{"left":12}]}]}"#;
    let sheet: Sheet = serde_json::from_str(old).expect("an old sheet loads");
    assert_eq!(sheet.target(), None);
    assert_eq!(sheet.planned_rounds(), Some(2));
    assert_eq!(sheet.games().len(), 1);

    let mut with_target = sheet.clone();
    with_target.set_target(Some(150)).expect("target");
    let json = serde_json::to_string(&with_target).expect("json");
    let back: Sheet = serde_json::from_str(&json).expect("reads back");
    assert_eq!(back.target(), Some(150));
    assert_eq!(back, with_target);
    // No target: the field is not written, so older builds read the file unchanged.
    assert!(
        !serde_json::to_string(&sheet)
            .expect("json")
            .contains("target")
    );

    let bad = old.replace("\"planned_rounds\":2", "\"target\":0");
    let e = serde_json::from_str::<Sheet>(&bad).expect_err("a zero target is refused");
    assert!(
        e.to_string().contains("target total must be at least 1"),
        "{e}"
    );
}

#[test]
fn the_summary_gives_date_players_games_leaders_and_state() {
    let start = Utc
        .with_ymd_and_hms(2024, 5, 1, 19, 0, 0)
        .single()
        .expect("time");
    let mut sheet = Sheet::new(players(3), Preset::Korean.rules(), Some(1), start).expect("sheet");
    let empty = sheet.summary();
    assert_eq!(empty.state, SheetState::Empty);
    assert!(empty.leaders.is_empty());
    assert!(sheet.is_empty());
    sheet
        .add_game(out(3, 1, 10).at(start + Duration::minutes(20)))
        .expect("game");
    let s = sheet.summary();
    assert_eq!(s.state, SheetState::Playing);
    assert_eq!(s.players, ["루미", "큐브", "Ann"]);
    assert_eq!((s.games, s.rule), (1, FinalRule::Total));
    assert_eq!(s.leaders, ["큐브"]);
    assert_eq!(s.created, start);
    assert_eq!(s.last_activity, start + Duration::minutes(20));
    sheet.add_game(out(3, 0, 10)).expect("game");
    sheet.add_game(out(3, 2, 1)).expect("game");
    let s = sheet.summary();
    assert_eq!(s.state, SheetState::Finished);
    assert_eq!(s.leaders, ["루미", "큐브"], "tied on +18: both lead");
}

#[test]
fn empty_sheets_are_not_listed_and_never_the_latest() {
    let folder = tempfile::tempdir().expect("temp dir");
    let store = Store::open(folder.path()).expect("store");
    let mut played = Sheet::new(players(2), RuleSet::default(), None, t0()).expect("sheet");
    played.add_game(out(2, 0, 4)).expect("game");
    let accidental = Sheet::new(
        players(2),
        RuleSet::default(),
        None,
        t0() + Duration::days(1),
    )
    .expect("sheet");
    let (a, b) = (
        SheetId::new("played").expect("id"),
        SheetId::new("empty").expect("id"),
    );
    store.save_sheet(&a, &played).expect("save");
    store.save_sheet(&b, &accidental).expect("save");
    let listing = store.list_sheets().expect("list");
    assert_eq!(
        listing.sheets[0].id, b,
        "the empty sheet is the newest file"
    );
    let shown: Vec<&SheetId> = listing.played().map(|s| &s.id).collect();
    assert_eq!(shown, [&a]);
    assert_eq!(listing.latest_played().map(|s| &s.id), Some(&a));
}

#[test]
fn the_sheet_and_the_paper_audit_share_one_tally() {
    use rummikub_companion::score::audit::{audit, read_paper_csv};
    use rummikub_companion::score::table::points_csv;
    let mut r = rng(14);
    for n in 2..=6 {
        for rules in [Preset::Korean.rules(), Preset::English.rules()] {
            let sheet = random_sheet(&mut r, &NAMES[..n], rules, None, t0(), 3 * n);
            let report = audit(&read_paper_csv(&points_csv(&sheet)).expect("points table reads"));
            let standings = sheet.standings();
            assert_eq!(report.totals, standings.totals);
            assert_eq!(report.by_total, standings.by_total);
            // A pool-out game where everyone ties scores 0 for all, so paper shows no winner;
            // otherwise the paper's winners are the sheet's.
            if sheet.scores().iter().all(|s| s.points[s.winner] > 0) {
                assert!(report.is_clean(), "{:?}", report.findings());
                assert_eq!(report.wins, standings.wins);
                assert_eq!(report.by_wins, standings.by_wins);
            }
        }
    }
}
