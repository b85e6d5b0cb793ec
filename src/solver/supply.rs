//! The rack as the sweep sees it, and every way to deal with the tiles of one number.

use super::groups;
use super::relax::{Ahead, Ceiling, Prefix};
use super::score::{Order, Score};
use crate::tile::{FACES, MAX_NUMBER, Tile};

/// Index of numbers 1..=13 in per-number arrays; slot 0 and 14 stay empty.
pub(super) const SLOTS: usize = MAX_NUMBER as usize + 2;
/// The number after the last.
pub(super) const PAST_END: u8 = MAX_NUMBER + 1;

/// The rack as the sweep sees it.
pub(super) struct Supply {
    /// Real tiles per colour and number.
    pub(super) counts: [[u8; SLOTS]; 4],
    /// Jokers the meld may use.
    pub(super) jokers: u8,
    /// Per colour and number: how many higher numbers up to 13 the rack lacks.
    pub(super) gaps_above: [[u8; SLOTS]; 4],
    /// The lowest number at or after `v` that has any real tile (`PAST_END` if none).
    pub(super) next_number: [u8; SLOTS + 1],
    /// Points and count of the real tiles numbered `v` or more.
    pub(super) from: [Score; SLOTS + 1],
    /// The highest number at or after `v` that has any real tile (0 if none).
    pub(super) top: [u8; SLOTS + 1],
}

impl Supply {
    pub(super) fn new(counts: &[usize; FACES], jokers_allowed: bool) -> Supply {
        let mut supply = Supply {
            counts: [[0; SLOTS]; 4],
            jokers: 0,
            gaps_above: [[0; SLOTS]; 4],
            next_number: [PAST_END; SLOTS + 1],
            from: [Score::default(); SLOTS + 1],
            top: [0; SLOTS + 1],
        };
        for tile in Tile::all_faces() {
            let count = u8::try_from(counts[tile.index()]).unwrap_or(u8::MAX);
            match (tile.color(), tile.number()) {
                (Some(c), Some(n)) => supply.counts[c.index()][usize::from(n)] = count,
                _ if jokers_allowed => supply.jokers = count,
                _ => {}
            }
        }
        for c in 0..4 {
            for v in (1..usize::from(MAX_NUMBER)).rev() {
                let missing = u8::from(supply.counts[c][v + 1] == 0);
                supply.gaps_above[c][v] = supply.gaps_above[c][v + 1] + missing;
            }
        }
        for v in (1..=usize::from(MAX_NUMBER)).rev() {
            let here: u32 = (0..4).map(|c| u32::from(supply.counts[c][v])).sum();
            supply.next_number[v] = if here > 0 {
                v as u8
            } else {
                supply.next_number[v + 1]
            };
            supply.from[v] = supply.from[v + 1].plus(Score {
                points: here * v as u32,
                tiles: here,
            });
            supply.top[v] = if supply.top[v + 1] == 0 && here > 0 {
                v as u8
            } else {
                supply.top[v + 1]
            };
        }
        supply
    }

    /// At most what can still be laid from number `w` on in `state`: every real tile from `w`
    /// up, and the jokers as high as they could possibly stand.
    ///
    /// No real tile left is above `top`, the highest number the rack still holds at or after
    /// `w` (or `w − 1`, where the open runs stop). A joker standing above `top` is in a run
    /// whose part above `top` is jokers only, from `top + 1` up; so `k` jokers above `top` are
    /// worth at most `(top + 1) + … + (top + k)` (one run does best), and each of the others at
    /// most `top`. Every joker is thus worth at most `min(13, top + i)` for a different `i`.
    ///
    /// The jokers that the short runs surely need at `w` and `w + 1` stand there, worth at most
    /// `w + 1`; when the rack still holds a tile numbered `w + 1` or more, they are no part of
    /// any chain above `top`, and only the others are counted as above.
    pub(super) fn bound(&self, w: u8, state: &State) -> Score {
        let reserve = state
            .open
            .iter()
            .enumerate()
            .map(|(c, &open)| self.jokers_needed(c, w, open).unwrap_or(0))
            .sum();
        self.bound_with(w, state, reserve)
    }

