//! `score` and `audit`: score sheets from CSV.
//!
//! `score` reads remaining values (facts) and prints the zero-sum points, totals, wins and ranks
//! under the chosen final rule, naming the winner under the other rule too. `audit` reads a
//! hand-kept sheet of points and reports every slip. Both only parse and present: the engine is
//! [`crate::score`].

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use chrono::Utc;
use clap::Args;
use serde_json::json;
use unicode_width::UnicodeWidthStr;

use super::{EXIT_NO, EXIT_YES, InputError, bad_input, korean, print_json};
use crate::i18n::{self, Language};
use crate::rules::{FinalRule, Preset, RuleSet};
use crate::score::audit::{Audit, PaperRow, audit, read_paper_csv};
use crate::score::table::{Imported, read_score_csv, signed};
use crate::score::{Players, Standings};

/// `score` arguments.
#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// Rule preset: korean, english or tournament (default korean).
    #[arg(long, value_name = "P")]
    pub preset: Option<Preset>,
    /// Final-winner rule: total (highest total) or wins (most wins, then total).
    #[arg(long = "final", value_name = "RULE")]
    pub final_rule: Option<FinalRule>,
    /// What a joker left on a rack counts (default from the preset: 30; tournament 50).
    #[arg(long, value_name = "N")]
    pub joker: Option<u32>,
    /// Use the XP set (three copies of each tile, four jokers): racks are checked against it
    /// (always so with five or six players).
    #[arg(long)]
    pub xp: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// CSV sheet: header game,<player 1>,…; each row a label and every player's remaining value
    /// (a number or tiles; 0 = went out; `!` = named winner of a tie; `*` = had not melded).
    /// `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

