//! The meld solver against a slow, obviously-correct oracle, plus relations between runs,
//! hand-picked joker traps and the `solve` command.

use crate::util;

use std::process::Command;

use rummikub_companion::meld::read_set;
use rummikub_companion::solver::{Objective, Solution, SolveOptions, solve};
use rummikub_companion::tile::{Kind, Tile, TileSet, parse_rack};

use crate::util::oracle;

#[test]
fn oracle_set_values_follow_the_rules() {
    let value = |s: &str| oracle::set_value(&parse_rack(s).expect("parses"));
    assert_eq!(value("R11 R12 J"), Some(36));
    assert_eq!(value("R12 R13 J"), Some(36));
    assert_eq!(value("R13 J J"), Some(39));
    assert_eq!(value("R5 J J"), Some(18));
    assert_eq!(value("R5 B5 R6"), None);
    assert_eq!(value("J J J"), None);
    assert_eq!(value("R1 R2"), None);
}

fn options(objective: Objective, threshold: u32, tile_set: TileSet) -> SolveOptions {
    SolveOptions {
        threshold,
        tile_set,
        objective,
        jokers_allowed: true,
    }
}

fn rack(text: &str) -> Vec<Tile> {
    parse_rack(text).expect("test rack parses")
}

fn sorted(mut tiles: Vec<Tile>) -> Vec<Tile> {
    tiles.sort();
    tiles
}

/// Every set reads back as solved, and the sets plus the unused tiles are exactly the rack.
fn assert_consistent(rack: &[Tile], options: &SolveOptions, solution: &Solution) {
    for set in &solution.sets {
        let reading = read_set(&set.input).unwrap_or_else(|e| panic!("{}: {e}", set.input));
        assert_eq!(reading.kind, set.kind, "{}", set.input);
        assert_eq!(reading.points, set.points, "{}", set.input);
        assert_eq!(reading.represented, set.represented, "{}", set.input);
    }
    let mut laid: Vec<Tile> = solution
        .sets
        .iter()
        .flat_map(|s| s.input.tiles.iter().copied())
        .collect();
    laid.extend(&solution.unused);
    assert_eq!(
        sorted(laid),
        sorted(rack.to_vec()),
        "tiles lost or invented"
    );
    assert_eq!(
        solution.total,
        solution.sets.iter().map(|s| s.points).sum::<u32>()
    );
    // Laying nothing is no meld, even at threshold 0.
    assert_eq!(
        solution.meets_threshold,
        !solution.sets.is_empty() && solution.total >= options.threshold
    );
}

/// Solves `rack` with both objectives and compares with the oracle.
fn assert_matches_oracle(rack: &[Tile], tile_set: TileSet, threshold: u32) {
    let mut oracle = oracle::Oracle::new(rack);
    let outcomes = oracle.outcomes();
    let text = rummikub_companion::tile::join_tiles(rack);

    let points = options(Objective::Points, threshold, tile_set);
    let best = solve(rack, &points).expect("rack within the set");
    assert_consistent(rack, &points, &best);
    assert_eq!(
        (best.total, best.tiles_laid() as u32),
        oracle::by_points(&outcomes),
        "points objective, rack {text}"
    );

    let tiles = options(Objective::Tiles, threshold, tile_set);
    let most = solve(rack, &tiles).expect("rack within the set");
    assert_consistent(rack, &tiles, &most);
    match oracle::by_tiles(&outcomes, threshold) {
        Some(expected) => {
            assert!(most.meets_threshold, "rack {text}");
            assert_eq!(
                (most.tiles_laid() as u32, most.total),
                expected,
                "tiles objective, threshold {threshold}, rack {text}"
            );
        }
        None => {
            assert!(!most.meets_threshold, "rack {text}");
            assert_eq!(
                (most.total, most.tiles_laid()),
                (best.total, best.tiles_laid())
            );
        }
    }
}

#[test]
fn agrees_with_the_oracle_on_standard_racks() {
    for seed in 0..2000u64 {
        let mut rng = util::rng(seed);
        let size = 6 + (seed % 11) as usize;
        let threshold = [30, 0, 40, 50][(seed % 4) as usize];
        let rack = util::rack(&mut rng, TileSet::Standard, size);
        assert_matches_oracle(&rack, TileSet::Standard, threshold);
    }
}

