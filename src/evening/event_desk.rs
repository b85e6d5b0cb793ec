//! The window's club night: [`EventDesk`], the owner of the event open in the Event view.
//!
//! The event is not part of the evening (a club night outlives an evening's sheets and has its
//! own file, `events/<id>.json`), so it has an owner of its own, shaped like the evening's:
//! every change goes through [`EventDesk::apply`] (the engine's one [`Event::apply`]: all of a
//! command or nothing, with the engine's typed [`Refusal`]), and the disk is written by a
//! thread of the desk's, never by the caller. The window's frame never waits for a disk sync.
//!
//! The desk writes through a clone of the evening's [`Store`], which shares the folder lock: the
//! window that holds the lock writes events itself, and an `event result` on the command line
//! meanwhile is refused (read-only store), as the command line's docs say.
//!
//! - **Saves**: the newest state of the open event replaces one waiting to be written; a failed
//!   write keeps it and retries with back-off (0.5 s doubling to 30 s) while the view shows one
//!   line saying the event is not saved.
//! - **Exports** (the seating sheet, the standings): the system's save dialog runs on a thread of
//!   its own; no answer within [`NO_DIALOG_WITHIN`] means no dialog could be shown, and the file
//!   goes to the exports folder (as the sheet's "Save CSV as…" does); a later `None` is a cancel.
//! - **The saved events' list** ([`EventDesk::refresh`]): the folder's names are read at once, the
//!   files on a thread of their own (50 large events take ~37 ms to read); the window repaints
//!   when the list is in.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use crate::event::live::TablesAtPlay;
use crate::event::{Command, Event, EventSetup, Outcome, Refusal, read_players};
use crate::score::table::{TableError, line, read_score_csv};
use crate::server::club::{Ledger, LedgerError};
use crate::store::{EventId, Store, StoreError};

/// A dialog that answers `None` sooner than this showed nothing (the sheet's export uses the
/// same rule, `ui::app::actions::NO_DIALOG_WITHIN`).
pub const NO_DIALOG_WITHIN: Duration = Duration::from_millis(1000);

/// The longest wait between retries of a failing save.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// A save dialog: a suggested file name in, the chosen path (or nothing) out.
pub type AskPath = Arc<dyn Fn(&str) -> Option<PathBuf> + Send + Sync>;

/// What makes an export's bytes, off the window's thread.
pub type MakeBytes = Box<dyn FnOnce() -> std::io::Result<Vec<u8>> + Send>;

/// Why the desk did not do what was asked (nothing changed); worded by
/// [`crate::i18n::event::window::desk_error`].
#[derive(Debug)]
pub enum DeskError {
    /// There is no data folder.
    NoDataFolder,
    /// The data folder is read-only for this window (another window holds it, or it cannot be
    /// written).
    ReadOnly,
    /// No event is open.
    NotOpen,
    /// The players text names nobody.
    NoPlayers,
    /// A line of the players text is refused.
    PlayersLine {
        /// 1-based line.
        line: usize,
        /// Why.
        why: Refusal,
    },
    /// The event refused.
    Event(Refusal),
    /// The games typed do not read as a table's games.
    Table(TableError),
    /// The data folder could not be read.
    Store(StoreError),
    /// The tables' host could not listen.
    Listen {
        /// Where it tried.
        address: String,
        /// The system's reason.
        error: String,
    },
}

impl From<Refusal> for DeskError {
    fn from(r: Refusal) -> DeskError {
        DeskError::Event(r)
    }
}

/// An event in the data folder, as the Event view lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventSummary {
    /// Its id.
    pub id: EventId,
    /// Its name (`None` when the file could not be read).
    pub name: Option<String>,
    /// Registered players.
    pub players: usize,
    /// The current round.
    pub round: u32,
}

/// How the last export went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExportReport {
    /// Written here (`to_exports`: to the exports folder because no dialog could be shown).
    Wrote {
        /// Where.
        path: PathBuf,
        /// No dialog: the exports folder was used.
        to_exports: bool,
    },
    /// Could not be written.
    Failed {
        /// Where it was going.
        path: PathBuf,
        /// The system's reason.
        error: String,
    },
}

