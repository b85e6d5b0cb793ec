//! The initial-meld checker: notation, set reading and verdicts, table-driven from the examples in
//! RULES.md and the seed texts, plus property tests and the `check` command.

use proptest::prelude::*;
use rummikub_companion::meld::{MeldOptions, MeldProblem, check_meld, read_set};
use rummikub_companion::tile::{
    Color, Kind, NotationError, Tile, TileError, TileSet, parse_rack, parse_sets,
};

fn reading(input: &str) -> Result<(Kind, String, u32), String> {
    let sets = parse_sets(input).map_err(|e| format!("parse: {e}"))?;
    assert_eq!(sets.len(), 1, "{input} is one set");
    read_set(&sets[0])
        .map(|r| {
            let shown: Vec<String> = r.represented.iter().map(Tile::to_string).collect();
            (r.kind, shown.join(" "), r.points)
        })
        .map_err(|p| p.to_string())
}

#[track_caller]
fn valid(input: &str, kind: Kind, represented: &str, points: u32) {
    assert_eq!(
        reading(input),
        Ok((kind, represented.to_owned(), points)),
        "{input}"
    );
}

#[track_caller]
fn invalid(input: &str, message: &str) {
    assert_eq!(reading(input), Err(message.to_owned()), "{input}");
}

use Kind::{Group, Run};

#[test]
fn rules_md_joker_positions() {
    valid("R11 J R13", Run, "R11 R12 R13", 36);
    valid("R11 R12 J", Run, "R11 R12 R13", 36);
    valid("J R11 R12", Run, "R10 R11 R12", 33);
    invalid("R12 R13 J", "run would need a 14 after R13");
    invalid("R12 R13 R1", "13 cannot be followed by 1");
}

#[test]
fn descending_runs_are_read_right_to_left() {
    valid("R13 R12 R11", Run, "R13 R12 R11", 36);
    valid("R13 R12 J", Run, "R13 R12 R11", 36);
    valid("J R12 R11", Run, "R13 R12 R11", 36);
    invalid("J R13 R12", "run would need a 14 after R13");
    valid("B3 J B1", Run, "B3 B2 B1", 6);
    invalid("B2 B1 J", "run would need a 0 before B1");
    // Looks descending, is really a wrap-around attempt.
    invalid("R13 R1 R2", "13 cannot be followed by 1");
}

#[test]
fn every_joker_position_at_run_ends() {
    invalid("run: J J R1", "run would need a 0 before R1");
    valid("J J R1", Group, "B1 K1 R1", 3);
    valid("R1 J J", Run, "R1 R2 R3", 6);
    valid("R1 J R3", Run, "R1 R2 R3", 6);
    valid("J K12 K13", Run, "K11 K12 K13", 36);
    valid("K11 K12 J", Run, "K11 K12 K13", 36);
    invalid("K12 K13 J", "run would need a 14 after K13");
    invalid("J R1 R2", "run would need a 0 before R1");
    valid("J J O12 O13", Run, "O10 O11 O12 O13", 46);
    invalid("B10 B11 B12 B13 J", "run would need a 14 after B13");
    valid("J B10 B11 B12 B13", Run, "B9 B10 B11 B12 B13", 55);
}

#[test]
fn runs_from_the_seed_texts() {
    valid("R4 R5 R6", Run, "R4 R5 R6", 15);
    valid("R3 R4 R5", Run, "R3 R4 R5", 12);
    valid("B7 B8 B9 B10", Run, "B7 B8 B9 B10", 34);
    valid("B4 B5 B6", Run, "B4 B5 B6", 15);
    valid("B3 B4 B5 B6", Run, "B3 B4 B5 B6", 18);
    valid("R4 J R6", Run, "R4 R5 R6", 15);
    valid("R5 R6 R7 R8", Run, "R5 R6 R7 R8", 26);
    valid(
        "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13",
        Run,
        "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13",
        91,
    );
    // Seed 003: "빨강 3 → 파랑 4 → 빨강 5 ❌ (색깔이 달라서)": mostly red, so a run with a wrong colour.
    invalid("R3 B4 R5", "run mixes colours (R3, B4)");
    invalid(
        "R3 B4 K5",
        "neither a run nor a group: run mixes colours (R3, B4); group mixes numbers (R3, B4)",
    );
    invalid("R3 R5", "a set needs at least 3 tiles");
    invalid("R3 R5 R6", "R5 does not follow R3: the run needs R4 there");
    invalid("R3 J R6", "R6 does not follow R3: the run needs R5 there");
    invalid("R3 R4 B5 R6", "run mixes colours (R3, B5)");
}

