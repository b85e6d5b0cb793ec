//! Events on disk: one file per event, `events/<id>.json`, written like the sheets (a
//! temporary file in the same folder, synced, renamed over the old one; the previous good copy
//! kept as `.bak`), beside the event's log, `events/<id>.log`, and the current round's tables at
//! play, `events/<id>.live.json`.
//!
//! - **One owner per folder.** Whoever changes a folder's club nights holds the lock of
//!   `events/.lock` ([`ClubStore`]) for as long as it owns them — a host (`event serve`, or the
//!   window with an event open) for its whole life, a command line command for a moment. The
//!   holder writes into the lock file who it is and, for a host, the loopback port and secret
//!   through which a command line command hands it its command ([`Holder`]); a second host
//!   reads that and refuses at once, naming the port. The folder's other lock (`.lock`, the
//!   evening's) is not this one: a window open on the folder does not stop `event serve`.
//! - **The log is written first.** Every applied command is appended to `events/<id>.log`
//!   (one JSON line, synced) before the event file is replaced; the log's first line is the
//!   event's setup. So a damaged event file is never a silent roll-back: it is restored from
//!   its backup plus the commands of the log the backup lacks, and the [`Damage`] says which
//!   (or, with the log damaged too, that later results may be missing). The damaged file is kept
//!   (`*.corrupt-<time>`). A file written by a newer version is refused
//!   ([`StoreError::Newer`]) and nothing is moved or rewritten.
//! - A reader ([`Store::open_reader`], `event standings`) restores the same way in memory and
//!   changes nothing on disk.
//! - Temporary files of killed writes (`events/.tmp-*`) are removed when an owner takes the
//!   folder.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{
    FileProblem, FileState, Loaded, Notice, Store, StoreError, atomic_write, backup_path,
    read_state, remove_stale_temporaries,
};
use crate::event::live::TablesAtPlay;
use crate::event::{Event, EventSetup, LogEntry};

/// The events subfolder of the data folder.
pub const EVENTS_DIR: &str = "events";

/// The club lock in the events folder: whoever holds it owns the folder's club nights.
pub const CLUB_LOCK: &str = ".lock";

/// How often [`ClubStore::open`] asks for the lock (20 ms apart) before it reads the holder.
const LOCK_ATTEMPTS: u32 = 5;

/// An event's id: its file name without `.json` (ASCII letters, digits, `-`, `_`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
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

impl TryFrom<String> for EventId {
    type Error = StoreError;
    fn try_from(name: String) -> Result<EventId, StoreError> {
        EventId::new(&name)
    }
}

impl From<EventId> for String {
    fn from(id: EventId) -> String {
        id.0
    }
}

impl std::fmt::Display for EventId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Who holds a folder's club lock, as the holder wrote it into the lock file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holder {
    /// The holding process.
    pub pid: u32,
    /// What it is.
    pub kind: HolderKind,
    /// The loopback port on which it takes commands from the command line, if it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control: Option<u16>,
    /// The secret those commands must carry (the lock file is the user's alone to read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// The port the tables and the TV page are served on, while it hosts them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tables: Option<u16>,
}

/// What holds a club lock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HolderKind {
    /// A window with an event open.
    Window,
    /// `event serve`.
    Serve,
    /// A command line command, for a moment.
    #[default]
    Command,
}

/// Why a club's folder could not be taken.
#[derive(Debug)]
pub enum ClubLockError {
    /// Another process holds it (and says who, when it could be read).
    Held(Option<Holder>),
    /// The folder could not be made or used.
    Store(StoreError),
}

impl std::fmt::Display for ClubLockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClubLockError::Held(Some(holder)) => write!(
                f,
                "the club nights of this data folder are held by process {} ({:?}{})",
                holder.pid,
                holder.kind,
                holder
                    .tables
                    .map(|p| format!(", serving on port {p}"))
                    .unwrap_or_default()
            ),
            ClubLockError::Held(None) => {
                f.write_str("the club nights of this data folder are held by another process")
            }
            ClubLockError::Store(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ClubLockError {}

/// Where an event was restored from after its file was found damaged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RestoredFrom {
    /// Its backup, which held this many commands.
    Backup {
        /// Commands in the backup.
        commands: usize,
    },
    /// Its log alone (the backup could not be read either).
    Log,
}

