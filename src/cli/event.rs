//! `event`: a club night from the command line — `new`, `seat`, `final`, `result`,
//! `standings`, `export`, `free-seat`, `serve`.
//!
//! Every command that changes an event goes through the club night's one owner
//! ([`crate::club`]): in a folder nobody holds, this process becomes the owner for the
//! command (waiting a moment for another command); in a folder a host holds (`event serve`,
//! or a window with the event open), the command is handed to that host over loopback and
//! carried out by its own `apply`, so the host's copy stays the one copy. Either way what is
//! printed is on disk. Without `--event` the most recent event (or the host's open one) is
//! used. Exit codes as elsewhere: **0** done;
//! **1** a clear "no" from the event (the round is not finished, the players cannot be seated,
//! the table has a result already); **2** bad input (a file that cannot be read, a result that
//! names the wrong players or does not score, an unknown event). With `--json`, a refusal is
//! `{"error": {"kind": …, "message": …}}` on stdout too.

use std::io::Write;
use std::path::PathBuf;

use chrono::Utc;
use clap::{Args, Subcommand};
use serde_json::{Value, json};

use super::score::read_text;
use super::{EXIT_BAD_INPUT, EXIT_YES, InputError, bad_input, print_json};
use crate::club::{
    ClubCommand, ClubOptions, ClubRefusal, ClubShared, Did, LinkPick, RelayAnswer, Relayed,
    RelayedAsk,
};
use crate::event::format::{Placement, placement_number, placement_text};
use crate::event::live::{Actor, TableCommand};
use crate::event::{
    Carry, Command, Event, EventSetup, Format, Outcome, Ranking, SeatingRule, Seeding, Standings,
};
use crate::i18n;
use crate::i18n::event::cli as words;
use crate::lang::Language;
use crate::rules::Preset;
use crate::score::table::read_score_csv;
use crate::store::{DATA_ENV, EventId, HolderKind, Store, data_dir_from};

/// `event` arguments.
#[derive(Debug, Args)]
pub struct EventArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: EventCommand,
}

/// The `event` subcommands.
#[derive(Debug, Subcommand)]
pub enum EventCommand {
    /// `event new`.
    New(NewArgs),
    /// `event seat`.
    Seat(SeatArgs),
    /// `event final`.
    Final(FinalArgs),
    /// `event result`.
    Result(ResultArgs),
    /// `event standings`.
    Standings(StandingsArgs),
    /// `event serve`.
    Serve(ServeArgs),
    /// `event free-seat`.
    FreeSeat(FreeSeatArgs),
    /// `event export`.
    Export(ExportArgs),
}

/// `event final` arguments: the top of the standings seated as the next stage.
#[derive(Debug, Args)]
pub struct FinalArgs {
    /// `--event`: the event's id (default: the most recent).
    #[arg(long, value_name = "ID")]
    pub event: Option<String>,
    /// `--top`: how many of the standings' top go on (8: two tables, 4: one).
    #[arg(long, value_name = "N")]
    pub top: u32,
    /// `--games`: games at each table of the stage (default: the format's, else the event's).
    #[arg(long, value_name = "G")]
    pub games: Option<u32>,
    /// `--seeding`: snake (1-3-5-7 / 2-4-6-8) or order (1-2-3-4 / 5-6-7-8).
    #[arg(long, value_name = "snake|order", value_parser = parse_seeding)]
    pub seeding: Option<Seeding>,
    /// `--carry`: what players bring into the stage: none, half (rounded up) or all.
    #[arg(long, value_name = "none|half|all", value_parser = parse_carry)]
    pub carry: Option<Carry>,
    /// `--json`.
    #[arg(long)]
    pub json: bool,
}

/// `event export` arguments: the event as a bundle signed with the venue's key.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// `--event`: the event's id (default: the most recent).
    #[arg(long, value_name = "ID")]
    pub event: Option<String>,
    /// `--out`: the bundle's file.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// `--venue`: the venue's name (kept for later exports; default: the one kept).
    #[arg(long, value_name = "NAME")]
    pub venue: Option<String>,
    /// `--json`.
    #[arg(long)]
    pub json: bool,
}

/// `event free-seat` arguments: frees a seat whose phone died, so another phone can take it.
#[derive(Debug, Args)]
pub struct FreeSeatArgs {
    /// `--event`: the event's id (default: the most recent, or the host's).
    #[arg(long, value_name = "ID")]
    pub event: Option<String>,
    /// `--table`: the table number.
    #[arg(long, value_name = "T")]
    pub table: u32,
    /// `--seat`: the seat (1 = the first seat).
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u32).range(1..=6))]
    pub seat: u32,
}