#[test]
fn groups_from_the_seed_texts() {
    valid("R7 B7 O7", Group, "R7 B7 O7", 21);
    valid("R7 B7 O7 K7", Group, "R7 B7 O7 K7", 28);
    valid("B7 K7 O7", Group, "B7 K7 O7", 21);
    valid("K6 O6 B6", Group, "K6 O6 B6", 18);
    valid("B9 O9 R9", Group, "B9 O9 R9", 27);
    valid("K10 B10 O10", Group, "K10 B10 O10", 30);
    invalid("R7 R7 B7", "group has two red tiles (R7, R7)");
    invalid("R7 B7 O7 K7 R7", "a group holds at most 4 tiles");
    invalid("R7 B7 O8", "group mixes numbers (R7, O8)");
    invalid("R5 R5 R6", "R5 does not follow R5: the run needs R6 there");
}

#[test]
fn every_joker_position_in_groups() {
    valid("J B9 O9", Group, "R9 B9 O9", 27);
    valid("K9 J O9", Group, "K9 R9 O9", 27);
    valid("K9 B9 J", Group, "K9 B9 R9", 27);
    valid("K9 B9 O9 J", Group, "K9 B9 O9 R9", 36);
    valid("J K9 B9 J", Group, "R9 K9 B9 O9", 36);
    invalid("R9 R9 J", "group has two red tiles (R9, R9)");
    invalid("J J J J", "a set needs at least one numbered tile");
    invalid("J J J", "a set needs at least one numbered tile");
}

#[test]
fn kind_ambiguity_uses_the_higher_reading_and_says_so() {
    let sets = parse_sets("R5 J J").expect("parses");
    let r = read_set(&sets[0]).expect("valid");
    assert_eq!((r.kind, r.points), (Run, 18));
    assert_eq!(
        r.note().as_deref(),
        Some("read as run R5 R6 R7 = 18; as a group it would be 15")
    );
    // Equal values: the group reading, and the note still tells the other.
    let sets = parse_sets("J R5 J").expect("parses");
    let r = read_set(&sets[0]).expect("valid");
    assert_eq!((r.kind, r.points), (Group, 15));
    assert_eq!(
        r.note().as_deref(),
        Some("read as group B5 R5 K5 = 15; as a run it would be 15")
    );
    // A high tile: the group is worth more.
    let sets = parse_sets("K13 J J").expect("parses");
    let r = read_set(&sets[0]).expect("valid");
    assert_eq!((r.kind, r.points), (Group, 39));
    assert_eq!(r.alternative, None, "K13 J J cannot be a run");
}

#[test]
fn declarations_choose_the_reading() {
    valid("run: R5 J J", Run, "R5 R6 R7", 18);
    valid("group: R5 J J", Group, "R5 B5 K5", 15);
    valid("그룹: R5 J J", Group, "R5 B5 K5", 15);
    valid("런: R5 J J", Run, "R5 R6 R7", 18);
    valid("연속: R5 J J", Run, "R5 R6 R7", 18);
    valid("GROUP:R5 J J", Group, "R5 B5 K5", 15);
    invalid("run: R7 B7 K7", "run mixes colours (R7, B7)");
    invalid("group: R7 R8 R9", "group mixes numbers (R7, R8)");
    let sets = parse_sets("group: R5 J J").expect("parses");
    assert_eq!(read_set(&sets[0]).expect("valid").note(), None);
}

