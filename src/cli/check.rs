//! `check`: the initial-meld verdict for sets as laid on the table.

use std::io::Write;

use serde_json::json;

use super::{CheckArgs, EXIT_NO, EXIT_YES, InputError, bad_input, print_json};
use crate::meld::{MeldOptions, Verdict, check_meld};
use crate::tile::{Tile, join_tiles, parse_sets};

pub(super) fn run(args: &CheckArgs, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let mut rules = args.rules.rules();
    if args.no_joker_meld {
        rules.jokers_in_initial_meld = false;
    }
    let sets = match parse_sets(&args.meld.join(" ")) {
        Ok(sets) => sets,
        Err(e) => return bad_input(out, err, args.json, InputError::Notation, e),
    };
    let verdict = check_meld(&sets, MeldOptions::from(&rules));
    if args.json {
        print_json(out, &to_json(&verdict));
    } else {
        let _ = out.write_all(to_text(&verdict).as_bytes());
    }
    if verdict.is_valid() {
        EXIT_YES
    } else {
        EXIT_NO
    }
}

fn strings(tiles: &[Tile]) -> Vec<String> {
    tiles.iter().map(Tile::to_string).collect()
}

/// The JSON object of DESIGN.md (plus `represented`, `note` and `declared` per set).
pub(crate) fn to_json(verdict: &Verdict) -> serde_json::Value {
    let sets: Vec<serde_json::Value> = verdict
        .sets
        .iter()
        .map(|s| match &s.reading {
            Ok(r) => json!({
                "tiles": strings(&s.input.tiles),
                "kind": r.kind.name(),
                "points": r.points,
                "ok": true,
                "problem": null,
                "represented": strings(&r.represented),
                "declared": s.input.declared.map(|k| k.name()),
                "note": r.note(),
            }),
            Err(p) => json!({
                "tiles": strings(&s.input.tiles),
                "kind": s.input.declared.map(|k| k.name()),
                "points": null,
                "ok": false,
                "problem": p.to_string(),
                "represented": null,
                "declared": s.input.declared.map(|k| k.name()),
                "note": null,
            }),
        })
        .collect();
    json!({
        "valid": verdict.is_valid(),
        "total": verdict.total,
        "threshold": verdict.threshold,
        "sets": sets,
        "problems": verdict.problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
    })
}

/// Terminal output: one line per set, notes, then the verdict and its problems.
pub(crate) fn to_text(verdict: &Verdict) -> String {
    let mut text = String::new();
    let width = verdict
        .sets
        .iter()
        .map(|s| s.input.to_string().chars().count())
        .max()
        .unwrap_or(0);
    for (i, set) in verdict.sets.iter().enumerate() {
        let entered = set.input.to_string();
        let pad = " ".repeat(width - entered.chars().count());
        let line = match &set.reading {
            Ok(r) => {
                let jokers: Vec<String> = r
                    .joker_values(&set.input.tiles)
                    .map(|t| format!("joker = {t}"))
                    .collect();
                let jokers = if jokers.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", jokers.join(", "))
                };
                format!(
                    "set {}  {entered}{pad}  ✓ {} {}{jokers} = {} points",
                    i + 1,
                    r.kind,
                    join_tiles(&r.represented),
                    r.points
                )
            }
            Err(p) => format!("set {}  {entered}{pad}  ✗ {p}", i + 1),
        };
        text.push_str(&line);
        text.push('\n');
        if let Ok(Some(note)) = set.reading.as_ref().map(|r| r.note()) {
            text.push_str(&format!("       note: {note}\n"));
        }
    }
    if verdict.is_valid() {
        text.push_str(&format!(
            "total {} (needs {}): valid initial meld\n",
            verdict.total, verdict.threshold
        ));
    } else {
        text.push_str(&format!(
            "total {} (needs {}): NOT a valid initial meld\n",
            verdict.total, verdict.threshold
        ));
        for problem in &verdict.problems {
            text.push_str(&format!("  - {problem}\n"));
        }
    }
    text
}
