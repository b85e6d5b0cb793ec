//! The score-sheet session: the open sheet and the saved ones, and everything a table does
//! with them (start, open, add, edit and delete games, apply the settings' rules, export,
//! undo), as plain methods with typed results.
//!
//! Why a session outside the window: these flows carry the sheet's promises (a written score
//! changes only through an explicit action; every change is saved at once or the table is
//! told; an export never overwrites a file), and promises are kept best where they can be
//! tested directly. The window only turns clicks into calls and results into words; this
//! module knows no egui, and every flow here is tested without a window.
//!
//! Saving is not part of an operation's result: a game added while the folder cannot be
//! written is still added (it stays in the window, and undo can take it back), and the failure
//! is reported as an [`Event`] beside it. An operation's `Err` means it was refused and
//! nothing changed.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use crate::history::{self, History};
use crate::i18n::{self, Language};
use crate::rules::RuleSet;
use crate::score::export::{ExportLabels, sheet_csv};
use crate::score::{Game, GameNumber, Players, ScoreError, Sheet, SheetSummary};
use crate::store::{Notice, SheetId, Store, StoreError};
use crate::undo::Change;

pub use crate::undo::OpenSheet;

/// Why a sheet operation was refused (nothing changed).
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The change breaks the sheet's rules (a bad hand, an unknown game, …).
    #[error(transparent)]
    Score(#[from] ScoreError),
    /// The data folder could not be read or written.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// There is no data folder: nothing can be opened or exported there.
    #[error("there is no usable data folder")]
    NoDataFolder,
    /// An export could not be written.
    #[error("could not write {}: {source}", path.display())]
    Write {
        /// The file (or the folder it goes in).
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
}

impl SessionError {
    /// The refusal in `lang`, for the table.
    pub fn worded(&self, lang: Language) -> String {
        match self {
            SessionError::Score(e) => i18n::score_error(lang, e),
            SessionError::Store(e) => i18n::store_error(lang, e),
            SessionError::NoDataFolder => lang.strings().not_saving.to_owned(),
            SessionError::Write { path, source } => match lang {
                Language::English => self.to_string(),
                Language::Korean => format!(
                    "{}에 쓰지 못했습니다: {}",
                    path.display(),
                    i18n::io_kind_ko(source.kind())
                ),
            },
        }
    }
}

/// Something the table should be told that is not an operation's answer.
#[derive(Debug)]
pub enum Event {
    /// A note from the store (a file set aside, a backup used, …).
    Store(Notice),
    /// A change was made but could not be saved (it stays in the window).
    NotSaved(StoreError),
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
/// use rummikub_companion::session::with_scoring;
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

/// The open sheet, the saved ones, and where they are saved.
#[derive(Debug, Default)]
pub struct SheetSession {
    store: Option<Store>,
    open: OpenSheet,
    /// The played sheets for "Open", the most recently played first.
    past: Vec<(SheetId, SheetSummary)>,
    events: Vec<Event>,
}

impl SheetSession {
    /// A session on `store` (or on nothing: changes then last only while the app runs). Opens
    /// the sheet `wanted` (the one the evening had open), else the latest one played; a sheet
    /// with no games is never "the latest".
    pub fn open_store(store: Option<Store>, wanted: Option<&str>) -> SheetSession {
        let mut session = SheetSession {
            store,
            ..SheetSession::default()
        };
        let Some(store) = &session.store else {
            return session;
        };
        match store.list_sheets() {
            Ok(listing) => {
                session
                    .events
                    .extend(listing.notices.iter().cloned().map(Event::Store));
                session.past = listing
                    .played()
                    .map(|saved| (saved.id.clone(), saved.sheet.summary()))
                    .collect();
                let latest = listing.latest_played().map(|saved| saved.id.clone());
                let mut sheets = listing.sheets;
                let index = wanted
                    .and_then(|w| sheets.iter().position(|s| s.id.as_str() == w))
                    .or_else(|| sheets.iter().position(|s| Some(&s.id) == latest.as_ref()));
                if let Some(index) = index {
                    let saved = sheets.swap_remove(index);
                    session.open = Some((saved.id, saved.sheet));
                }
            }
            Err(e) => session.events.push(Event::NotSaved(e)),
        }
        session
    }

    /// The open sheet.
    pub fn sheet(&self) -> Option<&Sheet> {
        self.open.as_ref().map(|(_, sheet)| sheet)
    }

    /// The open sheet's id.
    pub fn id(&self) -> Option<&SheetId> {
        self.open.as_ref().map(|(id, _)| id)
    }

    /// The played sheets for "Open", the most recently played first (empty sheets left out).
    pub fn past(&self) -> &[(SheetId, SheetSummary)] {
        &self.past
    }

    /// The data folder's store, if there is one.
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// What happened besides the answers since the last call (store notes, failed saves).
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// Starts a new sheet for `players` under `rules` (the settings' rules: the sheet keeps
    /// them from now on), and saves it.
    pub fn new_sheet(
        &mut self,
        players: &[String],
        rules: RuleSet,
        rounds: Option<u32>,
        target: Option<i64>,
        created: DateTime<Utc>,
    ) -> Result<Change, SessionError> {
        let players = Players::new(players.iter().cloned())?;
        let mut sheet = Sheet::new(players, rules, rounds, created)?;
        sheet.set_target(target)?;
        let id = match &self.store {
            Some(store) => store.new_sheet_id(created),
            None => SheetId::new(&created.format("%Y%m%d-%H%M%S").to_string())?,
        };
        self.open = Some((id, sheet));
        self.save();
        Ok(Change::NewSheet)
    }

    /// Opens a saved sheet.
    pub fn open(&mut self, id: &SheetId) -> Result<Change, SessionError> {
        let store = self.store.as_ref().ok_or(SessionError::NoDataFolder)?;
        let loaded = store.load_sheet(id)?;
        self.events
            .extend(loaded.notices.into_iter().map(Event::Store));
        self.open = Some((id.clone(), loaded.value));
        Ok(Change::SheetOpened)
    }

    /// Adds a game to the open sheet and saves it. `Ok(None)`: no sheet is open.
    pub fn add_game(&mut self, game: Game) -> Result<Option<Change>, SessionError> {
        self.change(|sheet| {
            let index = sheet.add_game(game)?;
            let n = sheet.number(index);
            Ok(Change::GameAdded(n.round, n.in_round))
        })
    }

    /// Replaces the game at `index` and saves the sheet.
    pub fn edit_game(&mut self, index: usize, game: Game) -> Result<Option<Change>, SessionError> {
        self.change(|sheet| {
            sheet.edit_game(index, game)?;
            let n = sheet.number(index);
            Ok(Change::GameEdited(n.round, n.in_round))
        })
    }

    /// Deletes the game at `index`, but only if it is still `clicked`: the second click of a
    /// double-click on "Delete" must not take the next game with it (`Ok(None)` then).
    pub fn delete_game(
        &mut self,
        index: usize,
        clicked: &Game,
    ) -> Result<Option<Change>, SessionError> {
        if self.sheet().and_then(|s| s.games().get(index)) != Some(clicked) {
            return Ok(None);
        }
        self.change(|sheet| {
            let n = sheet.number(index);
            sheet.delete_game(index)?;
            Ok(Change::GameDeleted(n.round, n.in_round))
        })
    }

    /// A seat renamed at the table (a typo fixed, a nickname): the open sheet's player of the
    /// same name (trimmed, any case) takes the new name, so the sheet and the clock agree.
    /// Returns whether the sheet changed; a sheet where the new name is taken keeps its names.
    pub fn follow_rename(&mut self, old: &str, new: &str) -> bool {
        let key = crate::history::name_key(old);
        let Some(index) = self.sheet().and_then(|sheet| {
            let names = sheet.players().names();
            names
                .iter()
                .position(|n| crate::history::name_key(n) == key)
        }) else {
            return false;
        };
        let renamed = self.change(|sheet| {
            sheet.rename_player(index, new.trim())?;
            Ok(Change::PlayersChanged)
        });
        matches!(renamed, Ok(Some(_)))
    }

    /// "Apply to this sheet": the scoring of `settings` (joker value, not-melded value, final
    /// rule, tile set) becomes the sheet's; its timer values stay.
    pub fn apply_rules(&mut self, settings: &RuleSet) -> Result<Option<Change>, SessionError> {
        self.change(|sheet| {
            sheet.set_rules(with_scoring(sheet.rules(), settings))?;
            Ok(Change::RulesApplied)
        })
    }

    /// What applying `settings` to the open sheet would change (see [`rules_preview`]).
    pub fn rules_preview(&self, settings: &RuleSet) -> Option<Result<RulesPreview, ScoreError>> {
        self.sheet()
            .and_then(|sheet| rules_preview(sheet, settings))
    }

    /// Changes the open sheet and saves it; a refused change leaves it as it was.
    fn change(
        &mut self,
        change: impl FnOnce(&mut Sheet) -> Result<Change, ScoreError>,
    ) -> Result<Option<Change>, SessionError> {
        let Some((_, sheet)) = &mut self.open else {
            return Ok(None);
        };
        let mut changed = sheet.clone();
        let done = change(&mut changed)?;
        *sheet = changed;
        self.save();
        Ok(Some(done))
    }

    /// The open sheet as undo keeps it.
    pub fn snapshot(&self) -> OpenSheet {
        self.open.clone()
    }

    /// Puts back a sheet undo kept (and saves it). Returns whether another sheet is open now
    /// than before (an open form then belongs to a sheet no longer shown).
    pub fn restore(&mut self, open: OpenSheet) -> bool {
        let other = open.as_ref().map(|(id, _)| id) != self.id();
        self.open = open;
        self.save();
        other
    }

    /// Saves the open sheet; a failure is an [`Event::NotSaved`].
    fn save(&mut self) {
        let (Some(store), Some((id, sheet))) = (&self.store, &self.open) else {
            return;
        };
        match store.save_sheet(id, sheet) {
            Ok(notices) => self.events.extend(notices.into_iter().map(Event::Store)),
            Err(e) => self.events.push(Event::NotSaved(e)),
        }
        // The "Open" list: played sheets only, the latest first.
        self.past.retain(|(past, _)| past != id);
        if !sheet.is_empty() {
            self.past.insert(0, (id.clone(), sheet.summary()));
        }
    }

    /// A new file in the exports folder for the open sheet: never an existing one.
    pub fn export_path(&self, extension: &str) -> Result<PathBuf, SessionError> {
        let (Some(store), Some(id)) = (&self.store, self.id()) else {
            return Err(SessionError::NoDataFolder);
        };
        let folder = store.dir().join("exports");
        std::fs::create_dir_all(&folder).map_err(|e| SessionError::Write {
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
    /// or to a new file in the exports folder. Returns where it went; `Ok(None)`: no sheet.
    pub fn export_csv(
        &self,
        lang: Language,
        to: Option<&Path>,
    ) -> Result<Option<PathBuf>, SessionError> {
        let Some(sheet) = self.sheet() else {
            return Ok(None);
        };
        let path = match to {
            Some(path) => path.to_owned(),
            None => self.export_path("csv")?,
        };
        let s = lang.strings();
        let labels = ExportLabels {
            game: s.csv_game,
            points: s.csv_points,
            total: s.totals,
            wins: s.wins,
            rank: s.rank,
            winner: s.csv_winner,
            leader: s.leader,
            other_winner: s.csv_other_winner,
            other_leader: s.csv_other_leader,
            rules: s.csv_rules,
            remaining: s.csv_remaining,
        };
        let rules = i18n::rules_line(lang, sheet.rules());
        let row_label = |n: GameNumber| (s.game_label)(n.round, n.in_round);
        let text = sheet_csv(sheet, &labels, &rules, &row_label);
        std::fs::write(&path, text).map_err(|e| SessionError::Write {
            path: path.clone(),
            source: e,
        })?;
        Ok(Some(path))
    }

    /// Every saved sheet's history across evenings, and the files it had to skip (unreadable
    /// or damaged sheets are named, never fatal).
    pub fn history(&self) -> (History, Vec<String>) {
        let Some(store) = &self.store else {
            return (history::history([], None), Vec::new());
        };
        match crate::store::read_sheets(store.dir()) {
            Ok(scan) => {
                let skipped = scan
                    .skipped
                    .iter()
                    .map(|s| s.file.display().to_string())
                    .collect();
                (
                    history::history(scan.sheets.iter().map(|s| &s.sheet), None),
                    skipped,
                )
            }
            Err(e) => (history::history([], None), vec![e.to_string()]),
        }
    }
}
