//! The best initial meld hidden in an unordered rack.
//!
//! "Can I meld 30 from this rack, and how?" is the question behind every disputed or missed
//! initial meld, so the answer must be exact: every legal joker placement (anywhere in a run,
//! in 3- and 4-tile groups, two jokers in one set) is considered, and jokers count as the tile
//! they stand for.
//!
//! # Why a sweep over numbers
//! Groups live inside one number and runs inside one colour, so the rack is swept from 1 to 13,
//! the dynamic programme of van Rijn, Takes & Vis ("The complexity of Rummikub problems", 2015).
//! Between two numbers the only thing the future needs to know is, per colour, how many runs are
//! still open and how long each is (1, 2, or 3 and more: a run of 3 may stop), plus the jokers
//! left. Several runs of one colour are interchangeable, so a state is a handful of counters
//! and fits in one `u64` key of a memo table. At each number every tile of that number is put
//! in a run (continuing or opening one), in a group, or left on the rack.
//!
//! Jokers are where exactness is usually lost, and also where the search could blow up. Three
//! exchange arguments keep it both exact and small: (1) a joker never stands for a tile in a run
//! while that real tile sits in a group or on the rack (swap them: same points, a joker freed);
//! (2) a run starts with jokers only when it ends at 13 (otherwise moving a joker to the top
//! end is worth more); (3) a run never stops at one number while another of the same colour
//! starts at the next (join them). Every solution can be rewritten into one obeying these rules
//! that is at least as good, so the search over such solutions finds the true optimum.
//!
//! A search over tiles with memoisation over the remaining rack was measured against this
//! sweep and lost (see the module's benchmark and the issue report); the sweep's states are far
//! fewer because a run's future tiles are not decided before the sweep reaches them.
//!
//! # Objectives
//! [`Objective::Points`] maximises the meld's value (ties: more tiles). [`Objective::Tiles`]
//! lays as many tiles as possible among melds that reach the threshold (ties: more points); for
//! it every state keeps the Pareto front of (tiles, points) pairs instead of one best value.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::str::FromStr;

use crate::meld::MeldProblem;
use crate::rules::RuleSet;
use crate::tile::{Color, FACES, Kind, MAX_NUMBER, SetInput, Tile, TileSet};

mod groups;

/// What "best" means for the solver.
///
/// # Example
/// ```
/// use rummikub_companion::solver::Objective;
/// assert_eq!("tiles".parse::<Objective>(), Ok(Objective::Tiles));
/// assert_eq!(Objective::default(), Objective::Points);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Objective {
    /// The largest total value (ties: more tiles laid).
    #[default]
    Points,
    /// The most tiles laid among melds that reach the threshold (ties: more points).
    Tiles,
}

impl Objective {
    /// `"points"` or `"tiles"`, as on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Objective::Points => "points",
            Objective::Tiles => "tiles",
        }
    }
}

impl fmt::Display for Objective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Objective {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_lowercase().as_str() {
            "points" | "value" => Ok(Objective::Points),
            "tiles" => Ok(Objective::Tiles),
            other => Err(format!(
                "unknown objective \"{other}\" (use points or tiles)"
            )),
        }
    }
}

/// What the solver needs to know besides the rack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Points the initial meld needs (30 by default).
    pub threshold: u32,
    /// Which set's tile counts apply (they bound the copies a rack may hold).
    pub tile_set: TileSet,
    /// What to maximise.
    pub objective: Objective,
    /// Whether jokers may be used (the "no jokers in the initial meld" house rule says no; the
    /// jokers then stay among the unused tiles).
    pub jokers_allowed: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions::from(&RuleSet::default())
    }
}

impl From<&RuleSet> for SolveOptions {
    fn from(rules: &RuleSet) -> Self {
        SolveOptions {
            threshold: rules.meld_threshold,
            tile_set: rules.tile_set,
            objective: Objective::Points,
            jokers_allowed: rules.jokers_in_initial_meld,
        }
    }
}

