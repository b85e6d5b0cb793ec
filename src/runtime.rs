//! Runs the pure [`Timer`] on a real clock and sounds its events on time.
//!
//! egui only runs code when it repaints, and it stops repainting when the window is covered or
//! minimised, which is exactly when a player still needs to hear the alarm. So the timer is
//! driven by its own small thread: it sleeps until the engine's next event is due
//! ([`Timer::next_event_at`]), wakes, polls, plays the cues and calls a notify callback (the
//! GUI passes `ctx.request_repaint()`). A command (start, pause, end turn, …) wakes it early so
//! it can reschedule. A 60-second turn costs two wake-ups with the default settings, and none at
//! all while idle or paused.
//!
//! The clock is a [`Clock`] trait object: [`SystemClock`] for the app, [`ManualClock`] for tests.
//! [`TimerRuntime::manual`] creates a runtime without the thread; the test then calls
//! [`TimerRuntime::pump`] itself, so UI tests stay deterministic.
//!
//! Which events sound is decided here, not in the engine: a tick more than
//! [`STALE_AFTER`](crate::timer::STALE_AFTER) late is skipped (a burst of stale ticks after the
//! machine slept would be noise), a warning or time-up is skipped only if it is that late *and*
//! its turn is already over; and one wake-up plays at most one cue, the most important (the
//! warning and the 10-second tick, or a late tick and the alarm, never double-beep).
//!
//! # Example
//! ```
//! use std::sync::Arc;
//! use std::time::Duration;
//! use rummikub_companion::runtime::{ManualClock, TimerRuntime};
//! use rummikub_companion::sound::{Cue, RecordingSounder};
//! use rummikub_companion::timer::{Timer, TimerSettings};
//!
//! let clock = Arc::new(ManualClock::default());
//! let sounder = Arc::new(RecordingSounder::default());
//! let timer = Timer::new(["Ann", "Bo"], TimerSettings::default()).unwrap();
//! let rt = TimerRuntime::manual(timer, clock.clone(), sounder.clone());
//! rt.start().unwrap();
//! clock.advance(Duration::from_secs(50));
//! rt.pump();
//! assert_eq!(sounder.played(), [Cue::Warning]);
//! assert_eq!(rt.read(|timer, now| timer.display_seconds(now)), 10);
//! ```

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::sound::{Cue, Sounder};
use crate::speech::Voice;
use crate::speech::phrases::Happening;
use crate::timer::{Alert, Timer, TimerError, TimerEvent, TimerMode, TimerSettings, TurnEnd};

/// How many delivered events are kept for the UI when nobody takes them.
const LOG_LIMIT: usize = 256;

/// A monotonic clock: time since an arbitrary, fixed epoch.
pub trait Clock: Send + Sync {
    /// The current time since the epoch; never goes backwards.
    fn now(&self) -> Duration;
}

/// The real monotonic clock ([`Instant`]), with its epoch at creation.
#[derive(Clone, Copy, Debug)]
pub struct SystemClock {
    epoch: Instant,
}

impl SystemClock {
    /// A clock reading zero now.
    pub fn new() -> SystemClock {
        SystemClock {
            epoch: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        SystemClock::new()
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.epoch.elapsed()
    }
}

/// A clock that moves only when told: for tests.
#[derive(Debug, Default)]
pub struct ManualClock {
    now: Mutex<Duration>,
}

impl ManualClock {
    /// Sets the time (a time earlier than the current one is ignored: clocks are monotonic).
    pub fn set(&self, now: Duration) {
        let mut t = lock(&self.now);
        *t = (*t).max(now);
    }

    /// Moves the time forward.
    pub fn advance(&self, by: Duration) {
        let mut t = lock(&self.now);
        *t += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Duration {
        *lock(&self.now)
    }
}

/// An event as the runtime handled it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivered {
    /// The engine's event.
    pub event: TimerEvent,
    /// When the runtime saw it (≥ `event.due`).
    pub at: Duration,
    /// The cue played for it, if any.
    pub cue: Option<Cue>,
}

impl Delivered {
    /// How late it was handled.
    pub fn lateness(&self) -> Duration {
        self.event.lateness(self.at)
    }
}

/// The timer on a clock, with its sounds; see the [module docs](self).
pub struct TimerRuntime {
    shared: Arc<Shared>,
    worker: Option<JoinHandle<()>>,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    clock: Arc<dyn Clock>,
    sounder: Arc<dyn Sounder>,
    notify: Box<dyn Fn() + Send + Sync>,
    /// Says the alerts after their cues (the warning, time-up, a flag), when set.
    voice: Mutex<Option<Arc<Voice>>>,
}

struct State {
    timer: Timer,
    log: VecDeque<Delivered>,
    /// A command changed the timer since the worker last looked.
    poked: bool,
    stop: bool,
    wakeups: u64,
}

impl TimerRuntime {
    /// A runtime without a thread: call [`pump`](TimerRuntime::pump) to deliver due events.
    pub fn manual(timer: Timer, clock: Arc<dyn Clock>, sounder: Arc<dyn Sounder>) -> TimerRuntime {
        TimerRuntime {
            shared: Arc::new(Shared::new(timer, clock, sounder, Box::new(|| {}))),
            worker: None,
        }
    }

