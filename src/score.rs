//! Score sheets: the facts of each game in, zero-sum points out.
//!
//! A sheet stores only what happened at the table — who played, what each player had left on
//! the rack (as a number or as the tiles themselves), who had not melded, who was named winner
//! of a tie, and when — together with the [`RuleSet`]. Points, totals, wins and ranks are always
//! derived from those facts, never stored. That is what lets a table fix a typo in game 3, switch
//! from the 30-point to the 50-point joker, or argue about the Korean versus the English
//! final-winner rule after the fact: the whole sheet is simply recomputed, and every game still
//! sums to zero.
//!
//! The module is pure: no files and no clock. Timestamps are facts passed in by the caller
//! (`chrono` values), so tests and replays are exact. Reading and writing sheets as CSV lives in
//! [`table`], checking a hand-kept paper sheet in [`audit`], and saving to disk in
//! [`crate::store`].
//!
//! # Example
//! ```
//! use rummikub_companion::rules::{FinalRule, Preset};
//! use rummikub_companion::score::{Game, Hand, Players, Sheet};
//! use rummikub_companion::tile::parse_rack;
//! use chrono::{TimeZone, Utc};
//!
//! let players = Players::new(["Ann", "Bo", "Cy"]).unwrap();
//! let start = Utc.with_ymd_and_hms(2024, 5, 1, 19, 0, 0).unwrap();
//! let mut sheet = Sheet::new(players, Preset::Korean.rules(), Some(1), start).unwrap();
//! // Ann went out; Bo kept R5 K7 and a joker (30), Cy 12 points.
//! let game = Game::new(vec![
//!     Hand::of_value(0),
//!     Hand::of_tiles(parse_rack("R5 K7 J").unwrap()),
//!     Hand::of_value(12),
//! ]);
//! sheet.add_game(game).unwrap();
//! assert_eq!(sheet.scores()[0].points, vec![54, -42, -12]);
//! assert_eq!(sheet.standings().winners(FinalRule::Total), vec![0]);
//! // The tournament joker (50) recomputes everything.
//! sheet.set_rules(Preset::Tournament.rules()).unwrap();
//! assert_eq!(sheet.scores()[0].points, vec![74, -62, -12]);
//! ```

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::rules::{FinalRule, RuleSet};
use crate::tile::{
    NotationError, Tile, TileSet, TooManyCopies, join_tiles, normalize_width, parse_rack, shorten,
};

pub mod audit;
pub mod export;
mod finish;
mod patch;
pub mod table;
mod tally;

pub use finish::{MatchEnd, MatchState, SheetState, SheetSummary};
pub use patch::SheetPatch;

pub use crate::rules::{MAX_PLAYERS, MIN_PLAYERS, SeatProblem, check_seats};
/// Most players the standard set is for; more play the XP set.
pub const STANDARD_SET_PLAYERS: usize = 4;

/// The tile set a table of `players` plays: five or six play the XP set whatever the rules say
/// (the standard set is for two to four), fewer the rules' own set. Racks are checked against
/// it, and whatever reports a sheet's set names this one.
pub fn tile_set_for(players: usize, rules: &RuleSet) -> TileSet {
    if players > STANDARD_SET_PLAYERS {
        TileSet::Xp
    } else {
        rules.tile_set
    }
}
/// The largest remaining value that can be entered as a number: more than any rack can hold.
pub const MAX_VALUE: u32 = 9_999;
/// The most tiles a rack can list: every tile of the XP set.
pub const MAX_RACK_TILES: usize = 160;