#[test]
fn agrees_with_the_oracle_on_racks_with_jokers() {
    for seed in 0..1000u64 {
        let mut rng = util::rng(10_000 + seed);
        let size = 6 + (seed % 11) as usize;
        let jokers = 1 + (seed % 2) as usize;
        let rack = util::rack_with_jokers(&mut rng, TileSet::Standard, size, jokers);
        assert_matches_oracle(&rack, TileSet::Standard, 30);
    }
}

#[test]
fn agrees_with_the_oracle_on_xp_racks_with_many_jokers() {
    for seed in 0..1000u64 {
        let mut rng = util::rng(20_000 + seed);
        let size = 6 + (seed % 11) as usize;
        let jokers = 3 + (seed % 2) as usize;
        let rack = util::rack_with_jokers(&mut rng, TileSet::Xp, size, jokers);
        assert_matches_oracle(&rack, TileSet::Xp, [30, 50][(seed % 2) as usize]);
    }
}

#[test]
fn agrees_with_the_oracle_on_crowded_high_racks() {
    // Few faces, many copies, high numbers, all jokers: duplicates, runs ending at 13 and
    // lone-tile groups all compete for the same tiles.
    for seed in 0..600u64 {
        let mut rng = util::rng(60_000 + seed);
        let colours = 2 + (seed % 3) as usize;
        let pool: Vec<Tile> = TileSet::Xp
            .all_tiles()
            .into_iter()
            .filter(|t| {
                t.is_joker()
                    || t.number() >= Some(9) && t.color().is_some_and(|c| c.index() < colours)
            })
            .collect();
        let size = 6 + (seed % 9) as usize;
        let rack: Vec<Tile> = util::shuffled(&mut rng, pool)
            .into_iter()
            .take(size)
            .collect();
        assert_matches_oracle(&rack, TileSet::Xp, [30, 60][(seed % 2) as usize]);
    }
}

#[test]
fn adding_a_tile_never_lowers_the_best_and_unused_tiles_do_not_matter() {
    let points = SolveOptions::default();
    for seed in 0..400u64 {
        let mut rng = util::rng(30_000 + seed);
        let size = 6 + (seed % 25) as usize;
        let drawn = util::rack(&mut rng, TileSet::Standard, size + 1);
        let (rack, extra) = drawn.split_at(size);
        let before = solve(rack, &points).expect("solves");
        let mut bigger = rack.to_vec();
        bigger.push(extra[0]);
        let after = solve(&bigger, &points).expect("solves");
        assert!(
            after.total >= before.total,
            "adding {} to {rack:?}",
            extra[0]
        );

        for objective in [Objective::Points, Objective::Tiles] {
            let opts = options(objective, 30, TileSet::Standard);
            let full = solve(rack, &opts).expect("solves");
            let Some(&spare) = full.unused.first() else {
                continue;
            };
            let mut smaller = rack.to_vec();
            let at = smaller
                .iter()
                .position(|&t| t == spare)
                .expect("unused is in the rack");
            smaller.remove(at);
            let without = solve(&smaller, &opts).expect("solves");
            assert_eq!(
                (without.total, without.tiles_laid()),
                (full.total, full.tiles_laid()),
                "removing unused {spare} from {rack:?} ({objective})"
            );
        }
    }
}

#[test]
fn same_rack_in_any_order_gives_the_same_answer() {
    for seed in 0..200u64 {
        let mut rng = util::rng(40_000 + seed);
        let rack = util::rack(&mut rng, TileSet::Standard, 14 + (seed % 10) as usize);
        let len = rack.len();
        let mut reversed = rack.clone();
        reversed.reverse();
        let shuffled = util::shuffled(&mut rng, rack.clone());
        for objective in [Objective::Points, Objective::Tiles] {
            let opts = options(objective, 30, TileSet::Standard);
            let a = solve(&rack, &opts).expect("solves");
            assert_eq!(a, solve(&reversed, &opts).expect("solves"), "rack of {len}");
            assert_eq!(a, solve(&shuffled, &opts).expect("solves"), "rack of {len}");
        }
    }
}

#[test]
fn big_racks_stay_consistent() {
    for seed in 0..60u64 {
        let mut rng = util::rng(50_000 + seed);
        let (set, size, jokers) = if seed % 2 == 0 {
            (TileSet::Standard, 30, 2)
        } else {
            (TileSet::Xp, 40, 4)
        };
        let rack = util::rack_with_jokers(&mut rng, set, size, jokers);
        for objective in [Objective::Points, Objective::Tiles] {
            let opts = options(objective, 30, set);
            let solution = solve(&rack, &opts).expect("solves");
            assert_consistent(&rack, &opts, &solution);
        }
    }
}

