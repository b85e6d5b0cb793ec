//! One named test per fixed bug, so a bug that comes back fails a test that says which.
//!
//! Window-only bugs (one end of turn per key-press frame, one notice per cause, the turn slider
//! saving invalid rules for a frame) are pinned by the UI tests in `ui`.

use std::ffi::OsString;
use std::fs;
use std::process::Command;

use rummikub_companion::rules::{Preset, RuleSet, RulesError};
use rummikub_companion::score::table::{Cell, read_score_csv};
use rummikub_companion::score::{Game, Hand, Remaining};
use rummikub_companion::store::{Access, ReadOnlyReason, SheetId, Store, StoreError};
use rummikub_companion::timer::{Timer, TimerError, TimerSettings};

use crate::util::{seed_sheet, t0};

const BIN: &str = env!("CARGO_BIN_EXE_rummikub-companion");

/// Runs the CLI in-process with any arguments (also non-UTF-8): (exit code, stdout, stderr).
fn cli(args: Vec<OsString>) -> (i32, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    // English output whatever the machine's locale (appended: argument numbers stay).
    let argv = std::iter::once(OsString::from("rummikub-companion"))
        .chain(args)
        .chain(["--lang", "en"].map(OsString::from));
    let code = rummikub_companion::cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).expect("utf-8 stdout"),
        String::from_utf8(err).expect("utf-8 stderr"),
    )
}

fn args(list: &[&str]) -> Vec<OsString> {
    list.iter().map(OsString::from).collect()
}

/// `score` (with `flags`) on a CSV file holding `text`.
fn score(flags: &[&str], text: &str) -> (i32, String, String, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("sheet.csv");
    fs::write(&file, text).expect("write");
    let mut all = args(&["score"]);
    all.extend(args(flags));
    all.push(file.clone().into_os_string());
    let (code, out, err) = cli(all);
    (code, out, err, file)
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not one JSON object ({e}): {text}"))
}

// ---- issue 14: audio ----

#[test]
fn a_malformed_alsa_config_does_not_panic_sound_test() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("asound.conf");
    fs::write(&config, "pcm.!default { type hw card 0 }}} {\n").expect("write");
    let out = Command::new(BIN)
        .env("LC_ALL", "C") // English output, whatever the machine's locale
        .arg("sound-test")
        .env("ALSA_CONFIG_PATH", &config)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("error: no audio output: ")),
        "{stderr}"
    );
}

// ---- issue 14: the data folder ----

#[test]
fn a_read_only_data_folder_still_shows_its_sheets_and_names_no_probe_file() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let data = dir.path().join("data");
    let sid = SheetId::new("kept").expect("id");
    Store::open(&data)
        .expect("opens")
        .save_sheet(&sid, &seed_sheet(RuleSet::default()))
        .expect("saves");
    let _sheets = crate::store::ReadOnly::make(&data.join("sheets"));
    let _data = crate::store::ReadOnly::make(&data);
    let store = Store::open(&data).expect("a read-only folder opens");
    assert!(!store.access().is_writable());
    assert_eq!(store.list_sheets().expect("lists").sheets.len(), 1);
    let err = store
        .save_sheet(&sid, &seed_sheet(RuleSet::default()))
        .expect_err("refused");
    assert!(!err.to_string().contains(".probe"), "{err}");
}

#[test]
fn two_windows_on_one_data_folder_never_lose_a_saved_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sid = SheetId::new("evening").expect("id");
    let one = Store::open(dir.path()).expect("opens");
    let two = Store::open(dir.path()).expect("opens");
    assert!(matches!(
        two.access(),
        Access::ReadOnly(ReadOnlyReason::InUse { .. })
    ));
    let mut sheet = seed_sheet(RuleSet::default());
    one.save_sheet(&sid, &sheet).expect("saves");
    let mut theirs = two.load_sheet(&sid).expect("loads").value;
    sheet
        .edit_game(
            0,
            Game::new((0..4).map(|v| Hand::of_value(v * 2)).collect()),
        )
        .expect("edit");
    one.save_sheet(&sid, &sheet).expect("saves the edit");
    // The bug: two saves in the other window removed the edit from the sheet and its backup.
    theirs.set_planned_rounds(Some(2)).expect("rounds");
    for _ in 0..2 {
        assert!(matches!(
            two.save_sheet(&sid, &theirs),
            Err(StoreError::ReadOnly(ReadOnlyReason::InUse { .. }))
        ));
    }
    assert_eq!(one.load_sheet(&sid).expect("loads").value, sheet);
}

