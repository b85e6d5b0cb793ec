//! The standings of an event: three rankings, one tie-break chain.
//!
//! Every game is scored by the score sheet's zero-sum formula; a player's **points** are the sum
//! over every game they played, **wins** the games they won. Per table and round, a player also
//! has a **place** (by the table's points, then wins; equal players share it) and a **percent**:
//! their table points as a percentage of the table winner's (the highest at the table), kept in
//! hundredths of a percent and rounded down, 0 for everyone when the winner has no positive
//! points. Percent evens out tables of 3 and 4 (MSO's rule for multi-player games).
//!
//! A game's winner gets the event's **win bonus** on top of the game's points (Japan's +100);
//! every player also earns **placement points** per game ([`super::format::Placement`]).
//!
//! The rankings ([`Ranking`]) differ only in their first two keys:
//! - `wins`: most wins, then most points (the Korean qualifier's "international rule");
//! - `total`: most points, then most wins;
//! - `percent`: highest sum of percents, then most wins;
//! - `placement`: most placement points, then most points (the German tournaments').
//!
//! Then, the same chain for all three (after MSO):
//! 1. the better place at the table in the latest round the player has a result in;
//! 2. more table firsts, then more seconds, then more thirds;
//! 3. head-to-head among the players still tied: for each time two of them shared a table, +1
//!    to the one placed higher and −1 to the other; the higher sum ranks first.
//!
//! Players equal on all of it share the rank (1, 2, 2, 4).
//!
//! **Finals.** Each stage after the qualifying rounds (a semi-final, the final) is ranked by
//! its own games plus what its players carry into it from before it ([`super::Carry`]: nothing,
//! half rounded up, or all), under the same ranking; then the better place at the stage's
//! table; then the better seed. The standings list the latest stage's players first, then
//! each earlier stage's other players, then everyone else by the qualifying rounds. A stage
//! player's line shows the stage's numbers with what carried into them.

use std::cmp::Reverse;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::format::{Carry, PLACEMENT_UNIT, Stage, game_places};
use super::{Event, Round};

/// How an event's standings are ordered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ranking {
    /// Most wins, then points.
    #[default]
    Wins,
    /// Most points, then wins.
    Total,
    /// Points as a percentage of each table winner's, summed; then wins.
    Percent,
    /// Placement points per game (4/3/1/0 at a table of 4 by default), then points.
    Placement,
}

impl Ranking {
    /// Every ranking.
    pub const ALL: [Ranking; 4] = [
        Ranking::Wins,
        Ranking::Total,
        Ranking::Percent,
        Ranking::Placement,
    ];

    /// The name on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Ranking::Wins => "wins",
            Ranking::Total => "total",
            Ranking::Percent => "percent",
            Ranking::Placement => "placement",
        }
    }
}

impl fmt::Display for Ranking {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Ranking {
    type Err = String;
    fn from_str(s: &str) -> Result<Ranking, String> {
        let s = s.trim().to_lowercase();
        Ranking::ALL.into_iter().find(|r| r.name() == s).ok_or(s)
    }
}

/// One player's line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// 1-based rank; equal players share it.
    pub rank: usize,
    /// The player's index in the event.
    pub player: usize,
    /// The name.
    pub name: String,
    /// Games won.
    pub wins: usize,
    /// Sum of points.
    pub points: i64,
    /// Games played.
    pub games: usize,
    /// Sum of per-table percents, in hundredths of a percent.
    pub percent: i64,
    /// Tables finished first, second, third, fourth (and fifth, sixth on an XP table).
    pub places: [usize; 6],
    /// Whether the player dropped out.
    pub dropped: bool,
    /// Placement points, in units of 1/[`PLACEMENT_UNIT`].
    pub placement: i64,
    /// The player's club.
    pub club: Option<String>,
    /// The player's division.
    pub division: Option<String>,
    /// The latest stage the player sat in ([`Stage::Round`]: the qualifying rounds only).
    pub stage: Stage,
}

/// The standings: every registered player, best first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Standings {
    /// The ranking used.
    pub ranking: Ranking,
    /// The lines, best first.
    pub rows: Vec<Standing>,
}

/// One table's outcome for one player.
#[derive(Clone, Copy, Debug)]
struct Finish {
    round: usize,
    table: usize,
    place: usize,
}

