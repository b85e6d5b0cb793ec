//! Carrying out what the window asked for: evening commands go to [`Shared::apply`] and their
//! refusals back to the view that asked; what only a window does (tabs, full screen, the save
//! dialog, the score card's picture, the file manager) happens here.

use std::sync::Arc;
use std::time::Duration;

use super::{Action, App, Refused, UndoNote, View};
use crate::evening::Area;
use crate::evening::{Command, Refusal, Settings, Worded};
use crate::i18n;
use crate::ui::sheet_view::SheetRequest;
use crate::ui::timer_view::TimerCommand;

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
    /// When it was asked, on the evening's clock.
    asked_at: Duration,
    /// The chosen file, or `None` (cancelled, or no dialog).
    answer: std::sync::mpsc::Receiver<Option<std::path::PathBuf>>,
}

impl App {
    /// Applies one action (after the frame that asked for it).
    pub fn apply(&mut self, ctx: &egui::Context, action: Action) {
        self.ctx = ctx.clone();
        // "Nothing to undo here" is said until the next thing done.
        if !matches!(action, Action::Undo | Action::Redo) {
            self.undo_note = None;
        }
        match action {
            Action::Show(View::Table) if self.view != View::Table => {
                self.before_table = self.view;
                self.view = View::Table;
                self.set_fullscreen(ctx, true);
            }
            Action::Show(view) => {
                if self.view == View::Table && view != View::Table {
                    // Leaving the table view keeps full screen if it was on before it.
                    self.set_fullscreen(ctx, self.fullscreen_before_table);
                }
                self.view = view;
            }
            Action::ExitTable => {
                let back = self.before_table;
                self.apply(ctx, Action::Show(back));
            }
            Action::ToggleFullscreen => {
                let on = !self.fullscreen;
                self.set_fullscreen(ctx, on);
                self.fullscreen_before_table = on;
            }
            Action::TestSound => {
                self.command(View::Settings, Command::TestSound);
            }
            Action::Evening(command) => {
                let view = self.view;
                self.command(view, command);
            }
            Action::Timer(command) => self.timer_command(command),
            Action::Sheet(request) => self.sheet_request(request),
            Action::Settings(settings) => {
                self.command(View::Settings, Command::Settings(Box::new(settings)));
            }
            Action::Phones(on) => {
                self.command(View::Settings, Command::Phones(on));
            }
            Action::ToggleFaceToFace => {
                let settings = self.settings();
                let settings = Settings {
                    face_to_face: !settings.face_to_face,
                    ..settings
                };
                self.command(View::Table, Command::Settings(Box::new(settings)));
            }
            Action::AddGame => {
                self.view = View::Sheet;
                self.sheet_view.opening_form();
                self.command(View::Sheet, Command::AddGame);
            }
            Action::Undo => self.undo(self.view.undo_area(), false),
            Action::Redo => self.undo(self.view.undo_area(), true),
            Action::Meld(mode, text) => {
                self.view = View::Meld;
                self.meld.mode = mode;
                match mode {
                    super::MeldMode::Check => self.meld.meld_text = text,
                    super::MeldMode::Solve => self.meld.rack_text = text,
                    super::MeldMode::Table => self.meld.whole.table_text = text,
                    super::MeldMode::Referee => self.meld.referee.before_text = text,
                }
            }
            Action::WholeTable { table, rack } => {
                self.view = View::Meld;
                self.meld.mode = super::MeldMode::Table;
                self.meld.whole.table_text = table;
                self.meld.whole.rack_text = rack;
            }
            Action::Referee {
                before,
                after,
                rack,
            } => {
                self.view = View::Meld;
                self.meld.mode = super::MeldMode::Referee;
                self.meld.referee.before_text = before;
                self.meld.referee.after_text = after;
                self.meld.referee.rack_text = rack;
            }
            Action::Event(request) => self.event_request(request),
            Action::OpenFolder(folder) => {
                if let Err(why) = open_folder(&folder, self.language()) {
                    self.refused = Some(Refused {
                        view: self.view,
                        why,
                    });
                }
            }
        }
    }

