//! The Event view: a club night at the host's laptop — create or open an event, seat the next
//! round, print the seating sheet, watch which tables have their result, enter or correct a
//! table's games, release the standings.
//!
//! The view draws what the club night's owner ([`crate::club::Club`]) holds (given as
//! [`EventContext`]) and returns [`EventRequest`]s; the app sends them to the owner as
//! commands, and its writer thread writes the files. What only the view has is what is being
//! typed: the new event's form and the cells of the result being entered. A result form stays
//! open, with what was typed, until the table's results grow (the owner recorded it): a refused
//! result loses nothing, and the cells it names are marked.

use crate::club::{EventSummary, ExportReport, Saving};
use crate::event::format::{Carry, Format, Placement, SeatingRule, Seeding, Stage, placement_text};
use crate::event::live::TablesAtPlay;
use crate::event::{Event, EventSetup, Ranking, Standings};
use crate::i18n::event::{cli as cli_words, window as words};
use crate::lang::Language;
use crate::rules::Preset;
use crate::store::EventId;
use crate::ui::season_view::{SeasonContext, SeasonRequest, SeasonView};

/// What the Event view asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventRequest {
    /// Create an event from this setup and players text, and open it.
    Create {
        /// The setup.
        setup: Box<EventSetup>,
        /// One player a line: `name`, `name,club` or `name,club,division`.
        players: String,
    },
    /// Read the events folder again.
    Refresh,
    /// Open a saved event.
    Open(EventId),
    /// Close the open event.
    Close,
    /// Seat the next round.
    Seat,
    /// A table's games as typed (cells per game, in seat order).
    Result {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// `cells[game][seat]`.
        cells: Vec<Vec<String>>,
        /// A correction of a result given before.
        correct: bool,
    },
    /// Export a round's seating as CSV.
    SeatingCsv(u32),
    /// Export a round's seating sheet as a picture.
    SeatingPicture(u32),
    /// Export the released standings as a picture.
    StandingsPicture(u32),
    /// Export the released standings as CSV.
    StandingsCsv(u32),
    /// Show the standings through this round (what the Release button does).
    Release(u32),
    /// Host the open event's tables from this window (the TV page and each table's phones), or
    /// stop.
    Host(bool),
    /// The round clock hosting gives the TV page, in minutes (0: none): a setting.
    RoundMinutes(u32),
    /// Free a seat whose phone died (table, 0-based seat).
    FreeSeat(u32, usize),
    /// Let anyone at a table end a turn, or not.
    SharedTurns(u32, bool),
    /// The organiser read the notices.
    DismissNotices,
    /// Seat the top `top` of the standings as the next stage of the finals.
    SeatFinal {
        /// How many go on.
        top: u32,
        /// Games at each table (the format's, else the event's, when `None`).
        games: Option<u32>,
        /// How the seeds sit.
        seeding: Seeding,
        /// What carries in.
        carry: Carry,
    },
    /// Seal the open event into a signed bundle for a season (asks where to save it).
    ExportBundle,
    /// A request of the Season part.
    Season(SeasonRequest),
}

/// The cells a refused result names: its game rows (0-based) and seat columns (0-based; none
/// for the whole row).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marked {
    /// The round and table of the refused result.
    pub at: (u32, u32),
    /// The game rows.
    pub games: Vec<usize>,
    /// The seats (empty: the whole rows).
    pub seats: Vec<usize>,
}

/// What the view is given to draw.
pub struct EventContext<'a> {
    /// The open event.
    pub open: Option<(&'a EventId, &'a Event)>,
    /// The events in the data folder (as last read).
    pub known: &'a [EventSummary],
    /// Whether the events' list is being read.
    pub listing: bool,
    /// How the writing goes.
    pub saving: &'a Saving,
    /// The last export, while worth showing.
    pub export: Option<&'a ExportReport>,
    /// What the organiser should read (a damaged file restored), worded.
    pub notices: &'a [String],
    /// The last refusal of a request of this view, worded.
    pub refused: Option<&'a str>,
    /// The cells a refused result names.
    pub marked: Option<&'a Marked>,
    /// The tables at play (seats held by phones), while an event is open.
    pub at_play: Option<&'a TablesAtPlay>,
    /// The last thing done, worded.
    pub note: Option<&'a str>,
    /// While this window hosts the tables: the TV page's address.
    pub hosting: Option<&'a str>,
    /// The round clock hosting gives the TV page, in minutes (0: none).
    pub round_minutes: u32,
    /// What the Season part draws.
    pub season: SeasonContext<'a>,
}

/// The form of a new event, as typed.
#[derive(Clone, Debug)]
struct Form {
    name: String,
    players: String,
    /// A federation's format (its rules, finals and defaults), or each rule as chosen.
    format: Option<Format>,
    games: String,
    ranking: Ranking,
    seating: SeatingRule,
    /// Placement lists, `4,3,1,0` (several separated by `;`); blank: the defaults.
    placement: String,
    win_bonus: String,
    preset: Preset,
    seed: String,
    xp: bool,
    clubs_apart: bool,
    divisions_apart: bool,
}