/// `event serve` arguments.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// `--event`: the event's id (default: the most recent).
    #[arg(long, value_name = "ID")]
    pub event: Option<String>,
    /// `--port`: the port to listen on.
    #[arg(long, value_name = "P", default_value_t = crate::server::tv::TV_PORT)]
    pub port: u16,
    /// `--bind`: the address to listen on.
    #[arg(long, value_name = "ADDR", default_value = "::")]
    pub bind: String,
    /// `--round-minutes`: the round clock on the TV page.
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u32).range(1..=600))]
    pub round_minutes: Option<u32>,
}

/// `event new` arguments.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The event's name.
    #[arg(value_name = "NAME")]
    pub name: String,
    /// `--players`: one name a line, optionally `name,club`.
    #[arg(long, value_name = "FILE")]
    pub players: PathBuf,
    /// `--games`: games each table plays a round (default: the format's, else 4).
    #[arg(long, value_name = "G")]
    pub games: Option<u32>,
    /// `--ranking`: wins, total, percent or placement (default: the format's, else wins).
    #[arg(long, value_name = "RANKING", value_parser = parse_ranking)]
    pub ranking: Option<Ranking>,
    /// `--format`: a federation's format, setting everything below at once.
    #[arg(long, value_name = "PRESET", value_parser = parse_format)]
    pub format: Option<Format>,
    /// `--seating`: mixed (fewest repeat meetings) or standings (table 1 the top n).
    #[arg(long, value_name = "mixed|standings", value_parser = parse_seating)]
    pub seating: Option<SeatingRule>,
    /// `--placement`: placement points for places 1..n at a table of n (once per size).
    #[arg(long, value_name = "LIST", value_parser = parse_list)]
    pub placement: Vec<Vec<u32>>,
    /// `--win-bonus`: points added to each game's winner.
    #[arg(long, value_name = "N")]
    pub win_bonus: Option<i64>,
    /// `--divisions-apart`: each division at tables of its own.
    #[arg(long)]
    pub divisions_apart: bool,
    /// `--seed`: the seed of every draw (default: a random one, printed in the JSON).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// `--preset`: the rules games are scored under (default: tournament).
    #[arg(long, value_name = "P")]
    pub preset: Option<Preset>,
    /// `--clubs-apart`: round 1 keeps a club's players at different tables.
    #[arg(long)]
    pub clubs_apart: bool,
    /// `--xp`: a count tables of 4 and 3 cannot seat (5) plays one table on the XP set.
    #[arg(long)]
    pub xp: bool,
    /// `--json`.
    #[arg(long)]
    pub json: bool,
}

/// `event seat` arguments.
#[derive(Debug, Args)]
pub struct SeatArgs {
    /// `--event`: the event's id (default: the most recent).
    #[arg(long, value_name = "ID")]
    pub event: Option<String>,
    /// `--json`.
    #[arg(long)]
    pub json: bool,
}

/// `event result` arguments.
#[derive(Debug, Args)]
pub struct ResultArgs {
    /// `--event`: the event's id (default: the most recent).
    #[arg(long, value_name = "ID")]
    pub event: Option<String>,
    /// `--table`: the table number.
    #[arg(long, value_name = "T")]
    pub table: u32,
    /// `--round`: the round (default: the current one).
    #[arg(long, value_name = "R")]
    pub round: Option<u32>,
    /// `--correct`: replace a result given before (the old one stays in the log).
    #[arg(long)]
    pub correct: bool,
    /// `--json`.
    #[arg(long)]
    pub json: bool,
    /// The table's games: the CSV `score` reads, header = the seated names; `-` is stdin.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// `event standings` arguments.
#[derive(Debug, Args)]
pub struct StandingsArgs {
    /// `--event`: the event's id (default: the most recent).
    #[arg(long, value_name = "ID")]
    pub event: Option<String>,
    /// `--ranking`: rank under another ranking than the event's.
    #[arg(long, value_name = "RANKING", value_parser = parse_ranking)]
    pub ranking: Option<Ranking>,
    /// `--division`: one division's standings, ranked among its players.
    #[arg(long, value_name = "D")]
    pub division: Option<String>,
    /// `--csv`: also write the standings as CSV (with a BOM) to this file.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// `--json`.
    #[arg(long)]
    pub json: bool,
}

fn parse_ranking(text: &str) -> Result<Ranking, String> {
    text.parse()
        .map_err(|t: String| words::not_a_ranking(Language::English, &t))
}

fn parse_format(text: &str) -> Result<Format, String> {
    text.parse()
        .map_err(|t: String| words::not_one_of(Language::English, &t, &format_names()))
}

fn format_names() -> Vec<&'static str> {
    Format::ALL.iter().map(|f| f.name()).collect()
}

fn parse_seating(text: &str) -> Result<SeatingRule, String> {
    text.parse()
        .map_err(|t: String| words::not_one_of(Language::English, &t, &["mixed", "standings"]))
}

