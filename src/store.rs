//! Sheets and settings on disk: a data folder of small versioned JSON files, written so that a
//! crash or a dead battery never loses a game.
//!
//! Why this shape:
//! - **Atomic writes.** Every save goes to a temporary file in the same folder, is synced to
//!   disk, then renamed over the old file, and the folder itself is synced. A reader therefore
//!   always sees either the old complete file or the new complete file, never half of one.
//! - **A backup of the last good copy.** Before a file is replaced, its current content — if it
//!   reads correctly — is kept as `<file>.bak` (itself written atomically). If the main file is
//!   ever unreadable, loading falls back to the backup, restores it, and says so.
//! - **Nothing is overwritten that could not be read.** A file that is not valid, or that was
//!   written by a newer version of the app, is renamed aside to `<file>.corrupt-<timestamp>` and
//!   reported as a [`Notice`] — for the GUI's "load problem" banner — so the user can send it in
//!   or open it by hand.
//! - **Versioned JSON.** Files are `{"version": 1, "sheet": …}` / `{"version": 1, "settings": …}`
//!   / `{"version": 1, "evening": …}`; the settings and evening types belong to the GUI, so they
//!   are stored generically. A file from a newer version is kept aside and named as such, never
//!   called damaged.
//! - **One writer per folder.** A store holds an advisory lock on `.lock` in the data folder for
//!   its whole life. A second store on the same folder (a second window, a double launch) opens
//!   read-only and says why ([`Access`]); it still loads and lists everything. Independently of
//!   the lock (a synced folder, a program that ignores it), a save never overwrites a file that
//!   changed on disk since this store last read or wrote it ([`StoreError::ChangedOnDisk`]).
//! - **Read-only is not empty.** A folder that cannot be written still loads every sheet and
//!   the settings; only writes are refused, with [`StoreError::ReadOnly`] saying why in plain
//!   words.
//! - **No litter.** Temporary files a crash left behind are removed when a writable store opens.
//!
//! The data folder is `directories::ProjectDirs`' data folder, or the folder named by the
//! environment variable `RUMMIKUB_COMPANION_DATA` (tests, portable installs). Sheets live in its
//! `sheets/` subfolder, one file per sheet.
//!
//! # Example
//! ```
//! use chrono::{TimeZone, Utc};
//! use rummikub_companion::rules::RuleSet;
//! use rummikub_companion::score::{Game, Hand, Players, Sheet};
//! use rummikub_companion::store::Store;
//!
//! let folder = tempfile::tempdir().unwrap();
//! let store = Store::open(folder.path()).unwrap();
//! let start = Utc.with_ymd_and_hms(2024, 5, 1, 19, 0, 0).unwrap();
//! let mut sheet = Sheet::new(Players::new(["Ann", "Bo"]).unwrap(), RuleSet::default(), None, start)
//!     .unwrap();
//! sheet.add_game(Game::new(vec![Hand::of_value(0), Hand::of_value(9)])).unwrap();
//! let id = store.new_sheet_id(start);
//! store.save_sheet(&id, &sheet).unwrap();
//! let loaded = store.load_sheet(&id).unwrap();
//! assert!(loaded.notices.is_empty());
//! assert_eq!(loaded.value, sheet);
//! assert_eq!(store.list_sheets().unwrap().sheets[0].id, id);
//! ```

use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt;
use std::fs;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::score::Sheet;

mod event;
pub mod saver;
mod scan;
mod season;
pub use event::{
    CLUB_LOCK, ClubLockError, ClubStore, Damage, EVENTS_DIR, EventId, Holder, HolderKind,
    LoadedEvent, LogLine, RestoredFrom,
};
pub use scan::{Scan, Skipped, read_sheets};
pub use season::{
    SEASON_LOCK, SEASONS_DIR, SeasonId, SeasonStore, VENUE_FILE, load_venue, venue, venue_path,
};

/// Environment variable that overrides the data folder.
pub const DATA_ENV: &str = "RUMMIKUB_COMPANION_DATA";
/// The file format version this build writes and reads.
pub const FORMAT_VERSION: u64 = 1;
/// The settings file name in the data folder.
pub const SETTINGS_FILE: &str = "settings.json";
/// The sheets subfolder of the data folder.
pub const SHEETS_DIR: &str = "sheets";
/// The evening file (the window's timer and open sheet) in the data folder.
pub const EVENING_FILE: &str = "evening.json";
/// The lock file in the data folder: whoever holds its lock is the one writer.
pub const LOCK_FILE: &str = ".lock";
/// Name prefix of the store's temporary files (left behind only by a crash).
const TMP_PREFIX: &str = ".tmp-";
/// Name prefix of the write probes of earlier versions.
const PROBE_PREFIX: &str = ".probe-";

