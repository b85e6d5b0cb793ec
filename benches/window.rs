//! The window as a table feels it, with no display (egui_kittest drives the real `App`):
//!
//! 1. **Typing a game**: the add-game form open, 40 keys typed into a field one frame each; the
//!    time of each frame (`Harness::step`: the app's `ui`, everything it does before egui
//!    paints). Run twice: on a normal disk, and on a disk whose every fsync takes 20 ms
//!    (`benches/slow_fsync.c` through `LD_PRELOAD`; built with the system's `cc`, skipped with a
//!    line saying so when there is none). Median, p99 and max.
//! 2. **The first frame with 3,000 saved sheets**: the time from creating the app to the end of
//!    its first frame, on a data folder of 3,000 sheets (and on an empty one).
//!
//! Everything goes through the window's own buttons and keys, so the same program measures any
//! version of the app. `cargo bench -p rummikub-companion-benches --bench window`

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rummikub_companion::runtime::ManualClock;
use rummikub_companion::sound::SilentSounder;
use rummikub_companion::ui::{App, AppDeps};

const CHILD: &str = "RUMMIKUB_WINDOW_BENCH_CHILD";

fn app(data: &Path) -> Harness<'static, App> {
    let deps = AppDeps::manual(
        Arc::new(ManualClock::default()),
        Arc::new(SilentSounder::default()),
        data,
    );
    Harness::builder()
        .with_size([1100.0, 900.0])
        .build_eframe(move |cc| App::new(cc, deps))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn report(what: &str, mut samples: Vec<Duration>) {
    samples.sort_unstable();
    let pick = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    println!(
        "{what} ({} frames): median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        samples.len(),
        ms(pick(0.5)),
        ms(pick(0.99)),
        ms(pick(1.0))
    );
}

/// Types 40 keys into the first field of a new game's form, one frame per key.
fn typing(label: &str) {
    let data = tempfile::tempdir().expect("data folder");
    let mut h = app(data.path());
    h.run();
    h.get_by_label("Score sheet").click();
    h.run();
    h.get_by_label("New sheet").click();
    h.run();
    h.get_by_label("Add game").click();
    h.run();
    let mut samples = Vec::new();
    for c in "R5 K7 J B12 O3 K1 ".chars().cycle().take(40) {
        h.event(egui::Event::Text(c.to_string()));
        let started = Instant::now();
        h.step();
        samples.push(started.elapsed());
    }
    report(&format!("typing a game, {label}"), samples);
}

/// A data folder with `n` sheets of 4 players and 8 games, as the app writes them.
fn sheets(n: usize) -> tempfile::TempDir {
    use chrono::TimeZone;
    use rummikub_companion::rules::RuleSet;
    use rummikub_companion::score::{Game, Hand, Players, Sheet};
    use rummikub_companion::store::Store;
    let dir = tempfile::tempdir().expect("data folder");
    let store = Store::open(dir.path()).expect("store");
    let start = chrono::Utc
        .with_ymd_and_hms(2024, 1, 1, 19, 0, 0)
        .single()
        .expect("a time");
    for i in 0..n {
        let created = start + chrono::Duration::hours(i as i64);
        let players = Players::new(["Ann", "Bo", "Cy", "Dee"]).expect("players");
        let mut sheet = Sheet::new(players, RuleSet::default(), None, created).expect("sheet");
        for g in 0..8u32 {
            let left = [0, 3 + g, 7 + (i as u32 % 11), 12];
            let hands = left.iter().map(|&v| Hand::of_value(v)).collect();
            sheet.add_game(Game::new(hands)).expect("game");
        }
        let id = store.new_sheet_id(created);
        store.save_sheet(&id, &sheet).expect("saved");
    }
    dir
}

fn first_frame(label: &str, data: &Path, runs: usize) {
    let mut samples = Vec::new();
    for _ in 0..runs {
        let started = Instant::now();
        let mut h = app(data);
        h.step();
        samples.push(started.elapsed());
        drop(h);
    }
    report(&format!("first frame, {label}"), samples);
}

fn main() {
    if std::env::var_os(CHILD).is_some() {
        typing("every fsync 20 ms");
        return;
    }
    typing("normal disk");
    // The same on a slow disk, in a child process with the shim preloaded.
    let shim = std::env::temp_dir().join("rummikub-slow-fsync.so");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("slow_fsync.c");
    let built = std::process::Command::new("cc")
        .args(["-shared", "-fPIC", "-O2", "-o"])
        .arg(&shim)
        .arg(&source)
        .arg("-ldl")
        .status()
        .is_ok_and(|s| s.success());
    if built {
        let exe = std::env::current_exe().expect("this benchmark");
        let out = std::process::Command::new(exe)
            .env(CHILD, "1")
            .env("LD_PRELOAD", &shim)
            .output()
            .expect("the child runs");
        print!("{}", String::from_utf8_lossy(&out.stdout));
    } else {
        println!("typing a game, every fsync 20 ms: not measured (no C compiler for the shim)");
    }
    let empty = tempfile::tempdir().expect("data folder");
    first_frame("no saved sheets", empty.path(), 5);
    let many = sheets(3_000);
    first_frame("3,000 saved sheets", many.path(), 5);
}
