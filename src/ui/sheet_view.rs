//! Score sheet view: enter a game in seconds, see who leads under both final-winner rules.
//!
//! A game is entered the way it is counted at the table: one field per player with what is
//! left on their rack, a number or the tiles (`R5 K7 J`). `0` marks who went out; with no `0`
//! the pool ran out and the lowest wins. Digits, Tab and Enter are enough. The sheet itself only
//! holds facts; every number shown is derived by the score engine, so a rule change recomputes
//! the whole sheet.

use chrono::{DateTime, Local, Utc};
use egui::{Color32, RichText, Ui};

use super::tiles;
use crate::evening::Draft;
use crate::history::History;
use crate::i18n::{self, Language};
use crate::rules::{FinalRule, RuleSet};
use crate::score::{Game, Hand, Remaining, ScoreError, Sheet};
use crate::score::{MatchState, SheetState, SheetSummary};
use crate::session::{RulesPreview, rules_preview, with_scoring};
use crate::store::SheetId;
use crate::tile::Tile;

/// What the sheet view asks the app to do.
#[derive(Clone, Debug, PartialEq)]
pub enum SheetRequest {
    /// Start a new sheet with the seat list and the current rules.
    New {
        /// Planned rounds, or open-ended.
        rounds: Option<u32>,
        /// A target total that ends the match, if any.
        target: Option<i64>,
    },
    /// Score the open sheet under the settings' rules from now on (undoable).
    ApplyRules,
    /// Write the CSV where the user chooses (the system's save dialog).
    ExportAs,
    /// Write the sheet and its chart as a picture.
    ExportPicture,
    /// Show (or hide) the history across evenings.
    History(bool),
    /// Open a saved sheet.
    Open(SheetId),
    /// Add (`None`) or replace (`Some(index)`) a game.
    SaveGame(Option<usize>, Game),
    /// Delete this game, at this index (if it is still there: a second click of a
    /// double-click finds another game in its row and deletes nothing).
    Delete(usize, Game),
    /// Write the sheet as CSV (with a BOM, headers in the UI language, the rules and winner).
    Export,
}

/// The game being entered or edited: the draft as typed (saved with the evening) and the
/// form's own state.
#[derive(Debug, Default)]
struct Form {
    draft: Draft,
    /// Whose field the tile picker fills, if it is open.
    picking: Option<usize>,
    /// Put the cursor in the first field (once, when the form opens).
    focus_first: bool,
    /// Scroll the form into view on its first frame (opened below a long sheet).
    scroll_into_view: bool,
}

/// The view's own state.
#[derive(Debug, Default)]
pub struct SheetView {
    form: Option<Form>,
    rounds: u32,
    open_ended: bool,
    /// A target total for new sheets (used when `use_target`).
    target: i64,
    use_target: bool,
    /// A problem with the last request (e.g. a refused game), shown in the view.
    pub error: Option<String>,
}

/// The saved sheets to offer under "Open": id and summary (sheets with no games are left out).
pub type PastSheets = [(SheetId, SheetSummary)];

/// What the sheet view needs besides the sheet: the settings' rules (for "Apply to this
/// sheet"), the saved sheets, which one is open, and the history when it is shown.
pub struct SheetContext<'a> {
    /// The rules new sheets get.
    pub settings_rules: &'a RuleSet,
    /// The saved sheets.
    pub past: &'a PastSheets,
    /// The open sheet's id.
    pub open: Option<&'a SheetId>,
    /// The history across evenings, when asked for, with the files that were skipped.
    pub history: Option<&'a (History, Vec<String>)>,
    /// A "Save CSV as…" dialog is open.
    pub choosing_where_to_save: bool,
}

/// Signed points as on a paper sheet, with a typographic minus: `+24`, `−5`, `0`.
pub(crate) fn signed(n: i64) -> String {
    crate::score::table::signed(n).replace('-', "−")
}

fn local_time(t: DateTime<Utc>) -> String {
    t.with_timezone(&Local).format("%Y-%m-%d %H:%M").to_string()
}

/// Adds a picked tile to a remaining-value field: a typed number gives way to tiles.
fn add_tile(text: &mut String, tile: Tile) {
    let current = text.trim();
    *text = if current.is_empty() || current.chars().all(|c| c.is_ascii_digit()) {
        tile.to_string()
    } else {
        format!("{current} {tile}")
    };
}

const RED: Color32 = Color32::from_rgb(0xc6, 0x28, 0x28);
/// The width of a remaining-value field: a whole rack of a dozen tiles shows.
const FIELD_WIDTH: f32 = 340.0;
const GREEN: Color32 = Color32::from_rgb(0x2e, 0x7d, 0x32);

