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
        err.contains("지영: \"abc\"는 부호 있는 점수(+24, -5)가 아닙니다"),
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
    for a in &addresses {
        assert!(
            a.ip.is_ipv4() && !a.ip.is_loopback(),
            "{a:?} in {addresses:?}"
        );
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
    settings.language = rummikub_companion::lang::Language::Korean;
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

// ---- issue 23 item 15: the command line in Korean ----

/// Runs the CLI in-process with exactly `args` (no `--lang` added): (exit code, stdout, stderr).
fn cli_as_given(args: &[&str]) -> (i32, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let argv = std::iter::once("rummikub-companion").chain(args.iter().copied());
    let code = rummikub_companion::cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).expect("utf-8 stdout"),
        String::from_utf8(err).expect("utf-8 stderr"),
    )
}

/// clap's English words that must not be left in a Korean help or error.
const CLAP_ENGLISH: &[&str] = &[
    "Usage:",
    "Options:",
    "Arguments:",
    "Commands:",
    "Print help",
    "Print version",
    "Print this message",
    "error:",
    "For more information",
    "tip:",
    "[OPTIONS]",
    "[COMMAND]",
];

#[test]
fn korean_help_is_korean_for_every_subcommand() {
    use rummikub_companion::i18n::cli::help;
    let commands = [
        "",
        "check",
        "solve",
        "score",
        "audit",
        "sound-test",
        "history",
        "status",
    ];
    for command in commands {
        let mut args: Vec<&str> = if command.is_empty() {
            vec![]
        } else {
            vec![command]
        };
        args.extend(["--help", "--lang", "ko"]);
        let (code, out, err) = cli_as_given(&args);
        assert_eq!((code, err.as_str()), (0, ""), "{command}");
        assert!(
            out.contains("사용법: rummikub-companion"),
            "{command}: {out}"
        );
        assert!(out.contains("옵션:"), "{command}: {out}");
        for english in CLAP_ENGLISH {
            assert!(!out.contains(english), "{command}: {english:?} in\n{out}");
        }
        // Every option's Korean help is there, no English one is.
        use clap::CommandFactory;
        let mut clap_command = rummikub_companion::cli::Cli::command();
        clap_command.build();
        let sub = if command.is_empty() {
            &clap_command
        } else {
            clap_command.find_subcommand(command).expect("a subcommand")
        };
        for arg in sub.get_arguments() {
            let text = help::arg(command, arg.get_id().as_str())
                .unwrap_or_else(|| panic!("{command} {}: no help text", arg.get_id()));
            assert!(
                out.contains(text.ko),
                "{command}: {:?} missing in\n{out}",
                text.ko
            );
            assert!(!out.contains(text.en), "{command}: {:?} in\n{out}", text.en);
        }
    }
    // `help <command>` and the locale alone (no --lang) say the same.
    let (code, out, _) = cli_as_given(&["--lang", "ko", "help", "score"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("사용법: rummikub-companion score [옵션] <FILE>"),
        "{out}"
    );
    let out = Command::new(BIN)
        .args(["check", "--help"])
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "ko_KR.UTF-8")
        .output()
        .expect("runs");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        text.starts_with("테이블에 내려놓은 첫 등록을 검사합니다\n"),
        "{text}"
    );
    assert!(text.contains("인자:\n  <MELD>..."), "{text}");
    // English help is clap's, as it was.
    let (_, out, _) = cli_as_given(&["check", "--help", "--lang", "en"]);
    assert!(out.starts_with("Check an initial meld as laid on the table\n\nUsage: rummikub-companion check [OPTIONS] <MELD>...\n"), "{out}");
}

