//! Seating a round: table sizes, the random first round, later rounds by standings without
//! repeat meetings, and who starts.
//!
//! - **Sizes**: N = 4a + 3b with a as large as it can be ([`table_sizes`]); 4-tables first.
//! - **Round 1**: the players shuffled by a generator seeded from the event's seed and the round
//!   ([`Rng`], splitmix64: small, well known, and the same on every platform). With clubs apart,
//!   the shuffled players are grouped by club (largest club first) and dealt round the tables,
//!   so a club of at most as many players as tables never has two at one table.
//! - **Divisions apart** (`--divisions-apart`): each division is seated at tables of its own,
//!   numbered after the previous division's; a division that tables of 4 and 3 cannot seat is
//!   refused by name. Otherwise divisions sit together.
//! - **By standings** ([`SeatingRule::Standings`]): round 1 is drawn as above; later rounds cut
//!   the standings into consecutive tables — table 1 the top n, table 2 the next, … — with the
//!   table sizes in the order that keeps the starts inside the [`StartWindow`] (the 4s first
//!   when several do; the narrowest spread when none does), so a lower-ranked player never
//!   sits at a higher table than a player ranked above them.
//! - **Later rounds, mixed**: players in standings order are placed by a depth-first search, each into
//!   the first table with room where they have met nobody yet. The search is exhaustive up to a
//!   budget of [`SEARCH_BUDGET`] steps, which small and club-sized events never reach; so a
//!   seating repeats a meeting only when no seating avoids it (or, beyond the budget, when the
//!   search could not find one). Then the fallback places each player where they repeat the
//!   fewest meetings, and the round records how many repeats it has.
//! - **Who starts**: game k of a round (0-based) is started by seat k mod n, so a table of n
//!   playing g games gives its first `g mod n` seats one start more than the others
//!   ([`starts_per_seat`]). Every player should start equally often over the night: before a
//!   round is placed, the players (fewest starts first; then the standings or the draw) are
//!   paired with the round's seats (most starts first), which gives the narrowest spread of
//!   starts the round allows ([`StartWindow`]); the search then seats only tables whose
//!   players all end inside that spread, and each table puts the players who started least at
//!   its first seats. With tables of one size the spread never grows beyond one start, round
//!   after round. An even start comes before a repeat meeting: the search looks for a seating
//!   without repeats among those that keep the starts even.

use super::{Event, Refusal, SeatingRule, folded};

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

/// How many games each seat of a table of `seats` starts in a round of `games`: game k
/// (0-based) is started by seat k mod n.
///
/// ```
/// use rummikub_companion::event::seating::starts_per_seat;
/// assert_eq!(starts_per_seat(4, 2), [1, 1, 0, 0]);
/// assert_eq!(starts_per_seat(3, 4), [2, 1, 1]);
/// ```
pub fn starts_per_seat(seats: usize, games: u32) -> Vec<u32> {
    let n = u32::try_from(seats.max(1)).unwrap_or(u32::MAX);
    (0..n)
        .map(|s| games / n + u32::from(s < games % n))
        .collect()
}

/// How many games each player started so far (every round's tables, by
/// [`starts_per_seat`]).
pub fn starts(event: &Event) -> Vec<u32> {
    let mut starts = vec![0; event.players().len()];
    for round in event.rounds() {
        let games = event.round_games(round);
        for table in &round.tables {
            for (&p, n) in table
                .seats
                .iter()
                .zip(starts_per_seat(table.seats.len(), games))
            {
                starts[p] += n;
            }
        }
    }
    starts
}

/// The narrowest spread of starts a round allows: the players' starts so far paired, fewest
/// first, with the round's seats, most starts first. A seating keeps the starts even when every
/// player ends the round inside `[low, high]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartWindow {
    /// Starts so far, by player.
    started: Vec<u32>,
    /// Games each table plays.
    games: u32,
    /// Each table's seats: (starts every seat gets, seats that get one more).
    tables: Vec<(u32, usize)>,
    /// The fewest starts anyone may have after the round.
    pub low: u32,
    /// The most starts anyone may have after the round.
    pub high: u32,
}