impl Form {
    fn new(players: usize) -> Form {
        Form {
            draft: Draft::new(players),
            picking: None,
            focus_first: true,
            scroll_into_view: true,
        }
    }

    fn of_game(index: usize, game: &Game) -> Form {
        Form {
            draft: Draft {
                editing: Some(index),
                left: game.hands.iter().map(|h| h.left.to_string()).collect(),
                not_melded: game.hands.iter().map(|h| h.not_melded).collect(),
                tie_winner: game.winner,
            },
            picking: None,
            focus_first: false,
            scroll_into_view: true,
        }
    }

    /// The game as typed, or the first field that is not a value, by player.
    fn game(&self, lang: Language, players: &[String], now: DateTime<Utc>) -> Result<Game, String> {
        let draft = &self.draft;
        let mut hands = Vec::with_capacity(draft.left.len());
        for (i, text) in draft.left.iter().enumerate() {
            let name = players.get(i).map_or("", String::as_str);
            let left: Remaining = text
                .trim()
                .parse()
                .map_err(|e| format!("{name}: {}", i18n::remaining_error(lang, &e)))?;
            let hand = Hand {
                left,
                not_melded: draft.not_melded.get(i).copied().unwrap_or(false),
            };
            hands.push(hand);
        }
        let game = Game::new(hands).at(now);
        Ok(match draft.tie_winner {
            Some(w) => game.with_winner(w),
            None => game,
        })
    }
}

impl SheetView {
    /// The game being typed, if the form is open.
    pub fn draft(&self) -> Option<&Draft> {
        self.form.as_ref().map(|f| &f.draft)
    }

    /// Opens the form with a draft kept from before a restart.
    pub fn restore_draft(&mut self, draft: Draft) {
        self.form = Some(Form {
            draft,
            picking: None,
            focus_first: true,
            scroll_into_view: true,
        });
    }

    /// Puts a phone's rack into a player's field, opening the add-game form if it is closed.
    pub fn fill_field(&mut self, index: usize, text: &str, players: usize) {
        let form = self.form.get_or_insert_with(|| {
            // A phone's entry does not move the window's view.
            let mut form = Form::new(players);
            form.focus_first = false;
            form.scroll_into_view = false;
            form
        });
        if let Some(field) = form.draft.left.get_mut(index) {
            *field = text.trim().to_owned();
        }
    }

    /// Closes the form (after its game was saved, or when another sheet is shown).
    pub fn close_form(&mut self) {
        self.form = None;
    }

