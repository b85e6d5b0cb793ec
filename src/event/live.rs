//! A table of a club night while it plays: who holds each seat, its clock, the games its
//! players have confirmed and the game being settled — the pure engine behind a table's phones.
//!
//! At a club night each table plays a round's games. Each player claims their seat from their
//! own phone once ([`TableCommand::Claim`]): the seat is bound to that phone's device token, the
//! other phones see it taken, and from then on only that phone acts for the seat — its turns,
//! its rack, its confirmation. The organiser frees a seat whose phone died
//! ([`TableCommand::Free`]) and may let anyone at the table end a turn
//! ([`TableCommand::Shared`]), as on a laptop table.
//!
//! A game ends by a step of its own: the player who went out, or anyone when the pool ran out,
//! declares it over ([`TableCommand::GameOver`]); the clock stops there and only then are
//! racks taken. Until somebody confirms, the table can go back to the game
//! ([`TableCommand::Reopen`]); a rack can be withdrawn ([`TableCommand::Withdraw`]) or
//! changed. A game counts only when every seat has confirmed it, and a seat can confirm only a
//! game that scores: every rack entered, the racks together within the tile supply, one
//! winner — [`Game::score`] under the table's rules, the same check a sheet and `event result`
//! make. A confirmation names the game and what it confirms (the [`Settling::digest`] of the
//! racks as the phone showed them): an old or replayed one changes nothing. Any change to a
//! rack or to the named winner withdraws every confirmation. When the round's last game is
//! confirmed, [`LiveTable::apply`] hands back the games for the event's own
//! [`Command::Result`](super::Command::Result).
//!
//! Like the rest of the engine it reads no clock: time is a [`Duration`] on the caller's
//! monotonic clock. The clock is the project's [`Timer`] pressed through the same
//! [`EndTurnGuard::press`] as the laptop's evening: one press ends one turn, and a phone ends
//! only the turn it saw, its own unless the table is shared. Game `g` (0-based) of a round is
//! started by seat `g mod n` ([`super::seating::starts_per_seat`]).
//!
//! What is kept across a restart of the host is [`TableGames`]: the confirmed games, the game
//! being settled, the seats' devices and the shared mode. The clock is not kept: a restarted
//! host shows the table stopped at the seat that starts the next game.
//!
//! ```
//! use std::time::Duration;
//! use rummikub_companion::event::live::{Actor, LiveTable, TableCommand, TableDone};
//! use rummikub_companion::rules::Preset;
//! use rummikub_companion::score::Hand;
//!
//! let s = Duration::from_secs;
//! let names = ["Ann", "Bo", "Cy"].map(String::from).to_vec();
//! let mut table = LiveTable::new(1, names, Preset::Korean.rules(), 1).unwrap();
//! let phone = |seat: usize| Actor::Device(format!("phone-{seat}"));
//! for seat in 0..3 {
//!     table.apply(&phone(seat), TableCommand::Claim { seat }, s(0)).unwrap();
//! }
//! table.apply(&phone(0), TableCommand::Start, s(1)).unwrap();
//! let turn = table.timer().turn_id().unwrap();
//! assert_eq!(
//!     table.apply(&phone(0), TableCommand::EndTurn { turn }, s(5)),
//!     Ok(TableDone::TurnEnded { next: 1 })
//! );
//! table.apply(&phone(1), TableCommand::GameOver { went_out: true }, s(60)).unwrap();
//! for (seat, value) in [(0, 12), (2, 30)] {
//!     let hand = Hand::of_value(value);
//!     table.apply(&phone(seat), TableCommand::Rack { hand }, s(61)).unwrap();
//! }
//! let digest = table.settling().unwrap().digest(1);
//! for seat in 0..2 {
//!     let confirm = TableCommand::Confirm { game: 1, digest: digest.clone() };
//!     table.apply(&phone(seat), confirm, s(62)).unwrap();
//! }
//! let confirm = TableCommand::Confirm { game: 1, digest };
//! let Ok(TableDone::GameConfirmed { complete: Some(games), .. }) =
//!     table.apply(&phone(2), confirm, s(63)) else { panic!() };
//! assert_eq!(games.len(), 1);
//! ```

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::rules::RuleSet;
use crate::score::{Game, GameScore, Hand, Players, Remaining, ScoreError};
use crate::timer::{EndTurnGuard, Phase, PressRefusal, Pressed, Presser, Timer, TimerSettings};

/// What a table keeps across a restart of the host: its confirmed games, the game being
/// settled, who holds each seat and whether anyone may end a turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableGames {
    /// The games every seat confirmed, in order.
    pub games: Vec<Game>,
    /// The game being settled, once it was declared over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settling: Option<Settling>,
    /// Each seat's device (the token its phone keeps), once claimed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub devices: Vec<Option<String>>,
    /// Anyone at the table may end a turn (the organiser's choice).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shared_turns: bool,
}

