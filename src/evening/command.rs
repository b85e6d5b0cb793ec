//! What can be asked of the evening ([`Command`]), what it did ([`Done`]) and why it would not
//! ([`Refusal`]).
//!
//! Every input — a key, a click, a phone's tap, a timer tick worth saving — becomes one
//! `Command` given to [`Evening::apply`](super::Evening::apply). The answer is typed: what
//! changed (the change recorded for undo, a file written, the ticket of the save), or a typed
//! refusal that the caller words in its own language. Nobody infers an outcome by re-reading the
//! evening afterwards.

use std::net::IpAddr;
use std::path::PathBuf;

use super::saved::DraftProblem;
use super::settings::Settings;
use super::sheets::SheetError;
use super::undo::{Area, Change};
use crate::lang::Language;
use crate::score::{Game, RemainingError};
use crate::server::PhoneAction;
use crate::store::SheetId;
use crate::store::saver::Ticket;
use crate::tile::Tile;
use crate::timer::TimerError;

/// Something asked of the evening.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Start the first turn, or end the current one (one press, one turn: a second press of
    /// the same gesture within the guard is refused).
    Primary,
    /// Pause a running clock, resume a paused one.
    TogglePause,
    /// New game on the clock: clear the turn and the statistics.
    ResetTimer,
    /// Replace the players (seat order): players added, removed or moved.
    SetPlayers(Vec<String>),
    /// Rename the player in this seat; they keep seat, statistics and turn (the open sheet
    /// follows).
    Rename(usize, String),
    /// Count `from` as `into` in the history (a player renamed, or typed two ways); undoable.
    MergeNames {
        /// The name merged away.
        from: String,
        /// The name kept.
        into: String,
    },
    /// Count `from` as itself again in the history (undoes a merge from the list).
    SeparateName(String),
    /// Start a new sheet with the seats and the settings' rules.
    NewSheet {
        /// Planned rounds, or open-ended.
        rounds: Option<u32>,
        /// A target total that ends the match.
        target: Option<i64>,
    },
    /// Open a saved sheet (its half-typed game, if any, comes with it).
    OpenSheet(SheetId),
    /// Score the open sheet under the settings' rules from now on.
    ApplyRules,
    /// Delete this game at this index, if it is still there (the second click of a
    /// double-click finds another game and deletes nothing).
    DeleteGame(usize, Game),
    /// Open the add-game form (with the sheet's half-typed game, if one is kept).
    AddGame,
    /// Open the form on a saved game to change it.
    EditGame(usize),
    /// Type into the open form.
    Draft(DraftEdit),
    /// Save the form's game (Save, or Enter in the form).
    SaveGame,
    /// Close the form, throwing away what was typed (undoable).
    DiscardDraft,
    /// Replace the settings (and save them).
    Settings(Box<Settings>),
    /// Switch the phones' page on or off (off forgets the link).
    Phones(bool),
    /// A new link for the phones (the old one stops working; every phone scans again).
    NewLink,
    /// The phones' link names this address of the machine (one of
    /// [`PhoneLink::addresses`](super::PhoneLink::addresses)); the secret stays, so phones
    /// that joined already keep working.
    ChooseAddress(IpAddr),
    /// List the machine's addresses again for the phones' link (the laptop joined the
    /// phones' Wi-Fi since): the secret stays.
    FindAddresses,
    /// Take back the last change of an area (of all, for `None`).
    Undo(Option<Area>),
    /// Do the last undone change of an area again.
    Redo(Option<Area>),
    /// Close the notice with this index.
    Dismiss(usize),
    /// Write the open sheet as CSV: to this file, or to a new one in the exports folder.
    ExportCsv(Option<PathBuf>),
    /// "Save CSV as…" found no dialog: the CSV goes to the exports folder, and the notice says
    /// so.
    ExportCsvNoDialog,
    /// A file the window wrote for the table (a picture of the sheet), or why it could not.
    Wrote {
        /// The file.
        path: PathBuf,
        /// The reason, worded in both languages, when it failed.
        error: Option<super::Worded>,
    },
    /// Play the three cues (or say there is no sound output).
    TestSound,
    /// Say a sample in this language (or say there is no speech engine).
    TestVoice(Language),
    /// Save the running turn's time (a few times a minute, and on closing).
    Checkpoint,
    /// A phone's request.
    Phone {
        /// What it asks.
        action: PhoneAction,
        /// The language of its page.
        lang: Language,
        /// The link it came through (a page of an earlier link is refused).
        link: u64,
    },
}

