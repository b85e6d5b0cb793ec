//! Score sheet view: enter a game in seconds, see who leads under both final-winner rules.
//!
//! A game is entered the way it is counted at the table: one field per player with what is
//! left on their rack, a number or the tiles (`R5 K7 J`). `0` marks who went out; with no `0`
//! the pool ran out and the lowest wins. Digits, Tab and Enter are enough. The sheet itself only
//! holds facts; every number shown is derived by the score engine, so a rule change recomputes
//! the whole sheet.

use chrono::{DateTime, Local, Utc};
use egui::{Color32, RichText, Ui};

use super::{signed, tiles};
use crate::evening::settings::SheetPlan;
use crate::evening::sheets::{RulesPreview, rules_preview, with_scoring};
use crate::evening::{Command, Draft, DraftEdit, DraftProblem, Past};
use crate::history::History;
use crate::i18n;
use crate::lang::Language;
use crate::rules::{FinalRule, RuleSet};
use crate::score::{MatchState, SheetState, SheetSummary};
use crate::score::{Remaining, ScoreError, Sheet};
use crate::store::SheetId;

/// What the sheet view asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum SheetRequest {
    /// A command for the evening (a new sheet, a game saved, a field typed, …).
    Evening(Command),
    /// Write the CSV where the user chooses (the system's save dialog).
    ExportAs,
    /// Write the sheet and its chart as a picture.
    ExportPicture,
    /// Show (or hide) the history across evenings.
    History(bool),
    /// How the next new sheet's match ends, as chosen now (kept in the settings).
    Plan(SheetPlan),
}

/// The view's own state: the form's focus and picker. The game being typed is the evening's
/// ([`SheetContext::draft`]), and so is how the next new sheet's match ends
/// ([`SheetContext::plan`], kept in the settings).
#[derive(Debug, Default)]
pub struct SheetView {
    /// Whose field the tile picker fills, if it is open.
    picking: Option<usize>,
    /// This view asked for the form: put the cursor in its first field and scroll it into
    /// view when it appears (a form a phone opened moves nothing).
    opening: bool,
    /// The draft shown last frame (its id), to tell a newly opened form.
    shown: Option<u64>,
    /// The draft shown last frame was a new game's (not an edit's).
    shown_new: bool,
    /// A new game's form just closed: bring the totals (and the last game above them) back
    /// into view, or the sheet stays scrolled to where the form was, past its games.
    show_totals: bool,
    /// The history's "count two names as one" form.
    merge: super::history_view::MergeForm,
}

/// What the sheet view needs besides the sheet: the settings' rules (for "Apply to this
/// sheet"), the saved sheets, which one is open, its form, and the history when it is shown.
pub struct SheetContext<'a> {
    /// The rules new sheets get.
    pub settings_rules: &'a RuleSet,
    /// How the next new sheet's match ends.
    pub plan: SheetPlan,
    /// The saved sheets, `None` while they are being read.
    pub past: Option<Past>,
    /// The open sheet's id.
    pub open: Option<&'a SheetId>,
    /// The open sheet's form, while it is open.
    pub draft: Option<&'a Draft>,
    /// The history across evenings when asked for: `None` while it is being worked out.
    pub history: Option<Option<&'a (History, Vec<String>)>>,
    /// The names the history counts as one.
    pub merged: &'a [(String, String)],
    /// A "Save CSV as…" dialog is open.
    pub choosing_where_to_save: bool,
    /// Why the evening refused this view's last request.
    pub refused: Option<&'a str>,
}

fn local_time(t: DateTime<Utc>) -> String {
    t.with_timezone(&Local).format("%Y-%m-%d %H:%M").to_string()
}

const RED: Color32 = Color32::from_rgb(0xc6, 0x28, 0x28);
/// The width of a remaining-value field: a whole rack of a dozen tiles shows.
const FIELD_WIDTH: f32 = 340.0;
const GREEN: Color32 = Color32::from_rgb(0x2e, 0x7d, 0x32);

/// The key that adds a game (shown on "Add game").
pub const ADD_GAME_KEY: &str = "Ctrl+N";

impl SheetView {
    /// The add-game form is being opened by a key: its first field gets the cursor when it
    /// appears, as after a click on "Add game".
    pub fn opening_form(&mut self) {
        self.opening = true;
    }

