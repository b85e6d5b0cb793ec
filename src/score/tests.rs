use chrono::{TimeZone, Utc};
use proptest::prelude::*;

use super::*;
use crate::rules::Preset;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2024, 5, 1, 19, 0, 0)
        .single()
        .expect("valid time")
}

fn players(names: &[&str]) -> Players {
    Players::new(names).expect("valid players")
}

fn values(vs: &[u32]) -> Vec<Hand> {
    vs.iter().map(|&v| Hand::of_value(v)).collect()
}

fn tiles(text: &str) -> Hand {
    Hand::of_tiles(parse_rack(text).expect("valid rack"))
}

fn korean() -> RuleSet {
    Preset::Korean.rules()
}

fn seed_sheet(rules: RuleSet) -> Sheet {
    let mut sheet = Sheet::new(
        players(&["루미", "큐브", "퍼니", "알토"]),
        rules,
        Some(1),
        t0(),
    )
    .expect("valid sheet");
    for hands in [
        [0, 5, 16, 3],
        [6, 11, 0, 5],
        [32, 13, 2, 0],
        [0, 14, 16, 19],
    ] {
        sheet
            .add_game(Game::new(values(&hands)))
            .expect("valid game");
    }
    sheet
}

#[test]
fn seed_002_games_from_remaining_values() {
    // Seed 002's printed sheet, entered as what each player had left; the winner went out.
    // Game 1: 루미 out; others 5, 16, 3 → −5, −16, −3; 루미 +(5+16+3) = +24.
    // Game 2: 퍼니 out; 6, 11, 5 → −6, −11, −5; 퍼니 +22.
    // Game 3: 알토 out; 32, 13, 2 → −32, −13, −2; 알토 +47.
    // Game 4: 루미 out; 14, 16, 19 → −14, −16, −19; 루미 +49.
    let sheet = seed_sheet(korean());
    let points: Vec<Vec<i64>> = sheet.scores().iter().map(|s| s.points.clone()).collect();
    assert_eq!(
        points,
        vec![
            vec![24, -5, -16, -3],
            vec![-6, -11, 22, -5],
            vec![-32, -13, -2, 47],
            vec![49, -14, -16, -19],
        ]
    );
    // Totals by hand:
    //   루미 24 − 6 − 32 + 49 = +35 (the seed prints +34)
    //   큐브 −5 − 11 − 13 − 14 = −43
    //   퍼니 −16 + 22 − 2 − 16 = −12
    //   알토 −3 − 5 + 47 − 19 = +20 (the seed prints −21)
    //   sum 35 − 43 − 12 + 20 = 0.
    // Wins: 루미 games 1 and 4 = 2, 큐브 0, 퍼니 1, 알토 1.
    // By highest total: 35 > 20 > −12 > −43 → 루미 1, 알토 2, 퍼니 3, 큐브 4.
    // By most wins then total: 루미 (2 wins) 1; 알토 and 퍼니 1 win each, 20 > −12 → 알토 2,
    // 퍼니 3; 큐브 (0 wins) 4. Same order; the seed's printed 1 4 2 3 is wrong for 퍼니 and 알토.
    let s = sheet.standings();
    assert_eq!(s.totals, vec![35, -43, -12, 20]);
    assert_eq!(s.totals.iter().sum::<i64>(), 0);
    assert_eq!(s.wins, vec![2, 0, 1, 1]);
    assert_eq!(s.by_total, vec![1, 4, 3, 2]);
    assert_eq!(s.by_wins, vec![1, 4, 3, 2]);
    assert_eq!(s.winners(FinalRule::Total), vec![0]);
    assert_eq!(s.winners(FinalRule::Wins), vec![0]);
    assert!(sheet.is_complete());
    assert_eq!(sheet.number(3), GameNumber::of(3, 4));
    assert_eq!(sheet.next_number().round, 2);
}

