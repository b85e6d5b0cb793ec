//! What the evening writes: the settings, its sheets and the evening file — the evening's
//! [`Job`]s for the one writer thread every owner uses ([`crate::store::saver`]).

use std::sync::Arc;

use super::saved::SavedEvening;
use super::settings::Settings;
use crate::score::Sheet;
use crate::store::saver::{Job, Saver, Ticket, Urgency};
use crate::store::{Notice, SheetId, Store, StoreError};

/// One of the evening's files waiting to be written.
#[derive(Debug)]
pub enum EveningJob {
    /// `settings.json`.
    Settings(Box<Settings>),
    /// A sheet.
    Sheet(SheetId, Arc<Sheet>),
    /// `evening.json`.
    Evening(Box<SavedEvening>),
}

impl Job for EveningJob {
    type Place = Store;
    const KINDS: usize = 3;

    fn same_file(&self, other: &EveningJob) -> bool {
        match (self, other) {
            (EveningJob::Settings(_), EveningJob::Settings(_))
            | (EveningJob::Evening(_), EveningJob::Evening(_)) => true,
            (EveningJob::Sheet(a, _), EveningJob::Sheet(b, _)) => a == b,
            _ => false,
        }
    }

    /// Sheets go first, the evening last: the evening names the sheet and its drafts.
    fn order(&self) -> u8 {
        match self {
            EveningJob::Sheet(..) => 0,
            EveningJob::Settings(_) => 1,
            EveningJob::Evening(_) => 2,
        }
    }

    /// Settings 0, sheets 1, the evening 2.
    fn kind(&self) -> usize {
        match self {
            EveningJob::Settings(_) => 0,
            EveningJob::Sheet(..) => 1,
            EveningJob::Evening(_) => 2,
        }
    }

    fn write(&self, store: &Store) -> Result<Vec<Notice>, StoreError> {
        match self {
            EveningJob::Settings(s) => store.save_settings(s.as_ref()),
            EveningJob::Sheet(id, sheet) => store.save_sheet(id, sheet),
            EveningJob::Evening(e) => store.save_evening(e.as_ref()),
        }
    }

    fn writable(store: &Store) -> bool {
        store.access().is_writable()
    }
}

/// The evening's writer.
pub type EveningSaver = Saver<EveningJob>;

impl Saver<EveningJob> {
    /// Saves the settings at once.
    pub fn settings(&self, settings: &Settings) -> Ticket {
        self.push(
            EveningJob::Settings(Box::new(settings.clone())),
            Urgency::Now,
        )
    }

    /// Saves a sheet at once.
    pub fn sheet(&self, id: &SheetId, sheet: Arc<Sheet>) -> Ticket {
        self.push(EveningJob::Sheet(id.clone(), sheet), Urgency::Now)
    }

    /// Saves the evening, at once or within [`SOON`](crate::store::saver::SOON).
    pub fn evening(&self, evening: SavedEvening, urgency: Urgency) -> Ticket {
        self.push(EveningJob::Evening(Box::new(evening)), urgency)
    }
}
