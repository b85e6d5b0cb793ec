//! Who has been winning for months: every saved sheet, added up per player.
//!
//! A club plays many evenings with changing tables, and names are typed fresh each time, so a
//! player is known by their name **trimmed and case-folded** ("Ann", " ann " and "ANN" are one
//! player), shown with the spelling of the most recent evening they played. The module is pure:
//! it takes sheets already loaded (the CLI and the window read them from the data folder) and
//! reads no clock.
//!
//! What counts, and why:
//! - A **played sheet** is a sheet with at least one game; empty sheets (an accidental "New
//!   sheet") count for nothing. Sheets are in date order (creation time).
//! - An **evening** is a night at the table: every played sheet started on the same night counts
//!   once, however many sheets the group opened ("New sheet" after a 4-game match is the same
//!   evening). A night runs from 06:00 to 06:00 in the table's time zone (an offset the caller
//!   passes, [`history_at`]), so a game after midnight belongs to the evening it ended.
//! - **Games**, **total points**, **average** (points per game) and **best game** (the highest
//!   points in a single game) count every game on every sheet: those points were played.
//! - A **match** is a sheet whose result is decided. A sheet with an end (planned rounds or a
//!   target total) counts once it is finished, with its final standings (games added after the
//!   end do not change the result); one still playing, or abandoned half-way, has no winner yet.
//!   An open-ended sheet has no end to wait for: the group stopped when the evening did, so it
//!   counts as a match with the standings after its last game. **Match wins** are the matches a
//!   player finished first in under the chosen final rule (each sheet's own rule unless one is
//!   chosen); players tied for first each get the win, as RULES.md shares the place.
//! - **Head-to-head**: A beat B in a game when both played it and A scored more points than B
//!   (for the winner: always; between losers: A had less left on the rack). Equal points beat
//!   nobody. Game by game rather than match by match, so even a few evenings say something.
//! - **Cumulative points**: each player's running total after each evening they played, for a
//!   chart with one point per evening (the last sheet of a night gives its point).
//!
//! # Example
//! ```
//! use chrono::{TimeZone, Utc};
//! use rummikub_companion::history::history;
//! use rummikub_companion::rules::RuleSet;
//! use rummikub_companion::score::{Game, Hand, Players, Sheet};
//!
//! let day = |d| Utc.with_ymd_and_hms(2024, 5, d, 19, 0, 0).unwrap();
//! let mut first = Sheet::new(Players::new(["ann", "Bo"]).unwrap(), RuleSet::default(), None, day(1))
//!     .unwrap();
//! first.add_game(Game::new(vec![Hand::of_value(0), Hand::of_value(10)])).unwrap();
//! let mut second = Sheet::new(Players::new(["Bo", "Ann "]).unwrap(), RuleSet::default(), None, day(8))
//!     .unwrap();
//! second.add_game(Game::new(vec![Hand::of_value(0), Hand::of_value(4)])).unwrap();
//!
//! let h = history([&second, &first], None);
//! let ann = h.player("ANN").unwrap();
//! assert_eq!((ann.name.as_str(), ann.evenings, ann.games), ("Ann", 2, 2));
//! assert_eq!((ann.total, ann.best_game, ann.match_wins), (6, Some(10), 1));
//! assert_eq!(ann.head_to_head["Bo"], 1);
//! assert_eq!(ann.cumulative.iter().map(|p| p.total).collect::<Vec<_>>(), [10, 6]);
//! ```

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, FixedOffset, NaiveDate, Offset, TimeDelta, Utc};

use crate::rules::FinalRule;
use crate::score::{MatchState, Sheet, Standings};

/// The key a player is known by across evenings: the name trimmed and case-folded.
///
/// # Example
/// ```
/// use rummikub_companion::history::name_key;
/// assert_eq!(name_key("  Ann "), name_key("aNN"));
/// ```
pub fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// One played sheet (a sheet with at least one game): an evening of the history, in date order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedSheet {
    /// The position of the sheet in the input.
    pub source: usize,
    /// When the sheet was started.
    pub created: DateTime<Utc>,
    /// Games on the sheet.
    pub games: usize,
    /// True when the sheet counts as a match (see the module docs).
    pub is_match: bool,
    /// The match winners (names as on that sheet); empty when it is not a match.
    pub winners: Vec<String>,
}

/// A player's running total after an evening they played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CumulativePoint {
    /// Index into [`History::evenings`] of the last sheet the player played that night.
    pub evening: usize,
    /// Index of the night (0 = the first night of the whole history; see [`History::nights`]).
    pub night: usize,
    /// That evening's date (its sheet's creation time).
    pub at: DateTime<Utc>,
    /// The player's points over all evenings so far, this one included.
    pub total: i64,
}

