//! The play's changed sets laid out again so that the fewest tiles move.
//!
//! The sweep ([`super`]) finds what is laid and which sets stay as they were; how the other
//! tiles make up the changed and new sets it leaves to chance, and chance can be silly: "take
//! B9 and the joker from B6 B7 B8 B9 J to start a new set, add B10 to it" where "add B10" is
//! the same play. Here the tiles of the changed and new sets (the *pool*: every table tile
//! of a changed set and every rack tile laid) are laid out again, every one of them, as the
//! arrangement that leaves the most tiles in place (see [`super::moves`]): the same tiles
//! laid, the same sets kept, the same points, the fewest moves.
//!
//! # How
//! Branch and bound over the changed sets before, largest first: each pairs with a valid set
//! drawn from what is left of the pool (the sets that share most with it first), or with
//! none. What is left must always be laid out as valid sets, every tile (asked of the sweep
//! itself, [`super::lay_out`], remembered per pool); a branch that cannot beat the best
//! found, even were each set still to pair to keep all it shares with what is left, is cut.
//! Once every set before has its partner, what is left is laid out by the sweep.
//!
//! # Limits
//! At most [`NODES`] branches, and at most [`STATES`] states in all for the sweeps that lay
//! pools out: the best is most often found in the first branches, and the rest of the search
//! only proves it. Cut short, the search keeps the best it found, never worse than the
//! sweep's own arrangement (on the bench's 400 cases, about one search in eight is cut short;
//! `benches/play.rs`). It is exact in what it searches, not in what it leaves alone: plays that
//! lay other tiles of the same count (or value), or keep other sets as many, are not looked
//! at, and by tiles the points still rank before the moves.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::tile::{Color, FACES, MAX_NUMBER, SetInput, Tile};

use super::{Play, TableSet, group_set, lay_out, moves, run_set};

/// Branches searched at most (see the module's limits).
const NODES: u64 = 20_000;

/// States the sweeps that lay pools out may expand in all (see the module's limits).
const STATES: u64 = 60_000;

type Counts = [u8; FACES];

const JOKER: usize = Tile::JOKER.index();

fn counts(tiles: &[Tile]) -> Counts {
    let mut c = [0; FACES];
    for t in tiles {
        c[t.index()] += 1;
    }
    c
}

fn shared(a: &Counts, b: &Counts) -> u32 {
    a.iter().zip(b).map(|(&x, &y)| u32::from(x.min(y))).sum()
}

fn within(a: &Counts, b: &Counts) -> bool {
    a.iter().zip(b).all(|(x, y)| x <= y)
}

fn face(c: usize, v: u8) -> usize {
    c * usize::from(MAX_NUMBER) + usize::from(v) - 1
}

/// A valid set the pool can make: its tiles, and how to lay it.
struct Candidate {
    counts: Counts,
    set: TableSet,
}

/// Every subset of `0..n` (as bits) of at most `most` members.
fn subsets(n: usize, most: usize) -> Vec<u32> {
    let mut out = vec![0u32];
    let mut last = vec![0u32];
    for _ in 0..most {
        let mut next = Vec::new();
        for &s in &last {
            // Add a member above the highest one (each subset made once).
            let from = 32 - s.leading_zeros() as usize;
            next.extend((from..n).map(|i| s | 1 << i));
        }
        out.extend(&next);
        last = next;
    }
    out
}

