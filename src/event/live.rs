//! A table of a club night while it plays: its clock, the games its players have confirmed,
//! and the game being settled — the pure engine behind the phones of a table.
//!
//! At a club night each table plays [`EventSetup::games`](super::EventSetup::games) games a
//! round. Its players carry their phones: one of them ends their turn on the table's clock, and
//! when a game is over each enters their own rack (tiles or a value) and then **confirms the
//! whole game** as the table entered it. A game counts only when every seat has confirmed it,
//! and a seat can confirm only a game that scores: every rack entered, the racks together
//! within the tile supply, one winner — [`Game::score`] under the table's rules, the same
//! check a sheet and `event result` make, so zero-sum holds by the one formula. Any change to a
//! rack or to the named winner withdraws every confirmation: what each player confirmed is
//! what was kept. When the round's last game is confirmed, [`LiveTable::apply`] hands back the
//! games for the event's own [`Command::Result`](super::Command::Result).
//!
//! Like the rest of the engine it reads no clock: time is a [`Duration`] on the caller's
//! monotonic clock. The clock is the project's [`Timer`] (turn length, warning and chess clock
//! from the event's rules); one press ends one turn ([`EndTurnGuard`]), and a phone may end
//! only its own turn. Game `g` (0-based) of a round is started by seat `g mod n`, so the start
//! goes round the table; the first game is started by the seating's first seat.
//!
//! What is kept across a restart of the host is [`TableGames`]: the confirmed games and the
//! game being settled (racks and confirmations). The clock is not kept: a restarted host
//! shows the table stopped, at the seat whose turn it was not known, and the table starts it
//! again.
//!
//! ```
//! use std::time::Duration;
//! use rummikub_companion::event::live::{LiveTable, TableCommand, TableDone};
//! use rummikub_companion::rules::Preset;
//! use rummikub_companion::score::Hand;
//!
//! let s = Duration::from_secs;
//! let names = ["Ann", "Bo", "Cy"].map(String::from).to_vec();
//! let mut table = LiveTable::new(1, names, Preset::Korean.rules(), 1).unwrap();
//! table.apply(TableCommand::Start, s(0)).unwrap();
//! assert_eq!(table.apply(TableCommand::EndTurn { seat: 0 }, s(5)), Ok(TableDone::TurnEnded { next: 1 }));
//! for (seat, value) in [(0, 0), (1, 12), (2, 30)] {
//!     let hand = Hand::of_value(value);
//!     table.apply(TableCommand::Rack { seat, hand }, s(60)).unwrap();
//! }
//! table.apply(TableCommand::Confirm { seat: 0 }, s(61)).unwrap();
//! table.apply(TableCommand::Confirm { seat: 1 }, s(62)).unwrap();
//! let Ok(TableDone::GameConfirmed { complete: Some(games), .. }) =
//!     table.apply(TableCommand::Confirm { seat: 2 }, s(63)) else { panic!() };
//! assert_eq!(games.len(), 1);
//! ```

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::rules::RuleSet;
use crate::score::{Game, GameScore, Hand, Players, ScoreError};
use crate::timer::{EndTurnGuard, Phase, Timer, TimerError, TimerSettings};

/// What a table keeps across a restart of the host: its confirmed games and the game being
/// settled.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableGames {
    /// The games every seat confirmed, in order.
    pub games: Vec<Game>,
    /// The game being settled, once a rack was entered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settling: Option<Settling>,
}

/// What the host of a club night keeps of the current round's tables at play (the store writes
/// it beside the event, `events/<id>.live.json`): each table's confirmed games and the game
/// being settled, each table's phone key, and when the round's clock began.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TablesAtPlay {
    /// The round these tables play (kept tables of an earlier round are not taken).
    pub round: u32,
    /// Each table's kept part, by table number.
    #[serde(default)]
    pub tables: std::collections::BTreeMap<u32, TableGames>,
    /// Each table's key: its QR code carries it, and a phone's request must.
    #[serde(default)]
    pub keys: std::collections::BTreeMap<u32, String>,
    /// When the round's clock began (wall clock), if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_started: Option<chrono::DateTime<chrono::Utc>>,
}

/// The game being settled: each seat's rack as entered, the winner if named, who confirmed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settling {
    /// Each seat's rack, `None` until entered.
    pub hands: Vec<Option<Hand>>,
    /// The winner named by the table (only needed when the pool ran out in a tie).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<usize>,
    /// Which seats confirmed the game as it stands.
    pub confirmed: Vec<bool>,
}

