//! A club night: players, tables, rounds, seating, rankings — the pure engine of an event.
//!
//! An [`Event`] is the registered players, the rounds seated so far and every table's result,
//! plus an append-only [`log`](Event::log) of what was done to it. Like the evening owner it is
//! changed through one [`Event::apply`], which either does the whole command and says what it
//! did ([`Outcome`]) or does nothing and says why ([`Refusal`]). A result is kept as the games'
//! facts (remaining values), scored on demand by the score sheet's own zero-sum formula under the
//! event's rules, so a table of an event and a sheet at home can never disagree.
//!
//! Why these choices:
//! - **Pure.** No file, clock or network: the seed of every draw is stored in the event and
//!   passed to [`seating`], so a seating is reproducible and testable over many seeds.
//! - **Tables of 4, of 3 where the count needs it** (N = 4a + 3b with as many 4s as possible);
//!   1, 2 and 5 players cannot be seated that way and are refused with a typed
//!   [`Refusal::CannotSeat`] (5 can play one table on the XP set: an event created with
//!   [`EventSetup::xp_tables`] seats them so).
//! - **A correction never overwrites**: a table keeps every result it was given; the last one
//!   counts, and the earlier ones stay readable with the round they were corrected in.
//! - **Late players and drops**: a player added after round 1 is seated from the next round; a
//!   dropped player is seated no more, and their results stay in the standings.
//!
//! Rankings and their tie-break chains are in [`ranking`].
//!
//! # Example
//! ```
//! use rummikub_companion::event::{Command, Event, EventSetup, Outcome};
//!
//! let names = ["Ann", "Bo", "Cy", "Di", "Ed", "Fa", "Gu"];
//! let mut event = Event::new(EventSetup::new("Club night", 7)).unwrap();
//! for name in names {
//!     event.apply(Command::AddPlayer { name: name.into(), club: None, division: None, id: None }).unwrap();
//! }
//! let Ok(Outcome::Seated { round, .. }) = event.apply(Command::SeatRound) else { panic!() };
//! assert_eq!(round, 1);
//! let sizes: Vec<usize> = event.rounds()[0].tables.iter().map(|t| t.seats.len()).collect();
//! assert_eq!(sizes, [4, 3]);
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::rules::{Preset, RuleSet};
use crate::score::{Game, GameScore, Players, ScoreError};

pub mod bundle;
pub mod export;
pub mod format;
pub mod live;
pub mod ranking;
pub mod season;
pub mod seating;

#[cfg(test)]
mod tests;

pub use format::{Carry, Finals, Format, Placement, SeatingRule, Seeding, Stage};
pub use ranking::{Ranking, Standing, Standings};

/// The most players one event holds (25 tables of 4).
pub const MAX_EVENT_PLAYERS: usize = 200;
/// The most games a table plays in one round.
pub const MAX_GAMES: u32 = 24;

/// What an event is created with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventSetup {
    /// The event's name as the organiser typed it.
    pub name: String,
    /// The seed every draw of the event starts from.
    pub seed: u64,
    /// Games each table plays in a round.
    pub games: u32,
    /// How the standings are ordered.
    pub ranking: Ranking,
    /// The rules every game is scored under.
    pub rules: RuleSet,
    /// Round 1 keeps players of one club at different tables where it can.
    pub clubs_apart: bool,
    /// A count that tables of 4 and 3 cannot seat (5) plays one table of 5 on the XP set
    /// (`event new --xp`); such a table is scored with the XP set's tile supply.
    #[serde(default)]
    pub xp_tables: bool,
    /// How rounds after the first are seated.
    #[serde(default)]
    pub seating: SeatingRule,
    /// Placement points per game, per table size (counted always; ranked by with
    /// [`Ranking::Placement`]).
    #[serde(default)]
    pub placement: Placement,
    /// Points added to each game's winner.
    #[serde(default, skip_serializing_if = "is_zero_i64")]
    pub win_bonus: i64,
    /// Each division is seated at tables of its own (`--divisions-apart`).
    #[serde(default)]
    pub divisions_apart: bool,
    /// What `event final` does when not told otherwise.
    #[serde(default)]
    pub finals: Finals,
    /// The federation's format the event was made with, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<Format>,
}

fn is_zero_i64(n: &i64) -> bool {
    *n == 0
}

/// The largest win bonus an event takes.
pub const MAX_WIN_BONUS: i64 = 10_000;

