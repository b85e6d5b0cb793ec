//! The window: it draws the [evening](crate::evening) and turns clicks and keys into commands
//! for it. It owns nothing of the evening — only what a window has: the tab shown, full
//! screen, the keys held, each view's own editing state, the save dialog and the score card's export.
//!
//! Every frame locks the evening once, draws every view from it (views get read access and
//! return requests), unlocks it, and then applies the requests — evening commands through
//! [`Shared::apply`], window actions here. A refusal comes back typed and is shown by the view
//! that asked, as an argument of its next frame.

mod actions;
mod event_actions;
mod layout;

use layout::KeyLatch;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::evening::{Area, Change, Command, Deps, Evening, Settings, Shared};
use crate::lang::Language;
use crate::runtime::{Clock, SystemClock};
use crate::score::Sheet;
use crate::sound::Sounder;
use crate::store::Store;
use crate::timer::Timer;

pub use super::event_view::EventRequest;
use super::event_view::EventView;
pub use super::meld_view::MeldMode;
use super::meld_view::MeldView;
use super::settings_view::SettingsView;
pub use super::sheet_view::SheetRequest;
use super::sheet_view::SheetView;
pub use super::timer_view::TimerCommand;
use super::timer_view::TimerView;

/// The tabs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
    /// A club night: seating, tables, results, standings.
    Event,
}

impl View {
    /// What undo and redo act on from this tab: the clock's and the seats' changes on the
    /// timer, the clock's on the table view, the sheet's on the sheet, the rules on the
    /// settings; nothing of the evening's on the meld and event tabs (their fields keep their
    /// own undo while typing), so an undo there never reaches another tab's change.
    pub fn undo_area(self) -> Option<Area> {
        match self {
            View::Timer => Some(Area::Timer),
            View::Table => Some(Area::Clock),
            View::Sheet => Some(Area::Sheet),
            View::Settings => Some(Area::Settings),
            View::Meld | View::Event => None,
        }
    }
}

/// What the outside world gives the window: the evening's dependencies and the system's save
/// dialog.
pub struct AppDeps {
    /// What the evening is opened with.
    pub evening: Deps,
    /// Asks where to save a file (the system's save dialog), given a suggested name; `None`
    /// when cancelled or when no dialog can be shown.
    pub save_dialog: SaveDialog,
}

/// A save dialog: a suggested file name in, the chosen path (or nothing) out. It runs on its
/// own thread.
pub type SaveDialog = Arc<dyn Fn(&str) -> Option<std::path::PathBuf> + Send + Sync>;

/// The system's save dialog (the desktop portal on Linux, or zenity; asks before replacing).
fn system_save_dialog(suggested: &str) -> Option<std::path::PathBuf> {
    let (name, extensions) = save_filter(suggested);
    rfd::FileDialog::new()
        .set_file_name(suggested)
        .add_filter(name, extensions)
        .save_file()
}

