//! `score` and `audit`: score sheets from CSV.
//!
//! `score` reads remaining values (facts) and prints the zero-sum points, totals, wins and ranks
//! under the chosen final rule, naming the winner under the other rule too. `audit` reads a
//! hand-kept sheet of points and reports every slip. Both only parse and present: the engine is
//! [`crate::score`].
//!
//! A sheet the window exported says which rules it was scored under, in a `# rules` comment
//! line (the window's [`crate::i18n::rules_line`], in the window's language). So that a round
//! trip gives back the sheet's own result, `score` scores such a file under those rules when no
//! rule option is given; a rule option wins, and when it changes the points `score` says so on
//! stderr, naming both rules.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use chrono::Utc;
use clap::Args;
use serde_json::json;
use unicode_width::UnicodeWidthStr;

use super::{EXIT_NO, EXIT_YES, InputError, bad_input, print_json};
use crate::i18n;
use crate::i18n::cli::{self as cli_words, WARNING, audit as audit_words, score as words};
use crate::lang::Language;
use crate::rules::{FinalRule, Preset, RuleSet};
use crate::score::audit::{Audit, PaperRow, audit, read_paper_csv};
use crate::score::table::{Imported, comments, read_score_csv, signed};
use crate::score::{Players, Standings, tile_set_for};

/// `score` arguments.
#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// `--preset`: the rule preset.
    #[arg(long, value_name = "P")]
    pub preset: Option<Preset>,
    /// `--final`: the final-winner rule.
    #[arg(long = "final", value_name = "RULE")]
    pub final_rule: Option<FinalRule>,
    /// `--joker`: what a joker left on a rack counts.
    #[arg(long, value_name = "N")]
    pub joker: Option<u32>,
    /// `--xp`: racks are checked against the XP set.
    #[arg(long)]
    pub xp: bool,
    /// `--json`.
    #[arg(long)]
    pub json: bool,
    /// The CSV sheet of remaining values; `-` is standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Where the rules a sheet is scored under came from (`rules_from` in JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RulesFrom {
    /// The rules line the file holds (an exported sheet).
    File,
    /// A rule option (`--preset`, `--final`, `--joker`).
    Options,
    /// Neither: the default preset.
    Default,
}

impl RulesFrom {
    fn name(self) -> &'static str {
        match self {
            RulesFrom::File => "file",
            RulesFrom::Options => "options",
            RulesFrom::Default => "default",
        }
    }
}

impl ScoreArgs {
    /// Whether a rule option is given (`--xp` is not one: an exported rules line does not name
    /// the tile set, and 5–6 players play the XP set anyway).
    fn sets_rules(&self) -> bool {
        self.preset.is_some() || self.final_rule.is_some() || self.joker.is_some()
    }

    /// The rules to score under: the options over the file's rules (`written`), else over the
    /// default preset.
    fn rules(&self, written: Option<&RuleSet>) -> RuleSet {
        let mut rules = match (self.preset, written) {
            (Some(preset), _) => preset.rules(),
            (None, Some(written)) => *written,
            (None, None) => Preset::default().rules(),
        };
        if let Some(rule) = self.final_rule {
            rules.final_rule = rule;
        }
        if let Some(joker) = self.joker {
            rules.joker_penalty = joker;
        }
        if self.xp {
            rules.tile_set = crate::tile::TileSet::Xp;
        }
        rules
    }
}

/// `audit` arguments.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// `--json`.
    #[arg(long)]
    pub json: bool,
    /// The CSV sheet of points as kept by hand; `-` is standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Reads the file (or standard input for `-`) as UTF-8 text.
pub(super) fn read_text(path: &Path, lang: Language) -> Result<String, (InputError, String)> {
    let mut bytes = Vec::new();
    let read = if path == Path::new("-") {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(path).map(|b| bytes = b)
    };
    let shown = path.display().to_string();
    read.map_err(|e| (InputError::File, cli_words::cannot_read(lang, &shown, &e)))?;
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        (
            InputError::Encoding,
            cli_words::file_not_utf8(lang, &shown, offset),
        )
    })
}

/// The rules line a sheet holds (the `# rules` comment of an export, under its label in either
/// language): the text as written and the rules it names, `None` when it names none.
fn written_rules(text: &str) -> Option<(String, Option<RuleSet>)> {
    let labels = Language::ALL.map(|lang| lang.strings().results.csv_rules.to_lowercase());
    comments(text).into_iter().find_map(|(label, cells)| {
        labels.contains(&label.to_lowercase()).then(|| {
            let line = cells.first().map_or("", |c| c.trim()).to_owned();
            let rules = i18n::read_rules_line(&line);
            (line, rules)
        })
    })
}

/// Whether two rule sets score a game alike (the timer and the tile set do not score).
fn same_scoring(a: &RuleSet, b: &RuleSet) -> bool {
    (a.joker_penalty, a.not_melded_value, a.final_rule)
        == (b.joker_penalty, b.not_melded_value, b.final_rule)
}

