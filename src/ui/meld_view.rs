//! Meld check view: settle "is this a legal first meld?" and find the best meld in a rack.
//!
//! The notation text is the single source of truth: the picker appends to it and the text field
//! edits it, so the two can never disagree. Everything shown is derived from it every frame
//! (parsing and checking a meld takes microseconds).

use egui::{Color32, RichText, Ui};

use super::play_view::{Referee, WholeTable};
use super::tiles;
use crate::evening::settings::MeldChoices;
use crate::i18n;
use crate::lang::Language;
use crate::meld::{MeldOptions, MeldProblem, Verdict, check_meld};
use crate::rules::RuleSet;
use crate::solver::{Objective, Solution, SolveError, SolveOptions, solve};
use crate::tile::{Kind, SetInput, Tile, parse_rack, parse_sets};

pub use crate::evening::settings::MeldMode;

/// The view's own state: the texts being edited, and the last solver answer.
#[derive(Debug, Default)]
pub struct MeldView {
    /// Check or solve.
    pub mode: MeldMode,
    /// The sets as laid, in notation.
    pub meld_text: String,
    /// The rack, in notation.
    pub rack_text: String,
    /// What the solver maximises.
    pub objective: Objective,
    /// The whole-table mode.
    pub whole: WholeTable,
    /// The referee mode.
    pub referee: Referee,
    /// The rack and options last solved, and the answer (the solver runs only when they change).
    solved: Option<(Vec<Tile>, SolveOptions, Result<Solution, SolveError>)>,
}

/// The sets of a text being edited: a trailing separator is a new, still empty set.
fn parse_editing(text: &str, lang: Language) -> (Result<Vec<SetInput>, String>, bool) {
    let trimmed = text.trim_end();
    let open_set = trimmed.ends_with(['|', ';']);
    let body = trimmed.trim_end_matches(['|', ';']);
    if body.trim().is_empty() {
        return (Ok(Vec::new()), open_set);
    }
    (
        parse_sets(body).map_err(|e| i18n::notation_error(lang, &e)),
        open_set,
    )
}

/// Sets back to notation, one `|` between sets.
fn sets_to_text(sets: &[SetInput]) -> String {
    sets.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" | ")
}

impl MeldView {
    /// The choices the table made on this tab (kept in the settings).
    pub fn choices(&self) -> MeldChoices {
        MeldChoices {
            mode: self.mode,
            solve: self.objective,
            play: self.whole.by,
        }
    }

    /// Takes the choices kept from before.
    pub fn choose(&mut self, choices: MeldChoices) {
        self.mode = choices.mode;
        self.objective = choices.solve;
        self.whole.by = choices.play;
    }

