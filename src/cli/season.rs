//! `season`: a season across venues, with no server — `new`, `add`, `standings`, `key`.
//!
//! Each venue runs its own laptop and exports its events as signed bundles (`event export`);
//! whoever keeps the season imports them (`season add`), and the season's standings add up
//! every entrant's ranking points ([`crate::event::season`]). Seasons live in the data folder
//! (`seasons/<id>.json`, [`crate::store::SeasonStore`]). Exit codes as elsewhere: **0** done;
//! **2** bad input — a file that is not a bundle, a bundle changed after it was signed, a
//! venue's bundle signed with another key than the venue's first one (the venue named), an
//! unfinished event, no such season. An import is all or nothing: one refused file and no file
//! of the command is added.

use std::io::Write;
use std::path::PathBuf;

use chrono::Utc;
use clap::{Args, Subcommand};
use serde_json::{Value, json};

use super::{EXIT_YES, InputError, bad_input, print_json};
use crate::club::season as club_season;
use crate::event::season::{Added, Season};
use crate::i18n;
use crate::i18n::event::season as words;
use crate::lang::Language;
use crate::store::{DATA_ENV, SeasonId, Store, StoreError, data_dir_from};

/// `season` arguments.
#[derive(Debug, Args)]
pub struct SeasonArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: SeasonCommand,
}

/// The `season` subcommands.
#[derive(Debug, Subcommand)]
pub enum SeasonCommand {
    /// `season new`.
    New(NewArgs),
    /// `season add`.
    Add(AddArgs),
    /// `season standings`.
    Standings(StandingsArgs),
    /// `season key`.
    Key(KeyArgs),
}

/// `season new` arguments.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The season's name.
    #[arg(value_name = "NAME")]
    pub name: String,
    /// `--points`: `entrants` (place p of E gets E − p + 1) or a list by place.
    #[arg(long, value_name = "entrants|LIST")]
    pub points: Option<String>,
    /// `--best`: count each player's best K events.
    #[arg(long, value_name = "K")]
    pub best: Option<u32>,
    /// `--json`.
    #[arg(long)]
    pub json: bool,
}

/// `season add` arguments.
#[derive(Debug, Args)]
pub struct AddArgs {
    /// `--season`: the season's id or name (default: the most recent).
    #[arg(long, value_name = "S")]
    pub season: Option<String>,
    /// The bundles (`event export`'s files).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// `--json`.
    #[arg(long)]
    pub json: bool,
}

/// `season standings` arguments.
#[derive(Debug, Args)]
pub struct StandingsArgs {
    /// `--season`: the season's id or name (default: the most recent).
    #[arg(long, value_name = "S")]
    pub season: Option<String>,
    /// `--json`.
    #[arg(long)]
    pub json: bool,
}

/// `season key` arguments.
#[derive(Debug, Args)]
pub struct KeyArgs {
    /// `--venue`: names this data folder's venue (the key stays).
    #[arg(long, value_name = "NAME")]
    pub venue: Option<String>,
    /// `--json`.
    #[arg(long)]
    pub json: bool,
}

/// Runs a `season` subcommand.
pub(super) fn run(
    args: &SeasonArgs,
    lang: Language,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let (json, done) = match &args.command {
        SeasonCommand::New(a) => (a.json, new(a, lang, out)),
        SeasonCommand::Add(a) => (a.json, add(a, lang, out, err)),
        SeasonCommand::Standings(a) => (a.json, standings(a, lang, out, err)),
        SeasonCommand::Key(a) => (a.json, key(a, lang, out)),
    };
    match done {
        Ok(()) => EXIT_YES,
        Err(message) => bad_input(out, err, lang, json, InputError::File, message),
    }
}

fn data_dir(lang: Language) -> Result<PathBuf, String> {
    data_dir_from(std::env::var_os(DATA_ENV)).map_err(|e| i18n::store_error(lang, &e))
}

/// Reads a season, saying on `err` what was restored on the way.
fn load(
    store: &Store,
    id: &SeasonId,
    lang: Language,
    err: &mut dyn Write,
) -> Result<Season, String> {
    let loaded = store
        .load_season(id)
        .map_err(|e| i18n::store_error(lang, &e))?;
    for notice in &loaded.notices {
        let _ = writeln!(
            err,
            "{} {}",
            i18n::cli::WARNING.get(lang),
            i18n::notice(lang, notice)
        );
    }
    Ok(loaded.value)
}

fn new(args: &NewArgs, lang: Language, out: &mut dyn Write) -> Result<(), String> {
    let points = club_season::points_rule(args.points.as_deref(), lang)?;
    let dir = data_dir(lang)?;
    let (id, season) = club_season::create(&dir, &args.name, points, args.best, Utc::now(), lang)?;
    if args.json {
        print_json(
            out,
            &json!({"id": id.as_str(), "season": season.name, "best": season.best}),
        );
    } else {
        let _ = writeln!(out, "{id}");
    }
    Ok(())
}

