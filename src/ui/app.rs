//! The app: saved settings, runtime handles, the views, and the one place actions are applied.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

pub use super::meld_view::MeldMode;
use super::meld_view::MeldView;
use super::settings_view::{self, SettingsRequest};
pub use super::sheet_view::SheetRequest;
use super::sheet_view::SheetView;
pub use super::timer_view::TimerCommand;
use super::timer_view::TimerView;
use crate::i18n::{self, Language};
use crate::rules::RuleSet;
use crate::runtime::{Clock, SystemClock, TimerRuntime};
use crate::score::{Game, Players, Sheet};
use crate::sound::{Cue, SoundError, Sounder};
use crate::store::{CsvLayout, Notice, SheetId, Store};
use crate::timer::{Phase, Timer, TimerSettings};

/// Everything the user chose that outlives the window: saved through `store` as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// UI language.
    pub language: Language,
    /// The table's rules.
    pub rules: RuleSet,
    /// Sound volume, 0–1.
    pub volume: f32,
    /// Sound off.
    pub muted: bool,
    /// Players in seat order (clockwise), shared by the timer and the score sheet.
    pub players: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            language: Language::default(),
            rules: RuleSet::default(),
            volume: 0.8,
            muted: false,
            players: Vec::new(),
        }
    }
}

/// The tabs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum View {
    /// Turn timer.
    #[default]
    Timer,
    /// Initial-meld checker and solver.
    Meld,
    /// Score sheet.
    Sheet,
    /// Settings.
    Settings,
}

/// What the outside world gives the app: a clock and a sound output. Tests pass a manual
/// clock and a recording sounder and get a timer without a thread.
pub struct AppDeps {
    /// The monotonic clock the timer runs on.
    pub clock: Arc<dyn Clock>,
    /// Where cues are played.
    pub sounder: Arc<dyn Sounder>,
    /// Why there is no sound, to tell the user once.
    pub sound_error: Option<SoundError>,
    /// Run the timer on its own thread (the real app), or only when the UI pumps it (tests).
    pub timer_thread: bool,
    /// Where settings and sheets are saved, or why there is no such place.
    pub store: Result<Store, String>,
}

impl AppDeps {
    /// The real machine: system clock, default audio output (or silence and a notice).
    pub fn real() -> AppDeps {
        let (sounder, sound_error) = crate::sound::open_or_silent();
        AppDeps {
            clock: Arc::new(SystemClock::new()),
            sounder,
            sound_error,
            timer_thread: true,
            store: Store::open_default().map_err(|e| e.to_string()),
        }
    }

    /// Deterministic dependencies for tests: the given clock, sounder and data folder, no timer
    /// thread.
    pub fn manual(
        clock: Arc<dyn Clock>,
        sounder: Arc<dyn Sounder>,
        data: &std::path::Path,
    ) -> AppDeps {
        AppDeps {
            clock,
            sounder,
            sound_error: None,
            timer_thread: false,
            store: Store::open(data).map_err(|e| e.to_string()),
        }
    }
}

/// Something a view asked for, applied after the frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Switch tab.
    Show(View),
    /// Replace the settings (and save them).
    Settings(Settings),
    /// Play the three sounds.
    TestSound,
    /// Toggle full screen.
    ToggleFullscreen,
    /// A timer command.
    Timer(TimerCommand),
    /// Hide the notice with this index.
    Dismiss(usize),
    /// A score sheet request.
    Sheet(SheetRequest),
    /// Show the meld view in a mode with this text (a meld to check or a rack to solve).
    Meld(MeldMode, String),
}

/// The application state: saved settings, the timer runtime, and each view's own state.
pub struct App {
    settings: Settings,
    view: View,
    store: Option<Store>,
    timer: TimerRuntime,
    notices: Vec<String>,
    sheet: Option<(SheetId, Sheet)>,
    past_sheets: Vec<(SheetId, DateTime<Utc>)>,
    deleted: Option<(usize, Game)>,
    timer_view: TimerView,
    meld: MeldView,
    sheet_view: SheetView,
    fullscreen: bool,
}

