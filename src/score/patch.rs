//! A change to a sheet reduced to what differs: the header (players, rules, rounds, target) and
//! the games between the longest common start and end.
//!
//! Why: the evening's undo history keeps, for each change of the open sheet, what it takes to
//! put the sheet back. A full copy of a 2,000-game sheet per change is hundreds of kilobytes, in
//! memory and in the saved evening; a game added, edited or deleted differs from the sheet
//! before it by one game. A patch is therefore as small as the change, whatever the size of the
//! sheet, and applying it goes through the sheet's own checks (every game must still score).

use serde::{Deserialize, Serialize};

use super::{Game, Players, ScoreError, Sheet};
use crate::rules::RuleSet;

/// What turns one sheet into another: a game added, edited or deleted differs from the sheet
/// before it by one game, so a patch is as small as its change.
///
/// # Example
/// ```
/// use chrono::{TimeZone, Utc};
/// use rummikub_companion::rules::RuleSet;
/// use rummikub_companion::score::{Game, Hand, Players, Sheet};
///
/// let start = Utc.with_ymd_and_hms(2024, 5, 1, 19, 0, 0).unwrap();
/// let mut sheet = Sheet::new(Players::new(["Ann", "Bo"]).unwrap(), RuleSet::default(), None, start)
///     .unwrap();
/// for left in [5, 9, 2] {
///     sheet.add_game(Game::new(vec![Hand::of_value(0), Hand::of_value(left)])).unwrap();
/// }
/// let before = sheet.clone();
/// sheet.delete_game(1).unwrap();
/// // What puts the deleted game back is that one game, not the sheet.
/// let back = sheet.patch_to(&before);
/// assert_eq!(back.games().len(), 1);
/// sheet.apply_patch(&back).unwrap();
/// assert_eq!(sheet, before);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetPatch {
    players: Players,
    rules: RuleSet,
    #[serde(default)]
    planned_rounds: Option<u32>,
    #[serde(default)]
    target: Option<i64>,
    /// The first game that differs.
    at: usize,
    /// How many games of the old sheet, from `at`, give way.
    replace: usize,
    /// The games that take their place.
    games: Vec<Game>,
}

impl SheetPatch {
    /// The games the patch puts in.
    pub fn games(&self) -> &[Game] {
        &self.games
    }
}

impl Sheet {
    /// The patch that turns this sheet into `other` (see [`SheetPatch`]).
    pub fn patch_to(&self, other: &Sheet) -> SheetPatch {
        let (old, new) = (&self.facts.games, &other.facts.games);
        let start = old.iter().zip(new).take_while(|(a, b)| a == b).count();
        let room = old.len().min(new.len()) - start;
        let end = old
            .iter()
            .rev()
            .zip(new.iter().rev())
            .take(room)
            .take_while(|(a, b)| a == b)
            .count();
        SheetPatch {
            players: other.facts.players.clone(),
            rules: other.facts.rules,
            planned_rounds: other.facts.planned_rounds,
            target: other.facts.target,
            at: start,
            replace: old.len() - start - end,
            games: new[start..new.len() - end].to_vec(),
        }
    }

    /// Applies a patch made by [`patch_to`](Sheet::patch_to) from a sheet like this one.
    /// Refused (the sheet unchanged) when the patch does not fit this sheet or a game would no
    /// longer score.
    pub fn apply_patch(&mut self, patch: &SheetPatch) -> Result<(), ScoreError> {
        self.change(|facts| {
            let end = patch.at + patch.replace;
            if end > facts.games.len() {
                return Err(ScoreError::NoSuchGame(end));
            }
            facts
                .games
                .splice(patch.at..end, patch.games.iter().cloned());
            facts.players = patch.players.clone();
            facts.rules = patch.rules;
            facts.planned_rounds = patch.planned_rounds;
            facts.target = patch.target;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::Hand;
    use chrono::{TimeZone, Utc};

    fn sheet(games: &[u32]) -> Sheet {
        let start = Utc
            .with_ymd_and_hms(2024, 5, 1, 19, 0, 0)
            .single()
            .expect("a time");
        let players = Players::new(["Ann", "Bo"]).expect("players");
        let mut sheet = Sheet::new(players, RuleSet::default(), None, start).expect("sheet");
        for &left in games {
            sheet
                .add_game(Game::new(vec![Hand::of_value(0), Hand::of_value(left)]))
                .expect("a game");
        }
        sheet
    }

    #[test]
    fn a_patch_holds_only_the_games_that_differ_and_round_trips() {
        let cases: [(&[u32], &[u32]); 6] = [
            (&[1, 2, 3], &[1, 2, 3, 4]),
            (&[1, 2, 3, 4], &[1, 2, 3]),
            (&[1, 2, 3], &[1, 9, 3]),
            (&[1, 2, 3], &[1, 3]),
            (&[], &[5]),
            (&[2, 2, 2], &[2, 2]),
        ];
        for (a, b) in cases {
            let (mut from, to) = (sheet(a), sheet(b));
            let patch = from.patch_to(&to);
            assert!(patch.games().len() <= 1, "{a:?} -> {b:?}: {patch:?}");
            from.apply_patch(&patch).expect("the patch fits");
            assert_eq!(from, to, "{a:?} -> {b:?}");
        }
    }

    #[test]
    fn a_patch_that_does_not_fit_changes_nothing() {
        let long = sheet(&[1, 2, 3, 4]);
        let short = sheet(&[1]);
        let patch = long.patch_to(&sheet(&[1, 2, 3]));
        let mut target = short.clone();
        assert!(target.apply_patch(&patch).is_err());
        assert_eq!(target, short);
    }
}
