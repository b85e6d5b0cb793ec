//! When a match is over, and a sheet in one line.
//!
//! A table agrees before play how long the match lasts: a number of rounds (one round = one game
//! dealt by each player), a target total ("first to 200"), both (whichever comes first), or
//! neither (open-ended). The end is derived from the facts like everything else on a sheet, so
//! deleting the last game re-opens the match, and a rule change that moves points can move the
//! end.
//!
//! The result of a finished match is the standings **after the game that ended it**. Games
//! added later stay on the sheet (the window says they are after the end) but do not change the
//! result: a table that wants to play on raises the rounds or the target, and the match is open
//! again.

use chrono::{DateTime, Utc};

use super::{ScoreError, Sheet, Standings};
use crate::rules::FinalRule;

/// Whether a sheet's match is still on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchState {
    /// The end has not been reached (always the case for an open-ended sheet).
    Playing {
        /// Games still to play until the planned rounds are done; `None` with no rounds planned.
        games_left: Option<usize>,
        /// Points the leader (highest total) still needs to reach the target; `None` with no
        /// target.
        to_target: Option<i64>,
    },
    /// The match is over.
    Finished(MatchEnd),
}

impl MatchState {
    /// True when the match is over.
    pub fn is_finished(&self) -> bool {
        matches!(self, MatchState::Finished(_))
    }
}

/// How a match ended and who won it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchEnd {
    /// The match ended after this game (1-based; also how many games the result counts).
    pub after_game: usize,
    /// The planned rounds were all played by then.
    pub rounds_done: bool,
    /// Seats whose total reached the target in that game (empty when the rounds ended it).
    pub target_reached_by: Vec<usize>,
    /// Totals, wins and ranks over the first `after_game` games.
    pub standings: Standings,
    /// The sheet's final rule.
    pub rule: FinalRule,
    /// Everyone ranked first under `rule` (several on a tie: they share the place).
    pub winners: Vec<usize>,
    /// Everyone ranked first under the other rule, shown beside the winner.
    pub other_winners: Vec<usize>,
    /// Games on the sheet after the end (not counted in the result).
    pub games_after: usize,
}

/// A sheet's state in a list of sheets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SheetState {
    /// No games yet: not listed, and never "the latest" sheet.
    Empty,
    /// Games played, the end not reached.
    Playing,
    /// The match is over.
    Finished,
}

/// One line of the "Open" list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetSummary {
    /// When the sheet was started.
    pub created: DateTime<Utc>,
    /// The last game's time (or the creation time).
    pub last_activity: DateTime<Utc>,
    /// The players, in seat order.
    pub players: Vec<String>,
    /// Games on the sheet.
    pub games: usize,
    /// The sheet's final rule.
    pub rule: FinalRule,
    /// Everyone ranked first under the sheet's rule: the winners of a finished match, the
    /// current leaders otherwise (empty for an empty sheet).
    pub leaders: Vec<String>,
    /// Empty, playing or finished.
    pub state: SheetState,
}

impl Sheet {
    /// True when no game has been recorded.
    pub fn is_empty(&self) -> bool {
        self.games().is_empty()
    }

    /// The target total, `None` when the match is not played to a target.
    pub fn target(&self) -> Option<i64> {
        self.facts.target
    }

    /// Sets the target total (`None`: no target). The match ends after the game in which
    /// someone's total reaches it. Refused below 1.
    ///
    /// # Example
    /// ```
    /// use chrono::{TimeZone, Utc};
    /// use rummikub_companion::rules::RuleSet;
    /// use rummikub_companion::score::{Game, Hand, MatchState, Players, Sheet};
    /// let players = Players::new(["Ann", "Bo"]).unwrap();
    /// let start = Utc.with_ymd_and_hms(2024, 5, 1, 19, 0, 0).unwrap();
    /// let mut sheet = Sheet::new(players, RuleSet::default(), None, start).unwrap();
    /// sheet.set_target(Some(50)).unwrap();
    /// sheet.add_game(Game::new(vec![Hand::of_value(0), Hand::of_value(30)])).unwrap();
    /// assert_eq!(
    ///     sheet.match_state(),
    ///     MatchState::Playing { games_left: None, to_target: Some(20) }
    /// );
    /// sheet.add_game(Game::new(vec![Hand::of_value(0), Hand::of_value(20)])).unwrap();
    /// let MatchState::Finished(end) = sheet.match_state() else { panic!("over") };
    /// assert_eq!((end.after_game, end.winners.clone()), (2, vec![0]));
    /// assert!(sheet.set_target(Some(0)).is_err());
    /// ```
    pub fn set_target(&mut self, target: Option<i64>) -> Result<(), ScoreError> {
        self.change(|f| {
            f.target = target;
            Ok(())
        })
    }

    /// The game count at which the match ends (the first game that completes the planned
    /// rounds or brings a total to the target), if it has been reached.
    fn end_after(&self) -> Option<usize> {
        let by_rounds = self.planned_games().filter(|&p| self.scores().len() >= p);
        let by_target = self.facts.target.and_then(|target| {
            let mut totals = vec![0_i64; self.players().len()];
            self.scores().iter().position(|score| {
                for (t, p) in totals.iter_mut().zip(&score.points) {
                    *t += p;
                }
                totals.iter().any(|&t| t >= target)
            })
        });
        match (by_rounds, by_target.map(|i| i + 1)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Whether the match is over, and if so its result: final standings under the sheet's rule
    /// and the other rule, with ties reported as several winners.
    pub fn match_state(&self) -> MatchState {
        let players = self.players().len();
        let Some(after_game) = self.end_after() else {
            let standings = self.standings();
            return MatchState::Playing {
                games_left: self
                    .planned_games()
                    .map(|p| p.saturating_sub(self.scores().len())),
                to_target: self
                    .facts
                    .target
                    .map(|target| target - standings.totals.iter().copied().max().unwrap_or(0)),
            };
        };
        let standings = Standings::of(players, &self.scores()[..after_game]);
        let target_reached_by = match self.facts.target {
            Some(target) => (0..players)
                .filter(|&i| standings.totals[i] >= target)
                .collect(),
            None => Vec::new(),
        };
        let rule = self.rules().final_rule;
        MatchEnd {
            after_game,
            rounds_done: self.planned_games().is_some_and(|p| after_game >= p),
            target_reached_by,
            rule,
            winners: standings.winners(rule),
            other_winners: standings.winners(rule.other()),
            standings,
            games_after: self.scores().len() - after_game,
        }
        .into()
    }

    /// The sheet in one line, for the "Open" list.
    pub fn summary(&self) -> SheetSummary {
        let rule = self.rules().final_rule;
        let (state, leaders) = match self.match_state() {
            _ if self.is_empty() => (SheetState::Empty, Vec::new()),
            MatchState::Finished(end) => (SheetState::Finished, end.winners),
            MatchState::Playing { .. } => (SheetState::Playing, self.standings().winners(rule)),
        };
        let names = self.players().names();
        SheetSummary {
            created: self.created(),
            last_activity: self.last_activity(),
            players: names.to_vec(),
            games: self.scores().len(),
            rule,
            leaders: leaders.iter().map(|&i| names[i].clone()).collect(),
            state,
        }
    }
}

impl From<MatchEnd> for MatchState {
    fn from(end: MatchEnd) -> MatchState {
        MatchState::Finished(end)
    }
}
