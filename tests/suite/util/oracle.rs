//! Brute force for checking the solver: every sub-multiset of the rack that is a valid set,
//! then every way to pack them, keeping every (tiles, points) pair some packing reaches.
//! Obviously correct rather than fast; shared by `tests/suite/solver.rs` and the solver benchmark.
//!
//! [`Oracle::reaches`] asks a narrower question of the same candidates ("does some packing lay
//! at least this much?") and cuts every branch that cannot get there, which makes it quick
//! when the answer is near the rack's best; it proves a claimed best on racks far too big for
//! [`Oracle::outcomes`].

use std::collections::{BTreeSet, HashMap, HashSet};
use std::rc::Rc;

use rummikub_companion::tile::{Color, Tile};

/// The best value of `tiles` as one set, straight from the rules: a group is one number in
/// distinct colours, 3–4 tiles; a run is one colour, distinct numbers, 3–13 tiles laid from
/// some start within 1–13 so that it covers every number held. Jokers fill the rest.
pub fn set_value(tiles: &[Tile]) -> Option<u32> {
    let size = tiles.len() as u32;
    let numbered: Vec<(Color, u32)> = tiles
        .iter()
        .filter_map(|t| Some((t.color()?, u32::from(t.number()?))))
        .collect();
    if !(3..=13).contains(&size) || numbered.is_empty() {
        return None;
    }
    let colors: BTreeSet<Color> = numbered.iter().map(|&(c, _)| c).collect();
    let numbers: BTreeSet<u32> = numbered.iter().map(|&(_, n)| n).collect();
    let mut best = None;
    if size <= 4 && numbers.len() == 1 && colors.len() == numbered.len() {
        best = Some(numbered[0].1 * size);
    }
    if colors.len() == 1 && numbers.len() == numbered.len() {
        let low = *numbers.first().expect("one number at least");
        let high = *numbers.last().expect("one number at least");
        for start in 1..=low {
            let end = start + size - 1;
            if end <= 13 && end >= high {
                best = best.max(Some((start..=end).sum()));
            }
        }
    }
    best
}

/// A valid set as counts over the rack's distinct faces.
struct Candidate {
    take: Vec<u8>,
    tiles: u32,
    points: u32,
}

pub struct Oracle {
    /// The rack's distinct faces, in order.
    faces: Vec<Tile>,
    counts: Vec<u8>,
    /// Candidates indexed by their lowest face.
    by_first: Vec<Vec<Candidate>>,
    memo: HashMap<Vec<u8>, Rc<BTreeSet<(u32, u32)>>>,
}

impl Oracle {
    pub fn new(rack: &[Tile]) -> Oracle {
        let faces: Vec<Tile> = rack
            .iter()
            .copied()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let counts: Vec<u8> = faces
            .iter()
            .map(|f| rack.iter().filter(|t| *t == f).count() as u8)
            .collect();
        let mut by_first: Vec<Vec<Candidate>> = faces.iter().map(|_| Vec::new()).collect();
        let mut take = vec![0; faces.len()];
        every_subset(&faces, &counts, 0, &mut take, &mut |take| {
            let tiles: Vec<Tile> = faces
                .iter()
                .zip(take)
                .flat_map(|(&f, &n)| std::iter::repeat_n(f, n.into()))
                .collect();
            if let Some(points) = set_value(&tiles) {
                let first = take.iter().position(|&n| n > 0).expect("non-empty");
                by_first[first].push(Candidate {
                    take: take.to_vec(),
                    tiles: tiles.len() as u32,
                    points,
                });
            }
        });
        Oracle {
            faces,
            counts,
            by_first,
            memo: HashMap::new(),
        }
    }

    /// Every (tiles, points) reachable from the whole rack.
    pub fn outcomes(&mut self) -> Rc<BTreeSet<(u32, u32)>> {
        let counts = self.counts.clone();
        self.reachable(&counts)
    }

    /// The first remaining tile is either left on the rack or in a set with the tiles after it.
    fn reachable(&mut self, remaining: &[u8]) -> Rc<BTreeSet<(u32, u32)>> {
        if let Some(found) = self.memo.get(remaining) {
            return Rc::clone(found);
        }
        let mut out = BTreeSet::new();
        match remaining.iter().position(|&n| n > 0) {
            None => {
                out.insert((0, 0));
            }
            Some(first) => {
                let mut rest = remaining.to_vec();
                rest[first] -= 1;
                out.extend(self.reachable(&rest).iter().copied());
                let fitting: Vec<(Vec<u8>, u32, u32)> = self.by_first[first]
                    .iter()
                    .filter(|c| c.take.iter().zip(remaining).all(|(t, r)| t <= r))
                    .map(|c| {
                        let rest = remaining.iter().zip(&c.take).map(|(r, t)| r - t).collect();
                        (rest, c.tiles, c.points)
                    })
                    .collect();
                for (rest, tiles, points) in fitting {
                    let after = self.reachable(&rest);
                    out.extend(after.iter().map(|&(t, p)| (t + tiles, p + points)));
                }
            }
        }
        let out = Rc::new(out);
        self.memo.insert(remaining.to_vec(), Rc::clone(&out));
        out
    }
}