/// A player as named in an error: seat index (0-based) and name. Displays as the name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// Seat index, 0-based, in seat order.
    pub index: usize,
    /// The player's name.
    pub name: String,
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// "A", "A and B", "A, B and C".
pub(crate) fn and_list<T: fmt::Display>(items: &[T]) -> String {
    let words: Vec<String> = items.iter().map(ToString::to_string).collect();
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// Why players, a game or a sheet change were refused. Every variant names the players involved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    /// Fewer than 2 or more than 6 players.
    #[error("a sheet needs 2 to 6 players, not {0}")]
    PlayerCount(usize),
    /// A name that is empty or only spaces (1-based seat).
    #[error("player {0} has no name")]
    EmptyName(usize),
    /// Two players with the same name (compared ignoring case and surrounding spaces).
    #[error("two players are called \"{0}\"")]
    DuplicateName(String),
    /// A game with a different number of hands than the sheet has players.
    #[error("a game needs one remaining value for each of the {expected} players, not {found}")]
    HandCount {
        /// Players on the sheet.
        expected: usize,
        /// Hands in the game.
        found: usize,
    },
    /// A number larger than [`MAX_VALUE`].
    #[error("{player}'s remaining value {value} is more than any rack can hold (at most 9999)")]
    ValueTooLarge {
        /// Whose value.
        player: Seat,
        /// The value entered.
        value: u32,
    },
    /// More tiles than [`MAX_RACK_TILES`].
    #[error("{player}'s rack lists {count} tiles, more than a whole set has (at most 160)")]
    TooManyTiles {
        /// Whose rack.
        player: Seat,
        /// How many tiles.
        count: usize,
    },
    /// A rack holds more copies of a tile than the sheet's tile set has (`J J J` in a standard
    /// set).
    #[error("{player}'s rack: {excess}")]
    TooManyCopies {
        /// Whose rack.
        player: Seat,
        /// Which tile, how many, and the set.
        excess: TooManyCopies,
    },
    /// The racks of one game together hold more copies of a tile than the set has (`J J` on
    /// one rack and `J` on another in a standard set): each rack alone may be possible.
    #[error("the racks together: {excess}")]
    TooManyCopiesInGame {
        /// Which tile, how many, and the set.
        excess: TooManyCopies,
    },
    /// Two players with nothing left: only one player can go out in a game.
    #[error("{first} and {second} both have remaining 0, but only one player can go out in a game")]
    TwoWentOut {
        /// The first player with 0.
        first: Seat,
        /// The second player with 0.
        second: Seat,
    },
    /// A player who went out is marked as not having melded.
    #[error("{0} went out (remaining 0), so cannot be marked as not having melded")]
    WentOutNotMelded(Seat),
    /// The named winner is not a seat of the sheet (0-based index).
    #[error("the named winner (seat {0}) is not a player of this sheet")]
    NoSuchPlayer(usize),
    /// A winner is named, but someone else went out.
    #[error("{named} is named the winner, but {went_out} went out")]
    WinnerDidNotGoOut {
        /// The named winner.
        named: Seat,
        /// The player who went out.
        went_out: Seat,
    },
    /// The named winner does not have the lowest remaining value.
    #[error(
        "{named} is named the winner with {named_value} left, but {lowest} has less ({lowest_value})"
    )]
    WinnerNotLowest {
        /// The named winner.
        named: Seat,
        /// The named winner's remaining value.
        named_value: i64,
        /// A player with the lowest value.
        lowest: Seat,
        /// The lowest value.
        lowest_value: i64,
    },
    /// Several players tie for the lowest remaining value and no winner is named.
    #[error(
        "{} tie for the lowest remaining value ({value}); name the winner",
        and_list(.tied)
    )]
    Tie {
        /// The tied players.
        tied: Vec<Seat>,
        /// Their remaining value.
        value: i64,
    },
    /// A game of the sheet is refused (1-based game number).
    #[error("game {number}: {source}")]
    InGame {
        /// Which game, 1-based.
        number: usize,
        /// Why.
        source: Box<ScoreError>,
    },
    /// No game with this 1-based number.
    #[error("there is no game {0}")]
    NoSuchGame(usize),
    /// Planned rounds of 0.
    #[error("planned rounds must be at least 1 (or open-ended)")]
    ZeroRounds,
    /// A target total below 1.
    #[error("a target total must be at least 1 (or none), not {0}")]
    TargetNotPositive(i64),
}

impl ScoreError {
    /// The seats (0-based) an error is about, e.g. to highlight their cells.
    pub fn seats(&self) -> Vec<usize> {
        match self {
            ScoreError::ValueTooLarge { player, .. }
            | ScoreError::TooManyTiles { player, .. }
            | ScoreError::TooManyCopies { player, .. }
            | ScoreError::WentOutNotMelded(player) => vec![player.index],
            ScoreError::TwoWentOut { first, second } => vec![first.index, second.index],
            ScoreError::WinnerDidNotGoOut { named, went_out } => vec![named.index, went_out.index],
            ScoreError::WinnerNotLowest { named, lowest, .. } => vec![named.index, lowest.index],
            ScoreError::Tie { tied, .. } => tied.iter().map(|s| s.index).collect(),
            ScoreError::EmptyName(seat) => vec![seat.saturating_sub(1)],
            ScoreError::InGame { source, .. } => source.seats(),
            _ => Vec::new(),
        }
    }
}

