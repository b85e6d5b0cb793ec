//! A Lagrangian ceiling on what a state of the sweep can still gain: runs colour by colour
//! and groups number by number, solved apart, with a price on every numbered tile so that the
//! two halves together place each tile as often as the table and the rack hold it.
//!
//! Every tile of the table must be placed and a rack tile may be; the runs of a colour, the
//! groups of a number and the sets kept as they were (a run kept is its colour's, a group its
//! number's) are what place them. Drop the one tie between the halves, "the tiles placed of
//! each face are the table's and those laid from the rack", and charge it a price `μ` per
//! tile instead: for any prices, the best of the halves apart, plus what the rack's tiles are
//! worth above their price, less the price of the table's tiles, is at least what any real
//! play gains (a real play places each tile exactly once, and then the prices cancel). Any
//! prices give a true ceiling, computed exactly in integers (prices in 1/1024 of a score
//! unit), so no rounding ever cuts a play; good prices, found by subgradient steps at the
//! start, make it tight. The jokers stay shared: each half is worked out by how many jokers
//! it uses, and the halves combined by max-plus convolution.
//!
//! The runs of one colour are a walk over numbers through the sweep's own open runs (by
//! length and whether each holds a numbered tile), with the colour's table runs that start
//! at a number as options to keep (their tiles then reserved until their end); the groups of
//! one number a choice among the ways its tiles can make groups, with its table groups as
//! options to keep. Both are the sweep's own moves, so every way on the sweep takes is one
//! here too and the ceiling never cuts a better play.

// Prices, slacks and supplies are tables by colour and number walked side by side: indices
// read plainer than zipped iterators there.
#![allow(clippy::needless_range_loop)]

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{KeyHasher, Known, State, group_plan};
use crate::solver::maxplus::{
    MOST_JOKERS, NONE, Values, max_plus, max_plus_exact, possible, split,
};
use crate::tile::MAX_NUMBER;

/// A map with the sweep's own fast hash.
type Map<K, V> = HashMap<K, V, BuildHasherDefault<KeyHasher>>;

/// Units per score unit, so that prices can be fractions of one.
pub(super) const UNIT: i64 = 1 << 10;

/// One way on from a node of a colour's runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Edge {
    next: u32,
    /// Numbered tiles of the number it places in runs.
    reals: u8,
    /// Jokers it places.
    jokers: u8,
}

/// A colour's runs from one number on, with given runs open and given table runs kept.
#[derive(Clone, Copy, Debug)]
struct Node {
    v: u8,
    edges: (u32, u32),
    /// Past 13: whether every open run is a set.
    done: bool,
}

/// Every state of one colour's runs met so far, each made after the nodes it leads to.
#[derive(Default)]
struct Block {
    nodes: Vec<Node>,
    index: Map<u128, u32>,
    edges: Vec<Edge>,
    /// Per node, at the prices: the best by most jokers.
    values: Vec<Values>,
}

/// One way the groups of a number can go: tiles of each colour placed, jokers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct GroupWay {
    placed: [u8; 4],
    jokers: u8,
}

/// A table set that may be kept: its numbered tiles, jokers and lowest number.
#[derive(Clone, Debug)]
struct Keepable {
    low: u8,
    real: Vec<(usize, u8)>,
    jokers: u8,
}

/// A table set as the ceiling sees it when the sweep keeps it: a run reserves its colour's
/// tiles from number to number, a group its number's tiles.
#[derive(Clone, Copy, Debug)]
enum Held {
    /// A run of colour `c`, the `bit`th of its colour's runs, `low..=high`, numbered tiles at
    /// the bits of `real`.
    Run {
        c: usize,
        bit: u32,
        high: u8,
        real: u16,
    },
    /// A group at `v`, numbered tiles of the colours in `colours` (bits).
    Group { v: u8, colours: u8 },
}