impl EventSetup {
    /// The defaults of a Korean qualifier: 4 games a round, ranked by wins then points, the
    /// tournament preset's scoring.
    pub fn new(name: &str, seed: u64) -> EventSetup {
        EventSetup {
            name: name.trim().to_owned(),
            seed,
            games: 4,
            ranking: Ranking::Wins,
            rules: Preset::Tournament.rules(),
            clubs_apart: false,
            xp_tables: false,
            seating: SeatingRule::Mixed,
            placement: Placement::default(),
            win_bonus: 0,
            divisions_apart: false,
            finals: Finals::default(),
            format: None,
        }
    }
}

/// A registered player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The name as registered (unique in the event, trimmed, compared case-folded).
    pub name: String,
    /// The player's club, if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    /// The first round the player could be seated in (1 unless they came late).
    pub from_round: u32,
    /// The last round the player played before dropping out, if they dropped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dropped_after: Option<u32>,
    /// The player's division (juniors, seniors, …), if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub division: Option<String>,
    /// The player's id across venues (a federation's number), if given: a season matches
    /// players by it before name and club.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

impl Player {
    /// Whether the player is seated in the next seating.
    pub fn is_active(&self) -> bool {
        self.dropped_after.is_none()
    }
}

/// One table's result: its games, each hand in the table's seat order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableResult {
    /// The games as played.
    pub games: Vec<Game>,
    /// The round that was current when this result was given (later than the table's own round
    /// for a correction made after the round closed).
    pub entered_in_round: u32,
}

/// A table of one round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// 1-based table number.
    pub number: u32,
    /// The players (indices into [`Event::players`]) in seat order; the first starts.
    pub seats: Vec<usize>,
    /// Every result given, oldest first; the last counts. Never shortened.
    #[serde(default)]
    pub results: Vec<TableResult>,
}

impl Table {
    /// The result that counts, if any.
    pub fn result(&self) -> Option<&TableResult> {
        self.results.last()
    }

    /// Whether a result was given.
    pub fn is_finished(&self) -> bool {
        !self.results.is_empty()
    }
}

/// One round: its tables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// 1-based round number.
    pub number: u32,
    /// The tables, numbered from 1.
    pub tables: Vec<Table>,
    /// Meetings this seating repeats (0 unless they could not be avoided).
    #[serde(default)]
    pub repeats: usize,
    /// Games each table plays this round (0 in files from before it was kept: the event's).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub games: u32,
    /// The round's stage: a qualifying round, or a stage of the finals.
    #[serde(default, skip_serializing_if = "is_round_stage")]
    pub stage: Stage,
    /// A stage's rule for what its players bring into it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carry: Option<Carry>,
    /// A stage's seeds, best first (player indices): the standings as the stage was seated.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seeds: Vec<usize>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_round_stage(stage: &Stage) -> bool {
    stage.is_round()
}

impl Round {
    /// Whether every table has a result.
    pub fn is_complete(&self) -> bool {
        self.tables.iter().all(Table::is_finished)
    }

    /// Every table has a result, or [`Refusal::RoundOpen`] naming those without one.
    fn finished(&self) -> Result<(), Refusal> {
        let open: Vec<u32> = self
            .tables
            .iter()
            .filter(|t| !t.is_finished())
            .map(|t| t.number)
            .collect();
        if open.is_empty() {
            Ok(())
        } else {
            Err(Refusal::RoundOpen {
                round: self.number,
                tables: open,
            })
        }
    }
}

/// A change to an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Command {
    /// Registers a player; after round 1 started, a late player seated from the next round.
    AddPlayer {
        /// The name.
        name: String,
        /// The club, if any.
        club: Option<String>,
        /// The division, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        division: Option<String>,
        /// The player's id across venues, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
    },
    /// A player leaves: seated no more, results kept.
    Drop {
        /// The name.
        name: String,
    },
    /// Seats the next round (refused while the current one is not complete).
    SeatRound,
    /// Seats the top `top` of the standings as the next stage of the finals (a semi-final of
    /// several tables, or the final at one); refused while the current round is not complete.
    SeatFinal {
        /// How many of the standings' top go on.
        top: u32,
        /// Games at each table (the format's, else the event's, when `None`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        games: Option<u32>,
        /// How the seeds sit (the format's when `None`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seeding: Option<Seeding>,
        /// What carries into the stage (the format's when `None`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        carry: Option<Carry>,
    },
    /// A table's games. `players` are the names of the result's columns, which must be exactly
    /// the table's players (in any order); each game's hands are in that column order.
    Result {
        /// The round; `None` is the current round.
        round: Option<u32>,
        /// The table number.
        table: u32,
        /// The column names.
        players: Vec<String>,
        /// The games.
        games: Vec<Game>,
        /// A result for a table that has one already: allowed only as a correction.
        correct: bool,
    },
    /// Shows the standings through a complete round (the window holds them back until the
    /// organiser releases them; kept with the event).
    Release {
        /// The round.
        round: u32,
    },
}

