//! The rules a table has agreed on, as one value.
//!
//! The checker, the score sheet and the timer all read the same [`RuleSet`], so that a group
//! playing the tournament preset gets 40-second turns, a 50-point joker penalty and flat
//! not-melded scores everywhere at once. Sources disagree (see `shared/RULES.md`); the three
//! presets are the readings we support, and every field can still be changed on its own.
//!
//! The table's base rules live here too, below the modules that use them: who can sit at a
//! table ([`check_seats`], used by the timer and the score sheet alike). The tile supply (how
//! many copies of each face a set holds) is [`TileSet`]'s, in [`crate::tile`].

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::tile::TileSet;

/// How the winner of several games is chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FinalRule {
    /// Korean manual: highest total score.
    #[default]
    Total,
    /// English rulebook: most games won, ties broken by highest total.
    Wins,
}

impl FinalRule {
    /// `"total"` or `"wins"`, as in the CLI and JSON.
    pub const fn name(self) -> &'static str {
        match self {
            FinalRule::Total => "total",
            FinalRule::Wins => "wins",
        }
    }

    /// The other rule (the sheet shows both).
    pub const fn other(self) -> FinalRule {
        match self {
            FinalRule::Total => FinalRule::Wins,
            FinalRule::Wins => FinalRule::Total,
        }
    }
}

impl FromStr for FinalRule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_lowercase().as_str() {
            "total" | "points" | "korean" => Ok(FinalRule::Total),
            "wins" | "english" => Ok(FinalRule::Wins),
            other => Err(format!(
                "unknown final-winner rule \"{}\" (use total or wins)",
                crate::tile::shorten(other)
            )),
        }
    }
}

/// The named rule presets of `shared/RULES.md`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// Korean manual (한국어판): highest total wins.
    #[default]
    Korean,
    /// English rulebook: most wins, then total.
    English,
    /// Tournament: 40 s turns, joker 50, not melded 100.
    Tournament,
}

impl Preset {
    /// Every preset, in menu order.
    pub const ALL: [Preset; 3] = [Preset::Korean, Preset::English, Preset::Tournament];

    /// The CLI name.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Korean => "korean",
            Preset::English => "english",
            Preset::Tournament => "tournament",
        }
    }

    /// The rules this preset stands for.
    pub const fn rules(self) -> RuleSet {
        let base = RuleSet {
            turn_seconds: 60,
            warning_seconds: 10,
            tick_seconds: 0,
            clock_mode: ClockMode::PerTurn,
            bank_minutes: 10,
            increment_seconds: 10,
            meld_threshold: 30,
            jokers_in_initial_meld: true,
            joker_penalty: 30,
            not_melded_value: None,
            final_rule: FinalRule::Total,
            tile_set: TileSet::Standard,
        };
        match self {
            Preset::Korean => base,
            Preset::English => RuleSet {
                final_rule: FinalRule::Wins,
                ..base
            },
            Preset::Tournament => RuleSet {
                turn_seconds: 40,
                joker_penalty: 50,
                not_melded_value: Some(100),
                ..base
            },
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_lowercase().as_str() {
            "korean" | "ko" | "kr" | "한국어판" | "한국" => Ok(Preset::Korean),
            "english" | "en" => Ok(Preset::English),
            "tournament" | "wrc" | "대회" => Ok(Preset::Tournament),
            other => Err(format!(
                "unknown preset \"{}\" (use korean, english or tournament)",
                crate::tile::shorten(other)
            )),
        }
    }
}

/// Allowed turn lengths, in seconds.
pub const TURN_SECONDS: std::ops::RangeInclusive<u32> = 10..=300;
/// Allowed warning times, in seconds before the end.
pub const WARNING_SECONDS: std::ops::RangeInclusive<u32> = 0..=30;
/// Allowed "tick each second in the last N seconds" values (0 = off).
pub const TICK_SECONDS: std::ops::RangeInclusive<u32> = 0..=30;
/// Allowed chess-clock time banks, in minutes per player.
pub const BANK_MINUTES: std::ops::RangeInclusive<u32> = 1..=120;
/// Allowed chess-clock increments, in seconds added per finished turn.
pub const INCREMENT_SECONDS: std::ops::RangeInclusive<u32> = 0..=60;