#[test]
fn final_rules_can_disagree() {
    // Ann wins twice by a little, Bo once by a lot.
    // Game 1: Ann out, Bo 2, Cy 2 → Ann +4, Bo −2, Cy −2.
    // Game 2: Ann out, Bo 3, Cy 1 → Ann +4, Bo −3, Cy −1.
    // Game 3: Bo out, Ann 40, Cy 30 → Bo +70, Ann −40, Cy −30.
    // Totals: Ann 4 + 4 − 40 = −32; Bo −2 − 3 + 70 = +65; Cy −2 − 1 − 30 = −33.
    // By total: Bo 1, Ann 2, Cy 3. By wins: Ann (2) 1, Bo (1) 2, Cy (0) 3.
    let mut sheet = Sheet::new(players(&["Ann", "Bo", "Cy"]), korean(), None, t0()).expect("sheet");
    for hands in [[0, 2, 2], [0, 3, 1], [40, 0, 30]] {
        sheet.add_game(Game::new(values(&hands))).expect("game");
    }
    let s = sheet.standings();
    assert_eq!(s.totals, vec![-32, 65, -33]);
    assert_eq!(s.by_total, vec![2, 1, 3]);
    assert_eq!(s.by_wins, vec![1, 2, 3]);
    assert_eq!(s.winners(FinalRule::Total), vec![1]);
    assert_eq!(s.winners(FinalRule::Wins), vec![0]);
    // Switching the final rule after the fact changes nothing but the ranking used.
    let before = sheet.scores().to_vec();
    sheet.set_final_rule(FinalRule::Wins);
    assert_eq!(sheet.rules().final_rule, FinalRule::Wins);
    assert_eq!(sheet.scores(), before.as_slice());
    assert!(!sheet.is_complete());
}

#[test]
fn pool_exhausted_lowest_wins() {
    // Nobody went out: values 3, 8, 12, 20. Ann (3) wins.
    // Bo −(8−3) = −5, Cy −9, Di −17; Ann +31.
    let p = players(&["Ann", "Bo", "Cy", "Di"]);
    let s = Game::new(values(&[3, 8, 12, 20]))
        .score(&p, &korean())
        .expect("scores");
    assert_eq!(s.points, vec![31, -5, -9, -17]);
    assert_eq!((s.winner, s.went_out), (0, false));
}

#[test]
fn tie_needs_a_named_winner_among_the_lowest() {
    let p = players(&["Ann", "Bo", "Cy"]);
    let game = Game::new(vec![tiles("R2 B3"), Hand::of_value(5), Hand::of_value(9)]);
    let err = game.score(&p, &korean()).expect_err("tie");
    assert_eq!(
        err,
        ScoreError::Tie {
            tied: vec![p.seat(0).expect("seat"), p.seat(1).expect("seat")],
            value: 5
        }
    );
    assert_eq!(err.seats(), vec![0, 1]);
    // Named Bo: Ann −(5−5) = 0, Cy −4, Bo +4.
    let s = game
        .clone()
        .with_winner(1)
        .score(&p, &korean())
        .expect("named");
    assert_eq!(s.points, vec![0, 4, -4]);
    // Naming Cy, who is not lowest, is refused.
    let err = game
        .with_winner(2)
        .score(&p, &korean())
        .expect_err("not lowest");
    assert_eq!(
        err.to_string(),
        "Cy is named the winner with 9 left, but Ann has less (5)"
    );
}

#[test]
fn jokers_count_the_rules_value() {
    let p = players(&["Ann", "Bo"]);
    let game = Game::new(vec![Hand::of_value(0), tiles("R5 J")]);
    // Joker 30: Bo 5 + 30 = 35.
    assert_eq!(game.score(&p, &korean()).expect("k").points, vec![35, -35]);
    // Joker 50 (tournament): 55.
    let t = Preset::Tournament.rules();
    assert_eq!(game.score(&p, &t).expect("t").points, vec![55, -55]);
    let custom = RuleSet {
        joker_penalty: 0,
        ..korean()
    };
    assert_eq!(game.score(&p, &custom).expect("c").points, vec![5, -5]);
}

#[test]
fn not_melded_counts_a_flat_100_where_the_rules_say_so() {
    let p = players(&["Ann", "Bo", "Cy"]);
    let game = Game::new(vec![
        Hand::of_value(0),
        tiles("R1 B2").without_meld(),
        Hand::of_value(7),
    ]);
    // Tournament: Bo counts 100 whatever the rack → Bo −100, Cy −7, Ann +107.
    let t = game.score(&p, &Preset::Tournament.rules()).expect("t");
    assert_eq!(t.points, vec![107, -100, -7]);
    // Korean manual: the rack (3).
    assert_eq!(
        game.score(&p, &korean()).expect("k").points,
        vec![10, -3, -7]
    );
}