impl Default for Form {
    fn default() -> Form {
        Form {
            name: String::new(),
            players: String::new(),
            format: None,
            games: "4".into(),
            ranking: Ranking::Wins,
            seating: SeatingRule::Mixed,
            placement: String::new(),
            win_bonus: "0".into(),
            preset: Preset::Tournament,
            seed: String::new(),
            xp: false,
            clubs_apart: false,
            divisions_apart: false,
        }
    }
}

impl Form {
    /// Takes a format's defaults into the fields (each can still be changed).
    fn take_format(&mut self, format: Format) {
        let mut setup = EventSetup::new("", 0);
        format.apply(&mut setup);
        self.games = setup.games.to_string();
        self.ranking = setup.ranking;
        self.seating = setup.seating;
        self.win_bonus = setup.win_bonus.to_string();
        self.placement.clear();
    }
}

/// The finals' form, as chosen (set from the open event's format when it opens).
#[derive(Clone, Debug)]
struct FinalsForm {
    /// The event, and its stage, the choices were set from.
    of: (EventId, Stage),
    top: u32,
    /// Blank: the format's (else the event's) games.
    games: String,
    seeding: Seeding,
    carry: Carry,
}

impl FinalsForm {
    fn of(id: &EventId, event: &Event) -> FinalsForm {
        let finals = event.setup().finals;
        let active = event.players().iter().filter(|p| p.is_active()).count();
        // Before any stage, a format with semi-finals seats two tables of them; else (and
        // after the semi-finals) a final table of four.
        let top = if event.stage() == Stage::Round && finals.semi_games.is_some() && active >= 8 {
            8
        } else {
            4
        };
        FinalsForm {
            of: (id.clone(), event.stage()),
            top,
            games: String::new(),
            seeding: finals.seeding,
            carry: finals.carry,
        }
    }
}

/// The standings drawn last, kept while nothing they are made from changes (the event's log,
/// the round released, the division).
#[derive(Debug)]
struct ShownStandings {
    key: (EventId, usize, u32, Option<String>),
    standings: Standings,
}

/// Hosting the tables from this window: the button, and the TV page's address while it runs.
fn host_line(
    ui: &mut egui::Ui,
    lang: Language,
    context: &EventContext<'_>,
    requests: &mut Vec<EventRequest>,
) {
    ui.horizontal_wrapped(|ui| match context.hosting {
        Some(url) => {
            ui.label(crate::i18n::club::hosting(lang, url));
            if ui.button(crate::i18n::club::HOST_STOP.get(lang)).clicked() {
                requests.push(EventRequest::Host(false));
            }
        }
        None => {
            if ui.button(crate::i18n::club::HOST_START.get(lang)).clicked() {
                requests.push(EventRequest::Host(true));
            }
            // The round clock the TV page will show (set before hosting starts).
            let mut minutes = context.round_minutes;
            let label = ui.label(crate::i18n::club::ROUND_CLOCK.get(lang));
            let field = ui.add(
                egui::DragValue::new(&mut minutes)
                    .range(0..=600)
                    .speed(1)
                    // Typed minutes count when typing ends (Enter or elsewhere), not per key.
                    .update_while_editing(false)
                    .custom_formatter(|n, _| {
                        if n == 0.0 {
                            crate::i18n::club::ROUND_CLOCK_NONE.get(lang).to_owned()
                        } else {
                            format!("{n}")
                        }
                    }),
            );
            field
                .labelled_by(label.id)
                .on_hover_text(crate::i18n::club::ROUND_CLOCK_HINT.get(lang));
            ui.label(crate::i18n::club::MINUTES.get(lang));
            if minutes != context.round_minutes {
                requests.push(EventRequest::RoundMinutes(minutes));
            }
        }
    });
}

/// A table's result being typed.
#[derive(Clone, Debug)]
struct Entry {
    round: u32,
    table: u32,
    correct: bool,
    /// The table's results when the form opened: more means it was recorded.
    results_before: usize,
    cells: Vec<Vec<String>>,
}

/// The Event view's own state: what is being typed.
#[derive(Debug, Default)]
pub struct EventView {
    /// The Season part is shown (else the club night).
    season_part: bool,
    form: Form,
    entry: Option<Entry>,
    /// A problem with the form itself (a number that is not one), worded.
    form_problem: Option<String>,
    /// Asked for the list of events once.
    listed: bool,
    finals: Option<FinalsForm>,
    /// The division whose standings are shown (everyone's when `None`).
    division: Option<String>,
    shown: Option<ShownStandings>,
    season: SeasonView,
}

