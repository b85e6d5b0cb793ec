//! Helpers shared by the integration tests.
#![allow(dead_code)]

use chrono::{DateTime, TimeZone, Utc};
use rummikub_companion::rules::RuleSet;
use rummikub_companion::score::{Game, Hand, Players, Sheet};

/// A fixed start time.
pub fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2024, 5, 1, 19, 0, 0)
        .single()
        .expect("valid time")
}

/// Seed 002's four games as remaining values (the winner of each went out).
pub const SEED_002_REMAINING: [[u32; 4]; 4] = [
    [0, 5, 16, 3],
    [6, 11, 0, 5],
    [32, 13, 2, 0],
    [0, 14, 16, 19],
];

/// Seed 002's sheet under `rules`, one round planned.
pub fn seed_sheet(rules: RuleSet) -> Sheet {
    let players = Players::new(["루미", "큐브", "퍼니", "알토"]).expect("players");
    let mut sheet = Sheet::new(players, rules, Some(1), t0()).expect("sheet");
    for (i, hands) in SEED_002_REMAINING.iter().enumerate() {
        let game = Game::new(hands.iter().map(|&v| Hand::of_value(v)).collect())
            .at(t0() + chrono::Duration::minutes(15 * (i as i64 + 1)));
        sheet.add_game(game).expect("game");
    }
    sheet
}

/// The path of a test data file.
pub fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}
