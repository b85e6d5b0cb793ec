//! An event's standings and a round's seating as CSV files people open in a spreadsheet.
//!
//! Like the sheet's export ([`crate::score::export`]) the file starts with a UTF-8 byte-order
//! mark (Excel on a Korean PC reads UTF-8 only then) and its headers are in the caller's
//! language: the engine knows no language, the caller passes the words.
//!
//! # Example
//! ```
//! use rummikub_companion::event::export::{StandingsLabels, standings_csv};
//! use rummikub_companion::event::{Command, Event, EventSetup};
//!
//! let mut event = Event::new(EventSetup::new("Club night", 1)).unwrap();
//! for name in ["Ann", "Bo", "Cy"] {
//!     event.apply(Command::AddPlayer { name: name.into(), club: None, division: None, id: None }).unwrap();
//! }
//! let text = standings_csv(&event.standings(), &StandingsLabels::ENGLISH, "joker 30");
//! assert!(text.starts_with("\u{feff}rank,name,wins,points,percent,games,dropped\n"));
//! assert_eq!(text.lines().count(), 5);
//! assert!(text.ends_with("# joker 30\n"));
//! ```

use super::{Event, Standings};
use crate::score::table::line;

/// The UTF-8 byte-order mark the files start with.
pub const BOM: char = '\u{feff}';

/// The headers of a standings file, in the reader's language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StandingsLabels<'a> {
    /// "rank".
    pub rank: &'a str,
    /// "name".
    pub name: &'a str,
    /// "wins".
    pub wins: &'a str,
    /// "points".
    pub points: &'a str,
    /// "percent" (points as a percentage of the table winner's, summed).
    pub percent: &'a str,
    /// "games".
    pub games: &'a str,
    /// "dropped" (the column's header).
    pub dropped: &'a str,
    /// What a dropped player's cell says ("yes").
    pub yes: &'a str,
}

impl StandingsLabels<'static> {
    /// English headers (the command line's, whatever the language, is worded by its caller).
    pub const ENGLISH: StandingsLabels<'static> = StandingsLabels {
        rank: "rank",
        name: "name",
        wins: "wins",
        points: "points",
        percent: "percent",
        games: "games",
        dropped: "dropped",
        yes: "yes",
    };
}

/// A last line naming the rules the games were scored under (a comment line, as the sheet's
/// own export writes them), unless `rules` is empty.
fn rules_line(text: &mut String, rules: &str) {
    if !rules.trim().is_empty() {
        text.push_str(&format!("# {}\n", rules.trim()));
    }
}

/// The standings, best first: rank, name, wins, points, percent (two decimals), games, and
/// whether the player dropped; then the rules they were scored under (`rules`, a comment line).
pub fn standings_csv(standings: &Standings, labels: &StandingsLabels<'_>, rules: &str) -> String {
    let mut text = String::from(BOM);
    text.push_str(&line([
        labels.rank,
        labels.name,
        labels.wins,
        labels.points,
        labels.percent,
        labels.games,
        labels.dropped,
    ]));
    for s in &standings.rows {
        let percent = percent_text(s.percent);
        text.push_str(&line([
            s.rank.to_string(),
            s.name.clone(),
            s.wins.to_string(),
            s.points.to_string(),
            percent,
            s.games.to_string(),
            if s.dropped {
                labels.yes.to_owned()
            } else {
                String::new()
            },
        ]));
    }
    rules_line(&mut text, rules);
    text
}

/// Hundredths of a percent as text with two decimals: `12345` → `123.45`, `-50` → `-0.50`.
///
/// ```
/// use rummikub_companion::event::export::percent_text;
/// assert_eq!(percent_text(12345), "123.45");
/// assert_eq!(percent_text(-50), "-0.50");
/// ```
pub fn percent_text(hundredths: i64) -> String {
    format!(
        "{}{}.{:02}",
        if hundredths < 0 { "-" } else { "" },
        hundredths.unsigned_abs() / 100,
        hundredths.unsigned_abs() % 100
    )
}

/// The headers of a seating sheet, in the reader's language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatingLabels<'a> {
    /// "table".
    pub table: &'a str,
    /// "seat" (1 starts).
    pub seat: &'a str,
    /// "name".
    pub name: &'a str,
    /// "club".
    pub club: &'a str,
    /// "starts" (the games the seat starts).
    pub starts: &'a str,
}

/// Round `round`'s seating (1-based; `None` when there is no such round): one line a seat, in
/// table and seat order, with the games the seat starts (`1 3`); then the rules (`rules`, a
/// comment line).
pub fn seating_csv(
    event: &Event,
    round: u32,
    labels: &SeatingLabels<'_>,
    rules: &str,
) -> Option<String> {
    let r = event.rounds().iter().find(|r| r.number == round)?;
    let mut text = String::from(BOM);
    text.push_str(&line([
        labels.table,
        labels.seat,
        labels.name,
        labels.club,
        labels.starts,
    ]));
    for table in &r.tables {
        let starters = event.starters(r, table);
        for (seat, &p) in table.seats.iter().enumerate() {
            let player = &event.players()[p];
            let starts: Vec<String> = starters
                .iter()
                .enumerate()
                .filter(|&(_, &q)| q == p)
                .map(|(game, _)| (game + 1).to_string())
                .collect();
            text.push_str(&line([
                table.number.to_string(),
                (seat + 1).to_string(),
                player.name.clone(),
                player.club.clone().unwrap_or_default(),
                starts.join(" "),
            ]));
        }
    }
    rules_line(&mut text, rules);
    Some(text)
}