    /// [`Self::bound`] when the jokers the short runs surely need at `w` and `w + 1` are
    /// known: `reserve`.
    pub(super) fn bound_with(&self, w: u8, state: &State, reserve: u8) -> Score {
        let w = w.min(PAST_END);
        let mut top = self.top[usize::from(w)];
        if !state.idle() {
            top = top.max(w - 1);
        }
        let tiles = self.from[usize::from(w)];
        if top == 0 {
            return tiles;
        }
        let reserve = if top > w {
            reserve.min(state.jokers)
        } else {
            0
        };
        tiles
            .plus(joker_worth(top, state.jokers - reserve))
            .plus(Score {
                points: u32::from(reserve) * u32::from(w + 1),
                tiles: u32::from(reserve),
            })
    }

    pub(super) fn count(&self, c: usize, v: u8) -> u8 {
        self.counts[c].get(usize::from(v)).copied().unwrap_or(0)
    }

    /// The state to carry into number `w`: runs of 3+ beyond those that could possibly go on
    /// at `w` are dropped from the count, so states that differ only in runs about to stop
    /// anyway share one memo entry.
    pub(super) fn settle(&self, w: u8, mut state: State) -> State {
        for (c, open) in state.open.iter_mut().enumerate() {
            let room = if w > MAX_NUMBER {
                0
            } else {
                self.count(c, w) + state.jokers
            };
            open.three = open.three.min(room.saturating_sub(open.one + open.two));
        }
        state
    }

    /// Jokers that colour `c`'s short runs will surely need at `w` and `w + 1` (more than the
    /// real tiles there), or `None` when they would run past 13.
    pub(super) fn jokers_needed(&self, c: usize, w: u8, open: Open) -> Option<u8> {
        let short = open.one + open.two;
        if w > MAX_NUMBER && short > 0 || w >= MAX_NUMBER && open.one > 0 {
            return None;
        }
        Some(short.saturating_sub(self.count(c, w)) + open.one.saturating_sub(self.count(c, w + 1)))
    }

    /// Most leading jokers a run opened at `v` may take. A run starts with jokers only when it
    /// ends at 13, so it must be able to reach 13 with the jokers left.
    pub(super) fn max_lead(&self, c: usize, v: u8, spare: u8) -> u8 {
        let gaps = self.gaps_above[c][usize::from(v)];
        if spare > gaps {
            (spare - gaps).min(v - 1)
        } else {
            0
        }
    }

    /// Every way to deal with colour `c` at number `v`, given its open runs and the jokers.
    pub(super) fn colour_options(
        &self,
        v: u8,
        c: usize,
        open: Open,
        jokers: u8,
        out: &mut Vec<ColourOption>,
    ) {
        let real = self.count(c, v);
        for keep in 0..=open.three {
            let need = open.one + open.two + keep;
            for opening in 0..=real {
                let free = real - opening;
                // Continuing runs take real tiles first. A joker may stand in for a real tile
                // only to let that tile into a group (a joker beside an unused real tile could
                // swap with it), and that group may need the tile as its only numbered one.
                let most = need.min(free);
                let fewest = need.saturating_sub(jokers);
                for reals in (fewest..=most).rev() {
                    let run_jokers = need - reals;
                    let spare = jokers - run_jokers;
                    let base = ColourMove {
                        keep,
                        opened: [0; 5],
                        jokers: run_jokers,
                        left: free - reals,
                    };
                    let max_lead = self.max_lead(c, v, spare);
                    for_each_lead(opening, max_lead, spare, &mut |opened| {
                        // A run stopping where another of its colour starts: join them instead.
                        if keep == open.three || opened[0] == 0 {
                            let play = ColourMove { opened, ..base };
                            out.extend(self.option(v, c, open, play, jokers));
                        }
                    });
                }
            }
        }
    }

