//! Seasons and the venue's key on disk.
//!
//! - `seasons/<id>.json` — one file per season ([`Season`]), the id its creation time, written
//!   like every other file (a temporary file in the same folder, synced, renamed over the old
//!   one; the previous good copy kept as `.bak`; a damaged file set aside, never overwritten).
//!   Whoever changes a season holds `seasons/.lock` while it reads, changes and writes it
//!   ([`SeasonStore`]), so two `season add` at once never lose an import; readers
//!   ([`Store::load_season`]) take no lock and write nothing.
//! - `venue.key` — the venue's name and ed25519 secret key, made once per data folder the
//!   first time it is needed ([`venue`]), readable and writable by the user only (0600 from
//!   the moment it is created). A key file that cannot be read is an error, never replaced:
//!   a new key would make every season refuse the venue's next bundles.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{
    Access, FileProblem, FileState, Loaded, Notice, ReadOnlyReason, Store, StoreError, TMP_PREFIX,
    read_state, remove_stale_temporaries, write_error,
};
use crate::event::bundle::{Venue, from_hex, to_hex};
use crate::event::season::Season;

/// The seasons subfolder of the data folder.
pub const SEASONS_DIR: &str = "seasons";
/// The lock a season's writer holds.
pub const SEASON_LOCK: &str = ".lock";
/// The venue's key file in the data folder.
pub const VENUE_FILE: &str = "venue.key";

/// A season's id: its file name without `.json` (ASCII letters, digits, `-`, `_`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct SeasonId(String);

impl SeasonId {
    /// Checks the name.
    pub fn new(name: &str) -> Result<SeasonId, StoreError> {
        if super::is_file_id(name) {
            Ok(SeasonId(name.to_owned()))
        } else {
            Err(StoreError::BadId(name.to_owned()))
        }
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for SeasonId {
    type Error = StoreError;
    fn try_from(name: String) -> Result<SeasonId, StoreError> {
        SeasonId::new(&name)
    }
}

impl From<SeasonId> for String {
    fn from(id: SeasonId) -> String {
        id.0
    }
}

impl std::fmt::Display for SeasonId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Store {
    /// The file of a season.
    pub fn season_path(&self, id: &SeasonId) -> PathBuf {
        self.dir.join(SEASONS_DIR).join(format!("{id}.json"))
    }

    /// The seasons in the data folder, oldest first (ids sort by creation time).
    pub fn list_seasons(&self) -> io::Result<Vec<SeasonId>> {
        let folder = self.dir.join(SEASONS_DIR);
        let entries = match fs::read_dir(&folder) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let mut ids: Vec<SeasonId> = entries
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let stem = name
                    .strip_suffix(".json.bak")
                    .or_else(|| name.strip_suffix(".json"))?;
                SeasonId::new(stem).ok()
            })
            .collect();
        ids.sort();
        ids.dedup();
        Ok(ids)
    }

    /// Loads a season (its backup when the file is damaged; a reader changes nothing).
    pub fn load_season(&self, id: &SeasonId) -> Result<Loaded<Season>, StoreError> {
        let file = self.season_path(id);
        if let FileState::Bad(FileProblem::Newer(version)) = read_state::<Season>(&file, "season") {
            return Err(StoreError::Newer { file, version });
        }
        match self.files().load::<Season>(&file, "season") {
            (Some(value), notices) => Ok(Loaded { value, notices }),
            (None, notices) if notices.is_empty() => Err(StoreError::NotFound { file }),
            (None, notices) => Err(StoreError::Unrecoverable { file, notices }),
        }
    }