/// A dense rack: `n` tiles from the XP set, `jokers` of them jokers, the numbered ones in a
/// band of six numbers that the seed places (1–6 up to 8–13).
fn dense(seed: u64, n: usize, jokers: usize) -> Vec<Tile> {
    dense_from(seed, n, jokers, 1 + (seed % 8) as u8)
}

/// A dense rack as [`dense`] makes, with the numbered tiles in `low..=low + 5`.
fn dense_from(seed: u64, n: usize, jokers: usize, low: u8) -> Vec<Tile> {
    let mut rng = util::rng(seed);
    util::dense_rack(&mut rng, TileSet::Xp, n, jokers, low..=low + 5)
}

/// A dense rack banded near 13 (6–11, 7–12 or 8–13 by the seed): the solver's slowest family.
fn dense_near_13(seed: u64, n: usize, jokers: usize) -> Vec<Tile> {
    dense_from(seed, n, jokers, 6 + (seed % 3) as u8)
}

/// Points and tiles objectives agree with each other and with thresholds on `rack`: each wins
/// on its own measure, they agree when they lay as many tiles, and the best by points is
/// exactly the highest threshold the tiles objective can meet.
fn assert_objectives_agree(rack: &[Tile]) {
    let text = rummikub_companion::tile::join_tiles(rack);
    let points = solve(rack, &options(Objective::Points, 30, TileSet::Xp)).expect("solves");
    let tiles = solve(rack, &options(Objective::Tiles, 30, TileSet::Xp)).expect("solves");
    assert!(tiles.total <= points.total, "{text}");
    assert!(points.tiles_laid() <= tiles.tiles_laid(), "{text}");
    if points.tiles_laid() == tiles.tiles_laid() {
        assert_eq!(points.total, tiles.total, "{text}");
    }
    let at = |threshold| {
        solve(rack, &options(Objective::Tiles, threshold, TileSet::Xp)).expect("solves")
    };
    let just = at(points.total);
    assert!(just.meets_threshold, "{text}");
    assert_eq!(
        just.total, points.total,
        "only the best reaches its own total: {text}"
    );
    let over = at(points.total + 1);
    assert!(!over.meets_threshold, "{text}");
    assert_eq!(
        (over.total, over.tiles_laid(), laid(&over)),
        (points.total, points.tiles_laid(), laid(&points)),
        "{text}"
    );
}

/// Whether the oracle proves `solution` best for its objective: it lays what the solution
/// claims, and no packing beats it (points objective: more points, or as many and more tiles;
/// tiles objective: among packings reaching the threshold, more tiles, or as many and more
/// points).
fn proven_best(oracle: &oracle::Oracle, solution: &Solution) -> bool {
    let (points, tiles) = (solution.total, solution.tiles_laid() as u32);
    if !oracle.reaches(points, tiles) {
        return false;
    }
    match solution.objective {
        Objective::Points => !oracle.reaches(points + 1, 0) && !oracle.reaches(points, tiles + 1),
        Objective::Tiles if solution.meets_threshold => {
            let threshold = solution.threshold;
            !oracle.reaches(threshold, tiles + 1)
                && !oracle.reaches(threshold.max(points + 1), tiles)
        }
        // Nothing reaches the threshold: the sets are the best by points.
        Objective::Tiles => {
            !oracle.reaches(solution.threshold, 0)
                && !oracle.reaches(points + 1, 0)
                && !oracle.reaches(points, tiles + 1)
        }
    }
}

mod dense_racks {
    //! Racks whose numbers lie in a narrow band: every number has many tiles, so runs, groups
    //! and jokers compete for them. This is where the solver prunes hardest, so it is checked
    //! hardest: against the full oracle where that is feasible, against the oracle's bounded
    //! proof on mid-size racks, and by relations between runs on full 40-tile racks.

    use super::*;

    #[test]
    fn agree_with_the_oracle_on_small_racks() {
        for seed in 0..600u64 {
            let size = 6 + (seed % 10) as usize;
            let jokers = ((seed / 8) % 5) as usize;
            let rack = dense(70_000 + seed, size, jokers.min(size - 1));
            assert_matches_oracle(&rack, TileSet::Xp, [30, 50, 0][(seed % 3) as usize]);
        }
    }