/// A store notice in the user's language.
fn notice_text(lang: Language, notice: &Notice) -> String {
    let s = lang.strings();
    match notice {
        Notice::SetAside { moved_to, .. } => (s.set_aside)(&moved_to.display().to_string()),
        Notice::Recovered { file, .. } => (s.recovered_from_backup)(&file.display().to_string()),
        Notice::LeftInPlace { .. } => notice.to_string(),
    }
}

/// Seat names for the timer: the saved ones when valid, else "Player 1" … "Player 4".
fn seat_names(settings: &Settings) -> Vec<String> {
    let n = settings.players.len();
    if (2..=6).contains(&n) {
        settings.players.clone()
    } else {
        (1..=4)
            .map(settings.language.strings().default_player)
            .collect()
    }
}

impl App {
    /// Creates the app for eframe: fonts, settings, and a timer thread that repaints the window
    /// when an event fires (so alarms sound and show even while the window is covered).
    pub fn new(cc: &eframe::CreationContext<'_>, deps: AppDeps) -> App {
        super::install_fonts(&cc.egui_ctx);
        let ctx = cc.egui_ctx.clone();
        App::with_repaint(deps, move || ctx.request_repaint())
    }

    /// Creates the app without a window (tests install fonts on their own context).
    pub fn headless(deps: AppDeps) -> App {
        App::with_repaint(deps, || {})
    }

    fn with_repaint(deps: AppDeps, repaint: impl Fn() + Send + Sync + 'static) -> App {
        let AppDeps {
            clock,
            sounder,
            sound_error,
            timer_thread,
            store,
        } = deps;
        let locale_language =
            sys_locale::get_locale().map_or(Language::English, |tag| Language::from_locale(&tag));
        let mut notices = Vec::new();
        let (store, mut settings) = match store {
            Ok(store) => {
                let fresh = !store.settings_path().exists();
                let loaded = store.load_settings::<Settings>();
                let mut settings = loaded.value;
                if fresh {
                    settings.language = locale_language;
                }
                let lang = settings.language;
                notices.extend(loaded.notices.iter().map(|n| notice_text(lang, n)));
                (Some(store), settings)
            }
            Err(e) => {
                let lang = locale_language;
                notices.push((lang.strings().save_failed)(&e));
                let settings = Settings {
                    language: lang,
                    ..Settings::default()
                };
                (None, settings)
            }
        };
        let lang = settings.language;
        if let Some(e) = &sound_error {
            notices.push((lang.strings().no_audio)(&e.to_string()));
        }
        settings.players = seat_names(&settings);
        // A hand-edited file may hold timer values the game does not allow: use the defaults.
        if settings.rules.validate().is_err() {
            let defaults = RuleSet::default();
            settings.rules.turn_seconds = defaults.turn_seconds;
            settings.rules.warning_seconds = defaults.warning_seconds;
            settings.rules.tick_seconds = defaults.tick_seconds;
            notices.push(lang.strings().timer_settings_reset.to_owned());
        }
        sounder.set_volume(settings.volume);
        sounder.set_muted(settings.muted);
        let timer = App::make_timer(&settings, clock, sounder, timer_thread, repaint);
        let mut app = App {
            settings,
            view: View::default(),
            store,
            timer,
            notices,
            sheet: None,
            past_sheets: Vec::new(),
            deleted: None,
            timer_view: TimerView::default(),
            meld: MeldView::default(),
            sheet_view: SheetView::default(),
            fullscreen: false,
        };
        app.open_latest_sheet();
        app
    }

    /// Lists the saved sheets and opens the most recently played one.
    fn open_latest_sheet(&mut self) {
        let lang = self.settings.language;
        let Some(store) = &self.store else { return };
        match store.list_sheets() {
            Ok(listing) => {
                self.notices
                    .extend(listing.notices.iter().map(|n| notice_text(lang, n)));
                self.past_sheets = listing
                    .sheets
                    .iter()
                    .map(|saved| (saved.id.clone(), saved.sheet.last_activity()))
                    .collect();
                self.sheet = listing
                    .sheets
                    .into_iter()
                    .next()
                    .map(|saved| (saved.id, saved.sheet));
            }
            Err(e) => self
                .notices
                .push((lang.strings().save_failed)(&e.to_string())),
        }
    }