impl EventView {
    /// Draws the view; returns what was asked for.
    #[must_use]
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        lang: Language,
        context: &EventContext<'_>,
    ) -> Vec<EventRequest> {
        let mut requests = Vec::new();
        if !self.listed {
            self.listed = true;
            requests.push(EventRequest::Refresh);
        }
        for notice in context.notices {
            ui.colored_label(ui.visuals().warn_fg_color, notice);
        }
        if !context.notices.is_empty() && ui.button(words::DISMISS.get(lang)).clicked() {
            requests.push(EventRequest::DismissNotices);
        }
        // A refused result is said under its grid, beside the cells it names.
        if let Some(why) = context.refused.filter(|_| self.entry.is_none()) {
            ui.colored_label(ui.visuals().error_fg_color, why);
        }
        if let Some(note) = context.note {
            ui.label(egui::RichText::new(note).strong());
        }
        status_line(ui, lang, context);
        // The club night, or the season its events count towards.
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.season_part, false, words::CLUB_NIGHT.get(lang));
            ui.selectable_value(&mut self.season_part, true, words::SEASON.get(lang));
        });
        if self.season_part {
            let asked = self.season.ui(ui, lang, &context.season);
            requests.extend(asked.into_iter().map(EventRequest::Season));
            return requests;
        }
        match context.open {
            None => {
                self.entry = None;
                self.new_event(ui, lang, &mut requests);
                ui.separator();
                saved_events(ui, lang, context, &mut requests);
            }
            Some((id, event)) => {
                host_line(ui, lang, context, &mut requests);
                self.open_event(ui, lang, id, event, context, &mut requests);
            }
        }
        requests
    }

    fn new_event(&mut self, ui: &mut egui::Ui, lang: Language, requests: &mut Vec<EventRequest>) {
        ui.heading(words::NEW_EVENT.get(lang));
        let f = &mut self.form;
        egui::Grid::new("event-form")
            .num_columns(2)
            .spacing([12.0, 8.0])
            .show(ui, |ui| {
                let label = ui.label(words::NAME.get(lang));
                ui.add(egui::TextEdit::singleline(&mut f.name).desired_width(320.0))
                    .labelled_by(label.id);
                ui.end_row();
                let label = ui.label(words::PLAYERS.get(lang));
                ui.add(
                    egui::TextEdit::multiline(&mut f.players)
                        .desired_rows(6)
                        .desired_width(320.0),
                )
                .labelled_by(label.id);
                ui.end_row();
                // A federation's format fills the fields below (each can still be changed).
                let label = ui.label(words::FORMAT.get(lang));
                let before = f.format;
                egui::ComboBox::from_id_salt("event-format")
                    .selected_text(f.format.map_or(words::CUSTOM.get(lang), |format| {
                        words::format(lang, format)
                    }))
                    .width(320.0)
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut f.format, None, words::CUSTOM.get(lang));
                        for format in Format::ALL {
                            ui.selectable_value(
                                &mut f.format,
                                Some(format),
                                words::format(lang, format),
                            );
                        }
                    })
                    .response
                    .labelled_by(label.id);
                if f.format != before
                    && let Some(format) = f.format
                {
                    f.take_format(format);
                }
                ui.end_row();
                let label = ui.label(words::GAMES.get(lang));
                ui.add(egui::TextEdit::singleline(&mut f.games).desired_width(60.0))
                    .labelled_by(label.id);
                ui.end_row();
                // Choices as menus, so the whole form fits an 800×600 window.
                let label = ui.label(words::RANKING.get(lang));
                menu(
                    ui,
                    "event-ranking",
                    label.id,
                    320.0,
                    &mut f.ranking,
                    &Ranking::ALL,
                    |r| words::ranking(lang, r),
                );
                ui.end_row();
                if f.ranking == Ranking::Placement {
                    let label = ui.label(words::PLACEMENT_POINTS.get(lang));
                    let default = Placement::default_list(4)
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(",");
                    ui.add(
                        egui::TextEdit::singleline(&mut f.placement)
                            .hint_text(default)
                            .desired_width(160.0),
                    )
                    .labelled_by(label.id);
                    ui.end_row();
                }
                let label = ui.label(words::SEATING.get(lang));
                menu(
                    ui,
                    "event-seating",
                    label.id,
                    320.0,
                    &mut f.seating,
                    &SeatingRule::ALL,
                    |r| words::seating(lang, r),
                );
                ui.end_row();
                let label = ui.label(words::WIN_BONUS.get(lang));
                ui.add(egui::TextEdit::singleline(&mut f.win_bonus).desired_width(60.0))
                    .labelled_by(label.id);
                ui.end_row();
                let label = ui.label(words::RULES.get(lang));
                match f.format {
                    // A format's rules are its own (Japan's joker counts 50).
                    Some(format) => {
                        let mut setup = EventSetup::new("", 0);
                        format.apply(&mut setup);
                        ui.label(crate::club::words::rules(lang, &setup.rules))
                            .labelled_by(label.id);
                    }
                    None => {
                        let preset_line = |preset: Preset| {
                            let s = lang.strings();
                            let name = match preset {
                                Preset::Korean => s.settings.preset_korean,
                                Preset::English => s.settings.preset_english,
                                Preset::Tournament => s.settings.preset_tournament,
                            };
                            format!(
                                "{name}: {}",
                                crate::club::words::rules(lang, &preset.rules())
                            )
                        };
                        egui::ComboBox::from_id_salt("event-rules")
                            .selected_text(preset_line(f.preset))
                            .width(320.0)
                            .show_ui(ui, |ui| {
                                for preset in [Preset::Tournament, Preset::Korean, Preset::English]
                                {
                                    ui.selectable_value(&mut f.preset, preset, preset_line(preset));
                                }
                            })
                            .response
                            .labelled_by(label.id);
                    }
                }
                ui.end_row();
                let label = ui.label(words::SEED.get(lang));
                ui.add(egui::TextEdit::singleline(&mut f.seed).desired_width(160.0))
                    .labelled_by(label.id);
                ui.end_row();
            });
        ui.checkbox(&mut f.clubs_apart, words::CLUBS_APART.get(lang));
        ui.checkbox(&mut f.divisions_apart, words::DIVISIONS_APART.get(lang));
        ui.checkbox(&mut f.xp, words::XP.get(lang));
        if let Some(problem) = &self.form_problem {
            ui.colored_label(ui.visuals().error_fg_color, problem);
        }
        if ui
            .add(egui::Button::new(words::CREATE.get(lang)).min_size(egui::vec2(160.0, 36.0)))
            .clicked()
        {
            match self.setup(lang) {
                Ok(setup) => {
                    self.form_problem = None;
                    requests.push(EventRequest::Create {
                        setup: Box::new(setup),
                        players: self.form.players.clone(),
                    });
                }
                Err(problem) => self.form_problem = Some(problem),
            }
        }
    }

    /// The setup the form says, or what is wrong with it.
    fn setup(&self, lang: Language) -> Result<EventSetup, String> {
        let f = &self.form;
        let games: u32 = f
            .games
            .trim()
            .parse()
            .map_err(|_| words::not_a_number(lang, words::GAMES.get(lang), f.games.trim()))?;
        let seed = match f.seed.trim() {
            "" => {
                let mut bytes = [0u8; 8];
                if getrandom::fill(&mut bytes).is_err() {
                    bytes = chrono::Utc::now().timestamp_micros().to_le_bytes();
                }
                u64::from_le_bytes(bytes)
            }
            text => text
                .parse()
                .map_err(|_| words::not_a_number(lang, words::SEED.get(lang), text))?,
        };
        let win_bonus: i64 = f.win_bonus.trim().parse().map_err(|_| {
            words::not_a_number(lang, words::WIN_BONUS.get(lang), f.win_bonus.trim())
        })?;
        let mut setup = EventSetup::new(&f.name, seed);
        match f.format {
            Some(format) => format.apply(&mut setup),
            None => setup.rules = f.preset.rules(),
        }
        setup.games = games;
        setup.ranking = f.ranking;
        setup.seating = f.seating;
        setup.win_bonus = win_bonus;
        setup.xp_tables = f.xp;
        setup.clubs_apart = f.clubs_apart;
        setup.divisions_apart = f.divisions_apart;
        if f.ranking == Ranking::Placement {
            setup.placement = placement_lists(lang, &f.placement)?;
        }
        Ok(setup)
    }

    fn open_event(
        &mut self,
        ui: &mut egui::Ui,
        lang: Language,
        id: &EventId,
        event: &Event,
        context: &EventContext<'_>,
        requests: &mut Vec<EventRequest>,
    ) {
        ui.horizontal(|ui| {
            ui.heading(&event.setup().name);
            ui.label(egui::RichText::new(id.as_str()).weak());
            if ui.button(words::CLOSE.get(lang)).clicked() {
                requests.push(EventRequest::Close);
            }
            if ui.button(words::EXPORT_BUNDLE.get(lang)).clicked() {
                requests.push(EventRequest::ExportBundle);
            }
        });
        let active = event.players().iter().filter(|p| p.is_active()).count();
        ui.label(words::summary(
            lang,
            active,
            event.current_round(),
            event.setup().ranking,
        ));
        // The format, and the rules every game of the night is scored under.
        if let Some(format) = event.setup().format {
            ui.label(words::format(lang, format));
        }
        ui.label(crate::club::words::rules(lang, &event.setup().rules));
        let round = event.rounds().last();
        let complete = round.is_none_or(|r| r.is_complete());
        ui.horizontal(|ui| {
            // No qualifying round after the finals began.
            let can_seat = complete && event.stage() == Stage::Round;
            if ui
                .add_enabled(
                    can_seat,
                    egui::Button::new(words::SEAT.get(lang)).min_size(egui::vec2(200.0, 36.0)),
                )
                .clicked()
            {
                requests.push(EventRequest::Seat);
            }
            if let Some(r) = round {
                if ui.button(words::SEATING_CSV.get(lang)).clicked() {
                    requests.push(EventRequest::SeatingCsv(r.number));
                }
                if ui.button(words::SEATING_PNG.get(lang)).clicked() {
                    requests.push(EventRequest::SeatingPicture(r.number));
                }
            }
        });
        if round.is_some() && event.stage() != Stage::Final {
            self.finals_form(ui, lang, id, event, complete, requests);
        }
        // The result form closes once the desk recorded it (the table has one more result).
        if let Some(entry) = &self.entry {
            let recorded = table_of(event, entry.round, entry.table)
                .is_none_or(|t| t.results.len() > entry.results_before);
            if recorded {
                self.entry = None;
            }
        }
        ui.separator();
        // The round's tables beside the standings; a result form below them, full width.
        ui.columns(2, |columns| {
            if let Some(r) = round {
                let ui = &mut columns[0];
                ui.heading(cli_words::stage_heading(lang, r.stage, r.number));
                let done = r.tables.iter().filter(|t| t.is_finished()).count();
                ui.label(words::tables_in(lang, done, r.tables.len()));
                self.tables(ui, lang, event, r.number, context, requests);
            }
            self.standings(&mut columns[1], lang, id, event, requests);
        });
        if let Some(entry) = &mut self.entry {
            ui.separator();
            if let Some(table) = table_of(event, entry.round, entry.table) {
                let names = event.seat_names(table);
                let marked = context
                    .marked
                    .filter(|m| m.at == (entry.round, entry.table));
                let refused = context.refused;
                if let Some(request) = entry_form(ui, lang, entry, &names, marked, refused) {
                    match request {
                        Some(request) => requests.push(request),
                        None => self.entry = None,
                    }
                }
            }
        }
    }

    fn tables(
        &mut self,
        ui: &mut egui::Ui,
        lang: Language,
        event: &Event,
        round: u32,
        context: &EventContext<'_>,
        requests: &mut Vec<EventRequest>,
    ) {
        let Some(r) = event.rounds().iter().find(|r| r.number == round) else {
            return;
        };
        let mut open = None;
        let at_play = context
            .at_play
            .filter(|p| p.round == round && context.hosting.is_some());
        egui::Grid::new("event-tables")
            .num_columns(4)
            .striped(true)
            .spacing([16.0, 6.0])
            .show(ui, |ui| {
                for t in &r.tables {
                    ui.label(egui::RichText::new(cli_words::table(lang, t.number)).strong());
                    let names = event.seat_names(t);
                    let starters = event.starters(r, t);
                    // A table whose result is in needs no phone any more.
                    let kept = at_play
                        .filter(|_| !t.is_finished())
                        .and_then(|p| p.tables.get(&t.number));
                    ui.vertical(|ui| {
                        for (seat, name) in names.iter().enumerate() {
                            let games: Vec<usize> = starters
                                .iter()
                                .enumerate()
                                .filter(|&(_, &p)| t.seats.get(seat) == Some(&p))
                                .map(|(g, _)| g + 1)
                                .collect();
                            let mut text = format!("{}. {name}", seat + 1);
                            if !games.is_empty() {
                                text.push_str(&format!(" ({})", words::starts(lang, &games)));
                            }
                            let held = kept
                                .and_then(|k| k.devices.get(seat))
                                .is_some_and(Option::is_some);
                            ui.horizontal(|ui| {
                                // A seat is one line, never wrapped.
                                ui.add(egui::Label::new(text).extend());
                                if held {
                                    let free = ui.small_button(words::FREE_SEAT.get(lang));
                                    let label = format!(
                                        "{} · {} · {name}",
                                        words::FREE_SEAT.get(lang),
                                        cli_words::table(lang, t.number)
                                    );
                                    free.widget_info(|| {
                                        egui::WidgetInfo::labeled(egui::Role::Button, true, &label)
                                    });
                                    if free
                                        .on_hover_text(words::FREE_SEAT_HINT.get(lang))
                                        .clicked()
                                    {
                                        requests.push(EventRequest::FreeSeat(t.number, seat));
                                    }
                                }
                            });
                        }
                        if at_play.is_some() && !t.is_finished() {
                            let mut shared = kept.is_some_and(|k| k.shared_turns);
                            if ui
                                .checkbox(&mut shared, words::SHARED_TURNS.get(lang))
                                .changed()
                            {
                                requests.push(EventRequest::SharedTurns(t.number, shared));
                            }
                        }
                    });
                    if t.is_finished() {
                        ui.colored_label(
                            egui::Color32::from_rgb(40, 140, 60),
                            words::RESULT_IN.get(lang),
                        );
                    } else {
                        ui.label(words::PLAYING.get(lang));
                    }
                    let label = if t.is_finished() {
                        words::CORRECT
                    } else {
                        words::ENTER
                    };
                    let button = ui.add(egui::Button::new(label.get(lang)));
                    let name =
                        format!("{} · {}", label.get(lang), cli_words::table(lang, t.number));
                    button
                        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
                    if button.clicked() {
                        open = Some(t);
                    }
                    ui.end_row();
                }
            });
        if let Some(t) = open {
            let games = event.round_games(r) as usize;
            // A correction opens on the result as it was entered.
            let cells = match t.result() {
                Some(result) => result.games.iter().map(cells_of).collect(),
                None => vec![vec![String::new(); t.seats.len()]; games],
            };
            self.entry = Some(Entry {
                round,
                table: t.number,
                correct: t.is_finished(),
                results_before: t.results.len(),
                cells,
            });
        }
    }

    /// The finals: how many of the standings go on, their games, seeding and what carries in;
    /// seated once the current round is complete.
    fn finals_form(
        &mut self,
        ui: &mut egui::Ui,
        lang: Language,
        id: &EventId,
        event: &Event,
        complete: bool,
        requests: &mut Vec<EventRequest>,
    ) {
        if self
            .finals
            .as_ref()
            .is_none_or(|f| f.of.0 != *id || f.of.1 != event.stage())
        {
            self.finals = Some(FinalsForm::of(id, event));
        }
        let Some(form) = &mut self.finals else {
            return;
        };
        let active = event.players().iter().filter(|p| p.is_active()).count();
        let most = u32::try_from(active).unwrap_or(u32::MAX).max(2);
        egui::CollapsingHeader::new(words::FINALS.get(lang))
            .id_salt("event-finals")
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    let label = ui.label(words::TOP.get(lang));
                    ui.add(egui::DragValue::new(&mut form.top).range(2..=most))
                        .labelled_by(label.id);
                    let label = ui.label(words::GAMES.get(lang));
                    // Blank: what the format (else the event) plays at a stage of that size.
                    let finals = event.setup().finals;
                    let final_table = crate::event::seating::table_sizes(form.top as usize)
                        .is_some_and(|sizes| sizes.len() == 1);
                    let games = if final_table {
                        finals.final_games
                    } else {
                        finals.semi_games
                    }
                    .unwrap_or(event.setup().games);
                    ui.add(
                        egui::TextEdit::singleline(&mut form.games)
                            .hint_text(games.to_string())
                            .desired_width(40.0),
                    )
                    .labelled_by(label.id);
                });
                ui.horizontal_wrapped(|ui| {
                    let label = ui.label(words::SEEDING.get(lang));
                    let (seeding, carry) = (&mut form.seeding, &mut form.carry);
                    menu(
                        ui,
                        "event-seeding",
                        label.id,
                        0.0,
                        seeding,
                        &Seeding::ALL,
                        |s| words::seeding(lang, s),
                    );
                    let label = ui.label(words::CARRY.get(lang));
                    menu(ui, "event-carry", label.id, 0.0, carry, &Carry::ALL, |c| {
                        words::carry(lang, c)
                    });
                });
                if ui
                    .add_enabled(
                        complete,
                        egui::Button::new(words::SEAT_FINALS.get(lang))
                            .min_size(egui::vec2(200.0, 36.0)),
                    )
                    .clicked()
                {
                    match form.games.trim() {
                        "" => {
                            self.form_problem = None;
                            requests.push(EventRequest::SeatFinal {
                                top: form.top,
                                games: None,
                                seeding: form.seeding,
                                carry: form.carry,
                            });
                        }
                        text => match text.parse() {
                            Ok(games) => {
                                self.form_problem = None;
                                requests.push(EventRequest::SeatFinal {
                                    top: form.top,
                                    games: Some(games),
                                    seeding: form.seeding,
                                    carry: form.carry,
                                });
                            }
                            Err(_) => {
                                self.form_problem =
                                    Some(words::not_a_number(lang, words::GAMES.get(lang), text));
                            }
                        },
                    }
                }
                if let Some(problem) = &self.form_problem {
                    ui.colored_label(ui.visuals().error_fg_color, problem);
                }
            });
    }

    fn standings(
        &mut self,
        ui: &mut egui::Ui,
        lang: Language,
        id: &EventId,
        event: &Event,
        requests: &mut Vec<EventRequest>,
    ) {
        ui.heading(words::STANDINGS.get(lang));
        let complete = event
            .rounds()
            .iter()
            .rev()
            .find(|r| r.is_complete())
            .map(|r| r.number);
        let Some(complete) = complete else {
            ui.label(words::NOT_RELEASED.get(lang));
            return;
        };
        let released = Some(event.released()).filter(|&r| r > 0);
        ui.horizontal(|ui| {
            if released != Some(complete)
                && ui
                    .add(
                        egui::Button::new(words::release(lang, complete))
                            .min_size(egui::vec2(200.0, 36.0)),
                    )
                    .clicked()
            {
                requests.push(EventRequest::Release(complete));
            }
            if let Some(released) = released {
                if ui.button(words::STANDINGS_CSV.get(lang)).clicked() {
                    requests.push(EventRequest::StandingsCsv(released));
                }
                if ui.button(words::STANDINGS_PNG.get(lang)).clicked() {
                    requests.push(EventRequest::StandingsPicture(released));
                }
            }
        });
        let Some(released) = released else {
            return;
        };
        let ranking = event.setup().ranking;
        // The ranking as the window words it (the command line names its --ranking value).
        ui.label(cli_words::standings(
            lang,
            released,
            true,
            words::ranking(lang, ranking),
        ));
        // Each division ranked among its own players, or everyone.
        let divisions = event.divisions();
        if self
            .division
            .as_ref()
            .is_some_and(|d| !divisions.contains(d))
        {
            self.division = None;
        }
        if !divisions.is_empty() {
            ui.horizontal(|ui| {
                let everyone = words::ALL_DIVISIONS.get(lang);
                let label = ui.label(words::DIVISION.get(lang));
                egui::ComboBox::from_id_salt("event-division")
                    .selected_text(self.division.as_deref().unwrap_or(everyone))
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut self.division, None, everyone);
                        for division in &divisions {
                            ui.selectable_value(
                                &mut self.division,
                                Some(division.clone()),
                                division,
                            );
                        }
                    })
                    .response
                    .labelled_by(label.id);
            });
        }
        // Made once per change of the event, not per frame.
        let key = (
            id.clone(),
            event.log().len(),
            released,
            self.division.clone(),
        );
        if self.shown.as_ref().is_none_or(|s| s.key != key) {
            let mut early = event.clone();
            early.retain_rounds(released);
            let standings = match &self.division {
                Some(division) => early.division_standings(ranking, division),
                None => early.standings(),
            };
            self.shown = Some(ShownStandings { key, standings });
        }
        if let Some(shown) = &self.shown {
            standings_table(ui, lang, &shown.standings);
        }
    }
}

