//! Storage: round trips, bad files set aside, backups, read-only folders, and SIGKILL during
//! saves.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::util::{seed_sheet, t0};
use rummikub_companion::rules::{FinalRule, Preset, RuleSet};
use rummikub_companion::score::{Game, Hand, Players, Sheet};
use rummikub_companion::store::{
    Access, FileProblem, Notice, ReadOnlyReason, SheetId, Store, StoreError, data_dir_from,
};
use serde::{Deserialize, Serialize};

/// Stands in for the GUI's settings type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
struct Settings {
    language: String,
    volume: u8,
}

fn settings(language: &str, volume: u8) -> Settings {
    Settings {
        language: language.into(),
        volume,
    }
}

fn open_temp() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open(dir.path().join("data")).expect("opens");
    (dir, store)
}

fn id(name: &str) -> SheetId {
    SheetId::new(name).expect("valid id")
}

/// Files in a folder whose names contain `part`.
fn files_with(folder: &Path, part: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(folder)
        .expect("readable folder")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().contains(part))
        })
        .collect();
    found.sort();
    found
}

#[test]
fn sheets_and_settings_round_trip() {
    let (_dir, store) = open_temp();
    let sheet = seed_sheet(Preset::Tournament.rules());
    let sid = store.new_sheet_id(sheet.created());
    assert_eq!(sid.as_str(), "20240501-190000");
    assert!(store.save_sheet(&sid, &sheet).expect("saves").is_empty());
    let loaded = store.load_sheet(&sid).expect("loads");
    assert_eq!(loaded.value, sheet);
    assert!(loaded.notices.is_empty());
    // The file is versioned JSON of facts.
    let json: serde_json::Value =
        serde_json::from_slice(&fs::read(store.sheet_path(&sid)).expect("file")).expect("json");
    assert_eq!(json["version"], 1);
    assert_eq!(json["sheet"]["players"][0], "루미");
    assert!(!json.to_string().contains("points"));

    // Settings: defaults when none, then what was saved.
    let first: Settings = store.load_settings().value;
    assert_eq!(first, Settings::default());
    store.save_settings(&settings("ko", 80)).expect("saves");
    let loaded = store.load_settings::<Settings>();
    assert_eq!(loaded.value, settings("ko", 80));
    assert!(loaded.notices.is_empty());
    let json: serde_json::Value =
        serde_json::from_slice(&fs::read(store.settings_path()).expect("file")).expect("json");
    assert_eq!(json["version"], 1);
    assert_eq!(json["settings"]["language"], "ko");
}

#[test]
fn the_backup_is_the_previous_good_copy() {
    let (_dir, store) = open_temp();
    let sid = id("s");
    let mut sheet = seed_sheet(RuleSet::default());
    store.save_sheet(&sid, &sheet).expect("first save");
    let first = sheet.clone();
    sheet.set_final_rule(FinalRule::Wins);
    store.save_sheet(&sid, &sheet).expect("second save");
    let backup = fs::read(store.sheet_path(&sid).with_extension("json.bak")).expect("backup");
    let envelope: serde_json::Value = serde_json::from_slice(&backup).expect("json");
    let from_backup: Sheet = serde_json::from_value(envelope["sheet"].clone()).expect("sheet");
    assert_eq!(from_backup, first);
    assert_eq!(store.load_sheet(&sid).expect("loads").value, sheet);
}

