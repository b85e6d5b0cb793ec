//! A Lagrangian ceiling for the sweep: runs colour by colour and groups number by number,
//! solved apart, with a price on every real tile so that the two halves do not both lay it.
//!
//! Laying a tile in a run or in a group is the only thing that ties the colours together
//! (besides the jokers, which stay shared). Drop that tie, let runs and groups each use every
//! tile, and charge each tile they lay a price `μ` while crediting `μ` for every tile of the
//! rack: any real meld is then worth no more than the relaxed answer, whatever prices `μ ≥ 0`
//! are set, because a real meld lays each tile at most once. The halves are small: the runs of
//! one colour are a walk over a few hundred states, and the groups of one number a choice among
//! at most 256 ways to take its tiles. With good prices the ceiling is nearly exact: on dense
//! XP racks it is mostly within a point or two of the best meld (and never much above the
//! linear programme over all sets), where the sweep's own ceilings are 30 to 40 points above.
//!
//! Good prices are found by subgradient steps (a tile's price goes up where the halves together
//! lay it more often than the rack holds it, down where less), aimed at the best meld the sweep
//! has found so far, each step a little along the last one too (which stops the prices
//! zig-zagging). A few dozen steps take about a millisecond, spent only on racks the sweep
//! finds hard: a few at first, more later (`Ceiling::refine`, going on from where the steps
//! before stopped) on a rack the sweep has still not finished.
//!
//! The prices weigh what the objective counts first: points, or tiles where tiles count first
//! (a fraction of a tile too many is worth more than any number of points). What counts second
//! is bounded by the plain ceiling only: a second set of prices for it cost more to set up than
//! it saved (tiles-first racks took 475 µs at the median with both, 403 µs with tiles only, on
//! 40-tile XP racks with four jokers).
//!
//! The runs of a colour are walked with the sweep's own colour options, worked out with every
//! joker of the rack (so a colour with fewer jokers of its own has every option the sweep could
//! take for it), and the groups of a number are those the sweep can make: every way on that the
//! sweep considers from a state is a way on here too, so the ceiling never cuts a better meld.

use super::groups;
use super::maxplus::{
    MOST_JOKERS, NONE, Values, at_most, max_plus, max_plus_exact, possible, split,
};
use super::score::{Order, Score};
use super::supply::{ColourOption, Open, SLOTS, State, Supply};
use super::sweep::KeyMap;
use crate::tile::MAX_NUMBER;

/// A node's values after `MOST_JOKERS` leading [`NONE`]s, so that the values with `k` jokers
/// fewer are one slice: `padded[MOST_JOKERS - k..][..=MOST_JOKERS]`.
type Padded = [i64; 2 * MOST_JOKERS + 1];

fn unpadded(padded: &Padded) -> Values {
    std::array::from_fn(|j| padded[MOST_JOKERS + j])
}

/// Units per point or tile, so that prices can be fractions of one.
const UNIT: i64 = 1 << 10;

/// The first subgradient step, as a share of Polyak's step.
const FIRST_STEP: f64 = 1.0;

/// How much of the last step's direction each step keeps.
const DEFLECTION: f64 = 0.6;

/// How much shorter the steps get after two steps that do not lower the ceiling.
const SHRINK: f64 = 0.8;

/// What a set of prices counts: points or tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Weigh {
    Points,
    Tiles,
}

impl Weigh {
    /// A score as counted, in units.
    fn of(self, score: Score) -> i64 {
        UNIT * i64::from(match self {
            Weigh::Points => score.points,
            Weigh::Tiles => score.tiles,
        })
    }

    /// One tile numbered `v`, in units.
    fn tile(self, v: u8) -> i64 {
        self.of(Score {
            points: u32::from(v),
            tiles: 1,
        })
    }

    /// `plain` with what this counts lowered to `priced` where that is lower.
    fn tighten(self, plain: Score, priced: u32) -> Score {
        match self {
            Weigh::Points => Score {
                points: plain.points.min(priced),
                ..plain
            },
            Weigh::Tiles => Score {
                tiles: plain.tiles.min(priced),
                ..plain
            },
        }
    }
}

