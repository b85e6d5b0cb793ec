//! Reading every saved sheet without touching anything: for reports such as `history`.
//!
//! [`Store::list_sheets`](super::Store::list_sheets) is what the window uses: it repairs as it
//! goes (restores a backup, renames a bad file aside). A report must not change the data folder
//! it reads — it may run while the window has a sheet open, or on a copy on read-only media — so
//! [`read_sheets`] only reads: a bad sheet is skipped and reported, its backup used if that one
//! is good, and nothing is renamed or written. A data folder that does not exist yet simply has
//! no sheets.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::{
    FileProblem, FileState, Listing, SHEETS_DIR, SavedSheet, StoreError, backup_path, read_state,
    sheet_id_of,
};
use crate::score::Sheet;

/// A sheet file that was not used, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The file.
    pub file: PathBuf,
    /// What is wrong with it.
    pub problem: FileProblem,
    /// The sheet's backup was good and was used instead.
    pub backup_used: bool,
}

/// Every readable sheet of a data folder, and the files skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scan {
    /// The sheets, in file-name order.
    pub sheets: Vec<SavedSheet>,
    /// Files that could not be used.
    pub skipped: Vec<Skipped>,
}

/// Reads every sheet in the data folder `dir` (its `sheets/` subfolder) without changing
/// anything. Fails only when the folder exists but cannot be listed.
///
/// # Example
/// ```
/// use rummikub_companion::store::read_sheets;
/// let folder = tempfile::tempdir().unwrap();
/// std::fs::create_dir(folder.path().join("sheets")).unwrap();
/// std::fs::write(folder.path().join("sheets/20240501-190000.json"), "{oops").unwrap();
/// let scan = read_sheets(folder.path()).unwrap();
/// assert!(scan.sheets.is_empty());
/// assert!(scan.skipped[0].file.ends_with("20240501-190000.json"));
/// // Nothing was renamed.
/// assert!(folder.path().join("sheets/20240501-190000.json").exists());
/// ```
pub fn read_sheets(dir: &Path) -> Result<Scan, StoreError> {
    let folder = dir.join(SHEETS_DIR);
    let mut scan = Scan {
        sheets: Vec::new(),
        skipped: Vec::new(),
    };
    let entries = match fs::read_dir(&folder) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(scan),
        Err(source) => {
            return Err(StoreError::Folder {
                dir: folder,
                source,
            });
        }
    };
    let mut ids: Vec<_> = entries
        .filter_map(Result::ok)
        .filter_map(|e| sheet_id_of(&e.file_name()))
        .collect();
    ids.sort();
    ids.dedup();
    for id in ids {
        let file = folder.join(format!("{id}.json"));
        let main = read_state::<Sheet>(&file, "sheet");
        let main_problem = match main {
            FileState::Good(sheet, _) => {
                scan.sheets.push(SavedSheet { id, sheet });
                continue;
            }
            FileState::Missing => None,
            FileState::Bad(problem) => Some(problem),
        };
        let backup = backup_path(&file);
        let (sheet, backup_problem) = match read_state::<Sheet>(&backup, "sheet") {
            FileState::Good(sheet, _) => (Some(sheet), None),
            FileState::Missing => (None, None),
            FileState::Bad(problem) => (None, Some(problem)),
        };
        if let Some(problem) = main_problem {
            scan.skipped.push(Skipped {
                file,
                problem,
                backup_used: sheet.is_some(),
            });
        }
        if let Some(problem) = backup_problem {
            scan.skipped.push(Skipped {
                file: backup,
                problem,
                backup_used: false,
            });
        }
        if let Some(sheet) = sheet {
            scan.sheets.push(SavedSheet { id, sheet });
        }
    }
    Ok(scan)
}

impl Listing {
    /// The sheets with at least one game, most recent activity first: what "Open" lists. An
    /// empty sheet (an accidental "New sheet") is neither listed nor the latest.
    pub fn played(&self) -> impl Iterator<Item = &SavedSheet> {
        self.sheets.iter().filter(|s| !s.sheet.is_empty())
    }

    /// The most recently played sheet with at least one game.
    pub fn latest_played(&self) -> Option<&SavedSheet> {
        self.played().next()
    }
}