fn parse_seeding(text: &str) -> Result<Seeding, String> {
    text.parse()
        .map_err(|t: String| words::not_one_of(Language::English, &t, &["snake", "order"]))
}

fn parse_carry(text: &str) -> Result<Carry, String> {
    text.parse()
        .map_err(|t: String| words::not_one_of(Language::English, &t, &["none", "half", "all"]))
}

/// A list of whole numbers: `4,3,1,0`.
fn parse_list(text: &str) -> Result<Vec<u32>, String> {
    text.split(',')
        .map(|v| v.trim().parse::<u32>())
        .collect::<Result<Vec<u32>, _>>()
        .map_err(|_| words::not_a_list(Language::English, text.trim()))
}

/// Runs an `event` subcommand.
pub(super) fn run(
    args: &EventArgs,
    lang: Language,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    match &args.command {
        EventCommand::New(a) => new(a, lang, out, err),
        EventCommand::Seat(a) => seat(a, lang, out, err),
        EventCommand::Final(a) => final_stage(a, lang, out, err),
        EventCommand::Export(a) => export(a, lang, out, err),
        EventCommand::Result(a) => result(a, lang, out, err),
        EventCommand::Standings(a) => standings(a, lang, out, err),
        EventCommand::Serve(a) => serve(a, lang, out, err),
        EventCommand::FreeSeat(a) => free_seat(a, lang, out, err),
    }
}

/// A failure already worded: the exit code and the message.
struct Failure {
    code: i32,
    kind: &'static str,
    message: String,
}

impl Failure {
    fn bad(kind: InputError, message: String) -> Failure {
        Failure {
            code: EXIT_BAD_INPUT,
            kind: kind.name(),
            message,
        }
    }

    fn refused(lang: Language, why: &ClubRefusal) -> Failure {
        let (code, kind) = crate::club::words::exit_of(why);
        Failure {
            code,
            kind,
            message: crate::club::words::refusal(lang, why, &[]),
        }
    }

    fn report(self, out: &mut dyn Write, err: &mut dyn Write, lang: Language, json: bool) -> i32 {
        if self.code == EXIT_BAD_INPUT && self.kind != "event" && self.kind != "store" {
            return bad_input(out, err, lang, json, kind_of(self.kind), self.message);
        }
        let _ = writeln!(err, "{} {}", i18n::cli::ERROR.get(lang), self.message);
        if json {
            print_json(
                out,
                &json!({"error": {"kind": self.kind, "message": self.message}}),
            );
        }
        self.code
    }
}

fn kind_of(name: &str) -> InputError {
    [
        InputError::Usage,
        InputError::Encoding,
        InputError::File,
        InputError::Notation,
        InputError::Rack,
        InputError::Sheet,
    ]
    .into_iter()
    .find(|k| k.name() == name)
    .unwrap_or(InputError::Usage)
}

fn store_failure(lang: Language, e: &crate::store::StoreError) -> Failure {
    Failure {
        code: EXIT_BAD_INPUT,
        kind: "store",
        message: i18n::store_error(lang, e),
    }
}

fn data_dir(lang: Language) -> Result<std::path::PathBuf, Failure> {
    data_dir_from(std::env::var_os(DATA_ENV)).map_err(|e| store_failure(lang, &e))
}

/// The id asked for, or (`None`) the most recent event's, as a reader sees the folder.
fn event_id(store: &Store, id: Option<&str>, lang: Language) -> Result<EventId, Failure> {
    match id {
        Some(id) => EventId::new(id.trim()).map_err(|_| Failure {
            code: EXIT_BAD_INPUT,
            kind: "store",
            message: words::no_such_event(lang, id),
        }),
        None => store
            .latest_event()
            .map_err(|e| Failure {
                code: EXIT_BAD_INPUT,
                kind: "store",
                message: words::unreadable_event(lang, &crate::i18n::io_error(lang, &e)),
            })?
            .ok_or_else(|| Failure {
                code: EXIT_BAD_INPUT,
                kind: "store",
                message: words::NO_EVENT.get(lang).to_owned(),
            }),
    }
}

/// What a write command did, whoever carried it out.
struct Carried {
    id: EventId,
    event: Event,
    outcome: Option<Outcome>,
}

