//! The turn timer as a pure state machine: a chess clock for 2–6 players.
//!
//! At a real table the timer must never drift, never beep twice and never miss a beep, even
//! when the window is covered and nobody looks at it for a minute. That is only testable if the
//! engine never reads a clock: every method that depends on time takes `now`, a
//! [`Duration`] since an arbitrary monotonic epoch chosen by the caller. The adapter
//! (`runtime`) feeds it the real clock; tests feed it exact, jittered or absurd times.
//!
//! A turn's alerts are computed once, when the turn starts, as a fixed schedule of *running*
//! times (pauses excluded): [`Alert::Warning`] when the warning time is reached, one
//! [`Alert::Tick`] per second in the last seconds, [`Alert::TimeUp`] at zero. [`Timer::poll`]
//! hands out every entry whose running time has been reached, in schedule order, each exactly
//! once per turn, stamped with the instant it became due — however late or irregular the polls
//! are. The caller decides what a late alert is still worth (a stale tick need not sound).
//!
//! Changing the settings never disturbs the turn in progress: each turn keeps the settings it
//! started with, and new settings apply from the next turn.
//!
//! # Chess-clock mode
//!
//! In [`TimerMode::ChessClock`] each player has a time bank instead of a fixed turn length, as
//! on tournament clocks: their running turn consumes it, and ending a turn in time adds the
//! increment (Fischer). A turn's schedule is then computed from the bank at its start: the
//! warning at the warning time left *in the bank*, ticks in its last seconds, and
//! [`Alert::TimeUp`] when it reaches zero — the player is **flagged**. The engine does not
//! end the turn or remove the player (the table decides): the turn runs on as overtime, as a
//! per-turn time-up does. The rules are kept simple and exact:
//!
//! - A flagged bank stays at zero: a turn ended at or after the flag adds no increment, and the
//!   overtime is not carried as debt. The player stays [flagged](Timer::is_flagged) until a
//!   reset; their later turns start out of time ([`Timer::is_timed_out`]) with no new alarm,
//!   since their bank does not *reach* zero again.
//! - A flag carries no draw [`Penalty`] (the rules have none; the table decides).
//! - [`Timer::reset`] fills every bank.
//! - A game is played in one mode: [`Timer::set_mode`] applies at once when no game is under
//!   way, otherwise the mode and bank size apply from the next [`reset`](Timer::reset); a new
//!   increment applies from the next end of turn.
//!
//! ```
//! use std::time::Duration;
//! use rummikub_companion::timer::{Alert, ChessClock, Timer, TimerMode, TimerSettings};
//!
//! let s = Duration::from_secs;
//! let mut timer = Timer::new(["Ann", "Bo"], TimerSettings::default()).unwrap();
//! timer.set_mode(TimerMode::ChessClock(ChessClock { bank: s(60), increment: s(5) }));
//! timer.start(s(0)).unwrap();
//! timer.end_turn(s(20)).unwrap(); // Ann used 20 s and gets 5 s back
//! assert_eq!(timer.bank(0, s(20)), Some(s(45)));
//! assert_eq!(timer.remaining(s(30)), s(50)); // Bo's bank, running
//! let events = timer.poll(s(90)); // Bo's bank is empty at 80 s
//! assert_eq!(events.last().map(|e| (e.alert, e.due)), Some((Alert::TimeUp, s(80))));
//! assert_eq!(timer.flagged(s(90)), [1]);
//! assert_eq!(timer.penalty(s(90)), None); // the table decides
//! ```
//!
//! # Example
//! ```
//! use std::time::Duration;
//! use rummikub_companion::timer::{Alert, Timer, TimerSettings};
//!
//! let s = Duration::from_secs;
//! let mut timer = Timer::new(["Ann", "Bo"], TimerSettings::default()).unwrap();
//! timer.start(s(100)).unwrap(); // a turn of 60 s with a warning at 10 s left
//! assert_eq!(timer.remaining(s(130)), s(30));
//! assert_eq!(timer.next_event_at(), Some(s(150)));
//! let events = timer.poll(s(161)); // a late poll still delivers both, in order
//! let kinds: Vec<Alert> = events.iter().map(|e| e.alert).collect();
//! assert_eq!(kinds, [Alert::Warning, Alert::TimeUp]);
//! assert_eq!(events[1].due, s(160));
//! assert!(timer.penalty(s(161)).is_some()); // waits for the player to draw and end the turn
//! let ended = timer.end_turn(s(162)).unwrap();
//! assert!(ended.timed_out);
//! assert_eq!(timer.current_player(), 1); // Bo's turn started at once
//! ```

use std::time::Duration;

use crate::rules::{ClockMode, RuleSet, SeatProblem, check_seats};

pub use crate::rules::{MAX_PLAYERS, MIN_PLAYERS};

/// An alert delivered more than this after it was due is stale: a tick that late need not sound.
pub const STALE_AFTER: Duration = Duration::from_millis(500);

/// A second end of turn within this time of the last one is the same gesture (a double-click,
/// a bounced key, two phones tapping together), not a new turn: see [`EndTurnGuard`].
pub const END_TURN_GUARD: Duration = Duration::from_millis(400);

/// The timer values of the rules, as durations.
///
/// The engine accepts any values (a 3-second turn is fine); the allowed ranges are the
/// business of [`RuleSet::validate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimerSettings {
    /// Length of a turn.
    pub turn: Duration,
    /// Warn when this much time is left (zero = no warning).
    pub warning: Duration,
    /// Tick each second in the last this many seconds (0 = no ticks).
    pub ticks: u32,
}

impl TimerSettings {
    /// The timer values of `rules`.
    ///
    /// # Example
    /// ```
    /// use std::time::Duration;
    /// use rummikub_companion::rules::Preset;
    /// use rummikub_companion::timer::TimerSettings;
    /// let s = TimerSettings::from_rules(&Preset::Tournament.rules());
    /// assert_eq!((s.turn, s.warning, s.ticks), (Duration::from_secs(40), Duration::from_secs(10), 0));
    /// ```
    pub fn from_rules(rules: &RuleSet) -> TimerSettings {
        TimerSettings {
            turn: Duration::from_secs(rules.turn_seconds.into()),
            warning: Duration::from_secs(rules.warning_seconds.into()),
            ticks: rules.tick_seconds,
        }
    }

