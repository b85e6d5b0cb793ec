//! After the opening: the best play from a rack with the whole table rearranged.
//!
//! "I could have played my R7" is settled by an exact answer: the most rack tiles (or the most
//! rack value) that can be laid while every tile already on the table stays on the table, in
//! valid sets. Table jokers may change what they stand for but never go back to a rack. Among
//! equal answers the one that leaves the most table sets untouched wins, and the answer is the
//! new table with the changed sets marked.
//!
//! # Why a sweep over numbers
//! The same family as the opening solver ([`crate::solver`]): van Rijn, Takes & Vis ("The
//! complexity of Rummikub problems", 2015). The tiles are swept from 1 to 13; between two
//! numbers the future needs only, per colour, how many runs are open by length (1, 2, 3+) and
//! whether each already holds a numbered tile (a set of jokers only is not a set), the jokers
//! laid so far, and which untouched table sets are still being passed. At each number every
//! table tile must go somewhere (a run or a group); rack tiles may stay on the rack. Jokers are
//! wildcards: at a number a joker may continue or open a run of any colour, or fill a group.
//!
//! # Why "untouched" is part of the search
//! A table set is untouched when it is on the new table exactly as before. Deciding that a set
//! stays untouched is made when the sweep reaches the set's lowest number: its tiles are then
//! taken out of what the sweep must lay, and the set counts one in the score's lowest bits, so
//! the most valuable play is found first and among equal plays the one that keeps the most
//! sets. A set rebuilt identically by the sweep is never better than keeping it, so the count
//! is exact.
//!
//! # Score
//! [`By::Tiles`]: the most rack tiles laid, then the fewest table sets changed, then the fewest
//! tiles moved, then the most value laid. [`By::Points`]: the most value laid (numbers as
//! printed, a joker from the rack at the rules' joker penalty, the value it would have cost on
//! the rack), then the fewest sets changed, then the fewest tiles moved with those rack tiles.
//! The sweep ranks what is laid and the sets kept (then, by tiles, the points); the moves are
//! the layout's (`arrange`, after the sweep). One `u64` per score, what counts first highest
//! (`Measure`): by tiles a set kept counts one more than the whole rack is worth, so no value,
//! however large a joker's, is read as a set kept or a tile.
//!
//! # Dead ends
//! Keeping sets takes their tiles out of reach, and most states the fewest-changes search met
//! on the hardest tables could not be laid out at all: a run of one tile whose next numbers are
//! all held by kept sets, a group begun with too few colours left. `Sweep::jokers_needed`
//! counts, cheaply, the jokers such a state lacks at the least, and the state is cut when that
//! is more than the jokers left.
//!
//! # The widest state
//! At each number, the state with as many closable runs per colour as the number can continue
//! (and no kept set) can do all any state there with as many jokers laid can: when even it
//! cannot reach what a state must, the state is cut (`Sweep::suffix_reaches`). Its answers are
//! memoised like any state's, a handful per number. Asked in the search with every set free
//! (also where that search bounds the second), once it has expanded `SUFFIX_AFTER` states: it
//! pays on the hardest tables, not on the small ones.
//!
//! # The ceiling
//! A search not done after `CEILING_AFTER` states is begun again with a Lagrangian ceiling
//! (`play/ceiling.rs`): runs by colour and groups by number solved apart, tied by integer
//! prices on the tiles, an exact bound on what a state can still lay (the first search) or
//! keep (the second). From the ceiling at the start down, level by level, the first level a
//! play reaches is the best. The first search looks for what is laid alone; the points that
//! break ties by tiles come in the second, which adds the points left on the rack (less than
//! one set) wherever it asks the first search or the ceiling.
//!
//! # Steps
//! How the sweep lays out the changed sets is chance: `arrange` lays the tiles out again, as
//! many laid and as many sets kept, so that the fewest tiles move (by tiles it may lay other
//! rack tiles, of fewer points), and [`moves`] turns the table before into that table in those
//! moves, as steps a person can make; [`Play::steps`] holds them. On the hardest tables the
//! layout's searches have limits: the fewest moves there are the fewest found (see
//! `play/arrange.rs`).

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

mod arrange;
mod ceiling;
pub mod moves;

use ceiling::{Ceiling, Objective};

use crate::meld::{SetProblem, read_set};
use crate::tile::{Color, FACES, Kind, MAX_NUMBER, SetInput, Tile, TileSet, TooManyCopies};

/// What "best" means for [`best_play`].
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum By {
    /// The most rack tiles laid (ties: more value).
    #[default]
    Tiles,
    /// The most rack value laid (ties: more tiles).
    Points,
}

impl By {
    /// `"tiles"` or `"points"`, as on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            By::Tiles => "tiles",
            By::Points => "points",
        }
    }
}

impl std::str::FromStr for By {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_lowercase().as_str() {
            "tiles" => Ok(By::Tiles),
            "points" | "value" => Ok(By::Points),
            other => Err(format!("unknown measure \"{other}\" (use tiles or points)")),
        }
    }
}

/// Options of [`best_play`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayOptions {
    /// Which set's tile counts apply.
    pub tile_set: TileSet,
    /// What to maximise.
    pub by: By,
    /// What a joker laid from the rack is worth with [`By::Points`] (the rules' joker penalty).
    pub joker_value: u32,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            tile_set: TileSet::Standard,
            by: By::Tiles,
            joker_value: 30,
        }
    }
}

/// One set of the new table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSet {
    /// The tiles in the order to lay them (one numbered tile: declared).
    pub input: SetInput,
    /// Run or group.
    pub kind: Kind,
    /// What each tile stands for.
    pub represented: Vec<Tile>,
    /// `None` for a set that changed or is new; `Some(i)` for the table's set `i` (0-based) left
    /// as it was.
    pub kept: Option<usize>,
    /// The table's set this one is, changed or not (the tiles they share stay in place, see
    /// [`moves`]); `None` for a new set.
    pub continues: Option<usize>,
}

/// The answer of [`best_play`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    /// The new table: the untouched sets first, in table order, then the changed and new ones.
    pub table: Vec<TableSet>,
    /// Tiles laid from the rack, sorted.
    pub placed: Vec<Tile>,
    /// Value of `placed` (numbers; a joker at the joker value), at most `u32::MAX`.
    pub points: u32,
    /// How many of the table's sets are no longer on the table as they were.
    pub sets_changed: usize,
    /// The steps from the table before to this one, fewest tiles moved (see [`moves`]).
    pub steps: Vec<moves::Step>,
}

impl Play {
    /// How many tiles the steps move (each once; a rack tile laid is one).
    pub fn moves(&self) -> usize {
        self.steps.iter().map(|s| s.tiles.len()).sum()
    }

    /// Puts the steps from `table` (the table before) in, and which set each set after is.
    fn with_steps(mut self, table: &[SetInput]) -> Play {
        // The new table holds every tile of the old one: always a plan.
        if let Some(plan) = moves::plan(table, &self.table) {
            for (set, home) in self.table.iter_mut().zip(&plan.homes) {
                set.continues = *home;
            }
            self.steps = plan.steps;
        }
        self
    }

    /// Indices into [`Play::table`] of the sets that changed or are new.
    pub fn changed(&self) -> Vec<usize> {
        self.table
            .iter()
            .enumerate()
            .filter(|(_, s)| s.kept.is_none())
            .map(|(i, _)| i)
            .collect()
    }
}

/// Why [`best_play`] refuses its input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// A table set is not valid (0-based index).
    InvalidSet {
        /// Which set.
        index: usize,
        /// Why.
        problem: SetProblem,
    },
    /// The table and the rack hold more copies of a tile than the set has.
    TooManyCopies(TooManyCopies),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::InvalidSet { index, problem } => {
                write!(f, "table set {} is not valid: {problem}", index + 1)
            }
            PlayError::TooManyCopies(e) => write!(f, "table and rack: {e}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// Run classes: index `(length − 1) × 2 + holds a numbered tile`, length capped at 3.
const CLASSES: usize = 6;
const CLOSABLE: usize = 5;

const fn class(len: u8, real: bool) -> usize {
    (len as usize - 1) * 2 + real as usize
}

const fn class_len(k: usize) -> u8 {
    (k / 2) as u8 + 1
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct State {
    runs: [[u8; CLASSES]; 4],
    /// Jokers laid so far (in runs, groups and kept sets).
    used: u8,
    /// Numbered tiles of each colour put in groups at the current number.
    group: [u8; 4],
    /// Kept table sets not yet passed.
    kept: u64,
}

impl State {
    /// Before the first number: nothing open, no joker laid, no set kept.
    const START: State = State {
        runs: [[0; CLASSES]; 4],
        used: 0,
        group: [0; 4],
        kept: 0,
    };

    /// The state as two words for the memo: runs (3 bits a count, at most 7 runs a class),
    /// jokers and group counts in the first, the kept sets in the second.
    fn key(&self) -> (u128, u64) {
        let mut k: u128 = 0;
        for colour in &self.runs {
            for &n in colour {
                k = (k << 3) | u128::from(n);
            }
        }
        k = (k << 3) | u128::from(self.used);
        for &g in &self.group {
            k = (k << 2) | u128::from(g);
        }
        (k, self.kept)
    }

    /// Where in the first word of [`State::key`] the count of colour `c`'s runs of class `k`
    /// starts: after the two bits of each group count and the three of the jokers, the last
    /// colour's last class first.
    const fn run_bit(c: usize, k: usize) -> u32 {
        (8 + 3 + 3 * ((3 - c) * CLASSES + (CLASSES - 1 - k))) as u32
    }
}

/// A multiply-and-rotate hash for the memo's keys (already well-mixed integers; SipHash was a
/// quarter of the solver's time).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(26) ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn write_u128(&mut self, n: u128) {
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }

    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}

/// One step's memo: the best score from a state on, or with [`BELOW`] set, a number the best
/// is known to be below (below 0: the table cannot be laid from there).
type Memo = HashMap<(u128, u64), u64, BuildHasherDefault<KeyHasher>>;

/// The flag of a memo entry that is a ceiling, not an answer.
const BELOW: u64 = 1 << 63;

/// One way on from a state: the next step, the next state, what it gains, the action.
type Move = (u8, State, u64, Action);