    /// What `play` lays and leaves for colour `c`, if its runs can still be finished with the
    /// jokers available.
    pub(super) fn option(
        &self,
        v: u8,
        c: usize,
        open: Open,
        play: ColourMove,
        jokers: u8,
    ) -> Option<ColourOption> {
        let continuing = u32::from(open.one + open.two + play.keep);
        let mut gain = Score {
            points: continuing * u32::from(v),
            tiles: continuing,
        };
        let mut lead_jokers = 0;
        for (lead, &n) in play.opened.iter().enumerate().filter(|(_, n)| **n > 0) {
            let lead = lead as u8;
            gain.tiles += u32::from(n) * (u32::from(lead) + 1);
            gain.points += u32::from(n) * ((v - lead)..=v).map(u32::from).sum::<u32>();
            lead_jokers += n * lead;
        }
        let after = Open {
            one: play.opened[0],
            two: open.one + play.opened[1],
            three: open.two + play.keep + play.opened[2..].iter().sum::<u8>(),
        };
        let used = play.jokers + lead_jokers;
        let reserve = self.jokers_needed(c, v + 1, after)?;
        (used + reserve <= jokers).then_some(ColourOption {
            play,
            open: after,
            jokers: used,
            reserve,
            strict: play.left > 0 && (play.keep < open.three || play.jokers > 0),
            gain,
            hope: 0,
        })
    }

    /// What the jokers still on the rack after number `v` could be worth at most, by how many
    /// there are: as [`Self::bound`] says, with the highest number any move at `v` can leave.
    fn joker_worth(&self, v: u8) -> [Score; 8] {
        let top = self.top[usize::from(v + 1)].max(v);
        std::array::from_fn(|n| joker_worth(top, n as u8))
    }
}

/// At most what `jokers` jokers are worth when no real tile is above `top`: the `i`-th as
/// `top + i`, up to 13 (see [`Supply::bound`]).
fn joker_worth(top: u8, jokers: u8) -> Score {
    let points = CHAIN
        .get(usize::from(top))
        .and_then(|row| row.get(usize::from(jokers)))
        .copied()
        .unwrap_or(13 * u16::from(jokers));
    Score {
        points: u32::from(points),
        tiles: u32::from(jokers),
    }
}

/// `CHAIN[top][n]` = `min(13, top + 1) + … + min(13, top + n)`.
const CHAIN: [[u16; 8]; MAX_NUMBER as usize + 1] = {
    let mut table = [[0; 8]; MAX_NUMBER as usize + 1];
    let mut top = 0;
    while top <= MAX_NUMBER as usize {
        let mut n = 1;
        while n < 8 {
            let worth = if top + n < 13 { top + n } else { 13 };
            table[top][n] = table[top][n - 1] + worth as u16;
            n += 1;
        }
        top += 1;
    }
    table
};

/// Makes the moves at one number out of the colours' options, leaving out the moves whose
/// bound does not beat a bar (they could not change what the caller does).
pub(super) struct Combine<'s> {
    supply: &'s Supply,
    order: Order,
    v: u8,
    jokers: u8,
    /// Moves not above it are left out; `None` makes every move.
    bar: Option<u32>,
    /// Real tiles at `v` of the colours after colour `c`, by `c`.
    later: [u8; 4],
    /// Those laid, and every real tile after `v`, as the objective weighs them.
    beyond: [u32; 4],
    /// The real tiles after `v`.
    after: Score,
    /// [`Supply::joker_worth`] at `v`.
    joker_worth: [Score; 8],
    /// Whether the rack holds a tile numbered `v + 2` or more.
    high: bool,
    /// The Lagrangian ceiling, where the sweep has set it up, and what the state's colours
    /// can lay from `v` on by it.
    relax: Option<(&'s mut Ceiling, Ahead)>,
    /// The highest bound among the moves left out.
    pub(super) skipped: Option<u32>,
    /// Colour options tried: the work done.
    pub(super) tried: u32,
}