/// How the turn timer measures time.
///
/// # Example
/// ```
/// use rummikub_companion::rules::{ClockMode, Preset, RuleSet};
/// assert_eq!(Preset::Tournament.rules().clock_mode, ClockMode::PerTurn);
/// let rules: RuleSet = serde_json::from_str(r#"{"clock_mode": "chess_clock"}"#).unwrap();
/// assert_eq!((rules.clock_mode, rules.bank_minutes, rules.increment_seconds), (ClockMode::ChessClock, 10, 10));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockMode {
    /// Every turn has the same length (`turn_seconds`); what is left of it is not carried over.
    #[default]
    PerTurn,
    /// Each player has a time bank (`bank_minutes`) that their turns consume, and
    /// `increment_seconds` added to it each time they end a turn in time (Fischer increment).
    ChessClock,
}

impl ClockMode {
    /// Both modes, in menu order.
    pub const ALL: [ClockMode; 2] = [ClockMode::PerTurn, ClockMode::ChessClock];
}

/// Everything the table agreed on before play.
///
/// # Example
/// ```
/// use rummikub_companion::rules::{Preset, RuleSet};
/// let rules = Preset::Tournament.rules();
/// assert_eq!(rules.turn_seconds, 40);
/// assert_eq!(rules.joker_penalty, 50);
/// assert_eq!(RuleSet::default(), Preset::Korean.rules());
/// assert!(rules.validate().is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct RuleSet {
    /// Length of a turn.
    pub turn_seconds: u32,
    /// Warning sound this many seconds before the end (0 = none).
    pub warning_seconds: u32,
    /// Tick each second in the last N seconds (0 = off).
    pub tick_seconds: u32,
    /// Per-turn timing or a chess clock (the warning and ticks then count down the bank).
    pub clock_mode: ClockMode,
    /// Chess clock: each player's time bank, in minutes.
    pub bank_minutes: u32,
    /// Chess clock: seconds added to a player's bank when they end a turn in time.
    pub increment_seconds: u32,
    /// Points the initial meld needs.
    pub meld_threshold: u32,
    /// Whether jokers may be used in the initial meld (a Korean house rule says no).
    pub jokers_in_initial_meld: bool,
    /// What a joker left on a rack counts.
    pub joker_penalty: u32,
    /// A flat remaining value for a player who never made the initial meld, if the rules have one.
    pub not_melded_value: Option<u32>,
    /// How the winner of several games is chosen.
    pub final_rule: FinalRule,
    /// Which physical set is used.
    pub tile_set: TileSet,
}

impl Default for RuleSet {
    fn default() -> Self {
        Preset::Korean.rules()
    }
}

/// A rule value outside what the game allows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// Turn length outside 10–300 s.
    #[error("turn length {0} s is outside 10–300 s")]
    TurnLength(u32),
    /// Warning time outside 0–30 s or not shorter than the turn.
    #[error("warning time {0} s must be 0–30 s and shorter than the turn")]
    Warning(u32),
    /// Tick time outside 0–30 s or not shorter than the turn.
    #[error("tick time {0} s must be 0–30 s and shorter than the turn")]
    Ticks(u32),
    /// Chess-clock bank outside 1–120 min.
    #[error("time bank {0} min is outside 1–120 min")]
    Bank(u32),
    /// Chess-clock increment outside 0–60 s.
    #[error("increment {0} s is outside 0–60 s")]
    Increment(u32),
}

impl RuleSet {
    /// The preset these rules equal, if any.
    pub fn preset(&self) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.rules() == *self)
    }

    /// Checks the timer values are within the allowed ranges.
    pub fn validate(&self) -> Result<(), RulesError> {
        if !TURN_SECONDS.contains(&self.turn_seconds) {
            return Err(RulesError::TurnLength(self.turn_seconds));
        }
        if !WARNING_SECONDS.contains(&self.warning_seconds)
            || self.warning_seconds >= self.turn_seconds
        {
            return Err(RulesError::Warning(self.warning_seconds));
        }
        if !TICK_SECONDS.contains(&self.tick_seconds) || self.tick_seconds >= self.turn_seconds {
            return Err(RulesError::Ticks(self.tick_seconds));
        }
        if !BANK_MINUTES.contains(&self.bank_minutes) {
            return Err(RulesError::Bank(self.bank_minutes));
        }
        if !INCREMENT_SECONDS.contains(&self.increment_seconds) {
            return Err(RulesError::Increment(self.increment_seconds));
        }
        Ok(())
    }
}