/// Each kind of bad main file is set aside byte for byte, and the backup is used and restored.
#[test]
fn bad_sheet_files_are_set_aside_and_the_backup_recovers() {
    let good = seed_sheet(RuleSet::default());
    let good_bytes = {
        let (_dir, store) = open_temp();
        store.save_sheet(&id("x"), &good).expect("saves");
        fs::read(store.sheet_path(&id("x"))).expect("file")
    };
    let truncated = good_bytes[..good_bytes.len() / 2].to_vec();
    let newer = br#"{"version": 2, "sheet": {"whatever": true}}"#.to_vec();
    type Case = (&'static str, Vec<u8>, fn(&FileProblem) -> bool);
    let cases: Vec<Case> = vec![
        ("garbage", b"\x00\xffnot json".to_vec(), |p| {
            matches!(p, FileProblem::NotJson(_))
        }),
        ("truncated", truncated, |p| {
            matches!(p, FileProblem::NotJson(_))
        }),
        ("empty", Vec::new(), |p| *p == FileProblem::Empty),
        ("newer", newer, |p| *p == FileProblem::Newer(2)),
        ("no version", br#"{"sheet": {}}"#.to_vec(), |p| {
            *p == FileProblem::NoVersion
        }),
        (
            "invalid",
            br#"{"version": 1, "sheet": {"players": ["solo"]}}"#.to_vec(),
            |p| matches!(p, FileProblem::Invalid(m) if m.contains("2 to 6 players")),
        ),
    ];
    for (what, bytes, expected) in cases {
        let (_dir, store) = open_temp();
        let sid = id("s");
        let path = store.sheet_path(&sid);
        store.save_sheet(&sid, &good).expect("first save");
        store
            .save_sheet(&sid, &good)
            .expect("second save makes the backup");
        fs::write(&path, &bytes).expect("damage");

        let loaded = store.load_sheet(&sid).expect(what);
        assert_eq!(loaded.value, good, "{what}");
        let [aside, recovered] = loaded.notices.as_slice() else {
            panic!("{what}: expected two notices, got {:?}", loaded.notices);
        };
        let Notice::SetAside {
            file,
            moved_to,
            problem,
        } = aside
        else {
            panic!("{what}: {aside:?}");
        };
        assert_eq!(file, &path);
        assert!(expected(problem), "{what}: {problem:?}");
        assert!(
            moved_to.to_string_lossy().contains("s.json.corrupt-"),
            "{what}: {moved_to:?}"
        );
        assert_eq!(
            fs::read(moved_to).expect("set aside"),
            bytes,
            "{what}: kept as is"
        );
        assert!(matches!(recovered, Notice::Recovered { .. }), "{what}");
        assert!(
            aside.to_string().contains("it was kept as"),
            "{what}: {aside}"
        );
        // The main file was restored: the next load is clean.
        let again = store.load_sheet(&sid).expect("loads again");
        assert!(again.notices.is_empty(), "{what}: {:?}", again.notices);
        assert_eq!(again.value, good);
    }
}

#[test]
fn with_no_good_copy_the_sheet_is_reported_not_overwritten() {
    let (_dir, store) = open_temp();
    let sid = id("lost");
    let path = store.sheet_path(&sid);
    fs::write(&path, "{ half").expect("write");
    fs::write(path.with_extension("json.bak"), "").expect("write");
    let err = store.load_sheet(&sid).expect_err("nothing good");
    let StoreError::Unrecoverable { notices, .. } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(notices.len(), 2);
    assert!(err.to_string().contains("lost.json"), "{err}");
    let sheets = store.dir().join("sheets");
    assert_eq!(files_with(&sheets, "corrupt").len(), 2);
    assert_eq!(
        fs::read_to_string(&files_with(&sheets, "lost.json.corrupt")[0]).expect("kept"),
        "{ half"
    );
    assert!(matches!(
        store.load_sheet(&id("never")),
        Err(StoreError::NotFound { .. })
    ));
}

#[test]
fn bad_settings_fall_back_to_defaults_and_are_kept() {
    let (_dir, store) = open_temp();
    let newer = r#"{"version": 7, "settings": {"language": "en", "volume": 3, "new": 1}}"#;
    fs::write(store.settings_path(), newer).expect("write");
    let loaded = store.load_settings::<Settings>();
    assert_eq!(loaded.value, Settings::default());
    let [notice] = loaded.notices.as_slice() else {
        panic!("{:?}", loaded.notices);
    };
    let aside = notice.set_aside_to().expect("set aside").to_path_buf();
    assert!(
        notice
            .to_string()
            .contains("made by a newer version of the app (format 7")
    );
    assert!(notice.is_newer_version());
    // Saving never touches the set-aside file.
    store.save_settings(&settings("en", 50)).expect("saves");
    assert_eq!(fs::read_to_string(&aside).expect("kept"), newer);
    assert_eq!(store.load_settings::<Settings>().value, settings("en", 50));
}