/// What the view shows of the desk's writing.
#[derive(Clone, Debug, Default)]
pub struct DeskStatus {
    /// A change not on disk yet.
    pub unsaved: bool,
    /// The last save failed (it is retried): why.
    pub failure: Option<Arc<StoreError>>,
    /// The last export.
    pub export: Option<ExportReport>,
    /// The saved events are being read ([`EventDesk::refresh`]).
    pub listing: bool,
}

struct ExportJob {
    /// Where, or `None` for a new file in the exports folder.
    to: Option<PathBuf>,
    /// The file name suggested (used in the exports folder).
    name: String,
    bytes: Vec<u8>,
}

#[derive(Default)]
struct Queue {
    /// The newest state of each event waiting to be written (one per event: a newer state
    /// replaces a waiting one of the same event, never another event's).
    saves: Vec<(EventId, Arc<Event>)>,
    exports: VecDeque<ExportJob>,
    /// Exports asked for and not yet written or given up (being made, waiting for a dialog,
    /// queued or being written): a flush waits for none.
    exports_pending: usize,
    /// Listings of the events folder asked for and not yet read ([`EventDesk::refresh`]).
    lists_pending: usize,
    /// The newest listing read, and the number of the refresh it came from (an older one
    /// finishing later does not replace it).
    known: (u64, Arc<[EventSummary]>),
    /// Saves asked for and written (a flush waits until they are equal).
    asked: u64,
    written: u64,
    failure: Option<Arc<StoreError>>,
    retry_at: Option<Instant>,
    backoff: Duration,
    export: Option<ExportReport>,
    /// Saves written, for tests.
    writes: u64,
    stop: bool,
}

/// The open event, and the newest state of every event this desk changed: what its file holds
/// or is about to (only this desk writes while the window holds the lock), so reopening an event
/// or listing it never reads a file a waiting save is about to replace. Shared with the host of
/// the tables ([`DeskLedger`]) while the window hosts them.
#[derive(Default)]
struct Books {
    open: Option<(EventId, Arc<Event>)>,
    latest: Vec<(EventId, Arc<Event>)>,
}

struct Inner {
    store: Option<Store>,
    books: Mutex<Books>,
    queue: Mutex<Queue>,
    wake: Condvar,
    settled: Condvar,
    notify: Box<dyn Fn() + Send + Sync>,
}

fn lock(queue: &Mutex<Queue>) -> MutexGuard<'_, Queue> {
    queue.lock().unwrap_or_else(|e| e.into_inner())
}

fn books(inner: &Inner) -> MutexGuard<'_, Books> {
    inner.books.lock().unwrap_or_else(|e| e.into_inner())
}

/// The owner of the window's open event; see the [module docs](self).
pub struct EventDesk {
    inner: Arc<Inner>,
    thread: Option<JoinHandle<()>>,
    /// Ids made by this desk (their files may not be written yet).
    made: Vec<EventId>,
    /// Refreshes asked for (numbers the listings).
    refreshes: u64,
}

impl std::fmt::Debug for EventDesk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventDesk")
            .field("open", &self.open().map(|(id, _)| id))
            .finish_non_exhaustive()
    }
}

impl EventDesk {
    /// A desk writing through `store` (a clone of the evening's, sharing its lock) on its own
    /// thread; `notify` is called when a save or an export has finished (the window repaints).
    pub fn start(store: Option<Store>, notify: impl Fn() + Send + Sync + 'static) -> EventDesk {
        let inner = Arc::new(Inner {
            store,
            books: Mutex::new(Books::default()),
            queue: Mutex::new(Queue::default()),
            wake: Condvar::new(),
            settled: Condvar::new(),
            notify: Box::new(notify),
        });
        let worker = Arc::clone(&inner);
        let thread = std::thread::Builder::new()
            .name("event-saver".into())
            .spawn(move || worker.run())
            .ok();
        EventDesk {
            inner,
            thread,
            made: Vec::new(),
            refreshes: 0,
        }
    }

    /// The open event and its id (as it is now: the tables' host may record a result in it).
    pub fn open(&self) -> Option<(EventId, Arc<Event>)> {
        books(&self.inner).open.clone()
    }