/// Carries out `ask` on event `id` (the most recent, or the host's, when `None`): as this
/// process's own owner of the folder, or — when a host holds it — by handing it to the host.
/// What the organiser should read (a damaged file restored) goes to `err`.
fn carry_out(
    lang: Language,
    id: Option<&str>,
    ask: RelayedAsk,
    err: &mut dyn Write,
) -> Result<Carried, Failure> {
    let dir = data_dir(lang)?;
    let club = ClubShared::new(ClubOptions::new(&dir, HolderKind::Command, lang));
    let refused = |r: &ClubRefusal| Failure::refused(lang, r);
    let held = |r: &ClubRefusal| match r {
        ClubRefusal::Held(Some(h)) => h.control.zip(h.secret.clone()),
        _ => None,
    };
    let relay = |port: u16, secret: &str, event: Option<EventId>, ask: RelayedAsk| {
        relay(lang, port, secret, event, ask)
    };
    match ask {
        RelayedAsk::Create { setup, players } => {
            let made = club.apply(ClubCommand::Create {
                setup: setup.clone(),
                players: players.clone(),
                open: true,
            });
            match made {
                Err(r) => match held(&r) {
                    Some((port, secret)) => {
                        relay(port, &secret, None, RelayedAsk::Create { setup, players })
                    }
                    None => Err(refused(&r)),
                },
                Ok(_) => finish(&club, lang, None, err),
            }
        }
        ask => {
            let reader = Store::open_reader(&dir);
            let asked = id.map(|i| event_id(&reader, Some(i), lang)).transpose()?;
            let target = match &asked {
                Some(id) => id.clone(),
                None => event_id(&reader, None, lang)?,
            };
            if let Err(r) = club.apply(ClubCommand::Open(target.clone())) {
                return match held(&r) {
                    Some((port, secret)) => relay(port, &secret, asked, ask),
                    None => Err(match r {
                        ClubRefusal::Store(e)
                            if matches!(*e, crate::store::StoreError::NotFound { .. }) =>
                        {
                            Failure {
                                code: EXIT_BAD_INPUT,
                                kind: "store",
                                message: words::no_such_event(lang, target.as_str()),
                            }
                        }
                        r => refused(&r),
                    }),
                };
            }
            let command = match ask {
                RelayedAsk::Event(command) => ClubCommand::Event(command),
                RelayedAsk::FreeSeat { table, seat } => ClubCommand::Table {
                    table,
                    key: None,
                    actor: Actor::Organiser,
                    command: TableCommand::Free { seat },
                },
                RelayedAsk::Create { .. } => ClubCommand::Refresh,
            };
            let done = club.apply(command).map_err(|r| refused(&r));
            // What the organiser should read is said even when the command is refused.
            let outcome = match done {
                Ok(done) => match done.did {
                    Did::Event(outcome) => Some(outcome),
                    _ => None,
                },
                Err(f) => {
                    let _ = finish(&club, lang, None, err);
                    return Err(f);
                }
            };
            finish(&club, lang, outcome, err)
        }
    }
}

/// Waits for this process's owner to write everything, says what the organiser should read,
/// and hands back the event as it is on disk.
fn finish(
    club: &ClubShared,
    lang: Language,
    outcome: Option<Outcome>,
    err: &mut dyn Write,
) -> Result<Carried, Failure> {
    let saved = club.flush(crate::club::LOCK_WAIT);
    let club = club.lock();
    for notice in club.notices() {
        let _ = writeln!(
            err,
            "{} {}",
            i18n::cli::WARNING.get(lang),
            crate::club::words::notice(lang, notice)
        );
    }
    if !saved {
        let why = club
            .saving()
            .failing
            .map(|f| i18n::store_error(lang, &f.why))
            .unwrap_or_default();
        return Err(Failure {
            code: EXIT_BAD_INPUT,
            kind: "store",
            message: words::cannot_save(lang, &why),
        });
    }
    let (id, event) = club
        .open_event()
        .map(|(id, e)| (id.clone(), Event::clone(e)))
        .ok_or_else(|| Failure::refused(lang, &ClubRefusal::NotOpen))?;
    Ok(Carried { id, event, outcome })
}

/// Hands a command to the host that holds the folder, over loopback.
fn relay(
    lang: Language,
    port: u16,
    secret: &str,
    event: Option<EventId>,
    ask: RelayedAsk,
) -> Result<Carried, Failure> {
    let request = Relayed { lang, event, ask };
    let body = serde_json::to_value(&request).unwrap_or_default();
    let answer = crate::server::control::send(port, secret, &body, crate::club::SAVE_WAIT * 2)
        .map_err(|e| Failure {
            code: EXIT_BAD_INPUT,
            kind: "store",
            message: words::host_unreachable(lang, port, &crate::i18n::io_error(lang, &e)),
        })?;
    let answer: RelayAnswer = serde_json::from_value(answer).map_err(|e| Failure {
        code: EXIT_BAD_INPUT,
        kind: "store",
        message: words::host_unreachable(lang, port, &e.to_string()),
    })?;
    if !answer.ok {
        return Err(Failure {
            code: answer.exit,
            kind: if answer.kind == "refused" {
                "refused"
            } else if answer.kind == "event" {
                "event"
            } else {
                "store"
            },
            message: answer.message,
        });
    }
    match (answer.id, answer.event) {
        (Some(id), Some(event)) => Ok(Carried {
            id,
            event,
            outcome: answer.outcome,
        }),
        (Some(id), None) => {
            // A new event made by the host: read back as it is on disk.
            let dir = data_dir(lang)?;
            let event = Store::open_reader(&dir)
                .load_event(&id)
                .map_err(|e| store_failure(lang, &e))?
                .event;
            Ok(Carried {
                id,
                event,
                outcome: answer.outcome,
            })
        }
        _ => Err(Failure::refused(lang, &ClubRefusal::NotOpen)),
    }
}

