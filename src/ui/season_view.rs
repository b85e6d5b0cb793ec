//! The Event tab's Season part: the seasons of this data folder (a season counts the events of
//! several venues, each imported as a bundle the venue signed), a new season, importing bundles
//! into one, and showing its standings on the TV page.
//!
//! Like the club night's part, it draws what the club night's owner holds (given as
//! [`SeasonContext`]) and returns [`SeasonRequest`]s; the owner does the work on a thread of its
//! own (a season file is written under the seasons' lock), so the window never waits for it.

use std::path::PathBuf;

use crate::club::{SeasonReport, SeasonSummary, Seasons};
use crate::i18n::event::{season as season_words, window as words};
use crate::lang::Language;
use crate::store::SeasonId;

/// What the Season part asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeasonRequest {
    /// Read the seasons (and this folder's venue) again.
    List,
    /// Make a season.
    New {
        /// The name.
        name: String,
        /// `entrants`, or points by place (`25,18,15`).
        points: String,
        /// Count each player's best K events.
        best: Option<u32>,
    },
    /// Import bundle files into a season, all or nothing.
    Import {
        /// The season.
        season: SeasonId,
        /// The files.
        files: Vec<PathBuf>,
    },
    /// Show a season's standings on the TV page (or none).
    Show(Option<SeasonId>),
}

/// What the Season part is given to draw.
#[derive(Clone, Copy)]
pub struct SeasonContext<'a> {
    /// The seasons as last read.
    pub seasons: &'a Seasons,
    /// How the last season's work went.
    pub report: Option<&'a SeasonReport>,
    /// The season the TV page shows.
    pub shown: Option<&'a SeasonId>,
}

/// The Season part's own state: what is being typed, and the season looked at.
#[derive(Debug)]
pub struct SeasonView {
    /// Asked for the seasons once.
    listed: bool,
    name: String,
    points: String,
    best: String,
    /// The season looked at (the newest when `None`).
    selected: Option<SeasonId>,
    /// Bundle files to import, one a line.
    files: String,
    /// A problem with what was typed, worded.
    problem: Option<String>,
}

impl Default for SeasonView {
    fn default() -> SeasonView {
        SeasonView {
            listed: false,
            name: String::new(),
            points: "entrants".into(),
            best: String::new(),
            selected: None,
            files: String::new(),
            problem: None,
        }
    }
}