#[test]
fn korean_and_english_notation() {
    let english = parse_sets("R10 B10 K10 O10").expect("parses");
    for input in [
        "빨강10 파랑10 검정10 주황10",
        "빨10, 파10, 검10, 주10",
        "적10 청10 흑10 노10",
        "빨강 10 파랑 10 검정 10 노랑 10",
        "r10 b10 k10 y10",
    ] {
        assert_eq!(parse_sets(input), Ok(english.clone()), "{input}");
    }
    for joker in ["J", "j", "*", "JOKER", "joker", "조커"] {
        assert_eq!(
            parse_sets(&format!("R1 R2 {joker}")).expect("parses")[0].tiles[2],
            Tile::JOKER
        );
    }
}

#[test]
fn set_separators() {
    for input in [
        "R1 R2 R3 | K9 B9 O9",
        "R1 R2 R3; K9 B9 O9",
        "R1 R2 R3\nK9 B9 O9",
        "R1 R2 R3\n\n  \nK9 B9 O9\n",
        "R1,R2,R3|K9,B9,O9",
    ] {
        let sets = parse_sets(input).expect("parses");
        assert_eq!(sets.len(), 2, "{input}");
        assert_eq!(sets[1].tiles.len(), 3, "{input}");
    }
}

#[track_caller]
fn parse_error(input: &str, message: &str) {
    assert_eq!(
        parse_sets(input).map_err(|e| e.to_string()),
        Err(message.to_owned()),
        "{input}"
    );
}

#[test]
fn bad_input_names_the_token_and_position() {
    parse_error(
        "R1 R14",
        "number 14 in \"R14\" is outside 1–13 (set 1, tile 2, column 4)",
    );
    parse_error(
        "R0 R1 R2",
        "number 0 in \"R0\" is outside 1–13 (set 1, tile 1, column 1)",
    );
    parse_error(
        "R1 R2 R3 | G5",
        "unknown colour \"G\" in \"G5\" (set 2, tile 1, column 12)",
    );
    parse_error("R1 7 R3", "\"7\" has no colour (set 1, tile 2, column 4)");
    parse_error("R1 R", "\"R\" has no number (set 1, tile 2, column 4)");
    parse_error(
        "R1 R2x",
        "\"2x\" in \"R2x\" is not a number (set 1, tile 2, column 4)",
    );
    parse_error("", "no tiles entered");
    parse_error("  \n ", "no tiles entered");
    parse_error(
        "R1 R2 R3 |",
        "empty set: nothing between separators (set 2, column 10)",
    );
    parse_error(
        "| R1 R2 R3",
        "empty set: nothing between separators (set 1, column 1)",
    );
    parse_error(
        "R1 R2 R3 || B1 B2 B3",
        "empty set: nothing between separators (set 2, column 10)",
    );
    parse_error("R1,,R2,R3", "stray \",\" (set 1, tile 2, column 4)");
    parse_error(",R1 R2 R3", "stray \",\" (set 1, tile 1, column 1)");
    parse_error(
        "pair: R1 R1",
        "unknown declaration \"pair:\" (use run: or group:) (set 1, column 1)",
    );
    parse_error(
        "run:",
        "empty set: nothing between separators (set 1, column 1)",
    );
    assert_eq!(parse_sets(""), Err(NotationError::EmptyInput));
    assert!(matches!(
        parse_sets("R1 R2 R99"),
        Err(NotationError::BadTile {
            error: TileError::NumberOutOfRange(..),
            ..
        })
    ));
}

#[test]
fn racks() {
    assert_eq!(parse_rack("K9 B9 O9 J R2 K5").expect("parses").len(), 6);
    assert_eq!(
        parse_rack("K9 | B9").map_err(|e| e.to_string()),
        Err("a rack is one list of tiles: unexpected \"|\" (set 1, column 4)".to_owned())
    );
    assert!(parse_rack("run: R1 R2 R3").is_err());
    assert_eq!(parse_rack(" "), Err(NotationError::EmptyInput));
}

