//! `status`: the saved evening as the window left it (the timer's table and the open sheet),
//! for scripts and for checking that a restart lost nothing.

use std::io::Write;

use clap::Args;
use serde_json::{Value, json};

use super::{EXIT_YES, InputError, bad_input, print_json};
use crate::evening::SavedEvening as Evening;
use crate::i18n;
use crate::i18n::cli::{WARNING, status as words};
use crate::lang::Language;
use crate::score::Sheet;
use crate::store::{DATA_ENV, SheetId, Store, data_dir_from};
use crate::timer::{Phase, SavedTimer};

/// `status` arguments.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// `--json`.
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
    let warning = WARNING.get(lang);
    let dir = match data_dir_from(std::env::var_os(DATA_ENV)) {
        Ok(dir) => dir,
        Err(e) => {
            let message = i18n::store_error(lang, &e);
            return bad_input(out, err, lang, args.json, InputError::File, message);
        }
    };
    let shown = dir.display().to_string();
    if !dir.is_dir() {
        let message = words::no_folder(lang, &shown);
        return bad_input(out, err, lang, args.json, InputError::File, message);
    }
    if let Err(e) = std::fs::read_dir(&dir) {
        let message = words::folder_unreadable(lang, &shown, &e);
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
    status_text(out, lang, &evening, sheet.as_ref());
    EXIT_YES
}

/// The terminal output of `status`.
fn status_text(
    out: &mut dyn Write,
    lang: Language,
    evening: &Evening,
    sheet: Option<&(SheetId, Sheet)>,
) {
    match &evening.timer {
        Some(timer) => {
            let current = timer.players.get(timer.current).map_or("", String::as_str);
            let _ = writeln!(out, "{}", words::turn_of(lang, timer.phase(), current));
            for (i, name) in timer.players.iter().enumerate() {
                let stats = timer.stats.get(i).copied().unwrap_or_default();
                let secs = stats.total_ms as f64 / 1000.0;
                let line = words::player(lang, name, stats.turns, secs, stats.timeouts);
                let _ = writeln!(out, "{line}");
            }
        }
        None => {
            let _ = writeln!(out, "{}", words::NO_EVENING.get(lang));
        }
    }
    match sheet {
        Some((id, sheet)) => {
            let standings = sheet.standings();
            let rule = sheet.rules().final_rule;
            let line = words::sheet(lang, id.as_str(), sheet.games().len(), rule);
            let _ = writeln!(out, "{line}");
            let ranks = standings.ranks(rule);
            for (i, name) in sheet.players().names().iter().enumerate() {
                let total = standings.totals.get(i).copied().unwrap_or(0);
                let total = crate::score::table::signed(total);
                let rank = ranks.get(i).copied().unwrap_or(0);
                let _ = writeln!(out, "{}", words::standing(lang, name, &total, rank));
            }
        }
        None => {
            let _ = writeln!(out, "{}", words::NO_SHEET.get(lang));
        }
    }
}
