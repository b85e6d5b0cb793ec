//! Settings view: rules preset and every rule on its own, sound, language.
//!
//! The view edits a copy and hands it back when the edit is *committed*: a typed number when
//! Enter is pressed or the field is left, a slider when it is let go. Typing `15` therefore
//! never passes through a 1-second turn, and a drag does not save forty rule sets on its way.
//! The rules are checked as a whole before they are handed back; when a change of one value
//! has to move another (a warning longer than the new turn), the view says so.

use egui::{Color32, RichText, Ui};

use crate::evening::{PhoneLink, Settings};
use crate::i18n::{self, Strings};
use crate::lang::Language;
use crate::rules::{
    BANK_MINUTES, ClockMode, FinalRule, INCREMENT_SECONDS, Preset, RuleSet, TICK_SECONDS,
    TURN_SECONDS, WARNING_SECONDS,
};
use crate::speech::Engine;
use crate::speech::phrases::Kind;
use crate::tile::TileSet;

/// What the settings view asks the app to do.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingsRequest {
    /// Store these settings.
    Change(Settings),
    /// Play the three sounds.
    TestSound,
    /// Say a sample in this language.
    TestVoice(Language),
    /// Switch the phones' server on or off.
    Phones(bool),
    /// A new link for the phones (the old one stops working).
    NewLink,
    /// The link names this address of the laptop (the same secret).
    ChooseAddress(std::net::IpAddr),
    /// List the laptop's addresses again (the same secret).
    FindAddresses,
}

/// The view's own state: an edit not committed yet, and the last adjustment to tell about.
#[derive(Debug, Default)]
pub struct SettingsView {
    pending: Option<Settings>,
    /// A value moved to keep the rules valid: (warning, turn) seconds.
    adjusted: Option<(u32, u32)>,
    /// The warning chosen before a short turn moved it: it comes back when the turn is long
    /// enough again (a turn length typed through 5 on its way to 45 must not cost the table
    /// its warning).
    chosen_warning: Option<u32>,
}

/// Makes the rules valid as a whole: the warning and ticks come before the end of the turn.
/// Returns the new warning when it had to move.
fn fit_timer_values(rules: &mut RuleSet) -> Option<u32> {
    let limit = rules.turn_seconds.saturating_sub(1);
    rules.tick_seconds = rules.tick_seconds.min(limit);
    (rules.warning_seconds > limit).then(|| {
        rules.warning_seconds = limit;
        limit
    })
}

impl SettingsView {
    /// Draws the settings; returns a request when a change is committed.
    #[must_use]
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        settings: &Settings,
        saved_in: Option<&std::path::Path>,
        phones: &PhoneLink,
        engine: Option<Engine>,
    ) -> Option<SettingsRequest> {
        let mut new = self.pending.take().unwrap_or_else(|| settings.clone());
        // The phones first: the QR code is what the table looks for here.
        if let Some(request) = phones_ui(ui, &mut new, phones) {
            return Some(request);
        }
        ui.separator();
        let saved_in = saved_in.map(|p| p.display().to_string());
        let test_sound = draw(ui, &mut new, saved_in.as_deref(), self.adjusted);
        if test_sound {
            return Some(SettingsRequest::TestSound);
        }
        ui.separator();
        if let Some(lang) = voice_ui(ui, &mut new, engine) {
            return Some(SettingsRequest::TestVoice(lang));
        }
        // Commit only when no field is being typed in and no slider is held.
        let editing = ui.ctx().egui_wants_keyboard_input() || ui.input(|i| i.pointer.any_down());
        if new == *settings {
            return None;
        }
        if editing {
            self.pending = Some(new);
            return None;
        }
        if new.rules.warning_seconds != settings.rules.warning_seconds {
            // Chosen by hand now: nothing to give back.
            self.chosen_warning = None;
        }
        if new.rules.turn_seconds != settings.rules.turn_seconds
            || new.rules.warning_seconds != settings.rules.warning_seconds
        {
            self.adjusted = None;
            if let Some(chosen) = self.chosen_warning
                && chosen < new.rules.turn_seconds
            {
                new.rules.warning_seconds = chosen;
                self.chosen_warning = None;
            }
        }
        let chosen = new.rules.warning_seconds;
        if let Some(warning) = fit_timer_values(&mut new.rules) {
            self.adjusted = Some((warning, new.rules.turn_seconds));
            self.chosen_warning.get_or_insert(chosen);
        }
        Some(SettingsRequest::Change(new))
    }
}