#[test]
fn a_newer_version_file_is_not_called_damaged() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open(dir.path()).expect("opens");
    fs::write(
        store.settings_path(),
        r#"{"version": 2, "settings": {"language": "ko"}}"#,
    )
    .expect("write");
    let loaded = store.load_settings::<serde_json::Value>();
    let [notice] = loaded.notices.as_slice() else {
        panic!("{:?}", loaded.notices);
    };
    assert!(notice.is_newer_version());
    assert!(
        notice.to_string().contains("made by a newer version"),
        "{notice}"
    );
    assert!(notice.to_string().contains("kept aside"), "{notice}");
}

#[test]
fn temporary_files_left_by_a_crash_are_removed_at_start() {
    let dir = tempfile::tempdir().expect("temp dir");
    drop(Store::open(dir.path()).expect("opens"));
    let left = dir.path().join("sheets").join(".tmp-crashed");
    fs::write(&left, "half").expect("write");
    let _store = Store::open(dir.path()).expect("opens");
    assert!(!left.exists());
}

// ---- issue 14: linear sheets ----

/// `score` rescored the whole sheet per added game (4,000 games took 4.8 s). The speed is
/// measured in `benches/score.rs`; this pins that a 20,000-game import is read completely.
#[test]
fn a_20000_game_sheet_imports_completely() {
    let mut text = String::from("game,Ann,Bo,Cy\n");
    for g in 0..20_000 {
        let cells = match g % 3 {
            0 => "0,5,R5 J",
            1 => "7,0,3*",
            _ => "2,2!,9",
        };
        text.push_str(&format!("{},{cells}\n", g + 1));
    }
    let imported = read_score_csv(&text, Preset::Korean.rules(), t0()).expect("reads");
    assert_eq!(imported.sheet.games().len(), 20_000);
    let standings = imported.sheet.standings();
    assert_eq!(standings.totals.iter().sum::<i64>(), 0);
    assert_eq!(standings.wins.iter().sum::<usize>(), 20_000);
    // Ann goes out in games 1, 4, 7, …; Bo goes out or is named in the others.
    let ann = 20_000_usize.div_ceil(3);
    assert_eq!(standings.wins, vec![ann, 20_000 - ann, 0]);
}

// ---- issue 14: CLI errors name the cause ----

