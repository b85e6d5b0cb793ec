//! What a phone sees ([`TableState`]) and what it may ask ([`PhoneAction`]).
//!
//! The state is a snapshot of the clock at the moment it was published: the phones count down
//! from it on their own, so the server pushes only when something a phone could not predict
//! happens (an end of turn, a pause, a new entry). [`TableState::same_course`] is that test.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::timer::{Phase, Timer};

/// The longest rack text a phone may send (a full rack in long notation fits easily).
pub const MAX_RACK_TEXT: usize = 400;

/// How far a published clock may drift from the previous one's projection and still count as
/// the same course (no push). Larger than a frame, far smaller than a second.
const DRIFT: Duration = Duration::from_millis(250);

/// The timer's phase as a phone sees it: `"idle"`, `"running"` or `"paused"` in JSON.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PhonePhase {
    /// No turn under way.
    #[default]
    Idle,
    /// The current player's clock runs.
    Running,
    /// The clock is stopped.
    Paused,
}

impl From<Phase> for PhonePhase {
    fn from(phase: Phase) -> PhonePhase {
        match phase {
            Phase::Idle => PhonePhase::Idle,
            Phase::Running => PhonePhase::Running,
            Phase::Paused => PhonePhase::Paused,
        }
    }
}

/// Everything a phone may see: the names, the clock, the open game's entries, and how many
/// pages are open on each seat.
///
/// Nothing else of the evening (scores, history, settings, file paths) is ever sent.
///
/// # Example
/// ```
/// use std::time::Duration;
/// use rummikub_companion::server::{PhonePhase, TableState};
/// use rummikub_companion::timer::{Timer, TimerSettings};
///
/// let mut timer = Timer::new(["Ann", "Bo"], TimerSettings::default()).unwrap();
/// timer.start(Duration::ZERO).unwrap();
/// let state = TableState::from_timer(&timer, Duration::from_secs(15), 1, false, None);
/// assert_eq!(state.phase, PhonePhase::Running);
/// assert_eq!((state.current, state.next), (0, 1));
/// assert_eq!(state.remaining_ms, 45_000);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableState {
    /// Which evening this is (a new evening comes with a new secret anyway).
    pub evening: u64,
    /// The players' names in seat order.
    pub players: Vec<String>,
    /// The seat whose turn it is (or who starts, when idle).
    pub current: usize,
    /// The seat that plays after the current one.
    pub next: usize,
    /// Whether a turn is under way and whether its clock runs.
    pub phase: PhonePhase,
    /// The id of the turn in progress ([`Timer::turn_id`]); an end-turn must name it.
    pub turn: Option<u64>,
    /// Time left in the turn, at the moment of publishing.
    pub remaining_ms: u64,
    /// Time past the end of the turn, at the moment of publishing.
    pub overtime_ms: u64,
    /// The length of the current turn.
    pub turn_ms: u64,
    /// Warn when this much is left (0 = no warning).
    pub warning_ms: u64,
    /// The turn's time has run out.
    pub timed_out: bool,
    /// Any phone may end any turn (the table's setting), not only the current player's.
    pub anyone_may_end: bool,
    /// The add-game form is open: each seat's remaining-tiles field as typed (`None` = closed).
    pub entry: Option<Vec<String>>,
    /// How many phone pages are open on each seat, by seat (the server counts its event
    /// streams that name a seat and fills this in; what the evening publishes leaves it
    /// empty). A page picking its seat warns when one is already taken.
    #[serde(default)]
    pub phones: Vec<u32>,
    /// How each seat's name is said, in seat order, when some seat has a spoken form (empty:
    /// the names are said as written). The phone page speaks these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spoken: Vec<String>,
    /// This game runs on a chess clock (a time-up is a flag, with no draw).
    #[serde(default)]
    pub chess_clock: bool,
}

impl TableState {
    /// The state of `timer` at `now`, for evening `evening`, with the add-game form's fields
    /// (`None` when the form is closed).
    pub fn from_timer(
        timer: &Timer,
        now: Duration,
        evening: u64,
        anyone_may_end: bool,
        entry: Option<Vec<String>>,
    ) -> TableState {
        let players = timer.players().to_vec();
        let current = timer.current_player();
        let settings = timer.turn_settings();
        TableState {
            evening,
            next: (current + 1) % players.len().max(1),
            players,
            current,
            phase: timer.phase().into(),
            turn: timer.turn_id(),
            remaining_ms: millis(timer.remaining(now)),
            overtime_ms: millis(timer.overtime(now)),
            turn_ms: millis(settings.turn),
            warning_ms: millis(settings.warning),
            timed_out: timer.is_timed_out(now),
            anyone_may_end,
            entry,
            phones: Vec::new(),
            spoken: Vec::new(),
            chess_clock: timer.game_mode().chess_clock().is_some(),
        }
    }

