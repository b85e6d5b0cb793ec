//! The organiser's desk beside the club night's owner: the saved events' list and the exports
//! (the seating sheet, the standings), each read or written on a thread of its own, so the
//! window's frame never waits on a disk or a dialog.
//!
//! - **Exports**: the system's save dialog runs on a thread of its own; no answer within
//!   [`NO_DIALOG_WITHIN`] means no dialog could be shown, and the file goes to the exports
//!   folder (as the sheet's "Save CSV as…" does); a later `None` is a cancel.
//! - **The saved events' list** ([`Desk::refresh`]): the folder's names are read at once, the
//!   files on a thread (50 large events take ~37 ms to read); the window repaints when the list
//!   is in.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::event::Event;
use crate::event::season::{Season, SeasonStanding};
use crate::lang::Language;
use crate::store::{EventId, SeasonId, Store};

/// A dialog that answers `None` sooner than this showed nothing (the sheet's export uses the
/// same rule, `ui::app::actions::NO_DIALOG_WITHIN`).
pub const NO_DIALOG_WITHIN: Duration = Duration::from_millis(1000);

/// A save dialog: a suggested file name in, the chosen path (or nothing) out.
pub type AskPath = Arc<dyn Fn(&str) -> Option<PathBuf> + Send + Sync>;

/// What makes an export's bytes, off the window's thread.
pub type MakeBytes = Box<dyn FnOnce() -> std::io::Result<Vec<u8>> + Send>;

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

/// A season in the data folder, as the Season view shows it.
#[derive(Clone, Debug)]
pub struct SeasonSummary {
    /// Its id.
    pub id: SeasonId,
    /// The season (`None` when its file could not be read).
    pub season: Option<Season>,
    /// Its standings.
    pub standings: Vec<SeasonStanding>,
}

/// How the last season's work went, worded when it was asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeasonReport {
    /// A season was made.
    Created(SeasonId),
    /// Bundles were imported: each file's line.
    Imported(Vec<String>),
    /// The import was refused, nothing added: each refused file's line.
    Refused(Vec<String>),
    /// The open event was sealed into a bundle here.
    Exported(PathBuf),
    /// It failed.
    Failed(String),
}

/// The seasons as last read, with this data folder's venue.
#[derive(Clone, Debug, Default)]
pub struct Seasons {
    /// The seasons, newest first.
    pub list: Vec<SeasonSummary>,
    /// This folder's venue: its name and public key, once made.
    pub venue: Option<(String, String)>,
}

#[derive(Default)]
struct State {
    /// Exports and listings asked for and not yet done ([`Desk::flush`] waits for none).
    pending: usize,
    /// Of those, listings.
    listings: usize,
    /// The newest listing read, and the number of the refresh it came from.
    known: (u64, Arc<[EventSummary]>),
    /// The last export, and when it was reported (a success fades).
    export: Option<(ExportReport, Instant)>,
    /// The seasons as last read.
    seasons: Arc<Seasons>,
    /// The last season's work.
    season: Option<SeasonReport>,
}

struct Inner {
    state: Mutex<State>,
    settled: Condvar,
    notify: Box<dyn Fn() + Send + Sync>,
}

impl Inner {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn done(&self, export: Option<ExportReport>) {
        let mut state = self.state();
        if let Some(report) = export {
            state.export = Some((report, Instant::now()));
        }
        state.pending = state.pending.saturating_sub(1);
        drop(state);
        self.settled.notify_all();
        (self.notify)();
    }
}

/// The desk; see the [module docs](self).
pub struct Desk {
    inner: Arc<Inner>,
    refreshes: u64,
}

impl std::fmt::Debug for Desk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Desk").finish_non_exhaustive()
    }
}

impl Desk {
    /// A desk that calls `notify` when a listing or an export is done (the window repaints).
    pub fn new(notify: impl Fn() + Send + Sync + 'static) -> Desk {
        Desk {
            inner: Arc::new(Inner {
                state: Mutex::new(State::default()),
                settled: Condvar::new(),
                notify: Box::new(notify),
            }),
            refreshes: 0,
        }
    }

    /// The events of the newest listing read.
    pub fn known(&self) -> Arc<[EventSummary]> {
        Arc::clone(&self.inner.state().known.1)
    }

    /// Whether a listing is being read.
    pub fn listing(&self) -> bool {
        self.inner.state().listings > 0
    }

