//! A season across venues, as processes: three venues (data folders) each play and export an
//! event; a fourth keeps the season. Its standings equal a recomputation from each event's own
//! standings; a duplicate import counts once, a newer export replaces the older, a tampered
//! bundle and a bundle signed by another key under a known venue's name are refused (exit 2,
//! nothing added), and the venue's key file is the user's alone.

use std::collections::HashMap;
use std::path::Path;

use rummikub_companion::event::seating::Rng;
use serde_json::Value;

use crate::run::{cli_json as ok, run_cli as run};

/// Plays a two-round event at venue `data` with `players` (name, club) and exports it to
/// `out`: returns the event's standings as `event standings --json` prints them.
fn play_and_export(
    data: &Path,
    dir: &Path,
    venue: &str,
    players: &[(String, String)],
    seed: u64,
    out: &Path,
) -> Value {
    let file = dir.join(format!("{venue}-players.csv"));
    let text: Vec<String> = players.iter().map(|(n, c)| format!("{n},{c}")).collect();
    std::fs::write(&file, text.join("\n")).expect("write");
    let seed_arg = seed.to_string();
    ok(
        data,
        &[
            "event",
            "new",
            &format!("{venue} open"),
            "--players",
            &file.to_string_lossy(),
            "--games",
            "2",
            "--seed",
            &seed_arg,
            "--json",
        ],
    );
    let mut rng = Rng::new(seed);
    for round in 1..=2 {
        let seat = ok(data, &["event", "seat", "--json"]);
        for (t, table) in seat["tables"]
            .as_array()
            .expect("tables")
            .iter()
            .enumerate()
        {
            let names: Vec<&str> = table["players"]
                .as_array()
                .expect("players")
                .iter()
                .map(|n| n.as_str().expect("name"))
                .collect();
            let mut csv = format!("game,{}\n", names.join(","));
            for g in 1..=2 {
                let outp = rng.below(names.len() as u64) as usize;
                let cells: Vec<String> = (0..names.len())
                    .map(|i| if i == outp { 0 } else { 1 + rng.below(40) }.to_string())
                    .collect();
                csv.push_str(&format!("{g},{}\n", cells.join(",")));
            }
            let path = dir.join(format!("{venue}-r{round}t{t}.csv"));
            std::fs::write(&path, csv).expect("write");
            let table_arg = (t + 1).to_string();
            ok(
                data,
                &[
                    "event",
                    "result",
                    "--table",
                    &table_arg,
                    &path.to_string_lossy(),
                    "--json",
                ],
            );
        }
    }
    let exported = ok(
        data,
        &[
            "event",
            "export",
            "--out",
            &out.to_string_lossy(),
            "--venue",
            venue,
            "--json",
        ],
    );
    assert_eq!(exported["venue"], venue);
    ok(data, &["event", "standings", "--json"])
}

/// The season's standings worked out from each event's standings: place p of E gets
/// E − p + 1; players matched by name and club, case-folded.
fn recompute(events: &[&Value]) -> HashMap<(String, String), i64> {
    let mut points = HashMap::new();
    for event in events {
        let rows = event["standings"].as_array().expect("rows");
        let entrants = rows
            .iter()
            .filter(|r| r["games"].as_i64() > Some(0))
            .count() as i64;
        for row in rows {
            let key = (
                row["name"].as_str().expect("name").trim().to_lowercase(),
                row["club"].as_str().unwrap_or("").trim().to_lowercase(),
            );
            let place = row["rank"].as_i64().expect("rank");
            *points.entry(key).or_insert(0) += entrants - place + 1;
        }
    }
    points
}

/// Each season line's points by name.
fn points_by_name(season: &Value) -> HashMap<String, i64> {
    season["standings"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["name"].as_str().expect("name").to_owned(),
                r["points"].as_i64().expect("points"),
            )
        })
        .collect()
}

fn season_points(standings: &Value) -> HashMap<(String, String), i64> {
    standings["standings"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                (
                    r["name"].as_str().expect("name").to_lowercase(),
                    r["club"].as_str().unwrap_or("").to_lowercase(),
                ),
                r["points"].as_i64().expect("points"),
            )
        })
        .collect()
}