/// Receives one way to continue the runs: per class (numbered, jokers), new runs (numbered, jokers).
type Emit<'e> = dyn FnMut(&[(u8, u8); CLASSES], u8, u8) + 'e;

/// Group plans per (numbered tiles by colour, jokers).
type Plans = HashMap<([u8; 4], u8), Option<Vec<(u8, u8)>>>;

#[derive(Clone, Copy, Debug)]
enum Action {
    Keep(u64),
    Colour {
        from_rack: u8,
        to_group: u8,
        /// Per class: runs continued with a numbered tile, with a joker.
        cont: [(u8, u8); CLASSES],
        new_real: u8,
        new_joker: u8,
    },
    Groups(u8),
}

/// A table set as the sweep sees it.
struct Known {
    kind: Kind,
    low: u8,
    high: u8,
    jokers: u8,
    /// Numbered tiles: (colour, number).
    real: Vec<(usize, u8)>,
}

impl Known {
    fn of(set: &SetInput) -> Result<Known, SetProblem> {
        let reading = read_set(set)?;
        let numbers: Vec<u8> = reading
            .represented
            .iter()
            .filter_map(|t| t.number())
            .collect();
        Ok(Known {
            kind: reading.kind,
            low: numbers.iter().copied().min().unwrap_or(1),
            high: numbers.iter().copied().max().unwrap_or(1),
            jokers: set.tiles.iter().filter(|t| t.is_joker()).count() as u8,
            real: set
                .tiles
                .iter()
                .filter_map(|t| Some((t.color()?.index(), t.number()?)))
                .collect(),
        })
    }
}

/// Finds the best play: the table as given (each set valid), the rack in any order.
///
/// # Example
/// ```
/// use rummikub_companion::play::{best_play, PlayOptions};
/// use rummikub_companion::tile::{parse_rack, parse_sets};
/// let table = parse_sets("R5 R6 R7 | B9 K9 O9").unwrap();
/// let rack = parse_rack("R8 R9 K2").unwrap();
/// let play = best_play(&table, &rack, &PlayOptions::default()).unwrap();
/// assert_eq!(play.placed.len(), 2); // R5 R6 R7 R8 R9
/// assert_eq!(play.changed(), vec![1]); // the group is kept, the run changed
/// ```
pub fn best_play(
    table: &[SetInput],
    rack: &[Tile],
    options: &PlayOptions,
) -> Result<Play, PlayError> {
    let never = AtomicBool::new(false);
    best_play_unless(table, rack, options, &never)
        .unwrap_or_else(|| unreachable!("nothing sets the flag, so the search runs to its end"))
}

/// [`best_play`], given up (`None`) soon after `stop` is set: for a caller whose question
/// has changed (the window, as the texts are typed), so that a stale search does not hold a
/// core for the seconds the hardest tables take. The flag is read once per state searched.
pub fn best_play_unless(
    table: &[SetInput],
    rack: &[Tile],
    options: &PlayOptions,
    stop: &AtomicBool,
) -> Option<Result<Play, PlayError>> {
    best_play_then(table, rack, options, stop, &mut |_| {})
}

/// What the best play lays, known before its arrangement: the most tiles (or points) take
/// the first of [`best_play`]'s two searches, milliseconds even on the hardest tables; the
/// fewest changed sets can take the second one longer (see `benches/play.rs`). Only what
/// counts first is known then: among plays that lay as many tiles, fewer changed sets win
/// over more points, so the points come with the arrangement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Most {
    /// By tiles: how many rack tiles the best play lays.
    Tiles(usize),
    /// By points: the value it lays (a joker at the joker value), at most `u32::MAX`.
    Points(u32),
}

impl Most {
    /// What `play` lays, in the measure of `by`.
    pub fn of(play: &Play, by: By) -> Most {
        match by {
            By::Tiles => Most::Tiles(play.placed.len()),
            By::Points => Most::Points(play.points),
        }
    }
}

/// [`best_play_unless`], handing `report` what the best play lays as soon as the first search
/// knows it (before the search for the fewest changes): a window can say it while the
/// arrangement is still being worked out. Called at most once; not for input refused, nor
/// when nothing can be laid, nor when stopped first.
pub fn best_play_then(
    table: &[SetInput],
    rack: &[Tile],
    options: &PlayOptions,
    stop: &AtomicBool,
    report: &mut dyn FnMut(Most),
) -> Option<Result<Play, PlayError>> {
    solve(
        table,
        rack,
        options,
        stop,
        report,
        Tuning::default(),
        &mut 0,
    )
}

/// When the searches' costlier bounds start (tests compare them always on with always off).
#[derive(Clone, Copy, Debug)]
struct Tuning {
    /// States before the suffix bound is asked ([`SUFFIX_AFTER`]).
    suffix_after: u64,
    /// States before a search is begun again with a Lagrangian ceiling ([`CEILING_AFTER`]).
    ceiling_after: u64,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            suffix_after: SUFFIX_AFTER,
            ceiling_after: CEILING_AFTER,
        }
    }
}

/// [`best_play_then`], its costlier bounds started as `tuning` says; `cuts` is told how many
/// states the suffix bound cut.
fn solve(
    table: &[SetInput],
    rack: &[Tile],
    options: &PlayOptions,
    stop: &AtomicBool,
    report: &mut dyn FnMut(Most),
    tuning: Tuning,
    cuts: &mut u64,
) -> Option<Result<Play, PlayError>> {
    let mut known = Vec::with_capacity(table.len());
    for (index, set) in table.iter().enumerate() {
        match Known::of(set) {
            Ok(k) => known.push(k),
            Err(problem) => return Some(Err(PlayError::InvalidSet { index, problem })),
        }
    }
    let all: Vec<Tile> = table
        .iter()
        .flat_map(|s| s.tiles.iter().copied())
        .chain(rack.iter().copied())
        .collect();
    if let Err(e) = options.tile_set.check_supply(&all) {
        return Some(Err(PlayError::TooManyCopies(e)));
    }
    let start = State::START;
    // First what can be laid at all, every table set free to change (no "kept" in the state:
    // far fewer states); then the fewest changes among plays that lay that much, with every
    // state that cannot reach it cut off. The table as it is always fits, so neither search is
    // infeasible at the root.
    let mut free = Sweep::new(table, &known, rack, options, false, stop);
    free.suffix_after = tuning.suffix_after;
    free.ceiling_after = tuning.ceiling_after;
    let most = free.run(&start, 0);
    *cuts = free.suffix_cuts;
    if free.aborted {
        return None;
    }
    if let Some(most) = most.filter(|&most| most > 0) {
        report(free.measure.decode(most));
    }
    let mut sweep = Sweep::new(table, &known, rack, options, true, stop);
    sweep.ceiling_after = tuning.ceiling_after;
    // The first search, its memo kept, bounds every state of the second (see Sweep::relaxed)
    // when the best play leaves rack value behind. When it lays the whole rack, proving in the
    // free search that a kept set leaves the rest unlayable costs more than it saves, now that
    // dead ends are cut by Sweep::jokers_needed (benches/play.rs: 50 standard cases a family,
    // the 60-tile tables' median 20 -> 11 ms; the dense XP tables were 6 to 13 times slower).
    sweep.bound_relaxed = most.is_some_and(|most| most < free.bound(FIRST_STEP));
    sweep.free = Some(Box::new(free));
    // Among plays that lay the most, the most sets kept and then the rest of the score: the
    // bar is what counts first alone.
    let found = most.and_then(|most| sweep.run(&start, sweep.measure.first(most)));
    *cuts = sweep.free.as_ref().map_or(0, |free| free.suffix_cuts);
    if sweep.aborted {
        return None;
    }
    let Some(best) = found else {
        return Some(Ok(sweep.unchanged()));
    };
    let play = sweep.replay(start, best);
    if sweep.aborted {
        return None;
    }
    let play = arrange::fewest_moves(table, rack, play, options, stop)?;
    Some(Ok(play.with_steps(table)))
}

/// What [`lay_out`] lays: the points of the rack tiles it lays, the sets (when asked to build
/// them) and those rack tiles.
type LaidOut = (u32, Vec<TableSet>, Vec<Tile>);

/// The tiles of `pool` (counts per face) laid out as valid sets, every one of them, with `laid`
/// of the tiles of `rack` among them (the most points; by the sweep, as a play's table and
/// rack, without the Lagrangian ceiling, which is no help with so few states): `Some(None)`
/// when they cannot be, or when the sweep would expand more than `budget` states to know;
/// the points, and the sets and rack tiles when `build`; `None` when `stop` was set first.
/// `states` is told how many states the sweep expanded.
#[allow(clippy::too_many_arguments)]
fn lay_out(
    pool: &[u8; FACES],
    rack: &[u8; FACES],
    laid: u32,
    joker_value: u32,
    stop: &AtomicBool,
    build: bool,
    budget: u64,
    states: &mut u64,
) -> Option<Option<LaidOut>> {
    let options = PlayOptions {
        joker_value,
        ..PlayOptions::default()
    };
    // The pool as the table's tiles in one heap: the sweep reads a table's sets only for
    // the tiles they hold, and with no `Known` for it there is no set to keep.
    let heap = [SetInput {
        declared: None,
        tiles: moves::tiles_of(pool),
    }];
    let rack = moves::tiles_of(rack);
    // The second search's measure (the points below the tiles), with no set to keep.
    let mut sweep = Sweep::new(&heap, &[], &rack, &options, true, stop);
    let start = State::START;
    let unit = sweep.measure.unit();
    let need = u64::from(laid) * unit;
    sweep.left = budget;
    let found = sweep.search(FIRST_STEP, &start, need);
    *states += sweep.expanded;
    if sweep.aborted {
        return (!stop.load(Ordering::Relaxed)).then_some(None);
    }
    sweep.left = u64::MAX;
    // More than `laid` cannot be: the caller's play lays the most there is.
    Some(
        found
            .filter(|&best| best / unit == u64::from(laid))
            .map(|best| {
                let points = u32::try_from(best % unit).unwrap_or(u32::MAX);
                if build {
                    let play = sweep.replay(start, best);
                    (points, play.table, play.placed)
                } else {
                    (points, Vec::new(), Vec::new())
                }
            }),
    )
}

