//! Seating a round: table sizes, the random first round, later rounds by standings without
//! repeat meetings, and who starts.
//!
//! - **Sizes**: N = 4a + 3b with a as large as it can be ([`table_sizes`]); 4-tables first.
//! - **Round 1**: the players shuffled by a generator seeded from the event's seed and the round
//!   ([`Rng`], splitmix64: small, well known, and the same on every platform). With clubs apart,
//!   the shuffled players are grouped by club (largest club first) and dealt round the tables,
//!   so a club of at most as many players as tables never has two at one table.
//! - **Later rounds**: players in standings order are placed by a depth-first search, each into
//!   the first table with room where they have met nobody yet. The search is exhaustive up to a
//!   budget of [`SEARCH_BUDGET`] steps, which small and club-sized events never reach; so a
//!   seating repeats a meeting only when no seating avoids it (or, beyond the budget, when the
//!   search could not find one). Then the fallback places each player where they repeat the
//!   fewest meetings, and the round records how many repeats it has.
//! - **First seat**: from round 2, players are swapped between tables (never adding a repeat
//!   meeting) until every table holds one of the players who started least often, where a swap
//!   can do it; then at each table the player who has started least often starts (ties: the
//!   higher standing, then the seeded order); the others follow in the order they were placed.

use super::{Event, folded};

/// Search steps before the seating settles for the fewest repeats.
pub const SEARCH_BUDGET: u64 = 200_000;

/// Table sizes for `players`: as many 4s as possible, then 3s; `None` when the count cannot be
/// split so (1, 2 and 5).
///
/// ```
/// use rummikub_companion::event::seating::table_sizes;
/// assert_eq!(table_sizes(10), Some(vec![4, 3, 3]));
/// assert_eq!(table_sizes(5), None);
/// ```
pub fn table_sizes(players: usize) -> Option<Vec<usize>> {
    let threes = match players % 4 {
        0 => 0,
        1 => 3,
        2 => 2,
        _ => 1,
    };
    if players < 3 || players < 3 * threes {
        return None;
    }
    let fours = (players - 3 * threes) / 4;
    let mut sizes = vec![4; fours];
    sizes.extend(std::iter::repeat_n(3, threes));
    Some(sizes)
}

/// Table sizes as [`table_sizes`], and with `xp` a count that tables of 4 and 3 cannot seat
/// plays at one table of 5 or 6 on the XP set (5 is the only such count that is not too few).
///
/// ```
/// use rummikub_companion::event::seating::table_sizes_with;
/// assert_eq!(table_sizes_with(5, true), Some(vec![5]));
/// assert_eq!(table_sizes_with(5, false), None);
/// assert_eq!(table_sizes_with(10, true), Some(vec![4, 3, 3]));
/// assert_eq!(table_sizes_with(2, true), None);
/// ```
pub fn table_sizes_with(players: usize, xp: bool) -> Option<Vec<usize>> {
    match table_sizes(players) {
        Some(sizes) => Some(sizes),
        None if xp && (5..=6).contains(&players) => Some(vec![players]),
        None => None,
    }
}

/// splitmix64: a tiny deterministic generator (Steele, Lea, Flood 2014).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0), by rejection so every value is equally likely.
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    /// Shuffles in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// A seating: each table's players in seat order, and the meetings it repeats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seating {
    /// Player indices per table, first starts.
    pub tables: Vec<Vec<usize>>,
    /// Pairs seated together that met before.
    pub repeats: usize,
}

/// Who has met whom in the event's rounds so far (`n` × `n`).
pub fn meetings(event: &Event) -> Vec<Vec<bool>> {
    let n = event.players().len();
    let mut met = vec![vec![false; n]; n];
    for round in event.rounds() {
        for table in &round.tables {
            for &a in &table.seats {
                for &b in &table.seats {
                    if a != b {
                        met[a][b] = true;
                    }
                }
            }
        }
    }
    met
}

/// How often each player started (sat first) so far.
pub fn starts(event: &Event) -> Vec<u32> {
    let mut starts = vec![0; event.players().len()];
    for round in event.rounds() {
        for table in &round.tables {
            if let Some(&first) = table.seats.first() {
                starts[first] += 1;
            }
        }
    }
    starts
}

/// Seats `active` players at tables of `sizes` for round `round`.
pub(super) fn seat(event: &Event, active: &[usize], sizes: &[usize], round: u32) -> Seating {
    let mut rng =
        Rng::new(event.setup().seed ^ u64::from(round).wrapping_mul(0xA24B_AED4_963E_E407));
    let mut order = active.to_vec();
    rng.shuffle(&mut order);
    let met = meetings(event);
    let tables = if event.rounds().is_empty() {
        if event.setup().clubs_apart {
            deal_by_club(event, order, sizes)
        } else {
            deal_in_order(&order, sizes)
        }
    } else {
        // Standings order; the shuffle above breaks ties among equal places (stable sort).
        let standings = event.standings();
        let place = |p: usize| {
            standings
                .rows
                .iter()
                .position(|s| s.player == p)
                .unwrap_or(usize::MAX)
        };
        order.sort_by_key(|&p| place(p));
        search(&order, sizes, &met).unwrap_or_else(|| fewest_repeats(&order, sizes, &met))
    };
    let started = starts(event);
    let mut tables = tables;
    if !event.rounds().is_empty() {
        balance_starts(&mut tables, &started, &met);
    }
    let tables: Vec<Vec<usize>> = tables
        .into_iter()
        .map(|mut table| {
            // min_by_key keeps the first of equals: the higher standing / earlier in the draw.
            if let Some(first) = (0..table.len()).min_by_key(|&i| started[table[i]]) {
                let starter = table.remove(first);
                table.insert(0, starter);
            }
            table
        })
        .collect();
    let repeats = count_repeats(&tables, &met);
    Seating { tables, repeats }
}