/// What the host of a club night keeps of the current round's tables at play (the store writes
/// it beside the event, `events/<id>.live.json`): each table's kept part, each table's key, and
/// when the round's clock began.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TablesAtPlay {
    /// The round these tables play (kept tables of an earlier round are not taken).
    pub round: u32,
    /// Each table's kept part, by table number.
    #[serde(default)]
    pub tables: BTreeMap<u32, TableGames>,
    /// Each table's key for this round: its QR code carries it, and a page's request must.
    #[serde(default)]
    pub keys: BTreeMap<u32, String>,
    /// When the round's clock began (wall clock), if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_started: Option<chrono::DateTime<chrono::Utc>>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// This seat went out.
    WentOut(usize),
    /// The pool ran out.
    PoolEmpty,
    /// Not said (a file from before the end was a step of its own).
    #[default]
    Unsaid,
}

/// The game being settled: how it ended, each seat's rack as entered, the winner if named,
/// who confirmed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settling {
    /// How the game ended.
    #[serde(default)]
    pub ending: Ending,
    /// Each seat's rack, `None` until entered.
    pub hands: Vec<Option<Hand>>,
    /// The winner named by the table (only needed when the pool ran out in a tie).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<usize>,
    /// Which seats confirmed the game as it stands.
    pub confirmed: Vec<bool>,
}

impl Settling {
    fn new(seats: usize, ending: Ending) -> Settling {
        let mut hands = vec![None; seats];
        if let Ending::WentOut(seat) = ending
            && let Some(hand) = hands.get_mut(seat)
        {
            *hand = Some(Hand::of_value(0));
        }
        Settling {
            ending,
            hands,
            winner: None,
            confirmed: vec![false; seats],
        }
    }

    /// The seats whose rack is not entered yet.
    pub fn missing(&self) -> Vec<usize> {
        (0..self.hands.len())
            .filter(|&s| self.hands[s].is_none())
            .collect()
    }

    /// The game as entered, once every rack is.
    pub fn game(&self) -> Option<Game> {
        let hands: Option<Vec<Hand>> = self.hands.iter().cloned().collect();
        Some(Game {
            hands: hands?,
            winner: self.winner,
            played_at: None,
            entry: None,
        })
    }

    /// What a confirmation of game `game` (1-based) names: a short digest of the game number,
    /// every rack as entered and the named winner. Any change to them changes it.
    pub fn digest(&self, game: usize) -> String {
        let mut text = format!("{game}|");
        for hand in &self.hands {
            match hand {
                Some(hand) => {
                    let left = match &hand.left {
                        Remaining::Tiles(tiles) => tiles
                            .iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join(" "),
                        other => other.to_string(),
                    };
                    text.push_str(&format!(
                        "{left}{}|",
                        if hand.not_melded { "*" } else { "" }
                    ));
                }
                None => text.push_str("-|"),
            }
        }
        if let Some(winner) = self.winner {
            text.push_str(&format!("w{winner}"));
        }
        format!("{:016x}", fnv1a(text.as_bytes()))
    }

    fn withdraw(&mut self) {
        self.confirmed.iter_mut().for_each(|c| *c = false);
    }
}

/// FNV-1a, 64 bits: small, and the same on every platform and Rust version.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Who asks: a phone (by the device token it keeps), or the organiser (the window, the command
/// line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Actor {
    /// A phone's device token.
    Device(String),
    /// The organiser.
    Organiser,
}

/// Something a phone (or the organiser) asks of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableCommand {
    /// A phone claims a free seat (moving from the seat it held, if any).
    Claim {
        /// The seat.
        seat: usize,
    },
    /// A phone gives its seat up.
    Leave,
    /// The organiser frees a seat (its phone died, or another player takes it).
    Free {
        /// The seat.
        seat: usize,
    },
    /// The organiser lets anyone at the table end a turn, or not.
    Shared(bool),
    /// Starts the clock (the first turn), or resumes it.
    Start,
    /// Ends the turn the phone saw ([`Timer::turn_id`]).
    EndTurn {
        /// The turn.
        turn: u64,
    },
    /// Pauses the clock.
    Pause,
    /// Resumes the clock.
    Resume,
    /// The game is over: the phone's player went out, or (`went_out` false) the pool ran out.
    GameOver {
        /// The phone's player went out (their rack is 0).
        went_out: bool,
    },
    /// Back to the game (declared over by mistake): only while nobody has confirmed.
    Reopen,
    /// The phone's rack at the game's end.
    Rack {
        /// What was left.
        hand: Hand,
    },
    /// Takes the phone's rack back.
    Withdraw,
    /// The winner named by the table (a tie for the lowest rack when the pool ran out), or
    /// none.
    Winner {
        /// The seat, or `None` to take the name back.
        seat: Option<usize>,
    },
    /// The phone confirms game `game` (1-based) as it saw it (`digest`, [`Settling::digest`]).
    Confirm {
        /// The game.
        game: usize,
        /// The digest of the racks as shown.
        digest: String,
    },
}