/// One set of the solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolvedSet {
    /// The tiles in the order to lay them; [`crate::meld::read_set`] reads this set with the
    /// same kind and points. Sets with a single numbered tile carry a declaration.
    pub input: SetInput,
    /// Run or group.
    pub kind: Kind,
    /// What each tile stands for, in the same order (jokers replaced).
    pub represented: Vec<Tile>,
    /// Points the set is worth.
    pub points: u32,
}

/// The solver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The sets to lay: groups, then runs, each by number.
    pub sets: Vec<SolvedSet>,
    /// The rack's tiles that are in no set, sorted.
    pub unused: Vec<Tile>,
    /// Points of all sets.
    pub total: u32,
    /// Points the meld needs.
    pub threshold: u32,
    /// Whether `total` reaches `threshold`. With [`Objective::Tiles`] and no meld reaching the
    /// threshold, the sets are the best by points.
    pub meets_threshold: bool,
    /// The objective that was asked for.
    pub objective: Objective,
}

impl Solution {
    /// Number of tiles laid.
    pub fn tiles_laid(&self) -> usize {
        self.sets.iter().map(|s| s.input.tiles.len()).sum()
    }
}

/// Why a rack cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The rack holds more copies of a tile than the tile set has.
    TooManyCopies {
        /// The tile.
        tile: Tile,
        /// How many the rack holds.
        count: usize,
        /// The tile set in use.
        tile_set: TileSet,
    },
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SolveError::TooManyCopies {
                tile,
                count,
                tile_set,
            } => MeldProblem::TooManyCopies {
                tile,
                count,
                tile_set,
            }
            .fmt(f),
        }
    }
}

impl std::error::Error for SolveError {}

/// Finds the best meld made only of rack tiles.
///
/// The rack is a multiset in any order. A rack holding more copies of a tile than
/// `options.tile_set` has (three R5 in a standard set) is an error, never a panic. The answer is
/// deterministic: the same rack in any order gives the same sets.
///
/// # Example
/// ```
/// use rummikub_companion::solver::{solve, SolveOptions};
/// use rummikub_companion::tile::parse_rack;
/// let rack = parse_rack("K9 B9 O9 J R2 K5").unwrap();
/// let solution = solve(&rack, &SolveOptions::default()).unwrap();
/// assert_eq!(solution.total, 36); // K9 B9 O9 and a joker as R9
/// assert!(solution.meets_threshold);
/// assert_eq!(solution.sets[0].input.to_string(), "B9 K9 O9 J");
/// ```
pub fn solve(rack: &[Tile], options: &SolveOptions) -> Result<Solution, SolveError> {
    let counts = face_counts(rack);
    if let Some(tile) =
        Tile::all_faces().find(|&t| counts[t.index()] > usize::from(options.tile_set.copies_of(t)))
    {
        return Err(SolveError::TooManyCopies {
            tile,
            count: counts[tile.index()],
            tile_set: options.tile_set,
        });
    }
    let supply = Supply::new(&counts, options.jokers_allowed);
    let mut sets = match options.objective {
        Objective::Points => Sweep::<Option<Score>>::new(&supply).solve(|best| *best),
        Objective::Tiles => Sweep::<Front>::new(&supply).solve(|front| {
            front.most_tiles_reaching(options.threshold)
        }),
    };
    sets.sort_by_key(|s| {
        let first = s.represented.first().copied().unwrap_or(Tile::JOKER);
        (s.kind, first.number(), first.color())
    });
    let mut left = counts;
    for tile in sets.iter().flat_map(|s| &s.input.tiles) {
        left[tile.index()] -= 1;
    }
    let unused = Tile::all_faces()
        .flat_map(|t| std::iter::repeat_n(t, left[t.index()]))
        .collect();
    let total = sets.iter().map(|s| s.points).sum();
    Ok(Solution {
        sets,
        unused,
        total,
        threshold: options.threshold,
        meets_threshold: total >= options.threshold,
        objective: options.objective,
    })
}

