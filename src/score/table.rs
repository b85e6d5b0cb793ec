//! Score sheets as CSV text: the `score` input format (facts) and a points table (for people and
//! for `audit`).
//!
//! Groups keep sheets in spreadsheets and paste them into chat, so the sheet's text form is plain
//! CSV with one column per player. The facts format is the one `score` reads — each cell a
//! remaining value, as a number or as the tiles left — so an exported sheet can be read back and
//! recomputed under other rules. Errors name the CSV row (the line, header = row 1) and the
//! column (label = column 1), so a player can find the cell.
//!
//! # Example
//! ```
//! use chrono::{TimeZone, Utc};
//! use rummikub_companion::rules::Preset;
//! use rummikub_companion::score::table::{read_score_csv, score_csv};
//!
//! let text = "game,Ann,Bo\n1,0,R5 J\n2,7*,3\n";
//! let created = Utc.with_ymd_and_hms(2024, 5, 1, 19, 0, 0).unwrap();
//! let imported = read_score_csv(text, Preset::Korean.rules(), created).unwrap();
//! assert_eq!(imported.sheet.standings().totals, vec![31, -31]);
//! // Written back, the facts read the same.
//! let again = read_score_csv(&score_csv(&imported.sheet), Preset::Korean.rules(), created).unwrap();
//! assert_eq!(again.sheet, imported.sheet);
//!
//! let bad = read_score_csv("game,Ann,Bo\n1,4,4\n", Preset::Korean.rules(), created).unwrap_err();
//! assert_eq!(
//!     bad.to_string(),
//!     "row 2, columns 2 and 3: Ann and Bo tie for the lowest remaining value (4); \
//!      mark the winner with \"!\""
//! );
//! ```

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, Utc};

use super::{Game, Hand, Players, Remaining, RemainingError, ScoreError, Sheet};
use crate::rules::RuleSet;

/// Where a CSV problem is: the row (CSV line, header = 1) and the columns (label = 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{problem}", place(*.row, .columns))]
pub struct TableError {
    /// CSV row (line number of the record, the header is row 1), when known.
    pub row: Option<usize>,
    /// Columns involved (1-based; the label is column 1, player `i` is column `i + 2`).
    pub columns: Vec<usize>,
    /// What is wrong.
    pub problem: TableProblem,
}

fn place(row: Option<usize>, columns: &[usize]) -> String {
    let columns = match columns {
        [] => String::new(),
        [one] => format!("column {one}"),
        more => format!("columns {}", super::and_list(more)),
    };
    match (row, columns.is_empty()) {
        (Some(r), true) => format!("row {r}: "),
        (Some(r), false) => format!("row {r}, {columns}: "),
        (None, false) => format!("{columns}: "),
        (None, true) => String::new(),
    }
}

/// What is wrong in a CSV sheet.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableProblem {
    /// The CSV itself could not be read.
    #[error("not readable as CSV: {0}")]
    Csv(String),
    /// No header line.
    #[error("the file is empty: expected a header line game,<player 1>,…,<player n>")]
    NoHeader,
    /// The header's player names are not valid.
    #[error("header: {0}")]
    Header(Box<ScoreError>),
    /// A row with the wrong number of cells.
    #[error("{found} cells, expected {expected} (a label and one per player)")]
    ColumnCount {
        /// Cells found.
        found: usize,
        /// Cells expected.
        expected: usize,
    },
    /// A cell that cannot be read.
    #[error("{player}: {problem}")]
    Cell {
        /// Whose column.
        player: String,
        /// What is wrong with the cell.
        problem: Box<CellError>,
    },
    /// Two cells of one row marked `!`.
    #[error("{first} and {second} are both marked winner with \"!\"; a game has one winner")]
    TwoWinnerMarks {
        /// The first player marked.
        first: String,
        /// The second player marked.
        second: String,
    },
    /// The game's facts do not decide a single winner, or are impossible.
    #[error("{}", game_problem(.0))]
    Game(Box<ScoreError>),
    /// A final row (`total`, `wins`, `rank`) given twice.
    #[error("a second \"{0}\" row")]
    DuplicateRow(String),
    /// The file uses another separator than the comma (a spreadsheet's `;` or tab export).
    #[error("the file is separated by {}, expected ','", delimiter_name(*.0))]
    Delimiter(char),
    /// A `total`/`wins`/`rank` row (합계, 승 수, 순위) in a sheet of remaining values: `score`
    /// computes those itself; a written one belongs to a points sheet for `audit`.
    #[error(
        "\"{label}\" is a {kind} row, not a game: `score` reads remaining values and computes \
         totals and ranks itself; to check a sheet of points with written totals, use `audit`"
    )]
    SummaryRow {
        /// The label as written.
        label: String,
        /// `total`, `wins` or `rank`.
        kind: &'static str,
    },
}