/// Draws the settings into `new`; returns whether "Test sounds" was clicked.
fn draw(
    ui: &mut Ui,
    new: &mut Settings,
    saved_in: Option<&str>,
    adjusted: Option<(u32, u32)>,
) -> bool {
    let s = new.language.strings();
    let mut test_sound = false;
    egui::Grid::new("settings")
        .num_columns(2)
        .spacing([24.0, 10.0])
        .show(ui, |ui| {
            ui.label(s.settings.language);
            ui.horizontal(|ui| {
                for lang in Language::ALL {
                    ui.selectable_value(&mut new.language, lang, lang.native_name());
                }
            });
            ui.end_row();

            ui.label(s.settings.preset);
            ui.horizontal(|ui| {
                for preset in Preset::ALL {
                    let name = match preset {
                        Preset::Korean => s.settings.preset_korean,
                        Preset::English => s.settings.preset_english,
                        Preset::Tournament => s.settings.preset_tournament,
                    };
                    // A preset sets the game's rules; the table's set and clock stay.
                    let target = RuleSet {
                        tile_set: new.rules.tile_set,
                        clock_mode: new.rules.clock_mode,
                        bank_minutes: new.rules.bank_minutes,
                        increment_seconds: new.rules.increment_seconds,
                        ..preset.rules()
                    };
                    let selected = new.rules == target;
                    let mut button = ui.selectable_label(selected, name);
                    // Before the click, say what it would change.
                    let changes = i18n::rule_changes(new.language, &new.rules, &target);
                    if !changes.is_empty() {
                        button = button.on_hover_text(changes.join("\n"));
                    }
                    if button.clicked() {
                        new.rules = target;
                    }
                }
                let matches_one = Preset::ALL.iter().any(|p| {
                    let r = p.rules();
                    RuleSet {
                        tile_set: new.rules.tile_set,
                        clock_mode: new.rules.clock_mode,
                        bank_minutes: new.rules.bank_minutes,
                        increment_seconds: new.rules.increment_seconds,
                        ..r
                    } == new.rules
                });
                if !matches_one {
                    ui.label(RichText::new(s.settings.preset_custom).italics());
                }
            });
            ui.end_row();

            let r = &mut new.rules;
            ui.label(s.chess.clock_mode);
            ui.vertical(|ui| {
                ui.horizontal(|ui| {
                    ui.radio_value(&mut r.clock_mode, ClockMode::PerTurn, s.chess.per_turn);
                    ui.radio_value(
                        &mut r.clock_mode,
                        ClockMode::ChessClock,
                        s.chess.chess_clock,
                    );
                });
                if r.clock_mode == ClockMode::ChessClock {
                    ui.horizontal(|ui| {
                        let label = ui.label(s.chess.time_bank);
                        ui.add(
                            egui::DragValue::new(&mut r.bank_minutes)
                                .range(BANK_MINUTES)
                                .suffix(s.chess.minutes)
                                .update_while_editing(false),
                        )
                        .labelled_by(label.id);
                        let label = ui.label(s.chess.increment);
                        ui.add(
                            egui::DragValue::new(&mut r.increment_seconds)
                                .range(INCREMENT_SECONDS)
                                .suffix(s.settings.seconds)
                                .update_while_editing(false),
                        )
                        .labelled_by(label.id);
                    });
                }
                ui.label(RichText::new(s.chess.clock_mode_next_game).weak());
            });
            ui.end_row();
            // A chess clock has banks, not a turn length: the field would mean nothing there.
            if r.clock_mode == ClockMode::PerTurn {
                seconds_row(
                    ui,
                    s.settings.turn_length,
                    &mut r.turn_seconds,
                    TURN_SECONDS,
                    s,
                );
            }
            seconds_row(
                ui,
                s.settings.warning_time,
                &mut r.warning_seconds,
                WARNING_SECONDS,
                s,
            );
            seconds_row(
                ui,
                s.settings.tick_time,
                &mut r.tick_seconds,
                TICK_SECONDS,
                s,
            );
            if let Some((warning, turn)) = adjusted {
                ui.label("");
                ui.label(RichText::new((s.table.warning_adjusted)(warning, turn)).italics());
                ui.end_row();
            }

            let label = ui.label(s.settings.volume);
            ui.horizontal(|ui| {
                ui.add(egui::Slider::new(&mut new.volume, 0.0..=1.0).show_value(false))
                    .labelled_by(label.id);
                ui.checkbox(&mut new.muted, s.settings.mute);
                test_sound = ui.button(s.settings.test_sound).clicked();
            });
            ui.end_row();

            let r = &mut new.rules;
            let label = ui.label(s.settings.threshold);
            ui.add(
                egui::DragValue::new(&mut r.meld_threshold)
                    .range(0..=200)
                    .update_while_editing(false),
            )
            .labelled_by(label.id);
            ui.end_row();

            ui.label("");
            ui.checkbox(&mut r.jokers_in_initial_meld, s.settings.jokers_in_meld);
            ui.end_row();

            let label = ui.label(s.settings.joker_penalty);
            ui.add(
                egui::DragValue::new(&mut r.joker_penalty)
                    .range(0..=200)
                    .update_while_editing(false),
            )
            .labelled_by(label.id);
            ui.end_row();

            let label = ui.label(s.settings.not_melded);
            ui.horizontal(|ui| {
                let mut flat = r.not_melded_value.is_some();
                ui.radio_value(&mut flat, false, s.settings.not_melded_rack);
                ui.radio_value(&mut flat, true, s.settings.not_melded_flat);
                match (flat, r.not_melded_value) {
                    (false, _) => r.not_melded_value = None,
                    (true, None) => r.not_melded_value = Some(100),
                    (true, Some(mut v)) => {
                        ui.add(
                            egui::DragValue::new(&mut v)
                                .range(0..=500)
                                .update_while_editing(false),
                        )
                        .labelled_by(label.id);
                        r.not_melded_value = Some(v);
                    }
                }
            });
            ui.end_row();

            ui.label(s.settings.final_rule);
            ui.vertical(|ui| {
                ui.radio_value(&mut r.final_rule, FinalRule::Total, s.settings.final_total);
                ui.radio_value(&mut r.final_rule, FinalRule::Wins, s.settings.final_wins);
            });
            ui.end_row();

            ui.label(s.settings.tile_set);
            ui.vertical(|ui| {
                ui.radio_value(
                    &mut r.tile_set,
                    TileSet::Standard,
                    s.settings.tile_set_standard,
                );
                ui.radio_value(&mut r.tile_set, TileSet::Xp, s.settings.tile_set_xp);
            });
            ui.end_row();
        });
    ui.add_space(8.0);
    ui.label(RichText::new(s.settings.settings_next_turn).weak());
    if let Some(path) = saved_in {
        ui.label(RichText::new((s.settings.settings_saved_in)(path)).weak());
    }
    test_sound
}