/// One colour option, as a step from one node to another.
#[derive(Clone, Copy)]
struct Edge {
    next: u32,
    /// Jokers it lays.
    jokers: u8,
    /// Real tiles it lays in runs.
    reals: u8,
    /// What it lays, in units: points and tiles (as [`Weigh`] indexes them).
    worth: [i64; 2],
}

/// The runs of one colour from one number on, with given runs open.
#[derive(Clone, Copy)]
struct Node {
    colour: u8,
    v: u8,
    /// Its edges in `RunGraph::edges`.
    edges: (u32, u32),
    /// Past 13: whether every run is long enough.
    done: bool,
}

/// Every state of one colour's runs met so far, each after the nodes it leads to.
struct RunGraph {
    jokers: u8,
    nodes: Vec<Node>,
    /// Node by [`dense_key`] plus one (0: not made yet).
    index: Vec<u32>,
    /// Nodes whose counters do not fit [`dense_key`] (none on racks a set allows).
    others: KeyMap<u32>,
    edges: Vec<Edge>,
    /// Colour options of the nodes being made, deepest last (kept to avoid allocating).
    options: Vec<ColourOption>,
    /// Edges of the nodes being made, deepest last.
    pending: Vec<Edge>,
    /// Per number: the ways its groups can take its real tiles (tiles per colour, jokers).
    group_ways: Vec<Vec<([u8; 4], u8)>>,
}

impl RunGraph {
    fn new(supply: &Supply) -> RunGraph {
        let group_ways = (0..SLOTS as u8).map(|v| group_ways(supply, v)).collect();
        RunGraph {
            jokers: supply.jokers,
            nodes: Vec::new(),
            index: vec![0; DENSE_KEYS],
            others: KeyMap::default(),
            edges: Vec::new(),
            options: Vec::new(),
            pending: Vec::new(),
            group_ways,
        }
    }

    /// The node of colour `c`'s runs from `v` on with `open` runs, made if new (after
    /// everything it leads to).
    fn node(&mut self, supply: &Supply, c: usize, v: u8, open: Open) -> u32 {
        // Runs beyond those that could go on at `v` (a tile or a joker each) stop anyway.
        let room = if v > MAX_NUMBER {
            0
        } else {
            supply.count(c, v) + self.jokers
        };
        let mut open = open;
        open.three = open.three.min(room.saturating_sub(open.one + open.two));
        let dense = dense_key(c, v, open);
        let known = match dense {
            Some(i) => self.index[i].checked_sub(1),
            None => self.others.get(&wide_key(c, v, open)).copied(),
        };
        if let Some(node) = known {
            return node;
        }
        // The options and edges of this node sit above those of the nodes being made around
        // it; the nodes it leads to are made (and take theirs off) in between.
        let pending = self.pending.len();
        if v <= MAX_NUMBER {
            let first = self.options.len();
            supply.colour_options(v, c, open, self.jokers, &mut self.options);
            let count = supply.count(c, v);
            for i in first..self.options.len() {
                let option = self.options[i];
                let edge = Edge {
                    next: self.node(supply, c, v + 1, option.open),
                    jokers: option.jokers,
                    reals: count - option.play.left,
                    worth: [Weigh::Points.of(option.gain), Weigh::Tiles.of(option.gain)],
                };
                self.pending.push(edge);
            }
            self.options.truncate(first);
        }
        let start = self.edges.len() as u32;
        self.edges.extend(self.pending.drain(pending..));
        let node = self.nodes.len() as u32;
        self.nodes.push(Node {
            colour: c as u8,
            v,
            edges: (start, self.edges.len() as u32),
            done: open.one + open.two == 0,
        });
        match dense {
            Some(i) => self.index[i] = node + 1,
            None => {
                self.others.insert(wide_key(c, v, open), node);
            }
        }
        node
    }
}

/// Keys of [`dense_key`]: colour, number up to 15, and three counters up to 7.
const DENSE_KEYS: usize = 4 << 13;

