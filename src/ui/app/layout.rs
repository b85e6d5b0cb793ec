//! Laying out a frame: the tabs, the clock strip, the undo bar, the notices and the view, and
//! reading this frame's keys once for all of them.

use super::*;

/// Keys pressed afresh: a key-repeat, or a press of a key already held, is not a new press.
/// (`key_pressed` counts repeats: holding Space would end a turn 25 times a second.)
#[derive(Debug, Default)]
pub(super) struct KeyLatch {
    down: Vec<egui::Key>,
}

impl KeyLatch {
    /// The keys pressed afresh in these events, with their modifiers.
    pub(super) fn fresh(&mut self, events: &[egui::Event]) -> Vec<(egui::Key, egui::Modifiers)> {
        let mut fresh = Vec::new();
        for event in events {
            match event {
                egui::Event::Key {
                    key,
                    pressed,
                    repeat,
                    modifiers,
                    ..
                } => {
                    if *pressed {
                        if !*repeat && !self.down.contains(key) {
                            fresh.push((*key, *modifiers));
                        }
                        if !self.down.contains(key) {
                            self.down.push(*key);
                        }
                    } else {
                        self.down.retain(|k| k != key);
                    }
                }
                egui::Event::WindowFocused(false) => self.down.clear(),
                _ => {}
            }
        }
        fresh
    }
}

/// A click this soon after the window gained focus is the click that brought it to the front,
/// not a request to end a turn.
pub(super) const ACTIVATION_CLICK: Duration = Duration::from_millis(350);

impl App {
    /// Asks egui to repaint exactly when the clock's shown second changes or an event is due
    /// (and twice a second while the time-up flash is on), never every frame.
    pub(super) fn schedule_repaint(&self, ctx: &egui::Context) {
        let now = self.timer.now();
        let (next, flashing) = self.timer.read(|t, now| {
            let next = [t.next_display_change_at(now), t.next_event_at()]
                .into_iter()
                .flatten()
                .min();
            (next, t.is_timed_out(now) && t.phase() == Phase::Running)
        });
        if let Some(at) = next {
            ctx.request_repaint_after(at.saturating_sub(now));
        }
        if flashing {
            let half = Duration::from_millis(500);
            let into = Duration::from_millis((now.as_millis() % 500) as u64);
            ctx.request_repaint_after(half - into);
        }
    }

    /// The keys and the focus of this frame, as the table's views need them.
    pub(super) fn table_input(&mut self, ui: &egui::Ui) -> TableInput {
        let events = ui.input(|i| i.events.clone());
        let now = self.timer.now();
        if events
            .iter()
            .any(|e| matches!(e, egui::Event::WindowFocused(true)))
        {
            self.focused_at = Some(now);
        }
        let typing = ui.ctx().egui_wants_keyboard_input();
        let fresh = self.keys.fresh(&events);
        TableInput {
            keys: if typing { Vec::new() } else { fresh },
            activation_click: self
                .focused_at
                .is_some_and(|at| now.saturating_sub(at) < ACTIVATION_CLICK),
        }
    }

    /// The undo offer: what the last change was, with Undo and Redo, always in the same place.
    pub(super) fn undo_bar(&self, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
        let lang = self.settings.language;
        let s = lang.strings();
        ui.horizontal(|ui| {
            ui.set_min_height(28.0);
            let undo = ui
                .add_enabled(
                    self.history.next_undo(self.undo_area()).is_some(),
                    egui::Button::new(s.undo).min_size(egui::vec2(96.0, 26.0)),
                )
                .on_hover_text("Ctrl+Z");
            if undo.clicked() {
                actions.push(Action::Undo);
            }
            let redo = ui
                .add_enabled(
                    self.history.next_redo(self.undo_area()).is_some(),
                    egui::Button::new(s.redo).min_size(egui::vec2(96.0, 26.0)),
                )
                .on_hover_text("Ctrl+Shift+Z");
            if redo.clicked() {
                actions.push(Action::Redo);
            }
            // Right after an undo: what it took back (a Backspace on the timer says what it did).
            if let Some(change) = self.history.just_undone() {
                let line = (s.undone)(&i18n::change_done(lang, change));
                ui.label(egui::RichText::new(line).strong());
            } else if let Some(change) = self.history.next_undo(self.undo_area()) {
                ui.label(egui::RichText::new(i18n::change_done(lang, change)).weak());
            }
        });
    }