    /// The events of the newest listing read since [`EventDesk::refresh`] asked (an earlier
    /// one until it is read; [`EventDesk::flush`] waits for it).
    pub fn known(&self) -> Arc<[EventSummary]> {
        Arc::clone(&lock(&self.inner.queue).known.1)
    }

    /// What the view shows of the writing.
    pub fn status(&self) -> DeskStatus {
        let q = lock(&self.inner.queue);
        DeskStatus {
            unsaved: q.written < q.asked,
            failure: q.failure.clone(),
            export: q.export.clone(),
            listing: q.lists_pending > 0,
        }
    }

    /// Saves written so far (for tests).
    pub fn writes(&self) -> u64 {
        lock(&self.inner.queue).writes
    }

    /// The data folder, if there is one.
    pub fn data_dir(&self) -> Option<&Path> {
        self.inner.store.as_ref().map(Store::dir)
    }

    fn store(&self) -> Result<&Store, DeskError> {
        self.inner.store.as_ref().ok_or(DeskError::NoDataFolder)
    }

    fn writable_store(&self) -> Result<&Store, DeskError> {
        let store = self.store()?;
        if store.access().is_writable() {
            Ok(store)
        } else {
            Err(DeskError::ReadOnly)
        }
    }

    /// Reads the events folder again (only when asked, never every frame): the folder's names
    /// here (an unreadable folder is refused at once), each event file on a thread of its own
    /// (a season of large events takes tens of milliseconds to read: not a frame's wait);
    /// [`EventDesk::known`] has them when read, and the window is asked to repaint.
    pub fn refresh(&mut self) -> Result<(), DeskError> {
        let store = self.store()?;
        let ids = store.list_events().map_err(|e| {
            DeskError::Store(StoreError::Folder {
                dir: store.dir().join(crate::store::EVENTS_DIR),
                source: e,
            })
        })?;
        let dir = store.dir().to_path_buf();
        self.refreshes += 1;
        let number = self.refreshes;
        lock(&self.inner.queue).lists_pending += 1;
        let (inner, folder, names) = (Arc::clone(&self.inner), dir.clone(), ids.clone());
        let spawned = std::thread::Builder::new()
            .name("event-list".into())
            .spawn(move || inner.list(number, &folder, names));
        if spawned.is_err() {
            // No thread to be had: read here rather than show nothing.
            self.inner.list(number, &dir, ids);
        }
        Ok(())
    }

    /// Creates an event from `setup` and the players text (one a line, `name` or `name,club`),
    /// opens it and has it saved. Nothing is made when a line is refused.
    pub fn create(
        &mut self,
        setup: EventSetup,
        players: &str,
        now: DateTime<Utc>,
    ) -> Result<EventId, DeskError> {
        let store = self.writable_store()?;
        let lines = read_players(players);
        if lines.is_empty() {
            return Err(DeskError::NoPlayers);
        }
        let mut event = Event::new(setup)?;
        for (line, name, club) in lines {
            event
                .apply(Command::AddPlayer { name, club })
                .map_err(|why| DeskError::PlayersLine { line, why })?;
        }
        let base = store.new_event_id(now);
        let id = (1..)
            .map(|n| match n {
                1 => base.clone(),
                n => EventId::new(&format!("{base}-w{n}")).unwrap_or_else(|_| base.clone()),
            })
            .take(1000)
            .find(|id| !self.made.contains(id))
            .unwrap_or(base);
        self.made.push(id.clone());
        books(&self.inner).open = Some((id.clone(), Arc::new(event)));
        self.save();
        Ok(id)
    }

    /// Opens an event of the data folder (a read of one small file), or the newest state this
    /// desk gave it if it changed it.
    pub fn open_event(&mut self, id: &EventId) -> Result<(), DeskError> {
        if let Some(event) = self.newest(id) {
            books(&self.inner).open = Some((id.clone(), event));
            return Ok(());
        }
        let store = self.store()?;
        let loaded = store.load_event(id).map_err(DeskError::Store)?;
        books(&self.inner).open = Some((id.clone(), Arc::new(loaded.value)));
        Ok(())
    }

