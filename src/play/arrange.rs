//! The play's sets laid out again so that the fewest tiles move.
//!
//! The sweep ([`super`]) finds how many rack tiles are laid and how many sets stay as they
//! were; how the other tiles make up the changed and new sets it leaves to chance, and chance
//! can be silly: "take B9 and the joker from B6 B7 B8 B9 J to start a new set, add B10 to it"
//! where "add B10" is the same play. Here the tiles are laid out again as the table that
//! leaves the most tiles in place (see [`super::moves`]), as many laid and as many sets kept:
//! 1. the changed and new sets' tiles alone (the sets kept stay as they are);
//! 2. the whole table's tiles, maybe other sets kept ("keep the run, change the group");
//! 3. by tiles, the whole table and the whole rack, maybe other rack tiles laid: the fewest
//!    moves rank before the most points ("add B8" before "take B9 J out for R9"), and among
//!    equal moves the most points win. By points the rack tiles stay the sweep's.
//!
//! # How
//! Branch and bound over the sets before, largest first: each pairs with a valid set drawn
//! from what is left of the tiles (those that share most with it first; itself, kept as it
//! was, only where as many sets as the sweep's are to be kept), or with none. What is left
//! must always be laid out, every table tile and, in the third search, exactly as many rack
//! tiles as are laid (asked of the sweep itself, [`super::lay_out`], remembered per pool of
//! tiles, after a quick test that each tile has neighbours or tiles of its number to go
//! with); a branch that cannot beat the best found, even were each set still to pair to keep
//! all it shares with what is left, is cut. Once every set before has its partner, what is
//! left is laid out by the sweep.
//!
//! # Limits
//! At most [`NODES`] branches a search, and at most [`STATES`] states in all for the sweeps
//! that lay the tiles out: the best is most often
//! found in the first branches, and the rest of a search proves it. Cut short, a search keeps
//! the best it found, never worse than the table it started from.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::tile::{Color, FACES, MAX_NUMBER, SetInput, Tile};

use crate::meld::read_set;

use super::moves::{self, Counts, counts, shared};
use super::{By, Play, PlayOptions, TableSet, group_set, lay_out, run_set};

/// Branches searched at most (see the module's limits).
const NODES: u64 = 20_000;

/// States the sweeps that lay pools out may expand in all, in each search (see the
/// module's limits).
const STATES: u64 = 15_000;

/// States one sweep may expand to lay a pool out (what it cannot tell by then counts as
/// not laid out): one hard pool does not take the rest.
const ONE_LAY_OUT: u64 = 2_000;

const JOKER: usize = Tile::JOKER.index();

fn within(a: &Counts, b: &Counts) -> bool {
    a.iter().zip(b).all(|(x, y)| x <= y)
}

