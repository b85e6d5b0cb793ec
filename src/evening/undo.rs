//! The evening's one undo history: every change the table makes (an end of turn, a pause, a
//! player change, a game added, edited or deleted, a draft thrown away, a rule change, a
//! reset, a new sheet) can be taken back, many levels deep, and redone — also after a restart.
//!
//! Why the state of the touched parts and not inverse commands: each change records the parts
//! it touches (the timer, the open sheet, the seats and rules, a sheet's draft) as they were
//! *before*, so undoing restores them exactly, whatever the change was, and a new kind of change
//! cannot forget its inverse. Only the parts a change touched are restored: undoing a game
//! added five minutes ago does not rewind the clock of the turn running now. A timer part
//! remembers the clock reading at which it was taken and comes back
//! [rebased](crate::timer::Timer::rebased), so a player gets back exactly the time they had.
//!
//! Why small: a sheet part is a [`SheetPatch`] (the games that differ), not a copy of the
//! sheet, and a switch of sheets keeps only which sheet was open (the sheet itself is on disk).
//! An entry is therefore as large as its change, and the history can be saved with the evening
//! on every change. Entries are shared (`Arc`), so taking the history for a save copies no
//! sheet.
//!
//! Why undo looks at the tab it is asked from: at a table the clock goes on while someone fixes
//! the sheet. Getting back a game deleted two turns ago must not rewind those two turns, and a
//! Backspace meant for the clock must not take back a score. So undo (and redo) can be asked
//! for one [`Area`]: it takes the latest change of that area, as long as no later change touched
//! the same parts (then that later change must be undone first, from its own tab). Asked for no
//! area, it takes the latest change of all.

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::saved::Draft;
use crate::rules::RuleSet;
use crate::score::{Sheet, SheetPatch};
use crate::store::SheetId;
use crate::timer::{SavedTimer, Timer};

/// How many changes can be taken back (older ones are forgotten first).
pub const UNDO_LIMIT: usize = 500;

/// What a change was, for the undo offer ("Game 3 deleted · Undo"); translated at the view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
    /// Players were added, removed, renamed or moved (saved by earlier versions; new
    /// changes say which, below).
    PlayersChanged,
    /// A player was renamed.
    Renamed {
        /// The name before.
        from: String,
        /// The name after.
        to: String,
    },
    /// A player was added.
    PlayerAdded(String),
    /// A player was removed.
    PlayerRemoved(String),
    /// A player moved to another seat (1-based).
    PlayerMoved {
        /// Who moved.
        name: String,
        /// The seat they moved to, 1 first.
        seat: usize,
    },
    /// The seats were replaced at once: the new order.
    SeatsChanged(Vec<String>),
    /// A game was added (round, game in round).
    GameAdded(usize, usize),
    /// A game was changed.
    GameEdited(usize, usize),
    /// A game was deleted.
    GameDeleted(usize, usize),
    /// A half-typed game was thrown away.
    DraftDiscarded,
    /// The rules for new sheets (and the timer) changed (saved by earlier versions; new
    /// changes say what changed, below).
    RulesChanged,
    /// The rules for new sheets (and the timer) changed from one set to another.
    RuleChanged {
        /// The rules before.
        from: RuleSet,
        /// The rules after.
        to: RuleSet,
    },
    /// Two names were merged in the history (`from` counted as `into` from now on).
    NamesMerged {
        /// The name merged away.
        from: String,
        /// The name kept.
        into: String,
    },
    /// A name merged in the history was counted as itself again.
    NamesSeparated {
        /// The name counted as itself again.
        from: String,
        /// The name it had been merged into.
        into: String,
    },
    /// A new sheet was started.
    NewSheet,
    /// Another sheet was opened.
    SheetOpened,
    /// The settings' rules were applied to the open sheet.
    RulesApplied,
}

/// Where a change belongs, and what an undo is asked for: a change belongs to the clock, the
/// seats, the sheet or the settings; an undo asks for one of those or for the timer tab,
/// which covers the clock and the seats (Backspace asks for the clock alone: a rename is not
/// a clock change).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Area {
    /// The timer tab: the clock and the seats.
    Timer,
    /// The clock: a turn started, ended, paused, resumed, reset.
    Clock,
    /// The seats: players renamed, added, removed, moved.
    Seats,
    /// The score sheet (and the history shown on it).
    Sheet,
    /// The settings.
    Settings,
}

