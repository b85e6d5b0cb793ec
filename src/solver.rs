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
//! Jokers are where exactness is usually lost, and also where the search could blow up. A few
//! exchange arguments keep it both exact and small. Each rewrites any solution into one at
//! least as good that the sweep does consider, so the sweep still finds the true optimum:
//! - a joker stands for a tile in a run while that real tile stays on the rack: swap them;
//! - a real tile stays on the rack while a run of its colour stops just before it: lay it at
//!   the end of that run;
//! - a run starts with jokers only when it ends at 13 (otherwise a joker moved to the top end
//!   is worth more);
//! - a run never stops at one number while another of its colour starts at the next: join them;
//! - one real tile with jokers is a group only near 13 (`R13 J J` = 39); anywhere else the same
//!   tiles as a run are worth more (`R5 J J` = 18, not 15).
//!
//! The sweep also looks two numbers ahead to drop states whose short runs cannot be finished.
//!
//! # Why branch and bound on top
//! On dense racks (40 XP tiles within a few numbers, four jokers) the plain sweep meets tens of
//! thousands of states and took 200 ms and more: every mix of open runs and jokers left is a
//! state of its own. Most of them cannot lead to the best meld, and a cheap ceiling shows it:
//! every real tile still to come laid, and the jokers as high as they can stand (the `i`-th at
//! most `top + i`, `top` the highest number left, since a joker above the highest real tile of
//! its run has only jokers below it up to that tile; jokers that short runs surely need count
//! where they must stand). So the sweep is searched depth first, most promising move first, and
//! each state is asked only for values above a floor: what its caller already has. Moves, and
//! moves half made colour by colour, whose ceiling does not beat the floor are never made.
//! When a state's best does not beat its floor the memo keeps the ceiling found (marked as
//! such), enough for any later caller with the same or a higher floor; a caller with a lower
//! floor works the state out again. Values above the floor are exact, so the root's value is.
//! The sets are rebuilt by replaying the moves in the order they are made and taking the first
//! whose rest is worth exactly what is still missing, so ties are broken as before.
//!
//! # Why dominance and a Lagrangian ceiling
//! That ceiling is weakest where the search was slowest: dense racks banded near 13 (numbers
//! 7–12 or 8–13, four jokers) took 20–30 ms. There the best meld leaves several tiles on the
//! rack (a third copy whose neighbours other runs need, tiles that only jokers could reach)
//! while the ceiling counts every tile and every joker at 13, and melds a point or two short of
//! the best abound; thousands of states each had to be shown to fall short, 5 to 20 points
//! under their ceilings. Two exact cuts bring the worst of such racks to a fifth of that:
//! - *Dominance.* A state with a joker more, a short run one number longer, or one more run of
//!   3+ is at least as good: every way on from the worse state is a way on from the better one
//!   (the extra joker stays on the rack, the longer run lays the same tiles and may stop sooner,
//!   the extra run stops at once). So a memoised ceiling of the better state that does not
//!   beat a floor answers for the worse state without working it out.
//! - *A Lagrangian ceiling* (`solver/relax.rs`). Runs only tie colours together through
//!   the tiles groups take too. Solve the runs of each colour and the groups of each number
//!   apart, charge every tile they lay a price and credit the rack's tiles at the same prices:
//!   no real meld is worth more than that, whatever the prices (it lays each tile once), and
//!   with prices found by a few subgradient steps it is within a point or two of the best meld
//!   on most dense racks (the linear programme over all sets is as close; a handful of racks
//!   have a gap of four or five points, and those stay the slowest). Per state it costs four
//!   table reads and a few additions, so it bounds states, moves and moves half made colour by
//!   colour. Setting it up costs a few hundred microseconds, so it is set up only once a rack
//!   has taken about as much work (most racks are solved sooner), or after a twentieth of that
//!   on a rack whose best meld found so far is 40 points or more below the plain ceiling: such
//!   racks (40 XP tiles over all numbers, four jokers) have a long proof ahead, which the
//!   Lagrangian ceiling cuts to a fraction (their median time nearly halves).
//!
//! Look-ahead ceilings (the best from each number on with every run that could go on open)
//! were tried before the Lagrangian one and are gone: on the same racks they cost more than
//! they saved once the Lagrangian ceiling was there.
//!
//! A search over tiles was measured first: the tests' oracle (every candidate set, packed with
//! memoisation over the remaining rack) takes about 50 µs for 14 tiles, 6 ms for 30 and a minute
//! (and gigabytes) for a dense 40-tile XP rack with four jokers. The sweep takes about 7 µs,
//! 20 µs and, bounded, well under a millisecond on most such racks (the benchmark reports the
//! spread). Its states stay few because a run's later tiles are not chosen before the sweep
//! reaches them.
//!
//! # Objectives
//! [`Objective::Points`] maximises the meld's value (ties: more tiles). [`Objective::Tiles`]
//! lays as many tiles as possible among melds that reach the threshold (ties: more points).
//! Both are one number per score (the part that counts first in the high bits), so one search
//! serves both. For the tiles objective the points still needed are part of the state; when no
//! meld reaches the threshold, the answer is the best by points.