/// Places at one table: by points, then wins; equal players share the place (1-based).
pub fn table_places(points: &[i64], wins: &[usize]) -> Vec<usize> {
    (0..points.len())
        .map(|i| {
            1 + (0..points.len())
                .filter(|&j| (points[j], wins[j]) > (points[i], wins[i]))
                .count()
        })
        .collect()
}

/// Each player's percent of the table winner's points, in hundredths, rounded down.
pub fn table_percents(points: &[i64]) -> Vec<i64> {
    let best = points.iter().copied().max().unwrap_or(0);
    points
        .iter()
        .map(|&p| {
            if best <= 0 {
                0
            } else {
                (p * 10_000).div_euclid(best)
            }
        })
        .collect()
}

/// Every player's line with nothing counted yet.
fn blank_rows(event: &Event) -> Vec<Standing> {
    event
        .players()
        .iter()
        .enumerate()
        .map(|(i, p)| Standing {
            rank: 0,
            player: i,
            name: p.name.clone(),
            wins: 0,
            points: 0,
            games: 0,
            percent: 0,
            places: [0; 6],
            dropped: !p.is_active(),
            placement: 0,
            club: p.club.clone(),
            division: p.division.clone(),
            stage: Stage::Round,
        })
        .collect()
}

/// Adds the finished tables of the rounds `counted` picks to `rows` and `finishes`.
fn tally(
    event: &Event,
    counted: impl Fn(&Round) -> bool,
    rows: &mut [Standing],
    finishes: &mut [Vec<Finish>],
) {
    let setup = event.setup();
    for (r, t, scores) in event.scored_tables() {
        if !counted(&event.rounds()[r]) {
            continue;
        }
        let seats = &event.rounds()[r].tables[t].seats;
        let mut points = vec![0i64; seats.len()];
        let mut wins = vec![0usize; seats.len()];
        let mut placement = vec![0i64; seats.len()];
        for score in &scores {
            let game_points = setup
                .placement
                .points(&game_places(&score.points, score.winner));
            for (s, p) in score.points.iter().enumerate() {
                points[s] += p;
                placement[s] += game_points.get(s).copied().unwrap_or(0);
            }
            if let Some(w) = points.get_mut(score.winner) {
                *w += setup.win_bonus;
            }
            wins[score.winner] += 1;
        }
        let places = table_places(&points, &wins);
        let percents = table_percents(&points);
        for (s, &player) in seats.iter().enumerate() {
            let row = &mut rows[player];
            row.points += points[s];
            row.wins += wins[s];
            row.games += scores.len();
            row.percent += percents[s];
            row.placement += placement[s];
            if let Some(count) = row.places.get_mut(places[s] - 1) {
                *count += 1;
            }
            finishes[player].push(Finish {
                round: r,
                table: t,
                place: places[s],
            });
        }
    }
}

/// The first two keys of a ranking (larger is better).
fn primary(ranking: Ranking, s: &Standing) -> (i64, i64) {
    match ranking {
        Ranking::Wins => (s.wins as i64, s.points),
        Ranking::Total => (s.points, s.wins as i64),
        Ranking::Percent => (s.percent, s.wins as i64),
        Ranking::Placement => (s.placement, s.points),
    }
}

/// A stage player's line: the stage's own numbers plus what carries from `before`.
fn with_carry(own: &Standing, before: &Standing, carry: Carry) -> Standing {
    let all = carry == Carry::All;
    let mut places = own.places;
    if all {
        for (p, b) in places.iter_mut().zip(before.places) {
            *p += b;
        }
    }
    let wins = carry.of(before.wins as i64, 1);
    Standing {
        wins: own.wins + usize::try_from(wins).unwrap_or(0),
        points: own.points + carry.of(before.points, 1),
        games: own.games + if all { before.games } else { 0 },
        percent: own.percent + carry.of(before.percent, 1),
        placement: own.placement + carry.of(before.placement, PLACEMENT_UNIT),
        places,
        ..own.clone()
    }
}