impl<'s> Combine<'s> {
    pub(super) fn new(
        supply: &'s Supply,
        order: Order,
        v: u8,
        jokers: u8,
        bar: Option<u32>,
        relax: Option<(&'s mut Ceiling, Ahead)>,
    ) -> Self {
        let mut later = [0; 4];
        for c in (0..3).rev() {
            later[c] = later[c + 1] + supply.count(c + 1, v);
        }
        let after = supply.from[usize::from(v + 1)];
        let beyond = later.map(|n| {
            order.value(after.plus(Score {
                points: u32::from(n) * u32::from(v),
                tiles: u32::from(n),
            }))
        });
        Combine {
            supply,
            order,
            v,
            jokers,
            bar,
            later,
            beyond,
            after,
            joker_worth: supply.joker_worth(v),
            high: supply.top[usize::from(v + 1)] >= v + 2,
            relax,
            skipped: None,
            tried: 0,
        }
    }

    /// At most what the jokers not laid yet are worth when `used` are laid and `reserve` are
    /// surely needed by short runs at `v + 1` and `v + 2`: those stand there, and when the rack
    /// holds a tile numbered `v + 2` or more they are no part of a chain above it (see
    /// [`Supply::bound`]).
    fn jokers_hope(&self, used: u8, reserve: u8) -> Score {
        let free = self.jokers - used;
        if !self.high {
            return self.joker_worth[usize::from(free)];
        }
        self.joker_worth[usize::from(free - reserve)].plus(Score {
            points: u32::from(reserve) * u32::from(self.v + 2),
            tiles: u32::from(reserve),
        })
    }

    /// Leaves out (and remembers) a bound that does not beat the bar.
    fn hopeless(&mut self, bound: Score) -> bool {
        self.hopeless_value(self.order.value(bound))
    }

    /// [`Self::hopeless`] for a bound already weighed.
    fn hopeless_value(&mut self, bound: u32) -> bool {
        let out = Some(bound) <= self.bar;
        if out {
            self.skipped = self.skipped.max(Some(bound));
        }
        out
    }

    /// Combines the options of colours `c..4` within the joker budget, then adds the groups.
    ///
    /// A partial move is dropped early when even the best completion could not beat the bar:
    /// every real tile of the later colours and every left one laid at `v`, every real tile
    /// after `v` laid, and the jokers not laid yet worth what [`Supply::joker_worth`] says (a
    /// joker laid at `v` is worth `v`, no more than that); or, with the Lagrangian ceiling, the
    /// move so far and what [`Ceiling::completion`] says the rest can add.
    pub(super) fn combine(
        &mut self,
        options: &[&[ColourOption]; 4],
        c: usize,
        partial: Partial,
        out: &mut Vec<Move>,
    ) {
        if c == 4 {
            self.group_moves(&partial, out);
            return;
        }
        for option in options[c] {
            self.tried += 1;
            let used = partial.used + option.jokers;
            let reserve = partial.reserve + option.reserve;
            if used + reserve > self.jokers {
                break; // the options are sorted by cost
            }
            let hope = partial.hope + option.hope;
            let jokers = self.jokers_hope(used, reserve);
            if self.bar.is_some()
                && self.hopeless_value(hope + self.beyond[c] + self.order.value(jokers))
            {
                continue;
            }
            let mut next = partial;
            next.colours[c] = option.play;
            next.open[c] = option.open;
            next.used = used;
            next.reserve = reserve;
            next.left += option.play.left;
            next.hope = hope;
            next.must_use |= u8::from(option.strict) << c;
            next.gain = partial.gain.plus(option.gain);
            // With the Lagrangian ceiling: can the colours still to come, the groups and
            // everything after `v` add enough? (The last colour goes to the groups, which ask
            // the ceiling of each whole move.)
            if c < 3
                && let Some((relax, ahead)) = self.relax.as_mut()
            {
                relax.extend(self.supply, &mut next.prefix, c, self.v, option.open);
                // The colours not chosen yet have left nothing so far.
                let left = next.colours.map(|m| m.left);
                let free = self.jokers - used;
                // Every tile still to be laid, for what the ceiling's prices do not weigh.
                let real = u32::from(self.later[c] + next.left);
                let plain = self
                    .after
                    .plus(Score {
                        points: real * u32::from(self.v),
                        tiles: real,
                    })
                    .plus(jokers);
                let hope = relax
                    .completion(self.v, ahead, &next.prefix, c + 1, left, free, plain)
                    .map(|rest| self.order.value(next.gain).saturating_add(rest));
                match hope {
                    None => continue,
                    Some(hope) if self.hopeless_value(hope) => continue,
                    Some(_) => {}
                }
            }
            if c == 3 {
                // The last colour: straight to the groups, without a call for nothing.
                self.group_moves(&next, out);
            } else {
                self.combine(options, c + 1, next, out);
            }
        }
    }

    /// Completes `partial` with every feasible number of jokers in groups.
    fn group_moves(&mut self, partial: &Partial, out: &mut Vec<Move>) {
        let (v, jokers) = (self.v, self.jokers);
        let left = partial.colours.map(|m| m.left);
        for k in 0..=jokers - partial.used - partial.reserve {
            if self.bar.is_some() {
                // Every left tile grouped: a joker more in a group gains `v`, no more than
                // it could be worth later, so once this is hopeless so are all larger `k`.
                let reals = u32::from(partial.left + k);
                let hope = partial
                    .gain
                    .plus(Score {
                        points: reals * u32::from(v),
                        tiles: reals,
                    })
                    .plus(self.after)
                    .plus(self.jokers_hope(partial.used + k, partial.reserve));
                if self.hopeless(hope) {
                    break;
                }
            }
            // No real tile for a group: no group, and no joker can be in one.
            if partial.left == 0 && k > 0 {
                break;
            }
            let free = jokers - partial.used - k;
            let reals = if partial.left == 0 {
                0
            } else {
                match groups::most(v, left, k, partial.must_use) {
                    Some(reals) => reals,
                    None => continue,
                }
            };
            let laid = u32::from(reals + k);
            let gain = partial.gain.plus(Score {
                points: laid * u32::from(v),
                tiles: laid,
            });
            // The joker budget already covers what the short runs need next.
            let next = self.supply.settle(
                v + 1,
                State {
                    open: partial.open,
                    jokers: free,
                },
            );
            // The short runs' needs at `v + 1` and `v + 2` are the partial's reserve.
            let mut bound =
                self.order
                    .value(gain.plus(self.supply.bound_with(v + 1, &next, partial.reserve)));
            if self.hopeless_value(bound) {
                continue;
            }
            if let Some((relax, _)) = self.relax.as_mut() {
                let Some(rest) = relax.bound(self.supply, v + 1, &next, next.key(v + 1)) else {
                    continue;
                };
                bound = bound.min(self.order.value(gain).saturating_add(rest));
                if self.hopeless_value(bound) {
                    continue;
                }
            }
            out.push(Move {
                colours: partial.colours,
                group_jokers: k,
                must_use: partial.must_use,
                gain,
                bound,
                next,
            });
        }
    }
}

/// Open runs of one colour, by length so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Open {
    pub(super) one: u8,
    pub(super) two: u8,
    /// Three or more: may stop here.
    pub(super) three: u8,
}