    /// The alerts of a turn of `length` as (running time, alert), in delivery order. A
    /// warning or tick that would fall at or before the start of the turn is left out;
    /// `TimeUp` is last, when `time_up` says so.
    fn schedule(&self, length: Duration, time_up: bool) -> Vec<(Duration, Alert)> {
        let mut schedule = Vec::new();
        if !self.warning.is_zero() && self.warning < length {
            schedule.push((length - self.warning, Alert::Warning));
        }
        for n in (1..=self.ticks).rev() {
            let left = Duration::from_secs(n.into());
            if left < length {
                schedule.push((length - left, Alert::Tick(n)));
            }
        }
        if time_up {
            schedule.push((length, Alert::TimeUp));
        }
        schedule.sort_by_key(|&(at, alert)| (at, alert.rank()));
        schedule
    }
}

impl Default for TimerSettings {
    /// 60-second turns with a warning at 10 s left and no ticks.
    fn default() -> Self {
        TimerSettings::from_rules(&RuleSet::default())
    }
}

impl From<&RuleSet> for TimerSettings {
    fn from(rules: &RuleSet) -> Self {
        TimerSettings::from_rules(rules)
    }
}

/// A chess clock's values: each player's time bank and the Fischer increment.
///
/// The engine accepts any values; the allowed ranges are the business of
/// [`RuleSet::validate`].
///
/// # Example
/// ```
/// use std::time::Duration;
/// use rummikub_companion::timer::ChessClock;
/// let clock = ChessClock::default();
/// assert_eq!((clock.bank, clock.increment), (Duration::from_secs(600), Duration::from_secs(10)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChessClock {
    /// Each player's time at the start of a game.
    pub bank: Duration,
    /// Added to a player's bank when they end a turn before it is empty.
    pub increment: Duration,
}

impl ChessClock {
    /// The chess-clock values of `rules` (whatever their [`ClockMode`]).
    pub fn from_rules(rules: &RuleSet) -> ChessClock {
        ChessClock {
            bank: Duration::from_secs(u64::from(rules.bank_minutes) * 60),
            increment: Duration::from_secs(rules.increment_seconds.into()),
        }
    }
}

impl Default for ChessClock {
    /// A 10-minute bank with a 10-second increment.
    fn default() -> Self {
        ChessClock::from_rules(&RuleSet::default())
    }
}

/// How a turn's time is measured: see the [module docs](self#chess-clock-mode).
///
/// # Example
/// ```
/// use rummikub_companion::rules::{ClockMode, Preset, RuleSet};
/// use rummikub_companion::timer::{ChessClock, TimerMode};
/// assert_eq!(TimerMode::from_rules(&Preset::Korean.rules()), TimerMode::PerTurn);
/// let rules = RuleSet { clock_mode: ClockMode::ChessClock, ..RuleSet::default() };
/// assert_eq!(TimerMode::from_rules(&rules), TimerMode::ChessClock(ChessClock::default()));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TimerMode {
    /// Every turn has the turn length of the [`TimerSettings`].
    #[default]
    PerTurn,
    /// Each player has a time bank that their turns consume.
    ChessClock(ChessClock),
}

impl TimerMode {
    /// The mode of `rules`.
    pub fn from_rules(rules: &RuleSet) -> TimerMode {
        match rules.clock_mode {
            ClockMode::PerTurn => TimerMode::PerTurn,
            ClockMode::ChessClock => TimerMode::ChessClock(ChessClock::from_rules(rules)),
        }
    }

    /// The chess clock's values, in chess-clock mode.
    pub fn chess_clock(self) -> Option<ChessClock> {
        match self {
            TimerMode::PerTurn => None,
            TimerMode::ChessClock(clock) => Some(clock),
        }
    }

    /// A full bank: the chess clock's bank, zero in per-turn mode (no bank is used).
    fn full_bank(self) -> Duration {
        self.chess_clock().map_or(Duration::ZERO, |c| c.bank)
    }
}

impl From<&RuleSet> for TimerMode {
    fn from(rules: &RuleSet) -> Self {
        TimerMode::from_rules(rules)
    }
}

/// An alert of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Alert {
    /// The warning time is reached (10 s left by default).
    Warning,
    /// This many whole seconds are left (only when ticks are on).
    Tick(u32),
    /// The turn's time is up (chess clock: the bank is empty, the player is flagged).
    TimeUp,
}

impl Alert {
    /// Order among alerts due at the same instant.
    fn rank(self) -> u8 {
        match self {
            Alert::Warning => 0,
            Alert::Tick(_) => 1,
            Alert::TimeUp => 2,
        }
    }
}

/// An alert as delivered by [`Timer::poll`]: which turn and player it belongs to, and when it
/// became due.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimerEvent {
    /// What happened.
    pub alert: Alert,
    /// The turn it belongs to (see [`Timer::turn_id`]).
    pub turn: u64,
    /// The seat of the player whose turn it is.
    pub player: usize,
    /// When it became due, on the caller's clock.
    pub due: Duration,
    /// The turn's running time (pauses excluded) at which it is due.
    pub running: Duration,
}

impl TimerEvent {
    /// How long after its due time the event is seen at `now`.
    pub fn lateness(&self, now: Duration) -> Duration {
        now.saturating_sub(self.due)
    }

    /// Whether the event is more than [`STALE_AFTER`] late at `now`.
    ///
    /// # Example
    /// ```
    /// use std::time::Duration;
    /// use rummikub_companion::timer::{Alert, TimerEvent};
    /// let ms = Duration::from_millis;
    /// let tick = TimerEvent { alert: Alert::Tick(3), turn: 1, player: 0, due: ms(57_000), running: ms(57_000) };
    /// assert!(!tick.is_stale(ms(57_400)));
    /// assert!(tick.is_stale(ms(57_600)));
    /// ```
    pub fn is_stale(&self, now: Duration) -> bool {
        self.lateness(now) > STALE_AFTER
    }
}