    /// A runtime whose own thread delivers every event when due, then calls `notify`.
    /// Fails only if the operating system refuses a thread.
    pub fn spawn(
        timer: Timer,
        clock: Arc<dyn Clock>,
        sounder: Arc<dyn Sounder>,
        notify: impl Fn() + Send + Sync + 'static,
    ) -> std::io::Result<TimerRuntime> {
        let shared = Arc::new(Shared::new(timer, clock, sounder, Box::new(notify)));
        let for_worker = Arc::clone(&shared);
        let worker = std::thread::Builder::new()
            .name("turn-timer".into())
            .spawn(move || for_worker.run())?;
        Ok(TimerRuntime {
            shared,
            worker: Some(worker),
        })
    }

    /// Delivers every event due now: records it, plays its cue, calls notify if any.
    pub fn pump(&self) -> Vec<Delivered> {
        self.shared.pump()
    }

    /// The runtime clock's current time.
    pub fn now(&self) -> Duration {
        self.shared.clock.now()
    }

    /// Reads the timer at the current time, e.g. `rt.read(|t, now| t.remaining(now))`.
    pub fn read<R>(&self, f: impl FnOnce(&Timer, Duration) -> R) -> R {
        let state = self.shared.lock();
        f(&state.timer, self.now())
    }

    /// Applies any change to the timer at the current time and wakes the worker to reschedule.
    /// The named commands below are this with one engine method.
    pub fn command<R>(&self, f: impl FnOnce(&mut Timer, Duration) -> R) -> R {
        let result = {
            let mut state = self.shared.lock();
            let now = self.now();
            let result = f(&mut state.timer, now);
            state.poked = true;
            result
        };
        self.shared.wake.notify_one();
        result
    }

    /// [`Timer::start`] now.
    pub fn start(&self) -> Result<(), TimerError> {
        self.command(|t, now| t.start(now))
    }

    /// [`Timer::pause`] now.
    pub fn pause(&self) -> Result<(), TimerError> {
        self.command(|t, now| t.pause(now))
    }

    /// [`Timer::resume`] now.
    pub fn resume(&self) -> Result<(), TimerError> {
        self.command(|t, now| t.resume(now))
    }

    /// [`Timer::toggle`] now.
    pub fn toggle(&self) -> Result<(), TimerError> {
        self.command(|t, now| t.toggle(now))
    }

    /// [`Timer::end_turn`] now.
    pub fn end_turn(&self) -> Result<TurnEnd, TimerError> {
        self.command(|t, now| t.end_turn(now))
    }

    /// [`Timer::reset`].
    pub fn reset(&self) {
        self.command(|t, _| t.reset())
    }

    /// [`Timer::set_settings`] (applies from the next turn).
    pub fn set_settings(&self, settings: TimerSettings) {
        self.command(|t, _| t.set_settings(settings))
    }

    /// [`Timer::set_mode`] (at once when idle, else from the next reset).
    pub fn set_mode(&self, mode: TimerMode) {
        self.command(|t, _| t.set_mode(mode))
    }

    /// Takes the events delivered since the last call, oldest first (at most the last 256).
    pub fn take_delivered(&self) -> Vec<Delivered> {
        self.shared.lock().log.drain(..).collect()
    }

    /// Speaks the alerts that sounded, each after its cue has played (the cue first, then the
    /// words): the warning, time-up with the penalty, a chess-clock flag.
    pub fn set_voice(&self, voice: Arc<Voice>) {
        *lock(&self.shared.voice) = Some(voice);
    }

    /// The sound output, for volume and mute.
    pub fn sounder(&self) -> &dyn Sounder {
        self.shared.sounder.as_ref()
    }

    /// When the worker will next wake by itself: the next event's due time, or `None`.
    /// With a [`ManualClock`], setting the clock to this and pumping replays the worker.
    pub fn next_wake(&self) -> Option<Duration> {
        self.shared.lock().timer.next_event_at()
    }