    /// Draws the view: toolbar, the sheet, the game form. `now` stamps new games.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        lang: Language,
        sheet: Option<&Sheet>,
        context: &SheetContext<'_>,
        now: DateTime<Utc>,
    ) -> Option<SheetRequest> {
        let s = lang.strings();
        let mut request = self.toolbar(ui, lang, sheet, context);
        ui.separator();
        if let Some(e) = &self.error {
            ui.colored_label(RED, e);
        }
        if let Some(history) = context.history {
            super::history_view::ui(ui, lang, &history.0, &history.1);
            ui.separator();
        }
        let Some(sheet) = sheet else {
            ui.label(s.no_sheets);
            return request;
        };
        // The rules this sheet is scored under; settings change them only when asked.
        ui.label(RichText::new(i18n::rules_line(lang, sheet.rules())).strong());
        if let Some(preview) = rules_preview(sheet, context.settings_rules)
            && let Some(r) = apply_rules_ui(ui, lang, sheet, context.settings_rules, preview)
        {
            request = Some(r);
        }
        if let Some(r) = self.table(ui, lang, sheet) {
            request = Some(r);
        }
        match_ui(ui, lang, sheet);
        ui.add_space(8.0);
        if self.form.is_some() {
            if let Some(r) = self.form_ui(ui, lang, sheet, now) {
                request = Some(r);
            }
        } else if ui.button(RichText::new(s.add_game).size(20.0)).clicked() {
            self.form = Some(Form::new(sheet.players().len()));
        }
        // The race, below what the table types into (so the form opens in sight).
        if !sheet.games().is_empty() {
            let names = sheet.players().names();
            let standings = sheet.standings();
            let leaders = standings.winners(sheet.rules().final_rule);
            let series = names
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
                .collect();
            super::chart::lines(ui, "running-totals", series, 220.0, s.games_axis);
        }
        request
    }

    fn toolbar(
        &mut self,
        ui: &mut Ui,
        lang: Language,
        sheet: Option<&Sheet>,
        context: &SheetContext<'_>,
    ) -> Option<SheetRequest> {
        let s = lang.strings();
        let mut request = None;
        ui.horizontal_wrapped(|ui| {
            if ui.button(s.new_sheet).clicked() {
                let rounds = (!self.open_ended).then_some(self.rounds.max(1));
                let target = self.use_target.then_some(self.target.max(1));
                request = Some(SheetRequest::New { rounds, target });
                self.form = None;
            }
            // How the next new sheet's match ends; the open sheet keeps its own (said on hover).
            let label = ui.label(s.planned_rounds).on_hover_text(s.for_new_sheets);
            if self.rounds == 0 {
                self.rounds = 1;
            }
            ui.add_enabled(
                !self.open_ended,
                egui::DragValue::new(&mut self.rounds).range(1..=20),
            )
            .labelled_by(label.id)
            .on_hover_text(s.for_new_sheets);
            ui.checkbox(&mut self.open_ended, s.open_ended)
                .on_hover_text(s.for_new_sheets);
            if self.target == 0 {
                self.target = 100;
            }
            let target = ui
                .checkbox(&mut self.use_target, s.target_total)
                .on_hover_text(s.for_new_sheets);
            ui.add_enabled(
                self.use_target,
                egui::DragValue::new(&mut self.target)
                    .range(1..=10_000)
                    .update_while_editing(false),
            )
            .labelled_by(target.id)
            .on_hover_text(s.for_new_sheets);
            ui.separator();
            ui.menu_button(s.open_sheet, |ui| {
                if context.past.is_empty() {
                    ui.label(s.no_sheets);
                }
                for (id, summary) in context.past {
                    let open = context.open == Some(id);
                    let line = summary_line(lang, summary);
                    if ui.selectable_label(open, line).clicked() {
                        request = Some(SheetRequest::Open(id.clone()));
                        self.form = None;
                        ui.close();
                    }
                }
            });
            if ui
                .add_enabled(sheet.is_some(), egui::Button::new(s.export_csv))
                .clicked()
            {
                request = Some(SheetRequest::Export);
            }
            // While the dialog is open a second click would open a second one.
            let save_as = ui
                .add_enabled(
                    sheet.is_some() && !context.choosing_where_to_save,
                    egui::Button::new(s.export_csv_as),
                )
                .on_disabled_hover_text(s.choosing_where_to_save);
            if save_as.clicked() {
                request = Some(SheetRequest::ExportAs);
            }
            if ui
                .add_enabled(sheet.is_some(), egui::Button::new(s.export_picture))
                .clicked()
            {
                request = Some(SheetRequest::ExportPicture);
            }
            let showing = context.history.is_some();
            if ui.selectable_label(showing, s.history).clicked() {
                request = Some(SheetRequest::History(!showing));
            }
        });
        request
    }

    fn table(&mut self, ui: &mut Ui, lang: Language, sheet: &Sheet) -> Option<SheetRequest> {
        let s = lang.strings();
        let names = sheet.players().names();
        let standings = sheet.standings();
        let rule = sheet.rules().final_rule;
        let mut request = None;
        if sheet.games().is_empty() {
            ui.label(s.no_games_yet);
        }
        egui::Grid::new("sheet")
            .striped(true)
            .min_col_width(64.0)
            .show(ui, |ui| {
                ui.label("");
                for name in names {
                    ui.label(RichText::new(name).strong().size(18.0));
                }
                ui.end_row();
                for (i, score) in sheet.scores().iter().enumerate() {
                    let number = sheet.number(i);
                    if number.in_round == 1 && number.round > 1 {
                        ui.label(RichText::new((s.round_label)(number.round)).weak());
                        ui.end_row();
                    }
                    ui.label((s.game_label)(number.round, number.in_round));
                    for (seat, points) in score.points.iter().enumerate() {
                        let text = RichText::new(signed(*points)).size(18.0);
                        if seat == score.winner {
                            ui.label(text.strong().color(GREEN));
                        } else {
                            ui.label(text);
                        }
                    }
                    if ui.small_button(s.edit_game).clicked() {
                        self.form = sheet.games().get(i).map(|g| Form::of_game(i, g));
                    }
                    // The second click of a double-click is not a second delete.
                    let delete = ui.small_button(s.delete_game);
                    if delete.clicked()
                        && !delete.double_clicked()
                        && !delete.triple_clicked()
                        && let Some(game) = sheet.games().get(i)
                    {
                        request = Some(SheetRequest::Delete(i, game.clone()));
                    }
                    ui.end_row();
                }
                ui.label(RichText::new(s.totals).strong());
                for total in &standings.totals {
                    ui.label(RichText::new(signed(*total)).strong().size(20.0));
                }
                ui.end_row();
                ui.label(s.wins);
                for wins in &standings.wins {
                    ui.label(RichText::new(wins.to_string()).size(18.0));
                }
                ui.end_row();
                ui.label(RichText::new(s.rank).strong());
                for rank in standings.ranks(rule) {
                    ui.label(RichText::new(rank.to_string()).strong().size(20.0));
                }
                ui.end_row();
            });
        let rule_name = |r: FinalRule| match r {
            FinalRule::Total => s.rule_total_short,
            FinalRule::Wins => s.rule_wins_short,
        };
        if !sheet.games().is_empty() {
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
                    s.winner_under
                } else {
                    s.leader_under
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
        request
    }

    fn form_ui(
        &mut self,
        ui: &mut Ui,
        lang: Language,
        sheet: &Sheet,
        now: DateTime<Utc>,
    ) -> Option<SheetRequest> {
        let s = lang.strings();
        let names = sheet.players().names();
        let flat_not_melded = sheet.rules().not_melded_value.is_some();
        let tile_set = sheet.rules().tile_set;
        let form = self.form.as_mut()?;
        let mut enter = false;
        let group = ui.group(|ui| {
            let title = match form.draft.editing {
                Some(i) => {
                    let n = sheet.number(i);
                    format!("{} · {}", s.edit_game, (s.game_label)(n.round, n.in_round))
                }
                None => {
                    let n = sheet.next_number();
                    format!("{} · {}", s.add_game, (s.game_label)(n.round, n.in_round))
                }
            };
            ui.label(RichText::new(title).strong());
            ui.label(RichText::new(s.remaining_hint).weak());
            // Only the players' fields are in this grid, one after another, so Tab goes from
            // one player's field to the next and nothing else is in that path.
            egui::Grid::new("game-form").show(ui, |ui| {
                for (i, name) in names.iter().enumerate() {
                    let label = ui.label(RichText::new(name).size(18.0));
                    if let Some(text) = form.draft.left.get_mut(i) {
                        // A fixed size: a grid cell would otherwise keep the width of its
                        // first, empty frame, and a rack like `R12 R13 J` would not show whole.
                        let field = ui.add_sized(
                            [FIELD_WIDTH, 32.0],
                            egui::TextEdit::singleline(text)
                                .hint_text(s.remaining_placeholder)
                                .font(egui::TextStyle::Heading),
                        );
                        let field = field.labelled_by(label.id);
                        if i == 0 && form.focus_first {
                            field.request_focus();
                            form.focus_first = false;
                        }
                        enter |=
                            field.lost_focus() && ui.input(|inp| inp.key_pressed(egui::Key::Enter));
                    }
                    ui.end_row();
                }
            });
            // Tile picking and the not-melded marks come after every field.
            ui.horizontal_wrapped(|ui| {
                ui.label(s.pick_tiles_for);
                for (i, name) in names.iter().enumerate() {
                    let picking = form.picking == Some(i);
                    let pick = ui.selectable_label(picking, name);
                    let label = format!("{}: {name}", s.pick_tiles);
                    pick.widget_info(|| {
                        egui::WidgetInfo::selected(egui::Role::Button, true, picking, &label)
                    });
                    if pick.clicked() {
                        form.picking = if picking { None } else { Some(i) };
                    }
                }
            });
            if flat_not_melded {
                ui.horizontal_wrapped(|ui| {
                    ui.label(s.not_melded_flag);
                    for (i, name) in names.iter().enumerate() {
                        if let Some(flag) = form.draft.not_melded.get_mut(i) {
                            ui.checkbox(flag, name);
                        }
                    }
                });
            }
            if let Some(i) = form.picking {
                let racks = form
                    .draft
                    .left
                    .iter()
                    .filter_map(|t| match t.trim().parse() {
                        Ok(Remaining::Tiles(tiles)) => Some(tiles),
                        _ => None,
                    });
                let used = tiles::counts(racks.flatten());
                if let Some(tile) = tiles::picker(ui, &used, tile_set, 32.0)
                    && let Some(text) = form.draft.left.get_mut(i)
                {
                    add_tile(text, tile);
                }
            }
        });

        let missing = form
            .draft
            .left
            .iter()
            .position(|t| t.trim().is_empty())
            .and_then(|i| names.get(i));
        let game = form.game(lang, names, now);
        let checked = game.as_ref().map_err(Clone::clone).and_then(|g| {
            sheet
                .check_game(g)
                .map_err(|e| i18n::score_error(lang, &e))
                .map(|score| (g.clone(), score))
        });
        let mut request = None;
        // Why Save is not possible yet, in words.
        let mut blocked: Option<String> = None;
        match (&checked, missing) {
            (_, Some(name)) => {
                // Say at once when a value typed so far cannot be read.
                let typed = form
                    .draft
                    .left
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| !t.trim().is_empty());
                let unreadable = typed
                    .filter_map(|(i, t)| t.trim().parse::<Remaining>().err().map(|e| (i, e)))
                    .next();
                blocked = Some(match unreadable {
                    Some((i, e)) => {
                        let name = names.get(i).map_or("", String::as_str);
                        format!("{name}: {}", i18n::remaining_error(lang, &e))
                    }
                    None => (s.missing_left)(name),
                });
            }
            (Ok((_, score)), None) => {
                let preview: Vec<String> = names
                    .iter()
                    .zip(&score.points)
                    .map(|(n, p)| format!("{n} {}", signed(*p)))
                    .collect();
                let how = if score.went_out {
                    s.went_out
                } else {
                    s.pool_ran_out
                };
                let winner = names.get(score.winner).map_or("", String::as_str);
                ui.label(format!("{how}: {winner} · {}", preview.join(" · ")));
            }
            (Err(e), None) => blocked = Some(e.clone()),
        }
        // A tie for lowest: ask who won.
        if let Ok(g) = &game
            && let Err(ScoreError::Tie { tied, .. }) = sheet.check_game(&Game {
                winner: None,
                ..g.clone()
            })
        {
            ui.horizontal(|ui| {
                ui.label(s.tie_winner);
                for seat in &tied {
                    ui.radio_value(&mut form.draft.tie_winner, Some(seat.index), &seat.name);
                }
            });
            if form.draft.tie_winner.is_none() && blocked.is_none() {
                blocked = Some(s.choose_tie_winner.to_owned());
            }
        }
        let mut cancel = false;
        ui.horizontal(|ui| {
            let ok = blocked.is_none() && checked.is_ok();
            let mut save =
                ui.add_enabled(ok, egui::Button::new(RichText::new(s.save_game).size(18.0)));
            if let Some(why) = &blocked {
                save = save.on_disabled_hover_text(why);
            }
            if (save.clicked() || (enter && ok))
                && let Ok((game, _)) = &checked
            {
                // The form closes when the app says the game was saved.
                request = Some(SheetRequest::SaveGame(form.draft.editing, game.clone()));
            }
            cancel = ui.button(s.cancel).clicked();
        });
        if form.scroll_into_view {
            form.scroll_into_view = false;
            group.response.scroll_to_me(Some(egui::Align::Center));
        }
        if let Some(why) = &blocked {
            ui.colored_label(RED, why);
        }
        if cancel {
            self.form = None;
        }
        request
    }
}