    /// The timer runtime for the saved seats and rules: on its own thread when asked (and
    /// possible), else pumped by the UI.
    fn make_timer(
        settings: &Settings,
        clock: Arc<dyn Clock>,
        sounder: Arc<dyn Sounder>,
        thread: bool,
        repaint: impl Fn() + Send + Sync + 'static,
    ) -> TimerRuntime {
        let timer_settings = TimerSettings::from_rules(&settings.rules);
        let defaults = (1..=4).map(settings.language.strings().default_player);
        let timer = Timer::new(seat_names(settings), timer_settings)
            .or_else(|_| Timer::new(defaults, timer_settings))
            .expect("four distinct default names make a valid table");
        if thread {
            let spawned = TimerRuntime::spawn(
                timer.clone(),
                Arc::clone(&clock),
                Arc::clone(&sounder),
                repaint,
            );
            match spawned {
                Ok(rt) => return rt,
                Err(e) => eprintln!("warning: no timer thread ({e}); alerts follow repaints"),
            }
        }
        TimerRuntime::manual(timer, clock, sounder)
    }

    fn store_dir(&self) -> Option<String> {
        self.store
            .as_ref()
            .map(|store| store.dir().display().to_string())
    }

    /// The current settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The timer runtime (tests read the timer through it).
    pub fn timer(&self) -> &TimerRuntime {
        &self.timer
    }

    /// Notices shown at the top of the window.
    pub fn notices(&self) -> &[String] {
        &self.notices
    }

    /// The open score sheet.
    pub fn sheet(&self) -> Option<&Sheet> {
        self.sheet.as_ref().map(|(_, sheet)| sheet)
    }

    /// Applies one action.
    pub fn apply(&mut self, ctx: &egui::Context, action: Action) {
        match action {
            Action::Show(view) => self.view = view,
            Action::Settings(settings) => self.set_settings(settings),
            Action::TestSound => {
                let sounder = self.timer.sounder();
                for cue in Cue::ALL {
                    sounder.play(cue);
                }
            }
            Action::ToggleFullscreen => {
                self.fullscreen = !self.fullscreen;
                ctx.send_viewport_cmd(egui::ViewportCommand::Fullscreen(self.fullscreen));
            }
            Action::Timer(command) => self.timer_command(command),
            Action::Dismiss(i) => {
                if i < self.notices.len() {
                    self.notices.remove(i);
                }
            }
            Action::Sheet(request) => self.sheet_request(request),
            Action::Meld(mode, text) => {
                self.view = View::Meld;
                self.meld.mode = mode;
                match mode {
                    MeldMode::Check => self.meld.meld_text = text,
                    MeldMode::Solve => self.meld.rack_text = text,
                }
            }
        }
    }

    fn sheet_request(&mut self, request: SheetRequest) {
        self.sheet_view.error = None;
        let result = match request {
            SheetRequest::New { rounds } => self.new_sheet(rounds),
            SheetRequest::Open(id) => self.open_sheet(&id),
            SheetRequest::SaveGame(index, game) => self.change_sheet(|sheet| match index {
                Some(i) => sheet.edit_game(i, game),
                None => sheet.add_game(game).map(|_| ()),
            }),
            SheetRequest::Delete(i) => {
                let mut removed = None;
                let result = self.change_sheet(|sheet| {
                    removed = Some(sheet.delete_game(i)?);
                    Ok(())
                });
                self.deleted = removed.map(|game| (i, game));
                result
            }
            SheetRequest::UndoDelete => match self.deleted.take() {
                Some((i, game)) => self.change_sheet(|sheet| sheet.insert_game(i, game)),
                None => Ok(()),
            },
            SheetRequest::Export => self.export_sheet(),
        };
        self.sheet_view.can_undo_delete = self.deleted.is_some();
        if let Err(e) = result {
            self.sheet_view.error = Some(e);
        }
    }