    /// The clock on every tab but the timer's: whose turn, the time, the state (the time-up
    /// flash too), an end-turn button and the way to the table view.
    pub(super) fn clock_strip(
        &self,
        ui: &mut egui::Ui,
        input: &TableInput,
        actions: &mut Vec<Action>,
    ) {
        let lang = self.settings.language;
        let s = lang.strings();
        let snap = self.timer.read(ClockSnapshot::read);
        let strong = ui.visuals().strong_text_color();
        let (color, background) = snap.colors(strong);
        let mut frame = egui::Frame::side_top_panel(ui.style());
        if let Some(bg) = background {
            frame = frame.fill(bg);
        }
        egui::Panel::top("clock-strip").frame(frame).show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.set_min_height(48.0);
                let text = |t: String, size: f32| egui::RichText::new(t).size(size).color(color);
                ui.label(text(format!("{} · {}", s.now_playing, snap.current), 26.0).strong());
                let clock = ui.add(
                    egui::Label::new(text(snap.digits(), 30.0).strong().monospace())
                        .sense(egui::Sense::click()),
                );
                let name = snap.accessible_name(lang);
                clock.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
                if clock.clicked() && !input.activation_click {
                    actions.push(Action::Timer(TimerCommand::Primary));
                }
                if snap.timed_out {
                    let (rect, _) =
                        ui.allocate_exact_size(egui::vec2(30.0, 30.0), egui::Sense::hover());
                    crate::ui::clock::warning_sign(ui.painter(), rect.center(), 26.0, color, false);
                }
                ui.label(text(snap.state_text(lang).to_owned(), 20.0));
                ui.label(text(format!("{}: {}", s.next_player, snap.next), 18.0));
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    let size = egui::vec2(140.0, 44.0);
                    if ui
                        .add(egui::Button::new(s.table_view).min_size(size))
                        .on_hover_text("F5")
                        .clicked()
                    {
                        actions.push(Action::Show(View::Table));
                    }
                    let primary = if snap.phase == Phase::Idle {
                        s.start
                    } else {
                        s.end_turn
                    };
                    let end = ui.add(egui::Button::new(primary).min_size(size));
                    if end.clicked() && !input.activation_click {
                        actions.push(Action::Timer(TimerCommand::Primary));
                    }
                });
            });
        });
    }

    /// Draws one frame and returns what the views asked for.
    pub fn frame(&mut self, ui: &mut egui::Ui) -> Vec<Action> {
        let mut actions = Vec::new();
        let lang = self.settings.language;
        let s = lang.strings();
        self.timer.pump();
        let input = self.table_input(ui);
        for (key, modifiers) in &input.keys {
            let plain = !modifiers.command && !modifiers.ctrl && !modifiers.alt;
            match key {
                // The clock's keys work on every tab (not while typing: `keys` is empty then).
                egui::Key::Space | egui::Key::Enter if plain => {
                    actions.push(Action::Timer(TimerCommand::Primary));
                }
                egui::Key::P if plain => actions.push(Action::Timer(TimerCommand::TogglePause)),
                egui::Key::F5 if self.view == View::Table => actions.push(Action::ExitTable),
                egui::Key::F5 => actions.push(Action::Show(View::Table)),
                egui::Key::F11 => actions.push(Action::ToggleFullscreen),
                egui::Key::Z if modifiers.command && modifiers.shift => actions.push(Action::Redo),
                egui::Key::Z if modifiers.command => actions.push(Action::Undo),
                egui::Key::Y if modifiers.command => actions.push(Action::Redo),
                _ => {}
            }
        }
        if self.view == View::Table {
            let snap = self.timer.read(ClockSnapshot::read);
            let face_to_face = self.settings.face_to_face;
            egui::CentralPanel::default().show(ui, |ui| {
                for command in crate::ui::table_view::ui(ui, lang, &snap, &input, face_to_face) {
                    actions.push(match command {
                        TableCommand::Timer(c) => Action::Timer(c),
                        TableCommand::ToggleFaceToFace => Action::ToggleFaceToFace,
                        TableCommand::Exit => Action::ExitTable,
                    });
                }
            });
            return actions;
        }
        egui::Panel::top("tabs").show(ui, |ui| {
            ui.horizontal(|ui| {
                for (view, label, key) in [
                    (View::Timer, s.tab_timer, egui::Key::F1),
                    (View::Meld, s.tab_meld, egui::Key::F2),
                    (View::Sheet, s.tab_sheet, egui::Key::F3),
                    (View::Settings, s.tab_settings, egui::Key::F4),
                    (View::Table, s.table_view, egui::Key::F5),
                ] {
                    let text = egui::RichText::new(label).size(18.0);
                    let tab = ui
                        .selectable_label(self.view == view, text)
                        .on_hover_text(key.name());
                    if tab.clicked() || (view != View::Table && ui.input(|i| i.key_pressed(key))) {
                        actions.push(Action::Show(view));
                    }
                }
            });
        });
        if self.view != View::Timer {
            self.clock_strip(ui, &input, &mut actions);
        }
        match self.notices.ui(ui, lang, self.not_saving()) {
            Some(NoticeClick::Dismiss(i)) => actions.push(Action::Dismiss(i)),
            Some(NoticeClick::OpenFolder(folder)) => actions.push(Action::OpenFolder(folder)),
            None => {}
        }
        egui::CentralPanel::default().show(ui, |ui| {
            if self.view != View::Meld {
                self.undo_bar(ui, &mut actions);
            }
            egui::ScrollArea::vertical().show(ui, |ui| match self.view {
                View::Timer => {
                    let commands = self.timer_view.ui(ui, lang, &self.timer, &input);
                    for command in commands {
                        actions.push(match command {
                            TimerCommand::Undo => Action::Undo,
                            other => Action::Timer(other),
                        });
                    }
                }
                View::Sheet => {
                    let sheet = self.session.sheet();
                    let context = SheetContext {
                        settings_rules: &self.settings.rules,
                        past: self.session.past(),
                        open: self.session.id(),
                        history: self.history_data.as_ref(),
                        choosing_where_to_save: self.save_as.is_some(),
                    };
                    let request = self.sheet_view.ui(ui, lang, sheet, &context, Utc::now());
                    actions.extend(request.map(Action::Sheet));
                }
                View::Meld => self.meld.ui(ui, lang, &self.settings.rules),
                View::Settings => {
                    match self.settings_view.ui(
                        ui,
                        &self.settings,
                        self.store_dir().as_deref(),
                        &self.phones,
                    ) {
                        Some(SettingsRequest::Change(new)) => actions.push(Action::Settings(new)),
                        Some(SettingsRequest::TestSound) => actions.push(Action::TestSound),
                        Some(SettingsRequest::Phones(on)) => actions.push(Action::Phones(on)),
                        None => {}
                    }
                }
                View::Table => {}
            });
        });
        actions
    }
}
