//! The memoised sweep over numbers 1–13, searched branch and bound, and the replay that turns
//! its best value into sets.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::SolvedSet;
use super::relax::Ceiling;
use super::score::{Order, Score};
use super::supply::{ColourOption, Combine, Move, Open, PAST_END, Partial, State, Supply};
use super::table::Table;
use crate::tile::MAX_NUMBER;

/// Lists for one level of the sweep, kept to avoid allocating for every state.
#[derive(Default)]
struct Scratch {
    moves: Vec<Move>,
    /// Each move's upper bound (high half) and its index in `moves`, best first.
    ranked: Vec<u64>,
}

/// Multiply-shift hashing for the `u64` memo keys (SipHash is several times slower here).
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        let h = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 32);
    }
}

/// A hash map keyed by packed `u64` states.
pub(super) type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// What the memo knows about one state: its best value, or only a ceiling on it (the search
/// stopped early because the state could not beat what its caller already had).
#[derive(Clone, Copy)]
struct Entry {
    /// `None`: no way to finish from the state.
    value: Option<u32>,
    /// Whether `value` is the best itself rather than a ceiling.
    exact: bool,
}

/// Bits of the memo key that hold the points still needed (more than any rack holds).
const NEED_BITS: u32 = 12;

/// Colour options tried in making moves before the Lagrangian ceiling ([`Ceiling`]) is set
/// up: setting it up costs about as much work, and most racks are solved with less (dense
/// 40-tile XP racks half the time; for racks with a wide gap see [`RELAX_EARLY`]).
const RELAX_AFTER: u32 = 20_000;

/// Colour options tried before the ceiling is set up on a rack whose best meld found so far is
/// far below the plain ceiling ([`WIDE_GAP`]): such racks take a long proof (40-tile XP racks
/// with four jokers over all numbers: 10,000 to 20,000 options, 0.5–1 ms), which the ceiling
/// shortens by more than it costs. Racks with a narrow gap (most dense ones) are often done
/// with far less than the set-up costs, so they wait for [`RELAX_AFTER`].
const RELAX_EARLY: u32 = 1_000;

/// Points between the plain ceiling from the start and the best meld found so far that make a
/// rack worth setting up the ceiling for after [`RELAX_EARLY`] options.
const WIDE_GAP: u32 = 40;

/// Subgradient steps spent on the ceiling's prices when it is set up after [`RELAX_AFTER`]
/// options: the rack has proved hard.
const RELAX_STEPS: u32 = 16;

/// Subgradient steps when it is set up early, after [`RELAX_EARLY`]: most such racks are done
/// soon after with a rougher ceiling, and the rest get [`REFINE_STEPS`] more in a while.
const EARLY_STEPS: u32 = 8;

/// Colour options tried after the ceiling was set up (or last refined) before it is refined
/// by [`REFINE_STEPS`] more steps: most racks are done before that, and those that are not
/// need a tighter ceiling.
const REFINE_AFTER: u32 = 4_000;

/// Subgradient steps of each refinement.
const REFINE_STEPS: u32 = 8;

/// Most subgradient steps spent on one rack's ceiling.
const MOST_STEPS: u32 = 32;

/// The sweep over numbers for one rack and one objective.
pub(super) struct Sweep<'a> {
    supply: &'a Supply,
    order: Order,
    /// What is known from each state reached, by [`State::key`] and the points still needed.
    memo: KeyMap<Entry>,
    /// Reused lists, one per recursion level.
    scratch: Vec<Scratch>,
    /// Colour options already worked out: where they are in `arena`.
    option_ranges: KeyMap<(usize, usize)>,
    arena: Vec<ColourOption>,
    /// States worked out so far.
    worked: u32,
    /// Colour options tried so far in making moves: the work done.
    tried: u32,
    /// Whether memoised better states answer for worse ones (tests turn it off).
    dominance: bool,
    /// The Lagrangian ceiling, once the rack has proved hard.
    relax: Option<Ceiling>,
    /// How many colour options to try before setting it up (tests change it; `u32::MAX`
    /// never sets it up).
    relax_after: u32,
    /// How many before setting it up on a rack with a wide gap (see [`WIDE_GAP`]; tests
    /// change it, `u32::MAX` never sets it up early).
    relax_early: u32,
    /// The plain ceiling's points from the start.
    plain_points: u32,
    /// Whether it has been set up (or could not be).
    relax_done: bool,
    /// Colour options tried by when the ceiling is next refined.
    refine_at: u32,
    /// Subgradient steps spent on the ceiling so far.
    steps: u32,
    /// What the moves on the way from the start to the state being worked out lay.
    path: u32,
    /// The best meld found so far from the start: what the ceiling's prices aim at.
    found: Option<u32>,
}

