//! Reading sets as laid on the table, and the initial-meld verdict.
//!
//! Order matters: a joker takes the value of its position, so `R11 R12 J` is worth 36 (the
//! joker is R13) while `J R11 R12` is worth 33 (it is R10). A run whose numbered tiles are
//! entered highest first is read right to left. When the tiles allow both a run and a group
//! (one numbered tile plus jokers), a declared kind wins; without one the higher-scoring reading
//! is used and the [`Reading`] says what the other would have been, so nobody is surprised.
//!
//! Every failure is a [`SetProblem`] or [`MeldProblem`] whose message names the tiles involved:
//! the checker exists to settle arguments, and "invalid" alone settles nothing.

use std::fmt;

use crate::rules::RuleSet;
use crate::tile::{Color, Kind, SetInput, Tile, TileSet, TooManyCopies, join_tiles};

/// A valid reading of one set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Run or group.
    pub kind: Kind,
    /// What each tile stands for, in table order: jokers replaced by the tile they represent.
    pub represented: Vec<Tile>,
    /// Points the set is worth.
    pub points: u32,
    /// When no kind was declared and the other kind was also valid: that kind and its points.
    pub alternative: Option<(Kind, u32)>,
}

impl Reading {
    /// The jokers of `tiles` paired with what they stand for, in table order.
    pub fn joker_values<'a>(&'a self, tiles: &'a [Tile]) -> impl Iterator<Item = Tile> + 'a {
        tiles
            .iter()
            .zip(&self.represented)
            .filter(|(t, _)| t.is_joker())
            .map(|(_, r)| *r)
    }

    /// The ambiguity note: "read as run R5 R6 R7 = 18; as a group it would be 15".
    pub fn note(&self) -> Option<String> {
        self.alternative.map(|(kind, points)| {
            format!(
                "read as {} {} = {}; as a {} it would be {}",
                self.kind,
                join_tiles(&self.represented),
                self.points,
                kind,
                points
            )
        })
    }
}

/// Why one set is not valid. The `Display` text is the message shown to players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetProblem {
    /// Fewer than 3 tiles.
    TooFewTiles,
    /// Only jokers.
    NoNumberedTile,
    /// More than 4 tiles read as a group.
    GroupTooLarge,
    /// More than 13 tiles read as a run.
    RunTooLong,
    /// Two tiles of one colour in a group.
    GroupRepeatsColor(Tile, Tile),
    /// Two different numbers in a group.
    GroupMixesNumbers(Tile, Tile),
    /// Two different colours in a run.
    RunMixesColors(Tile, Tile),
    /// A joker would have to stand for 14 (after the given last numbered tile).
    RunAbove13(Tile),
    /// A joker would have to stand for 0 (before the given first numbered tile).
    RunBelow1(Tile),
    /// A 1 placed after a 13.
    ThirteenThenOne,
    /// A numbered tile that breaks the sequence.
    NotConsecutive {
        /// The tile that does not fit.
        found: Tile,
        /// The previous numbered tile in reading order.
        after: Tile,
        /// The number the run needs at that position.
        expected: i32,
    },
    /// Neither reading works and the tiles do not say which was meant.
    Neither {
        /// Why it is not a run.
        run: Box<SetProblem>,
        /// Why it is not a group.
        group: Box<SetProblem>,
    },
}

impl fmt::Display for SetProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetProblem::TooFewTiles => f.write_str("a set needs at least 3 tiles"),
            SetProblem::NoNumberedTile => f.write_str("a set needs at least one numbered tile"),
            SetProblem::GroupTooLarge => f.write_str("a group holds at most 4 tiles"),
            SetProblem::RunTooLong => f.write_str("a run holds at most 13 tiles"),
            SetProblem::GroupRepeatsColor(a, b) => {
                let name = a.color().map_or("", Color::name);
                write!(f, "group has two {name} tiles ({a}, {b})")
            }
            SetProblem::GroupMixesNumbers(a, b) => write!(f, "group mixes numbers ({a}, {b})"),
            SetProblem::RunMixesColors(a, b) => write!(f, "run mixes colours ({a}, {b})"),
            SetProblem::RunAbove13(last) => write!(f, "run would need a 14 after {last}"),
            SetProblem::RunBelow1(first) => write!(f, "run would need a 0 before {first}"),
            SetProblem::ThirteenThenOne => f.write_str("13 cannot be followed by 1"),
            SetProblem::NotConsecutive {
                found,
                after,
                expected,
            } => {
                let color = found.color().map_or('?', Color::letter);
                match u8::try_from(*expected) {
                    Ok(n) if (1..=13).contains(&n) => write!(
                        f,
                        "{found} does not follow {after}: the run needs {color}{n} there"
                    ),
                    _ => write!(
                        f,
                        "{found} does not follow {after}: the run would need a {expected} there"
                    ),
                }
            }
            SetProblem::Neither { run, group } => {
                write!(f, "neither a run nor a group: {run}; {group}")
            }
        }
    }
}

