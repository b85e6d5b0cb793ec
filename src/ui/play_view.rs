//! The Meld tab past the opening: "Whole table" (what can I play, the whole table rearranged)
//! and "Referee a turn" (the table before and after, the rack if known).
//!
//! As in the rest of the Meld tab, the notation texts are the single source of truth: the
//! picker appends to the chosen field, and everything shown is derived from the texts. The
//! referee takes microseconds and runs every frame; the table solver can take longer on a big
//! table, so it runs on a thread of its own and the view shows "Working it out…" until the
//! answer for the current texts arrives (nothing waits on a frame). Its first search (the
//! most that can be laid) takes milliseconds; the second (the fewest sets changed) up to a
//! tenth of a second on the bench's hardest tables (more on a slower machine), so what the
//! best play lays is shown as soon as it is known, with "Finding the arrangement…" until the
//! answer arrives. Under the answer, its steps (`play::moves`) one at a time: Back/Next and
//! the left/right arrow keys step through them beside the table as it stands before the step
//! shown; once every step is done, the table after the play with its sets marked.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

use egui::{Color32, RichText, Ui};

use super::tiles;
use crate::i18n::{self, play as words, play::window as w};
use crate::lang::Language;
use crate::meld::read_set;
use crate::play::moves::{Layout, Source, Step, Target};
use crate::play::{By, Most, Play, PlayError, PlayOptions, best_play, best_play_then};
use crate::referee::{TurnContext, Verdict, judge};
use crate::rules::RuleSet;
use crate::tile::{FACES, SetInput, Tile, parse_rack, parse_sets};

const RED: Color32 = Color32::from_rgb(0xc6, 0x28, 0x28);
const GREEN: Color32 = Color32::from_rgb(0x2e, 0x7d, 0x32);
const CHANGED: Color32 = Color32::from_rgb(0xff, 0xb3, 0x00);
/// Where a step's tiles go, and new sets.
const TO: Color32 = Color32::from_rgb(0x1e, 0x88, 0xe5);

/// Windows shorter than this draw the picker's tiles smaller.
const SHORT_WINDOW: f32 = 680.0;

/// Which field of the whole-table mode the picker writes to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableField {
    /// The sets on the table.
    #[default]
    Table,
    /// The rack.
    Rack,
}

/// Which field of the referee mode the picker writes to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TurnField {
    /// The table before the turn.
    #[default]
    Before,
    /// The table after the turn.
    After,
    /// The rack before the turn.
    Rack,
}

/// What a solve was asked: the answer belongs to exactly these.
type Asked = (Vec<SetInput>, Vec<Tile>, PlayOptions);

/// The whole-table mode: its texts, and the solver's last answer or the one on its way.
#[derive(Debug, Default)]
pub struct WholeTable {
    /// The table's sets, in notation.
    pub table_text: String,
    /// The rack, in notation.
    pub rack_text: String,
    /// Where the picker writes.
    pub field: TableField,
    /// What "best" means.
    pub by: By,
    answer: Option<(Asked, Result<Play, PlayError>)>,
    /// What the best play lays, known before its arrangement (see [`best_play_then`]).
    most: Option<(Asked, Most)>,
    working: Option<Working>,
    /// Which of the answer's steps is shown: `0..n` a step (the table as it stands before
    /// it), `n` the table after the play. Back to the first step when a new answer arrives.
    cursor: usize,
}

/// What the solver thread sends: first what the best play lays, then the play.
#[derive(Debug)]
enum Found {
    Most(Most),
    Play(Result<Play, PlayError>),
}

/// The solver thread of the last question asked, and the flag that tells it to give up.
#[derive(Debug)]
struct Working {
    asked: Asked,
    answer: Receiver<Found>,
    stop: Arc<AtomicBool>,
}

/// The referee mode's texts and switches.
#[derive(Debug)]
pub struct Referee {
    /// The table before the turn.
    pub before_text: String,
    /// The table after the turn.
    pub after_text: String,
    /// The player's rack before the turn (empty: not known).
    pub rack_text: String,
    /// Where the picker writes.
    pub field: TurnField,
    /// The player had made the initial meld before this turn.
    pub melded: bool,
    /// The turn ended by the timer.
    pub timed_out: bool,
}

impl Default for Referee {
    fn default() -> Self {
        Referee {
            before_text: String::new(),
            after_text: String::new(),
            rack_text: String::new(),
            field: TurnField::Before,
            melded: true,
            timed_out: false,
        }
    }
}