/// Why a file could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileProblem {
    /// Reading failed.
    #[error("could not be read ({0})")]
    Unreadable(String),
    /// The file is empty (or only spaces).
    #[error("is empty")]
    Empty,
    /// Not JSON (e.g. cut short).
    #[error("is not valid JSON ({0})")]
    NotJson(String),
    /// No `version` number.
    #[error("has no format version")]
    NoVersion,
    /// Written by a newer version of the app: not damaged, just not readable by this one.
    #[error(
        "was made by a newer version of the app (format {0}; this one reads up to {FORMAT_VERSION})"
    )]
    Newer(u64),
    /// JSON with the right version but not the expected content.
    #[error("does not hold valid data ({0})")]
    Invalid(String),
    /// Not a regular file (a folder, a named pipe, a device): never opened, so nothing can
    /// block on it.
    #[error("is not a regular file")]
    NotAFile,
}

/// Something the user should be told about after a load or save: the GUI's banner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// A file could not be used and was renamed aside (never overwritten).
    SetAside {
        /// The file as it was named.
        file: PathBuf,
        /// Where it is now.
        moved_to: PathBuf,
        /// What is wrong with it.
        problem: FileProblem,
    },
    /// A file could not be used and could not even be renamed aside; it was left untouched.
    LeftInPlace {
        /// The file.
        file: PathBuf,
        /// What is wrong with it.
        problem: FileProblem,
        /// Why renaming failed.
        error: String,
    },
    /// The main file was bad or missing; its backup was used and restored as the main file.
    Recovered {
        /// The main file.
        file: PathBuf,
        /// The backup it was restored from.
        backup: PathBuf,
    },
}

impl Notice {
    /// The path a bad file was moved to, if it was set aside.
    pub fn set_aside_to(&self) -> Option<&Path> {
        match self {
            Notice::SetAside { moved_to, .. } => Some(moved_to),
            _ => None,
        }
    }

    /// What was wrong with the file, if something was (not for a recovery).
    pub fn problem(&self) -> Option<&FileProblem> {
        match self {
            Notice::SetAside { problem, .. } | Notice::LeftInPlace { problem, .. } => Some(problem),
            Notice::Recovered { .. } => None,
        }
    }

    /// True when the file is not damaged but was made by a newer version of the app (the
    /// window says "made by a newer version; kept aside" rather than "damaged").
    ///
    /// # Example
    /// ```
    /// use rummikub_companion::store::{FileProblem, Notice};
    /// let notice = Notice::SetAside {
    ///     file: "settings.json".into(),
    ///     moved_to: "settings.json.corrupt-x".into(),
    ///     problem: FileProblem::Newer(3),
    /// };
    /// assert!(notice.is_newer_version());
    /// assert!(notice.to_string().contains("made by a newer version of the app (format 3"));
    /// assert!(notice.to_string().contains("kept aside as settings.json.corrupt-x"));
    /// ```
    pub fn is_newer_version(&self) -> bool {
        matches!(self.problem(), Some(FileProblem::Newer(_)))
    }
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::SetAside {
                file,
                moved_to,
                problem: problem @ FileProblem::Newer(_),
            } => write!(
                f,
                "{} {problem}; it was kept aside as {}",
                file.display(),
                moved_to.display()
            ),
            Notice::SetAside {
                file,
                moved_to,
                problem,
            } => write!(
                f,
                "{} {problem}; it was kept as {}",
                file.display(),
                moved_to.display()
            ),
            Notice::LeftInPlace {
                file,
                problem,
                error,
            } => write!(
                f,
                "{} {problem}, and could not be renamed aside ({error}); it was left untouched",
                file.display()
            ),
            Notice::Recovered { file, backup } => write!(
                f,
                "{} was restored from its backup {}",
                file.display(),
                backup.display()
            ),
        }
    }
}

/// Whether a store may write: see [`Store::access`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// This store is the folder's one writer.
    Writable,
    /// Everything loads, nothing is written; the reason says why.
    ReadOnly(ReadOnlyReason),
}

impl Access {
    /// True for [`Access::Writable`].
    pub fn is_writable(&self) -> bool {
        matches!(self, Access::Writable)
    }
}