impl<'a> Sweep<'a> {
    pub(super) fn new(supply: &'a Supply, order: Order) -> Self {
        Sweep {
            supply,
            order,
            memo: KeyMap::default(),
            scratch: Vec::new(),
            option_ranges: KeyMap::default(),
            arena: Vec::new(),
            worked: 0,
            tried: 0,
            dominance: true,
            relax: None,
            relax_after: RELAX_AFTER,
            relax_early: RELAX_EARLY,
            plain_points: supply
                .bound(
                    1,
                    &State {
                        open: [Open::default(); 4],
                        jokers: supply.jokers,
                    },
                )
                .points,
            relax_done: false,
            refine_at: u32::MAX,
            steps: 0,
            path: 0,
            found: None,
        }
    }

    fn start(&self) -> State {
        State {
            open: [Open::default(); 4],
            jokers: self.supply.jokers,
        }
    }

    /// The sets of the best meld worth at least `need` points, or `None` when no meld is.
    pub(super) fn solve(mut self, need: u32) -> Option<Vec<SolvedSet>> {
        let start = self.start();
        let target = self.best(1, start, need, None)?;
        Some(self.rebuild(start, need, target))
    }

    /// Where the sweep really continues: a state with no open runs skips numbers without tiles.
    fn resume(&self, v: u8, state: &State) -> u8 {
        if state.idle() {
            self.supply.next_number[usize::from(v.min(PAST_END))]
        } else {
            v
        }
    }

    /// The best value that can be laid from number `v` on in `state`, among ways worth at
    /// least `need` points (`None`: there is none). Only values above `floor` are asked for:
    /// when the best is not above it, the answer may be any ceiling on it that is not above it
    /// either, which lets the search skip moves that cannot matter to the caller.
    fn best(&mut self, v: u8, state: State, need: u32, floor: Option<u32>) -> Option<u32> {
        let v = self.resume(v, &state);
        let key = state.key(v) << NEED_BITS | u64::from(need);
        if let Some(known) = self.memo.get(&key)
            && (known.exact || known.value <= floor)
        {
            return known.value;
        }
        // Asked after the memo (which never holds such a state), as most calls end there.
        if need > 0 && need > self.supply.bound(v, &state).points {
            return None;
        }
        if self.dominance
            && let Some(floor) = floor
            && let Some(ceiling) = self.dominated(v, key, &state, floor)
        {
            let entry = Entry {
                value: ceiling,
                exact: false,
            };
            self.memo.insert(key, entry);
            return ceiling;
        }
        if !self.relax_done
            && (self.tried >= self.relax_after
                || self.tried >= self.relax_early && self.gap_is_wide())
        {
            self.relax_done = true;
            // A rack this hard meets thousands of states: room for them at once.
            self.memo.reserve(1 << 14);
            self.set_up_relaxation();
        } else if self.tried >= self.refine_at {
            self.refine_relaxation();
        }
        if let Some(floor) = floor
            && let Some(relax) = self.relax.as_mut()
        {
            let ceiling = relax.bound(self.supply, v, &state, state.key(v));
            if ceiling <= Some(floor) {
                let entry = Entry {
                    value: ceiling,
                    exact: false,
                };
                self.memo.insert(key, entry);
                return ceiling;
            }
        }
        self.worked += 1;
        let entry = self.work_out(v, state, need, floor);
        self.memo.insert(key, entry);
        entry.value
    }

    /// Whether the best meld found so far is [`WIDE_GAP`] points or more below the plain
    /// ceiling from the start.
    fn gap_is_wide(&self) -> bool {
        self.found
            .is_some_and(|found| self.order.score(found).points + WIDE_GAP <= self.plain_points)
    }