fn verdict(input: &str, options: MeldOptions) -> (bool, u32, Vec<String>) {
    let sets = parse_sets(input).expect("parses");
    let v = check_meld(&sets, options);
    (
        v.is_valid(),
        v.total,
        v.problems.iter().map(ToString::to_string).collect(),
    )
}

fn standard() -> MeldOptions {
    MeldOptions::default()
}

#[test]
fn initial_meld_examples_from_the_seeds() {
    assert_eq!(verdict("R10 R11 R12", standard()), (true, 33, vec![]));
    assert_eq!(
        verdict("K3 K4 K5 | B9 O9 R9", standard()),
        (true, 39, vec![])
    );
    // Seed 004: three different 9s and a same-colour 1 2 3 make 33.
    assert_eq!(
        verdict("R9 B9 K9 | O1 O2 O3", standard()),
        (true, 33, vec![])
    );
    assert_eq!(
        verdict("R4 B4 O4", standard()),
        (false, 12, vec!["total 12 is below 30".to_owned()])
    );
    assert_eq!(
        verdict("R11 J R13 | K9 B9 O9", standard()),
        (true, 63, vec![])
    );
    assert_eq!(verdict("K9 B9 O9 J", standard()), (true, 36, vec![]));
    assert_eq!(verdict("R7 R8 R9 J", standard()), (true, 34, vec![]));
    assert_eq!(verdict("K10 B10 O10", standard()), (true, 30, vec![]));
}

#[test]
fn every_meld_problem_message() {
    assert_eq!(
        verdict("R7 R7 B7 | R10 R11 R12", standard()),
        (
            false,
            33,
            vec!["set 1: group has two red tiles (R7, R7)".to_owned()]
        )
    );
    assert_eq!(
        verdict("R5 B5 K5 | R5 O5 K5 | R5 R6 R7", standard()),
        (
            false,
            48,
            vec!["three R5 but a standard set has two".to_owned()]
        )
    );
    assert_eq!(
        verdict("R5 J J | B1 J B3", standard()).2,
        vec![
            "three jokers but a standard set has two",
            "total 24 is below 30"
        ]
    );
    assert_eq!(
        verdict(
            "R9 B9 K9 | O1 O2 O3",
            MeldOptions {
                threshold: 40,
                ..standard()
            }
        )
        .2,
        vec!["total 33 is below 40"]
    );
    assert_eq!(
        verdict(
            "K9 B9 O9 J",
            MeldOptions {
                jokers_allowed: false,
                ..standard()
            }
        ),
        (
            false,
            36,
            vec!["jokers are not allowed in the initial meld (house rule)".to_owned()]
        )
    );
}

#[test]
fn xp_availability() {
    let xp = MeldOptions {
        tile_set: TileSet::Xp,
        ..standard()
    };
    // Three R5 are fine in XP, four are not.
    assert!(verdict("R5 B5 K5 | R5 O5 K5 | R5 R6 R7", xp).0);
    assert_eq!(
        verdict("R5 B5 K5 | R5 O5 K5 | R5 R6 R7 | R3 R4 R5", xp).2,
        vec!["four R5 but an XP set has three"]
    );
    // Four jokers in XP, five not.
    assert!(verdict("R5 J J | B10 J J", xp).0);
    assert_eq!(
        verdict("R5 J J | B10 J J | K13 J K11", xp).2,
        vec!["five jokers but an XP set has four"]
    );
    // The problem names itself, not the sets: the sets are still read.
    let sets = parse_sets("R5 B5 K5 | R5 O5 K5 | R5 R6 R7").expect("parses");
    let v = check_meld(&sets, standard());
    assert!(v.sets.iter().all(|s| s.reading.is_ok()));
    assert!(matches!(
        v.problems[0],
        MeldProblem::TooManyCopies { count: 3, .. }
    ));
}

fn any_tile() -> impl Strategy<Value = Tile> {
    (0usize..53).prop_map(|i| Tile::from_index(i).expect("index in range"))
}

