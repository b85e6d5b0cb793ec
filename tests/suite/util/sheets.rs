//! Seeded random games and sheets for the match-end, export and history tests (and the history
//! benchmark, which includes this file by path).

use chrono::{DateTime, Duration};
use proptest::prelude::RngExt;
use proptest::test_runner::TestRng;
use rummikub_companion::rules::RuleSet;
use rummikub_companion::score::{Game, Hand, Players, Sheet};

/// A valid random game of `n` players: usually someone goes out, sometimes the pool runs out
/// (then the lowest wins, named when several tie).
pub fn random_game(rng: &mut TestRng, n: usize) -> Game {
    let pool_out = rng.random_range(0..5_u32) == 0;
    let mut values: Vec<u32> = (0..n).map(|_| rng.random_range(1..=60_u32)).collect();
    if !pool_out {
        let out = rng.random_range(0..n);
        values[out] = 0;
    }
    let lowest = values.iter().copied().min().unwrap_or(0);
    let tied: Vec<usize> = (0..n).filter(|&i| values[i] == lowest).collect();
    let game = Game::new(values.into_iter().map(Hand::of_value).collect());
    if tied.len() > 1 {
        let named = tied[rng.random_range(0..tied.len())];
        game.with_winner(named)
    } else {
        game
    }
}

/// A sheet of `names` with `games` random games, one every 10 minutes from `start`.
pub fn random_sheet(
    rng: &mut TestRng,
    names: &[&str],
    rules: RuleSet,
    rounds: Option<u32>,
    start: DateTime<chrono::Utc>,
    games: usize,
) -> Sheet {
    let players = Players::new(names).expect("players");
    let mut sheet = Sheet::new(players, rules, rounds, start).expect("sheet");
    for g in 0..games {
        let game = random_game(rng, names.len()).at(start + Duration::minutes(10 * (g as i64 + 1)));
        sheet.add_game(game).expect("a valid game");
    }
    sheet
}