#[test]
fn a_semicolon_separated_csv_names_the_delimiter() {
    let (code, _, err, file) = score(&[], "game;Ann;Bo\n1;0;5\n");
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        format!(
            "error: {}: row 1: the file is separated by ';', expected ','",
            file.display()
        )
    );
    let (code, _, err, _) = score(&[], "game\tAnn\tBo\n1\t0\t5\n");
    assert_eq!(code, 2);
    assert!(
        err.contains("the file is separated by tabs, expected ','"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn an_invalid_utf8_argument_gets_its_number_and_byte_offset() {
    use std::os::unix::ffi::OsStringExt;
    let mut all = args(&["check", "R5"]);
    all.push(OsString::from_vec(b"R6\xffR7".to_vec()));
    let (code, out, err) = cli(all.clone());
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(
        err.trim(),
        "error: argument 3 is not UTF-8 text (invalid byte at offset 2)"
    );
    all.push("--json".into());
    let (code, out, _) = cli(all);
    assert_eq!(code, 2);
    let v = json(&out);
    assert_eq!(v["error"]["kind"], "encoding");
    assert_eq!(
        v["error"]["message"],
        "argument 3 is not UTF-8 text (invalid byte at offset 2)"
    );
}

#[test]
fn a_huge_token_is_cut_to_a_readable_length() {
    let token = format!("R{}", "9".repeat(1_000_000));
    let (code, _, err) = cli(args(&["check", &token]));
    assert_eq!(code, 2);
    assert!(err.len() < 400, "{} bytes on stderr", err.len());
    assert!(err.contains(&format!("\"{}…\"", &token[..40])), "{err}");
    // In a sheet's cell, for `score` and for `audit`.
    let (code, _, err, _) = score(&[], &format!("game,Ann,Bo\n1,0,{token}\n"));
    assert_eq!(code, 2);
    assert!(err.len() < 400, "{} bytes on stderr", err.len());
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("paper.csv");
    fs::write(&file, format!("game,Ann,Bo\n1,+5,{token}\n")).expect("write");
    let mut all = args(&["audit"]);
    all.push(file.into_os_string());
    let (code, _, err) = cli(all);
    assert_eq!(code, 2);
    assert!(err.len() < 400, "{} bytes on stderr", err.len());
    assert!(err.contains(&format!("\"{}…\"", &token[..40])), "{err}");
    // Also in clap's own messages.
    let (code, _, err) = cli(args(&["check", "--preset", &token, "R5"]));
    assert_eq!(code, 2);
    assert!(err.len() < 1000, "{} bytes on stderr", err.len());
    assert!(err.contains(&format!("{}…", &token[..40])), "{err}");
}

#[test]
fn json_bad_input_prints_an_error_object_on_stdout_too() {
    let (code, out, err) = cli(args(&["check", "--json", "R5", "R14"]));
    assert_eq!(code, 2);
    let v = json(&out);
    assert_eq!(v["error"]["kind"], "notation");
    let message = err.trim().strip_prefix("error: ").expect("an error line");
    assert_eq!(v["error"]["message"], message);
    assert!(message.contains("R14"), "{message}");

    let (code, out, err) = cli(args(&["solve", "--bogus", "--json", "R5"]));
    assert_eq!(code, 2);
    assert_eq!(json(&out)["error"]["kind"], "usage");
    assert!(err.contains("--bogus"), "{err}");

    let (code, out, _, _) = score(&["--json"], "game,Ann,Bo\n1,4,4\n");
    assert_eq!(code, 2);
    let v = json(&out);
    assert_eq!(v["error"]["kind"], "sheet");
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("mark the winner with \"!\"")),
        "{v}"
    );

    let (code, out, _) = cli(args(&["score", "--json", "/no/such/file.csv"]));
    assert_eq!(code, 2);
    assert_eq!(json(&out)["error"]["kind"], "file");
}