/// What the rules ask of a player whose time ran out (`shared/RULES.md`, turn timer): draw
/// `draw` tiles; if they were rearranging the table and it is not valid, restore it, take back
/// their own tiles and draw `draw_if_table_invalid` instead. Data, not text: the UI words it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Penalty {
    /// Tiles to draw.
    pub draw: u8,
    /// Tiles to draw when the table had to be restored.
    pub draw_if_table_invalid: u8,
}

impl Penalty {
    /// The penalty of the rules we implement: draw 1, or restore and draw 3.
    pub const RULES: Penalty = Penalty {
        draw: 1,
        draw_if_table_invalid: 3,
    };
}

/// Whether a turn is under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// No turn: before the first start or after a reset.
    Idle,
    /// The current player's clock runs (also after time-up, until the turn is ended).
    Running,
    /// The current player's clock is stopped.
    Paused,
}

/// One player's statistics over the finished turns of this game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PlayerStats {
    /// Finished turns.
    pub turns: u32,
    /// Running time of those turns, pauses excluded, overtime included.
    pub total: Duration,
    /// Turns that ran out of time (chess clock: also the later turns of a flagged player).
    pub timeouts: u32,
}

impl PlayerStats {
    /// Average turn time, if the player has finished a turn.
    ///
    /// # Example
    /// ```
    /// use std::time::Duration;
    /// use rummikub_companion::timer::PlayerStats;
    /// let stats = PlayerStats { turns: 4, total: Duration::from_secs(100), timeouts: 1 };
    /// assert_eq!(stats.average(), Some(Duration::from_secs(25)));
    /// assert_eq!(PlayerStats::default().average(), None);
    /// ```
    pub fn average(&self) -> Option<Duration> {
        (self.turns > 0).then(|| self.total / self.turns)
    }

    fn add(&mut self, end: &TurnEnd) {
        self.turns += 1;
        self.total += end.time;
        self.timeouts += u32::from(end.timed_out);
    }
}

/// What [`Timer::end_turn`] reports about the turn that just ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnEnd {
    /// The seat whose turn ended.
    pub player: usize,
    /// That turn's id.
    pub turn: u64,
    /// Its running time, pauses excluded, overtime included.
    pub time: Duration,
    /// Whether its time ran out (chess clock: the player's bank was empty at its end).
    pub timed_out: bool,
    /// The penalty to remind the player of, when the time ran out (never on a chess clock).
    pub penalty: Option<Penalty>,
    /// The seat whose turn has now started.
    pub next: usize,
}

/// A command that does not apply in the timer's current state, or a bad player list.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimerError {
    /// There is no turn yet (start first).
    #[error("the timer has not been started")]
    NotStarted,
    /// A turn is already under way.
    #[error("a turn is already under way")]
    AlreadyStarted,
    /// The clock is not running.
    #[error("the clock is not running")]
    NotRunning,
    /// The clock is not paused.
    #[error("the clock is not paused")]
    NotPaused,
    /// Only possible before a game (or after a reset).
    #[error("a game is under way (reset first)")]
    TurnInProgress,
    /// Players can only be changed while the clock is stopped.
    #[error("pause the clock to change players")]
    ClockRunning,
    /// The player whose turn it is cannot be removed during their turn.
    #[error("it is {0}'s turn: end it before removing them")]
    CurrentPlayerRemoved(String),
    /// Fewer than 2 or more than 6 players.
    #[error("{0} players: a table has 2 to 6")]
    PlayerCount(usize),
    /// A player name is empty (0-based seat).
    #[error("player {} has no name", .0 + 1)]
    EmptyName(usize),
    /// Two players have the same name.
    #[error("two players are called \"{0}\"")]
    DuplicateName(String),
    /// No player sits at this (0-based) seat.
    #[error("there is no player {}", .0 + 1)]
    NoSuchPlayer(usize),
}

/// The turn in progress.
#[derive(Clone, Debug)]
struct Turn {
    id: u64,
    player: usize,
    settings: TimerSettings,
    /// Running time until time-up: the turn length, or the bank at the turn's start.
    length: Duration,
    schedule: Vec<(Duration, Alert)>,
    /// Running time before the current running stretch.
    banked: Duration,
    /// When the current running stretch began; `None` while paused.
    since: Option<Duration>,
    /// How many schedule entries have been collected.
    collected: usize,
}

impl Turn {
    /// A running turn of `length`; `time_up` says whether reaching it is an alert.
    fn new(
        id: u64,
        player: usize,
        settings: TimerSettings,
        (length, time_up): (Duration, bool),
        now: Duration,
    ) -> Turn {
        Turn {
            id,
            player,
            settings,
            length,
            schedule: settings.schedule(length, time_up),
            banked: Duration::ZERO,
            since: Some(now),
            collected: 0,
        }
    }

    fn elapsed(&self, now: Duration) -> Duration {
        self.banked + self.since.map_or(Duration::ZERO, |s| now.saturating_sub(s))
    }

    /// The caller's instant at which running time `running` is reached, if the clock runs.
    fn instant_of(&self, running: Duration) -> Option<Duration> {
        self.since.map(|s| s + running.saturating_sub(self.banked))
    }

    /// Moves every schedule entry reached by `now` into `out`, in order.
    fn collect(&mut self, now: Duration, out: &mut Vec<TimerEvent>) {
        let elapsed = self.elapsed(now);
        while let Some(&(running, alert)) = self.schedule.get(self.collected) {
            let Some(due) = self.instant_of(running).filter(|_| running <= elapsed) else {
                break;
            };
            out.push(TimerEvent {
                alert,
                turn: self.id,
                player: self.player,
                due,
                running,
            });
            self.collected += 1;
        }
    }

