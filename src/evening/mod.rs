//! The evening: everything a table keeps while it plays — the settings, the clock, the open
//! sheet and the half-typed game of each sheet, the undo history, the guard against double
//! presses, the notices, what the phones see — with one way to change it,
//! [`Evening::apply`].
//!
//! Why one owner outside the window: a table is driven from several places at once. The
//! window's keys and clicks, each player's phone and the clock's own alarms all act on the same
//! evening, and the promises a table relies on (one press ends one turn, every change can be
//! undone, nothing typed is lost, a phone never acts on a saved game) must hold whoever acts.
//! So they are kept in one place, tested without any window, and the window and the phone
//! server are two equal callers of [`Shared::apply`]. A phone's tap is applied and answered on
//! the server's thread while the window is minimised; the window is only asked to repaint.
//!
//! Why saving is not done here: the evening hands every change to its [`Saver`], which writes
//! on its own thread (coalescing typing, retrying a failing disk), so neither a frame nor a
//! phone waits for a disk unless it must be told the change is on disk — and then only the
//! phone waits, for its ticket, outside the evening's lock.
//!
//! Who calls what:
//! - the window (`ui::app`) locks the evening once per frame ([`Shared::lock`]) to draw from it,
//!   then applies what the views asked for ([`Shared::apply`]);
//! - the phone server calls [`PhoneHost::act`](crate::server::PhoneHost::act), which applies a
//!   [`Command::Phone`] and waits for its save;
//! - the timer's thread calls back on every alarm, which saves the running turn's time;
//! - `status` reads what the evening saved ([`SavedEvening`]) without opening anything for
//!   writing.

mod apply;
pub mod command;
mod library;
pub mod notices;
mod phones;
pub mod saved;
mod saver;
pub mod settings;
pub mod sheets;
pub mod undo;
pub mod words;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use std::time::Duration;

use chrono::{DateTime, Utc};

pub use crate::store::saver::{SaveStatus, Ticket, Urgency, Waited};
pub use command::{Command, Done, DraftEdit, Refusal};
pub use library::{Past, Record};
pub use notices::{Notices, Shown, TableNotice, Worded};
pub use phones::{PhoneLink, table_bind};
pub use saved::{Draft, DraftProblem, SavedEvening};
pub use saver::{EveningJob, EveningSaver};
pub use settings::Settings;
pub use sheets::{RulesPreview, SheetBook, SheetError};
pub use undo::{Area, Change, UndoHistory};

use crate::i18n;
use crate::lang::Language;
use crate::rules::RuleSet;
use crate::runtime::{Clock, TimerRuntime};
use crate::score::Sheet;
use crate::server::TableState;
use crate::sound::{SoundError, Sounder};
use crate::speech::{Speaker, Voice, VoiceConfig};
use crate::store::{Access, FileProblem, ReadOnlyReason, SheetId, Store, StoreError};
use crate::timer::{EndTurnGuard, Phase, Timer, TimerMode, TimerSettings};
use library::Library;

/// Asks the platform to keep the screen on; the returned handle releases it when dropped.
pub type KeepAwakeFn = fn() -> Result<Box<dyn std::any::Any + Send>, String>;

/// The wall clock, for the times a sheet records.
pub type WallClock = Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>;

/// A callback that asks the window for a frame.
pub type Repaint = Arc<dyn Fn() + Send + Sync>;

/// What the outside world gives the evening: clocks, sound, the data folder, the platform's
/// keep-awake and a way to wake the window. Tests pass a manual clock, a recording sounder
/// and no timer thread.
pub struct Deps {
    /// The monotonic clock the timer runs on.
    pub clock: Arc<dyn Clock>,
    /// The wall clock games and sheets are stamped with.
    pub wall: WallClock,
    /// Where cues are played.
    pub sounder: Arc<dyn Sounder>,
    /// Who says whose turn it is (a [`NoSpeaker`](crate::speech::NoSpeaker) when the machine
    /// has no speech engine).
    pub speaker: Arc<dyn Speaker>,
    /// Why there is no sound, to tell the table once.
    pub sound_error: Option<SoundError>,
    /// Run the timer on its own thread (the real app), or only when pumped (tests).
    pub timer_thread: bool,
    /// Where settings and sheets are saved, or why there is no such place.
    pub store: Result<Store, StoreError>,
    /// Keeps the screen awake while a turn runs; `None`: not asked for (tests).
    pub keep_awake: Option<KeepAwakeFn>,
    /// Wakes the window (a no-op without one).
    pub repaint: Repaint,
    /// Lists the addresses a phones' link may name for a server bound to an address
    /// ([`crate::server::link_addresses`]; tests give a machine of their own).
    pub addresses: crate::server::AddressLister,
}