/// What a command did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableDone {
    /// A phone holds a seat now.
    Claimed {
        /// The seat.
        seat: usize,
    },
    /// A seat is free again.
    Freed {
        /// The seat.
        seat: usize,
    },
    /// The shared mode changed.
    SharedSet(bool),
    /// The clock runs.
    Started,
    /// A turn ended; `next` plays.
    TurnEnded {
        /// The seat whose turn it is now.
        next: usize,
    },
    /// The clock is paused.
    Paused,
    /// The clock runs again.
    Resumed,
    /// The game was declared over: racks are taken now.
    GameOver,
    /// Back to the game.
    Reopened,
    /// A rack was entered or withdrawn (every confirmation was withdrawn).
    RackEntered,
    /// The winner was named or taken back (every confirmation was withdrawn).
    WinnerNamed,
    /// A seat confirmed; others still have to.
    Confirmed {
        /// The seats still to confirm.
        waiting: Vec<usize>,
    },
    /// Every seat confirmed: the game counts.
    GameConfirmed {
        /// Its 1-based number in the round.
        game: usize,
        /// The round's games, when this was its last one.
        complete: Option<Vec<Game>>,
    },
}

impl TableDone {
    /// Whether the table's kept part ([`TableGames`]) changed, so the host saves it.
    pub fn changes_games(&self) -> bool {
        !matches!(
            self,
            TableDone::Started
                | TableDone::TurnEnded { .. }
                | TableDone::Paused
                | TableDone::Resumed
        )
    }
}

/// Why a command was refused (nothing changed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableRefusal {
    /// The table has no such seat (the number as asked).
    NoSuchSeat(u64),
    /// Another phone holds the seat.
    SeatTaken(usize),
    /// The phone holds no seat at this table.
    NoSeat,
    /// Only the organiser may do this.
    OrganiserOnly,
    /// Another seat's turn.
    NotYourTurn {
        /// Whose turn it is.
        turn: usize,
    },
    /// That turn ended already.
    StaleTurn,
    /// A second press within [`crate::timer::END_TURN_GUARD`] of the first.
    Guarded,
    /// The clock has not started.
    NotStarted,
    /// The clock is not running.
    NotRunning,
    /// The clock runs already.
    AlreadyRunning,
    /// The game is over: racks are being entered.
    Settling,
    /// The game is not over yet: declare it over first.
    NotOver,
    /// Somebody confirmed already: the game cannot go back.
    ConfirmedAlready,
    /// Racks still to enter before anyone can confirm.
    Missing {
        /// Their seats.
        seats: Vec<usize>,
    },
    /// The confirmation names another game than the one being settled (an old one).
    WrongGame {
        /// The game being settled (1-based), if any.
        current: Option<usize>,
    },
    /// The racks changed since the phone showed them.
    Changed,
    /// The game as entered does not score (a rack the set cannot hold, two went out, a tie with
    /// no winner named, …).
    Game(ScoreError),
    /// Every game of the round is confirmed.
    Finished,
}

/// One table of the current round while it plays; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct LiveTable {
    number: u32,
    players: Players,
    rules: RuleSet,
    games_per_round: u32,
    timer: Timer,
    guard: EndTurnGuard,
    kept: TableGames,
}

impl LiveTable {
    /// A table of `names` (seat order) playing `games` games under `rules`.
    pub fn new(
        number: u32,
        names: Vec<String>,
        rules: RuleSet,
        games: u32,
    ) -> Result<LiveTable, ScoreError> {
        let players = Players::new(names.clone())?;
        let timer = Timer::new(names, TimerSettings::from_rules(&rules))
            .map_err(|_| ScoreError::PlayerCount(players.len()))?;
        let seats = players.len();
        Ok(LiveTable {
            number,
            players,
            rules,
            games_per_round: games,
            timer,
            guard: EndTurnGuard::default(),
            kept: TableGames {
                devices: vec![None; seats],
                ..TableGames::default()
            },
        })
    }

    /// The same table with what a host kept ([`TableGames`]) before it restarted; games beyond
    /// the round's count and parts of another table size are not taken.
    pub fn restored(mut self, kept: TableGames) -> LiveTable {
        let seats = self.players.len();
        let fits = |s: &Settling| s.hands.len() == seats && s.confirmed.len() == seats;
        let mut games = kept.games;
        games.retain(|g| g.hands.len() == seats);
        games.truncate(self.games_per_round as usize);
        let mut devices = kept.devices;
        devices.resize(seats, None);
        self.kept = TableGames {
            games,
            settling: kept.settling.filter(fits),
            devices,
            shared_turns: kept.shared_turns,
        };
        let next = self.starter();
        let _ = self.timer.set_current_player(next);
        self
    }