/// The save dialog's filter for a suggested file name: a picture offers PNG, a season's bundle
/// `.bundle.json`, anything else CSV (the dialog once offered CSV for every export).
fn save_filter(suggested: &str) -> (&'static str, &'static [&'static str]) {
    let lower = suggested.to_lowercase();
    if lower.ends_with(".png") {
        ("PNG", &["png"])
    } else if lower.ends_with(".json") {
        ("JSON", &["json"])
    } else {
        ("CSV", &["csv"])
    }
}

/// The real keep-awake: the screen saver and display sleep are inhibited while the handle
/// lives (D-Bus `org.freedesktop.ScreenSaver` on Linux, through `keepawake`).
fn keep_screen_awake() -> Result<Box<dyn std::any::Any + Send>, String> {
    keepawake::Builder::default()
        .display(true)
        .idle(true)
        .reason("A Rummikub turn is running")
        .app_name("Rummikub Companion")
        .app_reverse_domain("io.github.rummikub-companion")
        .create()
        .map(|handle| Box::new(handle) as Box<dyn std::any::Any + Send>)
        .map_err(|e| e.to_string())
}

impl AppDeps {
    /// The real machine: system clock, default audio output (or silence and a notice), the
    /// default data folder, a timer thread, the system's save dialog and keep-awake.
    pub fn real() -> AppDeps {
        let (sounder, sound_error) = crate::sound::open_or_silent();
        AppDeps {
            evening: Deps {
                clock: Arc::new(SystemClock::new()),
                wall: Arc::new(chrono::Utc::now),
                sounder,
                speaker: crate::speech::open_default(),
                sound_error,
                timer_thread: true,
                store: Store::open_default(),
                keep_awake: Some(keep_screen_awake),
                repaint: Arc::new(|| {}),
                addresses: crate::server::link_addresses,
            },
            save_dialog: Arc::new(system_save_dialog),
        }
    }

    /// Deterministic dependencies for tests: the given clock, sounder and data folder, no timer
    /// thread, no save dialog (as on a machine without a desktop portal: no dialog, at once).
    pub fn manual(
        clock: Arc<dyn Clock>,
        sounder: Arc<dyn Sounder>,
        data: &std::path::Path,
    ) -> AppDeps {
        AppDeps {
            evening: Deps::manual(clock, sounder, data),
            save_dialog: Arc::new(|_: &str| None),
        }
    }
}

/// Something the window asked for, applied after the frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Switch tab.
    Show(View),
    /// Leave the table view for the tab it was opened from.
    ExitTable,
    /// Toggle full screen.
    ToggleFullscreen,
    /// Play the three sounds.
    TestSound,
    /// A command for the evening.
    Evening(Command),
    /// A timer command (from the timer view, the strip or the table view).
    Timer(TimerCommand),
    /// A score sheet request.
    Sheet(SheetRequest),
    /// Replace the settings.
    Settings(Settings),
    /// Switch the phones' page on or off.
    Phones(bool),
    /// Switch the table view's face-to-face layout.
    ToggleFaceToFace,
    /// Open the add-game form on the sheet tab (Ctrl+N).
    AddGame,
    /// Take back the last change of the tab shown.
    Undo,
    /// Do the last undone change of the tab shown again.
    Redo,
    /// Show the meld view in a mode with this text (a meld to check, a rack to solve, the
    /// whole table's sets, or the table before a turn).
    Meld(MeldMode, String),
    /// Show "Whole table" with these sets and this rack.
    WholeTable {
        /// The table's sets, in notation.
        table: String,
        /// The rack, in notation.
        rack: String,
    },
    /// Show "Referee a turn" with these tables and rack (empty: not known).
    Referee {
        /// The table before the turn.
        before: String,
        /// The table after the turn.
        after: String,
        /// The rack before the turn.
        rack: String,
    },
    /// Show a folder in the system's file manager (after an export).
    OpenFolder(std::path::PathBuf),
    /// A request of the Event view, for the event desk.
    Event(EventRequest),
}

/// Where the score card's thread leaves its result: the file, and why it failed if it did.
type PictureSlot =
    Arc<std::sync::Mutex<Option<(std::path::PathBuf, Option<crate::evening::Worded>)>>>;

/// An undo or redo that found nothing to take back: where, and which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct UndoNote {
    /// The tab it was asked on.
    pub(crate) view: View,
    /// Redo (else undo).
    pub(crate) redo: bool,
    /// Backspace on the timer: the clock only.
    pub(crate) clock: bool,
}

impl UndoNote {
    fn worded(self, lang: Language) -> String {
        let words = crate::i18n::evening::nothing_to_undo(lang, self.redo, self.clock);
        let tab = match self.view {
            View::Meld => crate::i18n::evening::MELD_HAS_NO_UNDO.get(lang),
            View::Event => crate::i18n::evening::EVENT_HAS_NO_UNDO.get(lang),
            _ => "",
        };
        if tab.is_empty() {
            words
        } else {
            format!("{words} {tab}")
        }
    }
}

/// A request a view made that the evening refused, shown by that view on its next frames.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refused {
    /// The view that asked.
    pub(crate) view: View,
    /// The refusal, worded.
    pub(crate) why: String,
}