    /// Draws the view: the toolbar (it stays while the sheet scrolls), then in a scrolling
    /// area the sheet, the game form and the chart. Only the rows in view are drawn, so a
    /// 2,000-game sheet scrolls and reads (screen readers too) like a short one.
    #[must_use]
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        lang: Language,
        sheet: Option<&Sheet>,
        context: &SheetContext<'_>,
        _now: std::time::Duration,
    ) -> Vec<SheetRequest> {
        let mut requests = self.toolbar(ui, lang, sheet, context);
        ui.separator();
        // With the form open its refusals are said in the form's own reserved line: nothing
        // above it may move it under the cursor.
        if let Some(e) = context.refused.filter(|_| context.draft.is_none()) {
            ui.colored_label(RED, e);
        }
        // The players' names stay in sight above a long sheet's rows (not above the history).
        if let Some(sheet) = sheet.filter(|_| context.history.is_none()) {
            names_row(ui, sheet);
        }
        egui::ScrollArea::vertical()
            .id_salt("sheet-body")
            .auto_shrink([false, false])
            .show_viewport(ui, |ui, viewport| {
                // The viewport in screen coordinates: the rows in it are drawn.
                let origin = ui.max_rect().top();
                let view = viewport.translate(egui::vec2(0.0, origin));
                requests.extend(self.body(ui, lang, sheet, context, view));
            });
        requests
    }

    /// Everything under the toolbar; `viewport` is the part in view (screen coordinates).
    fn body(
        &mut self,
        ui: &mut Ui,
        lang: Language,
        sheet: Option<&Sheet>,
        context: &SheetContext<'_>,
        viewport: egui::Rect,
    ) -> Vec<SheetRequest> {
        let s = lang.strings();
        let mut requests = Vec::new();
        match context.history {
            Some(Some(history)) => {
                let asked = super::history_view::ui(
                    ui,
                    lang,
                    &history.0,
                    &history.1,
                    context.merged,
                    &mut self.merge,
                );
                requests.extend(asked.map(SheetRequest::Evening));
                ui.separator();
            }
            Some(None) => {
                ui.label(RichText::new(i18n::evening::LOADING_HISTORY.get(lang)).weak());
                ui.separator();
            }
            None => {}
        }
        let Some(sheet) = sheet else {
            ui.label(s.sheet.no_sheets);
            return requests;
        };
        // The rules this sheet is scored under; settings change them only when asked.
        ui.label(RichText::new(i18n::rules_line(lang, sheet.rules())).strong());
        if let Some(preview) = rules_preview(sheet, context.settings_rules)
            && let Some(r) = apply_rules_ui(ui, lang, sheet, context.settings_rules, preview)
        {
            requests.push(r);
        }
        let editing = context.draft.and_then(|d| d.editing.map(|i| (i, d)));
        self.show_totals = context.draft.is_none() && self.shown.is_some() && self.shown_new;
        // Under the history the names head the rows here (else they stay above the scrolling
        // body).
        if context.history.is_some() {
            names_row(ui, sheet);
        }
        requests.extend(self.table(ui, lang, sheet, viewport, editing, context.refused));
        match_ui(ui, lang, sheet);
        ui.add_space(8.0);
        match context.draft {
            // An edit's form is drawn beside its row (in the table).
            Some(draft) if draft.editing.is_some() => {}
            Some(draft) => requests.extend(self.form_ui(ui, lang, sheet, draft, context.refused)),
            None => {
                self.shown = None;
                self.picking = None;
                // Ctrl+N adds a game from any tab; the button says so.
                let add = egui::Button::new(RichText::new(s.sheet.add_game).size(20.0))
                    .shortcut_text(RichText::new(ADD_GAME_KEY).size(16.0))
                    .min_size(egui::vec2(0.0, super::TOUCH));
                let add = ui.add(add).on_hover_text(ADD_GAME_KEY);
                add.widget_info(|| {
                    egui::WidgetInfo::labeled(egui::Role::Button, true, s.sheet.add_game)
                });
                if add.clicked() {
                    self.opening = true;
                    requests.push(SheetRequest::Evening(Command::AddGame));
                }
            }
        }
        // The race, below what the table types into (so the form opens in sight).
        if !sheet.games().is_empty() {
            let series = running_totals(sheet);
            super::chart::lines(ui, "running-totals", series, 220.0, s.results.games_axis);
        }
        requests
    }

    fn toolbar(
        &mut self,
        ui: &mut Ui,
        lang: Language,
        sheet: Option<&Sheet>,
        context: &SheetContext<'_>,
    ) -> Vec<SheetRequest> {
        let s = lang.strings();
        let mut requests = Vec::new();
        let mut commands = Vec::new();
        let mut push = |c: Command| commands.push(c);
        let mut plan = context.plan;
        ui.horizontal_wrapped(|ui| {
            // Every control here is a touch target ("Open" and the check boxes too).
            ui.spacing_mut().interact_size.y = super::TOUCH;
            let size = egui::vec2(0.0, super::TOUCH);
            if ui
                .add(egui::Button::new(s.sheet.new_sheet).min_size(size))
                .clicked()
            {
                push(Command::NewSheet {
                    rounds: plan.rounds(),
                    target: plan.target(),
                });
            }
            // How the next new sheet's match ends; the open sheet keeps its own (said on hover).
            let label = ui
                .label(s.sheet.planned_rounds)
                .on_hover_text(s.sheet.for_new_sheets);
            plan.rounds = plan.rounds.max(1);
            ui.add_enabled(
                !plan.open_ended,
                egui::DragValue::new(&mut plan.rounds).range(1..=20),
            )
            .labelled_by(label.id)
            .on_hover_text(s.sheet.for_new_sheets);
            super::check_box(ui, &mut plan.open_ended, s.sheet.open_ended)
                .on_hover_text(s.sheet.for_new_sheets);
            if plan.target == 0 {
                plan.target = 100;
            }
            let target = super::check_box(ui, &mut plan.use_target, s.results.target_total)
                .on_hover_text(s.sheet.for_new_sheets);
            ui.add_enabled(
                plan.use_target,
                egui::DragValue::new(&mut plan.target)
                    .range(1..=10_000)
                    .update_while_editing(false),
            )
            .labelled_by(target.id)
            .on_hover_text(s.sheet.for_new_sheets);
            ui.separator();
            ui.menu_button(s.sheet.open_sheet, |ui| match &context.past {
                None => {
                    ui.label(i18n::evening::LOADING_SHEETS.get(lang));
                }
                Some(past) if past.is_empty() => {
                    ui.label(s.sheet.no_sheets);
                }
                Some(past) => {
                    for (id, summary) in past.iter() {
                        let open = context.open == Some(id);
                        let line = summary_line(lang, summary);
                        if ui.selectable_label(open, line).clicked() {
                            push(Command::OpenSheet(id.clone()));
                            ui.close();
                        }
                    }
                }
            });
            if ui
                .add_enabled(
                    sheet.is_some(),
                    egui::Button::new(s.sheet.export_csv).min_size(size),
                )
                .clicked()
            {
                push(Command::ExportCsv(None));
            }
            // While the dialog is open a second click would open a second one.
            let save_as = ui
                .add_enabled(
                    sheet.is_some() && !context.choosing_where_to_save,
                    egui::Button::new(s.results.export_csv_as).min_size(size),
                )
                .on_disabled_hover_text(s.sheet.choosing_where_to_save);
            let mut export_as = save_as.clicked();
            let picture = ui
                .add_enabled(
                    sheet.is_some(),
                    egui::Button::new(s.results.export_picture).min_size(size),
                )
                .clicked();
            let showing = context.history.is_some();
            let history = ui
                .add(egui::Button::selectable(showing, s.results.history).min_size(size))
                .clicked();
            if std::mem::take(&mut export_as) {
                requests.push(SheetRequest::ExportAs);
            }
            if picture {
                requests.push(SheetRequest::ExportPicture);
            }
            if history {
                requests.push(SheetRequest::History(!showing));
            }
        });
        requests.extend(commands.into_iter().map(SheetRequest::Evening));
        if plan != context.plan {
            requests.push(SheetRequest::Plan(plan));
        }
        requests
    }

    /// The sheet's rows: names, one row per game (a round's label before its first game),
    /// totals, wins, ranks. Only the game rows in `viewport` are drawn; the others only take
    /// their room. An edit's form is drawn right under the game it edits.
    fn table(
        &mut self,
        ui: &mut Ui,
        lang: Language,
        sheet: &Sheet,
        viewport: egui::Rect,
        editing: Option<(usize, &Draft)>,
        refused: Option<&str>,
    ) -> Vec<SheetRequest> {
        let s = lang.strings();
        let names = sheet.players().names();
        let standings = sheet.standings();
        let rule = sheet.rules().final_rule;
        let mut requests = Vec::new();
        if sheet.games().is_empty() {
            ui.label(s.sheet.no_games_yet);
        }
        let columns = Columns::for_players(names.len());
        // The rows: a round's label, then its games.
        let mut rows = Vec::with_capacity(sheet.games().len() + sheet.games().len() / 4 + 1);
        for i in 0..sheet.games().len() {
            let number = sheet.number(i);
            if number.in_round == 1 && number.round > 1 {
                rows.push(Row::Round(number.round));
            }
            rows.push(Row::Game(i));
        }
        let split = editing
            .and_then(|(i, _)| rows.iter().position(|r| *r == Row::Game(i)))
            .map_or(rows.len(), |at| at + 1);
        let (before, after) = rows.split_at(split);
        requests.extend(self.rows_in_view(ui, lang, sheet, &columns, viewport, before));
        if let Some((_, draft)) = editing {
            requests.extend(self.form_ui(ui, lang, sheet, draft, refused));
        }
        requests.extend(self.rows_in_view(ui, lang, sheet, &columns, viewport, after));
        columns.row(ui, |ui, cell| {
            cell(ui, 0, RichText::new(s.sheet.totals).strong());
            for (seat, total) in standings.totals.iter().enumerate() {
                cell(
                    ui,
                    seat + 1,
                    RichText::new(signed(*total)).strong().size(20.0),
                );
            }
        });
        columns.row(ui, |ui, cell| {
            cell(ui, 0, RichText::new(s.sheet.wins));
            for (seat, wins) in standings.wins.iter().enumerate() {
                cell(ui, seat + 1, RichText::new(wins.to_string()).size(18.0));
            }
        });
        columns.row(ui, |ui, cell| {
            cell(ui, 0, RichText::new(s.sheet.rank).strong());
            for (seat, rank) in standings.ranks(rule).iter().enumerate() {
                cell(
                    ui,
                    seat + 1,
                    RichText::new(rank.to_string()).strong().size(20.0),
                );
            }
        });
        if std::mem::take(&mut self.show_totals) {
            ui.scroll_to_cursor(Some(egui::Align::Center));
        }
        result_lines(ui, lang, sheet);
        requests
    }

    /// The game form, drawn from the evening's draft: every change typed is a request (the
    /// evening keeps the draft), and Enter in a field or on Save saves. Enter keeps the field
    /// it was pressed in (a refused save loses no key typed after it), and what blocks Save,
    /// or why the evening refused it (`refused`), is said in a line whose room is always kept,
    /// so the form never moves under the cursor.
    fn form_ui(
        &mut self,
        ui: &mut Ui,
        lang: Language,
        sheet: &Sheet,
        draft: &Draft,
        refused: Option<&str>,
    ) -> Vec<SheetRequest> {
        let s = lang.strings();
        let names = sheet.players().names();
        let flat_not_melded = sheet.rules().not_melded_value.is_some();
        // The set the sheet's racks are checked against (five or six players play the XP set).
        let tile_set = crate::score::tile_set_for(names.len(), sheet.rules());
        let mut requests = Vec::new();
        let mut edit = |e: DraftEdit| requests.push(SheetRequest::Evening(Command::Draft(e)));
        let fresh = self.shown != Some(draft.id);
        self.shown = Some(draft.id);
        self.shown_new = draft.editing.is_none();
        let focus_first = fresh && std::mem::take(&mut self.opening);
        let mut enter = false;
        // Whether the game can be saved, and if not why, in words.
        let checked = draft.game(sheet, sheet.created());
        let blocked: Option<String> = match &checked {
            Ok(_) => None,
            Err(DraftProblem::Missing(name)) => Some(
                // Say at once when a value typed so far cannot be read.
                unreadable(lang, draft, names).unwrap_or_else(|| (s.table.missing_left)(name)),
            ),
            // A tie asks for its winner below.
            Err(DraftProblem::Score(ScoreError::Tie { .. })) => {
                Some(s.table.choose_tie_winner.to_owned())
            }
            Err(problem) => Some(crate::evening::words::draft_problem(lang, problem)),
        };
        let mut save = false;
        let mut cancel = false;
        let group = ui.group(|ui| {
            let title = match draft.editing {
                Some(i) => {
                    let n = sheet.number(i);
                    format!(
                        "{} · {}",
                        s.sheet.edit_game,
                        (s.sheet.game_label)(n.round, n.in_round)
                    )
                }
                None => {
                    let n = sheet.next_number();
                    format!(
                        "{} · {}",
                        s.sheet.add_game,
                        (s.sheet.game_label)(n.round, n.in_round)
                    )
                }
            };
            ui.label(RichText::new(title).strong());
            ui.label(RichText::new(s.sheet.remaining_hint).weak());
            // Only the players' fields are in this grid, one after another, so Tab goes from
            // one player's field to the next; then Save, then nothing else of the form.
            egui::Grid::new("game-form").show(ui, |ui| {
                for (i, name) in names.iter().enumerate() {
                    let label = ui.label(RichText::new(name).size(18.0));
                    if let Some(typed) = draft.left.get(i) {
                        let mut text = typed.clone();
                        // A fixed size: a grid cell would otherwise keep the width of its
                        // first, empty frame, and a rack like `R12 R13 J` would not show whole.
                        // Enter does not take the cursor out of the field (egui's single
                        // line gives it up on Enter): the form reads Enter itself.
                        let field = ui.add_sized(
                            [FIELD_WIDTH, 32.0],
                            egui::TextEdit::singleline(&mut text)
                                .hint_text(s.table.remaining_placeholder)
                                .font(egui::TextStyle::Heading)
                                .return_key(None),
                        );
                        let field = field.labelled_by(label.id);
                        if i == 0 && focus_first {
                            field.request_focus();
                        }
                        super::fold_full_width(&mut text);
                        if text != *typed {
                            edit(DraftEdit::Left(i, text));
                        }
                        enter |= field.has_focus()
                            && ui.input(|inp| {
                                inp.events.iter().any(|e| {
                                    matches!(
                                        e,
                                        egui::Event::Key {
                                            key: egui::Key::Enter,
                                            pressed: true,
                                            repeat: false,
                                            ..
                                        }
                                    )
                                })
                            });
                    }
                    ui.end_row();
                }
            });
            ui.horizontal(|ui| {
                let ok = blocked.is_none();
                let size = egui::vec2(0.0, 36.0);
                let mut button = ui.add_enabled(
                    ok,
                    egui::Button::new(RichText::new(s.sheet.save_game).size(18.0)).min_size(size),
                );
                if let Some(why) = &blocked {
                    button = button.on_disabled_hover_text(why);
                }
                save = button.clicked();
                cancel = ui
                    .add(egui::Button::new(s.sheet.cancel).min_size(size))
                    .clicked();
            });
            if let Ok(game) = &checked
                && let Ok(score) = sheet.check_game(game)
            {
                let preview: Vec<String> = names
                    .iter()
                    .zip(&score.points)
                    .map(|(n, p)| format!("{n} {}", signed(*p)))
                    .collect();
                let how = if score.went_out {
                    s.sheet.went_out
                } else {
                    s.sheet.pool_ran_out
                };
                let winner = names.get(score.winner).map_or("", String::as_str);
                ui.label(format!("{how}: {winner} · {}", preview.join(" · ")));
            }
            // A tie for lowest: ask who won.
            if let Some(tied) = tie(sheet, draft) {
                ui.horizontal(|ui| {
                    ui.label(s.sheet.tie_winner);
                    for (seat, name) in tied {
                        let mut chosen = draft.tie_winner;
                        if ui.radio_value(&mut chosen, Some(seat), name).changed() {
                            edit(DraftEdit::TieWinner(chosen));
                        }
                    }
                });
            }
            // What blocks Save, or why it was refused, in a line whose room is always kept.
            let why = refused.or(blocked.as_deref()).unwrap_or("");
            let line = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
            ui.allocate_ui_with_layout(
                egui::vec2(ui.available_width(), line),
                egui::Layout::left_to_right(egui::Align::Center),
                |ui| {
                    ui.set_min_height(line);
                    ui.add(egui::Label::new(RichText::new(why).color(RED)).wrap());
                },
            );
            // Tile picking and the not-melded marks come after every field and Save.
            ui.horizontal_wrapped(|ui| {
                ui.spacing_mut().interact_size.y = super::TOUCH;
                ui.label(s.table.pick_tiles_for);
                for (i, name) in names.iter().enumerate() {
                    let picking = self.picking == Some(i);
                    let pick = ui.selectable_label(picking, name);
                    let label = format!("{}: {name}", s.sheet.pick_tiles);
                    pick.widget_info(|| {
                        egui::WidgetInfo::selected(egui::Role::Button, true, picking, &label)
                    });
                    if pick.clicked() {
                        self.picking = if picking { None } else { Some(i) };
                    }
                }
            });
            if flat_not_melded {
                ui.horizontal_wrapped(|ui| {
                    ui.label(s.sheet.not_melded_flag);
                    for (i, name) in names.iter().enumerate() {
                        if let Some(&flag) = draft.not_melded.get(i) {
                            let mut on = flag;
                            if super::check_box(ui, &mut on, name).changed() {
                                edit(DraftEdit::NotMelded(i, on));
                            }
                        }
                    }
                });
            }
            if let Some(i) = self.picking {
                let racks = draft.left.iter().filter_map(|t| match t.trim().parse() {
                    Ok(Remaining::Tiles(tiles)) => Some(tiles),
                    _ => None,
                });
                let used = tiles::counts(racks.flatten());
                if let Some(tile) = tiles::picker(ui, lang, &used, tile_set, 32.0) {
                    edit(DraftEdit::Tile(i, tile));
                }
            }
        });
        if fresh {
            group.response.scroll_to_me(Some(egui::Align::Center));
        }
        if save || enter {
            // The evening saves it, or says why not (shown above the sheet).
            requests.push(SheetRequest::Evening(Command::SaveGame));
        }
        if cancel {
            requests.push(SheetRequest::Evening(Command::DiscardDraft));
        }
        requests
    }
}

