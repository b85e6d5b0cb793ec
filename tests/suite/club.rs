//! The club night's owner without any window: events made and listed off the caller's thread,
//! exports waited for, one owner per folder, and — over random sequences of commands from the
//! organiser, the seats' phones and a stranger — one copy of the event (what the owner holds is
//! what is on disk), nothing the tables were told is saved lost across a restart, and every
//! seat acted for only from its own phone.

use std::time::Duration;

use proptest::prelude::*;
use rummikub_companion::club::{ClubCommand, ClubRefusal, ClubShared, Did, words};
use rummikub_companion::event::live::{Actor, TableCommand, TableDone, TableRefusal};
use rummikub_companion::event::{Command, EventSetup};
use rummikub_companion::lang::Language;
use rummikub_companion::score::Hand;
use rummikub_companion::store::{EventId, HolderKind, Store};

use crate::util::club::owner;

const EIGHT: &str = "A1\nA2\nA3\nA4\nA5\nA6\nA7\nA8\n";

fn create(club: &ClubShared, name: &str, seed: u64, open: bool) -> EventId {
    let done = club
        .apply(ClubCommand::Create {
            setup: Box::new(EventSetup::new(name, seed)),
            players: EIGHT.into(),
            open,
        })
        .expect("made");
    match done.did {
        Did::Created(id) => id,
        other => panic!("{other:?}"),
    }
}

#[test]
fn two_events_changed_in_quick_succession_are_both_written_and_listed() {
    let data = tempfile::tempdir().expect("temp");
    let club = owner(data.path(), HolderKind::Window);
    let a = create(&club, "A", 1, true);
    club.apply(ClubCommand::Event(Command::SeatRound))
        .expect("A seats");
    // B is made in the same second: another id, and A's waiting save is not replaced by B's.
    let b = create(&club, "B", 2, true);
    assert_ne!(a, b);
    club.apply(ClubCommand::Event(Command::SeatRound))
        .expect("B seats");
    club.apply(ClubCommand::Open(a.clone())).expect("A opens");
    let reopened = club.lock().open_event().map(|(_, e)| e.current_round());
    assert_eq!(reopened, Some(1), "A's seated round");
    assert!(club.flush(Duration::from_secs(5)), "everything written");
    assert!(!club.lock().saving().unsaved);
    let reader = Store::open_reader(data.path());
    for id in [&a, &b] {
        let event = reader.load_event(id).expect("on disk").event;
        assert_eq!(
            event.current_round(),
            1,
            "{id}: the seated round is on disk"
        );
    }
    club.apply(ClubCommand::Refresh).expect("the folder reads");
    assert!(club.flush(Duration::from_secs(5)), "listed");
    let names: Vec<_> = club.lock().known().iter().map(|k| k.name.clone()).collect();
    assert_eq!(names, [Some("B".to_owned()), Some("A".to_owned())]);
}

#[test]
fn a_players_line_the_event_refuses_names_its_line_and_nothing_is_made() {
    let data = tempfile::tempdir().expect("temp");
    let club = owner(data.path(), HolderKind::Window);
    let refused = club
        .apply(ClubCommand::Create {
            setup: Box::new(EventSetup::new("A", 1)),
            players: "Ann\nBo\nann\n".into(),
            open: true,
        })
        .expect_err("a name twice");
    assert_eq!(
        words::refusal(Language::English, &refused, &[]),
        "players, line 3: \"ann\" is registered already"
    );
    assert!(club.lock().open_event().is_none(), "nothing made");
    assert!(
        Store::open_reader(data.path())
            .list_events()
            .expect("lists")
            .is_empty()
    );
}