#[test]
fn korean_clap_errors_name_the_argument_and_exit_2() {
    for (args, expected) in [
        (
            &["solve", "--bogus", "R5"][..],
            "오류: 알 수 없는 인자 '--bogus'\n",
        ),
        (
            &["check", "--preset", "casual", "R5"][..],
            "오류: '--preset <P>'의 값 'casual'을 쓸 수 없습니다: korean, english, tournament 중 하나를 쓰세요\n",
        ),
        (
            &["check"][..],
            "오류: 꼭 필요한 인자가 없습니다: <MELD>...\n",
        ),
        (
            &["chek", "R5"][..],
            "오류: 알 수 없는 명령 'chek'\n\n  혹시 'check'를 쓰려던 것인가요?\n",
        ),
        (
            &["score", "--joker"][..],
            "오류: '--joker <N>'에 값이 필요합니다\n",
        ),
        (
            &["check", "--threshold", "x", "R5"][..],
            "오류: '--threshold <N>'의 값 'x'를 쓸 수 없습니다: 0 이상의 정수를 쓰세요\n",
        ),
    ] {
        let mut all = args.to_vec();
        all.extend(["--lang", "ko"]);
        let (code, out, err) = cli_as_given(&all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.starts_with(expected), "{args:?}:\n{err}");
        assert!(
            err.ends_with("\n자세한 내용은 '--help'로 보세요.\n"),
            "{args:?}:\n{err}"
        );
        for english in CLAP_ENGLISH {
            assert!(!err.contains(english), "{args:?}: {english:?} in\n{err}");
        }
    }
    // The usage line of the subcommand, in Korean.
    let (_, _, err) = cli_as_given(&["solve", "--bogus", "R5", "--lang", "ko"]);
    assert!(
        err.contains("\n사용법: rummikub-companion solve [옵션] <TILES>...\n"),
        "{err}"
    );
    // --json: the Korean message in the error object too.
    let (code, out, _) = cli_as_given(&["check", "--bogus", "R5", "--json", "--lang", "ko"]);
    assert_eq!(code, 2);
    let v = json(&out);
    assert_eq!(v["error"]["kind"], "usage");
    assert_eq!(v["error"]["message"], "알 수 없는 인자 '--bogus'");
    // A bad --lang with a Korean locale: the locale's language words the refusal.
    let out = Command::new(BIN)
        .args(["check", "R5", "--lang", "xx"])
        .env_remove("LC_ALL")
        .env("LANG", "ko_KR.UTF-8")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).expect("utf-8");
    assert!(
        err.starts_with("오류: '--lang <ko|en>'의 값 'xx'를 쓸 수 없습니다: ko 또는 en을 쓰세요\n"),
        "{err}"
    );
}

