//! The formats clubs play (issue 47), from the command line as processes and through the
//! engine: a German night (placement 4/3/1/0, by-standings seating) recomputed by hand, an
//! 8-player semi-final and its final under each carry rule, divisions, the federation presets,
//! and the properties of placement points and by-standings seating.

use std::collections::HashMap;
use std::path::Path;

use proptest::prelude::*;
use rummikub_companion::event::format::{Placement, game_places};
use rummikub_companion::event::seating::Rng;
use rummikub_companion::event::{Command, Event, EventSetup, Format, Ranking, SeatingRule, Stage};
use rummikub_companion::score::{Game, Hand};
use serde_json::Value;

use crate::run::{cli_json as ok, run_cli as run};

fn names_of(list: &Value) -> Vec<String> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|v| v.as_str().expect("a name").to_owned())
        .collect()
}

fn tables_of(seat: &Value) -> Vec<Vec<String>> {
    seat["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .map(|t| names_of(&t["players"]))
        .collect()
}

fn standings_names(standings: &Value) -> Vec<String> {
    standings["standings"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["name"].as_str().expect("name").to_owned())
        .collect()
}

/// One table's games as the `score` CSV (header in seat order) and the remaining values by
/// game and seat (0 = went out). Values 1–8 so players often tie.
fn random_games(rng: &mut Rng, seats: &[String], games: usize) -> (String, Vec<Vec<i64>>) {
    let mut csv = format!("game,{}\n", seats.join(","));
    let mut all = Vec::new();
    for g in 1..=games {
        let out = rng.below(seats.len() as u64) as usize;
        let values: Vec<i64> = (0..seats.len())
            .map(|i| if i == out { 0 } else { 1 + rng.below(8) as i64 })
            .collect();
        let cells: Vec<String> = values.iter().map(i64::to_string).collect();
        csv.push_str(&format!("{g},{}\n", cells.join(",")));
        all.push(values);
    }
    (csv, all)
}

/// A player's points in a round and each game's (seat, table size, remaining values).
type Tally = (i64, Vec<(usize, usize, Vec<i64>)>);

/// Enters every table of the seating `seat` with random games; returns each player's points
/// and their games' remaining values with their table's size.
fn enter_round(
    data: &Path,
    dir: &Path,
    rng: &mut Rng,
    seat: &Value,
    games: usize,
) -> HashMap<String, Tally> {
    let round = seat["round"].as_u64().expect("round");
    let mut tally: HashMap<String, Tally> = HashMap::new();
    for (t, table) in tables_of(seat).iter().enumerate() {
        let (csv, values) = random_games(rng, table, games);
        let file = dir.join(format!("r{round}t{}.csv", t + 1));
        std::fs::write(&file, csv).expect("write");
        let table_arg = (t + 1).to_string();
        ok(
            data,
            &[
                "event",
                "result",
                "--table",
                &table_arg,
                &file.to_string_lossy(),
                "--json",
            ],
        );
        for game in &values {
            let sum: i64 = game.iter().sum();
            for (s, name) in table.iter().enumerate() {
                let entry = tally.entry(name.clone()).or_default();
                entry.0 += if game[s] == 0 { sum } else { -game[s] };
                entry.1.push((s, table.len(), game.clone()));
            }
        }
    }
    tally
}

/// Placement points of seat `s` in one game, worked out by hand in sixtieths: the one who went
/// out is 1st; the others by what is left on their racks (less is better), tied racks
/// sharing the average of the places they span.
fn placement_by_hand(list: &[i64], s: usize, game: &[i64]) -> i64 {
    if game[s] == 0 {
        return list[0] * 60;
    }
    let better = game.iter().filter(|&&v| v != 0 && v < game[s]).count();
    let tied = game.iter().filter(|&&v| v == game[s]).count();
    let from = 1 + better;
    let sum: i64 = list[from..from + tied].iter().sum();
    sum * 60 / tied as i64
}

#[test]
fn a_16_player_german_night_of_three_rounds_recomputed_by_hand() {
    let dir = tempfile::tempdir().expect("temp");
    let data = dir.path().join("data");
    let names: Vec<String> = (1..=16).map(|i| format!("Spieler {i:02}")).collect();
    let players = dir.path().join("players.txt");
    std::fs::write(&players, names.join("\n")).expect("write");
    let made = ok(
        &data,
        &[
            "event",
            "new",
            "Stadtmeisterschaft",
            "--players",
            &players.to_string_lossy(),
            "--format",
            "germany",
            "--seed",
            "47",
            "--json",
        ],
    );
    assert_eq!(made["ranking"], "placement");
    assert_eq!(made["seating"], "standings");
    assert_eq!(made["joker"], 30);
    let mut rng = Rng::new(4716);
    let mut placement: HashMap<String, i64> = HashMap::new();
    let mut points: HashMap<String, i64> = HashMap::new();
    for round in 1..=3 {
        let before = (round > 1).then(|| ok(&data, &["event", "standings", "--json"]));
        let seat = ok(&data, &["event", "seat", "--json"]);
        assert_eq!(seat["stage"], "round");
        let tables = tables_of(&seat);
        assert_eq!(tables.len(), 4);
        // Each player starts one game of the round (German clubs change seats every game).
        for t in seat["tables"].as_array().expect("tables") {
            let mut starts = names_of(&t["starts"]);
            let mut players = names_of(&t["players"]);
            starts.sort();
            players.sort();
            assert_eq!(starts, players, "round {round}");
        }
        if let Some(before) = before {
            let order = standings_names(&before);
            let mut top: Vec<&String> = order[..4].iter().collect();
            let mut first: Vec<&String> = tables[0].iter().collect();
            top.sort();
            first.sort();
            assert_eq!(first, top, "round {round}: table 1 holds the top four");
            // And every table holds the next four, in standings order.
            for (t, table) in tables.iter().enumerate() {
                let mut want: Vec<&String> = order[4 * t..4 * t + 4].iter().collect();
                let mut got: Vec<&String> = table.iter().collect();
                want.sort();
                got.sort();
                assert_eq!(got, want, "round {round}, table {}", t + 1);
            }
        }
        for (name, (p, games)) in enter_round(&data, dir.path(), &mut rng, &seat, 4) {
            *points.entry(name.clone()).or_default() += p;
            let list = [4, 3, 1, 0];
            let earned: i64 = games
                .iter()
                .map(|(s, _, game)| placement_by_hand(&list, *s, game))
                .sum();
            *placement.entry(name).or_default() += earned;
        }
    }
    let standings = ok(&data, &["event", "standings", "--json"]);
    assert_eq!(standings["complete"], true);
    let rows = standings["standings"].as_array().expect("rows");
    assert_eq!(rows.len(), 16);
    let total: i64 = placement.values().sum();
    // Three rounds of four tables of four games, 4+3+1+0 = 8 points a game.
    assert_eq!(total, 3 * 4 * 4 * 8 * 60);
    for row in rows {
        let name = row["name"].as_str().expect("name");
        let want = placement[name] as f64 / 60.0;
        let got = row["placement"].as_f64().expect("placement is given");
        assert!((got - want).abs() < 0.006, "{name}: {got} vs {want}");
        assert_eq!(row["points"].as_i64(), Some(points[name]), "{name}");
    }
    for pair in rows.windows(2) {
        let key = |r: &Value| {
            (
                placement[r["name"].as_str().expect("name")],
                r["points"].as_i64().expect("points"),
            )
        };
        assert!(key(&pair[0]) >= key(&pair[1]), "{pair:?}");
    }
}

#[test]
fn an_8_player_semi_final_is_seeded_snake_and_the_final_follows_the_carry_rule() {
    let dir = tempfile::tempdir().expect("temp");
    let data = dir.path().join("data");
    let names: Vec<String> = (1..=12).map(|i| format!("Speler {i:02}")).collect();
    let players = dir.path().join("players.txt");
    std::fs::write(&players, names.join("\n")).expect("write");
    ok(
        &data,
        &[
            "event",
            "new",
            "Kampioenschap",
            "--players",
            &players.to_string_lossy(),
            "--ranking",
            "total",
            "--games",
            "3",
            "--seed",
            "8",
            "--json",
        ],
    );
    let mut rng = Rng::new(88);
    for _ in 0..2 {
        let seat = ok(&data, &["event", "seat", "--json"]);
        enter_round(&data, dir.path(), &mut rng, &seat, 3);
    }
    let qualifying = standings_names(&ok(&data, &["event", "standings", "--json"]));
    let semi = ok(
        &data,
        &[
            "event", "final", "--top", "8", "--carry", "none", "--games", "2", "--json",
        ],
    );
    assert_eq!(semi["stage"], "semi");
    let q = |i: usize| qualifying[i - 1].clone();
    assert_eq!(
        tables_of(&semi),
        [vec![q(1), q(3), q(5), q(7)], vec![q(2), q(4), q(6), q(8)],]
    );
    // No qualifying round after a stage.
    let (code, _, err) = run(&data, &["event", "seat"]);
    assert_eq!(code, 1, "{err}");
    let semi_points: HashMap<String, i64> = enter_round(&data, dir.path(), &mut rng, &semi, 2)
        .into_iter()
        .map(|(name, (p, _))| (name, p))
        .collect();
    let after_semi = ok(&data, &["event", "standings", "--json"]);
    let rows = after_semi["standings"].as_array().expect("rows");
    for row in &rows[..8] {
        // Carry none: only the semi-final's points.
        let name = row["name"].as_str().expect("name");
        assert_eq!(row["points"].as_i64(), Some(semi_points[name]), "{name}");
        assert_eq!(row["stage"], "semi");
    }
    for pair in rows[..8].windows(2) {
        assert!(pair[0]["points"].as_i64() >= pair[1]["points"].as_i64());
    }
    assert_eq!(standings_names(&after_semi)[8..], qualifying[8..]);
    let finalists = standings_names(&after_semi)[..4].to_vec();
    let fin = ok(
        &data,
        &[
            "event",
            "final",
            "--top",
            "4",
            "--carry",
            "half",
            "--seeding",
            "order",
            "--json",
        ],
    );
    assert_eq!(fin["stage"], "final");
    assert_eq!(tables_of(&fin), std::slice::from_ref(&finalists));
    let final_points: HashMap<String, i64> = enter_round(&data, dir.path(), &mut rng, &fin, 3)
        .into_iter()
        .map(|(name, (p, _))| (name, p))
        .collect();
    let last = ok(&data, &["event", "standings", "--json"]);
    let rows = last["standings"].as_array().expect("rows");
    let half_up = |v: i64| v.div_euclid(2) + v.rem_euclid(2);
    let mut finals: Vec<i64> = Vec::new();
    for row in &rows[..4] {
        let name = row["name"].as_str().expect("name");
        assert!(
            finalists.contains(&name.to_owned()),
            "{name} played the final"
        );
        let want = final_points[name] + half_up(semi_points[name]);
        assert_eq!(row["points"].as_i64(), Some(want), "{name}");
        assert_eq!(row["stage"], "final");
        finals.push(want);
    }
    assert!(finals.windows(2).all(|w| w[0] >= w[1]), "{finals:?}");
    let semi_rest: Vec<String> = standings_names(&after_semi)[4..8].to_vec();
    assert_eq!(standings_names(&last)[4..8], semi_rest[..]);
    assert_eq!(standings_names(&last)[8..], qualifying[8..]);
    let ranks: Vec<u64> = rows
        .iter()
        .map(|r| r["rank"].as_u64().expect("rank"))
        .collect();
    assert_eq!(ranks[..8], [1, 2, 3, 4, 5, 6, 7, 8]);
    // Nothing after the final.
    let (code, _, err) = run(&data, &["event", "final", "--top", "4"]);
    assert_eq!(code, 1);
    assert!(err.contains("final"), "{err}");
}

#[test]
fn the_final_with_carry_all_counts_everything_since_round_1() {
    let mut event = engine_event(8, 3, Ranking::Total, SeatingRule::Mixed);
    let mut rng = Rng::new(3);
    for _ in 0..2 {
        event.apply(Command::SeatRound).expect("seated");
        finish(&mut event, &mut rng);
    }
    let before: HashMap<usize, i64> = event
        .standings()
        .rows
        .iter()
        .map(|s| (s.player, s.points))
        .collect();
    event
        .apply(Command::SeatFinal {
            top: 4,
            games: Some(2),
            seeding: None,
            carry: Some(rummikub_companion::event::Carry::All),
        })
        .expect("final seated");
    let seats = event.rounds().last().expect("final").tables[0]
        .seats
        .clone();
    finish(&mut event, &mut rng);
    let after = event.standings();
    let mut own = HashMap::new();
    let table = &event.rounds().last().expect("final").tables[0];
    let players = rummikub_companion::score::Players::new(event.seat_names(table)).expect("names");
    for game in &table.result().expect("result").games {
        let scored = game.score(&players, &event.setup().rules).expect("scores");
        for (s, p) in scored.points.iter().enumerate() {
            *own.entry(table.seats[s]).or_insert(0) += p;
        }
    }
    for row in &after.rows[..4] {
        assert!(seats.contains(&row.player));
        assert_eq!(row.points, before[&row.player] + own[&row.player]);
        assert_eq!(row.stage, Stage::Final);
        assert_eq!(row.games, 3 * 2 + 2);
    }
}

fn engine_event(n: usize, games: u32, ranking: Ranking, seating: SeatingRule) -> Event {
    let mut setup = EventSetup::new("Formats", 1234 + n as u64);
    setup.games = games;
    setup.ranking = ranking;
    setup.seating = seating;
    let mut event = Event::new(setup).expect("a valid setup");
    for i in 0..n {
        event
            .apply(Command::AddPlayer {
                name: format!("P{i:02}"),
                club: None,
                division: (i % 2 == 0).then(|| "junior".to_owned()),
                id: None,
            })
            .expect("a new name");
    }
    event
}

/// Gives every open table of the current round random games.
fn finish(event: &mut Event, rng: &mut Rng) {
    let round = event.rounds().last().expect("a round").clone();
    let games = event.round_games(&round) as usize;
    for table in &round.tables {
        if table.is_finished() {
            continue;
        }
        let names = event.seat_names(table);
        let games: Vec<Game> = (0..games)
            .map(|_| {
                let out = rng.below(names.len() as u64) as usize;
                let hands = (0..names.len())
                    .map(|i| {
                        let v = if i == out { 0 } else { 1 + rng.below(8) as u32 };
                        Hand::of_value(v)
                    })
                    .collect();
                Game::new(hands)
            })
            .collect();
        event
            .apply(Command::Result {
                round: None,
                table: table.number,
                players: names,
                games,
                correct: false,
            })
            .expect("a result that scores");
    }
}

#[test]
fn divisions_rank_apart_and_sit_apart_only_when_asked() {
    let dir = tempfile::tempdir().expect("temp");
    let data = dir.path().join("data");
    let mut lines = vec!["name,club,division".to_owned()];
    for i in 1..=8 {
        lines.push(format!("Junior {i},Wuppertal,Junior"));
    }
    for i in 1..=8 {
        lines.push(format!("Senior {i},Essen,senior"));
    }
    let players = dir.path().join("players.csv");
    std::fs::write(&players, lines.join("\n")).expect("write");
    let p = players.to_string_lossy();
    ok(
        &data,
        &[
            "event",
            "new",
            "Apart",
            "--players",
            &p,
            "--divisions-apart",
            "--games",
            "2",
            "--seed",
            "5",
            "--json",
        ],
    );
    let mut rng = Rng::new(5);
    for _ in 0..2 {
        let seat = ok(&data, &["event", "seat", "--json"]);
        for table in tables_of(&seat) {
            let juniors = table.iter().filter(|n| n.starts_with("Junior")).count();
            assert!(juniors == 0 || juniors == table.len(), "{table:?}");
        }
        enter_round(&data, dir.path(), &mut rng, &seat, 2);
    }
    let juniors = ok(
        &data,
        &["event", "standings", "--division", "junior", "--json"],
    );
    let rows = juniors["standings"].as_array().expect("rows");
    assert_eq!(rows.len(), 8);
    assert_eq!(rows[0]["rank"], 1);
    for row in rows {
        assert_eq!(row["division"], "Junior");
        assert_eq!(row["club"], "Wuppertal");
    }
    let (code, _, err) = run(&data, &["event", "standings", "--division", "masters"]);
    assert_eq!(code, 2);
    assert!(err.contains("masters") && err.contains("Junior"), "{err}");
    let (code, _, err) = run(
        &data,
        &[
            "--lang",
            "ko",
            "event",
            "standings",
            "--division",
            "masters",
        ],
    );
    assert_eq!(code, 2);
    assert!(err.contains("부에는 선수가 없습니다"), "{err}");

    // Together by default; a division of 5 kept apart cannot be seated, and says which.
    let mut odd = vec!["name,division".to_owned()];
    odd.extend((1..=5).map(|i| format!("J{i},junior")));
    odd.extend((1..=7).map(|i| format!("S{i},senior")));
    std::fs::write(&players, odd.join("\n")).expect("write");
    ok(
        &data,
        &["event", "new", "Together", "--players", &p, "--json"],
    );
    let seat = ok(&data, &["event", "seat", "--json"]);
    assert_eq!(tables_of(&seat).len(), 3);
    ok(
        &data,
        &[
            "event",
            "new",
            "Apart",
            "--players",
            &p,
            "--divisions-apart",
            "--json",
        ],
    );
    let (code, _, err) = run(&data, &["event", "seat"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("\"junior\"") && err.contains('5'), "{err}");
}

#[test]
fn the_federation_presets_reach_every_joker_value_and_options_beside_them_win() {
    let joker = |format: Format| {
        let mut setup = EventSetup::new("x", 1);
        format.apply(&mut setup);
        setup.rules.joker_penalty
    };
    assert_eq!(joker(Format::Belgium), 25);
    assert_eq!(joker(Format::Germany), 30);
    assert_eq!(joker(Format::Japan), 50);
    let mut japan = EventSetup::new("x", 1);
    Format::Japan.apply(&mut japan);
    assert_eq!((japan.win_bonus, japan.ranking), (100, Ranking::Total));

    let dir = tempfile::tempdir().expect("temp");
    let data = dir.path().join("data");
    let players = dir.path().join("p.txt");
    std::fs::write(&players, "A\nB\nC\nD\n").expect("write");
    let made = ok(
        &data,
        &[
            "event",
            "new",
            "Belgian",
            "--players",
            &players.to_string_lossy(),
            "--format",
            "belgium",
            "--games",
            "5",
            "--win-bonus",
            "10",
            "--json",
        ],
    );
    assert_eq!(
        (
            &made["games"],
            &made["joker"],
            &made["win_bonus"],
            &made["format"]
        ),
        (
            &Value::from(5),
            &Value::from(25),
            &Value::from(10),
            &Value::from("belgium")
        )
    );
    // `--help` lists the presets, in both languages.
    for lang in ["en", "ko"] {
        let (code, out, _) = run(&data, &["--lang", lang, "event", "new", "--help"]);
        assert_eq!(code, 0);
        for name in ["germany", "japan", "belgium", "poland", "korea"] {
            assert!(out.contains(name), "{lang}: {name} in {out}");
        }
    }
    // Bad values are named.
    for (flag, value, named) in [
        ("--format", "mars", "mars"),
        ("--placement", "4,3,x", "4,3,x"),
        ("--placement", "9", "placement"),
        ("--seating", "swiss", "swiss"),
    ] {
        let players = players.to_string_lossy();
        let (code, _, err) = run(
            &data,
            &["event", "new", "X", "--players", &players, flag, value],
        );
        assert_eq!(code, 2, "{flag} {value}");
        assert!(err.contains(named), "{flag} {value}: {err}");
    }
}

#[test]
fn a_win_bonus_goes_to_each_games_winner() {
    let mut event = engine_event(4, 2, Ranking::Total, SeatingRule::Mixed);
    let mut plain = event.clone();
    let mut setup = event.setup().clone();
    setup.win_bonus = 100;
    let mut with_bonus = Event::new(setup).expect("setup");
    for p in event.players() {
        with_bonus
            .apply(Command::AddPlayer {
                name: p.name.clone(),
                club: None,
                division: None,
                id: None,
            })
            .expect("player");
    }
    for e in [&mut plain, &mut with_bonus] {
        e.apply(Command::SeatRound).expect("seated");
        finish(e, &mut Rng::new(1));
    }
    event = plain;
    let base: HashMap<usize, (i64, usize)> = event
        .standings()
        .rows
        .iter()
        .map(|s| (s.player, (s.points, s.wins)))
        .collect();
    for row in with_bonus.standings().rows {
        let (points, wins) = base[&row.player];
        assert_eq!(row.points, points + 100 * wins as i64);
    }
}

#[test]
fn an_event_file_from_before_formats_loads_as_it_was_played() {
    // A setup as issue 46 wrote it: none of the format's fields.
    let mut old = serde_json::to_value(EventSetup::new("Old", 1)).expect("json");
    let fields = old.as_object_mut().expect("an object");
    for key in [
        "seating",
        "placement",
        "win_bonus",
        "divisions_apart",
        "finals",
        "format",
    ] {
        fields.remove(key);
    }
    assert!(fields.contains_key("rules") && fields.contains_key("clubs_apart"));
    let setup: EventSetup = serde_json::from_value(old).expect("an old setup loads");
    assert_eq!(setup, EventSetup::new("Old", 1));
    assert_eq!(setup.seating, SeatingRule::Mixed);
    assert_eq!(setup.placement.list(4), [4, 3, 1, 0]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Placement points hand out the list's sum at every table of n, however the players tie.
    #[test]
    fn placement_points_sum_to_the_same_total_at_every_table_of_n(
        n in 3usize..=5,
        winner in 0usize..5,
        values in proptest::collection::vec(1i64..6, 5),
        list in proptest::collection::vec(0u32..20, 3..=5),
    ) {
        let winner = winner % n;
        let mut points: Vec<i64> = values[..n].iter().map(|v| -v).collect();
        points[winner] = values[..n].iter().enumerate().filter(|(i, _)| *i != winner).map(|(_, v)| v).sum();
        let mut lists = vec![list.clone()];
        if list.len() != n {
            lists.clear();
        }
        let placement = Placement::new(lists).expect("a valid list");
        let places = game_places(&points, winner);
        let earned = placement.points(&places);
        let want: i64 = placement.list(n).iter().map(|&v| i64::from(v) * 60).sum();
        prop_assert_eq!(earned.iter().sum::<i64>(), want);
        prop_assert_eq!(places[winner], 1);
    }

    /// By-standings seating never puts a lower-ranked player at a higher table than a player
    /// ranked above them, and round 2 on keeps every table's starts even.
    #[test]
    fn by_standings_seating_keeps_the_standings_order(
        n in 6usize..=22,
        seed in any::<u64>(),
        rounds in 2usize..=4,
        games in 3u32..=4,
    ) {
        let mut event = engine_event(n, games, Ranking::Placement, SeatingRule::Standings);
        let mut rng = Rng::new(seed);
        event.apply(Command::SeatRound).expect("round 1");
        finish(&mut event, &mut rng);
        for _ in 1..rounds {
            let before = event.standings();
            let rank: HashMap<usize, usize> = before.rows.iter().map(|s| (s.player, s.rank)).collect();
            event.apply(Command::SeatRound).expect("seated");
            let round = event.rounds().last().expect("round").clone();
            let table_of: HashMap<usize, usize> = round
                .tables
                .iter()
                .enumerate()
                .flat_map(|(t, table)| table.seats.iter().map(move |&p| (p, t)))
                .collect();
            for (&a, &ta) in &table_of {
                for (&b, &tb) in &table_of {
                    if rank[&a] < rank[&b] {
                        prop_assert!(ta <= tb, "rank {} at table {} above rank {} at table {}", rank[&a], ta + 1, rank[&b], tb + 1);
                    }
                }
            }
            finish(&mut event, &mut rng);
        }
    }
}