/// Where a node's index is in [`RunGraph::index`], when its counters fit in 3 bits each.
fn dense_key(c: usize, v: u8, open: Open) -> Option<usize> {
    (v < 16 && open.one < 8 && open.two < 8 && open.three < 8).then(|| {
        c << 13
            | usize::from(v) << 9
            | usize::from(open.one) << 6
            | usize::from(open.two) << 3
            | usize::from(open.three)
    })
}

/// A node's key in [`RunGraph::others`].
fn wide_key(c: usize, v: u8, open: Open) -> u64 {
    (c as u64) << 32
        | u64::from(v) << 24
        | u64::from(open.one) << 16
        | u64::from(open.two) << 8
        | u64::from(open.three)
}

/// The ways the groups of number `v` can take some of its real tiles, with how many jokers,
/// among the groups the sweep makes.
fn group_ways(supply: &Supply, v: u8) -> Vec<([u8; 4], u8)> {
    let mut ways = Vec::new();
    if !(1..=MAX_NUMBER).contains(&v) {
        return ways;
    }
    let counts = [0, 1, 2, 3].map(|c| supply.count(c, v));
    for a in 0..=counts[0] {
        for b in 0..=counts[1] {
            for d in 0..=counts[2] {
                for e in 0..=counts[3] {
                    let taken = [a, b, d, e];
                    let reals = a + b + d + e;
                    for jokers in 0..=supply.jokers {
                        if reals > 0 && groups::most(v, taken, jokers, 0b1111) == Some(reals) {
                            ways.push((taken, jokers));
                        }
                    }
                }
            }
        }
    }
    ways
}

/// One set of prices and everything worked out at them.
struct Prices {
    weigh: Weigh,
    /// Price of one real tile, by colour and number, in units.
    price: [[i64; SLOTS]; 4],
    /// Σ price × count over the numbers from `v` on.
    priced_from: [i64; SLOTS + 1],
    /// Groups at number `v`, by exactly this many jokers: the best and the tiles it takes.
    groups_at: [[(i64, [u8; 4]); MOST_JOKERS + 1]; SLOTS],
    /// Groups from number `v` on, by most jokers.
    groups_from: [Values; SLOTS + 1],
    /// Per node of the run graph: the best at these prices, by most jokers.
    values: Vec<Padded>,
    /// By number and colour `c`: Σ price × count of the colours from `c` on at that number.
    priced_at: [[i64; 5]; SLOTS],
    /// Groups at a number and on, when the first colours have only some tiles left (see
    /// [`Prices::groups_decided`]).
    decided: KeyMap<Values>,
    descent: Descent,
}

impl Prices {
    /// Everything worked out at these prices.
    fn new(weigh: Weigh, supply: &Supply, graph: &RunGraph, price: [[i64; SLOTS]; 4]) -> Prices {
        let mut prices = Prices {
            weigh,
            price,
            priced_from: [0; SLOTS + 1],
            groups_at: [[(NONE, [0; 4]); MOST_JOKERS + 1]; SLOTS],
            groups_from: [[0; MOST_JOKERS + 1]; SLOTS + 1],
            values: Vec::new(),
            priced_at: [[0; 5]; SLOTS],
            decided: KeyMap::default(),
            descent: Descent::new(price),
        };
        prices.set(supply, graph, price);
        prices
    }

    /// Sets the prices and works out every value at them.
    fn set(&mut self, supply: &Supply, graph: &RunGraph, price: [[i64; SLOTS]; 4]) {
        self.price = price;
        for v in (1..=MAX_NUMBER).rev() {
            let vi = usize::from(v);
            let here: i64 = (0..4)
                .map(|c| price[c][vi] * i64::from(supply.count(c, v)))
                .sum();
            self.priced_from[vi] = self.priced_from[vi + 1] + here;
            for c in (0..4).rev() {
                self.priced_at[vi][c] =
                    self.priced_at[vi][c + 1] + price[c][vi] * i64::from(supply.count(c, v));
            }
            let worth = self.weigh.tile(v);
            let net = [0, 1, 2, 3].map(|c| worth - price[c][vi]);
            let mut at = [(NONE, [0u8; 4]); MOST_JOKERS + 1];
            at[0] = (0, [0; 4]);
            for &(taken, jokers) in &graph.group_ways[vi] {
                let total = (0..4).map(|c| i64::from(taken[c]) * net[c]).sum::<i64>()
                    + i64::from(jokers) * worth;
                let best = &mut at[usize::from(jokers)];
                if total > best.0 {
                    *best = (total, taken);
                }
            }
            self.groups_at[vi] = at;
            self.groups_from[vi] =
                max_plus_exact(at.map(|(value, _)| value), self.groups_from[vi + 1]);
        }
        self.values.clear();
        self.decided.clear();
        self.catch_up(graph);
    }

