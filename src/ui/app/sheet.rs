//! The open score sheet and the saved ones: new, open, change and save, apply rules, export
//! (CSV and picture) and the history across evenings.

use super::*;

impl App {
    /// Lists the saved sheets and opens the one the evening had open (else the most recently
    /// played one).
    pub(super) fn open_saved_sheet(&mut self, wanted: Option<&str>) {
        let Some(store) = &self.store else { return };
        match store.list_sheets() {
            Ok(listing) => {
                self.notices.extend_store(listing.notices.clone());
                self.past_sheets = listing
                    .played()
                    .map(|saved| (saved.id.clone(), saved.sheet.summary()))
                    .collect();
                // The evening's sheet, else the latest one played (never an empty one).
                let latest = listing.latest_played().map(|saved| saved.id.clone());
                let mut sheets = listing.sheets;
                let Some(index) = wanted
                    .and_then(|w| sheets.iter().position(|s| s.id.as_str() == w))
                    .or_else(|| sheets.iter().position(|s| Some(&s.id) == latest.as_ref()))
                else {
                    return;
                };
                if index < sheets.len() {
                    let saved = sheets.swap_remove(index);
                    self.sheet = Some((saved.id, saved.sheet));
                }
            }
            Err(e) => self.notices.push(AppNotice::SaveFailed(Worded::new(|lang| {
                i18n::store_error(lang, &e)
            }))),
        }
    }

    pub(super) fn sheet_request(&mut self, request: SheetRequest) {
        self.sheet_view.error = None;
        let before = self.sheet_snapshot();
        let result = match request {
            SheetRequest::New { rounds, target } => self.new_sheet(rounds, target).map(|()| {
                // A new evening: the phones' old links stop working.
                let state = self.table_state();
                let ctx = self.ctx.clone();
                self.phones
                    .new_evening(state, move || ctx.request_repaint());
                Some(Change::NewSheet)
            }),
            SheetRequest::Open(id) => self.open_sheet(&id).map(|()| Some(Change::SheetOpened)),
            SheetRequest::SaveGame(index, game) => {
                let result = self.change_sheet(|sheet| match index {
                    Some(i) => {
                        sheet.edit_game(i, game)?;
                        let n = sheet.number(i);
                        Ok(Change::GameEdited(n.round, n.in_round))
                    }
                    None => {
                        let i = sheet.add_game(game)?;
                        let n = sheet.number(i);
                        Ok(Change::GameAdded(n.round, n.in_round))
                    }
                });
                if let Ok(Some(_)) = result {
                    self.sheet_view.close_form();
                }
                result
            }
            // The game clicked, not whatever moved into its row since: the second click of a
            // double-click on "Delete" must not take the next game with it.
            SheetRequest::Delete(i, game)
                if self.sheet().and_then(|s| s.games().get(i)) != Some(&game) =>
            {
                Ok(None)
            }
            SheetRequest::Delete(..) if !self.delete_guard.allow(self.timer.now()) => Ok(None),
            SheetRequest::Delete(i, _) => self.change_sheet(|sheet| {
                let n = sheet.number(i);
                sheet.delete_game(i)?;
                Ok(Change::GameDeleted(n.round, n.in_round))
            }),
            SheetRequest::Export => self.export_sheet().map(|()| None),
            SheetRequest::ExportAs => self.export_sheet_as().map(|()| None),
            SheetRequest::ApplyRules => {
                let rules = self.settings.rules;
                self.change_sheet(|sheet| {
                    let wanted = crate::ui::sheet_view::with_scoring(sheet.rules(), &rules);
                    sheet.set_rules(wanted).map(|()| Change::RulesApplied)
                })
            }
            SheetRequest::ExportPicture => self.export_picture().map(|()| None),
            SheetRequest::History(show) => {
                self.history_data = show.then(|| self.read_history());
                Ok(None)
            }
        };
        match result {
            Ok(Some(change)) => self.history.record(change, before),
            Ok(None) => {}
            Err(e) => self.sheet_view.error = Some(e),
        }
    }

    pub(super) fn new_sheet(
        &mut self,
        rounds: Option<u32>,
        target: Option<i64>,
    ) -> Result<(), String> {
        let lang = self.settings.language;
        let created = Utc::now();
        let players =
            Players::new(self.settings.players.clone()).map_err(|e| i18n::score_error(lang, &e))?;
        let mut sheet = Sheet::new(players, self.settings.rules, rounds, created)
            .map_err(|e| i18n::score_error(lang, &e))?;
        sheet
            .set_target(target)
            .map_err(|e| i18n::score_error(lang, &e))?;
        let id = match &self.store {
            Some(store) => store.new_sheet_id(created),
            None => SheetId::new(&created.format("%Y%m%d-%H%M%S").to_string())
                .map_err(|e| e.to_string())?,
        };

        self.sheet = Some((id, sheet));
        self.sheet_view.close_form();
        self.save_sheet()
    }

    pub(super) fn open_sheet(&mut self, id: &SheetId) -> Result<(), String> {
        let lang = self.settings.language;
        let Some(store) = &self.store else {
            return Ok(());
        };
        let loaded = store
            .load_sheet(id)
            .map_err(|e| (lang.strings().save_failed)(&i18n::store_error(lang, &e)))?;
        self.notices.extend_store(loaded.notices);
        self.sheet = Some((id.clone(), loaded.value));
        self.sheet_view.close_form();
        Ok(())
    }

