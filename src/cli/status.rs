//! `status`: the saved evening as the window left it (the timer's table and the open sheet),
//! for scripts and for checking that a restart lost nothing.

use std::io::Write;

use clap::Args;
use serde_json::{Value, json};

use super::{EXIT_YES, InputError, bad_input, korean, print_json, warning_prefix};
use crate::evening::Evening;
use crate::i18n::{self, Language};
use crate::score::Sheet;
use crate::store::{DATA_ENV, SheetId, Store, data_dir_from};
use crate::timer::{Phase, SavedTimer};

/// `status` arguments.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Idle => "idle",
        Phase::Running => "running",
        Phase::Paused => "paused",
    }
}

fn timer_json(timer: &SavedTimer) -> Value {
    let players: Vec<Value> = timer
        .players
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let stats = timer.stats.get(i).copied().unwrap_or_default();
            json!({
                "name": name,
                "turns": stats.turns,
                "timeouts": stats.timeouts,
                "total_seconds": stats.total_ms as f64 / 1000.0,
            })
        })
        .collect();
    json!({
        "players": players,
        "current": timer.players.get(timer.current),
        "current_seat": timer.current,
        "phase": phase_name(timer.phase()),
        "turn_seconds": timer.turn_ms.map(|ms| ms as f64 / 1000.0),
    })
}

fn sheet_json(id: &str, sheet: &Sheet) -> Value {
    let standings = sheet.standings();
    let rule = sheet.rules().final_rule;
    json!({
        "id": id,
        "players": sheet.players().names(),
        "games": sheet.games().len(),
        "totals": standings.totals,
        "wins": standings.wins,
        "ranks": standings.ranks(rule),
        "final_rule": rule.name(),
    })
}

/// Runs `status`.
pub fn run(args: &StatusArgs, lang: Language, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let ko = korean(lang);
    let warning = warning_prefix(lang);
    let dir = match data_dir_from(std::env::var_os(DATA_ENV)) {
        Ok(dir) => dir,
        Err(e) => {
            let message = i18n::store_error(lang, &e);
            return bad_input(out, err, lang, args.json, InputError::File, message);
        }
    };
    if !dir.is_dir() {
        let message = if ko {
            format!(
                "데이터 폴더 {}을(를) 읽을 수 없습니다: 없는 폴더입니다",
                dir.display()
            )
        } else {
            format!(
                "the data folder {} cannot be read: it does not exist",
                dir.display()
            )
        };
        return bad_input(out, err, lang, args.json, InputError::File, message);
    }
    if let Err(e) = std::fs::read_dir(&dir) {
        let message = if ko {
            format!("데이터 폴더 {}을(를) 읽을 수 없습니다 ({e})", dir.display())
        } else {
            format!("the data folder {} cannot be read: {e}", dir.display())
        };
        return bad_input(out, err, lang, args.json, InputError::File, message);
    }
    let store = match Store::open(&dir) {
        Ok(store) => store,
        Err(e) => {
            let message = i18n::store_error(lang, &e);
            return bad_input(out, err, lang, args.json, InputError::File, message);
        }
    };
    let loaded = store.load_evening::<Evening>();
    for notice in &loaded.notices {
        let _ = writeln!(err, "{warning} {}", i18n::notice(lang, notice));
    }
    let evening = loaded.value;
    let sheet = match evening.sheet.as_deref().map(SheetId::new) {
        Some(Ok(id)) => match store.load_sheet(&id) {
            Ok(loaded) => {
                for notice in &loaded.notices {
                    let _ = writeln!(err, "{warning} {}", i18n::notice(lang, notice));
                }
                Some((id, loaded.value))
            }
            Err(e) => {
                let _ = writeln!(err, "{warning} {}", i18n::store_error(lang, &e));
                None
            }
        },
        Some(Err(e)) => {
            let _ = writeln!(err, "{warning} {}", i18n::store_error(lang, &e));
            None
        }
        None => None,
    };
    if args.json {
        let value = json!({
            "timer": evening.timer.as_ref().map(timer_json),
            "sheet": sheet.as_ref().map(|(id, sheet)| sheet_json(id.as_str(), sheet)),
        });
        print_json(out, &value);
        return EXIT_YES;
    }
    if ko {
        status_text_ko(out, &evening, sheet.as_ref());
        return EXIT_YES;
    }
    match &evening.timer {
        Some(timer) => {
            let current = timer.players.get(timer.current).map_or("", String::as_str);
            let _ = writeln!(
                out,
                "timer: {} · {current}'s turn",
                phase_name(timer.phase())
            );
            for (i, name) in timer.players.iter().enumerate() {
                let stats = timer.stats.get(i).copied().unwrap_or_default();
                let _ = writeln!(
                    out,
                    "  {name}: {} turns, {:.1} s, {} time-outs",
                    stats.turns,
                    stats.total_ms as f64 / 1000.0,
                    stats.timeouts
                );
            }
        }
        None => {
            let _ = writeln!(out, "timer: no saved evening");
        }
    }
    match &sheet {
        Some((id, sheet)) => {
            let standings = sheet.standings();
            let rule = sheet.rules().final_rule;
            let _ = writeln!(
                out,
                "sheet {id}: {} games, final winner by {}",
                sheet.games().len(),
                rule.name()
            );
            for (i, name) in sheet.players().names().iter().enumerate() {
                let _ = writeln!(
                    out,
                    "  {name}: {} (rank {})",
                    crate::score::table::signed(standings.totals.get(i).copied().unwrap_or(0)),
                    standings.ranks(rule).get(i).copied().unwrap_or(0)
                );
            }
        }
        None => {
            let _ = writeln!(out, "sheet: none open");
        }
    }
    EXIT_YES
}

/// The Korean terminal output of `status`.
fn status_text_ko(out: &mut dyn Write, evening: &Evening, sheet: Option<&(SheetId, Sheet)>) {
    match &evening.timer {
        Some(timer) => {
            let current = timer.players.get(timer.current).map_or("", String::as_str);
            let phase = match timer.phase() {
                Phase::Idle => "대기",
                Phase::Running => "진행 중",
                Phase::Paused => "일시정지",
            };
            let _ = writeln!(out, "타이머: {phase} · {current}의 차례");
            for (i, name) in timer.players.iter().enumerate() {
                let stats = timer.stats.get(i).copied().unwrap_or_default();
                let _ = writeln!(
                    out,
                    "  {name}: 턴 {}번, {:.1}초, 시간 초과 {}번",
                    stats.turns,
                    stats.total_ms as f64 / 1000.0,
                    stats.timeouts
                );
            }
        }
        None => {
            let _ = writeln!(out, "타이머: 저장된 저녁이 없습니다");
        }
    }
    match sheet {
        Some((id, sheet)) => {
            let standings = sheet.standings();
            let rule = sheet.rules().final_rule;
            let by = match rule {
                crate::rules::FinalRule::Total => "최고 합계",
                crate::rules::FinalRule::Wins => "최다 승",
            };
            let _ = writeln!(
                out,
                "점수표 {id}: 게임 {}개, 최종 우승은 {by}(으)로",
                sheet.games().len()
            );
            for (i, name) in sheet.players().names().iter().enumerate() {
                let _ = writeln!(
                    out,
                    "  {name}: {} ({}위)",
                    crate::score::table::signed(standings.totals.get(i).copied().unwrap_or(0)),
                    standings.ranks(rule).get(i).copied().unwrap_or(0)
                );
            }
        }
        None => {
            let _ = writeln!(out, "점수표: 열린 것이 없습니다");
        }
    }
}