/// Why a store is read-only, in plain words (no temporary file names).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadOnlyReason {
    /// The system refuses writes in the folder (permissions, a read-only disk or mount).
    #[error("the data folder {} cannot be written ({kind})", .dir.display())]
    NotWritable {
        /// The folder that refused (the data folder or its `sheets` folder).
        dir: PathBuf,
        /// The system's reason, e.g. "permission denied".
        kind: io::ErrorKind,
    },
    /// Another window (or another copy of the app) holds the folder's lock.
    #[error("the data folder {} is in use by another window", .dir.display())]
    InUse {
        /// The data folder.
        dir: PathBuf,
    },
    /// Opened by a report (`status`, `history`) that only reads.
    #[error("the data folder {} was opened only to read it", .dir.display())]
    Reading {
        /// The data folder.
        dir: PathBuf,
    },
}

/// Why the store could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No data folder could be found.
    #[error("no data folder: no home folder was found (set {DATA_ENV} to choose one)")]
    NoDataFolder,
    /// The data folder could not be created or read.
    #[error("cannot use the data folder {}: {source}", .dir.display())]
    Folder {
        /// The folder.
        dir: PathBuf,
        /// The system's reason.
        source: io::Error,
    },
    /// The data folder's name is taken by a file.
    #[error("cannot use the data folder {}: it is a file, not a folder", .dir.display())]
    NotAFolder {
        /// The path.
        dir: PathBuf,
    },
    /// Nothing may be written: the change was not saved.
    #[error("not saved: {0}")]
    ReadOnly(ReadOnlyReason),
    /// The file changed on disk since this store read or wrote it (another window or program
    /// saved it); it was not overwritten.
    #[error(
        "not saved: {} was changed by another window or program since it was opened here; \
         it was left as it is",
        .file.display()
    )]
    ChangedOnDisk {
        /// The file.
        file: PathBuf,
    },
    /// A file could not be written (the old file is untouched).
    #[error("could not save {}: {source}", .file.display())]
    Write {
        /// The file.
        file: PathBuf,
        /// The system's reason.
        source: io::Error,
    },
    /// The value could not be turned into JSON.
    #[error("could not encode {}: {source}", .file.display())]
    Encode {
        /// The file.
        file: PathBuf,
        /// Why.
        source: serde_json::Error,
    },
    /// A sheet id that is not a plain file name.
    #[error("\"{0}\" is not a sheet name (use letters, digits, - and _)")]
    BadId(String),
    /// No such sheet (neither the file nor a backup exists).
    #[error("there is no saved sheet {}", .file.display())]
    NotFound {
        /// The file looked for.
        file: PathBuf,
    },
    /// The file was written by a newer version of the app: refused, and left as it is.
    #[error(
        "{} was written by a newer version of the app (format {version}; this one reads up to \
         {FORMAT_VERSION}): it was left as it is; use the newer version",
        .file.display()
    )]
    Newer {
        /// The file.
        file: PathBuf,
        /// Its format version.
        version: u64,
    },
    /// Neither the sheet nor its backup could be read; both were set aside.
    #[error("could not read {} or its backup: {}", .file.display(), notices_text(.notices))]
    Unrecoverable {
        /// The sheet file.
        file: PathBuf,
        /// What was found and where the files went.
        notices: Vec<Notice>,
    },
}

fn notices_text(notices: &[Notice]) -> String {
    notices
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// A loaded value and anything the user should be told about how it was loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded<T> {
    /// The value.
    pub value: T,
    /// Files set aside or recovered on the way (empty when all was well).
    pub notices: Vec<Notice>,
}