impl Area {
    /// Whether an undo asked for this area takes a change that belongs to `area`.
    pub fn covers(self, area: Area) -> bool {
        self == area || (self == Area::Timer && matches!(area, Area::Clock | Area::Seats))
    }
}

impl Change {
    /// Where a change belongs (the clock, the seats, the sheet or the settings).
    pub fn area(&self) -> Area {
        match self {
            Change::Started
            | Change::TurnEnded(_)
            | Change::Paused
            | Change::Resumed
            | Change::TimerReset => Area::Clock,
            Change::PlayersChanged
            | Change::Renamed { .. }
            | Change::PlayerAdded(_)
            | Change::PlayerRemoved(_)
            | Change::PlayerMoved { .. }
            | Change::SeatsChanged(_) => Area::Seats,
            Change::GameAdded(..)
            | Change::GameEdited(..)
            | Change::GameDeleted(..)
            | Change::DraftDiscarded
            | Change::NewSheet
            | Change::SheetOpened
            | Change::RulesApplied
            | Change::NamesMerged { .. }
            | Change::NamesSeparated { .. } => Area::Sheet,
            Change::RulesChanged | Change::RuleChanged { .. } => Area::Settings,
        }
    }

    /// What changed between two seatings, as the undo offer names it: one player renamed,
    /// added, removed or moved, else the new seating.
    pub fn of_seats(before: &[String], after: &[String]) -> Change {
        let differ: Vec<usize> = (0..before.len().max(after.len()))
            .filter(|&i| before.get(i) != after.get(i))
            .collect();
        if before.len() == after.len() {
            match differ.as_slice() {
                [i] => {
                    return Change::Renamed {
                        from: before[*i].clone(),
                        to: after[*i].clone(),
                    };
                }
                [i, j] if *j == i + 1 && before[*i] == after[*j] && before[*j] == after[*i] => {
                    return Change::PlayerMoved {
                        name: after[*i].clone(),
                        seat: i + 1,
                    };
                }
                _ => {}
            }
        }
        let without = |list: &[String], i: usize| {
            let mut list = list.to_vec();
            list.remove(i);
            list
        };
        if after.len() == before.len() + 1
            && let Some(&i) = differ.first()
            && without(after, i) == before
        {
            return Change::PlayerAdded(after[i].clone());
        }
        if before.len() == after.len() + 1
            && let Some(&i) = differ.first()
            && without(before, i) == after
        {
            return Change::PlayerRemoved(before[i].clone());
        }
        Change::SeatsChanged(after.to_vec())
    }
}

/// The timer as a change found it.
#[derive(Clone, Debug)]
pub enum TimerPart {
    /// Taken in this run: the timer and the clock reading it was taken at.
    Live(Box<Timer>, Duration),
    /// Read back from the saved evening: it comes back paused, like a restored turn.
    Saved(SavedTimer),
}

impl TimerPart {
    /// The part as saved.
    fn saved(&self) -> SavedTimer {
        match self {
            TimerPart::Live(timer, taken_at) => timer.saved(*taken_at),
            TimerPart::Saved(saved) => saved.clone(),
        }
    }
}

impl Serialize for TimerPart {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.saved().serialize(s)
    }
}

impl<'de> Deserialize<'de> for TimerPart {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        SavedTimer::deserialize(d).map(TimerPart::Saved)
    }
}

/// The open sheet as a change found it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum SheetPart {
    /// Its games and header: the patch that puts them back on the sheet `id`.
    Games {
        /// The sheet.
        id: SheetId,
        /// What puts it back.
        patch: SheetPatch,
    },
    /// Which sheet was open (none, or one on disk). Without a data folder the sheet is kept
    /// here too, since it cannot be read back (never saved).
    Open {
        /// The sheet that was open.
        id: Option<SheetId>,
        /// Its contents, only when there is no data folder to read it from.
        #[serde(skip)]
        kept: Option<Arc<Sheet>>,
    },
}

