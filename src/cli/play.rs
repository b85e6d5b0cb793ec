//! `play` (the best play with the whole table rearranged) and `referee` (a turn checked).

use std::io::Write;

use clap::Args;
use serde_json::json;

use super::{EXIT_NO, EXIT_YES, InputError, bad_input, print_json};
use crate::i18n;
use crate::i18n::play as words;
use crate::i18n::tiles as tile_words;
use crate::lang::Language;
use crate::play::moves::{Source, Step, Target};
use crate::play::{By, PlayOptions, best_play};
use crate::referee::{TurnContext, Verdict, judge};
use crate::rules::RuleSet;
use crate::tile::{SetInput, Tile, TileSet, parse_rack, parse_sets};

/// `play` arguments.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// `--table`: the sets on the table.
    #[arg(long, value_name = "SETS", default_value = "")]
    pub table: String,
    /// `--rack`: the player's rack.
    #[arg(long, value_name = "TILES")]
    pub rack: String,
    /// `--by`: what to maximise.
    #[arg(long, value_name = "tiles|points", default_value = "tiles")]
    pub by: By,
    /// `--xp`: the XP set.
    #[arg(long)]
    pub xp: bool,
    /// `--json`.
    #[arg(long)]
    pub json: bool,
}

/// `referee` arguments.
#[derive(Debug, Args)]
pub struct RefereeArgs {
    /// `--before`: the table before the turn.
    #[arg(long, value_name = "SETS", default_value = "")]
    pub before: String,
    /// `--after`: the table after the turn.
    #[arg(long, value_name = "SETS", default_value = "")]
    pub after: String,
    /// `--rack`: the player's rack before the turn.
    #[arg(long, value_name = "TILES")]
    pub rack: Option<String>,
    /// `--not-melded`: the player had not made the initial meld.
    #[arg(long)]
    pub not_melded: bool,
    /// `--threshold`: the points the initial meld needs.
    #[arg(long, value_name = "N", default_value_t = 30)]
    pub threshold: u32,
    /// `--timeout`: the turn ended by the timer.
    #[arg(long)]
    pub timeout: bool,
    /// `--xp`: the XP set.
    #[arg(long)]
    pub xp: bool,
    /// `--json`.
    #[arg(long)]
    pub json: bool,
}

fn strings(tiles: &[Tile]) -> Vec<String> {
    tiles.iter().map(Tile::to_string).collect()
}

/// One step as `play --json` writes it: set indices as the table stands before the step.
fn step_json(step: &Step) -> serde_json::Value {
    json!({
        "kind": step.kind.name(),
        "tiles": strings(&step.tiles),
        "from": match step.from {
            Source::Rack => json!("rack"),
            Source::Set(i) => json!(i),
        },
        "to": match step.to {
            Target::New => json!("new"),
            Target::Set(k) => json!(k),
        },
    })
}

/// Sets as `check` reads them; nothing at all is an empty table.
fn table(text: &str, option: &str, lang: Language) -> Result<Vec<SetInput>, String> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    parse_sets(text).map_err(|e| format!("{option}: {}", i18n::notation_error(lang, &e)))
}

fn rack(text: &str, lang: Language) -> Result<Vec<Tile>, String> {
    parse_rack(text).map_err(|e| format!("--rack: {}", i18n::notation_error(lang, &e)))
}