/// What the ceiling needs to know of a table and a rack.
pub(super) struct Input<'a> {
    pub on_table: [[u8; 14]; 4],
    pub on_rack: [[u8; 14]; 4],
    pub table_jokers: u8,
    pub rack_jokers: u8,
    /// The table's sets; the first 64 may be kept (with [`Objective::Kept`]).
    pub known: &'a [Known],
    /// What laying a rack tile of a number counts first (1 by tiles, its number by points),
    /// and a rack joker.
    pub primary: [u64; 14],
    pub joker_primary: u64,
}

/// What a ceiling bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Objective {
    /// What is laid (what counts first).
    Laid,
    /// The sets kept, among plays that lay at least `most` (what counts first).
    Kept { most: u64 },
}

/// Ceilings on what states of one sweep can still gain.
pub(super) struct Ceiling {
    objective: Objective,
    jokers: u8,
    table_jokers: u8,
    primary: [i64; 14],
    joker_primary: i64,
    /// What one of what counts first weighs, in units: 1 for [`Objective::Laid`]; for
    /// [`Objective::Kept`], the price of the tie "lays at least `most`" (a set kept weighs
    /// one).
    lambda: i64,
    /// What a set kept weighs, in units.
    kept_value: i64,
    on_table: [[u8; 14]; 4],
    on_rack: [[u8; 14]; 4],
    blocks: [Block; 4],
    /// Per number: the ways of its groups.
    ways: Vec<Vec<GroupWay>>,
    /// The sets that may be kept.
    keepable: Vec<Keepable>,
    /// The table's first 64 sets, as held when kept.
    held: Vec<Held>,
    /// Per colour: its table runs' `real` bits and highest numbers, by their bit.
    runs_of: [Vec<(u16, u8)>; 4],
    /// At the prices: the sets kept of those whose lowest number is a number or more, by most
    /// jokers.
    kept_from: [Values; 16],
    /// The prices, in units, per colour and number.
    price: [[i64; 15]; 4],
    /// At the prices, per number: its groups, by exactly so many jokers, and the way taken.
    groups_at: [[(i64, usize); MOST_JOKERS + 1]; 15],
    /// At the prices: the groups from a number on, by most jokers.
    groups_from: [Values; 16],
    /// At the prices, from a number on: the rack's tiles above their price, less the table's
    /// tiles' price.
    fixed_from: [i64; 16],
    /// Bounds already worked out at the prices, by state key.
    known: Map<(u128, u64), Option<i64>>,
    /// [`Ceiling::groups_swept`] worked out at the prices.
    swept: Map<(u8, usize, [u8; 4], [u8; 4]), Values>,
}

/// The most a weight may be (points past it, from a hand-edited joker value, get no ceiling):
/// sums of a few hundred of them in units stay far from overflow.
const MOST_WEIGHT: u64 = 1 << 20;