/// One host per folder: a second owner is refused at once, in the organiser's language,
/// naming who holds it; a command line owner waits for a moment, then says the same.
#[test]
fn a_second_owner_of_the_folder_is_refused_naming_the_holder() {
    let data = tempfile::tempdir().expect("temp");
    let first = owner(data.path(), HolderKind::Window);
    let id = create(&first, "A", 1, true);
    let second = owner(data.path(), HolderKind::Serve);
    let refused = second
        .apply(ClubCommand::Open(id.clone()))
        .expect_err("held");
    let ClubRefusal::Held(Some(holder)) = &refused else {
        panic!("{refused:?}");
    };
    assert_eq!(holder.kind, HolderKind::Window);
    assert!(
        holder.control.is_some(),
        "a host takes the command line's commands"
    );
    assert!(
        words::refusal(Language::Korean, &refused, &[]).contains("앱 창"),
        "{}",
        words::refusal(Language::Korean, &refused, &[])
    );
    // Closed in the window: the folder is free again.
    first.apply(ClubCommand::Close).expect("closed");
    second
        .apply(ClubCommand::Open(id))
        .expect("the second owner takes it now");
}

/// Regression: a flush returned while an export was still being made (a picture drawn, a
/// dialog open) or being written, so "everything is written" could come before the file.
#[test]
fn a_flush_waits_for_an_export_still_being_made_and_written() {
    let data = tempfile::tempdir().expect("temp");
    let club = owner(data.path(), HolderKind::Window);
    club.lock().export_made(
        "slow.png",
        Box::new(|| {
            std::thread::sleep(Duration::from_millis(300));
            Ok(b"\x89PNG slow".to_vec())
        }),
        None,
    );
    assert!(club.flush(Duration::from_secs(10)), "written in time");
    let written = data.path().join("exports").join("slow.png");
    assert_eq!(
        std::fs::read(&written).expect("the export is there once flushed"),
        b"\x89PNG slow"
    );
    // A picture that cannot be made is given up, and a flush does not wait for it forever.
    club.lock().export_made(
        "broken.png",
        Box::new(|| Err(std::io::Error::other("no painter"))),
        None,
    );
    assert!(club.flush(Duration::from_secs(10)));
}

/// The saved events are read off the caller's thread, the window is asked to repaint when the
/// list is in, and an event just made is listed before its file is written.
#[test]
fn the_list_of_saved_events_is_read_off_the_window_and_the_window_is_told() {
    let data = tempfile::tempdir().expect("temp");
    let (told, repaints) = std::sync::mpsc::channel();
    let told = std::sync::Mutex::new(told);
    let club = ClubShared::new(rummikub_companion::club::ClubOptions {
        dir: Ok(data.path().to_path_buf()),
        kind: HolderKind::Window,
        lang: Language::English,
        wall: std::sync::Arc::new(chrono::Utc::now),
        repaint: std::sync::Arc::new(move || {
            let _ = told.lock().map(|t| t.send(()));
        }),
    });
    let a = create(&club, "A", 1, true);
    assert!(club.flush(Duration::from_secs(5)));
    while repaints.try_recv().is_ok() {}
    club.apply(ClubCommand::Refresh).expect("the folder reads");
    repaints
        .recv_timeout(Duration::from_secs(5))
        .expect("the window is told when the list is in");
    assert!(club.flush(Duration::from_secs(5)));
    let known = club.lock().known();
    assert_eq!(known.len(), 1);
    assert_eq!((&known[0].id, known[0].name.as_deref()), (&a, Some("A")));
    let b = create(&club, "B", 2, true);
    club.apply(ClubCommand::Refresh).expect("again");
    club.apply(ClubCommand::Refresh).expect("and again");
    assert!(club.flush(Duration::from_secs(5)));
    let ids: Vec<_> = club.lock().known().iter().map(|k| k.id.clone()).collect();
    assert_eq!(ids, [b, a]);
}

/// Who acts in the random sequences.
#[derive(Clone, Debug)]
enum Who {
    /// The phone of table t's seat s (0..4).
    Seat(u32, usize),
    /// A device seated nowhere.
    Stranger,
    /// The organiser.
    Organiser,
}

/// One step of a random night.
#[derive(Clone, Debug)]
enum Step {
    Act(Who, u32, u8),
    Restart,
    NextRound,
}

