//! Solving seeded random racks: 14, 20 and 30 tiles from the standard set, 40-tile XP racks
//! holding all four jokers, and dense 40-tile XP racks with four jokers whose numbers lie in a
//! band of six (3–8, 7–12, 8–13, or a band placed at random): every number then has many tiles,
//! so runs, groups and jokers compete for them, which is the solver's hardest case. Bands near
//! 13 are the hardest of all (the best meld leaves tiles on the rack and jokers cannot all
//! stand at 13), so they have families of their own.
//!
//! Criterion reports the mean time per rack while cycling through many racks. Before that, a
//! per-rack pass times every rack on its own (best of a few runs, to shave off scheduler
//! noise) and prints the median, 99th percentile and worst, which criterion cannot show.
//! Set `SOLVER_BENCH_RACKS` to change the number of racks per size (default 1000), and
//! `SOLVER_BENCH_FAMILY` to report only the sizes whose name holds it (e.g. `XP, 4`).
//! `SOLVER_BENCH_DUMP=FILE` writes those racks as JSON lines (family, tile set, rack in the
//! notation `parse_rack` reads) for running a peer solver on the same racks, then stops.
//!
//! For comparison the report also times the tests' oracle, an exhaustive search over tiles
//! memoised on the remaining rack, on a few racks of 14 and 20 tiles (`SOLVER_BENCH_NO_ORACLE`
//! leaves it out, for comparing two builds quickly).

#[path = "../tests/suite/util/mod.rs"]
mod util;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use proptest::prelude::RngExt;
use rummikub_companion::solver::{Objective, SolveOptions, solve};
use rummikub_companion::tile::{Tile, TileSet};

/// A family of racks to time.
struct Size {
    name: &'static str,
    tile_set: TileSet,
    tiles: usize,
    /// Exactly this many jokers, or `None` for a plain draw from the set.
    jokers: Option<usize>,
    /// Numbers the numbered tiles are drawn from.
    band: Band,
}

/// Where the numbered tiles of a rack come from.
#[derive(Clone, Copy)]
enum Band {
    /// The whole set.
    All,
    /// Numbers `low..=low + 5`.
    Fixed(u8),
    /// Six numbers in a row, placed at random for each rack.
    Moving,
}

const SIZES: [Size; 8] = [
    Size {
        name: "14 tiles",
        tile_set: TileSet::Standard,
        tiles: 14,
        jokers: None,
        band: Band::All,
    },
    Size {
        name: "20 tiles",
        tile_set: TileSet::Standard,
        tiles: 20,
        jokers: None,
        band: Band::All,
    },
    Size {
        name: "30 tiles",
        tile_set: TileSet::Standard,
        tiles: 30,
        jokers: None,
        band: Band::All,
    },
    Size {
        name: "40 tiles XP, 4 jokers",
        tile_set: TileSet::Xp,
        tiles: 40,
        jokers: Some(4),
        band: Band::All,
    },
    Size {
        name: "40 dense XP 3-8, 4 jokers",
        tile_set: TileSet::Xp,
        tiles: 40,
        jokers: Some(4),
        band: Band::Fixed(3),
    },
    Size {
        name: "40 dense XP 7-12, 4 jokers",
        tile_set: TileSet::Xp,
        tiles: 40,
        jokers: Some(4),
        band: Band::Fixed(7),
    },
    Size {
        name: "40 dense XP 8-13, 4 jokers",
        tile_set: TileSet::Xp,
        tiles: 40,
        jokers: Some(4),
        band: Band::Fixed(8),
    },
    Size {
        name: "40 dense XP band, 4 jokers",
        tile_set: TileSet::Xp,
        tiles: 40,
        jokers: Some(4),
        band: Band::Moving,
    },
];

fn racks(size: &Size, count: usize) -> Vec<Vec<Tile>> {
    (0..count as u64)
        .map(|seed| {
            let mut rng = util::rng(1_000_000 + seed);
            let jokers = size.jokers;
            let (set, n) = (size.tile_set, size.tiles);
            let low = match size.band {
                Band::All => None,
                Band::Fixed(low) => Some(low),
                Band::Moving => Some(rng.random_range(1..=8u8)),
            };
            match (low, jokers) {
                (Some(low), j) => util::dense_rack(&mut rng, set, n, j.unwrap_or(0), low..=low + 5),
                (None, Some(j)) => util::rack_with_jokers(&mut rng, set, n, j),
                (None, None) => util::rack(&mut rng, set, n),
            }
        })
        .collect()
}

fn options(size: &Size, objective: Objective) -> SolveOptions {
    SolveOptions {
        tile_set: size.tile_set,
        objective,
        ..SolveOptions::default()
    }
}