/// The players of a sheet, in seat order: 2–6 distinct, non-empty names.
///
/// Names are trimmed; two names that differ only in case count as the same player.
///
/// # Example
/// ```
/// use rummikub_companion::score::Players;
/// let p = Players::new(["루미", " 큐브 "]).unwrap();
/// assert_eq!(p.names(), ["루미", "큐브"]);
/// assert!(Players::new(["Ann", "ann"]).is_err());
/// assert!(Players::new(["Solo"]).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<String>", into = "Vec<String>")]
pub struct Players(Vec<String>);

impl Players {
    /// Checks and keeps the names.
    pub fn new<I, S>(names: I) -> Result<Players, ScoreError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        check_seats(names)
            .map(Players)
            .map_err(|problem| match problem {
                SeatProblem::Count(n) => ScoreError::PlayerCount(n),
                SeatProblem::Empty(seat) => ScoreError::EmptyName(seat + 1),
                SeatProblem::Duplicate(name) => ScoreError::DuplicateName(name),
            })
    }

    /// The names, in seat order.
    pub fn names(&self) -> &[String] {
        &self.0
    }

    /// How many players.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Always false (a sheet has at least two players); here for clippy's `len` convention.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The player at `index` as a [`Seat`] (for messages); `None` when out of range.
    pub fn seat(&self, index: usize) -> Option<Seat> {
        self.0.get(index).map(|name| Seat {
            index,
            name: name.clone(),
        })
    }

    /// The seat index of a name (ignoring case and surrounding spaces).
    pub fn position(&self, name: &str) -> Option<usize> {
        let key = name.trim().to_lowercase();
        self.0.iter().position(|n| n.to_lowercase() == key)
    }

    /// The seat for an index known to be in range (falls back to a numbered seat otherwise).
    fn seat_or_number(&self, index: usize) -> Seat {
        self.seat(index).unwrap_or_else(|| Seat {
            index,
            name: format!("player {}", index + 1),
        })
    }
}

impl TryFrom<Vec<String>> for Players {
    type Error = ScoreError;
    fn try_from(names: Vec<String>) -> Result<Players, ScoreError> {
        Players::new(names)
    }
}

impl From<Players> for Vec<String> {
    fn from(p: Players) -> Vec<String> {
        p.0
    }
}

/// What a player had left at the end of a game, as entered.
///
/// Tiles are kept as tiles (not summed) so that a change of joker value recomputes the game.
/// Saved as a number or as a list of tile names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Remaining {
    /// The sum, as counted at the table (`0` = went out).
    Value(u32),
    /// The tiles left on the rack (jokers count the rules' joker value).
    Tiles(Vec<Tile>),
}

impl Remaining {
    /// True when nothing is left: the player went out.
    pub fn is_empty(&self) -> bool {
        match self {
            Remaining::Value(v) => *v == 0,
            Remaining::Tiles(t) => t.is_empty(),
        }
    }

    /// The rack's value with jokers at `joker_penalty`.
    pub fn rack_value(&self, joker_penalty: u32) -> i64 {
        match self {
            Remaining::Value(v) => i64::from(*v),
            Remaining::Tiles(tiles) => tiles
                .iter()
                .map(|t| t.number().map_or(i64::from(joker_penalty), i64::from))
                .sum(),
        }
    }
}

impl fmt::Display for Remaining {
    /// A number, or the tiles in canonical notation (`R5 K7 J`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Remaining::Value(v) => write!(f, "{v}"),
            Remaining::Tiles(t) if t.is_empty() => f.write_str("0"),
            Remaining::Tiles(t) => f.write_str(&join_tiles(t)),
        }
    }
}

/// Why a remaining value could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RemainingError {
    /// Nothing entered.
    #[error("no remaining value (enter 0 if the player went out)")]
    Empty,
    /// A minus sign: remaining values are never negative.
    #[error("\"{0}\" is negative: enter what was left on the rack (0 = went out), not points")]
    Negative(String),
    /// Starts like a number but is not a whole number.
    #[error("\"{0}\" is not a whole number")]
    NotANumber(String),
    /// A number above [`MAX_VALUE`].
    #[error("{0} is more than any rack can hold (at most 9999)")]
    TooLarge(String),
    /// Not a number and not tiles.
    #[error("\"{text}\" is neither a number nor tiles: {}", tile_problem(problem))]
    BadTiles {
        /// What was entered (full-width forms read as ASCII).
        text: String,
        /// The tile problem, typed so the window can translate it.
        problem: NotationError,
    },
    /// More than [`MAX_RACK_TILES`] tiles.
    #[error("{0} tiles is more than a whole set has (at most 160)")]
    TooManyTiles(usize),
}

impl FromStr for Remaining {
    type Err = RemainingError;