/// What a command did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A player was registered.
    Added {
        /// Their index.
        player: usize,
        /// The first round they can be seated in.
        from_round: u32,
    },
    /// A player dropped.
    Dropped {
        /// Their index.
        player: usize,
    },
    /// A round was seated.
    Seated {
        /// Its number.
        round: u32,
        /// Meetings that repeat (0 unless unavoidable).
        repeats: usize,
    },
    /// A table's result was recorded.
    Recorded {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// True when it replaced an earlier result (kept in the table's results).
        corrected: bool,
        /// True when this result completed its round.
        round_complete: bool,
    },
    /// The standings through a round were released.
    Released {
        /// The round.
        round: u32,
    },
}

/// Why a command was refused (nothing changed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The event's name is empty.
    EmptyEventName,
    /// The number of games a round is outside 1..=[`MAX_GAMES`].
    BadGameCount(u32),
    /// A player's name is empty.
    EmptyName,
    /// A player's name is taken (compared trimmed and case-folded).
    DuplicateName(String),
    /// The event is full.
    TooManyPlayers,
    /// No player has this name.
    UnknownPlayer(String),
    /// The player dropped already.
    AlreadyDropped(String),
    /// This many players cannot sit at tables of 3 and 4.
    CannotSeat {
        /// Active players.
        players: usize,
        /// True when they could play one table on the XP set (5 players).
        xp_table: bool,
    },
    /// The current round has tables without a result.
    RoundOpen {
        /// The round.
        round: u32,
        /// Tables without a result.
        tables: Vec<u32>,
    },
    /// No round has been seated.
    NotSeated,
    /// No such round.
    NoSuchRound(u32),
    /// No such table in the round.
    NoSuchTable {
        /// The round.
        round: u32,
        /// The table asked for.
        table: u32,
        /// How many tables the round has.
        tables: usize,
    },
    /// The result names other players than the table's.
    WrongPlayers {
        /// The table's players in seat order.
        expected: Vec<String>,
        /// The names the result gives.
        found: Vec<String>,
    },
    /// The result has the wrong number of games.
    WrongGameCount {
        /// Games a table plays.
        expected: u32,
        /// Games given.
        found: usize,
    },
    /// A game does not score (its facts do not decide a winner, a rack holds tiles the set does
    /// not have, …).
    Game {
        /// 1-based game number.
        game: usize,
        /// What is wrong.
        error: ScoreError,
    },
    /// A game's points would not sum to zero (never, by the formula; checked all the same).
    NotZeroSum {
        /// 1-based game number.
        game: usize,
    },
    /// The table has a result already and the command is not a correction.
    AlreadyRecorded {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
    },
    /// A division's players cannot sit at tables of 3 and 4 of their own (divisions apart).
    CannotSeatDivision {
        /// The division ("" for players without one).
        division: String,
        /// Its active players.
        players: usize,
    },
    /// The finals have begun: no qualifying round can be seated after a stage.
    FinalsStarted,
    /// The final was seated: there is no stage after it.
    FinalPlayed,
    /// The top `top` of the standings cannot be seated as a stage.
    BadTop {
        /// How many were asked for.
        top: u32,
        /// Active players in the standings.
        players: usize,
    },
    /// A placement list is refused.
    BadPlacement(format::PlacementProblem),
    /// The win bonus is outside 0..=[`MAX_WIN_BONUS`].
    BadWinBonus(i64),
}