    /// What the ceiling's prices aim at: the best meld found so far, or without one yet (the
    /// search went deep first) a little under the plain ceiling.
    fn aim(&self) -> Score {
        match self.found {
            Some(found) => self.order.score(found),
            None => {
                let plain = self.supply.bound(1, &self.start());
                Score {
                    points: plain.points - plain.points / 16,
                    tiles: plain.tiles - plain.tiles / 16,
                }
            }
        }
    }

    /// Sets up the Lagrangian ceiling.
    fn set_up_relaxation(&mut self) {
        let steps = if self.tried >= self.relax_after {
            RELAX_STEPS
        } else {
            EARLY_STEPS
        };
        self.relax = Ceiling::new(self.supply, self.order, self.aim(), steps);
        self.steps = steps;
        self.refine_at = self.next_refinement();
    }

    /// Refines the ceiling of a rack that is still not done: a few more steps, aimed at the
    /// best meld found by now.
    fn refine_relaxation(&mut self) {
        let aim = self.aim();
        if let Some(relax) = self.relax.as_mut() {
            relax.refine(self.supply, aim, REFINE_STEPS);
        }
        self.steps += REFINE_STEPS;
        self.refine_at = self.next_refinement();
    }

    /// When to refine the ceiling next: after [`REFINE_AFTER`] more colour options, unless
    /// [`MOST_STEPS`] have been spent.
    fn next_refinement(&self) -> u32 {
        if self.relax.is_none() || self.steps + REFINE_STEPS > MOST_STEPS {
            u32::MAX
        } else {
            self.tried.saturating_add(REFINE_AFTER)
        }
    }

    /// A ceiling not above `floor` on the best from `state` at `v`, if the memo holds one for
    /// a state one step better: a joker more, a short run one number longer, or one more run
    /// of 3+ (see the module docs: any way on from `state` is a way on from those).
    /// `key` is the state's memo key.
    fn dominated(&self, v: u8, key: u64, state: &State, floor: u32) -> Option<Option<u32>> {
        // The better states' keys differ from this one's in a counter or two; `v` is where
        // they resume too (a joker more leaves a state as idle as it was, and one more run
        // makes it busy, which never skips a number).
        let known = |better: u64| {
            let entry = self.memo.get(&better)?;
            (entry.value <= Some(floor)).then_some(entry.value)
        };
        if state.jokers < self.supply.jokers
            && let Some(ceiling) = known(key + (1 << (State::JOKERS_SHIFT + NEED_BITS)))
        {
            return Some(ceiling);
        }
        for (c, open) in state.open.iter().enumerate() {
            let shift = State::open_shift(c) + NEED_BITS;
            let (one, two, three) = (1 << (shift + 6), 1 << (shift + 3), 1 << shift);
            let mut upgrades = [None; 3];
            if open.one > 0 {
                upgrades[0] = Some(key - one + two);
            }
            if open.two > 0 {
                upgrades[1] = Some(key - two + three);
            }
            // One more run of 3+ only where the state could hold it (see `Supply::settle`).
            if v <= MAX_NUMBER
                && open.one + open.two + open.three < self.supply.count(c, v) + state.jokers
            {
                upgrades[2] = Some(key + three);
            }
            for better in upgrades.into_iter().flatten() {
                if let Some(ceiling) = known(better) {
                    return Some(ceiling);
                }
            }
        }
        None
    }