#[test]
fn saving_over_an_unreadable_file_sets_it_aside_first() {
    let (_dir, store) = open_temp();
    fs::write(store.settings_path(), "garbage").expect("write");
    let notices = store.save_settings(&settings("ko", 1)).expect("saves");
    assert_eq!(notices.len(), 1);
    let aside = notices[0].set_aside_to().expect("set aside");
    assert_eq!(fs::read_to_string(aside).expect("kept"), "garbage");
    // The bad file did not become the backup.
    assert!(!store.settings_path().with_extension("json.bak").exists());
}

#[test]
fn sheets_are_listed_newest_first_and_bad_ones_reported() {
    let (_dir, store) = open_temp();
    let older = seed_sheet(RuleSet::default());
    let players = Players::new(["Ann", "Bo"]).expect("players");
    let mut newer = Sheet::new(players, RuleSet::default(), None, t0()).expect("sheet");
    newer
        .add_game(
            Game::new(vec![Hand::of_value(0), Hand::of_value(4)])
                .at(t0() + chrono::Duration::days(1)),
        )
        .expect("game");
    let a = store.new_sheet_id(t0());
    store.save_sheet(&a, &older).expect("saves");
    let b = store.new_sheet_id(t0());
    assert_eq!(b.as_str(), "20240501-190000-2");
    store.save_sheet(&b, &newer).expect("saves");
    let sheets = store.dir().join("sheets");
    fs::write(sheets.join("broken.json"), "nope").expect("write");
    fs::write(sheets.join(".tmp-leftover"), "partial").expect("write");
    fs::write(sheets.join("notes.txt"), "hello").expect("write");

    let listing = store.list_sheets().expect("lists");
    let ids: Vec<&str> = listing.sheets.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["20240501-190000-2", "20240501-190000"]);
    assert_eq!(listing.sheets[1].sheet, older);
    assert_eq!(listing.notices.len(), 1);
    assert!(listing.notices[0].to_string().contains("broken.json"));
}

#[test]
fn the_data_folder_can_be_chosen() {
    let chosen = data_dir_from(Some("/some/where".into())).expect("env");
    assert_eq!(chosen, PathBuf::from("/some/where"));
    // Without the variable (or with it empty) the platform folder is used; it names the app.
    if let Ok(default) = data_dir_from(Some("".into())) {
        assert!(
            default.to_string_lossy().contains("rummikub-companion"),
            "{default:?}"
        );
    }
}

#[test]
fn a_data_folder_under_a_regular_file_gives_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("not-a-folder");
    fs::write(&file, "x").expect("write");
    let wanted = file.join("data");
    let err = Store::open(&wanted).expect_err("cannot create");
    assert!(matches!(err, StoreError::Folder { .. }), "{err:?}");
    assert!(
        err.to_string()
            .contains(&format!("cannot use the data folder {}", wanted.display())),
        "{err}"
    );
}

/// Makes a folder read-only for the rest of the test and undoes it on drop. Permission bits
/// stop writes for an ordinary user; root ignores them, so as root the folder is made immutable
/// (`chattr +i`), which stops root too. If neither works the test fails: it is never skipped.
pub(crate) struct ReadOnly {
    folder: PathBuf,
    immutable: bool,
}

impl ReadOnly {
    pub(crate) fn make(folder: &Path) -> ReadOnly {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(folder, fs::Permissions::from_mode(0o555)).expect("chmod");
        let mut guard = ReadOnly {
            folder: folder.to_path_buf(),
            immutable: false,
        };
        if tempfile::tempfile_in(folder).is_ok() {
            let status = Command::new("chattr").arg("+i").arg(folder).status();
            guard.immutable = status.as_ref().is_ok_and(|s| s.success());
            assert!(
                guard.immutable,
                "cannot make a read-only folder here: permission bits do not stop this user \
                 (root) and `chattr +i` failed ({status:?})"
            );
            assert!(
                tempfile::tempfile_in(folder).is_err(),
                "chattr +i did not stop writes"
            );
        }
        guard
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        if self.immutable {
            let _ = Command::new("chattr").arg("-i").arg(&self.folder).status();
        }
        let _ = fs::set_permissions(&self.folder, fs::Permissions::from_mode(0o755));
    }
}

