//! The app: saved settings, runtime handles, the views, and the one place actions are applied.
//!
//! Every input, whatever its source (a key, a click, later a phone), becomes an [`Action`] and
//! goes through [`App::apply`] after the frame. That single path is where the table's promises
//! are kept: one press ends one turn ([`EndTurnGuard`]), every change is recorded in the undo
//! [`History`], and the evening is saved after every change, so a restart loses nothing.

mod commands;
mod layout;
mod phone_link;
mod sheet;

use layout::KeyLatch;

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use serde::{Deserialize, Serialize};

pub use super::settings::Settings;

pub use super::meld_view::MeldMode;
use super::meld_view::MeldView;
use super::notices::{AppNotice, NoticeClick, Notices, Worded};
use super::phones::{self, Phones};
use super::settings_view::{SettingsRequest, SettingsView};
pub use super::timer_view::TimerCommand;
use super::timer_view::{TableInput, TimerView};
use crate::evening::Evening;
use crate::history::History as Record;
use crate::i18n::{self, Language};
use crate::rules::RuleSet;
use crate::runtime::{Clock, SystemClock, TimerRuntime};
use crate::score::Sheet;
use crate::server::{PhoneAction, Refusal, TableState};
use crate::session::{Event as SessionEvent, SessionError, SheetSession};
use crate::sound::{Cue, SoundError, Sounder};
use crate::store::{Access, ReadOnlyReason, Store};
use crate::timer::{EndTurnGuard, Phase, Timer, TimerMode, TimerSettings};
use crate::ui::clock::ClockSnapshot;
pub use crate::ui::sheet_view::SheetRequest;
use crate::ui::sheet_view::{SheetContext, SheetView};
use crate::ui::table_view::TableCommand;
pub use crate::undo::Change;
use crate::undo::{Area, History, Snapshot};

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
    /// The clock on the whole screen, for the whole table.
    Table,
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
    /// Keeps the screen awake while a turn runs (the platform's inhibit API), or says why not;
    /// `None`: not asked for (tests).
    pub keep_awake: Option<KeepAwakeFn>,
    /// Asks where to save a file (the system's save dialog), given a suggested name; `None`
    /// when cancelled or when no dialog can be shown.
    pub save_dialog: SaveDialog,
}

/// A save dialog: a suggested file name in, the chosen path (or nothing) out. It runs on its
/// own thread.
pub type SaveDialog = Arc<dyn Fn(&str) -> Option<std::path::PathBuf> + Send + Sync>;

/// The system's save dialog (the desktop portal on Linux, or zenity; asks before replacing).
fn system_save_dialog(suggested: &str) -> Option<std::path::PathBuf> {
    rfd::FileDialog::new()
        .set_file_name(suggested)
        .add_filter("CSV", &["csv"])
        .save_file()
}

/// Asks the platform to keep the screen on; the returned handle releases it when dropped.
pub type KeepAwakeFn = fn() -> Result<Box<dyn std::any::Any>, String>;

/// The real keep-awake: the screen saver and display sleep are inhibited while the handle
/// lives (D-Bus `org.freedesktop.ScreenSaver` on Linux, through `keepawake`).
fn keep_screen_awake() -> Result<Box<dyn std::any::Any>, String> {
    keepawake::Builder::default()
        .display(true)
        .idle(true)
        .reason("A Rummikub turn is running")
        .app_name("Rummikub Companion")
        .app_reverse_domain("io.github.rummikub-companion")
        .create()
        .map(|handle| Box::new(handle) as Box<dyn std::any::Any>)
        .map_err(|e| e.to_string())
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
            // Worded in the locale's language: the settings (and their language) live in the
            // store that could not be opened.
            store: Store::open_default().map_err(|e| i18n::store_error(Language::of_system(), &e)),
            keep_awake: Some(keep_screen_awake),
            save_dialog: Arc::new(system_save_dialog),
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
            keep_awake: None,
            // As on a machine without a desktop portal: no dialog, at once.
            save_dialog: Arc::new(|_: &str| None),
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
    /// Take back the last change of the evening.
    Undo,
    /// Show a folder in the system's file manager (after an export).
    OpenFolder(std::path::PathBuf),
    /// Leave the table view for the tab it was opened from.
    ExitTable,
    /// Switch the table view's face-to-face layout.
    ToggleFaceToFace,
    /// Switch the phones' page on or off.
    Phones(bool),
    /// Do the last undone change again.
    Redo,
}