/// The face index of colour `c`'s `v` (see [`Tile::index`]).
fn face(c: usize, v: u8) -> usize {
    Tile::numbered(Color::ALL[c], v).map_or(JOKER, Tile::index)
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

/// Whether every tile of `must` could be in some valid set of the tiles of `all` (a quick
/// test before the sweep's): a numbered tile in a run of three with its neighbours or
/// jokers, or in a group of three with tiles of its number or jokers; jokers only with a
/// numbered tile.
fn coverable(must: &Counts, all: &Counts) -> bool {
    let jokers = all[JOKER];
    if !all[..JOKER].iter().any(|&n| n > 0) {
        return must[JOKER] == 0;
    }
    (0..4).all(|c| {
        (1..=MAX_NUMBER).all(|v| {
            if must[face(c, v)] == 0 {
                return true;
            }
            let has = |n: u8| (1..=MAX_NUMBER).contains(&n) && all[face(c, n)] > 0;
            let run = (v.saturating_sub(2).max(1)..=v.min(MAX_NUMBER - 2))
                .any(|a| (a..a + 3).filter(|&n| !has(n)).count() <= usize::from(jokers));
            let colours = (0..4).filter(|&d| all[face(d, v)] > 0).count();
            run || colours + usize::from(jokers) >= 3
        })
    })
}

/// The search that also chooses which rack tiles are laid (by tiles): the pool holds the
/// table and the whole rack, and exactly `laid` rack tiles are laid.
#[derive(Clone, Copy)]
struct Choice {
    /// The table's tiles: the pool beyond them is the rack.
    table: Counts,
    laid: u32,
    joker_value: u32,
}

impl Choice {
    /// With `rest` left of `pool`: the tiles that must still be laid (the table's not yet in
    /// a partner), the rack tiles that may be, and how many must; `None` when the partners
    /// hold more rack tiles than are laid. Also the points of the rack tiles the partners
    /// hold.
    fn split(&self, pool: &Counts, rest: &Counts) -> Option<(Counts, Counts, u32, u32)> {
        let (mut must, mut optional) = ([0u8; FACES], [0u8; FACES]);
        let (mut held, mut points) = (0u32, 0u32);
        for f in 0..FACES {
            let used = pool[f] - rest[f];
            let from_rack = used.saturating_sub(self.table[f]);
            held += u32::from(from_rack);
            let value = Tile::from_index(f)
                .and_then(Tile::number)
                .map_or(self.joker_value, u32::from);
            points = points.saturating_add(value.saturating_mul(u32::from(from_rack)));
            must[f] = self.table[f].saturating_sub(used);
            optional[f] = rest[f] - must[f];
        }
        Some((must, optional, self.laid.checked_sub(held)?, points))
    }
}

struct Search<'a> {
    candidates: &'a [Candidate],
    /// The sets before to pair, largest first.
    before: Vec<Counts>,
    sizes: Vec<u32>,
    /// Per set before: (tiles shared, candidate), most shared first (itself first).
    options: Vec<Vec<(u32, usize)>>,
    /// Per set before: the candidate that is the set as it was.
    same: Vec<Option<usize>>,
    /// How many sets before pair with themselves, kept as they were: exactly that many.
    keep: usize,
    /// How many do so far.
    kept: usize,
    /// Per pool left: whether it can be laid out, and the most points its rack tiles then
    /// add (`Some(0)` where no rack tile is chosen).
    fits: HashMap<Counts, Option<u32>>,
    /// The whole pool.
    pool: Counts,
    /// Which rack tiles are laid is chosen too (see [`Choice`]).
    choice: Option<Choice>,
    pick: Vec<Option<usize>>,
    /// The most tiles in place found, with the most points among them, and the most points
    /// any play has (no more is looked for once a table reaches both).
    best: u32,
    best_points: u32,
    most_points: u32,
    best_pick: Option<Vec<Option<usize>>>,
    nodes: u64,
    /// States the sweeps have expanded so far.
    states: u64,
    stop: &'a AtomicBool,
    stopped: bool,
}

impl Search<'_> {
    /// Whether what is left, `rest`, can be laid out, and the most points the rack tiles
    /// laid from it and from the partners add.
    fn lay(&mut self, rest: &Counts) -> Option<u32> {
        let (must, optional, laid, held) = match self.choice {
            None => (*rest, [0; FACES], 0, 0),
            Some(choice) => choice.split(&self.pool, rest)?,
        };
        if !coverable(&must, rest) {
            return None;
        }
        if let Some(&known) = self.fits.get(rest) {
            return known.map(|p| p.saturating_add(held));
        }
        if self.states >= STATES {
            // Out of sweeps: what is not known is not tried.
            return None;
        }
        let joker_value = self.choice.map_or(0, |c| c.joker_value);
        let budget = (STATES - self.states).min(ONE_LAY_OUT);
        let Some(laid_out) = lay_out(
            &must,
            &optional,
            laid,
            joker_value,
            self.stop,
            false,
            budget,
            &mut self.states,
        ) else {
            self.stopped = true;
            return None;
        };
        let points = laid_out.map(|(points, _, _)| points);
        self.fits.insert(*rest, points);
        points.map(|p| p.saturating_add(held))
    }

    /// Whether a branch that keeps at most `top` tiles in place cannot beat the best found.
    fn cut(&self, top: u32) -> bool {
        top < self.best || (top == self.best && self.best_points >= self.most_points)
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
        // As many sets kept as the sweep kept: no fewer (more changed), and more there are not.
        if self.kept > self.keep || self.kept + (self.before.len() - k) < self.keep {
            return;
        }
        if self.cut(stays + self.ceiling(k, rest)) {
            return;
        }
        let Some(points) = self.lay(rest) else {
            return;
        };
        if k == self.before.len() {
            if (stays, points) > (self.best, self.best_points) {
                (self.best, self.best_points) = (stays, points);
                self.best_pick = Some(self.pick.clone());
            }
            return;
        }
        let after: u32 = self.ceiling(k + 1, rest);
        for o in 0..self.options[k].len() {
            let (share, c) = self.options[k][o];
            if self.cut(stays + share + after) {
                break;
            }
            let cand = &self.candidates[c].counts;
            if !within(cand, rest) {
                continue;
            }
            for (r, x) in rest.iter_mut().zip(cand) {
                *r -= x;
            }
            let same = self.same[k] == Some(c);
            self.kept += usize::from(same);
            self.pick[k] = Some(c);
            self.go(k + 1, rest, stays + share);
            self.kept -= usize::from(same);
            let cand = &self.candidates[c].counts;
            for (r, x) in rest.iter_mut().zip(cand) {
                *r += x;
            }
        }
        self.pick[k] = None;
        self.go(k + 1, rest, stays);
    }
}

