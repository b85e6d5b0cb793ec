//! Events on disk: one file per event, `events/<id>.json`, written like the sheets (a
//! temporary file in the same folder, synced, renamed over the old one; the previous good copy
//! kept as `.bak`). A file that cannot be read is set aside (`*.corrupt-<timestamp>`) and
//! never overwritten; a good backup takes its place.
//!
//! The file holds the whole [`Event`], its append-only log included: every command that was
//! applied, so what the standings were built from can always be read back.

use std::fs;
use std::io;
use std::path::PathBuf;

use chrono::{DateTime, Utc};

use super::{Loaded, Notice, Store, StoreError, backup_path};
use crate::event::Event;
use crate::event::live::TablesAtPlay;

/// The events subfolder of the data folder.
pub const EVENTS_DIR: &str = "events";

/// An event's id: its file name without `.json` (ASCII letters, digits, `-`, `_`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventId(String);

impl EventId {
    /// Checks the name.
    ///
    /// ```
    /// use rummikub_companion::store::EventId;
    /// assert!(EventId::new("20261202-190000").is_ok());
    /// assert!(EventId::new("../x").is_err());
    /// ```
    pub fn new(name: &str) -> Result<EventId, StoreError> {
        if super::is_file_id(name) {
            Ok(EventId(name.to_owned()))
        } else {
            Err(StoreError::BadId(name.to_owned()))
        }
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for EventId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Store {
    /// The file of an event.
    pub fn event_path(&self, id: &EventId) -> PathBuf {
        self.dir.join(EVENTS_DIR).join(format!("{id}.json"))
    }

    /// A new, unused event id from the creation time (`20261202-190000`, then `-2`, …).
    pub fn new_event_id(&self, created: DateTime<Utc>) -> EventId {
        let base = created.format("%Y%m%d-%H%M%S").to_string();
        (1..1000)
            .map(|n| match n {
                1 => EventId(base.clone()),
                n => EventId(format!("{base}-{n}")),
            })
            .find(|id| {
                let path = self.event_path(id);
                !path.exists() && !backup_path(&path).exists()
            })
            .unwrap_or(EventId(base))
    }

    /// Saves an event atomically, keeping the previous good copy as `.bak`.
    pub fn save_event(&self, id: &EventId, event: &Event) -> Result<Vec<Notice>, StoreError> {
        self.check_writable()?;
        let folder = self.dir.join(EVENTS_DIR);
        fs::create_dir_all(&folder).map_err(|source| StoreError::Folder {
            dir: folder.clone(),
            source,
        })?;
        self.files()
            .save::<Event>(&self.event_path(id), "event", event)
    }

    /// The file where `event serve` keeps the current round's tables at play.
    pub fn event_live_path(&self, id: &EventId) -> PathBuf {
        self.dir.join(EVENTS_DIR).join(format!("{id}.live.json"))
    }

    /// Saves the tables at play atomically, like an event (its name is not an event id, so
    /// [`Store::list_events`] never lists it).
    pub fn save_event_live(
        &self,
        id: &EventId,
        tables: &TablesAtPlay,
    ) -> Result<Vec<Notice>, StoreError> {
        self.check_writable()?;
        self.files()
            .save::<TablesAtPlay>(&self.event_live_path(id), "tables", tables)
    }

    /// Loads the tables at play; `None` when there are none (or neither copy can be read).
    pub fn load_event_live(&self, id: &EventId) -> Option<TablesAtPlay> {
        self.files().load(&self.event_live_path(id), "tables").0
    }

    /// Loads an event, recovering from its backup if the file is bad or missing.
    pub fn load_event(&self, id: &EventId) -> Result<Loaded<Event>, StoreError> {
        let file = self.event_path(id);
        match self.files().load(&file, "event") {
            (Some(value), notices) => Ok(Loaded { value, notices }),
            (None, notices) if notices.is_empty() => Err(StoreError::NotFound { file }),
            (None, notices) => Err(StoreError::Unrecoverable { file, notices }),
        }
    }

    /// The events in the data folder, oldest id first (ids sort by creation time).
    pub fn list_events(&self) -> io::Result<Vec<EventId>> {
        let folder = self.dir.join(EVENTS_DIR);
        let entries = match fs::read_dir(&folder) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let mut ids: Vec<EventId> = entries
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                EventId::new(name.strip_suffix(".json")?).ok()
            })
            .collect();
        ids.sort();
        Ok(ids)
    }

    /// The most recent event, if any.
    pub fn latest_event(&self) -> io::Result<Option<EventId>> {
        Ok(self.list_events()?.pop())
    }
}