impl Ceiling {
    /// The ceilings of a table and a rack for `objective`, prices set by `steps` subgradient
    /// steps aimed at `aim` (what some play reaches: laid, or kept), fewer once `stop` is set
    /// (any prices give a true ceiling); `None` with more jokers than [`MOST_JOKERS`] or
    /// weights past [`MOST_WEIGHT`].
    pub(super) fn new(
        input: &Input<'_>,
        objective: Objective,
        aim: u64,
        steps: u32,
        stop: &AtomicBool,
    ) -> Option<Ceiling> {
        let jokers = input.table_jokers + input.rack_jokers;
        let most = match objective {
            Objective::Laid => 0,
            Objective::Kept { most } => most,
        };
        if usize::from(jokers) > MOST_JOKERS
            || input.joker_primary > MOST_WEIGHT
            || most > MOST_WEIGHT * 256
            || aim > MOST_WEIGHT * 256
        {
            return None;
        }
        let primary = input.primary.map(|w| w as i64);
        let keep = matches!(objective, Objective::Kept { .. });
        let keepable = input
            .known
            .iter()
            .take(if keep { 64 } else { 0 })
            .map(|k| Keepable {
                low: k.low,
                real: k.real.clone(),
                jokers: k.jokers,
            })
            .collect();
        let mut runs_of: [Vec<(u16, u8)>; 4] = Default::default();
        let held = input
            .known
            .iter()
            .take(64)
            .map(|k| {
                let real = k.real.iter().fold(0u16, |bits, &(_, n)| bits | 1 << n);
                match k.kind {
                    crate::tile::Kind::Run => {
                        let c = k.real.first().map_or(0, |&(c, _)| c);
                        runs_of[c].push((real, k.high));
                        Held::Run {
                            c,
                            bit: runs_of[c].len() as u32 - 1,
                            high: k.high,
                            real,
                        }
                    }
                    crate::tile::Kind::Group => Held::Group {
                        v: k.low,
                        colours: k.real.iter().fold(0u8, |bits, &(c, _)| bits | 1 << c),
                    },
                }
            })
            .collect();
        // A tile laid weighs one tile at first, or a set kept.
        let lambda = UNIT;
        let mut ceiling = Ceiling {
            objective,
            jokers,
            table_jokers: input.table_jokers,
            primary,
            joker_primary: input.joker_primary as i64,
            lambda,
            kept_value: if keep { UNIT } else { 0 },
            on_table: input.on_table,
            on_rack: input.on_rack,
            blocks: Default::default(),
            keepable,
            held,
            runs_of,
            kept_from: [[0; MOST_JOKERS + 1]; 16],
            ways: (0..=usize::from(MAX_NUMBER))
                .map(|v| group_ways(input, v as u8))
                .collect(),
            // Every tile at its worth to start with: placing it is what it is worth.
            price: [std::array::from_fn(|v| lambda * primary[v.min(13)]); 4],
            groups_at: [[(NONE, 0); MOST_JOKERS + 1]; 15],
            groups_from: [[0; MOST_JOKERS + 1]; 16],
            fixed_from: [0; 16],
            known: Map::default(),
            swept: Map::default(),
        };
        for c in 0..4 {
            ceiling.node(c, 1, [0; 3], 0);
        }
        ceiling.price_all();
        ceiling.descend(aim, steps, stop);
        Some(ceiling)
    }

    /// What one of what counts first weighs in [`Ceiling::bound`], in units.
    pub(super) fn lambda(&self) -> i64 {
        self.lambda
    }

    /// The node of colour `c`'s runs from `v` on with `open` runs (by length 1, 2, 3 or
    /// more), made if new after everything it leads to.
    fn node(&mut self, c: usize, v: u8, open: [u8; 3], held: u64) -> u32 {
        // Runs of 3+ beyond those the number can take on all stop alike (see `Sweep::cap`).
        let mut open = open;
        if v <= MAX_NUMBER {
            let room =
                self.on_table[c][usize::from(v)] + self.on_rack[c][usize::from(v)] + self.jokers;
            open[2] = open[2].min(room);
        }
        // Runs kept that have ended hold nothing more.
        let mut held = held;
        for (bit, &(_, high)) in self.runs_of[c].iter().enumerate() {
            if high < v {
                held &= !(1u64 << bit);
            }
        }
        let key = node_key(v, &open, held);
        if let Some(&n) = self.blocks[c].index.get(&key) {
            return n;
        }
        let mut pending: Vec<Edge> = Vec::new();
        if v <= MAX_NUMBER {
            let vi = usize::from(v);
            let reserved = self.runs_of[c]
                .iter()
                .enumerate()
                .filter(|&(bit, &(real, _))| held & (1u64 << bit) != 0 && real & (1 << v) != 0)
                .count() as u8;
            let supply = (self.on_table[c][vi] + self.on_rack[c][vi]).saturating_sub(reserved);
            let [one, two, three] = open;
            for reals in 0..=supply {
                for jokers in 0..=self.jokers {
                    let tiles = reals + jokers;
                    // Runs of 1 and 2 must go on; of the runs of 3+ any number may.
                    for on in 0..=three {
                        let Some(new) = tiles.checked_sub(one + two + on) else {
                            break;
                        };
                        // A run of 1 after `v` needs two more numbers, a run of 2 one more.
                        if (new > 0 && v + 2 > MAX_NUMBER) || (one > 0 && v + 1 > MAX_NUMBER) {
                            continue;
                        }
                        let next = self.node(c, v + 1, [new, one, two + on], held);
                        pending.push(Edge {
                            next,
                            reals,
                            jokers,
                        });
                    }
                }
            }
        }
        pending.sort_unstable_by_key(|e| (e.next, e.reals, e.jokers));
        pending.dedup();
        let block = &mut self.blocks[c];
        let start = block.edges.len() as u32;
        block.edges.extend(pending);
        let n = block.nodes.len() as u32;
        block.nodes.push(Node {
            v,
            edges: (start, block.edges.len() as u32),
            done: open[0] == 0 && open[1] == 0,
        });
        block.index.insert(key, n);
        n
    }