/// Whether `name` can name a saved file (without `.json`): 1–64 ASCII letters, digits, `-`, `_`
/// (no path separators, no dots: never a path out of the data folder).
pub(crate) fn is_file_id(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The name of a saved sheet (its file name without `.json`): letters, digits, `-` and `_`.
///
/// # Example
/// ```
/// use rummikub_companion::store::SheetId;
/// assert!(SheetId::new("20240501-190000").is_ok());
/// assert!(SheetId::new("../etc/passwd").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SheetId(String);

impl SheetId {
    /// Checks the name.
    pub fn new(name: &str) -> Result<SheetId, StoreError> {
        if is_file_id(name) {
            Ok(SheetId(name.to_owned()))
        } else {
            Err(StoreError::BadId(name.to_owned()))
        }
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl serde::Serialize for SheetId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> serde::Deserialize<'de> for SheetId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        SheetId::new(&name).map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for SheetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A sheet found in the data folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedSheet {
    /// Its name, for [`Store::load_sheet`] and [`Store::save_sheet`].
    pub id: SheetId,
    /// The sheet.
    pub sheet: Sheet,
}

/// Every readable sheet, most recently played first, and what was found wrong on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    /// The sheets, newest activity first.
    pub sheets: Vec<SavedSheet>,
    /// Files set aside or recovered while listing.
    pub notices: Vec<Notice>,
}

/// The data folder: `$RUMMIKUB_COMPANION_DATA` when set and not empty, else the platform's data
/// folder for the app.
pub fn data_dir_from(env: Option<OsString>) -> Result<PathBuf, StoreError> {
    match env {
        Some(dir) if !dir.is_empty() => Ok(PathBuf::from(dir)),
        _ => directories::ProjectDirs::from("", "", "rummikub-companion")
            .map(|dirs| dirs.data_dir().to_path_buf())
            .ok_or(StoreError::NoDataFolder),
    }
}

/// The data folder and everything saved in it.
///
/// Clones share the folder lock and what was read: they are the same writer.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
    access: Access,
    shared: Arc<Shared>,
}

/// What clones of a store share.
#[derive(Debug, Default)]
struct Shared {
    /// The open lock file while this store is the writer (the lock goes with the handle).
    _lock: Option<fs::File>,
    /// A hash of each file's bytes as this store last read or wrote them.
    seen: Mutex<HashMap<PathBuf, u64>>,
}