fn face_counts(rack: &[Tile]) -> [usize; FACES] {
    let mut counts = [0; FACES];
    for tile in rack {
        counts[tile.index()] += 1;
    }
    counts
}

/// Tiles and points laid: the two things the objectives weigh. Ordered by points, then tiles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Score {
    points: u32,
    tiles: u32,
}

impl Score {
    fn plus(self, other: Score) -> Score {
        Score {
            points: self.points + other.points,
            tiles: self.tiles + other.tiles,
        }
    }

    /// `self − other`, or `None` when `other` is larger in either part.
    fn minus(self, other: Score) -> Option<Score> {
        Some(Score {
            points: self.points.checked_sub(other.points)?,
            tiles: self.tiles.checked_sub(other.tiles)?,
        })
    }
}

/// The best that can still be laid from a state: one score, or a Pareto front of them.
trait Best: Clone {
    /// No way to finish from this state (a short run cannot be completed).
    fn impossible() -> Self;
    /// Nothing more to lay.
    fn nothing() -> Self;
    /// Keeps the better of `self` and every `child + gain`.
    fn absorb(&mut self, child: &Self, gain: Score);
    /// Whether `score` is one of the values this holds.
    fn reaches(&self, score: Score) -> bool;
}

/// Points objective: the single best score, `None` when impossible.
impl Best for Option<Score> {
    fn impossible() -> Self {
        None
    }

    fn nothing() -> Self {
        Some(Score::default())
    }

    fn absorb(&mut self, child: &Self, gain: Score) {
        if let Some(child) = child {
            let candidate = child.plus(gain);
            if self.is_none_or(|best| candidate > best) {
                *self = Some(candidate);
            }
        }
    }

    fn reaches(&self, score: Score) -> bool {
        *self == Some(score)
    }
}

/// Tiles objective: every (tiles, points) pair not beaten in both, sorted by tiles ascending
/// (so points descending). Empty when impossible.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Front(Vec<Score>);

impl Front {
    fn insert(&mut self, s: Score) {
        if self
            .0
            .iter()
            .any(|e| e.tiles >= s.tiles && e.points >= s.points)
        {
            return;
        }
        self.0.retain(|e| e.tiles > s.tiles || e.points > s.points);
        let at = self.0.partition_point(|e| e.tiles < s.tiles);
        self.0.insert(at, s);
    }

    /// The most tiles among scores reaching `threshold`; failing that the most points.
    fn most_tiles_reaching(&self, threshold: u32) -> Option<Score> {
        self.0
            .iter()
            .rev()
            .find(|s| s.points >= threshold)
            .or_else(|| self.0.first())
            .copied()
    }
}

impl Best for Front {
    fn impossible() -> Self {
        Front(Vec::new())
    }

    fn nothing() -> Self {
        Front(vec![Score::default()])
    }

    fn absorb(&mut self, child: &Self, gain: Score) {
        for s in &child.0 {
            self.insert(s.plus(gain));
        }
    }

    fn reaches(&self, score: Score) -> bool {
        self.0.contains(&score)
    }
}

/// Index of numbers 1..=13 in per-number arrays; slot 0 and 14 stay empty.
const SLOTS: usize = MAX_NUMBER as usize + 2;
/// The number after the last.
const PAST_END: u8 = MAX_NUMBER + 1;

/// The rack as the sweep sees it.
struct Supply {
    /// Real tiles per colour and number.
    counts: [[u8; SLOTS]; 4],
    /// Jokers the meld may use.
    jokers: u8,
    /// Per colour and number: how many higher numbers up to 13 the rack lacks.
    gaps_above: [[u8; SLOTS]; 4],
    /// The lowest number at or after `v` that has any real tile (`PAST_END` if none).
    next_number: [u8; SLOTS + 1],
}

