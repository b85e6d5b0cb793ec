//! The evening survives a restart: the app saves the timer's table, the open sheet and a draft
//! after every change, and `status --json` reads back exactly what the window had — also when
//! the app is killed (SIGKILL) in the middle of an evening.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use rummikub_companion::runtime::ManualClock;
use rummikub_companion::score::{Game, Hand};
use rummikub_companion::sound::RecordingSounder;
use rummikub_companion::ui::app::{Action, SheetRequest, TimerCommand};
use rummikub_companion::ui::{App, AppDeps};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_rummikub-companion");

fn open_app(data: &Path, clock: &Arc<ManualClock>) -> App {
    let deps = AppDeps::manual(clock.clone(), Arc::new(RecordingSounder::default()), data);
    App::headless(deps)
}

fn status(data: &Path) -> (i32, Value, String) {
    let out = Command::new(BIN)
        .env("LC_ALL", "C") // English output, whatever the machine's locale
        .args(["status", "--json"])
        .env("RUMMIKUB_COMPANION_DATA", data)
        .output()
        .expect("status runs");
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (
        out.status.code().unwrap_or(-1),
        json,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn status_after_a_restart_matches_the_evening_before_it() {
    let data = tempfile::tempdir().expect("temp dir");
    let clock = Arc::new(ManualClock::default());
    let ctx = egui::Context::default();
    let mut app = open_app(data.path(), &clock);
    let names: Vec<String> = ["루미", "큐브", "퍼니"].map(String::from).to_vec();
    app.apply(&ctx, Action::Timer(TimerCommand::SetPlayers(names)));
    app.apply(
        &ctx,
        Action::Sheet(SheetRequest::New {
            rounds: Some(1),
            target: None,
        }),
    );
    let game = Game::new([0, 7, 12].map(Hand::of_value).to_vec());
    app.apply(&ctx, Action::Sheet(SheetRequest::SaveGame(None, game)));
    for secs in [0.0, 12.5, 3.0, 40.0] {
        clock.advance(Duration::from_secs_f64(secs));
        app.apply(&ctx, Action::Timer(TimerCommand::Primary));
    }
    clock.advance(Duration::from_secs(61));
    app.apply(&ctx, Action::Timer(TimerCommand::Primary)); // a time-out
    clock.advance(Duration::from_secs(5));
    let before = app
        .timer()
        .read(|t, _| (t.stats().to_vec(), t.current_player()));
    let totals = app.sheet().expect("sheet").standings().totals;
    drop(app);

    let (code, json, stderr) = status(data.path());
    assert_eq!(code, 0, "{stderr}");
    let timer = &json["timer"];
    assert_eq!(timer["current"], "큐브", "{json}");
    assert_eq!(timer["current_seat"], before.1);
    assert_eq!(timer["phase"], "running", "saved while the turn ran");
    let players = timer["players"].as_array().expect("players");
    assert_eq!(players.len(), 3);
    for (p, stats) in players.iter().zip(&before.0) {
        assert_eq!(p["turns"], stats.turns);
        assert_eq!(p["timeouts"], stats.timeouts);
        assert_eq!(p["total_seconds"], stats.total.as_secs_f64());
    }
    assert_eq!(players[1]["name"], "큐브");
    assert_eq!(players[1]["total_seconds"], 3.0);
    assert_eq!(
        players[0]["total_seconds"], 73.5,
        "12.5 s, then a 61 s time-out"
    );
    assert_eq!(players[0]["timeouts"], 1);
    let sheet = &json["sheet"];
    assert_eq!(sheet["games"], 1);
    assert_eq!(sheet["totals"], serde_json::json!(totals));
    assert_eq!(sheet["final_rule"], "total");

    // The same evening for a person, in each language.
    let text = |lang: &str| {
        let out = Command::new(BIN)
            .args(["status", "--lang", lang])
            .env("RUMMIKUB_COMPANION_DATA", data.path())
            .output()
            .expect("status runs");
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let en = text("en");
    assert!(en.starts_with("timer: running · 큐브's turn\n"), "{en}");
    assert!(
        en.contains("  루미: 2 turns, 73.5 s, 1 time-outs\n"),
        "{en}"
    );
    assert!(en.contains(": 1 games, final winner by total\n"), "{en}");
    let ko = text("ko");
    assert!(ko.starts_with("타이머: 진행 중 · 큐브의 차례\n"), "{ko}");
    assert!(
        ko.contains("  루미: 턴 2번, 73.5초, 시간 초과 1번\n"),
        "{ko}"
    );
    assert!(
        ko.contains(": 게임 1개, 최종 우승은 최고 합계(으)로\n"),
        "{ko}"
    );
    assert!(ko.contains("  루미: +19 (1위)\n"), "{ko}");
    assert!(en.contains("  루미: +19 (rank 1)\n"), "{en}");

    // The app again: the same table, the turn paused where it was.
    let clock = Arc::new(ManualClock::default());
    let app = open_app(data.path(), &clock);
    let after = app
        .timer()
        .read(|t, _| (t.stats().to_vec(), t.current_player()));
    assert_eq!(after, before);
    assert_eq!(
        app.timer().read(|t, _| t.phase()),
        rummikub_companion::timer::Phase::Paused
    );
}

#[test]
fn status_with_no_data_folder_is_bad_input() {
    let data = tempfile::tempdir().expect("temp dir");
    let missing = data.path().join("nowhere");
    let (code, _, stderr) = status(&missing);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot be read"), "{stderr}");
    assert!(!missing.exists(), "status creates nothing");
}

const CHILD_ENV: &str = "RUMMIKUB_EVENING_KILL_FOLDER";
const ENDED: &str = "evening-kill-test-ended";

/// The child: ends turns in a loop (each saved at once) until it is killed.
fn child_ends_turns_until_killed(folder: &Path) {
    let clock = Arc::new(ManualClock::default());
    let ctx = egui::Context::default();
    let mut app = open_app(folder, &clock);
    let mut n: u32 = app
        .timer()
        .read(|t, _| t.stats().iter().map(|s| s.turns).sum());
    loop {
        clock.advance(Duration::from_millis(700));
        app.apply(&ctx, Action::Timer(TimerCommand::Primary));
        let ended: u32 = app
            .timer()
            .read(|t, _| t.stats().iter().map(|s| s.turns).sum());
        if ended > n {
            n = ended;
            println!("{ENDED} {n}");
        }
    }
}

#[test]
fn sigkill_in_the_middle_of_an_evening_loses_no_saved_turn() {
    if let Some(folder) = std::env::var_os(CHILD_ENV) {
        child_ends_turns_until_killed(Path::new(&folder));
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let exe = std::env::current_exe().expect("test binary");
    let mut last = 0_u32;
    for round in 0..12_u64 {
        let mut child = Command::new(&exe)
            .args([
                "--exact",
                "evening::sigkill_in_the_middle_of_an_evening_loses_no_saved_turn",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("child starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut lines = BufReader::new(stdout).lines();
        // Let it end a few turns (a different number each round), then kill it mid-save.
        let wanted = 2 + round % 5;
        let mut seen = 0;
        let mut printed = last;
        let number = |line: &str| -> Option<u32> {
            line.contains(ENDED)
                .then(|| line.rsplit(ENDED).next())
                .flatten()
                .and_then(|n| n.trim().parse().ok())
        };
        while seen < wanted {
            match lines.next() {
                Some(Ok(line)) => {
                    if let Some(n) = number(&line) {
                        printed = n;
                        seen += 1;
                    }
                }
                _ => break,
            }
        }
        std::thread::sleep(Duration::from_millis(round % 4));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        // What it reported before it died.
        for line in lines.map_while(Result::ok) {
            if let Some(n) = number(&line) {
                printed = n;
            }
        }
        let (code, json, stderr) = status(dir.path());
        assert_eq!(code, 0, "round {round}: {stderr}");
        let turns: u64 = json["timer"]["players"]
            .as_array()
            .expect("players")
            .iter()
            .map(|p| p["turns"].as_u64().unwrap_or(0))
            .sum();
        assert!(
            turns >= u64::from(printed) && turns <= u64::from(printed) + 1,
            "round {round}: {turns} turns saved, {printed} reported"
        );
        assert!(!stderr.contains("set aside"), "no file damaged: {stderr}");
        last = u32::try_from(turns).unwrap_or(u32::MAX);
    }
    assert!(
        last >= 24,
        "the evening went on across 12 kills ({last} turns)"
    );
}