impl Deps {
    /// Deterministic dependencies for tests: the given clock and sounder, the data folder
    /// `data`, a fixed wall clock, no timer thread, no window.
    pub fn manual(
        clock: Arc<dyn Clock>,
        sounder: Arc<dyn Sounder>,
        data: &std::path::Path,
    ) -> Deps {
        Deps {
            clock,
            wall: Arc::new(Utc::now),
            sounder,
            speaker: Arc::new(crate::speech::RecordingSpeaker::default()),
            sound_error: None,
            timer_thread: false,
            store: Store::open(data),
            keep_awake: None,
            repaint: Arc::new(|| {}),
            addresses: crate::server::link_addresses,
        }
    }
}

/// What changed during a command, to be saved once at its end.
#[derive(Clone, Copy, Debug, Default)]
struct Dirty {
    settings: bool,
    sheet: bool,
    evening: Option<Urgency>,
}

impl Dirty {
    fn evening(&mut self, urgency: Urgency) {
        self.evening = Some(match (self.evening, urgency) {
            (Some(Urgency::Now), _) | (_, Urgency::Now) => Urgency::Now,
            _ => Urgency::Soon,
        });
    }
}

/// The evening; see the [module docs](self).
pub struct Evening {
    settings: Settings,
    timer: TimerRuntime,
    book: SheetBook,
    /// Each sheet's half-typed game; the open sheet's form is shown while it has one.
    drafts: BTreeMap<SheetId, Draft>,
    /// The id the next draft gets.
    next_entry: u64,
    undo: UndoHistory,
    guard: EndTurnGuard,
    delete_guard: EndTurnGuard,
    notices: Notices,
    saver: Option<Arc<EveningSaver>>,
    library: Library,
    phones: PhoneLink,
    clock: Arc<dyn Clock>,
    wall: WallClock,
    keep_awake: Option<KeepAwakeFn>,
    awake: Option<Box<dyn std::any::Any + Send>>,
    awake_failed: bool,
    no_audio: bool,
    /// Says the turns, alerts and results (the timer's thread holds it too).
    voice: Arc<Voice>,
    /// The table was told there is no speech engine (once an evening).
    no_voice_told: bool,
    /// The engines whose failure the table was told of (each once an evening).
    voice_failed_told: Vec<crate::speech::Engine>,
    /// Why there is no data folder at all.
    no_store: Option<Worded>,
    /// Waiting for the library to name the latest sheet (the evening had none open).
    open_latest: bool,
    repaint: Repaint,
    dirty: Dirty,
    /// The evening itself, for the clock's thread (set once it is shared).
    this: Arc<OnceLock<Weak<Mutex<Evening>>>>,
}

impl std::fmt::Debug for Evening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evening")
            .field("sheet", &self.book.id())
            .field("drafts", &self.drafts.len())
            .finish_non_exhaustive()
    }
}

/// Seat names for the timer: the saved ones when valid, else "Player 1" … "Player 4".
fn seat_names(settings: &Settings) -> Vec<String> {
    let n = settings.players.len();
    if (2..=6).contains(&n) {
        settings.players.clone()
    } else {
        (1..=4)
            .map(settings.language.strings().timer.default_player)
            .collect()
    }
}

/// A fresh, unpredictable first draft id (ids only need to differ from earlier runs' ids).
fn first_entry() -> u64 {
    let mut bytes = [0u8; 8];
    match getrandom::fill(&mut bytes) {
        Ok(()) => u64::from_le_bytes(bytes) >> 1 | 1,
        Err(_) => u64::try_from(Utc::now().timestamp_micros()).unwrap_or(1) | 1,
    }
}

