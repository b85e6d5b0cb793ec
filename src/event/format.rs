//! The formats clubs play, as data on [`super::EventSetup`]: how later rounds are seated
//! ([`SeatingRule`]), placement points per game ([`Placement`]), the finals' stages
//! ([`Stage`], [`Seeding`], [`Carry`], [`Finals`]) and a named preset per federation
//! ([`Format`]) that sets all of it at once.
//!
//! Every field is serde-defaulted, so an event file written before formats existed loads as
//! the format it was played in (mixed seating, no placement points, no bonus, no finals).
//!
//! **Placement points** are given per game: the players of a game are placed by the game's
//! points (the winner first), and place p of a table of n earns the p-th value of the table
//! size's list. Players tied on points share the average of the places they span (two tied for
//! 2nd at 4/3/1/0 get (3 + 1) / 2 = 2 each), so a table of n always hands out the list's sum.
//! Averages of up to six places are exact in sixtieths: placement points are kept in units of
//! 1/[`PLACEMENT_UNIT`].

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{EventSetup, Ranking};
use crate::rules::{Preset, RuleSet};

/// Placement points are kept in sixtieths (the least common multiple of 1..=6: the average of
/// any run of tied places at a table of up to six is a whole number of them).
pub const PLACEMENT_UNIT: i64 = 60;

/// The most points one place may earn in a placement list.
pub const MAX_PLACEMENT_POINTS: u32 = 1000;

/// How rounds after the first are seated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatingRule {
    /// The fewest repeat meetings (players placed in standings order where they met nobody).
    #[default]
    Mixed,
    /// By standings: table 1 the top n of the standings, table 2 the next, …
    Standings,
}

impl SeatingRule {
    /// Every rule.
    pub const ALL: [SeatingRule; 2] = [SeatingRule::Mixed, SeatingRule::Standings];

    /// The name on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            SeatingRule::Mixed => "mixed",
            SeatingRule::Standings => "standings",
        }
    }
}

/// Placement points per table size: the list of a table of n has n values, place 1 first.
/// A size without a list of its own takes [`Placement::default_list`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    /// The lists given, at most one per length.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lists: Vec<Vec<u32>>,
}

/// Why a placement list is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlacementProblem {
    /// A table seats 2 to 6: the list has another length.
    Length(usize),
    /// A value is above [`MAX_PLACEMENT_POINTS`].
    TooLarge(u32),
}

impl std::fmt::Display for PlacementProblem {
    /// English; `i18n::event::placement_problem` words it in the user's language.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlacementProblem::Length(n) => write!(
                f,
                "a placement list of {n} values: a table seats 2 to 6, one value per place"
            ),
            PlacementProblem::TooLarge(v) => {
                write!(
                    f,
                    "a placement value of {v}: at most {MAX_PLACEMENT_POINTS}"
                )
            }
        }
    }
}

impl Placement {
    /// The lists given (a later list of one length replaces an earlier one), checked.
    ///
    /// ```
    /// use rummikub_companion::event::format::Placement;
    /// let p = Placement::new(vec![vec![4, 3, 1, 0], vec![5, 2, 0]]).unwrap();
    /// assert_eq!(p.list(4), [4, 3, 1, 0]);
    /// assert_eq!(p.list(3), [5, 2, 0]);
    /// assert_eq!(p.list(5), [4, 3, 2, 1, 0]);
    /// assert!(Placement::new(vec![vec![1]]).is_err());
    /// ```
    pub fn new(lists: Vec<Vec<u32>>) -> Result<Placement, PlacementProblem> {
        let mut kept: Vec<Vec<u32>> = Vec::new();
        for list in lists {
            if !(2..=6).contains(&list.len()) {
                return Err(PlacementProblem::Length(list.len()));
            }
            if let Some(&v) = list.iter().find(|&&v| v > MAX_PLACEMENT_POINTS) {
                return Err(PlacementProblem::TooLarge(v));
            }
            kept.retain(|k| k.len() != list.len());
            kept.push(list);
        }
        kept.sort_by_key(Vec::len);
        Ok(Placement { lists: kept })
    }

