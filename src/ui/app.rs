//! The app: saved settings, runtime handles, the views, and the one place actions are applied.

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::meld_view::MeldView;
use super::settings_view::{self, SettingsRequest};
pub use super::timer_view::TimerCommand;
use super::timer_view::TimerView;
use crate::i18n::{self, Language};
use crate::rules::RuleSet;
use crate::runtime::{Clock, SystemClock, TimerRuntime};
use crate::sound::{Cue, SoundError, Sounder};
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
        }
    }

    /// Deterministic dependencies for tests: the given clock and sounder, no timer thread.
    pub fn manual(clock: Arc<dyn Clock>, sounder: Arc<dyn Sounder>) -> AppDeps {
        AppDeps {
            clock,
            sounder,
            sound_error: None,
            timer_thread: false,
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
}

/// The application state: saved settings, the timer runtime, and each view's own state.
pub struct App {
    settings: Settings,
    view: View,
    timer: TimerRuntime,
    notices: Vec<String>,
    timer_view: TimerView,
    meld: MeldView,
    fullscreen: bool,
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
        let mut settings = Settings {
            language: sys_locale::get_locale()
                .map_or(Language::English, |tag| Language::from_locale(&tag)),
            ..Settings::default()
        };
        let mut notices = Vec::new();
        if let Some(e) = &deps.sound_error {
            notices.push((settings.language.strings().no_audio)(&e.to_string()));
        }
        settings.players = seat_names(&settings);
        let timer = App::make_timer(&settings, deps, repaint);
        App {
            settings,
            view: View::default(),
            timer,
            notices,
            timer_view: TimerView::default(),
            meld: MeldView::default(),
            fullscreen: false,
        }
    }

    fn make_timer(
        settings: &Settings,
        deps: AppDeps,
        repaint: impl Fn() + Send + Sync + 'static,
    ) -> TimerRuntime {
        let timer_settings = TimerSettings::from_rules(&settings.rules);
        let defaults = (1..=4).map(settings.language.strings().default_player);
        let timer = Timer::new(seat_names(settings), timer_settings)
            .or_else(|_| Timer::new(defaults, timer_settings))
            .expect("four distinct default names make a valid table");
        deps.sounder.set_volume(settings.volume);
        deps.sounder.set_muted(settings.muted);
        if deps.timer_thread {
            let clock = Arc::clone(&deps.clock);
            let sounder = Arc::clone(&deps.sounder);
            match TimerRuntime::spawn(timer.clone(), clock, sounder, repaint) {
                Ok(rt) => return rt,
                Err(e) => eprintln!("warning: no timer thread ({e}); alerts follow repaints"),
            }
        }
        TimerRuntime::manual(timer, deps.clock, deps.sounder)
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
        }
    }

    fn set_settings(&mut self, settings: Settings) {
        if settings.rules != self.settings.rules {
            self.timer
                .set_settings(TimerSettings::from_rules(&settings.rules));
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
                        self.settings.players = names;
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
                    ui.label(s.placeholder_soon);
                }
                View::Meld => self.meld.ui(ui, lang, &self.settings.rules),
                View::Settings => match settings_view::ui(ui, &self.settings, None) {
                    Some(SettingsRequest::Change(new)) => actions.push(Action::Settings(new)),
                    Some(SettingsRequest::TestSound) => actions.push(Action::TestSound),
                    None => {}
                },
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
