//! The timer runtime: which cues sound and when, wake-up counts on a fake clock, and the real
//! worker thread delivering events by itself.

use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use rummikub_companion::runtime::{Clock, ManualClock, SystemClock, TimerRuntime};
use rummikub_companion::sound::{Cue, RecordingSounder, Sounder};
use rummikub_companion::timer::{Alert, Timer, TimerSettings};

fn s(secs: u64) -> Duration {
    Duration::from_secs(secs)
}

fn ms(millis: u64) -> Duration {
    Duration::from_millis(millis)
}

struct Rig {
    clock: Arc<ManualClock>,
    sounder: Arc<RecordingSounder>,
    rt: TimerRuntime,
}

fn rig(settings: TimerSettings) -> Rig {
    let clock = Arc::new(ManualClock::default());
    clock.set(s(1_000));
    let sounder = Arc::new(RecordingSounder::default());
    let timer = Timer::new(["A", "B", "C"], settings).expect("players");
    let rt = TimerRuntime::manual(timer, clock.clone(), sounder.clone());
    Rig { clock, sounder, rt }
}

fn settings(turn: u64, warning: u64, ticks: u32) -> TimerSettings {
    TimerSettings {
        turn: s(turn),
        warning: s(warning),
        ticks,
    }
}

impl Rig {
    /// Does what the worker thread does: sleep until the next wake-up, pump; counts wake-ups.
    fn run_until_idle(&self) -> usize {
        let mut wakeups = 0;
        while let Some(due) = self.rt.next_wake() {
            self.clock.set(due);
            let delivered = self.rt.pump();
            assert!(!delivered.is_empty(), "a wake-up with nothing to do");
            assert!(delivered.iter().all(|d| d.lateness().is_zero()));
            wakeups += 1;
        }
        wakeups
    }
}

#[test]
fn a_default_turn_sounds_the_warning_then_the_alarm_in_two_wake_ups() {
    let r = rig(TimerSettings::default());
    r.rt.start().expect("starts");
    assert_eq!(r.run_until_idle(), 2);
    assert_eq!(r.sounder.played(), [Cue::Warning, Cue::TimeUp]);
    assert_eq!(r.clock.now(), s(1_060));
    let log = r.rt.take_delivered();
    let events: Vec<Alert> = log.iter().map(|d| d.event.alert).collect();
    assert_eq!(events, [Alert::Warning, Alert::TimeUp]);
    assert!(r.rt.take_delivered().is_empty(), "taken once");
    assert!(r.rt.read(|t, now| t.penalty(now)).is_some());
}

#[test]
fn wake_ups_per_turn_with_ticks() {
    for (ticks, wakeups, cues) in [(0, 2, 2), (5, 7, 7), (10, 11, 11)] {
        let r = rig(settings(60, 10, ticks));
        r.rt.start().expect("starts");
        assert_eq!(r.run_until_idle(), wakeups, "ticks {ticks}");
        assert_eq!(r.sounder.played().len(), cues, "ticks {ticks}");
    }
}

#[test]
fn the_warning_and_the_ten_second_tick_never_double_beep() {
    let r = rig(settings(60, 10, 10));
    r.rt.start().expect("starts");
    r.run_until_idle();
    let played = r.sounder.played();
    assert_eq!(played[0], Cue::Warning);
    assert_eq!(played.iter().filter(|c| **c == Cue::Tick).count(), 9);
    assert_eq!(played.last(), Some(&Cue::TimeUp));
    let log = r.rt.take_delivered();
    assert_eq!(log.len(), 12, "the tick is still delivered, silently");
    assert_eq!((log[1].event.alert, log[1].cue), (Alert::Tick(10), None));
}

#[test]
fn a_very_late_pump_skips_stale_ticks_and_sounds_only_the_alarm() {
    let r = rig(settings(60, 10, 5));
    r.rt.start().expect("starts");
    r.clock.advance(s(70)); // the machine slept through the end of the turn
    let delivered = r.rt.pump();
    assert_eq!(delivered.len(), 7, "every event is still delivered");
    assert_eq!(r.sounder.played(), [Cue::TimeUp]);
    assert_eq!(delivered[6].lateness(), s(10));
}

#[test]
fn a_slightly_late_tick_still_sounds() {
    let r = rig(settings(60, 0, 3));
    r.rt.start().expect("starts");
    r.clock.advance(ms(57_400));
    r.rt.pump();
    r.clock.advance(ms(700)); // tick 2 due at 58.0, seen at 58.1
    r.rt.pump();
    r.clock.advance(ms(1_500)); // tick 1 due at 59.0, seen at 59.6: stale
    r.rt.pump();
    assert_eq!(r.sounder.played(), [Cue::Tick, Cue::Tick]);
}

#[test]
fn a_warning_of_a_turn_already_over_is_silent_when_stale() {
    let r = rig(TimerSettings::default());
    r.rt.start().expect("starts");
    r.clock.advance(s(55));
    r.rt.end_turn().expect("ends"); // nobody pumped at 50 s
    let delivered = r.rt.pump();
    assert_eq!(delivered.len(), 1);
    assert_eq!(delivered[0].cue, None);
    // …but one only just due still sounds, even if the turn ended a moment later.
    r.clock.advance(s(50));
    r.rt.end_turn().expect("ends");
    r.clock.advance(ms(100));
    r.rt.pump();
    assert_eq!(r.sounder.played(), [Cue::Warning]);
}