    fn newest(&self, id: &EventId) -> Option<Arc<Event>> {
        self.inner.newest(id)
    }

    /// Closes the open event (what waits is still written).
    pub fn close(&mut self) {
        books(&self.inner).open = None;
    }

    /// Applies one command to the open event and has it saved.
    pub fn apply(&mut self, command: Command) -> Result<Outcome, DeskError> {
        self.writable_store()?;
        let mut books = books(&self.inner);
        let (_, event) = books.open.as_mut().ok_or(DeskError::NotOpen)?;
        let mut changed = Event::clone(event);
        let outcome = changed.apply(command)?;
        *event = Arc::new(changed);
        self.inner.enqueue(&mut books);
        Ok(outcome)
    }

    /// The ledger through which the host of the tables (the window's TV page and phones)
    /// records in the open event: its results go through this desk, which stays the one owner
    /// of the event. `None` without an open event or a writable data folder.
    pub fn ledger(&self) -> Option<DeskLedger> {
        self.writable_store().ok()?;
        let (id, event) = self.open()?;
        Some(DeskLedger {
            inner: Arc::clone(&self.inner),
            id,
            last: event,
        })
    }

    /// A table's games as typed: `cells[g][c]` is game g's cell for the table's seat c, in the
    /// `score` format (`0`, `25`, `R5 K7 J`, `0!`, `12*`), read exactly as `event result` reads
    /// its CSV and then checked by the engine.
    pub fn enter_result(
        &mut self,
        round: u32,
        table: u32,
        cells: &[Vec<String>],
        correct: bool,
        now: DateTime<Utc>,
    ) -> Result<Outcome, DeskError> {
        let (_, event) = self.open().ok_or(DeskError::NotOpen)?;
        let seated = event
            .rounds()
            .iter()
            .find(|r| r.number == round)
            .ok_or(Refusal::NoSuchRound(round))?
            .tables
            .iter()
            .find(|t| t.number == table)
            .ok_or_else(|| Refusal::NoSuchTable {
                round,
                table,
                tables: event.rounds()[round as usize - 1].tables.len(),
            })?;
        let names = event.seat_names(seated);
        let rules = event.table_rules(seated);
        let mut csv = line(std::iter::once("game".to_owned()).chain(names.iter().cloned()));
        for (n, row) in cells.iter().enumerate() {
            csv.push_str(&line(
                std::iter::once((n + 1).to_string()).chain(row.iter().map(|c| c.trim().to_owned())),
            ));
        }
        let imported = read_score_csv(&csv, rules, now).map_err(DeskError::Table)?;
        self.apply(Command::Result {
            round: Some(round),
            table,
            players: imported.sheet.players().names().to_vec(),
            games: imported.sheet.games().to_vec(),
            correct,
        })
    }

    fn save(&mut self) {
        let mut books = books(&self.inner);
        self.inner.enqueue(&mut books);
    }

    /// Exports `bytes`: asks `ask` where (on a thread of its own), or with no dialog writes a
    /// new file named like `name` in the exports folder. The outcome is in
    /// [`DeskStatus::export`].
    pub fn export(&self, name: &str, bytes: Vec<u8>, ask: Option<AskPath>) {
        let Some(ask) = ask else {
            self.push_export(None, name, bytes);
            return;
        };
        self.export_made(name, Box::new(move || Ok(bytes)), Some(ask));
    }