    fn pause(&mut self, now: Duration) {
        self.banked = self.elapsed(now);
        self.since = None;
    }

    fn timed_out(&self, now: Duration) -> bool {
        self.elapsed(now) >= self.length
    }
}

/// The turn timer for one table: players in seat order, turns passing clockwise.
///
/// See the [module docs](self) for the time model and an example.
#[derive(Clone, Debug)]
pub struct Timer {
    names: Vec<String>,
    stats: Vec<PlayerStats>,
    settings: TimerSettings,
    /// The mode of the next game.
    mode: TimerMode,
    /// The mode of this game.
    game: TimerMode,
    /// Chess clock: each seat's bank; for the player whose turn is under way, the bank at the
    /// start of that turn.
    banks: Vec<Duration>,
    current: usize,
    turn: Option<Turn>,
    outbox: Vec<TimerEvent>,
    last_id: u64,
}

impl Timer {
    /// A timer for these players (in seat order), not yet started; seat 0 plays first.
    pub fn new<I, S>(names: I, settings: TimerSettings) -> Result<Timer, TimerError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let names = checked_names(names)?;
        Ok(Timer {
            stats: vec![PlayerStats::default(); names.len()],
            banks: vec![Duration::ZERO; names.len()],
            names,
            settings,
            mode: TimerMode::PerTurn,
            game: TimerMode::PerTurn,
            current: 0,
            turn: None,
            outbox: Vec::new(),
            last_id: 0,
        })
    }

    /// The players' names in seat order.
    pub fn players(&self) -> &[String] {
        &self.names
    }

    /// Statistics per seat, over the finished turns of this game.
    pub fn stats(&self) -> &[PlayerStats] {
        &self.stats
    }

    /// The settings new turns start with.
    pub fn settings(&self) -> TimerSettings {
        self.settings
    }

    /// The settings of the turn in progress (the new-turn settings when idle).
    pub fn turn_settings(&self) -> TimerSettings {
        self.turn.as_ref().map_or(self.settings, |t| t.settings)
    }

    /// The seat whose turn it is (or who starts, when idle).
    pub fn current_player(&self) -> usize {
        self.current
    }

    /// Whether a turn is under way, and whether its clock runs.
    pub fn phase(&self) -> Phase {
        match &self.turn {
            None => Phase::Idle,
            Some(t) if t.since.is_some() => Phase::Running,
            Some(_) => Phase::Paused,
        }
    }

    /// The id of the turn in progress: unique within this timer, never reused.
    pub fn turn_id(&self) -> Option<u64> {
        self.turn.as_ref().map(|t| t.id)
    }

    /// Running time of the current turn, pauses excluded (zero when idle).
    pub fn elapsed(&self, now: Duration) -> Duration {
        self.turn
            .as_ref()
            .map_or(Duration::ZERO, |t| t.elapsed(now))
    }

    /// Time left in the current turn (the full turn when idle, zero after time-up). On a
    /// chess clock: the current player's bank (see [`bank`](Timer::bank)).
    pub fn remaining(&self, now: Duration) -> Duration {
        self.length().saturating_sub(self.elapsed(now))
    }

    /// Time past the end of the turn (chess clock: past the flag) while waiting for the player
    /// to end it.
    pub fn overtime(&self, now: Duration) -> Duration {
        self.elapsed(now).saturating_sub(self.length())
    }

    /// The mode of the next game (see [`set_mode`](Timer::set_mode)).
    pub fn mode(&self) -> TimerMode {
        self.mode
    }

    /// The mode of the game under way (the next game's when idle): what the clock shows.
    pub fn game_mode(&self) -> TimerMode {
        self.game
    }

    /// Chess clock: the time left in `seat`'s bank at `now` (running down during their turn).
    /// `None` in per-turn mode or for a seat nobody sits at.
    ///
    /// # Example
    /// ```
    /// use std::time::Duration;
    /// use rummikub_companion::timer::{ChessClock, Timer, TimerMode, TimerSettings};
    /// let s = Duration::from_secs;
    /// let mut timer = Timer::new(["Ann", "Bo"], TimerSettings::default()).unwrap();
    /// assert_eq!(timer.bank(0, s(0)), None);
    /// timer.set_mode(TimerMode::ChessClock(ChessClock { bank: s(300), increment: s(0) }));
    /// timer.start(s(0)).unwrap();
    /// assert_eq!(timer.bank(0, s(42)), Some(s(258)));
    /// assert_eq!(timer.bank(1, s(42)), Some(s(300)));
    /// assert_eq!(timer.bank(2, s(42)), None);
    /// ```
    pub fn bank(&self, seat: usize, now: Duration) -> Option<Duration> {
        self.game.chess_clock()?;
        let bank = *self.banks.get(seat)?;
        Some(match &self.turn {
            Some(turn) if turn.player == seat => turn.length.saturating_sub(turn.elapsed(now)),
            _ => bank,
        })
    }

    /// Chess clock: whether `seat`'s bank is empty at `now` (the player is flagged; the table
    /// decides what happens). Always `false` in per-turn mode.
    pub fn is_flagged(&self, seat: usize, now: Duration) -> bool {
        self.bank(seat, now).is_some_and(|bank| bank.is_zero())
    }

    /// Chess clock: the flagged seats at `now`, in seat order (none in per-turn mode).
    ///
    /// # Example
    /// ```
    /// use std::time::Duration;
    /// use rummikub_companion::timer::{ChessClock, Timer, TimerMode, TimerSettings};
    /// let s = Duration::from_secs;
    /// let mut timer = Timer::new(["Ann", "Bo", "Cy"], TimerSettings::default()).unwrap();
    /// timer.set_mode(TimerMode::ChessClock(ChessClock { bank: s(60), increment: s(10) }));
    /// timer.start(s(0)).unwrap();
    /// assert!(timer.flagged(s(59)).is_empty());
    /// assert_eq!(timer.flagged(s(60)), [0]);
    /// let end = timer.end_turn(s(75)).unwrap(); // no increment for a flagged player
    /// assert!(end.timed_out && end.penalty.is_none());
    /// assert_eq!(timer.bank(0, s(75)), Some(s(0)));
    /// assert_eq!(timer.flagged(s(80)), [0]);
    /// ```
    pub fn flagged(&self, now: Duration) -> Vec<usize> {
        (0..self.names.len())
            .filter(|&seat| self.is_flagged(seat, now))
            .collect()
    }

    /// The whole seconds to show: the remaining time rounded up, so `10` appears exactly when
    /// the warning is due and `0` exactly at time-up.
    pub fn display_seconds(&self, now: Duration) -> u64 {
        ceil_secs(self.remaining(now))
    }

    /// Whether the current turn's time has run out (the timer then waits for an end-turn).
    pub fn is_timed_out(&self, now: Duration) -> bool {
        self.turn.as_ref().is_some_and(|t| t.timed_out(now))
    }

    /// Chess clock: the current player's bank was already empty when this turn began (they were
    /// flagged on an earlier turn, so this one opens out of time).
    pub fn turn_began_flagged(&self) -> bool {
        matches!(self.game, TimerMode::ChessClock(_))
            && self.turn.as_ref().is_some_and(|t| t.length.is_zero())
    }

    /// The penalty to remind the current player of, once their time has run out. `None` on a
    /// chess clock: a flag has no draw penalty, the table decides.
    pub fn penalty(&self, now: Duration) -> Option<Penalty> {
        (self.is_timed_out(now) && self.game == TimerMode::PerTurn).then_some(Penalty::RULES)
    }

    /// The events due since the last poll, in order, each exactly once per turn.
    pub fn poll(&mut self, now: Duration) -> Vec<TimerEvent> {
        self.collect(now);
        std::mem::take(&mut self.outbox)
    }

    /// When the next event is due (already past if one is waiting), or `None` when nothing is
    /// scheduled (idle, paused, or after time-up). Sleep until then, then [`poll`](Timer::poll).
    pub fn next_event_at(&self) -> Option<Duration> {
        if let Some(first) = self.outbox.first() {
            return Some(first.due);
        }
        let turn = self.turn.as_ref()?;
        let &(running, _) = turn.schedule.get(turn.collected)?;
        turn.instant_of(running)
    }

    /// When the shown whole seconds next change: [`display_seconds`](Timer::display_seconds)
    /// before time-up, the whole seconds of [`overtime`](Timer::overtime) after it. `None`
    /// while nothing moves (idle or paused). For repainting only as often as needed.
    pub fn next_display_change_at(&self, now: Duration) -> Option<Duration> {
        let turn = self.turn.as_ref()?;
        let elapsed = turn.elapsed(now);
        let length = turn.length;
        let target = if elapsed < length {
            // Remaining r in (k, k+1] shows k+1; it next changes when r reaches k.
            let left = length - elapsed;
            length - Duration::from_secs(ceil_secs(left) - 1)
        } else {
            length + Duration::from_secs((elapsed - length).as_secs() + 1)
        };
        turn.instant_of(target)
    }

    /// Starts the first turn (from idle) for the current player.
    pub fn start(&mut self, now: Duration) -> Result<(), TimerError> {
        if self.turn.is_some() {
            return Err(TimerError::AlreadyStarted);
        }
        self.begin_turn(now);
        Ok(())
    }

    /// Stops the clock of the current turn.
    pub fn pause(&mut self, now: Duration) -> Result<(), TimerError> {
        self.collect(now);
        match &mut self.turn {
            None => Err(TimerError::NotStarted),
            Some(t) if t.since.is_none() => Err(TimerError::NotRunning),
            Some(t) => {
                t.pause(now);
                Ok(())
            }
        }
    }

    /// Restarts the clock of a paused turn.
    pub fn resume(&mut self, now: Duration) -> Result<(), TimerError> {
        match &mut self.turn {
            None => Err(TimerError::NotStarted),
            Some(t) if t.since.is_some() => Err(TimerError::NotPaused),
            Some(t) => {
                t.since = Some(now);
                Ok(())
            }
        }
    }

    /// The one-button control: start when idle, pause when running, resume when paused.
    pub fn toggle(&mut self, now: Duration) -> Result<(), TimerError> {
        match self.phase() {
            Phase::Idle => self.start(now),
            Phase::Running => self.pause(now),
            Phase::Paused => self.resume(now),
        }
    }

    /// Ends the current turn and starts the next player's at once (also from a pause).
    /// Records the turn in the player's statistics.
    pub fn end_turn(&mut self, now: Duration) -> Result<TurnEnd, TimerError> {
        self.collect(now);
        let mut turn = self.turn.take().ok_or(TimerError::NotStarted)?;
        turn.pause(now);
        let timed_out = turn.timed_out(now);
        let next = (turn.player + 1) % self.names.len();
        let end = TurnEnd {
            player: turn.player,
            turn: turn.id,
            time: turn.banked,
            timed_out,
            penalty: (timed_out && self.game == TimerMode::PerTurn).then_some(Penalty::RULES),
            next,
        };
        if let Some(stats) = self.stats.get_mut(turn.player) {
            stats.add(&end);
        }
        if let (Some(clock), Some(bank)) =
            (self.game.chess_clock(), self.banks.get_mut(turn.player))
        {
            // A flagged bank stays empty: no increment, no debt.
            *bank = match turn.length.checked_sub(turn.banked) {
                Some(left) if !left.is_zero() => left + clock.increment,
                _ => Duration::ZERO,
            };
        }
        self.current = next;
        self.begin_turn(now);
        Ok(end)
    }

    /// A new game: no turn, seat 0 to start, statistics cleared, undelivered events dropped.
    /// Players and settings stay. The game is played in the [mode](Timer::mode) set last, and a
    /// chess clock's banks are full again.
    pub fn reset(&mut self) {
        self.turn = None;
        self.outbox.clear();
        self.current = 0;
        self.stats = vec![PlayerStats::default(); self.names.len()];
        self.game = self.mode;
        self.banks = vec![self.game.full_bank(); self.names.len()];
    }

    /// Sets the timer values; the turn in progress keeps its own, new turns use these. On a
    /// chess clock the warning and ticks count down the bank, and the turn length is unused.
    pub fn set_settings(&mut self, settings: TimerSettings) {
        self.settings = settings;
    }

    /// Sets the mode: per turn or a chess clock. When no game is under way (idle) it applies
    /// at once, with full banks. During a game, the game's mode and bank size stay until the
    /// next [`reset`](Timer::reset) (a bank changing size mid-game would be unfair to
    /// someone); if both are chess clocks, the new increment applies from the next end of
    /// turn.
    ///
    /// # Example
    /// ```
    /// use std::time::Duration;
    /// use rummikub_companion::timer::{ChessClock, Timer, TimerMode, TimerSettings};
    /// let s = Duration::from_secs;
    /// let mut timer = Timer::new(["Ann", "Bo"], TimerSettings::default()).unwrap();
    /// let chess = TimerMode::ChessClock(ChessClock { bank: s(600), increment: s(10) });
    /// timer.set_mode(chess);
    /// assert_eq!(timer.remaining(s(0)), s(600)); // idle: Ann's full bank
    /// timer.start(s(0)).unwrap();
    /// timer.set_mode(TimerMode::PerTurn);
    /// assert_eq!(timer.game_mode(), chess); // until the next reset
    /// timer.reset();
    /// assert_eq!(timer.game_mode(), TimerMode::PerTurn);
    /// assert_eq!(timer.remaining(s(0)), s(60));
    /// ```
    pub fn set_mode(&mut self, mode: TimerMode) {
        self.mode = mode;
        if self.turn.is_none() {
            self.game = mode;
            self.banks = vec![mode.full_bank(); self.names.len()];
        } else if let (TimerMode::ChessClock(game), TimerMode::ChessClock(new)) =
            (&mut self.game, mode)
        {
            game.increment = new.increment;
        }
    }

    /// Replaces the players (2–6 distinct non-empty names, in seat order) while the clock is
    /// not running: before a game, or with the clock paused between or during turns. A player
    /// who keeps their name keeps their statistics and chess-clock bank (and the turn in
    /// progress, if it is theirs; the player whose turn it is cannot be removed mid-turn); a
    /// new player starts with a full bank. When idle, seat 0 starts.
    pub fn set_players<I, S>(&mut self, names: I) -> Result<(), TimerError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        if self.phase() == Phase::Running {
            return Err(TimerError::ClockRunning);
        }
        let names = checked_names(names)?;
        let seat_in = |old: usize| names.iter().position(|n| *n == self.names[old]);
        let current = match &self.turn {
            None => 0,
            Some(turn) => seat_in(turn.player)
                .ok_or_else(|| TimerError::CurrentPlayerRemoved(self.names[turn.player].clone()))?,
        };
        self.stats = names
            .iter()
            .map(|n| self.seat_of(n).map(|i| self.stats[i]).unwrap_or_default())
            .collect();
        let full = self.game.full_bank();
        self.banks = names
            .iter()
            .map(|n| self.seat_of(n).map_or(full, |i| self.banks[i]))
            .collect();
        self.names = names;
        self.current = current;
        if let Some(turn) = &mut self.turn {
            turn.player = current;
        }
        Ok(())
    }

    /// Renames one player; allowed at any time.
    pub fn rename_player(&mut self, seat: usize, name: &str) -> Result<(), TimerError> {
        if seat >= self.names.len() {
            return Err(TimerError::NoSuchPlayer(seat));
        }
        let mut names = self.names.clone();
        names[seat] = name.to_string();
        self.names = checked_names(names)?;
        Ok(())
    }

    /// Chooses who starts, when no turn is under way.
    pub fn set_current_player(&mut self, seat: usize) -> Result<(), TimerError> {
        if self.turn.is_some() {
            return Err(TimerError::TurnInProgress);
        }
        if seat >= self.names.len() {
            return Err(TimerError::NoSuchPlayer(seat));
        }
        self.current = seat;
        Ok(())
    }

    /// Running time until time-up: the turn's length, or what a turn starting now would have.
    fn length(&self) -> Duration {
        match (&self.turn, self.game) {
            (Some(turn), _) => turn.length,
            (None, TimerMode::PerTurn) => self.settings.turn,
            (None, TimerMode::ChessClock(_)) => {
                self.banks.get(self.current).copied().unwrap_or_default()
            }
        }
    }

    fn seat_of(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    fn begin_turn(&mut self, now: Duration) {
        self.last_id += 1;
        self.turn = Some(self.new_turn(now));
    }

    /// A turn for the current player with the last id, running from `now`.
    fn new_turn(&self, now: Duration) -> Turn {
        let length = match self.game {
            TimerMode::PerTurn => (self.settings.turn, true),
            // An empty bank does not reach zero again: no second alarm for a flagged player.
            TimerMode::ChessClock(_) => {
                let bank = self.banks.get(self.current).copied().unwrap_or_default();
                (bank, !bank.is_zero())
            }
        };
        Turn::new(self.last_id, self.current, self.settings, length, now)
    }

    fn collect(&mut self, now: Duration) {
        if let Some(turn) = &mut self.turn {
            turn.collect(now, &mut self.outbox);
        }
    }
}