    fn new_sheet(&mut self, rounds: Option<u32>) -> Result<(), String> {
        let lang = self.settings.language;
        let created = Utc::now();
        let players =
            Players::new(self.settings.players.clone()).map_err(|e| i18n::score_error(lang, &e))?;
        let sheet = Sheet::new(players, self.settings.rules, rounds, created)
            .map_err(|e| i18n::score_error(lang, &e))?;
        let id = match &self.store {
            Some(store) => store.new_sheet_id(created),
            None => SheetId::new(&created.format("%Y%m%d-%H%M%S").to_string())
                .map_err(|e| e.to_string())?,
        };
        self.past_sheets.insert(0, (id.clone(), created));
        self.sheet = Some((id, sheet));
        self.deleted = None;
        self.save_sheet()
    }

    fn open_sheet(&mut self, id: &SheetId) -> Result<(), String> {
        let lang = self.settings.language;
        let Some(store) = &self.store else {
            return Ok(());
        };
        let loaded = store
            .load_sheet(id)
            .map_err(|e| (lang.strings().save_failed)(&e.to_string()))?;
        self.notices
            .extend(loaded.notices.iter().map(|n| notice_text(lang, n)));
        self.sheet = Some((id.clone(), loaded.value));
        self.deleted = None;
        Ok(())
    }

    /// Changes the open sheet and saves it at once; a refused change leaves it as it was.
    fn change_sheet(
        &mut self,
        change: impl FnOnce(&mut Sheet) -> Result<(), crate::score::ScoreError>,
    ) -> Result<(), String> {
        let lang = self.settings.language;
        let Some((_, sheet)) = &mut self.sheet else {
            return Ok(());
        };
        change(sheet).map_err(|e| i18n::score_error(lang, &e))?;
        self.save_sheet()
    }

    fn save_sheet(&mut self) -> Result<(), String> {
        let lang = self.settings.language;
        let (Some(store), Some((id, sheet))) = (&self.store, &self.sheet) else {
            return Ok(());
        };
        let notices = store
            .save_sheet(id, sheet)
            .map_err(|e| (lang.strings().save_failed)(&e.to_string()))?;
        self.notices
            .extend(notices.iter().map(|n| notice_text(lang, n)));
        if let Some(entry) = self.past_sheets.iter_mut().find(|(past, _)| past == id) {
            entry.1 = sheet.last_activity();
        }
        Ok(())
    }

    fn export_sheet(&mut self) -> Result<(), String> {
        let s = self.settings.language.strings();
        let (Some(store), Some((id, sheet))) = (&self.store, &self.sheet) else {
            return Ok(());
        };
        let folder = store.dir().join("exports");
        std::fs::create_dir_all(&folder).map_err(|e| (s.save_failed)(&e.to_string()))?;
        let path = folder.join(format!("{id}.csv"));
        crate::store::export_csv(sheet, CsvLayout::Points, &path)
            .map_err(|e| (s.save_failed)(&e.to_string()))?;
        self.notices
            .push((s.exported_to)(&path.display().to_string()));
        Ok(())
    }

    fn set_settings(&mut self, settings: Settings) {
        let lang = settings.language;
        if settings.rules != self.settings.rules {
            self.timer
                .set_settings(TimerSettings::from_rules(&settings.rules));
            if let Err(e) = self.change_sheet(|sheet| sheet.set_rules(settings.rules)) {
                self.sheet_view.error = Some(e);
            }
        }
        if let Some(store) = &self.store {
            match store.save_settings(&settings) {
                Ok(notices) => self
                    .notices
                    .extend(notices.iter().map(|n| notice_text(lang, n))),
                Err(e) => self
                    .notices
                    .push((lang.strings().settings_not_saved)(&e.to_string())),
            }
        }
        let sounder = self.timer.sounder();
        sounder.set_volume(settings.volume);
        sounder.set_muted(settings.muted);
        self.settings = settings;
    }