    /// Exports what `make` makes (a picture drawn off the window's thread): made on a thread of
    /// its own, then written as [`EventDesk::export`] writes. A failure to make it is reported
    /// in [`DeskStatus::export`].
    pub fn export_made(&self, name: &str, make: MakeBytes, ask: Option<AskPath>) {
        let inner = Arc::clone(&self.inner);
        let name = name.to_owned();
        lock(&self.inner.queue).exports_pending += 1;
        let spawned = std::thread::Builder::new()
            .name("event-export".into())
            .spawn(move || {
                let bytes = match make() {
                    Ok(bytes) => bytes,
                    Err(e) => {
                        let mut q = lock(&inner.queue);
                        q.export = Some(ExportReport::Failed {
                            path: PathBuf::from(&name),
                            error: e.to_string(),
                        });
                        q.exports_pending -= 1;
                        inner.settled.notify_all();
                        drop(q);
                        (inner.notify)();
                        return;
                    }
                };
                let (answer, quick) = match &ask {
                    Some(ask) => {
                        let asked = Instant::now();
                        let answer = ask(&name);
                        (answer, asked.elapsed() < NO_DIALOG_WITHIN)
                    }
                    None => (None, true),
                };
                let mut q = lock(&inner.queue);
                if answer.is_some() || quick {
                    q.exports.push_back(ExportJob {
                        to: answer,
                        name,
                        bytes,
                    });
                    inner.wake.notify_all();
                } else {
                    // The dialog was cancelled: nothing to write.
                    q.exports_pending -= 1;
                    inner.settled.notify_all();
                }
            });
        if let Err(e) = spawned {
            let mut q = lock(&self.inner.queue);
            q.export = Some(ExportReport::Failed {
                path: PathBuf::new(),
                error: e.to_string(),
            });
            q.exports_pending -= 1;
        }
    }

    fn push_export(&self, to: Option<PathBuf>, name: &str, bytes: Vec<u8>) {
        let mut q = lock(&self.inner.queue);
        q.exports_pending += 1;
        q.exports.push_back(ExportJob {
            to,
            name: name.to_owned(),
            bytes,
        });
        self.inner.wake.notify_all();
    }