/// The kinds of row on a sheet, told by the row's label: a game, or a written summary that
/// `audit` checks and `score` refuses (it computes those itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RowKind {
    Game,
    Total,
    Wins,
    Rank,
}

impl RowKind {
    pub(crate) fn of_label(label: &str) -> RowKind {
        let key: String = label
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_lowercase();
        match key.as_str() {
            "total" | "totals" | "sum" | "점수합계" | "합계" | "총점" | "총합" => {
                RowKind::Total
            }
            "wins" | "win" | "승수" | "승" => RowKind::Wins,
            "rank" | "ranks" | "place" | "순위" | "등수" => RowKind::Rank,
            _ => RowKind::Game,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            RowKind::Game => "game",
            RowKind::Total => "total",
            RowKind::Wins => "wins",
            RowKind::Rank => "rank",
        }
    }

    /// Unit words people write after the number in this kind of row.
    pub(crate) fn units(self) -> &'static [&'static str] {
        match self {
            RowKind::Game | RowKind::Total => &["points", "pts", "pt", "점"],
            RowKind::Wins => &["wins", "win", "승"],
            RowKind::Rank => &["st", "nd", "rd", "th", "위", "등"],
        }
    }

    pub(crate) fn expected(self) -> Written {
        match self {
            RowKind::Game | RowKind::Total => Written::Points,
            RowKind::Wins => Written::Wins,
            RowKind::Rank => Written::Rank,
        }
    }
}

/// `Some("total")`, `Some("wins")` or `Some("rank")` when a row label names a summary row
/// (also 합계, 승 수, 순위 …); `None` for a game row.
pub(crate) fn summary_kind(label: &str) -> Option<&'static str> {
    match RowKind::of_label(label) {
        RowKind::Game => None,
        kind => Some(kind.name()),
    }
}

/// How a separator is named in a message: `';'`, or `tabs`.
fn delimiter_name(c: char) -> String {
    match c {
        '\t' => "tabs".to_owned(),
        c => format!("'{c}'"),
    }
}

/// The separator a one-column header line is really using, if it is a common one.
fn other_delimiter(header: &str) -> Option<char> {
    [';', '\t', '|']
        .into_iter()
        .filter(|d| header.contains(*d))
        .max_by_key(|d| header.matches(*d).count())
}

/// A game error in CSV terms: the winner is named with `!`.
fn game_problem(e: &ScoreError) -> String {
    match e {
        ScoreError::Tie { tied, value } => format!(
            "{} tie for the lowest remaining value ({value}); mark the winner with \"!\"",
            super::and_list(tied)
        ),
        other => other.to_string(),
    }
}

/// One row of a CSV sheet after the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    /// CSV row number (header = 1).
    pub line: usize,
    /// The first cell, trimmed.
    pub label: String,
    /// One cell per player, untrimmed.
    pub cells: Vec<String>,
}

impl Row {
    /// An error about this row.
    pub fn error(&self, columns: Vec<usize>, problem: TableProblem) -> TableError {
        TableError {
            row: Some(self.line),
            columns,
            problem,
        }
    }

    /// An error about one player's cell.
    pub fn cell_error(&self, players: &Players, seat: usize, problem: CellError) -> TableError {
        self.error(
            vec![seat + 2],
            TableProblem::Cell {
                player: players.names().get(seat).cloned().unwrap_or_default(),
                problem: Box::new(problem),
            },
        )
    }

    /// The label, or `game N` when the label cell is empty.
    pub fn label_or(&self, number: usize) -> String {
        if self.label.is_empty() {
            format!("game {number}")
        } else {
            self.label.clone()
        }
    }
}