fn add(
    args: &AddArgs,
    lang: Language,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), String> {
    let dir = data_dir(lang)?;
    let (season, done) = match club_season::import(&dir, args.season.as_deref(), &args.files, lang)
    {
        Ok(done) => done,
        Err(mut refused) => {
            let last = refused.messages.pop().unwrap_or_default();
            for message in &refused.messages {
                let _ = writeln!(err, "{} {message}", i18n::cli::ERROR.get(lang));
            }
            return Err(format!("{last} ({})", words::NOTHING_ADDED.get(lang)));
        }
    };
    if args.json {
        let files: Vec<Value> = done
            .iter()
            .map(|i| {
                json!({
                    "file": i.file,
                    "event": i.opened.payload.event.setup().name,
                    "event_id": i.opened.payload.event_id,
                    "venue": i.opened.payload.venue,
                    "added": added_name(&i.added),
                })
            })
            .collect();
        print_json(
            out,
            &json!({"season": season.name, "events": season.events.len(), "files": files}),
        );
    } else {
        for i in &done {
            let _ = writeln!(
                out,
                "{}",
                words::added(
                    lang,
                    &i.added,
                    &i.file,
                    &i.opened.payload.event.setup().name,
                    &i.opened.payload.venue
                )
            );
        }
    }
    Ok(())
}

fn added_name(added: &Added) -> &'static str {
    match added {
        Added::New => "new",
        Added::Replaced => "replaced",
        Added::AlreadyIn => "already_in",
        Added::OlderKept => "older_kept",
    }
}

fn standings(
    args: &StandingsArgs,
    lang: Language,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), String> {
    // Reading only: nothing is locked, moved or written.
    let store = Store::open_reader(data_dir(lang)?);
    let id = club_season::season_id(&store, args.season.as_deref(), lang)?;
    let season = load(&store, &id, lang, err)?;
    let lines = season.standings();
    if args.json {
        let rows: Vec<Value> = lines
            .iter()
            .map(|l| {
                json!({
                    "rank": l.rank,
                    "name": l.name,
                    "club": l.club,
                    "id": l.id,
                    "points": l.points,
                    "events": l.events,
                    "counted": l.counted,
                    "places": l.places,
                })
            })
            .collect();
        let events: Vec<Value> = season
            .events
            .iter()
            .map(|e| {
                json!({
                    "venue": e.venue,
                    "event_id": e.event_id,
                    "name": e.name,
                    "entrants": e.placings.len(),
                    "exported": e.exported,
                })
            })
            .collect();
        print_json(
            out,
            &json!({
                "season": season.name,
                "events": season.events.len(),
                "best": season.best,
                "counted_events": events,
                "standings": rows,
            }),
        );
        return Ok(());
    }
    let _ = writeln!(
        out,
        "{}",
        words::heading(lang, &season.name, season.events.len(), season.best)
    );
    let width = |t: &str| unicode_width::UnicodeWidthStr::width(t);
    let [rank, name, club, points, events] = words::COLUMNS.map(|t| t.get(lang));
    let name_w = lines
        .iter()
        .map(|l| width(&l.name))
        .chain([width(name)])
        .max()
        .unwrap_or(4);
    let club_w = lines
        .iter()
        .map(|l| width(l.club.as_deref().unwrap_or("")))
        .chain([width(club)])
        .max()
        .unwrap_or(4);
    let pad = |t: &str, w: usize| format!("{t}{}", " ".repeat(w.saturating_sub(width(t))));
    let right = |t: &str, w: usize| format!("{}{t}", " ".repeat(w.saturating_sub(width(t))));
    let _ = writeln!(
        out,
        "{}  {}  {}  {}  {}",
        right(rank, 4),
        pad(name, name_w),
        pad(club, club_w),
        right(points, 6),
        right(events, 6)
    );
    for l in &lines {
        let _ = writeln!(
            out,
            "{:>4}  {}  {}  {:>6}  {:>6}",
            l.rank,
            pad(&l.name, name_w),
            pad(l.club.as_deref().unwrap_or(""), club_w),
            l.points,
            l.events
        );
    }
    Ok(())
}

fn key(args: &KeyArgs, lang: Language, out: &mut dyn Write) -> Result<(), String> {
    let dir = data_dir(lang)?;
    let venue = crate::store::venue(&dir, args.venue.as_deref()).map_err(|e| {
        let message = i18n::store_error(lang, &e);
        match e {
            StoreError::Unrecoverable { .. } => words::key_unusable(lang, &message),
            _ => message,
        }
    })?;
    if args.json {
        print_json(
            out,
            &json!({"venue": venue.name(), "key": venue.public_key()}),
        );
    } else {
        let _ = writeln!(out, "{}", venue.public_key());
        let _ = writeln!(out, "{}", words::venue_line(lang, venue.name()));
    }
    Ok(())
}