/// Placement lists as typed: `4,3,1,0`, several separated by `;` (blank: the defaults).
fn placement_lists(lang: Language, text: &str) -> Result<Placement, String> {
    let mut lists = Vec::new();
    for list in text.split(';').filter(|l| !l.trim().is_empty()) {
        let mut values = Vec::new();
        for value in list
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|v| !v.is_empty())
        {
            let field = words::PLACEMENT_POINTS.get(lang);
            values.push(
                value
                    .parse()
                    .map_err(|_| words::not_a_number(lang, field, value))?,
            );
        }
        lists.push(values);
    }
    Placement::new(lists).map_err(|p| crate::i18n::event::placement_problem(lang, &p))
}

/// The table `table` of round `round`.
fn table_of(event: &Event, round: u32, table: u32) -> Option<&crate::event::Table> {
    event
        .rounds()
        .iter()
        .find(|r| r.number == round)?
        .tables
        .iter()
        .find(|t| t.number == table)
}

/// A game as the result form's cells (the `score` format): what each seat had left, `!` on a
/// tie's named winner, `*` on a player who had not melded.
fn cells_of(game: &crate::score::Game) -> Vec<String> {
    game.hands
        .iter()
        .enumerate()
        .map(|(seat, hand)| {
            let mut cell = hand.left.to_string();
            if game.winner == Some(seat) {
                cell.push('!');
            }
            if hand.not_melded {
                cell.push('*');
            }
            cell
        })
        .collect()
}