impl std::error::Error for SetProblem {}

/// Reads one set as laid on the table, honouring its declaration.
///
/// # Example
/// ```
/// use rummikub_companion::meld::read_set;
/// use rummikub_companion::tile::parse_sets;
/// let set = &parse_sets("R11 R12 J").unwrap()[0];
/// let reading = read_set(set).unwrap();
/// assert_eq!(reading.points, 36); // the joker is R13
/// let set = &parse_sets("R12 R13 J").unwrap()[0];
/// assert_eq!(read_set(set).unwrap_err().to_string(), "run would need a 14 after R13");
/// ```
pub fn read_set(set: &SetInput) -> Result<Reading, SetProblem> {
    let tiles = &set.tiles;
    if tiles.len() < 3 {
        return Err(SetProblem::TooFewTiles);
    }
    let numbered: Vec<Tile> = tiles.iter().copied().filter(|t| !t.is_joker()).collect();
    if numbered.is_empty() {
        return Err(SetProblem::NoNumberedTile);
    }
    let finish = |kind, (represented, points)| Reading {
        kind,
        represented,
        points,
        alternative: None,
    };
    if let Some(kind) = set.declared {
        return read_as(tiles, kind).map(|r| finish(kind, r));
    }
    match (read_as(tiles, Kind::Run), read_as(tiles, Kind::Group)) {
        (Ok(run), Ok(group)) => {
            // Only one distinct numbered tile plus jokers can be both; use the higher value.
            let (run_points, group_points) = (run.1, group.1);
            if run_points > group_points {
                let mut r = finish(Kind::Run, run);
                r.alternative = Some((Kind::Group, group_points));
                Ok(r)
            } else {
                let mut r = finish(Kind::Group, group);
                r.alternative = Some((Kind::Run, run_points));
                Ok(r)
            }
        }
        (Ok(run), Err(_)) => Ok(finish(Kind::Run, run)),
        (Err(_), Ok(group)) => Ok(finish(Kind::Group, group)),
        (Err(run), Err(group)) => {
            // Report the kind the player most likely meant: the one most tiles agree on.
            let one_number = numbered.iter().all(|t| t.number() == numbered[0].number());
            let one_color = numbered.iter().all(|t| t.color() == numbered[0].color());
            let most_of = |key: fn(&Tile) -> Option<u8>| {
                (0u8..14)
                    .map(|k| numbered.iter().filter(|t| key(t) == Some(k)).count())
                    .max()
                    .unwrap_or(0)
            };
            let same_color = most_of(|t| t.color().map(|c| c as u8));
            let same_number = most_of(|t| t.number());
            Err(if one_number && numbered.len() >= 2 {
                group
            } else if one_color || tiles.len() > 4 || same_color > same_number {
                run
            } else if same_number > same_color {
                group
            } else {
                SetProblem::Neither {
                    run: Box::new(run),
                    group: Box::new(group),
                }
            })
        }
    }
}

/// Reads `tiles` as the given kind: what each tile stands for and the points.
/// Assumes at least 3 tiles with one numbered among them (checked by [`read_set`]).
pub fn read_as(tiles: &[Tile], kind: Kind) -> Result<(Vec<Tile>, u32), SetProblem> {
    match kind {
        Kind::Group => read_group(tiles),
        Kind::Run => read_run(tiles),
    }
}