    /// The last export's report, while it is worth showing: a failure until the next export,
    /// a success for 20 seconds.
    pub fn report(&self) -> Option<ExportReport> {
        let state = self.inner.state();
        let (report, at) = state.export.as_ref()?;
        let fresh =
            matches!(report, ExportReport::Failed { .. }) || at.elapsed() < Duration::from_secs(20);
        fresh.then(|| report.clone())
    }

    /// Forgets the last export's report (the organiser did something else).
    pub fn clear_export(&self) {
        self.inner.state().export = None;
    }

    /// Reads the events of data folder `dir` again: the names `ids` here, each file on a
    /// thread; `latest` gives the owner's own newest state of an event (its file may lag a
    /// moment behind the writer).
    pub fn refresh(&mut self, dir: &Path, ids: Vec<EventId>, latest: Vec<(EventId, Arc<Event>)>) {
        self.refreshes += 1;
        let number = self.refreshes;
        {
            let mut state = self.inner.state();
            state.pending += 1;
            state.listings += 1;
        }
        let (inner, dir) = (Arc::clone(&self.inner), dir.to_path_buf());
        let read = move || {
            let known = summaries(&dir, ids, &latest);
            let mut state = inner.state();
            if number > state.known.0 {
                state.known = (number, known.into());
            }
            state.listings = state.listings.saturating_sub(1);
            drop(state);
            inner.done(None);
        };
        if let Err(e) = std::thread::Builder::new()
            .name("event-list".into())
            .spawn(read)
        {
            // No thread to be had: nothing is listed, and the window is told why it is empty.
            self.inner.state().listings = 0;
            self.inner.done(Some(ExportReport::Failed {
                path: PathBuf::new(),
                error: e.to_string(),
            }));
        }
    }

    /// Exports `bytes`: asks `ask` where (on a thread of its own), or with no dialog writes a
    /// new file named like `name` in the `exports` folder of `dir`.
    pub fn export(&self, dir: Option<&Path>, name: &str, bytes: Vec<u8>, ask: Option<AskPath>) {
        self.export_made(dir, name, Box::new(move || Ok(bytes)), ask);
    }

    /// Exports what `make` makes (a picture drawn off the window's thread), as
    /// [`Desk::export`] does.
    pub fn export_made(
        &self,
        dir: Option<&Path>,
        name: &str,
        make: MakeBytes,
        ask: Option<AskPath>,
    ) {
        let inner = Arc::clone(&self.inner);
        let name = name.to_owned();
        let exports = dir.map(|d| d.join("exports"));
        self.inner.state().pending += 1;
        let job = move || {
            let report = match make() {
                Err(e) => Some(ExportReport::Failed {
                    path: PathBuf::from(&name),
                    error: e.to_string(),
                }),
                Ok(bytes) => {
                    let (answer, quick) = match &ask {
                        Some(ask) => {
                            let asked = Instant::now();
                            let answer = ask(&name);
                            (answer, asked.elapsed() < NO_DIALOG_WITHIN)
                        }
                        None => (None, true),
                    };
                    match (answer, quick) {
                        (Some(path), _) => Some(write(&path, &bytes, false)),
                        (None, true) => Some(match &exports {
                            Some(folder) => match std::fs::create_dir_all(folder) {
                                Ok(()) => write(&free_path(folder, &name), &bytes, true),
                                Err(e) => ExportReport::Failed {
                                    path: folder.clone(),
                                    error: e.to_string(),
                                },
                            },
                            None => ExportReport::Failed {
                                path: PathBuf::from(&name),
                                error: "no data folder".into(),
                            },
                        }),
                        // The dialog was cancelled: nothing to write.
                        (None, false) => None,
                    }
                }
            };
            inner.done(report);
        };
        if let Err(e) = std::thread::Builder::new()
            .name("event-export".into())
            .spawn(job)
        {
            self.inner.done(Some(ExportReport::Failed {
                path: PathBuf::new(),
                error: e.to_string(),
            }));
        }
    }

    /// The seasons as last read ([`Desk::list_seasons`]).
    pub fn seasons(&self) -> Arc<Seasons> {
        Arc::clone(&self.inner.state().seasons)
    }

    /// How the last season's work went.
    pub fn season_report(&self) -> Option<SeasonReport> {
        self.inner.state().season.clone()
    }

