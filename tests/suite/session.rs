//! The score-sheet session without a window: the sheet keeps its rules until "Apply to this
//! sheet", undo puts them back, a change is saved at once (or reported), a double-clicked
//! delete takes one game, and exports never overwrite.

use chrono::{TimeZone, Utc};
use rummikub_companion::i18n::Language;
use rummikub_companion::rules::{FinalRule, Preset, RuleSet};
use rummikub_companion::score::{Game, Hand};
use rummikub_companion::session::{Event, SessionError, SheetSession};
use rummikub_companion::store::Store;
use rummikub_companion::tile::parse_rack;
use rummikub_companion::ui::app::Change;

const PLAYERS: [&str; 4] = ["루미", "큐브", "퍼니", "알토"];

fn names() -> Vec<String> {
    PLAYERS.iter().map(|p| p.to_string()).collect()
}

fn at(minute: u32) -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 19, minute, 0)
        .single()
        .expect("a valid time")
}

/// A game where the first player went out and the others have what `left` says (tile
/// notation, so a joker can be left on a rack).
fn game(left: [&str; 3]) -> Game {
    let mut hands = vec![Hand::of_value(0)];
    hands.extend(
        left.iter()
            .map(|rack| Hand::of_tiles(parse_rack(rack).expect("a rack"))),
    );
    Game::new(hands)
}

/// A session on a fresh folder with a Korean-rules sheet of three games; 큐브 keeps a joker.
fn korean_session() -> (tempfile::TempDir, SheetSession) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let store = Store::open(dir.path()).expect("a writable folder");
    let mut session = SheetSession::open_store(Some(store), None);
    assert!(session.sheet().is_none(), "a fresh folder has no sheet");
    let change = session
        .new_sheet(&names(), Preset::Korean.rules(), Some(1), None, at(0))
        .expect("a new sheet");
    assert_eq!(change, Change::NewSheet);
    for left in [
        ["R5 J", "K7", "B1 B2"],
        ["O9", "R1", "J"],
        ["K13", "B4", "O2"],
    ] {
        session
            .add_game(game(left))
            .expect("a valid game")
            .expect("a sheet is open");
    }
    assert!(session.take_events().is_empty(), "everything saved");
    (dir, session)
}

fn totals(session: &SheetSession) -> Vec<i64> {
    session.sheet().expect("a sheet").standings().totals
}

#[test]
fn a_korean_sheet_keeps_its_points_when_the_settings_change_until_applied_and_undo_restores() {
    let (dir, mut session) = korean_session();
    let before = totals(&session);
    let rules_before = *session.sheet().expect("a sheet").rules();
    assert_eq!(rules_before.joker_penalty, 30);

    // The settings move to the tournament preset with a shorter turn: the session is not
    // told, and nothing it wrote changes.
    let mut settings = Preset::Tournament.rules();
    settings.turn_seconds = 45;
    assert_eq!(
        totals(&session),
        before,
        "a settings change rescoring nothing"
    );

    // "Apply to this sheet" previews what moves: the jokers left now count 50.
    let preview = session
        .rules_preview(&settings)
        .expect("the rules differ")
        .expect("the games still score");
    assert_eq!(preview.rules.joker_penalty, 50);
    assert_eq!(preview.rules.turn_seconds, rules_before.turn_seconds);
    let moved: Vec<bool> = preview.totals.iter().map(|(a, b)| a != b).collect();
    assert!(moved.iter().any(|&m| m), "the joker's value moves points");
    assert_eq!(
        preview.totals.iter().map(|(a, _)| *a).collect::<Vec<_>>(),
        before
    );

    let undo = session.snapshot();
    let change = session
        .apply_rules(&settings)
        .expect("applies")
        .expect("a sheet is open");
    assert_eq!(change, Change::RulesApplied);
    let applied = *session.sheet().expect("a sheet").rules();
    assert_eq!(applied.joker_penalty, 50);
    assert_eq!(applied.turn_seconds, 60, "timer values never touch a sheet");
    assert_eq!(
        totals(&session),
        preview.totals.iter().map(|(_, b)| *b).collect::<Vec<_>>(),
        "the preview said what would happen"
    );
    assert!(
        session.rules_preview(&settings).is_none(),
        "nothing left to apply"
    );

    // Undo: the rules and the points come back, on disk as well.
    assert!(!session.restore(undo), "the same sheet stays open");
    assert_eq!(*session.sheet().expect("a sheet").rules(), rules_before);
    assert_eq!(totals(&session), before);
    drop(session);
    let reopened = SheetSession::open_store(Some(Store::open(dir.path()).expect("opens")), None);
    assert_eq!(totals(&reopened), before, "the restored sheet was saved");
    assert_eq!(
        reopened
            .sheet()
            .expect("the latest sheet")
            .rules()
            .joker_penalty,
        30
    );
}

#[test]
fn a_refused_change_leaves_the_sheet_as_it_was() {
    let (_dir, mut session) = korean_session();
    let before = session.snapshot();
    let wrong = Game::new(vec![Hand::of_value(0), Hand::of_value(3)]);
    let err = session
        .add_game(wrong)
        .expect_err("two hands for four players");
    assert!(matches!(err, SessionError::Score(_)), "{err:?}");
    assert_eq!(session.snapshot(), before);
    let err = session
        .edit_game(7, game(["R1", "R2", "R3"]))
        .expect_err("there is no game 8");
    assert!(matches!(err, SessionError::Score(_)), "{err:?}");
    assert_eq!(session.snapshot(), before);
}

