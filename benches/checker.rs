//! Checking a typical four-set initial meld (parse + read + verdict).

use criterion::{Criterion, criterion_group, criterion_main};
use rummikub_companion::meld::{MeldOptions, check_meld};
use rummikub_companion::tile::parse_sets;
use std::hint::black_box;

const MELD: &str = "R11 J R13 | K9 B9 O9 | B1 B2 B3 B4 | group: O5 J K5";

fn bench(c: &mut Criterion) {
    let sets = parse_sets(MELD).expect("benchmark meld parses");
    c.bench_function("check four-set meld", |b| {
        b.iter(|| check_meld(black_box(&sets), MeldOptions::default()))
    });
    c.bench_function("parse + check four-set meld", |b| {
        b.iter(|| {
            let sets = parse_sets(black_box(MELD)).expect("parses");
            check_meld(&sets, MeldOptions::default())
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
