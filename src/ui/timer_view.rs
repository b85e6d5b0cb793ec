//! Timer view: a clock readable across the table, one key to pass the turn.
//!
//! The view reads the timer through the runtime at the runtime's clock and returns commands;
//! the app carries them out. Colours carry the state for players who are not listening:
//! amber from the warning on, red (flashing) at time-up.

use std::time::Duration;

use egui::{RichText, Sense, Ui, Vec2};

use super::clock::{self, ClockSnapshot, RED};

use crate::i18n;
use crate::lang::Language;
use crate::runtime::TimerRuntime;
use crate::score::STANDARD_SET_PLAYERS;
use crate::tile::TileSet;
use crate::timer::Phase;

/// What the timer view asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimerCommand {
    /// Start the first turn, or end the current one and start the next player's.
    Primary,
    /// Pause or resume.
    TogglePause,
    /// Take back the last change (the evening's undo).
    Undo,
    /// New game: clear the turn and statistics.
    Reset,
    /// Replace the players (seat order): players added, removed or moved.
    SetPlayers(Vec<String>),
    /// Rename the player in this seat; they keep their seat, statistics and turn.
    Rename(usize, String),
    /// Play the XP set: offered when more players sit than the standard set is for.
    UseXpSet,
}

/// This frame's input as the table's controls need it, read once by the app.
#[derive(Clone, Debug, Default)]
pub struct TableInput {
    /// Keys pressed afresh (no key-repeats, no keys already held), unless a text field has
    /// the keyboard.
    pub keys: Vec<(egui::Key, egui::Modifiers)>,
    /// A click now would be the one that brought the window to the front.
    pub activation_click: bool,
}

impl TableInput {
    /// Whether `key` was pressed afresh (without Ctrl/Cmd).
    pub fn pressed(&self, key: egui::Key) -> bool {
        self.keys
            .iter()
            .any(|(k, m)| *k == key && !m.command && !m.ctrl)
    }
}

/// The view's own state: the player names being edited.
#[derive(Debug, Default)]
pub struct TimerView {
    names: Vec<String>,
    /// The names the last refusal was about: it is shown until they are edited.
    refused_names: Option<Vec<String>>,
    /// When (egui's input time) "Add player" was last clicked: a click within a double-click's
    /// delay of the one before is the same gesture, not another player.
    add_clicked_at: Option<f64>,
}

/// The sizes of the time-up penalty's two lines under the clock.
const PENALTY_SIZES: (f32, f32) = (30.0, 20.0);

/// The size of the seat list's buttons and fields: a touch target ([`super::TOUCH`]).
const SEAT: egui::Vec2 = egui::vec2(super::TOUCH, super::TOUCH);

/// The narrowest window that shows the clock beside the seats; narrower, they are stacked.
const SIDE_BY_SIDE: f32 = 760.0;

/// The width of the seats' column beside the clock.
const SEATS_WIDTH: f32 = 350.0;

/// The id of seat `i`'s name field (Enter moves the cursor to the next one).
fn name_field(i: usize) -> egui::Id {
    egui::Id::unique(("timer-seat-name", i))
}

fn secs_1(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f32())
}

/// How tall the penalty's lines (or a chess clock's flag lines) are at this width: the room
/// kept for them under the clock at all times.
fn penalty_room(ui: &Ui, lang: Language, snap: &ClockSnapshot) -> f32 {
    let s = lang.strings();
    let width = ui.available_width();
    let gap = ui.spacing().item_spacing.y;
    let height = |text: &str, size: f32| {
        ui.painter()
            .layout(
                text.to_owned(),
                egui::FontId::proportional(size),
                egui::Color32::WHITE,
                width,
            )
            .size()
            .y
            + gap
    };
    let penalty = crate::timer::Penalty::RULES;
    let lines = height(&(s.timer.penalty_draw)(penalty.draw), PENALTY_SIZES.0)
        + height(
            &(s.timer.penalty_rearranging)(penalty.draw_if_table_invalid),
            PENALTY_SIZES.1,
        );
    let flags: f32 = snap
        .flag_lines(lang)
        .iter()
        .enumerate()
        .map(|(k, line)| height(line, if k == 0 { 28.0 } else { 20.0 }))
        .sum();
    lines.max(flags).ceil()
}