/// Every valid set the pool can make, each multiset of tiles once.
fn candidates(pool: &Counts) -> Vec<Candidate> {
    let jokers = pool[JOKER];
    let mut out: Vec<Candidate> = Vec::new();
    let mut seen: HashSet<Counts> = HashSet::new();
    let mut push = |counts: Counts, set: &dyn Fn() -> TableSet| {
        if seen.insert(counts) {
            out.push(Candidate { counts, set: set() });
        }
    };
    for (c, color) in Color::ALL.into_iter().enumerate() {
        let has = |v: u8| pool[face(c, v)] > 0;
        for a in 1..=MAX_NUMBER - 2 {
            for b in a + 2..=MAX_NUMBER {
                let len = usize::from(b - a + 1);
                let missing = (a..=b).filter(|&v| !has(v)).count();
                if missing > usize::from(jokers) || missing == len {
                    continue;
                }
                // Which of the numbers held are laid as jokers too (rarely useful, but a
                // tile may be wanted elsewhere): every choice of at most the jokers left.
                let held: Vec<u8> = (a..=b).filter(|&v| has(v)).collect();
                let spare = (usize::from(jokers) - missing).min(held.len() - 1);
                for as_joker in subsets(held.len(), spare) {
                    let tiles: Vec<Tile> = (a..=b)
                        .map(|v| match held.iter().position(|&h| h == v) {
                            Some(i) if as_joker & (1 << i) == 0 => {
                                Tile::numbered(color, v).unwrap_or(Tile::JOKER)
                            }
                            _ => Tile::JOKER,
                        })
                        .collect();
                    push(counts(&tiles), &|| run_set(color, a, tiles.clone()));
                }
            }
        }
    }
    for v in 1..=MAX_NUMBER {
        for mask in 1u8..16 {
            if (0..4).any(|c| mask & (1 << c) != 0 && pool[face(c, v)] == 0) {
                continue;
            }
            let size = mask.count_ones() as u8;
            for j in 0..=jokers.min(4 - size) {
                if size + j < 3 {
                    continue;
                }
                let set = group_set(v, mask, j);
                push(counts(&set.input.tiles), &|| set.clone());
            }
        }
    }
    out
}

/// Whether every tile of `pool` could be in some valid set of the pool's tiles (a quick
/// test before the sweep's): a numbered tile in a run of three with its neighbours or
/// jokers, or in a group of three with tiles of its number or jokers; jokers only with a
/// numbered tile.
fn coverable(pool: &Counts) -> bool {
    let jokers = pool[JOKER];
    let numbered = pool[..JOKER].iter().any(|&n| n > 0);
    if !numbered {
        return jokers == 0;
    }
    (0..4).all(|c| {
        (1..=MAX_NUMBER).all(|v| {
            if pool[face(c, v)] == 0 {
                return true;
            }
            let has = |n: u8| (1..=MAX_NUMBER).contains(&n) && pool[face(c, n)] > 0;
            let run = (v.saturating_sub(2).max(1)..=v.min(MAX_NUMBER - 2))
                .any(|a| (a..a + 3).filter(|&n| !has(n)).count() <= usize::from(jokers));
            let colours = (0..4).filter(|&d| pool[face(d, v)] > 0).count();
            run || colours + usize::from(jokers) >= 3
        })
    })
}

struct Search<'a> {
    candidates: &'a [Candidate],
    /// The changed sets before, largest first.
    before: Vec<Counts>,
    sizes: Vec<u32>,
    /// Per set before: (tiles shared, candidate), most shared first.
    options: Vec<Vec<(u32, usize)>>,
    /// Whether a pool can be laid out, every tile.
    fits: HashMap<Counts, bool>,
    pick: Vec<Option<usize>>,
    best: u32,
    best_pick: Option<Vec<Option<usize>>>,
    nodes: u64,
    /// States the sweeps have expanded so far.
    states: u64,
    stop: &'a AtomicBool,
    stopped: bool,
}

impl Search<'_> {
    fn fits(&mut self, pool: &Counts) -> bool {
        if !coverable(pool) {
            return false;
        }
        if let Some(&known) = self.fits.get(pool) {
            return known;
        }
        if self.states >= STATES {
            // Out of sweeps: what is not known is not tried.
            return false;
        }
        let Some(fits) = lay_out(pool, self.stop, false, &mut self.states) else {
            self.stopped = true;
            return false;
        };
        let fits = fits.is_some();
        self.fits.insert(*pool, fits);
        fits
    }

    /// The most the sets before from `k` on can still keep in place.
    fn ceiling(&self, k: usize, rest: &Counts) -> u32 {
        self.before[k..]
            .iter()
            .zip(&self.sizes[k..])
            .map(|(b, &size)| size.min(shared(b, rest)))
            .sum()
    }

    fn go(&mut self, k: usize, rest: &mut Counts, stays: u32) {
        if self.stopped || self.nodes >= NODES {
            return;
        }
        if self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        self.nodes += 1;
        if stays + self.ceiling(k, rest) <= self.best || !self.fits(rest) {
            return;
        }
        if k == self.before.len() {
            self.best = stays;
            self.best_pick = Some(self.pick.clone());
            return;
        }
        let after: u32 = self.ceiling(k + 1, rest);
        for o in 0..self.options[k].len() {
            let (share, c) = self.options[k][o];
            if stays + share + after <= self.best {
                break;
            }
            let cand = &self.candidates[c].counts;
            if !within(cand, rest) {
                continue;
            }
            for (r, x) in rest.iter_mut().zip(cand) {
                *r -= x;
            }
            self.pick[k] = Some(c);
            self.go(k + 1, rest, stays + share);
            let cand = &self.candidates[c].counts;
            for (r, x) in rest.iter_mut().zip(cand) {
                *r += x;
            }
        }
        self.pick[k] = None;
        self.go(k + 1, rest, stays);
    }
}