/// The header's players and the non-blank rows, each with one cell per player.
pub(crate) fn read_rows(text: &str) -> Result<(Players, Vec<Row>), TableError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut records = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| TableError {
            row: e.position().map(|p| p.line() as usize),
            columns: Vec::new(),
            problem: TableProblem::Csv(e.to_string()),
        })?;
        if record.iter().all(|cell| cell.trim().is_empty()) || is_comment(&record) {
            continue;
        }
        let line = record.position().map_or(0, |p| p.line() as usize);
        records.push((line, record));
    }
    let mut records = records.into_iter();
    let Some((header_line, header)) = records.next() else {
        return Err(TableError {
            row: None,
            columns: Vec::new(),
            problem: TableProblem::NoHeader,
        });
    };
    if header.len() == 1
        && let Some(found) = header.get(0).and_then(other_delimiter)
    {
        return Err(TableError {
            row: Some(header_line),
            columns: Vec::new(),
            problem: TableProblem::Delimiter(found),
        });
    }
    let names: Vec<&str> = header.iter().skip(1).collect();
    let players = Players::new(&names).map_err(|e| header_error(header_line, &names, e))?;
    let expected = players.len() + 1;
    let rows = records
        .map(|(line, record)| {
            let cells: Vec<String> = record.iter().map(str::to_owned).collect();
            if cells.len() != expected {
                return Err(TableError {
                    row: Some(line),
                    columns: Vec::new(),
                    problem: TableProblem::ColumnCount {
                        found: cells.len(),
                        expected,
                    },
                });
            }
            Ok(Row {
                line,
                label: cells[0].trim().to_owned(),
                cells: cells[1..].to_vec(),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((players, rows))
}

/// A comment line: its first cell is `#` alone or `#` followed by a space (`# total`, as an
/// exported sheet writes its points and totals). `#1` is a label, not a comment.
fn is_comment(record: &csv::StringRecord) -> bool {
    record.get(0).is_some_and(|first| {
        first
            .trim_start()
            .strip_prefix('#')
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
    })
}

/// The comment lines of a sheet (see [`is_comment`]), each as its label — the first cell after
/// the `#`, trimmed — and its other cells: where an exported sheet keeps what the facts do not
/// hold (the points table, the winners, the rules it was scored under). Reading stops at the
/// first line that is not CSV; [`read_score_csv`] reports that line.
///
/// # Example
/// ```
/// use rummikub_companion::score::table::comments;
/// let text = "game,Ann,Bo\n# rules,Korean manual · joker 30 · highest total\n1,0,5\n";
/// assert_eq!(
///     comments(text),
///     [("rules".to_owned(), vec!["Korean manual · joker 30 · highest total".to_owned()])]
/// );
/// ```
pub fn comments(text: &str) -> Vec<(String, Vec<String>)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
        .records()
        .map_while(Result::ok)
        .filter(is_comment)
        .map(|record| {
            let label = record
                .get(0)
                .map(|first| first.trim_start().trim_start_matches('#').trim())
                .unwrap_or_default()
                .to_owned();
            (label, record.iter().skip(1).map(str::to_owned).collect())
        })
        .collect()
}

fn header_error(line: usize, names: &[&str], e: ScoreError) -> TableError {
    let columns = match &e {
        ScoreError::EmptyName(seat) => vec![seat + 1],
        ScoreError::DuplicateName(name) => {
            let key = name.to_lowercase();
            (0..names.len())
                .filter(|&i| names[i].trim().to_lowercase() == key)
                .map(|i| i + 2)
                .collect()
        }
        _ => Vec::new(),
    };
    TableError {
        row: Some(line),
        columns,
        problem: TableProblem::Header(Box::new(e)),
    }
}

/// One cell of the `score` format: a remaining value (number or tiles), optionally followed by
/// `!` (the named winner) and/or `*` (had not made the initial meld), in either order.
///
/// The marks are attached to the cell's last token (`35*`, `R5 K7*`, `0!`). A `*` standing
/// alone is a tile, the joker, as everywhere else in the notation: `R5 *` is R5 and a joker,
/// exactly what the window's field and [`Remaining`] read.
///
/// # Example
/// ```
/// use rummikub_companion::score::table::Cell;
/// use rummikub_companion::score::Remaining;
/// let cell: Cell = "R5 K7 J*!".parse().unwrap();
/// assert!(cell.winner && cell.hand.not_melded);
/// assert_eq!(cell.to_string(), "R5 K7 J*!");
/// // A `*` on its own is a joker, not the mark.
/// let joker: Cell = "R5 *".parse().unwrap();
/// assert!(!joker.hand.not_melded);
/// assert_eq!(joker.hand.left, "R5 *".parse::<Remaining>().unwrap());
/// assert_eq!(joker.hand.left.rack_value(30), 35);
/// assert!("-5".parse::<Cell>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The player's hand.
    pub hand: Hand,
    /// Marked as the winner with `!`.
    pub winner: bool,
}

/// Why a cell could not be read (typed, so the message can be worded in each language).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CellError {
    /// Only marks, no value.
    #[error("\"{0}\" has marks but no remaining value before them")]
    MarksOnly(String),
    /// The value part is not a remaining value.
    #[error(transparent)]
    Remaining(#[from] RemainingError),
    /// A cell of a written (paper) sheet that is not what its row holds (`audit`).
    #[error("\"{text}\" is not {}", expected.words())]
    NotWritten {
        /// The cell, shortened.
        text: String,
        /// What the row holds.
        expected: Written,
    },
}

/// What a row of a written sheet holds in each cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// Signed points (a game or the total).
    Points,
    /// A number of wins.
    Wins,
    /// A rank.
    Rank,
}

