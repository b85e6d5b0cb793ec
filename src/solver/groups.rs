//! What groups can do with the real tiles of one number that the runs left over.
//!
//! The sweep asks the same few questions over and over ("with these tiles per colour and this
//! many jokers, how many real tiles can groups hold?"), so the answers live in a table shared by
//! every solve and filled on first use. Filling the whole table up front would cost milliseconds
//! at start-up, which a one-shot `solve` command cannot afford; most entries are never asked.
//! Each entry is a pure function of its index, so threads racing to fill one store the same
//! value.

use std::sync::atomic::{AtomicU8, Ordering};

/// A group's shape: which colours' real tiles it takes (bit `c` for colour `c`) and how many
/// jokers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shape {
    /// Colours taken, one real tile each.
    pub colours: u8,
    /// Jokers in the group.
    pub jokers: u8,
}

impl Shape {
    /// Real tiles in the group.
    pub fn reals(self) -> u8 {
        self.colours.count_ones() as u8
    }

    /// `left` without this group's real tiles, or `None` when a colour is missing.
    fn take(self, left: [u8; 4]) -> Option<[u8; 4]> {
        let mut rest = left;
        for (c, n) in rest.iter_mut().enumerate() {
            if self.colours >> c & 1 == 1 {
                *n = n.checked_sub(1)?;
            }
        }
        Some(rest)
    }
}

/// Every group shape (3 or 4 tiles, at least one real), most real tiles first.
const SHAPES: [Shape; 29] = all_shapes();

const fn all_shapes() -> [Shape; 29] {
    let mut out = [Shape {
        colours: 0,
        jokers: 0,
    }; 29];
    let mut n = 0;
    let mut reals = 4;
    while reals >= 1 {
        let mut colours = 15u8;
        while colours >= 1 {
            let mut jokers = 0;
            while colours.count_ones() == reals && jokers <= 3 {
                let size = reals as u8 + jokers;
                if size >= 3 && size <= 4 {
                    out[n] = Shape { colours, jokers };
                    n += 1;
                }
                jokers += 1;
            }
            colours -= 1;
        }
        reals -= 1;
    }
    out
}

/// Whether one real tile numbered `v` with `jokers` jokers is worth more as a group than as the
/// best run of the same tiles. If not, such a group is never needed: the run beats it.
const fn lone_group_pays(v: u8, jokers: u8) -> bool {
    let group = v as u32 * (jokers as u32 + 1);
    let mut best_run = 0;
    let mut start = if v > jokers { v - jokers } else { 1 };
    while start <= v && start + jokers <= 13 {
        // start + (start + 1) + … + (start + jokers)
        let run = (jokers as u32 + 1) * (2 * start as u32 + jokers as u32) / 2;
        if run > best_run {
            best_run = run;
        }
        start += 1;
    }
    group > best_run
}

/// Per number: which lone groups pay there, bit 0 for two jokers, bit 1 for three.
const TIERS: [u8; 14] = {
    let mut tiers = [0; 14];
    let mut v = 1;
    while v <= 13 {
        tiers[v] = lone_group_pays(v as u8, 2) as u8 | (lone_group_pays(v as u8, 3) as u8) << 1;
        v += 1;
    }
    tiers
};

fn tier(v: u8) -> u8 {
    TIERS.get(usize::from(v)).copied().unwrap_or(0)
}

const ENTRIES: usize = 4 * 256 * 5 * 16;

/// 0: not known yet; 1: impossible; `n + 2`: at most `n` real tiles.
static MEMO: [AtomicU8; ENTRIES] = [const { AtomicU8::new(0) }; ENTRIES];

/// The most real tiles (given per colour, 0–3 each) that groups of number `v` can hold using
/// exactly `jokers` jokers and every tile of the colours in `must_use` (bit per colour);
/// `None` when that is impossible.
#[inline]
pub(super) fn most(v: u8, left: [u8; 4], jokers: u8, must_use: u8) -> Option<u8> {
    lookup(tier(v), left, jokers, must_use)
}

/// Groups reaching [`most`], as shapes.
pub(super) fn arrange(v: u8, mut left: [u8; 4], mut jokers: u8, must_use: u8) -> Vec<Shape> {
    let tier = tier(v);
    let mut shapes = Vec::new();
    let Some(mut reals) = lookup(tier, left, jokers, must_use) else {
        return shapes;
    };
    while reals > 0 {
        let next = allowed(tier, jokers).find_map(|shape| {
            let rest = shape.take(left)?;
            let after = lookup(tier, rest, jokers - shape.jokers, must_use)?;
            (after + shape.reals() == reals).then_some((shape, rest))
        });
        let Some((shape, rest)) = next else {
            debug_assert!(false, "no group reaches {reals} at {v}");
            break;
        };
        shapes.push(shape);
        left = rest;
        jokers -= shape.jokers;
        reals -= shape.reals();
    }
    shapes
}

/// Shapes usable with at most `jokers` jokers under the lone-group rule of `tier`.
fn allowed(tier: u8, jokers: u8) -> impl Iterator<Item = Shape> {
    SHAPES
        .into_iter()
        .filter(move |s| s.jokers <= jokers && (s.reals() > 1 || tier >> (s.jokers - 2) & 1 == 1))
}