    /// Applies an evening command for `view`; a refusal is kept for that view to show (a
    /// gesture the guard took as part of the last one is no news to anyone).
    pub(super) fn command(&mut self, view: View, command: Command) -> Option<crate::evening::Done> {
        match self.evening.apply(command) {
            Ok(done) => {
                if self.refused.as_ref().is_some_and(|r| r.view == view) {
                    self.refused = None;
                }
                Some(done)
            }
            Err(Refusal::Guarded | Refusal::NothingToUndo | Refusal::NothingToRedo) => None,
            Err(refusal) => {
                let why = crate::evening::words::refusal(self.language(), &refusal);
                self.refused = Some(Refused { view, why });
                None
            }
        }
    }

    /// Undo (or redo) on the tab shown, of `area`'s changes: what it took back is named in
    /// the undo bar; when the tab has nothing to take back it says so, and nothing of another
    /// tab is touched.
    fn undo(&mut self, area: Option<Area>, redo: bool) {
        let view = self.view;
        let note = UndoNote {
            view,
            redo,
            clock: area == Some(Area::Clock) && view == View::Timer,
        };
        let Some(area) = area else {
            self.undo_note = Some(note);
            return;
        };
        let found = {
            let evening = self.evening.lock();
            if redo {
                evening.next_redo(Some(area)).is_some()
            } else {
                evening.next_undo(Some(area)).is_some()
            }
        };
        if !found {
            self.undo_note = Some(note);
            return;
        }
        self.undo_note = None;
        let command = if redo {
            Command::Redo(Some(area))
        } else {
            Command::Undo(Some(area))
        };
        self.command(view, command);
    }

    fn timer_command(&mut self, command: TimerCommand) {
        let command = match command {
            TimerCommand::Primary => Command::Primary,
            TimerCommand::TogglePause => Command::TogglePause,
            TimerCommand::Reset => Command::ResetTimer,
            // Backspace: the clock's last change only (never a rename, never a score).
            TimerCommand::Undo => return self.undo(Some(Area::Clock), false),
            TimerCommand::SetPlayers(names) => Command::SetPlayers(names),
            TimerCommand::Rename(seat, name) => Command::Rename(seat, name),
            TimerCommand::UseXpSet => {
                let mut settings = self.settings();
                settings.rules.tile_set = crate::tile::TileSet::Xp;
                Command::Settings(Box::new(settings))
            }
        };
        // A press from a tab that has nothing to show a refusal in is the timer's.
        let view = match self.view {
            View::Sheet => View::Sheet,
            _ => View::Timer,
        };
        match &command {
            // Not started: the key simply does nothing yet.
            Command::TogglePause => {
                let _ = self.evening.apply(command);
            }
            _ => {
                self.command(view, command);
            }
        }
    }

    fn sheet_request(&mut self, request: SheetRequest) {
        match request {
            SheetRequest::Evening(command) => {
                self.command(View::Sheet, command);
            }
            SheetRequest::ExportAs => self.ask_where_to_save(),
            SheetRequest::ExportPicture => self.export_picture(),
            SheetRequest::History(show) => self.showing_history = show,
            SheetRequest::Plan(plan) => {
                let settings = Settings {
                    new_sheet: plan,
                    ..self.settings()
                };
                self.command(View::Sheet, Command::Settings(Box::new(settings)));
            }
        }
    }

    pub(super) fn set_fullscreen(&mut self, ctx: &egui::Context, on: bool) {
        self.fullscreen = on;
        ctx.send_viewport_cmd(egui::ViewportCommand::Fullscreen(on));
    }