/// The standings of the players `keep` picks (see the [module docs](self)).
pub(super) fn standings(
    event: &Event,
    ranking: Ranking,
    keep: impl Fn(usize) -> bool,
) -> Standings {
    let n = event.players().len();
    let mut rows = blank_rows(event);
    let mut finishes: Vec<Vec<Finish>> = vec![Vec::new(); n];
    tally(event, |r| r.stage.is_round(), &mut rows, &mut finishes);
    // Each stage in order: what every player brings into the next one.
    let mut brought = rows.clone();
    let mut stages: Vec<(&Round, Vec<Vec<Finish>>)> = Vec::new();
    for round in event.rounds().iter().filter(|r| !r.stage.is_round()) {
        let mut own = blank_rows(event);
        let mut own_finishes: Vec<Vec<Finish>> = vec![Vec::new(); n];
        tally(
            event,
            |r| r.number == round.number,
            &mut own,
            &mut own_finishes,
        );
        let carry = round.carry.unwrap_or_default();
        for table in &round.tables {
            for &p in &table.seats {
                let mut line = with_carry(&own[p], &brought[p], carry);
                line.stage = round.stage;
                brought[p] = line;
            }
        }
        stages.push((round, own_finishes));
    }
    let mut out: Vec<Standing> = Vec::new();
    let mut placed = vec![false; n];
    for (round, own_finishes) in stages.iter().rev() {
        let mut group: Vec<Standing> = round
            .tables
            .iter()
            .flat_map(|t| t.seats.iter().copied())
            .filter(|&p| !placed[p] && keep(p))
            .map(|p| brought[p].clone())
            .collect();
        let seed = |p: usize| {
            round
                .seeds
                .iter()
                .position(|&s| s == p)
                .unwrap_or(usize::MAX)
        };
        let place = |p: usize| own_finishes[p].first().map_or(usize::MAX, |f| f.place);
        group.sort_by_key(|s| {
            let (first, second) = primary(ranking, s);
            (
                Reverse(first),
                Reverse(second),
                place(s.player),
                seed(s.player),
            )
        });
        for mut line in group {
            placed[line.player] = true;
            line.rank = out.len() + 1;
            out.push(line);
        }
    }
    let rest: Vec<Standing> = rows
        .into_iter()
        .filter(|s| !placed[s.player] && keep(s.player))
        .collect();
    let offset = out.len();
    out.extend(
        rank_qualifying(rest, &finishes, ranking)
            .into_iter()
            .map(|mut s| {
                s.rank += offset;
                s
            }),
    );
    Standings { ranking, rows: out }
}

/// The qualifying rounds' order of `rows` (see the [module docs](self)), ranked from 1.
fn rank_qualifying(
    mut rows: Vec<Standing>,
    finishes: &[Vec<Finish>],
    ranking: Ranking,
) -> Vec<Standing> {
    let latest_place = |p: usize| {
        finishes[p]
            .iter()
            .max_by_key(|f| f.round)
            .map_or(usize::MAX, |f| f.place)
    };
    // The chain before head-to-head, as one key (smaller is better).
    let key = |s: &Standing| {
        let (first, second) = primary(ranking, s);
        (
            Reverse(first),
            Reverse(second),
            latest_place(s.player),
            Reverse(s.places),
        )
    };
    rows.sort_by_key(|s| (key(s), s.player));
    // Head-to-head inside each group equal on the key.
    let mut start = 0;
    while start < rows.len() {
        let end = (start..rows.len())
            .find(|&j| key(&rows[j]) != key(&rows[start]))
            .unwrap_or(rows.len());
        let group: Vec<usize> = rows[start..end].iter().map(|s| s.player).collect();
        let h2h = |p: usize| head_to_head(p, &group, finishes);
        rows[start..end].sort_by_key(|s| (Reverse(h2h(s.player)), s.player));
        for j in start..end {
            let equal_before = (start..j)
                .find(|&k| h2h(rows[k].player) == h2h(rows[j].player))
                .unwrap_or(j);
            rows[j].rank = equal_before + 1;
        }
        start = end;
    }
    rows
}

/// `player`'s head-to-head score against the others of `group`.
fn head_to_head(player: usize, group: &[usize], finishes: &[Vec<Finish>]) -> i64 {
    let mut score = 0;
    for &other in group.iter().filter(|&&o| o != player) {
        for mine in &finishes[player] {
            if let Some(theirs) = finishes[other]
                .iter()
                .find(|f| f.round == mine.round && f.table == mine.table)
            {
                score += match mine.place.cmp(&theirs.place) {
                    std::cmp::Ordering::Less => 1,
                    std::cmp::Ordering::Greater => -1,
                    std::cmp::Ordering::Equal => 0,
                };
            }
        }
    }
    score
}