/// Swaps players so that every table holds one of the players who started least often (when
/// a swap can do it without adding a repeat meeting): then the round's starters are all
/// players owed a start, and nobody starts twice while someone has not started.
fn balance_starts(tables: &mut [Vec<usize>], started: &[u32], met: &[Vec<bool>]) {
    let Some(least) = tables.iter().flatten().map(|&p| started[p]).min() else {
        return;
    };
    let owed = |t: &[usize]| t.iter().filter(|&&p| started[p] == least).count();
    let clean = |p: usize, table: &[usize], without: usize| {
        table.iter().all(|&q| q == without || !met[p][q])
    };
    for _ in 0..tables.len() * 4 {
        let Some(a) = (0..tables.len()).find(|&a| owed(&tables[a]) == 0) else {
            return;
        };
        let swap = (0..tables.len())
            .filter(|&b| owed(&tables[b]) >= 2)
            .find_map(|b| {
                tables[b]
                    .iter()
                    .filter(|&&p| started[p] == least)
                    .find_map(|&p| {
                        // The lowest placed player of A moves: the standings order moves least.
                        tables[a].iter().rev().find_map(|&q| {
                            (clean(p, &tables[a], q) && clean(q, &tables[b], p))
                                .then_some((b, p, q))
                        })
                    })
            });
        let Some((b, p, q)) = swap else {
            return;
        };
        for x in tables[a].iter_mut() {
            if *x == q {
                *x = p;
            }
        }
        for x in tables[b].iter_mut() {
            if *x == p {
                *x = q;
            }
        }
    }
}

/// Pairs at the same table that met before.
pub fn count_repeats(tables: &[Vec<usize>], met: &[Vec<bool>]) -> usize {
    tables
        .iter()
        .map(|t| {
            let mut n = 0;
            for (i, &a) in t.iter().enumerate() {
                for &b in &t[i + 1..] {
                    n += usize::from(met[a][b]);
                }
            }
            n
        })
        .sum()
}

fn deal_in_order(order: &[usize], sizes: &[usize]) -> Vec<Vec<usize>> {
    let mut rest = order;
    sizes
        .iter()
        .map(|&size| {
            let (table, tail) = rest.split_at(size);
            rest = tail;
            table.to_vec()
        })
        .collect()
}

/// Groups the drawn players by club (largest club first, players without a club last) and
/// deals them round the tables, skipping full tables.
fn deal_by_club(event: &Event, mut order: Vec<usize>, sizes: &[usize]) -> Vec<Vec<usize>> {
    let club = |p: usize| event.players()[p].club.as_deref().map(folded);
    let count = |c: &Option<String>| match c {
        Some(c) => order
            .iter()
            .filter(|&&p| club(p).as_ref() == Some(c))
            .count(),
        None => 0,
    };
    let keys: Vec<(usize, usize)> = {
        let mut first_seen: Vec<Option<String>> = Vec::new();
        order
            .iter()
            .map(|&p| {
                let c = club(p);
                let pos = first_seen.iter().position(|x| *x == c).unwrap_or_else(|| {
                    first_seen.push(c.clone());
                    first_seen.len() - 1
                });
                (usize::MAX - count(&c), pos)
            })
            .collect()
    };
    let mut indexed: Vec<(usize, (usize, usize))> = order.iter().copied().zip(keys).collect();
    indexed.sort_by_key(|&(_, key)| key);
    order = indexed.into_iter().map(|(p, _)| p).collect();
    let mut tables: Vec<Vec<usize>> = sizes.iter().map(|&s| Vec::with_capacity(s)).collect();
    let mut t = 0;
    for p in order {
        while tables[t].len() >= sizes[t] {
            t = (t + 1) % sizes.len();
        }
        tables[t].push(p);
        t = (t + 1) % sizes.len();
    }
    tables
}

/// Depth-first search for a seating with no repeat meeting; `None` when there is none (or the
/// budget ran out).
fn search(order: &[usize], sizes: &[usize], met: &[Vec<bool>]) -> Option<Vec<Vec<usize>>> {
    let mut tables: Vec<Vec<usize>> = sizes.iter().map(|&s| Vec::with_capacity(s)).collect();
    let mut budget = SEARCH_BUDGET;
    place(0, order, sizes, met, &mut tables, &mut budget).then_some(tables)
}

fn place(
    i: usize,
    order: &[usize],
    sizes: &[usize],
    met: &[Vec<bool>],
    tables: &mut [Vec<usize>],
    budget: &mut u64,
) -> bool {
    let Some(&p) = order.get(i) else {
        return true;
    };
    for t in 0..tables.len() {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        if tables[t].len() >= sizes[t] || tables[t].iter().any(|&q| met[p][q]) {
            continue;
        }
        // Empty tables of one size are alike: trying the first of them is enough.
        if tables[t].is_empty() && (0..t).any(|u| tables[u].is_empty() && sizes[u] == sizes[t]) {
            continue;
        }
        tables[t].push(p);
        if place(i + 1, order, sizes, met, tables, budget) {
            return true;
        }
        tables[t].pop();
    }
    false
}

/// Each player in order to the table with room where they repeat the fewest meetings.
fn fewest_repeats(order: &[usize], sizes: &[usize], met: &[Vec<bool>]) -> Vec<Vec<usize>> {
    let mut tables: Vec<Vec<usize>> = sizes.iter().map(|&s| Vec::with_capacity(s)).collect();
    for &p in order {
        let best = (0..tables.len())
            .filter(|&t| tables[t].len() < sizes[t])
            .min_by_key(|&t| tables[t].iter().filter(|&&q| met[p][q]).count());
        if let Some(t) = best {
            tables[t].push(p);
        }
    }
    tables
}