/// Sets of a field; an empty field is an empty table. A trailing separator is ignored.
fn sets_of(text: &str, lang: Language) -> Result<Vec<SetInput>, String> {
    let body = text.trim_end().trim_end_matches(['|', ';']);
    if body.trim().is_empty() {
        return Ok(Vec::new());
    }
    parse_sets(body).map_err(|e| i18n::notation_error(lang, &e))
}

fn rack_of(text: &str, lang: Language) -> Result<Vec<Tile>, String> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    parse_rack(text).map_err(|e| i18n::notation_error(lang, &e))
}

/// The picker, the edit buttons and a field's text: shared by both modes.
fn pick_into(
    ui: &mut Ui,
    lang: Language,
    rules: &RuleSet,
    used: &[usize; FACES],
    text: &mut String,
) {
    let s = lang.strings();
    // In a short window (800×600) smaller tiles, so that the answer's steps start in view.
    let height = if ui.ctx().content_rect().height() < SHORT_WINDOW {
        28.0
    } else {
        40.0
    };
    if let Some(t) = tiles::picker(ui, lang, used, rules.tile_set, height) {
        super::meld_view::push_tile(text, &i18n::tile(lang, t));
    }
    ui.horizontal(|ui| {
        if ui.button(s.meld.new_set).clicked() {
            let body = text.trim_end();
            if !body.is_empty() && !body.ends_with(['|', ';']) {
                *text = format!("{body} | ");
            }
        }
        if ui.button(s.meld.remove_last).clicked() {
            super::meld_view::remove_last(text);
        }
        if ui.button(s.meld.clear).clicked() {
            text.clear();
        }
    });
}

impl WholeTable {
    /// Draws the mode.
    pub fn ui(&mut self, ui: &mut Ui, lang: Language, rules: &RuleSet) {
        let s = lang.strings();
        let table = sets_of(&self.table_text, lang);
        let rack = rack_of(&self.rack_text, lang);
        ui.horizontal(|ui| {
            ui.label(w::ADD_TO.get(lang));
            ui.selectable_value(&mut self.field, TableField::Table, w::TABLE.get(lang));
            ui.selectable_value(&mut self.field, TableField::Rack, w::RACK.get(lang));
            ui.separator();
            ui.label(s.meld.objective);
            // How plays rank, said where the measure is chosen.
            ui.radio_value(&mut self.by, By::Tiles, s.meld.objective_tiles)
                .on_hover_text(w::RANK_TILES.get(lang));
            ui.radio_value(&mut self.by, By::Points, s.meld.objective_points)
                .on_hover_text(w::RANK_POINTS.get(lang));
        });
        let used = tiles::counts(
            table
                .iter()
                .flatten()
                .flat_map(|set| set.tiles.iter().copied())
                .chain(rack.iter().flatten().copied()),
        );
        let target = match self.field {
            TableField::Table => &mut self.table_text,
            TableField::Rack => &mut self.rack_text,
        };
        pick_into(ui, lang, rules, &used, target);
        ui.label(w::TABLE.get(lang));
        super::meld_view::notation_field(
            ui,
            &mut self.table_text,
            w::TABLE_HINT.get(lang),
            w::TABLE.get(lang),
            true,
        );
        ui.label(w::RACK.get(lang));
        super::meld_view::notation_field(
            ui,
            &mut self.rack_text,
            w::RACK_HINT.get(lang),
            w::RACK.get(lang),
            false,
        );
        let (table, rack) = match (table, rack) {
            (Err(e), _) | (_, Err(e)) => {
                ui.colored_label(RED, e);
                return;
            }
            (Ok(t), Ok(r)) => (t, r),
        };
        if rack.is_empty() {
            ui.label(w::EMPTY.get(lang));
            return;
        }
        let asked: Asked = (
            table,
            rack,
            PlayOptions {
                tile_set: rules.tile_set,
                by: self.by,
                joker_value: rules.joker_penalty,
            },
        );
        self.refresh(ui.ctx(), asked.clone());
        let cursor = &mut self.cursor;
        match (&self.answer, &self.most) {
            (Some((a, answer)), _) if *a == asked => show_play(ui, lang, &a.0, answer, cursor),
            (_, Some((a, most))) if *a == asked => {
                // The most is known, the fewest changes not yet: say what can be laid.
                big_line(ui, words::most(lang, *most), GREEN);
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(w::ARRANGING.get(lang));
                });
            }
            _ => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(w::WORKING.get(lang));
                });
            }
        }
    }

    /// Takes an answer that arrived, and starts the solver when the texts ask something new
    /// (telling the one still working on an older question to give up: typing a rack on a
    /// hard table would otherwise leave a search of seconds running for every keystroke).
    fn refresh(&mut self, ctx: &egui::Context, asked: Asked) {
        while let Some(working) = &self.working {
            match working.answer.try_recv() {
                Ok(Found::Most(most)) => self.most = Some((working.asked.clone(), most)),
                Ok(Found::Play(answer)) => {
                    self.answer = Some((working.asked.clone(), answer));
                    self.working = None;
                    self.cursor = 0;
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => self.working = None,
            }
        }
        let asking = matches!(&self.working, Some(w) if w.asked == asked);
        if asking {
            return;
        }
        // Whatever is still being worked out was asked by texts that are gone, even when the
        // texts went back to a question already answered (its answer would replace the shown
        // one, and the shown one would then be asked again).
        if let Some(stale) = self.working.take() {
            stale.stop.store(true, Ordering::Relaxed);
        }
        if matches!(&self.answer, Some((a, _)) if *a == asked) {
            return;
        }
        let (tx, rx) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let (table, rack, options) = asked.clone();
        let ctx = ctx.clone();
        let flag = Arc::clone(&stop);
        let spawned = std::thread::Builder::new()
            .name("play".into())
            .spawn(move || {
                // The view may have moved on; a closed channel is not an error.
                let mut most = |most| {
                    let _ = tx.send(Found::Most(most));
                    ctx.request_repaint();
                };
                // Told to stop: the view has moved on and wants nothing from it.
                let answer = best_play_then(&table, &rack, &options, &flag, &mut most);
                if let Some(answer) = answer {
                    let _ = tx.send(Found::Play(answer));
                    ctx.request_repaint();
                }
            });
        match spawned {
            Ok(_) => {
                self.working = Some(Working {
                    asked,
                    answer: rx,
                    stop,
                })
            }
            // No thread to be had: answer here rather than never.
            Err(_) => {
                let answer = best_play(&asked.0, &asked.1, &asked.2);
                self.answer = Some((asked, answer));
                self.cursor = 0;
            }
        }
    }
}

