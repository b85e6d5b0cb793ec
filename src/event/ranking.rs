//! The standings of an event: three rankings, one tie-break chain.
//!
//! Every game is scored by the score sheet's zero-sum formula; a player's **points** are the sum
//! over every game they played, **wins** the games they won. Per table and round, a player also
//! has a **place** (by the table's points, then wins; equal players share it) and a **percent**:
//! their table points as a percentage of the table winner's (the highest at the table), kept in
//! hundredths of a percent and rounded down, 0 for everyone when the winner has no positive
//! points. Percent evens out tables of 3 and 4 (MSO's rule for multi-player games).
//!
//! The rankings ([`Ranking`]) differ only in their first two keys:
//! - `wins`: most wins, then most points (the Korean qualifier's "international rule");
//! - `total`: most points, then most wins;
//! - `percent`: highest sum of percents, then most wins.
//!
//! Then, the same chain for all three (after MSO):
//! 1. the better place at the table in the latest round the player has a result in;
//! 2. more table firsts, then more seconds, then more thirds;
//! 3. head-to-head among the players still tied: for each time two of them shared a table, +1
//!    to the one placed higher and −1 to the other; the higher sum ranks first.
//!
//! Players equal on all of it share the rank (1, 2, 2, 4).

use std::cmp::Reverse;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::Event;

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
}

impl Ranking {
    /// Every ranking.
    pub const ALL: [Ranking; 3] = [Ranking::Wins, Ranking::Total, Ranking::Percent];

    /// The name on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Ranking::Wins => "wins",
            Ranking::Total => "total",
            Ranking::Percent => "percent",
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

pub(super) fn standings(event: &Event, ranking: Ranking) -> Standings {
    let n = event.players().len();
    let mut rows: Vec<Standing> = event
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
        })
        .collect();
    let mut finishes: Vec<Vec<Finish>> = vec![Vec::new(); n];
    for (r, t, scores) in event.scored_tables() {
        let seats = &event.rounds()[r].tables[t].seats;
        let mut points = vec![0i64; seats.len()];
        let mut wins = vec![0usize; seats.len()];
        for score in &scores {
            for (s, p) in score.points.iter().enumerate() {
                points[s] += p;
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
    let latest_place = |p: usize| {
        finishes[p]
            .iter()
            .max_by_key(|f| f.round)
            .map_or(usize::MAX, |f| f.place)
    };
    // The chain before head-to-head, as one key (smaller is better).
    let key = |s: &Standing| {
        let (first, second) = match ranking {
            Ranking::Wins => (s.wins as i64, s.points),
            Ranking::Total => (s.points, s.wins as i64),
            Ranking::Percent => (s.percent, s.wins as i64),
        };
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
        let h2h = |p: usize| head_to_head(p, &group, &finishes);
        rows[start..end].sort_by_key(|s| (Reverse(h2h(s.player)), s.player));
        for j in start..end {
            let equal_before = (start..j)
                .find(|&k| h2h(rows[k].player) == h2h(rows[j].player))
                .unwrap_or(j);
            rows[j].rank = equal_before + 1;
        }
        start = end;
    }
    Standings { ranking, rows }
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