/// Every way the notation accepts to write a tile.
fn spellings(tile: Tile) -> Vec<String> {
    let Some((color, n)) = tile.color().zip(tile.number()) else {
        return ["J", "j", "*", "JOKER", "Joker", "조커"]
            .map(String::from)
            .to_vec();
    };
    let words: &[&str] = match color {
        Color::Red => &["R", "r", "빨강", "빨", "적"],
        Color::Blue => &["B", "b", "파랑", "파", "청"],
        Color::Black => &["K", "k", "검정", "검", "흑"],
        Color::Orange => &["O", "o", "Y", "y", "주황", "주", "노랑", "노"],
    };
    words.iter().map(|w| format!("{w}{n}")).collect()
}

#[test]
fn every_spelling_of_every_tile_reads_back() {
    for tile in Tile::all_faces() {
        for spelling in spellings(tile) {
            assert_eq!(spelling.parse::<Tile>(), Ok(tile), "{spelling}");
        }
        assert_eq!(tile.to_string().parse::<Tile>(), Ok(tile));
        let json = serde_json::to_string(&tile).expect("serialises");
        assert_eq!(json, format!("\"{tile}\""));
        assert_eq!(serde_json::from_str::<Tile>(&json).ok(), Some(tile));
    }
}

proptest! {
    #[test]
    fn random_text_never_panics(text in "\\PC{0,60}") {
        if let Ok(sets) = parse_sets(&text) {
            let _ = check_meld(&sets, MeldOptions::default());
        }
        let _ = parse_rack(&text);
    }

    #[test]
    fn tile_like_text_never_panics(text in "([RBKOYJ빨파검주*,|;: \\n]|run:|group:|[0-9]{1,3}){0,30}") {
        if let Ok(sets) = parse_sets(&text) {
            let v = check_meld(&sets, MeldOptions::default());
            prop_assert_eq!(v.sets.len(), sets.len());
        }
    }

    #[test]
    fn canonical_form_reads_the_same(tiles in prop::collection::vec(any_tile(), 3..8), declared in prop::option::of(prop_oneof![Just(Kind::Run), Just(Kind::Group)])) {
        let set = rummikub_companion::tile::SetInput { declared, tiles };
        let canonical = set.to_string();
        let reparsed = parse_sets(&canonical).expect("canonical form parses");
        prop_assert_eq!(&reparsed[0], &set);
        prop_assert_eq!(read_set(&reparsed[0]), read_set(&set));
    }

    #[test]
    fn valid_runs_stay_valid_in_canonical_form(color in 0usize..4, start in 1u8..=11, len in 3u8..=13, jokers in prop::collection::vec(any::<prop::sample::Index>(), 0..=2), spelled in any::<prop::sample::Index>()) {
        let color = Color::ALL[color];
        let len = len.min(14 - start);
        prop_assume!(len >= 3);
        let mut tiles: Vec<Tile> = (start..start + len).filter_map(|n| Tile::numbered(color, n)).collect();
        for j in &jokers {
            let i = j.index(tiles.len());
            // Keep two numbered tiles so the set cannot also read as a group.
            if tiles.iter().filter(|t| !t.is_joker()).count() > 2 {
                tiles[i] = Tile::JOKER;
            }
        }
        // Written in a random accepted spelling, read, then re-entered canonically.
        let text: Vec<String> = tiles.iter().map(|t| { let s = spellings(*t); s[spelled.index(s.len())].clone() }).collect();
        let sets = parse_sets(&text.join(" ")).expect("spelled run parses");
        let first = read_set(&sets[0]).expect("a run with jokers in place is valid");
        let expected: u32 = (start..start + len).map(u32::from).sum();
        let original: Vec<Tile> = (start..start + len).filter_map(|n| Tile::numbered(color, n)).collect();
        prop_assert_eq!(first.points, expected);
        prop_assert_eq!(&first.represented, &original);
        prop_assert_eq!(first.kind, Kind::Run);
        let again = parse_sets(&sets[0].to_string()).expect("canonical parses");
        prop_assert_eq!(read_set(&again[0]).expect("still valid"), first);
    }
}