impl StartWindow {
    /// The window for `players` (their starts so far in `started`) at tables of `sizes`
    /// playing `games` games each.
    pub fn new(started: Vec<u32>, players: &[usize], sizes: &[usize], games: u32) -> StartWindow {
        let tables: Vec<(u32, usize)> = sizes
            .iter()
            .map(|&n| {
                let seats = starts_per_seat(n, games);
                let base = seats.last().copied().unwrap_or(0);
                (base, seats.iter().filter(|&&s| s > base).count())
            })
            .collect();
        let mut have: Vec<u32> = players.iter().map(|&p| started[p]).collect();
        have.sort_unstable();
        let mut seats: Vec<u32> = sizes
            .iter()
            .flat_map(|&n| starts_per_seat(n, games))
            .collect();
        seats.sort_unstable_by(|a, b| b.cmp(a));
        let ends = have.iter().zip(&seats).map(|(h, s)| h + s);
        let (low, high) = ends.fold((u32::MAX, 0), |(lo, hi), e| (lo.min(e), hi.max(e)));
        StartWindow {
            started,
            games,
            tables,
            low: low.min(high),
            high,
        }
    }

    /// Table `t`'s players in seat order: those who started least first (the order given
    /// among equals), so they get the table's extra starts.
    fn seat_order(&self, table: &[usize]) -> Vec<usize> {
        let mut seated = table.to_vec();
        seated.sort_by_key(|&p| self.started[p]);
        seated
    }

    /// Whether `p` can still end the round inside the window at table `t`.
    fn may_sit(&self, t: usize, p: usize) -> bool {
        let (base, extra) = self.tables[t];
        let least = self.started[p] + base;
        least <= self.high && least + u32::from(extra > 0) >= self.low
    }

    /// Whether a full table `t` keeps every player inside the window.
    fn holds(&self, t: usize, table: &[usize]) -> bool {
        let (base, extra) = self.tables[t];
        self.seat_order(table).iter().enumerate().all(|(i, &p)| {
            let end = self.started[p] + base + u32::from(i < extra);
            (self.low..=self.high).contains(&end)
        })
    }

    /// Whether `p` may join table `t` holding `table` (whose size is `size`): the table can
    /// still end inside the window. A table gives its extra starts to those who started least,
    /// so it can when no more of its players need an extra start than it has, and no more
    /// cannot take one than it has seats without; once full, it is checked whole.
    fn fits(&self, t: usize, p: usize, table: &[usize], size: usize) -> bool {
        if !self.may_sit(t, p) {
            return false;
        }
        let (base, extra) = self.tables[t];
        let (mut need, mut refuse) = (0, 0);
        for &q in table.iter().chain([&p]) {
            let least = self.started[q] + base;
            need += usize::from(least < self.low);
            refuse += usize::from(least + 1 > self.high);
        }
        if need > extra || refuse > size - extra {
            return false;
        }
        if table.len() + 1 < size {
            return true;
        }
        let mut full = table.to_vec();
        full.push(p);
        self.holds(t, &full)
    }
}

/// Seats round `round` of `event` for its `active` players, each table playing `games`: all
/// together, or each division at tables of its own when the event keeps divisions apart.
pub(super) fn seat_round(
    event: &Event,
    active: &[usize],
    round: u32,
    games: u32,
) -> Result<Seating, Refusal> {
    let xp = event.setup().xp_tables;
    if !event.setup().divisions_apart {
        let sizes = table_sizes_with(active.len(), xp).ok_or(Refusal::CannotSeat {
            players: active.len(),
            xp_table: active.len() == 5,
        })?;
        return Ok(seat(event, active, &sizes, round, games, 0));
    }
    let division = |p: usize| event.players()[p].division.as_deref().map(folded);
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for name in event.divisions().into_iter().map(Some).chain([None]) {
        let key = name.as_deref().map(folded);
        let players: Vec<usize> = active
            .iter()
            .copied()
            .filter(|&p| division(p) == key)
            .collect();
        if !players.is_empty() {
            groups.push((name.unwrap_or_default(), players));
        }
    }
    let mut seated = Seating {
        tables: Vec::new(),
        repeats: 0,
    };
    for (salt, (name, players)) in (0u64..).zip(groups) {
        let sizes = table_sizes_with(players.len(), xp).ok_or(Refusal::CannotSeatDivision {
            division: name,
            players: players.len(),
        })?;
        let part = seat(event, &players, &sizes, round, games, salt);
        seated.tables.extend(part.tables);
        seated.repeats += part.repeats;
    }
    Ok(seated)
}