/// One press, one turn: lets an end of turn through only when the last one let through is at
/// least [`END_TURN_GUARD`] ago. Every way of ending a turn (keys, clicks, phones) asks the same
/// guard, so a double-click or two taps in quick succession end one turn, not two.
///
/// # Example
/// ```
/// use std::time::Duration;
/// use rummikub_companion::timer::EndTurnGuard;
/// let ms = Duration::from_millis;
/// let mut guard = EndTurnGuard::default();
/// assert!(guard.allow(ms(1_000)));
/// assert!(!guard.allow(ms(1_250))); // the second click of a double-click
/// assert!(guard.allow(ms(1_700)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EndTurnGuard {
    last: Option<Duration>,
}

impl EndTurnGuard {
    /// Whether an end of turn asked for at `now` is a new gesture; if so, remembers it.
    pub fn allow(&mut self, now: Duration) -> bool {
        let fresh = self
            .last
            .is_none_or(|last| now.saturating_sub(last) >= END_TURN_GUARD || now < last);
        if fresh {
            self.last = Some(now);
        }
        fresh
    }
}

/// Who presses a table's button: the table itself (a key, a click, the clock on the laptop,
/// whoever sits there), or a seat's own phone naming the turn it saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presser {
    /// The table's own button.
    Table,
    /// The phone of `seat`, which saw turn `turn`; with `anyone` (the table lets anyone end a
    /// turn) it may end another seat's turn.
    Seat {
        /// The phone's seat.
        seat: usize,
        /// The turn the phone saw ([`Timer::turn_id`]).
        turn: u64,
        /// Anyone at the table may end a turn.
        anyone: bool,
    },
}