    /// Changes the open sheet and saves it at once; a refused change leaves it as it was.
    /// `Ok(None)` when no sheet is open.
    pub(super) fn change_sheet<T>(
        &mut self,
        change: impl FnOnce(&mut Sheet) -> Result<T, ScoreError>,
    ) -> Result<Option<T>, String> {
        let lang = self.settings.language;
        let Some((_, sheet)) = &mut self.sheet else {
            return Ok(None);
        };
        let mut changed = sheet.clone();
        let done = change(&mut changed).map_err(|e| i18n::score_error(lang, &e))?;
        *sheet = changed;
        self.save_sheet()?;
        Ok(Some(done))
    }

    pub(super) fn save_sheet(&mut self) -> Result<(), String> {
        let lang = self.settings.language;
        let (Some(store), Some((id, sheet))) = (&self.store, &self.sheet) else {
            return Ok(());
        };
        let notices = store
            .save_sheet(id, sheet)
            .map_err(|e| (lang.strings().save_failed)(&i18n::store_error(lang, &e)))?;
        self.notices.extend_store(notices);
        // The "Open" list: played sheets only, the latest first.
        self.past_sheets.retain(|(past, _)| past != id);
        if !sheet.is_empty() {
            self.past_sheets.insert(0, (id.clone(), sheet.summary()));
        }
        Ok(())
    }

    /// A new file in the exports folder for this sheet: never an existing one.
    pub(super) fn export_path(&self, extension: &str) -> Result<std::path::PathBuf, String> {
        let s = self.settings.language.strings();
        let (Some(store), Some((id, _))) = (&self.store, &self.sheet) else {
            return Err(s.not_saving.to_owned());
        };
        let folder = store.dir().join("exports");
        std::fs::create_dir_all(&folder).map_err(|e| (s.save_failed)(&e.to_string()))?;
        let path = (1..)
            .map(|n| match n {
                1 => folder.join(format!("{id}.{extension}")),
                n => folder.join(format!("{id}-{n}.{extension}")),
            })
            .find(|p| !p.exists())
            .unwrap_or_else(|| folder.join(format!("{id}.{extension}")));
        Ok(path)
    }

    /// Writes the sheet as CSV for people and spreadsheets: a BOM (Excel reads the names),
    /// headers and rows as on screen, the rules, totals and winner; never over another file.
    pub(super) fn export_sheet(&mut self) -> Result<(), String> {
        let path = self.export_path("csv")?;
        self.write_csv(&path)
    }

    /// "Save CSV as…": the system's save dialog chooses the file (and asks before replacing
    /// one); cancelling writes nothing.
    pub(super) fn export_sheet_as(&mut self) -> Result<(), String> {
        let Some((id, _)) = &self.sheet else {
            return Ok(());
        };
        let chosen = rfd::FileDialog::new()
            .set_file_name(format!("{id}.csv"))
            .add_filter("CSV", &["csv"])
            .save_file();
        match chosen {
            Some(path) => self.write_csv(&path),
            None => Ok(()),
        }
    }

    /// Writes the open sheet as CSV to `path` and says where.
    fn write_csv(&mut self, path: &std::path::Path) -> Result<(), String> {
        let lang = self.settings.language;
        let s = lang.strings();
        let Some((_, sheet)) = &self.sheet else {
            return Ok(());
        };
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
        let rules = crate::ui::sheet_view::rules_line(lang, sheet.rules());
        let row_label = |n: GameNumber| (s.game_label)(n.round, n.in_round);
        let text = sheet_csv(sheet, &labels, &rules, &row_label);
        std::fs::write(path, text).map_err(|e| (s.save_failed)(&e.to_string()))?;
        self.notices
            .push(AppNotice::Exported(path.display().to_string()));
        Ok(())
    }

    /// Asks for a screenshot of the window (the sheet and its chart); saved when it arrives.
    pub(super) fn export_picture(&mut self) -> Result<(), String> {
        self.picture_to = Some(self.export_path("png")?);
        let slot = Arc::clone(&self.picture);
        self.ctx.request_screenshot(move |image| {
            if let Ok(mut slot) = slot.lock() {
                *slot = Some(image);
            }
        });
        Ok(())
    }

    /// Saves a screenshot that arrived for an exported picture.
    pub(super) fn save_picture(&mut self) {
        let image = self.picture.lock().ok().and_then(|mut slot| slot.take());
        let (Some(image), Some(path)) = (image, self.picture_to.take()) else {
            return;
        };
        match crate::ui::save_png(&path, &image) {
            Ok(()) => self
                .notices
                .push(AppNotice::Exported(path.display().to_string())),
            Err(e) => self
                .notices
                .push(AppNotice::SaveFailed(Worded::same(e.to_string()))),
        }
    }

    /// Every saved sheet's history (unreadable sheets skipped and named).
    pub(super) fn read_history(&self) -> (Record, Vec<String>) {
        let Some(store) = &self.store else {
            return (crate::history::history([], None), Vec::new());
        };
        match crate::store::read_sheets(store.dir()) {
            Ok(scan) => {
                let skipped = scan
                    .skipped
                    .iter()
                    .map(|s| s.file.display().to_string())
                    .collect();
                let history = crate::history::history(scan.sheets.iter().map(|s| &s.sheet), None);
                (history, skipped)
            }
            Err(e) => (crate::history::history([], None), vec![e.to_string()]),
        }
    }
}
