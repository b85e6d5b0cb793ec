//! Helpers shared by the integration tests: score sheets, and seeded random racks for the
//! solver tests and the solver benchmark (`benches/solver.rs` includes this file by path).
#![allow(dead_code)]

use chrono::{DateTime, TimeZone, Utc};
use rummikub_companion::rules::RuleSet;
use rummikub_companion::score::{Game, Hand, Players, Sheet};

/// The slowest dense 40-tile XP racks of the solver benchmark's families (seeds 829 and 243
/// banded 8–13, 829 banded 7–12; 20–30 ms each before the Lagrangian ceiling), with the points
/// of their best meld (37 tiles each).
pub const SLOWEST_DENSE_RACKS: [(&str, u32); 3] = [
    (
        "R8 R8 R9 R10 R10 R10 R11 R11 R11 R12 R13 B9 B9 B10 B11 B12 B12 B12 B13 B13 K8 K9 K10 \
         K10 K11 K12 K13 K13 K13 O8 O8 O9 O10 O11 O11 O11 J J J J",
        393,
    ),
    (
        "R8 R8 R9 R9 R10 R11 R12 R13 R13 R13 B8 B9 B10 B10 B10 B11 B13 K8 K8 K9 K9 K10 K11 K12 \
         K12 K13 O8 O8 O9 O10 O11 O11 O11 O12 O13 O13 J J J J",
        396,
    ),
    (
        "R7 R7 R8 R9 R9 R9 R10 R10 R10 R11 R12 B8 B8 B9 B10 B11 B11 B11 B12 B12 K7 K8 K9 K9 K10 \
         K11 K12 K12 K12 O7 O7 O8 O9 O10 O10 O10 J J J J",
        356,
    ),
];

/// A fixed start time.
pub fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2024, 5, 1, 19, 0, 0)
        .single()
        .expect("valid time")
}

/// Seed 002's four games as remaining values (the winner of each went out).
pub const SEED_002_REMAINING: [[u32; 4]; 4] = [
    [0, 5, 16, 3],
    [6, 11, 0, 5],
    [32, 13, 2, 0],
    [0, 14, 16, 19],
];

/// Seed 002's sheet under `rules`, one round planned.
pub fn seed_sheet(rules: RuleSet) -> Sheet {
    let players = Players::new(["루미", "큐브", "퍼니", "알토"]).expect("players");
    let mut sheet = Sheet::new(players, rules, Some(1), t0()).expect("sheet");
    for (i, hands) in SEED_002_REMAINING.iter().enumerate() {
        let game = Game::new(hands.iter().map(|&v| Hand::of_value(v)).collect())
            .at(t0() + chrono::Duration::minutes(15 * (i as i64 + 1)));
        sheet.add_game(game).expect("game");
    }
    sheet
}

/// The path of a test data file.
pub fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

// Seeded random racks.

pub mod club;
pub mod moves_oracle;
pub mod night;
pub mod oracle;
pub mod phones;
pub mod sheets;
pub mod table_oracle;
pub mod tables;

use proptest::prelude::RngExt;
use proptest::test_runner::{RngAlgorithm, TestRng};
use rummikub_companion::tile::{Tile, TileSet};

/// A reproducible random source for `seed`.
pub fn rng(seed: u64) -> TestRng {
    let bytes: Vec<u8> = std::iter::repeat_n(seed.to_le_bytes(), 4)
        .flatten()
        .collect();
    TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
}

/// The first `n` tiles of `pool` after a partial Fisher–Yates shuffle.
fn draw(rng: &mut TestRng, mut pool: Vec<Tile>, n: usize) -> Vec<Tile> {
    let n = n.min(pool.len());
    for i in 0..n {
        let j = rng.random_range(i..pool.len());
        pool.swap(i, j);
    }
    pool.truncate(n);
    pool
}

/// `n` tiles drawn from a full set, as a player would draw them (jokers included).
pub fn rack(rng: &mut TestRng, set: TileSet, n: usize) -> Vec<Tile> {
    draw(rng, set.all_tiles(), n)
}

/// `n` tiles from a full set of which exactly `jokers` are jokers.
pub fn rack_with_jokers(rng: &mut TestRng, set: TileSet, n: usize, jokers: usize) -> Vec<Tile> {
    let numbered: Vec<Tile> = set
        .all_tiles()
        .into_iter()
        .filter(|t| !t.is_joker())
        .collect();
    let mut tiles = draw(rng, numbered, n - jokers);
    tiles.extend(std::iter::repeat_n(Tile::JOKER, jokers));
    // Shuffle again so the jokers are not always last.
    shuffled(rng, tiles)
}

/// The same tiles in a random order.
pub fn shuffled(rng: &mut TestRng, tiles: Vec<Tile>) -> Vec<Tile> {
    let len = tiles.len();
    draw(rng, tiles, len)
}

/// `n` tiles of which exactly `jokers` are jokers and the rest numbered `low..=high`, drawn from
/// a full set: dense racks, where every number has many tiles and runs and groups compete.
pub fn dense_rack(
    rng: &mut TestRng,
    set: TileSet,
    n: usize,
    jokers: usize,
    numbers: std::ops::RangeInclusive<u8>,
) -> Vec<Tile> {
    let numbered: Vec<Tile> = set
        .all_tiles()
        .into_iter()
        .filter(|t| t.number().is_some_and(|x| numbers.contains(&x)))
        .collect();
    let mut tiles = draw(rng, numbered, n - jokers);
    tiles.extend(std::iter::repeat_n(Tile::JOKER, jokers));
    shuffled(rng, tiles)
}