/// An event file that could not be read, and how the event was restored: the commands the
/// backup lacked that the log gave back, and whether more may be missing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// The event file (for the organiser; never sent to a page).
    pub file: PathBuf,
    /// What is wrong with it.
    pub problem: FileProblem,
    /// Where the damaged file was kept (an owner sets it aside; a reader leaves it).
    pub kept_as: Option<PathBuf>,
    /// What the event was restored from.
    pub from: RestoredFrom,
    /// The commands the backup lacked, given back from the log, in order.
    pub recovered: Vec<LogEntry>,
    /// The log could not be read to its end: commands after those may be missing.
    pub log_damaged: bool,
}

/// An event as loaded: the event, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedEvent {
    /// The event.
    pub event: Event,
    /// Its file was damaged: how it was restored.
    pub damage: Option<Damage>,
    /// The file was good but older than its log (a command killed between the two writes):
    /// these commands were applied again from the log.
    pub caught_up: Vec<LogEntry>,
    /// The log lacks the setup or commands the event has (events from before the log, a log
    /// lost or damaged): its owner writes it whole.
    pub log_needed: bool,
}

/// One line of an event's log: the setup (the first line), or an applied command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LogLine {
    /// The event's setup.
    Setup {
        /// The setup.
        setup: EventSetup,
    },
    /// An applied command.
    Entry(LogEntry),
}

/// An event's log as read: the setup, the entries, and whether a line in the middle could
/// not be read.
struct Journal {
    setup: Option<EventSetup>,
    entries: Vec<LogEntry>,
    damaged: bool,
}

fn read_journal(path: &Path) -> Journal {
    let mut journal = Journal {
        setup: None,
        entries: Vec::new(),
        damaged: false,
    };
    let text = match fs::metadata(path) {
        Ok(meta) if meta.is_file() => match fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(_) => {
                journal.damaged = true;
                return journal;
            }
        },
        Ok(_) => {
            journal.damaged = true;
            return journal;
        }
        Err(_) => return journal,
    };
    let complete = text.ends_with('\n');
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<LogLine>(line) {
            Ok(LogLine::Setup { setup }) => journal.setup = Some(setup),
            Ok(LogLine::Entry(entry)) => journal.entries.push(entry),
            // A last line cut short is an append a kill interrupted: that command was never
            // applied (nor told done). Anything else is damage.
            Err(_) if i + 1 == lines.len() && !complete => {}
            Err(_) => {
                journal.damaged = true;
                break;
            }
        }
    }
    journal
}

/// Applies the log's commands the event lacks (those after its last one), in order; stops at
/// a gap or a command the event refuses. Returns what was applied and whether it stopped
/// early.
fn catch_up(event: &mut Event, entries: &[LogEntry]) -> (Vec<LogEntry>, bool) {
    let mut applied = Vec::new();
    for entry in entries {
        let next = event.log().len() as u64 + 1;
        if entry.seq < next {
            continue;
        }
        if entry.seq > next || event.apply(entry.command.clone()).is_err() {
            return (applied, true);
        }
        applied.push(entry.clone());
    }
    (applied, false)
}

impl Store {
    /// The file of an event.
    pub fn event_path(&self, id: &EventId) -> PathBuf {
        self.dir.join(EVENTS_DIR).join(format!("{id}.json"))
    }

    /// The log of an event.
    pub fn event_log_path(&self, id: &EventId) -> PathBuf {
        self.dir.join(EVENTS_DIR).join(format!("{id}.log"))
    }

    /// A new, unused event id from the creation time (`20261202-190000`, then `-2`, …).
    pub fn new_event_id(&self, created: DateTime<Utc>) -> EventId {
        self.new_event_id_besides(created, |_| false)
    }

    /// A new event id as [`Store::new_event_id`], also unlike every id `taken` names (events
    /// made whose files are not written yet).
    pub fn new_event_id_besides(
        &self,
        created: DateTime<Utc>,
        taken: impl Fn(&EventId) -> bool,
    ) -> EventId {
        let base = created.format("%Y%m%d-%H%M%S").to_string();
        (1..1000)
            .map(|n| match n {
                1 => EventId(base.clone()),
                n => EventId(format!("{base}-{n}")),
            })
            .find(|id| {
                let path = self.event_path(id);
                !taken(id)
                    && !path.exists()
                    && !backup_path(&path).exists()
                    && !self.event_log_path(id).exists()
            })
            .unwrap_or(EventId(base))
    }

    /// The file where the host keeps the current round's tables at play.
    pub fn event_live_path(&self, id: &EventId) -> PathBuf {
        self.dir.join(EVENTS_DIR).join(format!("{id}.live.json"))
    }