/// `play` (found for `table`) with its changed and new sets laid out again to move the
/// fewest tiles, when that moves fewer; `None` when `stop` was set first.
pub(super) fn fewest_moves(table: &[SetInput], play: Play, stop: &AtomicBool) -> Option<Play> {
    let kept: Vec<usize> = play.table.iter().filter_map(|s| s.kept).collect();
    let region: Vec<&TableSet> = play.table.iter().filter(|s| s.kept.is_none()).collect();
    if region.is_empty() {
        return Some(play);
    }
    let mut pool = [0u8; FACES];
    for set in &region {
        for t in &set.input.tiles {
            pool[t.index()] += 1;
        }
    }
    let mut before: Vec<Counts> = table
        .iter()
        .enumerate()
        .filter(|(i, _)| !kept.contains(i))
        .map(|(_, s)| counts(&s.tiles))
        .collect();
    before.sort_by_key(|b| std::cmp::Reverse(b.iter().map(|&n| u32::from(n)).sum::<u32>()));
    let sizes: Vec<u32> = before
        .iter()
        .map(|b| b.iter().map(|&n| u32::from(n)).sum())
        .collect();
    let region_counts: Vec<Counts> = region.iter().map(|s| counts(&s.input.tiles)).collect();
    let now = moves::most_in_place(&before, &region_counts);
    if now == sizes.iter().sum::<u32>() {
        return Some(play);
    }
    let candidates = candidates(&pool);
    let options = before
        .iter()
        .map(|b| {
            let mut o: Vec<(u32, usize)> = candidates
                .iter()
                .enumerate()
                // Not the set before itself: laid out again as it was it would be a set kept,
                // and the sweep kept the most there are.
                .filter(|(_, c)| c.counts != *b)
                .map(|(i, c)| (shared(b, &c.counts), i))
                .filter(|&(s, _)| s > 0)
                .collect();
            o.sort_by_key(|&(s, i)| (std::cmp::Reverse(s), i));
            o
        })
        .collect();
    let mut search = Search {
        candidates: &candidates,
        pick: vec![None; before.len()],
        before,
        sizes,
        options,
        fits: HashMap::new(),
        best: now,
        best_pick: None,
        nodes: 0,
        states: 0,
        stop,
        stopped: false,
    };
    let mut rest = pool;
    search.go(0, &mut rest, 0);
    if search.stopped {
        return None;
    }
    let Some(pick) = search.best_pick else {
        return Some(play);
    };
    let mut rest = pool;
    let mut sets: Vec<TableSet> = Vec::new();
    for c in pick.into_iter().flatten() {
        for (r, x) in rest.iter_mut().zip(&candidates[c].counts) {
            *r -= x;
        }
        sets.push(candidates[c].set.clone());
    }
    // What is left was laid out in the search: only a stop can refuse it now.
    let others = match lay_out(&rest, stop, true, &mut 0) {
        None => return None,
        Some(None) => return Some(play),
        Some(Some(others)) => others,
    };
    sets.extend(others);
    sets.sort_by_key(|s| {
        let first = s.represented.first().copied().unwrap_or(Tile::JOKER);
        (s.kind, first.number(), first.color())
    });
    let mut again = Play {
        table: play
            .table
            .iter()
            .filter(|s| s.kept.is_some())
            .cloned()
            .collect(),
        ..play.clone()
    };
    again.table.extend(sets);
    Some(again)
}
