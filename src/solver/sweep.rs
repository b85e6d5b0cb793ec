//! The memoised sweep over numbers 1–13 and the replay that turns its best score into sets.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::SolvedSet;
use super::score::{Best, Score};
use super::supply::{ColourOption, Move, Open, PAST_END, Partial, State, Supply};
use super::table::Table;
use crate::tile::MAX_NUMBER;

/// Lists for one level of the sweep, kept to avoid allocating for every state.
#[derive(Default)]
struct Scratch {
    options: [Vec<ColourOption>; 4],
    moves: Vec<Move>,
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

/// The sweep over numbers for one rack.
pub(super) struct Sweep<'a, B> {
    supply: &'a Supply,
    /// The best from each state reached, by [`State::key`].
    memo: KeyMap<B>,
    /// Reused lists, one per recursion level.
    scratch: Vec<Scratch>,
    /// Colour options already worked out: where they are in `arena`.
    option_ranges: KeyMap<(usize, usize)>,
    arena: Vec<ColourOption>,
}

impl<'a, B: Best> Sweep<'a, B> {
    pub(super) fn new(supply: &'a Supply) -> Self {
        Sweep {
            supply,
            memo: KeyMap::default(),
            scratch: Vec::new(),
            option_ranges: KeyMap::default(),
            arena: Vec::new(),
        }
    }

    fn start(&self) -> State {
        State {
            open: [Open::default(); 4],
            jokers: self.supply.jokers,
        }
    }

    /// Runs the sweep, lets `pick` choose the target score from the root's best, and rebuilds
    /// the sets that reach it.
    pub(super) fn solve(mut self, pick: impl Fn(&B) -> Option<Score>) -> Vec<SolvedSet> {
        let start = self.start();
        let root = self.best(1, start);
        match pick(root) {
            Some(target) => self.rebuild(start, target),
            None => Vec::new(),
        }
    }

    /// Where the sweep really continues: a state with no open runs skips numbers without tiles.
    fn resume(&self, v: u8, state: &State) -> u8 {
        if state.idle() {
            self.supply.next_number[usize::from(v.min(PAST_END))]
        } else {
            v
        }
    }

    /// The best that can be laid from number `v` on, in `state`: worked out once, then lent
    /// from the memo (a Pareto front is a vector, too dear to copy for every move).
    fn best(&mut self, v: u8, state: State) -> &B {
        let v = self.resume(v, &state);
        let key = state.key(v);
        if !self.memo.contains_key(&key) {
            let best = self.work_out(v, state);
            self.memo.insert(key, best);
        }
        self.memo.entry(key).or_insert_with(B::impossible)
    }

    /// [`Self::best`] the first time: every move at `v`, each followed by the best after it.
    fn work_out(&mut self, v: u8, state: State) -> B {
        if v > MAX_NUMBER {
            return if state.all_runs_complete() {
                B::nothing()
            } else {
                B::impossible()
            };
        }
        let mut scratch = self.scratch.pop().unwrap_or_default();
        self.moves(v, &state, &mut scratch);
        // Most promising first, so that the bound can skip moves that cannot do better.
        let supply = self.supply;
        let bound = |m: &Move| m.gain.plus(supply.bound(v + 1, m.next.jokers));
        scratch.moves.sort_by_key(|m| std::cmp::Reverse(bound(m)));
        let mut best = B::impossible();
        for m in &scratch.moves {
            if !best.covers(bound(m)) {
                best.absorb(self.best(v + 1, m.next), m.gain);
            }
        }
        self.scratch.push(scratch);
        best
    }

    /// Every move at number `v` from `state`, into `scratch.moves`.
    fn moves(&mut self, v: u8, state: &State, scratch: &mut Scratch) {
        let Scratch { options, moves } = scratch;
        for (c, list) in options.iter_mut().enumerate() {
            list.clear();
            list.extend_from_slice(self.colour_options(v, c, state.open[c], state.jokers));
        }
        moves.clear();
        self.supply
            .combine(v, state.jokers, options, 0, Partial::default(), moves);
    }

    /// The options of colour `c` at `v`, worked out once per solve: many states share them.
    fn colour_options(&mut self, v: u8, c: usize, open: Open, jokers: u8) -> &[ColourOption] {
        let key = u64::from(v) << 14
            | (c as u64) << 12
            | u64::from(open.one) << 9
            | u64::from(open.two) << 6
            | u64::from(open.three) << 3
            | u64::from(jokers);
        let (start, end) = match self.option_ranges.get(&key) {
            Some(&range) => range,
            None => {
                let start = self.arena.len();
                self.supply
                    .colour_options(v, c, open, jokers, &mut self.arena);
                // Cheapest first, so that combining can stop at the first one over budget.
                self.arena[start..].sort_by_key(ColourOption::cost);
                let range = (start, self.arena.len());
                self.option_ranges.insert(key, range);
                range
            }
        };
        &self.arena[start..end]
    }

    /// Replays the sweep from `start`, at each number taking the first move whose rest still
    /// reaches `target`, and collects the sets it lays.
    fn rebuild(&mut self, start: State, mut target: Score) -> Vec<SolvedSet> {
        let mut table = Table::default();
        let mut state = start;
        let mut v = 1;
        let mut scratch = Scratch::default();
        loop {
            v = self.resume(v, &state);
            if v > MAX_NUMBER {
                break;
            }
            self.moves(v, &state, &mut scratch);
            let chosen = scratch.moves.iter().find(|m| {
                target
                    .minus(m.gain)
                    .is_some_and(|rest| self.best(v + 1, m.next).reaches(rest))
            });
            let Some(m) = chosen.copied() else {
                // Unreachable: the target came from these very moves.
                debug_assert!(false, "no move reaches the target at {v}");
                break;
            };
            table.lay(v, &m, self.supply);
            target = target.minus(m.gain).unwrap_or_default();
            state = m.next;
            v += 1;
        }
        table.finish()
    }
}
