//! Auditing a hand-kept sheet: points as written, totals and ranks as written.
//!
//! Paper sheets go wrong in a few typical ways: a game row that does not sum to zero, a total
//! added up wrong, a sign slipped, ranks copied from wrong totals, or ranks that follow the other
//! final-winner rule. The audit recomputes totals, wins and ranks from the game rows as written
//! and reports every difference, and for the ranks says which final rule (if either) they match.
//! It accepts what people write: `+24`, `- 5`, `−5` (Unicode minus), `2 승`, `1 위`, and the
//! Korean row labels `점수합계` / `합계`, `승 수`, `순위`.
//!
//! # Example
//! ```
//! use rummikub_companion::score::audit::{audit, read_paper_csv};
//! let text = "game,Ann,Bo,Cy\n1,+10,-4,-6\n2,-3,+5,-2\ntotal,+7,+2,-8\nrank,1,2,3\n";
//! let report = audit(&read_paper_csv(text).unwrap());
//! let problems: Vec<String> = report.findings().iter().map(ToString::to_string).collect();
//! assert_eq!(problems, ["total of Bo: written +2, should be +1 (1 too high)"]);
//! ```

use std::fmt;

use super::table::{CellError, Row, RowKind, TableError, TableProblem, read_rows, signed};
use super::{Players, Seat, Standings, and_list, ranks};
use crate::rules::FinalRule;

/// A number as written: optional sign (`+`, `-`, `−`, `–`, full-width), spaces, digits, an
/// optional unit (`점`, `승`, `위`, `st`…).
fn parse_written(text: &str, kind: RowKind) -> Option<i64> {
    let mut t = text.trim();
    for unit in kind.units() {
        if let Some(rest) = t.strip_suffix(unit) {
            t = rest.trim_end();
            break;
        }
    }
    let (negative, digits) = match t.chars().next()? {
        c @ ('+' | '＋') => (false, &t[c.len_utf8()..]),
        c @ ('-' | '−' | '–' | '－') => (true, &t[c.len_utf8()..]),
        _ => (false, t),
    };
    let digits = digits.trim();
    if digits.is_empty() || digits.len() > 9 || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let n: i64 = digits.parse().ok()?;
    Some(if negative { -n } else { n })
}

/// One row of a paper sheet as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaperRow {
    /// CSV row number (header = 1).
    pub line: usize,
    /// The label as written (`game N` when blank).
    pub label: String,
    /// One number per player: points, a total, a win count or a rank.
    pub values: Vec<i64>,
}

/// A hand-kept sheet as written: game rows of points, and the final rows if present.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaperSheet {
    /// The players (header).
    pub players: Players,
    /// The game rows, in order.
    pub games: Vec<PaperRow>,
    /// The written totals, if the sheet has a total row.
    pub totals: Option<PaperRow>,
    /// The written win counts, if the sheet has a wins row.
    pub wins: Option<PaperRow>,
    /// The written ranks, if the sheet has a rank row.
    pub ranks: Option<PaperRow>,
}

/// Reads a paper sheet: the `score` header, then game rows of signed points, and optional final
/// rows labelled `total` (`점수합계`, `합계`), `wins` (`승 수`) and `rank` (`순위`).
pub fn read_paper_csv(text: &str) -> Result<PaperSheet, TableError> {
    let (players, rows) = read_rows(text)?;
    let mut sheet = PaperSheet {
        players,
        games: Vec::new(),
        totals: None,
        wins: None,
        ranks: None,
    };
    for row in &rows {
        let kind = RowKind::of_label(&row.label);
        let paper = read_row(&sheet.players, row, kind, sheet.games.len() + 1)?;
        let slot = match kind {
            RowKind::Game => {
                sheet.games.push(paper);
                continue;
            }
            RowKind::Total => &mut sheet.totals,
            RowKind::Wins => &mut sheet.wins,
            RowKind::Rank => &mut sheet.ranks,
        };
        if slot.is_some() {
            return Err(row.error(Vec::new(), TableProblem::DuplicateRow(kind.name().into())));
        }
        *slot = Some(paper);
    }
    Ok(sheet)
}

