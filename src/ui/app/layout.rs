//! Laying out a frame: the tabs, the clock strip, the undo bar, the notices and the view, and
//! reading this frame's keys once for all of them.

use std::sync::Arc;
use std::time::Duration;

use super::{Action, App, View};
use crate::evening::{Command, Evening};
use crate::i18n;
use crate::timer::Phase;
use crate::ui::clock::ClockSnapshot;
use crate::ui::notices::NoticeClick;
use crate::ui::settings_view::SettingsRequest;
use crate::ui::sheet_view::SheetContext;
use crate::ui::table_view::TableCommand;
use crate::ui::timer_view::{TableInput, TimerCommand};

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

/// Space and Enter are the table's keys whenever no text field has the cursor: when a button,
/// a tab or a check box has the keyboard focus (Tab moved it there), the press must not click
/// it (Tab from the last name onto "Move up", then Space, swapped two seats). So before the
/// frame sees such a press, that focus is let go: no widget is clicked by it, and the frame
/// reads it as the table's key.
pub(super) fn release_focus_for_table_keys(ctx: &egui::Context, raw: &egui::RawInput) {
    let table_key = raw.events.iter().any(|e| {
        matches!(
            e,
            egui::Event::Key {
                key: egui::Key::Space | egui::Key::Enter,
                pressed: true,
                modifiers,
                ..
            } if !modifiers.ctrl && !modifiers.command && !modifiers.alt
        )
    });
    if table_key
        && !ctx.text_edit_focused()
        && let Some(id) = ctx.memory(|m| m.focused())
    {
        ctx.memory_mut(|m| m.surrender_focus(id));
    }
}

/// Full-width (전각) text a Korean IME types (`Ｒ１２`), pasted or typed, becomes the ASCII it
/// is read as before any field sees it: the window's fonts have no full-width glyphs (it was
/// drawn as boxes), and the notation reads it the same (`tile::normalize_width`).
pub(super) fn fold_full_width_input(raw: &mut egui::RawInput) {
    let fold = |text: &mut String| crate::ui::fold_full_width(text);
    for event in &mut raw.events {
        match event {
            egui::Event::Text(text) | egui::Event::Paste(text) => fold(text),
            egui::Event::Ime(egui::ImeEvent::Commit(text))
            | egui::Event::Ime(egui::ImeEvent::Preedit { text, .. }) => fold(text),
            _ => {}
        }
    }
}

/// Holds back every event after the first Tab press of a frame (with the events held from
/// before in front), so that text typed after a Tab reaches the field the Tab moves to: egui
/// moves the focus at the end of the frame in which Tab is pressed, and text later in the same
/// frame would still go to the field it leaves.
pub(super) fn hold_after_tab(
    held: &mut Vec<egui::Event>,
    ctx: &egui::Context,
    raw: &mut egui::RawInput,
) {
    let mut events = std::mem::take(held);
    events.append(&mut raw.events);
    let tab = events.iter().position(|e| {
        matches!(
            e,
            egui::Event::Key {
                key: egui::Key::Tab,
                pressed: true,
                ..
            }
        )
    });
    if let Some(at) = tab
        && at + 1 < events.len()
    {
        *held = events.split_off(at + 1);
        ctx.request_repaint();
    }
    raw.events = events;
}

