//! Seeded random racks, shared by the solver tests and the solver benchmark
//! (`benches/solver.rs` includes this file by path).

#![allow(dead_code)]

pub mod oracle;

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