pub(super) fn run_score(
    args: &ScoreArgs,
    lang: Language,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let text = match read_text(&args.file, lang) {
        Ok(text) => text,
        Err((kind, message)) => return bad_input(out, err, lang, args.json, kind, message),
    };
    let written = written_rules(&text);
    let file_rules = written.as_ref().and_then(|(_, rules)| rules.as_ref());
    let rules = args.rules(file_rules);
    let from = match (args.sets_rules(), file_rules) {
        (true, _) => RulesFrom::Options,
        (false, Some(_)) => RulesFrom::File,
        (false, None) => RulesFrom::Default,
    };
    let line = |rules: &RuleSet| i18n::rules_line(lang, rules);
    match (&written, from) {
        (Some((_, Some(file))), RulesFrom::Options) if !same_scoring(file, &rules) => {
            let message = words::rules_differ(lang, &line(file), &line(&rules));
            let _ = writeln!(err, "{} {message}", WARNING.get(lang));
        }
        (Some((text, None)), RulesFrom::Default) => {
            let message = words::rules_unreadable(lang, text, &line(&rules));
            let _ = writeln!(err, "{} {message}", WARNING.get(lang));
        }
        _ => {}
    }
    let imported = match read_score_csv(&text, rules, Utc::now()) {
        Ok(imported) => imported,
        Err(e) => {
            let message = format!("{}: {}", args.file.display(), i18n::table_error(lang, &e));
            return bad_input(out, err, lang, args.json, InputError::Sheet, message);
        }
    };
    if args.json {
        print_json(out, &score_json(&imported, from));
    } else {
        let _ = out.write_all(score_text(&imported, lang).as_bytes());
    }
    EXIT_YES
}

fn names(players: &Players, seats: &[usize]) -> Vec<String> {
    seats.iter().map(|&i| players.names()[i].clone()).collect()
}

/// The JSON object of DESIGN.md, plus rounds, counted values, both rankings, the rules (with
/// the tile set the racks were checked against, `tile_set`) and where they came from.
fn score_json(imported: &Imported, from: RulesFrom) -> serde_json::Value {
    let sheet = &imported.sheet;
    let players = sheet.players();
    let mut rules = *sheet.rules();
    rules.tile_set = tile_set_for(players.len(), &rules);
    let standings = sheet.standings();
    let rule = sheet.rules().final_rule;
    let games: Vec<serde_json::Value> = sheet
        .scores()
        .iter()
        .enumerate()
        .map(|(i, score)| {
            let number = sheet.number(i);
            json!({
                "label": imported.labels[i],
                "points": score.points,
                "winner": players.names()[score.winner],
                "round": number.round,
                "game": number.in_round,
                "values": score.values,
                "went_out": score.went_out,
            })
        })
        .collect();
    let by = |f: &dyn Fn(FinalRule) -> serde_json::Value| json!({"total": f(FinalRule::Total), "wins": f(FinalRule::Wins)});
    json!({
        "players": players.names(),
        "games": games,
        "totals": standings.totals,
        "wins": standings.wins,
        "ranks": standings.ranks(rule),
        "final_rule": rule.name(),
        "winner": names(players, &standings.winners(rule)),
        "ranks_by": by(&|r| json!(standings.ranks(r))),
        "winner_by": by(&|r| json!(names(players, &standings.winners(r)))),
        "rules": rules,
        "tile_set": rules.tile_set,
        "rules_from": from.name(),
    })
}

/// Lays out rows as columns: the first left-aligned, the next `numeric` right-aligned, the rest
/// left-aligned; widths count Korean characters as two columns.
pub(super) fn layout(rows: &[Vec<String>], numeric: usize) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.width())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut text = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                let pad = " ".repeat(widths[c] - cell.width());
                if (1..=numeric).contains(&c) {
                    format!("{pad}{cell}")
                } else {
                    format!("{cell}{pad}")
                }
            })
            .collect();
        text.push_str(cells.join("  ").trim_end());
        text.push('\n');
    }
    text
}

fn row(label: &str, cells: impl IntoIterator<Item = String>, note: &str) -> Vec<String> {
    let mut row = vec![label.to_owned()];
    row.extend(cells);
    if !note.is_empty() {
        row.push(note.to_owned());
    }
    row
}

fn score_text(imported: &Imported, lang: Language) -> String {
    let sheet = &imported.sheet;
    let players = sheet.players();
    let standings: Standings = sheet.standings();
    let rule = sheet.rules().final_rule;
    let mut rows = vec![row(
        words::GAME.get(lang),
        players.names().iter().cloned(),
        words::WINNER.get(lang),
    )];
    for (i, score) in sheet.scores().iter().enumerate() {
        let how = if score.went_out {
            ""
        } else {
            words::POOL_OUT.get(lang)
        };
        let winner = format!("{}{how}", players.names()[score.winner]);
        rows.push(row(
            &imported.labels[i],
            score.points.iter().map(|&p| signed(p)),
            &winner,
        ));
    }
    rows.push(row(
        words::TOTAL.get(lang),
        standings.totals.iter().map(|&t| signed(t)),
        "",
    ));
    rows.push(row(
        words::WINS.get(lang),
        standings.wins.iter().map(ToString::to_string),
        "",
    ));
    for r in [rule, rule.other()] {
        let ranks = standings.ranks(r).iter().map(ToString::to_string);
        rows.push(row(words::RANK.get(lang), ranks, &words::by(lang, r)));
    }
    let mut text = words::rules(lang, &i18n::rules_line(lang, sheet.rules()));
    text.push_str("\n\n");
    text.push_str(&layout(&rows, players.len()));
    text.push('\n');
    for r in [rule, rule.other()] {
        let winners = names(players, &standings.winners(r)).join(", ");
        text.push_str(&words::winner(lang, r, r != rule, &winners));
        text.push('\n');
    }
    text
}