fn hash_of(bytes: &[u8]) -> u64 {
    let mut hasher = DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

/// Whether files can be created in `folder` (a temporary file, removed at once).
fn can_write_in(folder: &Path) -> Result<(), io::ErrorKind> {
    tempfile::Builder::new()
        .prefix(PROBE_PREFIX)
        .tempfile_in(folder)
        .map(drop)
        .map_err(|e| e.kind())
}

/// Takes the folder's lock: `Ok(Some(file))` holds it, `Ok(None)` when the file system has no
/// locks (then the on-disk change check still guards saves), `Err` when another holds it.
fn take_lock(dir: &Path) -> Result<Option<fs::File>, ReadOnlyReason> {
    let file = match fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(dir.join(LOCK_FILE))
    {
        Ok(file) => file,
        Err(e) => {
            return Err(ReadOnlyReason::NotWritable {
                dir: dir.to_path_buf(),
                kind: e.kind(),
            });
        }
    };
    // A window that is just closing, or a child process another thread is starting (it holds
    // a copy of the handle until it has started), frees the lock within moments: ask a few
    // times before calling the folder taken.
    for attempt in 0..LOCK_ATTEMPTS {
        match file.try_lock() {
            Ok(()) => return Ok(Some(file)),
            Err(fs::TryLockError::WouldBlock) if attempt + 1 < LOCK_ATTEMPTS => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(fs::TryLockError::WouldBlock) => break,
            Err(fs::TryLockError::Error(_)) => return Ok(None),
        }
    }
    Err(ReadOnlyReason::InUse {
        dir: dir.to_path_buf(),
    })
}

/// How often [`take_lock`] asks (20 ms apart) before the folder counts as taken.
const LOCK_ATTEMPTS: u32 = 5;

/// Removes the store's temporary files a crash left in `folder` (only called by the writer).
fn remove_stale_temporaries(folder: &Path) {
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let stale = name
            .to_str()
            .is_some_and(|n| n.starts_with(TMP_PREFIX) || n.starts_with(PROBE_PREFIX));
        if stale && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

impl Store {
    /// Opens the default data folder (see [`data_dir_from`]), creating it if needed.
    pub fn open_default() -> Result<Store, StoreError> {
        Store::open(data_dir_from(std::env::var_os(DATA_ENV))?)
    }

    /// Opens (and creates) a data folder. A folder that exists but cannot be written, or whose
    /// lock another window holds, opens read-only (see [`Store::access`]); only a folder that
    /// neither exists nor can be created is an error.
    ///
    /// # Example
    /// ```
    /// use rummikub_companion::store::{Access, ReadOnlyReason, Store};
    /// let folder = tempfile::tempdir().unwrap();
    /// let first = Store::open(folder.path()).unwrap();
    /// assert_eq!(first.access(), Access::Writable);
    /// let second = Store::open(folder.path()).unwrap();
    /// assert!(matches!(second.access(), Access::ReadOnly(ReadOnlyReason::InUse { .. })));
    /// drop((first, second));
    /// assert!(Store::open(folder.path()).unwrap().access().is_writable());
    /// ```
    pub fn open(dir: impl Into<PathBuf>) -> Result<Store, StoreError> {
        let dir = dir.into();
        if dir.exists() && !dir.is_dir() {
            return Err(StoreError::NotAFolder { dir });
        }
        if let Err(source) = fs::create_dir_all(&dir) {
            return Err(if dir.is_file() {
                StoreError::NotAFolder { dir }
            } else {
                StoreError::Folder { dir, source }
            });
        }
        let sheets = dir.join(SHEETS_DIR);
        let refused = |folder: &Path, kind| ReadOnlyReason::NotWritable {
            dir: folder.to_path_buf(),
            kind,
        };
        let writable = fs::create_dir_all(&sheets)
            .map_err(|e| refused(&dir, e.kind()))
            .and_then(|()| can_write_in(&dir).map_err(|kind| refused(&dir, kind)))
            .and_then(|()| can_write_in(&sheets).map_err(|kind| refused(&sheets, kind)));
        let (access, lock) = match writable.and_then(|()| take_lock(&dir)) {
            Ok(lock) => (Access::Writable, lock),
            Err(reason) => (Access::ReadOnly(reason), None),
        };
        if access.is_writable() {
            remove_stale_temporaries(&dir);
            remove_stale_temporaries(&sheets);
        }
        Ok(Store {
            dir,
            access,
            shared: Arc::new(Shared {
                _lock: lock,
                seen: Mutex::new(HashMap::new()),
            }),
        })
    }

    /// Opens a data folder only to read it (`status`, `history`): nothing is created, locked,
    /// renamed or written, whatever is found; a folder that does not exist has nothing in it.
    ///
    /// # Example
    /// ```
    /// use rummikub_companion::store::Store;
    /// let folder = tempfile::tempdir().unwrap();
    /// let reader = Store::open_reader(folder.path().join("none-yet"));
    /// assert!(!reader.access().is_writable());
    /// assert!(reader.list_sheets().unwrap().sheets.is_empty());
    /// assert!(!folder.path().join("none-yet").exists());
    /// ```
    pub fn open_reader(dir: impl Into<PathBuf>) -> Store {
        let dir = dir.into();
        Store {
            access: Access::ReadOnly(ReadOnlyReason::Reading { dir: dir.clone() }),
            dir,
            shared: Arc::new(Shared::default()),
        }
    }

    /// The data folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Sets the evening file (and its backup) aside, renamed, never overwritten: it read as an
    /// evening but could not be restored. Returns the notice for the main file, if there was
    /// one to set aside; a read-only store leaves both in place.
    pub fn set_aside_evening(&self, problem: FileProblem) -> Option<Notice> {
        let path = self.evening_path();
        if !path.exists() || !self.access.is_writable() {
            return None;
        }
        let backup = backup_path(&path);
        if backup.exists() {
            set_aside(&backup, problem.clone());
        }
        Some(set_aside(&path, problem))
    }

    /// Whether this store may write, and if not why: for the window's standing indicator.
    pub fn access(&self) -> Access {
        self.access.clone()
    }

    /// `Ok` when writes are allowed, else the typed refusal.
    fn check_writable(&self) -> Result<(), StoreError> {
        match &self.access {
            Access::Writable => Ok(()),
            Access::ReadOnly(reason) => Err(StoreError::ReadOnly(reason.clone())),
        }
    }

    /// The settings file.
    pub fn settings_path(&self) -> PathBuf {
        self.dir.join(SETTINGS_FILE)
    }

    /// The evening file.
    pub fn evening_path(&self) -> PathBuf {
        self.dir.join(EVENING_FILE)
    }

    /// The file of a sheet.
    pub fn sheet_path(&self, id: &SheetId) -> PathBuf {
        self.dir.join(SHEETS_DIR).join(format!("{id}.json"))
    }

    fn files(&self) -> Files<'_> {
        Files {
            writable: self.access.is_writable(),
            seen: &self.shared.seen,
        }
    }

    /// Loads the settings; defaults when there are none or they cannot be read (then the bad
    /// file is set aside and reported).
    pub fn load_settings<S: DeserializeOwned + Default>(&self) -> Loaded<S> {
        let (value, notices) = self.files().load(&self.settings_path(), "settings");
        Loaded {
            value: value.unwrap_or_default(),
            notices,
        }
    }

    /// Saves the settings atomically, keeping the previous good copy as `.bak`. Returns notices
    /// when an unreadable settings file had to be set aside first.
    pub fn save_settings<S: Serialize>(&self, settings: &S) -> Result<Vec<Notice>, StoreError> {
        self.check_writable()?;
        self.files()
            .save::<serde_json::Value>(&self.settings_path(), "settings", settings)
    }

    /// Loads the evening (the window's timer and open sheet), exactly like the settings:
    /// defaults when there is none or it cannot be read (then it is set aside and reported).
    ///
    /// # Example
    /// ```
    /// use rummikub_companion::store::Store;
    /// let folder = tempfile::tempdir().unwrap();
    /// let store = Store::open(folder.path()).unwrap();
    /// assert_eq!(store.load_evening::<Vec<String>>().value, Vec::<String>::new());
    /// store.save_evening(&vec!["Ann".to_owned()]).unwrap();
    /// assert_eq!(store.load_evening::<Vec<String>>().value, ["Ann"]);
    /// ```
    pub fn load_evening<T: DeserializeOwned + Default>(&self) -> Loaded<T> {
        let (value, notices) = self.files().load(&self.evening_path(), "evening");
        Loaded {
            value: value.unwrap_or_default(),
            notices,
        }
    }

    /// Saves the evening atomically, keeping the previous good copy as `.bak`.
    pub fn save_evening<T: Serialize>(&self, value: &T) -> Result<Vec<Notice>, StoreError> {
        self.check_writable()?;
        self.files()
            .save::<serde_json::Value>(&self.evening_path(), "evening", value)
    }

    /// A new, unused sheet id made from the creation time (`20240501-190000`, then `-2`, …).
    pub fn new_sheet_id(&self, created: DateTime<Utc>) -> SheetId {
        self.new_sheet_id_besides(created, |_| false)
    }

    /// [`new_sheet_id`](Store::new_sheet_id), also avoiding the ids `taken` says are in use
    /// (sheets started but perhaps not on disk yet: saving is done in the background).
    pub fn new_sheet_id_besides(
        &self,
        created: DateTime<Utc>,
        taken: impl Fn(&SheetId) -> bool,
    ) -> SheetId {
        let base = created.format("%Y%m%d-%H%M%S").to_string();
        (1..)
            .map(|n| match n {
                1 => SheetId(base.clone()),
                n => SheetId(format!("{base}-{n}")),
            })
            .find(|id| {
                let path = self.sheet_path(id);
                !taken(id) && !path.exists() && !backup_path(&path).exists()
            })
            .unwrap_or(SheetId(base))
    }

    /// Saves a sheet atomically, keeping the previous good copy as `.bak`. Refused when the
    /// store is read-only, and when the file changed on disk since this store read or wrote it.
    pub fn save_sheet(&self, id: &SheetId, sheet: &Sheet) -> Result<Vec<Notice>, StoreError> {
        self.check_writable()?;
        self.files()
            .save::<Sheet>(&self.sheet_path(id), "sheet", sheet)
    }

    /// Loads a sheet, recovering from its backup if the file is bad or missing.
    pub fn load_sheet(&self, id: &SheetId) -> Result<Loaded<Sheet>, StoreError> {
        let file = self.sheet_path(id);
        match self.files().load(&file, "sheet") {
            (Some(value), notices) => Ok(Loaded { value, notices }),
            (None, notices) if notices.is_empty() => Err(StoreError::NotFound { file }),
            (None, notices) => Err(StoreError::Unrecoverable { file, notices }),
        }
    }

    /// Every saved sheet, most recent activity first. Unreadable sheets are set aside and
    /// reported in the listing's notices.
    pub fn list_sheets(&self) -> Result<Listing, StoreError> {
        let folder = self.dir.join(SHEETS_DIR);
        let entries = match fs::read_dir(&folder) {
            Ok(entries) => entries,
            // A read-only folder that never had sheets: nothing to list.
            Err(e) if e.kind() == io::ErrorKind::NotFound && !self.access.is_writable() => {
                return Ok(Listing {
                    sheets: Vec::new(),
                    notices: Vec::new(),
                });
            }
            Err(source) => {
                return Err(StoreError::Folder {
                    dir: folder,
                    source,
                });
            }
        };
        let mut ids: Vec<SheetId> = entries
            .filter_map(Result::ok)
            .filter_map(|e| sheet_id_of(&e.file_name()))
            .collect();
        // (A name that is not a regular file is reported by the load: read_state opens only
        // regular files.)
        ids.sort();
        ids.dedup();
        let mut listing = Listing {
            sheets: Vec::new(),
            notices: Vec::new(),
        };
        for id in ids {
            match self.load_sheet(&id) {
                Ok(loaded) => {
                    listing.notices.extend(loaded.notices);
                    listing.sheets.push(SavedSheet {
                        id,
                        sheet: loaded.value,
                    });
                }
                Err(StoreError::Unrecoverable { notices, .. }) => listing.notices.extend(notices),
                Err(_) => {}
            }
        }
        listing.sheets.sort_by(|a, b| {
            (b.sheet.last_activity(), &b.id).cmp(&(a.sheet.last_activity(), &a.id))
        });
        Ok(listing)
    }
}

/// The sheet id of a file name `<id>.json` or `<id>.json.bak` (not temporary or set-aside files).
fn sheet_id_of(name: &std::ffi::OsStr) -> Option<SheetId> {
    let name = name.to_str()?;
    let stem = name
        .strip_suffix(".json.bak")
        .or_else(|| name.strip_suffix(".json"))?;
    SheetId::new(stem).ok()
}

fn backup_path(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".bak");
    PathBuf::from(name)
}

