//! The window's side of the score sheet: requests from the sheet view go to the
//! [`SheetSession`], their results become undo records, notices and the view's error line.
//! What only a window has stays here: the system's save dialog and the picture of the window.

use super::*;

/// "Save CSV as…" answered `None` sooner than this after it was asked: no dialog was shown (no
/// desktop portal and no zenity on this system; rfd cannot tell that from a cancel), since a
/// dialog takes a moment to appear and a person a moment to press Cancel. The CSV then goes to
/// the exports folder, and the table is told. Erring long is the safe side: a reflex cancel
/// read as "no dialog" writes one file into the exports folder, with a notice saying where; a
/// missing dialog read as a cancel would be the silent click this exists to prevent (asking
/// the session bus takes a few hundred milliseconds on a busy machine).
pub(super) const NO_DIALOG_WITHIN: Duration = Duration::from_millis(1000);

/// A "Save CSV as…" dialog open on its own thread (the clock keeps running meanwhile).
pub(super) struct SaveAs {
    /// When it was asked, on the timer's clock.
    pub(super) asked_at: Duration,
    /// The chosen file, or `None` (cancelled, or no dialog).
    pub(super) answer: std::sync::mpsc::Receiver<Option<std::path::PathBuf>>,
}

impl App {
    pub(super) fn sheet_request(&mut self, request: SheetRequest) {
        self.sheet_view.error = None;
        let before = self.sheet_snapshot();
        let lang = self.settings.language;
        let result = match request {
            SheetRequest::New { rounds, target } => self
                .session
                .new_sheet(
                    &self.settings.players,
                    self.settings.rules,
                    rounds,
                    target,
                    Utc::now(),
                )
                .map(|change| {
                    self.sheet_view.close_form();
                    // A new evening: the phones' old links stop working.
                    let state = self.table_state();
                    let ctx = self.ctx.clone();
                    self.phones
                        .new_evening(state, move || ctx.request_repaint());
                    Some(change)
                }),
            SheetRequest::Open(id) => self.session.open(&id).map(|change| {
                self.sheet_view.close_form();
                Some(change)
            }),
            SheetRequest::SaveGame(index, game) => {
                let result = match index {
                    Some(i) => self.session.edit_game(i, game),
                    None => self.session.add_game(game),
                };
                if let Ok(Some(_)) = result {
                    self.sheet_view.close_form();
                }
                result
            }
            SheetRequest::Delete(..) if !self.delete_guard.allow(self.timer.now()) => Ok(None),
            SheetRequest::Delete(i, game) => self.session.delete_game(i, &game),
            SheetRequest::Export => self.export_csv(None).map(|()| None),
            SheetRequest::ExportAs => {
                self.ask_where_to_save();
                Ok(None)
            }
            SheetRequest::ApplyRules => self.session.apply_rules(&self.settings.rules),
            SheetRequest::ExportPicture => self.export_picture().map(|()| None),
            SheetRequest::History(show) => {
                self.history_data = show.then(|| self.session.history());
                Ok(None)
            }
        };
        match result {
            Ok(Some(change)) => self.history.record(change, before),
            Ok(None) => {}
            Err(e) => self.sheet_view.error = Some(e.worded(lang)),
        }
        self.session_events();
    }

    /// Turns what the session reported beside its answers into notices.
    pub(super) fn session_events(&mut self) {
        for event in self.session.take_events() {
            match event {
                SessionEvent::Store(notice) => self.notices.push(AppNotice::Store(notice)),
                SessionEvent::NotSaved(e) => {
                    self.notices.push(AppNotice::SaveFailed(Worded::new(|lang| {
                        i18n::store_error(lang, &e)
                    })))
                }
            }
        }
    }

    /// Writes the CSV to `to`, or to a new file in the exports folder, and says where.
    fn export_csv(&mut self, to: Option<&std::path::Path>) -> Result<(), SessionError> {
        if let Some(path) = self.session.export_csv(self.settings.language, to)? {
            self.notices
                .push(AppNotice::Exported(path.display().to_string()));
        }
        Ok(())
    }

    /// "Save CSV as…": the system's save dialog (which asks before replacing a file) runs on
    /// its own thread, so the clock and the alarms go on while it is open. A second click
    /// while it is open does nothing.
    fn ask_where_to_save(&mut self) {
        let Some(id) = self.session.id() else { return };
        if self.save_as.is_some() {
            return;
        }
        // Asked now, before the dialog's thread can answer.
        let asked_at = self.timer.now();
        let (tell, answer) = std::sync::mpsc::channel();
        let dialog = Arc::clone(&self.save_dialog);
        let suggested = format!("{id}.csv");
        let ctx = self.ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("save-dialog".into())
            .spawn(move || {
                // The window may be gone when the answer comes: nothing to tell then.
                let _ = tell.send(dialog(&suggested));
                ctx.request_repaint();
            });
        match spawned {
            Ok(_) => self.save_as = Some(SaveAs { asked_at, answer }),
            Err(_) => self.save_as_without_dialog(),
        }
    }

    /// Acts on the save dialog's answer once it has come.
    pub(super) fn save_as_answered(&mut self) {
        let Some(pending) = &self.save_as else { return };
        let answer = match pending.answer.try_recv() {
            Ok(answer) => answer,
            Err(std::sync::mpsc::TryRecvError::Empty) => return,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => None,
        };
        let quick = self.timer.now().saturating_sub(pending.asked_at) < NO_DIALOG_WITHIN;
        self.save_as = None;
        match answer {
            Some(path) => {
                if let Err(e) = self.export_csv(Some(&path)) {
                    self.sheet_view.error = Some(e.worded(self.settings.language));
                }
            }
            None if quick => self.save_as_without_dialog(),
            // Cancelled: nothing is written.
            None => {}
        }
    }

    /// No save dialog could be shown: the CSV goes to the exports folder, and the notice
    /// says so and why, with the folder one click away.
    fn save_as_without_dialog(&mut self) {
        match self.session.export_csv(self.settings.language, None) {
            Ok(Some(path)) => self
                .notices
                .push(AppNotice::ExportedNoDialog(path.display().to_string())),
            Ok(None) => {}
            Err(e) => self.sheet_view.error = Some(e.worded(self.settings.language)),
        }
    }

    /// Whether a "Save CSV as…" dialog is open.
    pub fn choosing_where_to_save(&self) -> bool {
        self.save_as.is_some()
    }

    /// Asks for a screenshot of the window (the sheet and its chart); saved when it arrives.
    fn export_picture(&mut self) -> Result<(), SessionError> {
        self.picture_to = Some(self.session.export_path("png")?);
        let slot = Arc::clone(&self.picture);
        let ctx = self.ctx.clone();
        self.ctx.request_screenshot(move |image| {
            if let Ok(mut slot) = slot.lock() {
                *slot = Some(image);
            }
            // A frame to save it in: an idle window would keep it until the next click.
            ctx.request_repaint();
        });
        Ok(())
    }

    /// Saves a screenshot that arrived for an exported picture.
    pub(super) fn save_picture(&mut self) {
        // The path waits for its image (frames come before the screenshot does).
        let Some(image) = self.picture.lock().ok().and_then(|mut slot| slot.take()) else {
            return;
        };
        let Some(path) = self.picture_to.take() else {
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
}
