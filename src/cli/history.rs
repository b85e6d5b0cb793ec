//! `history`: every saved sheet, added up per player.
//!
//! Reads the data folder without changing it ([`crate::store::read_sheets`]): a sheet that cannot
//! be read is skipped with a notice on stderr naming the file, never a crash and never a rename.
//! The figures come from [`crate::history`]; this file only presents them.

use std::io::Write;

use clap::Args;
use serde_json::json;

use super::score::layout;
use super::{EXIT_YES, InputError, bad_input, korean, print_json};
use crate::history::{History, history};
use crate::i18n::{self, Language};
use crate::rules::FinalRule;
use crate::score::table::signed;
use crate::store::{DATA_ENV, Skipped, data_dir_from, read_sheets};

/// `history` arguments.
#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// Final-winner rule deciding match wins: total or wins (default: each sheet's own rule).
    #[arg(long = "final", value_name = "RULE")]
    pub final_rule: Option<FinalRule>,
    /// Print one JSON object.
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
    let word = if korean(lang) { "알림:" } else { "notice:" };
    for skipped in &scan.skipped {
        let _ = writeln!(err, "{word} {}", skipped_text(skipped, lang));
    }
    let report = history(scan.sheets.iter().map(|s| &s.sheet), args.final_rule);
    if args.json {
        print_json(out, &history_json(&report, args.final_rule, &scan.skipped));
    } else {
        let _ = out.write_all(history_text(&report, args.final_rule, lang).as_bytes());
    }
    EXIT_YES
}

fn skipped_text(s: &Skipped, lang: Language) -> String {
    if korean(lang) {
        let then = if s.backup_used {
            "백업을 썼습니다"
        } else {
            "빼고 셉니다"
        };
        let problem = i18n::file_problem(lang, &s.problem);
        return format!("{}{problem}: {then}", s.file.display());
    }
    let then = if s.backup_used {
        "its backup was used"
    } else {
        "skipped"
    };
    format!("{} {}; {then}", s.file.display(), s.problem)
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
                .map(|c| json!({"evening": c.evening, "date": c.at.to_rfc3339(), "total": c.total}))
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
        "final_rule": rule.map(FinalRule::name),
        "skipped": skipped.iter().map(|s| s.file.display().to_string()).collect::<Vec<_>>(),
    })
}

fn history_text(report: &History, rule: Option<FinalRule>, lang: Language) -> String {
    let ko = korean(lang);
    let matches = report.evenings.iter().filter(|e| e.is_match).count();
    let evenings = report.evenings.len();
    let mut text = if ko {
        let by = match rule {
            None => "점수표마다 정한 규칙",
            Some(FinalRule::Total) => "최고 합계",
            Some(FinalRule::Wins) => "최다 승, 그다음 합계",
        };
        format!("저녁 {evenings}번, 승부가 난 경기 {matches}번; 경기 우승은 {by}(으)로\n")
    } else {
        let by = match rule {
            None => "each sheet's own final rule",
            Some(FinalRule::Total) => "highest total",
            Some(FinalRule::Wins) => "most wins, then total",
        };
        format!("{evenings} evenings, {matches} decided matches; match winners by {by}\n")
    };
    if report.players.is_empty() {
        text.push_str(if ko {
            "저장된 게임이 아직 없습니다\n"
        } else {
            "no games saved yet\n"
        });
        return text;
    }
    text.push('\n');
    let header = if ko {
        [
            "플레이어",
            "저녁",
            "게임",
            "경기",
            "경기 우승",
            "합계",
            "평균",
            "최고 게임",
        ]
    } else {
        [
            "player",
            "evenings",
            "games",
            "matches",
            "match wins",
            "total",
            "average",
            "best game",
        ]
    };
    let mut rows = vec![header.map(str::to_owned).to_vec()];
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
    text.push_str(if ko {
        "\n맞대결 (상대에게 이긴 게임 수):\n"
    } else {
        "\nhead to head (games won against):\n"
    });
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
