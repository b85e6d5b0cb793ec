//! A turn checked after the fact: the table before, the table after, and (if known) the rack
//! the player had.
//!
//! Disputes at a table are about tiles, so the referee counts tiles rather than trusting the
//! sets: the tiles on the table after the turn, less the tiles before, are what was laid; any
//! tile of the table before that is not on the table after was pocketed; any laid tile the rack
//! did not hold did not come from the rack. Every set after the turn must be valid, a turn must
//! lay at least one tile (or the player draws, leaving the table as it was), and a player who
//! has not made the initial meld may not touch the table's sets and must lay enough from the
//! rack alone. After a time-out with a broken table the rules (RULES.md, "Turn timer") say
//! what happens: every moved tile goes back, the player takes back their own tiles and draws
//! three; the ruling says so with the table to restore.
//!
//! Reasons are typed values with their tiles; [`crate::i18n::play`] words them in the table's
//! language.

use std::collections::HashMap;

use crate::meld::{SetProblem, read_set};
use crate::tile::{FACES, SetInput, Tile, TileSet, TooManyCopies};

/// What the referee is told besides the two tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnContext {
    /// Whether the player had made the initial meld before this turn.
    pub melded: bool,
    /// Points the initial meld needs.
    pub threshold: u32,
    /// Whether the turn ended by the timer running out.
    pub timed_out: bool,
    /// Which set's tile counts apply.
    pub tile_set: TileSet,
}

impl Default for TurnContext {
    fn default() -> Self {
        TurnContext {
            melded: true,
            threshold: 30,
            timed_out: false,
            tile_set: TileSet::Standard,
        }
    }
}

/// One thing wrong with a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A set on the table after the turn is not valid (0-based index in the table after).
    BrokenSet {
        /// Which set.
        index: usize,
        /// Its tiles.
        tiles: Vec<Tile>,
        /// Why.
        problem: SetProblem,
    },
    /// Tiles of the table before that are not on the table after.
    Pocketed(Vec<Tile>),
    /// Laid tiles the rack did not hold.
    NotFromRack(Vec<Tile>),
    /// The table was rearranged but no tile was laid.
    RearrangedWithoutLaying,
    /// Before the initial meld the table's sets were changed (0-based indices, table before).
    TouchedBeforeMeld(Vec<usize>),
    /// An initial meld worth less than the threshold.
    MeldTooSmall {
        /// What the new sets are worth.
        total: u32,
        /// What the meld needs.
        threshold: u32,
    },
    /// The two tables hold more copies of a tile than the set has.
    TooManyCopies(TooManyCopies),
}

/// The referee's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A legal turn that laid tiles.
    Legal,
    /// Nothing laid, the table as it was: the player draws a tile.
    Draw,
    /// Something is wrong: see the reasons.
    Illegal,
}

/// What to do after a time-out with a broken table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restore {
    /// The table as it was before the turn.
    pub table: Vec<SetInput>,
    /// The tiles the player laid, back to their rack.
    pub take_back: Vec<Tile>,
    /// Tiles to draw as the penalty (3).
    pub draw: u8,
}

/// A ruling: verdict, reasons, the tiles laid and, after a time-out, what to restore.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// Legal, a draw, or illegal.
    pub verdict: Verdict,
    /// Everything wrong, in the order checked (empty unless illegal).
    pub reasons: Vec<Reason>,
    /// Tiles on the table after that were not on it before, sorted.
    pub laid: Vec<Tile>,
    /// After a time-out with an illegal table: what to restore and the draw-3 penalty.
    pub restore: Option<Restore>,
    /// Tiles to draw: 1 for a draw (or a time-out with nothing laid), 3 with a restore.
    pub draw: u8,
}

fn counts<'a>(tiles: impl IntoIterator<Item = &'a Tile>) -> [i32; FACES] {
    let mut c = [0; FACES];
    for t in tiles {
        c[t.index()] += 1;
    }
    c
}

fn tiles_of(counts: &[i32; FACES]) -> Vec<Tile> {
    Tile::all_faces()
        .flat_map(|t| std::iter::repeat_n(t, counts[t.index()].max(0) as usize))
        .collect()
}

/// A set as a multiset, for "is this set still there as it was".
fn key(set: &SetInput) -> Vec<Tile> {
    let mut tiles = set.tiles.clone();
    tiles.sort();
    tiles
}

