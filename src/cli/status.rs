//! `status`: the saved evening as the window left it (the timer's table and the open sheet),
//! for scripts and for checking that a restart lost nothing.

use std::io::Write;

use clap::Args;
use serde_json::{Value, json};

use super::{EXIT_YES, InputError, bad_input, korean, print_json, warning_prefix};
use crate::evening::SavedEvening as Evening;
use crate::i18n::{self, Language};
use crate::rules::FinalRule;
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

/// How long the saved running turn has run since it was saved (the window saves its time a
/// few times a minute, not every second).
fn running_for(evening: &Evening) -> f64 {
    match (&evening.timer, evening.saved_at) {
        (Some(timer), Some(at)) if timer.phase() == Phase::Running => {
            (chrono::Utc::now() - at).num_milliseconds().max(0) as f64 / 1000.0
        }
        _ => 0.0,
    }
}

fn timer_json(timer: &SavedTimer, since_saved: f64) -> Value {
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
        "turn_seconds": timer.turn_ms.map(|ms| ms as f64 / 1000.0 + since_saved),
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
    // Only read: nothing is created, locked, renamed or written (a window may be running).
    let store = Store::open_reader(&dir);
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
            "timer": evening.timer.as_ref().map(|t| timer_json(t, running_for(&evening))),
            "sheet": sheet.as_ref().map(|(id, sheet)| sheet_json(id.as_str(), sheet)),
        });
        print_json(out, &value);
        return EXIT_YES;
    }
    status_text(out, words(ko), &evening, sheet.as_ref());
    EXIT_YES
}

/// The words of `status`'s terminal output in one language.
struct Words {
    phase: fn(Phase) -> &'static str,
    turn_of: fn(&str, &str) -> String,
    player: fn(&str, u32, f64, u32) -> String,
    no_evening: &'static str,
    sheet: fn(&str, usize, FinalRule) -> String,
    standing: fn(&str, &str, usize) -> String,
    no_sheet: &'static str,
}

fn words(ko: bool) -> Words {
    if ko {
        Words {
            phase: |phase| match phase {
                Phase::Idle => "대기",
                Phase::Running => "진행 중",
                Phase::Paused => "일시정지",
            },
            turn_of: |phase, name| format!("타이머: {phase} · {name}의 차례"),
            player: |name, turns, secs, outs| {
                format!("  {name}: 턴 {turns}번, {secs:.1}초, 시간 초과 {outs}번")
            },
            no_evening: "타이머: 저장된 저녁이 없습니다",
            sheet: |id, games, rule| {
                let by = match rule {
                    FinalRule::Total => "최고 합계",
                    FinalRule::Wins => "최다 승",
                };
                format!("점수표 {id}: 게임 {games}개, 최종 우승은 {by}(으)로")
            },
            standing: |name, total, rank| format!("  {name}: {total} ({rank}위)"),
            no_sheet: "점수표: 열린 것이 없습니다",
        }
    } else {
        Words {
            phase: phase_name,
            turn_of: |phase, name| format!("timer: {phase} · {name}'s turn"),
            player: |name, turns, secs, outs| {
                format!("  {name}: {turns} turns, {secs:.1} s, {outs} time-outs")
            },
            no_evening: "timer: no saved evening",
            sheet: |id, games, rule| {
                format!("sheet {id}: {games} games, final winner by {}", rule.name())
            },
            standing: |name, total, rank| format!("  {name}: {total} (rank {rank})"),
            no_sheet: "sheet: none open",
        }
    }
}

/// The terminal output of `status`.
fn status_text(out: &mut dyn Write, w: Words, evening: &Evening, sheet: Option<&(SheetId, Sheet)>) {
    match &evening.timer {
        Some(timer) => {
            let current = timer.players.get(timer.current).map_or("", String::as_str);
            let _ = writeln!(out, "{}", (w.turn_of)((w.phase)(timer.phase()), current));
            for (i, name) in timer.players.iter().enumerate() {
                let stats = timer.stats.get(i).copied().unwrap_or_default();
                let secs = stats.total_ms as f64 / 1000.0;
                let line = (w.player)(name, stats.turns, secs, stats.timeouts);
                let _ = writeln!(out, "{line}");
            }
        }
        None => {
            let _ = writeln!(out, "{}", w.no_evening);
        }
    }
    match sheet {
        Some((id, sheet)) => {
            let standings = sheet.standings();
            let rule = sheet.rules().final_rule;
            let line = (w.sheet)(id.as_str(), sheet.games().len(), rule);
            let _ = writeln!(out, "{line}");
            let ranks = standings.ranks(rule);
            for (i, name) in sheet.players().names().iter().enumerate() {
                let total = standings.totals.get(i).copied().unwrap_or(0);
                let total = crate::score::table::signed(total);
                let rank = ranks.get(i).copied().unwrap_or(0);
                let _ = writeln!(out, "{}", (w.standing)(name, &total, rank));
            }
        }
        None => {
            let _ = writeln!(out, "{}", w.no_sheet);
        }
    }
}