/// The window's state: the evening it draws, and what only a window has.
pub struct App {
    evening: Shared,
    view: View,
    /// The view to go back to from the table view.
    before_table: View,
    fullscreen: bool,
    /// Full screen was on before the table view took the whole screen (leaving it keeps it).
    fullscreen_before_table: bool,
    keys: KeyLatch,
    /// When (on the evening's clock) the window last gained focus.
    focused_at: Option<Duration>,
    timer_view: TimerView,
    meld: MeldView,
    sheet_view: SheetView,
    settings_view: SettingsView,
    /// The history across evenings is shown on the sheet tab.
    showing_history: bool,
    /// The last refusal, for the view that asked.
    refused: Option<Refused>,
    /// An undo or redo found nothing on the tab shown: said there until the next action.
    undo_note: Option<UndoNote>,
    /// The notices that only inform are shown whole (the table pressed "Show").
    notices_unfolded: bool,
    /// A "Save CSV as…" dialog open now.
    save_as: Option<actions::SaveAs>,
    save_dialog: SaveDialog,
    /// A score card is being drawn and written ("Export picture"), and the slot its result
    /// lands in: the file and, if it could not be written, why.
    picture_pending: bool,
    picture: PictureSlot,
    /// Keys typed after a Tab in the same frame, held for the next frame (so they reach the
    /// field the Tab moved to).
    held_input: Vec<egui::Event>,
    /// The window's context, for waking it from other threads.
    ctx: egui::Context,
    /// The club night's owner: the window draws it and sends it commands.
    club: crate::club::ClubShared,
    event_view: EventView,
    /// What the Event view's last request did.
    event_note: Option<event_actions::EventNote>,
    /// The cells the Event view's last refused result names.
    event_marked: Option<crate::ui::event_view::Marked>,
    /// Where the tables' host listens, when set (loopback in tests); else every interface on
    /// the settings' `event_port`.
    tables_bind: Option<std::net::SocketAddr>,
}

impl App {
    /// Creates the app for eframe: fonts, and the evening, which wakes the window when
    /// something happens that it did not cause (a phone's tap, an alarm).
    pub fn new(cc: &eframe::CreationContext<'_>, mut deps: AppDeps) -> App {
        super::install_fonts(&cc.egui_ctx);
        let ctx = cc.egui_ctx.clone();
        let wake = ctx.clone();
        deps.evening.repaint = Arc::new(move || wake.request_repaint());
        App::with(deps, ctx)
    }

    /// Creates the app without a window (tests install fonts on their own context).
    pub fn headless(deps: AppDeps) -> App {
        App::with(deps, egui::Context::default())
    }

    fn with(deps: AppDeps, ctx: egui::Context) -> App {
        let evening = Shared::open(deps.evening);
        let (dir, lang) = {
            let evening = evening.lock();
            (
                evening.store_dir().map(Path::to_path_buf),
                evening.language(),
            )
        };
        let wake = ctx.clone();
        let club = crate::club::ClubShared::new(crate::club::ClubOptions {
            dir: dir.ok_or_else(|| Arc::new(crate::store::StoreError::NoDataFolder)),
            kind: crate::store::HolderKind::Window,
            lang,
            wall: Arc::new(chrono::Utc::now),
            repaint: Arc::new(move || wake.request_repaint()),
        });
        // The Meld tab as the table left it.
        let mut meld = MeldView::default();
        meld.choose(evening.lock().settings().meld);
        App {
            evening,
            view: View::default(),
            before_table: View::Timer,
            fullscreen: false,
            fullscreen_before_table: false,
            keys: KeyLatch::default(),
            focused_at: None,
            timer_view: TimerView::default(),
            meld,
            sheet_view: SheetView::default(),
            settings_view: SettingsView::default(),
            showing_history: false,
            refused: None,
            undo_note: None,
            notices_unfolded: false,
            save_as: None,
            save_dialog: deps.save_dialog,
            picture_pending: false,
            picture: Arc::default(),
            held_input: Vec::new(),
            ctx,
            club,
            event_view: EventView::default(),
            event_note: None,
            event_marked: None,
            tables_bind: None,
        }
    }

    /// The evening the window draws (shared with the phone server).
    pub fn shared(&self) -> &Shared {
        &self.evening
    }

