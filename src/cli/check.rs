//! `check`: the initial-meld verdict for sets as laid on the table.

use std::io::Write;

use serde_json::json;
use unicode_width::UnicodeWidthStr;

use super::{CheckArgs, EXIT_NO, EXIT_YES, InputError, bad_input, print_json};
use crate::i18n;
use crate::i18n::cli::{self, check as words};
use crate::lang::Language;
use crate::meld::{MeldOptions, Verdict, check_meld};
use crate::tile::{Tile, parse_sets};

pub(super) fn run(
    args: &CheckArgs,
    lang: Language,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let mut rules = args.rules.rules();
    if args.no_joker_meld {
        rules.jokers_in_initial_meld = false;
    }
    let sets = match parse_sets(&args.meld.join(" ")) {
        Ok(sets) => sets,
        Err(e) => {
            let message = i18n::notation_error(lang, &e);
            return bad_input(out, err, lang, args.json, InputError::Notation, message);
        }
    };
    let verdict = check_meld(&sets, MeldOptions::from(&rules));
    if args.json {
        print_json(out, &to_json(&verdict, lang));
    } else {
        let _ = out.write_all(to_text(&verdict, lang).as_bytes());
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

/// The JSON object of DESIGN.md (plus `represented`, `note` and `declared` per set). Tiles and
/// kinds are codes; `problem`, `problems` and `note` are in the language.
pub(crate) fn to_json(verdict: &Verdict, lang: Language) -> serde_json::Value {
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
                "note": words::note(lang, r),
            }),
            Err(p) => json!({
                "tiles": strings(&s.input.tiles),
                "kind": s.input.declared.map(|k| k.name()),
                "points": null,
                "ok": false,
                "problem": i18n::set_problem(lang, p),
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
        "problems": verdict.problems.iter().map(|p| i18n::meld_problem(lang, p)).collect::<Vec<_>>(),
    })
}

/// Terminal output: one line per set, notes, then the verdict and its problems.
pub(crate) fn to_text(verdict: &Verdict, lang: Language) -> String {
    let mut text = String::new();
    let width = verdict
        .sets
        .iter()
        .map(|s| words::entered(lang, &s.input).width())
        .max()
        .unwrap_or(0);
    let set_word = words::SET.get(lang);
    for (i, set) in verdict.sets.iter().enumerate() {
        let entered = words::entered(lang, &set.input);
        let pad = " ".repeat(width - entered.width());
        let line = match &set.reading {
            Ok(r) => {
                let jokers: Vec<String> = r
                    .joker_values(&set.input.tiles)
                    .map(|t| words::joker_is(lang, t))
                    .collect();
                let jokers = if jokers.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", jokers.join(", "))
                };
                format!(
                    "{set_word} {}  {entered}{pad}  ✓ {} {}{jokers} = {}{}",
                    i + 1,
                    i18n::kind_name(lang, r.kind),
                    i18n::tiles(lang, &r.represented),
                    r.points,
                    cli::POINTS_AFTER.get(lang)
                )
            }
            Err(p) => format!(
                "{set_word} {}  {entered}{pad}  ✗ {}",
                i + 1,
                i18n::set_problem(lang, p)
            ),
        };
        text.push_str(&line);
        text.push('\n');
        if let Ok(Some(note)) = set.reading.as_ref().map(|r| words::note(lang, r)) {
            text.push_str(&format!("       {}: {note}\n", words::NOTE.get(lang)));
        }
    }
    let verdict_words = if verdict.is_valid() {
        words::VALID
    } else {
        words::INVALID
    };
    text.push_str(&words::total(
        lang,
        verdict.total,
        verdict.threshold,
        verdict_words,
    ));
    text.push('\n');
    if !verdict.is_valid() {
        for problem in &verdict.problems {
            text.push_str(&format!("  - {}\n", i18n::meld_problem(lang, problem)));
        }
    }
    text
}