/// Checks one turn.
///
/// # Example
/// ```
/// use rummikub_companion::referee::{judge, Reason, TurnContext, Verdict};
/// use rummikub_companion::tile::{parse_rack, parse_sets};
/// let before = parse_sets("R5 R6 R7 | B9 K9 O9").unwrap();
/// let after = parse_sets("R5 R6 R7 R8 | B9 K9 O9").unwrap();
/// let rack = parse_rack("R8 K1").unwrap();
/// let ruling = judge(&before, &after, Some(&rack), &TurnContext::default());
/// assert_eq!(ruling.verdict, Verdict::Legal);
/// let pocketed = parse_sets("R5 R6 R7 R8 | B9 K9 J").unwrap();
/// let ruling = judge(&before, &pocketed, Some(&rack), &TurnContext::default());
/// assert_eq!(ruling.verdict, Verdict::Illegal);
/// assert!(matches!(&ruling.reasons[..], [Reason::Pocketed(t), Reason::NotFromRack(_)] if t.len() == 1));
/// ```
pub fn judge(
    before: &[SetInput],
    after: &[SetInput],
    rack: Option<&[Tile]>,
    context: &TurnContext,
) -> Ruling {
    let mut reasons = Vec::new();
    for (index, set) in after.iter().enumerate() {
        if let Err(problem) = read_set(set) {
            reasons.push(Reason::BrokenSet {
                index,
                tiles: set.tiles.clone(),
                problem,
            });
        }
    }
    let was = counts(before.iter().flat_map(|s| &s.tiles));
    let is = counts(after.iter().flat_map(|s| &s.tiles));
    let mut gone = [0; FACES];
    let mut new = [0; FACES];
    for f in 0..FACES {
        gone[f] = (was[f] - is[f]).max(0);
        new[f] = (is[f] - was[f]).max(0);
    }
    let pocketed = tiles_of(&gone);
    let laid = tiles_of(&new);
    if let Err(e) = context
        .tile_set
        .check_supply(after.iter().flat_map(|s| &s.tiles))
    {
        reasons.push(Reason::TooManyCopies(e));
    }
    if !pocketed.is_empty() {
        reasons.push(Reason::Pocketed(pocketed));
    }
    if let Some(rack) = rack {
        let held = counts(rack);
        let mut foreign = [0; FACES];
        for f in 0..FACES {
            foreign[f] = (new[f] - held[f]).max(0);
        }
        let foreign = tiles_of(&foreign);
        if !foreign.is_empty() {
            reasons.push(Reason::NotFromRack(foreign));
        }
    }
    // Which sets of the table before are still there as they were (as multisets).
    let mut after_keys: HashMap<Vec<Tile>, usize> = HashMap::new();
    for set in after {
        *after_keys.entry(key(set)).or_default() += 1;
    }
    let mut touched = Vec::new();
    for (i, set) in before.iter().enumerate() {
        match after_keys.get_mut(&key(set)) {
            Some(n) if *n > 0 => *n -= 1,
            _ => touched.push(i),
        }
    }
    let table_changed = !touched.is_empty() || !laid.is_empty();
    if laid.is_empty() && table_changed {
        reasons.push(Reason::RearrangedWithoutLaying);
    }
    if !context.melded && !laid.is_empty() {
        if !touched.is_empty() {
            reasons.push(Reason::TouchedBeforeMeld(touched));
        }
        // The new sets: the sets after, less the ones kept as they were.
        let mut before_keys: HashMap<Vec<Tile>, usize> = HashMap::new();
        for set in before {
            *before_keys.entry(key(set)).or_default() += 1;
        }
        let mut total = 0;
        for set in after {
            match before_keys.get_mut(&key(set)) {
                Some(n) if *n > 0 => *n -= 1,
                _ => total += read_set(set).map_or(0, |r| r.points),
            }
        }
        if total < context.threshold {
            reasons.push(Reason::MeldTooSmall {
                total,
                threshold: context.threshold,
            });
        }
    }
    let verdict = if !reasons.is_empty() {
        Verdict::Illegal
    } else if laid.is_empty() {
        Verdict::Draw
    } else {
        Verdict::Legal
    };
    let restore = (context.timed_out && verdict == Verdict::Illegal).then(|| Restore {
        table: before.to_vec(),
        take_back: laid.clone(),
        draw: 3,
    });
    let draw = match (verdict, &restore) {
        (_, Some(r)) => r.draw,
        (Verdict::Draw, None) => 1,
        _ => 0,
    };
    Ruling {
        verdict,
        reasons,
        laid,
        restore,
        draw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{parse_rack, parse_sets};

    fn sets(s: &str) -> Vec<SetInput> {
        parse_sets(s).expect("parses")
    }

    #[test]
    fn a_draw_leaves_the_table() {
        let t = sets("R5 R6 R7");
        let r = judge(&t, &t, None, &TurnContext::default());
        assert_eq!((r.verdict, r.draw), (Verdict::Draw, 1));
    }

    #[test]
    fn rearranging_without_laying_is_caught() {
        let before = sets("R5 R6 R7 R8 | B8 K8 O8");
        let after = sets("R5 R6 R7 | R8 B8 K8 O8");
        let r = judge(&before, &after, None, &TurnContext::default());
        assert_eq!(r.reasons, vec![Reason::RearrangedWithoutLaying]);
    }

    #[test]
    fn timeout_with_a_broken_table_restores_and_draws_three() {
        let before = sets("R5 R6 R7");
        let after = sets("R5 R6 | R7 R8 R9");
        let rack = parse_rack("R8 R9").expect("rack");
        let context = TurnContext {
            timed_out: true,
            ..TurnContext::default()
        };
        let r = judge(&before, &after, Some(&rack), &context);
        assert_eq!(r.verdict, Verdict::Illegal);
        let restore = r.restore.expect("restore");
        assert_eq!(restore.table, before);
        assert_eq!(restore.take_back, rack);
        assert_eq!(r.draw, 3);
    }

    #[test]
    fn before_the_meld_the_table_is_not_touched() {
        let before = sets("R5 R6 R7");
        let after = sets("R5 R6 R7 R8 | K10 K11 K12");
        let rack = parse_rack("R8 K10 K11 K12").expect("rack");
        let context = TurnContext {
            melded: false,
            ..TurnContext::default()
        };
        let r = judge(&before, &after, Some(&rack), &context);
        assert_eq!(r.reasons, vec![Reason::TouchedBeforeMeld(vec![0])]);
        let small = sets("R5 R6 R7 | K1 K2 K3");
        let rack = parse_rack("K1 K2 K3").expect("rack");
        let r = judge(&before, &small, Some(&rack), &context);
        assert_eq!(
            r.reasons,
            vec![Reason::MeldTooSmall {
                total: 6,
                threshold: 30
            }]
        );
    }
}