#[test]
fn impossible_games_are_refused_with_names() {
    let p = players(&["Ann", "Bo", "Cy"]);
    let rules = korean();
    let err = Game::new(values(&[0, 0, 4]))
        .score(&p, &rules)
        .expect_err("two out");
    assert_eq!(
        err.to_string(),
        "Ann and Bo both have remaining 0, but only one player can go out in a game"
    );
    let err = Game::new(vec![
        Hand::of_value(0).without_meld(),
        Hand::of_value(1),
        Hand::of_value(2),
    ])
    .score(&p, &rules)
    .expect_err("out but not melded");
    assert_eq!(err, ScoreError::WentOutNotMelded(p.seat(0).expect("seat")));
    let err = Game::new(values(&[0, 3, 4]))
        .with_winner(1)
        .score(&p, &rules)
        .expect_err("named someone else");
    assert_eq!(err.to_string(), "Bo is named the winner, but Ann went out");
    let err = Game::new(values(&[0, 3]))
        .score(&p, &rules)
        .expect_err("hand count");
    assert_eq!(
        err,
        ScoreError::HandCount {
            expected: 3,
            found: 2
        }
    );
    let err = Game::new(values(&[1, 3, 4]))
        .with_winner(3)
        .score(&p, &rules)
        .expect_err("no seat 3");
    assert_eq!(err, ScoreError::NoSuchPlayer(3));
    let err = Game::new(values(&[1, 3, MAX_VALUE + 1]))
        .score(&p, &rules)
        .expect_err("too large");
    assert!(err.to_string().starts_with("Cy's remaining value 10000"));
}

#[test]
fn players_are_checked() {
    assert_eq!(Players::new(["A"]), Err(ScoreError::PlayerCount(1)));
    assert_eq!(
        Players::new(["A", "B", "C", "D", "E", "F", "G"]),
        Err(ScoreError::PlayerCount(7))
    );
    assert_eq!(Players::new(["A", " "]), Err(ScoreError::EmptyName(2)));
    assert_eq!(
        Players::new(["Ann", "Bo", "ANN"]),
        Err(ScoreError::DuplicateName("ANN".into()))
    );
    let p = players(&["Ann", "Bo"]);
    assert_eq!(p.position(" bo "), Some(1));
    assert_eq!(p.len(), 2);
}

#[test]
fn ranks_share_places() {
    assert_eq!(rank_by(&[5, 5, 5]), vec![1, 1, 1]);
    assert_eq!(
        ranks(&[10, 10, 3], &[1, 2, 0], FinalRule::Total),
        vec![1, 1, 3]
    );
    assert_eq!(
        ranks(&[10, 10, 3], &[1, 2, 0], FinalRule::Wins),
        vec![2, 1, 3]
    );
    // Same wins and same total: a true tie.
    assert_eq!(
        ranks(&[4, 4, -8], &[1, 1, 1], FinalRule::Wins),
        vec![1, 1, 3]
    );
}

#[test]
fn edit_and_delete_recompute() {
    let mut sheet = seed_sheet(korean());
    // Fix game 2: 큐브 had 1, not 11 → 퍼니 gets 6 + 1 + 5 = 12.
    sheet
        .edit_game(1, Game::new(values(&[6, 1, 0, 5])))
        .expect("edit");
    assert_eq!(sheet.scores()[1].points, vec![-6, -1, 12, -5]);
    assert_eq!(sheet.standings().totals, vec![35, -33, -22, 20]);
    let removed = sheet.delete_game(0).expect("delete");
    assert_eq!(removed.hands, values(&[0, 5, 16, 3]));
    assert_eq!(sheet.games().len(), 3);
    assert_eq!(sheet.standings().totals.iter().sum::<i64>(), 0);
    assert_eq!(sheet.delete_game(7), Err(ScoreError::NoSuchGame(8)));
    assert_eq!(
        sheet.edit_game(5, Game::new(values(&[0, 1, 2, 3]))),
        Err(ScoreError::NoSuchGame(6))
    );
    // A bad edit leaves the sheet as it was.
    let before = sheet.clone();
    assert!(
        sheet
            .edit_game(0, Game::new(values(&[2, 2, 5, 5])))
            .is_err()
    );
    assert_eq!(sheet, before);
}