    /// Both objectives on `rack` (XP set, `threshold`) are consistent and proven best by the
    /// oracle's bounded search.
    fn assert_proven_best(rack: &[Tile], threshold: u32) {
        let oracle = oracle::Oracle::new(rack);
        let text = rummikub_companion::tile::join_tiles(rack);
        for objective in [Objective::Points, Objective::Tiles] {
            let opts = options(objective, threshold, TileSet::Xp);
            let solution = solve(rack, &opts).expect("solves");
            assert_consistent(rack, &opts, &solution);
            assert!(proven_best(&oracle, &solution), "{objective}, rack {text}");
        }
    }

    #[test]
    fn are_proven_best_on_mid_size_racks() {
        for seed in 0..24u64 {
            let rack = dense(80_000 + seed, 26, 4);
            assert_proven_best(&rack, [30, 120][(seed % 2) as usize]);
        }
    }

    /// Sub-racks of racks banded near 13, small enough for the full oracle: both objectives
    /// agree with it exactly.
    #[test]
    fn near_13_sub_racks_agree_with_the_oracle() {
        for seed in 0..240u64 {
            let full = dense_near_13(130_000 + seed, 40, 4);
            let jokers = (seed % 5) as usize;
            let numbered = 10 + (seed % 11) as usize;
            let mut rack: Vec<Tile> = full.iter().copied().filter(|t| !t.is_joker()).collect();
            rack.truncate(numbered);
            rack.extend(std::iter::repeat_n(Tile::JOKER, jokers));
            assert_matches_oracle(&rack, TileSet::Xp, [30, 60, 0][(seed % 3) as usize]);
        }
    }

    /// Mid-size racks banded near 13: the oracle's bounded search proves both objectives best.
    #[test]
    fn near_13_mid_size_racks_are_proven_best() {
        for seed in 0..24u64 {
            let rack = dense_near_13(140_000 + seed, 26, 4);
            assert_proven_best(&rack, [30, 150][(seed % 2) as usize]);
        }
    }

    /// Full 40-tile racks banded near 13, where the Lagrangian ceiling is at work: the sets
    /// are the rack's own and read back with their points, the order of the rack changes
    /// nothing, and the objectives and thresholds agree.
    #[test]
    fn near_13_full_racks_hold_together() {
        for seed in 0..40u64 {
            let mut rng = util::rng(150_000 + seed);
            let rack = dense_near_13(150_000 + seed, 40, 4);
            let shuffled = util::shuffled(&mut rng, rack.clone());
            for objective in [Objective::Points, Objective::Tiles] {
                let opts = options(objective, 30, TileSet::Xp);
                let solution = solve(&rack, &opts).expect("solves");
                assert_consistent(&rack, &opts, &solution);
                assert_eq!(solution, solve(&shuffled, &opts).expect("same rack"));
            }
            assert_objectives_agree(&rack);
        }
    }

    #[test]
    fn full_racks_read_back_and_ignore_rack_order() {
        for seed in 0..40u64 {
            let mut rng = util::rng(90_000 + seed);
            let rack = dense(90_000 + seed, 40, 4);
            let shuffled = util::shuffled(&mut rng, rack.clone());
            for objective in [Objective::Points, Objective::Tiles] {
                let opts = options(objective, 30, TileSet::Xp);
                let solution = solve(&rack, &opts).expect("solves");
                assert_consistent(&rack, &opts, &solution);
                assert_eq!(solution, solve(&shuffled, &opts).expect("same rack"));
            }
        }
    }

    #[test]
    fn adding_a_tile_never_lowers_the_best() {
        for seed in 0..40u64 {
            let drawn = dense(100_000 + seed, 41, 4);
            // Keep the four jokers in the smaller rack.
            let extra = drawn
                .iter()
                .rposition(|t| !t.is_joker())
                .expect("numbered tiles");
            let mut rack = drawn.clone();
            let added = rack.remove(extra);
            for objective in [Objective::Points, Objective::Tiles] {
                let opts = options(objective, 30, TileSet::Xp);
                let before = solve(&rack, &opts).expect("solves");
                let after = solve(&drawn, &opts).expect("solves");
                let score = |s: &Solution| match objective {
                    Objective::Points => (s.total, s.tiles_laid() as u32),
                    Objective::Tiles => (s.tiles_laid() as u32, s.total),
                };
                // A meld reaching the threshold still reaches it with one tile more.
                assert!(before.meets_threshold <= after.meets_threshold);
                assert!(
                    score(&after) >= score(&before),
                    "adding {added} ({objective}) to {}",
                    rummikub_companion::tile::join_tiles(&rack)
                );
            }
        }
    }