#[test]
fn commands_go_through_the_runtime_and_settings_apply_next_turn() {
    let r = rig(TimerSettings::default());
    r.rt.toggle().expect("starts");
    r.clock.advance(s(20));
    r.rt.pause().expect("pauses");
    assert_eq!(r.rt.next_wake(), None, "no wake-ups while paused");
    r.clock.advance(s(100));
    r.rt.resume().expect("resumes");
    r.rt.set_settings(settings(30, 5, 0));
    assert_eq!(r.rt.next_wake(), Some(r.clock.now() + s(30)));
    let end = r.rt.end_turn().expect("ends");
    assert_eq!(end.time, s(20));
    assert_eq!(r.rt.next_wake(), Some(r.clock.now() + s(25)));
    assert_eq!(r.rt.read(|t, now| t.remaining(now)), s(30));
    r.rt.reset();
    assert_eq!(r.rt.next_wake(), None);
    assert!(r.rt.start().is_ok());
    assert!(r.rt.start().is_err());
    assert_eq!(r.rt.wakeups(), 0, "a manual runtime has no worker");
}

#[test]
fn volume_and_mute_go_to_the_sounder() {
    let r = rig(settings(10, 5, 0));
    r.rt.sounder().set_muted(true);
    r.rt.start().expect("starts");
    r.run_until_idle();
    assert!(r.sounder.played().is_empty());
    assert_eq!(
        r.rt.take_delivered().len(),
        2,
        "still delivered for the screen"
    );
    r.rt.sounder().set_volume(1.7);
    assert_eq!(r.sounder.volume(), 1.0);
    r.rt.sounder().set_volume(f32::NAN);
    assert_eq!(r.sounder.volume(), 0.0);
}

#[test]
fn the_event_log_keeps_the_latest_256() {
    let r = rig(TimerSettings {
        turn: ms(10),
        warning: Duration::ZERO,
        ticks: 0,
    });
    r.rt.start().expect("starts");
    for _ in 0..300 {
        r.clock.advance(ms(10));
        r.rt.pump();
        r.rt.end_turn().expect("ends");
    }
    let log = r.rt.take_delivered();
    assert_eq!(log.len(), 256);
    assert!(log.windows(2).all(|w| w[0].event.turn < w[1].event.turn));
    assert_eq!(log[255].event.turn, 300);
}

#[test]
fn the_worker_thread_delivers_events_on_the_real_clock_by_itself() {
    let clock: Arc<dyn Clock> = Arc::new(SystemClock::new());
    let sounder = Arc::new(RecordingSounder::default());
    let timer = Timer::new(
        ["A", "B"],
        TimerSettings {
            turn: ms(300),
            warning: ms(100),
            ticks: 0,
        },
    )
    .expect("players");
    let (tx, rx) = mpsc::channel();
    let notify = move || {
        let _ = tx.send(());
    };
    let rt = TimerRuntime::spawn(timer, clock, sounder.clone(), notify).expect("a thread");
    rt.start().expect("starts");
    let mut log = Vec::new();
    while log.len() < 2 {
        // Generous: this checks that it happens, not how fast.
        rx.recv_timeout(s(30)).expect("the worker notified");
        log.extend(rt.take_delivered());
    }
    let events: Vec<Alert> = log.iter().map(|d| d.event.alert).collect();
    assert_eq!(events, [Alert::Warning, Alert::TimeUp]);
    assert!(log.iter().all(|d| d.at >= d.event.due), "never early");
    assert_eq!(log[1].event.due - log[0].event.due, ms(100));
    assert_eq!(sounder.played(), [Cue::Warning, Cue::TimeUp]);
    assert!(rt.wakeups() >= 2);
    // A command wakes it: the next player's turn is scheduled and delivered too.
    rt.end_turn().expect("ends");
    rx.recv_timeout(s(30)).expect("notified again");
    let next = rt.take_delivered();
    assert_eq!(next[0].event.player, 1);
    drop(rt); // joins the worker
}

#[test]
fn a_chess_clock_sounds_at_10_s_left_in_the_bank_and_once_at_the_flag() {
    use rummikub_companion::timer::{ChessClock, TimerMode};
    let r = rig(TimerSettings::default());
    r.rt.set_mode(TimerMode::ChessClock(ChessClock {
        bank: s(90),
        increment: s(5),
    }));
    r.rt.start().expect("starts");
    r.clock.advance(s(30));
    r.rt.end_turn().expect("ends"); // A: 65 s in the bank
    assert_eq!(r.rt.read(|t, now| t.bank(0, now)), Some(s(65)));
    assert_eq!(
        r.run_until_idle(),
        2,
        "B: the warning at 80 s, the flag at 90 s"
    );
    assert_eq!(r.sounder.played(), [Cue::Warning, Cue::TimeUp]);
    assert_eq!(r.clock.now(), s(1_120));
    assert_eq!(r.rt.read(|t, now| t.flagged(now)), [1]);
    assert_eq!(r.rt.read(|t, now| t.penalty(now)), None);
    r.clock.advance(s(10));
    r.rt.end_turn().expect("ends"); // C plays; B stays flagged
    r.clock.advance(s(80));
    assert_eq!(r.rt.pump().len(), 1, "C's warning");
    r.clock.advance(s(9));
    r.rt.end_turn().expect("ends"); // C: 1 + 5
    assert_eq!(r.rt.read(|t, now| t.bank(2, now)), Some(s(6)));
    // A's turn, then B's starts with an empty bank: no second alarm.
    r.clock.advance(s(1));
    r.rt.end_turn().expect("ends");
    assert_eq!(r.rt.next_wake(), None);
    assert_eq!(
        r.sounder.played(),
        [Cue::Warning, Cue::TimeUp, Cue::Warning]
    );
}