/// One player's record across evenings.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerHistory {
    /// The name key ([`name_key`]).
    pub key: String,
    /// The name as spelled on the most recent evening played.
    pub name: String,
    /// Evenings played: nights at the table, sheets of the same night counted once.
    pub evenings: usize,
    /// Games played.
    pub games: usize,
    /// Matches played (evenings that count as a match).
    pub matches: usize,
    /// Matches finished first (ties share the win).
    pub match_wins: usize,
    /// Points over every game.
    pub total: i64,
    /// The highest points in a single game.
    pub best_game: Option<i64>,
    /// Games won against each other player met (by their display name; 0 when never beaten).
    pub head_to_head: BTreeMap<String, usize>,
    /// The keys of the names counted as this player (merged into it), besides its own.
    pub aliases: Vec<String>,
    /// Running total after each evening played, in date order.
    pub cumulative: Vec<CumulativePoint>,
}

impl PlayerHistory {
    /// Games this player won against `other` (0 when never, or when `other` is this player).
    pub fn games_won_against(&self, other: &PlayerHistory) -> usize {
        self.head_to_head.get(&other.name).copied().unwrap_or(0)
    }

    /// Points per game, `None` without games.
    pub fn average(&self) -> Option<f64> {
        (self.games > 0).then(|| self.total as f64 / self.games as f64)
    }
}

/// Every player's record, and the evenings they come from.
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    /// Players: most match wins first, then highest total, then by name.
    pub players: Vec<PlayerHistory>,
    /// The played sheets counted, oldest first.
    pub evenings: Vec<PlayedSheet>,
    /// Nights at the table (played sheets of the same night together).
    pub nights: usize,
}

/// The night a moment belongs to at a table `offset` from UTC: nights run from 06:00 to 06:00
/// local time, so a game after midnight belongs to the evening it ended.
///
/// # Example
/// ```
/// use chrono::{FixedOffset, TimeZone, Utc};
/// use rummikub_companion::history::night_of;
/// let seoul = FixedOffset::east_opt(9 * 3600).unwrap();
/// // 19:00 and 01:30 the next day in Seoul: one evening.
/// let start = Utc.with_ymd_and_hms(2024, 5, 1, 10, 0, 0).unwrap();
/// let late = Utc.with_ymd_and_hms(2024, 5, 1, 16, 30, 0).unwrap();
/// assert_eq!(night_of(start, seoul), night_of(late, seoul));
/// ```
pub fn night_of(at: DateTime<Utc>, offset: FixedOffset) -> NaiveDate {
    (at.with_timezone(&offset) - TimeDelta::hours(6)).date_naive()
}

impl History {
    /// A player by name (any spelling that folds to the same key, or a name merged into it).
    pub fn player(&self, name: &str) -> Option<&PlayerHistory> {
        let key = name_key(name);
        self.players
            .iter()
            .find(|p| p.key == key)
            .or_else(|| self.players.iter().find(|p| p.aliases.contains(&key)))
    }
}

/// The standings that decide a sheet's match, if it counts as one (see the module docs).
fn match_standings(sheet: &Sheet) -> Option<Standings> {
    match sheet.match_state() {
        MatchState::Finished(end) => Some(end.standings),
        MatchState::Playing { .. }
            if sheet.planned_rounds().is_none() && sheet.target().is_none() =>
        {
            Some(sheet.standings())
        }
        MatchState::Playing { .. } => None,
    }
}

/// Running figures of one player while the sheets are added up.
struct Tally {
    record: PlayerHistory,
    beat: HashMap<usize, usize>,
}

/// Adds up `sheets` per player, nights told apart in UTC ([`history_at`] with offset 0).
pub fn history<'a>(
    sheets: impl IntoIterator<Item = &'a Sheet>,
    rule: Option<FinalRule>,
) -> History {
    history_at(sheets, rule, Utc.fix())
}

/// Adds up `sheets` per player. `rule` decides match winners; `None` uses each sheet's own
/// final rule. `offset` is the table's time zone, which tells the nights apart ([`night_of`]).
/// Empty sheets are ignored; the order of `sheets` does not matter (sheets are sorted by date,
/// ties kept in input order).
pub fn history_at<'a>(
    sheets: impl IntoIterator<Item = &'a Sheet>,
    rule: Option<FinalRule>,
    offset: FixedOffset,
) -> History {
    history_merged(sheets, rule, offset, &[])
}

/// The key a name counts under once `merged` names are applied: each `(from, into)` counts
/// `from` as `into` (followed through chains, `A → B → C`; a loop stops where it closes).
fn merged_key(name: &str, merged: &[(String, String)]) -> (String, Option<String>) {
    let mut key = name_key(name);
    let mut shown = None;
    for _ in 0..merged.len() {
        match merged.iter().find(|(from, _)| name_key(from) == key) {
            Some((_, into)) if name_key(into) != key => {
                key = name_key(into);
                shown = Some(into.trim().to_owned());
            }
            _ => break,
        }
    }
    (key, shown)
}