    /// A whole number (`17`) or tiles (`R5 K7 J`, `빨강5 조커`).
    fn from_str(s: &str) -> Result<Remaining, RemainingError> {
        let s = normalize_width(s);
        let text = s.trim();
        let Some(first) = text.chars().next() else {
            return Err(RemainingError::Empty);
        };
        if matches!(first, '-' | '−' | '–' | '－') {
            return Err(RemainingError::Negative(shorten(text)));
        }
        if first.is_ascii_digit() || first == '+' {
            return parse_value(text);
        }
        let tiles = parse_rack(text).map_err(|e| RemainingError::BadTiles {
            text: shorten(text),
            problem: e,
        })?;
        if tiles.len() > MAX_RACK_TILES {
            return Err(RemainingError::TooManyTiles(tiles.len()));
        }
        Ok(Remaining::Tiles(tiles))
    }
}

fn parse_value(text: &str) -> Result<Remaining, RemainingError> {
    let digits = text.strip_prefix('+').unwrap_or(text).trim();
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(RemainingError::NotANumber(shorten(text)));
    }
    match digits.parse::<u32>() {
        Ok(v) if v <= MAX_VALUE => Ok(Remaining::Value(v)),
        _ => Err(RemainingError::TooLarge(shorten(digits))),
    }
}

/// A tile problem without the set/column position, which means little inside one cell.
fn tile_problem(e: &NotationError) -> String {
    match e {
        NotationError::BadTile { error, .. } => error.to_string(),
        NotationError::NotARack { found, .. } => format!("\"{found}\" cannot appear in a rack"),
        other => other.to_string(),
    }
}

/// One player's facts at the end of a game.
///
/// # Example
/// ```
/// use rummikub_companion::rules::Preset;
/// use rummikub_companion::score::Hand;
/// use rummikub_companion::tile::parse_rack;
/// let hand = Hand::of_tiles(parse_rack("R5 J").unwrap());
/// assert_eq!(hand.counted_value(&Preset::Korean.rules()), 35);
/// assert_eq!(hand.counted_value(&Preset::Tournament.rules()), 55);
/// // Not melded: the tournament counts a flat 100, the Korean manual the rack.
/// let stuck = Hand::of_value(12).without_meld();
/// assert_eq!(stuck.counted_value(&Preset::Korean.rules()), 12);
/// assert_eq!(stuck.counted_value(&Preset::Tournament.rules()), 100);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hand {
    /// What was left on the rack.
    pub left: Remaining,
    /// The player had not made the initial meld when the game ended.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_melded: bool,
}

impl Hand {
    /// A remaining value entered as a number.
    pub fn of_value(value: u32) -> Hand {
        Hand {
            left: Remaining::Value(value),
            not_melded: false,
        }
    }

    /// A remaining value entered as the tiles on the rack.
    pub fn of_tiles(tiles: Vec<Tile>) -> Hand {
        Hand {
            left: Remaining::Tiles(tiles),
            not_melded: false,
        }
    }

    /// The same hand, marked as not having made the initial meld.
    pub fn without_meld(self) -> Hand {
        Hand {
            not_melded: true,
            ..self
        }
    }

    /// True when the player went out (nothing left).
    pub fn went_out(&self) -> bool {
        self.left.is_empty()
    }

    /// The value this hand counts under `rules`: the flat not-melded value where the rules have
    /// one and the player had not melded, else the rack with jokers at the rules' penalty.
    pub fn counted_value(&self, rules: &RuleSet) -> i64 {
        match (self.not_melded, rules.not_melded_value) {
            (true, Some(flat)) => i64::from(flat),
            _ => self.left.rack_value(rules.joker_penalty),
        }
    }

    fn check(&self, seat: Seat) -> Result<(), ScoreError> {
        match &self.left {
            Remaining::Value(v) if *v > MAX_VALUE => Err(ScoreError::ValueTooLarge {
                player: seat,
                value: *v,
            }),
            Remaining::Tiles(t) if t.len() > MAX_RACK_TILES => Err(ScoreError::TooManyTiles {
                player: seat,
                count: t.len(),
            }),
            _ if self.not_melded && self.went_out() => Err(ScoreError::WentOutNotMelded(seat)),
            _ => Ok(()),
        }
    }
}