#[test]
fn options_after_the_tiles_are_read_as_options() {
    let (code, out, err) = cli(args(&["check", "R10", "R11", "R12", "--json"]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["total"], 33);
    let (code, out, err) = cli(args(&[
        "check",
        "R10 R11 R12",
        "--threshold",
        "40",
        "--json",
    ]));
    assert_eq!(code, 1, "{err}");
    assert_eq!(json(&out)["threshold"], 40);
    let (code, out, err) = cli(args(&["solve", "R10", "R11", "R12", "B1", "--json"]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["total"], 33);
}

// ---- issue 14: rules edges ----

#[test]
fn score_cell_star_alone_is_a_joker() {
    let (code, out, err, _) = score(&["--json"], "game,Ann,Bo\n1,0,R5 *\n");
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["games"][0]["values"], serde_json::json!([0, 35]));
    // The tournament: R5 + a 50-point joker, not a flat 100 for "not melded".
    let (code, out, err, _) = score(
        &["--json", "--preset", "tournament"],
        "game,Ann,Bo\n1,0,R5 *\n",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["games"][0]["values"], serde_json::json!([0, 55]));
    // The window's field reads it the same way.
    let cell: Cell = "R5 *".parse().expect("cell");
    assert!(!cell.hand.not_melded);
    assert_eq!(Ok(cell.hand.left), "R5 *".parse::<Remaining>());
    // Attached to the last token, `*` is still the mark.
    for text in ["35*", "R5 K7*", "R5 **", "R5 *!"] {
        let cell: Cell = text.parse().expect("cell");
        let marked = text.ends_with("7*") || text == "35*" || text == "R5 **";
        assert_eq!(cell.hand.not_melded, marked, "{text}");
    }
    let joker_and_mark: Cell = "R5 **".parse().expect("cell");
    assert_eq!(joker_and_mark.hand.left.rack_value(30), 35);
}

#[test]
fn score_refuses_a_rack_no_set_can_hold() {
    let (code, _, err, file) = score(&[], "game,Ann,Bo\n1,0,J J J\n");
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        format!(
            "error: {}: row 2, column 3: Bo's rack: three jokers but a standard set has two",
            file.display()
        )
    );
    // The XP set has four jokers.
    let (code, _, err, _) = score(&["--xp"], "game,Ann,Bo\n1,0,J J J\n");
    assert_eq!(code, 0, "{err}");
    // Five players play the XP set.
    let (code, _, err, _) = score(&[], "game,A,B,C,D,E\n1,0,R5 R5 R5,1,2,3\n");
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_total_row_in_a_score_sheet_points_to_audit() {
    for label in ["total", "합계", "rank", "순위"] {
        let (code, _, err, _) = score(&[], &format!("game,Ann,Bo\n1,0,5\n{label},5,-5\n"));
        assert_eq!(code, 2, "{label}");
        assert!(
            err.contains(&format!("row 3, column 1: \"{label}\" is a ")),
            "{err}"
        );
        assert!(err.contains("use `audit`"), "{err}");
    }
}

// ---- earlier bugs ----

#[test]
fn case_only_seat_names_are_refused_by_the_timer() {
    let err = Timer::new(["Ann", "ann"], TimerSettings::default()).expect_err("same player");
    assert_eq!(err, TimerError::DuplicateName("ann".into()));
    let err = Timer::new(["Ann", " ANN "], TimerSettings::default()).expect_err("same player");
    assert!(matches!(err, TimerError::DuplicateName(_)), "{err:?}");
}

#[test]
fn out_of_range_timer_settings_are_rejected() {
    let base = RuleSet::default();
    let cases = [
        (
            RuleSet {
                turn_seconds: 3,
                ..base
            },
            RulesError::TurnLength(3),
        ),
        (
            RuleSet {
                turn_seconds: 20,
                warning_seconds: 25,
                ..base
            },
            RulesError::Warning(25),
        ),
        (
            RuleSet {
                tick_seconds: 31,
                ..base
            },
            RulesError::Ticks(31),
        ),
    ];
    for (rules, expected) in cases {
        assert_eq!(rules.validate(), Err(expected));
    }
    assert_eq!(base.validate(), Ok(()));
}

// ---- found after the issues: an unreadable cell was worded in English only ----

#[test]
fn an_unreadable_cell_is_worded_in_korean() {
    let dir = tempfile::tempdir().expect("temp dir");
    let run = |command: &str, text: &str| {
        let file = dir.path().join(format!("{command}.csv"));
        fs::write(&file, text).expect("write");
        let argv = [
            command,
            file.to_str().expect("a UTF-8 path"),
            "--lang",
            "ko",
        ]
        .into_iter()
        .map(OsString::from);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let argv = std::iter::once(OsString::from("rummikub-companion")).chain(argv);
        let code = rummikub_companion::cli::run(argv, &mut out, &mut err);
        (code, String::from_utf8(err).expect("utf-8 stderr"))
    };
    let (code, err) = run("audit", "game,민수,지영\n1,+5,abc\n");
    assert_eq!(code, 2);
    assert!(
        err.contains("지영: \"abc\"은(는) 부호 있는 점수(+24, -5)가 아닙니다"),
        "{err}"
    );
    let (code, err) = run("score", "game,민수,지영\n1,!*,3\n");
    assert_eq!(code, 2);
    assert!(
        err.contains("민수: \"!*\"에는 표시만 있고 그 앞에 남은 점수가 없습니다"),
        "{err}"
    );
    assert!(!err.contains("marks but no"), "no English left: {err}");
}

/// An open-ended sheet under the default rules for `names`.
fn empty_sheet(names: &[&str]) -> rummikub_companion::score::Sheet {
    let players = rummikub_companion::score::Players::new(names).expect("players");
    let rules = rummikub_companion::rules::RuleSet::default();
    rummikub_companion::score::Sheet::new(players, rules, None, t0()).expect("a sheet")
}

#[test]
fn head_to_head_is_read_by_the_players_name_whatever_its_capitals() {
    // The window looked head-to-head up by the folded key ("alice") in a map keyed by the name
    // shown ("Alice"): every column of a player with a capital letter read 0.
    use rummikub_companion::score::{Game, Hand};
    let mut sheet = empty_sheet(&["Alice", "민준", "BOB"]);
    for left in [[0, 5, 9], [4, 0, 2], [7, 3, 0]] {
        let game = Game::new(left.map(Hand::of_value).to_vec());
        sheet.add_game(game).expect("a game");
    }
    let h = rummikub_companion::history::history([&sheet], None);
    let p = |name: &str| h.player(name).expect("a player");
    // Alice beat 민준 in game 1 (0 < 5) and BOB in game 1 (0 < 9); BOB beat Alice in game 2
    // (2 < 4) and game 3 (0 < 7).
    assert_eq!(p("alice").games_won_against(p("민준")), 1);
    assert_eq!(p("alice").games_won_against(p("bob")), 1);
    assert_eq!(p("BOB").games_won_against(p("Alice")), 2);
    assert_eq!(
        p("민준").games_won_against(p("Bob")),
        2,
        "game 1 (5 < 9) and game 2"
    );
    assert_eq!(p("Alice").games_won_against(p("Alice")), 0);
}

#[test]
fn the_racks_of_one_game_together_hold_no_more_jokers_than_the_set() {
    // `J J` on one rack and `J` on another were accepted: three jokers from a set of two.
    use rummikub_companion::score::{Game, Hand, ScoreError};
    use rummikub_companion::tile::parse_rack;
    let mut sheet = empty_sheet(&["민준", "Bob", "서연"]);
    let rack = |text: &str| Hand::of_tiles(parse_rack(text).expect("a rack"));
    let three = Game::new(vec![Hand::of_value(0), rack("J J"), rack("j")]);
    let err = sheet
        .add_game(three)
        .expect_err("three jokers in a standard set");
    assert!(
        matches!(err, ScoreError::TooManyCopiesInGame { .. }),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "the racks together: three jokers but a standard set has two"
    );
    assert!(sheet.games().is_empty(), "refused, nothing added");
    let two = Game::new(vec![Hand::of_value(0), rack("J R5"), rack("J R5")]);
    sheet
        .add_game(two)
        .expect("two jokers and two R5 are a standard set's");
}

// ---- The evening's owner (issue 19) and what slipped (issue 23) ----

/// A copy of one of the reproducers' data folders (`tests/data/repro/<name>`), made
/// writable, in a new temporary folder.
fn repro(name: &str) -> tempfile::TempDir {
    let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/repro")
        .join(name);
    let to = tempfile::tempdir().expect("a temporary folder");
    copy_tree(&from, to.path());
    to
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    for entry in fs::read_dir(from).expect("the reproducer's folder") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a type").is_dir() {
            fs::create_dir_all(&target).expect("a folder");
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).expect("a copy");
        }
    }
}

