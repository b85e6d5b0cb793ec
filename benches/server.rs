//! The phone server over loopback, measured as a table would feel it (a bounded custom
//! measurement, not criterion: one sample is a whole round trip through six pages).
//!
//! 1. **Tap → all six pages**: six SSE pages connected; a phone posts "end my turn"; the real
//!    evening (on a data folder in the temporary folder, with no window and so no frames at all)
//!    applies it, saves it to disk before answering, and publishes; the time until the new
//!    state has arrived on all six pages. 300 taps; median, p99 and max.
//! 2. **Idle CPU**: the six pages stay connected for 10 s with nothing happening; the CPU time
//!    of the server's thread and of the whole process, from each thread's
//!    `/proc/self/task/*/schedstat` (nanoseconds).
//!
//! `cargo bench -p rummikub-companion-benches --bench server`

#[path = "../tests/suite/util/phones.rs"]
mod phones;

use std::time::{Duration, Instant};

use phones::{Feed, Table, post};

const PAGES: usize = 6;
const TAPS: usize = 300;
const IDLE: Duration = Duration::from_secs(10);

fn main() {
    let table = Table::start(0);
    let mut feeds: Vec<Feed> = (0..PAGES)
        .map(|_| Feed::open(table.addr, &table.path("events")).expect("event stream"))
        .collect();
    for feed in &mut feeds {
        feed.next_state(Duration::from_secs(5))
            .expect("feed")
            .expect("first state");
    }

    // 1. Tap → state on all pages.
    let mut samples = Vec::with_capacity(TAPS);
    for _ in 0..TAPS {
        // A second apart on the evening's clock: each tap is a gesture of its own.
        table.clock.advance(Duration::from_secs(1));
        let (seat, turn) = table.timer(|t, _| (t.current_player(), t.turn_id().expect("a turn")));
        let body = format!(r#"{{"action":"end_turn","seat":{seat},"turn":{turn}}}"#);
        let started = Instant::now();
        let reply = post(table.addr, &table.path("action"), &body);
        assert_eq!(reply.status, 200, "{}", reply.body);
        for feed in &mut feeds {
            let state = feed
                .next_state(Duration::from_secs(5))
                .expect("feed")
                .expect("a pushed state");
            assert_eq!(state["turn"].as_u64(), Some(turn + 1));
        }
        samples.push(started.elapsed());
    }
    samples.sort_unstable();
    let pick = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    println!(
        "tap -> state on all {PAGES} pages over loopback ({TAPS} taps): median {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        ms(pick(0.5)),
        ms(pick(0.99)),
        ms(pick(1.0))
    );

    // 2. Idle CPU with the pages connected.
    let server_before = cpu(Some("phone-server"));
    let process_before = cpu(None);
    let wall = Instant::now();
    std::thread::sleep(IDLE);
    let wall = wall.elapsed();
    let server = cpu(Some("phone-server")).saturating_sub(server_before);
    let process = cpu(None).saturating_sub(process_before);
    println!(
        "idle with {PAGES} pages connected for {:.1} s: server thread {:.3} ms CPU ({:.4} %), whole process {:.3} ms CPU ({:.4} %)",
        wall.as_secs_f64(),
        ms(server),
        100.0 * server.as_secs_f64() / wall.as_secs_f64(),
        ms(process),
        100.0 * process.as_secs_f64() / wall.as_secs_f64(),
    );
    // The pages are still connected and get a push at once.
    table.clock.advance(Duration::from_secs(1));
    let (seat, turn) = table.timer(|t, _| (t.current_player(), t.turn_id().expect("a turn")));
    let body = format!(r#"{{"action":"end_turn","seat":{seat},"turn":{turn}}}"#);
    assert_eq!(post(table.addr, &table.path("action"), &body).status, 200);
    for feed in &mut feeds {
        assert!(
            feed.next_state(Duration::from_secs(5))
                .expect("feed")
                .is_some()
        );
    }
    drop(feeds);
    table.stop();
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Time on the CPU of one thread, in nanoseconds: the first field of its `schedstat`.
fn schedstat(task: &std::path::Path) -> Duration {
    std::fs::read_to_string(task.join("schedstat"))
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

/// CPU time of this process's threads named `name` (every thread when `None`).
fn cpu(name: Option<&str>) -> Duration {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Duration::ZERO;
    };
    tasks
        .flatten()
        .filter(|t| {
            name.is_none_or(|name| {
                std::fs::read_to_string(t.path().join("comm")).is_ok_and(|c| c.trim() == name)
            })
        })
        .map(|t| schedstat(&t.path()))
        .sum()
}