#[test]
fn a_read_only_data_folder_still_lists_every_sheet_and_refuses_writes_in_plain_words() {
    // In the build folder rather than /tmp, which may be a tmpfs without `chattr` support.
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let data = dir.path().join("data");
    let store = Store::open(&data).expect("opens while writable");
    let sheet = seed_sheet(RuleSet::default());
    for name in ["kept", "also-kept"] {
        store.save_sheet(&id(name), &sheet).expect("saves");
    }
    store.save_settings(&settings("ko", 30)).expect("saves");
    let sheets = data.join("sheets");
    let _guard_sheets = ReadOnly::make(&sheets);
    let _guard_data = ReadOnly::make(&data);

    // A second window on the read-only folder: everything loads, nothing is written.
    let reader = Store::open(&data).expect("a read-only folder still opens");
    let Access::ReadOnly(reason) = reader.access() else {
        panic!("{:?}", reader.access());
    };
    assert!(
        matches!(&reason, ReadOnlyReason::NotWritable { dir, .. } if *dir == data),
        "{reason:?}"
    );
    let listing = reader.list_sheets().expect("lists");
    let mut ids: Vec<&str> = listing.sheets.iter().map(|s| s.id.as_str()).collect();
    ids.sort_unstable();
    assert_eq!(ids, ["also-kept", "kept"]);
    assert!(listing.notices.is_empty(), "{:?}", listing.notices);
    assert_eq!(reader.load_settings::<Settings>().value, settings("ko", 30));

    let mut changed = sheet.clone();
    changed.set_final_rule(FinalRule::Wins);
    let err = reader
        .save_sheet(&id("kept"), &changed)
        .expect_err("cannot save");
    assert!(matches!(err, StoreError::ReadOnly(_)), "{err:?}");
    let text = err.to_string();
    assert!(
        text.starts_with(&format!(
            "not saved: the data folder {} cannot be written (",
            data.display()
        )),
        "{text}"
    );
    assert!(
        !text.contains(".probe") && !text.contains(".tmp-"),
        "{text}"
    );
    assert!(matches!(
        reader.save_settings(&settings("en", 1)),
        Err(StoreError::ReadOnly(_))
    ));
    // The store that opened while the folder was writable is refused by the system instead,
    // with the same kind of error naming the folder.
    let err = store
        .save_sheet(&id("kept"), &changed)
        .expect_err("cannot save");
    assert!(matches!(err, StoreError::ReadOnly(_)), "{err:?}");
    assert!(
        err.to_string().contains(&sheets.display().to_string()),
        "{err}"
    );
    assert!(!err.to_string().contains(".tmp-"), "{err}");
    assert_eq!(
        store.load_sheet(&id("kept")).expect("still loads").value,
        sheet
    );
}