/// The players' names over their columns.
fn names_row(ui: &mut Ui, sheet: &Sheet) {
    let names = sheet.players().names();
    Columns::for_players(names.len()).row(ui, |ui, cell| {
        cell(ui, 0, RichText::new(""));
        for (seat, name) in names.iter().enumerate() {
            cell(ui, seat + 1, RichText::new(name).strong().size(18.0));
        }
    });
}

/// The height of one row of the sheet (a game, a round's label, the totals).
const ROW_H: f32 = 34.0;

/// One row of the sheet's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Row {
    /// "Round 2" before the round's first game.
    Round(usize),
    /// The game at this index.
    Game(usize),
}

/// The sheet's columns: the row's label, then one per player, at fixed widths so that rows
/// drawn apart (only those in view are) line up.
struct Columns {
    label: f32,
    player: f32,
}

impl Columns {
    fn for_players(_players: usize) -> Columns {
        Columns {
            label: 150.0,
            player: 96.0,
        }
    }

    fn width(&self, column: usize) -> f32 {
        if column == 0 { self.label } else { self.player }
    }

    /// A row of cells, exactly [`ROW_H`] high; `f` draws the cells in column order.
    fn row<R>(
        &self,
        ui: &mut Ui,
        f: impl FnOnce(&mut Ui, &mut dyn FnMut(&mut Ui, usize, RichText)) -> R,
    ) -> R {
        let width = ui.available_width();
        ui.allocate_ui_with_layout(
            egui::vec2(width, ROW_H),
            egui::Layout::left_to_right(egui::Align::Center),
            |ui| {
                ui.set_min_height(ROW_H);
                let mut cell = |ui: &mut Ui, column: usize, text: RichText| {
                    ui.allocate_ui_with_layout(
                        egui::vec2(self.width(column), ROW_H),
                        egui::Layout::left_to_right(egui::Align::Center),
                        |ui| {
                            ui.set_min_width(self.width(column));
                            ui.label(text);
                        },
                    );
                };
                f(ui, &mut cell)
            },
        )
        .inner
    }
}

