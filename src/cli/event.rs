//! `event`: a club night from the command line — `new`, `seat`, `result`, `standings`.
//!
//! Each command loads the event from the data folder, applies one [`crate::event::Command`]
//! and saves it (atomically, [`crate::store`]) before printing, so what was printed is on disk.
//! Without `--event` the most recent event is used. Exit codes as elsewhere: **0** done;
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
use super::{EXIT_BAD_INPUT, EXIT_NO, EXIT_YES, InputError, bad_input, print_json};
use crate::event::{Command, Event, EventSetup, Outcome, Ranking, Refusal, read_players};
use crate::i18n;
use crate::i18n::event::{cli as words, refusal};
use crate::lang::Language;
use crate::rules::Preset;
use crate::score::table::read_score_csv;
use crate::store::{DATA_ENV, EventId, Store, data_dir_from};

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
    /// `event result`.
    Result(ResultArgs),
    /// `event standings`.
    Standings(StandingsArgs),
    /// `event serve`.
    Serve(ServeArgs),
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
    #[arg(long, value_name = "ADDR", default_value = "0.0.0.0")]
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
    /// `--games`: games each table plays a round.
    #[arg(long, value_name = "G", default_value_t = 4)]
    pub games: u32,
    /// `--ranking`: wins, total or percent.
    #[arg(long, value_name = "RANKING", value_parser = parse_ranking, default_value = "wins")]
    pub ranking: Ranking,
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
        EventCommand::Result(a) => result(a, lang, out, err),
        EventCommand::Standings(a) => standings(a, lang, out, err),
        EventCommand::Serve(a) => serve(a, lang, out, err),
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

    fn refused(lang: Language, why: &Refusal) -> Failure {
        let no = matches!(
            why,
            Refusal::RoundOpen { .. }
                | Refusal::CannotSeat { .. }
                | Refusal::NotSeated
                | Refusal::AlreadyRecorded { .. }
                | Refusal::AlreadyDropped(_)
                | Refusal::TooManyPlayers
        );
        Failure {
            code: if no { EXIT_NO } else { EXIT_BAD_INPUT },
            kind: if no { "refused" } else { "event" },
            message: refusal(lang, why),
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

fn open_store(lang: Language) -> Result<Store, Failure> {
    data_dir_from(std::env::var_os(DATA_ENV))
        .and_then(Store::open)
        .map_err(|e| store_failure(lang, &e))
}

/// The event asked for (or the most recent) and its id.
fn load(store: &Store, id: Option<&str>, lang: Language) -> Result<(EventId, Event), Failure> {
    let id = match id {
        Some(id) => EventId::new(id.trim()).map_err(|_| Failure {
            code: EXIT_BAD_INPUT,
            kind: "store",
            message: words::no_such_event(lang, id),
        })?,
        None => store
            .latest_event()
            .map_err(|e| Failure {
                code: EXIT_BAD_INPUT,
                kind: "store",
                message: words::unreadable_event(lang, &e.to_string()),
            })?
            .ok_or_else(|| Failure {
                code: EXIT_BAD_INPUT,
                kind: "store",
                message: words::NO_EVENT.get(lang).to_owned(),
            })?,
    };
    match store.load_event(&id) {
        Ok(loaded) => Ok((id, loaded.value)),
        Err(crate::store::StoreError::NotFound { .. }) => Err(Failure {
            code: EXIT_BAD_INPUT,
            kind: "store",
            message: words::no_such_event(lang, id.as_str()),
        }),
        Err(e) => Err(store_failure(lang, &e)),
    }
}

fn save(store: &Store, id: &EventId, event: &Event, lang: Language) -> Result<(), Failure> {
    store.save_event(id, event).map(drop).map_err(|e| Failure {
        code: EXIT_BAD_INPUT,
        kind: "store",
        message: words::cannot_save(lang, &i18n::store_error(lang, &e)),
    })
}

fn new(args: &NewArgs, lang: Language, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let done = (|| -> Result<_, Failure> {
        let text = read_text(&args.players, lang).map_err(|(k, m)| Failure::bad(k, m))?;
        let players = read_players(&text);
        if players.is_empty() {
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
        setup.games = args.games;
        setup.ranking = args.ranking;
        setup.clubs_apart = args.clubs_apart;
        setup.xp_tables = args.xp;
        if let Some(preset) = args.preset {
            setup.rules = preset.rules();
        }
        let mut event = Event::new(setup).map_err(|r| Failure::refused(lang, &r))?;
        for (line, name, club) in players {
            event
                .apply(Command::AddPlayer { name, club })
                .map_err(|r| {
                    let mut f = Failure::refused(lang, &r);
                    f.message = words::players_line(lang, line, &f.message);
                    f.code = EXIT_BAD_INPUT;
                    f
                })?;
        }
        let store = open_store(lang)?;
        let id = store.new_event_id(Utc::now());
        save(&store, &id, &event, lang)?;
        Ok((id, event))
    })();
    match done {
        Ok((id, event)) => {
            if args.json {
                print_json(
                    out,
                    &json!({
                        "id": id.as_str(),
                        "name": event.setup().name,
                        "players": event.players().len(),
                        "games": event.setup().games,
                        "ranking": event.setup().ranking.name(),
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

fn round_json(event: &Event, round: usize) -> Value {
    let r = &event.rounds()[round];
    let tables: Vec<Value> = r
        .tables
        .iter()
        .map(|t| {
            json!({
                "table": t.number,
                "players": event.seat_names(t),
                "finished": t.is_finished(),
            })
        })
        .collect();
    json!({"round": r.number, "tables": tables, "repeats": r.repeats})
}

fn seat(args: &SeatArgs, lang: Language, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let done = (|| -> Result<_, Failure> {
        let store = open_store(lang)?;
        let (id, mut event) = load(&store, args.event.as_deref(), lang)?;
        let outcome = event
            .apply(Command::SeatRound)
            .map_err(|r| Failure::refused(lang, &r))?;
        save(&store, &id, &event, lang)?;
        Ok((event, outcome))
    })();
    match done {
        Ok((event, outcome)) => {
            let repeats = match outcome {
                Outcome::Seated { repeats, .. } => repeats,
                _ => 0,
            };
            let last = event.rounds().len() - 1;
            if args.json {
                print_json(out, &round_json(&event, last));
            } else {
                let round = &event.rounds()[last];
                let _ = writeln!(out, "{}", words::round(lang, round.number));
                for t in &round.tables {
                    let names = event.seat_names(t).join(", ");
                    let _ = writeln!(out, "{}: {names}", words::table(lang, t.number));
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
        Err(f) => f.report(out, err, lang, args.json),
    }
}

fn result(args: &ResultArgs, lang: Language, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let done = (|| -> Result<_, Failure> {
        let text = read_text(&args.file, lang).map_err(|(k, m)| Failure::bad(k, m))?;
        let store = open_store(lang)?;
        let (id, mut event) = load(&store, args.event.as_deref(), lang)?;
        let imported = read_score_csv(&text, event.setup().rules, Utc::now()).map_err(|e| {
            let message = format!("{}: {}", args.file.display(), i18n::table_error(lang, &e));
            Failure::bad(InputError::Sheet, message)
        })?;
        let outcome = event
            .apply(Command::Result {
                round: args.round,
                table: args.table,
                players: imported.sheet.players().names().to_vec(),
                games: imported.sheet.games().to_vec(),
                correct: args.correct,
            })
            .map_err(|r| {
                let mut f = Failure::refused(lang, &r);
                f.message = format!("{}: {}", args.file.display(), f.message);
                f
            })?;
        save(&store, &id, &event, lang)?;
        Ok(outcome)
    })();
    match done {
        Ok(Outcome::Recorded {
            round,
            table,
            corrected,
            round_complete,
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

fn standings(
    args: &StandingsArgs,
    lang: Language,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    // Reading only: the store is opened to read, nothing is locked or written.
    let done = data_dir_from(std::env::var_os(DATA_ENV))
        .map(Store::open_reader)
        .map_err(|e| store_failure(lang, &e))
        .and_then(|store| load(&store, args.event.as_deref(), lang));
    let (_, event) = match done {
        Ok(x) => x,
        Err(f) => return f.report(out, err, lang, args.json),
    };
    let ranking = args.ranking.unwrap_or(event.setup().ranking);
    let standings = event.standings_by(ranking);
    if let Some(file) = &args.csv {
        let text = crate::event::export::standings_csv(
            &standings,
            &crate::i18n::event::standings_labels(lang),
        );
        if let Err(e) = write_synced(file, text.as_bytes()) {
            let failure = Failure {
                code: EXIT_BAD_INPUT,
                kind: "file",
                message: words::cannot_write(lang, &file.display().to_string(), &e.to_string()),
            };
            return failure.report(out, err, lang, args.json);
        }
    }
    let round = event.current_round();
    let complete = event.rounds().last().is_some_and(|r| r.is_complete());
    if args.json {
        let rows: Vec<Value> = standings
            .rows
            .iter()
            .map(|s| {
                json!({
                    "rank": s.rank,
                    "name": s.name,
                    "wins": s.wins,
                    "points": s.points,
                    "games": s.games,
                    "percent": s.percent as f64 / 100.0,
                    "dropped": s.dropped,
                })
            })
            .collect();
        print_json(
            out,
            &json!({
                "round": round,
                "complete": complete,
                "ranking": ranking.name(),
                "standings": rows,
            }),
        );
    } else {
        let _ = writeln!(
            out,
            "{}",
            words::standings(lang, round, complete, ranking.name())
        );
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
        let _ = writeln!(
            out,
            "{}  {}  {}  {}  {}",
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
            let _ = writeln!(
                out,
                "{:>4}  {}  {:>4}  {:>+6}  {:>5}{mark}",
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

/// Writes a file the user named and syncs it (a standings export is not the event's own file:
/// no backup, no lock; replaced if it exists, as `>` would).
fn write_synced(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::File::create(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// `event serve`: the host of the tables (the TV page, the tables' phones) until the process
/// is stopped. Each write is a short transaction ([`crate::server::club`]).
fn serve(args: &ServeArgs, lang: Language, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    use crate::i18n::event::tv as tv_words;
    use crate::server::tv::{TvError, TvOptions, TvServer};
    let started = (|| -> Result<TvServer, Failure> {
        let ip: std::net::IpAddr = args.bind.trim().parse().map_err(|_| {
            Failure::bad(
                InputError::Usage,
                tv_words::not_an_address(lang, &args.bind),
            )
        })?;
        let bind = std::net::SocketAddr::new(ip, args.port);
        let dir = data_dir_from(std::env::var_os(DATA_ENV)).map_err(|e| store_failure(lang, &e))?;
        let store = Store::open_reader(dir.clone());
        let (id, _) = load(&store, args.event.as_deref(), lang)?;
        // The tables' QR codes name the address phones most likely reach this machine at.
        let link_host = if ip.is_unspecified() {
            crate::server::link_addresses(bind)
                .first()
                .map_or(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), |a| {
                    a.ip
                })
        } else {
            ip
        };
        TvServer::start(TvOptions {
            bind,
            data_dir: dir,
            event: id,
            lang,
            link_host,
            round_minutes: args.round_minutes,
            max_connections: crate::server::tv::TV_MAX_CONNECTIONS,
        })
        .map_err(|e| match e {
            TvError::Store(e) => store_failure(lang, &e),
            TvError::Io(e) => Failure {
                code: EXIT_BAD_INPUT,
                kind: "store",
                message: tv_words::cannot_listen(lang, &bind.to_string(), &e.to_string()),
            },
        })
    })();
    match started {
        Ok(server) => {
            let _ = writeln!(out, "{}", tv_words::serving(lang, &server.url()));
            let _ = out.flush();
            server.wait();
            EXIT_YES
        }
        Err(f) => f.report(out, err, lang, false),
    }
}
