//! Settings view: rules preset and every rule on its own, sound, language.
//!
//! The view edits a copy and hands back the changed settings; the app saves them at once and
//! passes the timer values to the timer, which applies them from the next turn.

use egui::{RichText, Ui};

use super::app::Settings;
use crate::i18n::{Language, Strings};
use crate::rules::{FinalRule, Preset, RuleSet, TICK_SECONDS, TURN_SECONDS, WARNING_SECONDS};
use crate::tile::TileSet;

/// What the settings view asks the app to do.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingsRequest {
    /// Store these settings.
    Change(Settings),
    /// Play the three sounds.
    TestSound,
}

/// Draws the settings; returns a request when something changed.
pub fn ui(ui: &mut Ui, settings: &Settings, saved_in: Option<&str>) -> Option<SettingsRequest> {
    let s = settings.language.strings();
    let mut new = settings.clone();
    let mut test_sound = false;
    egui::Grid::new("settings")
        .num_columns(2)
        .spacing([24.0, 10.0])
        .show(ui, |ui| {
            ui.label(s.language);
            ui.horizontal(|ui| {
                for lang in Language::ALL {
                    ui.selectable_value(&mut new.language, lang, lang.native_name());
                }
            });
            ui.end_row();

            ui.label(s.preset);
            ui.horizontal(|ui| {
                for preset in Preset::ALL {
                    let name = match preset {
                        Preset::Korean => s.preset_korean,
                        Preset::English => s.preset_english,
                        Preset::Tournament => s.preset_tournament,
                    };
                    let selected = new.rules.preset() == Some(preset);
                    if ui.selectable_label(selected, name).clicked() {
                        new.rules = RuleSet {
                            tile_set: new.rules.tile_set,
                            ..preset.rules()
                        };
                    }
                }
                if new.rules.preset().is_none() {
                    ui.label(RichText::new(s.preset_custom).italics());
                }
            });
            ui.end_row();

            let r = &mut new.rules;
            let max_warning = (*WARNING_SECONDS.end()).min(r.turn_seconds.saturating_sub(1));
            let max_tick = (*TICK_SECONDS.end()).min(r.turn_seconds.saturating_sub(1));
            seconds_row(ui, s.turn_length, &mut r.turn_seconds, TURN_SECONDS, s);
            seconds_row(
                ui,
                s.warning_time,
                &mut r.warning_seconds,
                0..=max_warning,
                s,
            );
            seconds_row(ui, s.tick_time, &mut r.tick_seconds, 0..=max_tick, s);

            let label = ui.label(s.volume);
            ui.horizontal(|ui| {
                ui.add(egui::Slider::new(&mut new.volume, 0.0..=1.0).show_value(false))
                    .labelled_by(label.id);
                ui.checkbox(&mut new.muted, s.mute);
                test_sound = ui.button(s.test_sound).clicked();
            });
            ui.end_row();

            let r = &mut new.rules;
            let label = ui.label(s.threshold);
            ui.add(egui::DragValue::new(&mut r.meld_threshold).range(0..=200))
                .labelled_by(label.id);
            ui.end_row();

            ui.label("");
            ui.checkbox(&mut r.jokers_in_initial_meld, s.jokers_in_meld);
            ui.end_row();

            let label = ui.label(s.joker_penalty);
            ui.add(egui::DragValue::new(&mut r.joker_penalty).range(0..=200))
                .labelled_by(label.id);
            ui.end_row();

            let label = ui.label(s.not_melded);
            ui.horizontal(|ui| {
                let mut flat = r.not_melded_value.is_some();
                ui.radio_value(&mut flat, false, s.not_melded_rack);
                ui.radio_value(&mut flat, true, s.not_melded_flat);
                match (flat, r.not_melded_value) {
                    (false, _) => r.not_melded_value = None,
                    (true, None) => r.not_melded_value = Some(100),
                    (true, Some(mut v)) => {
                        ui.add(egui::DragValue::new(&mut v).range(0..=500))
                            .labelled_by(label.id);
                        r.not_melded_value = Some(v);
                    }
                }
            });
            ui.end_row();

            ui.label(s.final_rule);
            ui.vertical(|ui| {
                ui.radio_value(&mut r.final_rule, FinalRule::Total, s.final_total);
                ui.radio_value(&mut r.final_rule, FinalRule::Wins, s.final_wins);
            });
            ui.end_row();

            ui.label(s.tile_set);
            ui.vertical(|ui| {
                ui.radio_value(&mut r.tile_set, TileSet::Standard, s.tile_set_standard);
                ui.radio_value(&mut r.tile_set, TileSet::Xp, s.tile_set_xp);
            });
            ui.end_row();
        });
    ui.add_space(8.0);
    ui.label(RichText::new(s.settings_next_turn).weak());
    if let Some(path) = saved_in {
        ui.label(RichText::new((s.settings_saved_in)(path)).weak());
    }
    if test_sound {
        Some(SettingsRequest::TestSound)
    } else if new != *settings {
        Some(SettingsRequest::Change(new))
    } else {
        None
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
            .custom_formatter(|v, _| {
                if v == 0.0 {
                    s.off.to_owned()
                } else {
                    format!("{v}{}", s.seconds)
                }
            })
            .custom_parser(|text| text.trim().trim_end_matches(s.seconds).trim().parse().ok());
        ui.add(number).labelled_by(label.id);
    });
    ui.end_row();
}