fn step() -> impl Strategy<Value = Step> {
    let who = prop_oneof![
        8 => (1u32..=2, 0usize..4).prop_map(|(t, s)| Who::Seat(t, s)),
        1 => Just(Who::Stranger),
        1 => Just(Who::Organiser),
    ];
    prop_oneof![
        20 => (who, 1u32..=2, 0u8..12).prop_map(|(w, t, a)| Step::Act(w, t, a)),
        1 => Just(Step::Restart),
        1 => Just(Step::NextRound),
    ]
}

/// The device token of a seat's phone (the stranger's is its own).
fn device(who: &Who) -> Option<String> {
    match who {
        Who::Seat(t, s) => Some(format!("table{t}seat{s}-phone-token-0000000000")),
        Who::Stranger => Some("stranger-device-token-00000000000000".into()),
        Who::Organiser => None,
    }
}

/// A command of kind `a` for the table as it is now.
fn command(club: &ClubShared, table: u32, a: u8) -> TableCommand {
    let live = {
        let club = club.lock();
        club.tables_at_play()
            .and_then(|p| p.tables.get(&table).cloned())
            .unwrap_or_default()
    };
    let view = club.lock().tv_view().unwrap_or_default();
    let t = view.tables.iter().find(|t| t.table == table).cloned();
    let turn = t.as_ref().and_then(|t| t.turn_id).unwrap_or(0);
    let settling = t.and_then(|t| t.settling);
    match a {
        0 => TableCommand::Claim {
            seat: usize::from(a % 4),
        },
        1 => TableCommand::Start,
        2 | 3 => TableCommand::EndTurn { turn },
        4 => TableCommand::GameOver {
            went_out: live.games.len() % 2 == 0,
        },
        5 | 6 => TableCommand::Rack {
            hand: Hand::of_value(u32::from(a) + 2),
        },
        7 | 8 => TableCommand::Confirm {
            game: settling.as_ref().map_or(1, |s| s.game),
            digest: settling.map(|s| s.digest).unwrap_or_default(),
        },
        9 => TableCommand::Withdraw,
        10 => TableCommand::Free { seat: 1 },
        _ => TableCommand::Pause,
    }
}

/// The racks of a table's game being settled, by seat.
fn racks(club: &ClubShared, table: u32) -> Vec<Option<Hand>> {
    club.lock()
        .tables_at_play()
        .and_then(|p| p.tables.get(&table))
        .and_then(|t| t.settling.as_ref())
        .map(|s| s.hands.clone())
        .unwrap_or_default()
}