#[test]
fn korean_file_errors_give_the_system_reason_in_korean() {
    let (code, _, err) = cli_as_given(&["score", "/no/such/file.csv", "--lang", "ko"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "오류: /no/such/file.csv를 읽을 수 없습니다 (찾을 수 없음)\n"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().to_str().expect("UTF-8 path");
    let (code, _, err) = cli_as_given(&["audit", folder, "--lang", "ko"]);
    assert_eq!(code, 2);
    assert!(err.contains("(파일이 아니라 폴더임)"), "{err}");
    assert!(
        !err.contains("os error") && !err.contains("directory"),
        "{err}"
    );
    // English keeps the system's own words.
    let (_, _, err) = cli_as_given(&["score", "/no/such/file.csv", "--lang", "en"]);
    assert!(
        err.contains("cannot read /no/such/file.csv: No such file"),
        "{err}"
    );
}

#[cfg(all(unix, not(target_os = "macos")))]
#[test]
fn no_display_is_worded_for_the_user_without_the_build_machines_paths() {
    for (locale, expected) in [
        (
            "C",
            "error: no display found: set DISPLAY or WAYLAND_DISPLAY, or use the command line \
             (rummikub-companion --help)\n",
        ),
        (
            "ko_KR.UTF-8",
            "오류: 화면(디스플레이)을 찾을 수 없습니다: DISPLAY나 WAYLAND_DISPLAY를 설정하거나 \
             명령줄로 쓰세요 (rummikub-companion --help)\n",
        ),
    ] {
        let data = tempfile::tempdir().expect("temp dir");
        let mut child = Command::new(BIN)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("WAYLAND_SOCKET")
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env("LANG", locale)
            .env("RUMMIKUB_COMPANION_DATA", data.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("runs");
        let started = std::time::Instant::now();
        while child.try_wait().expect("waits").is_none() {
            if started.elapsed() > std::time::Duration::from_secs(20) {
                let _ = child.kill();
                panic!("a window opened with no display");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let out = child.wait_with_output().expect("output");
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8(out.stderr).expect("utf-8");
        assert!(err.ends_with(expected), "{locale}: {err}");
        assert!(!err.contains(".rs") && !err.contains(".cargo"), "{err}");
    }
}

#[test]
fn control_characters_from_arguments_and_files_never_reach_the_terminal() {
    let hostile = "R5\u{1b}[31mK7\u{202e}";
    let clean = |text: &str| {
        !text.contains('\u{1b}')
            && !text.contains("[31m")
            && !text.contains('\u{202e}')
            && !text.contains('\u{7}')
            && !text.contains('\u{9b}')
    };
    for lang in ["en", "ko"] {
        // Echoed in a notation error.
        let (code, out, err) = cli_as_given(&["check", hostile, "--lang", lang]);
        assert_eq!(code, 2, "{err}");
        assert!(clean(&err) && clean(&out), "{lang}: {err:?}");
        assert!(
            err.contains("R5K7"),
            "{lang}: the token is still named: {err}"
        );
        // Echoed by clap.
        let (code, _, err) = cli_as_given(&["check", "--preset", hostile, "R5", "--lang", lang]);
        assert_eq!(code, 2);
        assert!(clean(&err), "{lang}: {err:?}");
        let (code, _, err) =
            cli_as_given(&["check", "--x\u{1b}]0;pwned\u{7}", "R5", "--lang", lang]);
        assert_eq!(code, 2);
        assert!(clean(&err) && !err.contains("pwned"), "{lang}: {err:?}");
    }
    // --json: the same string to a JSON reader, escaped on the terminal.
    let (_, out, _) = cli_as_given(&["check", hostile, "--json"]);
    assert!(
        !out.contains('\u{1b}') && !out.contains('\u{202e}'),
        "{out:?}"
    );
    let message = json(&out)["error"]["message"].as_str().map(str::to_owned);
    assert!(message.is_some_and(|m| m.contains(hostile)), "{out}");
    // Names and labels from a file, and the file's name.
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("sheet\u{1b}[2J.csv");
    fs::write(&file, "game,An\u{1b}]0;x\u{7}n,B\u{202e}o\n1\u{9b}1m,0,5\n").expect("write");
    let path = file.to_str().expect("UTF-8 path");
    let (code, out, err) = cli_as_given(&["score", path]);
    assert_eq!(code, 0, "{err}");
    assert!(clean(&out) && clean(&err), "{out:?}");
    assert!(out.contains("Ann") && out.contains("Bo"), "{out}");
    let (code, out, _) = cli_as_given(&["audit", path]);
    assert_eq!(code, 1, "5 points do not sum to zero");
    assert!(clean(&out), "{out:?}");
    // A cell echoed in an error, with the file's name.
    fs::write(&file, "game,Ann,Bo\n1,+5,x\u{1b}[31m\u{202e}\n").expect("write");
    let (code, _, err) = cli_as_given(&["audit", path]);
    assert_eq!(code, 2);
    assert!(
        clean(&err) && err.contains("sheet.csv") && err.contains("\"x\""),
        "{err:?}"
    );
}

#[test]
fn score_json_names_the_tile_set_five_and_six_players_play() {
    let set = |flags: &[&str], text: &str| {
        let (code, out, err, _) = score(flags, text);
        assert_eq!(code, 0, "{err}");
        let v = json(&out);
        assert_eq!(v["tile_set"], v["rules"]["tile_set"], "one answer");
        v["tile_set"].clone()
    };
    assert_eq!(set(&["--json"], "game,A,B,C,D,E\n1,0,1,2,3,4\n"), "xp");
    assert_eq!(set(&["--json"], "game,A,B,C,D,E,F\n1,0,1,2,3,4,5\n"), "xp");
    assert_eq!(set(&["--json"], "game,A,B,C,D\n1,0,1,2,3\n"), "standard");
    assert_eq!(set(&["--json", "--xp"], "game,A,B\n1,0,1\n"), "xp");
}

// ---- issue 23 item 14: round trips ----

/// The sheet as the window exports it in `lang` (its own labels and rules line).
fn window_export(
    sheet: &rummikub_companion::score::Sheet,
    lang: rummikub_companion::lang::Language,
) -> String {
    use rummikub_companion::score::export::{ExportLabels, sheet_csv};
    let s = lang.strings();
    let labels = ExportLabels {
        game: s.results.csv_game,
        points: s.results.csv_points,
        total: s.sheet.totals,
        wins: s.sheet.wins,
        rank: s.sheet.rank,
        winner: s.results.csv_winner,
        leader: s.results.leader,
        other_winner: s.results.csv_other_winner,
        other_leader: s.results.csv_other_leader,
        rules: s.results.csv_rules,
        remaining: s.results.csv_remaining,
    };
    let rules = rummikub_companion::i18n::rules_line(lang, sheet.rules());
    sheet_csv(sheet, &labels, &rules, &|n| {
        (s.sheet.game_label)(n.round, n.in_round)
    })
}

/// A tournament sheet where the rules matter: jokers left on racks (50 each) and a player who
/// never melded (a flat 100).
fn tournament_sheet() -> rummikub_companion::score::Sheet {
    let players = rummikub_companion::score::Players::new(["Ann", "Bo", "Cy"]).expect("players");
    let mut sheet =
        rummikub_companion::score::Sheet::new(players, Preset::Tournament.rules(), None, t0())
            .expect("sheet");
    let rack =
        |text: &str| Hand::of_tiles(rummikub_companion::tile::parse_rack(text).expect("rack"));
    sheet
        .add_game(Game::new(vec![
            Hand::of_value(0),
            rack("R5 J"),
            Hand::of_value(12).without_meld(),
        ]))
        .expect("game");
    sheet
        .add_game(Game::new(vec![rack("J K3"), Hand::of_value(0), rack("J")]))
        .expect("game");
    sheet
}

#[test]
fn score_scores_an_exported_sheet_under_the_rules_written_in_it() {
    let sheet = tournament_sheet();
    let totals = sheet.standings().totals.clone();
    // Game 1: Bo R5 + 50, Cy a flat 100 → Ann +155; game 2: Ann K3 + 50, Cy 50 → Bo +103.
    assert_eq!(
        totals,
        vec![155 - 53, -55 + 103, -100 - 50],
        "joker 50, not melded 100"
    );
    for lang in rummikub_companion::lang::Language::ALL {
        let (code, out, err, _) = score(&["--json"], &window_export(&sheet, lang));
        assert_eq!(code, 0, "{err}");
        assert_eq!(err, "", "no flags, nothing to say");
        let v = json(&out);
        assert_eq!(v["totals"], serde_json::json!(totals), "{lang:?}");
        assert_eq!(v["rules_from"], "file");
        assert_eq!(v["rules"]["joker_penalty"], 50);
        assert_eq!(v["rules"]["not_melded_value"], 100);
    }
    // The shorter line earlier versions wrote (the rack implied) reads too.
    let text = "game,Ann,Bo\n# rules,Korean manual · joker 30 · most wins\n1,0,5\n";
    let (code, out, err, _) = score(&["--json"], text);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["final_rule"], "wins");
}

#[test]
fn score_says_when_its_rule_options_differ_from_the_files_rules() {
    let sheet = tournament_sheet();
    let text = window_export(&sheet, rummikub_companion::lang::Language::English);
    let (code, out, err, _) = score(&["--json", "--joker", "30"], &text);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err,
        "warning: the file says it was scored under Tournament · joker 50 · highest total · \
         not melded 100; scoring under the options' rules: Custom · joker 30 · highest total · \
         not melded 100\n"
    );
    let v = json(&out);
    assert_eq!(v["rules_from"], "options");
    assert_eq!(v["rules"]["joker_penalty"], 30, "the options win");
    assert_ne!(v["totals"], serde_json::json!(sheet.standings().totals));
    // In Korean, for a Korean user.
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("export.csv");
    fs::write(&file, &text).expect("write");
    let path = file.to_str().expect("UTF-8 path");
    let (_, _, err) = cli_as_given(&["score", "--preset", "korean", path, "--lang", "ko"]);
    assert_eq!(
        err,
        "경고: 파일에 적힌 규칙은 대회 · 조커 50점 · 점수 합계 · 미등록 100점입니다. 옵션대로 \
         한국어판 설명서 · 조커 30점 · 점수 합계 · 미등록은 받침대 합계로 계산합니다\n"
    );
    // Options that score alike: nothing to say.
    let (code, _, err, _) = score(&["--preset", "tournament"], &text);
    assert_eq!((code, err.as_str()), (0, ""));
    // A rules line that cannot be read is named, and the default rules used.
    let (code, _, err, _) = score(&[], "game,Ann,Bo\n# rules,house rules\n1,0,5\n");
    assert_eq!(code, 0);
    assert_eq!(
        err,
        "warning: the rules written in the file (\"house rules\") cannot be read; scoring under \
         Korean manual · joker 30 · highest total · not melded counts the rack\n"
    );
}

// ---- issue 49: the first minute at a table, and keys that never surprise ----

#[test]
fn solve_with_threshold_0_and_no_set_is_no_meld_and_exits_1() {
    // Before: "total 0 from 0 tiles (needs 0): threshold reached", exit 0 (nothing laid).
    let (code, out, err) = cli(args(&["solve", "--threshold", "0", "R1", "K5"]));
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("no meld (nothing can be laid)"), "{out}");
    assert!(!out.contains("threshold reached"), "{out}");
    let (code, out, _) = cli(args(&["solve", "--threshold", "0", "--json", "R1", "K5"]));
    assert_eq!(code, 1);
    assert_eq!(json(&out)["meets_threshold"], false, "{out}");
    // A set at threshold 0 is still a meld.
    let (code, out, _) = cli(args(&["solve", "--threshold", "0", "R1", "R2", "R3"]));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("threshold reached"), "{out}");
}

#[test]
fn a_korean_write_error_names_the_cause_in_korean_never_the_systems_english() {
    use rummikub_companion::evening::{Command, Settings};
    use rummikub_companion::i18n;
    use rummikub_companion::lang::Language;
    // Before: "…: No space left on device (os error 28)" at the end of a Korean message.
    for (code, words) in [
        (28, "디스크 공간 부족"),
        (21, "파일이 아니라 폴더임"),
        (2, "찾을 수 없음"),
        (13, "권한 없음"),
    ] {
        let e = std::io::Error::from_raw_os_error(code);
        assert_eq!(i18n::io_error(Language::Korean, &e), words);
        let store = StoreError::Write {
            file: "/dev/full".into(),
            source: std::io::Error::from_raw_os_error(code),
        };
        let said = i18n::store_error(Language::Korean, &store);
        assert!(
            said.ends_with(words) && !said.contains("os error"),
            "{said}"
        );
    }
    // The window: a CSV export to a full disk, refused in the table's language.
    let night = crate::util::night::Night::with_sheet();
    let settings = Settings {
        language: Language::Korean,
        ..night.lock().settings().clone()
    };
    night.ok(Command::Settings(Box::new(settings)));
    let refused = night
        .apply(Command::ExportCsv(Some("/dev/full".into())))
        .expect_err("a full disk refuses the CSV");
    let said = rummikub_companion::evening::words::refusal(Language::Korean, &refused);
    assert!(said.contains("디스크 공간 부족"), "{said}");
    assert!(
        !said.contains("os error") && !said.contains("No space"),
        "{said}"
    );
}

#[test]
fn the_tables_phone_server_listens_on_ipv6_and_ipv4_so_a_local_ipv6_link_works() {
    use rummikub_companion::evening::Command;
    use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
    // Issue 49.5: a unique-local IPv6 address is offered when no private IPv4 one is there;
    // the table's server listens on [::] (dual-stack), so IPv4 and IPv6 phones both reach it.
    let night = crate::util::night::Night::with(&["Ann", "Bo"]);
    night.ok(Command::NewSheet {
        rounds: None,
        target: None,
    });
    night
        .evening
        .start_phones_on((Ipv6Addr::UNSPECIFIED, 0).into());
    let (port, secret) = {
        let evening = night.lock();
        let phones = evening.phones();
        let port = phones.local_addr().expect("running").port();
        let secret = phones.secret().expect("a secret").as_str().to_owned();
        (port, secret)
    };
    for peer in [
        SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
        SocketAddr::from((Ipv6Addr::LOCALHOST, port)),
    ] {
        let reply = crate::util::phones::request(peer, "GET", &format!("/p/{secret}/state"), b"")
            .unwrap_or_else(|e| panic!("{peer}: {e}"));
        assert_eq!(reply.status, 200, "{peer}: {}", reply.body);
    }
}

/// Regression (`repro/play-secondary-order.sh`): `play --by tiles` ranked the points laid
/// before the sets changed, so of two 3-tile plays it chose K2 K4 O5 (11 points, both table
/// sets changed) over K2 O5 R2 (9 points, one set changed), against the README's "the fewest
/// changes among equal plays". Most tiles, then fewest changed sets, then points.
#[test]
fn play_by_tiles_ranks_fewer_changed_sets_above_more_points() {
    let table = "O2 O3 O4 | K3 K4 K5 K6";
    let rack = "O5 K2 R2 K4";
    let (code, out, _) = cli(args(&["play", "--table", table, "--rack", rack, "--json"]));
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["count"], 3);
    assert_eq!(v["sets_changed"], 1, "{v}");
    assert_eq!(v["points"], 9);
    let mut placed: Vec<&str> = v["placed"]
        .as_array()
        .expect("placed tiles")
        .iter()
        .filter_map(|t| t.as_str())
        .collect();
    placed.sort_unstable();
    assert_eq!(placed, ["K2", "O5", "R2"]);
    // The run K3 K4 K5 K6 is on the new table as it was.
    assert!(
        v["table"]
            .as_array()
            .expect("the new table")
            .contains(&serde_json::json!(["K3", "K4", "K5", "K6"]))
    );
    // By points, the most points still win (K2 K4 O5: 11), then the fewest changes.
    let (_, out, _) = cli(args(&[
        "play", "--table", table, "--rack", rack, "--by", "points", "--json",
    ]));
    let v = json(&out);
    assert_eq!(
        (v["points"].as_u64(), v["count"].as_u64()),
        (Some(11), Some(3)),
        "{v}"
    );
}
