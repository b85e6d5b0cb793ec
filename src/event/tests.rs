//! Tests of the event engine: seating properties over many seeds (against a brute force for
//! small events), rankings and tie-breaks worked by hand, corrections and refusals.

use proptest::prelude::*;

use super::seating::{Rng, count_repeats, meetings, table_sizes};
use super::{Command, Event, EventSetup, Outcome, Ranking, Refusal};
use crate::score::{Game, Hand};

fn game(values: &[u32]) -> Game {
    Game::new(values.iter().map(|&v| Hand::of_value(v)).collect())
}

fn event_of(n: usize, seed: u64, games: u32) -> Event {
    let mut setup = EventSetup::new("Test night", seed);
    setup.games = games;
    let mut event = Event::new(setup).expect("a valid setup");
    for i in 0..n {
        event
            .apply(Command::AddPlayer {
                name: format!("P{i:02}"),
                club: None,
                division: None,
                id: None,
            })
            .expect("a new name");
    }
    event
}

/// Random games for every open table of the current round: one player goes out, the others
/// keep 1–60 points.
fn finish_round(event: &mut Event, rng: &mut Rng) {
    let round = event.rounds().last().expect("a round").clone();
    for table in round.tables.iter().filter(|t| !t.is_finished()) {
        let names = event.seat_names(table);
        let games = (0..event.setup().games)
            .map(|_| {
                let out = rng.below(names.len() as u64) as usize;
                let values: Vec<u32> = (0..names.len())
                    .map(|i| {
                        if i == out {
                            0
                        } else {
                            1 + rng.below(60) as u32
                        }
                    })
                    .collect();
                game(&values)
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
            .expect("a valid result");
    }
}

/// The spread of starts (most minus fewest, over the seated) after a round played by `tables`
/// with `games` games each, when each table gives its extra starts to those who started least
/// (the order given among equals): worked out here on its own, not by the seating's code.
fn spread_after(tables: &[Vec<usize>], started: &[u32], games: u32) -> u32 {
    let mut ends = Vec::new();
    for table in tables {
        let n = table.len() as u32;
        let mut seated: Vec<u32> = table.iter().map(|&p| started[p]).collect();
        seated.sort_unstable();
        for (i, c) in seated.into_iter().enumerate() {
            ends.push(c + games / n + u32::from((i as u32) < games % n));
        }
    }
    ends.iter().max().copied().unwrap_or(0) - ends.iter().min().copied().unwrap_or(0)
}

/// Every split of `players` into tables of `sizes` (brute force): for each, its start spread
/// and whether it repeats a meeting. Returns (the narrowest spread, whether some split of that
/// spread repeats nothing).
fn best_splits(
    players: &[usize],
    sizes: &[usize],
    met: &[Vec<bool>],
    started: &[u32],
    games: u32,
) -> (u32, bool) {
    fn go(
        rest: &[usize],
        sizes: &mut Vec<usize>,
        tables: &mut Vec<Vec<usize>>,
        met: &[Vec<bool>],
        started: &[u32],
        games: u32,
        best: &mut (u32, bool),
    ) {
        let Some((&first, others)) = rest.split_first() else {
            let spread = spread_after(tables, started, games);
            let clean = tables.iter().all(|t| {
                t.iter()
                    .enumerate()
                    .all(|(i, &a)| t[i + 1..].iter().all(|&b| !met[a][b]))
            });
            if spread < best.0 {
                *best = (spread, clean);
            } else if spread == best.0 {
                best.1 |= clean;
            }
            return;
        };
        let mut tried = Vec::new();
        for k in 0..sizes.len() {
            let size = sizes[k];
            if tried.contains(&size) {
                continue;
            }
            tried.push(size);
            sizes.remove(k);
            // Every choice of size − 1 companions for `first` among `others`.
            let mut choose = |chosen: &[usize]| {
                let mut table = vec![first];
                table.extend_from_slice(chosen);
                let left: Vec<usize> = others
                    .iter()
                    .copied()
                    .filter(|p| !chosen.contains(p))
                    .collect();
                tables.push(table);
                go(&left, sizes, tables, met, started, games, best);
                tables.pop();
            };
            for_each_choice(others, size - 1, &mut Vec::new(), &mut choose);
            sizes.insert(k, size);
        }
    }
    fn for_each_choice(
        from: &[usize],
        need: usize,
        chosen: &mut Vec<usize>,
        f: &mut dyn FnMut(&[usize]),
    ) {
        if need == 0 {
            f(chosen);
            return;
        }
        for (i, &p) in from.iter().enumerate() {
            chosen.push(p);
            for_each_choice(&from[i + 1..], need - 1, chosen, f);
            chosen.pop();
        }
    }
    let mut best = (u32::MAX, false);
    go(
        players,
        &mut sizes.to_vec(),
        &mut Vec::new(),
        met,
        started,
        games,
        &mut best,
    );
    best
}

#[test]
fn table_sizes_use_fours_then_threes() {
    for n in 0..=120 {
        match table_sizes(n) {
            None => assert!([0, 1, 2, 5].contains(&n), "{n} should be seatable"),
            Some(sizes) => {
                assert_eq!(sizes.iter().sum::<usize>(), n);
                assert!(sizes.iter().all(|&s| s == 3 || s == 4));
                // As many 4s as possible: fewer than four 3-tables (four 3s are three 4s).
                assert!(
                    sizes.iter().filter(|&&s| s == 3).count() < 4,
                    "{n}: {sizes:?}"
                );
            }
        }
    }
}

#[test]
fn five_players_are_refused_with_the_xp_offer() {
    let mut event = event_of(5, 1, 1);
    assert_eq!(
        event.apply(Command::SeatRound),
        Err(Refusal::CannotSeat {
            players: 5,
            xp_table: true
        })
    );
    let mut two = event_of(2, 1, 1);
    assert_eq!(
        two.apply(Command::SeatRound),
        Err(Refusal::CannotSeat {
            players: 2,
            xp_table: false
        })
    );
    assert!(event.rounds().is_empty() && event.log().len() == 5);
}

#[test]
fn the_same_seed_seats_alike_and_another_seed_differently() {
    let seat = |seed| {
        let mut event = event_of(24, seed, 1);
        event.apply(Command::SeatRound).expect("24 can sit");
        event.rounds()[0].clone()
    };
    assert_eq!(seat(7), seat(7));
    assert_ne!(seat(7), seat(8));
}

#[test]
fn a_24_player_night_of_three_rounds_has_no_repeat_meeting() {
    let mut uneven = 0;
    for seed in 0..50 {
        let mut event = event_of(24, seed, 4);
        let mut rng = Rng::new(seed + 1000);
        for _ in 0..3 {
            let Ok(Outcome::Seated { repeats, .. }) = event.apply(Command::SeatRound) else {
                panic!("seed {seed}: a 24-player round seats");
            };
            assert_eq!(repeats, 0, "seed {seed}");
            finish_round(&mut event, &mut rng);
        }
        // Four games at tables of four: everyone starts one game a round.
        let starts = super::seating::starts(&event);
        uneven += starts.iter().filter(|&&s| s != 3).count();
        assert!(starts.iter().all(|&s| s == 3), "seed {seed}: {starts:?}");
        let met = meetings(&event);
        // Three rounds at tables of 4: everyone met exactly 9 others.
        for (p, row) in met.iter().enumerate() {
            assert_eq!(
                row.iter().filter(|&&m| m).count(),
                9,
                "seed {seed}, player {p}"
            );
        }
    }
    assert_eq!(uneven, 0);
}

#[test]
fn clubs_apart_keeps_a_club_at_different_tables_in_round_1() {
    for seed in 0..30 {
        let mut setup = EventSetup::new("Clubs", seed);
        setup.clubs_apart = true;
        let mut event = Event::new(setup).expect("valid");
        for i in 0..16 {
            let club = ["Seoul", "Busan", "Daegu", "Incheon"][i % 4];
            event
                .apply(Command::AddPlayer {
                    name: format!("P{i}"),
                    club: Some(club.into()),
                    division: None,
                    id: None,
                })
                .expect("new");
        }
        event.apply(Command::SeatRound).expect("16 sit");
        for table in &event.rounds()[0].tables {
            let mut clubs: Vec<_> = table
                .seats
                .iter()
                .map(|&p| event.players()[p].club.clone())
                .collect();
            clubs.sort();
            clubs.dedup();
            assert_eq!(clubs.len(), 4, "seed {seed}: {:?}", table.seats);
        }
    }
}

#[test]
fn hand_worked_standings_and_tie_breaks() {
    // 8 players, 1 game a round, two tables.
    let mut event = event_of(8, 3, 1);
    event.apply(Command::SeatRound).expect("8 sit");
    let round = event.rounds()[0].clone();
    let a = event.seat_names(&round.tables[0]);
    let b = event.seat_names(&round.tables[1]);
    // Table 1: a0 goes out; a1 10, a2 20, a3 30 → a0 +60, a1 −10, a2 −20, a3 −30.
    // Table 2: b0 goes out; b1 10, b2 20, b3 30 → the same points.
    for (names, table) in [(&a, 1), (&b, 2)] {
        event
            .apply(Command::Result {
                round: None,
                table,
                players: names.clone(),
                games: vec![game(&[0, 10, 20, 30])],
                correct: false,
            })
            .expect("valid");
    }
    let s = event.standings_by(Ranking::Wins);
    let ranks: Vec<(String, usize, i64)> = s
        .rows
        .iter()
        .map(|r| (r.name.clone(), r.rank, r.points))
        .collect();
    // a0 and b0 are equal on everything and never met: they share rank 1; then a1/b1 share 3 …
    let rank_of = |n: &str| ranks.iter().find(|r| r.0 == n).map(|r| r.1);
    assert_eq!(rank_of(&a[0]), Some(1));
    assert_eq!(rank_of(&b[0]), Some(1));
    assert_eq!(rank_of(&a[1]), Some(3));
    assert_eq!(rank_of(&b[1]), Some(3));
    assert_eq!(rank_of(&a[3]), Some(7));
    assert_eq!(s.rows[0].points, 60);
    assert_eq!(s.rows[0].percent, 10_000);
    // a1: −10 of a winner's 60 → −16.67 %, rounded down to −1667 hundredths.
    let a1 = s.rows.iter().find(|r| r.name == a[1]).expect("a1");
    assert_eq!(a1.percent, -1667);

    // Round 2: a0 and b0 meet. b0 goes out; a0 is second with 5.
    let Ok(Outcome::Seated { repeats, .. }) = event.apply(Command::SeatRound) else {
        panic!("round 2 seats");
    };
    // 8 players at two tables cannot avoid repeats in round 2: each new table of 4 holds at
    // most one pair from each old table, so 2 pairs a table at the least.
    assert_eq!(repeats, 4);
    let r2 = event.rounds()[1].clone();
    let top = r2
        .tables
        .iter()
        .find(|t| t.seats.contains(&event.player_index(&a[0]).expect("a0")))
        .expect("a0 sits");
    // Standings order seats the two leaders together.
    assert!(top.seats.contains(&event.player_index(&b[0]).expect("b0")));
    let names = event.seat_names(top);
    let values: Vec<u32> = names
        .iter()
        .map(|n| match n {
            n if *n == b[0] => 0,
            n if *n == a[0] => 5,
            _ => 40,
        })
        .collect();
    event
        .apply(Command::Result {
            round: None,
            table: top.number,
            players: names.clone(),
            games: vec![game(&values)],
            correct: false,
        })
        .expect("valid");
    let s = event.standings_by(Ranking::Wins);
    // b0: 2 wins; a0: 1 win, 60 − 5 = 55 points.
    assert_eq!(s.rows[0].name, b[0]);
    assert_eq!((s.rows[0].wins, s.rows[0].rank), (2, 1));
    assert!(!event.rounds()[1].is_complete());
    // Totals: b0 60 + (5 + 40 + 40) = 145; a0 60 − 5 = 55.
    assert_eq!(s.rows[0].points, 145);
    let a0 = s.rows.iter().find(|r| r.name == a[0]).expect("a0");
    assert_eq!((a0.points, a0.wins, a0.rank), (55, 1, 2));
}

#[test]
fn head_to_head_ends_the_chain() {
    // Two tables of 3, one game each. Then round 2 where two players tied on everything met.
    // Built directly: equal keys, a met b at one table and b placed below a.
    let mut event = event_of(6, 11, 1);
    event.apply(Command::SeatRound).expect("6 sit");
    let r1 = event.rounds()[0].clone();
    for t in &r1.tables {
        let names = event.seat_names(t);
        event
            .apply(Command::Result {
                round: None,
                table: t.number,
                players: names,
                games: vec![game(&[0, 10, 10])],
                correct: false,
            })
            .expect("valid");
    }
    // Seat 2 and 3 of each table tie on points (−10), wins (0), place (2, shared), places.
    // They met at their table with equal places: head-to-head 0, so they share the rank.
    let s = event.standings();
    let ranks: Vec<usize> = s.rows.iter().map(|r| r.rank).collect();
    assert_eq!(ranks, [1, 1, 3, 3, 3, 3]);
}

#[test]
fn the_latest_round_place_breaks_a_tie_on_points_and_wins() {
    // Hand-built: 4 players, two rounds of 1 game at one table of 4 each, so every pair met
    // twice. Round 1: A out, B 10, C 20, D 30. Round 2: B out, A 10, D 20, C 30.
    // A: +60 −10 = 50, 1 win; B: −10 +60 = 50, 1 win. Latest place: B 1st, A 2nd → B ahead
    // already before head-to-head. C: −20 −30 = −50; D: −30 −20 = −50; latest places C 4th, D
    // 3rd → D ahead.
    let mut event = event_of(4, 5, 1);
    let play = |event: &mut Event, values: [(&str, u32); 4]| {
        event.apply(Command::SeatRound).expect("4 sit");
        let t = event.rounds().last().expect("round").tables[0].clone();
        let names = event.seat_names(&t);
        let vals: Vec<u32> = names
            .iter()
            .map(|n| values.iter().find(|v| v.0 == n).map_or(99, |v| v.1))
            .collect();
        event
            .apply(Command::Result {
                round: None,
                table: 1,
                players: names,
                games: vec![game(&vals)],
                correct: false,
            })
            .expect("valid");
    };
    play(
        &mut event,
        [("P00", 0), ("P01", 10), ("P02", 20), ("P03", 30)],
    );
    // 4 players must meet again: the seating says so.
    play(
        &mut event,
        [("P01", 0), ("P00", 10), ("P03", 20), ("P02", 30)],
    );
    assert_eq!(event.rounds()[1].repeats, 6);
    let s = event.standings_by(Ranking::Total);
    let order: Vec<&str> = s.rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(order, ["P01", "P00", "P03", "P02"]);
    let ranks: Vec<usize> = s.rows.iter().map(|r| r.rank).collect();
    assert_eq!(ranks, [1, 2, 3, 4]);
}

/// Enters one game at every table of the current round, the values from `values(names)`.
fn enter_round(event: &mut Event, values: impl Fn(&[String]) -> Vec<u32>) {
    let round = event.rounds().last().expect("a round").clone();
    for table in &round.tables {
        let names = event.seat_names(table);
        let games = vec![game(&values(&names))];
        event
            .apply(Command::Result {
                round: None,
                table: table.number,
                players: names,
                games,
                correct: false,
            })
            .expect("a valid result");
    }
}

#[test]
fn head_to_head_separates_players_equal_on_everything_else() {
    // X and Y share a table in round 1 (X first, Y second), sit apart in round 2 (X second,
    // Y first) and are both second in round 3: equal points (90), wins (1), latest place (2)
    // and places (one first, two seconds). X placed above Y when they met: X ranks higher.
    let mut event = event_of(8, 17, 1);
    event.apply(Command::SeatRound).expect("sit");
    let t1 = event.seat_names(&event.rounds()[0].tables[0]);
    let (x, y) = (t1[0].clone(), t1[1].clone());
    // Values by name; then someone else goes out if nobody did, and someone else keeps 10
    // if nobody does (so a winner's table always reads 0, 10, 50, 50).
    let pick = |names: &[String], own: &dyn Fn(&str) -> Option<u32>| {
        let mut values: Vec<u32> = names.iter().map(|n| own(n).unwrap_or(50)).collect();
        let others: Vec<usize> = (0..names.len())
            .filter(|&i| names[i] != x && names[i] != y)
            .collect();
        let mut free = others.into_iter();
        if !values.contains(&0)
            && let Some(i) = free.next()
        {
            values[i] = 0;
        }
        if !values.contains(&10)
            && let Some(i) = free.next()
        {
            values[i] = 10;
        }
        values
    };
    enter_round(&mut event, |names| {
        pick(names, &|n| (n == x).then_some(0).or((n == y).then_some(10)))
    });
    event.apply(Command::SeatRound).expect("round 2");
    let r2 = event.rounds()[1].clone();
    let xi = event.player_index(&x).expect("x");
    let yi = event.player_index(&y).expect("y");
    assert!(
        !r2.tables
            .iter()
            .any(|t| t.seats.contains(&xi) && t.seats.contains(&yi))
    );
    enter_round(&mut event, |names| {
        pick(names, &|n| (n == x).then_some(10).or((n == y).then_some(0)))
    });
    event.apply(Command::SeatRound).expect("round 3");
    enter_round(&mut event, |names| {
        pick(names, &|n| (n == x || n == y).then_some(10))
    });
    let s = event.standings_by(Ranking::Wins);
    let row = |p: usize| s.rows.iter().find(|r| r.player == p).expect("row").clone();
    let (rx, ry) = (row(xi), row(yi));
    assert_eq!(
        (rx.points, rx.wins, rx.places),
        (ry.points, ry.wins, ry.places)
    );
    assert_eq!((rx.points, rx.wins), (90, 1));
    assert!(rx.rank < ry.rank, "{rx:?} {ry:?}");
}

#[test]
fn a_correction_to_a_closed_round_re_ranks_and_keeps_the_old_result() {
    let mut event = event_of(8, 21, 1);
    event.apply(Command::SeatRound).expect("sit");
    let r1 = event.rounds()[0].clone();
    for t in &r1.tables {
        event
            .apply(Command::Result {
                round: None,
                table: t.number,
                players: event.seat_names(t),
                games: vec![game(&[0, 10, 20, 30])],
                correct: false,
            })
            .expect("valid");
    }
    event.apply(Command::SeatRound).expect("round 2");
    let names = event.seat_names(&r1.tables[0]);
    // Without --correct: refused, nothing changes.
    let again = Command::Result {
        round: Some(1),
        table: 1,
        players: names.clone(),
        games: vec![game(&[30, 0, 20, 10])],
        correct: false,
    };
    let before = event.clone();
    assert_eq!(
        event.apply(again),
        Err(Refusal::AlreadyRecorded { round: 1, table: 1 })
    );
    assert_eq!(event, before);
    let leader_before = event.standings().rows[0].points;
    assert_eq!(leader_before, 60);
    let outcome = event
        .apply(Command::Result {
            round: Some(1),
            table: 1,
            players: names.clone(),
            games: vec![game(&[30, 0, 20, 10])],
            correct: true,
        })
        .expect("a correction");
    assert!(matches!(
        outcome,
        Outcome::Recorded {
            corrected: true,
            round: 1,
            ..
        }
    ));
    let table = &event.rounds()[0].tables[0];
    assert_eq!(table.results.len(), 2);
    assert_eq!(table.results[0].entered_in_round, 1);
    assert_eq!(table.results[1].entered_in_round, 2);
    let s = event.standings();
    let first_seat = s.rows.iter().find(|r| r.name == names[0]).expect("seat 1");
    let second_seat = s.rows.iter().find(|r| r.name == names[1]).expect("seat 2");
    assert_eq!(first_seat.points, -30);
    assert_eq!((second_seat.points, second_seat.wins), (60, 1));
    assert!(matches!(
        event.log().last().map(|e| &e.command),
        Some(Command::Result { correct: true, .. })
    ));
}

#[test]
fn results_are_checked_against_the_table() {
    let mut event = event_of(8, 2, 2);
    assert_eq!(
        event.apply(Command::Result {
            round: None,
            table: 1,
            players: vec![],
            games: vec![],
            correct: false
        }),
        Err(Refusal::NotSeated)
    );
    event.apply(Command::SeatRound).expect("sit");
    let t1 = event.rounds()[0].tables[0].clone();
    let t2 = event.rounds()[0].tables[1].clone();
    let names = event.seat_names(&t1);
    let mut wrong = names.clone();
    wrong[3] = event.seat_names(&t2)[0].clone();
    let result = |players: Vec<String>, games: Vec<Game>| Command::Result {
        round: None,
        table: 1,
        players,
        games,
        correct: false,
    };
    let two = vec![game(&[0, 1, 2, 3]), game(&[4, 0, 2, 3])];
    assert!(matches!(
        event.apply(result(wrong, two.clone())),
        Err(Refusal::WrongPlayers { .. })
    ));
    assert!(matches!(
        event.apply(result(names[..3].to_vec(), two.clone())),
        Err(Refusal::WrongPlayers { .. })
    ));
    assert_eq!(
        event.apply(result(names.clone(), two[..1].to_vec())),
        Err(Refusal::WrongGameCount {
            expected: 2,
            found: 1
        })
    );
    // Two players out in one game: the score sheet refuses it, and says which game.
    assert!(matches!(
        event.apply(result(
            names.clone(),
            vec![two[0].clone(), game(&[0, 0, 2, 3])]
        )),
        Err(Refusal::Game { game: 2, .. })
    ));
    assert!(matches!(
        event.apply(Command::Result {
            round: None,
            table: 9,
            players: names.clone(),
            games: two.clone(),
            correct: false
        }),
        Err(Refusal::NoSuchTable {
            table: 9,
            tables: 2,
            ..
        })
    ));
    assert!(matches!(
        event.apply(Command::SeatRound),
        Err(Refusal::RoundOpen { round: 1, .. })
    ));
    // Columns in another order are mapped to seats.
    let mut reversed = names.clone();
    reversed.reverse();
    event
        .apply(result(
            reversed,
            vec![game(&[3, 2, 1, 0]), game(&[3, 2, 4, 0])],
        ))
        .expect("valid");
    let s = event.standings();
    let first = s.rows.iter().find(|r| r.name == names[0]).expect("seat 1");
    assert_eq!(first.wins, 2);
}

#[test]
fn late_players_and_drops() {
    let mut event = event_of(7, 4, 1);
    let mut rng = Rng::new(4);
    event.apply(Command::SeatRound).expect("7 sit");
    event
        .apply(Command::AddPlayer {
            name: "Late".into(),
            club: None,
            division: None,
            id: None,
        })
        .expect("late");
    assert!(matches!(
        event.apply(Command::AddPlayer {
            name: " late ".into(),
            club: None,
            division: None,
            id: None,
        }),
        Err(Refusal::DuplicateName(_))
    ));
    finish_round(&mut event, &mut rng);
    event
        .apply(Command::Drop { name: "p00".into() })
        .expect("drop");
    assert!(matches!(
        event.apply(Command::Drop { name: "P00".into() }),
        Err(Refusal::AlreadyDropped(_))
    ));
    event.apply(Command::SeatRound).expect("7 sit again");
    let seated: Vec<usize> = event.rounds()[1]
        .tables
        .iter()
        .flat_map(|t| t.seats.clone())
        .collect();
    let late = event.player_index("Late").expect("late");
    assert!(seated.contains(&late));
    assert!(!seated.contains(&0));
    assert_eq!(event.players()[late].from_round, 2);
    // The dropped player stays in the standings with their round-1 result.
    let s = event.standings();
    let dropped = s.rows.iter().find(|r| r.player == 0).expect("P00");
    assert!(dropped.dropped && dropped.games == 1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every active player sits once a round at tables of the planned sizes, the recorded
    /// repeats are the real ones, the starts are as even as any seating of the round could
    /// make them (brute force over every split), a repeat happens only when no seating that
    /// even avoids it, and each table's first seats go to those who started least.
    #[test]
    fn seating_properties(n in 3usize..=11, seed in any::<u64>(), rounds in 1usize..=4, games in 1u32..=6) {
        prop_assume!(table_sizes(n).is_some());
        let mut event = event_of(n, seed, games);
        let mut rng = Rng::new(seed ^ 0x55);
        for _ in 0..rounds {
            let met = meetings(&event);
            let starts = super::seating::starts(&event);
            event.apply(Command::SeatRound).expect("seatable");
            let round = event.rounds().last().expect("round").clone();
            let mut seated: Vec<usize> = round.tables.iter().flat_map(|t| t.seats.clone()).collect();
            seated.sort_unstable();
            prop_assert_eq!(seated, (0..n).collect::<Vec<_>>());
            let sizes: Vec<usize> = round.tables.iter().map(|t| t.seats.len()).collect();
            prop_assert_eq!(Some(sizes.clone()), table_sizes(n));
            let tables: Vec<Vec<usize>> = round.tables.iter().map(|t| t.seats.clone()).collect();
            prop_assert_eq!(count_repeats(&tables, &met), round.repeats);
            let (narrowest, clean_exists) =
                best_splits(&(0..n).collect::<Vec<_>>(), &sizes, &met, &starts, games);
            prop_assert_eq!(spread_after(&tables, &starts, games), narrowest);
            if clean_exists {
                prop_assert_eq!(round.repeats, 0);
            }
            for t in &tables {
                let mut order: Vec<u32> = t.iter().map(|&p| starts[p]).collect();
                let sorted = { let mut s = order.clone(); s.sort_unstable(); s };
                prop_assert_eq!(std::mem::take(&mut order), sorted, "least started first");
            }
            finish_round(&mut event, &mut rng);
        }
    }

    /// The rule: at tables of one size, however many games a round has, every
    /// player's starts differ by at most one, round after round (the bug seen: over 3 rounds
    /// of 2 games two players started 3 games and two started none).
    #[test]
    fn every_player_starts_equally_often_at_tables_of_one_size(
        tables in 2usize..=6,
        seed in any::<u64>(),
        games in 1u32..=6,
        rounds in 1usize..=5,
    ) {
        let mut event = event_of(4 * tables, seed, games);
        let mut rng = Rng::new(seed ^ 0x77);
        for _ in 0..rounds {
            event.apply(Command::SeatRound).expect("seatable");
            let starts = super::seating::starts(&event);
            let (most, fewest) = (starts.iter().max(), starts.iter().min());
            prop_assert!(
                most.zip(fewest).is_some_and(|(m, f)| m - f <= 1),
                "{:?}", starts
            );
            let round = event.rounds().last().expect("round");
            for t in &round.tables {
                let per_seat: Vec<usize> = (0..t.seats.len())
                    .map(|s| event.starters(round, t).iter().filter(|&&p| p == t.seats[s]).count())
                    .collect();
                let (lo, hi) = (games as usize / 4, (games as usize).div_ceil(4));
                prop_assert!(per_seat.iter().all(|&k| k == lo || k == hi), "{:?}", per_seat);
            }
            finish_round(&mut event, &mut rng);
        }
    }

    /// The standings agree with a recomputation from the raw games, under every ranking:
    /// points and wins per player, and the order respects the ranking's first two keys.
    #[test]
    fn standings_match_a_recomputation(n in 6usize..=16, seed in any::<u64>(), rounds in 1usize..=3) {
        prop_assume!(table_sizes(n).is_some());
        let mut event = event_of(n, seed, 2);
        let mut rng = Rng::new(seed.wrapping_add(9));
        for _ in 0..rounds {
            event.apply(Command::SeatRound).expect("seatable");
            finish_round(&mut event, &mut rng);
        }
        let mut points = vec![0i64; n];
        let mut wins = vec![0usize; n];
        for round in event.rounds() {
            for table in &round.tables {
                let result = table.result().expect("finished");
                for g in &result.games {
                    let values: Vec<i64> = g.hands.iter().map(|h| h.counted_value(&event.setup().rules)).collect();
                    let w = values.iter().position(|&v| v == 0).expect("one went out");
                    for (s, &p) in table.seats.iter().enumerate() {
                        if s == w {
                            points[p] += values.iter().sum::<i64>();
                            wins[p] += 1;
                        } else {
                            points[p] -= values[s];
                        }
                    }
                }
            }
        }
        for ranking in Ranking::ALL {
            let s = event.standings_by(ranking);
            prop_assert_eq!(s.rows.len(), n);
            for row in &s.rows {
                prop_assert_eq!(row.points, points[row.player]);
                prop_assert_eq!(row.wins, wins[row.player]);
            }
            for pair in s.rows.windows(2) {
                let key = |r: &super::Standing| match ranking {
                    Ranking::Wins => (r.wins as i64, r.points),
                    Ranking::Total => (r.points, r.wins as i64),
                    Ranking::Percent => (r.percent, r.wins as i64),
                    Ranking::Placement => (r.placement, r.points),
                };
                prop_assert!(key(&pair[0]) >= key(&pair[1]));
                prop_assert!(pair[0].rank <= pair[1].rank);
                if key(&pair[0]) > key(&pair[1]) {
                    prop_assert!(pair[0].rank < pair[1].rank);
                }
            }
            prop_assert_eq!(s.rows[0].rank, 1);
        }
    }
}

#[test]
fn five_players_sit_at_one_xp_table_when_the_event_allows_it() {
    let mut setup = EventSetup::new("XP night", 9);
    setup.games = 2;
    setup.xp_tables = true;
    let mut event = Event::new(setup).expect("a valid setup");
    for name in ["Ann", "Bo", "Cy", "Di", "Ed"] {
        event
            .apply(Command::AddPlayer {
                name: name.into(),
                club: None,
                division: None,
                id: None,
            })
            .expect("a new name");
    }
    assert_eq!(
        event.apply(Command::SeatRound),
        Ok(Outcome::Seated {
            round: 1,
            repeats: 0
        })
    );
    let table = event.rounds()[0].tables[0].clone();
    assert_eq!(event.rounds()[0].tables.len(), 1);
    assert_eq!(table.seats.len(), 5);
    assert_eq!(
        event.table_rules(&table).tile_set,
        crate::tile::TileSet::Xp,
        "a table of 5 plays on the XP set"
    );
    // A rack with three jokers exists only in the XP set (it has three; the standard set two).
    let mut xp_game = game(&[0, 10, 10, 10, 10]);
    xp_game.hands[1].left = "J J J".parse().expect("a rack");
    let names = event.seat_names(&table);
    let outcome = event.apply(Command::Result {
        round: None,
        table: 1,
        players: names.clone(),
        games: vec![game(&[0, 5, 6, 7, 8]), xp_game],
        correct: false,
    });
    assert!(
        matches!(
            outcome,
            Ok(Outcome::Recorded {
                round_complete: true,
                ..
            })
        ),
        "{outcome:?}"
    );
    let standings = event.standings();
    assert_eq!(standings.rows.len(), 5);
    assert_eq!(
        standings.rows.iter().map(|s| s.points).sum::<i64>(),
        0,
        "zero-sum over the XP table"
    );
    // Round 2: the five meet again, which no seating avoids; counted, not refused.
    let Ok(Outcome::Seated { repeats, .. }) = event.apply(Command::SeatRound) else {
        panic!("round 2 seats")
    };
    assert_eq!(repeats, 10, "every pair of five meets again");
    // Six players on an XP event sit at tables of 3, as without it.
    let mut six = EventSetup::new("XP six", 1);
    six.xp_tables = true;
    let mut six = Event::new(six).expect("valid");
    for i in 0..6 {
        six.apply(Command::AddPlayer {
            name: format!("S{i}"),
            club: None,
            division: None,
            id: None,
        })
        .expect("new");
    }
    six.apply(Command::SeatRound).expect("6 sit");
    let sizes: Vec<usize> = six.rounds()[0]
        .tables
        .iter()
        .map(|t| t.seats.len())
        .collect();
    assert_eq!(sizes, [3, 3]);
}