/// The voice: on or off, its volume, each kind of happening, "Test voice" per language, and
/// how each seat's name is said. Returns the language whose test was clicked.
fn voice_ui(ui: &mut Ui, new: &mut Settings, engine: Option<Engine>) -> Option<Language> {
    let lang = new.language;
    let mut test = None;
    ui.label(
        RichText::new(i18n::speech::HEADING.get(lang))
            .strong()
            .size(18.0),
    );
    ui.checkbox(&mut new.voice.on, i18n::speech::ON.get(lang));
    ui.label(RichText::new(i18n::speech::engine_line(lang, engine)).weak());
    ui.add_enabled_ui(new.voice.on, |ui| {
        ui.horizontal(|ui| {
            let label = ui.label(i18n::speech::VOLUME.get(lang));
            ui.add(egui::Slider::new(&mut new.voice.volume, 0.0..=1.0).show_value(false))
                .labelled_by(label.id);
        });
        ui.horizontal_wrapped(|ui| {
            for kind in Kind::ALL {
                ui.checkbox(new.voice.kind_mut(kind), i18n::speech::kind(lang, kind));
            }
        });
    });
    ui.horizontal(|ui| {
        for spoken in Language::ALL {
            if ui.button(i18n::speech::test_button(lang, spoken)).clicked() {
                test = Some(spoken);
            }
        }
    });
    ui.add_space(4.0);
    ui.label(i18n::speech::SPOKEN_NAMES.get(lang));
    ui.label(RichText::new(i18n::speech::SPOKEN_HINT.get(lang)).weak());
    egui::Grid::new("spoken-names")
        .num_columns(2)
        .spacing([24.0, 6.0])
        .show(ui, |ui| {
            for name in new.players.clone() {
                let label = ui.label(&name);
                let mut said = new.spoken.get(&name).cloned().unwrap_or_default();
                let field = ui
                    .add(egui::TextEdit::singleline(&mut said).desired_width(200.0))
                    .labelled_by(label.id);
                if field.changed() {
                    if said.is_empty() {
                        new.spoken.remove(&name);
                    } else {
                        new.spoken.insert(name.clone(), said);
                    }
                }
                ui.end_row();
            }
        });
    test
}