fn new(args: &NewArgs, lang: Language, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let done = (|| -> Result<_, Failure> {
        let players = read_text(&args.players, lang).map_err(|(k, m)| Failure::bad(k, m))?;
        if crate::event::read_players(&players).is_empty() {
            return Err(Failure::bad(
                InputError::File,
                words::NO_PLAYERS.get(lang).into(),
            ));
        }
        let seed = match args.seed {
            Some(seed) => seed,
            None => {
                let mut bytes = [0u8; 8];
                // No entropy is not worth failing for: the clock seeds then.
                if getrandom::fill(&mut bytes).is_err() {
                    bytes = Utc::now().timestamp_micros().to_le_bytes();
                }
                u64::from_le_bytes(bytes)
            }
        };
        let mut setup = EventSetup::new(&args.name, seed);
        if let Some(format) = args.format {
            format.apply(&mut setup);
        }
        if let Some(games) = args.games {
            setup.games = games;
        }
        if let Some(ranking) = args.ranking {
            setup.ranking = ranking;
        }
        if let Some(seating) = args.seating {
            setup.seating = seating;
        }
        if !args.placement.is_empty() {
            setup.placement = Placement::new(args.placement.clone()).map_err(|p| {
                Failure::bad(
                    InputError::Usage,
                    crate::i18n::event::placement_problem(lang, &p),
                )
            })?;
        }
        if let Some(bonus) = args.win_bonus {
            setup.win_bonus = bonus;
        }
        setup.clubs_apart = args.clubs_apart;
        setup.xp_tables = args.xp;
        setup.divisions_apart = args.divisions_apart;
        if let Some(preset) = args.preset {
            setup.rules = preset.rules();
        }
        let ask = RelayedAsk::Create {
            setup: Box::new(setup),
            players,
        };
        carry_out(lang, None, ask, err)
    })();
    match done {
        Ok(Carried { id, event, .. }) => {
            if args.json {
                print_json(
                    out,
                    &json!({
                        "id": id.as_str(),
                        "name": event.setup().name,
                        "players": event.players().len(),
                        "games": event.setup().games,
                        "ranking": event.setup().ranking.name(),
                        "seating": event.setup().seating.name(),
                        "placement": event.setup().placement.lists,
                        "win_bonus": event.setup().win_bonus,
                        "format": event.setup().format.map(Format::name),
                        "divisions_apart": event.setup().divisions_apart,
                        "joker": event.setup().rules.joker_penalty,
                        "seed": event.setup().seed,
                    }),
                );
            } else {
                let _ = writeln!(out, "{id}");
            }
            EXIT_YES
        }
        Err(f) => f.report(out, err, lang, args.json),
    }
}

/// A round's seating: each table's players in seat order and who starts each game.
fn round_json(event: &Event, round: usize) -> Value {
    let r = &event.rounds()[round];
    let tables: Vec<Value> = r
        .tables
        .iter()
        .map(|t| {
            let starts: Vec<String> = event
                .starters(r, t)
                .iter()
                .map(|&p| event.players()[p].name.clone())
                .collect();
            json!({
                "table": t.number,
                "players": event.seat_names(t),
                "starts": starts,
                "finished": t.is_finished(),
            })
        })
        .collect();
    json!({
        "round": r.number,
        "stage": r.stage.name(),
        "carry": r.carry.map(Carry::name),
        "tables": tables,
        "repeats": r.repeats,
    })
}

fn seat(args: &SeatArgs, lang: Language, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let done = carry_out(
        lang,
        args.event.as_deref(),
        RelayedAsk::Event(Command::SeatRound),
        err,
    );
    seated(done, args.json, lang, out, err)
}

fn final_stage(args: &FinalArgs, lang: Language, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let command = Command::SeatFinal {
        top: args.top,
        games: args.games,
        seeding: args.seeding,
        carry: args.carry,
    };
    let done = carry_out(lang, args.event.as_deref(), RelayedAsk::Event(command), err);
    seated(done, args.json, lang, out, err)
}