impl Supply {
    fn new(counts: &[usize; FACES], jokers_allowed: bool) -> Supply {
        let mut supply = Supply {
            counts: [[0; SLOTS]; 4],
            jokers: 0,
            gaps_above: [[0; SLOTS]; 4],
            next_number: [PAST_END; SLOTS + 1],
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
            let any = (0..4).any(|c| supply.counts[c][v] > 0);
            supply.next_number[v] = if any { v as u8 } else { supply.next_number[v + 1] };
        }
        supply
    }

    fn count(&self, c: usize, v: u8) -> u8 {
        self.counts[c].get(usize::from(v)).copied().unwrap_or(0)
    }

    /// The state to carry into number `w`: runs of 3+ beyond those that could possibly go on
    /// at `w` are dropped from the count, so states that differ only in runs about to stop
    /// anyway share one memo entry.
    fn settle(&self, w: u8, mut state: State) -> State {
        for (c, open) in state.open.iter_mut().enumerate() {
            let room = if w > MAX_NUMBER { 0 } else { self.count(c, w) + state.jokers };
            open.three = open.three.min(room.saturating_sub(open.one + open.two));
        }
        state
    }

    /// Jokers that colour `c`'s short runs will surely need at `w` and `w + 1` (more than the
    /// real tiles there), or `None` when they would run past 13.
    fn jokers_needed(&self, c: usize, w: u8, open: Open) -> Option<u8> {
        let short = open.one + open.two;
        if w > MAX_NUMBER && short > 0 || w >= MAX_NUMBER && open.one > 0 {
            return None;
        }
        Some(short.saturating_sub(self.count(c, w)) + open.one.saturating_sub(self.count(c, w + 1)))
    }

    /// Most leading jokers a run opened at `v` may take. A run starts with jokers only when it
    /// ends at 13, so it must be able to reach 13 with the jokers left.
    fn max_lead(&self, c: usize, v: u8, spare: u8) -> u8 {
        let gaps = self.gaps_above[c][usize::from(v)];
        if spare > gaps {
            (spare - gaps).min(v - 1)
        } else {
            0
        }
    }

    /// Every way to deal with colour `c` at number `v`, given its open runs and the jokers.
    fn colour_options(&self, v: u8, c: usize, open: Open, jokers: u8, out: &mut Vec<ColourOption>) {
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
    fn option(&self, v: u8, c: usize, open: Open, play: ColourMove, jokers: u8) -> Option<ColourOption> {
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
        })
    }

    /// Combines the options of colours `c..4` within the joker budget, then adds the groups.
    fn combine(
        &self,
        v: u8,
        jokers: u8,
        options: &[Vec<ColourOption>; 4],
        c: usize,
        partial: Partial,
        out: &mut Vec<Move>,
    ) {
        if c == 4 {
            self.group_moves(v, jokers, &partial, out);
            return;
        }
        for option in &options[c] {
            let used = partial.used + option.jokers;
            let reserve = partial.reserve + option.reserve;
            if used + reserve > jokers {
                continue;
            }
            let mut next = partial;
            next.colours[c] = option.play;
            next.open[c] = option.open;
            next.used = used;
            next.reserve = reserve;
            next.must_use |= u8::from(option.strict) << c;
            next.gain = partial.gain.plus(option.gain);
            self.combine(v, jokers, options, c + 1, next, out);
        }
    }

    /// Completes `partial` with every feasible number of jokers in groups.
    fn group_moves(&self, v: u8, jokers: u8, partial: &Partial, out: &mut Vec<Move>) {
        let left = partial.colours.map(|m| m.left);
        for k in 0..=jokers - partial.used - partial.reserve {
            let Some(reals) = groups::most(v, left, k, partial.must_use) else {
                continue;
            };
            let laid = u32::from(reals + k);
            // The joker budget already covers what the short runs need next.
            let next = self.settle(
                v + 1,
                State {
                    open: partial.open,
                    jokers: jokers - partial.used - k,
                },
            );
            out.push(Move {
                colours: partial.colours,
                group_jokers: k,
                must_use: partial.must_use,
                gain: partial.gain.plus(Score {
                    points: laid * u32::from(v),
                    tiles: laid,
                }),
                next,
            });
        }
    }
}