impl Open {
    pub(super) fn is_empty(self) -> bool {
        self.one == 0 && self.two == 0 && self.three == 0
    }
}

/// What the rest of the sweep needs to know.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct State {
    pub(super) open: [Open; 4],
    pub(super) jokers: u8,
}

impl State {
    pub(super) fn idle(&self) -> bool {
        self.open.iter().all(|o| o.is_empty())
    }

    pub(super) fn all_runs_complete(&self) -> bool {
        self.open.iter().all(|o| o.one == 0 && o.two == 0)
    }

    /// Where the jokers are in [`Self::key`].
    pub(super) const JOKERS_SHIFT: u32 = 36;

    /// Where colour `c`'s counters are in [`Self::key`]: `one`, `two` and `three` at 6, 3 and 0
    /// bits above it.
    pub(super) const fn open_shift(c: usize) -> u32 {
        9 * (3 - c as u32)
    }

    /// Memo key: 3 bits per counter (at most 3 real tiles + 4 jokers of one face per number).
    pub(super) fn key(&self, v: u8) -> u64 {
        let mut key = u64::from(v) << 3 | u64::from(self.jokers);
        for o in &self.open {
            key = key << 9 | u64::from(o.one) << 6 | u64::from(o.two) << 3 | u64::from(o.three);
        }
        key
    }
}

/// What happens to one colour at one number.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ColourMove {
    /// Runs of 3+ that go on (the others stop before this number).
    pub(super) keep: u8,
    /// Runs opened with a real tile, indexed by how many jokers lead them.
    pub(super) opened: [u8; 5],
    /// Continuing runs that take a joker here (the others take a real tile).
    pub(super) jokers: u8,
    /// Real tiles left for groups (or the rack).
    pub(super) left: u8,
}

/// One way to deal with every tile of one number.
#[derive(Clone, Copy, Debug)]
pub(super) struct Move {
    pub(super) colours: [ColourMove; 4],
    pub(super) group_jokers: u8,
    /// Colours whose left tiles the groups must all take.
    pub(super) must_use: u8,
    pub(super) gain: Score,
    /// At most what the move and the rest after it can be worth, as the objective weighs it.
    pub(super) bound: u32,
    pub(super) next: State,
}