    /// Works out every value at the prices: groups, the fixed parts, every node of the runs.
    fn price_all(&mut self) {
        self.known.clear();
        self.swept.clear();
        self.groups_from[14] = [0; MOST_JOKERS + 1];
        self.fixed_from[14] = 0;
        for v in (1..=usize::from(MAX_NUMBER)).rev() {
            let mut at = [(NONE, usize::MAX); MOST_JOKERS + 1];
            at[0] = (0, usize::MAX);
            for (w, way) in self.ways[v].iter().enumerate() {
                let value = (0..4)
                    .map(|c| self.price[c][v] * i64::from(way.placed[c]))
                    .sum::<i64>();
                let slot = &mut at[usize::from(way.jokers)];
                if value > slot.0 {
                    *slot = (value, w);
                }
            }
            self.groups_at[v] = at;
            self.groups_from[v] =
                max_plus_exact(at.map(|(value, _)| value), self.groups_from[v + 1]);
            let fixed: i64 = (0..4)
                .map(|c| {
                    let worth = self.lambda * self.primary[v] - self.price[c][v];
                    i64::from(self.on_rack[c][v]) * worth.max(0)
                        - i64::from(self.on_table[c][v]) * self.price[c][v]
                })
                .sum();
            self.fixed_from[v] = self.fixed_from[v + 1] + fixed;
        }
        // Each set apart: kept (its tiles at their prices, and what a set kept scores) or not.
        self.kept_from = [[0; MOST_JOKERS + 1]; 16];
        for v in (1..=usize::from(MAX_NUMBER)).rev() {
            let mut acc = self.kept_from[v + 1];
            for k in self.keepable.iter().filter(|k| usize::from(k.low) == v) {
                let value = self.kept_value
                    + k.real
                        .iter()
                        .map(|&(c, n)| self.price[c][usize::from(n)])
                        .sum::<i64>();
                if value > 0 {
                    let mut one = [NONE; MOST_JOKERS + 1];
                    one[0] = 0;
                    if let Some(slot) = one.get_mut(usize::from(k.jokers)) {
                        *slot = (*slot).max(value);
                    }
                    acc = max_plus_exact(one, acc);
                }
            }
            self.kept_from[v] = acc;
        }
        for c in 0..4 {
            let block = &mut self.blocks[c];
            block.values.clear();
            for n in 0..block.nodes.len() {
                let values = evaluate(block, &self.price[c], n);
                block.values.push(values);
            }
        }
    }

    /// Brings the values of nodes made since the prices were set up to date.
    fn catch_up(&mut self) {
        for c in 0..4 {
            let block = &mut self.blocks[c];
            for n in block.values.len()..block.nodes.len() {
                let values = evaluate(block, &self.price[c], n);
                block.values.push(values);
            }
        }
    }

