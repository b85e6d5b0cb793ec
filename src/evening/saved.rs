//! The evening as saved between runs (`evening.json`): the timer's table (seats, whose turn,
//! statistics), the open score sheet, the half-typed game of each sheet and the undo history.
//!
//! A laptop at a table gets closed, runs out of battery or is quit by a wrong click. None of
//! that may cost the table its evening: the evening is saved after every change (off the UI
//! thread, crash-safely, through `store`) and restored at start, a running turn coming back
//! paused. Plain data: `store` reads and writes it, `status` prints it.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::undo::SavedUndo;
use crate::score::{Game, Hand, Remaining, RemainingError, ScoreError, Sheet};
use crate::timer::SavedTimer;

/// A game being typed into a sheet's form, kept as typed. It belongs to one sheet (the key it
/// is saved under) and is never offered on another.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Draft {
    /// This entry's id: the game it becomes carries it ([`Game::entry`]), so a draft whose game
    /// was saved just before a crash is known as saved and not offered again.
    pub id: u64,
    /// The index of the game being edited, or `None` for a new game.
    pub editing: Option<usize>,
    /// The game as it was when its edit began: saving an edit of a game that changed since
    /// (an undo, say) is refused rather than overwriting it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original: Option<Game>,
    /// What each player has left, as typed.
    pub left: Vec<String>,
    /// Not-melded marks per player.
    pub not_melded: Vec<bool>,
    /// The winner named on a tie for lowest.
    pub tie_winner: Option<usize>,
}

/// Why a draft is not a game yet.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DraftProblem {
    /// A player's field is empty.
    #[error("what {0} has left is missing")]
    Missing(String),
    /// A player's field cannot be read.
    #[error("{name}: {error}")]
    Unreadable {
        /// The player.
        name: String,
        /// Why.
        error: Box<RemainingError>,
    },
    /// The game does not score (a tie to name, too many copies of a tile, …).
    #[error(transparent)]
    Score(#[from] ScoreError),
    /// The game being edited is no longer the one the edit began with.
    #[error("game {0} changed since its edit began")]
    EditedGameChanged(usize),
    /// The draft is for another number of players than the sheet has.
    #[error("the form is for {form} players and the sheet has {sheet}")]
    Players {
        /// Fields in the form.
        form: usize,
        /// Players on the sheet.
        sheet: usize,
    },
}

impl Draft {
    /// An empty form for `players` players.
    pub fn new(id: u64, players: usize) -> Draft {
        Draft {
            id,
            editing: None,
            original: None,
            left: vec![String::new(); players],
            not_melded: vec![false; players],
            tie_winner: None,
        }
    }

    /// A form to edit game `index`, filled with it.
    pub fn of_game(id: u64, index: usize, game: &Game) -> Draft {
        Draft {
            id,
            editing: Some(index),
            original: Some(game.clone()),
            left: game.hands.iter().map(|h| h.left.to_string()).collect(),
            not_melded: game.hands.iter().map(|h| h.not_melded).collect(),
            tie_winner: game.winner,
        }
    }

    /// Whether nothing has been typed (not worth keeping).
    pub fn is_blank(&self) -> bool {
        self.editing.is_none()
            && self.left.iter().all(|t| t.trim().is_empty())
            && !self.not_melded.contains(&true)
            && self.tie_winner.is_none()
    }

    /// Whether throwing it away loses nothing: a new game with nothing typed, or an edit that
    /// changed nothing yet.
    pub fn untouched(&self) -> bool {
        match &self.original {
            None => self.is_blank(),
            Some(game) => {
                let unchanged = Draft::of_game(self.id, self.editing.unwrap_or(0), game);
                self.left == unchanged.left
                    && self.not_melded == unchanged.not_melded
                    && self.tie_winner == unchanged.tie_winner
            }
        }
    }

    /// The first empty field's seat, if any.
    pub fn missing(&self) -> Option<usize> {
        self.left.iter().position(|t| t.trim().is_empty())
    }

