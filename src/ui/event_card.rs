//! A club night's sheets as pictures, drawn off the window like the score card
//! ([`super::card::draw_page`]: a context of its own, the software painter): a round's seating
//! (each table, its players in seat order, who starts) and the standings through a round (rank,
//! name, wins, points, games, with every tie-break applied). Nothing of the window is on them.

use chrono::{DateTime, Utc};
use egui::{RichText, Ui};

use super::card::{Card, MARGIN, PAPER, cell, draw_page, local, row};
use crate::event::Event;
use crate::i18n;
use crate::i18n::event::{cli as cli_words, tv as tv_words};
use crate::lang::Language;

const TABLE_W: f32 = 110.0;
const SEAT_W: f32 = 180.0;
const RANK_W: f32 = 70.0;
const NAME_W: f32 = 260.0;
const NUMBER_W: f32 = 100.0;

/// The page's frame: paper, margins, the event's name and a heading; returns the bottom.
fn page(
    ui: &mut Ui,
    event: &Event,
    heading: &str,
    made: DateTime<Utc>,
    lang: Language,
    body: impl FnOnce(&mut Ui),
) -> f32 {
    let rect = ui.max_rect();
    ui.painter().rect_filled(rect, 0.0, PAPER);
    let mut content = ui.new_child(
        egui::UiBuilder::new()
            .max_rect(rect.shrink(MARGIN))
            .layout(egui::Layout::top_down(egui::Align::Min)),
    );
    let ui = &mut content;
    ui.label(RichText::new(&event.setup().name).size(28.0).strong());
    ui.label(RichText::new(heading).size(19.0));
    // The rules every game of the night is scored under.
    ui.label(RichText::new(crate::club::words::rules(lang, &event.setup().rules)).size(15.0));
    ui.add_space(10.0);
    body(ui);
    ui.add_space(10.0);
    ui.label(RichText::new(i18n::card::footer(lang, &local(made))).weak());
    ui.min_rect().bottom()
}

/// A round's seating sheet; `None` when the event has no such round.
pub fn seating(event: &Event, round: u32, lang: Language, made: DateTime<Utc>) -> Option<Card> {
    let r = event.rounds().iter().find(|r| r.number == round)?;
    let seats = r.tables.iter().map(|t| t.seats.len()).max().unwrap_or(4);
    let width = 2.0 * MARGIN + TABLE_W + seats as f32 * SEAT_W;
    let heading = crate::i18n::club::seating_title(lang, round);
    Some(draw_page(width, &|ui| {
        page(ui, event, &heading, made, lang, |ui| {
            for table in &r.tables {
                row(ui, |ui| {
                    cell(
                        ui,
                        TABLE_W,
                        RichText::new(cli_words::table(lang, table.number))
                            .strong()
                            .size(17.0),
                    );
                    let starters = event.starters(r, table);
                    for (i, name) in event.seat_names(table).iter().enumerate() {
                        let games: Vec<usize> = starters
                            .iter()
                            .enumerate()
                            .filter(|&(_, &p)| table.seats.get(i) == Some(&p))
                            .map(|(g, _)| g + 1)
                            .collect();
                        let mut text = format!("{}. {name}", i + 1);
                        if !games.is_empty() {
                            let list: Vec<String> = games.iter().map(ToString::to_string).collect();
                            text.push_str(&format!(" ({})", list.join(",")));
                        }
                        let text = RichText::new(text).size(17.0);
                        cell(
                            ui,
                            SEAT_W,
                            if games.is_empty() {
                                text
                            } else {
                                text.strong()
                            },
                        );
                    }
                });
            }
            ui.add_space(4.0);
            let legend = crate::i18n::event::window::starts(lang, &[1]);
            ui.label(RichText::new(format!("(1) = {legend}")).weak());
        })
    }))
}

/// The standings through `round` (what the TV shows once the round is complete).
pub fn standings(event: &Event, round: u32, lang: Language, made: DateTime<Utc>) -> Card {
    let width = 2.0 * MARGIN + RANK_W + NAME_W + 3.0 * NUMBER_W;
    let heading = tv_words::standings_after(lang, round);
    let rows = event.standings_through(round).rows;
    draw_page(width, &|ui| {
        page(ui, event, &heading, made, lang, |ui| {
            let widths = [RANK_W, NAME_W, NUMBER_W, NUMBER_W, NUMBER_W];
            row(ui, |ui| {
                for (column, w) in cli_words::COLUMNS.iter().zip(widths) {
                    cell(ui, w, RichText::new(column.get(lang)).strong());
                }
            });
            for s in &rows {
                let cells = [
                    s.rank.to_string(),
                    s.name.clone(),
                    s.wins.to_string(),
                    crate::ui::signed(s.points),
                    s.games.to_string(),
                ];
                row(ui, |ui| {
                    for (text, w) in cells.into_iter().zip(widths) {
                        cell(ui, w, RichText::new(text).size(17.0));
                    }
                });
            }
        })
    })
}