fn rack_count() -> usize {
    std::env::var("SOLVER_BENCH_RACKS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000)
}

/// Times each rack alone and prints median, p99 and worst per size and objective.
fn per_rack_report() {
    let count = rack_count();
    println!("per-rack times over {count} seeded racks (best of 3 runs each):");
    let only = std::env::var("SOLVER_BENCH_FAMILY").unwrap_or_default();
    for size in SIZES.iter().filter(|s| s.name.contains(only.as_str())) {
        let racks = racks(size, count);
        for objective in [Objective::Points, Objective::Tiles] {
            let opts = options(size, objective);
            let mut times: Vec<Duration> = racks
                .iter()
                .map(|rack| {
                    (0..3)
                        .map(|_| {
                            let start = Instant::now();
                            let solution = solve(black_box(rack), &opts);
                            let elapsed = start.elapsed();
                            black_box(solution).ok();
                            elapsed
                        })
                        .min()
                        .unwrap_or_default()
                })
                .collect();
            times.sort();
            let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
            println!(
                "  {:<28} {:<7} median {:>9.1?}  p99 {:>9.1?}  worst {:>9.1?}",
                size.name,
                objective.name(),
                at(0.5),
                at(0.99),
                at(1.0)
            );
        }
    }
}

/// Median time of the exhaustive oracle over a few racks of each small size.
fn oracle_report() {
    println!("exhaustive search over tiles (the tests' oracle), for comparison:");
    for tiles in [14, 20] {
        let size = Size {
            name: "",
            tile_set: TileSet::Standard,
            tiles,
            jokers: None,
            band: Band::All,
        };
        let mut times: Vec<Duration> = racks(&size, 50)
            .iter()
            .map(|rack| {
                let start = Instant::now();
                black_box(util::oracle::Oracle::new(rack).outcomes());
                start.elapsed()
            })
            .collect();
        times.sort();
        println!("  {tiles} tiles  median {:>9.1?}", times[times.len() / 2]);
    }
}

fn bench(c: &mut Criterion) {
    for size in &SIZES {
        let racks = racks(size, 256);
        for objective in [Objective::Points, Objective::Tiles] {
            let opts = options(size, objective);
            let mut next = 0;
            let name = format!("solve {} ({})", size.name, objective.name());
            c.bench_function(&name, |b| {
                b.iter(|| {
                    next = (next + 1) % racks.len();
                    solve(black_box(&racks[next]), &opts)
                })
            });
        }
    }
}

/// The rack from issue 14 that took 200–270 ms before the search was bounded.
const ISSUE_14_RACK: &str = "R3 R4 R5 K4 R7 J R3 O7 O8 B6 K4 O4 J J J K6 K6 K5 B5 R6 O6 B3 K3 R8 \
    B6 B7 O3 O5 B4 O5 O5 K5 R5 O6 B5 K6 R6 B4 B7 O4";

/// The slowest rack banded near 13 in a scan of 32,000 (27–29 ms before dominance and
/// look-ahead ceilings, since replaced by the Lagrangian ceiling).
const NEAR_13_RACK: &str = "O12 J B11 B8 R11 K7 J O8 K8 B7 B12 B9 O7 R10 K8 O8 B11 K9 R9 B9 B7 \
    R11 B10 O12 R9 K10 R8 B11 R10 J B10 R11 K10 B9 J K9 O8 O12 O9 K9";

fn bench_issue_rack(c: &mut Criterion) {
    for (label, text) in [
        ("dense rack", ISSUE_14_RACK),
        ("rack near 13", NEAR_13_RACK),
        ("slowest 8-13 rack", util::SLOWEST_DENSE_RACKS[0].0),
        ("second slowest 8-13 rack", util::SLOWEST_DENSE_RACKS[1].0),
        ("slowest 7-12 rack", util::SLOWEST_DENSE_RACKS[2].0),
    ] {
        let rack = rummikub_companion::tile::parse_rack(text).expect("the rack parses");
        for objective in [Objective::Points, Objective::Tiles] {
            let opts = SolveOptions {
                tile_set: TileSet::Xp,
                objective,
                ..SolveOptions::default()
            };
            let name = format!("solve issue 14 {label} ({})", objective.name());
            c.bench_function(&name, |b| b.iter(|| solve(black_box(&rack), &opts)));
        }
    }
}

criterion_group!(benches, bench, bench_issue_rack);

/// `SOLVER_BENCH_DUMP=FILE`: write the per-rack report's racks as JSON lines, then stop.
fn dump(path: &str) {
    let count = rack_count();
    let mut out = String::new();
    for size in &SIZES {
        for rack in racks(size, count) {
            let rack: Vec<String> = rack.iter().map(|t| t.to_string()).collect();
            let line = serde_json::json!({
                "family": size.name,
                "xp": size.tile_set == TileSet::Xp,
                "rack": rack,
            });
            out.push_str(&line.to_string());
            out.push('\n');
        }
    }
    std::fs::write(path, out).expect("the dump file is writable");
}

fn main() {
    if let Ok(path) = std::env::var("SOLVER_BENCH_DUMP") {
        dump(&path);
        return;
    }
    let testing = std::env::args().any(|a| a == "--test" || a == "--list");
    if !testing {
        per_rack_report();
        if std::env::var_os("SOLVER_BENCH_NO_ORACLE").is_none() {
            oracle_report();
        }
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
