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
//! - **Versioned JSON.** Files are `{"version": 1, "sheet": …}` / `{"version": 1, "settings": …}`;
//!   the settings type belongs to the GUI, so settings are stored generically.
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

use std::ffi::OsString;
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::score::Sheet;
use crate::score::table::{points_csv, score_csv};

mod scan;
pub use scan::{Scan, Skipped, read_sheets};

/// Environment variable that overrides the data folder.
pub const DATA_ENV: &str = "RUMMIKUB_COMPANION_DATA";
/// The file format version this build writes and reads.
pub const FORMAT_VERSION: u64 = 1;
/// The settings file name in the data folder.
pub const SETTINGS_FILE: &str = "settings.json";
/// The sheets subfolder of the data folder.
pub const SHEETS_DIR: &str = "sheets";

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
    /// Written by a newer version of the app.
    #[error(
        "was written by a newer version of the app (format {0}; this one reads up to {FORMAT_VERSION})"
    )]
    Newer(u64),
    /// JSON with the right version but not the expected content.
    #[error("does not hold valid data ({0})")]
    Invalid(String),
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
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
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
    /// The data folder exists but nothing can be written in it.
    #[error("the data folder {} is read-only: {source}", .dir.display())]
    ReadOnly {
        /// The folder.
        dir: PathBuf,
        /// The system's reason.
        source: io::Error,
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
        let ok = !name.is_empty()
            && name.len() <= 64
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if ok {
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

/// Which CSV to export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CsvLayout {
    /// Signed points per game, then wins, totals and ranks (for people; `audit` accepts it).
    Points,
    /// Remaining values and marks (facts; `score` reads it back).
    Remaining,
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
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// Opens the default data folder (see [`data_dir_from`]), creating it if needed.
    pub fn open_default() -> Result<Store, StoreError> {
        Store::open(data_dir_from(std::env::var_os(DATA_ENV))?)
    }

    /// Opens (and creates) a data folder, checking that files can be written in it.
    pub fn open(dir: impl Into<PathBuf>) -> Result<Store, StoreError> {
        let dir = dir.into();
        let sheets = dir.join(SHEETS_DIR);
        fs::create_dir_all(&sheets).map_err(|source| StoreError::Folder {
            dir: dir.clone(),
            source,
        })?;
        for folder in [&dir, &sheets] {
            tempfile::Builder::new()
                .prefix(".probe-")
                .tempfile_in(folder)
                .map_err(|source| StoreError::ReadOnly {
                    dir: folder.clone(),
                    source,
                })?;
        }
        Ok(Store { dir })
    }

    /// The data folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The settings file.
    pub fn settings_path(&self) -> PathBuf {
        self.dir.join(SETTINGS_FILE)
    }

    /// The file of a sheet.
    pub fn sheet_path(&self, id: &SheetId) -> PathBuf {
        self.dir.join(SHEETS_DIR).join(format!("{id}.json"))
    }

    /// Loads the settings; defaults when there are none or they cannot be read (then the bad
    /// file is set aside and reported).
    pub fn load_settings<S: DeserializeOwned + Default>(&self) -> Loaded<S> {
        let (value, notices) = load_file(&self.settings_path(), "settings");
        Loaded {
            value: value.unwrap_or_default(),
            notices,
        }
    }

    /// Saves the settings atomically, keeping the previous good copy as `.bak`. Returns notices
    /// when an unreadable settings file had to be set aside first.
    pub fn save_settings<S: Serialize>(&self, settings: &S) -> Result<Vec<Notice>, StoreError> {
        save_file::<serde_json::Value>(&self.settings_path(), "settings", settings)
    }

    /// The file of the evening's state (timer table, open sheet, draft game).
    pub fn evening_path(&self) -> PathBuf {
        self.dir.join("evening.json")
    }

    /// Loads the evening's state; the default when there is none or it cannot be read (then
    /// the bad file is set aside and reported).
    pub fn load_evening<T: DeserializeOwned + Default>(&self) -> Loaded<T> {
        let (value, notices) = load_file(&self.evening_path(), "evening");
        Loaded {
            value: value.unwrap_or_default(),
            notices,
        }
    }

    /// Saves the evening's state atomically, keeping the previous good copy as `.bak`.
    pub fn save_evening<T: Serialize>(&self, value: &T) -> Result<Vec<Notice>, StoreError> {
        save_file::<serde_json::Value>(&self.evening_path(), "evening", value)
    }

    /// A new, unused sheet id made from the creation time (`20240501-190000`, then `-2`, …).
    pub fn new_sheet_id(&self, created: DateTime<Utc>) -> SheetId {
        let base = created.format("%Y%m%d-%H%M%S").to_string();
        (1..)
            .map(|n| match n {
                1 => SheetId(base.clone()),
                n => SheetId(format!("{base}-{n}")),
            })
            .find(|id| {
                let path = self.sheet_path(id);
                !path.exists() && !backup_path(&path).exists()
            })
            .unwrap_or(SheetId(base))
    }

    /// Saves a sheet atomically, keeping the previous good copy as `.bak`.
    pub fn save_sheet(&self, id: &SheetId, sheet: &Sheet) -> Result<Vec<Notice>, StoreError> {
        save_file::<Sheet>(&self.sheet_path(id), "sheet", sheet)
    }

    /// Loads a sheet, recovering from its backup if the file is bad or missing.
    pub fn load_sheet(&self, id: &SheetId) -> Result<Loaded<Sheet>, StoreError> {
        let file = self.sheet_path(id);
        match load_file(&file, "sheet") {
            (Some(value), notices) => Ok(Loaded { value, notices }),
            (None, notices) if notices.is_empty() => Err(StoreError::NotFound { file }),
            (None, notices) => Err(StoreError::Unrecoverable { file, notices }),
        }
    }

    /// Every saved sheet, most recent activity first. Unreadable sheets are set aside and
    /// reported in the listing's notices.
    pub fn list_sheets(&self) -> Result<Listing, StoreError> {
        let folder = self.dir.join(SHEETS_DIR);
        let entries = fs::read_dir(&folder).map_err(|source| StoreError::Folder {
            dir: folder.clone(),
            source,
        })?;
        let mut ids: Vec<SheetId> = entries
            .filter_map(Result::ok)
            .filter_map(|e| sheet_id_of(&e.file_name()))
            .collect();
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

/// Writes a sheet as CSV to `path` (atomically): points or remaining values.
pub fn export_csv(sheet: &Sheet, layout: CsvLayout, path: &Path) -> Result<(), StoreError> {
    let text = match layout {
        CsvLayout::Points => points_csv(sheet),
        CsvLayout::Remaining => score_csv(sheet),
    };
    atomic_write(path, text.as_bytes()).map_err(|source| write_error(path, source))
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
        io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem => {
            StoreError::ReadOnly {
                dir: folder_of(file).to_path_buf(),
                source,
            }
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
        .prefix(".tmp-")
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

/// Loads `path`, falling back to (and restoring from) its backup. Returns the value if either
/// was good, and what was set aside or recovered.
fn load_file<T: DeserializeOwned>(path: &Path, key: &str) -> (Option<T>, Vec<Notice>) {
    let mut notices = Vec::new();
    match read_state(path, key) {
        FileState::Good(value, _) => return (Some(value), notices),
        FileState::Missing => {}
        FileState::Bad(problem) => notices.push(set_aside(path, problem)),
    }
    let backup = backup_path(path);
    match read_state(&backup, key) {
        FileState::Good(value, bytes) => {
            // Put the good copy back in place; if that fails the backup is still there.
            let _ = atomic_write(path, &bytes);
            notices.push(Notice::Recovered {
                file: path.to_path_buf(),
                backup,
            });
            (Some(value), notices)
        }
        FileState::Missing => (None, notices),
        FileState::Bad(problem) => {
            notices.push(set_aside(&backup, problem));
            (None, notices)
        }
    }
}

/// Saves `value` to `path`: the current file, if it reads as a `C`, becomes the backup; if it
/// does not, it is set aside first (and the save refused if it cannot be).
fn save_file<C: DeserializeOwned>(
    path: &Path,
    key: &str,
    value: &impl Serialize,
) -> Result<Vec<Notice>, StoreError> {
    let bytes = encode(path, key, value)?;
    let mut notices = Vec::new();
    match read_state::<C>(path, key) {
        FileState::Good(_, old) => atomic_write(&backup_path(path), &old)
            .map_err(|source| write_error(&backup_path(path), source))?,
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
    Ok(notices)
}
