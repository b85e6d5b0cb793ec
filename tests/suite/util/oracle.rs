//! Brute force for checking the solver: every sub-multiset of the rack that is a valid set,
//! then every way to pack them, keeping every (tiles, points) pair some packing reaches.
//! Obviously correct rather than fast; shared by `tests/suite/solver.rs` and the solver benchmark.

use std::collections::{BTreeSet, HashMap};
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
        .filter(|&&(_, p)| p >= threshold)
        .max()
        .copied()
}