use std::fmt;
use std::str::FromStr;

use crate::meld::MeldProblem;
use crate::rules::RuleSet;
use crate::tile::{FACES, Kind, SetInput, Tile, TileSet};

mod groups;
pub(crate) mod maxplus;
mod relax;
mod score;
mod supply;
mod sweep;
mod table;

use score::Order;
use supply::Supply;
use sweep::Sweep;

/// What "best" means for the solver.
///
/// # Example
/// ```
/// use rummikub_companion::solver::Objective;
/// assert_eq!("tiles".parse::<Objective>(), Ok(Objective::Tiles));
/// assert_eq!(Objective::default(), Objective::Points);
/// ```
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
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
    /// Whether the sets are a meld (at least one set: laying nothing is no meld, even when the
    /// threshold is 0) and `total` reaches `threshold`. With [`Objective::Tiles`] and no meld
    /// reaching the threshold, the sets are the best by points.
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
    let by_points = || Sweep::new(&supply, Order::PointsFirst).solve(0);
    let mut sets = match options.objective {
        Objective::Points => by_points(),
        Objective::Tiles => Sweep::new(&supply, Order::TilesFirst)
            .solve(options.threshold)
            .or_else(by_points),
    }
    .unwrap_or_default();
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
    let meets_threshold = !sets.is_empty() && total >= options.threshold;
    Ok(Solution {
        sets,
        unused,
        total,
        threshold: options.threshold,
        meets_threshold,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meld::read_set;
    use crate::tile::parse_rack;

    fn best_points(rack: &str) -> u32 {
        let rack = parse_rack(rack).expect("test rack parses");
        solve(&rack, &SolveOptions::default())
            .expect("solves")
            .total
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

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// Any part of a standard set: every set reads back as solved, nothing is lost or
        /// invented, and the order the rack is given in changes nothing.
        #[test]
        fn solutions_read_back_and_ignore_rack_order(
            rack in proptest::sample::subsequence(TileSet::Standard.all_tiles(), 0..=30),
            tiles_objective: bool,
        ) {
            let options = SolveOptions {
                objective: if tiles_objective { Objective::Tiles } else { Objective::Points },
                ..SolveOptions::default()
            };
            let solution = solve(&rack, &options).expect("a subsequence of the set fits in it");
            let mut all: Vec<Tile> = solution.unused.clone();
            for set in &solution.sets {
                let reading = read_set(&set.input).expect("valid set");
                proptest::prop_assert_eq!(reading.points, set.points);
                proptest::prop_assert_eq!(&reading.represented, &set.represented);
                all.extend(&set.input.tiles);
            }
            all.sort();
            proptest::prop_assert_eq!(&all, &rack);
            let reversed: Vec<Tile> = rack.iter().rev().copied().collect();
            proptest::prop_assert_eq!(solve(&reversed, &options).expect("same rack"), solution);
        }
    }
}