#[test]
fn a_double_clicked_delete_takes_only_the_game_clicked() {
    let (_dir, mut session) = korean_session();
    let clicked = session.sheet().expect("a sheet").games()[0].clone();
    let second = session.sheet().expect("a sheet").games()[1].clone();
    let first = session.delete_game(0, &clicked).expect("deletes");
    assert_eq!(first, Some(Change::GameDeleted(1, 1)));
    let again = session.delete_game(0, &clicked).expect("not an error");
    assert_eq!(again, None, "the row now holds another game: left alone");
    let games = session.sheet().expect("a sheet").games();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0], second);
}

#[test]
fn the_open_list_leaves_out_empty_sheets_and_the_latest_played_opens_next_time() {
    let (dir, mut session) = korean_session();
    let played = session.id().expect("open").clone();
    session
        .new_sheet(&names(), RuleSet::default(), None, None, at(30))
        .expect("an accidental new sheet");
    let past: Vec<_> = session.past().iter().map(|(id, _)| id.clone()).collect();
    assert_eq!(past, vec![played.clone()], "the empty sheet is not listed");
    let summary = &session.past()[0].1;
    assert_eq!(summary.games, 3);
    assert_eq!(summary.players, names());
    drop(session);
    let store = Store::open(dir.path()).expect("opens");
    let next = SheetSession::open_store(Some(store), None);
    assert_eq!(
        next.id(),
        Some(&played),
        "an empty sheet is never 'the latest'"
    );
    // The evening's own sheet wins when it names one.
    drop(next);
    let store = Store::open(dir.path()).expect("opens");
    let empty_id = store
        .list_sheets()
        .expect("lists")
        .sheets
        .into_iter()
        .find(|s| s.sheet.is_empty())
        .expect("the empty sheet was saved")
        .id;
    let evening = SheetSession::open_store(Some(store), Some(empty_id.as_str()));
    assert_eq!(evening.id(), Some(&empty_id));
}

#[test]
fn a_change_that_cannot_be_saved_is_kept_and_reported() {
    let (dir, _writer) = korean_session();
    // A second window on the same folder opens it read-only.
    let reader = Store::open(dir.path()).expect("opens read-only");
    let mut session = SheetSession::open_store(Some(reader), None);
    let _ = session.take_events();
    let games = session.sheet().expect("the sheet").games().len();
    let change = session
        .add_game(game(["R1", "R2", "R3"]))
        .expect("the game is valid")
        .expect("a sheet is open");
    assert_eq!(change, Change::GameAdded(1, games + 1));
    assert_eq!(
        session.sheet().expect("a sheet").games().len(),
        games + 1,
        "kept in the window"
    );
    let events = session.take_events();
    assert!(
        events.iter().any(|e| matches!(e, Event::NotSaved(_))),
        "the table is told: {events:?}"
    );
}

#[test]
fn exports_start_with_a_bom_name_the_winner_and_never_overwrite() {
    let (dir, mut session) = korean_session();
    session
        .add_game(game(["R1", "R2", "R3"]))
        .expect("the fourth game ends the round");
    let first = session
        .export_csv(Language::Korean, None)
        .expect("exports")
        .expect("a sheet is open");
    let second = session
        .export_csv(Language::Korean, None)
        .expect("exports")
        .expect("a sheet is open");
    assert_ne!(first, second, "the second export is a new file");
    assert!(first.starts_with(dir.path().join("exports")));
    let bytes = std::fs::read(&first).expect("the export");
    assert!(bytes.starts_with(b"\xEF\xBB\xBF"), "a UTF-8 BOM for Excel");
    let text = String::from_utf8(bytes).expect("UTF-8");
    assert!(text.contains("루미"), "the names");
    assert!(
        text.contains("우승"),
        "the winner's row, in the UI language"
    );
    let chosen = dir.path().join("chosen.csv");
    let written = session
        .export_csv(Language::English, Some(&chosen))
        .expect("exports")
        .expect("a sheet is open");
    assert_eq!(written, chosen, "the chosen file");
    let text = std::fs::read_to_string(&chosen).expect("the export");
    assert!(text.contains("winner"), "{text}");
    assert_eq!(
        session.sheet().expect("a sheet").rules().final_rule,
        FinalRule::Total
    );
}

#[test]
fn without_a_data_folder_a_sheet_still_works_and_export_names_the_problem() {
    let mut session = SheetSession::open_store(None, None);
    session
        .new_sheet(&names(), RuleSet::default(), None, None, at(0))
        .expect("a sheet in memory");
    session
        .add_game(game(["R1", "R2", "R3"]))
        .expect("a game")
        .expect("a sheet");
    assert!(
        session.take_events().is_empty(),
        "nothing to save to, nothing failed"
    );
    let err = session
        .export_csv(Language::English, None)
        .expect_err("no exports folder");
    assert!(matches!(err, SessionError::NoDataFolder));
    assert_eq!(
        err.worded(Language::Korean),
        Language::Korean.strings().not_saving
    );
}