/// The width of a result cell: a rack of seven tiles (`R10 R11 R12 K13 B13 O13 J`) fits.
const CELL_WIDTH: f32 = 190.0;

/// The width of a result row's game label.
const GAME_WIDTH: f32 = 60.0;

/// The result form: `Some(Some(request))` to save, `Some(None)` to close, `None` otherwise.
/// The cells a refused result names are marked, and the refusal is said under the grid.
fn entry_form(
    ui: &mut egui::Ui,
    lang: Language,
    entry: &mut Entry,
    names: &[String],
    marked: Option<&Marked>,
    refused: Option<&str>,
) -> Option<Option<EventRequest>> {
    let mut answer = None;
    ui.heading(words::entry(lang, entry.round, entry.table, entry.correct));
    ui.label(egui::RichText::new(words::CELL_HINT.get(lang)).weak());
    let error = ui.visuals().error_fg_color;
    egui::ScrollArea::horizontal()
        .id_salt("event-entry-scroll")
        .show(ui, |ui| {
            // Rows of fixed-width cells (a grid would keep each column to the width of the
            // name above it): a 7-tile rack fits a cell.
            ui.spacing_mut().item_spacing = egui::vec2(10.0, 6.0);
            ui.horizontal(|ui| {
                ui.add_space(GAME_WIDTH + 10.0);
                for name in names {
                    ui.add_sized(
                        [CELL_WIDTH, 20.0],
                        egui::Label::new(egui::RichText::new(name).strong()).truncate(),
                    );
                }
            });
            for (g, row) in entry.cells.iter_mut().enumerate() {
                ui.horizontal(|ui| {
                    let game = words::game(lang, g + 1);
                    ui.add_sized([GAME_WIDTH, 24.0], egui::Label::new(&game));
                    for (seat, cell) in row.iter_mut().enumerate() {
                        let bad = marked.is_some_and(|m| {
                            m.games.contains(&g) && (m.seats.is_empty() || m.seats.contains(&seat))
                        });
                        let mut edit = egui::TextEdit::singleline(cell);
                        if bad {
                            edit = edit.background_color(error.gamma_multiply(0.25));
                        }
                        let field = ui.add_sized([CELL_WIDTH, 24.0], edit);
                        if bad {
                            ui.painter().rect_stroke(
                                field.rect,
                                2.0,
                                egui::Stroke::new(2.0, error),
                                egui::StrokeKind::Outside,
                            );
                        }
                        let name = format!("{game} · {}", names[seat]);
                        // Named for screen readers and tests: "Game 1 · Ann".
                        field.widget_info(|| {
                            let mut info =
                                egui::WidgetInfo::text_edit(true, cell.as_str(), cell.as_str(), "");
                            info.label = Some(name.clone());
                            info
                        });
                    }
                });
            }
        });
    // Reserved room, so the buttons do not move when a refusal appears.
    ui.horizontal(|ui| {
        ui.set_min_height(22.0);
        if let Some(why) = refused {
            ui.colored_label(error, why);
        }
    });
    ui.horizontal(|ui| {
        if ui
            .add(egui::Button::new(words::SAVE_RESULT.get(lang)).min_size(egui::vec2(160.0, 36.0)))
            .clicked()
        {
            answer = Some(Some(EventRequest::Result {
                round: entry.round,
                table: entry.table,
                cells: entry.cells.clone(),
                correct: entry.correct,
            }));
        }
        if ui.button(words::CANCEL.get(lang)).clicked() {
            answer = Some(None);
        }
    });
    answer
}