impl Settling {
    fn new(seats: usize) -> Settling {
        Settling {
            hands: vec![None; seats],
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

    fn withdraw(&mut self) {
        self.confirmed.iter_mut().for_each(|c| *c = false);
    }
}

/// Something a phone (or the host) asks of a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "action")]
pub enum TableCommand {
    /// Starts the clock (the seat whose turn it is plays).
    Start,
    /// `seat` ends its turn; only the seat whose turn it is may.
    EndTurn {
        /// The phone's seat.
        seat: usize,
    },
    /// Pauses the clock.
    Pause,
    /// Resumes the clock.
    Resume,
    /// `seat`'s rack at the game's end. The first rack entered ends the game's clock.
    Rack {
        /// Whose rack.
        seat: usize,
        /// What was left.
        hand: Hand,
    },
    /// The winner named by the table (a tie for the lowest rack when the pool ran out), or
    /// none.
    Winner {
        /// The seat, or `None` to take the name back.
        seat: Option<usize>,
    },
    /// `seat` confirms the game as entered.
    Confirm {
        /// Who confirms.
        seat: usize,
    },
}

/// What a command did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableDone {
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
    /// A rack was entered (every confirmation was withdrawn).
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
        matches!(
            self,
            TableDone::RackEntered
                | TableDone::WinnerNamed
                | TableDone::Confirmed { .. }
                | TableDone::GameConfirmed { .. }
        )
    }
}