impl Written {
    fn words(self) -> &'static str {
        match self {
            Written::Points => "signed points (+24, -5)",
            Written::Wins => "a number of wins (2, 2 승)",
            Written::Rank => "a rank (1, 1 위)",
        }
    }
}

impl FromStr for Cell {
    type Err = CellError;
    fn from_str(s: &str) -> Result<Cell, CellError> {
        let mut rest = s.trim();
        let (mut winner, mut not_melded) = (false, false);
        // A `*` is the mark only when attached to a token before it: it is not the cell's
        // first character and does not follow a space or comma (then it is a joker).
        let attached = |r: &str| {
            r.chars()
                .next_back()
                .is_some_and(|c| !c.is_whitespace() && c != ',')
        };
        loop {
            if let Some(r) = rest.strip_suffix('!').filter(|_| !winner) {
                winner = true;
                rest = r.trim_end();
            } else if let Some(r) = rest
                .strip_suffix('*')
                .filter(|r| !not_melded && attached(r))
            {
                not_melded = true;
                rest = r;
            } else {
                break;
            }
        }
        if rest.is_empty() && (winner || not_melded) {
            return Err(CellError::MarksOnly(crate::tile::shorten(s.trim())));
        }
        let left: Remaining = rest.parse()?;
        Ok(Cell {
            hand: Hand { left, not_melded },
            winner,
        })
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.hand.left)?;
        if self.hand.not_melded {
            f.write_str("*")?;
        }
        if self.winner {
            f.write_str("!")?;
        }
        Ok(())
    }
}

/// A sheet read from the `score` format, with each game's row label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The sheet (open-ended, games without timestamps).
    pub sheet: Sheet,
    /// Each game's label as written (or `game N` when blank).
    pub labels: Vec<String>,
}

/// Reads the `score` format: header `game,<player 1>,…`, then one row per game with each
/// player's remaining value. Every game is scored under `rules`; the first problem is returned
/// with its row and columns.
pub fn read_score_csv(
    text: &str,
    rules: RuleSet,
    created: DateTime<Utc>,
) -> Result<Imported, TableError> {
    let (players, rows) = read_rows(text)?;
    let mut sheet = Sheet::new(players.clone(), rules, None, created).map_err(|e| TableError {
        row: None,
        columns: Vec::new(),
        problem: TableProblem::Game(Box::new(e)),
    })?;
    let mut labels = Vec::with_capacity(rows.len());
    for row in &rows {
        if let Some(kind) = summary_kind(&row.label) {
            return Err(row.error(
                vec![1],
                TableProblem::SummaryRow {
                    label: row.label.clone(),
                    kind,
                },
            ));
        }
        let game = read_game(&players, row)?;
        sheet.add_game(game).map_err(|e| {
            let mut columns: Vec<usize> = e.seats().iter().map(|s| s + 2).collect();
            columns.sort_unstable();
            columns.dedup();
            row.error(columns, TableProblem::Game(Box::new(e)))
        })?;
        labels.push(row.label_or(labels.len() + 1));
    }
    Ok(Imported { sheet, labels })
}