/// A fresh (not repeated) press of Enter without modifiers in this frame's events.
fn enter_pressed(ui: &Ui) -> bool {
    ui.input(|i| {
        i.events.iter().any(|e| {
            matches!(
                e,
                egui::Event::Key {
                    key: egui::Key::Enter,
                    pressed: true,
                    repeat: false,
                    modifiers,
                    ..
                } if modifiers.is_none()
            )
        })
    })
}

/// The largest size up to `max` (not below `min`) at which `text` fits `width` on one line.
fn fitting_size(ui: &Ui, text: &str, width: f32, max: f32, min: f32) -> f32 {
    let galley = ui.painter().layout_no_wrap(
        text.to_owned(),
        egui::FontId::proportional(max),
        egui::Color32::WHITE,
    );
    let wide = galley.size().x;
    if wide <= width || wide <= 0.0 {
        max
    } else {
        (max * width / wide).max(min)
    }
}

impl TimerView {
    /// Draws the view and returns the commands the user gave. `tile_set` is the set the
    /// table's rules name; `refused` is why the evening refused the view's last request, if it
    /// did.
    ///
    /// The clock, whose turn it is and every seat with "Add player" fit the window together
    /// (960×720 with two notices, and 800×600): beside each other from [`SIDE_BY_SIDE`] wide,
    /// the seats scrolling on their own when there are many; stacked (the whole view
    /// scrolling) in a narrower window.
    #[must_use]
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        lang: Language,
        rt: &TimerRuntime,
        tile_set: TileSet,
        input: &TableInput,
        refused: Option<&str>,
    ) -> Vec<TimerCommand> {
        let snap = rt.read(ClockSnapshot::read);
        let mut commands = Vec::new();

        // Keys (Space, Enter and P work on every tab: the app reads those); fresh presses only.
        if input.pressed(egui::Key::Backspace) {
            commands.push(TimerCommand::Undo);
        }
        if ui.available_width() >= SIDE_BY_SIDE {
            let height = ui.available_height();
            let clock_width = ui.available_width() - SEATS_WIDTH - 16.0;
            ui.horizontal_top(|ui| {
                ui.allocate_ui_with_layout(
                    egui::vec2(clock_width, height),
                    egui::Layout::top_down(egui::Align::Center),
                    |ui| {
                        ui.set_min_size(egui::vec2(clock_width, height));
                        self.clock_ui(ui, lang, &snap, input, &mut commands);
                    },
                );
                ui.separator();
                ui.allocate_ui_with_layout(
                    egui::vec2(ui.available_width(), height),
                    egui::Layout::top_down(egui::Align::Min),
                    |ui| {
                        egui::ScrollArea::vertical()
                            .id_salt("timer-seats")
                            .auto_shrink([false, false])
                            .show(ui, |ui| {
                                self.seats_ui(ui, lang, &snap, tile_set, refused, &mut commands);
                            });
                    },
                );
            });
        } else {
            egui::ScrollArea::vertical()
                .id_salt("timer-stacked")
                .show(ui, |ui| {
                    ui.vertical_centered(|ui| {
                        self.clock_ui(ui, lang, &snap, input, &mut commands);
                    });
                    ui.separator();
                    self.seats_ui(ui, lang, &snap, tile_set, refused, &mut commands);
                });
        }
        // Space on a focused button clicks it *and* is our key: one end of turn, not two.
        let mut seen = Vec::new();
        commands.retain(|c| {
            let first = !seen.contains(c);
            seen.push(c.clone());
            first
        });
        // A name typed just before Start (or End turn) is committed first, not thrown away.
        if commands.contains(&TimerCommand::Primary)
            && let Some(pending) = self.pending_players(&snap.players)
        {
            commands
                .retain(|c| !matches!(c, TimerCommand::Rename(..) | TimerCommand::SetPlayers(_)));
            commands.splice(0..0, pending);
        }
        commands
    }

    /// Whose turn, who is next, the clock (growing into the room left), the penalty's kept
    /// room, the clock's buttons and the keys.
    fn clock_ui(
        &mut self,
        ui: &mut Ui,
        lang: Language,
        snap: &ClockSnapshot,
        input: &TableInput,
        commands: &mut Vec<TimerCommand>,
    ) {
        let s = lang.strings();
        // The click that brings the window to the front is not a turn end.
        let clicked = |r: &egui::Response| r.clicked() && !input.activation_click;
        // Who plays: readable from across the table (smaller only when a long name needs it).
        let width = ui.available_width();
        let now = format!("{} · {}", s.timer.now_playing, snap.current);
        ui.label(
            RichText::new(&now)
                .size(fitting_size(ui, &now, width, 48.0, 24.0))
                .strong(),
        );
        let next = format!("{}: {}", s.timer.next_player, snap.next);
        ui.label(
            RichText::new(&next)
                .size(fitting_size(ui, &next, width, 28.0, 18.0))
                .color(ui.visuals().text_color()),
        );

        // The penalty's room, as tall as its lines are at this width whether or not time is
        // up, so time-up moves no button from under a finger.
        let penalty_height = penalty_room(ui, lang, snap);
        // The clock: a big button-like area, taking the room the rest leaves (full screen
        // included).
        let below = penalty_height + 44.0 + ui.spacing().item_spacing.y * 3.0 + 40.0;
        let height = (ui.available_height() - below).max(140.0);
        let (rect, response) =
            ui.allocate_exact_size(Vec2::new(ui.available_width(), height), Sense::click());
        let label = snap.accessible_name(lang);
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
        if clicked(&response) {
            commands.push(TimerCommand::Primary);
        }
        let normal = ui.visuals().strong_text_color();
        clock::paint_face(ui.painter(), rect, snap, lang, normal, false, false);

        let penalty_room = egui::vec2(ui.available_width(), penalty_height);
        ui.allocate_ui_with_layout(
            penalty_room,
            egui::Layout::top_down(egui::Align::Center),
            |ui| {
                ui.set_min_size(penalty_room);
                for (k, line) in snap.flag_lines(lang).iter().enumerate() {
                    let text = RichText::new(line).size(if k == 0 { 28.0 } else { 20.0 });
                    ui.label(if k == 0 {
                        text.color(RED).strong()
                    } else {
                        text
                    });
                }
                if let Some(p) = snap.penalty {
                    ui.label(
                        RichText::new((s.timer.penalty_draw)(p.draw))
                            .size(PENALTY_SIZES.0)
                            .color(RED)
                            .strong(),
                    );
                    ui.label(
                        RichText::new((s.timer.penalty_rearranging)(p.draw_if_table_invalid))
                            .size(PENALTY_SIZES.1),
                    );
                }
            },
        );

        // Buttons keep their size whatever their label says, so none moves under the pointer.
        let width = ((ui.available_width() - 2.0 * ui.spacing().item_spacing.x) / 3.0).min(170.0);
        let wide = |text: &str| {
            egui::Button::new(RichText::new(text).size(20.0)).min_size(Vec2::new(width, 44.0))
        };
        ui.horizontal(|ui| {
            let primary = if snap.phase == Phase::Idle {
                s.timer.start
            } else {
                s.timer.end_turn
            };
            if clicked(&ui.add(wide(primary))) {
                commands.push(TimerCommand::Primary);
            }
            let pause = if snap.phase == Phase::Paused {
                s.timer.resume
            } else {
                s.timer.pause
            };
            if ui
                .add_enabled(snap.phase != Phase::Idle, wide(pause))
                .clicked()
            {
                commands.push(TimerCommand::TogglePause);
            }
            if ui.add(wide(s.timer.reset)).clicked() {
                commands.push(TimerCommand::Reset);
            }
        });
        ui.add(
            egui::Label::new(
                RichText::new(format!(
                    "{} · {}",
                    s.timer.click_clock_hint, s.timer.keys_hint
                ))
                .weak(),
            )
            .wrap(),
        );
    }

    /// The seats (names, seat controls, "Add player", the XP offer) and the statistics.
    fn seats_ui(
        &mut self,
        ui: &mut Ui,
        lang: Language,
        snap: &ClockSnapshot,
        tile_set: TileSet,
        refused: Option<&str>,
        commands: &mut Vec<TimerCommand>,
    ) {
        let s = lang.strings();
        if let Some(c) = self.players_ui(ui, lang, snap, refused) {
            commands.push(c);
        }
        // More players than the standard set is for: one click to the XP set.
        let seated = self.names.len();
        if seated > STANDARD_SET_PLAYERS && tile_set == TileSet::Standard {
            ui.colored_label(clock::AMBER, (s.timer.xp_suggested)(seated));
            let button = egui::Button::new(s.timer.use_xp_set)
                .min_size(egui::vec2(0.0, super::TOUCH))
                .sense(Sense::CLICK);
            if ui.add(button).clicked() {
                commands.push(TimerCommand::UseXpSet);
            }
        }
        ui.add_space(6.0);
        stats_ui(ui, lang, snap);
    }

    /// The commands that would make the edited names the timer's players.
    fn pending_players(&self, players: &[String]) -> Option<Vec<TimerCommand>> {
        if self.names == players {
            return None;
        }
        let renamed: Vec<usize> = (0..players.len())
            .filter(|&i| self.names.get(i) != players.get(i))
            .collect();
        Some(if self.names.len() == players.len() && renamed.len() == 1 {
            let seat = renamed[0];
            vec![TimerCommand::Rename(seat, self.names[seat].clone())]
        } else {
            vec![TimerCommand::SetPlayers(self.names.clone())]
        })
    }

    /// The seats: a name field each (Enter goes to the next seat's field, and leaves the last
    /// one: never a turn), and the seat controls (↑, ×, "Add player"), reached with the
    /// pointer only: they are not in the Tab order and no key presses them, so Tab from the
    /// last name then Space ends no seat's place (it starts the clock).
    fn players_ui(
        &mut self,
        ui: &mut Ui,
        lang: Language,
        snap: &ClockSnapshot,
        refused: Option<&str>,
    ) -> Option<TimerCommand> {
        let s = lang.strings();
        // While a name is being typed (or was, until the frame that commits it), the names
        // as typed stand; otherwise they follow the table.
        let editing = (0..self.names.len().max(snap.players.len())).any(|i| {
            let id = name_field(i);
            ui.memory(|m| m.has_focus(id) || m.had_focus_last_frame(id))
        });
        if !editing && self.names != snap.players {
            self.names = snap.players.clone();
        }
        ui.label(RichText::new(s.timer.players_heading).strong());
        // Names can be fixed at any time (the player keeps seat, statistics and turn); seats are
        // added, removed or moved only while the clock is stopped.
        let seats_editable = snap.phase != Phase::Running;
        let mut committed = false;
        let mut remove = None;
        let mut move_up = None;
        let mut add = false;
        let mut next_field = None;
        let seats = self.names.len();
        let enter = enter_pressed(ui);
        for (i, name) in self.names.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                ui.label(format!("{}.", i + 1));
                let label = (s.timer.default_player)(i + 1);
                let width = (ui.available_width() - 2.0 * (SEAT.x + 8.0)).clamp(120.0, 200.0);
                let edit = ui.add_sized(
                    [width, SEAT.y],
                    egui::TextEdit::singleline(name)
                        .id(name_field(i))
                        .font(egui::TextStyle::Heading)
                        .align(egui::Align2::LEFT_CENTER)
                        .return_key(None),
                );
                edit.widget_info(|| egui::WidgetInfo::labeled(egui::Role::TextInput, true, &label));
                committed |= edit.lost_focus();
                if edit.has_focus() && enter {
                    committed = true;
                    next_field = Some(i + 1);
                }
                ui.add_enabled_ui(seats_editable, |ui| {
                    let up = egui::Button::new("↑").min_size(SEAT).sense(Sense::CLICK);
                    if i > 0 {
                        let up = ui.add(up).on_hover_text(s.timer.move_up);
                        up.widget_info(|| {
                            egui::WidgetInfo::labeled(egui::Role::Button, true, s.timer.move_up)
                        });
                        if up.clicked() {
                            move_up = Some(i);
                        }
                    } else {
                        ui.add_space(SEAT.x + ui.spacing().item_spacing.x);
                    }
                    let gone = egui::Button::new("×").min_size(SEAT).sense(Sense::CLICK);
                    let gone = ui.add(gone).on_hover_text(s.timer.remove_player);
                    gone.widget_info(|| {
                        egui::WidgetInfo::labeled(egui::Role::Button, true, s.timer.remove_player)
                    });
                    if gone.clicked() {
                        remove = Some(i);
                    }
                });
            });
        }
        // Enter in a name: the next seat's name, all of it selected for typing over; after
        // the last seat the cursor leaves the names (the clock stays as it is).
        match next_field {
            Some(next) if next < seats => {
                let id = name_field(next);
                ui.memory_mut(|m| m.request_focus(id));
                let mut state =
                    egui::text_edit::TextEditState::load(ui.ctx(), id).unwrap_or_default();
                let all = egui::text::CCursorRange::select_all_str(&self.names[next]);
                state.cursor.set_char_range(Some(all));
                state.store(ui.ctx(), id);
            }
            Some(last) => {
                let id = name_field(last - 1);
                ui.memory_mut(|m| m.surrender_focus(id));
            }
            None => {}
        }
        ui.add_enabled_ui(seats_editable, |ui| {
            if self.names.len() < 6 {
                // The second click of a double-click is not a second player.
                let button = egui::Button::new(s.timer.add_player)
                    .min_size(egui::vec2(0.0, super::TOUCH))
                    .sense(Sense::CLICK);
                let added = ui.add(button);
                if added.clicked() {
                    let now = ui.input(|i| i.time);
                    let delay = ui.ctx().options(|o| o.input_options.max_double_click_delay);
                    add = self.add_clicked_at.is_none_or(|at| now - at > delay);
                    self.add_clicked_at = Some(now);
                }
            }
        });
        if add {
            let mut n = self.names.len() + 1;
            while self.names.contains(&(s.timer.default_player)(n)) {
                n += 1;
            }
            self.names.push((s.timer.default_player)(n));
            committed = true;
        }
        if let Some(i) = move_up {
            self.names.swap(i - 1, i);
            committed = true;
        }
        if let Some(i) = remove {
            self.names.remove(i);
            committed = true;
        }
        if refused.is_none() {
            self.refused_names = None;
        } else if self.refused_names.is_none() {
            self.refused_names = Some(self.names.clone());
        }
        if !seats_editable {
            ui.label(RichText::new(s.timer.players_fixed_while_running).weak());
        }
        // The names as typed, checked as the table will check them, before anything is sent.
        let problem = crate::score::check_seats(&self.names).err();
        if let Some(problem) = &problem {
            ui.colored_label(RED, i18n::seat_problem(lang, problem));
        } else if let Some(e) = refused
            && self.refused_names.as_ref() == Some(&self.names)
        {
            // Until the names are edited: the refusal is about them as they are.
            ui.colored_label(RED, e);
        }
        if !committed || problem.is_some() {
            return None;
        }
        self.pending_players(&snap.players)
            .and_then(|commands| commands.into_iter().next())
    }
}

