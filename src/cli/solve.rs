//! `solve`: the best initial meld hidden in an unordered rack.

use std::io::Write;

use clap::Args;
use serde_json::json;
use unicode_width::UnicodeWidthStr;

use super::check::tiles_in;
use super::{EXIT_NO, EXIT_YES, InputError, RuleArgs, bad_input, korean, print_json};
use crate::i18n::{self, Language};
use crate::solver::{Objective, Solution, SolveOptions, SolvedSet, solve};
use crate::tile::{Tile, parse_rack};

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

/// A set's tiles in laying order, each joker followed by what it stands for: `R11 R12 J=R13`.
fn shown(set: &SolvedSet, lang: Language) -> String {
    set.input
        .tiles
        .iter()
        .zip(&set.represented)
        .map(|(t, r)| {
            if t.is_joker() {
                format!("{}={}", i18n::tile(lang, *t), i18n::tile(lang, *r))
            } else {
                i18n::tile(lang, *t)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Terminal output: a heading, one line per set, the unused tiles, then the total.
fn to_text(solution: &Solution, rack_size: usize, lang: Language) -> String {
    let ko = korean(lang);
    let threshold = solution.threshold;
    let mut text = match (ko, solution.objective) {
        (false, Objective::Tiles) if !solution.meets_threshold => format!(
            "no meld from these {rack_size} tiles reaches {threshold}; the best by points:\n"
        ),
        (false, Objective::Tiles) => {
            format!("most tiles laid in a meld reaching {threshold}, from {rack_size} tiles:\n")
        }
        (false, Objective::Points) => format!("best meld by points from {rack_size} tiles:\n"),
        (true, Objective::Tiles) if !solution.meets_threshold => format!(
            "타일 {rack_size}개로는 {threshold}점에 닿는 등록이 없습니다. 점수로 가장 좋은 등록:\n"
        ),
        (true, Objective::Tiles) => {
            format!("타일 {rack_size}개 중 {threshold}점에 닿으면서 가장 많이 내려놓는 등록:\n")
        }
        (true, Objective::Points) => format!("타일 {rack_size}개로 점수가 가장 높은 등록:\n"),
    };
    let rows: Vec<String> = solution.sets.iter().map(|s| shown(s, lang)).collect();
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
        let points = if ko { "점" } else { " points" };
        text.push_str(&format!(
            "  {kind}{kind_pad}  {row}{pad}  {:>3}{points}\n",
            set.points
        ));
    }
    if solution.sets.is_empty() {
        text.push_str(if ko {
            "  이 받침대로는 올바른 묶음을 만들 수 없습니다\n"
        } else {
            "  no valid set can be made from this rack\n"
        });
    }
    let unused = if solution.unused.is_empty() {
        if ko { "없음" } else { "none" }.to_owned()
    } else {
        tiles_in(lang, &solution.unused)
    };
    let laid = solution.tiles_laid();
    let total = solution.total;
    if ko {
        text.push_str(&format!("남는 타일: {unused}\n"));
        let verdict = if solution.meets_threshold {
            "기준 점수에 닿습니다"
        } else {
            "기준 점수에 닿을 수 없습니다"
        };
        text.push_str(&format!(
            "타일 {laid}개로 합계 {total} (필요 {threshold}): {verdict}\n"
        ));
    } else {
        text.push_str(&format!("unused: {unused}\n"));
        let verdict = if solution.meets_threshold {
            "threshold reached"
        } else {
            "threshold NOT reachable"
        };
        text.push_str(&format!(
            "total {total} from {laid} tiles (needs {threshold}): {verdict}\n"
        ));
    }
    text
}
