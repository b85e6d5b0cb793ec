//! The saved sheets behind the open one, read on a thread of their own: the "Open" list and
//! the history across evenings.
//!
//! Why: a club's data folder holds thousands of sheets. Reading and scoring all of them takes
//! hundreds of milliseconds, which the first frame must not wait for, and the history view must
//! not redo every time it opens. So the library reads every sheet once, in the background,
//! without changing anything on disk ([`crate::store::read_sheets`]); the evening tells it about
//! every sheet it saves, and the history is worked out here, on demand, from what is already in
//! memory, then kept until a sheet changes.

use std::collections::BTreeMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use crate::history::{self, History};
use crate::score::{Sheet, SheetSummary};
use crate::store::{Notice, SheetId, Store, StoreError};

/// The played sheets for "Open", the most recently played first.
pub type Past = Arc<Vec<(SheetId, SheetSummary)>>;

/// The history across evenings and the files it had to skip.
pub type Record = Arc<(History, Vec<String>)>;

#[derive(Default)]
struct State {
    loaded: bool,
    /// What the store noted while repairing what the reading found damaged.
    notices: Vec<Notice>,
    sheets: BTreeMap<SheetId, Arc<Sheet>>,
    skipped: Vec<String>,
    past: Past,
    /// Counts the sheets saved (and the merges set): a history worked out before the last
    /// one is stale.
    version: u64,
    /// Names counted as one player in the history.
    merges: Vec<(String, String)>,
    record: Option<(u64, Record)>,
    want_record: bool,
    stop: bool,
}

struct Inner {
    state: Mutex<State>,
    wake: Condvar,
    notify: Box<dyn Fn() + Send + Sync>,
}

/// The saved sheets; see the [module docs](self).
pub struct Library {
    inner: Arc<Inner>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Library {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Library")
            .field("loaded", &self.lock().loaded)
            .finish_non_exhaustive()
    }
}

fn played_first(sheets: &BTreeMap<SheetId, Arc<Sheet>>) -> Vec<(SheetId, SheetSummary)> {
    let mut played: Vec<(SheetId, SheetSummary)> = sheets
        .iter()
        .filter(|(_, s)| !s.is_empty())
        .map(|(id, s)| (id.clone(), s.summary()))
        .collect();
    played.sort_by(|a, b| (b.1.last_activity, &b.0).cmp(&(a.1.last_activity, &a.0)));
    played
}