#[inline]
fn lookup(tier: u8, left: [u8; 4], jokers: u8, must_use: u8) -> Option<u8> {
    let present = (0..4).fold(0, |m, c| m | u8::from(left[c] > 0) << c);
    let must_use = must_use & present;
    let index = ((usize::from(tier) * 256
        + left.iter().fold(0, |i, &n| i * 4 + usize::from(n.min(3))))
        * 5
        + usize::from(jokers.min(4)))
        * 16
        + usize::from(must_use);
    match MEMO[index].load(Ordering::Relaxed) {
        0 => fill(index, tier, left, jokers, must_use),
        1 => None,
        n => Some(n - 2),
    }
}

/// Works out and stores an entry of [`MEMO`]: once per entry, so kept out of the hot path.
#[cold]
#[inline(never)]
fn fill(index: usize, tier: u8, left: [u8; 4], jokers: u8, must_use: u8) -> Option<u8> {
    let answer = compute(tier, left, jokers, must_use);
    MEMO[index].store(answer.map_or(1, |n| n + 2), Ordering::Relaxed);
    answer
}

/// No more groups (possible once every joker and every must-use tile is placed), or one more
/// group and the best for the rest.
fn compute(tier: u8, left: [u8; 4], jokers: u8, must_use: u8) -> Option<u8> {
    let mut best = (jokers == 0 && must_use == 0).then_some(0);
    for shape in allowed(tier, jokers) {
        if let Some(rest) = shape.take(left)
            && let Some(after) = lookup(tier, rest, jokers - shape.jokers, must_use)
        {
            best = best.max(Some(shape.reals() + after));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_every_group() {
        assert!(
            SHAPES
                .iter()
                .all(|s| (3..=4).contains(&(s.reals() + s.jokers)))
        );
        assert_eq!(
            SHAPES[0],
            Shape {
                colours: 15,
                jokers: 0
            }
        );
        assert!(SHAPES.windows(2).all(|w| w[0].reals() >= w[1].reals()));
    }

    #[test]
    fn lone_groups_only_near_13() {
        // R5 J J is worth 15 as a group but 18 as the run R5 R6 R7.
        assert!(!lone_group_pays(5, 2));
        // R12 J J: 36 either way, so the run will do.
        assert!(!lone_group_pays(12, 2));
        assert!(
            lone_group_pays(12, 3),
            "R12 + 3 jokers: 48 as a group, 46 as a run"
        );
        assert!(
            lone_group_pays(13, 2),
            "R13 J J: 39 as a group, 36 as a run"
        );
        assert!(
            !lone_group_pays(11, 3),
            "R11 + 3 jokers: 44 as a group, 46 as a run"
        );
    }

    #[test]
    fn counts_groups_with_jokers_and_must_use() {
        assert_eq!(most(5, [1, 0, 0, 0], 0, 0), Some(0));
        assert_eq!(most(5, [1, 0, 0, 0], 2, 0), None, "a run beats R5 J J");
        assert_eq!(most(13, [1, 0, 0, 0], 1, 0), None, "R13 J is no group");
        assert_eq!(most(13, [1, 0, 0, 0], 2, 0), Some(1));
        assert_eq!(most(13, [1, 0, 0, 0], 3, 0), Some(1));
        assert_eq!(most(13, [1, 0, 0, 0], 4, 0), None);
        assert_eq!(most(7, [2, 2, 2, 0], 0, 0), Some(6));
        assert_eq!(most(7, [2, 2, 2, 0], 2, 0), Some(6), "two groups of four");
        assert_eq!(
            most(7, [1, 1, 0, 0], 0, 0b0001),
            None,
            "red cannot be grouped"
        );
        assert_eq!(most(7, [1, 1, 1, 0], 0, 0b0111), Some(3));
        assert_eq!(
            most(7, [2, 1, 1, 0], 0, 0b0001),
            None,
            "two reds need two groups"
        );
        assert_eq!(
            most(7, [2, 1, 1, 0], 1, 0b0001),
            None,
            "R B J leaves R K short"
        );
        assert_eq!(most(7, [2, 1, 1, 0], 2, 0b0001), Some(4), "R B J and R K J");
    }

    #[test]
    fn arrangements_reach_the_most() {
        for v in 1..=13 {
            for index in 0..256usize {
                let left = [3, 2, 1, 0].map(|s| (index >> (2 * s) & 3) as u8);
                for jokers in 0..=4 {
                    for must_use in [0, 0b0101, 0b1111] {
                        let Some(reals) = most(v, left, jokers, must_use) else {
                            continue;
                        };
                        let shapes = arrange(v, left, jokers, must_use);
                        let used: u8 = shapes.iter().map(|s| s.reals()).sum();
                        let jokers_used: u8 = shapes.iter().map(|s| s.jokers).sum();
                        assert_eq!((used, jokers_used), (reals, jokers));
                    }
                }
            }
        }
    }
}