/// The answer: what the best play lays, how to play it step by step (the table as it stands
/// before the step shown, the sets it touches outlined), and the table after it.
fn show_play(
    ui: &mut Ui,
    lang: Language,
    before: &[SetInput],
    answer: &Result<Play, PlayError>,
    cursor: &mut usize,
) {
    let play = match answer {
        Ok(play) => play,
        Err(e) => {
            ui.colored_label(RED, words::play_error(lang, e));
            return;
        }
    };
    if play.placed.is_empty() {
        big_line(ui, words::NOTHING.get(lang), RED);
    } else {
        big_line(
            ui,
            words::heading(lang, play.placed.len(), play.points),
            GREEN,
        );
        ui.horizontal_wrapped(|ui| {
            ui.label(words::LAY.get(lang));
            tiles::tile_row(ui, lang, &play.placed, None, 34.0);
        });
        ui.label(format!(
            "{} · {}",
            words::sets_changed(lang, play.sets_changed),
            words::moves(lang, play.moves())
        ));
    }
    let n = play.steps.len();
    *cursor = (*cursor).min(n);
    if n == 0 {
        ui.add_space(6.0);
        table_after(ui, lang, play);
        return;
    }
    let was = *cursor;
    step_keys(ui, cursor, n);
    ui.add_space(6.0);
    let controls = ui.horizontal(|ui| {
        ui.label(RichText::new(words::HOW.get(lang)).strong().size(17.0));
        let back = ui
            .add_enabled(*cursor > 0, egui::Button::new(w::BACK.get(lang)))
            .on_hover_text(w::BACK_KEY.get(lang));
        if back.clicked() {
            *cursor -= 1;
        }
        ui.label(w::position(lang, *cursor, n));
        let next = ui
            .add_enabled(*cursor < n, egui::Button::new(w::NEXT.get(lang)))
            .on_hover_text(w::NEXT_KEY.get(lang));
        if next.clicked() {
            *cursor += 1;
        }
    });
    // Stepped by the player this frame: the steps and the table scroll up to the top of the
    // view (not when an answer arrives, which would pull the view away from the rack being
    // typed).
    if *cursor != was {
        ui.scroll_to_rect(controls.response.rect, Some(egui::Align::TOP));
    }
    ui.columns_const(|[left, right]: &mut [Ui; 2]| {
        match step_list(left, lang, before, &play.steps, *cursor) {
            Some((layout, step)) => table_now(right, lang, &layout, step),
            None => table_after(right, lang, play),
        }
    });
}