    /// The table's number.
    pub fn number(&self) -> u32 {
        self.number
    }

    /// The players in seat order.
    pub fn players(&self) -> &Players {
        &self.players
    }

    /// The rules its games are scored under.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// What the host keeps across a restart.
    pub fn kept(&self) -> &TableGames {
        &self.kept
    }

    /// The confirmed games.
    pub fn games(&self) -> &[Game] {
        &self.kept.games
    }

    /// Games a round has.
    pub fn games_per_round(&self) -> u32 {
        self.games_per_round
    }

    /// Every game of the round is confirmed.
    pub fn is_finished(&self) -> bool {
        self.kept.games.len() >= self.games_per_round as usize
    }

    /// The game being settled.
    pub fn settling(&self) -> Option<&Settling> {
        self.kept.settling.as_ref()
    }

    /// The number (1-based) of the game under way or being settled.
    pub fn game_number(&self) -> usize {
        self.kept.games.len() + 1
    }

    /// The game being settled as it would score now.
    pub fn settling_score(&self) -> Option<Result<GameScore, ScoreError>> {
        let game = self.kept.settling.as_ref()?.game()?;
        Some(game.score(&self.players, &self.rules))
    }

    /// The clock.
    pub fn timer(&self) -> &Timer {
        &self.timer
    }

    /// Whether the clock runs.
    pub fn is_running(&self) -> bool {
        self.timer.phase() == Phase::Running
    }

    /// The seat a device holds, if any.
    pub fn seat_of(&self, device: &str) -> Option<usize> {
        self.kept
            .devices
            .iter()
            .position(|d| d.as_deref() == Some(device))
    }

    /// Which seats a phone holds.
    pub fn held(&self) -> Vec<bool> {
        self.kept.devices.iter().map(Option::is_some).collect()
    }

    /// Whether anyone at the table may end a turn.
    pub fn shared_turns(&self) -> bool {
        self.kept.shared_turns
    }

    /// The seat that starts the next game.
    fn starter(&self) -> usize {
        self.kept.games.len() % self.players.len()
    }

    fn seat(&self, seat: usize) -> Result<usize, TableRefusal> {
        if seat < self.players.len() {
            Ok(seat)
        } else {
            Err(TableRefusal::NoSuchSeat(seat as u64))
        }
    }

    /// The seat `actor` acts for: a phone's own; the organiser has none.
    fn own_seat(&self, actor: &Actor) -> Result<Option<usize>, TableRefusal> {
        match actor {
            Actor::Organiser => Ok(None),
            Actor::Device(device) => self.seat_of(device).map(Some).ok_or(TableRefusal::NoSeat),
        }
    }

    /// The seat a phone acts for (the organiser may not act for a seat).
    fn phone_seat(&self, actor: &Actor) -> Result<usize, TableRefusal> {
        self.own_seat(actor)?.ok_or(TableRefusal::NoSeat)
    }

    fn settling_mut(&mut self) -> Result<&mut Settling, TableRefusal> {
        self.kept.settling.as_mut().ok_or(TableRefusal::NotOver)
    }

    /// Applies one command from `actor` at `now`: all of it, or nothing and the reason.
    pub fn apply(
        &mut self,
        actor: &Actor,
        command: TableCommand,
        now: Duration,
    ) -> Result<TableDone, TableRefusal> {
        // Nobody sounds the host's alarms (each phone counts down itself): drop them.
        let _ = self.timer.poll(now);
        match command {
            TableCommand::Claim { seat } => self.claim(actor, seat),
            TableCommand::Leave => {
                let seat = self.phone_seat(actor)?;
                self.kept.devices[seat] = None;
                Ok(TableDone::Freed { seat })
            }
            TableCommand::Free { seat } => {
                if *actor != Actor::Organiser {
                    return Err(TableRefusal::OrganiserOnly);
                }
                let seat = self.seat(seat)?;
                self.kept.devices[seat] = None;
                Ok(TableDone::Freed { seat })
            }
            TableCommand::Shared(on) => {
                if *actor != Actor::Organiser {
                    return Err(TableRefusal::OrganiserOnly);
                }
                self.kept.shared_turns = on;
                Ok(TableDone::SharedSet(on))
            }
            command => {
                if self.is_finished() {
                    return Err(TableRefusal::Finished);
                }
                // Everything else is done by a seated phone (or the organiser, for the clock).
                let seat = self.own_seat(actor)?;
                match command {
                    TableCommand::Start
                    | TableCommand::EndTurn { .. }
                    | TableCommand::Pause
                    | TableCommand::Resume => self.clock(seat, command, now),
                    command => {
                        let seat = seat.ok_or(TableRefusal::NoSeat)?;
                        self.settle(seat, command, now)
                    }
                }
            }
        }
    }