/// Draws the rows of `rows` that are in `viewport` (the visible part of the scroll area, in
/// screen coordinates) and only takes the room of the others, so the scroll bar and the layout
/// stay as if all were drawn.
fn in_view(ui: &mut Ui, viewport: egui::Rect, rows: &[Row], draw: &mut impl FnMut(&mut Ui, &Row)) {
    if rows.is_empty() {
        return;
    }
    let pitch = ROW_H + ui.spacing().item_spacing.y;
    let top = ui.cursor().top();
    let n = rows.len();
    let first = (((viewport.min.y - top) / pitch).floor().max(0.0) as usize).min(n);
    let last = ((((viewport.max.y - top) / pitch).ceil().max(0.0) as usize) + 1).min(n);
    if first > 0 {
        ui.add_space(first as f32 * pitch);
    }
    for row in &rows[first..last.max(first)] {
        draw(ui, row);
    }
    if last < n {
        ui.add_space((n - last.max(first)) as f32 * pitch);
    }
}

impl SheetView {
    /// The rows of `rows` in view, drawn (the others take their room).
    fn rows_in_view(
        &mut self,
        ui: &mut Ui,
        lang: Language,
        sheet: &Sheet,
        columns: &Columns,
        viewport: egui::Rect,
        rows: &[Row],
    ) -> Vec<SheetRequest> {
        let s = lang.strings();
        let mut requests = Vec::new();
        // Ids that do not depend on which rows are in view: each row its own, and the rows
        // together one, so the widgets after them (the form's fields) keep theirs.
        let first = rows.first().copied();
        ui.push_id(("rows", first), |ui| {
            in_view(ui, viewport, rows, &mut |ui, row| {
                ui.push_id(*row, |ui| match *row {
                    Row::Round(round) => {
                        columns.row(ui, |ui, cell| {
                            cell(ui, 0, RichText::new((s.sheet.round_label)(round)).weak());
                        });
                    }
                    Row::Game(i) => {
                        if let Some(r) = self.game_row(ui, lang, sheet, columns, i) {
                            requests.push(r);
                        }
                    }
                });
            });
        });
        requests
    }