impl Evening {
    /// Opens the evening: the settings and the saved evening from the data folder (a saved
    /// evening that cannot be restored is kept aside and said so, keeping its seats), the
    /// sheet it had open (that one file only: the others are read in the background), and
    /// the clock (on its own thread when asked).
    pub fn open(deps: Deps) -> Evening {
        let Deps {
            clock,
            wall,
            sounder,
            speaker,
            sound_error,
            timer_thread,
            store,
            keep_awake,
            repaint,
            addresses,
        } = deps;
        let locale = Language::of_system();
        let mut notices = Notices::default();
        let now = clock.now();
        let (store, no_store) = match store {
            Ok(store) => (Some(store), None),
            Err(e) => (None, Some(Worded::new(|lang| i18n::store_error(lang, &e)))),
        };
        let mut settings = Settings {
            language: locale,
            ..Settings::default()
        };
        let mut saved = SavedEvening::default();
        if let Some(store) = &store {
            let fresh = !store.settings_path().exists();
            let loaded = store.load_settings::<Settings>();
            settings = loaded.value;
            if fresh {
                settings.language = locale;
            }
            notices.extend_store(loaded.notices, now);
            let loaded = store.load_evening::<SavedEvening>();
            notices.extend_store(loaded.notices, now);
            saved = loaded.value;
        }
        if let Some(e) = &sound_error {
            notices.push(TableNotice::NoAudio(i18n::sound_error(locale, e)), now);
        }
        settings.players = seat_names(&settings);
        // A hand-edited file may hold timer values the game does not allow: use the defaults.
        if settings.rules.validate().is_err() {
            let defaults = RuleSet::default();
            settings.rules.turn_seconds = defaults.turn_seconds;
            settings.rules.warning_seconds = defaults.warning_seconds;
            settings.rules.tick_seconds = defaults.tick_seconds;
            notices.push(TableNotice::TimerSettingsReset, now);
        }
        sounder.set_volume(settings.volume);
        sounder.set_muted(settings.muted);
        let timer_settings = TimerSettings::from_rules(&settings.rules);
        let restored = saved
            .timer
            .as_ref()
            .map(|t| Timer::restore(t, timer_settings, now));
        let mut timer = match restored {
            Some(Ok(timer)) => timer,
            Some(Err(e)) => {
                // Kept aside like an unreadable sheet, never overwritten; its seats stay.
                if let Some(store) = &store {
                    let kept = store.set_aside_evening(FileProblem::Invalid(e.to_string()));
                    if let Some(notice) = kept {
                        let path = notice.set_aside_to().map(|p| p.display().to_string());
                        notices.push(TableNotice::EveningSetAside(path.unwrap_or_default()), now);
                    }
                }
                let seats = saved.timer.as_ref().map(|t| t.players.clone());
                fresh_timer(seats, &settings, timer_settings)
            }
            None => fresh_timer(None, &settings, timer_settings),
        };
        // A restored game keeps its own mode; this is the mode of new games.
        timer.set_mode(TimerMode::from_rules(&settings.rules));
        // On every alarm the clock's thread wakes the window and saves the running turn's
        // time (skipped if the evening is busy: it is only a checkpoint).
        let this: Arc<OnceLock<Weak<Mutex<Evening>>>> = Arc::default();
        let alarm = {
            let (this, repaint) = (Arc::clone(&this), Arc::clone(&repaint));
            move || {
                repaint();
                if let Some(evening) = this.get().and_then(Weak::upgrade)
                    && let Ok(mut evening) = evening.try_lock()
                {
                    evening.dirty.evening(Urgency::Soon);
                    evening.persist();
                }
            }
        };
        let timer = make_runtime(timer, clock.clone(), sounder, timer_thread, alarm);
        let voice = Arc::new(Voice::new(speaker));
        timer.set_voice(Arc::clone(&voice));
        // The saved evening's seats win over the settings' (the same unless edited by hand).
        settings.players = timer.read(|t, _| t.players().to_vec());

        let (book, opened, failed) =
            SheetBook::open_at_start(store.clone(), saved.sheet.as_deref());
        notices.extend_store(opened, now);
        if let Some(e) = failed {
            notices.push(TableNotice::Failed(Worded::new(|lang| e.worded(lang))), now);
        }
        let open_latest = saved.sheet.is_none() || book.id().is_none();
        let mut phones = PhoneLink::listing(addresses);
        if let Some(secret) = saved
            .phone_link
            .as_deref()
            .and_then(crate::server::Secret::from_saved)
        {
            phones.keep_secret(secret);
        }
        let mut drafts = BTreeMap::new();
        for (id, draft) in saved.take_drafts() {
            let Ok(id) = SheetId::new(&id) else { continue };
            // The open sheet's draft whose game it already holds (a crash between the two
            // saves) is not offered again; other sheets' drafts are checked when opened.
            if book.id() == Some(&id) && book.sheet().is_some_and(|s| draft.is_saved_in(s)) {
                continue;
            }
            drafts.insert(id, draft);
        }
        let repaint_saver = Arc::clone(&repaint);
        let saver = store
            .clone()
            .map(|s| Arc::new(EveningSaver::start(s, "saver", move || repaint_saver())));
        let repaint_library = Arc::clone(&repaint);
        let library = Library::start(store, move || repaint_library());
        library.set_merges(&settings.merged_names);
        let mut evening = Evening {
            settings,
            timer,
            book,
            drafts,
            next_entry: first_entry(),
            undo: UndoHistory::restored(saved.undo),
            guard: EndTurnGuard::default(),
            delete_guard: EndTurnGuard::default(),
            notices,
            saver,
            library,
            phones,
            clock,
            wall,
            keep_awake,
            awake: None,
            awake_failed: false,
            no_audio: sound_error.is_some(),
            voice,
            no_voice_told: false,
            voice_failed_told: Vec::new(),
            no_store,
            open_latest,
            repaint,
            dirty: Dirty::default(),
            this,
        };
        evening.sync_voice();
        evening
    }