#[test]
fn a_rule_change_that_creates_a_tie_is_refused_and_names_the_game() {
    let p = players(&["Ann", "Bo"]);
    let mut sheet = Sheet::new(p, korean(), None, t0()).expect("sheet");
    // Pool out: Ann holds a joker (30 now, 50 in the tournament), Bo 50.
    sheet
        .add_game(Game::new(vec![tiles("J"), Hand::of_value(50)]))
        .expect("game");
    let before = sheet.clone();
    let err = sheet
        .set_rules(Preset::Tournament.rules())
        .expect_err("tie at 50");
    assert_eq!(
        err.to_string(),
        "game 1: Ann and Bo tie for the lowest remaining value (50); name the winner"
    );
    assert_eq!(sheet, before);
    sheet
        .set_rules(Preset::English.rules())
        .expect("same values");
    assert_eq!(sheet.rules().final_rule, FinalRule::Wins);
}

#[test]
fn planned_rounds_and_renames() {
    let mut sheet = Sheet::new(players(&["Ann", "Bo"]), korean(), Some(2), t0()).expect("sheet");
    assert_eq!(sheet.planned_games(), Some(4));
    assert_eq!(
        sheet.set_planned_rounds(Some(0)),
        Err(ScoreError::ZeroRounds)
    );
    sheet.set_planned_rounds(None).expect("open-ended");
    assert_eq!(sheet.planned_games(), None);
    assert!(sheet.rename_player(1, "ann").is_err());
    sheet.rename_player(1, "Bea").expect("rename");
    assert_eq!(sheet.players().names(), ["Ann", "Bea"]);
    let later = t0() + chrono::Duration::minutes(20);
    sheet
        .add_game(Game::new(values(&[0, 4])).at(later))
        .expect("game");
    assert_eq!(sheet.last_activity(), later);
}

#[test]
fn sheet_saves_facts_only_and_loads_them_back() {
    let mut sheet = seed_sheet(Preset::Tournament.rules());
    sheet
        .add_game(
            Game::new(vec![
                tiles("R5 J"),
                Hand::of_value(5).without_meld(),
                Hand::of_value(40),
                Hand::of_value(9),
            ])
            .at(t0()),
        )
        .expect("game");
    let json = serde_json::to_value(&sheet).expect("serialises");
    let text = json.to_string();
    assert!(!text.contains("points"), "no derived points saved: {text}");
    assert_eq!(
        json["games"][4]["hands"][0]["left"],
        serde_json::json!(["R5", "J"])
    );
    assert_eq!(json["games"][4]["hands"][1]["not_melded"], true);
    let back: Sheet = serde_json::from_value(json).expect("loads");
    assert_eq!(back, sheet);
    // A saved sheet whose game no longer scores is refused on load, naming the game.
    let mut broken = serde_json::to_value(&sheet).expect("serialises");
    broken["games"][0]["hands"][1]["left"] = serde_json::json!(0);
    let err = serde_json::from_value::<Sheet>(broken).expect_err("two went out");
    assert!(
        err.to_string()
            .contains("game 1: 루미 and 큐브 both have remaining 0")
    );
}

#[test]
fn remaining_values_parse_and_display() {
    assert_eq!("17".parse(), Ok(Remaining::Value(17)));
    assert_eq!(" +3 ".parse(), Ok(Remaining::Value(3)));
    assert_eq!(
        "r5 빨강7 조커".parse::<Remaining>().map(|r| r.to_string()),
        Ok("R5 R7 J".into())
    );
    assert_eq!("".parse::<Remaining>(), Err(RemainingError::Empty));
    assert_eq!(
        "-5".parse::<Remaining>(),
        Err(RemainingError::Negative("-5".into()))
    );
    assert_eq!(
        "−5".parse::<Remaining>(),
        Err(RemainingError::Negative("−5".into()))
    );
    assert_eq!(
        "4.5".parse::<Remaining>(),
        Err(RemainingError::NotANumber("4.5".into()))
    );
    assert_eq!(
        "123456789012".parse::<Remaining>(),
        Err(RemainingError::TooLarge("123456789012".into()))
    );
    let err = "R5 G7".parse::<Remaining>().expect_err("bad tile");
    assert_eq!(
        err.to_string(),
        "\"R5 G7\" is neither a number nor tiles: unknown colour \"G\" in \"G7\""
    );
}

