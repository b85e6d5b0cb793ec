//! The host of a club night's tables (`event serve`): the one owner of the tables at play, which
//! the phones of every table drive through [`ClubHost::act`], as the window and the phones drive
//! the evening through `Evening::apply`.
//!
//! - **Where the event is kept is a [`Ledger`].** The host keeps the event as last read and each
//!   table of the current round as a [`LiveTable`]; what it records goes through its ledger:
//!   - [`FolderLedger`] (`event serve`): no lock while it waits; each write is a short
//!     transaction — open the data folder as its writer (the folder's lock, asked for a few
//!     times 20 ms apart), read the event file again, apply, save, let go. So `event result`
//!     from another process (the host entering a table's racks) still works while it serves,
//!     and neither overwrites the other. While a window holds the folder, the phones are told
//!     their game is not saved and to enter it there; nothing they confirmed before is lost.
//!   - the window's event desk (`evening::event_desk::DeskLedger`), when the window hosts the
//!     tables itself: the desk stays the one owner of the open event; the host hands it the
//!     table's result and waits until the desk's writer has it on disk.
//! - **Nothing confirmed is lost.** A game is saved in the tables file
//!   (`events/<id>.live.json`, [`TablesAtPlay`]) before the phone that confirmed it is
//!   answered; the round's last game goes into the event itself (its [`Command::Result`]),
//!   both in one transaction. Racks as entered and who confirmed are kept too; the clock is not
//!   (a restarted host shows each table stopped).
//! - **Keys.** Each table has a random key, kept in the tables file, which its QR code carries
//!   and every phone request must name: a phone of table 3 cannot act for table 4.
//! - **Time.** The host's clock is monotonic from its start ([`ClubHost::now`]); the engine is
//!   given it. The round clock (`--round-minutes`) starts when the host first sees the round
//!   and is kept as a wall-clock time, so a restart does not give the room more time.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use chrono::Utc;
use subtle::ConstantTimeEq;

use super::net::Secret;
use crate::event::live::{LiveTable, TableCommand, TableDone, TableRefusal, TablesAtPlay};
use crate::event::{Command, Event, Refusal};
use crate::store::{EventId, Store, StoreError};

/// How long after a failed save of new keys the host tries again.
const KEYS_RETRY: Duration = Duration::from_secs(10);

/// Why a phone's request was not carried out (nothing changed).
#[derive(Debug)]
pub enum HostRefusal {
    /// The current round has no such table.
    NoSuchTable(u32),
    /// The request's key is not the table's.
    WrongKey,
    /// The table's result is in the event already.
    Recorded(u32),
    /// The table refused (not your turn, racks missing, a game that does not score, …).
    Table(TableRefusal),
    /// The event refused the table's games (it should not: they were checked alike).
    Event(Refusal),
    /// The change could not be saved; nothing of it was kept.
    NotSaved(Arc<StoreError>),
}

/// What a request did.
#[derive(Debug)]
pub struct TableActed {
    /// What the table did.
    pub done: TableDone,
    /// Whether it was written to disk before this answer.
    pub saved: bool,
}

