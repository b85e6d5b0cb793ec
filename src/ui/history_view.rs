//! History across evenings: who has been winning for months. Every saved sheet is read (an
//! unreadable one is skipped and named), players are matched by name ignoring case and spaces,
//! and each player's points are charted evening by evening.

use super::signed;
use egui::{RichText, Ui};

use crate::evening::Command;
use crate::history::History;
use crate::lang::Language;

/// The "same player under two names" form: the two names chosen so far.
#[derive(Debug, Default)]
pub struct MergeForm {
    from: Option<String>,
    into: Option<String>,
}

/// Draws the history: the table per player, head-to-head, the cumulative chart, and the
/// names counted as one (`merged`) with the form to count two as one. Returns a merge or a
/// separation asked for.
#[must_use]
pub fn ui(
    ui: &mut Ui,
    lang: Language,
    history: &History,
    skipped: &[String],
    merged: &[(String, String)],
    form: &mut MergeForm,
) -> Option<Command> {
    let s = lang.strings();
    let mut asked = None;
    ui.label(RichText::new(s.results.history).strong().size(20.0));
    for file in skipped {
        ui.colored_label(
            egui::Color32::from_rgb(0xef, 0x7d, 0x00),
            (s.results.history_skipped)(file),
        );
    }
    if history.players.is_empty() {
        ui.label(s.results.history_empty);
        return None;
    }
    egui::Grid::new("history")
        .striped(true)
        .min_col_width(56.0)
        .show(ui, |ui| {
            for h in [
                s.timer.player,
                s.results.evenings,
                s.results.games_heading,
                s.results.match_wins,
                s.sheet.totals,
                s.results.average,
                s.results.best_game,
            ] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for p in &history.players {
                ui.label(RichText::new(&p.name).strong());
                ui.label(p.evenings.to_string());
                ui.label(p.games.to_string());
                ui.label(format!("{} / {}", p.match_wins, p.matches));
                // Signed as on the sheet, with a typographic minus.
                ui.label(signed(p.total));
                ui.label(
                    p.average()
                        .map_or("—".to_owned(), |a| format!("{a:+.1}").replace('-', "−")),
                );
                ui.label(p.best_game.map_or("—".to_owned(), signed));
                ui.end_row();
            }
        });
    // Head to head: games in which the row's player scored more than the column's.
    ui.label(RichText::new(s.results.head_to_head).strong());
    egui::Grid::new("head-to-head")
        .striped(true)
        .show(ui, |ui| {
            ui.label("");
            for p in &history.players {
                ui.label(RichText::new(&p.name).strong());
            }
            ui.end_row();
            for a in &history.players {
                ui.label(RichText::new(&a.name).strong());
                for b in &history.players {
                    let cell = if a.key == b.key {
                        "—".to_owned()
                    } else {
                        a.games_won_against(b).to_string()
                    };
                    ui.label(cell);
                }
                ui.end_row();
            }
        });
    let leader = history.players.first().map(|p| p.key.clone());
    let series = history
        .players
        .iter()
        .map(|p| super::chart::Series {
            name: p.name.clone(),
            points: std::iter::once([0.0, 0.0])
                .chain(
                    p.cumulative
                        .iter()
                        .map(|c| [(c.night + 1) as f64, c.total as f64]),
                )
                .collect(),
            leading: leader.as_ref() == Some(&p.key),
        })
        .collect();
    super::chart::lines(ui, "history-chart", series, 220.0, s.results.evenings);
    if let Some(command) = merge_ui(ui, lang, history, merged, form) {
        asked = Some(command);
    }
    asked
}

/// Names counted as one, each with a way to count it apart again, and the form to count two
/// names as one player (both undoable).
fn merge_ui(
    ui: &mut Ui,
    lang: Language,
    history: &History,
    merged: &[(String, String)],
    form: &mut MergeForm,
) -> Option<Command> {
    use crate::i18n::evening as words;
    let mut asked = None;
    ui.label(RichText::new(words::SAME_PLAYER.get(lang)).strong());
    for (from, into) in merged {
        ui.horizontal(|ui| {
            ui.label(words::counted_as(lang, from, into));
            let apart = egui::Button::new(words::COUNT_APART.get(lang))
                .min_size(egui::vec2(0.0, super::TOUCH));
            if ui.add(apart).clicked() {
                asked = Some(Command::SeparateName(from.clone()));
            }
        });
    }
    let names: Vec<&str> = history.players.iter().map(|p| p.name.as_str()).collect();
    ui.horizontal_wrapped(|ui| {
        let pick = |ui: &mut Ui, id: &str, what: &str, chosen: &mut Option<String>| {
            let shown = chosen.clone().unwrap_or_else(|| "—".to_owned());
            ui.spacing_mut().interact_size.y = super::TOUCH;
            let combo = egui::ComboBox::from_id_salt(id)
                .selected_text(shown)
                .height(400.0)
                .show_ui(ui, |ui| {
                    for name in &names {
                        let on = chosen.as_deref() == Some(*name);
                        if ui.selectable_label(on, *name).clicked() {
                            *chosen = Some((*name).to_owned());
                        }
                    }
                });
            combo
                .response
                .widget_info(|| egui::WidgetInfo::labeled(egui::Role::ComboBox, true, what));
        };
        pick(
            ui,
            "merge-from",
            words::MERGE_FROM.get(lang),
            &mut form.from,
        );
        ui.label(words::COUNT_AS.get(lang));
        pick(
            ui,
            "merge-into",
            words::MERGE_INTO.get(lang),
            &mut form.into,
        );
        let ready = matches!((&form.from, &form.into), (Some(a), Some(b)) if a != b);
        let merge =
            egui::Button::new(words::MERGE.get(lang)).min_size(egui::vec2(0.0, super::TOUCH));
        if ui.add_enabled(ready, merge).clicked()
            && let (Some(from), Some(into)) = (form.from.take(), form.into.take())
        {
            asked = Some(Command::MergeNames { from, into });
        }
    });
    asked
}