// ---- property tests ----

fn arb_rules() -> impl Strategy<Value = RuleSet> {
    (
        prop_oneof![Just(30_u32), Just(50), 0_u32..200],
        proptest::option::of(prop_oneof![Just(100_u32), 0_u32..200]),
        prop_oneof![Just(FinalRule::Total), Just(FinalRule::Wins)],
    )
        .prop_map(|(joker_penalty, not_melded_value, final_rule)| RuleSet {
            joker_penalty,
            not_melded_value,
            final_rule,
            ..RuleSet::default()
        })
}

fn arb_hand() -> impl Strategy<Value = Hand> {
    let left = prop_oneof![
        (0_u32..120).prop_map(Remaining::Value),
        proptest::collection::vec(
            (0_usize..53).prop_map(|i| Tile::from_index(i).unwrap_or(Tile::JOKER)),
            0..8
        )
        // A rack the standard set can hold: at most two of each face.
        .prop_map(|tiles| {
            let mut kept: Vec<Tile> = Vec::new();
            for tile in tiles {
                if kept.iter().filter(|&&t| t == tile).count() < 2 {
                    kept.push(tile);
                }
            }
            Remaining::Tiles(kept)
        }),
    ];
    (left, any::<bool>()).prop_map(|(left, flag)| {
        let not_melded = flag && !left.is_empty();
        Hand { left, not_melded }
    })
}

/// Hands for `n` players with at most one player out, and a pick used to name a tie winner.
fn arb_hands(n: usize) -> impl Strategy<Value = (Vec<Hand>, usize)> {
    (proptest::collection::vec(arb_hand(), n), any::<usize>()).prop_map(|(mut hands, pick)| {
        // One set is dealt: the racks together hold at most two of each face.
        let mut dealt: Vec<Tile> = Vec::new();
        for hand in &mut hands {
            if let Remaining::Tiles(tiles) = &mut hand.left {
                tiles.retain(|&tile| {
                    let keep = dealt.iter().filter(|&&t| t == tile).count() < 2;
                    if keep {
                        dealt.push(tile);
                    }
                    keep
                });
                hand.not_melded &= !tiles.is_empty();
            }
        }
        let mut seen_out = false;
        for hand in &mut hands {
            if hand.went_out() {
                if seen_out {
                    hand.left = Remaining::Value(1);
                }
                seen_out = true;
            }
        }
        (hands, pick)
    })
}

/// The game with a winner named among the lowest (when nobody went out), so it always scores.
fn decided(hands: Vec<Hand>, pick: usize, rules: &RuleSet) -> Game {
    let game = Game::new(hands);
    if game.went_out().is_some() {
        return game;
    }
    let values: Vec<i64> = game.hands.iter().map(|h| h.counted_value(rules)).collect();
    let lowest = values.iter().copied().min().unwrap_or(0);
    let tied: Vec<usize> = (0..values.len()).filter(|&i| values[i] == lowest).collect();
    let seat = tied[pick % tied.len()];
    game.with_winner(seat)
}

fn arb_sheet() -> impl Strategy<Value = Sheet> {
    (2_usize..=6, arb_rules()).prop_flat_map(|(n, rules)| {
        proptest::collection::vec(arb_hands(n), 0..12).prop_map(move |games| {
            let names: Vec<String> = (0..n).map(|i| format!("P{i}")).collect();
            let p = Players::new(&names).expect("valid names");
            let mut sheet = Sheet::new(p, rules, None, t0()).expect("sheet");
            for (hands, pick) in games {
                sheet
                    .add_game(decided(hands, pick, &rules))
                    .expect("a decided game scores");
            }
            sheet
        })
    })
}

/// Oracle: sort the keys best first and give each the position of its first equal.
fn oracle_ranks<K: Ord + Clone>(keys: &[K]) -> Vec<usize> {
    let mut sorted = keys.to_vec();
    sorted.sort_by(|a, b| b.cmp(a));
    keys.iter()
        .map(|k| sorted.iter().position(|s| s == k).unwrap_or(0) + 1)
        .collect()
}