fn size(c: &Counts) -> u32 {
    c.iter().map(|&n| u32::from(n)).sum()
}

/// The table's sets `before` (their indices) paired each with a valid set of `pool` or
/// with none, `keep` of them with themselves, and what is left of the pool laid out: the
/// table that leaves more than `best` tiles in place and the most (see the module's
/// limits), its kept sets first, `Some(None)` when none does, `None` when `stop` was set.
#[allow(clippy::too_many_arguments)]
fn relay(
    table: &[SetInput],
    before: &[usize],
    pool: &Counts,
    choice: Option<Choice>,
    keep: usize,
    (best, best_points): (u32, u32),
    stop: &AtomicBool,
) -> Option<Option<Relaid>> {
    let mut before: Vec<(usize, Counts)> = before
        .iter()
        .map(|&i| (i, counts(&table[i].tiles)))
        .collect();
    before.sort_by_key(|(i, b)| (std::cmp::Reverse(size(b)), *i));
    let candidates = candidates(pool);
    let same: Vec<Option<usize>> = before
        .iter()
        .map(|(_, b)| candidates.iter().position(|c| c.counts == *b))
        .collect();
    // Per face, the candidates holding it: a set's options are those sharing a face with it.
    let mut by_face: Vec<Vec<usize>> = vec![Vec::new(); FACES];
    for (i, c) in candidates.iter().enumerate() {
        for (f, &n) in c.counts.iter().enumerate() {
            if n > 0 {
                by_face[f].push(i);
            }
        }
    }
    let mut seen = vec![false; candidates.len()];
    let options = before
        .iter()
        .zip(&same)
        .map(|((_, b), &same)| {
            let mut o: Vec<(u32, usize)> = Vec::new();
            for (f, _) in b.iter().enumerate().filter(|&(_, &n)| n > 0) {
                for &i in &by_face[f] {
                    // Itself only where sets are to be kept: else, laid out again as it was,
                    // it would be one more set kept than the sweep found there are.
                    if !std::mem::replace(&mut seen[i], true) && (keep > 0 || Some(i) != same) {
                        o.push((shared(b, &candidates[i].counts), i));
                    }
                }
            }
            for &(_, i) in &o {
                seen[i] = false;
            }
            if let Some(i) = same.filter(|_| keep == 0) {
                seen[i] = false;
            }
            o.sort_by_key(|&(s, i)| (std::cmp::Reverse(s), Some(i) != same, i));
            o
        })
        .collect();
    let mut search = Search {
        candidates: &candidates,
        pick: vec![None; before.len()],
        sizes: before.iter().map(|(_, b)| size(b)).collect(),
        before: before.iter().map(|&(_, b)| b).collect(),
        options,
        same: same.clone(),
        keep,
        kept: 0,
        fits: HashMap::new(),
        pool: *pool,
        choice,
        best,
        best_points,
        most_points: best_points,
        best_pick: None,
        nodes: 0,
        states: 0,
        stop,
        stopped: false,
    };
    // The play itself lays the whole pool out, with the most points there are.
    search
        .fits
        .insert(*pool, Some(if choice.is_some() { best_points } else { 0 }));
    let mut rest = *pool;
    search.go(0, &mut rest, 0);
    if search.stopped {
        return None;
    }
    let Some(pick) = search.best_pick else {
        return Some(None);
    };
    let mut rest = *pool;
    let mut kept: Vec<TableSet> = Vec::new();
    let mut sets: Vec<TableSet> = Vec::new();
    for (k, c) in pick.into_iter().enumerate() {
        let Some(c) = c else { continue };
        for (r, x) in rest.iter_mut().zip(&candidates[c].counts) {
            *r -= x;
        }
        let i = before[k].0;
        match read_set(&table[i]) {
            Ok(reading) if same[k] == Some(c) => kept.push(TableSet {
                input: table[i].clone(),
                kind: reading.kind,
                represented: reading.represented,
                kept: Some(i),
                continues: Some(i),
            }),
            _ => sets.push(candidates[c].set.clone()),
        }
    }
    // What is left was laid out in the search: only a stop can refuse it now.
    let (must, optional, laid, held) = match choice {
        None => (rest, [0; FACES], 0, 0),
        Some(choice) => match choice.split(pool, &rest) {
            Some(split) => split,
            None => return Some(None),
        },
    };
    let joker_value = choice.map_or(0, |c| c.joker_value);
    let (points, others, mut placed) = match lay_out(
        &must,
        &optional,
        laid,
        joker_value,
        stop,
        true,
        u64::MAX,
        &mut 0,
    )? {
        Some(laid_out) => laid_out,
        None => return Some(None),
    };
    sets.extend(others);
    if let Some(choice) = choice {
        for f in 0..FACES {
            let from_rack = (pool[f] - rest[f]).saturating_sub(choice.table[f]);
            if let Some(t) = Tile::from_index(f) {
                placed.extend(std::iter::repeat_n(t, usize::from(from_rack)));
            }
        }
    }
    placed.sort();
    kept.sort_by_key(|s| s.kept);
    sets.sort_by_key(|s| {
        let first = s.represented.first().copied().unwrap_or(Tile::JOKER);
        (s.kind, first.number(), first.color())
    });
    kept.extend(sets);
    Some(Some(Relaid {
        table: kept,
        placed,
        points: points.saturating_add(held),
    }))
}