#[test]
fn a_data_folder_that_is_a_regular_file_is_named_in_plain_words() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("data");
    fs::write(&file, "x").expect("write");
    let err = Store::open(&file).expect_err("a file is not a folder");
    assert!(matches!(err, StoreError::NotAFolder { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        format!(
            "cannot use the data folder {}: it is a file, not a folder",
            file.display()
        )
    );
    assert_eq!(fs::read_to_string(&file).expect("untouched"), "x");
}

/// Two windows on one data folder: the second opens read-only, says why, shows what the first
/// saved, and cannot overwrite it.
#[test]
fn a_second_store_on_one_folder_is_read_only_and_no_saved_game_is_lost() {
    let dir = tempfile::tempdir().expect("temp dir");
    let first = Store::open(dir.path()).expect("opens");
    assert_eq!(first.access(), Access::Writable);
    let sid = id("evening");
    let mut sheet = seed_sheet(RuleSet::default());
    first.save_sheet(&sid, &sheet).expect("saves");

    let second = Store::open(dir.path()).expect("opens");
    assert_eq!(
        second.access(),
        Access::ReadOnly(ReadOnlyReason::InUse {
            dir: dir.path().to_path_buf()
        })
    );
    let seen = second.load_sheet(&sid).expect("loads").value;
    assert_eq!(seen, sheet);

    // The first window adds a game; the second tries to save its older copy.
    sheet
        .add_game(Game::new(vec![
            Hand::of_value(0),
            Hand::of_value(3),
            Hand::of_value(5),
            Hand::of_value(7),
        ]))
        .expect("game");
    first.save_sheet(&sid, &sheet).expect("saves");
    let mut stale = seen.clone();
    stale.set_final_rule(FinalRule::Wins);
    for _ in 0..2 {
        let err = second.save_sheet(&sid, &stale).expect_err("read-only");
        assert_eq!(
            err.to_string(),
            format!(
                "not saved: the data folder {} is in use by another window",
                dir.path().display()
            )
        );
    }
    assert_eq!(first.load_sheet(&sid).expect("loads").value, sheet);
    assert_eq!(second.load_sheet(&sid).expect("loads").value, sheet);
    // The second window never touched the first one's temporary or backup files.
    first.save_sheet(&sid, &sheet).expect("still the writer");

    // Once the first window closes, the next one is the writer.
    drop(first);
    drop(second);
    // Another test of this binary may be starting a child process at this moment; the child
    // holds a copy of the lock file's handle until it has exec'd, so allow it a moment.
    let third = (0..100)
        .map(|_| {
            let store = Store::open(dir.path()).expect("opens");
            if !store.access().is_writable() {
                std::thread::sleep(Duration::from_millis(20));
            }
            store
        })
        .find(|s| s.access().is_writable())
        .expect("the lock is free once both windows are closed");
    assert_eq!(third.load_sheet(&sid).expect("loads").value, sheet);
}

/// Without the lock's help (a synced folder, a program that ignores it), a save never
/// overwrites a file that changed on disk since this store read or wrote it.
#[test]
fn a_sheet_changed_on_disk_is_never_overwritten() {
    let (_dir, store) = open_temp();
    let sid = id("shared");
    let sheet = seed_sheet(RuleSet::default());
    store.save_sheet(&sid, &sheet).expect("saves");
    let path = store.sheet_path(&sid);
    // Someone else saves a newer sheet there (valid, different).
    let theirs = {
        let other = tempfile::tempdir().expect("temp dir");
        let elsewhere = Store::open(other.path()).expect("opens");
        let mut theirs = sheet.clone();
        theirs.set_final_rule(FinalRule::Wins);
        elsewhere.save_sheet(&sid, &theirs).expect("saves");
        fs::copy(elsewhere.sheet_path(&sid), &path).expect("copied over");
        theirs
    };
    let mut mine = sheet.clone();
    mine.set_planned_rounds(Some(3)).expect("rounds");
    let err = store.save_sheet(&sid, &mine).expect_err("changed on disk");
    assert!(matches!(err, StoreError::ChangedOnDisk { .. }), "{err:?}");
    assert!(err.to_string().contains("shared.json"), "{err}");
    assert_eq!(store.load_sheet(&sid).expect("loads").value, theirs);
    // Having read it, this store may save over it again (the other copy becomes the backup).
    store.save_sheet(&sid, &mine).expect("saves after reading");
    let backup = fs::read(path.with_extension("json.bak")).expect("backup");
    let envelope: serde_json::Value = serde_json::from_slice(&backup).expect("json");
    let from_backup: Sheet = serde_json::from_value(envelope["sheet"].clone()).expect("sheet");
    assert_eq!(from_backup, theirs);
}

#[test]
fn a_newer_version_sheet_is_kept_aside_and_named_as_such() {
    let (_dir, store) = open_temp();
    let path = store.sheet_path(&id("future"));
    let newer = br#"{"version": 9, "sheet": {"players": ["Ann", "Bo"], "hologram": true}}"#;
    fs::write(&path, newer).expect("write");
    let listing = store.list_sheets().expect("lists");
    assert!(listing.sheets.is_empty());
    let [notice] = listing.notices.as_slice() else {
        panic!("{:?}", listing.notices);
    };
    assert!(notice.is_newer_version(), "{notice:?}");
    assert_eq!(notice.problem(), Some(&FileProblem::Newer(9)));
    let text = notice.to_string();
    assert!(
        text.contains("was made by a newer version of the app (format 9; this one reads up to 1)"),
        "{text}"
    );
    assert!(text.contains("kept aside as"), "{text}");
    assert!(
        !text.contains("damaged") && !text.contains("not valid"),
        "{text}"
    );
    let aside = notice.set_aside_to().expect("set aside");
    assert_eq!(fs::read(aside).expect("kept byte for byte"), newer);
}

#[test]
fn stale_temporary_files_are_removed_at_start_only_by_the_writer() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open(dir.path()).expect("opens");
    store
        .save_sheet(&id("s"), &seed_sheet(RuleSet::default()))
        .expect("saves");
    drop(store);
    let sheets = dir.path().join("sheets");
    let stale = [
        dir.path().join(".tmp-a1b2c3"),
        sheets.join(".tmp-d4e5f6"),
        sheets.join(".probe-x7y8z9"),
    ];
    for file in &stale {
        fs::write(file, "half a save").expect("write");
    }
    let keep = sheets.join("notes.txt");
    fs::write(&keep, "mine").expect("write");

    let writer = Store::open(dir.path()).expect("opens");
    assert!(writer.access().is_writable());
    for file in &stale {
        assert!(!file.exists(), "{} is left over", file.display());
    }
    assert!(keep.exists(), "only the store's own temporary files go");
    // A second store must not delete the writer's temporary files: it may be mid-save.
    let in_flight = sheets.join(".tmp-inflight");
    fs::write(&in_flight, "being written").expect("write");
    let reader = Store::open(dir.path()).expect("opens");
    assert!(!reader.access().is_writable());
    assert!(in_flight.exists());
    assert_eq!(writer.list_sheets().expect("lists").sheets.len(), 1);
}