    /// Draws the view.
    pub fn ui(&mut self, ui: &mut Ui, lang: Language, rules: &RuleSet) {
        let s = lang.strings();
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.mode, MeldMode::Check, s.meld.mode_check);
            ui.selectable_value(&mut self.mode, MeldMode::Solve, s.meld.mode_solve);
            ui.selectable_value(
                &mut self.mode,
                MeldMode::Table,
                i18n::play::window::MODE_TABLE.get(lang),
            );
            ui.selectable_value(
                &mut self.mode,
                MeldMode::Referee,
                i18n::play::window::MODE_REFEREE.get(lang),
            );
        });
        ui.separator();
        match self.mode {
            MeldMode::Check => self.check_ui(ui, lang, rules),
            MeldMode::Solve => self.solve_ui(ui, lang, rules),
            MeldMode::Table => self.whole.ui(ui, lang, rules),
            MeldMode::Referee => self.referee.ui(ui, lang, rules),
        }
    }

    fn check_ui(&mut self, ui: &mut Ui, lang: Language, rules: &RuleSet) {
        let s = lang.strings();
        let (parsed, open_set) = parse_editing(&self.meld_text, lang);
        let used = tiles::counts(
            parsed
                .iter()
                .flatten()
                .flat_map(|set| set.tiles.iter().copied()),
        );
        if let Some(t) = tiles::picker(ui, lang, &used, rules.tile_set, 44.0) {
            push_tile(&mut self.meld_text, &i18n::tile(lang, t));
        }
        ui.horizontal(|ui| {
            if ui.button(s.meld.new_set).clicked() && !self.meld_text.trim().is_empty() && !open_set
            {
                self.meld_text = format!("{} | ", self.meld_text.trim_end());
            }
            if ui.button(s.meld.remove_last).clicked() {
                self.remove_last();
            }
            if ui.button(s.meld.clear).clicked() {
                self.meld_text.clear();
            }
        });
        notation_field(
            ui,
            &mut self.meld_text,
            s.meld.notation_hint,
            s.meld.mode_check,
            true,
        );

        let sets = match parsed {
            Ok(sets) => sets,
            Err(e) => {
                ui.colored_label(RED, e);
                return;
            }
        };
        if sets.is_empty() {
            ui.label(s.meld.empty_meld);
            return;
        }
        let verdict = check_meld(&sets, MeldOptions::from(rules));
        if let Some((i, declared)) = show_sets(ui, lang, &verdict) {
            let mut sets = sets;
            sets[i].declared = declared;
            self.meld_text = sets_to_text(&sets);
        }
        show_verdict(ui, lang, &verdict);
    }

    fn solve_ui(&mut self, ui: &mut Ui, lang: Language, rules: &RuleSet) {
        let s = lang.strings();
        let rack = if self.rack_text.trim().is_empty() {
            Ok(Vec::new())
        } else {
            parse_rack(&self.rack_text).map_err(|e| i18n::notation_error(lang, &e))
        };
        let used = tiles::counts(rack.iter().flatten().copied());
        if let Some(t) = tiles::picker(ui, lang, &used, rules.tile_set, 44.0) {
            push_tile(&mut self.rack_text, &i18n::tile(lang, t));
        }
        ui.horizontal(|ui| {
            if ui.button(s.meld.remove_last).clicked() {
                remove_last(&mut self.rack_text);
            }
            if ui.button(s.meld.clear).clicked() {
                self.rack_text.clear();
            }
            ui.separator();
            ui.label(s.meld.objective);
            ui.radio_value(
                &mut self.objective,
                Objective::Points,
                s.meld.objective_points,
            );
            ui.radio_value(
                &mut self.objective,
                Objective::Tiles,
                s.meld.objective_tiles,
            );
        });
        notation_field(
            ui,
            &mut self.rack_text,
            s.meld.notation_hint,
            s.meld.rack,
            false,
        );

        let rack = match rack {
            Ok(rack) if rack.is_empty() => {
                ui.label(s.meld.empty_rack);
                return;
            }
            Ok(rack) => rack,
            Err(e) => {
                ui.colored_label(RED, e);
                return;
            }
        };
        let options = SolveOptions {
            objective: self.objective,
            ..SolveOptions::from(rules)
        };
        let fresh = matches!(&self.solved, Some((r, o, _)) if *r == rack && *o == options);
        if !fresh {
            let answer = solve(&rack, &options);
            self.solved = Some((rack, options, answer));
        }
        let Some((_, _, answer)) = &self.solved else {
            return;
        };
        match answer {
            Ok(solution) => show_solution(ui, lang, solution),
            Err(SolveError::TooManyCopies {
                tile,
                count,
                tile_set,
            }) => {
                let problem = MeldProblem::TooManyCopies {
                    tile: *tile,
                    count: *count,
                    tile_set: *tile_set,
                };
                ui.colored_label(RED, i18n::meld_problem(lang, &problem));
            }
        }
    }

    fn remove_last(&mut self) {
        remove_last(&mut self.meld_text);
    }
}

/// The notation text field, named for tests and screen readers. With `enter_new_set`, Enter
/// starts a new set (`|`) and the cursor stays in the field, at the end, so the next set can be
/// typed straight away.
pub(super) fn notation_field(
    ui: &mut Ui,
    text: &mut String,
    hint: &str,
    name: &str,
    enter_new_set: bool,
) {
    let output = egui::TextEdit::singleline(text)
        .hint_text(hint)
        .desired_width(f32::INFINITY)
        .show(ui);
    let field = output.response;
    field.widget_info(|| egui::WidgetInfo::labeled(egui::Role::TextInput, true, name));
    super::fold_full_width(text);
    if enter_new_set && field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
        let body = text.trim_end();
        if !body.is_empty() && !body.ends_with(['|', ';']) {
            *text = format!("{body} | ");
        }
        let mut state = output.state;
        let end = egui::text::CCursor::new(text.chars().count());
        state
            .cursor
            .set_char_range(Some(egui::text::CCursorRange::one(end)));
        state.store(ui.ctx(), field.id);
        field.request_focus();
    }
    ui.add_space(8.0);
}

/// Appends a tile to notation text.
/// Adds a picked tile, named as the table calls it (`R5`, `빨5`, `조커`), to notation text.
pub(super) fn push_tile(text: &mut String, tile: &str) {
    let trimmed = text.trim_end();
    *text = if trimmed.is_empty() {
        tile.to_owned()
    } else {
        format!("{trimmed} {tile}")
    };
}

