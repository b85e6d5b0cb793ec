//! The app: saved settings, runtime handles, the views, and the one place actions are applied.
//!
//! Every input, whatever its source (a key, a click, later a phone), becomes an [`Action`] and
//! goes through [`App::apply`] after the frame. That single path is where the table's promises
//! are kept: one press ends one turn ([`EndTurnGuard`]), every change is recorded in the undo
//! [`History`], and the evening is saved after every change, so a restart loses nothing.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use serde::{Deserialize, Serialize};

use super::clock::ClockSnapshot;
pub use super::meld_view::MeldMode;
use super::meld_view::MeldView;
use super::notices::{AppNotice, Notices};
use super::phones::{self, Phones};
use super::settings_view::{SettingsRequest, SettingsView};
pub use super::sheet_view::SheetRequest;
use super::sheet_view::{SheetContext, SheetView};
use super::table_view::TableCommand;
pub use super::timer_view::TimerCommand;
use super::timer_view::{TableInput, TimerView};
pub use super::undo::Change;
use super::undo::{History, OpenSheet, Snapshot};
use crate::evening::Evening;
use crate::history::History as Record;
use crate::i18n::{self, Language};
use crate::rules::RuleSet;
use crate::runtime::{Clock, SystemClock, TimerRuntime};
use crate::score::export::{ExportLabels, sheet_csv};
use crate::score::{GameNumber, Players, ScoreError, Sheet, SheetSummary};
use crate::server::{PhoneAction, Refusal, TableState};
use crate::sound::{Cue, SoundError, Sounder};
use crate::store::{Access, ReadOnlyReason, SheetId, Store};
use crate::timer::{EndTurnGuard, Phase, Timer, TimerMode, TimerSettings};

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
    /// The table view shows the clock twice, one half turned for the far side of the table.
    pub face_to_face: bool,
    /// The port the phones' page is served on.
    pub phone_port: u16,
    /// Any phone may end any turn (not only the current player's).
    pub anyone_may_end: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            language: Language::default(),
            rules: RuleSet::default(),
            volume: 0.8,
            muted: false,
            players: Vec::new(),
            face_to_face: false,
            phone_port: super::phones::DEFAULT_PORT,
            anyone_may_end: false,
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
            store: Store::open_default().map_err(|e| e.to_string()),
            keep_awake: Some(keep_screen_awake),
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
    /// Leave the table view for the tab it was opened from.
    ExitTable,
    /// Switch the table view's face-to-face layout.
    ToggleFaceToFace,
    /// Switch the phones' page on or off.
    Phones(bool),
    /// Do the last undone change again.
    Redo,
}

/// Keys pressed afresh: a key-repeat, or a press of a key already held, is not a new press.
/// (`key_pressed` counts repeats: holding Space would end a turn 25 times a second.)
#[derive(Debug, Default)]
struct KeyLatch {
    down: Vec<egui::Key>,
}

impl KeyLatch {
    /// The keys pressed afresh in these events, with their modifiers.
    fn fresh(&mut self, events: &[egui::Event]) -> Vec<(egui::Key, egui::Modifiers)> {
        let mut fresh = Vec::new();
        for event in events {
            match event {
                egui::Event::Key {
                    key,
                    pressed,
                    repeat,
                    modifiers,
                    ..
                } => {
                    if *pressed {
                        if !*repeat && !self.down.contains(key) {
                            fresh.push((*key, *modifiers));
                        }
                        if !self.down.contains(key) {
                            self.down.push(*key);
                        }
                    } else {
                        self.down.retain(|k| k != key);
                    }
                }
                egui::Event::WindowFocused(false) => self.down.clear(),
                _ => {}
            }
        }
        fresh
    }
}

/// A click this soon after the window gained focus is the click that brought it to the front,
/// not a request to end a turn.
const ACTIVATION_CLICK: Duration = Duration::from_millis(350);