#[test]
fn the_evening_is_saved_like_the_settings() {
    let (_dir, store) = open_temp();
    assert_eq!(store.evening_path(), store.dir().join("evening.json"));
    let empty = store.load_evening::<Settings>();
    assert_eq!(empty.value, Settings::default());
    assert!(empty.notices.is_empty());
    store.save_evening(&settings("first", 1)).expect("saves");
    store.save_evening(&settings("second", 2)).expect("saves");
    let json: serde_json::Value =
        serde_json::from_slice(&fs::read(store.evening_path()).expect("file")).expect("json");
    assert_eq!(json["version"], 1);
    assert_eq!(json["evening"]["language"], "second");
    let backup: serde_json::Value = serde_json::from_slice(
        &fs::read(store.evening_path().with_extension("json.bak")).expect("backup"),
    )
    .expect("json");
    assert_eq!(backup["evening"]["language"], "first");
    // A damaged evening is set aside and the backup recovers it.
    fs::write(store.evening_path(), "{\"version\": 1, \"evening\"").expect("damage");
    let loaded = store.load_evening::<Settings>();
    assert_eq!(loaded.value, settings("first", 1));
    assert_eq!(loaded.notices.len(), 2, "{:?}", loaded.notices);
    assert!(loaded.notices[0].set_aside_to().is_some());
    assert!(matches!(loaded.notices[1], Notice::Recovered { .. }));
}

// ---- SIGKILL while saving ----

/// When set, this test binary is the child of the kill test: it saves in a loop until killed.
const CHILD_ENV: &str = "RUMMIKUB_KILL_TEST_FOLDER";
const KILLS: usize = 200;
/// What the child prints after each complete save, before the save number.
const SAVED: &str = "kill-test-saved";

/// The sheet after save number `n`: its start time encodes `n`, and its games depend on `n`.
fn nth_sheet(n: i64) -> Sheet {
    let players = Players::new(["Ann", "Bo", "Cy", "Di"]).expect("players");
    let created = t0() + chrono::Duration::seconds(n);
    let mut sheet = Sheet::new(players, Preset::Korean.rules(), None, created).expect("sheet");
    for g in 0..(n % 40) {
        let mut hands: Vec<Hand> = (0..4)
            .map(|p| Hand::of_value(((g * 7 + p * 5 + n) % 50 + 1) as u32))
            .collect();
        hands[(g % 4) as usize] = Hand::of_value(0);
        sheet.add_game(Game::new(hands)).expect("game");
    }
    sheet
}

fn save_number(sheet: &Sheet) -> i64 {
    (sheet.created() - t0()).num_seconds()
}

fn child_saves_until_killed(folder: &Path) {
    // The parent has just closed the folder; a process it is still starting may briefly hold
    // a copy of its lock handle.
    let store = (0..100)
        .map(|_| Store::open(folder).expect("child opens"))
        .find(|s| s.access().is_writable())
        .expect("the child becomes the writer");
    let sid = id("killed");
    let mut n = save_number(&store.load_sheet(&sid).expect("child loads").value);
    for _ in 0..1_000_000 {
        n += 1;
        store.save_sheet(&sid, &nth_sheet(n)).expect("child saves");
        println!("{SAVED} {n}");
    }
}