pub(super) fn run_audit(
    args: &AuditArgs,
    lang: Language,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let text = match read_text(&args.file, lang) {
        Ok(text) => text,
        Err((kind, message)) => return bad_input(out, err, lang, args.json, kind, message),
    };
    let paper = match read_paper_csv(&text) {
        Ok(paper) => paper,
        Err(e) => {
            let message = format!("{}: {}", args.file.display(), i18n::table_error(lang, &e));
            return bad_input(out, err, lang, args.json, InputError::Sheet, message);
        }
    };
    let report = audit(&paper);
    if args.json {
        print_json(out, &audit_json(&report, lang));
    } else {
        let _ = out.write_all(audit_text(&report, lang).as_bytes());
    }
    if report.is_clean() { EXIT_YES } else { EXIT_NO }
}

fn written(row: &Option<PaperRow>) -> serde_json::Value {
    row.as_ref()
        .map_or(serde_json::Value::Null, |r| json!(r.values))
}

fn audit_json(report: &Audit, lang: Language) -> serde_json::Value {
    let players = &report.sheet.players;
    let games: Vec<serde_json::Value> = report
        .games
        .iter()
        .map(|g| {
            json!({
                "row": g.row.line,
                "label": g.row.label,
                "points": g.row.values,
                "sum": g.sum,
                "winner": g.winner.map(|w| players.names()[w].clone()),
            })
        })
        .collect();
    json!({
        "players": players.names(),
        "clean": report.is_clean(),
        "problems": report.findings().iter().map(|f| i18n::finding(lang, f)).collect::<Vec<_>>(),
        "games": games,
        "totals": {"written": written(&report.sheet.totals), "correct": report.totals},
        "wins": {"written": written(&report.sheet.wins), "correct": report.wins},
        "ranks": {
            "written": written(&report.sheet.ranks),
            "by_total": report.by_total,
            "by_wins": report.by_wins,
            "matches": report.ranks_match().iter().map(|r| r.name()).collect::<Vec<_>>(),
            "follow_written_totals": report.ranks_follow_written_totals().map(|r| r.name()),
        },
    })
}

fn audit_text(report: &Audit, lang: Language) -> String {
    let players = &report.sheet.players;
    let mut rows = vec![row("", players.names().iter().cloned(), "")];
    for g in &report.games {
        let sum = if g.sum == 0 {
            "0".to_owned()
        } else {
            signed(g.sum)
        };
        rows.push(row(
            &g.row.label,
            g.row.values.iter().map(|&p| signed(p)),
            &audit_words::sums_to(lang, &sum),
        ));
    }
    let mut push_pair =
        |what: &str, written: &Option<PaperRow>, correct: Vec<String>, sign: bool| {
            if let Some(w) = written {
                let cells = w
                    .values
                    .iter()
                    .map(|&v| if sign { signed(v) } else { v.to_string() });
                rows.push(row(&audit_words::written(lang, what), cells, ""));
            }
            rows.push(row(&audit_words::correct(lang, what), correct, ""));
        };
    push_pair(
        words::WINS.get(lang),
        &report.sheet.wins,
        report.wins.iter().map(ToString::to_string).collect(),
        false,
    );
    push_pair(
        words::TOTAL.get(lang),
        &report.sheet.totals,
        report.totals.iter().map(|&t| signed(t)).collect(),
        true,
    );
    if let Some(w) = &report.sheet.ranks {
        rows.push(row(
            &audit_words::written(lang, words::RANK.get(lang)),
            w.values.iter().map(ToString::to_string),
            "",
        ));
    }
    for rule in [FinalRule::Total, FinalRule::Wins] {
        let ranks = report.ranks(rule).iter().map(ToString::to_string);
        let (label, note) = audit_words::rank_by(lang, rule);
        rows.push(row(&label, ranks, note));
    }
    let mut text = layout(&rows, players.len());
    text.push('\n');
    if report.sheet.ranks.is_some() {
        text.push_str(&audit_words::ranks_match(lang, &report.ranks_match()));
        if let Some(rule) = report.ranks_follow_written_totals() {
            text.push_str(&audit_words::ranks_follow_written_totals(lang, rule));
        }
        text.push('\n');
    }
    let findings = report.findings();
    text.push_str(&audit_words::problems(lang, findings.len()));
    text.push('\n');
    for finding in findings {
        text.push_str(&format!("  - {}\n", i18n::finding(lang, &finding)));
    }
    text
}