impl fmt::Display for Refusal {
    /// English, as the engine words it; the command line, the window and the pages word it in
    /// the user's language through `i18n::event::refusal` (whose English is this).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: String = match self {
            Refusal::EmptyEventName => "the event needs a name".into(),
            Refusal::BadGameCount(n) => {
            format!(
                "{n} games a round: a table plays 1 to {} games",
                MAX_GAMES
            )
        }
            Refusal::EmptyName => "a player's name is empty".into(),
            Refusal::DuplicateName(n) => format!("\"{n}\" is registered already"),
            Refusal::TooManyPlayers => format!(
            "the event is full ({} players)",
            MAX_EVENT_PLAYERS
        ),
            Refusal::UnknownPlayer(n) => format!("no player is named \"{n}\""),
            Refusal::AlreadyDropped(n) => format!("{n} has dropped out already"),
            Refusal::CannotSeat { players, xp_table } => {
            let mut text = format!(
                "{players} players cannot sit at tables of 4 and 3 (every count from 6 up can, and 3, 4)"
            );
            if *xp_table {
                text.push_str(
                    "; 5 players can play one table on the XP set (5–6 players): allow XP tables (event new --xp)",
                );
            }
            text
        }
            Refusal::RoundOpen { round, tables } => format!(
            "round {round} is not finished: no result yet from table {}",
            tables.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
        ),
            Refusal::NotSeated => "no round has been seated yet (event seat)".into(),
            Refusal::NoSuchRound(r) => format!("there is no round {r}"),
            Refusal::NoSuchTable {
                round,
                table,
                tables,
            } => format!("round {round} has no table {table} (it has {tables})"),
            Refusal::WrongPlayers { expected, found } => format!(
            "the result names {} but the table's players are {}",
            found.join(", "),
            expected.join(", ")
        ),
            Refusal::WrongGameCount { expected, found } => {
            format!("the result has {found} games; a table plays {expected} a round")
        }
            Refusal::Game { game, error } => {
            format!("game {game}: {}", error)
        }
            Refusal::NotZeroSum { game } => format!("game {game} does not sum to zero"),
            Refusal::AlreadyRecorded { round, table } => format!(
            "round {round}, table {table} has a result already; give --correct to replace it (the old one is kept)"
        ),
            Refusal::CannotSeatDivision { division, players } => format!(
            "the division {} has {players} players: they cannot sit at tables of 4 and 3 of their \
             own (seat the divisions together, without --divisions-apart)",
            if division.trim().is_empty() { "of players without a division".to_string() } else { format!("\"{}\"", division.trim()) }
        ),
            Refusal::FinalsStarted => {
            "the finals have begun: no qualifying round comes after a stage (event final seats the next stage)".into()
        }
            Refusal::FinalPlayed => "the final is seated already: no stage comes after it".into(),
            Refusal::BadTop { top, players } => format!(
            "the top {top} cannot be seated as a stage: a stage takes 3, 4 or 6 and more players \
             at tables of 4 and 3, at most the {players} active players of the standings"
        ),
            Refusal::BadPlacement(problem) => problem.to_string(),
            Refusal::BadWinBonus(n) => format!(
            "a win bonus of {n}: it is 0 to {}",
            MAX_WIN_BONUS
        ),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for Refusal {}

/// One line of the event's log: a command that was applied, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    /// 1-based sequence number.
    pub seq: u64,
    /// The current round when it was applied.
    pub round: u32,
    /// The command (externally tagged: `{"result": {…}}`; a flattened or internally tagged
    /// form cannot read back the untagged remaining values inside a result).
    pub command: Command,
}

/// A club night.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    setup: EventSetup,
    players: Vec<Player>,
    rounds: Vec<Round>,
    /// The standings are released through this round (0: none yet).
    #[serde(default, skip_serializing_if = "is_zero")]
    released: u32,
    /// Every applied command, oldest first; only ever appended to.
    log: Vec<LogEntry>,
}

/// One line of a players file: a player to register.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Registration {
    /// The 1-based line of the file.
    pub line: usize,
    /// The name.
    pub name: String,
    /// The club, if given.
    pub club: Option<String>,
    /// The division, if given.
    pub division: Option<String>,
    /// The id across venues, if given.
    pub id: Option<String>,
}

impl Registration {
    /// The command that registers the player.
    pub fn command(self) -> Command {
        Command::AddPlayer {
            name: self.name,
            club: self.club,
            division: self.division,
            id: self.id,
        }
    }
}

/// The columns a players file may have.
const COLUMNS: [&str; 4] = ["name", "club", "division", "id"];

/// The column a header cell names (English or Korean, trimmed, case-folded).
fn column_named(cell: &str) -> Option<usize> {
    match cell.trim().to_lowercase().as_str() {
        "name" | "이름" => Some(0),
        "club" | "클럽" => Some(1),
        "division" | "부" | "부문" => Some(2),
        "id" | "아이디" | "번호" => Some(3),
        _ => None,
    }
}