    /// At most what `state` at `step` can still gain, in units: with [`Objective::Laid`] what it lays, with [`Objective::Kept`] the
    /// sets it keeps plus [`Ceiling::lambda`] per one of what it lays. `None`: no way on.
    ///
    /// Part way through a number, the colours already swept there have their runs from the
    /// next number on, and the tiles they gave the number's groups are theirs alone (no price,
    /// as in the path that placed them): the groups are made around them, the state's counts
    /// given to each swept colour in every order (the state keeps them sorted).
    pub(super) fn bound(&mut self, step: u8, state: &State) -> Option<i64> {
        let v = step / 6;
        let phase = step % 6;
        let mut key: u128 = u128::from(step) << 120 | u128::from(state.used) << 112;
        for (c, runs) in state.runs.iter().enumerate() {
            for (k, &n) in runs.iter().enumerate() {
                key |= u128::from(n) << (3 * (c * 6 + k));
            }
        }
        for (c, &g) in state.group.iter().enumerate() {
            key |= u128::from(g) << (80 + 2 * c);
        }
        let key = (key, state.kept);
        if let Some(&known) = self.known.get(&key) {
            return known;
        }
        // Colours swept at `v` already: none before its colours, all four at its groups.
        let swept = usize::from(phase.saturating_sub(1));
        // The sets kept still in progress hold their tiles from here on: out of the runs'
        // reach, and placed at no price (as the path placed them).
        let vi = usize::from(v);
        let mut held = [0u64; 4];
        let mut reserved_here = [0u8; 4];
        let mut held_price = 0i64;
        let mut kept = state.kept;
        while kept != 0 {
            let i = kept.trailing_zeros() as usize;
            kept &= kept - 1;
            match self.held.get(i) {
                Some(&Held::Run { c, bit, high, real }) => {
                    // The first number whose tile the run has not placed yet.
                    let from = if c < swept { v + 1 } else { v };
                    if high >= from {
                        held[c] |= 1 << bit;
                        for n in from..=high {
                            if real & (1 << n) != 0 {
                                held_price += self.price[c][usize::from(n)];
                            }
                        }
                    }
                }
                Some(&Held::Group { v: at, colours }) if at == v => {
                    for c in swept..4 {
                        if colours & (1 << c) != 0 {
                            reserved_here[c] += 1;
                            held_price += self.price[c][vi];
                        }
                    }
                }
                _ => {}
            }
        }
        let nodes: [u32; 4] = std::array::from_fn(|c| {
            let r = state.runs[c];
            let at = if c < swept { v + 1 } else { v };
            self.node(c, at, [r[0] + r[1], r[2] + r[3], r[4] + r[5]], held[c])
        });
        self.catch_up();
        let (mut acc, fixed) = if phase == 0 {
            (
                max_plus(self.groups_from[vi], self.kept_from[vi]),
                self.fixed_from[vi],
            )
        } else {
            let here = self.groups_swept(v, swept, state.group, reserved_here);
            let fixed_here: i64 = (swept..4)
                .map(|c| {
                    let worth = self.lambda * self.primary[vi] - self.price[c][vi];
                    i64::from(self.on_rack[c][vi]) * worth.max(0)
                        - i64::from(self.on_table[c][vi]) * self.price[c][vi]
                })
                .sum();
            (
                max_plus(
                    max_plus_exact(here, self.groups_from[vi + 1]),
                    self.kept_from[vi + 1],
                ),
                self.fixed_from[vi + 1] + fixed_here,
            )
        };
        for (c, &n) in nodes.iter().enumerate() {
            acc = max_plus(acc, self.blocks[c].values[n as usize]);
        }
        let left = usize::from(self.jokers.saturating_sub(state.used));
        let answer = (0..=left)
            .filter(|&j| possible(acc[j]))
            .map(|j| {
                let laid =
                    (usize::from(state.used) + j).saturating_sub(usize::from(self.table_jokers));
                acc[j] + self.lambda * self.joker_primary * laid as i64
            })
            .max()
            .map(|best| best + fixed + held_price);
        self.known.insert(key, answer);
        answer
    }