    /// One game's row: its label, each player's points (the winner's in green), Edit and
    /// Delete.
    fn game_row(
        &mut self,
        ui: &mut Ui,
        lang: Language,
        sheet: &Sheet,
        columns: &Columns,
        i: usize,
    ) -> Option<SheetRequest> {
        let s = lang.strings();
        let score = sheet.scores().get(i)?;
        let number = sheet.number(i);
        let mut request = None;
        columns.row(ui, |ui, cell| {
            cell(
                ui,
                0,
                RichText::new((s.sheet.game_label)(number.round, number.in_round)),
            );
            for (seat, points) in score.points.iter().enumerate() {
                let text = RichText::new(signed(*points)).size(18.0);
                let text = if seat == score.winner {
                    text.strong().color(GREEN)
                } else {
                    text
                };
                cell(ui, seat + 1, text);
            }
            let size = egui::vec2(0.0, 32.0);
            if ui
                .add(egui::Button::new(s.sheet.edit_game).min_size(size))
                .clicked()
            {
                self.opening = true;
                request = Some(SheetRequest::Evening(Command::EditGame(i)));
            }
            // The second click of a double-click is not a second delete.
            let delete = ui.add(egui::Button::new(s.sheet.delete_game).min_size(size));
            if delete.clicked()
                && !delete.double_clicked()
                && !delete.triple_clicked()
                && let Some(game) = sheet.games().get(i)
            {
                request = Some(SheetRequest::Evening(Command::DeleteGame(i, game.clone())));
            }
        });
        request
    }
}

