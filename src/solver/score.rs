//! Scores, and how an objective weighs them as one number.

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
}

/// Which part of a score counts first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Order {
    /// Points, then tiles.
    PointsFirst,
    /// Tiles, then points.
    TilesFirst,
}

impl Order {
    /// The score as one number: the part that counts first in the high bits. No rack holds
    /// 2¹⁶ tiles or points, so values add up like the scores they stand for and compare as
    /// the order says.
    pub(super) fn value(self, s: Score) -> u32 {
        match self {
            Order::PointsFirst => s.points << 16 | s.tiles,
            Order::TilesFirst => s.tiles << 16 | s.points,
        }
    }

    /// The score a value stands for.
    pub(super) fn score(self, value: u32) -> Score {
        let (high, low) = (value >> 16, value & 0xFFFF);
        match self {
            Order::PointsFirst => Score {
                points: high,
                tiles: low,
            },
            Order::TilesFirst => Score {
                points: low,
                tiles: high,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_add_and_order_like_scores() {
        let a = Score {
            points: 30,
            tiles: 3,
        };
        let b = Score {
            points: 12,
            tiles: 4,
        };
        for order in [Order::PointsFirst, Order::TilesFirst] {
            assert_eq!(order.value(a) + order.value(b), order.value(a.plus(b)));
        }
        assert!(Order::PointsFirst.value(a) > Order::PointsFirst.value(b));
        assert!(Order::TilesFirst.value(a) < Order::TilesFirst.value(b));
    }
}
