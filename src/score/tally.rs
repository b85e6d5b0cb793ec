//! The one tally: rows of points in, totals, wins and ranks out.
//!
//! A sheet's standings and a paper-sheet audit must never disagree about how a column is added
//! up or how places are shared, so both go through [`Standings::tally`]: the sheet feeds it the
//! points it computed, the audit the points as written (with the one positive score of a row as
//! its winner, or none when the row has no single winner).

use super::{Standings, ranks};
use crate::rules::FinalRule;

impl Standings {
    /// Totals, wins and ranks under both final rules from rows of points in seat order, each
    /// with its winner's seat (`None`: the row counts no win). Points beyond `players` seats and
    /// winners out of range are ignored.
    ///
    /// # Example
    /// ```
    /// use rummikub_companion::score::Standings;
    /// let rows: [(&[i64], Option<usize>); 2] = [(&[10, -4, -6], Some(0)), (&[-3, 5, -2], Some(1))];
    /// let s = Standings::tally(3, rows);
    /// assert_eq!(s.totals, vec![7, 1, -8]);
    /// assert_eq!(s.wins, vec![1, 1, 0]);
    /// assert_eq!(s.by_total, vec![1, 2, 3]);
    /// ```
    pub fn tally<'a>(
        players: usize,
        rows: impl IntoIterator<Item = (&'a [i64], Option<usize>)>,
    ) -> Standings {
        let mut totals = vec![0_i64; players];
        let mut wins = vec![0_usize; players];
        for (points, winner) in rows {
            for (total, p) in totals.iter_mut().zip(points) {
                *total += p;
            }
            if let Some(w) = winner.and_then(|w| wins.get_mut(w)) {
                *w += 1;
            }
        }
        Standings {
            by_total: ranks(&totals, &wins, FinalRule::Total),
            by_wins: ranks(&totals, &wins, FinalRule::Wins),
            totals,
            wins,
        }
    }
}