#[test]
fn three_venues_make_a_season_equal_to_a_recomputation() {
    let dir = tempfile::tempdir().expect("temp");
    let root = dir.path();
    // 12 regulars who travel (spelled differently at each venue), and locals.
    let regulars: Vec<(String, String)> = (1..=12)
        .map(|i| (format!("Gracz {i:02}"), format!("Klub {}", i % 3)))
        .collect();
    let venue_players = |v: usize, locals: usize| {
        let mut list: Vec<(String, String)> = regulars
            .iter()
            .map(|(n, c)| match v {
                1 => (n.to_uppercase(), c.clone()),
                2 => (format!("  {n} "), c.to_lowercase()),
                _ => (n.clone(), c.clone()),
            })
            .collect();
        list.extend((1..=locals).map(|i| (format!("Local {v}-{i}"), "Dom".to_owned())));
        list
    };
    let mut results = Vec::new();
    let mut bundles = Vec::new();
    for (v, locals) in [(0usize, 4usize), (1, 0), (2, 8)] {
        let data = root.join(format!("venue{v}"));
        let bundle = root.join(format!("venue{v}.bundle.json"));
        let venue = ["Warszawa", "Krakow", "Gdansk"][v];
        results.push(play_and_export(
            &data,
            root,
            venue,
            &venue_players(v, locals),
            100 + v as u64,
            &bundle,
        ));
        bundles.push(bundle);
    }
    let league = root.join("league");
    let made = ok(&league, &["season", "new", "Grand Prix", "--json"]);
    assert_eq!(made["season"], "Grand Prix");
    let files: Vec<String> = bundles
        .iter()
        .map(|b| b.to_string_lossy().into_owned())
        .collect();
    let mut args = vec!["season", "add", "--json"];
    args.extend(files.iter().map(String::as_str));
    let added = ok(&league, &args);
    assert_eq!(added["events"], 3);
    let standings = ok(&league, &["season", "standings", "--json"]);
    assert_eq!(standings["season"], "Grand Prix");
    assert_eq!(standings["events"], 3);
    let want = recompute(&results.iter().collect::<Vec<_>>());
    assert_eq!(season_points(&standings), want);
    // 12 regulars matched across the three venues, 4 + 8 locals.
    let rows = standings["standings"].as_array().expect("rows");
    assert_eq!(rows.len(), 24);
    for row in rows {
        let name = row["name"].as_str().expect("name");
        let events = if name.starts_with("Local") { 1 } else { 3 };
        assert_eq!(row["events"], events, "{name}");
    }
    for pair in rows.windows(2) {
        assert!(pair[0]["points"].as_i64() >= pair[1]["points"].as_i64());
    }

    // The same bundle again: counted once.
    let again = ok(&league, &["season", "add", &files[0], "--json"]);
    assert_eq!(again["files"][0]["added"], "already_in");
    assert_eq!(ok(&league, &["season", "standings", "--json"]), standings);

    // A tampered bundle: one remaining value changed after signing. Refused, nothing added.
    let text = std::fs::read_to_string(&bundles[2]).expect("bundle");
    let mut value: Value = serde_json::from_str(&text).expect("json");
    let hands =
        &mut value["payload"]["event"]["rounds"][0]["tables"][0]["results"][0]["games"][0]["hands"];
    let first = hands
        .as_array_mut()
        .expect("hands")
        .iter_mut()
        .find(|h| h["left"] != 0);
    *first.expect("a loser's hand") = serde_json::json!({"left": 1});
    let tampered = root.join("tampered.json");
    std::fs::write(
        &tampered,
        serde_json::to_string_pretty(&value).expect("json"),
    )
    .expect("write");
    let (code, _, err) = run(&league, &["season", "add", &tampered.to_string_lossy()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("tampered") && err.contains("nothing was added"),
        "{err}"
    );
    let (code, _, err) = run(
        &league,
        &["--lang", "ko", "season", "add", &tampered.to_string_lossy()],
    );
    assert_eq!(code, 2);
    assert!(err.contains("변조"), "{err}");
    assert_eq!(ok(&league, &["season", "standings", "--json"]), standings);

    // Another laptop calling itself Krakow: refused, naming the venue.
    let impostor = root.join("impostor");
    let fake = root.join("fake.json");
    play_and_export(&impostor, root, "Krakow", &venue_players(1, 0), 7, &fake);
    let (code, _, err) = run(&league, &["season", "add", &fake.to_string_lossy()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("\"Krakow\""), "{err}");
    assert_eq!(ok(&league, &["season", "standings", "--json"]), standings);

    // Gdansk seats a third round and exports while it plays: an unfinished event is refused.
    let gdansk = root.join("venue2");
    ok(&gdansk, &["event", "seat", "--json"]);
    let newer = root.join("gdansk-newer.json");
    let (code, _, _) = run(
        &gdansk,
        &["event", "export", "--out", &newer.to_string_lossy()],
    );
    assert_eq!(code, 0);
    // The event's third round is open: an unfinished event is refused.
    let (code, _, err) = run(&league, &["season", "add", &newer.to_string_lossy()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not finished"), "{err}");
}

#[test]
fn a_newer_export_replaces_the_older_and_best_k_and_points_lists_count() {
    let dir = tempfile::tempdir().expect("temp");
    let root = dir.path();
    let players: Vec<(String, String)> =
        (1..=8).map(|i| (format!("P{i}"), "C".to_owned())).collect();
    let venue = root.join("venue");
    let first = root.join("first.json");
    let one = play_and_export(&venue, root, "Seoul", &players, 11, &first);
    let league = root.join("league");
    ok(
        &league,
        &[
            "season",
            "new",
            "Korea",
            "--points",
            "10,6,4,3,2,1",
            "--best",
            "1",
            "--json",
        ],
    );
    let added = ok(
        &league,
        &["season", "add", &first.to_string_lossy(), "--json"],
    );
    assert_eq!(added["files"][0]["added"], "new");
    let list = [10, 6, 4, 3, 2, 1];
    let by_list = |event: &Value| -> HashMap<String, i64> {
        event["standings"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| {
                let place = r["rank"].as_u64().expect("rank") as usize;
                (
                    r["name"].as_str().expect("name").to_owned(),
                    list.get(place - 1).copied().unwrap_or(0),
                )
            })
            .collect()
    };
    let season = ok(&league, &["season", "standings", "--json"]);
    assert_eq!(points_by_name(&season), by_list(&one));

    // A correction at the venue, exported again: the newer export replaces the older.
    let result = root.join("fix.csv");
    let event_file = std::fs::read_dir(venue.join("events"))
        .expect("events")
        .filter_map(Result::ok)
        .find(|e| {
            e.file_name().to_string_lossy().ends_with(".json")
                && !e.file_name().to_string_lossy().contains("live")
        })
        .expect("the event file");
    let event: Value =
        serde_json::from_str(&std::fs::read_to_string(event_file.path()).expect("read"))
            .expect("json");
    let table = &event["event"]["rounds"][0]["tables"][0];
    let names: Vec<String> = table["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|i| {
            event["event"]["players"][i.as_u64().expect("index") as usize]["name"]
                .as_str()
                .expect("name")
                .to_owned()
        })
        .collect();
    std::fs::write(
        &result,
        format!("game,{}\n1,0,40,40,40\n2,0,40,40,40\n", names.join(",")),
    )
    .expect("write");
    ok(
        &venue,
        &[
            "event",
            "result",
            "--round",
            "1",
            "--table",
            "1",
            "--correct",
            &result.to_string_lossy(),
            "--json",
        ],
    );
    let two = ok(&venue, &["event", "standings", "--json"]);
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let second = root.join("second.json");
    ok(
        &venue,
        &[
            "event",
            "export",
            "--out",
            &second.to_string_lossy(),
            "--json",
        ],
    );
    let added = ok(
        &league,
        &["season", "add", &second.to_string_lossy(), "--json"],
    );
    assert_eq!(added["files"][0]["added"], "replaced");
    let added = ok(
        &league,
        &["season", "add", &first.to_string_lossy(), "--json"],
    );
    assert_eq!(added["files"][0]["added"], "older_kept");
    let season = ok(&league, &["season", "standings", "--json"]);
    assert_eq!(season["events"], 1);
    assert_eq!(points_by_name(&season), by_list(&two));
}

#[test]
fn the_venue_key_is_made_once_and_readable_by_the_user_only() {
    let dir = tempfile::tempdir().expect("temp");
    let data = dir.path().join("data");
    let first = ok(&data, &["season", "key", "--json"]);
    let key = first["key"].as_str().expect("key").to_owned();
    assert_eq!(key.len(), 64);
    let renamed = ok(&data, &["season", "key", "--venue", "Wuppertal", "--json"]);
    assert_eq!(
        (renamed["key"].as_str(), renamed["venue"].as_str()),
        (Some(key.as_str()), Some("Wuppertal"))
    );
    let (code, out, _) = run(&data, &["season", "key"]);
    assert_eq!(code, 0);
    assert!(out.starts_with(&key) && out.contains("Wuppertal"), "{out}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(data.join("venue.key"))
            .expect("the key file")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // A damaged key file is never replaced: the command fails and says so.
    std::fs::write(data.join("venue.key"), "not json").expect("write");
    let (code, _, err) = run(&data, &["season", "key"]);
    assert_eq!(code, 2);
    assert!(err.contains("venue.key"), "{err}");
    assert_eq!(
        std::fs::read_to_string(data.join("venue.key")).expect("read"),
        "not json"
    );
}