    /// [`Self::best`] when the memo cannot answer: every move at `v`, most promising first,
    /// each followed by the best after it, until the rest cannot beat what is found.
    fn work_out(&mut self, v: u8, state: State, need: u32, floor: Option<u32>) -> Entry {
        if v > MAX_NUMBER {
            let done = state.all_runs_complete() && need == 0;
            return Entry {
                value: done.then_some(0),
                exact: true,
            };
        }
        let mut scratch = self.scratch.pop().unwrap_or_default();
        let mut skipped = self.moves(v, &state, floor, &mut scratch);
        let order = self.order;
        scratch.ranked.clear();
        scratch.ranked.extend(
            scratch
                .moves
                .iter()
                .enumerate()
                .map(|(i, m)| u64::from(m.bound) << 32 | i as u64),
        );
        scratch.ranked.sort_unstable_by(|a, b| b.cmp(a));
        let mut best = None;
        for &ranked in &scratch.ranked {
            let (bound, i) = ((ranked >> 32) as u32, ranked as u32);
            let bar = best.max(floor);
            if Some(bound) <= bar {
                // The moves are in order of bound: none of the rest can do better either.
                skipped = skipped.max(Some(bound));
                break;
            }
            let m = scratch.moves[i as usize];
            let gain = order.value(m.gain);
            let rest_floor = bar.and_then(|b| b.checked_sub(gain));
            let rest_need = need.saturating_sub(m.gain.points);
            self.path += gain;
            let rest = self.best(v + 1, m.next, rest_need, rest_floor);
            self.path -= gain;
            if let Some(rest) = rest {
                if Some(rest) > rest_floor {
                    // Above the floor: the best itself, so a meld from the start.
                    self.found = self.found.max(Some(self.path + gain + rest));
                }
                best = best.max(Some(rest + gain));
            }
        }
        self.scratch.push(scratch);
        if best > floor {
            Entry {
                value: best,
                exact: true,
            }
        } else {
            Entry {
                value: best.max(skipped),
                exact: false,
            }
        }
    }

    /// Every move at number `v` from `state` whose bound is above `bar`, into
    /// `scratch.moves`; returns the highest bound of those left out.
    fn moves(
        &mut self,
        v: u8,
        state: &State,
        bar: Option<u32>,
        scratch: &mut Scratch,
    ) -> Option<u32> {
        let ranges: [(usize, usize); 4] =
            std::array::from_fn(|c| self.colour_options(v, c, state.open[c], state.jokers));
        let options = ranges.map(|(start, end)| &self.arena[start..end]);
        scratch.moves.clear();
        let relax = match (bar, self.relax.as_mut()) {
            (Some(_), Some(relax)) => {
                let ahead = relax.ahead(self.supply, v, state);
                Some((relax, ahead))
            }
            _ => None,
        };
        let mut combine = Combine::new(self.supply, self.order, v, state.jokers, bar, relax);
        combine.combine(&options, 0, Partial::default(), &mut scratch.moves);
        self.tried += combine.tried;
        combine.skipped
    }

    /// Where in `arena` the options of colour `c` at `v` are, worked out once per solve: many
    /// states share them.
    fn colour_options(&mut self, v: u8, c: usize, open: Open, jokers: u8) -> (usize, usize) {
        let key = u64::from(v) << 14
            | (c as u64) << 12
            | u64::from(open.one) << 9
            | u64::from(open.two) << 6
            | u64::from(open.three) << 3
            | u64::from(jokers);
        match self.option_ranges.get(&key) {
            Some(&range) => range,
            None => {
                let start = self.arena.len();
                self.supply
                    .colour_options(v, c, open, jokers, &mut self.arena);
                // Cheapest first, so that combining can stop at the first one over budget.
                self.arena[start..].sort_by_key(ColourOption::cost);
                for option in &mut self.arena[start..] {
                    let left = u32::from(option.play.left);
                    option.hope = self.order.value(option.gain.plus(Score {
                        points: left * u32::from(v),
                        tiles: left,
                    }));
                }
                let range = (start, self.arena.len());
                self.option_ranges.insert(key, range);
                range
            }
        }
    }