/// What a press did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pressed {
    /// The first turn started.
    Started,
    /// A turn ended; the next one runs.
    Ended(TurnEnd),
}

/// Why a press did nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PressRefusal {
    /// Part of the gesture before (within [`END_TURN_GUARD`]).
    Guarded,
    /// A phone's press before the first turn.
    NotStarted,
    /// A phone's press for a turn that has ended already.
    StaleTurn,
    /// A phone's press on another seat's turn.
    NotYourTurn,
}

impl EndTurnGuard {
    /// A table's one button, pressed by `by` at `now`: the first press starts the first turn,
    /// every later one ends the turn under way (also from a pause) — at most once a gesture, and
    /// from a phone only the turn it saw, its own unless the table lets anyone end it. The
    /// laptop's evening and every club table press through this.
    ///
    /// ```
    /// use std::time::Duration;
    /// use rummikub_companion::timer::{EndTurnGuard, Pressed, PressRefusal, Presser, Timer, TimerSettings};
    /// let ms = Duration::from_millis;
    /// let mut timer = Timer::new(["Ann", "Bo"], TimerSettings::default()).unwrap();
    /// let mut guard = EndTurnGuard::default();
    /// assert_eq!(guard.press(&mut timer, ms(0), Presser::Table), Ok(Pressed::Started));
    /// let turn = timer.turn_id().unwrap();
    /// let bo = Presser::Seat { seat: 1, turn, anyone: false };
    /// assert_eq!(guard.press(&mut timer, ms(900), bo), Err(PressRefusal::NotYourTurn));
    /// let ann = Presser::Seat { seat: 0, turn, anyone: false };
    /// assert!(matches!(guard.press(&mut timer, ms(1_000), ann), Ok(Pressed::Ended(_))));
    /// assert_eq!(guard.press(&mut timer, ms(1_100), ann), Err(PressRefusal::StaleTurn));
    /// ```
    pub fn press(
        &mut self,
        timer: &mut Timer,
        now: Duration,
        by: Presser,
    ) -> Result<Pressed, PressRefusal> {
        if let Presser::Seat { seat, turn, anyone } = by {
            let current = timer.turn_id().ok_or(PressRefusal::NotStarted)?;
            if current != turn {
                return Err(PressRefusal::StaleTurn);
            }
            if seat != timer.current_player() && !anyone {
                return Err(PressRefusal::NotYourTurn);
            }
        }
        if !self.allow(now) {
            return Err(PressRefusal::Guarded);
        }
        match timer.phase() {
            Phase::Idle => timer
                .start(now)
                .map(|()| Pressed::Started)
                .map_err(|_| PressRefusal::NotStarted),
            _ => timer
                .end_turn(now)
                .map(Pressed::Ended)
                .map_err(|_| PressRefusal::NotStarted),
        }
    }
}