/// Reads a list of players: one a line, `name[,club[,division[,id]]]`; blank lines and lines
/// starting with `#` are skipped (a byte-order mark too). A first line that names columns
/// (`name,club,division,id` in any order and subset, or `이름,클럽,부,아이디`) is a header and
/// sets the columns' order.
///
/// ```
/// use rummikub_companion::event::read_players;
/// let read = read_players("Ann, Red\n\n# late\nBo,,junior\n");
/// assert_eq!((read[0].line, read[0].name.as_str(), read[0].club.as_deref()), (1, "Ann", Some("Red")));
/// assert_eq!((read[1].line, read[1].club.as_deref(), read[1].division.as_deref()), (4, None, Some("junior")));
/// let read = read_players("id,name,club\nDE-17,Ann,Red\n");
/// assert_eq!((read[0].name.as_str(), read[0].id.as_deref()), ("Ann", Some("DE-17")));
/// ```
pub fn read_players(text: &str) -> Vec<Registration> {
    let mut lines = text
        .trim_start_matches('\u{feff}')
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .peekable();
    let mut order: Vec<usize> = (0..COLUMNS.len()).collect();
    if let Some((_, first)) = lines.peek() {
        let named: Vec<Option<usize>> = first.split(',').map(column_named).collect();
        if named.len() >= 2 && named.iter().all(Option::is_some) && named.contains(&Some(0)) {
            order = named.into_iter().flatten().collect();
            lines.next();
        }
    }
    lines
        .map(|(n, line)| {
            let mut cells: [Option<String>; 4] = Default::default();
            for (cell, &column) in line.split(',').zip(&order) {
                let cell = cell.trim();
                if !cell.is_empty() {
                    cells[column] = Some(cell.to_owned());
                }
            }
            let [name, club, division, id] = cells;
            Registration {
                line: n + 1,
                name: name.unwrap_or_default(),
                club,
                division,
                id,
            }
        })
        .collect()
}

/// The name as compared: trimmed, case-folded.
pub(crate) fn folded(name: &str) -> String {
    name.trim().to_lowercase()
}

impl Event {
    /// A new event without players.
    pub fn new(setup: EventSetup) -> Result<Event, Refusal> {
        if setup.name.trim().is_empty() {
            return Err(Refusal::EmptyEventName);
        }
        let games = [setup.finals.semi_games, setup.finals.final_games];
        if let Some(&bad) = std::iter::once(&setup.games)
            .chain(games.iter().flatten())
            .find(|g| !(1..=MAX_GAMES).contains(g))
        {
            return Err(Refusal::BadGameCount(bad));
        }
        Placement::new(setup.placement.lists.clone()).map_err(Refusal::BadPlacement)?;
        if !(0..=MAX_WIN_BONUS).contains(&setup.win_bonus) {
            return Err(Refusal::BadWinBonus(setup.win_bonus));
        }
        Ok(Event {
            setup,
            players: Vec::new(),
            rounds: Vec::new(),
            released: 0,
            log: Vec::new(),
        })
    }

    /// What the event was created with.
    pub fn setup(&self) -> &EventSetup {
        &self.setup
    }

    /// Every registered player, dropped ones included, in registration order.
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// The rounds seated so far.
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// The last round whose standings were released (0: none).
    pub fn released(&self) -> u32 {
        self.released
    }

    /// The log of applied commands.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// The current round's number (0 before the first seating).
    pub fn current_round(&self) -> u32 {
        self.rounds.last().map_or(0, |r| r.number)
    }

    /// The player's index by name (trimmed, case-folded).
    pub fn player_index(&self, name: &str) -> Option<usize> {
        let name = folded(name);
        self.players.iter().position(|p| folded(&p.name) == name)
    }

    /// Games each table of `round` plays.
    pub fn round_games(&self, round: &Round) -> u32 {
        match round.games {
            0 => self.setup.games,
            games => games,
        }
    }

    /// Who starts each game of `table` in `round`: game k (0-based) is started by seat k mod n
    /// (player indices, one a game).
    pub fn starters(&self, round: &Round, table: &Table) -> Vec<usize> {
        let n = table.seats.len().max(1);
        (0..self.round_games(round) as usize)
            .filter_map(|k| table.seats.get(k % n).copied())
            .collect()
    }

    /// The names of a table's players in seat order.
    pub fn seat_names(&self, table: &Table) -> Vec<String> {
        table
            .seats
            .iter()
            .map(|&i| self.players[i].name.clone())
            .collect()
    }

    /// The rules a table's games are scored under: the event's, on the XP set's tile supply at
    /// a table of more than 4 (only an event created with [`EventSetup::xp_tables`] has one).
    pub fn table_rules(&self, table: &Table) -> RuleSet {
        let mut rules = self.setup.rules;
        if table.seats.len() > 4 {
            rules.tile_set = crate::tile::TileSet::Xp;
        }
        rules
    }

    /// The standings over every recorded result, under the event's ranking: after a stage of
    /// the finals, its players first (the latest stage's first), each stage ranked by its own
    /// games plus what carries into it, then everyone else by the qualifying rounds.
    pub fn standings(&self) -> Standings {
        self.standings_by(self.setup.ranking)
    }

