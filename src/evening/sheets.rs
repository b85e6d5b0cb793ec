//! The open score sheet and what a table does with it (start, open, change, apply the settings'
//! rules, export), as plain methods with typed results.
//!
//! Why apart from the rest of the evening: these flows carry the sheet's promises (a written
//! score changes only through an explicit action; a refused change leaves the sheet as it was;
//! an export never overwrites a file), and promises are kept best where they can be read in one
//! place. Saving is not done here: the [evening](super::Evening) hands every changed sheet to
//! its saver and its library, so a change is never lost for want of a disk, and a failing disk
//! is told once, by the saver. An operation's `Err` means it was refused and nothing changed.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::i18n;
use crate::lang::Language;
use crate::rules::RuleSet;
use crate::score::export::{ExportLabels, sheet_csv_named};
use crate::score::{GameNumber, Players, ScoreError, Sheet};
use crate::store::{Notice, SheetId, Store, StoreError};

/// Why a sheet operation was refused (nothing changed).
#[derive(Debug, thiserror::Error)]
pub enum SheetError {
    /// The change breaks the sheet's rules (a bad hand, an unknown game, …).
    #[error(transparent)]
    Score(#[from] ScoreError),
    /// The data folder could not be read or written.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// There is no data folder: nothing can be opened or exported there.
    #[error("there is no usable data folder")]
    NoDataFolder,
    /// No sheet is open.
    #[error("no sheet is open")]
    NoSheet,
    /// An export could not be written.
    #[error("could not write {}: {source}", path.display())]
    Write {
        /// The file (or the folder it goes in).
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
}

impl SheetError {
    /// The refusal in `lang`, for the table.
    pub fn worded(&self, lang: Language) -> String {
        match self {
            SheetError::Score(e) => i18n::score_error(lang, e),
            SheetError::Store(e) => i18n::store_error(lang, e),
            SheetError::NoDataFolder => lang.strings().saving.not_saving.to_owned(),
            SheetError::NoSheet => lang.strings().sheet.no_sheets.to_owned(),
            SheetError::Write { path, source } => match lang {
                Language::English => self.to_string(),
                Language::Korean => format!(
                    "{}에 쓰지 못했습니다: {}",
                    path.display(),
                    i18n::io_error(lang, source)
                ),
            },
        }
    }
}

/// What "Apply to this sheet" would do: the sheet's rules with the settings' scoring, and
/// what moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesPreview {
    /// The rules the sheet would get.
    pub rules: RuleSet,
    /// Per player (sheet order): total now and total after.
    pub totals: Vec<(i64, i64)>,
    /// The winners (or leaders) now, under the sheet's final rule, by seat.
    pub winners_before: Vec<usize>,
    /// The winners after, under the new final rule.
    pub winners_after: Vec<usize>,
}

/// The scoring part of `from` put onto the sheet's rules: timer values never touch a sheet.
///
/// # Example
/// ```
/// use rummikub_companion::rules::{Preset, RuleSet};
/// use rummikub_companion::evening::sheets::with_scoring;
/// let sheet = RuleSet::default();
/// let mut settings = Preset::Tournament.rules();
/// settings.turn_seconds = 45;
/// let applied = with_scoring(&sheet, &settings);
/// assert_eq!(applied.joker_penalty, 50);
/// assert_eq!(applied.turn_seconds, sheet.turn_seconds);
/// ```
pub fn with_scoring(sheet_rules: &RuleSet, from: &RuleSet) -> RuleSet {
    RuleSet {
        joker_penalty: from.joker_penalty,
        not_melded_value: from.not_melded_value,
        final_rule: from.final_rule,
        tile_set: from.tile_set,
        ..*sheet_rules
    }
}

/// What applying the scoring of `settings` to `sheet` would change; `None` when it changes
/// nothing, `Some(Err)` when the sheet cannot be scored that way (a game the new tile set
/// cannot hold).
pub fn rules_preview(
    sheet: &Sheet,
    settings: &RuleSet,
) -> Option<Result<RulesPreview, ScoreError>> {
    let rules = with_scoring(sheet.rules(), settings);
    if rules == *sheet.rules() {
        return None;
    }
    let mut after = sheet.clone();
    if let Err(e) = after.set_rules(rules) {
        return Some(Err(e));
    }
    let (before, after) = (sheet.standings(), after.standings());
    Some(Ok(RulesPreview {
        rules,
        totals: before
            .totals
            .iter()
            .copied()
            .zip(after.totals.iter().copied())
            .collect(),
        winners_before: before.winners(sheet.rules().final_rule),
        winners_after: after.winners(rules.final_rule),
    }))
}

/// The open sheet: its id and contents (shared with the saver and the library, copied only
/// when changed while they still hold it).
pub type OpenSheet = Option<(SheetId, Arc<Sheet>)>;

/// The open sheet and where sheets are kept.
#[derive(Debug, Default)]
pub struct SheetBook {
    store: Option<Store>,
    open: OpenSheet,
}

impl SheetBook {
    /// A book on `store` (or on nothing: sheets then last only while the app runs) with the
    /// sheet `wanted` open (the one the evening had open), read from its file alone. Returns
    /// what the store noted on the way, or why the sheet could not be opened.
    pub fn open_at_start(
        store: Option<Store>,
        wanted: Option<&str>,
    ) -> (SheetBook, Vec<Notice>, Option<SheetError>) {
        let mut book = SheetBook { store, open: None };
        let Some(id) = wanted else {
            return (book, Vec::new(), None);
        };
        let opened = SheetId::new(id)
            .map_err(SheetError::from)
            .and_then(|id| book.load(&id).map(|notices| (id, notices)));
        match opened {
            Ok((_, notices)) => (book, notices, None),
            Err(e) => (book, Vec::new(), Some(e)),
        }
    }