/// Seats `active` players at tables of `sizes` for round `round`, each table playing `games`
/// (`salt` tells apart the draws of divisions seated apart).
fn seat(
    event: &Event,
    active: &[usize],
    sizes: &[usize],
    round: u32,
    games: u32,
    salt: u64,
) -> Seating {
    let mut rng = Rng::new(
        event.setup().seed
            ^ u64::from(round).wrapping_mul(0xA24B_AED4_963E_E407)
            ^ salt.wrapping_mul(0x9FB2_1C65_1E98_DF25),
    );
    let mut order = active.to_vec();
    rng.shuffle(&mut order);
    let met = meetings(event);
    let started = starts(event);
    let window = StartWindow::new(started.clone(), active, sizes, games);
    let tables = if event.rounds().is_empty() {
        // Nobody has started yet: every seating keeps the starts even.
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
        match event.setup().seating {
            SeatingRule::Standings => by_standings(&order, sizes, &started, games),
            SeatingRule::Mixed => search(&order, sizes, &met, &window)
                .or_else(|| fewest_repeats(&order, sizes, &met, &window))
                .unwrap_or_else(|| even_starts(&order, sizes, &window)),
        }
    };
    let tables: Vec<Vec<usize>> = tables.iter().map(|t| window.seat_order(t)).collect();
    let repeats = count_repeats(&tables, &met);
    Seating { tables, repeats }
}

/// How many orders of the table sizes [`by_standings`] tries at most.
const ARRANGEMENTS: usize = 10_000;

/// The players in standings order (`order`) cut into consecutive tables: the sizes in the first
/// order (largest tables first, then each next arrangement) whose tables keep every player's
/// starts inside the [`StartWindow`]; when none does, the arrangement of the narrowest spread.
fn by_standings(order: &[usize], sizes: &[usize], started: &[u32], games: u32) -> Vec<Vec<usize>> {
    let mut arrangement = sizes.to_vec();
    arrangement.sort_unstable_by(|a, b| b.cmp(a));
    let mut best: Option<(u32, Vec<Vec<usize>>)> = None;
    for _ in 0..ARRANGEMENTS {
        let window = StartWindow::new(started.to_vec(), order, &arrangement, games);
        let tables = deal_in_order(order, &arrangement);
        if tables
            .iter()
            .enumerate()
            .all(|(t, table)| window.holds(t, table))
        {
            return tables;
        }
        let spread = spread_of(&tables, started, games, &window);
        if best.as_ref().is_none_or(|(s, _)| spread < *s) {
            best = Some((spread, tables));
        }
        if !previous_arrangement(&mut arrangement) {
            break;
        }
    }
    best.map(|(_, t)| t)
        .unwrap_or_else(|| deal_in_order(order, sizes))
}

/// The spread of starts (most − fewest) after a round seated as `tables`.
fn spread_of(tables: &[Vec<usize>], started: &[u32], games: u32, window: &StartWindow) -> u32 {
    let ends = tables.iter().flat_map(|t| {
        window
            .seat_order(t)
            .into_iter()
            .zip(starts_per_seat(t.len(), games))
            .map(|(p, s)| started[p] + s)
    });
    let (low, high) = ends.fold((u32::MAX, 0), |(lo, hi), e| (lo.min(e), hi.max(e)));
    high.saturating_sub(low)
}

