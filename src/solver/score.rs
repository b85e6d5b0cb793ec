//! Scores and what the sweep keeps per state: one best score (points objective) or a Pareto
//! front of (tiles, points) pairs (tiles objective).

/// Tiles and points laid: the two things the objectives weigh. Ordered by points, then tiles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Score {
    pub(super) points: u32,
    pub(super) tiles: u32,
}

impl Score {
    pub(super) fn plus(self, other: Score) -> Score {
        Score {
            points: self.points + other.points,
            tiles: self.tiles + other.tiles,
        }
    }

    /// `self − other`, or `None` when `other` is larger in either part.
    pub(super) fn minus(self, other: Score) -> Option<Score> {
        Some(Score {
            points: self.points.checked_sub(other.points)?,
            tiles: self.tiles.checked_sub(other.tiles)?,
        })
    }
}

/// The best that can still be laid from a state: one score, or a Pareto front of them.
pub(super) trait Best: Clone {
    /// No way to finish from this state (a short run cannot be completed).
    fn impossible() -> Self;
    /// Nothing more to lay.
    fn nothing() -> Self;
    /// Keeps the better of `self` and every `child + gain`.
    fn absorb(&mut self, child: &Self, gain: Score);
    /// Whether `score` is one of the values this holds.
    fn reaches(&self, score: Score) -> bool;
    /// Whether nothing scoring at most `bound` in both tiles and points could improve this.
    fn covers(&self, bound: Score) -> bool;
}

/// Points objective: the single best score, `None` when impossible.
impl Best for Option<Score> {
    fn impossible() -> Self {
        None
    }

    fn nothing() -> Self {
        Some(Score::default())
    }

    fn absorb(&mut self, child: &Self, gain: Score) {
        if let Some(child) = child {
            let candidate = child.plus(gain);
            if self.is_none_or(|best| candidate > best) {
                *self = Some(candidate);
            }
        }
    }

    fn reaches(&self, score: Score) -> bool {
        *self == Some(score)
    }

    fn covers(&self, bound: Score) -> bool {
        // A score at most `bound` in both parts is at most `bound` in (points, tiles) order.
        self.is_some_and(|best| best >= bound)
    }
}

/// Tiles objective: every (tiles, points) pair not beaten in both, sorted by tiles ascending
/// (so points descending). Empty when impossible.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Front(Vec<Score>);

impl Front {
    pub(super) fn insert(&mut self, s: Score) {
        if self
            .0
            .iter()
            .any(|e| e.tiles >= s.tiles && e.points >= s.points)
        {
            return;
        }
        self.0.retain(|e| e.tiles > s.tiles || e.points > s.points);
        let at = self.0.partition_point(|e| e.tiles < s.tiles);
        self.0.insert(at, s);
    }

    /// The most tiles among scores reaching `threshold`; failing that the most points.
    pub(super) fn most_tiles_reaching(&self, threshold: u32) -> Option<Score> {
        self.0
            .iter()
            .rev()
            .find(|s| s.points >= threshold)
            .or_else(|| self.0.first())
            .copied()
    }
}

impl Best for Front {
    fn impossible() -> Self {
        Front(Vec::new())
    }

    fn nothing() -> Self {
        Front(vec![Score::default()])
    }

    fn absorb(&mut self, child: &Self, gain: Score) {
        for s in &child.0 {
            self.insert(s.plus(gain));
        }
    }

    fn reaches(&self, score: Score) -> bool {
        self.0.contains(&score)
    }

    fn covers(&self, bound: Score) -> bool {
        self.0
            .iter()
            .any(|e| e.tiles >= bound.tiles && e.points >= bound.points)
    }
}