    /// The list of a table of `n`: the one given, else the default.
    pub fn list(&self, n: usize) -> Vec<u32> {
        self.lists
            .iter()
            .find(|l| l.len() == n)
            .cloned()
            .unwrap_or_else(|| Placement::default_list(n))
    }

    /// The default lists: 4/3/1/0 at a table of 4 (the German tournaments'); 4/2/0 at a table
    /// of 3 and 4/3/2/1/0 at a table of 5 — the same points for a win and the same average (2)
    /// as at a table of 4, so no table size is worth more; n−1 … 0 for any other size.
    pub fn default_list(n: usize) -> Vec<u32> {
        match n {
            3 => vec![4, 2, 0],
            4 => vec![4, 3, 1, 0],
            5 => vec![4, 3, 2, 1, 0],
            n => (0..n)
                .rev()
                .map(|v| u32::try_from(v).unwrap_or(0))
                .collect(),
        }
    }

    /// Each seat's placement points, in units of 1/[`PLACEMENT_UNIT`], from the seats' places
    /// (1-based; tied seats share a place): tied seats share the average of the places they
    /// span.
    ///
    /// ```
    /// use rummikub_companion::event::format::{PLACEMENT_UNIT, Placement};
    /// let p = Placement::default();
    /// // Two tied for 2nd at 4/3/1/0 get 2 each.
    /// assert_eq!(p.points(&[1, 2, 2, 4]), [4, 2, 2, 0].map(|v| v * PLACEMENT_UNIT));
    /// ```
    pub fn points(&self, places: &[usize]) -> Vec<i64> {
        let list = self.list(places.len());
        places
            .iter()
            .map(|&place| {
                let tied = places.iter().filter(|&&q| q == place).count().max(1);
                let from = place.saturating_sub(1).min(list.len());
                let to = (from + tied).min(list.len());
                let sum: i64 = list[from..to].iter().map(|&v| i64::from(v)).sum();
                sum * PLACEMENT_UNIT / i64::try_from(tied).unwrap_or(1)
            })
            .collect()
    }
}

/// The places of one game: by the game's points, the winner first; equal points share the
/// place (1-based).
///
/// ```
/// use rummikub_companion::event::format::game_places;
/// assert_eq!(game_places(&[30, -10, -10, -10], 0), [1, 2, 2, 2]);
/// assert_eq!(game_places(&[-5, 12, -7, 0], 1), [3, 1, 4, 2]);
/// ```
pub fn game_places(points: &[i64], winner: usize) -> Vec<usize> {
    let key = |i: usize| (points[i], i == winner);
    (0..points.len())
        .map(|i| 1 + (0..points.len()).filter(|&j| key(j) > key(i)).count())
        .collect()
}

/// Text of placement points (units of 1/60) with at most two decimals: `150` → `2.5`.
///
/// ```
/// use rummikub_companion::event::format::placement_text;
/// assert_eq!(placement_text(240), "4");
/// assert_eq!(placement_text(150), "2.5");
/// assert_eq!(placement_text(160), "2.67");
/// ```
pub fn placement_text(units: i64) -> String {
    let hundredths = (units * 100 + units.signum() * PLACEMENT_UNIT / 2) / PLACEMENT_UNIT;
    let (sign, abs) = (if hundredths < 0 { "-" } else { "" }, hundredths.abs());
    match abs % 100 {
        0 => format!("{sign}{}", abs / 100),
        r if r % 10 == 0 => format!("{sign}{}.{}", abs / 100, r / 10),
        r => format!("{sign}{}.{r:02}", abs / 100),
    }
}

/// Placement points (units of 1/60) as a JSON number, to two decimals.
pub fn placement_number(units: i64) -> f64 {
    ((units * 100 + units.signum() * PLACEMENT_UNIT / 2) / PLACEMENT_UNIT) as f64 / 100.0
}