    /// The voice follows the settings (language, voice settings, spoken names); the table is
    /// told once when the voice is on and the machine has no speech engine.
    pub(crate) fn sync_voice(&mut self) {
        let settings = &self.settings;
        let spoken = |name: &str| {
            settings
                .spoken
                .iter()
                .find(|(written, said)| same_name(written, name) && !said.trim().is_empty())
                .map_or_else(|| name.to_owned(), |(_, said)| said.trim().to_owned())
        };
        let config = VoiceConfig {
            lang: settings.language,
            settings: settings.voice,
            seats: settings.players.iter().map(|n| spoken(n)).collect(),
            spoken: settings
                .spoken
                .iter()
                .filter(|(_, said)| !said.trim().is_empty())
                .map(|(w, s)| (w.clone(), s.trim().to_owned()))
                .collect(),
        };
        self.voice.configure(config);
        if settings.voice.on && self.voice.speaker().engine().is_none() && !self.no_voice_told {
            self.no_voice_told = true;
            let now = self.clock.now();
            self.notices.push(TableNotice::NoVoice, now);
        }
    }

    /// Takes in what the background threads finished since the last call: the saved sheets
    /// (and the latest one to open, when the evening had none), store notices from saving.
    /// Called by [`Shared::lock`] and before every command.
    pub fn refresh(&mut self) {
        let now = self.clock.now();
        if let Some(saver) = &self.saver {
            let reports = saver.take_reports();
            self.notices.extend_store(reports, now);
        }
        // Each engine's failure is told once an evening (a hang is told even when another
        // engine took over: the table waited for it).
        for problem in self.voice.speaker().take_problems() {
            if !self.voice_failed_told.contains(&problem.engine) {
                self.voice_failed_told.push(problem.engine);
                self.notices.push(TableNotice::VoiceFailed(problem), now);
            }
        }
        let repaired = self.library.take_notices();
        self.notices.extend_store(repaired, now);
        if self.open_latest
            && let Some(latest) = self.library.latest_played()
        {
            self.open_latest = false;
            if self.book.id().is_none()
                && let Some(id) = latest
            {
                match self.load_sheet(&id) {
                    Ok(notices) => {
                        self.notices.extend_store(notices, now);
                        self.drop_saved_draft();
                        self.dirty.evening(Urgency::Now);
                        self.persist();
                        self.publish();
                    }
                    Err(e) => self
                        .notices
                        .push(TableNotice::Failed(Worded::new(|lang| e.worded(lang))), now),
                }
            }
        }
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The table's language.
    pub fn language(&self) -> Language {
        self.settings.language
    }

    /// The timer runtime (read the timer through it).
    pub fn timer(&self) -> &TimerRuntime {
        &self.timer
    }

    /// The clock's reading now.
    pub fn now(&self) -> Duration {
        self.clock.now()
    }

    /// The wall clock's reading now.
    pub fn wall_now(&self) -> DateTime<Utc> {
        (self.wall)()
    }

    /// The open sheet.
    pub fn sheet(&self) -> Option<&Sheet> {
        self.book.sheet()
    }

    /// The open sheet's id.
    pub fn sheet_id(&self) -> Option<&SheetId> {
        self.book.id()
    }

    /// The open sheet's form, while it is open: the game as typed.
    pub fn draft(&self) -> Option<&Draft> {
        self.book.id().and_then(|id| self.drafts.get(id))
    }

    /// The half-typed game kept for a sheet.
    pub fn draft_of(&self, id: &SheetId) -> Option<&Draft> {
        self.drafts.get(id)
    }

    /// The played sheets for "Open" (latest first), or `None` while they are being read.
    pub fn past(&self) -> Option<Past> {
        self.library.past()
    }

    /// The history across evenings, once worked out (asking for it starts the work; the
    /// window is woken when it is ready).
    pub fn history(&self) -> Option<Record> {
        self.library.record()
    }

    /// The notices to show.
    pub fn notices(&self) -> &Notices {
        &self.notices
    }

    /// The change an undo in `area` would take back.
    pub fn next_undo(&self, area: Option<Area>) -> Option<&Change> {
        self.undo.next_undo(area)
    }

    /// The change a redo in `area` would do again.
    pub fn next_redo(&self, area: Option<Area>) -> Option<&Change> {
        self.undo.next_redo(area)
    }

    /// The change just undone, while nothing else was done since.
    pub fn just_undone(&self) -> Option<&Change> {
        self.undo.just_undone()
    }

    /// How many changes can be undone.
    pub fn undo_depth(&self) -> usize {
        self.undo.depth()
    }

    /// The phones' server and its link.
    pub fn phones(&self) -> &PhoneLink {
        &self.phones
    }

    /// Whether the screen is being kept awake now.
    pub fn keeping_awake(&self) -> bool {
        self.awake.is_some()
    }

    /// The voice (its speaker names the engine in use).
    pub fn voice(&self) -> &Arc<Voice> {
        &self.voice
    }

    /// Whether there is no sound output (the test sounds say so instead of playing nothing).
    pub fn no_audio(&self) -> bool {
        self.no_audio
    }

    /// The data folder's store, if there is one (clones share its lock: the window's event
    /// desk writes through one).
    pub fn store(&self) -> Option<&Store> {
        self.book.store()
    }

    /// The data folder, if there is one.
    pub fn store_dir(&self) -> Option<&std::path::Path> {
        self.book.store().map(Store::dir)
    }

    /// A new file in the exports folder for the open sheet (never an existing one).
    pub fn export_path(&self, extension: &str) -> Result<std::path::PathBuf, SheetError> {
        self.book.export_path(extension)
    }

    /// The saver, when there is a data folder (tests and phones wait on it).
    pub fn saver(&self) -> Option<&Arc<EveningSaver>> {
        self.saver.as_ref()
    }

    /// While nothing can be saved: the standing line to show, and its technical detail.
    pub fn not_saving(&self) -> Option<(String, String)> {
        let lang = self.settings.language;
        let s = lang.strings();
        if let Some(why) = &self.no_store {
            return Some((s.saving.not_saving.to_owned(), why.get(lang).to_owned()));
        }
        let store = self.book.store()?;
        if let Access::ReadOnly(reason) = store.access() {
            let line = match reason {
                ReadOnlyReason::InUse { .. } => s.saving.read_only_in_use,
                _ => s.saving.read_only_folder,
            };
            return Some((line.to_owned(), i18n::read_only_reason(lang, &reason)));
        }
        let failing = self.saver.as_ref()?.status()?;
        Some((
            i18n::saving_fails(lang, failing.attempts),
            i18n::store_error(lang, &failing.why),
        ))
    }

    /// The evening as it would be saved now.
    pub fn saved(&self) -> SavedEvening {
        SavedEvening {
            timer: Some(self.timer.read(|t, now| t.saved(now))),
            sheet: self.book.id().map(|id| id.as_str().to_owned()),
            drafts: self
                .drafts
                .iter()
                .filter(|(_, d)| !d.is_blank())
                .map(|(id, d)| (id.as_str().to_owned(), d.clone()))
                .collect(),
            draft: None,
            undo: self.undo.saved(),
            saved_at: Some((self.wall)()),
            phone_link: self.phones.secret().map(|s| s.as_str().to_owned()),
        }
    }

    /// What the phones see: the clock, the names, and the open sheet's add-game form by timer
    /// seat (never a form that changes a saved game).
    pub fn phone_view(&self) -> TableState {
        let entry = self.book.sheet().and_then(|sheet| {
            let draft = self.draft().filter(|d| d.editing.is_none())?;
            let names = sheet.players().names();
            Some(
                self.settings
                    .players
                    .iter()
                    .map(|name| {
                        let seat = names.iter().position(|n| same_name(n, name));
                        seat.and_then(|i| draft.left.get(i))
                            .cloned()
                            .unwrap_or_default()
                    })
                    .collect(),
            )
        });
        let mut state = self.timer.read(|t, now| {
            TableState::from_timer(
                t,
                now,
                self.phones.evening(),
                self.settings.anyone_may_end,
                entry,
            )
        });
        // How the phones say each seat's name (only when some seat has a spoken form).
        let config = self.voice.config();
        if config.seats != state.players {
            state.spoken = config.seats;
        }
        state
    }

    /// Saves what the last command changed: sheets and settings at once, the evening at once
    /// or (typing) soon. Returns the ticket of the last save asked for.
    fn persist(&mut self) -> Option<Ticket> {
        let dirty = std::mem::take(&mut self.dirty);
        let mut ticket = None;
        if dirty.sheet
            && let Some((id, sheet)) = self.book.shared()
        {
            let id = id.clone();
            self.library.saved(&id, Arc::clone(&sheet));
            if let Some(saver) = &self.saver {
                ticket = Some(saver.sheet(&id, sheet));
            }
        }
        if dirty.settings
            && let Some(saver) = &self.saver
        {
            ticket = Some(saver.settings(&self.settings));
        }
        if let Some(urgency) = dirty.evening {
            let saved = self.saved();
            if let Some(saver) = &self.saver {
                ticket = Some(saver.evening(saved, urgency));
            }
        }
        ticket
    }

    /// Pushes what the phones see (only a change they could not predict reaches them).
    fn publish(&self) {
        self.phones.publish(self.phone_view());
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
                let now = self.clock.now();
                self.notices.push(TableNotice::NoKeepAwake(why), now);
            }
        }
    }

    /// Opens sheet `id`: this evening's own copy when it has one (saving is in the background,
    /// so the file may lag a moment behind), else its file.
    fn load_sheet(&mut self, id: &SheetId) -> Result<Vec<crate::store::Notice>, SheetError> {
        match self.library.get(id) {
            Some(sheet) => {
                self.book.set_open(Some((id.clone(), sheet)));
                Ok(Vec::new())
            }
            None => self.book.load(id),
        }
    }

    /// A draft the open sheet already holds the game of is dropped (see [`Draft::is_saved_in`]).
    fn drop_saved_draft(&mut self) {
        if let (Some(id), Some(sheet)) = (self.book.id(), self.book.sheet())
            && self.drafts.get(id).is_some_and(|d| d.is_saved_in(sheet))
        {
            let id = id.clone();
            self.drafts.remove(&id);
        }
    }

    /// Writes what waits to be saved, waiting at most `timeout` (closing the window).
    pub fn flush(&mut self, timeout: Duration) -> Option<Waited> {
        self.dirty.evening(Urgency::Now);
        self.persist();
        self.saver.as_ref().map(|s| s.flush(timeout))
    }
}