/// The first typed value that cannot be read, worded with its player.
fn unreadable(lang: Language, draft: &Draft, names: &[String]) -> Option<String> {
    draft
        .left
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.trim().is_empty())
        .find_map(|(i, t)| t.trim().parse::<Remaining>().err().map(|e| (i, e)))
        .map(|(i, e)| {
            let name = names.get(i).map_or("", String::as_str);
            format!("{name}: {}", i18n::remaining_error(lang, &e))
        })
}

/// The players tied for lowest, when the typed game is a tie the table must decide.
fn tie<'a>(sheet: &'a Sheet, draft: &Draft) -> Option<Vec<(usize, &'a str)>> {
    let undecided = Draft {
        tie_winner: None,
        ..draft.clone()
    };
    match undecided.game(sheet, sheet.created()) {
        Err(DraftProblem::Score(ScoreError::Tie { tied, .. })) => Some(
            tied.iter()
                .filter_map(|seat| {
                    sheet
                        .players()
                        .names()
                        .get(seat.index)
                        .map(|n| (seat.index, n.as_str()))
                })
                .collect(),
        ),
        _ => None,
    }
}

/// One line of the "Open" list: date, players, games, leader, state.
fn summary_line(lang: Language, summary: &SheetSummary) -> String {
    let s = lang.strings();
    let state = match summary.state {
        SheetState::Finished => s.results.state_finished,
        SheetState::Playing | SheetState::Empty => s.results.state_playing,
    };
    format!(
        "{} · {} · {} · {} {} · {state}",
        local_time(summary.last_activity),
        summary.players.join(", "),
        (s.results.games_count)(summary.games),
        s.results.leader,
        summary.leaders.join(", ")
    )
}