/// A round's stage: a qualifying round, a semi-final or the final.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// A qualifying round.
    #[default]
    Round,
    /// A stage of more than one table after the qualifying rounds.
    Semi,
    /// The last stage: one table.
    Final,
}

impl Stage {
    /// The name in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Stage::Round => "round",
            Stage::Semi => "semi",
            Stage::Final => "final",
        }
    }

    /// Whether this is a qualifying round.
    pub fn is_round(self) -> bool {
        self == Stage::Round
    }
}

/// How the seeds of a stage are seated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seeding {
    /// Dealt round the tables in turn: with two tables 1-3-5-7 and 2-4-6-8 (Belgium's
    /// semi-finals), so every table holds a top seed.
    #[default]
    Snake,
    /// In order: table 1 the top seeds (1-2-3-4), table 2 the next.
    Order,
}

impl Seeding {
    /// Every seeding.
    pub const ALL: [Seeding; 2] = [Seeding::Snake, Seeding::Order];

    /// The name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Seeding::Snake => "snake",
            Seeding::Order => "order",
        }
    }

    /// The seeds (best first) at tables of `sizes`, each table in seed order.
    ///
    /// ```
    /// use rummikub_companion::event::format::Seeding;
    /// let seeds: Vec<usize> = (1..=8).collect();
    /// assert_eq!(Seeding::Snake.tables(&seeds, &[4, 4]), [vec![1, 3, 5, 7], vec![2, 4, 6, 8]]);
    /// assert_eq!(Seeding::Order.tables(&seeds, &[4, 4]), [vec![1, 2, 3, 4], vec![5, 6, 7, 8]]);
    /// ```
    pub fn tables(self, seeds: &[usize], sizes: &[usize]) -> Vec<Vec<usize>> {
        let mut tables: Vec<Vec<usize>> = sizes.iter().map(|&s| Vec::with_capacity(s)).collect();
        match self {
            Seeding::Order => {
                let mut rest = seeds;
                for (table, &size) in tables.iter_mut().zip(sizes) {
                    let (here, tail) = rest.split_at(size.min(rest.len()));
                    table.extend_from_slice(here);
                    rest = tail;
                }
            }
            Seeding::Snake => {
                let mut t = 0;
                for &p in seeds {
                    for _ in 0..tables.len() {
                        if tables[t].len() < sizes[t] {
                            break;
                        }
                        t = (t + 1) % tables.len();
                    }
                    tables[t].push(p);
                    t = (t + 1) % tables.len();
                }
            }
        }
        tables
    }
}

/// What a player brings into a stage from before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Carry {
    /// Nothing: only the stage's own games count (Belgium's final).
    None,
    /// Half, rounded up (Kuwana's qualifier for Japan's championship).
    Half,
    /// Everything (Japan's championship: the total since round 1).
    #[default]
    All,
}

impl Carry {
    /// Every rule.
    pub const ALL: [Carry; 3] = [Carry::None, Carry::Half, Carry::All];

    /// The name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Carry::None => "none",
            Carry::Half => "half",
            Carry::All => "all",
        }
    }

    /// What of `value` carries, `unit` being a whole point of it (half is rounded up to whole
    /// points: −15 → −7, 17 → 9).
    ///
    /// ```
    /// use rummikub_companion::event::format::Carry;
    /// assert_eq!(Carry::Half.of(17, 1), 9);
    /// assert_eq!(Carry::Half.of(-15, 1), -7);
    /// assert_eq!(Carry::Half.of(150, 60), 120);
    /// assert_eq!(Carry::None.of(17, 1), 0);
    /// ```
    pub fn of(self, value: i64, unit: i64) -> i64 {
        match self {
            Carry::None => 0,
            Carry::All => value,
            Carry::Half => {
                let unit = unit.max(1);
                let halves = 2 * unit;
                (value.div_euclid(halves) + i64::from(value.rem_euclid(halves) != 0)) * unit
            }
        }
    }
}