    #[test]
    fn removing_an_unused_tile_changes_nothing() {
        for seed in 0..40u64 {
            let rack = dense(110_000 + seed, 40, 4);
            for objective in [Objective::Points, Objective::Tiles] {
                let opts = options(objective, 30, TileSet::Xp);
                let full = solve(&rack, &opts).expect("solves");
                let Some(&spare) = full.unused.first() else {
                    continue;
                };
                let mut smaller = rack.clone();
                let at = smaller
                    .iter()
                    .position(|&t| t == spare)
                    .expect("in the rack");
                smaller.remove(at);
                let without = solve(&smaller, &opts).expect("solves");
                assert_eq!(
                    (without.total, without.tiles_laid()),
                    (full.total, full.tiles_laid()),
                    "removing unused {spare} ({objective})"
                );
            }
        }
    }

    #[test]
    fn objectives_thresholds_and_jokers_agree() {
        for seed in 0..40u64 {
            let rack = dense(120_000 + seed, 40, 4);
            let text = rummikub_companion::tile::join_tiles(&rack);
            assert_objectives_agree(&rack);
            let points =
                solve(&rack, &options(Objective::Points, 30, TileSet::Xp)).expect("solves");
            // Without jokers the best cannot be higher.
            let no_jokers = SolveOptions {
                jokers_allowed: false,
                ..options(Objective::Points, 30, TileSet::Xp)
            };
            let plain = solve(&rack, &no_jokers).expect("solves");
            assert!(plain.total <= points.total, "{text}");
            assert!(
                plain
                    .sets
                    .iter()
                    .all(|s| !s.input.tiles.contains(&Tile::JOKER))
            );
        }
    }
}

mod regression {
    use super::*;

    /// Issue 14, the band near 13: the slowest dense rack found in a scan of 32,000 (numbers
    /// 7–12, four jokers) took 27–29 ms before dominance and look-ahead ceilings. Both
    /// objectives lay 351 points with 36 tiles (the sets are checked to be this rack's), and
    /// the oracle's bounded search shows that no meld lays more points.
    #[test]
    fn issue_14_dense_rack_banded_near_13() {
        let rack = rack(
            "O12 J B11 B8 R11 K7 J O8 K8 B7 B12 B9 O7 R10 K8 O8 B11 K9 R9 B9 B7 R11 B10 O12 R9 \
             K10 R8 B11 R10 J B10 R11 K10 B9 J K9 O8 O12 O9 K9",
        );
        assert_eq!(rack.len(), 40);
        assert_both_objectives_lay(&rack, 351, 36);
        // The full proof takes the oracle about ten seconds here; its hardest half is enough.
        assert!(
            !oracle::Oracle::new(&rack).reaches(352, 0),
            "nothing lays more than 351"
        );
    }

    /// Issue 14: this dense 40-tile XP rack with four jokers took 200–270 ms. Its best meld is
    /// checked without trusting the solver: the oracle shows that some packing lays 223 points
    /// with all 40 tiles and that none lays more (the full oracle would take a minute and
    /// gigabytes here; its bounded proof takes a fraction of a second).
    #[test]
    fn issue_14_dense_xp_rack_with_four_jokers() {
        let rack = rack(
            "R3 R4 R5 K4 R7 J R3 O7 O8 B6 K4 O4 J J J K6 K6 K5 B5 R6 O6 B3 K3 R8 B6 B7 O3 O5 \
             B4 O5 O5 K5 R5 O6 B5 K6 R6 B4 B7 O4",
        );
        assert_eq!(rack.len(), 40);
        let oracle = oracle::Oracle::new(&rack);
        assert!(oracle.reaches(223, 40));
        assert!(!oracle.reaches(224, 0), "nothing lays more than 223");
        for objective in [Objective::Points, Objective::Tiles] {
            let opts = options(objective, 30, TileSet::Xp);
            let solution = solve(&rack, &opts).expect("solves");
            assert_consistent(&rack, &opts, &solution);
            assert_eq!(
                (
                    solution.total,
                    solution.tiles_laid(),
                    solution.meets_threshold
                ),
                (223, 40, true),
                "{objective}"
            );
            assert!(proven_best(&oracle, &solution), "{objective}");
        }
    }