impl SeasonView {
    /// Draws the Season part; returns what was asked for.
    #[must_use]
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        lang: Language,
        context: &SeasonContext<'_>,
    ) -> Vec<SeasonRequest> {
        let mut requests = Vec::new();
        if !self.listed {
            self.listed = true;
            requests.push(SeasonRequest::List);
        }
        match &context.seasons.venue {
            Some((name, key)) => ui.label(words::venue(lang, name, key)),
            None => ui.label(egui::RichText::new(words::NO_VENUE.get(lang)).weak()),
        };
        if let Some(problem) = &self.problem {
            ui.colored_label(ui.visuals().error_fg_color, problem);
        }
        if let Some(report) = context.report {
            report_lines(ui, lang, report);
        }
        ui.separator();
        let list = &context.seasons.list;
        if list.is_empty() {
            // The first season: the form is all there is to do.
            ui.heading(words::NEW_SEASON.get(lang));
            self.new_season(ui, lang, &mut requests);
            ui.separator();
        }
        ui.horizontal(|ui| {
            ui.heading(words::SEASONS.get(lang));
            if ui.button(words::REFRESH.get(lang)).clicked() {
                requests.push(SeasonRequest::List);
            }
        });
        if list.is_empty() {
            ui.label(words::NO_SEASONS.get(lang));
            return requests;
        }
        if self
            .selected
            .as_ref()
            .is_none_or(|id| !list.iter().any(|s| &s.id == id))
        {
            self.selected = list.first().map(|s| s.id.clone());
        }
        let label = ui.label(words::SEASON.get(lang));
        egui::ComboBox::from_id_salt("season-chosen")
            .selected_text(
                self.selected
                    .as_ref()
                    .and_then(|id| list.iter().find(|s| &s.id == id))
                    .map(season_name)
                    .unwrap_or_default(),
            )
            .width(320.0)
            .show_ui(ui, |ui| {
                for summary in list {
                    ui.selectable_value(
                        &mut self.selected,
                        Some(summary.id.clone()),
                        season_name(summary),
                    );
                }
            })
            .response
            .labelled_by(label.id);
        let Some(summary) = self
            .selected
            .as_ref()
            .and_then(|id| list.iter().find(|s| &s.id == id))
        else {
            return requests;
        };
        self.season(ui, lang, summary, context, &mut requests);
        // Another season is made less often than this one is looked at: its form comes last,
        // folded.
        ui.separator();
        egui::CollapsingHeader::new(words::NEW_SEASON.get(lang))
            .id_salt("season-new")
            .show(ui, |ui| self.new_season(ui, lang, &mut requests));
        requests
    }

    fn new_season(&mut self, ui: &mut egui::Ui, lang: Language, requests: &mut Vec<SeasonRequest>) {
        egui::Grid::new("season-form")
            .num_columns(2)
            .spacing([12.0, 8.0])
            .show(ui, |ui| {
                let label = ui.label(words::SEASON_NAME.get(lang));
                ui.add(egui::TextEdit::singleline(&mut self.name).desired_width(320.0))
                    .labelled_by(label.id);
                ui.end_row();
                let label = ui.label(words::SEASON_POINTS.get(lang));
                ui.add(egui::TextEdit::singleline(&mut self.points).desired_width(320.0))
                    .labelled_by(label.id);
                ui.end_row();
                let label = ui.label(words::SEASON_BEST.get(lang));
                ui.add(egui::TextEdit::singleline(&mut self.best).desired_width(60.0))
                    .labelled_by(label.id);
                ui.end_row();
            });
        if ui
            .add(
                egui::Button::new(words::CREATE_SEASON.get(lang)).min_size(egui::vec2(160.0, 36.0)),
            )
            .clicked()
        {
            let best = match self.best.trim() {
                "" => Ok(None),
                text => text
                    .parse()
                    .map(Some)
                    .map_err(|_| words::not_a_number(lang, words::SEASON_BEST.get(lang), text)),
            };
            match best {
                Ok(best) => {
                    self.problem = None;
                    requests.push(SeasonRequest::New {
                        name: self.name.clone(),
                        points: self.points.clone(),
                        best,
                    });
                }
                Err(problem) => self.problem = Some(problem),
            }
        }
    }

    /// One season: its heading, TV choice, standings, events, and the import.
    fn season(
        &mut self,
        ui: &mut egui::Ui,
        lang: Language,
        summary: &SeasonSummary,
        context: &SeasonContext<'_>,
        requests: &mut Vec<SeasonRequest>,
    ) {
        let Some(season) = &summary.season else {
            ui.colored_label(ui.visuals().error_fg_color, words::UNREADABLE.get(lang));
            return;
        };
        ui.horizontal_wrapped(|ui| {
            ui.heading(season_words::heading(
                lang,
                &season.name,
                season.events.len(),
                season.best,
            ));
            let shown = context.shown == Some(&summary.id);
            let (label, ask) = if shown {
                (words::HIDE_FROM_TV, None)
            } else {
                (words::SHOW_ON_TV, Some(summary.id.clone()))
            };
            if ui.button(label.get(lang)).clicked() {
                requests.push(SeasonRequest::Show(ask));
            }
        });
        for event in &season.events {
            ui.label(
                egui::RichText::new(format!(
                    "{} · {}",
                    event.name,
                    season_words::venue_line(lang, &event.venue)
                ))
                .weak(),
            );
        }
        let columns = season_words::COLUMNS.map(|t| t.get(lang));
        egui::Grid::new("season-standings")
            .num_columns(5)
            .striped(true)
            .spacing([18.0, 4.0])
            .show(ui, |ui| {
                for head in columns {
                    ui.label(egui::RichText::new(head).strong());
                }
                ui.end_row();
                for s in &summary.standings {
                    ui.label(s.rank.to_string());
                    ui.label(&s.name);
                    ui.label(s.club.as_deref().unwrap_or(""));
                    ui.label(s.points.to_string());
                    let events = if s.counted == s.events {
                        s.events.to_string()
                    } else {
                        format!("{} / {}", s.counted, s.events)
                    };
                    ui.label(events);
                    ui.end_row();
                }
            });
        ui.add_space(8.0);
        let label = ui.label(words::BUNDLES.get(lang));
        ui.add(
            egui::TextEdit::multiline(&mut self.files)
                .desired_rows(3)
                .desired_width(480.0),
        )
        .labelled_by(label.id);
        let files: Vec<PathBuf> = self
            .files
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(PathBuf::from)
            .collect();
        if ui
            .add_enabled(
                !files.is_empty(),
                egui::Button::new(words::IMPORT.get(lang)).min_size(egui::vec2(160.0, 36.0)),
            )
            .clicked()
        {
            requests.push(SeasonRequest::Import {
                season: summary.id.clone(),
                files,
            });
        }
    }
}

/// A season as the choice names it: its name and id.
fn season_name(summary: &SeasonSummary) -> String {
    match &summary.season {
        Some(season) => format!("{} ({})", season.name, summary.id.as_str()),
        None => summary.id.as_str().to_owned(),
    }
}

/// How the last season's work went.
fn report_lines(ui: &mut egui::Ui, lang: Language, report: &SeasonReport) {
    let error = ui.visuals().error_fg_color;
    match report {
        SeasonReport::Created(id) => {
            ui.label(egui::RichText::new(words::season_created(lang, id.as_str())).strong());
        }
        SeasonReport::Imported(lines) => {
            for line in lines {
                ui.label(line);
            }
        }
        SeasonReport::Refused(lines) => {
            for line in lines {
                ui.colored_label(error, line);
            }
            ui.colored_label(error, season_words::NOTHING_ADDED.get(lang));
        }
        SeasonReport::Exported(path) => {
            ui.label(path.display().to_string());
        }
        SeasonReport::Failed(why) => {
            ui.colored_label(error, why);
        }
    }
}