    /// The groups of number `v` when the first `swept` colours have given them the counts at
    /// the front of `given` (sorted, largest first), by exactly so many jokers: the colours
    /// not swept at their prices, the swept ones at none.
    fn groups_swept(&mut self, v: u8, swept: usize, given: [u8; 4], reserved: [u8; 4]) -> Values {
        let mut decided: Vec<u8> = given[..swept].to_vec();
        decided.sort_unstable();
        let key = (v, swept, given, reserved);
        if let Some(&known) = self.swept.get(&key) {
            return known;
        }
        let vi = usize::from(v);
        let mut at = [NONE; MOST_JOKERS + 1];
        let supply: [u8; 4] = std::array::from_fn(|c| self.on_table[c][vi] + self.on_rack[c][vi]);
        for way in &self.ways[vi] {
            if (swept..4).any(|c| way.placed[c] + reserved[c] > supply[c]) {
                continue;
            }
            let mut theirs = way.placed[..swept].to_vec();
            theirs.sort_unstable();
            if theirs != decided {
                continue;
            }
            let value: i64 = (swept..4)
                .map(|c| self.price[c][vi] * i64::from(way.placed[c]))
                .sum();
            let slot = &mut at[usize::from(way.jokers)];
            *slot = (*slot).max(value);
        }
        // No group at all (every count nothing) is a way too.
        if decided.iter().all(|&n| n == 0) {
            at[0] = at[0].max(0);
        }
        self.swept.insert(key, at);
        at
    }

    /// The relaxed answer from the start (in units), how many tiles of each face the halves
    /// place in it less the table's and the rack's laid (the subgradient of the prices), and
    /// what it lays (counted first).
    fn slack(&self) -> (i64, [[i64; 15]; 4], i64) {
        let mut slack = [[0i64; 15]; 4];
        let roots: [usize; 4] = std::array::from_fn(|c| {
            let key = node_key(1, &[0; 3], 0);
            self.blocks[c].index.get(&key).copied().unwrap_or(0) as usize
        });
        // acc[c]: the groups, the sets kept and the colours before c, by most jokers.
        let mut acc = [[NONE; MOST_JOKERS + 1]; 5];
        let groups = self.groups_from[1];
        acc[0] = max_plus(groups, self.kept_from[1]);
        for c in 0..4 {
            acc[c + 1] = max_plus(acc[c], self.blocks[c].values[roots[c]]);
        }
        let all = usize::from(self.jokers);
        let (mut j, best) = (0..=all)
            .map(|j| {
                let laid = j.saturating_sub(usize::from(self.table_jokers));
                (
                    j,
                    acc[4][j] + self.lambda * self.joker_primary * laid as i64,
                )
            })
            .max_by_key(|&(_, b)| b)
            .unwrap_or((0, NONE));
        if !possible(best) {
            return (best, slack, 0);
        }
        let mut laid_primary =
            self.joker_primary * j.saturating_sub(usize::from(self.table_jokers)) as i64;
        for c in (0..4).rev() {
            let block = &self.blocks[c];
            let runs = block.values[roots[c]];
            let k = (0..=j)
                .find(|&k| acc[c][j - k] + runs[k] == acc[c + 1][j])
                .unwrap_or(0);
            j -= k;
            let mut node = roots[c];
            let mut budget = k;
            while let Some((edge, rest)) = step(block, &self.price[c], node, budget) {
                slack[c][usize::from(block.nodes[node].v)] += i64::from(edge.reals);
                node = edge.next as usize;
                budget = rest;
            }
        }
        // The jokers left go to the groups and the sets kept: the sets kept first, greedily
        // (each set apart: kept where it is worth more than nothing).
        let (kept_jokers, kept_slack) = self.kept_choice(j, groups);
        j -= kept_jokers;
        for c in 0..4 {
            for v in 1..=usize::from(MAX_NUMBER) {
                slack[c][v] += kept_slack[c][v];
            }
        }
        for v in 1..=usize::from(MAX_NUMBER) {
            let target = self.groups_from[v][j];
            let later = self.groups_from[v + 1];
            let at = self.groups_at[v];
            let Some((k, most)) = split(&at, &later, j, target) else {
                break;
            };
            if let Some(way) = self.ways[v].get(at[k].1) {
                for c in 0..4 {
                    slack[c][v] += i64::from(way.placed[c]);
                }
            }
            j = most - k;
        }
        for c in 0..4 {
            for v in 1..=usize::from(MAX_NUMBER) {
                let laid = if self.lambda * self.primary[v] > self.price[c][v] {
                    self.on_rack[c][v]
                } else {
                    0
                };
                laid_primary += self.primary[v] * i64::from(laid);
                slack[c][v] -= i64::from(self.on_table[c][v] + laid);
            }
        }
        (best + self.fixed_from[1], slack, laid_primary)
    }

