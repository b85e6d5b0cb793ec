//! The table solver (`play`) on seeded random tables of 20, 40 and 60 tiles with racks of 14
//! and 25, and on dense XP tables (numbers 4–9, four jokers among table and rack). A per-case
//! pass first times every case on its own (the fastest of three) and prints the median and the worst, of the whole
//! answer and of the time until the most that can be laid is known (`best_play_then`'s report:
//! the question the PyPI peer answers, see `benches/peer/README.md`); criterion then
//! reports the mean over the cases. `PLAY_BENCH_CASES` sets the cases per family (default 20),
//! `PLAY_BENCH_FAMILY` times only the families whose name holds it. Without that filter it
//! first reports how soon a search told to stop gives up.

#[path = "../tests/suite/util/mod.rs"]
mod util;

use std::hint::black_box;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use rummikub_companion::play::{PlayOptions, best_play, best_play_then, best_play_unless};
use rummikub_companion::tile::{SetInput, Tile, TileSet};

use util::tables::{random_rack, random_table};

struct Family {
    name: &'static str,
    tile_set: TileSet,
    table: usize,
    rack: usize,
    numbers: std::ops::RangeInclusive<u8>,
}

const FAMILIES: [Family; 8] = [
    Family {
        name: "table20_rack14",
        tile_set: TileSet::Standard,
        table: 20,
        rack: 14,
        numbers: 1..=13,
    },
    Family {
        name: "table20_rack25",
        tile_set: TileSet::Standard,
        table: 20,
        rack: 25,
        numbers: 1..=13,
    },
    Family {
        name: "table40_rack14",
        tile_set: TileSet::Standard,
        table: 40,
        rack: 14,
        numbers: 1..=13,
    },
    Family {
        name: "table40_rack25",
        tile_set: TileSet::Standard,
        table: 40,
        rack: 25,
        numbers: 1..=13,
    },
    Family {
        name: "table60_rack14",
        tile_set: TileSet::Standard,
        table: 60,
        rack: 14,
        numbers: 1..=13,
    },
    Family {
        name: "table60_rack25",
        tile_set: TileSet::Standard,
        table: 60,
        rack: 25,
        numbers: 1..=13,
    },
    Family {
        name: "xp_dense_table40_rack14",
        tile_set: TileSet::Xp,
        table: 40,
        rack: 14,
        numbers: 4..=9,
    },
    Family {
        name: "xp_dense_table60_rack25",
        tile_set: TileSet::Xp,
        table: 60,
        rack: 25,
        numbers: 4..=9,
    },
];

fn cases(f: &Family, n: usize) -> Vec<(Vec<SetInput>, Vec<Tile>)> {
    (0..n as u64)
        .map(|seed| {
            let mut rng = util::rng(seed * 7919 + f.table as u64);
            let table = random_table(&mut rng, f.tile_set, f.numbers.clone(), 4, f.table);
            let rack = random_rack(&mut rng, f.tile_set, &table, f.numbers.clone(), 4, f.rack);
            (table, rack)
        })
        .collect()
}