    /// Where this state's clock will be `later` from now, if nothing else happens: a running
    /// clock moves on (into overtime past zero), an idle or paused one stays.
    pub fn projected(&self, later: Duration) -> TableState {
        let mut state = self.clone();
        if self.phase == PhonePhase::Running {
            let later = millis(later);
            let left = self.remaining_ms.saturating_sub(later);
            let over = later.saturating_sub(self.remaining_ms);
            state.remaining_ms = left;
            state.overtime_ms = self.overtime_ms.saturating_add(over);
            state.timed_out = self.timed_out || left == 0;
        }
        state
    }

    /// Whether `newer` (published `later` after `self`) is just `self` with the clock moved on,
    /// within a quarter of a second: then the phones already show it and nothing is pushed.
    ///
    /// # Example
    /// ```
    /// use std::time::Duration;
    /// use rummikub_companion::server::{PhonePhase, TableState};
    /// let ms = Duration::from_millis;
    /// let old = TableState { phase: PhonePhase::Running, remaining_ms: 30_000, ..TableState::default() };
    /// let a_frame_later = TableState { remaining_ms: 29_984, ..old.clone() };
    /// assert!(old.same_course(&a_frame_later, ms(16)));
    /// let paused = TableState { phase: PhonePhase::Paused, ..a_frame_later };
    /// assert!(!old.same_course(&paused, ms(16)));
    /// ```
    pub fn same_course(&self, newer: &TableState, later: Duration) -> bool {
        let expected = self.projected(later);
        let close = |a: u64, b: u64| a.abs_diff(b) <= millis(DRIFT);
        close(expected.remaining_ms, newer.remaining_ms)
            && close(expected.overtime_ms, newer.overtime_ms)
            && TableState {
                remaining_ms: newer.remaining_ms,
                overtime_ms: newer.overtime_ms,
                timed_out: newer.timed_out,
                ..expected
            } == *newer
    }
}

/// What a phone asks for. JSON: `{"action": "end_turn", "seat": 0, "turn": 7}`,
/// `{"action": "toggle_pause", "seat": 1}` (`"start": true` when the phone showed Start),
/// `{"action": "enter_rack", "seat": 2, "text": "R5 J"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum PhoneAction {
    /// End turn `turn` (the id the phone saw), from the phone at `seat`.
    EndTurn {
        /// The phone's seat (0-based).
        seat: usize,
        /// The turn the player meant to end ([`TableState::turn`]).
        turn: u64,
    },
    /// Pause a running clock, resume a paused one; start the first turn when idle.
    TogglePause {
        /// The phone's seat (0-based).
        seat: usize,
        /// The phone showed "Start" (the clock idle): if a turn is under way by now, someone
        /// else started it and this tap does nothing (it must not pause the clock just
        /// started). Absent in older pages: `false`.
        #[serde(default)]
        start: bool,
    },
    /// The phone's own remaining tiles for the open add-game form.
    EnterRack {
        /// The phone's seat (0-based); the field it fills.
        seat: usize,
        /// A number or tiles, as typed.
        text: String,
    },
}

impl PhoneAction {
    /// The seat the phone claims.
    pub fn seat(&self) -> usize {
        match self {
            PhoneAction::EndTurn { seat, .. }
            | PhoneAction::TogglePause { seat, .. }
            | PhoneAction::EnterRack { seat, .. } => *seat,
        }
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> TableState {
        TableState {
            players: vec!["Ann".into(), "Bo".into(), "Cy".into()],
            current: 1,
            next: 2,
            phase: PhonePhase::Running,
            turn: Some(4),
            remaining_ms: 5_000,
            turn_ms: 60_000,
            warning_ms: 10_000,
            ..TableState::default()
        }
    }

    #[test]
    fn projection_runs_into_overtime_and_stops_when_paused() {
        let t = table();
        let later = t.projected(Duration::from_millis(7_000));
        assert_eq!((later.remaining_ms, later.overtime_ms), (0, 2_000));
        assert!(later.timed_out);
        let paused = TableState {
            phase: PhonePhase::Paused,
            ..t
        };
        assert_eq!(paused.projected(Duration::from_secs(9)), paused);
    }

    #[test]
    fn same_course_ignores_the_clock_moving_but_not_a_jump_or_a_new_turn() {
        let t = table();
        let ms = Duration::from_millis;
        assert!(t.same_course(&t.projected(ms(1_000)), ms(1_000)));
        assert!(t.same_course(&t.projected(ms(7_000)), ms(7_100)));
        // A restarted turn: the clock jumps back.
        let restarted = TableState {
            remaining_ms: 60_000,
            ..t.clone()
        };
        assert!(!t.same_course(&restarted, ms(1_000)));
        let next = TableState {
            turn: Some(5),
            current: 2,
            ..t.projected(ms(500))
        };
        assert!(!t.same_course(&next, ms(500)));
    }

    #[test]
    fn actions_read_from_json() {
        let a: PhoneAction = serde_json::from_str(r#"{"action":"end_turn","seat":1,"turn":9}"#)
            .expect("valid action");
        assert_eq!(a, PhoneAction::EndTurn { seat: 1, turn: 9 });
        assert!(serde_json::from_str::<PhoneAction>(r#"{"action":"explode","seat":1}"#).is_err());
        assert!(serde_json::from_str::<PhoneAction>(r#"{"action":"end_turn","seat":-1}"#).is_err());
    }
}
