//! `history`: every saved sheet, added up per player.
//!
//! Reads the data folder without changing it ([`crate::store::read_sheets`]): a sheet that cannot
//! be read is skipped with a notice on stderr naming the file, never a crash and never a rename.
//! The figures come from [`crate::history`]; this file only presents them.

use std::io::Write;

use clap::Args;
use serde_json::json;

use super::score::layout;
use super::{EXIT_YES, InputError, bad_input, print_json};
use crate::history::{History, history_merged};
use crate::i18n;
use crate::i18n::cli::{NOTICE, history as words};
use crate::lang::Language;
use crate::rules::FinalRule;
use crate::score::table::signed;
use crate::store::{DATA_ENV, Skipped, data_dir_from, read_sheets};

/// `history` arguments.
#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// `--final`: the final-winner rule deciding match wins (`None`: each sheet's own).
    #[arg(long = "final", value_name = "RULE")]
    pub final_rule: Option<FinalRule>,
    /// `--json`.
    #[arg(long)]
    pub json: bool,
}

pub(super) fn run(
    args: &HistoryArgs,
    lang: Language,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let store_error = |e| i18n::store_error(lang, &e);
    let dir = match data_dir_from(std::env::var_os(DATA_ENV)).map_err(store_error) {
        Ok(dir) => dir,
        Err(e) => return bad_input(out, err, lang, args.json, InputError::File, e),
    };
    let scan = match read_sheets(&dir).map_err(store_error) {
        Ok(scan) => scan,
        Err(e) => return bad_input(out, err, lang, args.json, InputError::File, e),
    };
    for skipped in &scan.skipped {
        let text = words::skipped(
            lang,
            &skipped.file.display().to_string(),
            &skipped.problem,
            skipped.backup_used,
        );
        let _ = writeln!(err, "{} {text}", NOTICE.get(lang));
    }
    let offset = chrono::Offset::fix(chrono::Local::now().offset());
    let report = history_merged(
        scan.sheets.iter().map(|s| &s.sheet),
        args.final_rule,
        offset,
        &merged_names(&dir),
    );
    if args.json {
        print_json(out, &history_json(&report, args.final_rule, &scan.skipped));
    } else {
        let _ = out.write_all(history_text(&report, args.final_rule, lang).as_bytes());
    }
    EXIT_YES
}

/// The names the window counts as one player (the settings' `merged_names`), read without
/// changing anything; none when the settings cannot be read.
fn merged_names(dir: &std::path::Path) -> Vec<(String, String)> {
    let file = dir.join(crate::store::SETTINGS_FILE);
    // A regular file only: a named pipe in its place must not block the command.
    if !std::fs::metadata(&file).is_ok_and(|m| m.is_file() && m.len() < 1 << 20) {
        return Vec::new();
    }
    std::fs::read(file)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
        .and_then(|file| {
            serde_json::from_value(file.get("settings")?.get("merged_names")?.clone()).ok()
        })
        .unwrap_or_default()
}

fn history_json(
    report: &History,
    rule: Option<FinalRule>,
    skipped: &[Skipped],
) -> serde_json::Value {
    let players: Vec<serde_json::Value> = report
        .players
        .iter()
        .map(|p| {
            let cumulative: Vec<serde_json::Value> = p
                .cumulative
                .iter()
                .map(|c| json!({"evening": c.evening, "night": c.night, "date": c.at.to_rfc3339(), "total": c.total}))
                .collect();
            json!({
                "name": p.name,
                "evenings": p.evenings,
                "games": p.games,
                "matches": p.matches,
                "match_wins": p.match_wins,
                "total": p.total,
                "average": p.average(),
                "best_game": p.best_game,
                "head_to_head": p.head_to_head,
                "cumulative": cumulative,
            })
        })
        .collect();
    let evenings: Vec<serde_json::Value> = report
        .evenings
        .iter()
        .map(|e| {
            json!({
                "date": e.created.to_rfc3339(),
                "games": e.games,
                "match": e.is_match,
                "winners": e.winners,
            })
        })
        .collect();
    json!({
        "players": players,
        "evenings": evenings,
        "nights": report.nights,
        "final_rule": rule.map(FinalRule::name),
        "skipped": skipped.iter().map(|s| s.file.display().to_string()).collect::<Vec<_>>(),
    })
}

fn history_text(report: &History, rule: Option<FinalRule>, lang: Language) -> String {
    let matches = report.evenings.iter().filter(|e| e.is_match).count();
    let mut text = words::heading(lang, report.nights, matches, rule);
    text.push('\n');
    if report.players.is_empty() {
        text.push_str(words::NO_GAMES.get(lang));
        text.push('\n');
        return text;
    }
    text.push('\n');
    let header = words::COLUMNS.map(|t| t.get(lang).to_owned());
    let mut rows = vec![header.to_vec()];
    for p in &report.players {
        rows.push(vec![
            p.name.clone(),
            p.evenings.to_string(),
            p.games.to_string(),
            p.matches.to_string(),
            p.match_wins.to_string(),
            signed(p.total),
            p.average().map_or("-".into(), |a| format!("{a:+.1}")),
            p.best_game.map_or("-".into(), signed),
        ]);
    }
    text.push_str(&layout(&rows, 7));
    text.push('\n');
    text.push_str(words::HEAD_TO_HEAD.get(lang));
    text.push('\n');
    let mut rows = vec![
        std::iter::once(String::new())
            .chain(report.players.iter().map(|p| p.name.clone()))
            .collect::<Vec<_>>(),
    ];
    for p in &report.players {
        let cells = report.players.iter().map(|q| {
            if q.key == p.key {
                "-".to_owned()
            } else {
                p.head_to_head
                    .get(&q.name)
                    .map_or(String::new(), ToString::to_string)
            }
        });
        rows.push(std::iter::once(p.name.clone()).chain(cells).collect());
    }
    text.push_str(&layout(&rows, report.players.len()));
    text
}