/// How many states the free search may expand to bound one state of the second search
/// before it gives up (and the state is searched as it is). 30 to 1,000 measured alike on the
/// hardest tables; without a limit some proofs cost more than the states they cut.
const RELAXED_BUDGET: u64 = 300;

/// States a search expands before it is begun again with a Lagrangian ceiling (see
/// [`Sweep::run`]): most tables are answered in fewer, where building the ceiling would cost
/// more than the search.
const CEILING_AFTER: u64 = 2_000;

/// Subgradient steps that set the ceiling's prices.
const CEILING_STEPS: u32 = 40;

/// States a search expands before it also asks, at each number, whether the widest state
/// there (see [`Sweep::widest`]) can still reach what it must: on small tables the widest
/// states cost more to search than the few states they would cut (measured: twice the states
/// on the 20-tile tables), on the hardest they cut most of what is left.
const SUFFIX_AFTER: u64 = 20_000;

const PHASES: u8 = 6;
const FIRST_STEP: u8 = PHASES; // number 1, phase 0
const END_STEP: u8 = (MAX_NUMBER + 1) * PHASES;

struct Sweep<'a> {
    table: &'a [SetInput],
    known: &'a [Known],
    /// Table tiles per (colour, number).
    on_table: [[u8; 14]; 4],
    on_rack: [[u8; 14]; 4],
    table_jokers: u8,
    rack_jokers: u8,
    measure: Measure,
    joker_value: u32,
    /// Per colour and number: the table sets (bits) holding that tile.
    holders: [[u64; 14]; 4],
    /// Per number: the table sets whose highest number is below it.
    passed: [u64; 15],
    /// Per number: the table sets (the first 64) whose lowest number it is.
    starting: [Vec<usize>; 14],
    /// Per colour and number: how many runs could be continued at the next number (its tiles
    /// on table and rack, and every joker). More closable runs than that are all alike.
    cap: [[u8; 14]; 4],
    /// Per step: what the rack tiles from there on could gain at most.
    rack_from: Vec<u64>,
    /// Per step: the table sets whose keep is decided from there on.
    kept_from: Vec<u64>,
    /// What every rack joker laid would gain.
    joker_bound: u64,
    /// Per step: the points the rack tiles from there on and every rack joker could add
    /// below the sets kept (by tiles in the second search; else nothing), less than a set:
    /// what the ceiling and the first search leave out.
    points_from: Vec<u64>,
    /// One memo per step.
    memo: Vec<Memo>,
    /// The search with every set free, which bounds this one (`None` in that search itself).
    free: Option<Box<Sweep<'a>>>,
    /// Per table set (the first 64): its shape, for [`Sweep::relaxed`].
    shapes: Vec<Shape>,
    /// Whether to bound states by the free search from [`relaxed`] states (see [`best_play`]).
    bound_relaxed: bool,
    /// States this search may still expand before it gives up (`u64::MAX`: no limit).
    left: u64,
    /// Whether it gave up: what it returned proves nothing and nothing was memoised on the way.
    aborted: bool,
    /// States expanded so far.
    expanded: u64,
    /// How many states the suffix bound waits for ([`SUFFIX_AFTER`]; read in the search with
    /// every set free only).
    suffix_after: u64,
    /// States the suffix bound cut.
    suffix_cuts: u64,
    /// Per (number, jokers laid): whether its [`Sweep::widest`] state is being searched (a
    /// state met on the way is not bounded by the search it is part of).
    suffix_busy: Vec<bool>,
    /// Set by the caller to give up (see [`best_play_unless`]).
    stop: &'a AtomicBool,
    /// One buffer of moves per step (the recursion visits each step once per path).
    buffers: Vec<Vec<Move>>,
    /// Whether table sets may be kept (the second search).
    keep: bool,
    /// The Lagrangian ceiling of this search (see [`ceiling`]), built once a search proves
    /// hard: on what is laid in the first search, on the sets kept in the second.
    ceiling: Option<Box<Ceiling>>,
    /// States a search expands before it is begun again with a ceiling ([`CEILING_AFTER`]).
    ceiling_after: u64,
}

impl<'a> Sweep<'a> {
    fn new(
        table: &'a [SetInput],
        known: &'a [Known],
        rack: &[Tile],
        options: &PlayOptions,
        keep: bool,
        stop: &'a AtomicBool,
    ) -> Self {
        let mut on_table = [[0; 14]; 4];
        let mut on_rack = [[0; 14]; 4];
        let mut table_jokers = 0;
        let mut rack_jokers = 0;
        for tile in table.iter().flat_map(|s| &s.tiles) {
            match (tile.color(), tile.number()) {
                (Some(c), Some(n)) => on_table[c.index()][n as usize] += 1,
                _ => table_jokers += 1,
            }
        }
        for tile in rack {
            match (tile.color(), tile.number()) {
                (Some(c), Some(n)) => on_rack[c.index()][n as usize] += 1,
                _ => rack_jokers += 1,
            }
        }
        let mut holders = [[0u64; 14]; 4];
        let mut passed = [0u64; 15];
        let mut starting: [Vec<usize>; 14] = Default::default();
        for (i, k) in known.iter().enumerate().take(64) {
            if keep {
                starting[usize::from(k.low)].push(i);
            }
            for &(c, v) in &k.real {
                holders[c][usize::from(v)] |= 1 << i;
            }
            for (v, bits) in passed.iter_mut().enumerate() {
                if usize::from(k.high) < v {
                    *bits |= 1 << i;
                }
            }
        }
        let jokers = table_jokers + rack_jokers;
        let mut cap = [[0u8; 14]; 4];
        for c in 0..4 {
            for v in 1..usize::from(MAX_NUMBER) {
                cap[c][v] = on_table[c][v + 1] + on_rack[c][v + 1] + jokers;
            }
        }
        let steps = usize::from(END_STEP) + 1;
        // The first search looks for what counts first alone (its plays are never replayed):
        // the points that break ties by tiles would only make it look further among plays
        // that lay as much.
        let measure = if keep {
            Measure::of(rack, options)
        } else {
            Measure::of(rack, options).without_points()
        };
        let gain = |value: u32| measure.gain(value);
        let mut rack_from = vec![0u64; steps + 1];
        let mut kept_from = vec![0u64; steps + 1];
        for step in (0..steps).rev() {
            let (v, phase) = (step / usize::from(PHASES), step % usize::from(PHASES));
            let here = if (1..=4).contains(&phase) && v <= usize::from(MAX_NUMBER) {
                u64::from(on_rack[phase - 1][v]) * gain(v as u32)
            } else {
                0
            };
            rack_from[step] = rack_from[step + 1] + here;
            let deciding = known
                .iter()
                .take(64)
                .filter(|k| usize::from(k.low) * usize::from(PHASES) == step)
                .count() as u64;
            kept_from[step] = kept_from[step + 1] + if keep { measure.kept(deciding) } else { 0 };
        }
        let joker_bound = gain(options.joker_value) * u64::from(rack_jokers);
        // By tiles, the points laid come below the sets kept: at most the rack's numbers from
        // a step on and every rack joker.
        let mut points_from = vec![0u64; steps + 1];
        if measure.points && options.by == By::Tiles {
            let jokers = u64::from(options.joker_value) * u64::from(rack_jokers);
            for step in (0..steps).rev() {
                let (v, phase) = (step / usize::from(PHASES), step % usize::from(PHASES));
                let here = if (1..=4).contains(&phase) && v <= usize::from(MAX_NUMBER) {
                    u64::from(on_rack[phase - 1][v]) * v as u64
                } else {
                    0
                };
                points_from[step] = points_from[step + 1] + here;
            }
            for p in &mut points_from {
                *p = (*p + jokers).min(measure.set - 1);
            }
        }
        Sweep {
            table,
            known,
            on_table,
            on_rack,
            table_jokers,
            rack_jokers,
            measure,
            joker_value: options.joker_value,
            holders,
            passed,
            starting,
            cap,
            rack_from,
            kept_from,
            joker_bound,
            points_from,
            memo: (0..steps).map(|_| Memo::default()).collect(),
            free: None,
            shapes: known.iter().take(64).map(Shape::of).collect(),
            left: u64::MAX,
            aborted: false,
            expanded: 0,
            suffix_after: SUFFIX_AFTER,
            suffix_cuts: 0,
            suffix_busy: vec![false; (usize::from(MAX_NUMBER) + 1) * 256],
            stop,
            bound_relaxed: false,
            buffers: vec![Vec::new(); steps],
            keep,
            ceiling: None,
            ceiling_after: CEILING_AFTER,
        }
    }

