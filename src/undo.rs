//! The evening's one undo history: every change the table makes (an end of turn, a pause, a
//! player change, a game added, edited or deleted, a rule change, a reset, a new sheet) can be
//! taken back, many levels deep, and redone.
//!
//! Why snapshots and not inverse commands: each change records the state of the parts it
//! touches (the timer, the open sheet, the table's seats and rules) as it was *before*, so
//! undoing restores it exactly, whatever the change was, and a new kind of change cannot forget
//! its inverse. Only the parts a change touched are restored: undoing a game added five minutes
//! ago does not rewind the clock of the turn running now. A timer snapshot remembers the clock
//! reading at which it was taken and comes back [rebased](crate::timer::Timer::rebased) to the
//! moment it is restored, so a player gets back exactly the time they had.

use std::time::Duration;

use crate::rules::RuleSet;
use crate::score::Sheet;
use crate::store::SheetId;
use crate::timer::Timer;

/// How many changes can be taken back (older ones are forgotten first).
pub const UNDO_LIMIT: usize = 500;

/// What a change was, for the undo offer ("Game 3 deleted · Undo"); translated at the view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The first turn started.
    Started,
    /// A player's turn was ended.
    TurnEnded(String),
    /// The clock was paused.
    Paused,
    /// The clock was resumed.
    Resumed,
    /// The timer was reset for a new game.
    TimerReset,
    /// Players were added, removed, renamed or moved.
    PlayersChanged,
    /// A game was added (round, game in round).
    GameAdded(usize, usize),
    /// A game was changed.
    GameEdited(usize, usize),
    /// A game was deleted.
    GameDeleted(usize, usize),
    /// The rules for new sheets (and the timer) changed.
    RulesChanged,
    /// A new sheet was started.
    NewSheet,
    /// Another sheet was opened.
    SheetOpened,
    /// The settings' rules were applied to the open sheet.
    RulesApplied,
}

/// Where a change is offered for undo: the view it happened in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Area {
    /// The timer.
    Timer,
    /// The score sheet.
    Sheet,
    /// The settings.
    Settings,
}

impl Change {
    /// The view a change belongs to.
    pub fn area(&self) -> Area {
        match self {
            Change::Started
            | Change::TurnEnded(_)
            | Change::Paused
            | Change::Resumed
            | Change::TimerReset
            | Change::PlayersChanged => Area::Timer,
            Change::GameAdded(..)
            | Change::GameEdited(..)
            | Change::GameDeleted(..)
            | Change::NewSheet
            | Change::SheetOpened
            | Change::RulesApplied => Area::Sheet,
            Change::RulesChanged => Area::Settings,
        }
    }
}

/// The open sheet: its id and contents, or none. This is what undo keeps of the sheet.
pub type OpenSheet = Option<(SheetId, Sheet)>;

/// The parts of the evening a change touched, as they were; `None` parts are untouched.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    /// The timer and the clock reading it was copied at.
    pub timer: Option<(Timer, Duration)>,
    /// The open sheet.
    pub sheet: Option<OpenSheet>,
    /// The seats and the rules of the settings.
    pub table: Option<(Vec<String>, RuleSet)>,
}

/// One change that can be taken back (or redone).
#[derive(Clone, Debug)]
pub struct Entry {
    /// What it was.
    pub change: Change,
    /// The touched parts as they were before it (for undo) or after it (for redo).
    pub state: Snapshot,
}

/// The undo and redo stacks.
#[derive(Debug, Default)]
pub struct History {
    undo: Vec<Entry>,
    redo: Vec<Entry>,
}

impl History {
    /// Records a change done just now, with the touched parts as they were before it. A new
    /// change forgets what could be redone.
    pub fn record(&mut self, change: Change, before: Snapshot) {
        self.undo.push(Entry {
            change,
            state: before,
        });
        if self.undo.len() > UNDO_LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// The change an undo would take back.
    pub fn next_undo(&self) -> Option<&Change> {
        self.undo.last().map(|e| &e.change)
    }

    /// The change a redo would do again.
    pub fn next_redo(&self) -> Option<&Change> {
        self.redo.last().map(|e| &e.change)
    }

    /// Takes the entry to undo; give the state it replaces to [`History::undone`].
    pub fn take_undo(&mut self) -> Option<Entry> {
        self.undo.pop()
    }

    /// Takes the entry to redo; give the state it replaces to [`History::redone`].
    pub fn take_redo(&mut self) -> Option<Entry> {
        self.redo.pop()
    }

    /// Files an undone change for redo, with the parts as they were after it.
    pub fn undone(&mut self, change: Change, after: Snapshot) {
        self.redo.push(Entry {
            change,
            state: after,
        });
    }

    /// Files a redone change for undo again, with the parts as they were before it.
    pub fn redone(&mut self, change: Change, before: Snapshot) {
        self.undo.push(Entry {
            change,
            state: before,
        });
    }

    /// How many changes can be undone.
    pub fn depth(&self) -> usize {
        self.undo.len()
    }
}