/// A new timer for the seats given (an unrestorable saved evening's), else the settings'.
fn fresh_timer(
    seats: Option<Vec<String>>,
    settings: &Settings,
    timer_settings: TimerSettings,
) -> Timer {
    let defaults = (1..=4).map(settings.language.strings().timer.default_player);
    seats
        .and_then(|names| Timer::new(names, timer_settings).ok())
        .or_else(|| Timer::new(seat_names(settings), timer_settings).ok())
        .or_else(|| Timer::new(defaults, timer_settings).ok())
        .unwrap_or_else(|| unreachable_table(timer_settings))
}

/// Four distinct default names always make a table; this only names the last resort.
fn unreachable_table(timer_settings: TimerSettings) -> Timer {
    let names = ["1", "2", "3", "4"];
    match Timer::new(names, timer_settings) {
        Ok(timer) => timer,
        Err(e) => panic!("four distinct names make a valid table: {e}"),
    }
}

/// The timer on its own thread when asked (and possible), else pumped by the caller.
fn make_runtime(
    timer: Timer,
    clock: Arc<dyn Clock>,
    sounder: Arc<dyn Sounder>,
    thread: bool,
    alarm: impl Fn() + Send + Sync + 'static,
) -> TimerRuntime {
    if thread {
        let spawned = TimerRuntime::spawn(
            timer.clone(),
            Arc::clone(&clock),
            Arc::clone(&sounder),
            alarm,
        );
        match spawned {
            Ok(rt) => return rt,
            Err(e) => eprintln!("warning: no timer thread ({e}); alerts follow repaints"),
        }
    }
    TimerRuntime::manual(timer, clock, sounder)
}