/// The standings as a table: rank, name, wins, points, percent, games (and placement points
/// when they rank); a player in the finals is marked with the stage.
fn standings_table(ui: &mut egui::Ui, lang: Language, standings: &Standings) {
    let [rank, name, wins, points, games] = cli_words::COLUMNS.map(|t| t.get(lang));
    let placement = standings.ranking == Ranking::Placement;
    egui::Grid::new("event-standings")
        .num_columns(if placement { 7 } else { 6 })
        .striped(true)
        .spacing([18.0, 4.0])
        .show(ui, |ui| {
            for head in [rank, name, wins, points, words::PERCENT.get(lang), games] {
                ui.label(egui::RichText::new(head).strong());
            }
            if placement {
                ui.label(egui::RichText::new(cli_words::PLACEMENT.get(lang)).strong());
            }
            ui.end_row();
            for s in &standings.rows {
                ui.label(s.rank.to_string());
                let mut who = s.name.clone();
                if s.stage != Stage::Round {
                    who = format!("{who} ({})", cli_words::stage_name(lang, s.stage));
                }
                if s.dropped {
                    who = format!("{who} {}", cli_words::DROPPED.get(lang));
                }
                ui.label(who);
                ui.label(s.wins.to_string());
                ui.label(crate::ui::signed(s.points));
                ui.label(crate::event::export::percent_text(s.percent).replace('-', "−"));
                ui.label(s.games.to_string());
                if placement {
                    ui.label(placement_text(s.placement));
                }
                ui.end_row();
            }
        });
}