/// The seats' devices of a table.
fn devices(club: &ClubShared, table: u32) -> Vec<Option<String>> {
    club.lock()
        .tables_at_play()
        .and_then(|p| p.tables.get(&table))
        .map(|t| t.devices.clone())
        .unwrap_or_default()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random nights: phones claim their seats and play, a stranger tries everything, the
    /// organiser frees seats and seats rounds, the host restarts. After every step:
    /// - one copy: the owner's event is the event on disk (flushed), and so are its tables;
    /// - nothing lost: a restarted owner has every game and rack it had;
    /// - a seat acted for only from its own phone: every accepted rack changed only the
    ///   acting phone's own seat, the stranger never changed a seat someone held, and a seat
    ///   taken by one phone is never taken from it by another.
    #[test]
    fn the_owner_keeps_one_copy_loses_nothing_and_seats_act_only_from_their_phone(
        steps in proptest::collection::vec(step(), 10..40),
    ) {
        let data = tempfile::tempdir().expect("temp");
        let mut club = owner(data.path(), HolderKind::Serve);
        let mut setup = EventSetup::new("Random night", 5);
        setup.games = 2;
        let done = club.apply(ClubCommand::Create {
            setup: Box::new(setup),
            players: EIGHT.into(),
            open: true,
        }).expect("made");
        let Did::Created(id) = done.did else { panic!() };
        club.apply(ClubCommand::Event(Command::SeatRound)).expect("seated");
        // Every phone claims its seat first (the stranger may try later).
        for t in 1..=2u32 {
            for s in 0..4usize {
                let key = club.lock().tables_at_play().and_then(|p| p.keys.get(&t).cloned());
                club.apply(ClubCommand::Table {
                    table: t,
                    key,
                    actor: Actor::Device(device(&Who::Seat(t, s)).expect("a phone")),
                    command: TableCommand::Claim { seat: s },
                }).expect("a free seat");
            }
        }
        for step in steps {
            match step {
                Step::Restart => {
                    prop_assert!(club.flush(Duration::from_secs(10)));
                    let before = club.lock().open_event().map(|(_, e)| (**e).clone());
                    let tables = club.lock().tables_at_play().cloned();
                    drop(club);
                    club = owner(data.path(), HolderKind::Serve);
                    club.apply(ClubCommand::Open(id.clone())).expect("opens again");
                    let after = club.lock().open_event().map(|(_, e)| (**e).clone());
                    prop_assert_eq!(after, before, "the event survives a restart");
                    let again = club.lock().tables_at_play().cloned();
                    prop_assert_eq!(
                        again.map(|t| (t.tables, t.keys)),
                        tables.map(|t| (t.tables, t.keys)),
                        "games, racks, seats' phones and keys survive a restart"
                    );
                }
                Step::NextRound => {
                    let _ = club.apply(ClubCommand::Event(Command::SeatRound));
                }
                Step::Act(who, table, a) => {
                    let held_before = devices(&club, table);
                    let racks_before = racks(&club, table);
                    let mut command = command(&club, table, a);
                    if let (Who::Seat(_, s), TableCommand::Claim { .. }) = (&who, &command) {
                        command = TableCommand::Claim { seat: *s };
                    }
                    let key = club.lock().tables_at_play().and_then(|p| p.keys.get(&table).cloned());
                    let actor = match device(&who) {
                        Some(d) => Actor::Device(d),
                        None => Actor::Organiser,
                    };
                    let is_rack = matches!(command, TableCommand::Rack { .. } | TableCommand::Withdraw);
                    let done = club.apply(ClubCommand::Table {
                        table,
                        key,
                        actor: actor.clone(),
                        command,
                    });
                    let held_after = devices(&club, table);
                    // A seat held by one phone is never taken by another.
                    for (seat, (b, a)) in held_before.iter().zip(&held_after).enumerate() {
                        if let (Some(b), Some(a)) = (b, a) {
                            prop_assert!(b == a, "seat {seat} moved from {b} to {a}");
                        }
                    }
                    if let Who::Stranger = who {
                        for (seat, (b, a)) in held_before.iter().zip(&held_after).enumerate() {
                            prop_assert!(
                                b.is_none() || a == b,
                                "the stranger changed held seat {seat}"
                            );
                        }
                    }
                    let rack_entered = matches!(
                        &done,
                        Ok(d) if matches!(&d.did, Did::Table { done: TableDone::RackEntered, .. })
                    );
                    if rack_entered {
                        prop_assert!(is_rack);
                        let Actor::Device(d) = &actor else {
                            return Err(TestCaseError::fail("the organiser entered a rack"));
                        };
                        let own = held_before.iter().position(|h| h.as_deref() == Some(d.as_str()));
                        let after = racks(&club, table);
                        for (seat, (b, a)) in racks_before.iter().zip(&after).enumerate() {
                            if Some(seat) != own {
                                prop_assert_eq!(b, a, "a rack changed at another seat");
                            }
                        }
                    }
                    if let Err(ClubRefusal::Table(TableRefusal::SeatTaken(_))) = &done {
                        prop_assert!(!matches!(who, Who::Organiser));
                    }
                }
            }
            // One copy: what the owner holds is what is on disk.
            prop_assert!(club.flush(Duration::from_secs(10)));
            let reader = Store::open_reader(data.path());
            let on_disk = reader.load_event(&id).expect("on disk");
            prop_assert!(on_disk.damage.is_none());
            let held = club.lock().open_event().map(|(_, e)| (**e).clone());
            prop_assert_eq!(Some(on_disk.event), held);
            let tables = club.lock().tables_at_play().cloned();
            if let Some(tables) = tables.filter(|t| t.round > 0) {
                let kept = reader.load_event_live(&id).expect("the tables file");
                prop_assert_eq!(kept, tables);
            }
        }
    }
}