/// Whether two seat names are the same player (trimmed, ignoring case), as the seat rule says.
pub fn same_name(a: &str, b: &str) -> bool {
    crate::history::name_key(a) == crate::history::name_key(b)
}

/// The evening shared by the window, the phone server and the timer's thread.
#[derive(Clone)]
pub struct Shared {
    evening: Arc<Mutex<Evening>>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared").finish_non_exhaustive()
    }
}

impl Shared {
    /// Opens the evening (see [`Evening::open`]) and shares it; the phones' page comes back
    /// on, on the same link, if it was on.
    pub fn open(deps: Deps) -> Shared {
        let shared = Shared {
            evening: Arc::new(Mutex::new(Evening::open(deps))),
        };
        let mut evening = shared.lock();
        let _ = evening.this.set(shared.weak());
        if evening.settings.phones {
            let bind = phones::table_bind(evening.settings.phone_port);
            evening.start_phones_on(bind, &shared);
        }
        drop(evening);
        shared
    }

    /// The evening, locked, with what the background threads finished taken in. Hold it for
    /// one frame's drawing at most: phones and the clock wait for it.
    pub fn lock(&self) -> MutexGuard<'_, Evening> {
        let mut evening = self.evening.lock().unwrap_or_else(|e| e.into_inner());
        evening.refresh();
        evening
    }

    /// Applies one command (see [`Evening::apply`]).
    pub fn apply(&self, command: Command) -> Result<Done, Refusal> {
        self.apply_and_wait(command, Duration::ZERO).0
    }

    /// Applies one command, then waits up to `timeout` (outside the lock) for what it changed
    /// to reach the disk: what a phone is told is done is on disk.
    pub fn apply_and_wait(
        &self,
        command: Command,
        timeout: Duration,
    ) -> (Result<Done, Refusal>, Waited) {
        let (outcome, saver) = {
            let mut evening = self.lock();
            let outcome = evening.apply(command, self);
            (outcome, evening.saver.clone())
        };
        let ticket = outcome.as_ref().ok().and_then(|done| done.ticket);
        let waited = match (saver, ticket) {
            (Some(saver), Some(ticket)) if !timeout.is_zero() => saver.wait(ticket, timeout),
            (Some(saver), Some(ticket)) => match saver.wait(ticket, Duration::ZERO) {
                Waited::TimedOut => Waited::TimedOut,
                done => done,
            },
            // Nothing to save (or nowhere to save it): nothing to wait for.
            _ => Waited::Saved,
        };
        (outcome, waited)
    }

    /// Starts the phones' server on `bind` (tests and screenshots use `127.0.0.1:0`).
    pub fn start_phones_on(&self, bind: std::net::SocketAddr) {
        self.lock().start_phones_on(bind, self);
    }

    /// A handle that does not keep the evening alive (for the server and the timer thread).
    fn weak(&self) -> Weak<Mutex<Evening>> {
        Arc::downgrade(&self.evening)
    }
}