    /// How many times the worker thread has woken (0 for a manual runtime).
    pub fn wakeups(&self) -> u64 {
        self.shared.lock().wakeups
    }
}

impl Drop for TimerRuntime {
    fn drop(&mut self) {
        if let Some(worker) = self.worker.take() {
            self.shared.lock().stop = true;
            self.shared.wake.notify_one();
            let _ = worker.join();
        }
    }
}

impl std::fmt::Debug for TimerRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TimerRuntime")
            .field("threaded", &self.worker.is_some())
            .finish_non_exhaustive()
    }
}

impl Shared {
    fn new(
        timer: Timer,
        clock: Arc<dyn Clock>,
        sounder: Arc<dyn Sounder>,
        notify: Box<dyn Fn() + Send + Sync>,
    ) -> Shared {
        Shared {
            state: Mutex::new(State {
                timer,
                log: VecDeque::new(),
                poked: false,
                stop: false,
                wakeups: 0,
            }),
            wake: Condvar::new(),
            clock,
            sounder,
            notify,
            voice: Mutex::new(None),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }

    fn pump(&self) -> Vec<Delivered> {
        let voice = lock(&self.voice).clone();
        let (delivered, said) = {
            let mut state = self.lock();
            let now = self.clock.now();
            let events = state.timer.poll(now);
            let delivered = with_cues(&events, now, state.timer.turn_id());
            for d in &delivered {
                if state.log.len() == LOG_LIMIT {
                    state.log.pop_front();
                }
                state.log.push_back(*d);
            }
            // What is said: only alerts that sounded (a stale one is not announced late).
            let said: Vec<(Happening, Cue)> = voice.as_ref().map_or_else(Vec::new, |voice| {
                let (mode, warning) =
                    (state.timer.game_mode(), state.timer.turn_settings().warning);
                delivered
                    .iter()
                    .filter_map(|d| {
                        let cue = d.cue?;
                        Happening::of_alert(&d.event, mode, warning, |seat| voice.seat_name(seat))
                            .map(|h| (h, cue))
                    })
                    .collect()
            });
            (delivered, said)
        };
        let audible = !self.sounder.is_muted() && self.sounder.volume() > 0.0;
        for cue in delivered.iter().filter_map(|d| d.cue) {
            self.sounder.play(cue);
            if audible && let Some(voice) = &voice {
                voice.cue_sounded(cue.duration());
            }
        }
        // Then the words, once the cue has been heard (at once when the cues are muted).
        if let Some(voice) = &voice {
            for (happening, cue) in &said {
                let after = if audible {
                    cue.duration()
                } else {
                    Duration::ZERO
                };
                voice.announce(happening, after);
            }
        }
        if !delivered.is_empty() {
            (self.notify)();
        }
        delivered
    }

    /// The worker: pump, then sleep until the next event or a command, until stopped.
    fn run(&self) {
        loop {
            self.pump();
            let mut state = self.lock();
            loop {
                if state.stop {
                    return;
                }
                if std::mem::take(&mut state.poked) {
                    break;
                }
                let now = self.clock.now();
                let wait = match state.timer.next_event_at() {
                    Some(due) if due <= now => break,
                    Some(due) => Some(due - now),
                    None => None,
                };
                state = match wait {
                    Some(wait) => {
                        self.wake
                            .wait_timeout(state, wait)
                            .unwrap_or_else(|e| e.into_inner())
                            .0
                    }
                    None => self.wake.wait(state).unwrap_or_else(|e| e.into_inner()),
                };
                state.wakeups += 1;
            }
        }
    }
}

/// Decides which events sound (see the module docs) and stamps them with `now`.
fn with_cues(events: &[TimerEvent], now: Duration, current_turn: Option<u64>) -> Vec<Delivered> {
    let mut delivered: Vec<Delivered> = events
        .iter()
        .map(|&event| Delivered {
            event,
            at: now,
            cue: cue_for(&event, now, current_turn),
        })
        .collect();
    // One pump, one cue: the most important, and of equals the latest.
    let loudest = delivered
        .iter()
        .enumerate()
        .filter_map(|(i, d)| d.cue.map(|c| (c.priority(), i)))
        .max();
    for (i, d) in delivered.iter_mut().enumerate() {
        if loudest.is_some_and(|(_, keep)| keep != i) {
            d.cue = None;
        }
    }
    delivered
}

fn cue_for(event: &TimerEvent, now: Duration, current_turn: Option<u64>) -> Option<Cue> {
    let stale = event.is_stale(now);
    let turn_over = current_turn != Some(event.turn);
    match event.alert {
        Alert::Tick(_) if stale => None,
        Alert::Tick(_) => Some(Cue::Tick),
        _ if stale && turn_over => None,
        Alert::Warning => Some(Cue::Warning),
        Alert::TimeUp => Some(Cue::TimeUp),
    }
}

/// Locks, ignoring poisoning: the data stays usable after a panic elsewhere.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