    fn claim(&mut self, actor: &Actor, seat: usize) -> Result<TableDone, TableRefusal> {
        let Actor::Device(device) = actor else {
            return Err(TableRefusal::NoSeat);
        };
        let seat = self.seat(seat)?;
        match &self.kept.devices[seat] {
            Some(holder) if holder == device => return Ok(TableDone::Claimed { seat }),
            Some(_) => return Err(TableRefusal::SeatTaken(seat)),
            None => {}
        }
        // One seat a phone: moving to another seat gives the old one up.
        if let Some(old) = self.seat_of(device) {
            self.kept.devices[old] = None;
        }
        self.kept.devices[seat] = Some(device.clone());
        Ok(TableDone::Claimed { seat })
    }

    fn clock(
        &mut self,
        seat: Option<usize>,
        command: TableCommand,
        now: Duration,
    ) -> Result<TableDone, TableRefusal> {
        if self.kept.settling.is_some() {
            return Err(TableRefusal::Settling);
        }
        match (command, self.timer.phase()) {
            (TableCommand::Start, Phase::Idle) => {
                match self.guard.press(&mut self.timer, now, Presser::Table) {
                    Ok(_) => Ok(TableDone::Started),
                    Err(e) => Err(self.refused(e)),
                }
            }
            (TableCommand::Start | TableCommand::Resume, Phase::Paused) => self
                .timer
                .resume(now)
                .map(|()| TableDone::Resumed)
                .map_err(|_| TableRefusal::NotRunning),
            (TableCommand::Start, Phase::Running) => Err(TableRefusal::AlreadyRunning),
            (TableCommand::Resume, _) => Err(TableRefusal::NotRunning),
            (TableCommand::Pause, Phase::Running) => self
                .timer
                .pause(now)
                .map(|()| TableDone::Paused)
                .map_err(|_| TableRefusal::NotRunning),
            (TableCommand::Pause, _) => Err(TableRefusal::NotRunning),
            (TableCommand::EndTurn { turn }, _) => {
                let by = match seat {
                    Some(seat) => Presser::Seat {
                        seat,
                        turn,
                        anyone: self.kept.shared_turns,
                    },
                    // The organiser's press ends the turn it saw too.
                    None if self.timer.turn_id() == Some(turn) => Presser::Table,
                    None => return Err(TableRefusal::StaleTurn),
                };
                match self.guard.press(&mut self.timer, now, by) {
                    Ok(Pressed::Ended(_)) => Ok(TableDone::TurnEnded {
                        next: self.timer.current_player(),
                    }),
                    Ok(Pressed::Started) => Ok(TableDone::Started),
                    Err(e) => Err(self.refused(e)),
                }
            }
            _ => Err(TableRefusal::NotRunning),
        }
    }

    /// A press refused, worded for the table.
    fn refused(&self, e: PressRefusal) -> TableRefusal {
        match e {
            PressRefusal::Guarded => TableRefusal::Guarded,
            PressRefusal::NotStarted => TableRefusal::NotStarted,
            PressRefusal::StaleTurn => TableRefusal::StaleTurn,
            PressRefusal::NotYourTurn => TableRefusal::NotYourTurn {
                turn: self.timer.current_player(),
            },
        }
    }

    fn settle(
        &mut self,
        seat: usize,
        command: TableCommand,
        now: Duration,
    ) -> Result<TableDone, TableRefusal> {
        match command {
            TableCommand::GameOver { went_out } => {
                if self.kept.settling.is_some() {
                    return Err(TableRefusal::Settling);
                }
                if self.is_running() {
                    let _ = self.timer.pause(now);
                }
                let ending = if went_out {
                    Ending::WentOut(seat)
                } else {
                    Ending::PoolEmpty
                };
                self.kept.settling = Some(Settling::new(self.players.len(), ending));
                Ok(TableDone::GameOver)
            }
            TableCommand::Reopen => {
                let settling = self.settling_mut()?;
                if settling.confirmed.iter().any(|&c| c) {
                    return Err(TableRefusal::ConfirmedAlready);
                }
                self.kept.settling = None;
                Ok(TableDone::Reopened)
            }
            TableCommand::Rack { hand } => {
                let settling = self.settling_mut()?;
                settling.hands[seat] = Some(hand);
                settling.withdraw();
                Ok(TableDone::RackEntered)
            }
            TableCommand::Withdraw => {
                let settling = self.settling_mut()?;
                settling.hands[seat] = None;
                settling.withdraw();
                Ok(TableDone::RackEntered)
            }
            TableCommand::Winner { seat: named } => {
                if let Some(s) = named {
                    self.seat(s)?;
                }
                let settling = self.settling_mut()?;
                settling.winner = named;
                settling.withdraw();
                Ok(TableDone::WinnerNamed)
            }
            TableCommand::Confirm { game, digest } => self.confirm(seat, game, &digest),
            _ => Err(TableRefusal::NotOver),
        }
    }