/// The phones section: the switch, the port, who may end a turn, and while on the link and
/// its QR code with "New link". Returns what was clicked.
fn phones_ui(ui: &mut Ui, new: &mut Settings, phones: &PhoneLink) -> Option<SettingsRequest> {
    let s = new.language.strings();
    let lang = new.language;
    let mut switched = None;
    ui.label(RichText::new(s.phones.phones_heading).strong().size(18.0));
    ui.horizontal(|ui| {
        let mut on = phones.is_on();
        if ui.checkbox(&mut on, s.phones.phones_switch).changed() {
            switched = Some(SettingsRequest::Phones(on));
        }
        let label = ui.label(s.phones.phones_port);
        ui.add_enabled(
            !phones.is_on(),
            egui::DragValue::new(&mut new.phone_port)
                .range(1024..=65535)
                .update_while_editing(false),
        )
        .labelled_by(label.id);
    });
    ui.checkbox(&mut new.anyone_may_end, s.phones.phones_anyone_may_end);
    if let Some(e) = phones.error(lang) {
        ui.colored_label(
            Color32::from_rgb(0xd3, 0x2f, 0x2f),
            (s.phones.phones_failed)(e),
        );
    }
    if let Some(url) = phones.url() {
        ui.horizontal(|ui| {
            if let Some(qr) = phones.qr() {
                qr_ui(ui, qr, 220.0);
            }
            ui.vertical(|ui| {
                ui.label(s.phones.phones_scan);
                ui.add(egui::Label::new(RichText::new(url).monospace()).wrap());
                // More than one network: the table picks the one the phones are on.
                if phones.addresses().len() > 1 {
                    let shown = phones
                        .chosen()
                        .map(|a| format!("{} ({})", a.ip, a.interface))
                        .unwrap_or_default();
                    egui::ComboBox::from_label(i18n::evening::LINK_NETWORK.get(lang))
                        .selected_text(shown)
                        .show_ui(ui, |ui| {
                            for address in phones.addresses() {
                                let chosen = phones.chosen() == Some(address);
                                let line = format!("{} ({})", address.ip, address.interface);
                                if ui.selectable_label(chosen, line).clicked() && !chosen {
                                    switched = Some(SettingsRequest::ChooseAddress(address.ip));
                                }
                            }
                        });
                }
                let size = egui::vec2(0.0, 32.0);
                if ui
                    .add(egui::Button::new(s.phones.copy_link).min_size(size))
                    .clicked()
                {
                    ui.ctx().copy_text(url.to_owned());
                }
                let new_link = ui
                    .add(egui::Button::new(i18n::evening::NEW_LINK.get(lang)).min_size(size))
                    .on_hover_text(i18n::evening::NEW_LINK_HINT.get(lang));
                if new_link.clicked() {
                    switched = Some(SettingsRequest::NewLink);
                }
            });
        });
    } else if phones.unreachable() {
        // No address a phone can reach: said plainly, no link that cannot work.
        ui.colored_label(
            Color32::from_rgb(0xef, 0x7d, 0x00),
            i18n::evening::NO_PHONE_ADDRESS.get(lang),
        );
        let again = egui::Button::new(i18n::evening::FIND_ADDRESSES.get(lang))
            .min_size(egui::vec2(0.0, 32.0));
        if ui.add(again).clicked() {
            switched = Some(SettingsRequest::FindAddresses);
        }
    } else {
        ui.label(RichText::new(s.phones.phones_off_hint).weak());
    }
    switched
}

/// Paints the QR code, `side` points square, dark modules on a white field with the quiet
/// zone a scanner needs.
fn qr_ui(ui: &mut Ui, (width, modules): &(usize, Vec<bool>), side: f32) {
    use egui::{Rect, Sense, Vec2};
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
    let painter = ui.painter();
    painter.rect_filled(rect, 4.0, Color32::WHITE);
    let quiet = 4.0;
    let cell = side / (*width as f32 + 2.0 * quiet);
    for (i, dark) in modules.iter().enumerate() {
        if *dark {
            let (x, y) = ((i % width) as f32, (i / width) as f32);
            let min = rect.min + Vec2::new((x + quiet) * cell, (y + quiet) * cell);
            painter.rect_filled(
                Rect::from_min_size(min, Vec2::splat(cell)),
                0.0,
                Color32::BLACK,
            );
        }
    }
}

/// A label, a slider and an exact number box for a time in whole seconds (0 shows "off").
fn seconds_row(
    ui: &mut Ui,
    label: &str,
    value: &mut u32,
    range: std::ops::RangeInclusive<u32>,
    s: &Strings,
) {
    let label = ui.label(label);
    ui.horizontal(|ui| {
        ui.add(egui::Slider::new(value, range.clone()).show_value(false))
            .labelled_by(label.id);
        let number = egui::DragValue::new(value)
            .range(range)
            .update_while_editing(false)
            .custom_formatter(|v, _| {
                if v == 0.0 {
                    s.settings.off.to_owned()
                } else {
                    format!("{v}{}", s.settings.seconds)
                }
            })
            .custom_parser(|text| {
                text.trim()
                    .trim_end_matches(s.settings.seconds)
                    .trim()
                    .parse()
                    .ok()
            });
        ui.add(number).labelled_by(label.id);
    });
    ui.end_row();
}