    /// Which sets the relaxed answer keeps, with the groups sharing `j` jokers: the jokers
    /// the sets kept take and the tiles they place.
    fn kept_choice(&self, j: usize, groups: Values) -> (usize, [[i64; 15]; 4]) {
        let mut placed = [[0i64; 15]; 4];
        let target = max_plus(groups, self.kept_from[1])[j];
        // The sets kept take `k` jokers where the groups with the rest make up the target.
        let Some(k) = (0..=j).find(|&k| self.kept_from[1][k] + groups[j - k] == target) else {
            return (0, placed);
        };
        let mut budget = k;
        let mut used = 0;
        for set in &self.keepable {
            let value = self.kept_value
                + set
                    .real
                    .iter()
                    .map(|&(c, n)| self.price[c][usize::from(n)])
                    .sum::<i64>();
            let jokers = usize::from(set.jokers);
            if value > 0 && jokers <= budget {
                budget -= jokers;
                used += jokers;
                for &(c, n) in &set.real {
                    placed[c][usize::from(n)] += 1;
                }
            }
        }
        (used, placed)
    }

    /// Lowers the ceiling from the start by `steps` subgradient steps aimed at `aim` (what
    /// some play lays, or keeps): Polyak's step along the slack, deflected by the last
    /// direction, shortened after steps that do not improve; the best prices found kept. For
    /// [`Objective::Kept`] the ceiling is the dual `bound − λ · most`, and `λ` takes steps too.
    /// No more steps once `stop` is set: the search it serves is given up.
    fn descend(&mut self, aim: u64, steps: u32, stop: &AtomicBool) {
        let most = match self.objective {
            Objective::Laid => None,
            Objective::Kept { most } => Some(most as i64),
        };
        let aim = aim as i64 * UNIT;
        let enough = aim + UNIT - 1;
        let mut mu: [[f64; 15]; 4] = self.price.map(|row| row.map(|p| p as f64));
        let mut lambda = self.lambda as f64;
        let mut dir = [[0.0f64; 15]; 4];
        let mut dir_lambda = 0.0f64;
        let mut theta = 1.0f64;
        let mut stale = 0;
        let mut best = (i64::MAX, self.price, self.lambda);
        for _ in 0..steps {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let (value, slack, laid) = self.slack();
            if !possible(value) {
                break;
            }
            let dual = value - most.map_or(0, |m| self.lambda * m);
            if dual < best.0 {
                best = (dual, self.price, self.lambda);
                stale = 0;
            } else {
                stale += 1;
                if stale == 2 {
                    theta *= 0.8;
                    stale = 0;
                }
            }
            if dual <= enough {
                break;
            }
            let mut norm = 0.0;
            for c in 0..4 {
                for v in 1..=usize::from(MAX_NUMBER) {
                    dir[c][v] = slack[c][v] as f64 + 0.6 * dir[c][v];
                    norm += dir[c][v] * dir[c][v];
                }
            }
            if let Some(m) = most {
                dir_lambda = (laid - m) as f64 + 0.6 * dir_lambda;
                norm += dir_lambda * dir_lambda;
            }
            if norm == 0.0 {
                break;
            }
            let length = theta * (dual - aim) as f64 / norm;
            for c in 0..4 {
                for v in 1..=usize::from(MAX_NUMBER) {
                    mu[c][v] -= length * dir[c][v];
                }
            }
            if most.is_some() {
                lambda = (lambda - length * dir_lambda).max(0.0);
                self.lambda = lambda.floor() as i64;
            }
            self.price = mu.map(|row| row.map(|m| m.floor() as i64));
            self.price_all();
        }
        if (best.1, best.2) != (self.price, self.lambda) {
            self.price = best.1;
            self.lambda = best.2;
            self.price_all();
        }
    }
}

