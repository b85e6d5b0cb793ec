//! Carrying out actions: the one `apply` path every input goes through (the guard, the undo
//! history and the saving see all of them), the timer's commands, settings, undo and redo.

use super::*;

impl App {
    /// Applies one action.
    pub fn apply(&mut self, ctx: &egui::Context, action: Action) {
        self.ctx = ctx.clone();
        match action {
            Action::Show(View::Table) if self.view != View::Table => {
                self.before_table = self.view;
                self.view = View::Table;
                self.set_fullscreen(ctx, true);
            }
            Action::Show(view) => {
                if self.view == View::Table && view != View::Table {
                    self.set_fullscreen(ctx, false);
                }
                self.view = view;
            }
            Action::ExitTable => {
                let back = self.before_table;
                self.apply(ctx, Action::Show(back));
            }
            Action::Phones(on) => {
                if on {
                    let bind = phones::table_bind(self.settings.phone_port);
                    self.start_phones(ctx, bind);
                } else {
                    self.phones.stop();
                }
            }
            Action::ToggleFaceToFace => {
                let settings = Settings {
                    face_to_face: !self.settings.face_to_face,
                    ..self.settings.clone()
                };
                self.save_settings(settings);
            }
            Action::Settings(settings) => self.set_settings(settings),
            Action::TestSound if self.no_audio => self.notices.push(AppNotice::NothingToPlay),
            Action::TestSound => {
                let sounder = self.timer.sounder();
                for cue in Cue::ALL {
                    sounder.play(cue);
                }
            }
            Action::ToggleFullscreen => self.set_fullscreen(ctx, !self.fullscreen),
            Action::Timer(command) => self.timer_command(command),
            Action::Dismiss(i) => self.notices.dismiss(i),
            Action::Sheet(request) => self.sheet_request(request),
            Action::Meld(mode, text) => {
                self.view = View::Meld;
                self.meld.mode = mode;
                match mode {
                    MeldMode::Check => self.meld.meld_text = text,
                    MeldMode::Solve => self.meld.rack_text = text,
                }
            }
            Action::OpenFolder(folder) => {
                if let Err(why) = open_folder(&folder) {
                    self.notices.push(AppNotice::SaveFailed(Worded::same(why)));
                }
            }
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
        }
        // Saved when the action changed the evening (a tab switch writes nothing); the clock's
        // own progress is saved every few seconds and on exit.
        self.save_evening(false);
    }

    pub(super) fn set_fullscreen(&mut self, ctx: &egui::Context, on: bool) {
        self.fullscreen = on;
        ctx.send_viewport_cmd(egui::ViewportCommand::Fullscreen(on));
    }

    /// The current state of the parts `like` has (the parts a change touched).
    pub(super) fn snapshot_like(&self, like: &Snapshot) -> Snapshot {
        Snapshot {
            timer: like
                .timer
                .as_ref()
                .map(|_| self.timer.read(|t, now| (t.clone(), now))),
            sheet: like.sheet.as_ref().map(|_| self.session.snapshot()),
            table: like
                .table
                .as_ref()
                .map(|_| (self.settings.players.clone(), self.settings.rules)),
        }
    }

    pub(super) fn timer_snapshot(&self) -> Snapshot {
        Snapshot {
            timer: Some(self.timer.read(|t, now| (t.clone(), now))),
            ..Snapshot::default()
        }
    }

    pub(super) fn sheet_snapshot(&self) -> Snapshot {
        Snapshot {
            sheet: Some(self.session.snapshot()),
            ..Snapshot::default()
        }
    }

    /// Puts the parts of a snapshot back, saving what is saved.
    pub(super) fn restore(&mut self, snapshot: Snapshot) {
        if let Some((timer, taken_at)) = snapshot.timer {
            self.timer
                .command(|t, now| *t = timer.rebased(taken_at, now));
        }
        if let Some((players, rules)) = snapshot.table {
            let settings = Settings {
                players,
                rules,
                ..self.settings.clone()
            };
            self.timer
                .set_settings(TimerSettings::from_rules(&settings.rules));
            self.timer.set_mode(TimerMode::from_rules(&settings.rules));
            self.save_settings(settings);
        }
        if let Some(sheet) = snapshot.sheet {
            if self.session.restore(sheet) {
                self.sheet_view.close_form();
            }
            self.session_events();
        }
    }

    /// What undo and redo act on from the tab shown: the clock's changes on the timer (and the
    /// table view), the sheet's on the sheet, the rules on the settings; anything elsewhere.
    pub(super) fn undo_area(&self) -> Option<Area> {
        match self.view {
            View::Timer | View::Table => Some(Area::Timer),
            View::Sheet => Some(Area::Sheet),
            View::Settings => Some(Area::Settings),
            View::Meld => None,
        }
    }