/// The application state: saved settings, the timer runtime, and each view's own state.
pub struct App {
    settings: Settings,
    view: View,
    store: Option<Store>,
    timer: TimerRuntime,
    notices: Notices,
    sheet: OpenSheet,
    past_sheets: Vec<(SheetId, SheetSummary)>,
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
        } = deps;
        let locale_language =
            sys_locale::get_locale().map_or(Language::English, |tag| Language::from_locale(&tag));
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
                notices.push(AppNotice::SaveFailed(e));
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
        let mut app = App {
            settings,
            view: View::default(),
            store,
            timer,
            notices,
            sheet: None,
            past_sheets: Vec::new(),
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
        app.open_saved_sheet(evening.sheet.as_deref());
        if let (Some(draft), Some((_, sheet))) = (evening.draft, &app.sheet)
            && draft.left.len() == sheet.players().len()
        {
            app.sheet_view.restore_draft(draft);
        }
        app
    }

    /// Lists the saved sheets and opens the one the evening had open (else the most recently
    /// played one).
    fn open_saved_sheet(&mut self, wanted: Option<&str>) {
        let Some(store) = &self.store else { return };
        match store.list_sheets() {
            Ok(listing) => {
                self.notices.extend_store(listing.notices.clone());
                self.past_sheets = listing
                    .played()
                    .map(|saved| (saved.id.clone(), saved.sheet.summary()))
                    .collect();
                // The evening's sheet, else the latest one played (never an empty one).
                let latest = listing.latest_played().map(|saved| saved.id.clone());
                let mut sheets = listing.sheets;
                let Some(index) = wanted
                    .and_then(|w| sheets.iter().position(|s| s.id.as_str() == w))
                    .or_else(|| sheets.iter().position(|s| Some(&s.id) == latest.as_ref()))
                else {
                    return;
                };
                if index < sheets.len() {
                    let saved = sheets.swap_remove(index);
                    self.sheet = Some((saved.id, saved.sheet));
                }
            }
            Err(e) => self.notices.push(AppNotice::SaveFailed(e.to_string())),
        }
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
        self.sheet.as_ref().map(|(_, sheet)| sheet)
    }

    /// The change an undo would take back, if any.
    pub fn next_undo(&self) -> Option<&Change> {
        self.history.next_undo()
    }

    /// How many changes can be undone.
    pub fn undo_depth(&self) -> usize {
        self.history.depth()
    }

    /// The change a redo would do again, if any.
    pub fn next_redo(&self) -> Option<&Change> {
        self.history.next_redo()
    }

    /// The evening as it would be saved now.
    pub fn evening(&self) -> Evening {
        Evening {
            timer: Some(self.timer.read(|t, now| t.saved(now))),
            sheet: self.sheet.as_ref().map(|(id, _)| id.as_str().to_owned()),
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
            Err(e) => self.notices.push(AppNotice::SaveFailed(e.to_string())),
        }
    }

    /// Applies one action.
    pub fn apply(&mut self, ctx: &egui::Context, action: Action) {
        self.ctx = ctx.clone();
        match action {
            Action::Show(View::Table) if self.view != View::Table => {
                self.before_table = self.view;
                self.view = View::Table;
                self.set_fullscreen(ctx, true);
            }
            Action::Show(view) => {
                if self.view == View::Table && view != View::Table {
                    self.set_fullscreen(ctx, false);
                }
                self.view = view;
            }
            Action::ExitTable => {
                let back = self.before_table;
                self.apply(ctx, Action::Show(back));
            }
            Action::Phones(on) => {
                if on {
                    let bind = phones::table_bind(self.settings.phone_port);
                    self.start_phones(ctx, bind);
                } else {
                    self.phones.stop();
                }
            }
            Action::ToggleFaceToFace => {
                let settings = Settings {
                    face_to_face: !self.settings.face_to_face,
                    ..self.settings.clone()
                };
                self.save_settings(settings);
            }
            Action::Settings(settings) => self.set_settings(settings),
            Action::TestSound if self.no_audio => self.notices.push(AppNotice::NothingToPlay),
            Action::TestSound => {
                let sounder = self.timer.sounder();
                for cue in Cue::ALL {
                    sounder.play(cue);
                }
            }
            Action::ToggleFullscreen => self.set_fullscreen(ctx, !self.fullscreen),
            Action::Timer(command) => self.timer_command(command),
            Action::Dismiss(i) => self.notices.dismiss(i),
            Action::Sheet(request) => self.sheet_request(request),
            Action::Meld(mode, text) => {
                self.view = View::Meld;
                self.meld.mode = mode;
                match mode {
                    MeldMode::Check => self.meld.meld_text = text,
                    MeldMode::Solve => self.meld.rack_text = text,
                }
            }
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
        }
        self.save_evening(true);
    }

    fn set_fullscreen(&mut self, ctx: &egui::Context, on: bool) {
        self.fullscreen = on;
        ctx.send_viewport_cmd(egui::ViewportCommand::Fullscreen(on));
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
                    Some((line.to_owned(), reason.to_string()))
                }
            },
        }
    }

    /// Whether the screen is being kept awake now.
    pub fn keeping_awake(&self) -> bool {
        self.awake.is_some()
    }

    // ---- the phones ----

    /// Starts the phones' server on `bind` (tests use `127.0.0.1:0`).
    pub fn start_phones(&mut self, ctx: &egui::Context, bind: std::net::SocketAddr) {
        let ctx = ctx.clone();
        let state = self.table_state();
        self.phones
            .start(bind, state, move || ctx.request_repaint());
    }

    /// The phones' server and its link.
    pub fn phones(&self) -> &Phones {
        &self.phones
    }

    /// What the phones see: the clock, the names, and the open sheet's form by timer seat.
    fn table_state(&self) -> TableState {
        let entry = self.sheet.as_ref().map(|(_, sheet)| {
            let names = sheet.players().names();
            let draft = self.sheet_view.draft();
            self.settings
                .players
                .iter()
                .map(|name| {
                    let seat = names.iter().position(|n| same_name(n, name));
                    seat.and_then(|i| draft.and_then(|d| d.left.get(i)).cloned())
                        .unwrap_or_default()
                })
                .collect()
        });
        self.timer.read(|t, now| {
            TableState::from_timer(
                t,
                now,
                self.phones.evening(),
                self.settings.anyone_may_end,
                entry,
            )
        })
    }

    /// Carries out the phones' requests through the same actions as the window's.
    fn phone_requests(&mut self, ctx: &egui::Context) {
        for request in self.phones.take_requests() {
            let result = self.phone_action(ctx, &request.action);
            request.reply(result);
        }
    }

    fn phone_action(&mut self, ctx: &egui::Context, action: &PhoneAction) -> Result<(), Refusal> {
        let (current, turn, phase, players) = self.timer.read(|t, _| {
            (
                t.current_player(),
                t.turn_id(),
                t.phase(),
                t.players().to_vec(),
            )
        });
        match action {
            PhoneAction::EndTurn { seat, turn: asked } => {
                if turn != Some(*asked) {
                    return Err(Refusal::StaleTurn);
                }
                if *seat != current && !self.settings.anyone_may_end {
                    return Err(Refusal::NotYourTurn);
                }
                self.apply(ctx, Action::Timer(TimerCommand::Primary));
                // The guard may have taken it for a second press of the same gesture.
                match self.timer.read(|t, _| t.turn_id()) {
                    now if now == Some(*asked) => Err(Refusal::StaleTurn),
                    _ => Ok(()),
                }
            }
            PhoneAction::TogglePause { .. } if phase == Phase::Idle => Err(Refusal::NotStarted),
            PhoneAction::TogglePause { .. } => {
                self.apply(ctx, Action::Timer(TimerCommand::TogglePause));
                Ok(())
            }
            PhoneAction::EnterRack { seat, text } => {
                let Some((_, sheet)) = &self.sheet else {
                    return Err(Refusal::NoSheet);
                };
                let name = players.get(*seat).ok_or(Refusal::NoSuchSeat(*seat))?;
                let names = sheet.players().names();
                let Some(index) = names.iter().position(|n| same_name(n, name)) else {
                    let s = self.settings.language.strings();
                    return Err(phones::rejected((s.not_on_sheet)(name)));
                };
                self.sheet_view.fill_field(index, text, names.len());
                Ok(())
            }
        }
    }

    // ---- the undo history ----

    /// The current state of the parts `like` has (the parts a change touched).
    fn snapshot_like(&self, like: &Snapshot) -> Snapshot {
        Snapshot {
            timer: like
                .timer
                .as_ref()
                .map(|_| self.timer.read(|t, now| (t.clone(), now))),
            sheet: like.sheet.as_ref().map(|_| self.sheet.clone()),
            table: like
                .table
                .as_ref()
                .map(|_| (self.settings.players.clone(), self.settings.rules)),
        }
    }

    fn timer_snapshot(&self) -> Snapshot {
        Snapshot {
            timer: Some(self.timer.read(|t, now| (t.clone(), now))),
            ..Snapshot::default()
        }
    }

    fn sheet_snapshot(&self) -> Snapshot {
        Snapshot {
            sheet: Some(self.sheet.clone()),
            ..Snapshot::default()
        }
    }

    /// Puts the parts of a snapshot back, saving what is saved.
    fn restore(&mut self, snapshot: Snapshot) {
        if let Some((timer, taken_at)) = snapshot.timer {
            self.timer
                .command(|t, now| *t = timer.rebased(taken_at, now));
        }
        if let Some((players, rules)) = snapshot.table {
            let settings = Settings {
                players,
                rules,
                ..self.settings.clone()
            };
            self.timer
                .set_settings(TimerSettings::from_rules(&settings.rules));
            self.timer.set_mode(TimerMode::from_rules(&settings.rules));
            self.save_settings(settings);
        }
        if let Some(sheet) = snapshot.sheet {
            let reopened = sheet.as_ref().map(|(id, _)| id.clone())
                != self.sheet.as_ref().map(|(id, _)| id.clone());
            self.sheet = sheet;
            if reopened {
                self.sheet_view.close_form();
            }
            if let Err(e) = self.save_sheet() {
                self.sheet_view.error = Some(e);
            }
        }
    }

    fn undo(&mut self) {
        if let Some(entry) = self.history.take_undo() {
            let after = self.snapshot_like(&entry.state);
            self.restore(entry.state);
            self.history.undone(entry.change, after);
        }
    }

    fn redo(&mut self) {
        if let Some(entry) = self.history.take_redo() {
            let before = self.snapshot_like(&entry.state);
            self.restore(entry.state);
            self.history.redone(entry.change, before);
        }
    }

    // ---- the score sheet ----

    fn sheet_request(&mut self, request: SheetRequest) {
        self.sheet_view.error = None;
        let before = self.sheet_snapshot();
        let result = match request {
            SheetRequest::New { rounds, target } => self.new_sheet(rounds, target).map(|()| {
                // A new evening: the phones' old links stop working.
                let state = self.table_state();
                let ctx = self.ctx.clone();
                self.phones
                    .new_evening(state, move || ctx.request_repaint());
                Some(Change::NewSheet)
            }),
            SheetRequest::Open(id) => self.open_sheet(&id).map(|()| Some(Change::SheetOpened)),
            SheetRequest::SaveGame(index, game) => {
                let result = self.change_sheet(|sheet| match index {
                    Some(i) => {
                        sheet.edit_game(i, game)?;
                        let n = sheet.number(i);
                        Ok(Change::GameEdited(n.round, n.in_round))
                    }
                    None => {
                        let i = sheet.add_game(game)?;
                        let n = sheet.number(i);
                        Ok(Change::GameAdded(n.round, n.in_round))
                    }
                });
                if let Ok(Some(_)) = result {
                    self.sheet_view.close_form();
                }
                result
            }
            // The game clicked, not whatever moved into its row since: the second click of a
            // double-click on "Delete" must not take the next game with it.
            SheetRequest::Delete(i, game)
                if self.sheet().and_then(|s| s.games().get(i)) != Some(&game) =>
            {
                Ok(None)
            }
            SheetRequest::Delete(..) if !self.delete_guard.allow(self.timer.now()) => Ok(None),
            SheetRequest::Delete(i, _) => self.change_sheet(|sheet| {
                let n = sheet.number(i);
                sheet.delete_game(i)?;
                Ok(Change::GameDeleted(n.round, n.in_round))
            }),
            SheetRequest::Export => self.export_sheet().map(|()| None),
            SheetRequest::ApplyRules => {
                let rules = self.settings.rules;
                self.change_sheet(|sheet| {
                    let wanted = super::sheet_view::with_scoring(sheet.rules(), &rules);
                    sheet.set_rules(wanted).map(|()| Change::RulesApplied)
                })
            }
            SheetRequest::ExportPicture => self.export_picture().map(|()| None),
            SheetRequest::History(show) => {
                self.history_data = show.then(|| self.read_history());
                Ok(None)
            }
        };
        match result {
            Ok(Some(change)) => self.history.record(change, before),
            Ok(None) => {}
            Err(e) => self.sheet_view.error = Some(e),
        }
    }

    fn new_sheet(&mut self, rounds: Option<u32>, target: Option<i64>) -> Result<(), String> {
        let lang = self.settings.language;
        let created = Utc::now();
        let players =
            Players::new(self.settings.players.clone()).map_err(|e| i18n::score_error(lang, &e))?;
        let mut sheet = Sheet::new(players, self.settings.rules, rounds, created)
            .map_err(|e| i18n::score_error(lang, &e))?;
        sheet
            .set_target(target)
            .map_err(|e| i18n::score_error(lang, &e))?;
        let id = match &self.store {
            Some(store) => store.new_sheet_id(created),
            None => SheetId::new(&created.format("%Y%m%d-%H%M%S").to_string())
                .map_err(|e| e.to_string())?,
        };

        self.sheet = Some((id, sheet));
        self.sheet_view.close_form();
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
        self.notices.extend_store(loaded.notices);
        self.sheet = Some((id.clone(), loaded.value));
        self.sheet_view.close_form();
        Ok(())
    }

    /// Changes the open sheet and saves it at once; a refused change leaves it as it was.
    /// `Ok(None)` when no sheet is open.
    fn change_sheet<T>(
        &mut self,
        change: impl FnOnce(&mut Sheet) -> Result<T, ScoreError>,
    ) -> Result<Option<T>, String> {
        let lang = self.settings.language;
        let Some((_, sheet)) = &mut self.sheet else {
            return Ok(None);
        };
        let mut changed = sheet.clone();
        let done = change(&mut changed).map_err(|e| i18n::score_error(lang, &e))?;
        *sheet = changed;
        self.save_sheet()?;
        Ok(Some(done))
    }

    fn save_sheet(&mut self) -> Result<(), String> {
        let lang = self.settings.language;
        let (Some(store), Some((id, sheet))) = (&self.store, &self.sheet) else {
            return Ok(());
        };
        let notices = store
            .save_sheet(id, sheet)
            .map_err(|e| (lang.strings().save_failed)(&e.to_string()))?;
        self.notices.extend_store(notices);
        // The "Open" list: played sheets only, the latest first.
        self.past_sheets.retain(|(past, _)| past != id);
        if !sheet.is_empty() {
            self.past_sheets.insert(0, (id.clone(), sheet.summary()));
        }
        Ok(())
    }

    /// A new file in the exports folder for this sheet: never an existing one.
    fn export_path(&self, extension: &str) -> Result<std::path::PathBuf, String> {
        let s = self.settings.language.strings();
        let (Some(store), Some((id, _))) = (&self.store, &self.sheet) else {
            return Err(s.not_saving.to_owned());
        };
        let folder = store.dir().join("exports");
        std::fs::create_dir_all(&folder).map_err(|e| (s.save_failed)(&e.to_string()))?;
        let path = (1..)
            .map(|n| match n {
                1 => folder.join(format!("{id}.{extension}")),
                n => folder.join(format!("{id}-{n}.{extension}")),
            })
            .find(|p| !p.exists())
            .unwrap_or_else(|| folder.join(format!("{id}.{extension}")));
        Ok(path)
    }

    /// Writes the sheet as CSV for people and spreadsheets: a BOM (Excel reads the names),
    /// headers and rows as on screen, the rules, totals and winner; never over another file.
    fn export_sheet(&mut self) -> Result<(), String> {
        let lang = self.settings.language;
        let s = lang.strings();
        let path = self.export_path("csv")?;
        let Some((_, sheet)) = &self.sheet else {
            return Ok(());
        };
        let labels = ExportLabels {
            game: s.csv_game,
            points: s.csv_points,
            total: s.totals,
            wins: s.wins,
            rank: s.rank,
            winner: s.csv_winner,
            leader: s.leader,
            other_winner: s.csv_other_winner,
            other_leader: s.csv_other_leader,
            rules: s.csv_rules,
            remaining: s.csv_remaining,
        };
        let rules = super::sheet_view::rules_line(lang, sheet.rules());
        let row_label = |n: GameNumber| (s.game_label)(n.round, n.in_round);
        let text = sheet_csv(sheet, &labels, &rules, &row_label);
        std::fs::write(&path, text).map_err(|e| (s.save_failed)(&e.to_string()))?;
        self.notices
            .push(AppNotice::Exported(path.display().to_string()));
        Ok(())
    }

    /// Asks for a screenshot of the window (the sheet and its chart); saved when it arrives.
    fn export_picture(&mut self) -> Result<(), String> {
        self.picture_to = Some(self.export_path("png")?);
        let slot = Arc::clone(&self.picture);
        self.ctx.request_screenshot(move |image| {
            if let Ok(mut slot) = slot.lock() {
                *slot = Some(image);
            }
        });
        Ok(())
    }

    /// Saves a screenshot that arrived for an exported picture.
    fn save_picture(&mut self) {
        let image = self.picture.lock().ok().and_then(|mut slot| slot.take());
        let (Some(image), Some(path)) = (image, self.picture_to.take()) else {
            return;
        };
        match super::save_png(&path, &image) {
            Ok(()) => self
                .notices
                .push(AppNotice::Exported(path.display().to_string())),
            Err(e) => self.notices.push(AppNotice::SaveFailed(e.to_string())),
        }
    }

    /// Every saved sheet's history (unreadable sheets skipped and named).
    fn read_history(&self) -> (Record, Vec<String>) {
        let Some(store) = &self.store else {
            return (crate::history::history([], None), Vec::new());
        };
        match crate::store::read_sheets(store.dir()) {
            Ok(scan) => {
                let skipped = scan
                    .skipped
                    .iter()
                    .map(|s| s.file.display().to_string())
                    .collect();
                let history = crate::history::history(scan.sheets.iter().map(|s| &s.sheet), None);
                (history, skipped)
            }
            Err(e) => (crate::history::history([], None), vec![e.to_string()]),
        }
    }

    // ---- settings ----

    /// Replaces the settings: a change of the rules is recorded for undo.
    fn set_settings(&mut self, settings: Settings) {
        if settings.rules != self.settings.rules {
            let before = Snapshot {
                table: Some((self.settings.players.clone(), self.settings.rules)),
                ..Snapshot::default()
            };
            self.history.record(Change::RulesChanged, before);
            self.timer
                .set_settings(TimerSettings::from_rules(&settings.rules));
            self.timer.set_mode(TimerMode::from_rules(&settings.rules));
        }
        self.save_settings(settings);
    }

    /// Saves and applies the settings (no undo record).
    fn save_settings(&mut self, settings: Settings) {
        if let Some(store) = &self.store {
            match store.save_settings(&settings) {
                Ok(notices) => self.notices.extend_store(notices),
                Err(e) => self
                    .notices
                    .push(AppNotice::SettingsNotSaved(e.to_string())),
            }
        }
        let sounder = self.timer.sounder();
        sounder.set_volume(settings.volume);
        sounder.set_muted(settings.muted);
        self.settings = settings;
    }

    // ---- the timer ----

    fn timer_command(&mut self, command: TimerCommand) {
        let lang = self.settings.language;
        let before = self.timer_snapshot();
        let players = self.timer.read(|t, _| t.players().to_vec());
        // Commands that do not apply in the current state are simply not offered by the view;
        // a race (a key pressed twice in one frame) is harmless, so those are not recorded.
        let change = match command {
            TimerCommand::Primary => {
                let now = self.timer.now();
                if !self.guard.allow(now) {
                    return;
                }
                self.timer.command(|t, now| match t.phase() {
                    Phase::Idle => t.start(now).ok().map(|()| Change::Started),
                    _ => t.end_turn(now).ok().map(|end| {
                        Change::TurnEnded(players.get(end.player).cloned().unwrap_or_default())
                    }),
                })
            }
            TimerCommand::TogglePause => self.timer.command(|t, now| match t.phase() {
                Phase::Running => t.pause(now).ok().map(|()| Change::Paused),
                Phase::Paused => t.resume(now).ok().map(|()| Change::Resumed),
                Phase::Idle => None,
            }),
            TimerCommand::Reset => {
                self.timer.reset();
                Some(Change::TimerReset)
            }
            TimerCommand::Undo => {
                self.undo();
                None
            }
            TimerCommand::Rename(seat, name) => {
                match self
                    .timer
                    .command(|t, _| t.rename_player(seat, name.trim()))
                {
                    Ok(()) => Some(Change::PlayersChanged),
                    Err(e) => {
                        self.timer_view.players_error = Some(i18n::timer_error(lang, &e));
                        None
                    }
                }
            }
            TimerCommand::SetPlayers(names) => {
                match self.timer.command(|t, _| t.set_players(names.clone())) {
                    Ok(()) => Some(Change::PlayersChanged),
                    Err(e) => {
                        self.timer_view.players_error = Some(i18n::timer_error(lang, &e));
                        None
                    }
                }
            }
        };
        let Some(change) = change else { return };
        let mut before = before;
        if change == Change::PlayersChanged {
            self.timer_view.players_error = None;
            before.table = Some((self.settings.players.clone(), self.settings.rules));
            let settings = Settings {
                players: self.timer.read(|t, _| t.players().to_vec()),
                ..self.settings.clone()
            };
            self.save_settings(settings);
        }
        self.history.record(change, before);
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

    /// The keys and the focus of this frame, as the table's views need them.
    fn table_input(&mut self, ui: &egui::Ui) -> TableInput {
        let events = ui.input(|i| i.events.clone());
        let now = self.timer.now();
        if events
            .iter()
            .any(|e| matches!(e, egui::Event::WindowFocused(true)))
        {
            self.focused_at = Some(now);
        }
        let typing = ui.ctx().egui_wants_keyboard_input();
        let fresh = self.keys.fresh(&events);
        TableInput {
            keys: if typing { Vec::new() } else { fresh },
            activation_click: self
                .focused_at
                .is_some_and(|at| now.saturating_sub(at) < ACTIVATION_CLICK),
        }
    }

    /// The undo offer: what the last change was, with Undo and Redo, always in the same place.
    fn undo_bar(&self, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
        let lang = self.settings.language;
        let s = lang.strings();
        ui.horizontal(|ui| {
            ui.set_min_height(28.0);
            let undo = ui
                .add_enabled(
                    self.history.next_undo().is_some(),
                    egui::Button::new(s.undo).min_size(egui::vec2(96.0, 26.0)),
                )
                .on_hover_text("Ctrl+Z");
            if undo.clicked() {
                actions.push(Action::Undo);
            }
            let redo = ui
                .add_enabled(
                    self.history.next_redo().is_some(),
                    egui::Button::new(s.redo).min_size(egui::vec2(96.0, 26.0)),
                )
                .on_hover_text("Ctrl+Shift+Z");
            if redo.clicked() {
                actions.push(Action::Redo);
            }
            if let Some(change) = self.history.next_undo() {
                ui.label(egui::RichText::new(i18n::change_done(lang, change)).weak());
            }
        });
    }

    /// The clock on every tab but the timer's: whose turn, the time, the state (the time-up
    /// flash too), an end-turn button and the way to the table view.
    fn clock_strip(&self, ui: &mut egui::Ui, input: &TableInput, actions: &mut Vec<Action>) {
        let lang = self.settings.language;
        let s = lang.strings();
        let snap = self.timer.read(ClockSnapshot::read);
        let strong = ui.visuals().strong_text_color();
        let (color, background) = snap.colors(strong);
        let mut frame = egui::Frame::side_top_panel(ui.style());
        if let Some(bg) = background {
            frame = frame.fill(bg);
        }
        egui::Panel::top("clock-strip").frame(frame).show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.set_min_height(48.0);
                let text = |t: String, size: f32| egui::RichText::new(t).size(size).color(color);
                ui.label(text(format!("{} · {}", s.now_playing, snap.current), 26.0).strong());
                let clock = ui.add(
                    egui::Label::new(text(snap.digits(), 30.0).strong().monospace())
                        .sense(egui::Sense::click()),
                );
                let name = snap.accessible_name(lang);
                clock.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
                if clock.clicked() && !input.activation_click {
                    actions.push(Action::Timer(TimerCommand::Primary));
                }
                if snap.timed_out {
                    let (rect, _) =
                        ui.allocate_exact_size(egui::vec2(30.0, 30.0), egui::Sense::hover());
                    super::clock::warning_sign(ui.painter(), rect.center(), 26.0, color, false);
                }
                ui.label(text(snap.state_text(lang).to_owned(), 20.0));
                ui.label(text(format!("{}: {}", s.next_player, snap.next), 18.0));
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    let size = egui::vec2(140.0, 44.0);
                    if ui
                        .add(egui::Button::new(s.table_view).min_size(size))
                        .on_hover_text("F5")
                        .clicked()
                    {
                        actions.push(Action::Show(View::Table));
                    }
                    let primary = if snap.phase == Phase::Idle {
                        s.start
                    } else {
                        s.end_turn
                    };
                    let end = ui.add(egui::Button::new(primary).min_size(size));
                    if end.clicked() && !input.activation_click {
                        actions.push(Action::Timer(TimerCommand::Primary));
                    }
                });
            });
        });
    }

    /// Draws one frame and returns what the views asked for.
    pub fn frame(&mut self, ui: &mut egui::Ui) -> Vec<Action> {
        let mut actions = Vec::new();
        let lang = self.settings.language;
        let s = lang.strings();
        self.timer.pump();
        let input = self.table_input(ui);
        for (key, modifiers) in &input.keys {
            let plain = !modifiers.command && !modifiers.ctrl && !modifiers.alt;
            match key {
                // The clock's keys work on every tab (not while typing: `keys` is empty then).
                egui::Key::Space | egui::Key::Enter if plain => {
                    actions.push(Action::Timer(TimerCommand::Primary));
                }
                egui::Key::P if plain => actions.push(Action::Timer(TimerCommand::TogglePause)),
                egui::Key::F5 if self.view == View::Table => actions.push(Action::ExitTable),
                egui::Key::F5 => actions.push(Action::Show(View::Table)),
                egui::Key::F11 => actions.push(Action::ToggleFullscreen),
                egui::Key::Z if modifiers.command && modifiers.shift => actions.push(Action::Redo),
                egui::Key::Z if modifiers.command => actions.push(Action::Undo),
                egui::Key::Y if modifiers.command => actions.push(Action::Redo),
                _ => {}
            }
        }
        if self.view == View::Table {
            let snap = self.timer.read(ClockSnapshot::read);
            let face_to_face = self.settings.face_to_face;
            egui::CentralPanel::default().show(ui, |ui| {
                for command in super::table_view::ui(ui, lang, &snap, &input, face_to_face) {
                    actions.push(match command {
                        TableCommand::Timer(c) => Action::Timer(c),
                        TableCommand::ToggleFaceToFace => Action::ToggleFaceToFace,
                        TableCommand::Exit => Action::ExitTable,
                    });
                }
            });
            return actions;
        }
        egui::Panel::top("tabs").show(ui, |ui| {
            ui.horizontal(|ui| {
                for (view, label, key) in [
                    (View::Timer, s.tab_timer, egui::Key::F1),
                    (View::Meld, s.tab_meld, egui::Key::F2),
                    (View::Sheet, s.tab_sheet, egui::Key::F3),
                    (View::Settings, s.tab_settings, egui::Key::F4),
                    (View::Table, s.table_view, egui::Key::F5),
                ] {
                    let text = egui::RichText::new(label).size(18.0);
                    let tab = ui
                        .selectable_label(self.view == view, text)
                        .on_hover_text(key.name());
                    if tab.clicked() || (view != View::Table && ui.input(|i| i.key_pressed(key))) {
                        actions.push(Action::Show(view));
                    }
                }
            });
        });
        if self.view != View::Timer {
            self.clock_strip(ui, &input, &mut actions);
        }
        if let Some(i) = self.notices.ui(ui, lang, self.not_saving()) {
            actions.push(Action::Dismiss(i));
        }
        egui::CentralPanel::default().show(ui, |ui| {
            if self.view != View::Meld {
                self.undo_bar(ui, &mut actions);
            }
            egui::ScrollArea::vertical().show(ui, |ui| match self.view {
                View::Timer => {
                    let commands = self.timer_view.ui(ui, lang, &self.timer, &input);
                    for command in commands {
                        actions.push(match command {
                            TimerCommand::Undo => Action::Undo,
                            other => Action::Timer(other),
                        });
                    }
                }
                View::Sheet => {
                    let sheet = self.sheet.as_ref().map(|(_, sheet)| sheet);
                    let context = SheetContext {
                        settings_rules: &self.settings.rules,
                        past: &self.past_sheets,
                        open: self.sheet.as_ref().map(|(id, _)| id),
                        history: self.history_data.as_ref(),
                    };
                    let request = self.sheet_view.ui(ui, lang, sheet, &context, Utc::now());
                    actions.extend(request.map(Action::Sheet));
                }
                View::Meld => self.meld.ui(ui, lang, &self.settings.rules),
                View::Settings => {
                    match self.settings_view.ui(
                        ui,
                        &self.settings,
                        self.store_dir().as_deref(),
                        &self.phones,
                    ) {
                        Some(SettingsRequest::Change(new)) => actions.push(Action::Settings(new)),
                        Some(SettingsRequest::TestSound) => actions.push(Action::TestSound),
                        Some(SettingsRequest::Phones(on)) => actions.push(Action::Phones(on)),
                        None => {}
                    }
                }
                View::Table => {}
            });
        });
        actions
    }
}

/// Whether two seat names are the same player (trimmed, ignoring case), as the seat rule says.
fn same_name(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.phone_requests(&ctx);
        self.save_picture();
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