/// Every file under `dir` with its bytes, for "nothing changed" checks.
fn snapshot(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).expect("readable") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path.clone());
                files.push((path, Vec::new()));
            } else if path.is_file() {
                let bytes = fs::read(&path).expect("bytes");
                files.push((path, bytes));
            } else {
                files.push((path, b"(not a file)".to_vec()));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn a_phone_is_answered_with_no_window_frames_at_all() {
    // Issue 19: with the laptop window minimised, taps waited 3 s and got "busy". The phone
    // server now asks the evening itself; no window exists in this test.
    let table = crate::util::phones::Table::start(0);
    table.clock.advance(std::time::Duration::from_secs(2));
    let started = std::time::Instant::now();
    let reply = crate::util::phones::post(
        table.addr,
        &table.path("action"),
        r#"{"action":"end_turn","seat":0,"turn":1}"#,
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    assert_eq!(table.timer(|t, _| t.current_player()), 1);
    table.stop();
}

#[test]
fn a_game_saved_just_before_a_kill_is_not_offered_again_as_a_draft() {
    use rummikub_companion::evening::{Command, DraftEdit};
    // The reproducer of an earlier version (a draft with no id): its game is the sheet's last.
    let data = repro("dup-game-after-kill");
    let night = crate::util::night::Night::open(data);
    assert!(
        night.lock().draft().is_none(),
        "no form open with a saved game"
    );
    assert_eq!(night.lock().sheet().expect("the sheet").games().len(), 2);
    // And live, with this version's ids: the evening file from before the save, the sheet after.
    let night = crate::util::night::Night::with_sheet();
    night.ok(Command::AddGame);
    for (seat, v) in ["0", "10", "20", "30"].iter().enumerate() {
        night.ok(Command::Draft(DraftEdit::Left(seat, v.to_string())));
    }
    night.ok(Command::Checkpoint);
    night.settle();
    let evening = night.data.path().join("evening.json");
    let before_save = fs::read(&evening).expect("the evening with the draft");
    night.ok(Command::SaveGame);
    night.settle();
    let data = night.data;
    drop(night.evening);
    fs::write(&evening, before_save).expect("killed before the evening was written");
    let night = crate::util::night::Night::open(data);
    assert!(
        night.lock().draft().is_none(),
        "the draft is known as saved"
    );
    assert_eq!(night.lock().sheet().expect("the sheet").games().len(), 1);
}

#[test]
fn an_evening_that_cannot_be_restored_is_set_aside_with_a_notice_and_its_seats_kept() {
    let data = repro("evening-unrestorable");
    let before = fs::read(data.path().join("evening.json")).expect("the file");
    let night = crate::util::night::Night::open(data);
    let seats = night.lock().settings().players.clone();
    assert_eq!(seats, ["Ann", "Bo", "Cy", "Di"], "the seats kept");
    let notices = night.notices().join("\n");
    assert!(notices.contains("could not be restored"), "{notices}");
    let kept: Vec<_> = fs::read_dir(night.data.path())
        .expect("folder")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("evening.json.corrupt-"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    let aside = fs::read(night.data.path().join(&kept[0])).expect("kept");
    assert_eq!(aside, before, "kept as it was, never overwritten");
}

#[test]
fn a_draft_never_moves_to_another_sheet() {
    // The draft belonged to a sheet that cannot be read; the latest other sheet opens without it.
    let data = repro("draft-into-other-sheet");
    let night = crate::util::night::Night::open(data);
    let opened = {
        let started = std::time::Instant::now();
        loop {
            if let Some(id) = night.lock().sheet_id().cloned() {
                break id;
            }
            assert!(started.elapsed() < std::time::Duration::from_secs(10));
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    };
    assert_eq!(opened.as_str(), "20240601-190000");
    assert!(
        night.lock().draft().is_none(),
        "no values typed for other players"
    );
    night.ok(rummikub_companion::evening::Command::Checkpoint);
    night.settle();
    let saved = night.saved();
    assert_eq!(
        saved.drafts.get("20240501-190000").map(|d| d.left.clone()),
        Some(["0", "41", "42", ""].map(String::from).to_vec()),
        "kept with its own sheet"
    );
}

#[test]
fn status_and_history_only_read_the_data_folder() {
    let data = repro("status-moves-newer-evening");
    let before = snapshot(data.path());
    for command in [&["status", "--json"][..], &["history", "--json"][..]] {
        let out = Command::new(BIN)
            .args(command)
            .env("RUMMIKUB_COMPANION_DATA", data.path())
            .env("LC_ALL", "C")
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(0), "{command:?}: {out:?}");
    }
    assert_eq!(
        snapshot(data.path()),
        before,
        "nothing renamed, locked or created"
    );
}

#[cfg(unix)]
#[test]
fn a_named_pipe_in_the_data_folder_blocks_neither_status_nor_history() {
    let data = tempfile::tempdir().expect("folder");
    fs::create_dir(data.path().join("sheets")).expect("sheets");
    for fifo in ["sheets/20240101-190000.json", "evening.json"] {
        let made = Command::new("mkfifo")
            .arg(data.path().join(fifo))
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
    }
    for command in [&["status", "--json"][..], &["history", "--json"][..]] {
        let mut child = Command::new(BIN)
            .args(command)
            .env("RUMMIKUB_COMPANION_DATA", data.path())
            .env("LC_ALL", "C")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("runs");
        let started = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("waits") {
                break status;
            }
            if started.elapsed() > std::time::Duration::from_secs(10) {
                let _ = child.kill();
                panic!("{command:?} blocked on a named pipe");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let out = child.wait_with_output().expect("output");
        assert_eq!(status.code(), Some(0), "{command:?}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("not a regular file"),
            "{command:?} says so: {stderr}"
        );
    }
}

#[test]
fn a_disk_that_refuses_writes_gets_one_standing_line_and_retries_that_back_off() {
    use rummikub_companion::evening::Command;
    let night = crate::util::night::Night::with_sheet();
    night.settle();
    // The backup's name taken by a folder: every save of the evening fails, as on a full disk.
    let bak = night.data.path().join("evening.json.bak");
    let _ = fs::remove_file(&bak);
    fs::create_dir_all(bak.join("blocked")).expect("a folder in the way");
    let saver = night.lock().saver().cloned().expect("a saver");
    let writes_before = saver.writes()[2];
    for _ in 0..20 {
        night.clock.advance(std::time::Duration::from_secs(1));
        let _ = night.apply(Command::Primary);
    }
    std::thread::sleep(std::time::Duration::from_millis(1_800));
    let status = saver.status().expect("failing");
    // 20 ends of turn within a moment, then 1.8 s: the first try and the back-off's retries
    // (0.5 s, then 1 s), not one attempt per change or per frame.
    assert!((1..=4).contains(&status.attempts), "{status:?}");
    assert!(night.notices().is_empty(), "no notice per failure");
    let standing = night.lock().not_saving().expect("one standing line");
    assert!(standing.0.contains("trying again"), "{standing:?}");
    assert_eq!(saver.writes()[2], writes_before);
    // The disk works again: the next retry writes the evening, and the line goes.
    fs::remove_dir_all(&bak).expect("out of the way");
    let started = std::time::Instant::now();
    while saver.status().is_some() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "retried"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(night.lock().not_saving().is_none());
    assert!(saver.writes()[2] > writes_before);
    assert_eq!(
        crate::util::night::read_saved(night.data.path())
            .timer
            .map(|t| t.stats.iter().map(|s| s.turns).sum::<u32>()),
        Some(19),
        "the latest evening, nothing lost"
    );
}

// ---- issue 23 item 7: the phones' link must reach the phones ----

#[test]
fn the_link_names_no_ipv6_address_while_the_server_listens_on_ipv4_only() {
    // This machine has fd00::2 on eth0; the server binds 0.0.0.0, which IPv6 phones cannot
    // reach: the window's link was http://[fd00::2]:…
    // What the app binds for the table (every IPv4 interface).
    let bind = std::net::SocketAddr::from((std::net::Ipv4Addr::UNSPECIFIED, 7373));
    let addresses = rummikub_companion::server::link_addresses(bind);
    assert!(!addresses.is_empty(), "at least loopback");
    for a in &addresses {
        assert!(a.ip.is_ipv4(), "{a:?} in {addresses:?}");
        assert!(
            !rummikub_companion::server::is_virtual_interface(&a.interface),
            "{a:?}"
        );
    }
}

#[test]
fn idle_connections_from_one_address_do_not_starve_another_addresss_taps() {
    use crate::peer::{connect_from, request_from};
    use std::io::Write;
    use std::net::Ipv4Addr;
    use std::time::{Duration, Instant};

    // Before: ~80 idle connections from anyone on the network held the server's 64 slots, and
    // 2 of 40 real taps got through in 20 s.
    let table = crate::util::phones::Table::start(0);
    let noisy = Ipv4Addr::LOCALHOST;
    let phone = Ipv4Addr::new(127, 0, 0, 2);
    let state = table.path("state");
    let mut idle = Vec::new();
    for i in 0..80 {
        let mut s = connect_from(noisy, table.addr).expect("an idle connection");
        if i % 2 == 1 {
            // Half of them asked once and stay open (keep-alive), half never say a word.
            let _ = s.write_all(format!("GET {state} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes());
        }
        idle.push(s);
    }
    let started = Instant::now();
    let mut answered = 0;
    for tap in 0..40 {
        // The noisy address keeps opening idle connections between the taps.
        for _ in 0..2 {
            idle.push(connect_from(noisy, table.addr).expect("another idle connection"));
        }
        let reply = request_from(
            phone,
            table.addr,
            "POST",
            &table.path("action"),
            br#"{"action":"toggle_pause","seat":1}"#,
            Duration::from_secs(5),
        )
        .unwrap_or_else(|e| panic!("tap {tap} not answered: {e}"));
        assert_eq!(reply.status, 200, "tap {tap}: {}", reply.body);
        answered += 1;
    }
    assert_eq!(answered, 40);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "40 taps in {:?}",
        started.elapsed()
    );
    assert_eq!(
        table.timer(|t, _| t.phase()),
        rummikub_companion::timer::Phase::Running,
        "40 toggles: paused and resumed 20 times each"
    );
    drop(idle);
    table.stop();
}

#[test]
fn start_on_a_phone_starts_the_clock_instead_of_being_refused() {
    // Before: a phone's Start (toggle_pause while idle) was answered "not started".
    let table = crate::util::phones::Table::idle(0);
    let reply = crate::util::phones::post(
        table.addr,
        &table.path("action"),
        r#"{"action":"toggle_pause","seat":0,"start":true}"#,
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(
        table.timer(|t, _| t.phase()),
        rummikub_companion::timer::Phase::Running
    );
    table.stop();
}

#[test]
fn a_phone_picking_a_seat_is_told_another_phone_has_it() {
    // Before: nothing told a second phone that the seat it picked was already in use.
    let table = crate::util::phones::Table::start(0);
    let mut ann =
        crate::util::phones::Feed::open(table.addr, &table.path("events?seat=0")).expect("Ann");
    assert!(
        ann.next_state(std::time::Duration::from_secs(5))
            .expect("feed")
            .is_some()
    );
    let state = crate::util::phones::get(table.addr, &table.path("state")).json();
    assert_eq!(state["phones"], serde_json::json!([1, 0, 0, 0]));
    drop(ann);
    table.stop();
}

#[test]
fn a_restart_gives_an_interrupted_turn_the_length_it_started_with() {
    // Regression (issue 23, round trips): a turn begun at 60 s, the settings moved to 40 s
    // mid-turn, a restart: the turn came back under 40 s, 20 s run, so 20 s left, not 40.
    use std::time::Duration;
    let s = Duration::from_secs;
    let sixty = TimerSettings::default();
    let forty = TimerSettings {
        turn: s(40),
        ..sixty
    };
    let mut t = Timer::new(["Ann", "Bo"], sixty).expect("a table");
    t.start(s(0)).expect("starts");
    t.set_settings(forty);
    let saved = t.saved(s(20));
    let back = Timer::restore(&saved, forty, s(500)).expect("restores");
    assert_eq!(back.remaining(s(500)), s(40), "60 s less the 20 run");
    // The next turn is a 40-second one.
    let mut back = back;
    back.resume(s(500)).expect("resumes");
    back.end_turn(s(501)).expect("ends");
    assert_eq!(back.remaining(s(501)), s(40));
    // A file from before the turn's length was saved: the settings' length, as before.
    let older = rummikub_companion::timer::SavedTimer {
        turn_length_ms: None,
        turn_warning_ms: None,
        ..saved
    };
    let back = Timer::restore(&older, forty, s(500)).expect("restores");
    assert_eq!(back.remaining(s(500)), s(20));
}

#[test]
fn the_tile_picker_writes_korean_tiles_at_a_korean_table() {
    // Regression (issue 23): the picker wrote `R5 K7 J` into a Korean form whose hint teaches
    // `빨5 검7 조커`.
    use rummikub_companion::evening::{Command, DraftEdit};
    let night = crate::util::night::Night::with_sheet();
    let mut settings = night.lock().settings().clone();
    settings.language = rummikub_companion::i18n::Language::Korean;
    night.ok(Command::Settings(Box::new(settings)));
    night.ok(Command::AddGame);
    for tile in ["R5", "K7", "J"] {
        let tile = tile.parse().expect("a tile");
        night.ok(Command::Draft(DraftEdit::Tile(1, tile)));
    }
    let typed = night.lock().draft().map(|d| d.left[1].clone());
    assert_eq!(typed.as_deref(), Some("빨5 검7 조커"));
    // And it reads back as the same rack.
    let left: Remaining = "빨5 검7 조커".parse().expect("Korean notation reads");
    assert_eq!(left, "R5 K7 J".parse::<Remaining>().expect("reads"));
}