/// The facts of one game: every player's hand in seat order, the winner if one was named, and
/// when it was recorded.
///
/// The winner only needs naming when the pool ran out and several players tie for the lowest
/// value; a named winner must be the player who went out, or one of the lowest.
///
/// # Example
/// ```
/// use rummikub_companion::rules::RuleSet;
/// use rummikub_companion::score::{Game, Hand, Players};
/// let players = Players::new(["Ann", "Bo", "Cy"]).unwrap();
/// // Pool exhausted: Ann and Bo tie at 4, the table names Bo.
/// let game = Game::new(vec![Hand::of_value(4), Hand::of_value(4), Hand::of_value(9)]);
/// let err = game.score(&players, &RuleSet::default()).unwrap_err();
/// assert_eq!(err.to_string(), "Ann and Bo tie for the lowest remaining value (4); name the winner");
/// let scored = game.with_winner(1).score(&players, &RuleSet::default()).unwrap();
/// assert_eq!(scored.points, vec![0, 5, -5]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// Each player's hand, in seat order.
    pub hands: Vec<Hand>,
    /// The winner named by the table (seat index), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<usize>,
    /// When the game was recorded, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played_at: Option<DateTime<Utc>>,
    /// The form entry (a draft's id) that recorded it, if it was typed at the table: after a
    /// crash between saving the sheet and clearing the draft, the draft is known as saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<u64>,
}

/// A game's derived result under some rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameScore {
    /// Each player's counted remaining value.
    pub values: Vec<i64>,
    /// The winner's seat index.
    pub winner: usize,
    /// True when the winner went out; false when the pool ran out and the lowest value won.
    pub went_out: bool,
    /// Signed points per player; they sum to zero.
    pub points: Vec<i64>,
}

impl Game {
    /// A game from the hands, with no named winner and no timestamp.
    pub fn new(hands: Vec<Hand>) -> Game {
        Game {
            hands,
            winner: None,
            played_at: None,
            entry: None,
        }
    }

    /// The same game with a named winner (seat index).
    pub fn with_winner(self, seat: usize) -> Game {
        Game {
            winner: Some(seat),
            ..self
        }
    }

    /// The same game with the time it was recorded.
    pub fn at(self, played_at: DateTime<Utc>) -> Game {
        Game {
            played_at: Some(played_at),
            ..self
        }
    }

    /// The same game marked as recorded by form entry `entry` (a draft's id).
    pub fn from_entry(self, entry: u64) -> Game {
        Game {
            entry: Some(entry),
            ..self
        }
    }

    /// The seat of the player who went out, if one did.
    pub fn went_out(&self) -> Option<usize> {
        self.hands.iter().position(Hand::went_out)
    }

    /// Points under `rules`: every loser scores −(own value − winner's value), the winner the
    /// sum of those amounts. Refuses a game whose facts do not decide a single winner.
    pub fn score(&self, players: &Players, rules: &RuleSet) -> Result<GameScore, ScoreError> {
        self.check_facts(players)?;
        let tile_set = tile_set_for(players.len(), rules);
        for (i, hand) in self.hands.iter().enumerate() {
            if let Remaining::Tiles(tiles) = &hand.left {
                tile_set
                    .check_supply(tiles)
                    .map_err(|excess| ScoreError::TooManyCopies {
                        player: players.seat_or_number(i),
                        excess,
                    })?;
            }
        }
        // One set is dealt: the racks together cannot hold more than it has either.
        let all = self.hands.iter().flat_map(|hand| match &hand.left {
            Remaining::Tiles(tiles) => tiles.as_slice(),
            Remaining::Value(_) => &[],
        });
        tile_set
            .check_supply(all)
            .map_err(|excess| ScoreError::TooManyCopiesInGame { excess })?;
        let values: Vec<i64> = self.hands.iter().map(|h| h.counted_value(rules)).collect();
        let went_out = self.went_out();
        let winner = match went_out {
            Some(seat) => self.check_named_goer(players, seat)?,
            None => self.lowest_winner(players, &values)?,
        };
        let points = zero_sum_points(&values, winner);
        Ok(GameScore {
            values,
            winner,
            went_out: went_out.is_some(),
            points,
        })
    }

    /// Everything that does not depend on the rules.
    fn check_facts(&self, players: &Players) -> Result<(), ScoreError> {
        if self.hands.len() != players.len() {
            return Err(ScoreError::HandCount {
                expected: players.len(),
                found: self.hands.len(),
            });
        }
        for (i, hand) in self.hands.iter().enumerate() {
            hand.check(players.seat_or_number(i))?;
        }
        let out: Vec<usize> = (0..self.hands.len())
            .filter(|&i| self.hands[i].went_out())
            .collect();
        if let [first, second, ..] = out[..] {
            return Err(ScoreError::TwoWentOut {
                first: players.seat_or_number(first),
                second: players.seat_or_number(second),
            });
        }
        match self.winner {
            Some(w) if w >= players.len() => Err(ScoreError::NoSuchPlayer(w)),
            _ => Ok(()),
        }
    }