/// The parts of the evening a change touched, as they were; `None` parts are untouched.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Parts {
    /// The timer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timer: Option<TimerPart>,
    /// The open sheet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sheet: Option<SheetPart>,
    /// The seats and the rules of the settings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<(Vec<String>, RuleSet)>,
    /// A sheet's draft (none: there was no half-typed game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft: Option<(SheetId, Option<Draft>)>,
    /// Other sheets than the open one (a rename carried to the evening's sheets): the patch
    /// that puts each back.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub others: Vec<(SheetId, SheetPatch)>,
    /// The names counted as one in the history.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merges: Option<Vec<(String, String)>>,
}

impl Parts {
    /// Whether this and `other` hold a common part (restoring one would undo the other).
    fn overlaps(&self, other: &Parts) -> bool {
        (self.timer.is_some() && other.timer.is_some())
            || (self.sheet.is_some() && other.sheet.is_some())
            || (self.seats.is_some() && other.seats.is_some())
            || matches!((&self.draft, &other.draft), (Some((a, _)), Some((b, _))) if a == b)
            || (self.merges.is_some() && other.merges.is_some())
            || self
                .others
                .iter()
                .any(|(a, _)| other.others.iter().any(|(b, _)| a == b))
    }
}

/// One change that can be taken back (or redone).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Entry {
    /// What it was.
    pub change: Change,
    /// The touched parts as they were before it (for undo) or after it (for redo).
    pub state: Parts,
}

/// The undo history as saved with the evening.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SavedUndo {
    /// Changes that can be undone, oldest first.
    pub undo: Vec<Arc<Entry>>,
    /// Changes that can be redone, oldest first.
    pub redo: Vec<Arc<Entry>>,
}

impl SavedUndo {
    /// Nothing to undo or redo.
    pub fn is_empty(&self) -> bool {
        self.undo.is_empty() && self.redo.is_empty()
    }
}

impl PartialEq for SavedUndo {
    /// Same changes in the same order (the parts are compared by what they say).
    fn eq(&self, other: &SavedUndo) -> bool {
        let changes = |v: &[Arc<Entry>]| v.iter().map(|e| e.change.clone()).collect::<Vec<_>>();
        changes(&self.undo) == changes(&other.undo) && changes(&self.redo) == changes(&other.redo)
    }
}

/// The undo and redo stacks of the evening.
#[derive(Debug, Default)]
pub struct UndoHistory {
    undo: Vec<Arc<Entry>>,
    redo: Vec<Arc<Entry>>,
    /// The last thing done was an undo (the offer then says what was undone).
    just_undone: bool,
}

/// The latest entry of `stack` in `area` (any area for `None`) that no later entry overlaps.
fn latest(stack: &[Arc<Entry>], area: Option<Area>) -> Option<usize> {
    let Some(area) = area else {
        return stack.len().checked_sub(1);
    };
    let i = stack.iter().rposition(|e| area.covers(e.change.area()))?;
    let later_overlap = stack[i + 1..]
        .iter()
        .any(|e| e.state.overlaps(&stack[i].state));
    (!later_overlap).then_some(i)
}

fn owned(entry: Arc<Entry>) -> Entry {
    Arc::try_unwrap(entry).unwrap_or_else(|shared| (*shared).clone())
}

impl UndoHistory {
    /// The history as saved (restored with [`UndoHistory::restored`]).
    pub fn saved(&self) -> SavedUndo {
        SavedUndo {
            undo: self.undo.clone(),
            redo: self.redo.clone(),
        }
    }

    /// A history read back from the saved evening.
    pub fn restored(saved: SavedUndo) -> UndoHistory {
        let mut undo = saved.undo;
        let cut = undo.len().saturating_sub(UNDO_LIMIT);
        undo.drain(..cut);
        UndoHistory {
            undo,
            redo: saved.redo,
            just_undone: false,
        }
    }

