//! `check`: the initial-meld verdict for sets as laid on the table.

use std::io::Write;

use serde_json::json;
use unicode_width::UnicodeWidthStr;

use super::{CheckArgs, EXIT_NO, EXIT_YES, InputError, bad_input, korean, print_json};
use crate::i18n::{self, Language};
use crate::meld::{MeldOptions, Verdict, check_meld};
use crate::tile::{SetInput, Tile, join_tiles, parse_sets};

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

/// Tiles as the language writes them, space-separated.
pub(super) fn tiles_in(lang: Language, tiles: &[Tile]) -> String {
    if korean(lang) {
        let words: Vec<String> = tiles.iter().map(|t| i18n::tile(lang, *t)).collect();
        words.join(" ")
    } else {
        join_tiles(tiles)
    }
}

/// A set as entered, in the language (`group: K9 B9 O9`, `그룹: 검9 파9 주9`).
fn entered(lang: Language, input: &SetInput) -> String {
    if !korean(lang) {
        return input.to_string();
    }
    let tiles = tiles_in(lang, &input.tiles);
    match input.declared {
        Some(kind) => format!("{}: {tiles}", i18n::kind_name(lang, kind)),
        None => tiles,
    }
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
                "note": note(lang, r),
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

/// The ambiguity note of a reading, in the language.
fn note(lang: Language, r: &crate::meld::Reading) -> Option<String> {
    if !korean(lang) {
        return r.note();
    }
    r.alternative
        .map(|(kind, points)| (lang.strings().meld.ambiguity_note)(r.kind, r.points, kind, points))
}

/// Terminal output: one line per set, notes, then the verdict and its problems.
pub(crate) fn to_text(verdict: &Verdict, lang: Language) -> String {
    let ko = korean(lang);
    let mut text = String::new();
    let width = verdict
        .sets
        .iter()
        .map(|s| entered(lang, &s.input).width())
        .max()
        .unwrap_or(0);
    for (i, set) in verdict.sets.iter().enumerate() {
        let entered = entered(lang, &set.input);
        let pad = " ".repeat(width - entered.width());
        let set_word = if ko { "묶음" } else { "set" };
        let line = match &set.reading {
            Ok(r) => {
                let jokers: Vec<String> = r
                    .joker_values(&set.input.tiles)
                    .map(|t| {
                        if ko {
                            format!("조커 = {}", i18n::tile(lang, t))
                        } else {
                            format!("joker = {t}")
                        }
                    })
                    .collect();
                let jokers = if jokers.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", jokers.join(", "))
                };
                let points = if ko { "점" } else { " points" };
                format!(
                    "{set_word} {}  {entered}{pad}  ✓ {} {}{jokers} = {}{points}",
                    i + 1,
                    i18n::kind_name(lang, r.kind),
                    tiles_in(lang, &r.represented),
                    r.points
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
        if let Ok(Some(note)) = set.reading.as_ref().map(|r| note(lang, r)) {
            let word = if ko { "참고" } else { "note" };
            text.push_str(&format!("       {word}: {note}\n"));
        }
    }
    let verdict_line = match (ko, verdict.is_valid()) {
        (false, true) => "valid initial meld",
        (false, false) => "NOT a valid initial meld",
        (true, true) => "등록할 수 있습니다",
        (true, false) => "등록할 수 없습니다",
    };
    if ko {
        text.push_str(&format!(
            "합계 {} (필요 {}): {verdict_line}\n",
            verdict.total, verdict.threshold
        ));
    } else {
        text.push_str(&format!(
            "total {} (needs {}): {verdict_line}\n",
            verdict.total, verdict.threshold
        ));
    }
    if !verdict.is_valid() {
        for problem in &verdict.problems {
            text.push_str(&format!("  - {}\n", i18n::meld_problem(lang, problem)));
        }
    }
    text
}
