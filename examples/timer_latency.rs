//! How late does the timer runtime deliver its events on the real clock, and how often does it
//! wake up? `cargo run --release --example timer_latency [TURNS]`
//!
//! 1. Wake-ups per 60-second turn, counted exactly by replaying the worker's schedule on a
//!    manual clock.
//! 2. TURNS (default 10) turns of 3 s with a warning at 1 s left, driven by the same worker
//!    thread the app uses (`TimerRuntime::spawn` on `SystemClock`), with sound if the machine
//!    has an output: for each event, how long after its due time the worker handled it, and
//!    how long until the notify callback (the GUI's repaint request) had run.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rummikub_companion::runtime::{Clock, ManualClock, SystemClock, TimerRuntime};
use rummikub_companion::sound::{RecordingSounder, open_or_silent};
use rummikub_companion::timer::{Alert, Timer, TimerSettings};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let turns: usize = match std::env::args().nth(1) {
        Some(arg) => arg.parse()?,
        None => 10,
    };
    println!("wake-ups per 60 s turn (exact, manual clock):");
    for (warning, ticks) in [(10, 0), (10, 5), (10, 10)] {
        let settings = TimerSettings {
            turn: Duration::from_secs(60),
            warning: Duration::from_secs(warning),
            ticks,
        };
        println!(
            "  warning {warning} s, ticks {ticks:>2}: {} wake-ups",
            wakeups_per_turn(settings)?
        );
    }
    real_clock(turns)
}

/// Replays the worker: sleep until `next_wake`, pump; counts the wake-ups of one turn.
fn wakeups_per_turn(settings: TimerSettings) -> Result<usize, Box<dyn std::error::Error>> {
    let clock = Arc::new(ManualClock::default());
    let timer = Timer::new(["A", "B"], settings)?;
    let rt = TimerRuntime::manual(timer, clock.clone(), Arc::new(RecordingSounder::default()));
    rt.start()?;
    let mut wakeups = 0;
    while let Some(due) = rt.next_wake() {
        clock.set(due);
        rt.pump();
        wakeups += 1;
    }
    Ok(wakeups)
}

fn real_clock(turns: usize) -> Result<(), Box<dyn std::error::Error>> {
    let (sounder, problem) = open_or_silent();
    match problem {
        Some(p) => println!("\nsound: silent ({p})"),
        None => println!("\nsound: default output"),
    }
    let settings = TimerSettings {
        turn: Duration::from_secs(3),
        warning: Duration::from_secs(1),
        ticks: 0,
    };
    let clock = Arc::new(SystemClock::new());
    let notified = Arc::new(Mutex::new(Vec::new()));
    let (tx, rx) = mpsc::channel();
    let notify = {
        let (clock, notified) = (Arc::clone(&clock), Arc::clone(&notified));
        move || {
            if let Ok(mut n) = notified.lock() {
                n.push(clock.now());
            }
            let _ = tx.send(());
        }
    };
    let timer = Timer::new(["A", "B", "C"], settings)?;
    let rt = TimerRuntime::spawn(timer, clock, sounder, notify)?;
    println!("{turns} turns of 3 s, warning at 1 s left, on the real clock:");
    rt.start()?;
    let mut late = Vec::new();
    let mut notify_late = Vec::new();
    for _ in 0..turns {
        let mut turn_over = false;
        while !turn_over {
            rx.recv_timeout(Duration::from_secs(30))?;
            let seen = notified.lock().map(|n| n.last().copied()).ok().flatten();
            for d in rt.take_delivered() {
                late.push(d.lateness());
                if let Some(seen) = seen {
                    notify_late.push(seen.saturating_sub(d.event.due));
                }
                println!(
                    "  turn {:>2} {:<8} due {:>9.3} s, handled {:>6.3} ms late",
                    d.event.turn,
                    format!("{:?}", d.event.alert),
                    d.event.due.as_secs_f64(),
                    d.lateness().as_secs_f64() * 1e3
                );
                turn_over |= d.event.alert == Alert::TimeUp;
            }
        }
        rt.end_turn()?;
    }
    report("handled by the worker", &mut late);
    report("notify callback run", &mut notify_late);
    println!(
        "worker wake-ups: {} for {turns} turns (each turn: warning + time-up, plus one per command)",
        rt.wakeups()
    );
    Ok(())
}

fn report(what: &str, lateness: &mut [Duration]) {
    lateness.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let (Some(first), Some(last)) = (lateness.first(), lateness.last()) else {
        return;
    };
    let median = lateness[lateness.len() / 2];
    println!(
        "{what}: {} events, lateness min {:.3} ms, median {:.3} ms, worst {:.3} ms",
        lateness.len(),
        ms(*first),
        ms(median),
        ms(*last)
    );
}