    /// What the Lagrangian ceiling (see [`ceiling`]) needs of this sweep.
    fn ceiling_input(&self) -> ceiling::Input<'a> {
        let primary = |value: u32| self.gain(value) / self.measure.unit();
        ceiling::Input {
            on_table: self.on_table,
            on_rack: self.on_rack,
            table_jokers: self.table_jokers,
            rack_jokers: self.rack_jokers,
            known: self.known,
            primary: std::array::from_fn(|v| primary(v as u32)),
            joker_primary: primary(self.joker_value),
        }
    }

    /// The best from the start that reaches `need` (see [`Sweep::search`]). A search that has
    /// not ended after [`CEILING_AFTER`] states is hard: it is begun again, its memo kept,
    /// with a Lagrangian ceiling aimed at the best it had found.
    fn run(&mut self, start: &State, need: u64) -> Option<u64> {
        self.left = self.ceiling_after;
        let found = self.search(FIRST_STEP, start, need);
        self.left = u64::MAX;
        if !self.aborted || self.stop.load(Ordering::Relaxed) {
            return found;
        }
        self.aborted = false;
        let unit = self.measure.unit();
        let input = self.ceiling_input();
        self.ceiling = if self.keep {
            let most = need / unit;
            let aim = found.map_or(0, |f| (f % unit) / self.measure.set);
            if let Some(free) = self.free.as_deref_mut()
                && free.ceiling.is_none()
            {
                free.ceiling =
                    Ceiling::new(&input, Objective::Laid, most, CEILING_STEPS, self.stop)
                        .map(Box::new);
            }
            // With no play found yet the prices have no aim to steer by but nothing kept:
            // more steps to make up for it.
            let steps = if found.is_some() {
                CEILING_STEPS
            } else {
                CEILING_STEPS * 5 / 2
            };
            Ceiling::new(&input, Objective::Kept { most }, aim, steps, self.stop)
        } else {
            Ceiling::new(
                &input,
                Objective::Laid,
                found.map_or(0, |f| f / unit),
                CEILING_STEPS,
                self.stop,
            )
        }
        .map(Box::new);
        // The ceiling at the start bounds the best; from there down, level by level (a unit
        // laid in the first search, a set kept in the second), the first level a play reaches
        // is the best, and each level above it is proven out with the ceiling cutting every
        // state that cannot reach it.
        let floor = found.map_or(need, |f| f.max(need));
        let step = if self.keep { self.measure.set } else { unit };
        let top = match self.ceiling_top(FIRST_STEP, start) {
            Some(Some(top)) => top,
            Some(None) => return found,
            None => u64::MAX,
        };
        if top == u64::MAX {
            return self.search(FIRST_STEP, start, floor).or(found);
        }
        // Levels are `need` plus whole steps.
        let mut level = need + (top.saturating_sub(need) / step) * step;
        while level > floor {
            let r = self.search(FIRST_STEP, start, level);
            if let Some(best) = r {
                return Some(best);
            }
            if self.aborted {
                return None;
            }
            level -= step;
        }
        self.search(FIRST_STEP, start, floor).or(found)
    }

    /// Whether the Lagrangian ceiling cuts `state` at `step` (the start of a number), which
    /// must gain `need`: it cannot, or it cannot be laid out at all.
    fn ceiling_cuts(&mut self, step: u8, state: &State, need: u64) -> bool {
        match self.ceiling_top(step, state) {
            Some(Some(top)) => top < need,
            Some(None) => true,
            None => false,
        }
    }

    /// The most `state` at `step` (the start of a number) can still gain by the Lagrangian
    /// ceiling: `None` without a ceiling there, `Some(None)` where it cannot be laid out.
    fn ceiling_top(&mut self, step: u8, state: &State) -> Option<Option<u64>> {
        let (unit, set) = (self.measure.unit(), self.measure.set);
        // The ceiling bounds what counts first and the sets kept, a whole number of sets (a
        // unit is 256 of them); the points that break ties by tiles come below one set.
        let points = self.points_from[usize::from(step)];
        let whole = |top: u64| (top - top % set).saturating_add(points);
        let ceiling = self.ceiling.as_deref_mut()?;
        let Some(raw) = ceiling.bound(step, state) else {
            return Some(None);
        };
        if !self.keep {
            let most = (raw.max(0) / ceiling::UNIT) as u64;
            return Some(Some(whole(most.saturating_mul(unit))));
        }
        // Sets kept plus λ per unit laid is at most `raw`; what is laid at most `most` (the
        // first search's ceiling): the score is at most what both allow, laying `most`.
        let lambda = ceiling.lambda();
        let laid_ceiling = self.free.as_deref_mut()?.ceiling.as_deref_mut()?;
        let Some(laid) = laid_ceiling.bound(step, state) else {
            return Some(None);
        };
        let most = i128::from(laid.max(0) / ceiling::UNIT);
        let (unit, set, units) = (i128::from(unit), i128::from(set), i128::from(ceiling::UNIT));
        let slope = unit * units - set * i128::from(lambda);
        let top = if slope >= 0 { slope * most } else { 0 } + set * i128::from(raw);
        Some((top >= 0).then(|| whole(u64::try_from(top / units).unwrap_or(u64::MAX))))
    }

    /// At least how many more jokers `state` at `step` needs to be laid out at all. A run of
    /// length 1 or 2 must go on (so must one of jokers only, whatever its length), and the
    /// groups begun at this number must each reach three tiles. What can serve is the numbered
    /// tiles on table and rack that no kept set holds, each once, a run before a group (a tile
    /// spares a joker either way, and a group takes at most one tile of a colour). More than
    /// the jokers left: the state is a dead end, cut before it is searched. On the hardest
    /// tables most states of the fewest-changes search were such dead ends (benches/play.rs).
    fn jokers_needed(&self, step: u8, state: &State) -> u8 {
        let v = step / PHASES;
        let phase = step % PHASES;
        let supply = |c: usize, n: u8| -> u8 {
            if n > MAX_NUMBER {
                0
            } else {
                self.on_table[c][usize::from(n)] + self.on_rack[c][usize::from(n)]
                    - self.reserved(state.kept, c, n)
            }
        };
        // Colours from `first` on are not yet swept at v; the others are at v + 1.
        let first = match phase {
            0 => 0,
            1..=4 => usize::from(phase - 1),
            _ => 4,
        };
        // The groups at v: at least as many as the tiles one colour gave them.
        let groups = state.group[0];
        let mut in_groups: u8 = state.group.iter().sum();
        let mut needed = 0u8;
        for (c, runs) in state.runs.iter().enumerate() {
            let next = if c < first { v + 1 } else { v };
            let short = runs[class(1, false)] + runs[class(1, true)];
            let go_on =
                short + runs[class(2, false)] + runs[class(2, true)] + runs[class(3, false)];
            let here = supply(c, next);
            needed += go_on.saturating_sub(here) + short.saturating_sub(supply(c, next + 1));
            if c >= first {
                in_groups += here.saturating_sub(go_on).min(groups);
            }
        }
        needed + (3 * groups).saturating_sub(in_groups)
    }

    fn gain(&self, value: u32) -> u64 {
        self.measure.gain(value)
    }

    fn jokers(&self) -> u8 {
        self.table_jokers + self.rack_jokers
    }

    /// Numbered tiles of colour `c` and number `v` held by kept sets (a valid set holds a
    /// tile at most once).
    fn reserved(&self, kept: u64, c: usize, v: u8) -> u8 {
        (kept & self.holders[c][usize::from(v)]).count_ones() as u8
    }

    /// Every way on from `state` at `step`: the next state, what it gains, the action.
    fn moves(&self, step: u8, state: &State, out: &mut Vec<Move>) {
        let v = step / PHASES;
        let phase = step % PHASES;
        match phase {
            0 => {
                // Sets passed are no longer kept-in-progress.
                let kept = state.kept & !self.passed[usize::from(v)];
                let starting = &self.starting[usize::from(v)];
                for subset in 0u64..(1 << starting.len()) {
                    let mut next = *state;
                    next.kept = kept;
                    let mut jokers = u32::from(state.used);
                    let mut gain = 0;
                    let mut chosen = 0u64;
                    for (b, &i) in starting.iter().enumerate() {
                        if subset & (1 << b) != 0 {
                            chosen |= 1 << i;
                            jokers += u32::from(self.known[i].jokers);
                            gain += self.measure.kept(1);
                        }
                    }
                    if jokers > u32::from(self.jokers()) {
                        continue;
                    }
                    next.used = jokers as u8;
                    next.kept |= chosen;
                    out.push((step + 1, next, gain, Action::Keep(chosen)));
                }
            }
            1..=4 => self.colour_moves(step, state, out),
            _ => {
                let free = self.jokers() - state.used;
                for jg in 0..=free {
                    if group_plan(state.group, jg).is_some() {
                        let mut next = *state;
                        next.used += jg;
                        next.group = [0; 4];
                        out.push((step + 1, next, 0, Action::Groups(jg)));
                    }
                }
            }
        }
    }

    fn colour_moves(&self, step: u8, state: &State, out: &mut Vec<Move>) {
        let v = step / PHASES;
        let c = usize::from(step % PHASES - 1);
        let must = self.on_table[c][v as usize] - self.reserved(state.kept, c, v);
        let optional = self.on_rack[c][v as usize];
        let free = self.jokers() - state.used;
        let runs = state.runs[c];
        for from_rack in 0..=optional {
            let real = must + from_rack;
            for to_group in 0..=real.min(3) {
                let in_runs = real - to_group;
                for jokers in 0..=free {
                    let mut cont = [(0u8, 0u8); CLASSES];
                    self.split(
                        0,
                        &runs,
                        in_runs,
                        jokers,
                        &mut cont,
                        &mut |cont, new_real, new_joker| {
                            let mut next_runs = [0u8; CLASSES];
                            for (k, &(r, j)) in cont.iter().enumerate() {
                                let len = (class_len(k) + 1).min(3);
                                next_runs[class(len, true)] += r;
                                next_runs[class(len, k % 2 == 1)] += j;
                            }
                            next_runs[class(1, true)] += new_real;
                            next_runs[class(1, false)] += new_joker;
                            // Closable runs beyond what the next number can continue all stop
                            // alike: one state for them all.
                            next_runs[CLOSABLE] =
                                next_runs[CLOSABLE].min(self.cap[c][usize::from(v)]);
                            // A run of length l after number v needs 3 − l more numbers.
                            if (0..CLASSES)
                                .any(|k| next_runs[k] > 0 && v + 3 - class_len(k) > MAX_NUMBER)
                            {
                                return;
                            }
                            let mut next = *state;
                            next.runs[c] = next_runs;
                            next.used += jokers;
                            // Only how many tiles each colour gives the groups matters, not
                            // which colour: the counts are kept sorted (the last slot is free
                            // until the last colour).
                            next.group[3] = to_group;
                            next.group.sort_unstable_by(|a, b| b.cmp(a));
                            let gain = self.gain(u32::from(v)) * u64::from(from_rack);
                            out.push((
                                step + 1,
                                next,
                                gain,
                                Action::Colour {
                                    from_rack,
                                    to_group,
                                    cont: *cont,
                                    new_real,
                                    new_joker,
                                },
                            ));
                        },
                    );
                }
            }
        }
    }

    /// Splits `real` numbered tiles and `jokers` among the open runs of classes `k..`; runs
    /// not continued stop (only a run of 3+ holding a numbered tile may), the rest open runs.
    #[allow(clippy::only_used_in_recursion)]
    fn split(
        &self,
        k: usize,
        runs: &[u8; CLASSES],
        real: u8,
        jokers: u8,
        cont: &mut [(u8, u8); CLASSES],
        emit: &mut Emit<'_>,
    ) {
        if k == CLASSES {
            emit(cont, real, jokers);
            return;
        }
        let n = runs[k];
        for r in 0..=n.min(real) {
            for j in 0..=(n - r).min(jokers) {
                if r + j < n && k != CLOSABLE {
                    continue;
                }
                cont[k] = (r, j);
                self.split(k + 1, runs, real - r, jokers - j, cont, emit);
            }
        }
        cont[k] = (0, 0);
    }

    /// The widest state at number `v` (before its colours) with `used` jokers laid: per
    /// colour as many closable runs (3+ with a numbered tile) as the number can continue, no
    /// kept set. A closable run can do all any other run can (go on alike, or stop), and more
    /// runs than the number can continue all stop alike, so it can do all that any state of
    /// the search with every set free can at `v` with `used` jokers laid.
    fn widest(&self, v: u8, used: u8) -> State {
        let mut runs = [[0; CLASSES]; 4];
        for (colour, cap) in runs.iter_mut().zip(&self.cap) {
            colour[CLOSABLE] = cap[usize::from(v - 1)];
        }
        State {
            runs,
            used,
            group: [0; 4],
            kept: 0,
        }
    }

    /// Whether the [`Sweep::widest`] state at number `v` with `used` jokers laid can still
    /// gain `need`: when it cannot, no state there can. Searched through the memo like any
    /// state, without a limit (a handful of states per number, each searched once per bar),
    /// and true while that very state is being searched, or when the search was told to stop.
    fn suffix_reaches(&mut self, v: u8, used: u8, need: u64) -> bool {
        let slot = usize::from(v) * 256 + usize::from(used);
        if self.suffix_busy[slot] {
            return true;
        }
        let widest = self.widest(v, used);
        self.suffix_busy[slot] = true;
        let left = std::mem::replace(&mut self.left, u64::MAX);
        let found = self.search(v * PHASES, &widest, need);
        self.left = left;
        self.suffix_busy[slot] = false;
        found.is_some() || self.aborted
    }

    /// The best score from `state` at `step` on; `None` when the table tiles cannot all be laid.
    #[cfg(test)]
    fn best(&mut self, step: u8, state: &State) -> Option<u64> {
        self.search(step, state, 0)
    }

    /// At most what `state` at `step` can still gain: every rack tile not yet passed, every
    /// rack joker, and every table set not yet decided kept.
    fn bound(&self, step: u8) -> u64 {
        self.rack_from[usize::from(step)] + self.joker_bound + self.kept_from[usize::from(step)]
    }

    /// The best score from `state` at `step` on if it is at least `need` (exact), else `None`
    /// (the best is below `need`, or the table cannot be laid). Branch and bound: a state whose
    /// [`Sweep::bound`] is below `need` is not searched; the memo keeps exact answers and
    /// proven ceilings ("below u"), so a state met again with a higher `need` is not searched
    /// again, nor one that a state the memo knows to fall short [dominates](Sweep::dominated).
    /// In the second search, the free search bounds a state: from its memo when no set is kept
    /// in progress, else (when [`Sweep::bound_relaxed`]) by a search of at most
    /// [`RELAXED_BUDGET`] states from its [`relaxed`] state. A search that runs out of states
    /// is [`Sweep::aborted`]: it memoises nothing on the way back and proves nothing.
    fn search(&mut self, step: u8, state: &State, need: u64) -> Option<u64> {
        if step == END_STEP {
            let done = (0..4).all(|c| (0..CLASSES).all(|k| k == CLOSABLE || state.runs[c][k] == 0));
            if !done || state.used < self.table_jokers {
                return None;
            }
            let rack_jokers = u64::from(state.used - self.table_jokers);
            let value = self.gain(self.joker_value) * rack_jokers;
            return (value >= need).then_some(value);
        }
        if self.bound(step) < need || self.jokers_needed(step, state) > self.jokers() - state.used {
            return None;
        }
        let key = state.key();
        let mut ceiling = u64::MAX;
        if let Some(&known) = self.memo[usize::from(step)].get(&key) {
            if known & BELOW == 0 {
                return (known >= need).then_some(known);
            }
            ceiling = known & !BELOW;
            if need >= ceiling {
                return None;
            }
        }
        // A state the memo knows, that can do all this one can, falls short: so does this
        // one. Looked for at the colours' phases only, where most states are new (at the
        // others the look-ups cost more than they saved, measured).
        if (1..=4).contains(&(step % PHASES)) && self.dominated(step, state, key, need) {
            return None;
        }
        // In the search with every set free (also where it bounds the second search): a
        // state at a number that not even the widest state there can take to `need`
        // (benches/play.rs, 50 cases a family: the 60-tile tables' worst cases about half).
        // Asked in the second search as well, through its relaxed states, it cut a little
        // more off the worst cases and added a tenth to the medians.
        if step.is_multiple_of(PHASES)
            && step >= 2 * PHASES
            && self.free.is_none()
            && self.expanded >= self.suffix_after
            && !self.suffix_reaches(step / PHASES, state.used, need)
        {
            self.suffix_cuts += 1;
            self.memo[usize::from(step)].insert(key, BELOW | need);
            return None;
        }
        if let Some(free) = self.free.as_deref_mut() {
            if key.1 == 0
                && let Some(&known) = free.memo[usize::from(step)].get(&key)
            {
                // With no set kept from here on, the free search's answer (or ceiling) for
                // this state; keeping later sets only restricts the play and adds their count.
                let most = if known & BELOW == 0 {
                    Some(known)
                } else {
                    (known & !BELOW).checked_sub(1)
                };
                match most {
                    Some(most)
                        if most
                            + self.kept_from[usize::from(step)]
                            + self.points_from[usize::from(step)]
                            >= need => {}
                    _ => return None,
                }
            } else if self.bound_relaxed
                && let Some(relaxed) = relaxed(&self.shapes, &self.passed, &self.cap, step, state)
            {
                // Every set free from here on can do all this state can (its kept sets laid
                // as they are), and keeping the sets still to come adds at most their count:
                // when the free search says that falls short, so does this state.
                let target = need.saturating_sub(
                    self.kept_from[usize::from(step)] + self.points_from[usize::from(step)],
                );
                free.left = RELAXED_BUDGET;
                let found = free.search(step, &relaxed, target);
                let aborted = std::mem::take(&mut free.aborted);
                free.left = u64::MAX;
                let cut = found.is_none() && !aborted;
                if cut {
                    self.memo[usize::from(step)].insert(key, BELOW | need);
                    return None;
                }
            }
        }
        if self.ceiling.is_some() && self.ceiling_cuts(step, state, need) {
            self.memo[usize::from(step)].insert(key, BELOW | need.min(ceiling));
            return None;
        }
        if self.left == 0 || self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
            return None;
        }
        self.left -= 1;
        self.expanded += 1;
        let mut moves = std::mem::take(&mut self.buffers[usize::from(step)]);
        moves.clear();
        self.moves(step, state, &mut moves);
        // The richest moves first: a good answer early raises what the others must beat.
        moves.sort_by_key(|m| std::cmp::Reverse(m.2));
        let mut best = None;
        let mut floor = need;
        for &(next_step, next, gain, _) in &moves {
            if let Some(rest) = self.search(next_step, &next, floor.saturating_sub(gain)) {
                let value = rest + gain;
                if value >= floor {
                    best = Some(value);
                    floor = value + 1;
                }
            }
            if self.aborted {
                break;
            }
        }
        self.buffers[usize::from(step)] = moves;
        if self.aborted {
            return best;
        }
        let entry = match best {
            Some(value) => value,
            None => BELOW | need.min(ceiling),
        };
        self.memo[usize::from(step)].insert(key, entry);
        best
    }

    /// Whether the memo knows a state that falls short of `need` and can do all that `state`
    /// at `step` can: the same but for one run a class up. A run holding a numbered tile can
    /// do all one of the same length without can, and a longer run all a shorter one can (it
    /// continues alike, and from length 3 with a numbered tile it may also stop), so every
    /// way on from `state` is one from that state with the same gains, and `state` falls
    /// short too.
    fn dominated(&self, step: u8, state: &State, key: (u128, u64), need: u64) -> bool {
        /// Per class: the classes one step up (more length, or a numbered tile).
        const UP: [&[usize]; CLASSES] = [&[1, 2], &[3], &[3, 4], &[5], &[5], &[]];
        let memo = &self.memo[usize::from(step)];
        for c in 0..4 {
            for (k, ups) in UP.iter().enumerate() {
                if state.runs[c][k] == 0 {
                    continue;
                }
                for &up in *ups {
                    if state.runs[c][up] == 7 {
                        continue;
                    }
                    // The same key with one run moved up a class (see State::key).
                    let better = key.0 - (1 << State::run_bit(c, k)) + (1 << State::run_bit(c, up));
                    debug_assert_eq!(better, {
                        let mut better = *state;
                        better.runs[c][k] -= 1;
                        better.runs[c][up] += 1;
                        better.key().0
                    });
                    let short = match memo.get(&(better, key.1)) {
                        Some(&known) if known & BELOW == 0 => known < need,
                        Some(&known) => known & !BELOW <= need,
                        None => false,
                    };
                    if short {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The table as given, nothing laid (only when the sweep finds no way, which a valid table
    /// never allows; kept as a safe answer).
    fn unchanged(&self) -> Play {
        Play {
            table: self
                .table
                .iter()
                .zip(self.known)
                .enumerate()
                .map(|(i, (s, k))| kept_set(i, s, k))
                .collect(),
            placed: Vec::new(),
            points: 0,
            sets_changed: 0,
            steps: Vec::new(),
        }
    }

    /// Walks the best moves again and lays the sets.
    fn replay(&mut self, start: State, best: u64) -> Play {
        let mut target = best;
        struct Open {
            start: u8,
            real: bool,
            tiles: Vec<Tile>,
        }
        let mut open: [Vec<Open>; 4] = Default::default();
        let mut built: Vec<TableSet> = Vec::new();
        let mut kept_sets: Vec<usize> = Vec::new();
        let mut placed: Vec<Tile> = Vec::new();
        let mut group_reals: [u8; 4] = [0; 4];
        let mut state = start;
        let mut step = FIRST_STEP;
        while step < END_STEP {
            let mut chosen = None;
            let mut moves = Vec::new();
            self.moves(step, &state, &mut moves);
            // In the search's order: the moves before the best one are known to fall short
            // (the memo says so at once), so the walk searches almost nothing again.
            moves.sort_by_key(|m| std::cmp::Reverse(m.2));
            for (next_step, next, gain, action) in moves {
                // A move on the best path: what follows it makes up the rest exactly.
                if let Some(rest) = target.checked_sub(gain)
                    && self.search(next_step, &next, rest) == Some(rest)
                {
                    chosen = Some((next_step, next, action));
                    target = rest;
                    break;
                }
            }
            let Some((next_step, next, action)) = chosen else {
                return self.unchanged();
            };
            let v = step / PHASES;
            match action {
                Action::Keep(bits) => {
                    kept_sets.extend((0..self.known.len()).filter(|&i| bits & (1 << i) != 0));
                }
                Action::Colour {
                    from_rack,
                    to_group,
                    cont,
                    new_real,
                    new_joker,
                } => {
                    let c = usize::from(step % PHASES - 1);
                    let color = Color::ALL[c];
                    let tile = Tile::numbered(color, v).unwrap_or(Tile::JOKER);
                    placed.extend(std::iter::repeat_n(tile, usize::from(from_rack)));
                    group_reals[c] = to_group;
                    let runs = std::mem::take(&mut open[c]);
                    let mut by_class: [Vec<Open>; CLASSES] = Default::default();
                    for run in runs {
                        let len = (run.tiles.len() as u8).min(3);
                        by_class[class(len, run.real)].push(run);
                    }
                    for (k, list) in by_class.into_iter().enumerate() {
                        let (r, j) = cont[k];
                        for (i, mut run) in list.into_iter().enumerate() {
                            if i < usize::from(r) {
                                run.tiles.push(tile);
                                run.real = true;
                                open[c].push(run);
                            } else if i < usize::from(r + j) {
                                run.tiles.push(Tile::JOKER);
                                open[c].push(run);
                            } else {
                                built.push(run_set(color, run.start, run.tiles));
                            }
                        }
                    }
                    for _ in 0..new_real {
                        open[c].push(Open {
                            start: v,
                            real: true,
                            tiles: vec![tile],
                        });
                    }
                    for _ in 0..new_joker {
                        open[c].push(Open {
                            start: v,
                            real: false,
                            tiles: vec![Tile::JOKER],
                        });
                    }
                }
                Action::Groups(jg) => {
                    for (mask, jokers) in group_plan(group_reals, jg).unwrap_or_default() {
                        built.push(group_set(v, mask, jokers));
                    }
                    group_reals = [0; 4];
                }
            }
            state = next;
            step = next_step;
        }
        for (c, runs) in open.into_iter().enumerate() {
            for run in runs {
                built.push(run_set(Color::ALL[c], run.start, run.tiles));
            }
        }
        let rack_jokers = state.used.saturating_sub(self.table_jokers);
        placed.extend(std::iter::repeat_n(Tile::JOKER, usize::from(rack_jokers)));
        placed.sort();
        let points = placed
            .iter()
            .map(|t| t.number().map_or(self.joker_value, u32::from))
            .fold(0u32, u32::saturating_add);
        built.sort_by_key(|s| {
            let first = s.represented.first().copied().unwrap_or(Tile::JOKER);
            (s.kind, first.number(), first.color())
        });
        kept_sets.sort_unstable();
        let mut table: Vec<TableSet> = kept_sets
            .iter()
            .map(|&i| kept_set(i, &self.table[i], &self.known[i]))
            .collect();
        let sets_changed = self.table.len() - kept_sets.len();
        table.extend(built);
        Play {
            table,
            placed,
            points,
            sets_changed,
            steps: Vec::new(),
        }
    }
}

/// A table set as [`relaxed`] needs it.
#[derive(Clone, Copy, Debug)]
enum Shape {
    /// A run of colour `c` over `low..=high`; `real`: bit `n` for a numbered tile at `n`.
    Run {
        c: usize,
        low: u8,
        high: u8,
        real: u16,
    },
    /// A group with `jokers` jokers.
    Group { jokers: u8 },
}

impl Shape {
    fn of(k: &Known) -> Shape {
        match k.kind {
            Kind::Group => Shape::Group { jokers: k.jokers },
            Kind::Run => Shape::Run {
                c: k.real.first().map_or(0, |&(c, _)| c),
                low: k.low,
                high: k.high,
                real: k.real.iter().fold(0, |bits, &(_, n)| bits | 1 << n),
            },
        }
    }
}

/// The state of the search with every set free that can do all `state` at `step` can: each
/// kept run in progress an open run (its length and whether it holds a numbered tile so far),
/// the jokers of kept sets not yet passed unlaid again. `None` when a kept group is part way
/// through its colours (the group counts are kept sorted, so its colours cannot be added).
fn relaxed(
    shapes: &[Shape],
    passed: &[u64; 15],
    cap: &[[u8; 14]; 4],
    step: u8,
    state: &State,
) -> Option<State> {
    let v = step / PHASES;
    let phase = step % PHASES;
    let mut kept = state.kept;
    if phase == 0 {
        kept &= !passed[usize::from(v)];
    }
    let mut next = *state;
    next.kept = 0;
    while kept != 0 {
        let i = kept.trailing_zeros() as usize;
        kept &= kept - 1;
        match shapes[i] {
            Shape::Group { jokers } => {
                if phase >= 2 {
                    return None;
                }
                next.used = next.used.checked_sub(jokers)?;
            }
            Shape::Run { c, low, high, real } => {
                // The last number the sweep has passed for this colour.
                let last = if phase >= 1 && usize::from(phase - 1) > c {
                    v
                } else {
                    v - 1
                };
                let ahead = (last.max(low - 1) + 1..=high)
                    .filter(|&n| real & (1 << n) == 0)
                    .count() as u8;
                next.used = next.used.checked_sub(ahead)?;
                if last >= low {
                    let len = (last - low + 1).min(3);
                    let holds = real & ((1u16 << (last + 1)) - (1u16 << low)) != 0;
                    let k = class(len, holds);
                    next.runs[c][k] += 1;
                    if k == CLOSABLE {
                        next.runs[c][k] = next.runs[c][k].min(cap[c][usize::from(last)]);
                    }
                    if next.runs[c][k] > 7 {
                        return None;
                    }
                }
            }
        }
    }
    Some(next)
}

/// How a score is packed into one `u64`, what counts first in the highest part: the measure
/// (tiles laid, or points laid), then eight bits of "sets kept", then what breaks the ties
/// left (by tiles, the points laid; by points, nothing). Each part is one more than the most
/// the parts below it can reach, so no points, however large a joker's, are read as a set
/// kept or a tile.
#[derive(Clone, Copy, Debug)]
struct Measure {
    by: By,
    /// What one kept set counts: one more than every rack tile's value together by tiles (the
    /// points below it never add up to a set), 1 by points.
    set: u64,
    /// Whether the points laid break the ties by tiles (not in the first search, which looks
    /// for what counts first only).
    points: bool,
}

impl Measure {
    fn of(rack: &[Tile], options: &PlayOptions) -> Measure {
        let worth: u64 = rack
            .iter()
            .map(|t| t.number().map_or(u64::from(options.joker_value), u64::from))
            .sum();
        Measure {
            by: options.by,
            set: match options.by {
                By::Tiles => worth + 1,
                By::Points => 1,
            },
            points: true,
        }
    }

    /// The measure without the points that break ties by tiles.
    fn without_points(self) -> Measure {
        Measure {
            points: false,
            ..self
        }
    }

    /// What one unit of the measure counts (a tile, or a point): above 255 kept sets (a table
    /// of at most 160 tiles has at most 53 sets).
    fn unit(self) -> u64 {
        self.set << 8
    }

    /// What laying one rack tile of `value` scores.
    fn gain(self, value: u32) -> u64 {
        match self.by {
            By::Tiles if self.points => self.unit() + u64::from(value),
            By::Tiles => self.unit(),
            By::Points => u64::from(value) * self.unit(),
        }
    }

    /// What keeping `n` table sets as they were scores.
    fn kept(self, n: u64) -> u64 {
        n * self.set
    }

    /// The measure part of a score alone (what counts first), the rest cleared.
    fn first(self, score: u64) -> u64 {
        score - score % self.unit()
    }

    /// What the best play lays, from a score made only of [`Measure::gain`]s (no kept sets);
    /// points past `u32::MAX` (jokers worth billions in a hand-edited settings file) read as
    /// the most.
    fn decode(self, score: u64) -> Most {
        let first = score / self.unit();
        match self.by {
            By::Tiles => Most::Tiles(first as usize),
            By::Points => Most::Points(u32::try_from(first).unwrap_or(u32::MAX)),
        }
    }
}

fn kept_set(index: usize, set: &SetInput, known: &Known) -> TableSet {
    let represented = read_set(set).map(|r| r.represented).unwrap_or_default();
    TableSet {
        input: set.clone(),
        kind: known.kind,
        represented,
        kept: Some(index),
        continues: Some(index),
    }
}

fn declared(tiles: &[Tile], kind: Kind) -> Option<Kind> {
    (tiles.iter().filter(|t| !t.is_joker()).count() == 1).then_some(kind)
}

fn run_set(color: Color, start: u8, tiles: Vec<Tile>) -> TableSet {
    let represented = (0..tiles.len() as u8)
        .filter_map(|i| Tile::numbered(color, start + i))
        .collect();
    TableSet {
        input: SetInput {
            declared: declared(&tiles, Kind::Run),
            tiles,
        },
        kind: Kind::Run,
        represented,
        kept: None,
        continues: None,
    }
}

fn group_set(v: u8, mask: u8, jokers: u8) -> TableSet {
    let mut tiles: Vec<Tile> = Color::ALL
        .into_iter()
        .filter(|c| mask & (1 << c.index()) != 0)
        .filter_map(|c| Tile::numbered(c, v))
        .collect();
    let mut represented = tiles.clone();
    represented.extend(
        Color::ALL
            .into_iter()
            .filter(|c| mask & (1 << c.index()) == 0)
            .filter_map(|c| Tile::numbered(c, v))
            .take(usize::from(jokers)),
    );
    tiles.extend(std::iter::repeat_n(Tile::JOKER, usize::from(jokers)));
    TableSet {
        input: SetInput {
            declared: declared(&tiles, Kind::Group),
            tiles,
        },
        kind: Kind::Group,
        represented,
        kept: None,
        continues: None,
    }
}

/// Groups at one number: each a set of distinct colours (at least one) and jokers, 3 or 4 in
/// all, using exactly `reals[c]` tiles of colour `c` and `jokers` jokers. `None`: impossible.
fn group_plan(reals: [u8; 4], jokers: u8) -> Option<Vec<(u8, u8)>> {
    if reals.iter().any(|&r| r > 3) || jokers > 4 {
        return None;
    }
    static PLANS: OnceLock<Plans> = OnceLock::new();
    let plans = PLANS.get_or_init(|| {
        let mut plans = HashMap::new();
        for a in 0..4u8 {
            for b in 0..4u8 {
                for c in 0..4u8 {
                    for d in 0..4u8 {
                        for j in 0..=4u8 {
                            plans.insert(([a, b, c, d], j), plan(&[a, b, c, d], j));
                        }
                    }
                }
            }
        }
        plans
    });
    plans.get(&(reals, jokers)).cloned().flatten()
}

fn plan(reals: &[u8; 4], jokers: u8) -> Option<Vec<(u8, u8)>> {
    let Some(lowest) = (0..4).find(|&c| reals[c] > 0) else {
        return (jokers == 0).then(Vec::new);
    };
    // The group holding a tile of the lowest colour left: that colour and any others.
    for others in 0u8..16 {
        if others & (1 << lowest) != 0 || (0..4).any(|c| others & (1 << c) != 0 && reals[c] == 0) {
            continue;
        }
        let mask = others | (1 << lowest);
        let size = mask.count_ones() as u8;
        for k in 0..=jokers {
            if !(3..=4).contains(&(size + k)) {
                continue;
            }
            let mut rest = *reals;
            for (c, r) in rest.iter_mut().enumerate() {
                if mask & (1 << c) != 0 {
                    *r -= 1;
                }
            }
            if let Some(mut groups) = plan(&rest, jokers - k) {
                groups.push((mask, k));
                return Some(groups);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{parse_rack, parse_sets};

    fn play(table: &str, rack: &str) -> Play {
        let table = if table.is_empty() {
            Vec::new()
        } else {
            parse_sets(table).expect("table parses")
        };
        let rack = parse_rack(rack).expect("rack parses");
        best_play(&table, &rack, &PlayOptions::default()).expect("plays")
    }

    /// What `jokers_needed` counts, state by state: runs of 1 or 2 that must go on, a run of
    /// jokers only, groups short of three tiles, and tiles a kept set holds, which cannot serve.
    /// (That the cut never removes a play is `play_agrees_with_the_oracle`'s part.)
    #[test]
    fn jokers_needed_counts_what_the_runs_and_groups_still_lack() {
        let table = parse_sets("R4 R5 R6 | R5 R6 R7 | B9 K9 O9").expect("parses");
        let known: Vec<Known> = table.iter().map(|s| Known::of(s).expect("valid")).collect();
        let rack = parse_rack("R9").expect("parses");
        let never = AtomicBool::new(false);
        let sweep = Sweep::new(&table, &known, &rack, &PlayOptions::default(), true, &never);
        let at = |v: u8, phase: u8| v * PHASES + phase;
        let red = Color::Red.index();
        let state = |runs: [u8; CLASSES], group: [u8; 4], kept: u64| {
            let mut all = [[0; CLASSES]; 4];
            all[red] = runs;
            State {
                runs: all,
                used: 0,
                group,
                kept,
            }
        };
        let one = [0, 1, 0, 0, 0, 0];
        // A red run of one tile before red 5: two R5s and two R6s can carry it on.
        assert_eq!(sweep.jokers_needed(at(5, 1), &state(one, [0; 4], 0)), 0);
        // Before red 7: one R7, and no R8 at all.
        assert_eq!(sweep.jokers_needed(at(7, 1), &state(one, [0; 4], 0)), 1);
        // Red already swept at 7: the run goes on at 8 and 9, one R9 on the rack.
        assert_eq!(sweep.jokers_needed(at(7, 2), &state(one, [0; 4], 0)), 1);
        // Two runs of one before red 5: two R5s, two R6s. With the second table set kept, its
        // R5 and R6 cannot serve.
        let two = [0, 2, 0, 0, 0, 0];
        assert_eq!(sweep.jokers_needed(at(5, 1), &state(two, [0; 4], 0)), 0);
        assert_eq!(sweep.jokers_needed(at(5, 1), &state(two, [0; 4], 0b010)), 2);
        // Three jokers in a run, no numbered tile yet: it must go on, and there is no R8.
        let jokers = [0, 0, 0, 0, 1, 0];
        assert_eq!(sweep.jokers_needed(at(8, 1), &state(jokers, [0; 4], 0)), 1);
        // A run of three holding a numbered tile may stop.
        let closable = [0, 0, 0, 0, 0, 1];
        assert_eq!(
            sweep.jokers_needed(at(8, 1), &state(closable, [0; 4], 0)),
            0
        );
        // At 9, red (the rack's R9) swept into a group: B9, K9 and O9 are still to come.
        let none = [0; CLASSES];
        assert_eq!(
            sweep.jokers_needed(at(9, 2), &state(none, [1, 0, 0, 0], 0)),
            0
        );
        // Had red given two tiles to groups at 9, two groups would need six tiles: the three
        // colours left add one each.
        assert_eq!(
            sweep.jokers_needed(at(9, 2), &state(none, [2, 0, 0, 0], 0)),
            1
        );
        // Every colour swept at 9, one group of one red tile: two jokers short.
        assert_eq!(
            sweep.jokers_needed(at(9, 5), &state(none, [1, 0, 0, 0], 0)),
            2
        );
    }

    /// Regression: the window started a solver thread for every keystroke and none of them
    /// ever stopped, so on a hard table a typed rack queued dozens of searches of seconds
    /// each before the one that mattered. A search told to stop gives up; one not told to
    /// answers as `best_play` does.
    #[test]
    fn a_search_told_to_stop_gives_up_and_one_left_alone_answers() {
        let table = parse_sets("R5 R6 R7 | B9 K9 O9").expect("parses");
        let rack = parse_rack("R8 K2").expect("parses");
        let options = PlayOptions::default();
        let stop = AtomicBool::new(true);
        assert!(best_play_unless(&table, &rack, &options, &stop).is_none());
        stop.store(false, Ordering::Relaxed);
        let answer = best_play_unless(&table, &rack, &options, &stop).expect("not stopped");
        assert_eq!(answer, best_play(&table, &rack, &options));
        // Bad input is still an answer, stopped or not.
        let bad = parse_sets("R5 R6 R8").expect("parses");
        stop.store(true, Ordering::Relaxed);
        assert!(matches!(
            best_play_unless(&bad, &rack, &options, &stop),
            Some(Err(PlayError::InvalidSet { index: 0, .. }))
        ));
    }

    /// What the best play lays, told before its arrangement, is what the play then lays:
    /// by tiles and by points, with rack jokers worth up to the settings' limit (200) and far
    /// past it (a hand-edited settings file: 5,000, `u32::MAX`), where a careless packing of
    /// the score would read a joker's value as tiles.
    #[test]
    fn what_is_told_first_is_what_the_play_lays() {
        let stop = AtomicBool::new(false);
        for (table, rack) in [
            ("R5 R6 R7 | B9 K9 O9", "R8 K2"),
            ("R5 R6 R7", "J J"),
            ("R5 R6 R7 | B9 K9 O9", "J J R13 R12 B10 K1"),
        ] {
            let table = parse_sets(table).expect("parses");
            let rack = parse_rack(rack).expect("parses");
            for by in [By::Tiles, By::Points] {
                for joker_value in [0, 30, 200, 5_000, u32::MAX] {
                    let options = PlayOptions {
                        by,
                        joker_value,
                        ..PlayOptions::default()
                    };
                    let mut told = Vec::new();
                    let answer =
                        best_play_then(&table, &rack, &options, &stop, &mut |m| told.push(m))
                            .expect("not stopped")
                            .expect("plays");
                    // Nothing worth anything laid (jokers worth 0, by points): nothing told.
                    let most = Most::of(&answer, by);
                    let expected = match most {
                        Most::Points(0) | Most::Tiles(0) => vec![],
                        _ => vec![most],
                    };
                    assert_eq!(told, expected, "{by:?}, joker {joker_value}, {rack:?}");
                    assert_eq!(Ok(answer), best_play(&table, &rack, &options));
                }
            }
        }
        // Nothing laid: nothing told first (the answer is the table as it was).
        let table = parse_sets("R5 R6 R7").expect("parses");
        let rack = parse_rack("K2").expect("parses");
        let mut told = Vec::new();
        let answer = best_play_then(&table, &rack, &PlayOptions::default(), &stop, &mut |m| {
            told.push(m)
        });
        assert!(told.is_empty());
        assert!(matches!(answer, Some(Ok(p)) if p.placed.is_empty()));
    }

    #[test]
    fn a_tile_goes_on_the_end_of_a_run() {
        let p = play("R5 R6 R7 | B9 K9 O9", "R8 K2");
        assert_eq!(p.placed, parse_rack("R8").expect("tile"));
        assert_eq!(p.sets_changed, 1);
        assert_eq!(p.changed(), vec![1]);
    }

    #[test]
    fn splitting_a_run_makes_room() {
        // R1 R2 R3 R4 and R3 R4 R5 R6.
        let p = play("R1 R2 R3 R4 R5 R6", "R3 R4");
        assert_eq!(p.placed.len(), 2);
        for set in &p.table {
            assert!(read_set(&set.input).is_ok(), "{}", set.input);
        }
    }

    #[test]
    fn a_table_joker_is_freed_and_moved() {
        // R6 takes the joker's place; the joker joins the group.
        let p = play("R5 J R7 | B7 K7 O7", "R6");
        assert_eq!(p.placed.len(), 1);
        assert_eq!(
            p.table.iter().map(|s| s.input.tiles.len()).sum::<usize>(),
            7
        );
        assert_eq!(p.sets_changed, 1);
    }

    #[test]
    fn nothing_fits_leaves_the_table() {
        let p = play("R5 R6 R7", "K1 B13");
        assert!(p.placed.is_empty());
        assert_eq!(p.sets_changed, 0);
        assert_eq!(p.table.len(), 1);
    }

    #[test]
    fn an_empty_table_is_an_opening_without_threshold() {
        let p = play("", "R1 R2 R3 J");
        assert_eq!(p.placed.len(), 4);
    }

    #[test]
    fn a_kept_run_in_progress_relaxes_to_an_open_run_and_its_jokers_ahead() {
        // Set 0: the run R5 R6 J R8 (red), kept; set 1: a group at 9 with a joker, kept.
        let table = parse_sets("R5 R6 J R8 | B9 K9 J").expect("parses");
        let known: Vec<Known> = table
            .iter()
            .map(|set| Known::of(set).expect("valid"))
            .collect();
        let never = AtomicBool::new(false);
        let sweep = Sweep::new(&table, &known, &[], &PlayOptions::default(), true, &never);
        let red = Color::Red.index();
        let at = |v: u8, phase: u8, used: u8, kept: u64| {
            let state = State {
                runs: [[0; CLASSES]; 4],
                used,
                group: [0; 4],
                kept,
            };
            relaxed(
                &sweep.shapes,
                &sweep.passed,
                &sweep.cap,
                v * PHASES + phase,
                &state,
            )
        };
        // Before red's turn at 6: R5 so far (length 1, numbered); J at 7 still ahead.
        let r = at(6, 1, 2, 0b01).expect("relaxes");
        assert_eq!(r.runs[red][class(1, true)], 1);
        assert_eq!((r.used, r.kept), (1, 0));
        // After red's turn at 7: R5 R6 J (closable); nothing of it ahead is a joker.
        let r = at(7, 2, 2, 0b01).expect("relaxes");
        assert_eq!(r.runs[red][CLOSABLE], 1);
        assert_eq!(r.used, 2);
        // Not yet started at 4: no run, its joker unlaid again.
        let r = at(4, 0, 1, 0b01).expect("relaxes");
        assert_eq!(r.runs, [[0; CLASSES]; 4]);
        assert_eq!(r.used, 0);
        // The group at 9 before its colours: its joker unlaid; part way through: no relaxing.
        assert_eq!(at(9, 1, 1, 0b10).map(|r| r.used), Some(0));
        assert!(at(9, 3, 1, 0b10).is_none());
    }

    /// A seeded table of random runs and groups (some with a joker) within the set's supply,
    /// and a rack from what is left: enough for the sweep's bounds, not for an oracle (the
    /// suite's `play_agrees_with_the_oracle` is that).
    fn random_case(seed: u64, tile_set: TileSet, max_tiles: usize, rack: usize) -> Case {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut next = move |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        let mut pool = tile_set.all_tiles();
        let mut table: Vec<SetInput> = Vec::new();
        let mut size = 0;
        for _ in 0..100 {
            let mut tiles: Vec<Tile> = if next(2) == 0 {
                let (c, len) = (Color::ALL[next(4)], 3 + next(3) as u8);
                let start = 1 + next(usize::from(MAX_NUMBER - len + 1)) as u8;
                (start..start + len)
                    .filter_map(|n| Tile::numbered(c, n))
                    .collect()
            } else {
                let n = 1 + next(usize::from(MAX_NUMBER)) as u8;
                let skip = next(5);
                (0..4)
                    .filter(|&c| c != skip)
                    .filter_map(|c| Tile::numbered(Color::ALL[c], n))
                    .collect()
            };
            if next(4) == 0 {
                let i = next(tiles.len());
                tiles[i] = Tile::JOKER;
            }
            let mut left = pool.clone();
            let fits = tiles.iter().all(|t| {
                left.iter()
                    .position(|p| p == t)
                    .map(|i| left.swap_remove(i))
                    .is_some()
            });
            if fits && size + tiles.len() <= max_tiles {
                size += tiles.len();
                pool = left;
                table.push(SetInput {
                    declared: None,
                    tiles,
                });
            }
        }
        let rack = (0..rack)
            .map_while(|_| (!pool.is_empty()).then(|| pool.swap_remove(next(pool.len()))))
            .collect();
        (table, rack)
    }

    type Case = (Vec<SetInput>, Vec<Tile>);

    /// Every state at a number between 2 and 13 (before its colours) that the free search
    /// reaches, on random tables: the widest state with as many jokers laid does at least as
    /// well, which is what lets the suffix bound cut a state the widest one cannot take on.
    #[test]
    fn the_widest_state_at_a_number_does_at_least_as_well_as_any() {
        let never = AtomicBool::new(false);
        let mut compared = 0;
        for seed in 0..12 {
            let tile_set = if seed % 3 == 0 {
                TileSet::Xp
            } else {
                TileSet::Standard
            };
            let (table, rack) = random_case(seed, tile_set, 18, 5);
            let known: Vec<Known> = table.iter().map(|s| Known::of(s).expect("valid")).collect();
            let options = PlayOptions {
                tile_set,
                ..PlayOptions::default()
            };
            let mut sweep = Sweep::new(&table, &known, &rack, &options, false, &never);
            sweep.suffix_after = u64::MAX;
            // The states reached at each step, a bounded sample of them.
            let mut states = vec![State {
                runs: [[0; CLASSES]; 4],
                used: 0,
                group: [0; 4],
                kept: 0,
            }];
            let mut moves = Vec::new();
            for step in FIRST_STEP..END_STEP {
                if step % PHASES == 0 && step >= 2 * PHASES {
                    let v = step / PHASES;
                    for state in &states {
                        let widest = sweep.widest(v, state.used);
                        if let Some(best) = sweep.best(step, state) {
                            let wide = sweep.best(step, &widest);
                            assert!(
                                wide >= Some(best),
                                "seed {seed}, at {v}: {state:?} gains {best}, the widest {wide:?}"
                            );
                            compared += 1;
                        }
                    }
                }
                let mut reached = Vec::new();
                for state in &states {
                    moves.clear();
                    sweep.moves(step, state, &mut moves);
                    for &(_, next, _, _) in &moves {
                        if reached.len() < 40 && !reached.contains(&next) {
                            reached.push(next);
                        }
                    }
                }
                states = reached;
            }
        }
        assert!(compared > 100, "only {compared} states compared");
    }

    /// The suffix bound asked from the first state on gives the same plays, tile for tile, as
    /// never asking it, and it does cut states on the way (else the comparison shows nothing).
    #[test]
    fn the_suffix_bound_never_changes_the_play() {
        let never = AtomicBool::new(false);
        let mut cuts = 0;
        for seed in 0..24 {
            let tile_set = if seed % 4 == 0 {
                TileSet::Xp
            } else {
                TileSet::Standard
            };
            let (table, rack) = random_case(seed, tile_set, 30, 4 + seed as usize % 8);
            let by = if seed % 2 == 0 { By::Tiles } else { By::Points };
            let options = PlayOptions {
                tile_set,
                by,
                ..PlayOptions::default()
            };
            let play = |suffix_after, cuts: &mut u64| {
                let tuning = Tuning {
                    suffix_after,
                    ..Tuning::default()
                };
                solve(&table, &rack, &options, &never, &mut |_| {}, tuning, cuts)
            };
            let mut case_cuts = 0;
            let bounded = play(0, &mut case_cuts);
            let plain = play(u64::MAX, &mut 0);
            assert_eq!(bounded, plain, "seed {seed}");
            cuts += case_cuts;
        }
        assert!(cuts > 0, "the bound never cut a state");
    }

    /// Regression: a search told to stop while it built its Lagrangian ceiling went on with
    /// all the ceiling's subgradient steps first (tens of milliseconds on the hardest tables).
    /// Told to stop, the ceiling takes no step: its prices, and so its bound, are the first
    /// ones (still a true ceiling); left alone, its steps lower the bound.
    #[test]
    fn a_ceiling_built_for_a_search_told_to_stop_takes_no_step() {
        let (never, stopped) = (AtomicBool::new(false), AtomicBool::new(true));
        let start = State::START;
        let mut lowered = 0;
        for seed in 0..20 {
            let (table, rack) = random_case(seed, TileSet::Standard, 40, 14);
            let known: Vec<Known> = table.iter().map(|s| Known::of(s).expect("valid")).collect();
            let options = PlayOptions::default();
            let sweep = Sweep::new(&table, &known, &rack, &options, false, &never);
            let input = sweep.ceiling_input();
            let top = |steps: u32, stop: &AtomicBool| {
                Ceiling::new(&input, Objective::Laid, 0, steps, stop)
                    .and_then(|mut c| c.bound(FIRST_STEP, &start))
            };
            let first = top(0, &never);
            assert_eq!(top(CEILING_STEPS, &stopped), first, "seed {seed}");
            let stepped = top(CEILING_STEPS, &never);
            assert!(stepped <= first, "seed {seed}");
            lowered += usize::from(stepped < first);
        }
        assert!(lowered > 0, "the steps never lowered a ceiling");
    }

    /// The Lagrangian ceilings asked from the first state on give the same plays, tile for
    /// tile, as never asking them, on random tables of up to 40 tiles (dense XP tables among
    /// them, where they count most).
    #[test]
    fn the_ceiling_never_changes_the_play() {
        let never = AtomicBool::new(false);
        for seed in 0..40 {
            let tile_set = if seed % 3 == 0 {
                TileSet::Xp
            } else {
                TileSet::Standard
            };
            let (table, rack) = random_case(seed, tile_set, 40, 4 + seed as usize % 12);
            let by = if seed % 2 == 0 { By::Tiles } else { By::Points };
            let options = PlayOptions {
                tile_set,
                by,
                ..PlayOptions::default()
            };
            let play = |ceiling_after| {
                let tuning = Tuning {
                    ceiling_after,
                    ..Tuning::default()
                };
                solve(&table, &rack, &options, &never, &mut |_| {}, tuning, &mut 0)
            };
            assert_eq!(play(0), play(u64::MAX), "seed {seed}");
        }
    }

    #[test]
    fn invalid_table_set_is_named() {
        let table = parse_sets("R5 R6 R7 | R1 B2 K3").expect("parses");
        let err = best_play(&table, &[], &PlayOptions::default()).expect_err("invalid");
        assert!(matches!(err, PlayError::InvalidSet { index: 1, .. }));
    }
}