pub(super) fn run_play(
    args: &PlayArgs,
    lang: Language,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let parsed =
        table(&args.table, "--table", lang).and_then(|t| rack(&args.rack, lang).map(|r| (t, r)));
    let (table, rack) = match parsed {
        Ok(p) => p,
        Err(message) => return bad_input(out, err, lang, args.json, InputError::Notation, message),
    };
    let rules = RuleSet::default();
    let options = PlayOptions {
        tile_set: if args.xp {
            TileSet::Xp
        } else {
            TileSet::Standard
        },
        by: args.by,
        joker_value: rules.joker_penalty,
    };
    let play = match best_play(&table, &rack, &options) {
        Ok(play) => play,
        Err(e) => {
            let message = words::play_error(lang, &e);
            return bad_input(out, err, lang, args.json, InputError::Rack, message);
        }
    };
    if args.json {
        let sets: Vec<Vec<String>> = play.table.iter().map(|s| strings(&s.input.tiles)).collect();
        let steps: Vec<_> = play.steps.iter().map(step_json).collect();
        print_json(
            out,
            &json!({
                "placed": strings(&play.placed),
                "count": play.placed.len(),
                "points": play.points,
                "table": sets,
                "changed": play.changed(),
                "sets_changed": play.sets_changed,
                "steps": steps,
                "by": args.by.name(),
            }),
        );
    } else {
        let mut text = String::new();
        if play.placed.is_empty() {
            text.push_str(words::NOTHING.get(lang));
            text.push('\n');
        } else {
            text.push_str(&words::heading(lang, play.placed.len(), play.points));
            text.push('\n');
            text.push_str(&words::placed(lang, &play.placed));
            text.push('\n');
        }
        for set in &play.table {
            let mark = match (set.kept, set.continues) {
                (Some(_), _) => words::KEPT,
                (None, Some(_)) => words::CHANGED,
                (None, None) => words::NEW,
            };
            let star = if set.kept.is_some() { ' ' } else { '*' };
            text.push_str(&format!(
                "{star} {}  ({})\n",
                tile_words(lang, &set.input.tiles),
                mark.get(lang)
            ));
        }
        text.push_str(&words::sets_changed(lang, play.sets_changed));
        text.push('\n');
        if !play.steps.is_empty() {
            text.push_str(&words::moves(lang, play.moves()));
            text.push('\n');
            text.push_str(words::HOW.get(lang));
            text.push('\n');
            for (n, line) in words::steps(lang, &table, &play.steps).iter().enumerate() {
                text.push_str(&format!("{:>3}. {line}\n", n + 1));
            }
        }
        let _ = out.write_all(text.as_bytes());
    }
    if play.placed.is_empty() {
        EXIT_NO
    } else {
        EXIT_YES
    }
}

pub(super) fn run_referee(
    args: &RefereeArgs,
    lang: Language,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let parsed = table(&args.before, "--before", lang).and_then(|before| {
        let after = table(&args.after, "--after", lang)?;
        let rack = match &args.rack {
            Some(text) => Some(rack(text, lang)?),
            None => None,
        };
        Ok((before, after, rack))
    });
    let (before, after, rack) = match parsed {
        Ok(p) => p,
        Err(message) => return bad_input(out, err, lang, args.json, InputError::Notation, message),
    };
    let context = TurnContext {
        melded: !args.not_melded,
        threshold: args.threshold,
        timed_out: args.timeout,
        tile_set: if args.xp {
            TileSet::Xp
        } else {
            TileSet::Standard
        },
    };
    let ruling = judge(&before, &after, rack.as_deref(), &context);
    let reasons: Vec<String> = ruling
        .reasons
        .iter()
        .map(|r| words::reason(lang, r))
        .collect();
    if args.json {
        let verdict = match ruling.verdict {
            Verdict::Legal => "legal",
            Verdict::Draw => "draw",
            Verdict::Illegal => "illegal",
        };
        let restore = ruling.restore.as_ref().map(|r| {
            json!({
                "table": r.table.iter().map(|s| strings(&s.tiles)).collect::<Vec<_>>(),
                "take_back": strings(&r.take_back),
                "draw": r.draw,
            })
        });
        print_json(
            out,
            &json!({
                "legal": ruling.verdict != Verdict::Illegal,
                "verdict": verdict,
                "reasons": reasons,
                "laid": strings(&ruling.laid),
                "draw": ruling.draw,
                "restore": restore,
            }),
        );
    } else {
        let mut text = format!("{}\n", words::verdict(lang, ruling.verdict));
        for reason in &reasons {
            text.push_str(&format!("  - {reason}\n"));
        }
        if !ruling.laid.is_empty() {
            text.push_str(&words::laid(lang, &ruling.laid));
            text.push('\n');
        }
        if let Some(r) = &ruling.restore {
            text.push_str(&words::restore(lang, &r.take_back, r.draw));
            text.push('\n');
            text.push_str(words::table_before(lang));
            text.push('\n');
            for set in &r.table {
                text.push_str(&format!("  {}\n", tile_words(lang, &set.tiles)));
            }
        }
        let _ = out.write_all(text.as_bytes());
    }
    if ruling.verdict == Verdict::Illegal {
        EXIT_NO
    } else {
        EXIT_YES
    }
}