    /// Groups at number `v` and everything the groups after it lay, when the colours before
    /// `decided` have laid their runs at `v` and left `left` tiles (those tiles are no one
    /// else's, so they carry no price), by most jokers.
    fn groups_decided(&mut self, graph: &RunGraph, v: u8, decided: usize, left: [u8; 4]) -> Values {
        let mut key = u64::from(v) << 12 | (decided as u64) << 8;
        for (c, &n) in left[..decided].iter().enumerate() {
            key |= u64::from(n) << (2 * c);
        }
        if let Some(&known) = self.decided.get(&key) {
            return known;
        }
        let vi = usize::from(v);
        let worth = self.weigh.tile(v);
        let net: [i64; 4] = std::array::from_fn(|c| {
            if c < decided {
                worth
            } else {
                worth - self.price[c][vi]
            }
        });
        let mut at = [NONE; MOST_JOKERS + 1];
        at[0] = 0;
        for &(taken, jokers) in &graph.group_ways[vi] {
            if (0..decided).any(|c| taken[c] > left[c]) {
                continue;
            }
            let total = (0..4).map(|c| i64::from(taken[c]) * net[c]).sum::<i64>()
                + i64::from(jokers) * worth;
            let best = &mut at[usize::from(jokers)];
            *best = (*best).max(total);
        }
        let values = max_plus_exact(at, self.groups_from[vi + 1]);
        self.decided.insert(key, values);
        values
    }

    /// Works out the nodes made since the last time.
    fn catch_up(&mut self, graph: &RunGraph) {
        for node in &graph.nodes[self.values.len()..] {
            let values = self.evaluate(graph, node);
            let mut padded = [NONE; 2 * MOST_JOKERS + 1];
            padded[MOST_JOKERS..].copy_from_slice(&values);
            self.values.push(padded);
        }
    }

    /// A node's values.
    fn runs(&self, node: u32) -> Values {
        unpadded(&self.values[node as usize])
    }

    /// A node's values from those of the nodes it leads to.
    fn evaluate(&self, graph: &RunGraph, node: &Node) -> Values {
        if node.v > MAX_NUMBER {
            return [if node.done { 0 } else { NONE }; MOST_JOKERS + 1];
        }
        let price = self.price[usize::from(node.colour)][usize::from(node.v)];
        let mut out = [NONE; MOST_JOKERS + 1];
        let w = self.weigh as usize;
        for edge in &graph.edges[node.edges.0 as usize..node.edges.1 as usize] {
            let gain = edge.worth[w] - price * i64::from(edge.reals);
            let k = usize::from(edge.jokers);
            let rest = &self.values[edge.next as usize][MOST_JOKERS - k..][..=MOST_JOKERS];
            for (out, &r) in out.iter_mut().zip(rest) {
                *out = (*out).max(gain + r);
            }
        }
        for j in 1..=MOST_JOKERS {
            out[j] = out[j].max(out[j - 1]);
        }
        out
    }

    /// Runs and groups from `v` on with the runs at `nodes` (one per colour), the jokers
    /// shared: `acc[c]` is the groups and colours before `c`, by most jokers.
    fn combined(&self, v: u8, nodes: [u32; 4]) -> [Values; 5] {
        let mut acc = [[NONE; MOST_JOKERS + 1]; 5];
        acc[0] = self.groups_from[usize::from(v)];
        for c in 0..4 {
            acc[c + 1] = max_plus(acc[c], self.runs(nodes[c]));
        }
        acc
    }