/// A table laid out again: its sets, kept ones first, and (when the rack tiles were chosen
/// too) the rack tiles it lays and their points.
struct Relaid {
    table: Vec<TableSet>,
    placed: Vec<Tile>,
    points: u32,
}

/// `play` (found for `table` and `rack`) with its sets laid out again to move the fewest
/// tiles, when that moves fewer: first the changed and new sets alone, then the whole table
/// with as many sets kept, then (by tiles) with as many other rack tiles laid; `None` when
/// `stop` was set first.
pub(super) fn fewest_moves(
    table: &[SetInput],
    rack: &[Tile],
    play: Play,
    options: &PlayOptions,
    stop: &AtomicBool,
) -> Option<Play> {
    let kept: Vec<usize> = play.table.iter().filter_map(|s| s.kept).collect();
    let before: Vec<Counts> = table.iter().map(|s| counts(&s.tiles)).collect();
    let in_place = |sets: &[TableSet]| {
        let after: Vec<Counts> = sets.iter().map(|s| counts(&s.input.tiles)).collect();
        moves::most_in_place(&before, &after)
    };
    let plus = |mut pool: Counts, tiles: &mut dyn Iterator<Item = &Tile>| {
        for t in tiles {
            pool[t.index()] += 1;
        }
        pool
    };
    let on_table = plus([0; FACES], &mut table.iter().flat_map(|s| &s.tiles));
    let most = size(&on_table);
    let mut best = in_place(&play.table);
    let mut play = play;
    // The changed and new sets' tiles alone, the kept sets as they are.
    let changed: Vec<usize> = (0..table.len()).filter(|i| !kept.contains(i)).collect();
    let region = plus(
        [0; FACES],
        &mut play
            .table
            .iter()
            .filter(|s| s.kept.is_none())
            .flat_map(|s| &s.input.tiles),
    );
    let kept_tiles = most - changed.iter().map(|&i| size(&before[i])).sum::<u32>();
    if best < most && !changed.is_empty() {
        let incumbent = (best - kept_tiles, 0);
        if let Some(again) = relay(table, &changed, &region, None, 0, incumbent, stop)? {
            let mut all: Vec<TableSet> = play
                .table
                .iter()
                .filter(|s| s.kept.is_some())
                .cloned()
                .collect();
            all.extend(again.table);
            best = in_place(&all);
            play.table = all;
        }
    }
    // The whole table, as many sets kept but maybe others.
    let all: Vec<usize> = (0..table.len()).collect();
    let swap = if best < most && !kept.is_empty() {
        let pool = plus(on_table, &mut play.placed.iter());
        relay(table, &all, &pool, None, kept.len(), (best, 0), stop)?
    } else {
        None
    };
    if let Some(again) = swap {
        best = in_place(&again.table);
        play.table = again.table;
    }
    // By tiles, as many other rack tiles (the points rank after the moves).
    if best < most && options.by == By::Tiles && !play.placed.is_empty() {
        let pool = plus(on_table, &mut rack.iter());
        let choice = Choice {
            table: on_table,
            laid: play.placed.len() as u32,
            joker_value: options.joker_value,
        };
        let incumbent = (best, play.points);
        if let Some(again) = relay(
            table,
            &all,
            &pool,
            Some(choice),
            kept.len(),
            incumbent,
            stop,
        )? {
            play.table = again.table;
            play.placed = again.placed;
            play.points = again.points;
        }
    }
    Some(play)
}