/// "Apply to this sheet": what would move (points, winner) under the settings' rules.
fn apply_rules_ui(
    ui: &mut Ui,
    lang: Language,
    sheet: &Sheet,
    settings_rules: &RuleSet,
    preview: Result<RulesPreview, ScoreError>,
) -> Option<SheetRequest> {
    let s = lang.strings();
    let mut request = None;
    let wanted = with_scoring(sheet.rules(), settings_rules);
    ui.group(|ui| {
        ui.label((s.results.settings_rules_differ)(&i18n::rules_line(
            lang, &wanted,
        )));
        apply_preview_ui(ui, lang, sheet, preview, &mut request);
    });
    request
}

/// The moves "Apply to this sheet" would make, and its button.
fn apply_preview_ui(
    ui: &mut Ui,
    lang: Language,
    sheet: &Sheet,
    preview: Result<RulesPreview, ScoreError>,
    request: &mut Option<SheetRequest>,
) {
    let s = lang.strings();
    match preview {
        Ok(preview) => {
            let names = sheet.players().names();
            let moves: Vec<String> = names
                .iter()
                .zip(&preview.totals)
                .filter(|(_, (a, b))| a != b)
                .map(|(n, (a, b))| format!("{n} {} → {}", signed(*a), signed(*b)))
                .collect();
            let (was, will) = (
                who(names, &preview.winners_before),
                who(names, &preview.winners_after),
            );
            if moves.is_empty() {
                ui.label(s.results.no_points_move);
            } else {
                ui.label(moves.join(" · "));
            }
            if was != will {
                ui.label(RichText::new((s.results.winner_would_change)(&was, &will)).strong());
            }
            if ui.button(s.results.apply_to_sheet).clicked() {
                *request = Some(SheetRequest::Evening(Command::ApplyRules));
            }
        }
        Err(e) => {
            ui.colored_label(RED, i18n::score_error(lang, &e));
        }
    }
}