    /// The game as typed, checked against `sheet` (its players and rules, and for an edit that
    /// the game is still the one the edit began with), stamped `now` and with this entry's id.
    pub fn game(&self, sheet: &Sheet, now: DateTime<Utc>) -> Result<Game, DraftProblem> {
        let names = sheet.players().names();
        if self.left.len() != names.len() {
            return Err(DraftProblem::Players {
                form: self.left.len(),
                sheet: names.len(),
            });
        }
        let mut hands = Vec::with_capacity(self.left.len());
        for (i, text) in self.left.iter().enumerate() {
            let name = names.get(i).cloned().unwrap_or_default();
            if text.trim().is_empty() {
                return Err(DraftProblem::Missing(name));
            }
            let left: Remaining =
                text.trim()
                    .parse()
                    .map_err(|error| DraftProblem::Unreadable {
                        name,
                        error: Box::new(error),
                    })?;
            hands.push(Hand {
                left,
                not_melded: self.not_melded.get(i).copied().unwrap_or(false),
            });
        }
        // (A draft of an earlier version kept no original: nothing to compare with.)
        if let (Some(index), Some(original)) = (self.editing, &self.original)
            && sheet.games().get(index) != Some(original)
        {
            return Err(DraftProblem::EditedGameChanged(index + 1));
        }
        let game = Game::new(hands).at(now).from_entry(self.id);
        let game = match self.tie_winner {
            Some(w) => game.with_winner(w),
            None => game,
        };
        sheet.check_game(&game)?;
        Ok(game)
    }

    /// Whether `sheet` already holds this draft's game (it was saved, and the draft outlived it
    /// in a crash). A draft saved by an earlier version has no id (0): it counts as saved when
    /// the game it reads as is the sheet's last game (or the game it edits), hand for hand.
    pub fn is_saved_in(&self, sheet: &Sheet) -> bool {
        if self.id != 0 {
            return sheet.games().iter().any(|g| g.entry == Some(self.id));
        }
        let index = match self.editing {
            Some(i) => i,
            None => match sheet.games().len().checked_sub(1) {
                Some(last) => last,
                None => return false,
            },
        };
        let Some(saved) = sheet.games().get(index) else {
            return false;
        };
        let Ok(typed) = (Draft {
            editing: None,
            original: None,
            ..self.clone()
        })
        .game(sheet, sheet.created()) else {
            return false;
        };
        typed.hands == saved.hands && typed.winner == saved.winner
    }
}

/// Everything of the evening that is not in the settings or a sheet file.
///
/// # Example
/// ```
/// use rummikub_companion::evening::SavedEvening;
/// let json = serde_json::to_string(&SavedEvening::default()).unwrap();
/// let back: SavedEvening = serde_json::from_str(&json).unwrap();
/// assert_eq!(back, SavedEvening::default());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SavedEvening {
    /// The timer's table, if one was saved.
    pub timer: Option<SavedTimer>,
    /// The id of the open score sheet.
    pub sheet: Option<String>,
    /// The half-typed game of each sheet, by sheet id.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub drafts: BTreeMap<String, Draft>,
    /// A draft saved by an earlier version (one, for the open sheet only).
    #[serde(skip_serializing)]
    pub draft: Option<Draft>,
    /// The evening's undo history.
    #[serde(skip_serializing_if = "SavedUndo::is_empty")]
    pub undo: SavedUndo,
    /// When it was saved (the wall clock), so a reader can tell how long a running turn has
    /// run since.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saved_at: Option<DateTime<Utc>>,
    /// The phones' link secret, kept for the evening (so a restart does not make six phones
    /// scan again).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone_link: Option<String>,
}

impl SavedEvening {
    /// The drafts by sheet, an earlier version's single draft given to the sheet that was open
    /// when it was saved (and to no other).
    pub fn take_drafts(&mut self) -> BTreeMap<String, Draft> {
        let mut drafts = std::mem::take(&mut self.drafts);
        if let (Some(draft), Some(sheet)) = (self.draft.take(), &self.sheet) {
            drafts.entry(sheet.clone()).or_insert(draft);
        }
        drafts
    }
}