    /// At most how many points (or tiles) can be laid from `v` on with the runs at `nodes` and
    /// `jokers` jokers (`None`: no way on).
    fn bound(&self, v: u8, nodes: [u32; 4], jokers: u8) -> Option<u32> {
        let mut acc = self.groups_from[usize::from(v)];
        for &node in &nodes[..3] {
            acc = max_plus(acc, self.runs(node));
        }
        let best = at_most(&acc, &self.runs(nodes[3]), usize::from(jokers));
        possible(best).then(|| {
            let units = (best + self.priced_from[usize::from(v)]).max(0);
            u32::try_from(units / UNIT).unwrap_or(u32::MAX)
        })
    }

    /// The relaxed answer from the start (in units) and how many tiles of each face it lays,
    /// runs and groups together: where that is more than the rack holds, a price is too low.
    fn laid(&self, graph: &RunGraph, roots: [u32; 4]) -> (i64, [[i64; SLOTS]; 4]) {
        let mut laid = [[0i64; SLOTS]; 4];
        let acc = self.combined(1, roots);
        let mut j = usize::from(graph.jokers);
        let best = acc[4][j];
        if !possible(best) {
            return (best, laid);
        }
        // The jokers each colour took, last colour first, then its runs step by step.
        for c in (0..4).rev() {
            let mut node = roots[c] as usize;
            let runs = self.runs(node as u32);
            let k = (0..=j)
                .find(|&k| acc[c][j - k] + runs[k] == acc[c + 1][j])
                .unwrap_or(0);
            j -= k;
            let mut budget = k;
            while let Some((edge, rest)) = self.step(graph, node, budget) {
                laid[c][usize::from(graph.nodes[node].v)] += i64::from(edge.reals);
                node = edge.next as usize;
                budget = rest;
            }
        }
        // The groups, number by number, with the jokers left.
        #[allow(clippy::needless_range_loop)] // `v` reads three tables
        for v in 1..=usize::from(MAX_NUMBER) {
            let target = self.groups_from[v][j];
            let later = self.groups_from[v + 1];
            let at = self.groups_at[v];
            let Some((k, most)) = split(&at, &later, j, target) else {
                break;
            };
            for (row, &taken) in laid.iter_mut().zip(&at[k].1) {
                row[v] += i64::from(taken);
            }
            j = most - k;
        }
        (best + self.priced_from[1], laid)
    }

    /// The edge the best runs from `node` with at most `budget` jokers take, and the jokers
    /// left after it; `None` past 13.
    fn step(&self, graph: &RunGraph, node: usize, budget: usize) -> Option<(Edge, usize)> {
        let n = graph.nodes[node];
        if n.v > MAX_NUMBER {
            return None;
        }
        let price = self.price[usize::from(n.colour)][usize::from(n.v)];
        let target = self.values[node][MOST_JOKERS + budget];
        (0..=budget).rev().find_map(|most| {
            graph.edges[n.edges.0 as usize..n.edges.1 as usize]
                .iter()
                .find(|e| {
                    let k = usize::from(e.jokers);
                    k <= most
                        && e.worth[self.weigh as usize] - price * i64::from(e.reals)
                            + self.values[e.next as usize][MOST_JOKERS + most - k]
                            == target
                })
                .map(|e| (*e, most - usize::from(e.jokers)))
        })
    }

