//! A club night's host survives SIGKILL: `event serve` (the built binary) hosts a 24-player,
//! three-round night whose every game is ended, entered and confirmed over HTTP by the tables'
//! phones (each holding its seat with its own device token), while another thread kills the
//! host with SIGKILL at random moments and starts it again. Every game a phone was told is
//! saved (the last confirmation answered `saved`) is on disk after every kill — in the tables
//! file while its round plays, in the event once the table is done — with the racks it was
//! given; the seats stay with their phones across the kills; the rounds are seated with `event
//! seat` from another process, handed to the host while it runs.

use std::collections::HashMap;
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rummikub_companion::event::seating::Rng;
use rummikub_companion::store::Store;
use serde_json::{Value, json};

use crate::util::phones::request_within;

const KILLS: usize = 20;

/// Each table's games, as the seats' counted values, by (round, table).
type Games = HashMap<(u32, u32), Vec<Vec<i64>>>;
/// A failure bound only: the host is back within moments of a restart.
const PATIENCE: Duration = Duration::from_secs(20);

fn binary(data: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rummikub-companion"));
    command
        .env("RUMMIKUB_COMPANION_DATA", data)
        .env("LC_ALL", "C")
        .arg("event");
    command
}

fn run(data: &Path, args: &[&str]) -> (i32, String) {
    let output = binary(data).args(args).output().expect("binary runs");
    (
        output.status.code().expect("exit code"),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn start_host(data: &Path, port: u16) -> Child {
    binary(data)
        .args(["serve", "--bind", "127.0.0.1", "--port", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the host starts")
}

/// A request, or `None` while the host is down or was killed during it.
fn ask(addr: SocketAddr, method: &str, path: &str, body: &str) -> Option<(u16, Value)> {
    let reply = request_within(addr, method, path, body.as_bytes(), Duration::from_secs(5)).ok()?;
    let value = serde_json::from_str(&reply.body).ok()?;
    Some((reply.status, value))
}

/// The TV's view once the host answers.
fn state(addr: SocketAddr) -> Value {
    let started = Instant::now();
    loop {
        if let Some((200, v)) = ask(addr, "GET", "/tv/state", "") {
            return v;
        }
        assert!(started.elapsed() < PATIENCE, "the host did not come back");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Table `t`'s key from its link on the TV page.
fn key(addr: SocketAddr, t: u32) -> Option<String> {
    let reply = request_within(addr, "GET", "/tv", b"", Duration::from_secs(5)).ok()?;
    let marker = format!("/table/{t}?key=");
    let at = reply.body.find(&marker)? + marker.len();
    Some(
        reply.body[at..]
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect(),
    )
}

/// Each table's games on disk: the event's result once the table is done, else the tables
/// file's confirmed games of the current round; each game as the seats' counted values.
fn on_disk(data: &Path) -> Games {
    let reader = Store::open_reader(data);
    let id = reader.latest_event().expect("reads").expect("an event");
    let loaded = reader.load_event(&id).expect("the event file loads");
    assert!(loaded.damage.is_none(), "read without recovery");
    let event = loaded.event;
    let live = reader.load_event_live(&id).unwrap_or_default();
    let mut out = HashMap::new();
    for round in event.rounds() {
        for table in &round.tables {
            let rules = event.table_rules(table);
            let games = match table.result() {
                Some(result) => result.games.clone(),
                None if live.round == round.number => live
                    .tables
                    .get(&table.number)
                    .map(|t| t.games.clone())
                    .unwrap_or_default(),
                None => Vec::new(),
            };
            let values = games
                .iter()
                .map(|g| g.hands.iter().map(|h| h.counted_value(&rules)).collect())
                .collect();
            out.insert((round.number, table.number), values);
        }
    }
    out
}

#[test]
fn sigkill_of_the_host_loses_no_game_its_phones_were_told_is_saved() {
    let dir = tempfile::tempdir().expect("temp");
    let data: PathBuf = dir.path().join("data");
    let names: Vec<String> = (1..=24).map(|i| format!("P{i:02}")).collect();
    let players = dir.path().join("players.txt");
    std::fs::write(&players, names.join("\n")).expect("write");
    let games = 2usize;
    let (code, err) = run(
        &data,
        &[
            "new",
            "Host kill night",
            "--players",
            &players.to_string_lossy(),
            "--games",
            &games.to_string(),
            "--seed",
            "5",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(run(&data, &["seat"]).0, 0);

    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let addr: SocketAddr = ([127, 0, 0, 1], port).into();
    let host = Arc::new(Mutex::new(start_host(&data, port)));
    // Told saved: (round, table) → the games' values, in order.
    let told: Arc<Mutex<Games>> = Arc::default();
    let done = Arc::new(AtomicBool::new(false));
    let kills = Arc::new(AtomicUsize::new(0));

    let killer = {
        let (host, told, done, kills, data) = (
            Arc::clone(&host),
            Arc::clone(&told),
            Arc::clone(&done),
            Arc::clone(&kills),
            data.clone(),
        );
        std::thread::spawn(move || {
            let mut rng = Rng::new(77);
            while !done.load(Ordering::SeqCst) && kills.load(Ordering::SeqCst) < KILLS {
                std::thread::sleep(Duration::from_millis(20 + rng.below(120)));
                let mut child = host.lock().expect("host");
                // What the phones were told before the kill, then the kill itself: anything
                // told after this snapshot may be in flight.
                let before = told.lock().expect("told").clone();
                child.kill().expect("SIGKILL");
                child.wait().expect("reaped");
                kills.fetch_add(1, Ordering::SeqCst);
                let disk = on_disk(&data);
                for (at, given) in &before {
                    let kept = disk.get(at).cloned().unwrap_or_default();
                    assert!(
                        kept.len() >= given.len() && kept[..given.len()] == given[..],
                        "{at:?}: told saved {given:?}, on disk {kept:?}"
                    );
                }
                *child = start_host(&data, port);
            }
        })
    };

    let mut rng = Rng::new(2026);
    for round in 1..=3u32 {
        if round > 1 {
            let started = Instant::now();
            while run(&data, &["seat"]).0 != 0 {
                // The host may be down at that moment (killed): ask again.
                assert!(
                    started.elapsed() < PATIENCE,
                    "round {round} could not be seated"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        let started = Instant::now();
        while state(addr)["round"] != json!(round) {
            assert!(
                started.elapsed() < PATIENCE,
                "the host did not see round {round}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        for t in 1..=6u32 {
            for g in 0..games {
                let values: Vec<i64> = {
                    let out = rng.below(4) as usize;
                    (0..4)
                        .map(|s| {
                            if s == out {
                                0
                            } else {
                                1 + rng.below(60) as i64
                            }
                        })
                        .collect()
                };
                let started = Instant::now();
                loop {
                    assert!(
                        started.elapsed() < PATIENCE * 3,
                        "round {round} table {t} game {g}"
                    );
                    let view = state(addr);
                    let done_now = view["tables"][t as usize - 1]["games_done"]
                        .as_u64()
                        .unwrap_or(0) as usize;
                    if view["round"] == json!(round) && done_now > g {
                        // The last confirmation landed, but its answer was lost in the kill.
                        let mut told = told.lock().expect("told");
                        let list = told.entry((round, t)).or_default();
                        if list.len() == g {
                            list.push(values.clone());
                        }
                        break;
                    }
                    let Some(k) = key(addr, t) else { continue };
                    let path = format!("/table/{t}/act?lang=en");
                    let send = |seat: usize, body: Value| {
                        let mut body = body;
                        body["key"] = k.clone().into();
                        body["device"] = format!("round{round}-table{t}-seat{seat}-device").into();
                        ask(addr, "POST", &path, &body.to_string())
                    };
                    // Each phone holds its seat (again, after a kill: the same token).
                    let mut ok = (0..4).all(|seat| {
                        send(seat, json!({"action": "claim", "seat": seat}))
                            .is_some_and(|(s, _)| s == 200)
                    });
                    let out = values.iter().position(|&v| v == 0).unwrap_or(0);
                    // The one who went out ends the game (already over after a kill: fine).
                    ok &= send(out, json!({"action": "game_over", "went_out": true})).is_some();
                    for (seat, v) in values.iter().enumerate().filter(|&(s, _)| s != out) {
                        ok &= send(seat, json!({"action": "rack", "rack": v.to_string()}))
                            .is_some_and(|(s, _)| s == 200);
                    }
                    let shown = state(addr)["tables"][t as usize - 1]["settling"].clone();
                    let mut last = None;
                    for seat in 0..4 {
                        let confirm = json!({
                            "action": "confirm",
                            "game": shown["game"],
                            "digest": shown["digest"],
                        });
                        last = send(seat, confirm);
                        ok &= last.as_ref().is_some_and(|(s, _)| *s == 200);
                    }
                    if ok && last.is_some_and(|(_, v)| v["saved"] == json!(true)) {
                        told.lock()
                            .expect("told")
                            .entry((round, t))
                            .or_default()
                            .push(values.clone());
                        break;
                    }
                }
            }
        }
    }
    done.store(true, Ordering::SeqCst);
    killer.join().expect("the killer's checks held");
    let mut child = host.lock().expect("host");
    let _ = child.kill();
    let _ = child.wait();

    let disk = on_disk(&data);
    let told = told.lock().expect("told");
    for round in 1..=3u32 {
        for t in 1..=6u32 {
            assert_eq!(
                disk.get(&(round, t)),
                told.get(&(round, t)),
                "round {round}, table {t}: exactly the games confirmed"
            );
        }
    }
    let reader = Store::open_reader(&data);
    let id = reader.latest_event().expect("reads").expect("an event");
    let event = reader.load_event(&id).expect("loads").event;
    assert!(event.rounds().iter().all(|r| r.is_complete()));
    assert_eq!(event.rounds().len(), 3);
    eprintln!(
        "{} kills of the host over {} confirmed games",
        kills.load(Ordering::SeqCst),
        told.values().map(Vec::len).sum::<usize>()
    );
    assert!(
        kills.load(Ordering::SeqCst) >= 10,
        "the host was killed during the night"
    );
}