/// Open runs of one colour, by length so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Open {
    one: u8,
    two: u8,
    /// Three or more: may stop here.
    three: u8,
}

impl Open {
    fn is_empty(self) -> bool {
        self.one == 0 && self.two == 0 && self.three == 0
    }
}

/// What the rest of the sweep needs to know.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct State {
    open: [Open; 4],
    jokers: u8,
}

impl State {
    fn idle(&self) -> bool {
        self.open.iter().all(|o| o.is_empty())
    }

    fn all_runs_complete(&self) -> bool {
        self.open.iter().all(|o| o.one == 0 && o.two == 0)
    }

    /// Memo key: 3 bits per counter (at most 3 real tiles + 4 jokers of one face per number).
    fn key(&self, v: u8) -> u64 {
        let mut key = u64::from(v) << 3 | u64::from(self.jokers);
        for o in &self.open {
            key = key << 9 | u64::from(o.one) << 6 | u64::from(o.two) << 3 | u64::from(o.three);
        }
        key
    }
}

/// What happens to one colour at one number.
#[derive(Clone, Copy, Debug, Default)]
struct ColourMove {
    /// Runs of 3+ that go on (the others stop before this number).
    keep: u8,
    /// Runs opened with a real tile, indexed by how many jokers lead them.
    opened: [u8; 5],
    /// Continuing runs that take a joker here (the others take a real tile).
    jokers: u8,
    /// Real tiles left for groups (or the rack).
    left: u8,
}

/// One way to deal with every tile of one number.
#[derive(Clone, Copy, Debug)]
struct Move {
    colours: [ColourMove; 4],
    group_jokers: u8,
    /// Colours whose left tiles the groups must all take.
    must_use: u8,
    gain: Score,
    next: State,
}

/// A move being built colour by colour.
#[derive(Clone, Copy, Default)]
struct Partial {
    colours: [ColourMove; 4],
    open: [Open; 4],
    /// Jokers laid so far.
    used: u8,
    /// Jokers the short runs so far will need at the next two numbers.
    reserve: u8,
    /// Colours whose left real tiles must all go into groups (bit per colour).
    must_use: u8,
    gain: Score,
}

/// One way to deal with one colour at one number, with what it uses and leaves.
#[derive(Clone, Copy, Debug)]
struct ColourOption {
    play: ColourMove,
    /// The colour's open runs afterwards.
    open: Open,
    /// Jokers it lays (continuing runs and leading new ones).
    jokers: u8,
    /// Jokers its short runs will surely need at the next two numbers.
    reserve: u8,
    /// Its left real tiles must all go into groups: leaving one on the rack while a run of its
    /// colour stops just before it, or while a joker stands for it, is beaten by laying it.
    strict: bool,
    gain: Score,
}

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

type Memo<B> = HashMap<u64, B, BuildHasherDefault<KeyHasher>>;

/// The sweep over numbers for one rack.
struct Sweep<'a, B> {
    supply: &'a Supply,
    memo: Memo<B>,
    /// Reused lists, one per recursion level.
    scratch: Vec<Scratch>,
    /// Colour options already worked out: where they are in `arena`.
    option_ranges: HashMap<u64, (usize, usize), BuildHasherDefault<KeyHasher>>,
    arena: Vec<ColourOption>,
}