fn folder_of(file: &Path) -> &Path {
    match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

fn write_error(file: &Path, source: io::Error) -> StoreError {
    match source.kind() {
        kind @ (io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem) => {
            StoreError::ReadOnly(ReadOnlyReason::NotWritable {
                dir: folder_of(file).to_path_buf(),
                kind,
            })
        }
        _ => StoreError::Write {
            file: file.to_path_buf(),
            source,
        },
    }
}

/// Temporary file in the same folder → write → fsync → rename over `path` → fsync the folder.
fn atomic_write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let folder = folder_of(path);
    let mut tmp = tempfile::Builder::new()
        .prefix(TMP_PREFIX)
        .tempfile_in(folder)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    sync_folder(folder)
}

#[cfg(unix)]
fn sync_folder(folder: &Path) -> io::Result<()> {
    fs::File::open(folder)?.sync_all()
}

#[cfg(not(unix))]
fn sync_folder(_folder: &Path) -> io::Result<()> {
    Ok(())
}

/// `{"version": 1, "<key>": value}`, pretty-printed.
fn encode<T: Serialize>(file: &Path, key: &str, value: &T) -> Result<Vec<u8>, StoreError> {
    let encode_error = |source| StoreError::Encode {
        file: file.to_path_buf(),
        source,
    };
    let mut envelope = serde_json::Map::new();
    envelope.insert("version".into(), FORMAT_VERSION.into());
    envelope.insert(
        key.into(),
        serde_json::to_value(value).map_err(encode_error)?,
    );
    let mut bytes = serde_json::to_vec_pretty(&envelope).map_err(encode_error)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Reads the envelope and the value under `key`.
fn decode<T: DeserializeOwned>(bytes: &[u8], key: &str) -> Result<T, FileProblem> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(FileProblem::Empty);
    }
    let mut json: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| FileProblem::NotJson(e.to_string()))?;
    let version = json
        .get("version")
        .and_then(serde_json::Value::as_u64)
        .ok_or(FileProblem::NoVersion)?;
    if version > FORMAT_VERSION {
        return Err(FileProblem::Newer(version));
    }
    if version == 0 {
        return Err(FileProblem::Invalid(
            "format version 0 does not exist".into(),
        ));
    }
    let value = json
        .get_mut(key)
        .map(serde_json::Value::take)
        .ok_or_else(|| FileProblem::Invalid(format!("no \"{key}\" field")))?;
    serde_json::from_value(value).map_err(|e| FileProblem::Invalid(e.to_string()))
}