    /// Replays the sweep from `start`, at each number taking the first move (in the order
    /// they are made) whose rest is worth exactly what the target still lacks, and collects
    /// the sets it lays.
    fn rebuild(&mut self, start: State, mut need: u32, mut target: u32) -> Vec<SolvedSet> {
        let mut table = Table::default();
        let mut state = start;
        let mut v = 1;
        let mut scratch = Scratch::default();
        loop {
            v = self.resume(v, &state);
            if v > MAX_NUMBER {
                break;
            }
            self.moves(v, &state, None, &mut scratch);
            let mut chosen = None;
            for m in &scratch.moves {
                let Some(rest) = target.checked_sub(self.order.value(m.gain)) else {
                    continue;
                };
                let rest_need = need.saturating_sub(m.gain.points);
                // Asking only above `rest - 1` makes the answer exact when it reaches `rest`.
                let found = self.best(v + 1, m.next, rest_need, rest.checked_sub(1));
                if found == Some(rest) {
                    chosen = Some((*m, rest, rest_need));
                    break;
                }
            }
            let Some((m, rest, rest_need)) = chosen else {
                // Unreachable: the target came from these very moves.
                debug_assert!(false, "no move reaches the target at {v}");
                break;
            };
            table.lay(v, &m, self.supply);
            target = rest;
            need = rest_need;
            state = m.next;
            v += 1;
        }
        table.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{Color, FACES, Tile};

    /// A dense XP rack from `seed` as face counts: `n` numbered tiles in `low..=low + 5`, at
    /// most three of a face, and four jokers.
    fn dense(seed: u64, n: usize, low: u8) -> [usize; FACES] {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut counts = [0; FACES];
        let mut placed = 0;
        while placed < n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let color = Color::ALL[(x % 4) as usize];
            let number = low + ((x >> 8) % 6) as u8;
            let tile = Tile::numbered(color, number).expect("numbers 1 to 13");
            if counts[tile.index()] < 3 {
                counts[tile.index()] += 1;
                placed += 1;
            }
        }
        counts[Tile::JOKER.index()] = 4;
        counts
    }

    /// The sets the sweep finds with dominance as given and the Lagrangian ceiling set up
    /// after `relax_after` colour options tried (or sooner on a rack with a wide gap, unless
    /// it is `u32::MAX`: never).
    fn sets(
        supply: &Supply,
        order: Order,
        need: u32,
        dominance: bool,
        relax_after: u32,
    ) -> Option<Vec<SolvedSet>> {
        let mut sweep = Sweep::new(supply, order);
        sweep.dominance = dominance;
        sweep.relax_after = relax_after;
        if relax_after == u32::MAX {
            sweep.relax_early = u32::MAX;
        }
        sweep.solve(need)
    }

    /// Dominance and the Lagrangian ceiling only cut the search: with them (the ceiling set
    /// up at once, before any meld is found, or after some work, or as usual, early where the
    /// gap is wide) the sweep lays
    /// exactly the sets the plain bounded sweep lays, on dense racks of every size and band.
    #[test]
    fn dominance_and_relaxation_change_no_answer() {
        for seed in 0..48u64 {
            let low = 1 + (seed % 8) as u8;
            let n = [14, 20, 28, 40][(seed % 4) as usize];
            let supply = Supply::new(&dense(seed, n, low), true);
            for (order, need) in [(Order::PointsFirst, 0), (Order::TilesFirst, 30)] {
                let plain = sets(&supply, order, need, false, u32::MAX);
                assert!(plain.is_some(), "seed {seed}");
                for (dominance, after) in [
                    (true, u32::MAX),
                    (false, 0),
                    (true, 0),
                    (true, 2_000),
                    (true, RELAX_AFTER),
                ] {
                    assert_eq!(
                        sets(&supply, order, need, dominance, after),
                        plain,
                        "seed {seed}, {order:?}, dominance {dominance}, relaxation after {after}"
                    );
                }
            }
        }
    }

    /// Face counts of a rack in notation.
    fn rack(text: &str) -> [usize; FACES] {
        super::super::face_counts(&crate::tile::parse_rack(text).expect("the rack parses"))
    }

    /// Dense 40-tile XP racks that took the longest before the Lagrangian ceiling (20–30 ms),
    /// from the benchmark's families banded 8–13 and 7–12.
    const HARD_RACKS: [&str; 3] = [
        "R8 R8 R9 R10 R10 R10 R11 R11 R11 R12 R13 B9 B9 B10 B11 B12 B12 B12 B13 B13 K8 K9 K10 \
         K10 K11 K12 K13 K13 K13 O8 O8 O9 O10 O11 O11 O11 J J J J",
        "R8 R8 R9 R9 R10 R11 R12 R13 R13 R13 B8 B9 B10 B10 B10 B11 B13 K8 K8 K9 K9 K10 K11 K12 \
         K12 K13 O8 O8 O9 O10 O11 O11 O11 O12 O13 O13 J J J J",
        "R7 R7 R8 R9 R9 R9 R10 R10 R10 R11 R12 B8 B8 B9 B10 B11 B11 B11 B12 B12 K7 K8 K9 K9 K10 \
         K11 K12 K12 K12 O7 O7 O8 O9 O10 O10 O10 J J J J",
    ];