/// The table after the play, each set marked as it was, changed or new.
fn table_after(ui: &mut Ui, lang: Language, play: &Play) {
    ui.label(RichText::new(w::NEW_TABLE.get(lang)).strong());
    for set in &play.table {
        let (mark, colour) = match (set.kept, set.continues) {
            (Some(_), _) => (words::KEPT, None),
            (None, Some(_)) => (words::CHANGED, Some(CHANGED)),
            (None, None) => (words::NEW, Some(TO)),
        };
        outlined(ui, colour, |ui| {
            tiles::tile_row(ui, lang, &set.input.tiles, Some(&set.represented), 30.0);
            ui.label(match colour {
                Some(c) => RichText::new(mark.get(lang)).color(c).strong(),
                None => RichText::new(mark.get(lang)).weak(),
            });
        });
    }
}

/// The left and right arrow keys (fresh presses, not a held key's repeats) step back and on,
/// when no text field has the keyboard.
fn step_keys(ui: &Ui, cursor: &mut usize, n: usize) {
    if ui.ctx().egui_wants_keyboard_input() {
        return;
    }
    let (on, back) = ui.input(|i| {
        i.events.iter().fold((0, 0), |(on, back), e| match e {
            egui::Event::Key {
                key,
                pressed: true,
                repeat: false,
                modifiers,
                ..
            } if modifiers.is_none() => match key {
                egui::Key::ArrowRight => (on + 1, back),
                egui::Key::ArrowLeft => (on, back + 1),
                _ => (on, back),
            },
            _ => (on, back),
        })
    });
    *cursor = (*cursor + on).saturating_sub(back).min(n);
}

/// The steps in words, each with its tiles, the one at `cursor` large and outlined (done ones
/// dim). Returns the table as it stands before that step, and the step (`None` once every
/// step is done).
fn step_list<'s>(
    ui: &mut Ui,
    lang: Language,
    before: &[SetInput],
    steps: &'s [Step],
    cursor: usize,
) -> Option<(Layout, &'s Step)> {
    let mut layout = Layout::new(before);
    let mut shown = None;
    for (k, step) in steps.iter().enumerate() {
        let (from, to) = words::places(&layout, step);
        let line = format!(
            "{}. {}",
            k + 1,
            words::step(lang, step, from.as_deref(), to.as_deref())
        );
        if k == cursor {
            shown = Some((layout.clone(), step));
            outlined(ui, Some(TO), |ui| {
                ui.label(RichText::new(line).size(18.0).strong());
                tiles::tile_row(ui, lang, &step.tiles, None, 30.0);
            });
        } else {
            ui.horizontal_wrapped(|ui| {
                let text = RichText::new(line);
                ui.label(if k < cursor { text.weak() } else { text });
                tiles::tile_row(ui, lang, &step.tiles, None, 22.0);
            });
        }
        layout.apply(step);
    }
    shown
}

/// The table as it stands before `step`, the set its tiles leave and the set they go to
/// outlined and named (a new set: an outlined place at the end).
fn table_now(ui: &mut Ui, lang: Language, layout: &Layout, step: &Step) {
    ui.label(RichText::new(w::TABLE_NOW.get(lang)).strong());
    for (i, set) in layout.sets().iter().enumerate() {
        if set.is_empty() {
            continue;
        }
        let (colour, note) = if step.from == Source::Set(i) {
            (Some(CHANGED), Some(w::FROM_HERE))
        } else if step.to == Target::Set(i) {
            (Some(TO), Some(w::TO_HERE))
        } else {
            (None, None)
        };
        let represented = read_set(&SetInput {
            declared: None,
            tiles: set.clone(),
        })
        .ok()
        .map(|r| r.represented);
        outlined(ui, colour, |ui| {
            tiles::tile_row(ui, lang, set, represented.as_deref(), 26.0);
            if let (Some(c), Some(note)) = (colour, note) {
                ui.label(RichText::new(note.get(lang)).color(c).strong());
            }
        });
    }
    if step.to == Target::New {
        outlined(ui, Some(TO), |ui| {
            ui.label(RichText::new(w::NEW_SET_HERE.get(lang)).color(TO).strong());
        });
    }
}