    /// The evening, locked (hold it briefly).
    pub fn evening(&self) -> std::sync::MutexGuard<'_, Evening> {
        self.evening.lock()
    }

    /// The current settings.
    pub fn settings(&self) -> Settings {
        self.evening().settings().clone()
    }

    /// The whole-table mode's texts: the table's sets and the rack (tests read them).
    pub fn meld_texts(&self) -> (&str, &str) {
        (&self.meld.whole.table_text, &self.meld.whole.rack_text)
    }

    /// Reads the timer now, e.g. `app.read_timer(|t, now| t.remaining(now))`.
    pub fn read_timer<R>(&self, f: impl FnOnce(&Timer, Duration) -> R) -> R {
        self.evening().timer().read(f)
    }

    /// Notices shown at the bottom of the window, in the current language.
    pub fn notices(&self) -> Vec<String> {
        let evening = self.evening();
        evening.notices().lines(evening.language())
    }

    /// The open score sheet.
    pub fn sheet(&self) -> Option<Sheet> {
        self.evening().sheet().cloned()
    }

    /// The tab shown.
    pub fn view(&self) -> View {
        self.view
    }

    /// The change an undo would take back from the tab shown.
    pub fn next_undo(&self) -> Option<Change> {
        let area = self.view.undo_area()?;
        self.evening().next_undo(Some(area)).cloned()
    }

    /// The change a redo would do again from the tab shown.
    pub fn next_redo(&self) -> Option<Change> {
        let area = self.view.undo_area()?;
        self.evening().next_redo(Some(area)).cloned()
    }

    /// What the window says after an undo or redo found nothing to take back on the tab
    /// shown, worded (until the next action).
    pub fn undo_note(&self) -> Option<String> {
        self.undo_note_in(self.language())
    }

    /// [`App::undo_note`] in `lang` (while drawing: the evening is locked then).
    fn undo_note_in(&self, lang: Language) -> Option<String> {
        self.undo_note
            .filter(|n| n.view == self.view)
            .map(|n| n.worded(lang))
    }

    /// How many changes can be undone.
    pub fn undo_depth(&self) -> usize {
        self.evening().undo_depth()
    }

    /// The phones' link while the server runs.
    pub fn phone_url(&self) -> Option<String> {
        self.evening().phones().url().map(str::to_owned)
    }

    /// Whether the screen is being kept awake now.
    pub fn keeping_awake(&self) -> bool {
        self.evening().keeping_awake()
    }

    /// The last refusal shown, worded.
    pub fn refused(&self) -> Option<&str> {
        self.refused.as_ref().map(|r| r.why.as_str())
    }

    /// The table's language.
    pub fn language(&self) -> Language {
        self.evening().language()
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.ctx = ctx.clone();
        self.save_picture();
        self.save_as_answered();
        let shared = self.evening.clone();
        let actions = {
            let evening = shared.lock();
            self.frame(ui, &evening)
        };
        for action in actions {
            self.apply(&ctx, action);
        }
        self.schedule_repaint(&ctx);
    }

    /// Keys typed after a Tab within one frame wait for the next frame, so each key reaches
    /// the field that has the cursor when it is handled (fast typing, `0⇥12⇥22`); a Space or
    /// Enter with a button focused lets that focus go first (it is the table's key); full-width
    /// text is folded to ASCII.
    fn raw_input_hook(&mut self, ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        layout::fold_full_width_input(raw_input);
        layout::hold_after_tab(&mut self.held_input, ctx, raw_input);
        layout::release_focus_for_table_keys(ctx, raw_input);
    }

    /// Called by eframe every few seconds and on exit: the running turn's time is saved too.
    fn save(&mut self, _storage: &mut dyn eframe::Storage) {
        let _ = self.evening.apply(Command::Checkpoint);
    }

    /// Closing: what waits to be saved is written (by the saver's thread) before the window
    /// goes.
    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        let _ = self.evening.lock().flush(Duration::from_secs(3));
        let _ = self.club.flush(Duration::from_secs(3));
    }

    fn auto_save_interval(&self) -> Duration {
        Duration::from_secs(10)
    }
}

#[cfg(test)]
mod tests {
    use super::save_filter;

    /// Regression: the save dialog offered only "CSV" for the score card's picture and the
    /// season's bundle too, so choosing the filter renamed a picture `.csv`.
    #[test]
    fn the_save_dialog_filter_follows_the_suggested_file() {
        assert_eq!(save_filter("evening-2026-12-07.png").1, &["png"]);
        assert_eq!(save_filter("thursday.bundle.json").1, &["json"]);
        assert_eq!(save_filter("standings.CSV").1, &["csv"]);
        assert_eq!(save_filter("sheet").0, "CSV");
    }
}
