//! The memoised sweep over numbers 1–13, searched branch and bound, and the replay that turns
//! its best value into sets.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::SolvedSet;
use super::score::{Order, Score};
use super::supply::{ColourOption, Combine, Move, Open, PAST_END, Partial, SLOTS, State, Supply};
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
struct KeyHasher(u64);

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
type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

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

/// States worked out, per number the look-ahead ceilings ([`Sweep::ahead`]) are worked out
/// for, before the sweep works them out: they cost about as much, and most racks are solved
/// in fewer states.
const LOOK_AHEAD_AFTER: u32 = 125;

/// Searches per look-ahead ceiling, each asking only for values above the ceiling found so
/// far: a few give a ceiling close to the best at a fraction of the cost of the best itself.
const LOOK_AHEAD_TRIES: u32 = 8;

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
    /// By number `w` and jokers left: at most what can be laid from `w` on, whatever runs are
    /// open (`u32::MAX` where not worked out).
    ahead: [[u32; 8]; SLOTS + 1],
    /// States worked out so far.
    worked: u32,
    /// How many states to work out before the look-ahead ceilings (tests change it).
    look_ahead_after: u32,
    /// Whether memoised better states answer for worse ones (tests turn it off).
    dominance: bool,
}

impl<'a> Sweep<'a> {
    pub(super) fn new(supply: &'a Supply, order: Order) -> Self {
        let first = supply.next_number[1];
        let numbers = (first.saturating_add(2)..=MAX_NUMBER)
            .filter(|&w| supply.next_number[usize::from(w)] == w)
            .count() as u32;
        Sweep {
            supply,
            order,
            memo: KeyMap::default(),
            scratch: Vec::new(),
            option_ranges: KeyMap::default(),
            arena: Vec::new(),
            ahead: [[u32::MAX; 8]; SLOTS + 1],
            worked: 0,
            look_ahead_after: LOOK_AHEAD_AFTER * numbers.max(1),
            dominance: true,
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
        self.worked += 1;
        if self.worked == self.look_ahead_after {
            // A rack this hard meets thousands of states: room for them at once.
            self.memo.reserve(1 << 14);
            self.look_ahead();
        }
        let entry = self.work_out(v, state, need, floor);
        self.memo.insert(key, entry);
        entry.value
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

    /// Works out [`Self::ahead`] from 13 down to two numbers above the lowest: at each number
    /// `w`, a ceiling on the best from a state with as many runs of 3+ open in every colour as
    /// could go on at `w`. Those runs can do whatever the runs of any state at `w` do, so the
    /// best from any state with as many jokers is no higher. Numbers above are worked out
    /// first, so each search already prunes with the ceilings above it.
    fn look_ahead(&mut self) {
        let first = self.supply.next_number[1];
        for w in (first.saturating_add(2)..=MAX_NUMBER).rev() {
            for jokers in 0..=self.supply.jokers {
                let mut open = [Open::default(); 4];
                for (c, o) in open.iter_mut().enumerate() {
                    o.three = self.supply.count(c, w) + jokers;
                }
                let state = State { open, jokers };
                // Each search either finds the best (above the bar) or a lower ceiling.
                let mut ceiling = self.order.value(self.supply.bound(w, &state));
                for _ in 0..LOOK_AHEAD_TRIES {
                    match self.best(w, state, 0, ceiling.checked_sub(1)) {
                        Some(found) if found < ceiling => ceiling = found,
                        Some(_) => break,
                        None => {
                            ceiling = 0;
                            break;
                        }
                    }
                }
                self.ahead[usize::from(w)][usize::from(jokers)] = ceiling;
            }
        }
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
            if let Some(rest) = self.best(v + 1, m.next, rest_need, rest_floor) {
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
        let ahead = self.ahead[usize::from(v + 1)];
        let mut combine = Combine::new(self.supply, self.order, v, state.jokers, bar, ahead);
        combine.combine(&options, 0, Partial::default(), &mut scratch.moves);
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

    /// The sets the sweep finds with dominance and look-ahead ceilings as given.
    fn sets(
        supply: &Supply,
        order: Order,
        need: u32,
        dominance: bool,
        look_ahead_after: u32,
    ) -> Option<Vec<SolvedSet>> {
        let mut sweep = Sweep::new(supply, order);
        sweep.dominance = dominance;
        sweep.look_ahead_after = look_ahead_after;
        sweep.solve(need)
    }

    /// Dominance and the look-ahead ceilings only cut the search: with them (the ceilings
    /// worked out at once, or after the usual number of states) the sweep lays exactly the
    /// sets the plain bounded sweep lays, on dense racks of every size and band.
    #[test]
    fn dominance_and_look_ahead_change_no_answer() {
        for seed in 0..48u64 {
            let low = 1 + (seed % 8) as u8;
            let n = [14, 20, 28, 40][(seed % 4) as usize];
            let supply = Supply::new(&dense(seed, n, low), true);
            for (order, need) in [(Order::PointsFirst, 0), (Order::TilesFirst, 30)] {
                let plain = sets(&supply, order, need, false, u32::MAX);
                assert!(plain.is_some(), "seed {seed}");
                for (dominance, after) in [(true, u32::MAX), (false, 1), (true, 1), (true, 500)] {
                    assert_eq!(
                        sets(&supply, order, need, dominance, after),
                        plain,
                        "seed {seed}, {order:?}, dominance {dominance}, look-ahead after {after}"
                    );
                }
            }
        }
    }
}
