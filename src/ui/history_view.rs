//! History across evenings: who has been winning for months. Every saved sheet is read (an
//! unreadable one is skipped and named), players are matched by name ignoring case and spaces,
//! and each player's points are charted evening by evening.

use super::signed;
use egui::{RichText, Ui};

use crate::history::History;
use crate::lang::Language;

/// Draws the history: the table per player, head-to-head, the cumulative chart.
pub fn ui(ui: &mut Ui, lang: Language, history: &History, skipped: &[String]) {
    let s = lang.strings();
    ui.label(RichText::new(s.results.history).strong().size(20.0));
    for file in skipped {
        ui.colored_label(
            egui::Color32::from_rgb(0xef, 0x7d, 0x00),
            (s.results.history_skipped)(file),
        );
    }
    if history.players.is_empty() {
        ui.label(s.results.history_empty);
        return;
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
}