/// Reads one row; `number` is the game number a blank label stands for.
fn read_row(
    players: &Players,
    row: &Row,
    kind: RowKind,
    number: usize,
) -> Result<PaperRow, TableError> {
    let n = players.len() as i64;
    let values = row
        .cells
        .iter()
        .enumerate()
        .map(|(seat, text)| {
            let value = parse_written(text, kind);
            let fits = match (kind, value) {
                (_, None) => false,
                (RowKind::Game | RowKind::Total, Some(_)) => true,
                (RowKind::Wins, Some(v)) => v >= 0,
                (RowKind::Rank, Some(v)) => (1..=n).contains(&v),
            };
            match value {
                Some(v) if fits => Ok(v),
                _ => Err(row.cell_error(
                    players,
                    seat,
                    CellError::NotWritten {
                        text: crate::tile::shorten(text.trim()),
                        expected: kind.expected(),
                    },
                )),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(PaperRow {
        line: row.line,
        label: row.label_or(number),
        values,
    })
}

/// One thing wrong on a paper sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// A game row whose points do not sum to zero.
    NotZeroSum {
        /// CSV row.
        line: usize,
        /// Row label.
        label: String,
        /// What the row sums to.
        sum: i64,
    },
    /// A game row where several players have positive points (a game has one winner).
    SeveralWinners {
        /// CSV row.
        line: usize,
        /// Row label.
        label: String,
        /// The players with positive points.
        players: Vec<Seat>,
    },
    /// A written total that is not the sum of the player's game points.
    WrongTotal {
        /// Whose total.
        player: Seat,
        /// As written.
        written: i64,
        /// The sum of the game rows.
        correct: i64,
    },
    /// A written win count that is not the number of rows the player won.
    WrongWins {
        /// Whose wins.
        player: Seat,
        /// As written.
        written: i64,
        /// Rows with the player as the one positive score.
        correct: usize,
    },
    /// A written rank that matches neither final rule's ranking.
    WrongRank {
        /// Whose rank.
        player: Seat,
        /// As written.
        written: i64,
        /// Correct rank by highest total.
        by_total: usize,
        /// Correct rank by most wins, then total.
        by_wins: usize,
    },
}

fn too(written: i64, correct: i64) -> String {
    match written - correct {
        d if d > 0 => format!("{d} too high"),
        d => format!("{} too low", -d),
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finding::NotZeroSum { line, label, sum } => write!(
                f,
                "row {line} ({label}): points sum to {}, not 0",
                signed(*sum)
            ),
            Finding::SeveralWinners {
                line,
                label,
                players,
            } => write!(
                f,
                "row {line} ({label}): {} all have positive points; a game has one winner",
                and_list(players)
            ),
            Finding::WrongTotal {
                player,
                written,
                correct,
            } => write!(
                f,
                "total of {player}: written {}, should be {} ({})",
                signed(*written),
                signed(*correct),
                too(*written, *correct)
            ),
            Finding::WrongWins {
                player,
                written,
                correct,
            } => write!(
                f,
                "wins of {player}: written {written}, should be {correct}"
            ),
            Finding::WrongRank {
                player,
                written,
                by_total,
                by_wins,
            } => {
                write!(f, "rank of {player}: written {written}, ")?;
                let (t, w) = (
                    same_rank(*written, *by_total),
                    same_rank(*written, *by_wins),
                );
                match (t, w) {
                    _ if by_total == by_wins => {
                        write!(f, "should be {by_total} under both final rules")
                    }
                    (false, true) => write!(
                        f,
                        "right by most wins, but should be {by_total} by highest total"
                    ),
                    (true, false) => write!(
                        f,
                        "right by highest total, but should be {by_wins} by most wins"
                    ),
                    _ => write!(
                        f,
                        "should be {by_total} by highest total or {by_wins} by most wins"
                    ),
                }
            }
        }
    }
}

/// A game row as checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedGame {
    /// The row as written.
    pub row: PaperRow,
    /// What its points sum to (0 when correct).
    pub sum: i64,
    /// The one player with positive points, if exactly one has.
    pub winner: Option<usize>,
}

/// The result of auditing a paper sheet: the correct figures and everything that differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Audit {
    /// The sheet as written.
    pub sheet: PaperSheet,
    /// Each game row, checked.
    pub games: Vec<CheckedGame>,
    /// Correct totals: the sums of the game rows as written.
    pub totals: Vec<i64>,
    /// Correct win counts: rows where the player is the one positive score.
    pub wins: Vec<usize>,
    /// Correct ranks by highest total.
    pub by_total: Vec<usize>,
    /// Correct ranks by most wins, then highest total.
    pub by_wins: Vec<usize>,
}

/// Checks a paper sheet.
pub fn audit(sheet: &PaperSheet) -> Audit {
    let n = sheet.players.len();
    let games: Vec<CheckedGame> = sheet.games.iter().map(check_game).collect();
    // The same tally as a sheet's standings, fed the points as written.
    let Standings {
        totals,
        wins,
        by_total,
        by_wins,
    } = Standings::tally(n, games.iter().map(|g| (g.row.values.as_slice(), g.winner)));
    Audit {
        sheet: sheet.clone(),
        games,
        totals,
        wins,
        by_total,
        by_wins,
    }
}

