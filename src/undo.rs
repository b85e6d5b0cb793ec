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
//!
//! Why undo looks at the tab it is asked from: at a table the clock goes on while someone
//! fixes the sheet. Getting back a game deleted two turns ago must not rewind those two turns,
//! and a Backspace meant for the clock must not take back a score. So undo (and redo) can be
//! asked for one [`Area`]: it takes the latest change of that area, as long as no later change
//! touched the same parts (then that later change must be undone first, from its own tab).
//! Asked for no area, it takes the latest change of all.

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

impl Snapshot {
    /// Whether this and `other` hold a common part (restoring one would undo the other).
    fn overlaps(&self, other: &Snapshot) -> bool {
        (self.timer.is_some() && other.timer.is_some())
            || (self.sheet.is_some() && other.sheet.is_some())
            || (self.table.is_some() && other.table.is_some())
    }
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
    /// The last thing done was an undo (the offer then says what was undone).
    just_undone: bool,
}

/// The latest entry of `stack` in `area` (any area for `None`) that no later entry overlaps.
fn latest(stack: &[Entry], area: Option<Area>) -> Option<usize> {
    let Some(area) = area else {
        return stack.len().checked_sub(1);
    };
    let i = stack.iter().rposition(|e| e.change.area() == area)?;
    let later_overlap = stack[i + 1..]
        .iter()
        .any(|e| e.state.overlaps(&stack[i].state));
    (!later_overlap).then_some(i)
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
        self.just_undone = false;
    }

    /// The change an undo in `area` (any, for `None`) would take back.
    pub fn next_undo(&self, area: Option<Area>) -> Option<&Change> {
        latest(&self.undo, area).map(|i| &self.undo[i].change)
    }

    /// The change a redo in `area` would do again.
    pub fn next_redo(&self, area: Option<Area>) -> Option<&Change> {
        latest(&self.redo, area).map(|i| &self.redo[i].change)
    }

    /// The change just undone, while nothing else has been done since.
    pub fn just_undone(&self) -> Option<&Change> {
        self.redo
            .last()
            .filter(|_| self.just_undone)
            .map(|e| &e.change)
    }

    /// Takes the entry to undo in `area`; give the state it replaces to [`History::undone`].
    pub fn take_undo(&mut self, area: Option<Area>) -> Option<Entry> {
        latest(&self.undo, area).map(|i| self.undo.remove(i))
    }

    /// Takes the entry to redo in `area`; give the state it replaces to [`History::redone`].
    pub fn take_redo(&mut self, area: Option<Area>) -> Option<Entry> {
        latest(&self.redo, area).map(|i| self.redo.remove(i))
    }

    /// Files an undone change for redo, with the parts as they were after it.
    pub fn undone(&mut self, change: Change, after: Snapshot) {
        self.redo.push(Entry {
            change,
            state: after,
        });
        self.just_undone = true;
    }

    /// Files a redone change for undo again, with the parts as they were before it.
    pub fn redone(&mut self, change: Change, before: Snapshot) {
        self.undo.push(Entry {
            change,
            state: before,
        });
        self.just_undone = false;
    }

    /// How many changes can be undone.
    pub fn depth(&self) -> usize {
        self.undo.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table_part() -> Snapshot {
        Snapshot {
            table: Some((vec!["Ann".into(), "Bo".into()], RuleSet::default())),
            ..Snapshot::default()
        }
    }

    fn sheet_part() -> Snapshot {
        Snapshot {
            sheet: Some(None),
            ..Snapshot::default()
        }
    }

    #[test]
    fn an_area_takes_its_latest_change_unless_a_later_one_touched_the_same_parts() {
        let mut h = History::default();
        h.record(Change::PlayersChanged, table_part());
        h.record(Change::GameAdded(1, 1), sheet_part());
        h.record(Change::RulesChanged, table_part());
        // The sheet's change is free: nothing later touched the sheet.
        assert_eq!(
            h.next_undo(Some(Area::Sheet)),
            Some(&Change::GameAdded(1, 1))
        );
        // The players' change is not: the rules change after it touched the same part.
        assert_eq!(h.next_undo(Some(Area::Timer)), None);
        assert_eq!(h.next_undo(None), Some(&Change::RulesChanged));
        let taken = h.take_undo(Some(Area::Sheet)).expect("the sheet's change");
        assert_eq!(taken.change, Change::GameAdded(1, 1));
        h.undone(taken.change, sheet_part());
        assert_eq!(h.just_undone(), Some(&Change::GameAdded(1, 1)));
        assert_eq!(h.depth(), 2, "the others stay, in order");
        assert_eq!(h.next_undo(None), Some(&Change::RulesChanged));
        h.record(Change::Paused, Snapshot::default());
        assert_eq!(h.just_undone(), None, "a new change ends the 'undone' line");
        assert_eq!(h.next_redo(None), None, "and forgets what could be redone");
    }
}
