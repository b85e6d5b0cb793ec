//! `solve`: the best initial meld hidden in an unordered rack.

use std::io::Write;

use clap::Args;
use serde_json::json;
use unicode_width::UnicodeWidthStr;

use super::{EXIT_NO, EXIT_YES, InputError, RuleArgs, bad_input, print_json};
use crate::i18n;
use crate::i18n::cli::{self, solve as words};
use crate::lang::Language;
use crate::solver::{Objective, Solution, SolveOptions, solve};
use crate::tile::{Tile, parse_rack};

/// `solve` arguments.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    /// Rule options.
    pub rules: RuleArgs,
    /// `--objective`: what to maximise.
    #[arg(long, value_name = "points|tiles", default_value = "points")]
    pub objective: Objective,
    /// `--no-joker-meld`: the house rule of no jokers in the initial meld.
    #[arg(long)]
    pub no_joker_meld: bool,
    /// `--json`.
    #[arg(long)]
    pub json: bool,
    /// The rack, in any order.
    #[arg(value_name = "TILES", required = true)]
    pub tiles: Vec<String>,
}

pub(super) fn run(
    args: &SolveArgs,
    lang: Language,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let rules = args.rules.rules();
    let options = SolveOptions {
        objective: args.objective,
        jokers_allowed: rules.jokers_in_initial_meld && !args.no_joker_meld,
        ..SolveOptions::from(&rules)
    };
    let rack = match parse_rack(&args.tiles.join(" ")) {
        Ok(rack) => rack,
        Err(e) => {
            let message = i18n::notation_error(lang, &e);
            return bad_input(out, err, lang, args.json, InputError::Notation, message);
        }
    };
    let solution = match solve(&rack, &options) {
        Ok(solution) => solution,
        Err(e) => {
            let message = i18n::solve_error(lang, &e);
            return bad_input(out, err, lang, args.json, InputError::Rack, message);
        }
    };
    if args.json {
        print_json(out, &to_json(&solution));
    } else {
        let _ = out.write_all(to_text(&solution, rack.len(), lang).as_bytes());
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

/// Terminal output: a heading, one line per set, the unused tiles, then the total.
fn to_text(solution: &Solution, rack_size: usize, lang: Language) -> String {
    let threshold = solution.threshold;
    let mut text = words::heading(
        lang,
        solution.objective,
        solution.meets_threshold,
        rack_size,
        threshold,
    );
    text.push('\n');
    let rows: Vec<String> = solution
        .sets
        .iter()
        .map(|s| words::shown(lang, s))
        .collect();
    let width = rows.iter().map(|r| r.width()).max().unwrap_or(0);
    let kinds: Vec<&str> = solution
        .sets
        .iter()
        .map(|s| i18n::kind_name(lang, s.kind))
        .collect();
    let kind_width = kinds.iter().map(|k| k.width()).max().unwrap_or(0).max(5);
    for ((set, row), kind) in solution.sets.iter().zip(&rows).zip(&kinds) {
        let pad = " ".repeat(width - row.width());
        let kind_pad = " ".repeat(kind_width - kind.width());
        text.push_str(&format!(
            "  {kind}{kind_pad}  {row}{pad}  {:>3}{}\n",
            set.points,
            cli::POINTS_AFTER.get(lang)
        ));
    }
    if solution.sets.is_empty() {
        text.push_str(&format!("  {}\n", words::NO_SET.get(lang)));
    }
    let unused = if solution.unused.is_empty() {
        words::NONE.get(lang).to_owned()
    } else {
        i18n::tiles(lang, &solution.unused)
    };
    text.push_str(&words::unused(lang, &unused));
    text.push('\n');
    text.push_str(&words::total(
        lang,
        solution.total,
        solution.tiles_laid(),
        threshold,
        solution.meets_threshold,
    ));
    text.push('\n');
    text
}