    /// "Save CSV as…": the system's save dialog (which asks before replacing a file) runs on
    /// its own thread, so the clock and the alarms go on while it is open. A second click
    /// while it is open does nothing.
    fn ask_where_to_save(&mut self) {
        let (asked_at, id) = {
            let evening = self.evening.lock();
            (evening.now(), evening.sheet_id().cloned())
        };
        let Some(id) = id else { return };
        if self.save_as.is_some() {
            return;
        }
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
            Err(_) => {
                self.command(View::Sheet, Command::ExportCsvNoDialog);
            }
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
        let now = self.evening.lock().now();
        let quick = now.saturating_sub(pending.asked_at) < NO_DIALOG_WITHIN;
        self.save_as = None;
        match answer {
            Some(path) => {
                self.command(View::Sheet, Command::ExportCsv(Some(path)));
            }
            None if quick => {
                self.command(View::Sheet, Command::ExportCsvNoDialog);
            }
            // Cancelled: nothing is written.
            None => {}
        }
    }

    /// Whether a "Save CSV as…" dialog is open.
    pub fn choosing_where_to_save(&self) -> bool {
        self.save_as.is_some()
    }

    /// Writes the open sheet's score card (see [`crate::ui::card`]) as a PNG in the exports
    /// folder: drawn and written on a thread of its own (the clock goes on), told when done.
    /// Never a picture of the window, so its size and content do not depend on the window.
    fn export_picture(&mut self) {
        if self.picture_pending {
            return;
        }
        let (path, sheet, id, made) = {
            let evening = self.evening.lock();
            let path = evening.export_path("png");
            let sheet = evening.sheet().cloned();
            (path, sheet, evening.sheet_id().cloned(), evening.wall_now())
        };
        let (Some(sheet), Some(id)) = (sheet, id) else {
            return;
        };
        let path = match path {
            Ok(path) => path,
            Err(e) => {
                let why = e.worded(self.language());
                self.refused = Some(Refused {
                    view: View::Sheet,
                    why,
                });
                return;
            }
        };
        let lang = self.language();
        let slot = Arc::clone(&self.picture);
        let ctx = self.ctx.clone();
        let work = move || {
            let info = crate::ui::card::CardInfo {
                name: id.as_str(),
                made,
            };
            // A card that cannot be drawn is a notice, never a window that waits forever.
            let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                crate::ui::card::render(&sheet, lang, &info)
            }));
            let written = match drawn {
                Ok(image) => crate::ui::save_png(&path, &image)
                    .map_err(|e| Worded::new(|lang| i18n::io_error(lang, &e))),
                Err(_) => Err(Worded::new(|lang| {
                    crate::i18n::card::NOT_DRAWN.get(lang).to_owned()
                })),
            };
            if let Ok(mut slot) = slot.lock() {
                *slot = Some((path, written.err()));
            }
            // A frame to tell it in: an idle window would keep it until the next click.
            ctx.request_repaint();
        };
        self.picture_pending = true;
        let spawned = std::thread::Builder::new()
            .name("score-card".into())
            .spawn(work);
        if let Err(e) = spawned {
            self.picture_pending = false;
            self.refused = Some(Refused {
                view: View::Sheet,
                why: i18n::io_error(lang, &e),
            });
        }
    }

    /// Tells the table that the score card was written (or why not), once it has been.
    pub(super) fn save_picture(&mut self) {
        let Some((path, error)) = self.picture.lock().ok().and_then(|mut slot| slot.take()) else {
            return;
        };
        self.picture_pending = false;
        self.command(View::Sheet, Command::Wrote { path, error });
    }
}

/// Opens a folder in the system's file manager, without waiting for it; why not, worded in
/// `lang`.
fn open_folder(folder: &std::path::Path, lang: crate::lang::Language) -> Result<(), String> {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    std::process::Command::new(opener)
        .arg(folder)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
        .map_err(|e| {
            format!(
                "{opener} {}: {}",
                folder.display(),
                i18n::io_error(lang, &e)
            )
        })
}