impl ScoreArgs {
    fn rules(&self) -> RuleSet {
        let mut rules = self.preset.unwrap_or_default().rules();
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
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// CSV sheet as kept by hand: header game,<player 1>,…; game rows of signed points (+24, -5);
    /// optional rows `total` (점수합계), `wins` (승 수) and `rank` (순위). `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Reads the file (or standard input for `-`) as UTF-8 text.
fn read_text(path: &Path, lang: Language) -> Result<String, (InputError, String)> {
    let ko = korean(lang);
    let mut bytes = Vec::new();
    let read = if path == Path::new("-") {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(path).map(|b| bytes = b)
    };
    read.map_err(|e| {
        (
            InputError::File,
            if ko {
                format!("{}을(를) 읽을 수 없습니다 ({e})", path.display())
            } else {
                format!("cannot read {}: {e}", path.display())
            },
        )
    })?;
    String::from_utf8(bytes).map_err(|e| {
        (
            InputError::Encoding,
            if ko {
                format!(
                    "{}은(는) UTF-8 글자가 아닙니다 ({}번째 바이트가 잘못됨)",
                    path.display(),
                    e.utf8_error().valid_up_to()
                )
            } else {
                format!(
                    "{} is not UTF-8 text (invalid byte at offset {})",
                    path.display(),
                    e.utf8_error().valid_up_to()
                )
            },
        )
    })
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
    let imported = match read_score_csv(&text, args.rules(), Utc::now()) {
        Ok(imported) => imported,
        Err(e) => {
            let message = format!("{}: {}", args.file.display(), i18n::table_error(lang, &e));
            return bad_input(out, err, lang, args.json, InputError::Sheet, message);
        }
    };
    if args.json {
        print_json(out, &score_json(&imported));
    } else {
        let _ = out.write_all(score_text(&imported, lang).as_bytes());
    }
    EXIT_YES
}

fn names(players: &Players, seats: &[usize]) -> Vec<String> {
    seats.iter().map(|&i| players.names()[i].clone()).collect()
}

/// A final rule in words.
fn rule_words(rule: FinalRule, lang: Language) -> &'static str {
    match (korean(lang), rule) {
        (false, FinalRule::Total) => "highest total",
        (false, FinalRule::Wins) => "most wins, then total",
        (true, FinalRule::Total) => "최고 합계",
        (true, FinalRule::Wins) => "최다 승, 그다음 합계",
    }
}

/// The JSON object of DESIGN.md, plus rounds, counted values, both rankings and the rules.
fn score_json(imported: &Imported) -> serde_json::Value {
    let sheet = &imported.sheet;
    let players = sheet.players();
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
        "rules": sheet.rules(),
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

fn rules_line(rules: &RuleSet, lang: Language) -> String {
    if korean(lang) {
        let preset = match rules.preset() {
            Some(Preset::Korean) => "한국식",
            Some(Preset::English) => "영국식",
            Some(Preset::Tournament) => "대회",
            None => "사용자 설정",
        };
        let not_melded = match rules.not_melded_value {
            Some(v) => format!("미등록은 {v}점"),
            None => "미등록은 받침대 값".to_owned(),
        };
        return format!(
            "규칙: {preset} (받침대의 조커 {}점, {not_melded}); 최종 우승은 {}(으)로\n",
            rules.joker_penalty,
            rule_words(rules.final_rule, lang)
        );
    }
    let preset = rules
        .preset()
        .map_or("custom".to_owned(), |p| p.name().to_owned());
    let not_melded = match rules.not_melded_value {
        Some(v) => format!("not melded counts {v}"),
        None => "not melded counts the rack".to_owned(),
    };
    format!(
        "rules: {preset} (joker on a rack {}, {not_melded}); final winner by {}\n",
        rules.joker_penalty,
        rule_words(rules.final_rule, lang)
    )
}

fn score_text(imported: &Imported, lang: Language) -> String {
    let ko = korean(lang);
    let word = |en: &'static str, kr: &'static str| if ko { kr } else { en };
    let sheet = &imported.sheet;
    let players = sheet.players();
    let standings: Standings = sheet.standings();
    let rule = sheet.rules().final_rule;
    let mut rows = vec![row(
        word("game", "게임"),
        players.names().iter().cloned(),
        word("winner", "우승"),
    )];
    for (i, score) in sheet.scores().iter().enumerate() {
        let how = if score.went_out {
            ""
        } else {
            word(" (pool out)", " (더미 소진)")
        };
        let winner = format!("{}{how}", players.names()[score.winner]);
        rows.push(row(
            &imported.labels[i],
            score.points.iter().map(|&p| signed(p)),
            &winner,
        ));
    }
    rows.push(row(
        word("total", "합계"),
        standings.totals.iter().map(|&t| signed(t)),
        "",
    ));
    rows.push(row(
        word("wins", "승 수"),
        standings.wins.iter().map(ToString::to_string),
        "",
    ));
    for r in [rule, rule.other()] {
        let ranks = standings.ranks(r).iter().map(ToString::to_string);
        let by = if ko {
            format!("{} 기준", rule_words(r, lang))
        } else {
            format!("by {}", rule_words(r, lang))
        };
        rows.push(row(word("rank", "순위"), ranks, &by));
    }
    let mut text = rules_line(sheet.rules(), lang);
    text.push('\n');
    text.push_str(&layout(&rows, players.len()));
    text.push('\n');
    for r in [rule, rule.other()] {
        let winners = names(players, &standings.winners(r)).join(", ");
        let words = rule_words(r, lang);
        if ko {
            let other = if r == rule { "" } else { " (다른 규칙)" };
            text.push_str(&format!("{words} 기준 우승{other}: {winners}\n"));
        } else {
            let other = if r == rule { "" } else { " (the other rule)" };
            text.push_str(&format!("winner by {words}{other}: {winners}\n"));
        }
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
    let ko = korean(lang);
    let players = &report.sheet.players;
    let mut rows = vec![row("", players.names().iter().cloned(), "")];
    for g in &report.games {
        let sum = if g.sum == 0 {
            "0".to_owned()
        } else {
            signed(g.sum)
        };
        let note = if ko {
            format!("합 {sum}")
        } else {
            format!("sums to {sum}")
        };
        rows.push(row(
            &g.row.label,
            g.row.values.iter().map(|&p| signed(p)),
            &note,
        ));
    }
    let mut push_pair =
        |what: &str, written: &Option<PaperRow>, correct: Vec<String>, sign: bool| {
            if let Some(w) = written {
                let cells = w
                    .values
                    .iter()
                    .map(|&v| if sign { signed(v) } else { v.to_string() });
                let label = if ko {
                    format!("{what} (적힌 값)")
                } else {
                    format!("{what} written")
                };
                rows.push(row(&label, cells, ""));
            }
            let label = if ko {
                format!("{what} (바른 값)")
            } else {
                format!("{what} correct")
            };
            rows.push(row(&label, correct, ""));
        };
    push_pair(
        if ko { "승 수" } else { "wins" },
        &report.sheet.wins,
        report.wins.iter().map(ToString::to_string).collect(),
        false,
    );
    push_pair(
        if ko { "합계" } else { "total" },
        &report.sheet.totals,
        report.totals.iter().map(|&t| signed(t)).collect(),
        true,
    );
    if let Some(w) = &report.sheet.ranks {
        rows.push(row(
            if ko {
                "순위 (적힌 값)"
            } else {
                "rank written"
            },
            w.values.iter().map(ToString::to_string),
            "",
        ));
    }
    for rule in [FinalRule::Total, FinalRule::Wins] {
        let ranks = report.ranks(rule).iter().map(ToString::to_string);
        let label = if ko {
            format!("순위 ({})", rule_words(rule, lang))
        } else {
            format!("rank by {}", rule.name())
        };
        let note = if ko { "" } else { rule_words(rule, lang) };
        rows.push(row(&label, ranks, note));
    }
    let mut text = layout(&rows, players.len());
    text.push('\n');
    text.push_str(&rank_verdict(report, lang));
    let findings = report.findings();
    match (ko, findings.len()) {
        (false, 0) => text.push_str("no problems found\n"),
        (true, 0) => text.push_str("문제가 없습니다\n"),
        (false, n) => {
            let s = if n == 1 { "" } else { "s" };
            text.push_str(&format!("{n} problem{s} found:\n"));
        }
        (true, n) => text.push_str(&format!("문제 {n}개:\n")),
    }
    for finding in findings {
        text.push_str(&format!("  - {}\n", i18n::finding(lang, &finding)));
    }
    text
}

fn rank_verdict(report: &Audit, lang: Language) -> String {
    if report.sheet.ranks.is_none() {
        return String::new();
    }
    let matches = report.ranks_match();
    if korean(lang) {
        let mut text = match matches.as_slice() {
            [] => "적힌 순위는 어느 최종 규칙과도 맞지 않습니다".to_owned(),
            [one] => format!("적힌 순위는 {} 규칙과 맞습니다", rule_words(*one, lang)),
            _ => "적힌 순위는 두 최종 규칙 모두와 맞습니다".to_owned(),
        };
        if let Some(rule) = report.ranks_follow_written_totals() {
            text.push_str(&format!(
                "; 적힌 (틀린) 합계를 {} 기준으로 매긴 순위입니다",
                rule_words(rule, lang)
            ));
        }
        text.push('\n');
        return text;
    }
    let mut text = match matches.as_slice() {
        [] => "the written ranks match neither final rule".to_owned(),
        [one] => format!(
            "the written ranks match the {} rule",
            rule_words(*one, lang)
        ),
        _ => "the written ranks match both final rules".to_owned(),
    };
    if let Some(rule) = report.ranks_follow_written_totals() {
        text.push_str(&format!(
            "; they rank the written (wrong) totals by {}",
            rule_words(rule, lang)
        ));
    }
    text.push('\n');
    text
}