/// Fewest players at a table (and on a score sheet).
pub const MIN_PLAYERS: usize = 2;
/// Most players at a table (the XP set).
pub const MAX_PLAYERS: usize = 6;

/// Why a list of seat names is not a table (shared by the score sheet and the timer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatProblem {
    /// Fewer than 2 or more than 6 names.
    Count(usize),
    /// The name at this 0-based seat is empty or only spaces.
    Empty(usize),
    /// A name that repeats an earlier one, ignoring case.
    Duplicate(String),
}

/// The one rule for a table's seat list: 2–6 names, trimmed, none empty, no two equal ignoring
/// case. The score sheet and the timer both use it, so a seat list one accepts the other does.
///
/// # Example
/// ```
/// use rummikub_companion::rules::{check_seats, SeatProblem};
/// assert_eq!(check_seats([" 루미", "큐브 "]), Ok(vec!["루미".to_owned(), "큐브".to_owned()]));
/// assert_eq!(check_seats(["Ann", "ann"]), Err(SeatProblem::Duplicate("ann".into())));
/// ```
pub fn check_seats<I, S>(names: I) -> Result<Vec<String>, SeatProblem>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let names: Vec<String> = names
        .into_iter()
        .map(|n| n.as_ref().trim().to_owned())
        .collect();
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&names.len()) {
        return Err(SeatProblem::Count(names.len()));
    }
    for (i, name) in names.iter().enumerate() {
        if name.is_empty() {
            return Err(SeatProblem::Empty(i));
        }
        let key = name.to_lowercase();
        if names[..i].iter().any(|n| n.to_lowercase() == key) {
            return Err(SeatProblem::Duplicate(name.clone()));
        }
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_match_the_rules_table() {
        let k = Preset::Korean.rules();
        let e = Preset::English.rules();
        let t = Preset::Tournament.rules();
        assert_eq!(
            (
                k.turn_seconds,
                k.warning_seconds,
                k.meld_threshold,
                k.joker_penalty
            ),
            (60, 10, 30, 30)
        );
        assert_eq!((k.not_melded_value, k.final_rule), (None, FinalRule::Total));
        assert_eq!((e.not_melded_value, e.final_rule), (None, FinalRule::Wins));
        assert_eq!(
            (
                t.turn_seconds,
                t.warning_seconds,
                t.meld_threshold,
                t.joker_penalty
            ),
            (40, 10, 30, 50)
        );
        assert_eq!(
            (t.not_melded_value, t.final_rule),
            (Some(100), FinalRule::Total)
        );
        for p in Preset::ALL {
            assert_eq!(p.rules().preset(), Some(p));
            assert_eq!(p.name().parse::<Preset>(), Ok(p));
            assert!(p.rules().validate().is_ok());
        }
    }

    #[test]
    fn serde_round_trip_and_defaults() {
        let t = Preset::Tournament.rules();
        let json = serde_json::to_string(&t).expect("serialises");
        assert_eq!(serde_json::from_str::<RuleSet>(&json).ok(), Some(t));
        // A settings file from an older version with fewer fields still loads.
        let partial: RuleSet =
            serde_json::from_str(r#"{"turn_seconds": 45}"#).expect("partial loads");
        assert_eq!(partial.turn_seconds, 45);
        assert_eq!(partial.joker_penalty, 30);
    }

    #[test]
    fn validation_names_the_value() {
        let mut r = RuleSet {
            turn_seconds: 5,
            ..RuleSet::default()
        };
        assert_eq!(
            r.validate().map_err(|e| e.to_string()),
            Err("turn length 5 s is outside 10–300 s".into())
        );
        r.turn_seconds = 20;
        r.warning_seconds = 20;
        assert!(r.validate().is_err());
        r.warning_seconds = 31;
        assert!(r.validate().is_err());
    }
}