impl App {
    /// Asks egui to repaint exactly when the clock's shown second changes or an event is due
    /// (and twice a second while the time-up flash is on), never every frame; and soon after
    /// a success notice, so it fades.
    pub(super) fn schedule_repaint(&self, ctx: &egui::Context) {
        let evening = self.evening.lock();
        let rt = evening.timer();
        let now = rt.now();
        let (next, flashing) = rt.read(|t, now| {
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
        if let Some(fade) = crate::ui::notices::next_fade(evening.notices(), now) {
            ctx.request_repaint_after(fade);
        }
        // A notice that just folded or faded: the panels take their new sizes over the next
        // frames (a bottom panel settles a frame after its content shrinks).
        if crate::ui::notices::just_changed(evening.notices(), now) {
            ctx.request_repaint_after(Duration::from_millis(50));
        }
    }

    /// The keys and the focus of this frame, as the table's views need them.
    fn table_input(&mut self, ui: &egui::Ui, now: Duration) -> TableInput {
        let events = ui.input(|i| i.events.clone());
        if events
            .iter()
            .any(|e| matches!(e, egui::Event::WindowFocused(true)))
        {
            self.focused_at = Some(now);
        }
        // Only a text field with the cursor takes the table's keys (a focused button does
        // not: see `release_focus_for_table_keys`).
        let typing = ui.ctx().text_edit_focused();
        let fresh = self.keys.fresh(&events);
        TableInput {
            keys: if typing { Vec::new() } else { fresh },
            activation_click: self
                .focused_at
                .is_some_and(|at| now.saturating_sub(at) < ACTIVATION_CLICK),
        }
    }

    /// The undo offer: what the last change was, with Undo and Redo, always in the same place.
    fn undo_bar(&self, ui: &mut egui::Ui, evening: &Evening, actions: &mut Vec<Action>) {
        let lang = evening.language();
        let s = lang.strings();
        let area = self.view.undo_area();
        let note = self.undo_note_in(lang);
        ui.horizontal(|ui| {
            ui.set_min_height(32.0);
            let size = egui::vec2(96.0, 32.0);
            let undo = ui
                .add_enabled(
                    evening.next_undo(area).is_some(),
                    egui::Button::new(s.table.undo).min_size(size),
                )
                .on_hover_text("Ctrl+Z");
            if undo.clicked() {
                actions.push(Action::Undo);
            }
            let redo = ui
                .add_enabled(
                    evening.next_redo(area).is_some(),
                    egui::Button::new(s.table.redo).min_size(size),
                )
                .on_hover_text("Ctrl+Shift+Z");
            if redo.clicked() {
                actions.push(Action::Redo);
            }
            // An undo that found nothing here says so; right after an undo: what it took back
            // (a Backspace on the timer says what it did).
            if let Some(note) = note {
                ui.add(
                    egui::Label::new(egui::RichText::new(note).color(crate::ui::clock::AMBER))
                        .wrap(),
                );
            } else if let Some(change) = evening.just_undone() {
                let line = (s.sheet.undone)(&crate::evening::words::change_done(lang, change));
                ui.label(egui::RichText::new(line).strong());
            } else if let Some(change) = evening.next_undo(area) {
                ui.label(
                    egui::RichText::new(crate::evening::words::change_done(lang, change)).weak(),
                );
            }
        });
    }

    /// The clock on every tab but the timer's: whose turn, the time, the state (the time-up
    /// flash too), an end-turn button and the way to the table view.
    fn clock_strip(
        &self,
        ui: &mut egui::Ui,
        evening: &Evening,
        input: &TableInput,
        actions: &mut Vec<Action>,
    ) {
        let lang = evening.language();
        let s = lang.strings();
        let snap = evening.timer().read(ClockSnapshot::read);
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
                ui.label(
                    text(format!("{} · {}", s.timer.now_playing, snap.current), 26.0).strong(),
                );
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
                if let Some(flag) = snap.flag_lines(lang).first() {
                    ui.label(text(flag.clone(), 18.0).strong());
                }
                ui.label(text(
                    format!("{}: {}", s.timer.next_player, snap.next),
                    18.0,
                ));
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    let size = egui::vec2(140.0, 44.0);
                    if ui
                        .add(egui::Button::new(s.table_view.table_view).min_size(size))
                        .on_hover_text("F5")
                        .clicked()
                    {
                        actions.push(Action::Show(View::Table));
                    }
                    let primary = if snap.phase == Phase::Idle {
                        s.timer.start
                    } else {
                        s.timer.end_turn
                    };
                    let end = ui.add(egui::Button::new(primary).min_size(size));
                    if end.clicked() && !input.activation_click {
                        actions.push(Action::Timer(TimerCommand::Primary));
                    }
                });
            });
        });
    }

    /// The refusal of the last request `view` made, if that is what was refused.
    fn refused_in(&self, view: View) -> Option<&str> {
        self.refused
            .as_ref()
            .filter(|r| r.view == view)
            .map(|r| r.why.as_str())
    }

    /// Draws one frame from the evening and returns what the views asked for.
    pub fn frame(&mut self, ui: &mut egui::Ui, evening: &Evening) -> Vec<Action> {
        let mut actions = Vec::new();
        let lang = evening.language();
        let s = lang.strings();
        evening.timer().pump();
        let input = self.table_input(ui, evening.now());
        // While the game form is open on the sheet, Enter is the form's: it saves (or says why
        // it cannot), never ends a turn.
        let form_open = self.view == View::Sheet && evening.draft().is_some();
        for (key, modifiers) in &input.keys {
            let plain = !modifiers.command && !modifiers.ctrl && !modifiers.alt;
            match key {
                egui::Key::Enter if plain && form_open => {
                    actions.push(Action::Evening(Command::SaveGame));
                }
                // The clock's keys work on every tab (not while typing: `keys` is empty then).
                egui::Key::Space | egui::Key::Enter if plain => {
                    actions.push(Action::Timer(TimerCommand::Primary));
                }
                egui::Key::P if plain => actions.push(Action::Timer(TimerCommand::TogglePause)),
                egui::Key::Z if modifiers.command && modifiers.shift => actions.push(Action::Redo),
                egui::Key::Z if modifiers.command => actions.push(Action::Undo),
                egui::Key::Y if modifiers.command => actions.push(Action::Redo),
                // Ctrl+N: a new game on the open sheet, from any tab.
                egui::Key::N if modifiers.command && self.view != View::Table => {
                    actions.push(Action::AddGame)
                }
                _ => {}
            }
        }
        // F-keys work whatever has the cursor (a text field does not take them).
        for key in fresh_function_keys(ui) {
            match key {
                egui::Key::F5 if self.view == View::Table => actions.push(Action::ExitTable),
                egui::Key::F5 => actions.push(Action::Show(View::Table)),
                egui::Key::F11 => actions.push(Action::ToggleFullscreen),
                egui::Key::F1 if self.view != View::Table => {
                    actions.push(Action::Show(View::Timer))
                }
                egui::Key::F2 if self.view != View::Table => actions.push(Action::Show(View::Meld)),
                egui::Key::F3 if self.view != View::Table => {
                    actions.push(Action::Show(View::Sheet))
                }
                egui::Key::F4 if self.view != View::Table => {
                    actions.push(Action::Show(View::Settings))
                }
                egui::Key::F6 if self.view != View::Table => {
                    actions.push(Action::Show(View::Event))
                }
                _ => {}
            }
        }
        if self.view == View::Table {
            let snap = evening.timer().read(ClockSnapshot::read);
            let face_to_face = evening.settings().face_to_face;
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
                    (View::Timer, s.tabs.tab_timer, egui::Key::F1),
                    (View::Meld, s.tabs.tab_meld, egui::Key::F2),
                    (View::Sheet, s.tabs.tab_sheet, egui::Key::F3),
                    (View::Settings, s.tabs.tab_settings, egui::Key::F4),
                    (
                        View::Event,
                        i18n::event::window::TAB.get(lang),
                        egui::Key::F6,
                    ),
                    (View::Table, s.table_view.table_view, egui::Key::F5),
                ] {
                    let text = egui::RichText::new(label).size(18.0);
                    let tab = ui
                        .add(
                            egui::Button::selectable(self.view == view, text)
                                .min_size(egui::vec2(0.0, 32.0)),
                        )
                        .on_hover_text(key.name());
                    if tab.clicked() {
                        actions.push(Action::Show(view));
                    }
                }
            });
        });
        if self.view != View::Timer {
            self.clock_strip(ui, evening, &input, &mut actions);
        }
        match crate::ui::notices::ui(
            ui,
            lang,
            evening.notices(),
            evening.now(),
            evening.not_saving(),
            self.notices_unfolded,
        ) {
            Some(NoticeClick::Dismiss(i)) => actions.push(Action::Evening(Command::Dismiss(i))),
            Some(NoticeClick::OpenFolder(folder)) => actions.push(Action::OpenFolder(folder)),
            Some(NoticeClick::Unfold(on)) => self.notices_unfolded = on,
            None => {}
        }
        let refused_timer = self.refused_in(View::Timer).map(str::to_owned);
        let refused_sheet = self.refused_in(View::Sheet).map(str::to_owned);
        egui::CentralPanel::default().show(ui, |ui| {
            // The event has no undo of the evening's (a correction is how a result changes),
            // nor has the meld tab: an undo there only says so.
            if self.view != View::Meld && self.view != View::Event {
                self.undo_bar(ui, evening, &mut actions);
            } else if let Some(note) = self.undo_note_in(lang) {
                ui.add(
                    egui::Label::new(egui::RichText::new(note).color(crate::ui::clock::AMBER))
                        .wrap(),
                );
            }
            // The timer lays itself out to fit the window (its seats scroll on their own).
            if self.view == View::Timer {
                let commands = self.timer_view.ui(
                    ui,
                    lang,
                    evening.timer(),
                    evening.settings().rules.tile_set,
                    &input,
                    refused_timer.as_deref(),
                );
                actions.extend(commands.into_iter().map(Action::Timer));
                return;
            }
            // The sheet scrolls its own body under a toolbar that stays; the others scroll whole.
            if self.view == View::Sheet {
                let record = self.showing_history.then(|| evening.history());
                let context = SheetContext {
                    settings_rules: &evening.settings().rules,
                    plan: evening.settings().new_sheet,
                    past: evening.past(),
                    open: evening.sheet_id(),
                    draft: evening.draft(),
                    history: record.as_ref().map(|r| r.as_deref()),
                    merged: &evening.settings().merged_names,
                    choosing_where_to_save: self.save_as.is_some(),
                    refused: refused_sheet.as_deref(),
                };
                let requests =
                    self.sheet_view
                        .ui(ui, lang, evening.sheet(), &context, evening.now());
                actions.extend(requests.into_iter().map(Action::Sheet));
                return;
            }
            egui::ScrollArea::vertical().show(ui, |ui| match self.view {
                View::Timer | View::Sheet => {}
                View::Event => {
                    let refused = self.refused_in(View::Event).map(str::to_owned);
                    let note = self.event_note.as_ref().map(|n| n.worded(lang));
                    let mut club = self.club.lock();
                    club.set_language(lang);
                    let open = club.open_event().map(|(id, e)| (id.clone(), Arc::clone(e)));
                    let known = club.known();
                    let saving = club.saving();
                    let export = club.export_report();
                    let notices: Vec<String> = club
                        .notices()
                        .iter()
                        .map(|n| crate::club::words::notice(lang, n))
                        .collect();
                    let at_play = club.tables_at_play().cloned();
                    let hosting = club.hosting().map(str::to_owned);
                    let listing = club.listing();
                    let seasons = club.seasons();
                    let season_report = club.season_report();
                    let shown_season = club.shown_season().cloned();
                    drop(club);
                    let context = crate::ui::event_view::EventContext {
                        open: open.as_ref().map(|(id, event)| (id, &**event)),
                        known: &known,
                        listing,
                        saving: &saving,
                        export: export.as_ref(),
                        notices: &notices,
                        refused: refused.as_deref(),
                        marked: self.event_marked.as_ref(),
                        at_play: at_play.as_ref(),
                        note: note.as_deref(),
                        hosting: hosting.as_deref(),
                        round_minutes: evening.settings().event_round_minutes,
                        season: crate::ui::season_view::SeasonContext {
                            seasons: &seasons,
                            report: season_report.as_ref(),
                            shown: shown_season.as_ref(),
                        },
                    };
                    let requests = self.event_view.ui(ui, lang, &context);
                    actions.extend(requests.into_iter().map(Action::Event));
                }
                View::Meld => {
                    self.meld.ui(ui, lang, &evening.settings().rules);
                    // The tab's choices are the table's: kept in the settings.
                    let choices = self.meld.choices();
                    if choices != evening.settings().meld {
                        let settings = crate::evening::Settings {
                            meld: choices,
                            ..evening.settings().clone()
                        };
                        actions.push(Action::Settings(settings));
                    }
                }
                View::Settings => {
                    match self.settings_view.ui(
                        ui,
                        evening.settings(),
                        evening.store_dir(),
                        evening.phones(),
                        evening.voice().speaker().engine(),
                    ) {
                        Some(SettingsRequest::Change(new)) => actions.push(Action::Settings(new)),
                        Some(SettingsRequest::TestSound) => actions.push(Action::TestSound),
                        Some(SettingsRequest::TestVoice(lang)) => {
                            actions.push(Action::Evening(Command::TestVoice(lang)))
                        }
                        Some(SettingsRequest::Phones(on)) => actions.push(Action::Phones(on)),
                        Some(SettingsRequest::NewLink) => {
                            actions.push(Action::Evening(Command::NewLink))
                        }
                        Some(SettingsRequest::ChooseAddress(ip)) => {
                            actions.push(Action::Evening(Command::ChooseAddress(ip)))
                        }
                        Some(SettingsRequest::FindAddresses) => {
                            actions.push(Action::Evening(Command::FindAddresses))
                        }
                        None => {}
                    }
                }
                View::Table => {}
            });
        });
        actions
    }
}

/// The function keys pressed afresh this frame (held keys repeat nothing), whether or not a
/// text field has the cursor.
fn fresh_function_keys(ui: &egui::Ui) -> Vec<egui::Key> {
    use egui::Key::{F1, F2, F3, F4, F5, F6, F11};
    ui.input(|i| {
        i.events
            .iter()
            .filter_map(|e| match e {
                egui::Event::Key {
                    key,
                    pressed: true,
                    repeat: false,
                    ..
                } if [F1, F2, F3, F4, F5, F6, F11].contains(key) => Some(*key),
                _ => None,
            })
            .collect()
    })
}