    /// Reads the seasons of data folder `dir` (and its venue) on a thread.
    pub fn list_seasons(&self, dir: &Path) {
        let dir = dir.to_path_buf();
        self.on_thread("season-list", move || {
            let seasons = read_seasons(&dir);
            (Some(seasons), None)
        });
    }

    /// Does season work `job` on a thread (it holds the seasons' lock for a moment), then reads
    /// the seasons again; its report is in [`Desk::season_report`].
    pub fn season_work(
        &self,
        dir: &Path,
        job: impl FnOnce(&Path) -> SeasonReport + Send + 'static,
    ) {
        let dir = dir.to_path_buf();
        self.on_thread("season-work", move || {
            let report = job(&dir);
            (Some(read_seasons(&dir)), Some(report))
        });
    }

    fn on_thread(
        &self,
        name: &str,
        job: impl FnOnce() -> (Option<Seasons>, Option<SeasonReport>) + Send + 'static,
    ) {
        let inner = Arc::clone(&self.inner);
        self.inner.state().pending += 1;
        let work = move || {
            let (seasons, report) = job();
            let mut state = inner.state();
            if let Some(seasons) = seasons {
                state.seasons = Arc::new(seasons);
            }
            if report.is_some() {
                state.season = report;
            }
            drop(state);
            inner.done(None);
        };
        if let Err(e) = std::thread::Builder::new().name(name.into()).spawn(work) {
            let mut state = self.inner.state();
            state.season = Some(SeasonReport::Failed(e.to_string()));
            drop(state);
            self.inner.done(None);
        }
    }

    /// Waits (at most `timeout`) until every listing and export asked for is done.
    pub fn flush(&self, timeout: Duration) -> bool {
        let until = Instant::now() + timeout;
        let mut state = self.inner.state();
        loop {
            if state.pending == 0 {
                return true;
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            state = self
                .inner
                .settled
                .wait_timeout(state, left.min(Duration::from_millis(50)))
                .map_or_else(|e| e.into_inner().0, |(s, _)| s);
        }
    }
}

fn write(path: &Path, bytes: &[u8], to_exports: bool) -> ExportReport {
    let written = (|| -> std::io::Result<()> {
        use std::io::Write;
        let mut file = std::fs::File::create(path)?;
        file.write_all(bytes)?;
        file.sync_all()
    })();
    match written {
        Ok(()) => ExportReport::Wrote {
            path: path.to_path_buf(),
            to_exports,
        },
        Err(e) => ExportReport::Failed {
            path: path.to_path_buf(),
            error: e.to_string(),
        },
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

/// What the Event view lists of `ids` and the owner's own newest events (newest first): those
/// as they are now, the others as their files read (a reader: it sets nothing aside).
fn summaries(
    dir: &Path,
    mut ids: Vec<EventId>,
    latest: &[(EventId, Arc<Event>)],
) -> Vec<EventSummary> {
    for (id, _) in latest {
        if !ids.contains(id) {
            ids.push(id.clone());
        }
    }
    ids.sort();
    let reader = Store::open_reader(dir);
    ids.into_iter()
        .rev()
        .map(|id| {
            let newest = latest
                .iter()
                .find(|(known, _)| *known == id)
                .map(|(_, e)| Event::clone(e));
            match newest.map_or_else(|| reader.load_event(&id).map(|l| l.event), Ok) {
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

/// The seasons of data folder `dir` (newest first) and its venue, as a reader sees them.
fn read_seasons(dir: &Path) -> Seasons {
    let reader = Store::open_reader(dir);
    let mut ids = reader.list_seasons().unwrap_or_default();
    ids.reverse();
    let list = ids
        .into_iter()
        .map(|id| {
            let season = reader.load_season(&id).ok().map(|l| l.value);
            let standings = season.as_ref().map(Season::standings).unwrap_or_default();
            SeasonSummary {
                id,
                season,
                standings,
            }
        })
        .collect();
    let venue = crate::store::load_venue(dir)
        .ok()
        .flatten()
        .map(|v| (v.name().to_owned(), v.public_key()));
    Seasons { list, venue }
}

/// The season's lines of an import, worded in `lang`.
pub fn imported_lines(lang: Language, done: &[super::season::Imported]) -> Vec<String> {
    done.iter()
        .map(|i| {
            crate::i18n::event::season::added(
                lang,
                &i.added,
                &i.file,
                &i.opened.payload.event.setup().name,
                &i.opened.payload.venue,
            )
        })
        .collect()
}