/// The saved events, newest first, each with Open.
fn saved_events(
    ui: &mut egui::Ui,
    lang: Language,
    context: &EventContext<'_>,
    requests: &mut Vec<EventRequest>,
) {
    let known = context.known;
    ui.horizontal(|ui| {
        ui.heading(words::SAVED.get(lang));
        if ui.button(words::REFRESH.get(lang)).clicked() {
            requests.push(EventRequest::Refresh);
        }
    });
    if context.listing {
        ui.label(egui::RichText::new(words::LISTING.get(lang)).weak());
    } else if known.is_empty() {
        ui.label(words::NONE_YET.get(lang));
    }
    for summary in known {
        ui.horizontal(|ui| {
            match &summary.name {
                Some(name) => {
                    ui.label(egui::RichText::new(name).strong());
                    ui.label(words::listed(lang, summary.players, summary.round));
                }
                None => {
                    ui.label(words::UNREADABLE.get(lang));
                }
            }
            ui.label(egui::RichText::new(summary.id.as_str()).weak());
            let open = ui.add_enabled(
                summary.name.is_some(),
                egui::Button::new(words::OPEN.get(lang)),
            );
            let name = format!("{} · {}", words::OPEN.get(lang), summary.id);
            open.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
            if open.clicked() {
                requests.push(EventRequest::Open(summary.id.clone()));
            }
        });
    }
}