/// One line of the "Open" list: date, players, games, leader, state.
fn summary_line(lang: Language, summary: &SheetSummary) -> String {
    let s = lang.strings();
    let state = match summary.state {
        SheetState::Finished => s.state_finished,
        SheetState::Playing | SheetState::Empty => s.state_playing,
    };
    format!(
        "{} · {} · {} · {} {} · {state}",
        local_time(summary.last_activity),
        summary.players.join(", "),
        (s.games_count)(summary.games),
        s.leader,
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
        ui.label((s.settings_rules_differ)(&i18n::rules_line(lang, &wanted)));
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
                ui.label(s.no_points_move);
            } else {
                ui.label(moves.join(" · "));
            }
            if was != will {
                ui.label(RichText::new((s.winner_would_change)(&was, &will)).strong());
            }
            if ui.button(s.apply_to_sheet).clicked() {
                *request = Some(SheetRequest::ApplyRules);
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

/// The match's end: final standings and the winner, large; or how far the end still is.
fn match_ui(ui: &mut Ui, lang: Language, sheet: &Sheet) {
    let s = lang.strings();
    let names = sheet.players().names();
    let who = |seats: &[usize]| who(names, seats);
    match sheet.match_state() {
        MatchState::Finished(end) => {
            ui.add_space(6.0);
            ui.label(
                RichText::new((s.match_over)(end.after_game, &who(&end.winners)))
                    .size(28.0)
                    .strong()
                    .color(GREEN),
            );
            if end.games_after > 0 {
                ui.label(RichText::new((s.games_after_end)(end.games_after)).italics());
            }
        }
        MatchState::Playing {
            games_left,
            to_target,
        } => {
            let mut parts = Vec::new();
            if let Some(n) = games_left {
                parts.push((s.games_left)(n));
            }
            if let Some(points) = to_target {
                parts.push((s.points_to_target)(points));
            }
            if !parts.is_empty() {
                ui.label(parts.join(" · "));
            }
        }
    }
}