fn per_case(c: &mut Criterion) {
    let n: usize = std::env::var("PLAY_BENCH_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let mut group = c.benchmark_group("play");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(300));
    let only = std::env::var("PLAY_BENCH_FAMILY").unwrap_or_default();
    for f in FAMILIES.iter().filter(|f| f.name.contains(only.as_str())) {
        let options = PlayOptions {
            tile_set: f.tile_set,
            ..PlayOptions::default()
        };
        let cases = cases(f, n);
        let mut times: Vec<Duration> = cases
            .iter()
            .map(|(table, rack)| {
                // The fastest of three: on a machine shared with builds, one pass measures
                // the other processes as much as the search.
                (0..3)
                    .map(|_| {
                        let start = Instant::now();
                        let play = best_play(table, rack, &options).expect("a valid table");
                        black_box(play);
                        start.elapsed()
                    })
                    .min()
                    .unwrap_or_default()
            })
            .collect();
        times.sort();
        // What the peer answers (the most rack tiles, no fewest-changes tie-break) is known
        // when `best_play_then` reports it, after its first search; stopped there.
        let mut most: Vec<Duration> = cases
            .iter()
            .map(|(table, rack)| {
                (0..3)
                    .map(|_| {
                        let stop = AtomicBool::new(false);
                        let start = Instant::now();
                        let mut told = None;
                        black_box(best_play_then(table, rack, &options, &stop, &mut |_| {
                            told = Some(start.elapsed());
                            stop.store(true, Ordering::Relaxed);
                        }));
                        told.unwrap_or_else(|| start.elapsed())
                    })
                    .min()
                    .unwrap_or_default()
            })
            .collect();
        most.sort();
        let tiles: usize = cases
            .iter()
            .map(|(t, _)| t.iter().map(|s| s.tiles.len()).sum::<usize>())
            .sum();
        println!(
            "play/{}: {} cases (mean table {} tiles): median {:?}, worst {:?}; the most known after median {:?}, worst {:?}",
            f.name,
            cases.len(),
            tiles / cases.len().max(1),
            times[times.len() / 2],
            times[times.len() - 1],
            most[most.len() / 2],
            most[most.len() - 1]
        );
        let mut i = 0;
        group.bench_function(f.name, |b| {
            b.iter(|| {
                let (table, rack) = &cases[i % cases.len()];
                i += 1;
                black_box(best_play(table, rack, &options).expect("a valid table"))
            })
        });
    }
    group.finish();
}

/// How soon a search told to stop gives up (the window stops the search of a question the
/// texts have moved past): the slowest case of every family (20 cases each), stopped a tenth
/// of its full time in (10 ms at most: timed once on a shared machine, it may have been slow
/// for other reasons), five times; prints the median time from the flag to the search's
/// return.
fn stop_report() {
    let slowest = FAMILIES
        .iter()
        .flat_map(|f| {
            let options = PlayOptions {
                tile_set: f.tile_set,
                ..PlayOptions::default()
            };
            cases(f, 20)
                .into_iter()
                .map(move |(table, rack)| (f.name, options, table, rack))
        })
        .map(|(name, options, table, rack)| {
            let start = Instant::now();
            black_box(best_play(&table, &rack, &options).expect("a valid table"));
            (start.elapsed(), name, options, table, rack)
        })
        .max_by_key(|c| c.0);
    let Some((took, name, options, table, rack)) = slowest else {
        return;
    };
    let into = (took / 10).min(Duration::from_millis(10));
    // Under load the flag can be set after the search has ended (the sleeping thread woke
    // late): such runs say nothing about stopping and are counted apart.
    let mut waits: Vec<Duration> = Vec::new();
    let mut finished = 0;
    for _ in 0..5 {
        let stop = AtomicBool::new(false);
        std::thread::scope(|s| {
            let search = s.spawn(|| best_play_unless(&table, &rack, &options, &stop));
            std::thread::sleep(into);
            let told = Instant::now();
            stop.store(true, Ordering::Relaxed);
            let answer = search.join().expect("the search does not panic");
            match answer {
                None => waits.push(told.elapsed()),
                Some(_) => finished += 1,
            }
        });
    }
    waits.sort();
    println!(
        "play/stop: the slowest case ({name}, {took:?} in full), stopped {into:?} in, gave up {:?} later (median of {}; {finished} ended before the flag)",
        waits.get(waits.len() / 2),
        waits.len()
    );
}

criterion_group!(benches, per_case);

/// `PLAY_BENCH_DUMP=FILE`: write every case as a JSON line (family, table, rack, in the
/// notation `play` reads) for running a peer solver on the same cases, then stop.
fn dump(path: &str) {
    let n: usize = std::env::var("PLAY_BENCH_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let mut out = String::new();
    for f in &FAMILIES {
        for (table, rack) in cases(f, n) {
            let table: Vec<String> = table.iter().map(|s| s.to_string()).collect();
            let rack: Vec<String> = rack.iter().map(|t| t.to_string()).collect();
            let line = serde_json::json!({
                "family": f.name,
                "xp": f.tile_set == TileSet::Xp,
                "table": table,
                "rack": rack,
            });
            out.push_str(&line.to_string());
            out.push('\n');
        }
    }
    std::fs::write(path, out).expect("the dump file is writable");
}

fn main() {
    if let Ok(path) = std::env::var("PLAY_BENCH_DUMP") {
        dump(&path);
        return;
    }
    let testing = std::env::args().any(|a| a == "--test" || a == "--list");
    if !testing && std::env::var("PLAY_BENCH_FAMILY").is_err() {
        stop_report();
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