    /// The standings under another ranking.
    pub fn standings_by(&self, ranking: Ranking) -> Standings {
        ranking::standings(self, ranking, |_| true)
    }

    /// The standings of one division (its name compared trimmed and case-folded), ranked among
    /// its own players.
    pub fn division_standings(&self, ranking: Ranking, division: &str) -> Standings {
        let division = folded(division);
        ranking::standings(self, ranking, |p| {
            self.players[p].division.as_deref().map(folded) == Some(division.clone())
        })
    }

    /// The divisions of the event's players, as first registered, in the order first seen.
    pub fn divisions(&self) -> Vec<String> {
        let mut seen: Vec<String> = Vec::new();
        for d in self.players.iter().filter_map(|p| p.division.as_deref()) {
            if !seen.iter().any(|s| folded(s) == folded(d)) {
                seen.push(d.to_owned());
            }
        }
        seen
    }

    /// The rounds of one stage.
    pub fn stage_rounds(&self, stage: Stage) -> impl Iterator<Item = &Round> {
        self.rounds.iter().filter(move |r| r.stage == stage)
    }

    /// The latest stage seated (a qualifying round before any stage).
    pub fn stage(&self) -> Stage {
        self.rounds.last().map_or(Stage::Round, |r| r.stage)
    }

    /// The standings over the first `rounds` rounds only (what was released once those rounds
    /// were complete; a TV page holds a round's results back until all its tables are in).
    /// Corrections entered later to those rounds count; results of later rounds do not.
    pub fn standings_through(&self, rounds: u32) -> Standings {
        let mut early = self.clone();
        early.retain_rounds(rounds);
        early.standings()
    }

    /// Keeps only the first `rounds` rounds (what was released once they were complete).
    pub(crate) fn retain_rounds(&mut self, rounds: u32) {
        self.rounds.retain(|r| r.number <= rounds);
    }

    /// Each finished table's scores (round index, table index, the games scored).
    pub(crate) fn scored_tables(&self) -> Vec<(usize, usize, Vec<GameScore>)> {
        let mut out = Vec::new();
        for (r, round) in self.rounds.iter().enumerate() {
            for (t, table) in round.tables.iter().enumerate() {
                if let Some(result) = table.result() {
                    // A stored result was checked when it was recorded; a game that no longer
                    // scores (it cannot, the rules are fixed) is left out rather than panicking.
                    let Ok(players) = Players::new(self.seat_names(table)) else {
                        continue;
                    };
                    let scores: Vec<GameScore> = result
                        .games
                        .iter()
                        .filter_map(|g| g.score(&players, &self.table_rules(table)).ok())
                        .collect();
                    out.push((r, t, scores));
                }
            }
        }
        out
    }

    /// Checks an event read from outside (a season's bundle): every seat and seed names a
    /// registered player once a round, every result has a hand per seat, the setup is one
    /// [`Event::new`] takes. The error names what is wrong (English: it is a file's fault).
    pub fn check_whole(&self) -> Result<(), String> {
        Event::new(self.setup.clone()).map_err(|r| r.to_string())?;
        let n = self.players.len();
        for round in &self.rounds {
            let mut seen = vec![false; n];
            for table in &round.tables {
                for &p in &table.seats {
                    if p >= n || std::mem::replace(&mut seen[p], true) {
                        return Err(format!(
                            "round {}, table {}: a seat names no player or one twice",
                            round.number, table.number
                        ));
                    }
                }
                let whole = table.results.iter().all(|r| {
                    r.games.iter().all(|g| {
                        g.hands.len() == table.seats.len()
                            && g.winner.is_none_or(|w| w < table.seats.len())
                    })
                });
                if !whole || !(1..=6).contains(&table.seats.len()) {
                    return Err(format!(
                        "round {}, table {}: a result does not have a hand per seat",
                        round.number, table.number
                    ));
                }
            }
            if round.seeds.iter().any(|&p| p >= n) {
                return Err(format!("round {}: a seed names no player", round.number));
            }
        }
        Ok(())
    }

    /// The standings of the event's entrants: the players with at least one game counted,
    /// ranked among themselves (a registered player who never played is no entrant).
    pub fn entrants_standings(&self) -> Standings {
        let ranking = self.setup.ranking;
        let played: Vec<bool> = {
            let mut played = vec![false; self.players.len()];
            for s in ranking::standings(self, ranking, |_| true).rows {
                played[s.player] = s.games > 0;
            }
            played
        };
        ranking::standings(self, ranking, |p| played[p])
    }

