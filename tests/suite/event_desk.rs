//! The window's event desk: its thread writes every event it was given, newest state first, and
//! a window without the folder's lock refuses to change events, in the table's language.

use std::time::Duration;

use chrono::Utc;
use rummikub_companion::evening::event_desk::{DeskError, EventDesk};
use rummikub_companion::event::{Command, EventSetup};
use rummikub_companion::i18n::event::window::desk_error;
use rummikub_companion::lang::Language;
use rummikub_companion::store::Store;

const EIGHT: &str = "A1\nA2\nA3\nA4\nA5\nA6\nA7\nA8\n";

#[test]
fn two_events_changed_in_quick_succession_are_both_written() {
    let data = tempfile::tempdir().expect("temp");
    let store = Store::open(data.path()).expect("store");
    let mut desk = EventDesk::start(Some(store), || {});
    let a = desk
        .create(EventSetup::new("A", 1), EIGHT, Utc::now())
        .expect("A");
    desk.apply(Command::SeatRound).expect("A seats");
    // B is made in the same second: another id, and A's waiting save is not replaced by B's.
    let b = desk
        .create(EventSetup::new("B", 2), EIGHT, Utc::now())
        .expect("B");
    assert_ne!(a, b);
    desk.apply(Command::SeatRound).expect("B seats");
    // Reopening A at once (its save may still wait) gives its newest state, not the file's.
    desk.open_event(&a).expect("A opens");
    let (_, reopened) = desk.open().expect("open");
    assert_eq!(
        reopened.current_round(),
        1,
        "A's seated round, whatever the disk has yet"
    );
    desk.refresh().expect("the folder reads");
    assert!(desk.flush(Duration::from_secs(5)), "listed");
    assert!(
        desk.known().iter().all(|k| k.round == 1),
        "{:?}",
        desk.known()
    );
    assert!(desk.flush(Duration::from_secs(5)), "everything written");
    assert!(!desk.status().unsaved);
    let reader = Store::open_reader(data.path());
    for id in [&a, &b] {
        let event = reader.load_event(id).expect("on disk").value;
        assert_eq!(
            event.current_round(),
            1,
            "{id}: the seated round is on disk"
        );
    }
    // The list reads both back, newest first.
    desk.refresh().expect("the folder reads");
    assert!(desk.flush(Duration::from_secs(5)), "listed");
    let names: Vec<_> = desk.known().iter().map(|k| k.name.clone()).collect();
    assert_eq!(names, [Some("B".to_owned()), Some("A".to_owned())]);
}

#[test]
fn without_the_folder_lock_the_desk_changes_nothing() {
    let data = tempfile::tempdir().expect("temp");
    let first = Store::open(data.path()).expect("the window");
    let second = Store::open(data.path()).expect("a second window");
    assert!(!second.access().is_writable());
    let mut desk = EventDesk::start(Some(second), || {});
    let refused = desk
        .create(EventSetup::new("A", 1), EIGHT, Utc::now())
        .expect_err("read-only");
    assert!(matches!(refused, DeskError::ReadOnly));
    assert!(desk_error(Language::Korean, &refused).contains("데이터 폴더에 쓸 수 없습니다"));
    assert!(desk.open().is_none());
    // A players line the event refuses names its line.
    let mut writer = EventDesk::start(Some(first), || {});
    let refused = writer
        .create(EventSetup::new("A", 1), "Ann\nBo\nann\n", Utc::now())
        .expect_err("a name twice");
    assert_eq!(
        desk_error(Language::English, &refused),
        "players, line 3: \"ann\" is registered already"
    );
    assert!(writer.open().is_none(), "nothing made");
}

/// Regression: a flush returned while an export was still being made (a picture drawn, a
/// dialog open) or being written, so "everything is written" could come before the file (the
/// Event view's standings export test failed so on a loaded machine).
#[test]
fn a_flush_waits_for_an_export_still_being_made_and_written() {
    let data = tempfile::tempdir().expect("temp");
    let store = Store::open(data.path()).expect("store");
    let desk = EventDesk::start(Some(store), || {});
    desk.export_made(
        "slow.png",
        Box::new(|| {
            std::thread::sleep(Duration::from_millis(300));
            Ok(b"\x89PNG slow".to_vec())
        }),
        None,
    );
    assert!(desk.flush(Duration::from_secs(10)), "written in time");
    let written = data.path().join("exports").join("slow.png");
    assert_eq!(
        std::fs::read(&written).expect("the export is there once flushed"),
        b"\x89PNG slow"
    );
    // A picture that cannot be made is given up, and a flush does not wait for it forever.
    desk.export_made(
        "broken.png",
        Box::new(|| Err(std::io::Error::other("no painter"))),
        None,
    );
    assert!(desk.flush(Duration::from_secs(10)));
}

/// The saved events are read off the window's thread (a season of large events took 37 ms, two
/// frames, on the window's thread): the window is asked to repaint when the list is in, a later
/// listing is never replaced by an earlier one finishing after it, and an event just made is
/// listed before its file is written.
#[test]
fn the_list_of_saved_events_is_read_off_the_window_and_the_window_is_told() {
    let data = tempfile::tempdir().expect("temp");
    let store = Store::open(data.path()).expect("store");
    let (told, repaints) = std::sync::mpsc::channel();
    let told = std::sync::Mutex::new(told);
    let mut desk = EventDesk::start(Some(store), move || {
        let _ = told.lock().map(|t| t.send(()));
    });
    let a = desk
        .create(EventSetup::new("A", 1), EIGHT, Utc::now())
        .expect("A");
    assert!(desk.flush(Duration::from_secs(5)));
    while repaints.try_recv().is_ok() {}
    desk.refresh().expect("the folder reads");
    repaints
        .recv_timeout(Duration::from_secs(5))
        .expect("the window is told when the list is in");
    assert!(desk.flush(Duration::from_secs(5)));
    let known = desk.known();
    assert_eq!(known.len(), 1);
    assert_eq!((&known[0].id, known[0].name.as_deref()), (&a, Some("A")));
    // Two listings in a row: the newest stands, with B in it.
    let b = desk
        .create(EventSetup::new("B", 2), EIGHT, Utc::now())
        .expect("B");
    desk.refresh().expect("again");
    desk.refresh().expect("and again");
    assert!(desk.flush(Duration::from_secs(5)));
    let ids: Vec<_> = desk.known().iter().map(|k| k.id.clone()).collect();
    assert_eq!(ids, [b, a]);
}