    /// The season named `name` (its id, else its name trimmed and case-folded; the most recent
    /// of that name), or the most recent season when `name` is `None`.
    pub fn find_season(&self, name: Option<&str>) -> Result<Option<SeasonId>, StoreError> {
        let ids = self.list_seasons().map_err(|source| StoreError::Folder {
            dir: self.dir.join(SEASONS_DIR),
            source,
        })?;
        let Some(name) = name.map(str::trim) else {
            return Ok(ids.last().cloned());
        };
        if let Some(id) = ids.iter().find(|id| id.as_str() == name) {
            return Ok(Some(id.clone()));
        }
        let wanted = name.to_lowercase();
        Ok(ids.into_iter().rev().find(|id| {
            self.load_season(id)
                .is_ok_and(|s| s.value.name.trim().to_lowercase() == wanted)
        }))
    }
}

/// The writer of a data folder's seasons: holds `seasons/.lock` for its life.
#[derive(Debug)]
pub struct SeasonStore {
    store: Store,
    _lock: fs::File,
}

impl SeasonStore {
    /// Takes the seasons' lock of data folder `dir`, waiting up to `wait` while another
    /// command holds it; makes the folder and removes what killed writes left in it.
    pub fn open(dir: &Path, wait: Duration) -> Result<SeasonStore, StoreError> {
        let folder = dir.join(SEASONS_DIR);
        fs::create_dir_all(&folder).map_err(|source| StoreError::Folder {
            dir: folder.clone(),
            source,
        })?;
        let lock_path = folder.join(SEASON_LOCK);
        let lock = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path)
            .map_err(|source| write_error(&lock_path, source))?;
        let until = Instant::now() + wait;
        loop {
            match lock.try_lock() {
                Ok(()) | Err(fs::TryLockError::Error(_)) => break,
                Err(fs::TryLockError::WouldBlock) if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(fs::TryLockError::WouldBlock) => {
                    return Err(StoreError::ReadOnly(ReadOnlyReason::InUse { dir: folder }));
                }
            }
        }
        remove_stale_temporaries(&folder);
        let store = Store {
            dir: dir.to_path_buf(),
            access: Access::Writable,
            shared: std::sync::Arc::new(super::Shared::default()),
        };
        Ok(SeasonStore { store, _lock: lock })
    }

    /// The folder as the writer sees it.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// A new, unused season id from the creation time (`20261207-190000`, then `-2`, …).
    pub fn new_season_id(&self, created: DateTime<Utc>) -> SeasonId {
        let base = created.format("%Y%m%d-%H%M%S").to_string();
        (1..1000)
            .map(|n| match n {
                1 => SeasonId(base.clone()),
                n => SeasonId(format!("{base}-{n}")),
            })
            .find(|id| {
                let path = self.store.season_path(id);
                !path.exists() && !super::backup_path(&path).exists()
            })
            .unwrap_or(SeasonId(base))
    }

    /// Loads a season to change it (the backup restored in place when the file is damaged).
    pub fn load(&self, id: &SeasonId) -> Result<Loaded<Season>, StoreError> {
        self.store.load_season(id)
    }

    /// Saves a season atomically, keeping the previous good copy as `.bak`.
    pub fn save(&self, id: &SeasonId, season: &Season) -> Result<Vec<Notice>, StoreError> {
        self.store
            .files()
            .save::<Season>(&self.store.season_path(id), "season", season)
    }
}

/// The venue file's content.
#[derive(Serialize, Deserialize)]
struct VenueFile {
    version: u64,
    name: String,
    secret: String,
}

/// The path of the venue's key file in data folder `dir`.
pub fn venue_path(dir: &Path) -> PathBuf {
    dir.join(VENUE_FILE)
}

/// The venue's key file as an error when it cannot be used (it is left as it is).
fn unusable(file: &Path, problem: FileProblem) -> StoreError {
    StoreError::Unrecoverable {
        file: file.to_path_buf(),
        notices: vec![Notice::LeftInPlace {
            file: file.to_path_buf(),
            problem,
            error: "the venue's key is never replaced: restore the file, or move it away to make \
                    a new key (seasons will then refuse this venue's bundles under its old name)"
                .into(),
        }],
    }
}