impl Oracle {
    /// Whether some packing lays at least `points` points and at least `tiles` tiles.
    pub fn reaches(&self, points: u32, tiles: u32) -> bool {
        let mut failed = HashSet::new();
        self.search(&self.counts, points, tiles, &mut failed)
    }

    /// At most what `remaining` can lay, as (points, tiles): every numbered tile, and the
    /// jokers as high as they can stand. A joker above the highest numbered tile `h` of its
    /// set is in a run, above it only jokers: they stand for `h + 1`, `h + 2`, … in turn, and
    /// the others for at most `h`. So over all sets the `i`-th joker is worth at most
    /// `min(13, high + i)`, `high` being the highest numbered tile left.
    fn ceiling(&self, remaining: &[u8]) -> (u32, u32) {
        let (mut points, mut tiles, mut high, mut jokers) = (0, 0, 0, 0);
        for (face, &n) in self.faces.iter().zip(remaining) {
            let n = u32::from(n);
            match face.number().map(u32::from) {
                Some(x) => {
                    points += x * n;
                    tiles += n;
                    if n > 0 {
                        high = high.max(x);
                    }
                }
                None => jokers += n,
            }
        }
        if high == 0 {
            // Jokers alone make no set.
            return (points, tiles);
        }
        let joker_points: u32 = (1..=jokers).map(|i| (high + i).min(13)).sum();
        (points + joker_points, tiles + jokers)
    }

    /// Depth first over the same choices as [`Self::reachable`], giving up on a branch as soon
    /// as its ceiling falls short; `failed` remembers what a remaining rack cannot reach.
    fn search(
        &self,
        remaining: &[u8],
        points: u32,
        tiles: u32,
        failed: &mut HashSet<(Vec<u8>, u32, u32)>,
    ) -> bool {
        if points == 0 && tiles == 0 {
            return true;
        }
        let (most_points, most_tiles) = self.ceiling(remaining);
        if most_points < points || most_tiles < tiles {
            return false;
        }
        let key = (remaining.to_vec(), points, tiles);
        if failed.contains(&key) {
            return false;
        }
        let Some(first) = remaining.iter().position(|&n| n > 0) else {
            return false;
        };
        let mut rest = remaining.to_vec();
        rest[first] -= 1;
        if self.search(&rest, points, tiles, failed) {
            return true;
        }
        for c in &self.by_first[first] {
            if c.take.iter().zip(remaining).all(|(t, r)| t <= r) {
                let rest: Vec<u8> = remaining.iter().zip(&c.take).map(|(r, t)| r - t).collect();
                let more_points = points.saturating_sub(c.points);
                let more_tiles = tiles.saturating_sub(c.tiles);
                if self.search(&rest, more_points, more_tiles, failed) {
                    return true;
                }
            }
        }
        failed.insert(key);
        false
    }
}

/// Calls `f` with every sub-multiset of size 3–13 whose numbered tiles share a colour or a
/// number (no other multiset can be a set).
fn every_subset(
    faces: &[Tile],
    counts: &[u8],
    i: usize,
    take: &mut Vec<u8>,
    f: &mut dyn FnMut(&[u8]),
) {
    let chosen: Vec<Tile> = faces
        .iter()
        .zip(take.iter())
        .filter(|&(t, &n)| n > 0 && !t.is_joker())
        .map(|(&t, _)| t)
        .collect();
    let same_color = chosen.iter().all(|t| t.color() == chosen[0].color());
    let same_number = chosen.iter().all(|t| t.number() == chosen[0].number());
    let size: u8 = take.iter().sum();
    if !chosen.is_empty() && !same_color && !same_number || size > 13 {
        return;
    }
    if i == faces.len() {
        if size >= 3 {
            f(take);
        }
        return;
    }
    for n in 0..=counts[i] {
        take[i] = n;
        every_subset(faces, counts, i + 1, take, f);
    }
    take[i] = 0;
}

/// Points objective: most points, then most tiles, as (points, tiles).
pub fn by_points(outcomes: &BTreeSet<(u32, u32)>) -> (u32, u32) {
    outcomes
        .iter()
        .map(|&(t, p)| (p, t))
        .max()
        .unwrap_or((0, 0))
}

/// Tiles objective: most tiles among outcomes reaching `threshold`, then most points, as
/// (tiles, points); `None` when nothing reaches it.
pub fn by_tiles(outcomes: &BTreeSet<(u32, u32)>, threshold: u32) -> Option<(u32, u32)> {
    outcomes
        .iter()
        // Laying nothing is no meld, even at threshold 0.
        .filter(|&&(t, p)| t > 0 && p >= threshold)
        .max()
        .copied()
}