    /// Lowers the ceiling from the start by at most `steps` more subgradient steps towards
    /// `aim` (points or tiles of a meld, such as the best found so far), going on from where
    /// the steps before stopped and keeping the best prices found: Polyak's step along the
    /// slack, deflected by the last direction, shortened after steps that do not improve.
    fn improve(
        &mut self,
        supply: &Supply,
        graph: &RunGraph,
        roots: [u32; 4],
        aim: u32,
        steps: u32,
    ) {
        if self.descent.done || steps == 0 {
            return;
        }
        // Within a unit of the aim nothing better can be shown.
        let enough = i64::from(aim) * UNIT + UNIT - 1;
        let aim = i64::from(aim) * UNIT;
        let next = self.descent.rounded();
        if next != self.price {
            self.set(supply, graph, next);
        }
        for step in 0..steps {
            let (value, laid) = self.laid(graph, roots);
            let d = &mut self.descent;
            if value < d.best.0 {
                d.best = (value, self.price);
                d.stale = 0;
            } else {
                d.stale += 1;
                if d.stale == 2 {
                    d.theta *= SHRINK;
                    d.stale = 0;
                }
            }
            if value <= enough {
                d.done = true;
                break;
            }
            let mut norm = 0.0;
            #[allow(clippy::needless_range_loop)] // `c` and `v` index three tables
            for c in 0..4 {
                for v in 1..=usize::from(MAX_NUMBER) {
                    let s = (i64::from(supply.counts[c][v]) - laid[c][v]) as f64;
                    d.dir[c][v] = s + DEFLECTION * d.dir[c][v];
                    norm += d.dir[c][v] * d.dir[c][v];
                }
            }
            if norm == 0.0 {
                d.done = true;
                break;
            }
            let step_length = d.theta * (value - aim) as f64 / norm;
            for c in 0..4 {
                for v in 1..=usize::from(MAX_NUMBER) {
                    d.mu[c][v] = (d.mu[c][v] - step_length * d.dir[c][v]).max(0.0);
                }
            }
            // The prices after the last step are weighed by the next call, if one comes.
            if step + 1 == steps {
                break;
            }
            let next = d.rounded();
            self.set(supply, graph, next);
        }
        let best = self.descent.best.1;
        if best != self.price {
            self.set(supply, graph, best);
        }
    }
}

/// Where the subgradient steps on a set of prices stand, so that more can follow later.
struct Descent {
    /// The prices the steps have reached, unrounded: the next to be weighed.
    mu: [[f64; SLOTS]; 4],
    /// The last step's direction.
    dir: [[f64; SLOTS]; 4],
    /// The share of Polyak's step taken.
    theta: f64,
    /// Steps since the ceiling last came down (up to two).
    stale: u32,
    /// The lowest ceiling from the start weighed so far, in units, and its prices.
    best: (i64, [[i64; SLOTS]; 4]),
    /// No step can help: the ceiling is within a unit of the aim, or the halves lay every
    /// tile exactly as often as the rack holds it.
    done: bool,
}

impl Descent {
    fn new(price: [[i64; SLOTS]; 4]) -> Descent {
        Descent {
            mu: price.map(|row| row.map(|p| p as f64)),
            dir: [[0.0; SLOTS]; 4],
            theta: FIRST_STEP,
            stale: 0,
            best: (i64::MAX, price),
            done: false,
        }
    }

    fn rounded(&self) -> [[i64; SLOTS]; 4] {
        self.mu.map(|row| row.map(|m| m.floor() as i64))
    }
}

/// The runs from the next number on of the colours decided so far in a move being built, by
/// most jokers.
pub(super) type Prefix = Values;

/// The runs from a number on of the colours not decided yet in a move being built there, by
/// the first such colour, by most jokers.
#[derive(Clone, Copy, Default)]
pub(super) struct Ahead {
    suffix: [Values; 5],
}

/// Lagrangian ceilings on what can be laid from a state, as the objective weighs it,
/// remembered by state.
pub(super) struct Ceiling {
    order: Order,
    graph: RunGraph,
    /// The nodes of the colours' runs from the start.
    roots: [u32; 4],
    /// Prices on what counts first: points, or tiles where they count first (the points
    /// are then bounded by the plain ceiling only).
    prices: Prices,
    known: KeyMap<Option<u32>>,
}

impl Ceiling {
    /// The ceilings with prices aimed at `aim`, a meld's score (such as a first one found), or
    /// `None` for a rack with more jokers than any set holds.
    pub(super) fn new(supply: &Supply, order: Order, aim: Score, steps: u32) -> Option<Ceiling> {
        if usize::from(supply.jokers) > MOST_JOKERS {
            return None;
        }
        let mut graph = RunGraph::new(supply);
        let roots = std::array::from_fn(|c| graph.node(supply, c, 1, Open::default()));
        let weigh = match order {
            Order::PointsFirst => Weigh::Points,
            Order::TilesFirst => Weigh::Tiles,
        };
        // Every tile at half its worth to start with.
        let half = std::array::from_fn(|v| weigh.tile(v as u8) / 2);
        let prices = Prices::new(weigh, supply, &graph, [half; 4]);
        let mut ceiling = Ceiling {
            order,
            graph,
            roots,
            prices,
            known: KeyMap::default(),
        };
        ceiling.refine(supply, aim, steps);
        Some(ceiling)
    }