/// One line, always there (so nothing below moves when a save finishes): whether the event is
/// on disk, and how the last export went.
fn status_line(ui: &mut egui::Ui, lang: Language, context: &EventContext<'_>) {
    ui.horizontal(|ui| {
        ui.set_min_height(22.0);
        if let Some(failure) = &context.saving.failing {
            let why = crate::i18n::store_error(lang, &failure.why);
            ui.colored_label(ui.visuals().warn_fg_color, words::not_saved(lang, &why));
        } else if context.saving.unsaved {
            ui.label(egui::RichText::new(words::SAVING.get(lang)).weak());
        }
        if let Some(report) = context.export {
            ui.label(crate::club::words::export(lang, report));
        }
    });
}

/// A menu of `choices` named by `name`, labelled by `label` (its label is read with it), `width`
/// wide (0: as wide as its choice).
fn menu<T: Copy + PartialEq>(
    ui: &mut egui::Ui,
    id: &str,
    label: egui::Id,
    width: f32,
    value: &mut T,
    choices: &[T],
    name: impl Fn(T) -> &'static str,
) {
    let mut combo = egui::ComboBox::from_id_salt(id).selected_text(name(*value));
    if width > 0.0 {
        combo = combo.width(width);
    }
    combo
        .show_ui(ui, |ui| {
            for &choice in choices {
                ui.selectable_value(value, choice, name(choice));
            }
        })
        .response
        .labelled_by(label);
}