/// A player's statistics as saved: whole milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedStats {
    /// Finished turns.
    pub turns: u32,
    /// Running time of those turns in milliseconds.
    pub total_ms: u64,
    /// Turns that ran out of time.
    pub timeouts: u32,
}

/// A chess clock as saved: whole milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct SavedChessClock {
    /// Each player's bank at the start of a game, in milliseconds.
    pub bank_ms: u64,
    /// The increment in milliseconds.
    pub increment_ms: u64,
}

/// The timer as saved between runs of the app: the table, whose turn it is and the
/// statistics, and on a chess clock the banks. A turn under way is saved with its running time
/// and comes back paused, so a restart never eats into (or adds to) anyone's time. Clock values
/// are not saved: they belong to one run's monotonic clock. Files saved before chess-clock
/// mode existed load as per-turn games.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct SavedTimer {
    /// Names in seat order.
    pub players: Vec<String>,
    /// Statistics per seat.
    pub stats: Vec<SavedStats>,
    /// The seat whose turn it is (or who starts).
    pub current: usize,
    /// Running time of the turn under way in milliseconds; `None` when idle.
    pub turn_ms: Option<u64>,
    /// Whether the turn's clock was running when saved (it comes back paused all the same).
    pub running: bool,
    /// The last turn id handed out.
    pub last_id: u64,
    /// The chess clock of the game; `None` (and left out of the file) for per-turn timing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chess: Option<SavedChessClock>,
    /// Chess clock: each seat's bank in milliseconds; for the player whose turn is under way,
    /// the bank at the start of that turn (`turn_ms` is counted against it), so the saved
    /// state changes only when a turn ends. A missing seat gets a full bank.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub banks_ms: Vec<u64>,
    /// Per-turn timing: the length and the warning the turn under way started with (a settings
    /// change applies from the next turn, also across a restart). Absent in older files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_length_ms: Option<u64>,
    /// The warning time of that turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_warning_ms: Option<u64>,
}