/// A file's state: good (with its bytes), missing, or bad.
enum FileState<T> {
    Good(T, Vec<u8>),
    Missing,
    Bad(FileProblem),
}

fn read_state<T: DeserializeOwned>(path: &Path, key: &str) -> FileState<T> {
    // Only regular files are opened: a named pipe would block the reader forever.
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => return FileState::Bad(FileProblem::NotAFile),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return FileState::Missing,
        _ => {}
    }
    match fs::read(path) {
        Ok(bytes) => match decode(&bytes, key) {
            Ok(value) => FileState::Good(value, bytes),
            Err(problem) => FileState::Bad(problem),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => FileState::Missing,
        Err(e) => FileState::Bad(FileProblem::Unreadable(e.to_string())),
    }
}

/// Renames a bad file to `<file>.corrupt-<UTC timestamp>` (never over an existing file).
fn set_aside(file: &Path, problem: FileProblem) -> Notice {
    let stamp = Utc::now().format("%Y%m%dT%H%M%SZ").to_string();
    let mut base = file.as_os_str().to_owned();
    base.push(format!(".corrupt-{stamp}"));
    let free = (1..1000)
        .map(|n| {
            let mut name = base.clone();
            if n > 1 {
                name.push(format!("-{n}"));
            }
            PathBuf::from(name)
        })
        .find(|p| !p.exists());
    let renamed = match free {
        Some(target) => fs::rename(file, &target).map(|()| target),
        None => Err(io::Error::other("no free name to set the file aside")),
    };
    match renamed {
        Ok(moved_to) => Notice::SetAside {
            file: file.to_path_buf(),
            moved_to,
            problem,
        },
        Err(e) => Notice::LeftInPlace {
            file: file.to_path_buf(),
            problem,
            error: e.to_string(),
        },
    }
}

