//! A club night survives SIGKILL: `event result` (the built binary) killed at random moments of
//! its run, 30 times over a 24-player night of three rounds. Every result the command confirmed
//! (exit 0, "recorded" printed) is still there afterwards, with the games it was given, and the
//! event file reads cleanly (no backup needed) after every kill.

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rummikub_companion::event::seating::Rng;
use rummikub_companion::event::{Event, Table};
use rummikub_companion::store::Store;

const KILLS: usize = 30;

fn binary(data: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rummikub-companion"));
    command
        .env("RUMMIKUB_COMPANION_DATA", data)
        .env("LC_ALL", "C")
        .arg("event");
    command
}

fn run(data: &Path, args: &[&str]) -> (i32, String, String) {
    let output = binary(data).args(args).output().expect("binary runs");
    (
        output.status.code().expect("exit code"),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The event as on disk; the main file must read (no recovery from its backup).
fn load(data: &Path) -> Event {
    let reader = Store::open_reader(data);
    let id = reader
        .latest_event()
        .expect("the events folder reads")
        .expect("an event");
    let loaded = reader.load_event(&id).expect("the event file loads");
    assert!(
        loaded.damage.is_none(),
        "the file read without recovery: {:?}",
        loaded.damage
    );
    loaded.event
}

/// A table's games as the CSV `event result` reads: one player goes out each game.
fn games_csv(names: &[String], rng: &mut Rng, games: u32) -> (String, Vec<Vec<u32>>) {
    let mut text = format!("game,{}\n", names.join(","));
    let mut values = Vec::new();
    for g in 1..=games {
        let out = rng.below(names.len() as u64) as usize;
        let row: Vec<u32> = (0..names.len())
            .map(|i| {
                if i == out {
                    0
                } else {
                    1 + rng.below(60) as u32
                }
            })
            .collect();
        let cells: Vec<String> = row.iter().map(u32::to_string).collect();
        text.push_str(&format!("{g},{}\n", cells.join(",")));
        values.push(row);
    }
    (text, values)
}

/// What a recorded table holds, as remaining values per game in the CSV's column order.
fn recorded(event: &Event, table: &Table, names: &[String]) -> Option<Vec<Vec<u32>>> {
    let result = table.result()?;
    let seats = event.seat_names(table);
    let rules = event.table_rules(table);
    Some(
        result
            .games
            .iter()
            .map(|game| {
                names
                    .iter()
                    .map(|n| {
                        let seat = seats.iter().position(|s| s == n).expect("seated");
                        game.hands[seat].counted_value(&rules) as u32
                    })
                    .collect()
            })
            .collect(),
    )
}

#[test]
fn sigkill_during_event_result_loses_no_confirmed_result() {
    let dir = tempfile::tempdir().expect("temp");
    let data = dir.path().join("data");
    let names: Vec<String> = (1..=24).map(|i| format!("P{i:02}")).collect();
    let players = dir.path().join("players.txt");
    std::fs::write(&players, names.join("\n")).expect("write");
    let games = 2;
    let (code, _, err) = run(
        &data,
        &[
            "new",
            "Kill night",
            "--players",
            &players.to_string_lossy(),
            "--games",
            &games.to_string(),
            "--seed",
            "99",
        ],
    );
    assert_eq!(code, 0, "{err}");

    let mut rng = Rng::new(2026);
    // Confirmed results: (round, table) → the values given.
    let mut confirmed: HashMap<(u32, u32), Vec<Vec<u32>>> = HashMap::new();
    let mut kills = 0;
    let mut killed_running = 0;
    let mut landed_anyway = 0;
    let mut run_time = Duration::from_millis(30);
    let mut last_run = Duration::ZERO;
    for round in 1..=3u32 {
        let seating = Instant::now();
        let (code, _, err) = run(&data, &["seat"]);
        assert_eq!(code, 0, "round {round}: {err}");
        if round == 1 {
            // A run like `event result`'s: start, load, apply, save.
            run_time = seating.elapsed();
        }
        let event = load(&data);
        let tables = event.rounds()[round as usize - 1].tables.clone();
        assert_eq!(tables.len(), 6);
        for table in &tables {
            let seated = event.seat_names(table);
            // Columns in another order than the seats: the command maps them.
            let mut columns = seated.clone();
            columns.reverse();
            let (csv, values) = games_csv(&columns, &mut rng, games);
            let file = dir.path().join(format!("r{round}t{}.csv", table.number));
            std::fs::write(&file, csv).expect("write");
            let file = file.to_string_lossy().into_owned();
            let args = ["result", "--table", &table.number.to_string(), &file];
            loop {
                let mut child = binary(&data)
                    .args(args)
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("spawns");
                let started = Instant::now();
                let kill = kills < KILLS;
                if kill {
                    // Anywhere from the start to a little past a normal run's end.
                    let span = (run_time.as_micros() as u64 * 12 / 10).max(1);
                    std::thread::sleep(Duration::from_micros(rng.below(span)));
                    if child.try_wait().expect("wait").is_none() {
                        killed_running += 1;
                    }
                    child.kill().expect("SIGKILL");
                    kills += 1;
                }
                let output = child.wait_with_output().expect("reaped");
                let stdout = String::from_utf8_lossy(&output.stdout);
                if output.status.code() == Some(0) && stdout.contains("result recorded") {
                    if !kill {
                        last_run = started.elapsed();
                    }
                    confirmed.insert((round, table.number), values.clone());
                }
                // After every run, killed or not: the file reads, and every confirmed result
                // is there with its games.
                let now = load(&data);
                for (&(r, t), given) in &confirmed {
                    let at = &now.rounds()[r as usize - 1].tables[t as usize - 1];
                    let cols: Vec<String> = {
                        let mut c = now.seat_names(at);
                        c.reverse();
                        c
                    };
                    assert_eq!(
                        recorded(&now, at, &cols).as_ref(),
                        Some(given),
                        "round {r}, table {t} confirmed and kept"
                    );
                }
                let here = &now.rounds()[round as usize - 1].tables[table.number as usize - 1];
                if here.is_finished() {
                    if let std::collections::hash_map::Entry::Vacant(slot) =
                        confirmed.entry((round, table.number))
                    {
                        // Killed after the rename, before it could say so: on disk all the
                        // same, and exactly what was given.
                        landed_anyway += 1;
                        assert_eq!(recorded(&now, here, &columns), Some(values.clone()));
                        slot.insert(values.clone());
                    }
                    assert_eq!(here.results.len(), 1, "one result, never two");
                    break;
                }
            }
        }
    }
    // The kills left go to corrections of round 3 (`--correct`): a correction is appended,
    // never overwrites; the results before it stay as they were.
    let mut corrections = 0;
    while kills < KILLS {
        let before = load(&data);
        let t = (kills % 6) as u32 + 1;
        let table = before.rounds()[2].tables[t as usize - 1].clone();
        let mut columns = before.seat_names(&table);
        columns.reverse();
        let (csv, values) = games_csv(&columns, &mut rng, games);
        let file = dir.path().join(format!("fix{kills}.csv"));
        std::fs::write(&file, csv).expect("write");
        let file = file.to_string_lossy().into_owned();
        let mut child = binary(&data)
            .args([
                "result",
                "--round",
                "3",
                "--table",
                &t.to_string(),
                "--correct",
                &file,
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawns");
        let span = (run_time.as_micros() as u64 * 12 / 10).max(1);
        std::thread::sleep(Duration::from_micros(rng.below(span)));
        if child.try_wait().expect("wait").is_none() {
            killed_running += 1;
        }
        child.kill().expect("SIGKILL");
        kills += 1;
        let output = child.wait_with_output().expect("reaped");
        let said = output.status.code() == Some(0)
            && String::from_utf8_lossy(&output.stdout).contains("result corrected");
        let after = load(&data);
        let now = &after.rounds()[2].tables[t as usize - 1];
        assert_eq!(
            now.results[..table.results.len()],
            table.results[..],
            "the results before a correction stay as they were"
        );
        if said {
            assert_eq!(
                now.results.len(),
                table.results.len() + 1,
                "a confirmed correction"
            );
        }
        if now.results.len() > table.results.len() {
            corrections += 1;
            assert_eq!(recorded(&after, now, &columns), Some(values.clone()));
            confirmed.insert((3, t), values);
        }
        for (&(r, t), given) in &confirmed {
            let at = &after.rounds()[r as usize - 1].tables[t as usize - 1];
            let mut cols = after.seat_names(at);
            cols.reverse();
            assert_eq!(recorded(&after, at, &cols).as_ref(), Some(given));
        }
    }
    assert_eq!(kills, KILLS);
    assert!(killed_running > 0, "some kills hit a running command");
    let event = load(&data);
    assert!(event.rounds().iter().all(|r| r.is_complete()));
    assert_eq!(confirmed.len(), 18);
    let (code, out, err) = run(&data, &["standings", "--json"]);
    assert_eq!(code, 0, "{err}");
    let standings: serde_json::Value = serde_json::from_str(&out).expect("json");
    let games_played: i64 = standings["standings"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["games"].as_i64().expect("games"))
        .sum();
    assert_eq!(games_played, 24 * 3 * games as i64);
    let span = run_time * 12 / 10;
    eprintln!(
        "{corrections} corrections landed; {kills} kills, {killed_running} while the command ran, {landed_anyway} results on disk \
         though the command was killed before saying so; kills spread over 0-{span:?} (1.2 x a \
         seating's run); an unkilled result took {last_run:?}"
    );
}