    pub(super) fn undo(&mut self) {
        if let Some(entry) = self.history.take_undo(self.undo_area()) {
            let after = self.snapshot_like(&entry.state);
            self.restore(entry.state);
            self.history.undone(entry.change, after);
        }
    }

    pub(super) fn redo(&mut self) {
        if let Some(entry) = self.history.take_redo(self.undo_area()) {
            let before = self.snapshot_like(&entry.state);
            self.restore(entry.state);
            self.history.redone(entry.change, before);
        }
    }

    /// Replaces the settings: a change of the rules is recorded for undo.
    pub(super) fn set_settings(&mut self, settings: Settings) {
        if settings.rules != self.settings.rules {
            let before = Snapshot {
                table: Some((self.settings.players.clone(), self.settings.rules)),
                ..Snapshot::default()
            };
            self.history.record(Change::RulesChanged, before);
            self.timer
                .set_settings(TimerSettings::from_rules(&settings.rules));
            self.timer.set_mode(TimerMode::from_rules(&settings.rules));
        }
        self.save_settings(settings);
    }

    /// Saves and applies the settings (no undo record).
    pub(super) fn save_settings(&mut self, settings: Settings) {
        if let Some(store) = &self.store {
            match store.save_settings(&settings) {
                Ok(notices) => self.notices.extend_store(notices),
                Err(e) => self
                    .notices
                    .push(AppNotice::SettingsNotSaved(Worded::new(|lang| {
                        i18n::store_error(lang, &e)
                    }))),
            }
        }
        let sounder = self.timer.sounder();
        sounder.set_volume(settings.volume);
        sounder.set_muted(settings.muted);
        self.settings = settings;
    }

    pub(super) fn timer_command(&mut self, command: TimerCommand) {
        let lang = self.settings.language;
        let mut before = self.timer_snapshot();
        let players = self.timer.read(|t, _| t.players().to_vec());
        // Commands that do not apply in the current state are simply not offered by the view;
        // a race (a key pressed twice in one frame) is harmless, so those are not recorded.
        let change = match command {
            TimerCommand::Primary => {
                let now = self.timer.now();
                if !self.guard.allow(now) {
                    return;
                }
                self.timer.command(|t, now| match t.phase() {
                    Phase::Idle => t.start(now).ok().map(|()| Change::Started),
                    _ => t.end_turn(now).ok().map(|end| {
                        Change::TurnEnded(players.get(end.player).cloned().unwrap_or_default())
                    }),
                })
            }
            TimerCommand::TogglePause => self.timer.command(|t, now| match t.phase() {
                Phase::Running => t.pause(now).ok().map(|()| Change::Paused),
                Phase::Paused => t.resume(now).ok().map(|()| Change::Resumed),
                Phase::Idle => None,
            }),
            TimerCommand::Reset => {
                self.timer.reset();
                Some(Change::TimerReset)
            }
            TimerCommand::Undo => {
                self.undo();
                None
            }
            TimerCommand::Rename(seat, name) => {
                match self
                    .timer
                    .command(|t, _| t.rename_player(seat, name.trim()))
                {
                    Ok(()) => {
                        // The open sheet follows, in the same undo step.
                        let sheet = self.session.snapshot();
                        let old = players.get(seat).map_or("", String::as_str);
                        if self.session.follow_rename(old, &name) {
                            before.sheet = Some(sheet);
                        }
                        self.session_events();
                        Some(Change::PlayersChanged)
                    }
                    Err(e) => {
                        self.timer_view.players_error = Some(i18n::timer_error(lang, &e));
                        None
                    }
                }
            }
            TimerCommand::SetPlayers(names) => {
                match self.timer.command(|t, _| t.set_players(names.clone())) {
                    Ok(()) => Some(Change::PlayersChanged),
                    Err(e) => {
                        self.timer_view.players_error = Some(i18n::timer_error(lang, &e));
                        None
                    }
                }
            }
        };
        let Some(change) = change else { return };
        if change == Change::PlayersChanged {
            self.timer_view.players_error = None;
            before.table = Some((self.settings.players.clone(), self.settings.rules));
            let settings = Settings {
                players: self.timer.read(|t, _| t.players().to_vec()),
                ..self.settings.clone()
            };
            self.save_settings(settings);
        }
        self.history.record(change, before);
    }
}

/// Opens a folder in the system's file manager, without waiting for it.
fn open_folder(folder: &std::path::Path) -> Result<(), String> {
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
        .map_err(|e| format!("{opener} {}: {e}", folder.display()))
}