    fn confirm(
        &mut self,
        seat: usize,
        game: usize,
        digest: &str,
    ) -> Result<TableDone, TableRefusal> {
        let number = self.game_number();
        let settling = self
            .kept
            .settling
            .as_ref()
            .ok_or(TableRefusal::WrongGame { current: None })?;
        if game != number {
            return Err(TableRefusal::WrongGame {
                current: Some(number),
            });
        }
        if settling.digest(number) != digest {
            return Err(TableRefusal::Changed);
        }
        let missing = settling.missing();
        let Some(played) = settling.game() else {
            return Err(TableRefusal::Missing { seats: missing });
        };
        played
            .score(&self.players, &self.rules)
            .map_err(TableRefusal::Game)?;
        let settling = self.settling_mut()?;
        settling.confirmed[seat] = true;
        let waiting: Vec<usize> = (0..settling.confirmed.len())
            .filter(|&s| !settling.confirmed[s])
            .collect();
        if !waiting.is_empty() {
            return Ok(TableDone::Confirmed { waiting });
        }
        self.kept.settling = None;
        self.kept.games.push(played);
        self.timer.reset();
        let next = self.starter();
        let _ = self.timer.set_current_player(next);
        let complete = self.is_finished().then(|| self.kept.games.clone());
        Ok(TableDone::GameConfirmed {
            game: self.kept.games.len(),
            complete,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;
    use crate::tile::parse_rack;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn phone(seat: usize) -> Actor {
        Actor::Device(format!("device-{seat}"))
    }

    /// A table of four whose phones hold their seats.
    fn table(games: u32) -> LiveTable {
        let names = ["Ann", "Bo", "Cy", "Di"].map(String::from).to_vec();
        let mut t = LiveTable::new(3, names, Preset::Tournament.rules(), games).expect("a table");
        for seat in 0..4 {
            t.apply(&phone(seat), TableCommand::Claim { seat }, ms(0))
                .expect("a free seat");
        }
        t
    }

    fn rack(text: &str) -> TableCommand {
        let hand = if text.chars().all(|c| c.is_ascii_digit()) {
            Hand::of_value(text.parse().expect("a value"))
        } else {
            Hand::of_tiles(parse_rack(text).expect("tiles"))
        };
        TableCommand::Rack { hand }
    }

    fn turn(t: &LiveTable) -> u64 {
        t.timer().turn_id().expect("a turn")
    }

    fn confirm_all(t: &mut LiveTable, seats: std::ops::Range<usize>, at: Duration) -> TableDone {
        let game = t.game_number();
        let digest = t.settling().expect("settling").digest(game);
        let mut last = None;
        for seat in seats {
            let command = TableCommand::Confirm {
                game,
                digest: digest.clone(),
            };
            last = Some(t.apply(&phone(seat), command, at).expect("confirms"));
        }
        last.expect("at least one seat")
    }

    #[test]
    fn a_seat_acts_only_from_the_phone_that_claimed_it() {
        let mut t = table(1);
        let stranger = Actor::Device("stranger".into());
        assert_eq!(
            t.apply(&stranger, TableCommand::Claim { seat: 2 }, ms(1)),
            Err(TableRefusal::SeatTaken(2))
        );
        assert_eq!(
            t.apply(&stranger, TableCommand::Start, ms(1)),
            Err(TableRefusal::NoSeat)
        );
        assert_eq!(
            t.apply(&stranger, TableCommand::Free { seat: 2 }, ms(1)),
            Err(TableRefusal::OrganiserOnly)
        );
        // The organiser frees a dead phone's seat; then the stranger (the new phone) takes it.
        t.apply(&Actor::Organiser, TableCommand::Free { seat: 2 }, ms(2))
            .expect("freed");
        assert_eq!(
            t.apply(&stranger, TableCommand::Claim { seat: 2 }, ms(3)),
            Ok(TableDone::Claimed { seat: 2 })
        );
        assert_eq!(t.seat_of("device-2"), None);
        // One seat a phone: claiming another free seat moves it.
        t.apply(&Actor::Organiser, TableCommand::Free { seat: 3 }, ms(4))
            .expect("freed");
        t.apply(&stranger, TableCommand::Claim { seat: 3 }, ms(5))
            .expect("moves");
        assert_eq!(t.held(), [true, true, false, true]);
        assert_eq!(
            t.apply(
                &stranger,
                TableCommand::Claim {
                    seat: u64::MAX as usize
                },
                ms(6)
            ),
            Err(TableRefusal::NoSuchSeat(u64::MAX))
        );
    }

    #[test]
    fn only_the_seat_whose_turn_it_is_ends_it_and_one_press_ends_one_turn() {
        let mut t = table(1);
        assert_eq!(
            t.apply(&phone(0), TableCommand::EndTurn { turn: 0 }, ms(0)),
            Err(TableRefusal::NotStarted)
        );
        t.apply(&phone(1), TableCommand::Start, ms(0))
            .expect("starts");
        let first = turn(&t);
        assert_eq!(
            t.apply(&phone(2), TableCommand::EndTurn { turn: first }, ms(100)),
            Err(TableRefusal::NotYourTurn { turn: 0 })
        );
        assert_eq!(
            t.apply(&phone(0), TableCommand::EndTurn { turn: first }, ms(1_000)),
            Ok(TableDone::TurnEnded { next: 1 })
        );
        assert_eq!(
            t.apply(&phone(0), TableCommand::EndTurn { turn: first }, ms(2_000)),
            Err(TableRefusal::StaleTurn),
            "a replayed end of turn ends nothing"
        );
        let second = turn(&t);
        assert_eq!(
            t.apply(&phone(1), TableCommand::EndTurn { turn: second }, ms(1_100)),
            Err(TableRefusal::Guarded)
        );
        assert_eq!(
            t.apply(&phone(1), TableCommand::EndTurn { turn: second }, ms(2_000)),
            Ok(TableDone::TurnEnded { next: 2 })
        );
        // Shared: anyone at the table ends the turn under way.
        t.apply(&Actor::Organiser, TableCommand::Shared(true), ms(2_100))
            .expect("shared");
        let third = turn(&t);
        assert_eq!(
            t.apply(&phone(0), TableCommand::EndTurn { turn: third }, ms(3_000)),
            Ok(TableDone::TurnEnded { next: 3 })
        );
    }

    #[test]
    fn a_rack_typed_mid_game_leaves_the_clock_running() {
        let mut t = table(1);
        t.apply(&phone(0), TableCommand::Start, ms(0))
            .expect("starts");
        assert_eq!(
            t.apply(&phone(2), rack("R5 J"), ms(10)),
            Err(TableRefusal::NotOver)
        );
        assert!(t.is_running());
        let now = turn(&t);
        assert!(
            t.apply(&phone(0), TableCommand::EndTurn { turn: now }, ms(500))
                .is_ok()
        );
        // Declared over by mistake: back to the game, the clock paused where it was.
        t.apply(
            &phone(1),
            TableCommand::GameOver { went_out: false },
            ms(900),
        )
        .expect("over");
        assert!(!t.is_running());
        assert_eq!(
            t.apply(&phone(1), TableCommand::Start, ms(901)),
            Err(TableRefusal::Settling)
        );
        t.apply(&phone(3), TableCommand::Reopen, ms(950))
            .expect("back to the game");
        t.apply(&phone(3), TableCommand::Resume, ms(960))
            .expect("runs again");
        assert!(t.is_running());
    }

    #[test]
    fn a_game_counts_only_when_every_seat_confirmed_it_and_a_change_withdraws_confirmations() {
        let mut t = table(2);
        t.apply(&phone(0), TableCommand::Start, ms(0))
            .expect("starts");
        t.apply(&phone(0), TableCommand::GameOver { went_out: true }, ms(10))
            .expect("over");
        assert!(!t.is_running(), "the end stops the game's clock");
        let game = t.game_number();
        let early = t.settling().expect("settling").digest(game);
        assert_eq!(
            t.apply(
                &phone(0),
                TableCommand::Confirm {
                    game,
                    digest: early.clone()
                },
                ms(11)
            ),
            Err(TableRefusal::Missing {
                seats: vec![1, 2, 3]
            })
        );
        for (seat, text) in [(1, "R5 J"), (2, "12"), (3, "K13 B13")] {
            t.apply(&phone(seat), rack(text), ms(20)).expect("rack");
        }
        assert_eq!(
            t.apply(
                &phone(1),
                TableCommand::Confirm {
                    game,
                    digest: early
                },
                ms(21)
            ),
            Err(TableRefusal::Changed),
            "a confirmation of the racks as they were earlier"
        );
        let TableDone::Confirmed { .. } = confirm_all(&mut t, 0..3, ms(30)) else {
            panic!("three of four confirmed");
        };
        // Bo corrects the rack: everyone confirms again.
        t.apply(&phone(1), rack("R5"), ms(40)).expect("rack");
        let TableDone::Confirmed { waiting } = confirm_all(&mut t, 3..4, ms(41)) else {
            panic!("one confirmed");
        };
        assert_eq!(waiting, [0, 1, 2]);
        assert_eq!(
            confirm_all(&mut t, 0..3, ms(43)),
            TableDone::GameConfirmed {
                game: 1,
                complete: None
            }
        );
        assert_eq!(t.games().len(), 1);
        assert_eq!(
            t.games()[0].hands[1],
            Hand::of_tiles(parse_rack("R5").expect("r"))
        );
        assert_eq!(
            t.timer().current_player(),
            1,
            "the second game is started by the second seat"
        );
        assert!(t.settling().is_none());
        // Game 1's confirmation replayed during game 2 changes nothing.
        t.apply(&phone(2), TableCommand::GameOver { went_out: true }, ms(50))
            .expect("over");
        let old = TableCommand::Confirm {
            game: 1,
            digest: String::from("0"),
        };
        assert_eq!(
            t.apply(&phone(0), old, ms(51)),
            Err(TableRefusal::WrongGame { current: Some(2) })
        );
        // A rack withdrawn is missing again.
        t.apply(&phone(3), rack("9"), ms(52)).expect("rack");
        t.apply(&phone(3), TableCommand::Withdraw, ms(53))
            .expect("withdrawn");
        assert_eq!(t.settling().expect("settling").missing(), [0, 1, 3]);
    }

    #[test]
    fn a_game_that_does_not_score_cannot_be_confirmed() {
        let mut t = table(1);
        t.apply(&phone(2), TableCommand::GameOver { went_out: false }, ms(1))
            .expect("over");
        // Three jokers among the racks of a standard set, and two players out.
        for (seat, text) in [(0, "J J"), (1, "J"), (2, "5"), (3, "9")] {
            t.apply(&phone(seat), rack(text), ms(1)).expect("rack");
        }
        let digest = |t: &LiveTable| t.settling().expect("s").digest(1);
        let confirm = |t: &LiveTable| TableCommand::Confirm {
            game: 1,
            digest: digest(t),
        };
        assert!(matches!(
            t.apply(&phone(0), confirm(&t), ms(2)),
            Err(TableRefusal::Game(ScoreError::TooManyCopiesInGame { .. }))
        ));
        t.apply(&phone(0), rack("0"), ms(3)).expect("rack");
        t.apply(&phone(1), rack("0"), ms(3)).expect("rack");
        assert!(matches!(
            t.apply(&phone(2), confirm(&t), ms(4)),
            Err(TableRefusal::Game(ScoreError::TwoWentOut { .. }))
        ));
        // A tie for the lowest rack needs the winner named.
        t.apply(&phone(0), rack("5"), ms(5)).expect("rack");
        t.apply(&phone(1), rack("5"), ms(5)).expect("rack");
        assert!(matches!(
            t.apply(&phone(2), confirm(&t), ms(6)),
            Err(TableRefusal::Game(ScoreError::Tie { .. }))
        ));
        t.apply(&phone(3), TableCommand::Winner { seat: Some(1) }, ms(7))
            .expect("named");
        let TableDone::GameConfirmed {
            complete: Some(games),
            ..
        } = confirm_all(&mut t, 0..4, ms(8))
        else {
            panic!("the round's only game completes the table");
        };
        let scored = games[0]
            .score(t.players(), t.rules())
            .expect("the kept game scores");
        assert_eq!(scored.points.iter().sum::<i64>(), 0);
        assert_eq!(scored.winner, 1);
        assert_eq!(
            t.apply(&phone(0), TableCommand::Start, ms(10)),
            Err(TableRefusal::Finished)
        );
    }

    #[test]
    fn what_was_kept_comes_back_after_a_restart() {
        let mut t = table(3);
        t.apply(&phone(0), TableCommand::GameOver { went_out: true }, ms(1))
            .expect("over");
        for (seat, text) in [(1, "3"), (2, "4"), (3, "5")] {
            t.apply(&phone(seat), rack(text), ms(1)).expect("rack");
        }
        confirm_all(&mut t, 0..4, ms(2));
        t.apply(&phone(2), TableCommand::GameOver { went_out: true }, ms(3))
            .expect("over");
        t.apply(&Actor::Organiser, TableCommand::Shared(true), ms(3))
            .expect("shared");
        let kept = t.kept().clone();
        let names = ["Ann", "Bo", "Cy", "Di"].map(String::from).to_vec();
        let fresh = LiveTable::new(3, names, Preset::Tournament.rules(), 3).expect("a table");
        let back = fresh.restored(kept.clone());
        assert_eq!(back.kept(), &kept);
        assert_eq!(back.seat_of("device-2"), Some(2));
        assert_eq!(back.timer().current_player(), 1);
        // Another table size's parts are not taken.
        let names = ["Ann", "Bo", "Cy"].map(String::from).to_vec();
        let small = LiveTable::new(3, names, Preset::Tournament.rules(), 3)
            .expect("a table")
            .restored(kept);
        assert!(small.games().is_empty() && small.settling().is_none());
    }
}
