//! The score sheet as the GUI uses it: recomputing a long evening's sheet after a change, and
//! saving it (atomic write with fsync and a backup) after every change. Also `score`'s import of
//! a very long sheet: adding a game must not rescore the sheet (20,000 games, linear).

use chrono::{TimeZone, Utc};
use criterion::{Criterion, criterion_group, criterion_main};
use rummikub_companion::rules::Preset;
use rummikub_companion::score::table::read_score_csv;
use rummikub_companion::score::{Game, Hand, Players, Sheet};
use rummikub_companion::store::Store;
use std::hint::black_box;

/// Six players, 60 games (ten rounds): a long evening.
fn long_sheet() -> Sheet {
    let players = Players::new(["A", "B", "C", "D", "E", "F"]).expect("players");
    let start = Utc
        .with_ymd_and_hms(2024, 5, 1, 19, 0, 0)
        .single()
        .expect("time");
    let mut sheet = Sheet::new(players, Preset::Korean.rules(), Some(10), start).expect("sheet");
    for g in 0..60_u32 {
        let mut hands: Vec<Hand> = (0..6)
            .map(|p| Hand::of_value((g * 7 + p * 11) % 60 + 1))
            .collect();
        hands[(g % 6) as usize] = Hand::of_value(0);
        sheet.add_game(Game::new(hands)).expect("game");
    }
    sheet
}

/// A `score` CSV of `games` games for four players (one goes out each game; some racks as
/// tiles, some not melded).
fn long_csv(games: usize) -> String {
    let mut text = String::from("game,Ann,Bo,Cy,Di\n");
    for g in 0..games {
        let mut cells: Vec<String> = (0..4)
            .map(|p| ((g * 7 + p * 11) % 60 + 1).to_string())
            .collect();
        cells[g % 4] = "0".to_owned();
        cells[(g + 1) % 4] = "R5 K7 J".to_owned();
        cells[(g + 2) % 4].push('*');
        text.push_str(&format!("{},{}\n", g + 1, cells.join(",")));
    }
    text
}

fn import(c: &mut Criterion) {
    let text = long_csv(20_000);
    let start = Utc
        .with_ymd_and_hms(2024, 5, 1, 19, 0, 0)
        .single()
        .expect("time");
    let mut group = c.benchmark_group("score import");
    group.sample_size(10);
    group.bench_function("20,000-game score CSV", |b| {
        b.iter(|| {
            let imported =
                read_score_csv(black_box(&text), Preset::Korean.rules(), start).expect("reads");
            assert_eq!(imported.sheet.games().len(), 20_000);
            imported
        })
    });
    group.finish();
}

fn bench(c: &mut Criterion) {
    let sheet = long_sheet();
    c.bench_function("standings of a 60-game sheet", |b| {
        b.iter(|| black_box(&sheet).standings())
    });
    c.bench_function("rule change on a 60-game sheet", |b| {
        b.iter(|| {
            let mut s = sheet.clone();
            s.set_rules(black_box(Preset::Tournament.rules()))
                .expect("scores");
            s
        })
    });
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let store = Store::open(dir.path()).expect("store");
    let id = store.new_sheet_id(sheet.created());
    c.bench_function("save a 60-game sheet (fsync + backup)", |b| {
        b.iter(|| store.save_sheet(&id, black_box(&sheet)).expect("saves"))
    });
    c.bench_function("load a 60-game sheet", |b| {
        b.iter(|| store.load_sheet(&id).expect("loads"))
    });
}

criterion_group!(benches, bench, import);
criterion_main!(benches);
