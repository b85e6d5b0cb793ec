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

/// The room kept for the time-up penalty under the clock (two lines of large type).
const PENALTY_HEIGHT: f32 = 84.0;

/// The smallest size of the seat list's buttons (for touch laptops).
const SMALL: egui::Vec2 = egui::vec2(32.0, 32.0);

fn secs_1(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f32())
}

impl TimerView {
    /// Draws the view and returns the commands the user gave. `tile_set` is the set the
    /// table's rules name; `refused` is why the evening refused the view's last request, if it
    /// did.
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
        let s = lang.strings();
        let snap = rt.read(ClockSnapshot::read);
        let mut commands = Vec::new();

        // Keys (Space, Enter and P work on every tab: the app reads those); fresh presses only.
        if input.pressed(egui::Key::Backspace) {
            commands.push(TimerCommand::Undo);
        }
        // The click that brings the window to the front is not a turn end.
        let clicked = |r: &egui::Response| r.clicked() && !input.activation_click;

        // Who plays: readable from across the table.
        ui.vertical_centered(|ui| {
            ui.label(
                RichText::new(format!("{} · {}", s.timer.now_playing, snap.current))
                    .size(48.0)
                    .strong(),
            );
            ui.label(
                RichText::new(format!("{}: {}", s.timer.next_player, snap.next))
                    .size(28.0)
                    .color(ui.visuals().text_color()),
            );
        });

        // The clock: a big button-like area, growing with the window (full screen included).
        let height = (ui.available_height() * 0.5).max(160.0);
        let (rect, response) =
            ui.allocate_exact_size(Vec2::new(ui.available_width(), height), Sense::click());
        let label = snap.accessible_name(lang);
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
        if clicked(&response) {
            commands.push(TimerCommand::Primary);
        }
        let normal = ui.visuals().strong_text_color();
        clock::paint_face(ui.painter(), rect, &snap, lang, normal, false, false);

        // The penalty's place is kept whether or not time is up, so time-up moves no button
        // from under a finger.
        let penalty_room = egui::vec2(ui.available_width(), PENALTY_HEIGHT);
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
                            .size(30.0)
                            .color(RED)
                            .strong(),
                    );
                    ui.label(
                        RichText::new((s.timer.penalty_rearranging)(p.draw_if_table_invalid))
                            .size(22.0),
                    );
                }
            },
        );

        // Buttons keep their size whatever their label says, so none moves under the pointer.
        let wide = |text: &str| {
            egui::Button::new(RichText::new(text).size(20.0)).min_size(Vec2::new(170.0, 44.0))
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
        ui.label(
            RichText::new(format!(
                "{} · {}",
                s.timer.click_clock_hint, s.timer.keys_hint
            ))
            .weak(),
        );
        ui.separator();

        ui.columns(2, |cols| {
            if let Some(c) = self.players_ui(&mut cols[0], lang, &snap, refused) {
                commands.push(c);
            }
            // More players than the standard set is for: one click to the XP set.
            let seated = self.names.len();
            if seated > STANDARD_SET_PLAYERS && tile_set == TileSet::Standard {
                let ui = &mut cols[0];
                ui.colored_label(clock::AMBER, (s.timer.xp_suggested)(seated));
                let button = egui::Button::new(s.timer.use_xp_set).min_size(SMALL);
                if ui.add(button).clicked() {
                    commands.push(TimerCommand::UseXpSet);
                }
            }
            stats_ui(&mut cols[1], lang, &snap);
        });
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

    fn players_ui(
        &mut self,
        ui: &mut Ui,
        lang: Language,
        snap: &ClockSnapshot,
        refused: Option<&str>,
    ) -> Option<TimerCommand> {
        let s = lang.strings();
        let focused = ui.ctx().egui_wants_keyboard_input();
        if !focused && self.names != snap.players {
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
        for (i, name) in self.names.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                ui.label(format!("{}.", i + 1));
                let label = (s.timer.default_player)(i + 1);
                let edit = ui.add_sized([160.0, 32.0], egui::TextEdit::singleline(name));
                edit.widget_info(|| egui::WidgetInfo::labeled(egui::Role::TextInput, true, &label));
                committed |= edit.lost_focus();
                ui.add_enabled_ui(seats_editable, |ui| {
                    let up = egui::Button::new("↑").min_size(SMALL);
                    if i > 0 && ui.add(up).on_hover_text(s.timer.move_up).clicked() {
                        move_up = Some(i);
                    }
                    let gone = egui::Button::new("×").min_size(SMALL);
                    if ui.add(gone).on_hover_text(s.timer.remove_player).clicked() {
                        remove = Some(i);
                    }
                });
            });
        }
        ui.add_enabled_ui(seats_editable, |ui| {
            if self.names.len() < 6 {
                // The second click of a double-click is not a second player.
                let button = egui::Button::new(s.timer.add_player).min_size(egui::vec2(0.0, 32.0));
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