/// How a store reads and writes its files: whether it may write, and what it last saw.
struct Files<'a> {
    writable: bool,
    seen: &'a Mutex<HashMap<PathBuf, u64>>,
}

impl Files<'_> {
    fn remember(&self, path: &Path, bytes: &[u8]) {
        self.seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(path.to_path_buf(), hash_of(bytes));
    }

    fn last_seen(&self, path: &Path) -> Option<u64> {
        self.seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(path)
            .copied()
    }

    /// Sets a bad file aside, or (read-only) leaves it and says why.
    fn set_aside(&self, file: &Path, problem: FileProblem) -> Notice {
        if self.writable {
            set_aside(file, problem)
        } else {
            Notice::LeftInPlace {
                file: file.to_path_buf(),
                problem,
                error: "the data folder is read-only".to_owned(),
            }
        }
    }

    /// Loads `path`, falling back to (and, when writable, restoring from) its backup. Returns
    /// the value if either was good, and what was set aside or recovered.
    fn load<T: DeserializeOwned>(&self, path: &Path, key: &str) -> (Option<T>, Vec<Notice>) {
        let mut notices = Vec::new();
        match read_state(path, key) {
            FileState::Good(value, bytes) => {
                self.remember(path, &bytes);
                return (Some(value), notices);
            }
            FileState::Missing => {}
            FileState::Bad(problem) => notices.push(self.set_aside(path, problem)),
        }
        let backup = backup_path(path);
        match read_state(&backup, key) {
            FileState::Good(value, bytes) if self.writable => {
                // Put the good copy back in place; if that fails the backup is still there.
                if atomic_write(path, &bytes).is_ok() {
                    self.remember(path, &bytes);
                }
                notices.push(Notice::Recovered {
                    file: path.to_path_buf(),
                    backup,
                });
                (Some(value), notices)
            }
            // Read-only: use the backup, change nothing.
            FileState::Good(value, _) => (Some(value), notices),
            FileState::Missing => (None, notices),
            FileState::Bad(problem) => {
                notices.push(self.set_aside(&backup, problem));
                (None, notices)
            }
        }
    }

    /// Saves `value` to `path`: the current file, if it reads as a `C`, becomes the backup; if
    /// it does not, it is set aside first (and the save refused if it cannot be). A readable
    /// file that is not what this store last read or wrote is never overwritten.
    fn save<C: DeserializeOwned>(
        &self,
        path: &Path,
        key: &str,
        value: &impl Serialize,
    ) -> Result<Vec<Notice>, StoreError> {
        let bytes = encode(path, key, value)?;
        let mut notices = Vec::new();
        match read_state::<C>(path, key) {
            FileState::Good(_, old) => {
                if self.last_seen(path) != Some(hash_of(&old)) {
                    return Err(StoreError::ChangedOnDisk {
                        file: path.to_path_buf(),
                    });
                }
                atomic_write(&backup_path(path), &old)
                    .map_err(|source| write_error(&backup_path(path), source))?;
            }
            FileState::Missing => {}
            FileState::Bad(problem) => {
                let notice = set_aside(path, problem);
                if let Notice::LeftInPlace { error, .. } = &notice {
                    return Err(StoreError::Write {
                        file: path.to_path_buf(),
                        source: io::Error::other(format!(
                            "the file there cannot be read and cannot be set aside ({error})"
                        )),
                    });
                }
                notices.push(notice);
            }
        }
        atomic_write(path, &bytes).map_err(|source| write_error(path, source))?;
        self.remember(path, &bytes);
        Ok(notices)
    }
}