/// What `event final` does when its options are not given (a format sets them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finals {
    /// Games at a semi-final table (the event's games when `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub semi_games: Option<u32>,
    /// Games at the final table (the event's games when `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_games: Option<u32>,
    /// How the seeds sit.
    #[serde(default)]
    pub seeding: Seeding,
    /// What carries into a stage.
    #[serde(default)]
    pub carry: Carry,
}

/// A federation's format: sets the seating, ranking, placement points, win bonus, rules and
/// finals of an event at once (the README names each one's source).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// German city and national championships: by-standings seating, 4/3/1/0 a game.
    Germany,
    /// Japan's qualifiers and championship: cumulative points with +100 a win, joker 50, the
    /// final carries everything.
    Japan,
    /// Belgium: three games a round by points, joker 25, semi-finals 1-3-5-7 / 2-4-6-8 of two
    /// games, a final of one game on the semi-final's points only.
    Belgium,
    /// Poland's qualifiers: four rounds of four games by points, a final for the best.
    Poland,
    /// Korea's ranking events: four games a round, wins then points.
    Korea,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 5] = [
        Format::Germany,
        Format::Japan,
        Format::Belgium,
        Format::Poland,
        Format::Korea,
    ];

    /// The name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Germany => "germany",
            Format::Japan => "japan",
            Format::Belgium => "belgium",
            Format::Poland => "poland",
            Format::Korea => "korea",
        }
    }

    /// Sets `setup`'s games, seating, ranking, placement points, win bonus, rules and finals.
    ///
    /// ```
    /// use rummikub_companion::event::format::{Format, SeatingRule};
    /// use rummikub_companion::event::{EventSetup, Ranking};
    /// let mut setup = EventSetup::new("Stadtmeisterschaft", 1);
    /// Format::Germany.apply(&mut setup);
    /// assert_eq!(setup.ranking, Ranking::Placement);
    /// assert_eq!(setup.seating, SeatingRule::Standings);
    /// assert_eq!(setup.placement.list(4), [4, 3, 1, 0]);
    /// ```
    pub fn apply(self, setup: &mut EventSetup) {
        let base = Preset::Korean.rules();
        let (games, seating, ranking, win_bonus, rules, finals) = match self {
            Format::Germany => (
                4,
                SeatingRule::Standings,
                Ranking::Placement,
                0,
                base,
                Finals::default(),
            ),
            Format::Japan => (
                4,
                SeatingRule::Mixed,
                Ranking::Total,
                100,
                RuleSet {
                    joker_penalty: 50,
                    ..base
                },
                Finals {
                    final_games: Some(3),
                    carry: Carry::All,
                    ..Finals::default()
                },
            ),
            Format::Belgium => (
                3,
                SeatingRule::Mixed,
                Ranking::Total,
                0,
                RuleSet {
                    joker_penalty: 25,
                    ..base
                },
                Finals {
                    semi_games: Some(2),
                    final_games: Some(1),
                    seeding: Seeding::Snake,
                    carry: Carry::None,
                },
            ),
            Format::Poland => (
                4,
                SeatingRule::Mixed,
                Ranking::Total,
                0,
                base,
                Finals::default(),
            ),
            Format::Korea => (
                4,
                SeatingRule::Mixed,
                Ranking::Wins,
                0,
                Preset::Tournament.rules(),
                Finals::default(),
            ),
        };
        setup.games = games;
        setup.seating = seating;
        setup.ranking = ranking;
        setup.placement = Placement::default();
        setup.win_bonus = win_bonus;
        setup.rules = rules;
        setup.finals = finals;
        setup.format = Some(self);
    }
}

macro_rules! named {
    ($type:ty) => {
        impl fmt::Display for $type {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $type {
            type Err = String;
            /// By name, trimmed and case-folded; the error is the text as read.
            fn from_str(s: &str) -> Result<$type, String> {
                let s = s.trim().to_lowercase();
                <$type>::ALL.into_iter().find(|x| x.name() == s).ok_or(s)
            }
        }
    };
}

named!(SeatingRule);
named!(Seeding);
named!(Carry);
named!(Format);