    /// Loads the tables at play; `None` when there are none (or neither copy can be read).
    pub fn load_event_live(&self, id: &EventId) -> Option<TablesAtPlay> {
        self.files().load(&self.event_live_path(id), "tables").0
    }

    /// Loads an event (see the [module docs](self)): a good file, caught up with its log; a
    /// damaged one restored from its backup and its log, with the [`Damage`] said; a newer
    /// version's refused. Nothing is written, moved or set aside here: an owner
    /// ([`ClubStore`]) writes the restored event (which sets the damaged file aside) and the
    /// log on its writer thread.
    pub fn load_event(&self, id: &EventId) -> Result<LoadedEvent, StoreError> {
        let file = self.event_path(id);
        let journal = read_journal(&self.event_log_path(id));
        let (mut event, mut damage) = match read_state::<Event>(&file, "event") {
            FileState::Good(event, bytes) => {
                self.files().remember(&file, &bytes);
                (event, None)
            }
            FileState::Bad(FileProblem::Newer(version)) => {
                return Err(StoreError::Newer { file, version });
            }
            FileState::Missing if !backup_path(&file).exists() => {
                return Err(StoreError::NotFound { file });
            }
            state => {
                let problem = match state {
                    FileState::Bad(problem) => problem,
                    _ => FileProblem::Unreadable("missing".into()),
                };
                let backup = backup_path(&file);
                let (event, from) = match read_state::<Event>(&backup, "event") {
                    FileState::Good(event, _) => {
                        let commands = event.log().len();
                        (event, RestoredFrom::Backup { commands })
                    }
                    FileState::Bad(FileProblem::Newer(version)) => {
                        return Err(StoreError::Newer {
                            file: backup,
                            version,
                        });
                    }
                    _ => match journal.setup.clone().map(Event::new) {
                        Some(Ok(event)) => (event, RestoredFrom::Log),
                        _ => {
                            return Err(StoreError::Unrecoverable {
                                file,
                                notices: vec![Notice::LeftInPlace {
                                    file: backup,
                                    problem,
                                    error: "the backup and the event's log cannot be read".into(),
                                }],
                            });
                        }
                    },
                };
                let damage = Damage {
                    file: file.clone(),
                    problem,
                    kept_as: None,
                    from,
                    recovered: Vec::new(),
                    log_damaged: journal.damaged,
                };
                (event, Some(damage))
            }
        };
        let (applied, stopped) = catch_up(&mut event, &journal.entries);
        let caught_up = match &mut damage {
            Some(damage) => {
                damage.recovered = applied;
                damage.log_damaged |= stopped;
                Vec::new()
            }
            None => applied,
        };
        let log_needed =
            journal.setup.is_none() || journal.damaged || journal.entries.len() < event.log().len();
        Ok(LoadedEvent {
            event,
            damage,
            caught_up,
            log_needed,
        })
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

/// The owner's handle on a data folder's club nights: holds `events/.lock` for its life; see
/// the [module docs](self).
#[derive(Debug)]
pub struct ClubStore {
    store: Store,
    lock: fs::File,
}

impl ClubStore {
    /// Takes the club lock of data folder `dir` as `holder` (asked a few times, 20 ms apart),
    /// makes the events folder and removes what killed writes left in it. Refused at once
    /// with the holder's own words when another holds it.
    pub fn open(dir: &Path, holder: &Holder) -> Result<ClubStore, ClubLockError> {
        let folder = dir.join(EVENTS_DIR);
        fs::create_dir_all(&folder).map_err(|source| {
            ClubLockError::Store(StoreError::Folder {
                dir: folder.clone(),
                source,
            })
        })?;
        let lock = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(folder.join(CLUB_LOCK))
            .map_err(|source| {
                ClubLockError::Store(super::write_error(&folder.join(CLUB_LOCK), source))
            })?;
        let mut taken = false;
        for attempt in 0..LOCK_ATTEMPTS {
            match lock.try_lock() {
                Ok(()) => {
                    taken = true;
                    break;
                }
                Err(fs::TryLockError::WouldBlock) => {
                    if attempt + 1 < LOCK_ATTEMPTS {
                        std::thread::sleep(std::time::Duration::from_millis(20));
                    }
                }
                // A file system without locks: the store's on-disk check still guards saves.
                Err(fs::TryLockError::Error(_)) => {
                    taken = true;
                    break;
                }
            }
        }
        if !taken {
            return Err(ClubLockError::Held(ClubStore::holder(dir)));
        }
        remove_stale_temporaries(&folder);
        let store = Store {
            dir: dir.to_path_buf(),
            access: super::Access::Writable,
            shared: std::sync::Arc::new(super::Shared::default()),
        };
        let club = ClubStore { store, lock };
        club.set_holder(holder)
            .map_err(|source| ClubLockError::Store(super::write_error(&folder, source)))?;
        Ok(club)
    }

    /// Takes the club lock as [`ClubStore::open`] does, waiting up to `wait` while another
    /// holds it for a moment (a command line command); a holder that takes commands (a host)
    /// is returned at once, to hand it the command.
    pub fn open_waiting(
        dir: &Path,
        holder: &Holder,
        wait: std::time::Duration,
    ) -> Result<ClubStore, ClubLockError> {
        let until = std::time::Instant::now() + wait;
        loop {
            match ClubStore::open(dir, holder) {
                Err(ClubLockError::Held(held))
                    if held.as_ref().is_none_or(|h| h.control.is_none())
                        && std::time::Instant::now() < until =>
                {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                other => return other,
            }
        }
    }

    /// Who holds data folder `dir`'s club lock, as it said (`None` when nobody wrote it, or it
    /// cannot be read).
    pub fn holder(dir: &Path) -> Option<Holder> {
        let text = fs::read_to_string(dir.join(EVENTS_DIR).join(CLUB_LOCK)).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// Says who holds the lock now (a host, once its ports are known).
    pub fn set_holder(&self, holder: &Holder) -> io::Result<()> {
        let text = serde_json::to_string(holder).map_err(io::Error::other)?;
        let mut file = &self.lock;
        file.set_len(0)?;
        io::Seek::seek(&mut file, io::SeekFrom::Start(0))?;
        file.write_all(text.as_bytes())?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // The control secret is the user's alone.
            let _ = fs::set_permissions(
                self.store.dir.join(EVENTS_DIR).join(CLUB_LOCK),
                fs::Permissions::from_mode(0o600),
            );
        }
        Ok(())
    }

    /// The data folder.
    pub fn dir(&self) -> &Path {
        self.store.dir()
    }

    /// The folder as a reader sees it (listing, ids, paths).
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Loads an event (see [`Store::load_event`]); its owner then writes what it says needs
    /// writing.
    pub fn load_event(&self, id: &EventId) -> Result<LoadedEvent, StoreError> {
        self.store.load_event(id)
    }

    /// Writes an event's whole log (its setup, then every command).
    pub fn write_log(&self, id: &EventId, lines: &[LogLine]) -> Result<(), StoreError> {
        let path = self.store.event_log_path(id);
        let text: String = lines.iter().map(log_line).collect();
        atomic_write(&path, text.as_bytes()).map_err(|source| super::write_error(&path, source))
    }

    /// Appends a command to an event's log and syncs it (before the event file is replaced).
    pub fn append_log(&self, id: &EventId, entry: &LogEntry) -> Result<(), StoreError> {
        let path = self.store.event_log_path(id);
        let write = || -> io::Result<()> {
            let mut file = fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(&path)?;
            file.write_all(log_line(&LogLine::Entry(entry.clone())).as_bytes())?;
            file.sync_data()
        };
        write().map_err(|source| super::write_error(&path, source))
    }

    /// Saves an event atomically, keeping the previous good copy as `.bak`.
    pub fn save_event(&self, id: &EventId, event: &Event) -> Result<Vec<Notice>, StoreError> {
        self.store
            .files()
            .save::<Event>(&self.store.event_path(id), "event", event)
    }

    /// Saves the tables at play atomically, like an event (its name is not an event id, so
    /// [`Store::list_events`] never lists it).
    pub fn save_event_live(
        &self,
        id: &EventId,
        tables: &TablesAtPlay,
    ) -> Result<Vec<Notice>, StoreError> {
        self.store
            .files()
            .save::<TablesAtPlay>(&self.store.event_live_path(id), "tables", tables)
    }

    /// Loads the tables at play, with what the user should be told (a damaged file set aside, a
    /// backup used).
    pub fn load_event_live(&self, id: &EventId) -> Loaded<Option<TablesAtPlay>> {
        let (value, notices) = self
            .store
            .files()
            .load(&self.store.event_live_path(id), "tables");
        Loaded { value, notices }
    }
}

fn log_line(line: &LogLine) -> String {
    let mut text = serde_json::to_string(line).unwrap_or_default();
    text.push('\n');
    text
}