/// Prints the round a seating command seated (its tables, who starts each game).
fn seated(
    done: Result<Carried, Failure>,
    json: bool,
    lang: Language,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    match done {
        Ok(Carried { event, outcome, .. }) => {
            let repeats = match outcome {
                Some(Outcome::Seated { repeats, .. }) => repeats,
                _ => 0,
            };
            let Some(last) = event.rounds().len().checked_sub(1) else {
                return Failure::refused(lang, &ClubRefusal::NotOpen).report(out, err, lang, json);
            };
            if json {
                print_json(out, &round_json(&event, last));
            } else {
                let round = &event.rounds()[last];
                let _ = writeln!(
                    out,
                    "{}",
                    words::stage_heading(lang, round.stage, round.number)
                );
                for t in &round.tables {
                    let starts: Vec<String> = event
                        .starters(round, t)
                        .iter()
                        .map(|&p| event.players()[p].name.clone())
                        .collect();
                    let names = event.seat_names(t).join(", ");
                    let _ = writeln!(
                        out,
                        "{}: {names}  ({})",
                        words::table(lang, t.number),
                        words::starts(lang, &starts)
                    );
                }
            }
            if repeats > 0 {
                let _ = writeln!(
                    err,
                    "{} {}",
                    i18n::cli::WARNING.get(lang),
                    words::repeats(lang, repeats)
                );
            }
            EXIT_YES
        }
        Err(f) => f.report(out, err, lang, json),
    }
}

/// `event export`: the event as a bundle signed with the venue's key (made once per data
/// folder). Reading the event changes nothing; the bundle is written and synced.
fn export(args: &ExportArgs, lang: Language, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let done = (|| -> Result<(crate::event::bundle::Venue, EventId, String), Failure> {
        let dir = data_dir(lang)?;
        let reader = Store::open_reader(&dir);
        let id = event_id(&reader, args.event.as_deref(), lang)?;
        let loaded = match reader.load_event(&id) {
            Ok(loaded) => loaded,
            Err(crate::store::StoreError::NotFound { .. }) => {
                return Err(Failure {
                    code: EXIT_BAD_INPUT,
                    kind: "store",
                    message: words::no_such_event(lang, id.as_str()),
                });
            }
            Err(e) => return Err(store_failure(lang, &e)),
        };
        if let Some(damage) = loaded.damage {
            let notice = crate::club::ClubNotice::Damaged {
                id: id.clone(),
                damage,
            };
            let _ = writeln!(
                err,
                "{} {}",
                i18n::cli::WARNING.get(lang),
                crate::club::words::notice(lang, &notice)
            );
        }
        let (venue, text) = crate::club::season::seal(
            &dir,
            args.venue.as_deref(),
            id.as_str(),
            &loaded.event,
            Utc::now(),
        )
        .map_err(|e| store_failure(lang, &e))?;
        Ok((venue, id, text))
    })();
    let (venue, id, text) = match done {
        Ok(x) => x,
        Err(f) => return f.report(out, err, lang, args.json),
    };
    let written = write_synced(&args.out, text.as_bytes());
    if let Err(e) = written {
        return Failure {
            code: EXIT_BAD_INPUT,
            kind: "file",
            message: words::cannot_write(
                lang,
                &args.out.display().to_string(),
                &crate::i18n::io_error(lang, &e),
            ),
        }
        .report(out, err, lang, args.json);
    }
    if args.json {
        print_json(
            out,
            &json!({
                "event": id.as_str(),
                "venue": venue.name(),
                "key": venue.public_key(),
                "out": args.out.display().to_string(),
            }),
        );
    } else {
        let _ = writeln!(
            out,
            "{}",
            words::exported(
                lang,
                id.as_str(),
                &args.out.display().to_string(),
                venue.name()
            )
        );
    }
    EXIT_YES
}