    fn timer_command(&mut self, command: TimerCommand) {
        let lang = self.settings.language;
        // Commands that do not apply in the current state are simply not offered by the view;
        // a race (a key pressed twice in one frame) is harmless, so those results are ignored.
        match command {
            TimerCommand::Primary => {
                let _ = self.timer.command(|t, now| match t.phase() {
                    Phase::Idle => t.start(now),
                    _ => t.end_turn(now).map(|_| ()),
                });
            }
            TimerCommand::TogglePause => {
                let _ = self.timer.toggle();
            }
            TimerCommand::Undo => {
                let _ = self.timer.undo();
            }
            TimerCommand::Reset => self.timer.reset(),
            TimerCommand::SetPlayers(names) => {
                match self.timer.command(|t, _| t.set_players(names.clone())) {
                    Ok(()) => {
                        self.timer_view.players_error = None;
                        let settings = Settings {
                            players: names,
                            ..self.settings.clone()
                        };
                        self.set_settings(settings);
                    }
                    Err(e) => self.timer_view.players_error = Some(i18n::timer_error(lang, &e)),
                }
            }
        }
    }

    /// Asks egui to repaint exactly when the clock's shown second changes or an event is due
    /// (and twice a second while the time-up flash is on), never every frame.
    fn schedule_repaint(&self, ctx: &egui::Context) {
        let now = self.timer.now();
        let (next, flashing) = self.timer.read(|t, now| {
            let next = [t.next_display_change_at(now), t.next_event_at()]
                .into_iter()
                .flatten()
                .min();
            (next, t.is_timed_out(now) && t.phase() == Phase::Running)
        });
        if let Some(at) = next {
            ctx.request_repaint_after(at.saturating_sub(now));
        }
        if flashing {
            let half = Duration::from_millis(500);
            let into = Duration::from_millis((now.as_millis() % 500) as u64);
            ctx.request_repaint_after(half - into);
        }
    }

    /// Draws one frame and returns what the views asked for.
    pub fn frame(&mut self, ui: &mut egui::Ui) -> Vec<Action> {
        let mut actions = Vec::new();
        let lang = self.settings.language;
        let s = lang.strings();
        self.timer.pump();
        if ui.input(|i| i.key_pressed(egui::Key::F11)) {
            actions.push(Action::ToggleFullscreen);
        }
        egui::Panel::top("tabs").show(ui, |ui| {
            ui.horizontal(|ui| {
                for (view, label, key) in [
                    (View::Timer, s.tab_timer, egui::Key::F1),
                    (View::Meld, s.tab_meld, egui::Key::F2),
                    (View::Sheet, s.tab_sheet, egui::Key::F3),
                    (View::Settings, s.tab_settings, egui::Key::F4),
                ] {
                    let text = egui::RichText::new(label).size(18.0);
                    let tab = ui
                        .selectable_label(self.view == view, text)
                        .on_hover_text(key.name());
                    if tab.clicked() || ui.input(|i| i.key_pressed(key)) {
                        actions.push(Action::Show(view));
                    }
                }
            });
        });
        if !self.notices.is_empty() {
            egui::Panel::top("notices").show(ui, |ui| {
                for (i, notice) in self.notices.iter().enumerate() {
                    ui.horizontal(|ui| {
                        ui.colored_label(egui::Color32::from_rgb(0xef, 0x7d, 0x00), notice);
                        if ui.small_button(s.dismiss).clicked() {
                            actions.push(Action::Dismiss(i));
                        }
                    });
                }
            });
        }
        egui::CentralPanel::default().show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| match self.view {
                View::Timer => {
                    let commands = self.timer_view.ui(ui, lang, &self.timer);
                    actions.extend(commands.into_iter().map(Action::Timer));
                }
                View::Sheet => {
                    let sheet = self.sheet.as_ref().map(|(_, sheet)| sheet);
                    let request =
                        self.sheet_view
                            .ui(ui, lang, sheet, &self.past_sheets, Utc::now());
                    actions.extend(request.map(Action::Sheet));
                }
                View::Meld => self.meld.ui(ui, lang, &self.settings.rules),
                View::Settings => {
                    match settings_view::ui(ui, &self.settings, self.store_dir().as_deref()) {
                        Some(SettingsRequest::Change(new)) => actions.push(Action::Settings(new)),
                        Some(SettingsRequest::TestSound) => actions.push(Action::TestSound),
                        None => {}
                    }
                }
            });
        });
        actions
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        for action in self.frame(ui) {
            self.apply(&ctx, action);
        }
        self.schedule_repaint(&ctx);
    }
}