/// A set's row (or a step's), outlined in `colour` when given.
fn outlined(ui: &mut Ui, colour: Option<Color32>, add: impl FnOnce(&mut Ui)) -> egui::Response {
    egui::Frame::new()
        .inner_margin(4.0)
        .corner_radius(4.0)
        .stroke(colour.map_or(egui::Stroke::NONE, |c| egui::Stroke::new(2.0, c)))
        .show(ui, |ui| {
            ui.horizontal_wrapped(add);
        })
        .response
}

impl Referee {
    /// Draws the mode.
    pub fn ui(&mut self, ui: &mut Ui, lang: Language, rules: &RuleSet) {
        ui.horizontal(|ui| {
            ui.label(w::ADD_TO.get(lang));
            ui.selectable_value(&mut self.field, TurnField::Before, w::BEFORE.get(lang));
            ui.selectable_value(&mut self.field, TurnField::After, w::AFTER.get(lang));
            ui.selectable_value(&mut self.field, TurnField::Rack, w::RACK.get(lang));
            ui.separator();
            if ui.button(w::COPY_BEFORE.get(lang)).clicked() {
                self.after_text = self.before_text.clone();
                self.field = TurnField::After;
            }
        });
        let target = match self.field {
            TurnField::Before => &mut self.before_text,
            TurnField::After => &mut self.after_text,
            TurnField::Rack => &mut self.rack_text,
        };
        let used = tiles::counts(match self.field {
            TurnField::Rack => rack_of(target, lang).unwrap_or_default(),
            _ => sets_of(target, lang)
                .unwrap_or_default()
                .into_iter()
                .flat_map(|s| s.tiles)
                .collect(),
        });
        pick_into(ui, lang, rules, &used, target);
        for (text, hint, name, sets) in [
            (
                &mut self.before_text,
                w::TABLE_HINT,
                w::BEFORE.get(lang),
                true,
            ),
            (
                &mut self.after_text,
                w::TABLE_HINT,
                w::AFTER.get(lang),
                true,
            ),
            (
                &mut self.rack_text,
                w::RACK_HINT,
                w::RACK_BEFORE.get(lang),
                false,
            ),
        ] {
            ui.label(name);
            super::meld_view::notation_field(ui, text, hint.get(lang), name, sets);
        }
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.melded, w::MELDED.get(lang));
            ui.checkbox(&mut self.timed_out, w::TIMED_OUT.get(lang));
        });
        let parsed = sets_of(&self.before_text, lang).and_then(|before| {
            let after = sets_of(&self.after_text, lang)?;
            let rack = rack_of(&self.rack_text, lang)?;
            Ok((before, after, rack))
        });
        let (before, after, rack) = match parsed {
            Ok(p) => p,
            Err(e) => {
                ui.colored_label(RED, e);
                return;
            }
        };
        if before.is_empty() && after.is_empty() {
            ui.label(w::EMPTY_TURN.get(lang));
            return;
        }
        let context = TurnContext {
            melded: self.melded,
            threshold: rules.meld_threshold,
            timed_out: self.timed_out,
            tile_set: rules.tile_set,
        };
        let rack = (!rack.is_empty()).then_some(rack);
        let ruling = judge(&before, &after, rack.as_deref(), &context);
        let colour = match ruling.verdict {
            Verdict::Illegal => RED,
            _ => GREEN,
        };
        ui.add_space(6.0);
        big_line(ui, words::verdict(lang, ruling.verdict), colour);
        for reason in &ruling.reasons {
            ui.label(RichText::new(format!("• {}", words::reason(lang, reason))).size(17.0));
        }
        if !ruling.laid.is_empty() {
            ui.horizontal_wrapped(|ui| {
                ui.label(words::LAID.get(lang));
                tiles::tile_row(ui, lang, &ruling.laid, None, 30.0);
            });
        }
        if let Some(restore) = &ruling.restore {
            ui.label(
                RichText::new(words::restore(lang, &restore.take_back, restore.draw)).strong(),
            );
            ui.label(words::table_before(lang));
            for set in &restore.table {
                tiles::tile_row(ui, lang, &set.tiles, None, 28.0);
            }
        }
    }
}