impl Library {
    /// Starts reading the sheets of `store` (none without a store). `notify` is called when
    /// they are read and when a history asked for is ready.
    pub fn start(store: Option<Store>, notify: impl Fn() + Send + Sync + 'static) -> Library {
        let inner = Arc::new(Inner {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
            notify: Box::new(notify),
        });
        let Some(store) = store else {
            inner.state.lock().unwrap_or_else(|e| e.into_inner()).loaded = true;
            return Library {
                inner,
                thread: None,
            };
        };
        let worker = Arc::clone(&inner);
        let thread = std::thread::Builder::new()
            .name("library".into())
            .spawn(move || worker.run(&store))
            .ok();
        if thread.is_none() {
            inner.state.lock().unwrap_or_else(|e| e.into_inner()).loaded = true;
        }
        Library { inner, thread }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.inner.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The played sheets, or `None` while they are being read.
    pub fn past(&self) -> Option<Past> {
        let state = self.lock();
        state.loaded.then(|| Arc::clone(&state.past))
    }

    /// The most recently played sheet, once the sheets are read.
    pub fn latest_played(&self) -> Option<Option<SheetId>> {
        let state = self.lock();
        state
            .loaded
            .then(|| state.past.first().map(|(id, _)| id.clone()))
    }

    /// A known sheet (read from disk, or saved by this evening, perhaps not on disk yet).
    pub fn get(&self, id: &SheetId) -> Option<Arc<Sheet>> {
        self.lock().sheets.get(id).cloned()
    }

    /// What the store noted since the last call (damaged sheets set aside or restored).
    pub fn take_notices(&self) -> Vec<Notice> {
        std::mem::take(&mut self.lock().notices)
    }

    /// Whether a sheet of this id is known (read from disk, or saved by this evening).
    pub fn knows(&self, id: &SheetId) -> bool {
        self.lock().sheets.contains_key(id)
    }

    /// A sheet the evening saved (or started): the list and the history follow it.
    pub fn saved(&self, id: &SheetId, sheet: Arc<Sheet>) {
        let mut state = self.lock();
        state.sheets.insert(id.clone(), sheet);
        if state.loaded {
            state.past = Arc::new(played_first(&state.sheets));
        }
        state.version += 1;
    }

    /// The names the history counts as one player (the settings' `merged_names`).
    pub fn set_merges(&self, merges: &[(String, String)]) {
        let mut state = self.lock();
        if state.merges != merges {
            state.merges = merges.to_vec();
            state.version += 1;
        }
    }

    /// The known sheets started on the night of `at` (the table's time zone), but `except`.
    pub fn of_night(
        &self,
        at: chrono::DateTime<chrono::Utc>,
        except: Option<&SheetId>,
    ) -> Vec<(SheetId, Arc<Sheet>)> {
        let offset = local_offset();
        let night = history::night_of(at, offset);
        self.lock()
            .sheets
            .iter()
            .filter(|(id, s)| {
                Some(*id) != except && history::night_of(s.created(), offset) == night
            })
            .map(|(id, s)| (id.clone(), Arc::clone(s)))
            .collect()
    }

    /// The history across evenings, if it is ready; asks for it otherwise (`notify` is called
    /// when it is).
    pub fn record(&self) -> Option<Record> {
        let mut state = self.lock();
        if let Some((version, record)) = &state.record
            && *version == state.version
        {
            return Some(Arc::clone(record));
        }
        if state.loaded && self.thread.is_none() {
            // No thread: work it out here (there is no data folder, so only this run's sheets).
            let record = Arc::new(compute(&state));
            state.record = Some((state.version, Arc::clone(&record)));
            return Some(record);
        }
        state.want_record = true;
        drop(state);
        self.inner.wake.notify_one();
        None
    }
}

/// The table's time zone now, which tells the history's nights apart.
pub(super) fn local_offset() -> chrono::FixedOffset {
    use chrono::Offset;
    chrono::Local::now().offset().fix()
}

fn compute(state: &State) -> (History, Vec<String>) {
    (
        history::history_merged(
            state.sheets.values().map(|s| s.as_ref()),
            None,
            local_offset(),
            &state.merges,
        ),
        state.skipped.clone(),
    )
}

impl Drop for Library {
    fn drop(&mut self) {
        self.lock().stop = true;
        self.inner.wake.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn run(&self, store: &Store) {
        let (mut found, skipped) = match crate::store::read_sheets(store.dir()) {
            Ok(scan) => (
                scan.sheets,
                scan.skipped
                    .iter()
                    .map(|s| s.file.clone())
                    .collect::<Vec<_>>(),
            ),
            Err(e) => {
                self.lock().skipped = vec![e.to_string()];
                (Vec::new(), Vec::new())
            }
        };
        // A damaged sheet is repaired as the window always did: its good backup put back, or
        // both set aside (renamed, never overwritten), and the table told.
        let mut notices = Vec::new();
        let mut still_skipped = Vec::new();
        for file in skipped {
            let id = file
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".json"))
                .and_then(|stem| SheetId::new(stem).ok());
            match id
                .filter(|_| store.access().is_writable())
                .map(|id| (store.load_sheet(&id), id))
            {
                Some((Ok(loaded), id)) => {
                    notices.extend(loaded.notices);
                    found.push(crate::store::SavedSheet {
                        id,
                        sheet: loaded.value,
                    });
                }
                Some((Err(StoreError::Unrecoverable { notices: kept, .. }), _)) => {
                    notices.extend(kept);
                    still_skipped.push(file.display().to_string());
                }
                _ => still_skipped.push(file.display().to_string()),
            }
        }
        {
            let mut state = self.lock();
            state.notices.extend(notices);
            for saved in found {
                // A sheet saved by the evening meanwhile is newer than the file read.
                state
                    .sheets
                    .entry(saved.id)
                    .or_insert_with(|| Arc::new(saved.sheet));
            }
            state.skipped.extend(still_skipped);
            state.past = Arc::new(played_first(&state.sheets));
            state.loaded = true;
        }
        (self.notify)();
        loop {
            let mut state = self.lock();
            let fresh = |s: &State| s.record.as_ref().is_some_and(|(v, _)| *v == s.version);
            // Sleep until stopped, or until a history is wanted that is not there yet.
            while !state.stop && (!state.want_record || fresh(&state)) {
                state = self.wake.wait(state).unwrap_or_else(|e| e.into_inner());
            }
            if state.stop {
                return;
            }
            // Worked out from a copy of the list of sheets (shared, not copied), unlocked.
            let sheets: Vec<Arc<Sheet>> = state.sheets.values().cloned().collect();
            let skipped = state.skipped.clone();
            let merges = state.merges.clone();
            let version = state.version;
            drop(state);
            let record = Arc::new((
                history::history_merged(
                    sheets.iter().map(|s| s.as_ref()),
                    None,
                    local_offset(),
                    &merges,
                ),
                skipped,
            ));
            let mut state = self.lock();
            state.want_record = version != state.version;
            state.record = Some((version, record));
            drop(state);
            (self.notify)();
        }
    }
}