fn result(args: &ResultArgs, lang: Language, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let done = (|| -> Result<_, Failure> {
        let text = read_text(&args.file, lang).map_err(|(k, m)| Failure::bad(k, m))?;
        // The rules the CSV's racks are valued by: the event's, read as a reader would.
        let dir = data_dir(lang)?;
        let reader = Store::open_reader(&dir);
        let id = event_id(&reader, args.event.as_deref(), lang)?;
        let rules = reader
            .load_event(&id)
            .map(|l| l.event.setup().rules)
            .unwrap_or_default();
        let imported = read_score_csv(&text, rules, Utc::now()).map_err(|e| {
            let message = format!("{}: {}", args.file.display(), i18n::table_error(lang, &e));
            Failure::bad(InputError::Sheet, message)
        })?;
        let command = Command::Result {
            round: args.round,
            table: args.table,
            players: imported.sheet.players().names().to_vec(),
            games: imported.sheet.games().to_vec(),
            correct: args.correct,
        };
        carry_out(lang, args.event.as_deref(), RelayedAsk::Event(command), err).map_err(|mut f| {
            if f.kind != "store" {
                f.message = format!("{}: {}", args.file.display(), f.message);
            }
            f
        })
    })();
    match done {
        Ok(Carried {
            outcome:
                Some(Outcome::Recorded {
                    round,
                    table,
                    corrected,
                    round_complete,
                }),
            ..
        }) => {
            if args.json {
                print_json(
                    out,
                    &json!({
                        "round": round,
                        "table": table,
                        "corrected": corrected,
                        "round_complete": round_complete,
                    }),
                );
            } else {
                let _ = writeln!(out, "{}", words::recorded(lang, round, table, corrected));
                if round_complete {
                    let _ = writeln!(out, "{}", words::ROUND_COMPLETE.get(lang));
                }
            }
            EXIT_YES
        }
        Ok(_) => EXIT_YES,
        Err(f) => f.report(out, err, lang, args.json),
    }
}

fn free_seat(args: &FreeSeatArgs, lang: Language, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let ask = RelayedAsk::FreeSeat {
        table: args.table,
        seat: args.seat as usize - 1,
    };
    match carry_out(lang, args.event.as_deref(), ask, err) {
        Ok(_) => {
            let _ = writeln!(out, "{}", words::seat_freed(lang, args.table, args.seat));
            EXIT_YES
        }
        Err(f) => f.report(out, err, lang, false),
    }
}

fn standings(
    args: &StandingsArgs,
    lang: Language,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    // Reading only: the store is opened to read, nothing is locked, moved or written. A
    // damaged file is restored in memory from its backup and log, and said so.
    let done = data_dir(lang).map(Store::open_reader).and_then(|store| {
        let id = event_id(&store, args.event.as_deref(), lang)?;
        match store.load_event(&id) {
            Ok(loaded) => Ok((id, loaded)),
            Err(crate::store::StoreError::NotFound { .. }) => Err(Failure {
                code: EXIT_BAD_INPUT,
                kind: "store",
                message: words::no_such_event(lang, id.as_str()),
            }),
            Err(e) => Err(store_failure(lang, &e)),
        }
    });
    let (id, loaded) = match done {
        Ok(x) => x,
        Err(f) => return f.report(out, err, lang, args.json),
    };
    if let Some(damage) = loaded.damage {
        let notice = crate::club::ClubNotice::Damaged { id, damage };
        let _ = writeln!(
            err,
            "{} {}",
            i18n::cli::WARNING.get(lang),
            crate::club::words::notice(lang, &notice)
        );
    }
    let event = loaded.event;
    let ranking = args.ranking.unwrap_or(event.setup().ranking);
    let standings = match &args.division {
        Some(division) => {
            let known = event.divisions();
            if !known
                .iter()
                .any(|d| d.trim().to_lowercase() == division.trim().to_lowercase())
            {
                return Failure::bad(
                    InputError::Usage,
                    words::no_such_division(lang, division, &known),
                )
                .report(out, err, lang, args.json);
            }
            event.division_standings(ranking, division)
        }
        None => event.standings_by(ranking),
    };
    if let Some(file) = &args.csv {
        let text = crate::event::export::standings_csv(
            &standings,
            &crate::i18n::event::standings_labels(lang),
            &crate::club::words::rules(lang, &event.setup().rules),
        );
        if let Err(e) = write_synced(file, text.as_bytes()) {
            let failure = Failure {
                code: EXIT_BAD_INPUT,
                kind: "file",
                message: words::cannot_write(
                    lang,
                    &file.display().to_string(),
                    &crate::i18n::io_error(lang, &e),
                ),
            };
            return failure.report(out, err, lang, args.json);
        }
    }
    let round = event.current_round();
    let complete = event.rounds().last().is_some_and(|r| r.is_complete());
    if args.json {
        print_json(
            out,
            &standings_json(&standings, round, complete, args.division.as_deref()),
        );
    } else {
        let _ = writeln!(
            out,
            "{}",
            words::standings(lang, round, complete, ranking.name())
        );
        if let Some(division) = &args.division {
            let _ = writeln!(out, "{}", words::division(lang, division));
        }
        let placement = ranking == Ranking::Placement;
        let [rank, name, wins, points, games] = words::COLUMNS.map(|t| t.get(lang));
        let width = standings
            .rows
            .iter()
            .map(|s| unicode_width::UnicodeWidthStr::width(s.name.as_str()))
            .chain([unicode_width::UnicodeWidthStr::width(name)])
            .max()
            .unwrap_or(4);
        let pad = |text: &str| {
            let w = unicode_width::UnicodeWidthStr::width(text);
            format!("{text}{}", " ".repeat(width.saturating_sub(w)))
        };
        // Right-aligned by display width (Hangul is two columns wide).
        let right = |text: &str, w: usize| {
            let used = unicode_width::UnicodeWidthStr::width(text);
            format!("{}{text}", " ".repeat(w.saturating_sub(used)))
        };
        let placement_heading = if placement {
            format!("  {}", right(words::PLACEMENT.get(lang), 9))
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{}  {}  {}  {}  {}{placement_heading}",
            right(rank, 4),
            pad(name),
            right(wins, 4),
            right(points, 6),
            right(games, 5)
        );
        for s in &standings.rows {
            let mark = if s.dropped {
                format!(" {}", words::DROPPED.get(lang))
            } else {
                String::new()
            };
            let placement_cell = if placement {
                format!("  {:>9}", placement_text(s.placement))
            } else {
                String::new()
            };
            let stage = match s.stage {
                crate::event::Stage::Round => String::new(),
                stage => format!(" ({})", words::stage_name(lang, stage)),
            };
            let _ = writeln!(
                out,
                "{:>4}  {}  {:>4}  {:>+6}  {:>5}{placement_cell}{stage}{mark}",
                s.rank,
                pad(&s.name),
                s.wins,
                s.points,
                s.games
            );
        }
    }
    EXIT_YES
}