    fn check_named_goer(&self, players: &Players, went_out: usize) -> Result<usize, ScoreError> {
        match self.winner {
            Some(named) if named != went_out => Err(ScoreError::WinnerDidNotGoOut {
                named: players.seat_or_number(named),
                went_out: players.seat_or_number(went_out),
            }),
            _ => Ok(went_out),
        }
    }

    fn lowest_winner(&self, players: &Players, values: &[i64]) -> Result<usize, ScoreError> {
        let lowest = values.iter().copied().min().unwrap_or(0);
        let tied: Vec<usize> = (0..values.len()).filter(|&i| values[i] == lowest).collect();
        match (self.winner, tied.as_slice()) {
            (Some(named), _) if values[named] == lowest => Ok(named),
            (Some(named), _) => Err(ScoreError::WinnerNotLowest {
                named: players.seat_or_number(named),
                named_value: values[named],
                lowest: players.seat_or_number(tied[0]),
                lowest_value: lowest,
            }),
            (None, [only]) => Ok(*only),
            (None, _) => Err(ScoreError::Tie {
                tied: tied.iter().map(|&i| players.seat_or_number(i)).collect(),
                value: lowest,
            }),
        }
    }
}

/// The one scoring formula of RULES.md.
fn zero_sum_points(values: &[i64], winner: usize) -> Vec<i64> {
    let mut points: Vec<i64> = values.iter().map(|v| values[winner] - v).collect();
    points[winner] = -points.iter().sum::<i64>();
    points
}

/// Where a game sits on the sheet (all 1-based). A round is as many games as players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameNumber {
    /// Position on the sheet.
    pub overall: usize,
    /// Which round.
    pub round: usize,
    /// Which game within the round.
    pub in_round: usize,
}

impl GameNumber {
    /// The number of the game at 0-based `index` on a sheet of `players` players.
    ///
    /// # Example
    /// ```
    /// use rummikub_companion::score::GameNumber;
    /// let n = GameNumber::of(4, 4);
    /// assert_eq!((n.overall, n.round, n.in_round), (5, 2, 1));
    /// ```
    pub fn of(index: usize, players: usize) -> GameNumber {
        let per_round = players.max(1);
        GameNumber {
            overall: index + 1,
            round: index / per_round + 1,
            in_round: index % per_round + 1,
        }
    }
}

impl fmt::Display for GameNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "round {}, game {}", self.round, self.in_round)
    }
}

/// Ranks with shared places ("1, 2, 2, 4"): one more than the number of strictly better keys.
///
/// # Example
/// ```
/// use rummikub_companion::score::rank_by;
/// assert_eq!(rank_by(&[10, 30, 10, -5]), vec![2, 1, 2, 4]);
/// ```
pub fn rank_by<K: Ord>(keys: &[K]) -> Vec<usize> {
    keys.iter()
        .map(|k| 1 + keys.iter().filter(|other| *other > k).count())
        .collect()
}

/// Ranks under a final rule: [`FinalRule::Total`] by highest total, [`FinalRule::Wins`] by most
/// wins then highest total.
pub fn ranks(totals: &[i64], wins: &[usize], rule: FinalRule) -> Vec<usize> {
    match rule {
        FinalRule::Total => rank_by(totals),
        FinalRule::Wins => {
            let keys: Vec<(usize, i64)> =
                wins.iter().copied().zip(totals.iter().copied()).collect();
            rank_by(&keys)
        }
    }
}

/// Totals, wins and ranks under both final rules, in seat order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standings {
    /// Sum of each player's points.
    pub totals: Vec<i64>,
    /// Games won by each player.
    pub wins: Vec<usize>,
    /// Ranks by highest total (Korean manual).
    pub by_total: Vec<usize>,
    /// Ranks by most wins, then highest total (English rulebook).
    pub by_wins: Vec<usize>,
}

impl Standings {
    /// The standings after the given games of `players` players.
    pub fn of(players: usize, games: &[GameScore]) -> Standings {
        Standings::tally(
            players,
            games.iter().map(|g| (g.points.as_slice(), Some(g.winner))),
        )
    }

    /// The standings of running totals and wins.
    fn from_tally(Tally { totals, wins }: Tally) -> Standings {
        Standings {
            by_total: ranks(&totals, &wins, FinalRule::Total),
            by_wins: ranks(&totals, &wins, FinalRule::Wins),
            totals,
            wins,
        }
    }

