//! The evening as saved between runs: the timer's table (seats, whose turn, statistics), the
//! open score sheet and a half-typed game.
//!
//! A laptop at a table gets closed, runs out of battery or is quit by a wrong click. None of
//! that may cost the table its evening: the app saves this state after every change (through
//! `store`, crash-safely) and restores it at start, a running turn coming back paused. Plain
//! data, no clock and no files: `store` reads and writes it, `status` prints it.

use serde::{Deserialize, Serialize};

use crate::timer::SavedTimer;

/// A game being typed into the score sheet's form, kept as typed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Draft {
    /// The index of the game being edited, or `None` for a new game.
    pub editing: Option<usize>,
    /// What each player has left, as typed.
    pub left: Vec<String>,
    /// Not-melded marks per player.
    pub not_melded: Vec<bool>,
    /// The winner named on a tie for lowest.
    pub tie_winner: Option<usize>,
}

impl Draft {
    /// An empty form for `players` players.
    pub fn new(players: usize) -> Draft {
        Draft {
            editing: None,
            left: vec![String::new(); players],
            not_melded: vec![false; players],
            tie_winner: None,
        }
    }

    /// Whether nothing has been typed (not worth keeping).
    pub fn is_blank(&self) -> bool {
        self.editing.is_none()
            && self.left.iter().all(|t| t.trim().is_empty())
            && !self.not_melded.contains(&true)
            && self.tie_winner.is_none()
    }
}

/// Everything of the evening that is not in the settings or a sheet file.
///
/// # Example
/// ```
/// use rummikub_companion::evening::Evening;
/// let json = serde_json::to_string(&Evening::default()).unwrap();
/// let back: Evening = serde_json::from_str(&json).unwrap();
/// assert_eq!(back, Evening::default());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Evening {
    /// The timer's table, if one was saved.
    pub timer: Option<SavedTimer>,
    /// The id of the open score sheet.
    pub sheet: Option<String>,
    /// A game being typed into the sheet's form.
    pub draft: Option<Draft>,
}