/// The standings as the JSON contract has them.
fn standings_json(
    standings: &Standings,
    round: u32,
    complete: bool,
    division: Option<&str>,
) -> Value {
    let placement = standings.ranking == Ranking::Placement;
    let rows: Vec<Value> = standings
        .rows
        .iter()
        .map(|s| {
            let mut row = json!({
                "rank": s.rank,
                "name": s.name,
                "club": s.club,
                "division": s.division,
                "points": s.points,
                "wins": s.wins,
                "games": s.games,
                "percent": s.percent as f64 / 100.0,
                "stage": s.stage.name(),
                "dropped": s.dropped,
            });
            if placement && let Some(row) = row.as_object_mut() {
                row.insert("placement".into(), placement_number(s.placement).into());
            }
            row
        })
        .collect();
    json!({
        "round": round,
        "complete": complete,
        "ranking": standings.ranking.name(),
        "division": division,
        "standings": rows,
    })
}

/// Writes a file the user named and syncs it (a standings export is not the event's own file:
/// no backup, no lock; replaced if it exists, as `>` would).
fn write_synced(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::File::create(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// `event serve`: the host of the tables (the TV page, the tables' phones) until the process
/// is stopped: the owner of the folder's club nights ([`crate::club`]); a second host on the
/// folder is refused at once, naming the port that serves it.
fn serve(args: &ServeArgs, lang: Language, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    use crate::i18n::event::tv as tv_words;
    let started = (|| -> Result<(ClubShared, String), Failure> {
        let ip: std::net::IpAddr = args.bind.trim().parse().map_err(|_| {
            Failure::bad(
                InputError::Usage,
                tv_words::not_an_address(lang, &args.bind),
            )
        })?;
        let bind = std::net::SocketAddr::new(ip, args.port);
        let dir = data_dir(lang)?;
        let id = event_id(&Store::open_reader(&dir), args.event.as_deref(), lang)?;
        let club = ClubShared::new(ClubOptions::new(&dir, HolderKind::Serve, lang));
        let refused = |r: &ClubRefusal| Failure::refused(lang, r);
        club.apply(ClubCommand::Open(id)).map_err(|r| refused(&r))?;
        // The tables' QR codes name the address phones most likely reach this machine at.
        // The QR codes name the address phones reach (never loopback offered as the Wi-Fi
        // one: with none, hosting is refused and said); a --bind of one address names it.
        let link = if ip.is_unspecified() {
            LinkPick::Reachable {
                list: crate::server::link_addresses,
                prefer: None,
            }
        } else {
            LinkPick::Address(ip)
        };
        let done = club
            .apply(ClubCommand::Host {
                bind,
                link,
                round_minutes: args.round_minutes,
            })
            .map_err(|r| refused(&r))?;
        let url = match done.did {
            Did::Hosting { url } => url,
            _ => String::new(),
        };
        Ok((club, url))
    })();
    match started {
        Ok((club, url)) => {
            for notice in club.lock().notices() {
                let _ = writeln!(
                    err,
                    "{} {}",
                    i18n::cli::WARNING.get(lang),
                    crate::club::words::notice(lang, notice)
                );
            }
            let _ = writeln!(out, "{}", tv_words::serving(lang, &url));
            let _ = out.flush();
            // The host serves on its own threads until the process is stopped.
            loop {
                std::thread::park();
            }
        }
        Err(f) => f.report(out, err, lang, false),
    }
}