/// A node's key: number, runs kept in progress, open runs (5 bits a length).
fn node_key(v: u8, open: &[u8; 3], held: u64) -> u128 {
    let mut key = u128::from(v) << 80 | u128::from(held) << 16;
    for (k, &n) in open.iter().enumerate() {
        key |= u128::from(n) << (5 * k);
    }
    key
}

/// A node's values from those of the nodes it leads to.
fn evaluate(block: &Block, price: &[i64; 15], n: usize) -> Values {
    let node = block.nodes[n];
    if node.v > MAX_NUMBER {
        return [if node.done { 0 } else { NONE }; MOST_JOKERS + 1];
    }
    let p = price[usize::from(node.v)];
    let mut out = [NONE; MOST_JOKERS + 1];
    for edge in &block.edges[node.edges.0 as usize..node.edges.1 as usize] {
        let gain = p * i64::from(edge.reals);
        let k = usize::from(edge.jokers);
        let rest = &block.values[edge.next as usize];
        for j in k..=MOST_JOKERS {
            out[j] = out[j].max(gain + rest[j - k]);
        }
    }
    for j in 1..=MOST_JOKERS {
        out[j] = out[j].max(out[j - 1]);
    }
    out.map(|x| x.max(NONE))
}

/// The edge the best runs from node `n` with at most `budget` jokers take, and the jokers
/// left; `None` past 13.
fn step(block: &Block, price: &[i64; 15], n: usize, budget: usize) -> Option<(Edge, usize)> {
    let node = block.nodes[n];
    if node.v > MAX_NUMBER {
        return None;
    }
    let p = price[usize::from(node.v)];
    let target = block.values[n][budget];
    (0..=budget).rev().find_map(|most| {
        block.edges[node.edges.0 as usize..node.edges.1 as usize]
            .iter()
            .find(|e| {
                let k = usize::from(e.jokers);
                k <= most
                    && p * i64::from(e.reals) + block.values[e.next as usize][most - k] == target
            })
            .map(|e| (*e, most - usize::from(e.jokers)))
    })
}

/// Every way the groups of number `v` can place its tiles (the sweep's `group_plan`).
fn group_ways(input: &Input<'_>, v: u8) -> Vec<GroupWay> {
    let mut ways = Vec::new();
    if !(1..=MAX_NUMBER).contains(&v) {
        return ways;
    }
    let vi = usize::from(v);
    let jokers = input.table_jokers + input.rack_jokers;
    let avail: [u8; 4] =
        std::array::from_fn(|c| (input.on_table[c][vi] + input.on_rack[c][vi]).min(3));
    for a in 0..=avail[0] {
        for b in 0..=avail[1] {
            for d in 0..=avail[2] {
                for e in 0..=avail[3] {
                    let placed = [a, b, d, e];
                    for jg in 0..=jokers {
                        if group_plan(placed, jg).is_some() {
                            ways.push(GroupWay { placed, jokers: jg });
                        }
                    }
                }
            }
        }
    }
    ways
}
