//! Seeded random valid tables and racks for the table solver's tests and benchmark.

use proptest::prelude::RngExt;
use proptest::test_runner::TestRng;

use rummikub_companion::meld::read_set;
use rummikub_companion::tile::{Color, FACES, SetInput, Tile, TileSet};

/// A random valid table: runs and groups with numbers in `numbers`, colours among the first
/// `colours`, at most `max_tiles` tiles, jokers in some sets, within the set's supply.
pub fn random_table(
    rng: &mut TestRng,
    set: TileSet,
    numbers: std::ops::RangeInclusive<u8>,
    colours: usize,
    max_tiles: usize,
) -> Vec<SetInput> {
    let mut left = [0u8; FACES];
    for t in set.all_tiles() {
        left[t.index()] += 1;
    }
    let mut table = Vec::new();
    let mut size = 0;
    for _ in 0..200 {
        let mut tiles: Vec<Tile> = if rng.random_range(0..2) == 0 {
            let c = Color::ALL[rng.random_range(0..colours)];
            let len = rng.random_range(3..=5u8);
            let low = *numbers.start();
            let high = numbers.end().saturating_sub(len - 1).max(low);
            let start = rng.random_range(low..=high);
            (start..start + len)
                .filter_map(|n| Tile::numbered(c, n))
                .collect()
        } else {
            let n = rng.random_range(numbers.clone());
            let mut cs: Vec<Color> = Color::ALL[..colours.max(3)].to_vec();
            while cs.len() > 3 && rng.random_range(0..2) == 0 {
                let i = rng.random_range(0..cs.len());
                cs.remove(i);
            }
            cs.into_iter()
                .filter_map(|c| Tile::numbered(c, n))
                .collect()
        };
        if tiles.len() < 3 {
            continue;
        }
        if rng.random_range(0..4) == 0 {
            let i = rng.random_range(0..tiles.len());
            tiles[i] = Tile::JOKER;
        }
        if size + tiles.len() > max_tiles {
            continue;
        }
        let mut need = [0u8; FACES];
        for t in &tiles {
            need[t.index()] += 1;
        }
        if (0..FACES).any(|f| need[f] > left[f]) {
            continue;
        }
        let input = SetInput {
            declared: None,
            tiles,
        };
        if read_set(&input).is_err() {
            continue;
        }
        for f in 0..FACES {
            left[f] -= need[f];
        }
        size += input.tiles.len();
        table.push(input);
    }
    table
}

/// `n` rack tiles from what the table leaves, numbers in `numbers`, colours among `colours`.
pub fn random_rack(
    rng: &mut TestRng,
    set: TileSet,
    table: &[SetInput],
    numbers: std::ops::RangeInclusive<u8>,
    colours: usize,
    n: usize,
) -> Vec<Tile> {
    let mut pool = set.all_tiles();
    for t in table.iter().flat_map(|s| &s.tiles) {
        if let Some(i) = pool.iter().position(|p| p == t) {
            pool.remove(i);
        }
    }
    pool.retain(|t| {
        t.is_joker()
            || (t.number().is_some_and(|x| numbers.contains(&x))
                && t.color().is_some_and(|c| c.index() < colours))
    });
    let mut rack = Vec::new();
    for _ in 0..n {
        if pool.is_empty() {
            break;
        }
        let i = rng.random_range(0..pool.len());
        rack.push(pool.swap_remove(i));
    }
    rack
}