/// The application state: saved settings, the timer runtime, and each view's own state.
pub struct App {
    settings: Settings,
    view: View,
    store: Option<Store>,
    timer: TimerRuntime,
    notices: Notices,
    /// The open score sheet and the saved ones.
    session: SheetSession,
    /// A "Save CSV as…" dialog open now.
    save_as: Option<sheet::SaveAs>,
    save_dialog: SaveDialog,
    /// The history across evenings, while shown, and the files it had to skip.
    history_data: Option<(Record, Vec<String>)>,
    /// Where the next window screenshot goes (an exported picture), and the slot it lands in.
    picture_to: Option<std::path::PathBuf>,
    picture: Arc<std::sync::Mutex<Option<Arc<egui::ColorImage>>>>,
    history: History,
    guard: EndTurnGuard,
    keys: KeyLatch,
    /// When (on the timer's clock) the window last gained focus.
    focused_at: Option<Duration>,
    /// The guard against a double-click on a destructive button (delete a game).
    delete_guard: EndTurnGuard,
    timer_view: TimerView,
    meld: MeldView,
    sheet_view: SheetView,
    settings_view: SettingsView,
    fullscreen: bool,
    /// The evening as last saved, to save only what changed.
    saved_evening: Option<Evening>,
    /// There is no sound output (the test sounds say so instead of playing nothing).
    no_audio: bool,
    keep_awake: Option<KeepAwakeFn>,
    /// The screen is kept awake while this lives.
    awake: Option<Box<dyn std::any::Any>>,
    /// Keeping awake failed once (said once, not tried again).
    awake_failed: bool,
    /// The view to go back to from the table view.
    before_table: View,
    /// The phones' server, when switched on.
    phones: Phones,
    /// The window's context, for waking it from other threads.
    ctx: egui::Context,
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
            keep_awake,
            save_dialog,
        } = deps;
        // The same rule as the command line: LC_ALL, LC_MESSAGES, LANG, then the system.
        let locale_language = Language::of_system();
        let mut notices = Notices::default();
        let mut evening = Evening::default();
        let (store, mut settings) = match store {
            Ok(store) => {
                let fresh = !store.settings_path().exists();
                let loaded = store.load_settings::<Settings>();
                let mut settings = loaded.value;
                if fresh {
                    settings.language = locale_language;
                }
                notices.extend_store(loaded.notices);
                let loaded = store.load_evening::<Evening>();
                notices.extend_store(loaded.notices);
                evening = loaded.value;
                (Some(store), settings)
            }
            Err(e) => {
                notices.push(AppNotice::SaveFailed(Worded::same(e)));
                let settings = Settings {
                    language: locale_language,
                    ..Settings::default()
                };
                (None, settings)
            }
        };
        if let Some(e) = &sound_error {
            notices.push(AppNotice::NoAudio(e.to_string()));
        }
        settings.players = seat_names(&settings);
        // A hand-edited file may hold timer values the game does not allow: use the defaults.
        if settings.rules.validate().is_err() {
            let defaults = RuleSet::default();
            settings.rules.turn_seconds = defaults.turn_seconds;
            settings.rules.warning_seconds = defaults.warning_seconds;
            settings.rules.tick_seconds = defaults.tick_seconds;
            notices.push(AppNotice::TimerSettingsReset);
        }
        sounder.set_volume(settings.volume);
        sounder.set_muted(settings.muted);
        let timer = App::make_timer(&settings, &evening, clock, sounder, timer_thread, repaint);
        // The saved evening's seats win over the settings' (they are the same unless a file was
        // edited by hand).
        settings.players = timer.read(|t, _| t.players().to_vec());
        let session = SheetSession::open_store(store.clone(), evening.sheet.as_deref());
        let mut app = App {
            settings,
            view: View::default(),
            store,
            timer,
            notices,
            session,
            save_as: None,
            save_dialog,
            history_data: None,
            picture_to: None,
            picture: Arc::default(),
            history: History::default(),
            guard: EndTurnGuard::default(),
            keys: KeyLatch::default(),
            focused_at: None,
            delete_guard: EndTurnGuard::default(),
            timer_view: TimerView::default(),
            meld: MeldView::default(),
            sheet_view: SheetView::default(),
            settings_view: SettingsView::default(),
            fullscreen: false,
            saved_evening: Some(evening.clone()),
            no_audio: sound_error.is_some(),
            keep_awake,
            awake: None,
            awake_failed: false,
            before_table: View::Timer,
            phones: Phones::default(),
            ctx: egui::Context::default(),
        };
        app.session_events();
        if let (Some(draft), Some(sheet)) = (evening.draft, app.session.sheet())
            && draft.left.len() == sheet.players().len()
        {
            app.sheet_view.restore_draft(draft);
        }
        app
    }

    /// The timer runtime for the saved evening (or the saved seats): on its own thread when
    /// asked (and possible), else pumped by the UI.
    fn make_timer(
        settings: &Settings,
        evening: &Evening,
        clock: Arc<dyn Clock>,
        sounder: Arc<dyn Sounder>,
        thread: bool,
        repaint: impl Fn() + Send + Sync + 'static,
    ) -> TimerRuntime {
        let timer_settings = TimerSettings::from_rules(&settings.rules);
        let defaults = (1..=4).map(settings.language.strings().default_player);
        let restored = evening
            .timer
            .as_ref()
            .and_then(|saved| Timer::restore(saved, timer_settings, clock.now()).ok());
        let mut timer = match restored {
            Some(timer) => timer,
            None => Timer::new(seat_names(settings), timer_settings)
                .or_else(|_| Timer::new(defaults, timer_settings))
                .expect("four distinct default names make a valid table"),
        };
        // A restored game keeps its own mode; this is the mode of new games.
        timer.set_mode(TimerMode::from_rules(&settings.rules));
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

    /// Notices shown at the bottom of the window, in the current language.
    pub fn notices(&self) -> Vec<String> {
        self.notices.lines(self.settings.language)
    }

    /// The open score sheet.
    pub fn sheet(&self) -> Option<&Sheet> {
        self.session.sheet()
    }

    /// The change an undo would take back, if any.
    pub fn next_undo(&self) -> Option<&Change> {
        self.history.next_undo(self.undo_area())
    }

    /// How many changes can be undone.
    pub fn undo_depth(&self) -> usize {
        self.history.depth()
    }

    /// The change a redo would do again, if any.
    pub fn next_redo(&self) -> Option<&Change> {
        self.history.next_redo(self.undo_area())
    }

    /// The evening as it would be saved now.
    pub fn evening(&self) -> Evening {
        Evening {
            timer: Some(self.timer.read(|t, now| t.saved(now))),
            sheet: self.session.id().map(|id| id.as_str().to_owned()),
            draft: self.sheet_view.draft().filter(|d| !d.is_blank()).cloned(),
        }
    }

    /// Saves the evening, or with `force` false only if something other than the running
    /// turn's time changed since the last save (a draft being typed, say): the clock moves on
    /// by itself and is saved on every action and every few seconds.
    fn save_evening(&mut self, force: bool) {
        let evening = self.evening();
        let without_clock = |e: &Evening| {
            let mut e = e.clone();
            if let Some(t) = &mut e.timer {
                t.turn_ms = t.turn_ms.map(|_| 0);
            }
            e
        };
        if !force
            && self
                .saved_evening
                .as_ref()
                .is_some_and(|saved| without_clock(saved) == without_clock(&evening))
        {
            return;
        }
        let Some(store) = &self.store else { return };
        match store.save_evening(&evening) {
            Ok(notices) => {
                self.notices.extend_store(notices);
                self.saved_evening = Some(evening);
            }
            Err(e) => self.notices.push(AppNotice::SaveFailed(Worded::new(|lang| {
                i18n::store_error(lang, &e)
            }))),
        }
    }

    /// Keeps the screen awake while a turn runs; lets it sleep when paused or idle. If the
    /// platform refuses, the table is told once.
    fn update_keep_awake(&mut self) {
        let running = self.timer.read(|t, _| t.phase() == Phase::Running);
        if !running {
            self.awake = None;
            return;
        }
        if self.awake.is_some() || self.awake_failed {
            return;
        }
        let Some(keep_awake) = self.keep_awake else {
            return;
        };
        match keep_awake() {
            Ok(handle) => self.awake = Some(handle),
            Err(why) => {
                self.awake_failed = true;
                self.notices.push(AppNotice::NoKeepAwake(why));
            }
        }
    }

    /// While nothing can be saved: the standing line to show, and its technical detail.
    pub fn not_saving(&self) -> Option<(String, String)> {
        let s = self.settings.language.strings();
        match &self.store {
            None => Some((s.not_saving.to_owned(), String::new())),
            Some(store) => match store.access() {
                Access::Writable => None,
                Access::ReadOnly(reason) => {
                    let line = match reason {
                        ReadOnlyReason::InUse { .. } => s.read_only_in_use,
                        _ => s.read_only_folder,
                    };
                    Some((
                        line.to_owned(),
                        i18n::read_only_reason(self.settings.language, &reason),
                    ))
                }
            },
        }
    }

    /// Whether the screen is being kept awake now.
    pub fn keeping_awake(&self) -> bool {
        self.awake.is_some()
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.phone_requests(&ctx);
        self.save_picture();
        self.save_as_answered();
        for action in self.frame(ui) {
            self.apply(&ctx, action);
        }
        self.phones.publish(self.table_state());
        // A draft being typed is kept as typed.
        self.save_evening(false);
        self.update_keep_awake();
        self.schedule_repaint(&ctx);
    }

    /// Called by eframe every few seconds and on exit: the running turn's time is saved too.
    fn save(&mut self, _storage: &mut dyn eframe::Storage) {
        self.save_evening(true);
    }

    fn auto_save_interval(&self) -> Duration {
        Duration::from_secs(10)
    }
}
