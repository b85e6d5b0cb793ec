//! A sheet as a CSV file people can open, that `score` can still read.
//!
//! The file has to serve two readers. People open it in a spreadsheet (Excel on a Korean PC
//! reads UTF-8 only when the file starts with a byte-order mark, so it does) and want what the
//! window shows: rows labelled as on screen, points, totals, wins, ranks, the winner and the
//! rules, with headers in their language. The `score` command wants the facts — what each player
//! had left — so the sheet can be recomputed under other rules. Both fit in one file because
//! `score` skips comment lines (first cell `#` followed by a space):
//!
//! ```text
//! <BOM>game,Ann,Bo                 header (label column in the UI language)
//! # points                         the points table, as comments
//! # round 1, game 1,+30,-30
//! # wins,1,0
//! # total,+30,-30
//! # rank,1,2
//! # winner,Ann                     winners under the sheet's rule (several on a tie)
//! # winner by the other rule,Ann
//! # rules,Korean manual · joker 30 · highest total
//! # left on the rack               the facts: the rows `score` reads
//! round 1, game 1,0,R5 J
//! ```
//!
//! The engine knows no language: the caller passes the words ([`ExportLabels`]), the rules as
//! text, and how a game number is labelled on screen.
//!
//! # Example
//! ```
//! use chrono::{TimeZone, Utc};
//! use rummikub_companion::rules::Preset;
//! use rummikub_companion::score::export::{ExportLabels, sheet_csv};
//! use rummikub_companion::score::table::read_score_csv;
//! use rummikub_companion::score::{Game, Hand, Players, Sheet};
//!
//! let start = Utc.with_ymd_and_hms(2024, 5, 1, 19, 0, 0).unwrap();
//! let players = Players::new(["Ann", "Bo"]).unwrap();
//! let mut sheet = Sheet::new(players, Preset::Korean.rules(), Some(1), start).unwrap();
//! sheet.add_game(Game::new(vec![Hand::of_value(0), Hand::of_value(30)])).unwrap();
//! let text = sheet_csv(&sheet, &ExportLabels::ENGLISH, "Korean manual", &|n| n.to_string());
//! assert!(text.starts_with('\u{feff}'));
//! assert!(text.contains("# leader,Ann\n")); // one of two planned games: still playing
//! // `score` reads the facts back and gets the same totals.
//! let again = read_score_csv(&text, Preset::Korean.rules(), start).unwrap();
//! assert_eq!(again.sheet.standings().totals, sheet.standings().totals);
//! assert_eq!(again.labels, ["round 1, game 1"]);
//! ```

use super::table::{fact_cells_named, line, signed};
use super::{GameNumber, MatchState, Sheet};

/// The UTF-8 byte-order mark the file starts with.
pub const BOM: char = '\u{feff}';

/// The words of an exported sheet, in the UI's language (the window fills them from its string
/// tables; the engine depends on no language).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportLabels<'a> {
    /// Header of the label column ("game").
    pub game: &'a str,
    /// Heading of the points table ("points").
    pub points: &'a str,
    /// The totals row ("total").
    pub total: &'a str,
    /// The wins row ("wins").
    pub wins: &'a str,
    /// The ranks row, under the sheet's final rule ("rank").
    pub rank: &'a str,
    /// The winners of a finished match ("winner").
    pub winner: &'a str,
    /// The leaders of a match still playing ("leader").
    pub leader: &'a str,
    /// The winners of a finished match under the other final rule ("winner by the other rule").
    pub other_winner: &'a str,
    /// The leaders under the other final rule ("leader by the other rule").
    pub other_leader: &'a str,
    /// The rules line ("rules").
    pub rules: &'a str,
    /// Heading of the facts section that `score` reads ("left on the rack").
    pub remaining: &'a str,
}

impl ExportLabels<'static> {
    /// English words (the CLI and tests; the window passes its own tables).
    pub const ENGLISH: ExportLabels<'static> = ExportLabels {
        game: "game",
        points: "points",
        total: "total",
        wins: "wins",
        rank: "rank",
        winner: "winner",
        leader: "leader",
        other_winner: "winner by the other rule",
        other_leader: "leader by the other rule",
        rules: "rules",
        remaining: "left on the rack",
    };
}

/// A comment line of the file: `# <label>` then the cells.
fn comment(label: &str, cells: impl IntoIterator<Item = String>) -> String {
    line(std::iter::once(format!("# {label}")).chain(cells))
}

/// A label for a line `score` must read: without leading `#`, which would make it a comment.
fn not_comment(label: &str) -> String {
    label.trim_start().trim_start_matches('#').to_owned()
}

/// The sheet as CSV text starting with a [`BOM`]: header, the points table, totals, wins, ranks,
/// winners (under the sheet's rule and the other one), the rules (`rules_text`, as the window
/// shows them), then the facts as `score` reads them. Rows are labelled by `row_label`, as on
/// screen. Winners are the final result when the match is over, else the current leaders.
pub fn sheet_csv(
    sheet: &Sheet,
    labels: &ExportLabels<'_>,
    rules_text: &str,
    row_label: &dyn Fn(GameNumber) -> String,
) -> String {
    sheet_csv_named(sheet, labels, rules_text, row_label, &|t| t.to_string())
}

/// [`sheet_csv`] with the racks' tiles named by `tile`, as the table calls them (`빨5 검7 조커`
/// from a Korean window); `score` reads either notation.
pub fn sheet_csv_named(
    sheet: &Sheet,
    labels: &ExportLabels<'_>,
    rules_text: &str,
    row_label: &dyn Fn(GameNumber) -> String,
    tile: &dyn Fn(crate::tile::Tile) -> String,
) -> String {
    let names = sheet.players().names();
    let mut text = String::from(BOM);
    text.push_str(&line(
        std::iter::once(not_comment(labels.game)).chain(names.iter().cloned()),
    ));
    text.push_str(&comment(labels.points, []));
    for (i, score) in sheet.scores().iter().enumerate() {
        let cells = score.points.iter().map(|&p| signed(p));
        text.push_str(&comment(&row_label(sheet.number(i)), cells));
    }
    let standings = sheet.standings();
    let rule = sheet.rules().final_rule;
    text.push_str(&comment(
        labels.wins,
        standings.wins.iter().map(ToString::to_string),
    ));
    text.push_str(&comment(
        labels.total,
        standings.totals.iter().map(|&t| signed(t)),
    ));
    text.push_str(&comment(
        labels.rank,
        standings.ranks(rule).iter().map(ToString::to_string),
    ));
    let (first, other, first_label, other_label) = match sheet.match_state() {
        MatchState::Finished(end) => (
            end.winners,
            end.other_winners,
            labels.winner,
            labels.other_winner,
        ),
        MatchState::Playing { .. } => (
            standings.winners(rule),
            standings.winners(rule.other()),
            labels.leader,
            labels.other_leader,
        ),
    };
    if !sheet.is_empty() {
        let who = |seats: Vec<usize>| seats.into_iter().map(|i| names[i].clone());
        text.push_str(&comment(first_label, who(first)));
        text.push_str(&comment(other_label, who(other)));
    }
    text.push_str(&comment(labels.rules, [rules_text.to_owned()]));
    text.push_str(&comment(labels.remaining, []));
    for (i, game) in sheet.games().iter().enumerate() {
        text.push_str(&line(
            std::iter::once(not_comment(&row_label(sheet.number(i))))
                .chain(fact_cells_named(game, tile)),
        ));
    }
    text
}