/// The file's modification time and length: what tells a changed file.
pub(crate) fn stamp(path: &Path) -> Option<(SystemTime, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

/// Why a ledger did not record (nothing of it was kept).
#[derive(Debug)]
pub enum LedgerError {
    /// It could not be written.
    Store(Arc<StoreError>),
    /// The event refused the table's games.
    Refused(Refusal),
}

/// Where the host's event is kept, and how what the tables confirm is written: the data
/// folder in short transactions ([`FolderLedger`], `event serve`), or the window's event desk.
pub trait Ledger: Send {
    /// The event, if it changed since it was last handed out (another process's `event
    /// result`, a round seated in the window).
    fn reload(&mut self) -> Option<Event>;

    /// Records `result` (a table's [`Command::Result`]) if there is one, and saves the tables
    /// at play; on disk, both, when it returns `Ok` (with the event as recorded). A result the
    /// event has already (entered meanwhile by the organiser) is not an error: it stands.
    fn commit(
        &mut self,
        result: Option<Command>,
        tables: &TablesAtPlay,
    ) -> Result<Option<Event>, LedgerError>;
}

/// `event serve`'s ledger: the data folder, written in short transactions; see the
/// [module docs](self).
pub struct FolderLedger {
    dir: PathBuf,
    id: EventId,
    /// The event file as last read or written.
    seen: Option<(SystemTime, u64)>,
}

impl FolderLedger {
    /// The ledger of event `id` in the data folder `dir`, and the event as it is there now.
    pub fn open(dir: PathBuf, id: EventId) -> Result<(FolderLedger, Event), StoreError> {
        let reader = Store::open_reader(dir.clone());
        let seen = stamp(&reader.event_path(&id));
        let event = reader.load_event(&id)?.value;
        Ok((FolderLedger { dir, id, seen }, event))
    }
}

impl Ledger for FolderLedger {
    fn reload(&mut self) -> Option<Event> {
        let reader = Store::open_reader(self.dir.clone());
        let now = stamp(&reader.event_path(&self.id));
        if now.is_none() || now == self.seen {
            return None;
        }
        // A file caught mid-change or unreadable keeps what was read; the next look retries.
        let loaded = reader.load_event(&self.id).ok()?;
        self.seen = now;
        Some(loaded.value)
    }

    fn commit(
        &mut self,
        result: Option<Command>,
        tables: &TablesAtPlay,
    ) -> Result<Option<Event>, LedgerError> {
        let failed = |e: StoreError| LedgerError::Store(Arc::new(e));
        let store = Store::open(self.dir.clone()).map_err(failed)?;
        // The tables file is this host's alone; reading it first lets the save replace it.
        let _ = store.load_event_live(&self.id);
        let mut recorded = None;
        if let Some(result) = result {
            let mut fresh = store.load_event(&self.id).map_err(failed)?.value;
            match fresh.apply(result) {
                Ok(_) => {
                    store.save_event(&self.id, &fresh).map_err(failed)?;
                    self.seen = stamp(&store.event_path(&self.id));
                }
                Err(Refusal::AlreadyRecorded { .. }) => {}
                Err(refusal) => return Err(LedgerError::Refused(refusal)),
            }
            recorded = Some(fresh);
        }
        store.save_event_live(&self.id, tables).map_err(failed)?;
        Ok(recorded)
    }
}

/// The tables of a club night at play; see the [module docs](self).
pub struct ClubHost {
    ledger: Box<dyn Ledger>,
    id: EventId,
    event: Event,
    tables: BTreeMap<u32, LiveTable>,
    kept: TablesAtPlay,
    round_minutes: Option<u32>,
    epoch: Instant,
    /// New tables got keys (or a round its clock) not yet saved.
    unsaved_keys: bool,
    /// After a failed save of the keys, not before this (the folder's lock is asked for a few
    /// times, which should not hold up the phones twice a second).
    keys_retry: Option<Instant>,
}

impl ClubHost {
    /// `event serve`'s host of event `id` in the data folder `dir` ([`FolderLedger`]); reads
    /// the event and what was kept of its tables (nothing is written yet).
    pub fn open(
        dir: PathBuf,
        id: EventId,
        round_minutes: Option<u32>,
    ) -> Result<ClubHost, StoreError> {
        let (ledger, event) = FolderLedger::open(dir.clone(), id.clone())?;
        Ok(ClubHost::with_ledger(
            Box::new(ledger),
            event,
            &dir,
            id,
            round_minutes,
        ))
    }

    /// A host of `event` (id `id`, in the data folder `dir`, where its tables file is read
    /// from) recording through `ledger`.
    pub fn with_ledger(
        ledger: Box<dyn Ledger>,
        event: Event,
        dir: &Path,
        id: EventId,
        round_minutes: Option<u32>,
    ) -> ClubHost {
        let kept = Store::open_reader(dir)
            .load_event_live(&id)
            .unwrap_or_default();
        let mut host = ClubHost {
            ledger,
            id,
            event,
            tables: BTreeMap::new(),
            kept,
            round_minutes,
            epoch: Instant::now(),
            unsaved_keys: false,
            keys_retry: None,
        };
        host.sync_tables();
        host
    }

    /// The host's clock: time since it started.
    pub fn now(&self) -> Duration {
        self.epoch.elapsed()
    }

    /// The event as last read.
    pub fn event(&self) -> &Event {
        &self.event
    }

    /// The event's id.
    pub fn id(&self) -> &EventId {
        &self.id
    }

    /// The current round's tables at play, by number.
    pub fn tables(&self) -> &BTreeMap<u32, LiveTable> {
        &self.tables
    }

    /// A table's key (its QR code carries it).
    pub fn key(&self, table: u32) -> Option<&str> {
        self.kept.keys.get(&table).map(String::as_str)
    }

    /// When the round ends by its clock, on [`ClubHost::now`]'s scale (`None` without one).
    pub fn round_ends(&self) -> Option<Duration> {
        let minutes = self.round_minutes?;
        let started = self.kept.round_started?;
        let ends = started + chrono::Duration::minutes(i64::from(minutes));
        let left = (ends - Utc::now()).to_std().unwrap_or(Duration::ZERO);
        Some(self.now() + left)
    }

    /// Reads the event again if it changed since it was last read or written (another
    /// process's `event result`, a new seating); says whether it did.
    pub fn reload_if_changed(&mut self) -> bool {
        let Some(event) = self.ledger.reload() else {
            return false;
        };
        self.event = event;
        self.sync_tables();
        true
    }

    /// Makes the tables at play those of the event's current round: a table whose players
    /// are the same keeps its clock and games; a new round starts from what was kept of it.
    fn sync_tables(&mut self) {
        let Some(round) = self.event.rounds().last() else {
            self.tables.clear();
            return;
        };
        if self.kept.round != round.number {
            self.kept = TablesAtPlay {
                round: round.number,
                round_started: None,
                ..TablesAtPlay::default()
            };
        }
        if self.kept.round_started.is_none() && self.round_minutes.is_some() {
            self.kept.round_started = Some(Utc::now());
            self.unsaved_keys = true;
        }
        let mut tables = BTreeMap::new();
        for table in &round.tables {
            let names = self.event.seat_names(table);
            if let Some(live) = self.tables.remove(&table.number)
                && live.players().names() == names.as_slice()
            {
                tables.insert(table.number, live);
                continue;
            }
            let rules = self.event.table_rules(table);
            let games = self.event.setup().games;
            let Ok(live) = LiveTable::new(table.number, names, rules, games) else {
                continue;
            };
            let kept = self
                .kept
                .tables
                .get(&table.number)
                .cloned()
                .unwrap_or_default();
            tables.insert(table.number, live.restored(kept));
            if !self.kept.keys.contains_key(&table.number)
                && let Ok(secret) = Secret::random()
            {
                let key: String = secret.as_str().chars().take(12).collect();
                self.kept.keys.insert(table.number, key);
                self.unsaved_keys = true;
            }
        }
        self.tables = tables;
    }

    /// Whether the event has the current round's table's result.
    pub fn is_recorded(&self, table: u32) -> bool {
        self.event
            .rounds()
            .last()
            .and_then(|r| r.tables.iter().find(|t| t.number == table))
            .is_some_and(|t| t.is_finished())
    }

    /// Saves new tables' keys and a new round clock, if there are any (at the start and when
    /// a round is seated), so a QR code shown or printed survives a restart of the host.
    pub fn save_keys(&mut self) -> Result<(), LedgerError> {
        if !self.unsaved_keys || self.keys_retry.is_some_and(|at| Instant::now() < at) {
            return Ok(());
        }
        if let Err(e) = self.ledger.commit(None, &self.kept) {
            self.keys_retry = Some(Instant::now() + KEYS_RETRY);
            return Err(e);
        }
        self.unsaved_keys = false;
        self.keys_retry = None;
        Ok(())
    }

    /// A phone of `table` (naming `key`) asks `command`; see the [module docs](self).
    pub fn act(
        &mut self,
        table: u32,
        key: &str,
        command: TableCommand,
    ) -> Result<TableActed, HostRefusal> {
        let live = self
            .tables
            .get(&table)
            .ok_or(HostRefusal::NoSuchTable(table))?;
        let expected = self.kept.keys.get(&table).ok_or(HostRefusal::WrongKey)?;
        if !bool::from(expected.as_bytes().ct_eq(key.as_bytes())) {
            return Err(HostRefusal::WrongKey);
        }
        if self.is_recorded(table) {
            return Err(HostRefusal::Recorded(table));
        }
        let mut next = live.clone();
        let done = next
            .apply(command, self.now())
            .map_err(HostRefusal::Table)?;
        if !done.changes_games() {
            self.tables.insert(table, next);
            return Ok(TableActed { done, saved: false });
        }
        let mut kept = self.kept.clone();
        kept.tables.insert(table, next.kept().clone());
        let complete = match &done {
            TableDone::GameConfirmed {
                complete: Some(games),
                ..
            } => Some(games.clone()),
            _ => None,
        };
        let result = complete.map(|games| Command::Result {
            round: Some(kept.round),
            table,
            players: next.players().names().to_vec(),
            games,
            correct: false,
        });
        match self.ledger.commit(result, &kept) {
            Err(LedgerError::Store(error)) => Err(HostRefusal::NotSaved(error)),
            Err(LedgerError::Refused(refusal)) => Err(HostRefusal::Event(refusal)),
            Ok(event) => {
                self.kept = kept;
                self.unsaved_keys = false;
                self.tables.insert(table, next);
                if let Some(event) = event {
                    self.event = event;
                    self.sync_tables();
                }
                Ok(TableActed { done, saved: true })
            }
        }
    }
}
