//! The settings saved between runs (`settings.json` through `store`): the table's language,
//! rules, sound, seats and phone options. Owned by the [evening](super::Evening); views read
//! them and hand back a changed copy.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::lang::Language;
use crate::rules::RuleSet;
use crate::speech::phrases::VoiceSettings;

/// Everything the user chose that outlives the window: saved through `store` as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// UI language.
    pub language: Language,
    /// The table's rules.
    pub rules: RuleSet,
    /// Sound volume, 0–1.
    pub volume: f32,
    /// Sound off.
    pub muted: bool,
    /// Players in seat order (clockwise), shared by the timer and the score sheet.
    pub players: Vec<String>,
    /// The table view shows the clock twice, one half turned for the far side of the table.
    pub face_to_face: bool,
    /// The phones' page is on (it comes back on at the next start, with the same link).
    pub phones: bool,
    /// The port the phones' page is served on.
    pub phone_port: u16,
    /// Any phone may end any turn (not only the current player's).
    pub anyone_may_end: bool,
    /// The voice: on or off, its volume, which happenings are said.
    pub voice: VoiceSettings,
    /// How a player's name is said, by written name (a nickname in Hangul, or as it should
    /// sound); a name without one is said as written. Follows a rename.
    pub spoken: BTreeMap<String, String>,
    /// The port a club night's tables are hosted on from the window (the TV page and the
    /// tables' phones; `event serve`'s default too).
    pub event_port: u16,
    /// A club night's round clock on the TV page when the window hosts the tables: minutes
    /// per round, from when the hosting first shows the round (0: no round clock).
    pub event_round_minutes: u32,
    /// How the next new sheet's match ends (rounds, open-ended, a target total).
    pub new_sheet: SheetPlan,
    /// The Meld tab's mode and what "best" means in it.
    pub meld: MeldChoices,
    /// Names counted as one player in the history: (the name merged away, the name kept).
    pub merged_names: Vec<(String, String)>,
}

/// How a new sheet's match ends, as the sheet's toolbar chooses it (kept, so a restart does
/// not silently make the next sheet a 1-round match).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SheetPlan {
    /// Planned rounds (used unless open-ended).
    pub rounds: u32,
    /// No planned number of rounds.
    pub open_ended: bool,
    /// A target total (used when `use_target`).
    pub target: i64,
    /// The match also ends at `target`.
    pub use_target: bool,
}

impl Default for SheetPlan {
    fn default() -> Self {
        SheetPlan {
            rounds: 1,
            open_ended: false,
            target: 100,
            use_target: false,
        }
    }
}

impl SheetPlan {
    /// The rounds a new sheet gets (none when open-ended; at least 1).
    pub fn rounds(&self) -> Option<u32> {
        (!self.open_ended).then_some(self.rounds.max(1))
    }

    /// The target a new sheet gets, if any (at least 1).
    pub fn target(&self) -> Option<i64> {
        self.use_target.then_some(self.target.max(1))
    }
}

/// The Meld tab's half shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum MeldMode {
    /// Check sets as laid on the table.
    #[default]
    Check,
    /// Best meld from an unordered rack.
    Solve,
    /// After the opening: what can be played with the whole table rearranged.
    Table,
    /// A turn checked: the table before and after, the rack if known.
    Referee,
}

/// The Meld tab's choices: its mode, and what "best" means for the rack solver and for the
/// whole table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct MeldChoices {
    /// The half shown.
    pub mode: MeldMode,
    /// What the best meld from a rack maximises.
    pub solve: crate::solver::Objective,
    /// What the best play with the whole table maximises.
    pub play: crate::play::By,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            language: Language::default(),
            rules: RuleSet::default(),
            volume: 0.8,
            muted: false,
            players: Vec::new(),
            face_to_face: false,
            phones: false,
            phone_port: crate::server::DEFAULT_PORT,
            anyone_may_end: false,
            voice: VoiceSettings::default(),
            spoken: BTreeMap::new(),
            event_port: crate::server::tv::TV_PORT,
            event_round_minutes: 0,
            new_sheet: SheetPlan::default(),
            meld: MeldChoices::default(),
            merged_names: Vec::new(),
        }
    }
}