    /// Issue 14, the worst case: the slowest dense 40-tile XP racks of the benchmark's
    /// families (numbers 8–13 and 7–12, four jokers) took 20–30 ms before the Lagrangian
    /// ceiling. Both objectives still lay the best meld, with three tiles left on the rack.
    /// The totals were confirmed without the solver: the oracle's bounded search shows that no
    /// meld lays a point more (17–52 s a rack, too slow to repeat here), and an integer
    /// programme over every set (HiGHS, through SciPy) finds the same optimum.
    #[test]
    fn issue_14_slowest_dense_racks_of_the_benchmark() {
        for (text, best) in util::SLOWEST_DENSE_RACKS {
            let rack = rack(text);
            assert_eq!(rack.len(), 40);
            assert_both_objectives_lay(&rack, best, 37);
        }
    }

    /// Both objectives lay `total` points with `tiles` tiles of this XP rack, in sets of its
    /// own that read back with their points.
    fn assert_both_objectives_lay(rack: &[Tile], total: u32, tiles: usize) {
        for objective in [Objective::Points, Objective::Tiles] {
            let opts = options(objective, 30, TileSet::Xp);
            let solution = solve(rack, &opts).expect("solves");
            assert_consistent(rack, &opts, &solution);
            assert_eq!(
                (solution.total, solution.tiles_laid()),
                (total, tiles),
                "{objective}: {}",
                rack.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
    }
}

/// The laid sets, as entered, in output order.
fn laid(solution: &Solution) -> Vec<String> {
    solution.sets.iter().map(|s| s.input.to_string()).collect()
}

mod traps {
    use super::*;

    fn best(text: &str, tile_set: TileSet) -> Solution {
        let rack = rack(text);
        let opts = options(Objective::Points, 30, tile_set);
        let solution = solve(&rack, &opts).expect("solves");
        assert_consistent(&rack, &opts, &solution);
        solution
    }

    #[test]
    fn openings_an_ilp_solver_misses() {
        let s = best("K10 B10 O10", TileSet::Standard);
        assert_eq!((s.total, s.meets_threshold), (30, true));
        assert_eq!(laid(&s), ["B10 K10 O10"]);

        let s = best("K9 B9 O9 J", TileSet::Standard);
        assert_eq!((s.total, s.meets_threshold), (36, true));
        assert_eq!(laid(&s), ["B9 K9 O9 J"]);
        assert_eq!(s.sets[0].represented[3].to_string(), "R9");

        let s = best("R7 R8 R9 J", TileSet::Standard);
        assert_eq!((s.total, s.meets_threshold), (34, true));
        assert_eq!(laid(&s), ["R7 R8 R9 J"]);
    }

    #[test]
    fn jokers_take_the_most_valuable_position() {
        let s = best("J J R1", TileSet::Standard);
        assert_eq!((s.total, laid(&s)), (6, vec!["run: R1 J J".to_owned()]));

        let s = best("B10 B11 B12 B13 J", TileSet::Standard);
        assert_eq!(
            (s.total, laid(&s)),
            (55, vec!["J B10 B11 B12 B13".to_owned()])
        );

        let s = best("R12 R13 J", TileSet::Standard);
        assert_eq!((s.total, laid(&s)), (36, vec!["J R12 R13".to_owned()]));

        let s = best("R11 R12 J", TileSet::Standard);
        assert_eq!((s.total, laid(&s)), (36, vec!["R11 R12 J".to_owned()]));

        // As a group R13 J J is worth 39, as a run (R11 R12 R13) only 36.
        let s = best("J J R13", TileSet::Standard);
        assert_eq!((s.total, laid(&s)), (39, vec!["group: R13 J J".to_owned()]));

        // A joker filling a gap, and two jokers in one run.
        let s = best("O3 J O5 J", TileSet::Standard);
        assert_eq!(
            (s.total, laid(&s)),
            (3 + 4 + 5 + 6, vec!["O3 J O5 J".to_owned()])
        );
    }

    #[test]
    fn xp_jokers_lead_a_run_that_ends_at_13() {
        // Four leading jokers (R9–R12) beat a group of four 13s (52).
        let s = best("J J J J R13", TileSet::Xp);
        assert_eq!(
            (s.total, laid(&s)),
            (55, vec!["run: J J J J R13".to_owned()])
        );
        let s = best("J J J R13", TileSet::Xp);
        assert_eq!(
            (s.total, laid(&s)),
            (52, vec!["group: R13 J J J".to_owned()])
        );
    }

    #[test]
    fn two_jokers_in_two_sets() {
        // Two groups (R13 B13 J = 39, R12 B12 J = 36) beat two runs (J R12 R13 twice = 72).
        let s = best("R12 R13 J B12 B13 J", TileSet::Standard);
        assert_eq!((s.total, s.unused.len()), (75, 0));
        assert_eq!(laid(&s), ["R12 B12 J", "R13 B13 J"]);
    }

    #[test]
    fn house_rule_keeps_jokers_on_the_rack() {
        let rack = rack("K9 B9 O9 J");
        let opts = SolveOptions {
            jokers_allowed: false,
            ..SolveOptions::default()
        };
        let s = solve(&rack, &opts).expect("solves");
        assert_eq!((s.total, s.unused.clone()), (27, vec![Tile::JOKER]));
        assert_consistent(&rack, &opts, &s);
    }

    #[test]
    fn tiles_objective_lays_more_tiles_for_fewer_points() {
        let text = "K13 O13 J R1 R2 R4 R5 B10 K10 O10";
        let points = best(text, TileSet::Standard);
        assert_eq!((points.total, points.tiles_laid()), (39 + 30, 6));

        let rack = rack(text);
        let opts = options(Objective::Tiles, 30, TileSet::Standard);
        let most = solve(&rack, &opts).expect("solves");
        assert_consistent(&rack, &opts, &most);
        assert_eq!((most.total, most.tiles_laid()), (15 + 30, 8));
        assert!(laid(&most).contains(&"R1 R2 J R4 R5".to_owned()));

        // At 50 the long run no longer reaches the threshold.
        let opts = options(Objective::Tiles, 50, TileSet::Standard);
        let most = solve(&rack, &opts).expect("solves");
        assert_eq!(
            (most.total, most.tiles_laid(), most.meets_threshold),
            (69, 6, true)
        );
    }

    #[test]
    fn unreachable_threshold_falls_back_to_points() {
        let rack = rack("R1 R2 R3 B5 B6 B7 K2");
        let opts = options(Objective::Tiles, 30, TileSet::Standard);
        let s = solve(&rack, &opts).expect("solves");
        assert!(!s.meets_threshold);
        assert_eq!((s.total, s.tiles_laid()), (6 + 18, 6));
        assert_eq!(s.unused, vec![rack[6]]);
    }

    #[test]
    fn groups_come_first_then_runs_by_number() {
        let s = best("R1 R2 R3 O8 B8 K8 B4 B5 B6 K12 R12 O12", TileSet::Standard);
        let kinds: Vec<Kind> = s.sets.iter().map(|x| x.kind).collect();
        assert_eq!(kinds, [Kind::Group, Kind::Group, Kind::Run, Kind::Run]);
        assert_eq!(
            laid(&s),
            ["B8 K8 O8", "R12 K12 O12", "R1 R2 R3", "B4 B5 B6"]
        );
    }

    #[test]
    fn empty_rack_lays_nothing() {
        let s = solve(&[], &SolveOptions::default()).expect("solves");
        assert_eq!((s.total, s.sets.len(), s.meets_threshold), (0, 0, false));
    }
}

mod cli {
    use super::*;

    fn run(args: &[&str]) -> (i32, String, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_rummikub-companion"))
            .env("LC_ALL", "C") // English output, whatever the machine's locale
            .arg("solve")
            .args(args)
            .output()
            .expect("binary runs");
        (
            out.status.code().expect("exit code"),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn run_in_process(args: &[&str]) -> (i32, String, String) {
        let mut out = Vec::new();
        let mut err = Vec::new();
        // English output whatever the machine's locale.
        let argv = ["rummikub-companion", "solve"]
            .iter()
            .chain(args)
            .chain(&["--lang", "en"]);
        let code = rummikub_companion::cli::run(argv, &mut out, &mut err);
        (
            code,
            String::from_utf8_lossy(&out).into_owned(),
            String::from_utf8_lossy(&err).into_owned(),
        )
    }

    fn json(args: &[&str]) -> (i32, serde_json::Value) {
        let mut with_json = vec!["--json"];
        with_json.extend(args);
        let (code, out, err) = run(&with_json);
        let value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
        (code, value)
    }

    #[test]
    fn finds_the_36_point_group() {
        let (code, out, err) = run(&["K9", "B9", "O9", "J", "R2", "K5"]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("group"), "{out}");
        assert!(
            out.contains("J=R9"),
            "joker shown as what it stands for: {out}"
        );
        assert!(out.contains("36"), "{out}");
        assert!(out.contains("R2 K5"), "unused tiles listed: {out}");

        let (code, v) = json(&["K9", "B9", "O9", "J", "R2", "K5"]);
        assert_eq!(code, 0);
        assert_eq!(v["total"], 36);
        assert_eq!(v["threshold"], 30);
        assert_eq!(v["meets_threshold"], true);
        assert_eq!(
            v["sets"][0]["tiles"],
            serde_json::json!(["B9", "K9", "O9", "J"])
        );
        assert_eq!(v["sets"][0]["kind"], "group");
        assert_eq!(v["sets"][0]["points"], 36);
        assert_eq!(v["unused"], serde_json::json!(["R2", "K5"]));
    }

    #[test]
    fn unreachable_threshold_exits_1() {
        let (code, out, _) = run(&["R1", "R2", "R3", "B7"]);
        assert_eq!(code, 1);
        assert!(out.contains("6") && out.contains("30"), "{out}");
        let (code, v) = json(&["--threshold", "6", "R1", "R2", "R3", "B7"]);
        assert_eq!(
            (code, v["total"].clone(), v["meets_threshold"].clone()),
            (0, 6.into(), true.into())
        );
    }

    #[test]
    fn tiles_objective_and_threshold_flags() {
        let rack = [
            "K13", "O13", "J", "R1", "R2", "R4", "R5", "B10", "K10", "O10",
        ];
        let (code, v) = json(&rack);
        assert_eq!((code, v["total"].clone()), (0, 69.into()));
        let mut args = vec!["--objective", "tiles"];
        args.extend(rack);
        let (code, v) = json(&args);
        assert_eq!(
            (code, v["total"].clone(), v["tiles_laid"].clone()),
            (0, 45.into(), 8.into())
        );
        let mut args = vec!["--objective", "tiles", "--threshold", "100"];
        args.extend(rack);
        let (code, v) = json(&args);
        assert_eq!(
            (code, v["meets_threshold"].clone(), v["total"].clone()),
            (1, false.into(), 69.into())
        );
    }

    #[test]
    fn bad_input_names_the_token_and_position() {
        let (code, out, err) = run(&["R1", "X9", "R3"]);
        assert_eq!(code, 2);
        assert!(out.is_empty());
        assert!(err.contains("X9") && err.contains("tile 2"), "{err}");

        let (code, _, err) = run(&["R1", "R14"]);
        assert_eq!(code, 2);
        assert!(err.contains("R14"), "{err}");

        let (code, _, err) = run(&["R1 R2 | R3"]);
        assert_eq!(code, 2);
        assert!(err.contains('|'), "{err}");

        let (code, _, err) = run(&["--objective", "fastest", "R1"]);
        assert_eq!(code, 2);
        assert!(err.contains("fastest"), "{err}");
    }

    #[test]
    fn too_many_copies_is_reported_not_solved() {
        let (code, out, err) = run(&["R5", "R5", "R5", "R6", "R7"]);
        assert_eq!(code, 2);
        assert!(out.is_empty());
        assert!(err.contains("three R5 but a standard set has two"), "{err}");
        let (code, _, err) = run(&["J", "J", "J", "R5"]);
        assert_eq!(code, 2);
        assert!(
            err.contains("three jokers but a standard set has two"),
            "{err}"
        );
        // The XP set has three of each.
        let (code, v) = json(&["--xp", "--threshold", "18", "R5", "R5", "R5", "R6", "R7"]);
        assert_eq!((code, v["total"].clone()), (0, 18.into()));
    }

    #[test]
    fn in_process_matches_the_binary_and_reads_korean() {
        let args = ["--preset", "tournament", "빨강11", "빨강12", "조커"];
        let (code, out, err) = run_in_process(&args);
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!((code, out.clone(), String::new()), run(&args));
        assert!(out.contains("J=R13"), "{out}");

        let (code, _, err) = run_in_process(&["--no-joker-meld", "K9", "B9", "O9", "J"]);
        assert_eq!(code, 1, "{err}");
    }
}