    /// Ranks under `rule`.
    pub fn ranks(&self, rule: FinalRule) -> &[usize] {
        match rule {
            FinalRule::Total => &self.by_total,
            FinalRule::Wins => &self.by_wins,
        }
    }

    /// Everyone ranked first under `rule` (seat indices; several on a true tie).
    pub fn winners(&self, rule: FinalRule) -> Vec<usize> {
        let ranks = self.ranks(rule);
        (0..ranks.len()).filter(|&i| ranks[i] == 1).collect()
    }
}

/// Running totals and wins, kept by a sheet so that adding a game costs one game's work.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Tally {
    totals: Vec<i64>,
    wins: Vec<usize>,
}

impl Tally {
    fn new(players: usize) -> Tally {
        Tally {
            totals: vec![0; players],
            wins: vec![0; players],
        }
    }

    fn add(&mut self, game: &GameScore) {
        for (total, p) in self.totals.iter_mut().zip(&game.points) {
            *total += p;
        }
        if let Some(w) = self.wins.get_mut(game.winner) {
            *w += 1;
        }
    }
}

/// What a sheet stores: facts only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct SheetFacts {
    players: Players,
    #[serde(default)]
    rules: RuleSet,
    #[serde(default)]
    planned_rounds: Option<u32>,
    /// The match ends after the game in which someone's total reaches this (absent in sheets
    /// saved before targets existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    target: Option<i64>,
    created: DateTime<Utc>,
    #[serde(default)]
    games: Vec<Game>,
}

/// A score sheet: players, rules, planned rounds (or open-ended) and the games in order.
///
/// Every game on a sheet is valid under its rules: a change that would break one (an edit, a
/// rule change that creates an undecided tie) is refused with an error naming the game, and the
/// sheet is left as it was. Serialises as facts only; points are recomputed when loaded.
///
/// Appending a game (the common case: a whole evening, or a 20,000-game import) scores only
/// that game and adds it to running totals, so it costs the same however long the sheet is;
/// edits, deletions and rule changes recompute the sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SheetFacts", into = "SheetFacts")]
pub struct Sheet {
    facts: SheetFacts,
    /// Derived from `facts` on every change; never saved.
    scores: Vec<GameScore>,
    /// Running totals and wins of `scores`; never saved.
    tally: Tally,
}