/// A change typed into the open form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DraftEdit {
    /// What the player at this seat (of the sheet) has left, as typed.
    Left(usize, String),
    /// A tile picked for this seat's field (a typed number gives way to tiles).
    Tile(usize, Tile),
    /// The not-melded mark of a seat.
    NotMelded(usize, bool),
    /// The winner named on a tie for lowest.
    TieWinner(Option<usize>),
}

/// What a command did (the `Result` around it is what must not be ignored: a refusal).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Done {
    /// The change it made, as recorded for undo (none for a command that changes nothing
    /// undoable, such as typing).
    pub change: Option<Change>,
    /// A file it wrote (an export).
    pub wrote: Option<PathBuf>,
    /// When what it changed is on disk ([`super::Saver::wait`]); none when nothing is saved.
    pub ticket: Option<Ticket>,
}

impl Done {
    /// Done, with this change.
    pub fn change(change: Change) -> Done {
        Done {
            change: Some(change),
            ..Done::default()
        }
    }
}

/// Why a command was not carried out (nothing changed).
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// A second press of the same gesture (a held key, a double-click, two phones at once).
    #[error("that press was part of the last one")]
    Guarded,
    /// No turn is under way.
    #[error("the timer has not been started")]
    NotStarted,
    /// A phone asked to start the clock, and it was already started (by another phone or the
    /// laptop) by the time the request came.
    #[error("the timer was already started")]
    AlreadyStarted,
    /// The turn named has already ended.
    #[error("that turn has already ended")]
    StaleTurn,
    /// Only the current player may end the turn (unless anyone may).
    #[error("it is not your turn")]
    NotYourTurn,
    /// Two names to merge are one already (or the same name).
    #[error("{0} and {1} are already counted as one player")]
    SameName(String, String),
    /// No player sits at this seat.
    #[error("there is no player {}", .0 + 1)]
    NoSuchSeat(usize),
    /// The seat's player is not on the open sheet.
    #[error("{0} is not on the open sheet")]
    NotOnSheet(String),
    /// No add-game form is open.
    #[error("no game is being entered")]
    NoForm,
    /// The form is changing a saved game: a phone's rack never goes into it.
    #[error("a saved game is being changed on the laptop")]
    EditingSavedGame,
    /// A phone's rack is not a number or tiles.
    #[error("not a number or tiles: {0}")]
    BadRack(RemainingError),
    /// A phone's rack is too long to be a rack.
    #[error("{0} characters is too long")]
    RackTooLong(usize),
    /// The form's game cannot be saved yet.
    #[error(transparent)]
    Draft(Box<DraftProblem>),
    /// The clock refused (a bad name, a seat change while running, …).
    #[error(transparent)]
    Timer(#[from] TimerError),
    /// The sheet refused.
    #[error(transparent)]
    Sheet(Box<SheetError>),
    /// Nothing to undo (here).
    #[error("nothing to undo")]
    NothingToUndo,
    /// Nothing to redo (here).
    #[error("nothing to redo")]
    NothingToRedo,
    /// A phone's page of an earlier link (phones were turned off or the link renewed).
    #[error("this link no longer works")]
    OldLink,
    /// The phones' link cannot name this address: it is not one of the machine's addresses
    /// a phone could reach (any more).
    #[error("{0} is not an address the phones can reach")]
    NoSuchAddress(IpAddr),
}

impl From<DraftProblem> for Refusal {
    fn from(problem: DraftProblem) -> Refusal {
        Refusal::Draft(Box::new(problem))
    }
}

impl From<SheetError> for Refusal {
    fn from(error: SheetError) -> Refusal {
        Refusal::Sheet(Box::new(error))
    }
}
