//! History across evenings as the window and `history` compute it: 500 saved sheets of 2–6
//! players from a club of eight, 4–24 games each, added up per player (match wins under each
//! sheet's rule, head-to-head, cumulative series).

use chrono::{Duration, TimeZone, Utc};
use criterion::{Criterion, criterion_group, criterion_main};
use proptest::prelude::RngExt;
use rummikub_companion::history::history;
use rummikub_companion::rules::Preset;
use rummikub_companion::score::Sheet;
use std::hint::black_box;

#[path = "../tests/suite/util/mod.rs"]
mod util;

const CLUB: [&str; 8] = ["Ann", "Bo", "루미", "큐브", "Cy", "Dee", "Eun-ji", "Fa"];

fn club_sheets(count: usize) -> Vec<Sheet> {
    let mut r = util::rng(500);
    let start = Utc
        .with_ymd_and_hms(2024, 1, 5, 19, 0, 0)
        .single()
        .expect("time");
    (0..count)
        .map(|i| {
            let n = r.random_range(2..=6_usize);
            let first = r.random_range(0..CLUB.len());
            let names: Vec<&str> = (0..n).map(|k| CLUB[(first + k) % CLUB.len()]).collect();
            let preset = if i % 3 == 0 {
                Preset::English
            } else {
                Preset::Korean
            };
            let games = r.random_range(4..=24_usize);
            let rounds = (i % 2 == 0).then_some(2);
            let day = start + Duration::days(i as i64);
            util::sheets::random_sheet(&mut r, &names, preset.rules(), rounds, day, games)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let sheets = club_sheets(500);
    let games: usize = sheets.iter().map(|s| s.games().len()).sum();
    let mut group = c.benchmark_group("history");
    group.bench_function(format!("500 sheets ({games} games)"), |b| {
        b.iter(|| history(black_box(&sheets), None))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