/// The venue of data folder `dir`, if its key was made (read only; nothing is written).
pub fn load_venue(dir: &Path) -> Result<Option<Venue>, StoreError> {
    let file = venue_path(dir);
    let bytes = match fs::metadata(&file) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Ok(meta) if !meta.is_file() => return Err(unusable(&file, FileProblem::NotAFile)),
        _ => {
            fs::read(&file).map_err(|e| unusable(&file, FileProblem::Unreadable(e.to_string())))?
        }
    };
    let read: VenueFile = serde_json::from_slice(&bytes)
        .map_err(|e| unusable(&file, FileProblem::NotJson(e.to_string())))?;
    if read.version > super::FORMAT_VERSION {
        return Err(StoreError::Newer {
            file,
            version: read.version,
        });
    }
    let secret = from_hex(&read.secret)
        .and_then(|s| <[u8; 32]>::try_from(s).ok())
        .ok_or_else(|| {
            unusable(
                &file,
                FileProblem::Invalid("the secret key is not 32 bytes of hex".into()),
            )
        })?;
    Ok(Some(Venue::new(&read.name, secret)))
}

/// Writes the venue file with the user-only permissions from its creation; with `replace`
/// false, never over an existing file.
fn write_venue(dir: &Path, venue: &Venue, replace: bool) -> Result<(), StoreError> {
    let file = venue_path(dir);
    let body = VenueFile {
        version: super::FORMAT_VERSION,
        name: venue.name().to_owned(),
        secret: to_hex(&venue.secret()),
    };
    let mut text = serde_json::to_vec_pretty(&body).map_err(|source| StoreError::Encode {
        file: file.clone(),
        source,
    })?;
    text.push(b'\n');
    let write = || -> io::Result<()> {
        let mut builder = tempfile::Builder::new();
        builder.prefix(TMP_PREFIX);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(fs::Permissions::from_mode(0o600));
        }
        let mut tmp = builder.tempfile_in(dir)?;
        tmp.write_all(&text)?;
        tmp.as_file().sync_all()?;
        if replace {
            tmp.persist(&file).map_err(|e| e.error)?;
        } else {
            tmp.persist_noclobber(&file).map_err(|e| e.error)?;
        }
        super::sync_folder(dir)
    };
    write().map_err(|source| write_error(&file, source))
}

/// The venue of data folder `dir`: made once (its secret from the system's random source,
/// named `name`, else `venue-` and the public key's first 8 digits), renamed when `name` is
/// given and differs. The key never changes.
pub fn venue(dir: &Path, name: Option<&str>) -> Result<Venue, StoreError> {
    let name = name.map(str::trim).filter(|n| !n.is_empty());
    if let Some(known) = load_venue(dir)? {
        return match name {
            Some(name) if name != known.name() => {
                let renamed = Venue::new(name, known.secret());
                write_venue(dir, &renamed, true)?;
                Ok(renamed)
            }
            _ => Ok(known),
        };
    }
    fs::create_dir_all(dir).map_err(|source| StoreError::Folder {
        dir: dir.to_path_buf(),
        source,
    })?;
    let mut secret = [0u8; 32];
    getrandom::fill(&mut secret).map_err(|e| StoreError::Write {
        file: venue_path(dir),
        source: io::Error::other(format!("no random source for a new key: {e}")),
    })?;
    let made = Venue::new("", secret);
    let name = name.map_or_else(
        || format!("venue-{}", &made.public_key()[..8]),
        str::to_owned,
    );
    let made = Venue::new(&name, secret);
    match write_venue(dir, &made, false) {
        Ok(()) => Ok(made),
        // Another command made it meanwhile: that one is the venue's.
        Err(_) if venue_path(dir).exists() => load_venue(dir)?.ok_or(StoreError::NotFound {
            file: venue_path(dir),
        }),
        Err(e) => Err(e),
    }
}