fn read_group(tiles: &[Tile]) -> Result<(Vec<Tile>, u32), SetProblem> {
    if tiles.len() > 4 {
        return Err(SetProblem::GroupTooLarge);
    }
    let mut seen: [Option<Tile>; 4] = [None; 4];
    let mut first: Option<Tile> = None;
    for &tile in tiles.iter().filter(|t| !t.is_joker()) {
        let (Some(color), Some(number)) = (tile.color(), tile.number()) else {
            continue;
        };
        match first {
            Some(f) if f.number() != Some(number) => {
                return Err(SetProblem::GroupMixesNumbers(f, tile));
            }
            None => first = Some(tile),
            _ => {}
        }
        if let Some(earlier) = seen[color.index()] {
            return Err(SetProblem::GroupRepeatsColor(earlier, tile));
        }
        seen[color.index()] = Some(tile);
    }
    let number = first
        .and_then(Tile::number)
        .ok_or(SetProblem::NoNumberedTile)?;
    let mut missing = Color::ALL
        .into_iter()
        .filter(|c| seen[c.index()].is_none())
        .filter_map(|c| Tile::numbered(c, number));
    let represented: Vec<Tile> = tiles
        .iter()
        .map(|&t| {
            if t.is_joker() {
                missing.next().unwrap_or(t)
            } else {
                t
            }
        })
        .collect();
    Ok((represented, u32::from(number) * tiles.len() as u32))
}

fn read_run(tiles: &[Tile]) -> Result<(Vec<Tile>, u32), SetProblem> {
    if tiles.len() > 13 {
        return Err(SetProblem::RunTooLong);
    }
    let numbers: Vec<u8> = tiles.iter().filter_map(|t| t.number()).collect();
    let descending = numbers.len() >= 2 && numbers[1] < numbers[0];
    if !descending {
        return read_run_ascending(tiles);
    }
    let reversed: Vec<Tile> = tiles.iter().rev().copied().collect();
    match read_run_ascending(&reversed) {
        Ok((mut represented, points)) => {
            represented.reverse();
            Ok((represented, points))
        }
        // `R13 R1 R2` looks descending but is a wrap-around attempt: say so.
        Err(_) if numbers[0] == 13 && numbers[1] == 1 => read_run_ascending(tiles),
        Err(e) => Err(e),
    }
}

/// Reads a run left to right, lowest first.
fn read_run_ascending(tiles: &[Tile]) -> Result<(Vec<Tile>, u32), SetProblem> {
    let mut numbered = tiles
        .iter()
        .enumerate()
        .filter_map(|(i, t)| Some((i as i32, *t, t.color()?, i32::from(t.number()?))));
    let Some((i0, first, color, v0)) = numbered.next() else {
        return Err(SetProblem::NoNumberedTile);
    };
    let start = v0 - i0;
    let mut prev = first;
    let mut seen_13 = v0 == 13;
    let mut last = first;
    for (i, tile, c, v) in numbered {
        if c != color {
            return Err(SetProblem::RunMixesColors(first, tile));
        }
        let expected = start + i;
        if v != expected {
            return Err(if v == 1 && seen_13 {
                SetProblem::ThirteenThenOne
            } else {
                SetProblem::NotConsecutive {
                    found: tile,
                    after: prev,
                    expected,
                }
            });
        }
        seen_13 |= v == 13;
        prev = tile;
        last = tile;
    }
    if start < 1 {
        return Err(SetProblem::RunBelow1(first));
    }
    let end = start + tiles.len() as i32 - 1;
    if end > 13 {
        return Err(SetProblem::RunAbove13(last));
    }
    let represented: Vec<Tile> = (start..=end)
        .filter_map(|n| Tile::numbered(color, n as u8))
        .collect();
    let points = (start..=end).sum::<i32>() as u32;
    Ok((represented, points))
}

/// What the initial-meld check needs from the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeldOptions {
    /// Points needed (30 by default).
    pub threshold: u32,
    /// Which set's tile counts apply.
    pub tile_set: TileSet,
    /// Whether jokers may be used.
    pub jokers_allowed: bool,
}

impl Default for MeldOptions {
    fn default() -> Self {
        MeldOptions::from(&RuleSet::default())
    }
}

impl From<&RuleSet> for MeldOptions {
    fn from(rules: &RuleSet) -> Self {
        MeldOptions {
            threshold: rules.meld_threshold,
            tile_set: rules.tile_set,
            jokers_allowed: rules.jokers_in_initial_meld,
        }
    }
}