    /// The open sheet.
    pub fn sheet(&self) -> Option<&Sheet> {
        self.open.as_ref().map(|(_, sheet)| sheet.as_ref())
    }

    /// The open sheet's id.
    pub fn id(&self) -> Option<&SheetId> {
        self.open.as_ref().map(|(id, _)| id)
    }

    /// The open sheet, shared (for the saver and the library).
    pub fn shared(&self) -> Option<(&SheetId, Arc<Sheet>)> {
        self.open.as_ref().map(|(id, s)| (id, Arc::clone(s)))
    }

    /// The data folder's store, if there is one.
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// Starts a new sheet for `players` under `rules` (the settings' rules: the sheet keeps
    /// them from now on), with an id that is on disk nowhere and that `taken` does not know of
    /// (sheets of this evening not written yet).
    pub fn new_sheet(
        &mut self,
        players: &[String],
        rules: RuleSet,
        rounds: Option<u32>,
        target: Option<i64>,
        created: DateTime<Utc>,
        taken: impl Fn(&SheetId) -> bool,
    ) -> Result<(), SheetError> {
        let players = Players::new(players.iter().cloned())?;
        let mut sheet = Sheet::new(players, rules, rounds, created)?;
        sheet.set_target(target)?;
        let open = self.id().cloned();
        let taken = |id: &SheetId| Some(id) == open.as_ref() || taken(id);
        let id = match &self.store {
            Some(store) => store.new_sheet_id_besides(created, taken),
            None => {
                let base = created.format("%Y%m%d-%H%M%S").to_string();
                (1..)
                    .map(|n| match n {
                        1 => base.clone(),
                        n => format!("{base}-{n}"),
                    })
                    .filter_map(|name| SheetId::new(&name).ok())
                    .find(|id| !taken(id))
                    .ok_or(SheetError::NoDataFolder)?
            }
        };
        self.open = Some((id, Arc::new(sheet)));
        Ok(())
    }

    /// Opens a saved sheet from its file. Returns what the store noted on the way.
    pub fn load(&mut self, id: &SheetId) -> Result<Vec<Notice>, SheetError> {
        let store = self.store.as_ref().ok_or(SheetError::NoDataFolder)?;
        let loaded = store.load_sheet(id)?;
        self.open = Some((id.clone(), Arc::new(loaded.value)));
        Ok(loaded.notices)
    }

    /// Changes the open sheet; a refused change leaves it as it was.
    pub fn change<T>(
        &mut self,
        change: impl FnOnce(&mut Sheet) -> Result<T, ScoreError>,
    ) -> Result<T, SheetError> {
        let (_, sheet) = self.open.as_mut().ok_or(SheetError::NoSheet)?;
        let mut changed = Sheet::clone(sheet);
        let done = change(&mut changed)?;
        *sheet = Arc::new(changed);
        Ok(done)
    }

    /// Puts a sheet back as the open one (undo, or a sheet kept without a data folder).
    pub fn set_open(&mut self, open: OpenSheet) {
        self.open = open;
    }

    /// The open sheet, taken out (to be put back with [`SheetBook::set_open`]).
    pub fn open_sheet(&self) -> OpenSheet {
        self.open.clone()
    }

    /// A new file in the exports folder for the open sheet: never an existing one.
    pub fn export_path(&self, extension: &str) -> Result<PathBuf, SheetError> {
        let (Some(store), Some(id)) = (&self.store, self.id()) else {
            return Err(SheetError::NoDataFolder);
        };
        let folder = store.dir().join("exports");
        std::fs::create_dir_all(&folder).map_err(|e| SheetError::Write {
            path: folder.clone(),
            source: e,
        })?;
        let path = (1..)
            .map(|n| match n {
                1 => folder.join(format!("{id}.{extension}")),
                n => folder.join(format!("{id}-{n}.{extension}")),
            })
            .find(|p| !p.exists())
            .unwrap_or_else(|| folder.join(format!("{id}.{extension}")));
        Ok(path)
    }

    /// Writes the open sheet as CSV for people and spreadsheets (a BOM so Excel reads the
    /// names; headers and rows as on screen in `lang`; the rules, totals and winner) to `to`,
    /// or to a new file in the exports folder. Returns where it went.
    pub fn export_csv(&self, lang: Language, to: Option<&Path>) -> Result<PathBuf, SheetError> {
        let sheet = self.sheet().ok_or(SheetError::NoSheet)?;
        let path = match to {
            Some(path) => path.to_owned(),
            None => self.export_path("csv")?,
        };
        let s = lang.strings();
        let labels = ExportLabels {
            game: s.results.csv_game,
            points: s.results.csv_points,
            total: s.sheet.totals,
            wins: s.sheet.wins,
            rank: s.sheet.rank,
            winner: s.results.csv_winner,
            leader: s.results.leader,
            other_winner: s.results.csv_other_winner,
            other_leader: s.results.csv_other_leader,
            rules: s.results.csv_rules,
            remaining: s.results.csv_remaining,
        };
        let rules = i18n::rules_line(lang, sheet.rules());
        let row_label = |n: GameNumber| (s.sheet.game_label)(n.round, n.in_round);
        let tile = |t| i18n::tile(lang, t);
        let text = sheet_csv_named(sheet, &labels, &rules, &row_label, &tile);
        std::fs::write(&path, text).map_err(|e| SheetError::Write {
            path: path.clone(),
            source: e,
        })?;
        Ok(path)
    }
}