/// [`history_at`] with names counted as one player: each `(from, into)` of `merged` counts
/// every sheet's `from` as `into` (a player renamed, or typed two ways), shown as `into`.
///
/// # Example
/// ```
/// use chrono::{FixedOffset, TimeZone, Utc};
/// use rummikub_companion::history::history_merged;
/// use rummikub_companion::rules::RuleSet;
/// use rummikub_companion::score::{Game, Hand, Players, Sheet};
/// let day = |d| Utc.with_ymd_and_hms(2024, 5, d, 19, 0, 0).unwrap();
/// let sheet = |names: [&str; 2], d| {
///     let mut s = Sheet::new(Players::new(names).unwrap(), RuleSet::default(), None, day(d)).unwrap();
///     s.add_game(Game::new(vec![Hand::of_value(0), Hand::of_value(10)])).unwrap();
///     s
/// };
/// let (a, b) = (sheet(["Ben", "Cy"], 1), sheet(["Benny", "Cy"], 8));
/// let merged = [("Ben".to_owned(), "Benny".to_owned())];
/// let h = history_merged([&a, &b], None, FixedOffset::east_opt(0).unwrap(), &merged);
/// assert_eq!(h.players.len(), 2);
/// assert_eq!(h.player("Ben").map(|p| (p.name.as_str(), p.evenings)), Some(("Benny", 2)));
/// ```
pub fn history_merged<'a>(
    sheets: impl IntoIterator<Item = &'a Sheet>,
    rule: Option<FinalRule>,
    offset: FixedOffset,
    merged: &[(String, String)],
) -> History {
    let mut order: Vec<(usize, &Sheet)> = sheets
        .into_iter()
        .enumerate()
        .filter(|(_, s)| !s.is_empty())
        .collect();
    order.sort_by_key(|&(i, s)| (s.created(), i));

    let mut index: HashMap<String, usize> = HashMap::new();
    let mut tallies: Vec<Tally> = Vec::new();
    let mut evenings = Vec::with_capacity(order.len());
    let mut nights: Vec<NaiveDate> = Vec::new();
    for (evening, &(source, sheet)) in order.iter().enumerate() {
        let date = night_of(sheet.created(), offset);
        if nights.last() != Some(&date) {
            nights.push(date);
        }
        let night = nights.len() - 1;
        let names = sheet.players().names();
        let seats: Vec<usize> = names
            .iter()
            .map(|name| {
                let (key, _) = merged_key(name, merged);
                let own = name_key(name);
                let next = tallies.len();
                let at = *index.entry(key.clone()).or_insert(next);
                if at == next {
                    tallies.push(Tally {
                        record: PlayerHistory {
                            key,
                            name: String::new(),
                            evenings: 0,
                            games: 0,
                            matches: 0,
                            match_wins: 0,
                            total: 0,
                            best_game: None,
                            head_to_head: BTreeMap::new(),
                            cumulative: Vec::new(),
                            aliases: Vec::new(),
                        },
                        beat: HashMap::new(),
                    });
                }
                let record = &mut tallies[at].record;
                if own != record.key && !record.aliases.contains(&own) {
                    record.aliases.push(own);
                }
                at
            })
            .collect();
        let scores = sheet.scores();
        for (seat, &p) in seats.iter().enumerate() {
            let tally = &mut tallies[p];
            let r = &mut tally.record;
            r.name = merged_key(&names[seat], merged)
                .1
                .unwrap_or_else(|| names[seat].trim().to_owned());
            let same_night = r.cumulative.last().is_some_and(|c| c.night == night);
            if !same_night {
                r.evenings += 1;
            }
            r.games += scores.len();
            for score in scores {
                let points = score.points[seat];
                r.total += points;
                r.best_game = Some(r.best_game.map_or(points, |b| b.max(points)));
            }
            for (other_seat, &q) in seats.iter().enumerate() {
                if other_seat == seat {
                    continue;
                }
                let won = scores
                    .iter()
                    .filter(|s| s.points[seat] > s.points[other_seat])
                    .count();
                *tally.beat.entry(q).or_insert(0) += won;
            }
            let point = CumulativePoint {
                evening,
                night,
                at: sheet.created(),
                total: r.total,
            };
            match r.cumulative.last_mut() {
                Some(last) if same_night => *last = point,
                _ => r.cumulative.push(point),
            }
        }
        let standings = match_standings(sheet);
        let winners: Vec<usize> = standings
            .as_ref()
            .map(|s| s.winners(rule.unwrap_or(sheet.rules().final_rule)))
            .unwrap_or_default();
        if standings.is_some() {
            for &p in &seats {
                tallies[p].record.matches += 1;
            }
            for &w in &winners {
                tallies[seats[w]].record.match_wins += 1;
            }
        }
        evenings.push(PlayedSheet {
            source,
            created: sheet.created(),
            games: scores.len(),
            is_match: standings.is_some(),
            winners: winners.iter().map(|&w| names[w].clone()).collect(),
        });
    }

    let display: Vec<String> = tallies.iter().map(|t| t.record.name.clone()).collect();
    let mut players: Vec<PlayerHistory> = tallies
        .into_iter()
        .map(|t| {
            let mut record = t.record;
            record.head_to_head = t
                .beat
                .into_iter()
                .map(|(q, won)| (display[q].clone(), won))
                .collect();
            record
        })
        .collect();
    players.sort_by(|a, b| {
        (b.match_wins, b.total)
            .cmp(&(a.match_wins, a.total))
            .then_with(|| a.key.cmp(&b.key))
    });
    History {
        players,
        evenings,
        nights: nights.len(),
    }
}