/// The names at `seats`, joined: "루미, 큐브".
fn who(names: &[String], seats: &[usize]) -> String {
    seats
        .iter()
        .filter_map(|&i| names.get(i).map(String::as_str))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Each player's running total, game by game, for the chart (the leaders' lines thick).
pub(super) fn running_totals(sheet: &Sheet) -> Vec<super::chart::Series> {
    let names = sheet.players().names();
    let leaders = sheet.standings().winners(sheet.rules().final_rule);
    names
        .iter()
        .enumerate()
        .map(|(seat, name)| {
            let mut total = 0;
            let mut points = vec![[0.0, 0.0]];
            for (g, score) in sheet.scores().iter().enumerate() {
                total += score.points.get(seat).copied().unwrap_or(0);
                points.push([(g + 1) as f64, total as f64]);
            }
            super::chart::Series {
                name: name.clone(),
                points,
                leading: leaders.contains(&seat),
            }
        })
        .collect()
}

/// "Winner by highest total: 루미" (or "Leader by …" until the match is over), under the
/// sheet's rule large, then under the other rule.
pub(super) fn result_lines(ui: &mut Ui, lang: Language, sheet: &Sheet) {
    let s = lang.strings();
    let names = sheet.players().names();
    let standings = sheet.standings();
    let rule = sheet.rules().final_rule;
    let rule_name = |r: FinalRule| match r {
        FinalRule::Total => s.sheet.rule_total_short,
        FinalRule::Wins => s.sheet.rule_wins_short,
    };
    if sheet.games().is_empty() {
        return;
    }
    // Winners once the match is over (its result: games added after it do not count);
    // leaders until then.
    let end = match sheet.match_state() {
        MatchState::Finished(end) => Some(end),
        MatchState::Playing { .. } => None,
    };
    for r in [rule, rule.other()] {
        let seats = match &end {
            Some(end) if r == end.rule => end.winners.clone(),
            Some(end) => end.other_winners.clone(),
            None => standings.winners(r),
        };
        let words = if end.is_some() {
            s.sheet.winner_under
        } else {
            s.sheet.leader_under
        };
        let line = words(rule_name(r), &who(names, &seats));
        let text = RichText::new(line);
        ui.label(if r == rule {
            text.strong().size(20.0)
        } else {
            text
        });
    }
}

/// The match's end: final standings and the winner, large; or how far the end still is.
pub(super) fn match_ui(ui: &mut Ui, lang: Language, sheet: &Sheet) {
    let s = lang.strings();
    let names = sheet.players().names();
    let who = |seats: &[usize]| who(names, seats);
    match sheet.match_state() {
        MatchState::Finished(end) => {
            ui.add_space(6.0);
            ui.label(
                RichText::new((s.results.match_over)(end.after_game, &who(&end.winners)))
                    .size(28.0)
                    .strong()
                    .color(GREEN),
            );
            if end.games_after > 0 {
                ui.label(RichText::new((s.results.games_after_end)(end.games_after)).italics());
            }
        }
        MatchState::Playing {
            games_left,
            to_target,
        } => {
            let mut parts = Vec::new();
            if let Some(n) = games_left {
                parts.push((s.results.games_left)(n));
            }
            if let Some(points) = to_target {
                parts.push((s.results.points_to_target)(points));
            }
            if !parts.is_empty() {
                ui.label(parts.join(" · "));
            }
        }
    }
}