/// Removes the last tile from notation text (and a separator left dangling by it).
pub(super) fn remove_last(text: &mut String) {
    let trimmed = text.trim_end();
    let cut = trimmed
        .rfind(|c: char| c.is_whitespace() || c == '|' || c == ';' || c == ',')
        .map_or(0, |i| i + 1);
    let rest = trimmed[..cut].trim_end();
    *text = rest.trim_end_matches(['|', ';']).trim_end().to_owned();
}

fn show_solution(ui: &mut Ui, lang: Language, solution: &Solution) {
    let s = lang.strings();
    ui.label(RichText::new(s.meld.best_meld).strong());
    if solution.sets.is_empty() {
        ui.label(s.meld.nothing_to_meld);
    }
    for set in &solution.sets {
        ui.horizontal_wrapped(|ui| {
            tiles::tile_row(ui, lang, &set.input.tiles, Some(&set.represented), 34.0);
            ui.label(
                RichText::new(format!(
                    "{} · {}",
                    i18n::kind_name(lang, set.kind),
                    (s.meld.points)(set.points)
                ))
                .size(18.0),
            );
        });
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(s.meld.unused_tiles);
        if solution.unused.is_empty() {
            ui.label("—");
        }
        tiles::tile_row(ui, lang, &solution.unused, None, 28.0);
    });
    ui.add_space(8.0);
    let (text, color) = if solution.meets_threshold {
        (
            (s.meld.reachable)(solution.total, solution.threshold),
            GREEN,
        )
    } else {
        (
            (s.meld.unreachable)(solution.total, solution.threshold),
            RED,
        )
    };
    ui.label(RichText::new(text).size(24.0).strong().color(color));
}

const RED: Color32 = Color32::from_rgb(0xc6, 0x28, 0x28);
const GREEN: Color32 = Color32::from_rgb(0x2e, 0x7d, 0x32);

/// One line per set: tiles, reading, points or the reason. Returns a declaration change.
fn show_sets(ui: &mut Ui, lang: Language, verdict: &Verdict) -> Option<(usize, Option<Kind>)> {
    let s = lang.strings();
    let mut change = None;
    for (i, set) in verdict.sets.iter().enumerate() {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new((s.meld.set_n)(i + 1)).strong());
            let represented = set.reading.as_ref().ok().map(|r| r.represented.as_slice());
            tiles::tile_row(ui, lang, &set.input.tiles, represented, 34.0);
            match &set.reading {
                Ok(r) => {
                    ui.label(
                        RichText::new(format!(
                            "✓ {} · {}",
                            i18n::kind_name(lang, r.kind),
                            (s.meld.points)(r.points)
                        ))
                        .color(GREEN)
                        .size(18.0),
                    );
                    let jokers: Vec<String> = r
                        .joker_values(&set.input.tiles)
                        .map(|t| (s.meld.joker_is)(&i18n::tile(lang, t)))
                        .collect();
                    if !jokers.is_empty() {
                        ui.label(jokers.join(", "));
                    }
                }
                Err(p) => {
                    ui.label(
                        RichText::new(format!("× {}", i18n::set_problem(lang, p)))
                            .color(RED)
                            .size(18.0),
                    );
                }
            }
        });
        let ambiguous = set.reading.as_ref().is_ok_and(|r| r.alternative.is_some());
        if ambiguous || set.input.declared.is_some() {
            if let Ok(r) = &set.reading
                && let Some((other, other_points)) = r.alternative
            {
                let note = (s.meld.ambiguity_note)(r.kind, r.points, other, other_points);
                ui.label(RichText::new(note).italics());
            }
            ui.horizontal(|ui| {
                ui.label(s.meld.declare);
                let current = set.input.declared;
                for (value, label) in [
                    (None, s.meld.declare_auto),
                    (Some(Kind::Run), s.meld.kind_run),
                    (Some(Kind::Group), s.meld.kind_group),
                ] {
                    if ui.selectable_label(current == value, label).clicked() && current != value {
                        change = Some((i, value));
                    }
                }
            });
        }
    }
    change
}

fn show_verdict(ui: &mut Ui, lang: Language, verdict: &Verdict) {
    let s = lang.strings();
    ui.add_space(8.0);
    ui.label(RichText::new((s.meld.total_of)(verdict.total, verdict.threshold)).size(20.0));
    let (text, color) = if verdict.is_valid() {
        (s.meld.verdict_valid, GREEN)
    } else {
        (s.meld.verdict_invalid, RED)
    };
    ui.label(RichText::new(text).size(34.0).strong().color(color));
    for problem in &verdict.problems {
        ui.label(format!("• {}", i18n::meld_problem(lang, problem)));
    }
}