    /// Whatever its prices, the ceiling is never below the best that can really be laid from
    /// a state: checked on every state along random walks through the moves of dense racks,
    /// at the starting prices, after a few steps and after the usual number.
    #[test]
    fn the_ceiling_is_never_below_the_best() {
        let mut racks: Vec<[usize; FACES]> = HARD_RACKS.iter().map(|r| rack(r)).collect();
        racks.extend(
            (0..6u64).map(|seed| dense(seed, [20, 40][(seed % 2) as usize], 2 + seed as u8)),
        );
        let mut checked = 0;
        for (r, counts) in racks.iter().enumerate() {
            let supply = Supply::new(counts, true);
            for order in [Order::PointsFirst, Order::TilesFirst] {
                let mut exact = Sweep::new(&supply, order);
                exact.relax_after = u32::MAX;
                exact.relax_early = u32::MAX;
                let start = exact.start();
                let best = exact.best(1, start, 0, None).expect("a meld");
                for steps in [0, 3, RELAX_STEPS] {
                    let mut ceiling = Ceiling::new(&supply, order, order.score(best), steps)
                        .expect("at most four jokers");
                    let mut x = r as u64 * 977 + u64::from(steps) + 1;
                    for _walk in 0..12 {
                        let (mut v, mut state) = (1, start);
                        loop {
                            v = exact.resume(v, &state);
                            if v > MAX_NUMBER {
                                break;
                            }
                            let truth = exact.best(v, state, 0, None);
                            let bound = ceiling.bound(&supply, v, &state, state.key(v));
                            assert!(
                                bound >= truth,
                                "rack {r}, {order:?}, {steps} steps, at {v}: {bound:?} < {truth:?}"
                            );
                            checked += 1;
                            let mut scratch = Scratch::default();
                            exact.moves(v, &state, None, &mut scratch);
                            // Only moves that can finish: the walk goes on to 13.
                            scratch
                                .moves
                                .retain(|m| exact.best(v + 1, m.next, 0, None).is_some());
                            if scratch.moves.is_empty() {
                                break;
                            }
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            state = scratch.moves[(x % scratch.moves.len() as u64) as usize].next;
                            v += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 2_000, "only {checked} states checked");
    }

    /// On the hardest dense racks the ceiling is close (within 5 points of the best meld
    /// where the sweep's own ceiling is over 30 above it) and cuts the states the sweep works
    /// out to under a third; the answer stays the same.
    #[test]
    fn the_ceiling_cuts_the_hardest_racks() {
        for text in HARD_RACKS {
            let supply = Supply::new(&rack(text), true);
            let order = Order::PointsFirst;
            let mut plain = Sweep::new(&supply, order);
            plain.relax_after = u32::MAX;
            plain.relax_early = u32::MAX;
            let start = plain.start();
            let best = plain.best(1, start, 0, None).expect("a meld");
            let mut relaxed = Sweep::new(&supply, order);
            assert_eq!(relaxed.best(1, start, 0, None), Some(best), "{text}");
            assert!(
                relaxed.worked * 3 < plain.worked,
                "{text}: {} states with the ceiling, {} without",
                relaxed.worked,
                plain.worked
            );
            let mut ceiling =
                Ceiling::new(&supply, order, order.score(best), RELAX_STEPS).expect("a ceiling");
            let root = ceiling
                .bound(&supply, 1, &start, start.key(1))
                .expect("a ceiling");
            let (root, best) = (order.score(root).points, order.score(best).points);
            let plain_root = supply.bound(1, &start).points;
            assert!(root <= best + 5, "{text}: ceiling {root}, best {best}");
            assert!(
                plain_root > best + 30,
                "{text}: plain ceiling {plain_root}, best {best}"
            );
        }
    }
}