impl SavedTimer {
    /// The phase when saved (a running turn comes back paused when restored).
    pub fn phase(&self) -> Phase {
        match (self.turn_ms, self.running) {
            (None, _) => Phase::Idle,
            (Some(_), true) => Phase::Running,
            (Some(_), false) => Phase::Paused,
        }
    }
}

impl Timer {
    /// The state to save at `now` (see [`SavedTimer`]).
    pub fn saved(&self, now: Duration) -> SavedTimer {
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        SavedTimer {
            players: self.names.clone(),
            stats: self
                .stats
                .iter()
                .map(|s| SavedStats {
                    turns: s.turns,
                    total_ms: ms(s.total),
                    timeouts: s.timeouts,
                })
                .collect(),
            current: self.current,
            turn_ms: self.turn.as_ref().map(|t| ms(t.elapsed(now))),
            running: self.phase() == Phase::Running,
            last_id: self.last_id,
            chess: self.game.chess_clock().map(|c| SavedChessClock {
                bank_ms: ms(c.bank),
                increment_ms: ms(c.increment),
            }),
            banks_ms: match self.game {
                TimerMode::PerTurn => Vec::new(),
                TimerMode::ChessClock(_) => self.banks.iter().map(|&b| ms(b)).collect(),
            },
            turn_length_ms: self
                .turn
                .as_ref()
                .filter(|_| self.game == TimerMode::PerTurn)
                .map(|t| ms(t.settings.turn)),
            turn_warning_ms: self
                .turn
                .as_ref()
                .filter(|_| self.game == TimerMode::PerTurn)
                .map(|t| ms(t.settings.warning)),
        }
    }

    /// A timer from a saved state, with `settings` for new turns; a saved turn comes back
    /// paused with its running time, its alerts already passed not sounded again. The game
    /// keeps the mode it was saved with (and its banks); that is also the [mode](Timer::mode)
    /// until [`set_mode`](Timer::set_mode) is called.
    ///
    /// # Example
    /// ```
    /// use std::time::Duration;
    /// use rummikub_companion::timer::{Phase, Timer, TimerSettings};
    /// let s = Duration::from_secs;
    /// let mut timer = Timer::new(["Ann", "Bo"], TimerSettings::default()).unwrap();
    /// timer.start(s(0)).unwrap();
    /// timer.end_turn(s(20)).unwrap();
    /// let saved = timer.saved(s(35)); // Bo has played 15 s
    /// let back = Timer::restore(&saved, TimerSettings::default(), s(1_000)).unwrap();
    /// assert_eq!(back.phase(), Phase::Paused);
    /// assert_eq!(back.current_player(), 1);
    /// assert_eq!(back.elapsed(s(5_000)), s(15));
    /// assert_eq!(back.stats()[0].turns, 1);
    /// ```
    pub fn restore(
        saved: &SavedTimer,
        settings: TimerSettings,
        now: Duration,
    ) -> Result<Timer, TimerError> {
        let mut timer = Timer::new(saved.players.iter().cloned(), settings)?;
        if saved.current >= timer.names.len() {
            return Err(TimerError::NoSuchPlayer(saved.current));
        }
        for (stats, s) in timer.stats.iter_mut().zip(&saved.stats) {
            *stats = PlayerStats {
                turns: s.turns,
                total: Duration::from_millis(s.total_ms),
                timeouts: s.timeouts,
            };
        }
        timer.current = saved.current;
        timer.last_id = saved.last_id;
        if let Some(clock) = saved.chess {
            let bank = Duration::from_millis(clock.bank_ms);
            timer.mode = TimerMode::ChessClock(ChessClock {
                bank,
                increment: Duration::from_millis(clock.increment_ms),
            });
            timer.game = timer.mode;
            for (seat, b) in timer.banks.iter_mut().enumerate() {
                *b = saved
                    .banks_ms
                    .get(seat)
                    .map_or(bank, |&ms| Duration::from_millis(ms));
            }
        }
        if let Some(ms) = saved.turn_ms {
            let elapsed = Duration::from_millis(ms);
            timer.last_id += 1;
            // The turn keeps the length it started with (settings changed since apply from
            // the next turn).
            let mut turn = match (saved.turn_length_ms, timer.game) {
                (Some(length), TimerMode::PerTurn) => {
                    let started = TimerSettings {
                        turn: Duration::from_millis(length),
                        warning: saved
                            .turn_warning_ms
                            .map_or(settings.warning, Duration::from_millis),
                        ..settings
                    };
                    Turn::new(
                        timer.last_id,
                        timer.current,
                        started,
                        (started.turn, true),
                        now,
                    )
                }
                _ => timer.new_turn(now),
            };
            turn.banked = elapsed;
            turn.since = None;
            turn.collected = turn
                .schedule
                .iter()
                .take_while(|(at, _)| *at <= elapsed)
                .count();
            timer.turn = Some(turn);
        }
        Ok(timer)
    }

    /// This timer as it was when a copy of it was taken at `taken_at`, brought to `now`: a
    /// running clock has not run in between. Restoring an undo snapshot this way gives the
    /// player back exactly the time they had, whatever happened since.
    pub fn rebased(mut self, taken_at: Duration, now: Duration) -> Timer {
        if let Some(since) = self.turn.as_mut().and_then(|t| t.since.as_mut()) {
            *since = (*since + now).saturating_sub(taken_at);
        }
        self.outbox.clear();
        self
    }
}

/// Whole seconds, rounded up.
fn ceil_secs(d: Duration) -> u64 {
    d.as_secs() + u64::from(d.subsec_nanos() > 0)
}

/// Trimmed names, checked by the table's one seat rule ([`check_seats`]).
fn checked_names<I, S>(names: I) -> Result<Vec<String>, TimerError>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let names: Vec<String> = names.into_iter().map(Into::into).collect();
    check_seats(&names).map_err(|problem| match problem {
        SeatProblem::Count(n) => TimerError::PlayerCount(n),
        SeatProblem::Empty(seat) => TimerError::EmptyName(seat),
        SeatProblem::Duplicate(name) => TimerError::DuplicateName(name),
    })
}