/// The line that answers the question (what can be laid, nothing, the verdict): large and
/// in the answer's colour.
fn big_line(ui: &mut Ui, text: impl Into<String>, colour: Color32) {
    ui.label(RichText::new(text).size(22.0).strong().color(colour));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(table: &str, rack: &str) -> Asked {
        let table = parse_sets(table).expect("table parses");
        let rack = parse_rack(rack).expect("rack parses");
        (table, rack, PlayOptions::default())
    }

    /// Asks `asked` until its search has ended. A liveness bound, not a speed claim: the
    /// tests' easy table takes microseconds.
    fn settle(view: &mut WholeTable, ctx: &egui::Context, asked: &Asked) {
        for _ in 0..600 {
            view.refresh(ctx, asked.clone());
            if view.working.is_none() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    /// A dense XP table that takes seconds in a release build.
    fn hard() -> Asked {
        let mut hard = asked(
            "R4 B4 K4 O4 | R6 K6 J | O4 O5 O6 O7 O8 | R4 K4 O4 | R6 B6 O6 | R9 B9 K9 O9 | \
             B4 K4 J | K5 K6 K7 K8 K9 | J B9 K9 | R8 B8 K8 O8 | B8 J O8",
            "K5 B4 R9 R6 O6 O7 O7 R9 R5 B5 B8 R7 R4 B7",
        );
        hard.2.tile_set = crate::tile::TileSet::Xp;
        hard
    }

    /// Regression: every edit of the texts started a solver thread, and a thread working on
    /// an older question ran to its end (seconds on the hardest tables), so typing a rack
    /// queued a search per keystroke. The stale one is now told to stop, and the new
    /// question is answered.
    #[test]
    fn a_new_question_stops_the_search_still_working_on_the_old_one() {
        let ctx = egui::Context::default();
        let mut view = WholeTable::default();
        view.refresh(&ctx, hard());
        let stale = Arc::clone(&view.working.as_ref().expect("a search started").stop);
        assert!(!stale.load(Ordering::Relaxed));
        let easy = asked("R5 R6 R7 | B9 K9 O9", "R8 K2");
        view.refresh(&ctx, easy.clone());
        assert!(
            stale.load(Ordering::Relaxed),
            "the old search was not told to stop"
        );
        let fresh = &view
            .working
            .as_ref()
            .expect("a search for the new question")
            .stop;
        assert!(!fresh.load(Ordering::Relaxed));
        settle(&mut view, &ctx, &easy);
        let (a, answer) = view.answer.as_ref().expect("the new question was answered");
        assert_eq!(*a, easy);
        assert_eq!(answer.as_ref().map(|p| p.placed.len()), Ok(1));
    }

    /// Regression: when the texts went back to a question already answered (a key typed on
    /// the rack, then BackSpace), the search for the other question ran on; its answer then
    /// replaced the one on screen, and the view asked its own question again: a spinner, and
    /// on a hard table seconds of solving, for a question already answered.
    #[test]
    fn going_back_to_an_answered_question_stops_the_search_for_the_other() {
        let ctx = egui::Context::default();
        let mut view = WholeTable::default();
        let easy = asked("R5 R6 R7 | B9 K9 O9", "R8 K2");
        settle(&mut view, &ctx, &easy);
        assert!(matches!(&view.answer, Some((a, _)) if *a == easy));
        view.refresh(&ctx, hard());
        let stale = Arc::clone(&view.working.as_ref().expect("a search started").stop);
        view.refresh(&ctx, easy.clone());
        assert!(
            stale.load(Ordering::Relaxed),
            "the search for the question gone was not told to stop"
        );
        assert!(
            view.working.is_none(),
            "a search runs for an answered question"
        );
        assert!(matches!(&view.answer, Some((a, _)) if *a == easy));
    }

    /// On a hard table the fewest changes can take seconds after what can be laid is known:
    /// the view says what the best play lays at once, with "finding the arrangement" under
    /// it, and the table after the play once it arrives. The solver's messages are sent by
    /// hand here, so each stage is seen for certain.
    #[test]
    fn what_the_best_play_lays_shows_while_its_arrangement_is_worked_out() {
        use egui_kittest::{Harness, kittest::Queryable};
        fn shown(harness: &Harness<'_, WholeTable>, text: &str) -> bool {
            harness.query_by_label_contains(text).is_some()
        }
        let rules = crate::rules::Preset::Korean.rules();
        let view = WholeTable {
            table_text: "R5 R6 R7 | B9 K9 O9".into(),
            rack_text: "R8 K2".into(),
            ..WholeTable::default()
        };
        let (table, rack, _) = asked(&view.table_text, &view.rack_text);
        let options = PlayOptions {
            tile_set: rules.tile_set,
            by: view.by,
            joker_value: rules.joker_penalty,
        };
        let (tx, rx) = channel();
        let mut view = view;
        view.working = Some(Working {
            asked: (table.clone(), rack.clone(), options),
            answer: rx,
            stop: Arc::new(AtomicBool::new(false)),
        });
        let mut harness = Harness::new_ui_state(
            move |ui, view: &mut WholeTable| view.ui(ui, Language::English, &rules),
            view,
        );
        harness.step();
        assert!(shown(&harness, "Working it out"));
        assert!(!shown(&harness, "Best play"));

        let play = best_play(&table, &rack, &options).expect("plays");
        tx.send(Found::Most(Most::of(&play, options.by)))
            .expect("the view listens");
        harness.step();
        assert!(shown(&harness, "Best play: 1 tile from the rack"));
        assert!(!shown(&harness, "(8 points)"));
        assert!(shown(&harness, "Finding the arrangement"));
        assert!(!shown(&harness, "The table after this play:"));

        tx.send(Found::Play(Ok(play))).expect("the view listens");
        harness.step();
        assert!(shown(
            &harness,
            "Best play: 1 tile from the rack (8 points)"
        ));
        assert!(shown(&harness, "1. Add R8 to R5 R6 R7."));
        assert!(!shown(&harness, "Finding the arrangement"));
        assert!(harness.state().working.is_none());
    }

    /// A view whose answer to `table` + `rack` has arrived (worked out here, sent as the
    /// solver thread sends it), drawn in `lang`.
    fn answered(
        table: &str,
        rack: &str,
        lang: Language,
    ) -> egui_kittest::Harness<'static, WholeTable> {
        answered_in(table, rack, lang, [960.0, 1400.0])
    }

    /// [`answered`] in a window of `size`.
    fn answered_in(
        table: &str,
        rack: &str,
        lang: Language,
        size: [f32; 2],
    ) -> egui_kittest::Harness<'static, WholeTable> {
        let rules = crate::rules::Preset::Korean.rules();
        let mut view = WholeTable {
            table_text: table.into(),
            rack_text: rack.into(),
            ..WholeTable::default()
        };
        let (table, rack, _) = asked(table, rack);
        let options = PlayOptions {
            tile_set: rules.tile_set,
            by: view.by,
            joker_value: rules.joker_penalty,
        };
        let (tx, rx) = channel();
        tx.send(Found::Play(best_play(&table, &rack, &options)))
            .expect("the view listens");
        view.working = Some(Working {
            asked: (table, rack, options),
            answer: rx,
            stop: Arc::new(AtomicBool::new(false)),
        });
        let mut harness = egui_kittest::Harness::builder()
            .with_size(size)
            .with_context_setup(crate::ui::install_fonts)
            .build_ui_state(
                move |ui, view: &mut WholeTable| view.ui(ui, lang, &rules),
                view,
            );
        harness.run();
        harness
    }

    /// The steps under the answer, one shown at a time with the table as it stands before it
    /// (the set its tiles leave and the one they go to outlined and named), Back and Next by
    /// button or by the ← → keys, and at the end the table after the play with its new set
    /// marked new, not changed.
    #[test]
    fn the_steps_are_shown_one_at_a_time_by_next_and_back() {
        use egui_kittest::kittest::Queryable;
        let mut h = answered("R5 J R7", "R6 B9 K9", Language::English);
        let shown = |h: &egui_kittest::Harness<'_, WholeTable>, text: &str| {
            h.query_all_by_label_contains(text).next().is_some()
        };
        assert!(shown(&h, "Best play: 3 tiles from the rack (24 points)"));
        assert!(shown(&h, "Table sets changed: 1 · Tiles moved: 4"));
        assert!(shown(&h, "How to play it:"));
        assert!(shown(&h, "Step 1 of 3"));
        for line in [
            "1. Put R6 in place of the joker in R5 J R7.",
            "2. Take the freed joker from R5 R6 R7 J to start a new set.",
            "3. Add B9 K9 to J.",
        ] {
            assert!(shown(&h, line), "{line}");
        }
        // Step 1: R6 from the rack goes into R5 J R7, outlined as where to put it.
        assert!(shown(&h, "The table before this step:"));
        assert!(shown(&h, "put here"));
        assert!(!shown(&h, "take from here"));
        assert!(!shown(&h, "The table after this play:"));

        h.get_by_label("Next").click();
        h.run();
        assert!(shown(&h, "Step 2 of 3"));
        // The joker leaves R5 R6 R7 J for a new set.
        assert!(shown(&h, "take from here"));
        assert!(shown(&h, "a new set: put here"));
        assert_eq!(h.state().cursor, 1);

        h.key_press(egui::Key::ArrowRight);
        h.run();
        assert!(shown(&h, "Step 3 of 3"));
        h.key_press(egui::Key::ArrowRight);
        h.run();
        assert!(shown(&h, "All 3 steps done"));
        assert!(shown(&h, "The table after this play:"));
        let mark = |h: &egui_kittest::Harness<'_, WholeTable>, text: &str| {
            h.query_all_by_label(text).count()
        };
        assert_eq!(mark(&h, "new"), 1, "the joker's set is new");
        assert_eq!(mark(&h, "changed"), 1, "R5 R6 R7 changed");
        assert!(!shown(&h, "The table before this step:"));
        // Past the end nothing moves; Back by key and by button.
        h.key_press(egui::Key::ArrowRight);
        h.run();
        assert_eq!(h.state().cursor, 3);
        h.key_press(egui::Key::ArrowLeft);
        h.run();
        assert!(shown(&h, "Step 3 of 3"));
        h.get_by_label("Back").click();
        h.run();
        assert!(shown(&h, "Step 2 of 3"));
    }

    /// Regression: at 800×600 the steps began below the fold, under a picker of 40-pixel
    /// tiles; the player saw the answer but not how to play it. In a short window the picker's
    /// tiles are smaller and the first step starts where the view still shows it (the view
    /// gets about 455 of the 600 pixels: the tabs and the clock above, the status line below).
    #[test]
    fn in_a_short_window_the_first_step_starts_in_view() {
        use egui_kittest::kittest::Queryable;
        let top = |size| {
            let h = answered_in("R5 J R7", "R6 B9 K9", Language::English, size);
            h.get_by_label_contains("1. Put R6 in place of the joker")
                .rect()
                .top()
        };
        assert!(
            top([800.0, 600.0]) < 455.0 - 20.0,
            "{}",
            top([800.0, 600.0])
        );
        // A taller window keeps the larger tiles: the step starts further down.
        assert!(top([960.0, 720.0]) > top([800.0, 600.0]));
    }

    /// While a text field has the keyboard, ← and → are the field's (the cursor in the rack),
    /// not the steps'.
    #[test]
    fn the_arrow_keys_are_the_fields_while_one_is_typed_in() {
        use egui_kittest::kittest::Queryable;
        let mut h = answered("R5 J R7", "R6 B9 K9", Language::English);
        h.get_by_role_and_label(egui::accesskit::Role::TextInput, "Rack")
            .focus();
        h.run();
        h.key_press(egui::Key::ArrowRight);
        h.run();
        assert_eq!(h.state().cursor, 0);
        assert!(h.query_by_label_contains("Step 1 of 3").is_some());
    }

    /// The same steps at a Korean table: the words, the buttons and the marks in Korean.
    #[test]
    fn the_steps_read_in_korean() {
        use egui_kittest::kittest::Queryable;
        let mut h = answered("R5 J R7", "R6 B9 K9", Language::Korean);
        let shown = |h: &egui_kittest::Harness<'_, WholeTable>, text: &str| {
            h.query_all_by_label_contains(text).next().is_some()
        };
        assert!(shown(&h, "놓는 순서:"));
        assert!(shown(&h, "3단계 중 1단계"));
        assert!(shown(&h, "1. 빨5 조커 빨7의 조커 자리에 놓기: 빨6"));
        assert!(shown(&h, "여기에 놓기"));
        h.get_by_label("다음").click();
        h.run();
        assert!(shown(&h, "여기서 떼기"));
        assert!(shown(&h, "새 묶음: 여기에 놓기"));
        h.get_by_label("다음").click();
        h.run();
        h.get_by_label("다음").click();
        h.run();
        assert!(shown(&h, "3단계 모두 끝"));
        assert!(shown(&h, "이렇게 놓은 뒤의 테이블:"));
        assert_eq!(h.query_all_by_label("새로 만듦").count(), 1);
        assert_eq!(h.query_all_by_label("바뀜").count(), 1);
        h.get_by_label("이전").click();
        h.run();
        assert!(shown(&h, "3단계 중 3단계"));
    }
}
