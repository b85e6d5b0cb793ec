//! The formats and the season (issue 47):
//!
//! 1. **Seating 100 players by standings** (round 4 of a 100-player German-format night, three
//!    rounds of results in), beside the peer: the same round seated `mixed` (issue 46's
//!    depth-first search for no repeat meeting) on the same event.
//! 2. **A season of 12 events × 100 players**: importing the 12 signed bundles (read the JSON,
//!    check the ed25519 signature, check the event whole, work out its standings, merge), and
//!    the season's standings once imported; beside the peer: only parsing the 12 files as
//!    JSON (`serde_json::Value`), the least any import does.
//!
//! `cargo bench -p rummikub-companion-benches --bench season`

use std::hint::black_box;

use chrono::{TimeZone, Utc};
use criterion::{Criterion, criterion_group, criterion_main};
use rummikub_companion::event::bundle::{self, Venue};
use rummikub_companion::event::season::{Season, SeasonPoints};
use rummikub_companion::event::{Command, Event, EventSetup, Format, SeatingRule};
use rummikub_companion::score::{Game, Hand};

const PLAYERS: usize = 100;

/// A night of `PLAYERS` with `rounds` rounds of results in (4 games a table).
fn night(seed: u64, rounds: usize, seating: SeatingRule) -> Event {
    let mut setup = EventSetup::new("Bench night", seed);
    Format::Germany.apply(&mut setup);
    setup.seating = seating;
    let mut event = Event::new(setup).expect("setup");
    for i in 0..PLAYERS {
        event
            .apply(Command::AddPlayer {
                name: format!("Player {i:03}"),
                club: Some(format!("Club {}", i % 9)),
                division: None,
                id: None,
            })
            .expect("player");
    }
    for r in 0..rounds {
        event.apply(Command::SeatRound).expect("seated");
        let tables = event.rounds().last().expect("a round").tables.clone();
        for table in &tables {
            let players = event.seat_names(table);
            let n = players.len() as u64;
            let games = (0..4u64)
                .map(|g| {
                    let hands = (0..n)
                        .map(|i| {
                            let v =
                                (seed + r as u64 * 31 + g * 7 + i * 13 + u64::from(table.number))
                                    % 40;
                            Hand::of_value(if i == g % n { 0 } else { v as u32 + 1 })
                        })
                        .collect();
                    Game::new(hands)
                })
                .collect();
            event
                .apply(Command::Result {
                    round: None,
                    table: table.number,
                    players,
                    games,
                    correct: false,
                })
                .expect("a result");
        }
    }
    event
}

fn seating(c: &mut Criterion) {
    let mut group = c.benchmark_group("seat_100");
    for rule in [SeatingRule::Standings, SeatingRule::Mixed] {
        let event = night(47, 3, rule);
        group.bench_function(rule.name(), |b| {
            b.iter(|| {
                let mut e = event.clone();
                black_box(e.apply(Command::SeatRound).expect("seated"))
            })
        });
    }
    group.finish();
}

fn season(c: &mut Criterion) {
    let exported = Utc
        .with_ymd_and_hms(2026, 12, 7, 20, 0, 0)
        .single()
        .expect("time");
    let bundles: Vec<String> = (0..12u8)
        .map(|v| {
            let venue = Venue::new(&format!("Venue {v}"), [v + 1; 32]);
            let event = night(u64::from(v) + 1, 3, SeatingRule::Standings);
            bundle::seal(&venue, &format!("2026120{v}-190000"), exported, &event).expect("sealed")
        })
        .collect();
    let bytes: usize = bundles.iter().map(String::len).sum();
    eprintln!("12 bundles, {bytes} bytes in all");
    let mut group = c.benchmark_group("season_12x100");
    group.sample_size(20);
    group.bench_function("parse_only_peer", |b| {
        b.iter(|| {
            for text in &bundles {
                black_box(serde_json::from_str::<serde_json::Value>(text).expect("json"));
            }
        })
    });
    let import = || {
        let mut season = Season::new("Bench", SeasonPoints::Entrants, Some(8)).expect("season");
        for text in &bundles {
            let opened = bundle::open(text).expect("a good bundle");
            season.add(&opened).expect("added");
        }
        season
    };
    group.bench_function("import", |b| b.iter(|| black_box(import())));
    let season = import();
    group.bench_function("standings", |b| b.iter(|| black_box(season.standings())));
    group.finish();
}

criterion_group!(benches, seating, season);
criterion_main!(benches);