/// Why a command was refused (nothing changed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableRefusal {
    /// The table has no such seat.
    NoSuchSeat(usize),
    /// Another seat's turn.
    NotYourTurn {
        /// Whose turn it is.
        turn: usize,
    },
    /// A second press within [`crate::timer::END_TURN_GUARD`] of the first.
    Guarded,
    /// The clock is not running.
    NotRunning,
    /// The clock runs already.
    AlreadyRunning,
    /// Racks are being entered: the game's clock is over.
    Settling,
    /// Nothing to confirm or name: no rack was entered yet.
    NotSettling,
    /// Racks still to enter before anyone can confirm.
    Missing {
        /// Their seats.
        seats: Vec<usize>,
    },
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
    /// A table of `names` (seat order, the first starts) playing `games` games under `rules`.
    pub fn new(
        number: u32,
        names: Vec<String>,
        rules: RuleSet,
        games: u32,
    ) -> Result<LiveTable, ScoreError> {
        let players = Players::new(names.clone())?;
        let timer = Timer::new(names, TimerSettings::from_rules(&rules))
            .map_err(|_| ScoreError::PlayerCount(players.len()))?;
        Ok(LiveTable {
            number,
            players,
            rules,
            games_per_round: games,
            timer,
            guard: EndTurnGuard::default(),
            kept: TableGames::default(),
        })
    }

    /// The same table with what a host kept ([`TableGames`]) before it restarted; games beyond
    /// the round's count and hands of another table size are not taken.
    pub fn restored(mut self, kept: TableGames) -> LiveTable {
        let seats = self.players.len();
        let fits = |s: &Settling| s.hands.len() == seats && s.confirmed.len() == seats;
        let mut games = kept.games;
        games.retain(|g| g.hands.len() == seats);
        games.truncate(self.games_per_round as usize);
        self.kept = TableGames {
            games,
            settling: kept.settling.filter(fits),
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

    /// The seat that starts the next game.
    fn starter(&self) -> usize {
        self.kept.games.len() % self.players.len()
    }

    fn seat(&self, seat: usize) -> Result<usize, TableRefusal> {
        if seat < self.players.len() {
            Ok(seat)
        } else {
            Err(TableRefusal::NoSuchSeat(seat))
        }
    }

    /// Applies one command at `now`: all of it, or nothing and the reason.
    pub fn apply(
        &mut self,
        command: TableCommand,
        now: Duration,
    ) -> Result<TableDone, TableRefusal> {
        // Nobody sounds the host's alarms (each phone counts down itself): drop them.
        let _ = self.timer.poll(now);
        if self.is_finished() {
            return Err(TableRefusal::Finished);
        }
        let clock_refused = |e: TimerError| match e {
            TimerError::NotRunning => TableRefusal::NotRunning,
            _ => TableRefusal::AlreadyRunning,
        };
        match command {
            TableCommand::Start => {
                if self.kept.settling.is_some() {
                    return Err(TableRefusal::Settling);
                }
                match self.timer.phase() {
                    Phase::Running => Err(TableRefusal::AlreadyRunning),
                    Phase::Paused => self
                        .timer
                        .resume(now)
                        .map(|()| TableDone::Resumed)
                        .map_err(clock_refused),
                    _ => self
                        .timer
                        .start(now)
                        .map(|()| TableDone::Started)
                        .map_err(clock_refused),
                }
            }
            TableCommand::EndTurn { seat } => {
                let seat = self.seat(seat)?;
                if self.kept.settling.is_some() {
                    return Err(TableRefusal::Settling);
                }
                if !self.is_running() {
                    return Err(TableRefusal::NotRunning);
                }
                let turn = self.timer.current_player();
                if seat != turn {
                    return Err(TableRefusal::NotYourTurn { turn });
                }
                if !self.guard.allow(now) {
                    return Err(TableRefusal::Guarded);
                }
                self.timer
                    .end_turn(now)
                    .map(|_| TableDone::TurnEnded {
                        next: self.timer.current_player(),
                    })
                    .map_err(clock_refused)
            }
            TableCommand::Pause => {
                if !self.is_running() {
                    return Err(TableRefusal::NotRunning);
                }
                self.timer
                    .pause(now)
                    .map(|()| TableDone::Paused)
                    .map_err(clock_refused)
            }
            TableCommand::Resume => {
                if self.timer.phase() != Phase::Paused {
                    return Err(TableRefusal::NotRunning);
                }
                self.timer
                    .resume(now)
                    .map(|()| TableDone::Resumed)
                    .map_err(clock_refused)
            }
            TableCommand::Rack { seat, hand } => {
                let seat = self.seat(seat)?;
                if self.is_running() {
                    // The game is over: its clock stops where it is.
                    let _ = self.timer.pause(now);
                }
                let seats = self.players.len();
                let settling = self
                    .kept
                    .settling
                    .get_or_insert_with(|| Settling::new(seats));
                settling.hands[seat] = Some(hand);
                settling.withdraw();
                Ok(TableDone::RackEntered)
            }
            TableCommand::Winner { seat } => {
                if let Some(s) = seat {
                    self.seat(s)?;
                }
                let settling = self
                    .kept
                    .settling
                    .as_mut()
                    .ok_or(TableRefusal::NotSettling)?;
                settling.winner = seat;
                settling.withdraw();
                Ok(TableDone::WinnerNamed)
            }
            TableCommand::Confirm { seat } => {
                let seat = self.seat(seat)?;
                let settling = self
                    .kept
                    .settling
                    .as_ref()
                    .ok_or(TableRefusal::NotSettling)?;
                let missing = settling.missing();
                let Some(game) = settling.game() else {
                    return Err(TableRefusal::Missing { seats: missing });
                };
                game.score(&self.players, &self.rules)
                    .map_err(TableRefusal::Game)?;
                let settling = self
                    .kept
                    .settling
                    .as_mut()
                    .ok_or(TableRefusal::NotSettling)?;
                settling.confirmed[seat] = true;
                let waiting: Vec<usize> = (0..settling.confirmed.len())
                    .filter(|&s| !settling.confirmed[s])
                    .collect();
                if !waiting.is_empty() {
                    return Ok(TableDone::Confirmed { waiting });
                }
                self.kept.settling = None;
                self.kept.games.push(game);
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

    fn table(games: u32) -> LiveTable {
        let names = ["Ann", "Bo", "Cy", "Di"].map(String::from).to_vec();
        LiveTable::new(3, names, Preset::Tournament.rules(), games).expect("a table")
    }

    fn rack(seat: usize, text: &str) -> TableCommand {
        let hand = if text.chars().all(|c| c.is_ascii_digit()) {
            Hand::of_value(text.parse().expect("a value"))
        } else {
            Hand::of_tiles(parse_rack(text).expect("tiles"))
        };
        TableCommand::Rack { seat, hand }
    }

    #[test]
    fn only_the_seat_whose_turn_it_is_ends_it_and_one_press_ends_one_turn() {
        let mut t = table(1);
        assert_eq!(
            t.apply(TableCommand::EndTurn { seat: 0 }, ms(0)),
            Err(TableRefusal::NotRunning)
        );
        t.apply(TableCommand::Start, ms(0)).expect("starts");
        assert_eq!(
            t.apply(TableCommand::EndTurn { seat: 2 }, ms(100)),
            Err(TableRefusal::NotYourTurn { turn: 0 })
        );
        assert_eq!(
            t.apply(TableCommand::EndTurn { seat: 0 }, ms(1_000)),
            Ok(TableDone::TurnEnded { next: 1 })
        );
        assert_eq!(
            t.apply(TableCommand::EndTurn { seat: 1 }, ms(1_100)),
            Err(TableRefusal::Guarded)
        );
        assert_eq!(
            t.apply(TableCommand::EndTurn { seat: 1 }, ms(2_000)),
            Ok(TableDone::TurnEnded { next: 2 })
        );
        assert_eq!(
            t.apply(TableCommand::EndTurn { seat: 9 }, ms(3_000)),
            Err(TableRefusal::NoSuchSeat(9))
        );
    }

    #[test]
    fn a_game_counts_only_when_every_seat_confirmed_it_and_a_change_withdraws_confirmations() {
        let mut t = table(2);
        t.apply(TableCommand::Start, ms(0)).expect("starts");
        t.apply(rack(0, "0"), ms(10)).expect("rack");
        assert!(!t.is_running(), "the first rack stops the game's clock");
        assert_eq!(
            t.apply(TableCommand::Confirm { seat: 0 }, ms(11)),
            Err(TableRefusal::Missing {
                seats: vec![1, 2, 3]
            })
        );
        for (seat, text) in [(1, "R5 J"), (2, "12"), (3, "K13 B13")] {
            t.apply(rack(seat, text), ms(20)).expect("rack");
        }
        for seat in 0..3 {
            assert!(matches!(
                t.apply(TableCommand::Confirm { seat }, ms(30)),
                Ok(TableDone::Confirmed { .. })
            ));
        }
        // Bo corrects the rack: everyone confirms again.
        t.apply(rack(1, "R5"), ms(40)).expect("rack");
        assert_eq!(
            t.apply(TableCommand::Confirm { seat: 3 }, ms(41)),
            Ok(TableDone::Confirmed {
                waiting: vec![0, 1, 2]
            })
        );
        for seat in 0..2 {
            t.apply(TableCommand::Confirm { seat }, ms(42))
                .expect("confirms");
        }
        assert_eq!(
            t.apply(TableCommand::Confirm { seat: 2 }, ms(43)),
            Ok(TableDone::GameConfirmed {
                game: 1,
                complete: None
            })
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
    }

    #[test]
    fn a_game_that_does_not_score_cannot_be_confirmed() {
        let mut t = table(1);
        // Three jokers among the racks of a standard set, and two players out.
        for (seat, text) in [(0, "J J"), (1, "J"), (2, "5"), (3, "9")] {
            t.apply(rack(seat, text), ms(1)).expect("rack");
        }
        assert!(matches!(
            t.apply(TableCommand::Confirm { seat: 0 }, ms(2)),
            Err(TableRefusal::Game(ScoreError::TooManyCopiesInGame { .. }))
        ));
        t.apply(rack(0, "0"), ms(3)).expect("rack");
        t.apply(rack(1, "0"), ms(3)).expect("rack");
        assert!(matches!(
            t.apply(TableCommand::Confirm { seat: 2 }, ms(4)),
            Err(TableRefusal::Game(ScoreError::TwoWentOut { .. }))
        ));
        // A tie for the lowest rack needs the winner named.
        t.apply(rack(0, "5"), ms(5)).expect("rack");
        t.apply(rack(1, "5"), ms(5)).expect("rack");
        assert!(matches!(
            t.apply(TableCommand::Confirm { seat: 2 }, ms(6)),
            Err(TableRefusal::Game(ScoreError::Tie { .. }))
        ));
        t.apply(TableCommand::Winner { seat: Some(1) }, ms(7))
            .expect("named");
        for seat in 0..3 {
            t.apply(TableCommand::Confirm { seat }, ms(8))
                .expect("confirms");
        }
        let Ok(TableDone::GameConfirmed {
            complete: Some(games),
            ..
        }) = t.apply(TableCommand::Confirm { seat: 3 }, ms(9))
        else {
            panic!("the round's only game completes the table");
        };
        let scored = games[0]
            .score(t.players(), t.rules())
            .expect("the kept game scores");
        assert_eq!(scored.points.iter().sum::<i64>(), 0);
        assert_eq!(scored.winner, 1);
        assert_eq!(
            t.apply(TableCommand::Start, ms(10)),
            Err(TableRefusal::Finished)
        );
    }

    #[test]
    fn what_was_kept_comes_back_after_a_restart() {
        let mut t = table(3);
        for (seat, text) in [(0, "0"), (1, "3"), (2, "4"), (3, "5")] {
            t.apply(rack(seat, text), ms(1)).expect("rack");
        }
        for seat in 0..4 {
            t.apply(TableCommand::Confirm { seat }, ms(2))
                .expect("confirms");
        }
        t.apply(rack(2, "0"), ms(3)).expect("rack");
        assert!(matches!(
            t.apply(TableCommand::Confirm { seat: 2 }, ms(3)),
            Err(TableRefusal::Missing { .. })
        ));
        let kept = t.kept().clone();
        let back = table(3).restored(kept.clone());
        assert_eq!(back.kept(), &kept);
        assert_eq!(back.timer().current_player(), 1);
        // Another table size's hands are not taken.
        let names = ["Ann", "Bo", "Cy"].map(String::from).to_vec();
        let small = LiveTable::new(3, names, Preset::Tournament.rules(), 3)
            .expect("a table")
            .restored(kept);
        assert!(small.games().is_empty() && small.settling().is_none());
    }
}
