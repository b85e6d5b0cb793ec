//! The app: saved settings, runtime handles, the views, and the one place actions are applied.

use serde::{Deserialize, Serialize};

use super::meld_view::MeldView;
use super::settings_view::{self, SettingsRequest};
use crate::i18n::Language;
use crate::rules::RuleSet;

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

/// What the outside world gives the app: where data lives.
pub struct AppDeps {}

impl AppDeps {
    /// The real machine.
    pub fn real() -> AppDeps {
        AppDeps {}
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
}

/// The application state.
pub struct App {
    settings: Settings,
    view: View,
    meld: MeldView,
    fullscreen: bool,
}

impl App {
    /// Creates the app (fonts, settings) for eframe.
    pub fn new(cc: &eframe::CreationContext<'_>, deps: AppDeps) -> App {
        super::install_fonts(&cc.egui_ctx);
        App::headless(deps)
    }

    /// Creates the app without a window (tests install fonts on their own context).
    pub fn headless(_deps: AppDeps) -> App {
        App {
            settings: Settings::default(),
            view: View::default(),
            meld: MeldView::default(),
            fullscreen: false,
        }
    }

    /// The current settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Applies one action.
    pub fn apply(&mut self, ctx: &egui::Context, action: Action) {
        match action {
            Action::Show(view) => self.view = view,
            Action::Settings(settings) => self.settings = settings,
            Action::TestSound => {}
            Action::ToggleFullscreen => {
                self.fullscreen = !self.fullscreen;
                ctx.send_viewport_cmd(egui::ViewportCommand::Fullscreen(self.fullscreen));
            }
        }
    }

    /// Draws one frame and returns what the views asked for.
    pub fn frame(&mut self, ui: &mut egui::Ui) -> Vec<Action> {
        let mut actions = Vec::new();
        let lang = self.settings.language;
        let s = lang.strings();
        if ui.input(|i| i.key_pressed(egui::Key::F11)) {
            actions.push(Action::ToggleFullscreen);
        }
        egui::Panel::top("tabs").show(ui, |ui| {
            ui.horizontal(|ui| {
                for (view, label) in [
                    (View::Timer, s.tab_timer),
                    (View::Meld, s.tab_meld),
                    (View::Sheet, s.tab_sheet),
                    (View::Settings, s.tab_settings),
                ] {
                    if ui
                        .selectable_label(self.view == view, egui::RichText::new(label).size(18.0))
                        .clicked()
                    {
                        actions.push(Action::Show(view));
                    }
                }
            });
        });
        egui::CentralPanel::default().show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| match self.view {
                View::Timer | View::Sheet => {
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
    }
}