    /// Records a change done just now, with the touched parts as they were before it. A new
    /// change forgets what could be redone.
    pub fn record(&mut self, change: Change, before: Parts) {
        self.undo.push(Arc::new(Entry {
            change,
            state: before,
        }));
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

    /// Takes the entry to undo in `area`; give the state it replaces to [`UndoHistory::undone`].
    pub fn take_undo(&mut self, area: Option<Area>) -> Option<Entry> {
        latest(&self.undo, area).map(|i| owned(self.undo.remove(i)))
    }

    /// Takes the entry to redo in `area`; give the state it replaces to [`UndoHistory::redone`].
    pub fn take_redo(&mut self, area: Option<Area>) -> Option<Entry> {
        latest(&self.redo, area).map(|i| owned(self.redo.remove(i)))
    }

    /// Files an undone change for redo, with the parts as they were after it.
    pub fn undone(&mut self, change: Change, after: Parts) {
        self.redo.push(Arc::new(Entry {
            change,
            state: after,
        }));
        self.just_undone = true;
    }

    /// Files a redone change for undo again, with the parts as they were before it.
    pub fn redone(&mut self, change: Change, before: Parts) {
        self.undo.push(Arc::new(Entry {
            change,
            state: before,
        }));
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

    fn seats_part() -> Parts {
        Parts {
            seats: Some((vec!["Ann".into(), "Bo".into()], RuleSet::default())),
            ..Parts::default()
        }
    }

    fn sheet_part() -> Parts {
        Parts {
            sheet: Some(SheetPart::Open {
                id: None,
                kept: None,
            }),
            ..Parts::default()
        }
    }

    #[test]
    fn an_area_takes_its_latest_change_unless_a_later_one_touched_the_same_parts() {
        let mut h = UndoHistory::default();
        h.record(Change::PlayersChanged, seats_part());
        h.record(Change::GameAdded(1, 1), sheet_part());
        h.record(Change::RulesChanged, seats_part());
        // The sheet's change is free: nothing later touched the sheet.
        assert_eq!(
            h.next_undo(Some(Area::Sheet)),
            Some(&Change::GameAdded(1, 1))
        );
        // The players' change is not: the rules change after it touched the same part.
        assert_eq!(h.next_undo(Some(Area::Timer)), None);
        assert_eq!(h.next_undo(Some(Area::Seats)), None);
        // Nor is it a clock change.
        assert_eq!(h.next_undo(Some(Area::Clock)), None);
        assert_eq!(h.next_undo(None), Some(&Change::RulesChanged));
        let taken = h.take_undo(Some(Area::Sheet)).expect("the sheet's change");
        assert_eq!(taken.change, Change::GameAdded(1, 1));
        h.undone(taken.change, sheet_part());
        assert_eq!(h.just_undone(), Some(&Change::GameAdded(1, 1)));
        assert_eq!(h.depth(), 2, "the others stay, in order");
        assert_eq!(h.next_undo(None), Some(&Change::RulesChanged));
        h.record(Change::Paused, Parts::default());
        assert_eq!(h.just_undone(), None, "a new change ends the 'undone' line");
        assert_eq!(h.next_redo(None), None, "and forgets what could be redone");
    }

    #[test]
    fn a_seating_change_is_named_by_what_changed() {
        let names = |list: &[&str]| list.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        let before = names(&["Ann", "Ben", "Cy"]);
        let cases = [
            (
                names(&["Ann", "Benny", "Cy"]),
                Change::Renamed {
                    from: "Ben".into(),
                    to: "Benny".into(),
                },
            ),
            (
                names(&["Ann", "Ben", "Cy", "Dee"]),
                Change::PlayerAdded("Dee".into()),
            ),
            (names(&["Ann", "Cy"]), Change::PlayerRemoved("Ben".into())),
            (
                names(&["Ben", "Ann", "Cy"]),
                Change::PlayerMoved {
                    name: "Ben".into(),
                    seat: 1,
                },
            ),
            (
                names(&["Cy", "Ann", "Ben"]),
                Change::SeatsChanged(names(&["Cy", "Ann", "Ben"])),
            ),
        ];
        for (after, change) in cases {
            assert_eq!(Change::of_seats(&before, &after), change, "{after:?}");
            assert_eq!(change.area(), Area::Seats);
            assert!(Area::Timer.covers(change.area()));
            assert!(!Area::Clock.covers(change.area()));
        }
    }

    #[test]
    fn the_saved_history_reads_back_with_its_changes_in_order() {
        let mut h = UndoHistory::default();
        h.record(Change::PlayersChanged, seats_part());
        h.record(Change::GameDeleted(1, 2), sheet_part());
        let json = serde_json::to_string(&h.saved()).expect("JSON");
        let back = UndoHistory::restored(serde_json::from_str(&json).expect("reads back"));
        assert_eq!(back.saved(), h.saved());
        assert_eq!(back.next_undo(None), Some(&Change::GameDeleted(1, 2)));
    }
}