/// A move being built colour by colour.
#[derive(Clone, Copy, Default)]
pub(super) struct Partial {
    pub(super) colours: [ColourMove; 4],
    pub(super) open: [Open; 4],
    /// Jokers laid so far.
    pub(super) used: u8,
    /// Jokers the short runs so far will need at the next two numbers.
    pub(super) reserve: u8,
    /// Real tiles left for groups so far.
    pub(super) left: u8,
    /// The options' [`ColourOption::hope`] so far.
    pub(super) hope: u32,
    /// Colours whose left real tiles must all go into groups (bit per colour).
    pub(super) must_use: u8,
    pub(super) gain: Score,
    /// With the Lagrangian ceiling: the runs of the colours so far from the next number on.
    pub(super) prefix: Prefix,
}

/// One way to deal with one colour at one number, with what it uses and leaves.
#[derive(Clone, Copy, Debug)]
pub(super) struct ColourOption {
    pub(super) play: ColourMove,
    /// The colour's open runs afterwards.
    pub(super) open: Open,
    /// Jokers it lays (continuing runs and leading new ones).
    pub(super) jokers: u8,
    /// Jokers its short runs will surely need at the next two numbers.
    pub(super) reserve: u8,
    /// Its left real tiles must all go into groups: leaving one on the rack while a run of its
    /// colour stops just before it, or while a joker stands for it, is beaten by laying it.
    pub(super) strict: bool,
    pub(super) gain: Score,
    /// What it lays plus its left tiles, as the objective weighs it (set by the sweep, which
    /// knows the objective): its part of a partial move's ceiling.
    pub(super) hope: u32,
}

impl ColourOption {
    /// Jokers it lays or will surely need.
    pub(super) fn cost(&self) -> u8 {
        self.jokers + self.reserve
    }
}

/// Calls `f` with every way to give `opening` new runs their leading jokers: each at most
/// `max_lead`, together at most `budget`. The array counts runs by number of leading jokers.
pub(super) fn for_each_lead(opening: u8, max_lead: u8, budget: u8, f: &mut impl FnMut([u8; 5])) {
    if opening == 0 || max_lead == 0 {
        return f([opening, 0, 0, 0, 0]);
    }
    fn go(left: u8, lead: u8, budget: u8, acc: [u8; 5], f: &mut impl FnMut([u8; 5])) {
        if lead == 0 {
            let mut acc = acc;
            acc[0] = left;
            f(acc);
            return;
        }
        // `n` of the remaining runs get `lead` leading jokers.
        for n in 0..=left {
            if n * lead > budget {
                break;
            }
            let mut acc = acc;
            acc[usize::from(lead)] = n;
            go(left - n, lead - 1, budget - n * lead, acc, f);
        }
    }
    go(opening, max_lead.min(4), budget, [0; 5], f);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dominance finds better states' keys by adding to a key: the counters must sit where
    /// `JOKERS_SHIFT` and `open_shift` say.
    #[test]
    fn key_fields_sit_where_dominance_looks() {
        let state = State {
            open: [
                Open {
                    one: 1,
                    two: 2,
                    three: 3,
                },
                Open {
                    one: 0,
                    two: 1,
                    three: 0,
                },
                Open::default(),
                Open {
                    one: 2,
                    two: 0,
                    three: 1,
                },
            ],
            jokers: 2,
        };
        let key = state.key(9);
        let more_jokers = State { jokers: 3, ..state };
        assert_eq!(more_jokers.key(9), key + (1 << State::JOKERS_SHIFT));
        for c in 0..4 {
            let shift = State::open_shift(c);
            let mut longer = state;
            longer.open[c].three += 1;
            assert_eq!(longer.key(9), key + (1 << shift), "colour {c}");
            longer.open[c].two += 1;
            longer.open[c].one += 1;
            assert_eq!(
                longer.key(9),
                key + (1 << shift) + (1 << (shift + 3)) + (1 << (shift + 6)),
                "colour {c}"
            );
        }
    }

    #[test]
    fn leading_jokers_split_every_way() {
        let mut seen = Vec::new();
        for_each_lead(2, 2, 3, &mut |a| seen.push(a));
        // L values per run: {0,0} {0,1} {1,1} {0,2} {1,2}; {2,2} needs 4 jokers.
        assert_eq!(seen.len(), 5);
        assert!(seen.iter().all(|a| a.iter().sum::<u8>() == 2));
    }
}