/// The arrangement before `sizes` in lexicographic order (a multiset's distinct orders, from
/// largest first); false after the last.
fn previous_arrangement(sizes: &mut [usize]) -> bool {
    let Some(i) = (1..sizes.len()).rev().find(|&i| sizes[i - 1] > sizes[i]) else {
        return false;
    };
    let Some(j) = (i..sizes.len()).rev().find(|&j| sizes[j] < sizes[i - 1]) else {
        return false;
    };
    sizes.swap(i - 1, j);
    sizes[i..].reverse();
    true
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

/// Depth-first search for a seating with no repeat meeting that keeps the starts inside the
/// window; `None` when there is none (or the budget ran out).
fn search(
    order: &[usize],
    sizes: &[usize],
    met: &[Vec<bool>],
    window: &StartWindow,
) -> Option<Vec<Vec<usize>>> {
    let mut tables: Vec<Vec<usize>> = sizes.iter().map(|&s| Vec::with_capacity(s)).collect();
    let mut search = Search {
        order,
        sizes,
        met,
        window,
        budget: SEARCH_BUDGET,
    };
    search.place(0, &mut tables).then_some(tables)
}

/// What the depth-first search of [`search`] walks with.
struct Search<'a> {
    order: &'a [usize],
    sizes: &'a [usize],
    met: &'a [Vec<bool>],
    window: &'a StartWindow,
    budget: u64,
}

impl Search<'_> {
    fn place(&mut self, i: usize, tables: &mut [Vec<usize>]) -> bool {
        let Some(&p) = self.order.get(i) else {
            return true;
        };
        for t in 0..tables.len() {
            if self.budget == 0 {
                return false;
            }
            self.budget -= 1;
            let size = self.sizes[t];
            if tables[t].len() >= size
                || tables[t].iter().any(|&q| self.met[p][q])
                || !self.window.fits(t, p, &tables[t], size)
            {
                continue;
            }
            // Empty tables of one size are alike: trying the first of them is enough.
            if tables[t].is_empty() && (0..t).any(|u| tables[u].is_empty() && self.sizes[u] == size)
            {
                continue;
            }
            tables[t].push(p);
            if self.place(i + 1, tables) {
                return true;
            }
            tables[t].pop();
        }
        false
    }
}

/// Each player in order to the table with room (keeping the starts inside the window) where
/// they repeat the fewest meetings; `None` when that greedy walk leaves a player nowhere.
fn fewest_repeats(
    order: &[usize],
    sizes: &[usize],
    met: &[Vec<bool>],
    window: &StartWindow,
) -> Option<Vec<Vec<usize>>> {
    let mut tables: Vec<Vec<usize>> = sizes.iter().map(|&s| Vec::with_capacity(s)).collect();
    for &p in order {
        let best = (0..tables.len())
            .filter(|&t| tables[t].len() < sizes[t] && window.fits(t, p, &tables[t], sizes[t]))
            .min_by_key(|&t| tables[t].iter().filter(|&&q| met[p][q]).count())?;
        tables[best].push(p);
    }
    Some(tables)
}

/// The players paired with the seats as the window was made (fewest starts to the seats with
/// most; the order given among equals): always inside the window, whatever it repeats.
fn even_starts(order: &[usize], sizes: &[usize], window: &StartWindow) -> Vec<Vec<usize>> {
    let mut players = order.to_vec();
    players.sort_by_key(|&p| window.started[p]);
    let mut seats: Vec<(u32, usize)> = sizes
        .iter()
        .enumerate()
        .flat_map(|(t, &n)| {
            starts_per_seat(n, window.games)
                .into_iter()
                .map(move |s| (s, t))
        })
        .collect();
    seats.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut tables: Vec<Vec<usize>> = sizes.iter().map(|&s| Vec::with_capacity(s)).collect();
    for (p, (_, t)) in players.into_iter().zip(seats) {
        tables[t].push(p);
    }
    tables
}