/// Why a meld as a whole is not a valid initial meld.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MeldProblem {
    /// A set is not valid (index is 0-based; the message says "set 1").
    Set(usize, SetProblem),
    /// More copies of a tile than the tile set holds.
    TooManyCopies {
        /// The tile.
        tile: Tile,
        /// How many were entered.
        count: usize,
        /// The tile set in use.
        tile_set: TileSet,
    },
    /// Jokers were used but the house rule forbids them.
    JokersNotAllowed,
    /// The valid sets add up to less than the threshold.
    BelowThreshold {
        /// Points of the valid sets.
        total: u32,
        /// Points needed.
        threshold: u32,
    },
}

pub use crate::tile::count_word;

impl From<TooManyCopies> for MeldProblem {
    fn from(e: TooManyCopies) -> MeldProblem {
        MeldProblem::TooManyCopies {
            tile: e.tile,
            count: e.count,
            tile_set: e.tile_set,
        }
    }
}

impl MeldProblem {
    /// The supply problem as the one shared error type, if this is one.
    pub fn too_many_copies(&self) -> Option<TooManyCopies> {
        match *self {
            MeldProblem::TooManyCopies {
                tile,
                count,
                tile_set,
            } => Some(TooManyCopies {
                tile,
                count,
                tile_set,
            }),
            _ => None,
        }
    }
}

impl fmt::Display for MeldProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeldProblem::Set(i, p) => write!(f, "set {}: {p}", i + 1),
            MeldProblem::TooManyCopies { .. } => match self.too_many_copies() {
                Some(excess) => excess.fmt(f),
                None => Ok(()),
            },
            MeldProblem::JokersNotAllowed => {
                f.write_str("jokers are not allowed in the initial meld (house rule)")
            }
            MeldProblem::BelowThreshold { total, threshold } => {
                write!(f, "total {total} is below {threshold}")
            }
        }
    }
}

/// One set of a meld with its reading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetVerdict {
    /// The set as entered.
    pub input: SetInput,
    /// Its reading, or why it is not valid.
    pub reading: Result<Reading, SetProblem>,
}

/// The initial-meld verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Every set in table order.
    pub sets: Vec<SetVerdict>,
    /// Points of the valid sets.
    pub total: u32,
    /// Points needed.
    pub threshold: u32,
    /// Everything wrong, in the order: sets, availability, jokers, threshold.
    pub problems: Vec<MeldProblem>,
}

impl Verdict {
    /// Every set valid, the tiles available and the threshold reached.
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Checks sets laid down as an initial meld.
///
/// # Example
/// ```
/// use rummikub_companion::meld::{check_meld, MeldOptions};
/// use rummikub_companion::tile::parse_sets;
/// let sets = parse_sets("R11 J R13 | K9 B9 O9").unwrap();
/// let verdict = check_meld(&sets, MeldOptions::default());
/// assert!(verdict.is_valid());
/// assert_eq!(verdict.total, 36 + 27);
///
/// let low = check_meld(&parse_sets("R4 B4 O4").unwrap(), MeldOptions::default());
/// assert_eq!(low.problems[0].to_string(), "total 12 is below 30");
/// ```
pub fn check_meld(sets: &[SetInput], options: MeldOptions) -> Verdict {
    let verdicts: Vec<SetVerdict> = sets
        .iter()
        .map(|s| SetVerdict {
            input: s.clone(),
            reading: read_set(s),
        })
        .collect();
    let mut problems: Vec<MeldProblem> = verdicts
        .iter()
        .enumerate()
        .filter_map(|(i, v)| {
            v.reading
                .as_ref()
                .err()
                .map(|p| MeldProblem::Set(i, p.clone()))
        })
        .collect();

    let tiles = || sets.iter().flat_map(|s| &s.tiles);
    problems.extend(
        options
            .tile_set
            .excess(tiles())
            .into_iter()
            .map(MeldProblem::from),
    );
    if !options.jokers_allowed && tiles().any(|t| t.is_joker()) {
        problems.push(MeldProblem::JokersNotAllowed);
    }
    let total = verdicts
        .iter()
        .filter_map(|v| v.reading.as_ref().ok())
        .map(|r| r.points)
        .sum();
    if total < options.threshold {
        problems.push(MeldProblem::BelowThreshold {
            total,
            threshold: options.threshold,
        });
    }
    Verdict {
        sets: verdicts,
        total,
        threshold: options.threshold,
        problems,
    }
}