/// A small xorshift generator: the kill moments only need to be spread out.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[test]
fn sigkill_during_saves_never_loses_a_sheet() {
    if let Some(folder) = std::env::var_os(CHILD_ENV) {
        child_saves_until_killed(Path::new(&folder));
        return;
    }
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let sid = id("killed");
    // The parent only opens the folder between children: one writer at a time.
    Store::open(dir.path())
        .expect("opens")
        .save_sheet(&sid, &nth_sheet(0))
        .expect("first save");
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        | 1;
    let mut rng = Rng(seed);
    let exe = std::env::current_exe().expect("test binary");
    let mut last_saved = 0_i64;
    let mut killed = 0;
    for round in 0..KILLS {
        let mut child = Command::new(&exe)
            .args([
                "--exact",
                "store::sigkill_during_saves_never_loses_a_sheet",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("child starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                // The test harness may print "test … … " on the same line first.
                let number = line.rsplit(SAVED).next().map(str::trim);
                if let Some(n) = number.and_then(|n| n.parse::<i64>().ok()) {
                    let _ = tx.send(n);
                }
            }
        });
        // Let it save at least once, then kill it at a random moment.
        let first = rx.recv_timeout(Duration::from_secs(120));
        std::thread::sleep(Duration::from_micros(rng.below(4000)));
        child.kill().expect("kill");
        let status = child.wait().expect("wait");
        reader.join().expect("reader");
        let first = first.unwrap_or_else(|_| panic!("round {round}: the child never saved"));
        assert_eq!(
            first,
            last_saved + 1,
            "round {round}: child continued from the file"
        );
        last_saved = rx.try_iter().fold(first, i64::max);
        if status.signal() == Some(9) {
            killed += 1;
        }

        // A restart after the crash: the store opens as the writer and tidies up.
        let store = Store::open(dir.path()).expect("opens after the kill");
        assert!(
            store.access().is_writable(),
            "round {round}: the lock died with the child"
        );
        for folder in [dir.path().to_path_buf(), dir.path().join("sheets")] {
            let left = files_with(&folder, ".tmp-");
            assert!(
                left.is_empty(),
                "round {round}: temporary files left: {left:?}"
            );
        }
        let loaded = store
            .load_sheet(&sid)
            .unwrap_or_else(|e| panic!("round {round} (seed {seed}): {e}"));
        assert!(
            loaded.notices.is_empty(),
            "round {round}: {:?}",
            loaded.notices
        );
        let n = save_number(&loaded.value);
        assert!(
            n == last_saved || n == last_saved + 1,
            "round {round} (seed {seed}): file holds save {n}, last reported {last_saved}"
        );
        assert_eq!(loaded.value, nth_sheet(n), "round {round}: complete state");
        // The backup is the previous good save: one behind, or the same when the kill fell
        // between writing the backup and replacing the main file.
        let backup = fs::read(store.sheet_path(&sid).with_extension("json.bak"))
            .unwrap_or_else(|e| panic!("round {round}: no backup ({e})"));
        let envelope: serde_json::Value = serde_json::from_slice(&backup)
            .unwrap_or_else(|e| panic!("round {round}: backup is not JSON ({e})"));
        let from_backup: Sheet = serde_json::from_value(envelope["sheet"].clone())
            .unwrap_or_else(|e| panic!("round {round}: backup is not a sheet ({e})"));
        let b = save_number(&from_backup);
        assert!(
            b == n - 1 || b == n,
            "round {round} (seed {seed}): backup holds save {b}, main file save {n}"
        );
        assert_eq!(from_backup, nth_sheet(b), "round {round}: complete backup");
        last_saved = n;
    }
    assert_eq!(killed, KILLS, "every child was killed by SIGKILL");
    let store = Store::open(dir.path()).expect("opens");
    let listing = store.list_sheets().expect("lists");
    assert_eq!(listing.sheets.len(), 1);
    assert!(listing.notices.is_empty());
}