    /// Applies one command: all of it, or nothing and the reason.
    pub fn apply(&mut self, command: Command) -> Result<Outcome, Refusal> {
        let outcome = match &command {
            Command::AddPlayer {
                name,
                club,
                division,
                id,
            } => self.add_player(name, club.as_deref(), division.as_deref(), id.as_deref())?,
            Command::Drop { name } => self.drop_player(name)?,
            Command::SeatRound => self.seat_round()?,
            Command::SeatFinal {
                top,
                games,
                seeding,
                carry,
            } => self.seat_final(*top, *games, *seeding, *carry)?,
            Command::Result {
                round,
                table,
                players,
                games,
                correct,
            } => self.record(*round, *table, players, games, *correct)?,
            Command::Release { round } => self.release(*round)?,
        };
        let seq = self.log.len() as u64 + 1;
        self.log.push(LogEntry {
            seq,
            round: self.current_round(),
            command,
        });
        Ok(outcome)
    }

    fn add_player(
        &mut self,
        name: &str,
        club: Option<&str>,
        division: Option<&str>,
        id: Option<&str>,
    ) -> Result<Outcome, Refusal> {
        let name = name.trim();
        if name.is_empty() {
            return Err(Refusal::EmptyName);
        }
        if self.player_index(name).is_some() {
            return Err(Refusal::DuplicateName(name.to_owned()));
        }
        if self.players.len() >= MAX_EVENT_PLAYERS {
            return Err(Refusal::TooManyPlayers);
        }
        let from_round = self.current_round() + 1;
        let given = |text: Option<&str>| {
            text.map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_owned)
        };
        // A division is spelled as its first player had it, so `Junior` and `junior` are one.
        let division = given(division).map(|d| {
            self.divisions()
                .into_iter()
                .find(|known| folded(known) == folded(&d))
                .unwrap_or(d)
        });
        self.players.push(Player {
            name: name.to_owned(),
            club: given(club),
            from_round,
            dropped_after: None,
            division,
            id: given(id),
        });
        Ok(Outcome::Added {
            player: self.players.len() - 1,
            from_round,
        })
    }

    fn drop_player(&mut self, name: &str) -> Result<Outcome, Refusal> {
        let player = self
            .player_index(name)
            .ok_or_else(|| Refusal::UnknownPlayer(name.trim().to_owned()))?;
        if !self.players[player].is_active() {
            return Err(Refusal::AlreadyDropped(self.players[player].name.clone()));
        }
        self.players[player].dropped_after = Some(self.current_round());
        Ok(Outcome::Dropped { player })
    }

    fn release(&mut self, round: u32) -> Result<Outcome, Refusal> {
        (round as usize)
            .checked_sub(1)
            .and_then(|r| self.rounds.get(r))
            .ok_or(Refusal::NoSuchRound(round))?
            .finished()?;
        self.released = self.released.max(round);
        Ok(Outcome::Released { round })
    }

    /// The current round's open tables, refused as [`Refusal::RoundOpen`].
    fn current_complete(&self) -> Result<(), Refusal> {
        self.rounds.last().map_or(Ok(()), Round::finished)
    }

    fn seat_round(&mut self) -> Result<Outcome, Refusal> {
        self.current_complete()?;
        if !self.stage().is_round() {
            return Err(Refusal::FinalsStarted);
        }
        let active: Vec<usize> = (0..self.players.len())
            .filter(|&i| self.players[i].is_active())
            .collect();
        let number = self.current_round() + 1;
        let games = self.setup.games;
        let seated = seating::seat_round(self, &active, number, games)?;
        self.rounds.push(Round {
            number,
            tables: seated
                .tables
                .into_iter()
                .zip(1..)
                .map(|(seats, number)| Table {
                    number,
                    seats,
                    results: Vec::new(),
                })
                .collect(),
            repeats: seated.repeats,
            games,
            stage: Stage::Round,
            carry: None,
            seeds: Vec::new(),
        });
        Ok(Outcome::Seated {
            round: number,
            repeats: seated.repeats,
        })
    }

    fn seat_final(
        &mut self,
        top: u32,
        games: Option<u32>,
        seeding: Option<Seeding>,
        carry: Option<Carry>,
    ) -> Result<Outcome, Refusal> {
        if self.rounds.is_empty() {
            return Err(Refusal::NotSeated);
        }
        self.current_complete()?;
        if self.stage() == Stage::Final {
            return Err(Refusal::FinalPlayed);
        }
        let standings = self.standings();
        let ranked: Vec<usize> = standings
            .rows
            .iter()
            .filter(|s| !s.dropped)
            .map(|s| s.player)
            .collect();
        let top_n = top as usize;
        let sizes = seating::table_sizes(top_n)
            .filter(|_| top_n <= ranked.len())
            .ok_or(Refusal::BadTop {
                top,
                players: ranked.len(),
            })?;
        let stage = if sizes.len() == 1 {
            Stage::Final
        } else {
            Stage::Semi
        };
        let finals = self.setup.finals;
        let games = games
            .or(match stage {
                Stage::Final => finals.final_games,
                _ => finals.semi_games,
            })
            .unwrap_or(self.setup.games);
        if !(1..=MAX_GAMES).contains(&games) {
            return Err(Refusal::BadGameCount(games));
        }
        let seeds = ranked[..top_n].to_vec();
        let tables = seeding.unwrap_or(finals.seeding).tables(&seeds, &sizes);
        let number = self.current_round() + 1;
        self.rounds.push(Round {
            number,
            tables: tables
                .into_iter()
                .zip(1..)
                .map(|(seats, number)| Table {
                    number,
                    seats,
                    results: Vec::new(),
                })
                .collect(),
            repeats: 0,
            games,
            stage,
            carry: Some(carry.unwrap_or(finals.carry)),
            seeds,
        });
        Ok(Outcome::Seated {
            round: number,
            repeats: 0,
        })
    }

    fn record(
        &mut self,
        round: Option<u32>,
        table: u32,
        names: &[String],
        games: &[Game],
        correct: bool,
    ) -> Result<Outcome, Refusal> {
        let current = self.current_round();
        if current == 0 {
            return Err(Refusal::NotSeated);
        }
        let round_number = round.unwrap_or(current);
        let r = (round_number as usize)
            .checked_sub(1)
            .filter(|&r| r < self.rounds.len())
            .ok_or(Refusal::NoSuchRound(round_number))?;
        let tables = self.rounds[r].tables.len();
        let t = (table as usize)
            .checked_sub(1)
            .filter(|&t| t < tables)
            .ok_or(Refusal::NoSuchTable {
                round: round_number,
                table,
                tables,
            })?;
        let seated = &self.rounds[r].tables[t];
        let expected = self.seat_names(seated);
        // Column c of the result is seat order[c] of the table.
        let mut order = Vec::with_capacity(names.len());
        for name in names {
            match seated
                .seats
                .iter()
                .position(|&p| folded(&self.players[p].name) == folded(name))
            {
                Some(seat) if !order.contains(&seat) => order.push(seat),
                _ => break,
            }
        }
        if order.len() != names.len() || names.len() != expected.len() {
            return Err(Refusal::WrongPlayers {
                expected,
                found: names.iter().map(|n| n.trim().to_owned()).collect(),
            });
        }
        let expected_games = self.round_games(&self.rounds[r]);
        if games.len() != expected_games as usize {
            return Err(Refusal::WrongGameCount {
                expected: expected_games,
                found: games.len(),
            });
        }
        if seated.is_finished() && !correct {
            return Err(Refusal::AlreadyRecorded {
                round: round_number,
                table,
            });
        }
        // Reorder every game's hands into seat order, then score it as the sheet would.
        let mut in_seat_order = Vec::with_capacity(games.len());
        for game in games {
            let mut hands = game.hands.clone();
            if hands.len() == order.len() {
                let mut by_seat = vec![None; order.len()];
                for (column, hand) in hands.drain(..).enumerate() {
                    by_seat[order[column]] = Some(hand);
                }
                hands = by_seat.into_iter().flatten().collect();
            }
            let mut game = game.clone();
            game.winner = game.winner.and_then(|w| order.get(w).copied());
            game.hands = hands;
            in_seat_order.push(game);
        }
        let players =
            Players::new(expected.clone()).map_err(|error| Refusal::Game { game: 0, error })?;
        let rules = self.table_rules(seated);
        for (n, game) in in_seat_order.iter().enumerate() {
            let scored = game
                .score(&players, &rules)
                .map_err(|error| Refusal::Game { game: n + 1, error })?;
            if scored.points.iter().sum::<i64>() != 0 {
                return Err(Refusal::NotZeroSum { game: n + 1 });
            }
        }
        let table_ref = &mut self.rounds[r].tables[t];
        let corrected = table_ref.is_finished();
        table_ref.results.push(TableResult {
            games: in_seat_order,
            entered_in_round: current,
        });
        Ok(Outcome::Recorded {
            round: round_number,
            table,
            corrected,
            round_complete: self.rounds[r].is_complete(),
        })
    }
}