    /// Waits (at most `timeout`) until every change is on disk and every export written; true
    /// when they are.
    pub fn flush(&self, timeout: Duration) -> bool {
        let until = Instant::now() + timeout;
        let mut q = lock(&self.inner.queue);
        loop {
            if q.written >= q.asked && q.exports_pending == 0 && q.lists_pending == 0 {
                return true;
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            q.retry_at = None;
            self.inner.wake.notify_all();
            q = self
                .inner
                .settled
                .wait_timeout(q, left.min(Duration::from_millis(50)))
                .map_or_else(|e| e.into_inner().0, |(q, _)| q);
        }
    }
}

impl Drop for EventDesk {
    fn drop(&mut self) {
        {
            let mut q = lock(&self.inner.queue);
            q.stop = true;
            self.inner.wake.notify_all();
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A new file in `folder` named like `name` (`-2`, `-3`, … before the extension when taken).
fn free_path(folder: &Path, name: &str) -> PathBuf {
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    (1..10_000)
        .map(|n| match n {
            1 => folder.join(name),
            n => folder.join(format!("{stem}-{n}.{ext}")),
        })
        .find(|p| !p.exists())
        .unwrap_or_else(|| folder.join(name))
}

fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = std::fs::File::create(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

impl Inner {
    /// Has the open event saved: it becomes the newest state of its event, and replaces a
    /// state of it waiting to be written. The save's ticket: it is on disk once `written`
    /// reaches it.
    fn enqueue(&self, books: &mut Books) -> u64 {
        let Some((id, event)) = &books.open else {
            return 0;
        };
        let newest = (id.clone(), Arc::clone(event));
        match books.latest.iter_mut().find(|(known, _)| known == id) {
            Some(slot) => *slot = newest.clone(),
            None => books.latest.push(newest.clone()),
        }
        let mut q = lock(&self.queue);
        match q.saves.iter_mut().find(|(waiting, _)| *waiting == *id) {
            Some(slot) => *slot = newest,
            None => q.saves.push(newest),
        }
        q.asked += 1;
        q.retry_at = None;
        self.wake.notify_all();
        q.asked
    }

    /// Waits (at most `timeout`) until save `ticket` is on disk; the failure that keeps it
    /// from being written, if one does.
    fn wait(&self, ticket: u64, timeout: Duration) -> Result<(), Arc<StoreError>> {
        let until = Instant::now() + timeout;
        let mut q = lock(&self.queue);
        loop {
            if q.written >= ticket {
                return Ok(());
            }
            if let Some(failure) = &q.failure {
                return Err(Arc::clone(failure));
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Arc::new(StoreError::Write {
                    file: PathBuf::from(crate::store::EVENTS_DIR),
                    source: std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "the event was not written in time",
                    ),
                }));
            }
            q = self
                .settled
                .wait_timeout(q, left.min(Duration::from_millis(50)))
                .map_or_else(|e| e.into_inner().0, |(q, _)| q);
        }
    }

    fn newest(&self, id: &EventId) -> Option<Arc<Event>> {
        books(self)
            .latest
            .iter()
            .find(|(known, _)| known == id)
            .map(|(_, event)| Arc::clone(event))
    }

    /// Lists `ids` for refresh number `number` (unless a newer listing is in already), then
    /// tells the window.
    fn list(&self, number: u64, dir: &Path, ids: Vec<EventId>) {
        let known = self.summaries(dir, ids);
        let mut q = lock(&self.queue);
        if number > q.known.0 {
            q.known = (number, known.into());
        }
        q.lists_pending -= 1;
        self.settled.notify_all();
        drop(q);
        (self.notify)();
    }

    /// What the Event view lists of `ids` and the events this desk changed (newest first): an
    /// event this desk changed as it is now, the others as their files read (a reader: it sets
    /// nothing aside, takes nothing over).
    fn summaries(&self, dir: &Path, mut ids: Vec<EventId>) -> Vec<EventSummary> {
        // An event made here whose file is not written yet is listed too.
        for (id, _) in &books(self).latest {
            if !ids.contains(id) {
                ids.push(id.clone());
            }
        }
        ids.sort();
        let reader = Store::open_reader(dir);
        ids.into_iter()
            .rev()
            .map(|id| {
                match self.newest(&id).map_or_else(
                    || reader.load_event(&id).map(|l| l.value),
                    |event| Ok(Event::clone(&event)),
                ) {
                    Ok(event) => EventSummary {
                        name: Some(event.setup().name.clone()),
                        players: event.players().len(),
                        round: event.current_round(),
                        id,
                    },
                    Err(_) => EventSummary {
                        id,
                        name: None,
                        players: 0,
                        round: 0,
                    },
                }
            })
            .collect()
    }

    fn run(&self) {
        loop {
            let (save, exports, stop) = {
                let mut q = lock(&self.queue);
                loop {
                    let due = q.retry_at.is_none_or(|at| Instant::now() >= at);
                    if (!q.saves.is_empty() && due) || !q.exports.is_empty() || q.stop {
                        break;
                    }
                    q = match q.retry_at {
                        Some(at) => {
                            let wait = at.saturating_duration_since(Instant::now());
                            self.wake
                                .wait_timeout(q, wait)
                                .map_or_else(|e| e.into_inner().0, |(q, _)| q)
                        }
                        None => self.wake.wait(q).unwrap_or_else(|e| e.into_inner()),
                    };
                }
                let asked = q.asked;
                let save = (!q.saves.is_empty()).then(|| (std::mem::take(&mut q.saves), asked));
                let exports: Vec<ExportJob> = q.exports.drain(..).collect();
                (save, exports, q.stop)
            };
            for job in exports {
                let report = self.export(job);
                let mut q = lock(&self.queue);
                q.export = Some(report);
                q.exports_pending -= 1;
            }
            if let Some((saves, asked)) = save {
                let mut failed = Vec::new();
                let mut error = None;
                for (id, event) in saves {
                    let written = match &self.store {
                        Some(store) => store.save_event(&id, &event).map(drop),
                        None => Ok(()),
                    };
                    match written {
                        Ok(()) => lock(&self.queue).writes += 1,
                        Err(e) => {
                            error = Some(e);
                            failed.push((id, event));
                        }
                    }
                }
                let mut q = lock(&self.queue);
                match error {
                    None => {
                        q.written = q.written.max(asked);
                        q.failure = None;
                        q.backoff = Duration::ZERO;
                    }
                    Some(e) => {
                        q.failure = Some(Arc::new(e));
                        // Put back what failed, unless a newer state of that event waits.
                        for (id, event) in failed {
                            if !q.saves.iter().any(|(waiting, _)| *waiting == id) {
                                q.saves.push((id, event));
                            }
                        }
                        q.backoff = (q.backoff * 2)
                            .max(Duration::from_millis(500))
                            .min(MAX_BACKOFF);
                        q.retry_at = Some(Instant::now() + q.backoff);
                    }
                }
            }
            self.settled.notify_all();
            (self.notify)();
            let q = lock(&self.queue);
            if stop && (q.saves.is_empty() || q.failure.is_some()) && q.exports.is_empty() {
                return;
            }
        }
    }

    fn export(&self, job: ExportJob) -> ExportReport {
        let to_exports = job.to.is_none();
        let path = match job.to {
            Some(path) => path,
            None => {
                let Some(store) = &self.store else {
                    return ExportReport::Failed {
                        path: PathBuf::from(job.name),
                        error: "no data folder".into(),
                    };
                };
                let folder = store.dir().join("exports");
                if let Err(e) = std::fs::create_dir_all(&folder) {
                    return ExportReport::Failed {
                        path: folder,
                        error: e.to_string(),
                    };
                }
                free_path(&folder, &job.name)
            }
        };
        match write_synced(&path, &job.bytes) {
            Ok(()) => ExportReport::Wrote { path, to_exports },
            Err(e) => ExportReport::Failed {
                path,
                error: e.to_string(),
            },
        }
    }
}

/// How long the tables' host waits for the desk's writer before telling the phone its game is
/// not saved (the writer retries on; the phone can confirm again).
const LEDGER_WAIT: Duration = Duration::from_secs(10);

/// The window's ledger for the host of the tables ([`crate::server::club`]): results recorded
/// in the desk's open event, saved by the desk's writer, waited for before the phone is
/// answered; the tables file written with the desk's store. See [`EventDesk::ledger`].
pub struct DeskLedger {
    inner: Arc<Inner>,
    id: EventId,
    /// The event as last handed to the host.
    last: Arc<Event>,
}

impl DeskLedger {
    /// The open event, if it is still this ledger's.
    fn current(&self) -> Option<Arc<Event>> {
        match &books(&self.inner).open {
            Some((id, event)) if *id == self.id => Some(Arc::clone(event)),
            _ => None,
        }
    }
}

impl Ledger for DeskLedger {
    fn reload(&mut self) -> Option<Event> {
        let now = self.current()?;
        if Arc::ptr_eq(&now, &self.last) {
            return None;
        }
        self.last = Arc::clone(&now);
        Some(Event::clone(&now))
    }

    fn commit(
        &mut self,
        result: Option<Command>,
        tables: &TablesAtPlay,
    ) -> Result<Option<Event>, LedgerError> {
        let failed = |e: StoreError| LedgerError::Store(Arc::new(e));
        let store = self.inner.store.as_ref().ok_or_else(|| {
            failed(StoreError::Write {
                file: PathBuf::from(crate::store::EVENTS_DIR),
                source: std::io::Error::other("no data folder"),
            })
        })?;
        let mut recorded = None;
        let mut ticket = None;
        if let Some(result) = result {
            let mut books = books(&self.inner);
            let event = match &mut books.open {
                Some((id, event)) if *id == self.id => event,
                _ => {
                    return Err(failed(StoreError::Write {
                        file: store.event_path(&self.id),
                        source: std::io::Error::other("the event was closed in the window"),
                    }));
                }
            };
            let mut changed = Event::clone(event);
            match changed.apply(result) {
                Ok(_) => {
                    *event = Arc::new(changed);
                    self.last = Arc::clone(event);
                    ticket = Some(self.inner.enqueue(&mut books));
                }
                Err(Refusal::AlreadyRecorded { .. }) => {}
                Err(refusal) => return Err(LedgerError::Refused(refusal)),
            }
            recorded = books.open.as_ref().map(|(_, event)| Event::clone(event));
        }
        let _ = store.load_event_live(&self.id);
        store.save_event_live(&self.id, tables).map_err(failed)?;
        if let Some(ticket) = ticket {
            self.inner
                .wait(ticket, LEDGER_WAIT)
                .map_err(LedgerError::Store)?;
        }
        Ok(recorded)
    }
}