impl<'a, B: Best> Sweep<'a, B> {
    fn new(supply: &'a Supply) -> Self {
        Sweep {
            supply,
            memo: Memo::default(),
            scratch: Vec::new(),
            option_ranges: HashMap::default(),
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
    fn solve(mut self, pick: impl Fn(&B) -> Option<Score>) -> Vec<SolvedSet> {
        let start = self.start();
        let root = self.best(1, start);
        match pick(&root) {
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

    /// The best that can be laid from number `v` on, in `state`.
    fn best(&mut self, v: u8, state: State) -> B {
        let v = self.resume(v, &state);
        if v > MAX_NUMBER {
            return if state.all_runs_complete() {
                B::nothing()
            } else {
                B::impossible()
            };
        }
        let key = state.key(v);
        if let Some(found) = self.memo.get(&key) {
            return found.clone();
        }
        let mut scratch = self.scratch.pop().unwrap_or_default();
        self.moves(v, &state, &mut scratch);
        let mut best = B::impossible();
        for m in &scratch.moves {
            let child = self.best(v + 1, m.next);
            best.absorb(&child, m.gain);
        }
        self.scratch.push(scratch);
        self.memo.insert(key, best.clone());
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
        self.supply.combine(v, state.jokers, options, 0, Partial::default(), moves);
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
                self.supply.colour_options(v, c, open, jokers, &mut self.arena);
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

/// Calls `f` with every way to give `opening` new runs their leading jokers: each at most
/// `max_lead`, together at most `budget`. The array counts runs by number of leading jokers.
fn for_each_lead(opening: u8, max_lead: u8, budget: u8, f: &mut dyn FnMut([u8; 5])) {
    if opening == 0 || max_lead == 0 {
        return f([opening, 0, 0, 0, 0]);
    }
    fn go(left: u8, lead: u8, budget: u8, acc: [u8; 5], f: &mut dyn FnMut([u8; 5])) {
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

/// A run being laid during the rebuild.
struct RunBuild {
    color: Color,
    start: u8,
    tiles: Vec<Tile>,
}

impl RunBuild {
    fn into_set(self) -> SolvedSet {
        let end = self.start + self.tiles.len() as u8 - 1;
        let represented: Vec<Tile> = (self.start..=end)
            .filter_map(|n| Tile::numbered(self.color, n))
            .collect();
        finished(Kind::Run, self.tiles, represented)
    }
}

/// A set with its reading. One numbered tile can be read either way, so it is declared.
fn finished(kind: Kind, tiles: Vec<Tile>, represented: Vec<Tile>) -> SolvedSet {
    let numbered = tiles.iter().filter(|t| !t.is_joker()).count();
    let points = represented
        .iter()
        .filter_map(|t| t.number())
        .map(u32::from)
        .sum();
    SolvedSet {
        input: SetInput {
            declared: (numbered == 1).then_some(kind),
            tiles,
        },
        kind,
        represented,
        points,
    }
}

/// The sets laid so far during the rebuild.
#[derive(Default)]
struct Table {
    open: [Vec<RunBuild>; 4],
    done: Vec<SolvedSet>,
}

impl Table {
    /// Lays the tiles of number `v` as move `m` says.
    fn lay(&mut self, v: u8, m: &Move, supply: &Supply) {
        for (c, color) in Color::ALL.into_iter().enumerate() {
            self.lay_runs(v, color, &m.colours[c], supply.count(c, v));
        }
        let left = m.colours.map(|cm| cm.left);
        self.lay_groups(v, left, m.group_jokers, m.must_use);
    }

    fn lay_runs(&mut self, v: u8, color: Color, m: &ColourMove, real: u8) {
        let Some(tile) = Tile::numbered(color, v) else {
            return;
        };
        let opening: u8 = m.opened.iter().sum();
        let mut reals = real - opening - m.left;
        let mut kept = 0;
        let mut still_open = Vec::new();
        for mut run in std::mem::take(&mut self.open[color.index()]) {
            if run.tiles.len() >= 3 {
                if kept == m.keep {
                    self.done.push(run.into_set());
                    continue;
                }
                kept += 1;
            }
            if reals > 0 {
                reals -= 1;
                run.tiles.push(tile);
            } else {
                run.tiles.push(Tile::JOKER);
            }
            still_open.push(run);
        }
        for (lead, &n) in m.opened.iter().enumerate() {
            for _ in 0..n {
                let mut tiles = vec![Tile::JOKER; lead];
                tiles.push(tile);
                still_open.push(RunBuild {
                    color,
                    start: v - lead as u8,
                    tiles,
                });
            }
        }
        self.open[color.index()] = still_open;
    }

    /// Forms the groups of number `v` from the real tiles `left` and `jokers` jokers.
    fn lay_groups(&mut self, v: u8, left: [u8; 4], jokers: u8, must_use: u8) {
        for shape in groups::arrange(v, left, jokers, must_use) {
            let mut tiles = Vec::new();
            let mut missing = Vec::new();
            for (c, color) in Color::ALL.into_iter().enumerate() {
                let Some(tile) = Tile::numbered(color, v) else {
                    continue;
                };
                if shape.colours >> c & 1 == 1 {
                    tiles.push(tile);
                } else {
                    missing.push(tile);
                }
            }
            // Jokers stand for the missing colours in order, as `meld::read_set` reads them.
            let mut represented = tiles.clone();
            represented.extend(missing.into_iter().take(usize::from(shape.jokers)));
            tiles.extend(std::iter::repeat_n(Tile::JOKER, usize::from(shape.jokers)));
            self.done.push(finished(Kind::Group, tiles, represented));
        }
    }

    fn finish(mut self) -> Vec<SolvedSet> {
        for runs in &mut self.open {
            for run in runs.drain(..) {
                self.done.push(run.into_set());
            }
        }
        self.done
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meld::read_set;
    use crate::tile::parse_rack;

    fn best_points(rack: &str) -> u32 {
        let rack = parse_rack(rack).expect("test rack parses");
        solve(&rack, &SolveOptions::default()).expect("solves").total
    }

    #[test]
    fn leading_jokers_split_every_way() {
        let mut seen = Vec::new();
        for_each_lead(2, 2, 3, &mut |a| seen.push(a));
        // L values per run: {0,0} {0,1} {1,1} {0,2} {1,2}; {2,2} needs 4 jokers.
        assert_eq!(seen.len(), 5);
        assert!(seen.iter().all(|a| a.iter().sum::<u8>() == 2));
    }

    #[test]
    fn jokers_go_where_they_are_worth_most() {
        assert_eq!(best_points("R11 R12 J"), 36);
        assert_eq!(best_points("R12 R13 J"), 36);
        assert_eq!(best_points("J J R1"), 6);
        assert_eq!(best_points("J J R13"), 39);
        assert_eq!(best_points("B10 B11 B12 B13 J"), 55);
    }

    #[test]
    fn over_supplied_rack_is_an_error() {
        let rack = parse_rack("R5 R5 R5 R6 R7").expect("parses");
        let err = solve(&rack, &SolveOptions::default()).expect_err("three R5");
        assert_eq!(err.to_string(), "three R5 but a standard set has two");
        let xp = SolveOptions {
            tile_set: TileSet::Xp,
            ..SolveOptions::default()
        };
        assert_eq!(solve(&rack, &xp).map(|s| s.total), Ok(18));
    }

    #[test]
    fn every_set_reads_back_with_its_points() {
        let rack = parse_rack("J J R13 R12 B7 K7 O1 O2 O4").expect("parses");
        let solution = solve(&rack, &SolveOptions::default()).expect("solves");
        for set in &solution.sets {
            let reading = read_set(&set.input).expect("valid");
            assert_eq!((reading.kind, reading.points), (set.kind, set.points));
            assert_eq!(reading.represented, set.represented);
        }
    }
}
