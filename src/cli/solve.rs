//! `solve`: the best initial meld hidden in an unordered rack.

use std::io::Write;

use clap::Args;
use serde_json::json;

use super::{EXIT_NO, EXIT_YES, InputError, RuleArgs, bad_input, print_json};
use crate::solver::{Objective, Solution, SolveOptions, SolvedSet, solve};
use crate::tile::{Tile, join_tiles, parse_rack};

/// `solve` arguments.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    /// Rule options.
    pub rules: RuleArgs,
    /// What to maximise: points (the meld's value) or tiles (the most tiles laid among melds
    /// that reach the threshold).
    #[arg(long, value_name = "points|tiles", default_value = "points")]
    pub objective: Objective,
    /// House rule: no jokers in the initial meld (they stay on the rack).
    #[arg(long)]
    pub no_joker_meld: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// The rack, in any order (arguments are joined with spaces).
    #[arg(value_name = "TILES", required = true)]
    pub tiles: Vec<String>,
}

pub(super) fn run(args: &SolveArgs, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let rules = args.rules.rules();
    let options = SolveOptions {
        objective: args.objective,
        jokers_allowed: rules.jokers_in_initial_meld && !args.no_joker_meld,
        ..SolveOptions::from(&rules)
    };
    let rack = match parse_rack(&args.tiles.join(" ")) {
        Ok(rack) => rack,
        Err(e) => return bad_input(out, err, args.json, InputError::Notation, e),
    };
    let solution = match solve(&rack, &options) {
        Ok(solution) => solution,
        Err(e) => return bad_input(out, err, args.json, InputError::Rack, e),
    };
    if args.json {
        print_json(out, &to_json(&solution));
    } else {
        let _ = out.write_all(to_text(&solution, rack.len()).as_bytes());
    }
    if solution.meets_threshold {
        EXIT_YES
    } else {
        EXIT_NO
    }
}

fn strings(tiles: &[Tile]) -> Vec<String> {
    tiles.iter().map(Tile::to_string).collect()
}

/// The JSON object of DESIGN.md (plus `objective`, `tiles_laid`, and per set `represented` and
/// `declared`).
fn to_json(solution: &Solution) -> serde_json::Value {
    let sets: Vec<serde_json::Value> = solution
        .sets
        .iter()
        .map(|s| {
            json!({
                "tiles": strings(&s.input.tiles),
                "kind": s.kind.name(),
                "points": s.points,
                "represented": strings(&s.represented),
                "declared": s.input.declared.map(|k| k.name()),
            })
        })
        .collect();
    json!({
        "total": solution.total,
        "threshold": solution.threshold,
        "meets_threshold": solution.meets_threshold,
        "objective": solution.objective.name(),
        "tiles_laid": solution.tiles_laid(),
        "sets": sets,
        "unused": strings(&solution.unused),
    })
}

/// A set's tiles in laying order, each joker followed by what it stands for: `R11 R12 J=R13`.
fn shown(set: &SolvedSet) -> String {
    set.input
        .tiles
        .iter()
        .zip(&set.represented)
        .map(|(t, r)| {
            if t.is_joker() {
                format!("{t}={r}")
            } else {
                t.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Terminal output: a heading, one line per set, the unused tiles, then the total.
fn to_text(solution: &Solution, rack_size: usize) -> String {
    let mut text = match solution.objective {
        Objective::Tiles if !solution.meets_threshold => format!(
            "no meld from these {rack_size} tiles reaches {}; the best by points:\n",
            solution.threshold
        ),
        Objective::Tiles => format!(
            "most tiles laid in a meld reaching {}, from {rack_size} tiles:\n",
            solution.threshold
        ),
        Objective::Points => format!("best meld by points from {rack_size} tiles:\n"),
    };
    let rows: Vec<String> = solution.sets.iter().map(shown).collect();
    let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    for (set, row) in solution.sets.iter().zip(&rows) {
        let pad = " ".repeat(width - row.chars().count());
        text.push_str(&format!(
            "  {:<5}  {row}{pad}  {:>3} points\n",
            set.kind.name(),
            set.points
        ));
    }
    if solution.sets.is_empty() {
        text.push_str("  no valid set can be made from this rack\n");
    }
    let unused = if solution.unused.is_empty() {
        "none".to_owned()
    } else {
        join_tiles(&solution.unused)
    };
    text.push_str(&format!("unused: {unused}\n"));
    let verdict = if solution.meets_threshold {
        "threshold reached"
    } else {
        "threshold NOT reachable"
    };
    text.push_str(&format!(
        "total {} from {} tiles (needs {}): {verdict}\n",
        solution.total,
        solution.tiles_laid(),
        solution.threshold
    ));
    text
}