fn stats_ui(ui: &mut Ui, lang: Language, snap: &ClockSnapshot) {
    let s = lang.strings();
    let chess = snap.banks.iter().any(Option::is_some);
    ui.label(RichText::new(s.timer.statistics).strong());
    egui::Grid::new("timer-stats").striped(true).show(ui, |ui| {
        for h in [
            s.timer.player,
            s.timer.turns,
            s.timer.total_time,
            s.timer.average_time,
            s.timer.time_outs,
        ] {
            ui.label(RichText::new(h).strong());
        }
        if chess {
            ui.label(RichText::new(s.chess.time_bank).strong());
        }
        ui.end_row();
        for (seat, (name, st)) in snap.stats.iter().enumerate() {
            ui.label(name);
            ui.label(st.turns.to_string());
            ui.label(format!("{}{}", secs_1(st.total), s.settings.seconds));
            ui.label(st.average().map_or("—".to_owned(), |a| {
                format!("{}{}", secs_1(a), s.settings.seconds)
            }));
            ui.label(st.timeouts.to_string());
            if let Some(Some(bank)) = snap.banks.get(seat) {
                if snap.flagged.get(seat).copied().unwrap_or(false) {
                    ui.label(RichText::new(s.chess.flagged).color(RED).strong());
                } else {
                    ui.label(clock::mm_ss(bank.as_secs()));
                }
            }
            ui.end_row();
        }
    });
}