impl TryFrom<SheetFacts> for Sheet {
    type Error = ScoreError;
    fn try_from(facts: SheetFacts) -> Result<Sheet, ScoreError> {
        if facts.planned_rounds == Some(0) {
            return Err(ScoreError::ZeroRounds);
        }
        if let Some(target) = facts.target.filter(|&t| t < 1) {
            return Err(ScoreError::TargetNotPositive(target));
        }
        let scores = facts
            .games
            .iter()
            .enumerate()
            .map(|(i, g)| {
                g.score(&facts.players, &facts.rules)
                    .map_err(|e| ScoreError::InGame {
                        number: i + 1,
                        source: Box::new(e),
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut tally = Tally::new(facts.players.len());
        scores.iter().for_each(|g| tally.add(g));
        Ok(Sheet {
            facts,
            scores,
            tally,
        })
    }
}

impl From<Sheet> for SheetFacts {
    fn from(sheet: Sheet) -> SheetFacts {
        sheet.facts
    }
}

impl Sheet {
    /// An empty sheet. `planned_rounds` is `None` for an open-ended sheet.
    pub fn new(
        players: Players,
        rules: RuleSet,
        planned_rounds: Option<u32>,
        created: DateTime<Utc>,
    ) -> Result<Sheet, ScoreError> {
        Sheet::try_from(SheetFacts {
            players,
            rules,
            planned_rounds,
            target: None,
            created,
            games: Vec::new(),
        })
    }

    /// Applies a change to a copy of the facts and keeps it only if every game still scores.
    fn change(
        &mut self,
        edit: impl FnOnce(&mut SheetFacts) -> Result<(), ScoreError>,
    ) -> Result<(), ScoreError> {
        let mut facts = self.facts.clone();
        edit(&mut facts)?;
        *self = Sheet::try_from(facts)?;
        Ok(())
    }

    /// The players.
    pub fn players(&self) -> &Players {
        &self.facts.players
    }

    /// The rules the points are computed with.
    pub fn rules(&self) -> &RuleSet {
        &self.facts.rules
    }

    /// Planned rounds, `None` when open-ended.
    pub fn planned_rounds(&self) -> Option<u32> {
        self.facts.planned_rounds
    }

    /// When the sheet was started.
    pub fn created(&self) -> DateTime<Utc> {
        self.facts.created
    }

    /// The games, in order (facts).
    pub fn games(&self) -> &[Game] {
        &self.facts.games
    }

    /// The derived result of each game, in order (points, winner, counted values).
    pub fn scores(&self) -> &[GameScore] {
        &self.scores
    }

    /// Round and game number of the game at 0-based `index`.
    pub fn number(&self, index: usize) -> GameNumber {
        GameNumber::of(index, self.facts.players.len())
    }

    /// The number the next game will get.
    pub fn next_number(&self) -> GameNumber {
        self.number(self.facts.games.len())
    }

    /// Games planned in all (`rounds × players`), `None` when open-ended.
    pub fn planned_games(&self) -> Option<usize> {
        self.facts
            .planned_rounds
            .map(|r| r as usize * self.facts.players.len())
    }

    /// True when the planned rounds have all been played (never for an open-ended sheet).
    pub fn is_complete(&self) -> bool {
        self.planned_games()
            .is_some_and(|planned| self.facts.games.len() >= planned)
    }

    /// The latest of the creation time and every game's time: what sheet lists sort by.
    pub fn last_activity(&self) -> DateTime<Utc> {
        self.facts
            .games
            .iter()
            .filter_map(|g| g.played_at)
            .fold(self.facts.created, DateTime::max)
    }

    /// Totals, wins and ranks under both final rules (from running totals: no game is
    /// re-added).
    pub fn standings(&self) -> Standings {
        Standings::from_tally(self.tally.clone())
    }

    /// Scores a game against this sheet's players and rules without adding it (for previews).
    pub fn check_game(&self, game: &Game) -> Result<GameScore, ScoreError> {
        game.score(&self.facts.players, &self.facts.rules)
    }

    /// Appends a game; returns its 0-based index. Scores only this game (the earlier ones are
    /// unchanged by it), so a long sheet is built in linear time.
    pub fn add_game(&mut self, game: Game) -> Result<usize, ScoreError> {
        let score = self.check_game(&game)?;
        self.tally.add(&score);
        self.scores.push(score);
        self.facts.games.push(game);
        Ok(self.facts.games.len() - 1)
    }

    /// Puts a game back at 0-based `index` (at most the number of games), e.g. to undo a
    /// [`delete_game`](Sheet::delete_game).
    pub fn insert_game(&mut self, index: usize, game: Game) -> Result<(), ScoreError> {
        self.check_game(&game)?;
        self.change(|f| {
            if index > f.games.len() {
                return Err(ScoreError::NoSuchGame(index + 1));
            }
            f.games.insert(index, game);
            Ok(())
        })
    }

    /// Replaces the game at 0-based `index`.
    pub fn edit_game(&mut self, index: usize, game: Game) -> Result<(), ScoreError> {
        self.check_game(&game)?;
        self.change(|f| match f.games.get_mut(index) {
            Some(slot) => {
                *slot = game;
                Ok(())
            }
            None => Err(ScoreError::NoSuchGame(index + 1)),
        })
    }

    /// Removes the game at 0-based `index` and returns it.
    pub fn delete_game(&mut self, index: usize) -> Result<Game, ScoreError> {
        if index >= self.facts.games.len() {
            return Err(ScoreError::NoSuchGame(index + 1));
        }
        let removed = self.facts.games[index].clone();
        self.change(|f| {
            f.games.remove(index);
            Ok(())
        })?;
        Ok(removed)
    }

    /// Switches the rules and recomputes every game. Refused (sheet unchanged) if a game no
    /// longer has a single winner under the new rules, naming that game.
    pub fn set_rules(&mut self, rules: RuleSet) -> Result<(), ScoreError> {
        self.change(|f| {
            f.rules = rules;
            Ok(())
        })
    }

    /// Switches the final-winner rule (never fails: points do not depend on it).
    pub fn set_final_rule(&mut self, rule: FinalRule) {
        self.facts.rules.final_rule = rule;
    }

    /// Changes the planned rounds (`None` = open-ended).
    pub fn set_planned_rounds(&mut self, rounds: Option<u32>) -> Result<(), ScoreError> {
        self.change(|f| {
            f.planned_rounds = rounds;
            Ok(())
        })
    }

    /// Renames the player at 0-based `index` (the new name must still be distinct).
    pub fn rename_player(&mut self, index: usize, name: &str) -> Result<(), ScoreError> {
        self.change(|f| {
            let mut names = f.players.names().to_vec();
            match names.get_mut(index) {
                Some(slot) => *slot = name.to_owned(),
                None => return Err(ScoreError::NoSuchPlayer(index)),
            }
            f.players = Players::new(names)?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests;
