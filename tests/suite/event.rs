//! The event engine through the public API, and the event on disk: a round trip with results
//! of every kind (tiles, flags), a bad file set aside and the backup used, and the time to
//! seat 100 players.

use std::time::Instant;

use rummikub_companion::event::seating::Rng;
use rummikub_companion::event::{Command, Event, EventSetup, Outcome, Ranking};
use rummikub_companion::score::{Game, Hand};
use rummikub_companion::store::{EventId, Notice, Store};
use rummikub_companion::tile::parse_rack;

fn event_of(n: usize, seed: u64) -> Event {
    let mut setup = EventSetup::new("Club night", seed);
    setup.games = 2;
    setup.ranking = Ranking::Percent;
    let mut event = Event::new(setup).expect("valid");
    for i in 0..n {
        event
            .apply(Command::AddPlayer {
                name: format!("Player {i}"),
                club: (i % 3 == 0).then(|| "Seoul".to_owned()),
            })
            .expect("new name");
    }
    event
}

/// Every table of the current round plays: one goes out, one keeps tiles, one had not melded.
fn play_round(event: &mut Event, rng: &mut Rng) {
    let round = event.rounds().last().expect("round").clone();
    for table in &round.tables {
        let names = event.seat_names(table);
        let games = (0..event.setup().games)
            .map(|_| {
                let out = rng.below(names.len() as u64) as usize;
                Game::new(
                    (0..names.len())
                        .map(|i| match (i == out, (i + out) % 3) {
                            (true, _) => Hand::of_value(0),
                            (false, 0) => Hand::of_tiles(parse_rack("R5 K7 J").expect("tiles")),
                            (false, 1) => Hand::of_value(20).without_meld(),
                            _ => Hand::of_value(1 + rng.below(40) as u32),
                        })
                        .collect(),
                )
            })
            .collect();
        event
            .apply(Command::Result {
                round: None,
                table: table.number,
                players: names,
                games,
                correct: false,
            })
            .expect("valid result");
    }
}

#[test]
fn event_round_trips_through_the_store_with_its_log() {
    let dir = tempfile::tempdir().expect("temp");
    let store = Store::open(dir.path()).expect("opens");
    let mut event = event_of(13, 42);
    let mut rng = Rng::new(1);
    for _ in 0..2 {
        event.apply(Command::SeatRound).expect("13 sit");
        play_round(&mut event, &mut rng);
    }
    let names = event.seat_names(&event.rounds()[0].tables[0]);
    let games = event.rounds()[0].tables[0].results[0].games.clone();
    event
        .apply(Command::Result {
            round: Some(1),
            table: 1,
            players: names,
            games,
            correct: true,
        })
        .expect("a correction");
    let id = store.new_event_id(chrono::Utc::now());
    store.save_event(&id, &event).expect("saved");
    drop(store);
    let store = Store::open(dir.path()).expect("opens again");
    let loaded = store.load_event(&id).expect("loads");
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    assert_eq!(loaded.value, event);
    assert_eq!(loaded.value.standings(), event.standings());
    assert_eq!(store.latest_event().expect("lists"), Some(id));
}

#[test]
fn an_unreadable_event_is_set_aside_and_the_backup_used() {
    let dir = tempfile::tempdir().expect("temp");
    let store = Store::open(dir.path()).expect("opens");
    let id = EventId::new("night").expect("id");
    let mut event = event_of(8, 3);
    store.save_event(&id, &event).expect("first save");
    event.apply(Command::SeatRound).expect("sit");
    store.save_event(&id, &event).expect("second save");
    drop(store);
    let file = dir.path().join("events/night.json");
    std::fs::write(&file, b"{\"version\": 1, \"event\": ").expect("break it");
    let store = Store::open(dir.path()).expect("opens");
    let loaded = store.load_event(&id).expect("the backup");
    // The backup is the copy before the second save: no round yet.
    assert!(loaded.value.rounds().is_empty());
    assert!(
        loaded
            .notices
            .iter()
            .any(|n| matches!(n, Notice::SetAside { .. })),
        "{:?}",
        loaded.notices
    );
    let aside: Vec<_> = std::fs::read_dir(dir.path().join("events"))
        .expect("folder")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains(".corrupt-"))
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(
        std::fs::read(aside[0].path()).expect("kept"),
        b"{\"version\": 1, \"event\": "
    );
}

#[test]
fn a_bad_event_id_is_refused() {
    assert!(EventId::new("../../etc/passwd").is_err());
    assert!(EventId::new("").is_err());
}

/// Seating 100 players: the budget is 100 ms (measured here in whatever profile the
/// tests run; the assertion is generous for a debug build on a shared machine).
#[test]
fn seating_100_players_over_five_rounds_is_fast_and_repeats_nothing() {
    let mut event = event_of(100, 7);
    let mut rng = Rng::new(7);
    let mut slowest = std::time::Duration::ZERO;
    for _ in 0..5 {
        let start = Instant::now();
        let outcome = event.apply(Command::SeatRound).expect("100 sit");
        slowest = slowest.max(start.elapsed());
        assert!(matches!(outcome, Outcome::Seated { repeats: 0, .. }));
        play_round(&mut event, &mut rng);
    }
    eprintln!("seating 100 players: slowest round {slowest:?}");
    assert!(slowest.as_millis() < 1000, "{slowest:?}");
}