    /// Lowers the ceilings by `steps` more subgradient steps from the prices so far, aimed at
    /// `aim`. Any prices give true ceilings, so a sweep may refine them as it goes: those it
    /// was given before stay true.
    pub(super) fn refine(&mut self, supply: &Supply, aim: Score, steps: u32) {
        let aim = match self.prices.weigh {
            Weigh::Points => aim.points,
            Weigh::Tiles => aim.tiles,
        };
        let before = self.prices.price;
        self.prices
            .improve(supply, &self.graph, self.roots, aim, steps);
        if self.prices.price != before {
            self.known.clear();
        }
    }

    /// For building the moves of `state` at number `v`: what the colours not decided yet can
    /// lay from `v` on.
    pub(super) fn ahead(&mut self, supply: &Supply, v: u8, state: &State) -> Ahead {
        let nodes: [u32; 4] = std::array::from_fn(|c| self.graph.node(supply, c, v, state.open[c]));
        let graph = &self.graph;
        let prices = &mut self.prices;
        prices.catch_up(graph);
        let mut ahead = Ahead::default();
        for d in (0..4).rev() {
            ahead.suffix[d] = max_plus(ahead.suffix[d + 1], prices.runs(nodes[d]));
        }
        ahead
    }

    /// Adds colour `c`'s runs from `v + 1` on with `open` runs to `prefix`.
    pub(super) fn extend(
        &mut self,
        supply: &Supply,
        prefix: &mut Prefix,
        c: usize,
        v: u8,
        open: Open,
    ) {
        let node = self.graph.node(supply, c, v + 1, open);
        self.prices.catch_up(&self.graph);
        *prefix = max_plus(*prefix, self.prices.runs(node));
    }

    /// At most what a move at `v` with the colours before `decided` chosen (their runs from
    /// `v + 1` on in `prefix`, their tiles left for groups `left`) can still add, with `free`
    /// jokers not laid, as the objective weighs it; `plain` bounds what it adds too (the tiles,
    /// where only points have a relaxation). `None`: no way on.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn completion(
        &mut self,
        v: u8,
        ahead: &Ahead,
        prefix: &Prefix,
        decided: usize,
        left: [u8; 4],
        free: u8,
        plain: Score,
    ) -> Option<u32> {
        let prices = &mut self.prices;
        let vi = usize::from(v);
        let groups = prices.groups_decided(&self.graph, v, decided, left);
        let runs = max_plus(*prefix, ahead.suffix[decided]);
        let best = at_most(&runs, &groups, usize::from(free));
        if !possible(best) {
            return None;
        }
        let units = (best + prices.priced_from[vi + 1] + prices.priced_at[vi][decided]).max(0);
        let priced = u32::try_from(units / UNIT).unwrap_or(u32::MAX);
        Some(self.order.value(prices.weigh.tighten(plain, priced)))
    }

    /// At most what can be laid from number `v` on in `state`, as the objective weighs it
    /// (`None`: nothing finishes it). `key` is the state's key at `v`.
    pub(super) fn bound(&mut self, supply: &Supply, v: u8, state: &State, key: u64) -> Option<u32> {
        if let Some(&known) = self.known.get(&key) {
            return known;
        }
        let ceiling = self.work_out(supply, v, state);
        self.known.insert(key, ceiling);
        ceiling
    }

    /// [`Self::bound`] when not known yet.
    fn work_out(&mut self, supply: &Supply, v: u8, state: &State) -> Option<u32> {
        let plain = supply.bound(v, state);
        if v > MAX_NUMBER {
            return Some(self.order.value(plain));
        }
        let nodes = std::array::from_fn(|c| self.graph.node(supply, c, v, state.open[c]));
        self.prices.catch_up(&self.graph);
        let priced = self.prices.bound(v, nodes, state.jokers)?;
        Some(self.order.value(self.prices.weigh.tighten(plain, priced)))
    }
}