proptest! {
    #[test]
    fn every_game_sums_to_zero((n, rules, (hands, pick)) in (2_usize..=6, arb_rules())
                                   .prop_flat_map(|(n, r)| (Just(n), Just(r), arb_hands(n)))) {
        let names: Vec<String> = (0..n).map(|i| format!("P{i}")).collect();
        let p = Players::new(&names).expect("valid names");
        let score = decided(hands, pick, &rules).score(&p, &rules).expect("scores");
        prop_assert_eq!(score.points.iter().sum::<i64>(), 0);
        let w = score.winner;
        prop_assert!(score.values.iter().all(|&v| v >= score.values[w]));
        for (i, &pts) in score.points.iter().enumerate() {
            prop_assert_eq!(pts, if i == w { pts } else { score.values[w] - score.values[i] });
            prop_assert!(i == w || pts <= 0);
        }
    }

    #[test]
    fn any_game_scores_or_names_its_problem(hands in proptest::collection::vec(arb_hand(), 0..8),
                                            winner in proptest::option::of(0_usize..8),
                                            rules in arb_rules()) {
        let p = players(&["A", "B", "C", "D"]);
        let game = Game { hands, winner, played_at: None, entry: None };
        match game.score(&p, &rules) {
            Ok(score) => prop_assert_eq!(score.points.iter().sum::<i64>(), 0),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn totals_sum_to_zero_and_wins_count_games(sheet in arb_sheet()) {
        let s = sheet.standings();
        prop_assert_eq!(s.totals.iter().sum::<i64>(), 0);
        prop_assert_eq!(s.wins.iter().sum::<usize>(), sheet.games().len());
        for score in sheet.scores() {
            prop_assert_eq!(score.points.iter().sum::<i64>(), 0);
        }
    }

    #[test]
    fn ranks_are_consistent_with_the_rule(sheet in arb_sheet()) {
        let s = sheet.standings();
        prop_assert_eq!(&s.by_total, &oracle_ranks(&s.totals));
        let keys: Vec<(usize, i64)> = s.wins.iter().copied().zip(s.totals.iter().copied()).collect();
        prop_assert_eq!(&s.by_wins, &oracle_ranks(&keys));
        for rule in [FinalRule::Total, FinalRule::Wins] {
            let r = s.ranks(rule);
            prop_assert!(r.contains(&1));
            for i in 0..r.len() {
                for j in 0..r.len() {
                    let better = match rule {
                        FinalRule::Total => s.totals[i] > s.totals[j],
                        FinalRule::Wins => keys[i] > keys[j],
                    };
                    let tied = match rule {
                        FinalRule::Total => s.totals[i] == s.totals[j],
                        FinalRule::Wins => keys[i] == keys[j],
                    };
                    prop_assert_eq!(better, r[i] < r[j]);
                    prop_assert_eq!(tied, r[i] == r[j]);
                }
            }
            prop_assert!(!s.winners(rule).is_empty());
        }
    }

    #[test]
    fn switching_rules_and_back_gives_the_same_sheet(sheet in arb_sheet(), other in arb_rules()) {
        let original = sheet.clone();
        let mut changed = sheet;
        let switched = changed.set_rules(other);
        if switched.is_err() {
            prop_assert_eq!(&changed, &original);
        }
        changed.set_rules(*original.rules()).expect("the original rules still score");
        prop_assert_eq!(&changed, &original);
        prop_assert_eq!(changed.standings(), original.standings());
        let mut flipped = original.clone();
        flipped.set_final_rule(original.rules().final_rule.other());
        flipped.set_final_rule(original.rules().final_rule);
        prop_assert_eq!(flipped, original);
    }

    /// Appending keeps running totals instead of rescoring: they must equal a full recompute.
    #[test]
    fn appending_games_matches_a_full_recompute(sheet in arb_sheet()) {
        prop_assert_eq!(sheet.standings(), Standings::of(sheet.players().len(), sheet.scores()));
        let rebuilt = Sheet::try_from(sheet.facts.clone()).expect("scores");
        prop_assert_eq!(&rebuilt, &sheet);
        let mut edited = sheet.clone();
        if let Some(first) = sheet.games().first() {
            edited.edit_game(0, first.clone()).expect("same game");
            prop_assert_eq!(edited.standings(), sheet.standings());
        }
    }

    #[test]
    fn sheets_round_trip_through_json(sheet in arb_sheet()) {
        let text = serde_json::to_string(&sheet).expect("serialises");
        let back: Sheet = serde_json::from_str(&text).expect("loads");
        prop_assert_eq!(back, sheet);
    }
}
