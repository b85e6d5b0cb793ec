//! `event` from the command line, through the built binary against a temporary data folder:
//! a 24-player night of three rounds (no repeat meeting, standings equal a recomputation under
//! each ranking), and every kind of refusal with its exit code and message.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use rummikub_companion::event::seating::Rng;
use serde_json::Value;

/// Runs `event` with the data folder `data`: (exit code, stdout, stderr).
fn run(data: &Path, args: &[&str]) -> (i32, String, String) {
    let all: Vec<&str> = std::iter::once("event")
        .chain(args.iter().copied())
        .collect();
    crate::run::run_cli(data, &all)
}

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout).expect("one JSON object")
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path.to_string_lossy().into_owned()
}

fn tables_of(seat: &Value) -> Vec<Vec<String>> {
    seat["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .map(|t| {
            t["players"]
                .as_array()
                .expect("players")
                .iter()
                .map(|p| p.as_str().expect("name").to_owned())
                .collect()
        })
        .collect()
}

#[derive(Default, Clone, Copy)]
struct Tally {
    wins: i64,
    points: i64,
    percent: i64,
}

#[test]
fn a_24_player_night_of_three_rounds_from_the_command_line() {
    let dir = tempfile::tempdir().expect("temp");
    let data = dir.path().join("data");
    let names: Vec<String> = (1..=24).map(|i| format!("Player {i:02}")).collect();
    let players = write(dir.path(), "players.txt", &names.join("\n"));
    let (code, id, err) = run(
        &data,
        &[
            "new",
            "Club night",
            "--players",
            &players,
            "--games",
            "4",
            "--seed",
            "2026",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let id = id.trim().to_owned();
    assert!(!id.is_empty());

    let mut rng = Rng::new(99);
    let mut met: HashSet<(String, String)> = HashSet::new();
    let mut tally: HashMap<String, Tally> = HashMap::new();
    for round in 1..=3 {
        let (code, out, err) = run(&data, &["seat", "--event", &id, "--json"]);
        assert_eq!(code, 0, "{err}");
        let seat = json(&out);
        assert_eq!(seat["round"], round);
        let tables = tables_of(&seat);
        assert_eq!(tables.len(), 6);
        let mut seated: Vec<&String> = tables.iter().flatten().collect();
        seated.sort();
        assert_eq!(seated, names.iter().collect::<Vec<_>>(), "round {round}");
        for table in &tables {
            for a in table {
                for b in table {
                    if a < b {
                        assert!(
                            met.insert((a.clone(), b.clone())),
                            "round {round}: {a} and {b} meet again"
                        );
                    }
                }
            }
        }
        for (t, table) in tables.iter().enumerate() {
            // The header in another order than the seats: the columns are matched by name.
            let mut header = table.clone();
            header.rotate_left(1);
            let mut csv = format!("game,{}\n", header.join(","));
            let mut table_points = vec![0i64; header.len()];
            let mut table_wins = vec![0i64; header.len()];
            for g in 1..=4 {
                let out = rng.below(header.len() as u64) as usize;
                let values: Vec<i64> = (0..header.len())
                    .map(|i| {
                        if i == out {
                            0
                        } else {
                            1 + rng.below(50) as i64
                        }
                    })
                    .collect();
                let cells: Vec<String> = values.iter().map(i64::to_string).collect();
                csv.push_str(&format!("{g},{}\n", cells.join(",")));
                for i in 0..header.len() {
                    table_points[i] += if i == out {
                        values.iter().sum::<i64>()
                    } else {
                        -values[i]
                    };
                }
                table_wins[out] += 1;
            }
            let best = *table_points.iter().max().expect("players");
            for (i, name) in header.iter().enumerate() {
                let entry = tally.entry(name.clone()).or_default();
                entry.points += table_points[i];
                entry.wins += table_wins[i];
                if best > 0 {
                    entry.percent += (table_points[i] * 10_000).div_euclid(best);
                }
            }
            let file = write(dir.path(), &format!("r{round}t{}.csv", t + 1), &csv);
            let table_arg = (t + 1).to_string();
            let (code, out, err) = run(&data, &["result", "--table", &table_arg, &file, "--json"]);
            assert_eq!(code, 0, "{err}");
            assert_eq!(json(&out)["round_complete"], t == 5);
        }
    }
    for ranking in ["wins", "total", "percent"] {
        let (code, out, err) = run(&data, &["standings", "--ranking", ranking, "--json"]);
        assert_eq!(code, 0, "{err}");
        let s = json(&out);
        assert_eq!(
            (s["round"].as_u64(), s["complete"].as_bool()),
            (Some(3), Some(true))
        );
        let rows = s["standings"].as_array().expect("rows");
        assert_eq!(rows.len(), 24);
        let key = |row: &Value| {
            let t = tally[row["name"].as_str().expect("name")];
            assert_eq!(row["points"].as_i64(), Some(t.points));
            assert_eq!(row["wins"].as_i64(), Some(t.wins));
            assert_eq!(row["games"].as_i64(), Some(12));
            match ranking {
                "wins" => (t.wins, t.points),
                "total" => (t.points, t.wins),
                _ => (t.percent, t.wins),
            }
        };
        for pair in rows.windows(2) {
            let (a, b) = (key(&pair[0]), key(&pair[1]));
            assert!(a >= b, "{ranking}: {pair:?}");
            let (ra, rb) = (pair[0]["rank"].as_u64(), pair[1]["rank"].as_u64());
            assert!(ra <= rb);
            if a > b {
                assert!(ra < rb, "{ranking}: {pair:?}");
            }
        }
    }
}

#[test]
fn refusals_have_their_exit_codes_and_say_what_is_wrong() {
    let dir = tempfile::tempdir().expect("temp");
    let data = dir.path().join("data");
    // No event yet.
    let (code, _, err) = run(&data, &["seat"]);
    assert_eq!(code, 2);
    assert!(err.contains("no event"), "{err}");
    // Five players: created, but cannot be seated; the XP table is offered.
    let five = write(dir.path(), "five.txt", "A\nB\nC\nD\nE\n");
    let (code, _, err) = run(&data, &["new", "Five", "--players", &five]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&data, &["seat"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("5 players cannot sit") && err.contains("XP"),
        "{err}"
    );
    // A duplicate name names its line.
    let dup = write(dir.path(), "dup.txt", "Ann\n\nann,Seoul\n");
    let (code, _, err) = run(&data, &["new", "Dup", "--players", &dup]);
    assert_eq!(code, 2);
    assert!(
        err.contains("line 3") && err.contains("registered already"),
        "{err}"
    );
    // An empty --ranking value is refused by the parser.
    let (code, _, _) = run(
        &data,
        &["new", "X", "--players", &five, "--ranking", "best"],
    );
    assert_eq!(code, 2);

    let six = write(dir.path(), "six.txt", "A\nB\nC\nD\nE\nF\n");
    let (code, id, _) = run(&data, &["new", "Six", "--players", &six, "--games", "1"]);
    assert_eq!(code, 0);
    let id = id.trim().to_owned();
    let (code, out, _) = run(&data, &["seat", "--event", &id, "--json"]);
    assert_eq!(code, 0);
    let tables = tables_of(&json(&out));
    assert_eq!(tables.iter().map(Vec::len).collect::<Vec<_>>(), [3, 3]);
    let (code, _, err) = run(&data, &["seat", "--event", &id]);
    assert_eq!(code, 1);
    assert!(err.contains("round 1 is not finished"), "{err}");
    // Wrong players: someone from the other table.
    let wrong = format!(
        "game,{},{},{}\n1,0,5,6\n",
        tables[0][0], tables[0][1], tables[1][0]
    );
    let file = write(dir.path(), "wrong.csv", &wrong);
    let (code, out, err) = run(&data, &["result", "--table", "1", &file, "--json"]);
    assert_eq!(code, 2);
    assert!(err.contains("the table's players are"), "{err}");
    assert_eq!(json(&out)["error"]["kind"], "event");
    // Does not add up: two players out in one game.
    let two_out = format!("game,{}\n1,0,0,6\n", tables[0].join(","));
    let file = write(dir.path(), "two.csv", &two_out);
    let (code, _, err) = run(&data, &["result", "--table", "1", &file]);
    assert_eq!(code, 2);
    assert!(err.contains("only one player can go out"), "{err}");
    // More tiles than the set has.
    let too_many = format!("game,{}\n1,0,R5 R5 R5,6\n", tables[0].join(","));
    let file = write(dir.path(), "many.csv", &too_many);
    let (code, _, err) = run(&data, &["result", "--table", "1", &file]);
    assert_eq!(code, 2, "{err}");
    // Wrong game count.
    let two_games = format!("game,{}\n1,0,5,6\n2,0,5,6\n", tables[0].join(","));
    let file = write(dir.path(), "games.csv", &two_games);
    let (code, _, err) = run(&data, &["result", "--table", "1", &file]);
    assert_eq!(code, 2);
    assert!(err.contains("2 games"), "{err}");
    // No such table; the good result; then the same again is refused without --correct.
    let good = format!("game,{}\n1,0,5,6\n", tables[0].join(","));
    let file = write(dir.path(), "good.csv", &good);
    let (code, _, err) = run(&data, &["result", "--table", "3", &file]);
    assert_eq!(code, 2);
    assert!(err.contains("no table 3"), "{err}");
    let (code, _, err) = run(&data, &["result", "--table", "1", &file]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&data, &["result", "--table", "1", &file]);
    assert_eq!(code, 1);
    assert!(err.contains("--correct"), "{err}");
    // A correction: the winner changes, the standings follow.
    let fixed = format!("game,{}\n1,5,0,6\n", tables[0].join(","));
    let file = write(dir.path(), "fixed.csv", &fixed);
    let (code, out, err) = run(
        &data,
        &["result", "--table", "1", "--correct", &file, "--json"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["corrected"], true);
    let (_, out, _) = run(&data, &["standings", "--event", &id, "--json"]);
    let s = json(&out);
    assert_eq!(s["complete"], false);
    assert_eq!(
        s["standings"][0]["name"].as_str(),
        Some(tables[0][1].as_str())
    );
    assert_eq!(s["standings"][0]["points"], 11);
    // The file keeps both results.
    let text = std::fs::read_to_string(data.join("events").join(format!("{id}.json")))
        .expect("event file");
    let saved: Value = serde_json::from_str(&text).expect("json");
    let results = &saved["event"]["rounds"][0]["tables"][0]["results"];
    assert_eq!(results.as_array().map(Vec::len), Some(2));
}

#[test]
fn korean_messages_and_output() {
    let dir = tempfile::tempdir().expect("temp");
    let data = dir.path().join("data");
    let four = dir.path().join("four.txt");
    std::fs::write(&four, "가람\n나래\n다온\n라희\n").expect("write");
    let four = four.to_string_lossy().into_owned();
    let (code, _, _) = run(&data, &["new", "모임", "--players", &four, "--lang", "ko"]);
    assert_eq!(code, 0);
    let (code, out, _) = run(&data, &["seat", "--lang", "ko"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("1라운드") && out.contains("1번 테이블"),
        "{out}"
    );
    let (code, _, err) = run(&data, &["seat", "--lang", "ko"]);
    assert_eq!(code, 1);
    assert!(err.contains("1라운드가 끝나지 않았습니다"), "{err}");
    let (code, out, _) = run(&data, &["standings", "--lang", "ko"]);
    assert_eq!(code, 0);
    assert!(out.contains("순위") && out.contains("가람"), "{out}");
}

#[test]
fn five_players_sit_at_one_xp_table_with_xp() {
    let dir = tempfile::tempdir().expect("temp");
    let data = dir.path().join("data");
    let players = write(dir.path(), "five.txt", "Ann\nBo\nCy\nDi\nEd\n");
    let (code, _, err) = run(
        &data,
        &["new", "Five", "--players", &players, "--games", "1"],
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&data, &["seat"]);
    assert_eq!(code, 1, "five cannot sit at 4s and 3s");
    assert!(err.contains("allow XP tables (event new --xp)"), "{err}");

    let (code, _, err) = run(
        &data,
        &[
            "new",
            "Five XP",
            "--players",
            &players,
            "--games",
            "1",
            "--xp",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&data, &["seat", "--json"]);
    assert_eq!(code, 0, "{err}");
    let tables = tables_of(&json(&out));
    assert_eq!(tables.len(), 1);
    assert_eq!(tables[0].len(), 5);
    // Three jokers exist only in the XP set: the table of 5 is scored on it.
    let header = tables[0].join(",");
    let result = write(
        dir.path(),
        "xp.csv",
        &format!("game,{header}\n1,0,J J J,5,6,7\n"),
    );
    let (code, out, err) = run(&data, &["result", "--table", "1", &result]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("result recorded"));
}

#[test]
fn standings_csv_has_a_bom_and_every_player() {
    let dir = tempfile::tempdir().expect("temp");
    let data = dir.path().join("data");
    let players = write(dir.path(), "p.txt", "Ann,Red\nBo\nCy\n김철수\n");
    let (code, _, err) = run(
        &data,
        &["new", "CSV", "--players", &players, "--games", "1"],
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&data, &["seat", "--json"]);
    assert_eq!(code, 0, "{err}");
    let seats = tables_of(&json(&out)).remove(0);
    let result = write(
        dir.path(),
        "r.csv",
        &format!("game,{}\n1,0,10,20,30\n", seats.join(",")),
    );
    let (code, _, err) = run(&data, &["result", "--table", "1", &result]);
    assert_eq!(code, 0, "{err}");
    let csv = dir.path().join("standings.csv");
    let (code, out, err) = run(
        &data,
        &["standings", "--csv", &csv.to_string_lossy(), "--json"],
    );
    assert_eq!(code, 0, "{err}");
    let shown = json(&out);
    let text = std::fs::read_to_string(&csv).expect("written");
    assert!(text.starts_with("\u{feff}rank,name,wins,points,percent,games,dropped\n"));
    let lines: Vec<&str> = text
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("# "))
        .collect();
    assert_eq!(lines.len(), 4);
    // The rules the games were scored under end the file.
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l.starts_with("# Scored with a joker on a rack at")),
        "{text}"
    );
    // The winner's line: +60 points, 1 win, 100% of the table winner's.
    let first = &shown["standings"][0];
    assert_eq!(
        lines[0],
        format!("1,{},1,60,100.00,1,", first["name"].as_str().expect("name"))
    );
    // Hangul is kept as UTF-8.
    assert!(text.contains("김철수"));

    // Korean headers with --lang ko; a file that cannot be written is exit 2.
    let (code, _, err) = run(
        &data,
        &["standings", "--csv", &csv.to_string_lossy(), "--lang", "ko"],
    );
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&csv).expect("written");
    assert!(text.starts_with("\u{feff}순위,이름,승,점수,백분율,게임,기권\n"));
    let nowhere = dir.path().join("no-such-folder").join("s.csv");
    let (code, _, err) = run(&data, &["standings", "--csv", &nowhere.to_string_lossy()]);
    assert_eq!(code, 2);
    assert!(err.contains("could not be written"), "{err}");
}

/// Regression (`repro/standings-csv-os-error-ko.sh`): under `--lang ko` a CSV that cannot be
/// written ended the Korean message in the system's English ("No space left on device (os
/// error 28)", "Is a directory", "No such file or directory").
#[test]
fn a_standings_csv_that_cannot_be_written_is_said_in_korean() {
    let dir = tempfile::tempdir().expect("temp dir");
    let players = write(dir.path(), "p.txt", "A\nB\nC\nD\n");
    let (code, _, err) = run(dir.path(), &["new", "N", "--players", &players]);
    assert_eq!(code, 0, "{err}");
    let folder = dir.path().display().to_string();
    let missing = dir.path().join("no/such/s.csv").display().to_string();
    for (target, words) in [
        ("/dev/full", "디스크 공간 부족"),
        (folder.as_str(), "파일이 아니라 폴더임"),
        (missing.as_str(), "찾을 수 없음"),
    ] {
        let (code, _, err) = run(dir.path(), &["standings", "--lang", "ko", "--csv", target]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(words), "{target}: {err}");
        assert!(!err.contains("os error"), "{target}: {err}");
    }
}
