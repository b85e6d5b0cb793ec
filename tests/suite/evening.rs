//! The evening without any window: the table's promises (one press one turn, undo by tab,
//! renames, the sheet's rules, the half-typed game, saving off the UI thread) as plain tests of
//! the one owner the window and the phones both drive; and that a restart, or a SIGKILL, loses
//! nothing `status --json` reads back.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::Duration;

use rummikub_companion::evening::{Area, Change, Command, DraftEdit, Refusal, Settings};
use rummikub_companion::lang::Language;
use rummikub_companion::rules::{FinalRule, Preset};
use rummikub_companion::score::{Game, Hand};
use rummikub_companion::server::PhoneAction;
use rummikub_companion::store::Store;
use rummikub_companion::timer::{END_TURN_GUARD, Phase, TimerError};
use serde_json::Value;

use crate::util::night::{Night, PLAYERS, read_saved};

const BIN: &str = env!("CARGO_BIN_EXE_rummikub-companion");

fn status(data: &Path) -> (i32, Value, String) {
    let out = Process::new(BIN)
        .env("LC_ALL", "C") // English output, whatever the machine's locale
        .args(["status", "--json"])
        .env("RUMMIKUB_COMPANION_DATA", data)
        .output()
        .expect("status runs");
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (
        out.status.code().unwrap_or(-1),
        json,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(s)
}

/// Ends (or starts) a turn after `after` seconds on the clock.
fn press(night: &Night, after: f64) -> Result<rummikub_companion::evening::Done, Refusal> {
    night.clock.advance(secs(after));
    night.apply(Command::Primary)
}

fn turns(night: &Night) -> u32 {
    night.timer(|t, _| t.stats().iter().map(|s| s.turns).sum())
}

#[test]
fn status_after_a_restart_matches_the_evening_before_it() {
    let night = Night::with(&["루미", "큐브", "퍼니"]);
    night.ok(Command::NewSheet {
        rounds: Some(1),
        target: None,
    });
    night.game(&["0", "7", "12"]);
    for after in [0.0, 12.5, 3.0, 40.0] {
        press(&night, after).expect("a turn");
    }
    press(&night, 61.0).expect("a time-out");
    night.clock.advance(secs(5.0));
    let before = night.timer(|t, _| (t.stats().to_vec(), t.current_player()));
    let totals = night.totals();
    night.ok(Command::Checkpoint);
    night.settle();

    let (code, json, stderr) = status(night.data.path());
    assert_eq!(code, 0, "{stderr}");
    let timer = &json["timer"];
    assert_eq!(timer["current"], "큐브", "{json}");
    assert_eq!(timer["current_seat"], before.1);
    assert_eq!(timer["phase"], "running", "saved while the turn ran");
    let players = timer["players"].as_array().expect("players");
    assert_eq!(players.len(), 3);
    for (p, stats) in players.iter().zip(&before.0) {
        assert_eq!(p["turns"], stats.turns);
        assert_eq!(p["timeouts"], stats.timeouts);
        assert_eq!(p["total_seconds"], stats.total.as_secs_f64());
    }
    assert_eq!(
        players[0]["total_seconds"], 73.5,
        "12.5 s, then a 61 s time-out"
    );
    // The running turn's time: 5 s when saved, and the moments since.
    let turn = timer["turn_seconds"].as_f64().expect("a running turn");
    assert!((5.0..6.5).contains(&turn), "{turn}");
    let sheet = &json["sheet"];
    assert_eq!(sheet["games"], 1);
    assert_eq!(sheet["totals"], serde_json::json!(totals));
    assert_eq!(sheet["final_rule"], "total");

    // The same evening for a person, in each language.
    let text = |lang: &str| {
        let out = Process::new(BIN)
            .args(["status", "--lang", lang])
            .env("RUMMIKUB_COMPANION_DATA", night.data.path())
            .output()
            .expect("status runs");
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let en = text("en");
    assert!(en.starts_with("timer: running · 큐브's turn\n"), "{en}");
    assert!(
        en.contains("  루미: 2 turns, 73.5 s, 1 time-outs\n"),
        "{en}"
    );
    let ko = text("ko");
    assert!(ko.starts_with("타이머: 진행 중 · 큐브의 차례\n"), "{ko}");
    assert!(ko.contains("  루미: +19 (1위)\n"), "{ko}");

    // The evening again: the same table, the turn paused where it was.
    let night = night.reopen();
    assert_eq!(
        night.timer(|t, _| (t.stats().to_vec(), t.current_player())),
        before
    );
    assert_eq!(night.timer(|t, _| t.phase()), Phase::Paused);
}

#[test]
fn status_with_no_data_folder_is_bad_input() {
    let data = tempfile::tempdir().expect("temp dir");
    let missing = data.path().join("nowhere");
    let (code, _, stderr) = status(&missing);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot be read"), "{stderr}");
    assert!(!missing.exists(), "status creates nothing");
}

const CHILD_ENV: &str = "RUMMIKUB_EVENING_KILL_FOLDER";
const ENDED: &str = "evening-kill-test-ended";

/// The child: ends turns in a loop, telling each once it is on disk, until it is killed.
fn child_ends_turns_until_killed(folder: &Path) {
    let night = Night::open_kept(folder);
    let mut n = turns(&night);
    loop {
        night.clock.advance(Duration::from_millis(700));
        let (done, waited) = night
            .evening
            .apply_and_wait(Command::Primary, Duration::from_secs(5));
        let ended = turns(&night);
        if done.is_ok() && ended > n && waited == rummikub_companion::evening::Waited::Saved {
            n = ended;
            println!("{ENDED} {n}");
        }
    }
}

#[test]
fn sigkill_in_the_middle_of_an_evening_loses_no_turn_it_told() {
    if let Some(folder) = std::env::var_os(CHILD_ENV) {
        child_ends_turns_until_killed(Path::new(&folder));
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let exe = std::env::current_exe().expect("test binary");
    let mut last = 0_u32;
    for round in 0..12_u64 {
        let mut child = Process::new(&exe)
            .args([
                "--exact",
                "evening::sigkill_in_the_middle_of_an_evening_loses_no_turn_it_told",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("child starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut lines = BufReader::new(stdout).lines();
        let wanted = 2 + round % 5;
        let mut seen = 0;
        let mut told = last;
        let number = |line: &str| -> Option<u32> {
            line.contains(ENDED)
                .then(|| line.rsplit(ENDED).next())
                .flatten()
                .and_then(|n| n.trim().parse().ok())
        };
        while seen < wanted {
            match lines.next() {
                Some(Ok(line)) => {
                    if let Some(n) = number(&line) {
                        told = n;
                        seen += 1;
                    }
                }
                _ => break,
            }
        }
        std::thread::sleep(Duration::from_millis(round % 4));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        for line in lines.map_while(Result::ok) {
            if let Some(n) = number(&line) {
                told = n;
            }
        }
        let (code, json, stderr) = status(dir.path());
        assert_eq!(code, 0, "round {round}: {stderr}");
        let turns: u64 = json["timer"]["players"]
            .as_array()
            .expect("players")
            .iter()
            .map(|p| p["turns"].as_u64().unwrap_or(0))
            .sum();
        assert!(
            turns >= u64::from(told) && turns <= u64::from(told) + 1,
            "round {round}: {turns} turns saved, {told} told"
        );
        assert!(!stderr.contains("set aside"), "no file damaged: {stderr}");
        last = u32::try_from(turns).unwrap_or(u32::MAX);
    }
    assert!(
        last >= 24,
        "the evening went on across 12 kills ({last} turns)"
    );
}

#[test]
fn one_press_ends_one_turn_however_fast_the_second_comes() {
    let night = Night::with(&PLAYERS);
    press(&night, 0.0).expect("starts");
    press(&night, 5.0).expect("ends Ann's… 루미's turn");
    // A held key, a double-click, a phone and a key at once: within the guard, refused.
    let second = press(&night, 0.1);
    assert!(matches!(second, Err(Refusal::Guarded)), "{second:?}");
    assert_eq!(turns(&night), 1);
    let later = press(&night, END_TURN_GUARD.as_secs_f64());
    assert!(later.is_ok(), "a new gesture after the guard");
    assert_eq!(turns(&night), 2);
    // A phone's end of turn goes through the same guard: a key right after it is refused.
    let turn = night.timer(|t, _| t.turn_id()).expect("a turn");
    let seat = night.timer(|t, _| t.current_player());
    night.clock.advance(secs(1.0));
    let link = night.lock().phones().evening();
    night.ok(Command::Phone {
        action: PhoneAction::EndTurn { seat, turn },
        lang: Language::English,
        link,
    });
    assert!(matches!(press(&night, 0.05), Err(Refusal::Guarded)));
    assert_eq!(turns(&night), 3);
}

#[test]
fn undo_from_the_sheet_brings_back_a_game_without_rewinding_the_turns_since() {
    let night = Night::with_sheet();
    night.game(&["0", "5", "16", "3"]);
    night.game(&["6", "11", "0", "5"]);
    let deleted = night.lock().sheet().expect("sheet").games()[0].clone();
    night.ok(Command::DeleteGame(0, deleted.clone()));
    press(&night, 0.0).expect("starts");
    press(&night, 7.0).expect("a turn");
    press(&night, 9.0).expect("a turn");
    // From the sheet's tab: the deletion comes back; the clock stays where it is.
    let done = night.done(Command::Undo(Some(Area::Sheet)));
    assert_eq!(done.change, Some(Change::GameDeleted(1, 1)));
    assert_eq!(night.lock().sheet().expect("sheet").games()[0], deleted);
    assert_eq!(turns(&night), 2, "the turns since stay");
    // From the timer's tab (Backspace), undo takes back the clock, never a score.
    let done = night.done(Command::Undo(Some(Area::Timer)));
    assert_eq!(done.change, Some(Change::TurnEnded("큐브".into())));
    assert_eq!(night.lock().sheet().expect("sheet").games().len(), 2);
    // Redo on the sheet deletes it again; nothing to redo left there after that.
    night.ok(Command::Redo(Some(Area::Sheet)));
    assert_eq!(night.lock().sheet().expect("sheet").games().len(), 1);
    assert!(matches!(
        night.apply(Command::Redo(Some(Area::Sheet))),
        Err(Refusal::NothingToRedo)
    ));
}

#[test]
fn a_rename_at_the_clock_renames_the_open_sheet_in_the_same_undo_step() {
    let night = Night::with_sheet();
    night.game(&["0", "5", "16", "3"]);
    night.ok(Command::Rename(1, " Cube ".into()));
    assert_eq!(night.lock().settings().players[1], "Cube");
    assert_eq!(
        night.lock().sheet().expect("sheet").players().names()[1],
        "Cube"
    );
    night.ok(Command::Undo(Some(Area::Timer)));
    assert_eq!(night.lock().settings().players[1], "큐브");
    assert_eq!(
        night.lock().sheet().expect("sheet").players().names()[1],
        "큐브"
    );
}

#[test]
fn the_seat_rule_refuses_a_name_twice_and_changes_nothing() {
    let night = Night::with(&PLAYERS);
    let names = ["루미", "큐브", " 루미 "].map(String::from).to_vec();
    let refused = night.apply(Command::SetPlayers(names));
    assert!(
        matches!(refused, Err(Refusal::Timer(TimerError::DuplicateName(_)))),
        "{refused:?}"
    );
    assert_eq!(night.lock().settings().players, PLAYERS);
    let refused = refused.expect_err("refused");
    let worded = rummikub_companion::evening::words::refusal(Language::Korean, &refused);
    assert!(worded.contains("두 번"), "{worded}");
}

#[test]
fn a_half_typed_game_stays_with_its_sheet_across_a_switch_and_a_restart() {
    let night = Night::with_sheet();
    night.game(&["0", "5", "16", "3"]);
    let first = night.lock().sheet_id().cloned().expect("open");
    night.ok(Command::AddGame);
    night.ok(Command::Draft(DraftEdit::Left(0, "12".into())));
    night.ok(Command::Draft(DraftEdit::Tile(
        1,
        "R5".parse().expect("tile"),
    )));
    night.ok(Command::NewSheet {
        rounds: None,
        target: None,
    });
    assert!(
        night.lock().draft().is_none(),
        "the new sheet has no form open"
    );
    night.ok(Command::OpenSheet(first.clone()));
    let draft = night.lock().draft().cloned().expect("the draft came back");
    assert_eq!(draft.left, ["12", "R5", "", ""]);
    // And after a restart, in the middle of it.
    let night = night.reopen();
    assert_eq!(night.lock().sheet_id(), Some(&first));
    assert_eq!(
        night.lock().draft().map(|d| d.left.clone()),
        Some(draft.left.clone())
    );
}

#[test]
fn throwing_away_a_half_typed_game_can_be_undone() {
    let night = Night::with_sheet();
    night.ok(Command::AddGame);
    night.ok(Command::Draft(DraftEdit::Left(2, "R5 K7 J".into())));
    let done = night.done(Command::DiscardDraft);
    assert_eq!(done.change, Some(Change::DraftDiscarded));
    assert!(night.lock().draft().is_none());
    night.ok(Command::Undo(Some(Area::Sheet)));
    assert_eq!(
        night.lock().draft().map(|d| d.left[2].clone()),
        Some("R5 K7 J".into())
    );
    // An empty form goes without an undo step.
    night.ok(Command::DiscardDraft);
    night.ok(Command::Undo(Some(Area::Sheet)));
    night.ok(Command::Draft(DraftEdit::Left(2, String::new())));
    let done = night.done(Command::DiscardDraft);
    assert_eq!(done.change, None, "nothing typed, nothing to undo");
}

#[test]
fn undoing_a_saved_game_brings_its_form_back_as_typed() {
    let night = Night::with_sheet();
    let done = night.game(&["0", "5", "R5 K7 J", "3"]);
    assert_eq!(done.change, Some(Change::GameAdded(1, 1)));
    assert!(night.lock().draft().is_none(), "the form closes when saved");
    night.ok(Command::Undo(Some(Area::Sheet)));
    assert!(night.lock().sheet().expect("sheet").games().is_empty());
    assert_eq!(
        night.lock().draft().map(|d| d.left.clone()),
        Some(["0", "5", "R5 K7 J", "3"].map(String::from).to_vec())
    );
    night.ok(Command::Redo(Some(Area::Sheet)));
    assert_eq!(night.lock().sheet().expect("sheet").games().len(), 1);
    assert!(night.lock().draft().is_none());
}

#[test]
fn the_undo_history_survives_a_restart() {
    let night = Night::with_sheet();
    night.game(&["0", "5", "16", "3"]);
    night.game(&["6", "11", "0", "5"]);
    let deleted = night.lock().sheet().expect("sheet").games()[1].clone();
    night.ok(Command::DeleteGame(1, deleted.clone()));
    // A crash right after the deletion: the deletion can still be undone.
    let night = night.reopen();
    assert_eq!(
        night.lock().next_undo(Some(Area::Sheet)),
        Some(&Change::GameDeleted(1, 2))
    );
    night.ok(Command::Undo(Some(Area::Sheet)));
    assert_eq!(night.lock().sheet().expect("sheet").games()[1], deleted);
    // The clock's changes come back too (paused, as a restored turn does).
    press(&night, 0.0).expect("starts");
    press(&night, 4.0).expect("a turn");
    let night = night.reopen();
    night.ok(Command::Undo(Some(Area::Timer)));
    assert_eq!(night.timer(|t, _| t.current_player()), 0);
    assert_eq!(turns(&night), 0);
}

#[test]
fn an_undo_step_is_as_small_as_its_change_on_a_long_sheet() {
    let night = Night::with_sheet();
    // 300 games, then one deleted: the history holds one game for it, not the sheet.
    for i in 0..300 {
        let left = (i % 40 + 1).to_string();
        night.game(&["0", &left, "3", "4"]);
    }
    let game = night.lock().sheet().expect("sheet").games()[10].clone();
    night.ok(Command::DeleteGame(10, game));
    let saved = night.lock().saved();
    let last = saved.undo.undo.last().expect("the deletion");
    let bytes = serde_json::to_vec(last.as_ref()).expect("json");
    assert!(
        bytes.len() < 2_000,
        "one game's worth: {} bytes",
        bytes.len()
    );
    let whole = serde_json::to_vec(night.lock().sheet().expect("sheet")).expect("json");
    assert!(
        whole.len() > 20 * bytes.len(),
        "{} vs {}",
        whole.len(),
        bytes.len()
    );
}

#[test]
fn typing_a_game_syncs_the_disk_a_few_times_and_a_kill_keeps_what_was_typed() {
    let night = Night::with_sheet();
    night.settle();
    let saver = night.lock().saver().cloned().expect("a data folder");
    let before = saver.writes()[2];
    night.ok(Command::AddGame);
    // Forty keys, typed a few milliseconds apart.
    let mut text = String::new();
    for c in "R5 K7 J B12 O3 K1".chars().cycle().take(40) {
        text.push(c);
        night.ok(Command::Draft(DraftEdit::Left(1, text.clone())));
        std::thread::sleep(Duration::from_millis(5));
    }
    // Within about a second of the last key, what was typed is on disk.
    std::thread::sleep(Duration::from_millis(900));
    let on_disk = read_saved(night.data.path());
    let id = night.lock().sheet_id().expect("open").as_str().to_owned();
    assert_eq!(
        on_disk.drafts.get(&id).map(|d| d.left[1].clone()),
        Some(text)
    );
    let writes = saver.writes()[2] - before;
    assert!(
        (1..=3).contains(&writes),
        "{writes} evening writes for 41 changes"
    );
}

#[test]
fn a_phones_rack_never_goes_into_a_game_being_edited() {
    let night = Night::with_sheet();
    night.game(&["0", "5", "16", "3"]);
    night.ok(Command::EditGame(0));
    let link = night.lock().phones().evening();
    let rack = night.apply(Command::Phone {
        action: PhoneAction::EnterRack {
            seat: 1,
            text: "12".into(),
        },
        lang: Language::Korean,
        link,
    });
    assert!(matches!(rack, Err(Refusal::EditingSavedGame)), "{rack:?}");
    assert_eq!(
        night.lock().draft().map(|d| d.left[1].clone()),
        Some("5".into())
    );
    // The saved game is as it was, whatever is saved from the form.
    night.ok(Command::SaveGame);
    assert_eq!(night.totals().iter().sum::<i64>(), 0);
    assert_eq!(
        night.lock().sheet().expect("sheet").games()[0].hands[1],
        Hand::of_value(5)
    );
}

#[test]
fn a_korean_sheet_keeps_its_points_when_the_settings_change_until_applied_and_undo_restores() {
    let night = Night::with(&PLAYERS);
    let mut settings = night.lock().settings().clone();
    settings.rules = Preset::Korean.rules();
    night.ok(Command::Settings(Box::new(settings)));
    night.ok(Command::NewSheet {
        rounds: Some(1),
        target: None,
    });
    for left in [["0", "R5 J", "K7", "B1 B2"], ["0", "O9", "R1", "J"]] {
        night.game(&left);
    }
    let before = night.totals();
    let mut settings: Settings = night.lock().settings().clone();
    settings.rules = Preset::Tournament.rules();
    settings.rules.turn_seconds = 45;
    night.ok(Command::Settings(Box::new(settings.clone())));
    assert_eq!(night.totals(), before, "a settings change rescores nothing");
    let preview = night
        .lock()
        .sheet()
        .and_then(|s| rummikub_companion::evening::sheets::rules_preview(s, &settings.rules))
        .expect("the rules differ")
        .expect("the games still score");
    assert_eq!(preview.rules.joker_penalty, 50);
    let done = night.done(Command::ApplyRules);
    assert_eq!(done.change, Some(Change::RulesApplied));
    let applied = *night.lock().sheet().expect("sheet").rules();
    assert_eq!(applied.joker_penalty, 50);
    assert_eq!(applied.turn_seconds, 60, "timer values never touch a sheet");
    assert_eq!(
        night.totals(),
        preview.totals.iter().map(|(_, b)| *b).collect::<Vec<_>>()
    );
    night.ok(Command::Undo(Some(Area::Sheet)));
    assert_eq!(night.totals(), before);
    let night = night.reopen();
    assert_eq!(night.totals(), before, "the restored sheet was saved");
    assert_eq!(
        night.lock().sheet().expect("sheet").rules().joker_penalty,
        30
    );
}

#[test]
fn a_refused_game_leaves_the_sheet_and_the_form_as_they_were() {
    let night = Night::with_sheet();
    night.ok(Command::AddGame);
    night.ok(Command::Draft(DraftEdit::Left(0, "0".into())));
    let missing = night.apply(Command::SaveGame);
    assert!(matches!(missing, Err(Refusal::Draft(_))), "{missing:?}");
    let missing = missing.expect_err("refused");
    let worded = rummikub_companion::evening::words::refusal(Language::English, &missing);
    assert!(worded.contains("큐브"), "names who is missing: {worded}");
    for seat in 1..4 {
        night.ok(Command::Draft(DraftEdit::Left(seat, "Q9".into())));
    }
    assert!(matches!(
        night.apply(Command::SaveGame),
        Err(Refusal::Draft(_))
    ));
    assert!(night.lock().sheet().expect("sheet").games().is_empty());
    assert_eq!(
        night.lock().draft().map(|d| d.left[1].clone()),
        Some("Q9".into())
    );
}

#[test]
fn a_double_clicked_delete_takes_only_the_game_clicked() {
    let night = Night::with_sheet();
    for left in [
        ["0", "1", "2", "3"],
        ["4", "0", "5", "6"],
        ["7", "8", "0", "9"],
    ] {
        night.game(&left);
    }
    let games = night.lock().sheet().expect("sheet").games().to_vec();
    night.ok(Command::DeleteGame(0, games[0].clone()));
    night.clock.advance(secs(1.0));
    let again = night.apply(Command::DeleteGame(0, games[0].clone()));
    assert!(
        matches!(again, Err(Refusal::Guarded)),
        "the row holds another game"
    );
    assert_eq!(night.lock().sheet().expect("sheet").games(), &games[1..]);
}

#[test]
fn the_open_list_leaves_out_empty_sheets_and_the_latest_played_opens_next_time() {
    let night = Night::with_sheet();
    night.game(&["0", "5", "16", "3"]);
    let played = night.lock().sheet_id().cloned().expect("open");
    night.ok(Command::NewSheet {
        rounds: None,
        target: None,
    });
    let past = wait_for_past(&night);
    assert_eq!(
        past.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>(),
        std::slice::from_ref(&played),
        "the empty sheet is not listed"
    );
    assert_eq!(past[0].1.games, 1);
    assert_eq!(past[0].1.players, PLAYERS);
    // With no sheet named by the evening, the latest played one opens.
    night.settle();
    std::fs::remove_file(night.data.path().join("evening.json")).expect("evening");
    let night = Night::open(night.data);
    let opened = wait_until(|| night.lock().sheet_id().cloned());
    assert_eq!(opened, played, "an empty sheet is never 'the latest'");
}

fn wait_until<T>(mut f: impl FnMut() -> Option<T>) -> T {
    let started = std::time::Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "waited too long"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn wait_for_past(night: &Night) -> rummikub_companion::evening::Past {
    wait_until(|| night.lock().past())
}

#[test]
fn a_second_window_shows_everything_saves_nothing_and_says_so_once() {
    let night = Night::with_sheet();
    night.game(&["0", "5", "16", "3"]);
    night.settle();
    let reader = Store::open(night.data.path()).expect("opens read-only");
    assert!(!reader.access().is_writable());
    let other = Night::on_store(reader, tempfile::tempdir().expect("unused"));
    assert_eq!(other.lock().sheet().expect("the sheet").games().len(), 1);
    assert!(
        other.notices().is_empty(),
        "nothing wrong before anything changed"
    );
    other.game(&["6", "11", "0", "5"]);
    assert_eq!(
        other
            .lock()
            .sheet()
            .expect("kept in the window")
            .games()
            .len(),
        2
    );
    let standing = other.lock().not_saving().expect("a standing line");
    assert!(standing.0.contains("another window"), "{standing:?}");
    drop(other);
    let night = night.reopen();
    assert_eq!(
        night.lock().sheet().expect("sheet").games().len(),
        1,
        "the first window's sheet is untouched"
    );
}

#[test]
fn exports_start_with_a_bom_name_the_winner_and_never_overwrite() {
    let night = Night::with(&PLAYERS);
    night.ok(Command::NewSheet {
        rounds: Some(1),
        target: None,
    });
    for left in [
        ["0", "R1", "R2", "R3"],
        ["5", "0", "R2", "R3"],
        ["5", "6", "0", "R3"],
        ["5", "6", "7", "0"],
    ] {
        night.game(&left);
    }
    let mut settings = night.lock().settings().clone();
    settings.language = Language::Korean;
    night.ok(Command::Settings(Box::new(settings)));
    let first = night.done(Command::ExportCsv(None)).wrote.expect("a file");
    let second = night.done(Command::ExportCsv(None)).wrote.expect("a file");
    assert_ne!(first, second, "the second export is a new file");
    assert!(first.starts_with(night.data.path().join("exports")));
    let bytes = std::fs::read(&first).expect("the export");
    assert!(bytes.starts_with(b"\xEF\xBB\xBF"), "a UTF-8 BOM for Excel");
    let text = String::from_utf8(bytes).expect("UTF-8");
    assert!(text.contains("루미") && text.contains("우승"), "{text}");
    let chosen = night.data.path().join("chosen.csv");
    let written = night.done(Command::ExportCsv(Some(chosen.clone()))).wrote;
    assert_eq!(written, Some(chosen));
    assert_eq!(
        night.lock().sheet().expect("sheet").rules().final_rule,
        FinalRule::Total
    );
}

#[test]
fn without_a_data_folder_a_sheet_still_works_and_export_names_the_problem() {
    let data = tempfile::tempdir().expect("folder");
    let file = data.path().join("a-file");
    std::fs::write(&file, "not a folder").expect("file");
    let clock = std::sync::Arc::new(rummikub_companion::runtime::ManualClock::default());
    let deps = rummikub_companion::evening::Deps::manual(
        clock,
        std::sync::Arc::new(rummikub_companion::sound::RecordingSounder::default()),
        &file,
    );
    assert!(deps.store.is_err());
    let evening = rummikub_companion::evening::Shared::open(deps);
    evening
        .apply(Command::NewSheet {
            rounds: None,
            target: None,
        })
        .expect("a sheet in memory");
    let game = Game::new(vec![Hand::of_value(0); 4]);
    assert!(game.hands.len() == 4);
    assert!(evening.lock().not_saving().is_some(), "said, standing");
    let refused = evening.apply(Command::ExportCsv(None));
    assert!(matches!(refused, Err(Refusal::Sheet(_))), "{refused:?}");
    // Undo of the new sheet works without a folder to read it back from.
    evening.apply(Command::Undo(None)).expect("undo");
    assert!(evening.lock().sheet().is_none());
    evening.apply(Command::Redo(None)).expect("redo");
    assert!(evening.lock().sheet().is_some());
}

/// Everything an undo must restore: the timer as saved, the sheet's games, the seats and rules.
#[derive(Clone, Debug, PartialEq)]
struct Parts {
    timer: rummikub_companion::timer::SavedTimer,
    phase: Phase,
    sheet: Option<(Vec<Game>, usize)>,
    players: Vec<String>,
    rules: rummikub_companion::rules::RuleSet,
}

fn parts(night: &Night) -> Parts {
    let evening = night.lock();
    Parts {
        timer: evening.timer().read(|t, now| t.saved(now)),
        phase: evening.timer().read(|t, _| t.phase()),
        sheet: evening
            .sheet()
            .map(|s| (s.games().to_vec(), s.players().len())),
        players: evening.settings().players.clone(),
        rules: evening.settings().rules,
    }
}

/// One step of the table: a command, a game saved through the form, or the tournament preset.
enum Step {
    Do(Command),
    Save(Option<usize>, [&'static str; 4]),
    Tournament,
}

#[test]
fn undo_and_redo_across_twenty_mixed_steps_restore_each_state_exactly() {
    let night = Night::with(&["Ann", "Bo", "Cy", "Dee"]);
    night.ok(Command::NewSheet {
        rounds: Some(1),
        target: None,
    });
    let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let steps = vec![
        Step::Do(Command::Primary),
        Step::Do(Command::Primary),
        Step::Do(Command::TogglePause),
        Step::Do(Command::Rename(0, "Anna".into())),
        Step::Do(Command::TogglePause),
        Step::Save(None, ["0", "5", "16", "3"]),
        Step::Do(Command::Primary),
        Step::Save(None, ["6", "11", "0", "5"]),
        Step::Tournament,
        Step::Do(Command::Primary),
        Step::Save(Some(0), ["0", "15", "16", "3"]),
        Step::Do(Command::TogglePause),
        Step::Do(Command::SetPlayers(names(&[
            "Anna", "Bo", "Cy", "Dee", "Eve",
        ]))),
        Step::Do(Command::TogglePause),
        Step::Do(Command::Primary),
        Step::Save(None, ["32", "13", "2", "0"]),
        Step::Do(Command::ResetTimer),
        Step::Do(Command::Primary),
        Step::Do(Command::NewSheet {
            rounds: None,
            target: None,
        }),
        Step::Do(Command::Primary),
    ];
    let base = night.lock().undo_depth(); // the seats and the new sheet
    assert_eq!(base, 2);
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut timer_step = Vec::new();
    for (i, step) in steps.into_iter().enumerate() {
        night.clock.advance(secs(1.7));
        before.push(parts(&night));
        timer_step.push(matches!(
            step,
            Step::Do(
                Command::Primary
                    | Command::TogglePause
                    | Command::ResetTimer
                    | Command::Rename(..)
                    | Command::SetPlayers(_)
            )
        ));
        match step {
            Step::Do(command) => {
                night.ok(command);
            }
            Step::Save(editing, left) => {
                night.ok(match editing {
                    None => Command::AddGame,
                    Some(i) => Command::EditGame(i),
                });
                for (seat, text) in left.iter().enumerate() {
                    night.ok(Command::Draft(DraftEdit::Left(seat, text.to_string())));
                }
                night.ok(Command::SaveGame);
            }
            Step::Tournament => {
                let mut settings = night.lock().settings().clone();
                settings.rules = Preset::Tournament.rules();
                night.ok(Command::Settings(Box::new(settings)));
            }
        }
        assert_eq!(
            night.lock().undo_depth(),
            base + i + 1,
            "step {i} was recorded"
        );
        after.push(parts(&night));
        assert_ne!(before[i], after[i], "step {i} changed something");
    }
    assert_eq!(
        after[8].rules.turn_seconds, 40,
        "the tournament preset applied"
    );
    // The clock runs on between the steps; apart from it, every part must match exactly, and a
    // timer step's undo gives the turn back exactly the time it had.
    let without_clock = |p: &Parts| {
        let mut p = p.clone();
        p.timer.turn_ms = None;
        p
    };
    // Undo and redo of everything (no area): one line through the whole evening.
    let mut undone_at = vec![None; 20];
    for k in (0..20).rev() {
        night.clock.advance(secs(3.1));
        undone_at[k] = Some(parts(&night));
        night.ok(Command::Undo(None));
        let now = parts(&night);
        assert_eq!(
            without_clock(&now),
            without_clock(&before[k]),
            "undo of step {k}"
        );
        if timer_step[k] {
            assert_eq!(
                now.timer.turn_ms, before[k].timer.turn_ms,
                "undo of step {k}"
            );
        }
    }
    assert_eq!(night.lock().undo_depth(), base, "twenty undone");
    for k in 0..20 {
        night.clock.advance(secs(0.9));
        night.ok(Command::Redo(None));
        let now = parts(&night);
        let expected = undone_at[k].clone().expect("undone");
        assert_eq!(
            without_clock(&now),
            without_clock(&after[k]),
            "redo of step {k}"
        );
        if timer_step[k] {
            assert_eq!(
                now.timer.turn_ms, expected.timer.turn_ms,
                "redo of step {k}"
            );
        }
    }
    assert!(night.lock().next_redo(None).is_none());
}

/// The history once worked out (it is computed on the library's thread).
fn history_of(night: &Night) -> rummikub_companion::history::History {
    let until = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(record) = night.lock().history() {
            return record.0.clone();
        }
        assert!(std::time::Instant::now() < until, "no history in 10 s");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The players' names of every played sheet, latest first (once the library has read them).
fn sheets_names(night: &Night) -> Vec<Vec<String>> {
    let until = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(past) = night.lock().past() {
            return past.iter().map(|(_, s)| s.players.clone()).collect();
        }
        assert!(
            std::time::Instant::now() < until,
            "the sheets were not read in 10 s"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Issue 49.10: History split a renamed player in two (Ben and Benny on the same night). A
/// rename carries to the evening's sheets (in the same undo step), and History can count two
/// names as one, undoably, kept across a restart.
#[test]
fn a_rename_carries_to_the_evenings_sheets_and_the_history_merges_names_undoably() {
    use rummikub_companion::rules::RuleSet;
    use rummikub_companion::score::{Players, Sheet};
    use rummikub_companion::store::SheetId;
    // A month ago, Ben played (a sheet of another night, left as it is by a rename tonight).
    let data = tempfile::tempdir().expect("a data folder");
    {
        let store = Store::open(data.path()).expect("the folder");
        let then = chrono::Utc::now() - chrono::Duration::days(30);
        let mut old = Sheet::new(
            Players::new(["Ann", "Ben"]).expect("players"),
            RuleSet::default(),
            None,
            then,
        )
        .expect("a sheet");
        let game = Game::new(vec![Hand::of_value(0), Hand::of_value(12)]);
        old.add_game(game.at(then)).expect("a game");
        let id = SheetId::new("20200101-190000").expect("an id");
        store.save_sheet(&id, &old).expect("saved");
    }
    let night = Night::open(data);
    night.ok(Command::SetPlayers(vec!["Ann".into(), "Ben".into()]));
    for left in [["0", "5"], ["7", "0"]] {
        night.ok(Command::NewSheet {
            rounds: None,
            target: None,
        });
        night.game(&left);
    }
    assert_eq!(sheets_names(&night).len(), 3);
    night.ok(Command::Rename(1, "Benny".into()));
    let names = sheets_names(&night);
    let tonight: Vec<&Vec<String>> = names.iter().take(2).collect();
    assert_eq!(
        tonight,
        [&["Ann", "Benny"], &["Ann", "Benny"]],
        "both of tonight's sheets"
    );
    assert_eq!(
        names[2],
        ["Ann", "Ben"],
        "a sheet of another night keeps its name"
    );
    let h = history_of(&night);
    let benny = h.player("Benny").expect("Benny");
    assert_eq!(
        (benny.evenings, benny.games),
        (1, 2),
        "tonight: one player, not two"
    );
    assert_eq!(h.players.len(), 3, "Ann, Benny, and last month's Ben");

    // Count last month's Ben as Benny: one player; undone from the sheet tab, two again.
    night.ok(Command::MergeNames {
        from: "Ben".into(),
        into: "Benny".into(),
    });
    let h = history_of(&night);
    assert_eq!(h.players.len(), 2);
    let benny = h.player("Ben").expect("Ben is Benny");
    assert_eq!(
        (benny.name.as_str(), benny.evenings, benny.games),
        ("Benny", 2, 3)
    );
    assert_eq!(
        night.lock().next_undo(Some(Area::Sheet)),
        Some(&Change::NamesMerged {
            from: "Ben".into(),
            into: "Benny".into()
        })
    );
    assert!(matches!(
        night.apply(Command::MergeNames {
            from: "benny ".into(),
            into: "BEN".into()
        }),
        Err(Refusal::SameName(..))
    ));
    night.ok(Command::Undo(Some(Area::Sheet)));
    assert_eq!(history_of(&night).players.len(), 3);
    night.ok(Command::Redo(Some(Area::Sheet)));
    assert_eq!(history_of(&night).players.len(), 2);

    // The rename is undone from the timer tab, on every sheet it reached.
    night.ok(Command::Undo(Some(Area::Timer)));
    let names = sheets_names(&night);
    assert!(names.iter().all(|n| n == &["Ann", "Ben"]), "{names:?}");
    night.ok(Command::Redo(Some(Area::Timer)));

    // Kept across a restart (the settings), and on disk for every sheet.
    let night = night.reopen();
    assert_eq!(
        night.lock().settings().merged_names,
        [("Ben".to_owned(), "Benny".to_owned())]
    );
    assert_eq!(history_of(&night).players.len(), 2);
    let names = sheets_names(&night);
    assert_eq!(names.iter().filter(|n| *n == &["Ann", "Benny"]).count(), 2);
    // The command line's history counts them as one too.
    let out = Process::new(BIN)
        .args(["history", "--json", "--lang", "en"])
        .env("RUMMIKUB_COMPANION_DATA", night.data.path())
        .output()
        .expect("history runs");
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let players = report["players"].as_array().expect("players");
    assert_eq!(players.len(), 2, "{report}");
}