fn check_game(row: &PaperRow) -> CheckedGame {
    let positive: Vec<usize> = (0..row.values.len())
        .filter(|&i| row.values[i] > 0)
        .collect();
    CheckedGame {
        row: row.clone(),
        sum: row.values.iter().sum(),
        winner: match positive[..] {
            [only] => Some(only),
            _ => None,
        },
    }
}

impl Audit {
    fn seat(&self, i: usize) -> Seat {
        Seat {
            index: i,
            name: self.sheet.players.names()[i].clone(),
        }
    }

    /// The correct ranks under `rule`.
    pub fn ranks(&self, rule: FinalRule) -> &[usize] {
        match rule {
            FinalRule::Total => &self.by_total,
            FinalRule::Wins => &self.by_wins,
        }
    }

    /// The final rules whose correct ranking equals the written ranks (empty when none, or when
    /// the sheet has no rank row).
    pub fn ranks_match(&self) -> Vec<FinalRule> {
        let Some(written) = &self.sheet.ranks else {
            return Vec::new();
        };
        [FinalRule::Total, FinalRule::Wins]
            .into_iter()
            .filter(|&rule| same_ranks(&written.values, self.ranks(rule)))
            .collect()
    }

    /// When the written ranks are wrong but equal the ranking of the written totals (under the
    /// returned rule): the ranks were copied from wrong totals.
    pub fn ranks_follow_written_totals(&self) -> Option<FinalRule> {
        let (written_ranks, written_totals) =
            (self.sheet.ranks.as_ref()?, self.sheet.totals.as_ref()?);
        if !self.ranks_match().is_empty() || written_totals.values == self.totals {
            return None;
        }
        let wins: Vec<usize> = match &self.sheet.wins {
            Some(w) => w.values.iter().map(|&v| v.max(0) as usize).collect(),
            None => self.wins.clone(),
        };
        [FinalRule::Total, FinalRule::Wins]
            .into_iter()
            .find(|&rule| {
                same_ranks(
                    &written_ranks.values,
                    &ranks(&written_totals.values, &wins, rule),
                )
            })
    }

    /// Everything wrong, in sheet order: game rows, then wins, totals and ranks.
    pub fn findings(&self) -> Vec<Finding> {
        let mut found = self.game_findings();
        found.extend(self.wins_findings());
        found.extend(self.total_findings());
        found.extend(self.rank_findings());
        found
    }

    /// True when nothing is wrong.
    pub fn is_clean(&self) -> bool {
        self.findings().is_empty()
    }

    fn game_findings(&self) -> Vec<Finding> {
        let mut found = Vec::new();
        for game in &self.games {
            let (line, label) = (game.row.line, game.row.label.clone());
            if game.sum != 0 {
                found.push(Finding::NotZeroSum {
                    line,
                    label: label.clone(),
                    sum: game.sum,
                });
            }
            let positive: Vec<Seat> = (0..game.row.values.len())
                .filter(|&i| game.row.values[i] > 0)
                .map(|i| self.seat(i))
                .collect();
            if positive.len() > 1 {
                found.push(Finding::SeveralWinners {
                    line,
                    label,
                    players: positive,
                });
            }
        }
        found
    }

    fn wins_findings(&self) -> Vec<Finding> {
        let Some(written) = &self.sheet.wins else {
            return Vec::new();
        };
        (0..self.wins.len())
            .filter(|&i| written.values[i] != self.wins[i] as i64)
            .map(|i| Finding::WrongWins {
                player: self.seat(i),
                written: written.values[i],
                correct: self.wins[i],
            })
            .collect()
    }

    fn total_findings(&self) -> Vec<Finding> {
        let Some(written) = &self.sheet.totals else {
            return Vec::new();
        };
        (0..self.totals.len())
            .filter(|&i| written.values[i] != self.totals[i])
            .map(|i| Finding::WrongTotal {
                player: self.seat(i),
                written: written.values[i],
                correct: self.totals[i],
            })
            .collect()
    }

    fn rank_findings(&self) -> Vec<Finding> {
        let Some(written) = &self.sheet.ranks else {
            return Vec::new();
        };
        if !self.ranks_match().is_empty() {
            return Vec::new();
        }
        (0..self.by_total.len())
            .filter(|&i| {
                !(same_rank(written.values[i], self.by_total[i])
                    && same_rank(written.values[i], self.by_wins[i]))
            })
            .map(|i| Finding::WrongRank {
                player: self.seat(i),
                written: written.values[i],
                by_total: self.by_total[i],
                by_wins: self.by_wins[i],
            })
            .collect()
    }
}

fn same_rank(written: i64, correct: usize) -> bool {
    usize::try_from(written) == Ok(correct)
}

fn same_ranks(written: &[i64], correct: &[usize]) -> bool {
    written.len() == correct.len() && written.iter().zip(correct).all(|(&w, &c)| same_rank(w, c))
}