fn read_game(players: &Players, row: &Row) -> Result<Game, TableError> {
    let mut hands = Vec::with_capacity(row.cells.len());
    let mut marked: Option<usize> = None;
    for (seat, text) in row.cells.iter().enumerate() {
        let cell: Cell = text
            .parse()
            .map_err(|e: CellError| row.cell_error(players, seat, e))?;
        if cell.winner {
            if let Some(first) = marked {
                return Err(row.error(
                    vec![first + 2, seat + 2],
                    TableProblem::TwoWinnerMarks {
                        first: players.names()[first].clone(),
                        second: players.names()[seat].clone(),
                    },
                ));
            }
            marked = Some(seat);
        }
        hands.push(cell.hand);
    }
    let game = Game::new(hands);
    Ok(match marked {
        Some(seat) => game.with_winner(seat),
        None => game,
    })
}

/// Quotes a CSV field when it needs it (RFC 4180).
pub(super) fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) || text.trim() != text {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

pub(crate) fn line<S: AsRef<str>>(cells: impl IntoIterator<Item = S>) -> String {
    let cells: Vec<String> = cells.into_iter().map(|c| field(c.as_ref())).collect();
    cells.join(",") + "\n"
}

fn header(sheet: &Sheet) -> String {
    line(std::iter::once("game").chain(sheet.players().names().iter().map(String::as_str)))
}

/// A game's cells in the `score` format: each hand's remaining value, `!` on a named winner,
/// `*` on a player who had not melded.
pub(super) fn fact_cells(game: &Game) -> impl Iterator<Item = String> + '_ {
    game.hands.iter().enumerate().map(|(seat, hand)| {
        Cell {
            hand: hand.clone(),
            winner: game.winner == Some(seat),
        }
        .to_string()
    })
}

/// [`fact_cells`] with the tiles of a rack named by `tile` (`빨5 조커` at a Korean table): what
/// [`Cell`] reads back, as the table wrote it.
pub(super) fn fact_cells_named<'a>(
    game: &'a Game,
    tile: &'a dyn Fn(crate::tile::Tile) -> String,
) -> impl Iterator<Item = String> + 'a {
    game.hands.iter().enumerate().map(move |(seat, hand)| {
        let mut text = match &hand.left {
            Remaining::Tiles(tiles) if !tiles.is_empty() => {
                tiles.iter().map(|&t| tile(t)).collect::<Vec<_>>().join(" ")
            }
            other => other.to_string(),
        };
        if hand.not_melded {
            text.push('*');
        }
        if game.winner == Some(seat) {
            text.push('!');
        }
        text
    })
}

/// The sheet in the `score` format (facts: remaining values and marks), readable again by
/// [`read_score_csv`]. A named winner is marked `!`, a player who had not melded `*`.
pub fn score_csv(sheet: &Sheet) -> String {
    let mut text = header(sheet);
    for (i, game) in sheet.games().iter().enumerate() {
        text.push_str(&line(
            std::iter::once(format!("game {}", i + 1)).chain(fact_cells(game)),
        ));
    }
    text
}

/// A signed point value as written on a sheet: `+24`, `-5`, `0`.
pub fn signed(points: i64) -> String {
    if points > 0 {
        format!("+{points}")
    } else {
        points.to_string()
    }
}

/// The sheet as a points table: one row of signed points per game, then `wins`, `total` and
/// `rank` rows (ranks under the sheet's final rule). `audit` accepts it as a correct sheet.
pub fn points_csv(sheet: &Sheet) -> String {
    let mut text = header(sheet);
    for (i, score) in sheet.scores().iter().enumerate() {
        let cells = score.points.iter().map(|&p| signed(p));
        text.push_str(&line(
            std::iter::once(format!("game {}", i + 1)).chain(cells),
        ));
    }
    let standings = sheet.standings();
    let row =
        |label: &str, cells: Vec<String>| line(std::iter::once(label.to_owned()).chain(cells));
    text.push_str(&row(
        "wins",
        standings.wins.iter().map(ToString::to_string).collect(),
    ));
    text.push_str(&row(
        "total",
        standings.totals.iter().map(|&t| signed(t)).collect(),
    ));
    let ranks = standings.ranks(sheet.rules().final_rule);
    text.push_str(&row(
        "rank",
        ranks.iter().map(ToString::to_string).collect(),
    ));
    text
}
