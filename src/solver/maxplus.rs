//! Values by how many jokers a part of a play uses, and how two parts add up (max-plus
//! convolution): shared by the opening solver's ceiling (`relax`) and the table solver's
//! (`play::ceiling`), where runs, groups and sets kept each want some of the same jokers.

/// Most jokers in play (the XP set's four); more and there is no ceiling.
pub(crate) const MOST_JOKERS: usize = 4;

/// Values by how many jokers at most may be used.
pub(crate) type Values = [i64; MOST_JOKERS + 1];

/// No way on. Far below any real value, and far enough above `i64::MIN` that adding a few
/// values to it cannot overflow; anything below `NONE / 2` counts as no way.
pub(crate) const NONE: i64 = i64::MIN / 16;

/// Whether `value` is a way at all (see [`NONE`]).
pub(crate) fn possible(value: i64) -> bool {
    value > NONE / 2
}

/// `out[j]` = the best `a[i] + b[k]` with `i + k ≤ j`, for `a` by exactly so many jokers and
/// `b` by at most so many.
pub(crate) fn max_plus_exact(a: Values, b: Values) -> Values {
    let mut out = [NONE; MOST_JOKERS + 1];
    for i in 0..=MOST_JOKERS {
        for k in 0..=MOST_JOKERS - i {
            out[i + k] = out[i + k].max(a[i] + b[k]);
        }
    }
    for j in 1..=MOST_JOKERS {
        out[j] = out[j].max(out[j - 1]);
    }
    out.map(|x| x.max(NONE))
}

/// `out[j]` = the best `a[i] + b[j - i]`, for `a` and `b` by at most so many jokers (so never
/// lower with a joker more, and so is `out`). Sums of a few [`NONE`]s stay far from overflow.
pub(crate) fn max_plus(a: Values, b: Values) -> Values {
    std::array::from_fn(|j| at_most(&a, &b, j))
}

/// [`max_plus`] at `j` alone.
pub(crate) fn at_most(a: &Values, b: &Values, j: usize) -> i64 {
    (0..=j).map(|i| a[i] + b[j - i]).fold(NONE, i64::max)
}

/// Where a [`max_plus_exact`] result came from: for the value `target` reached with at most `j`
/// jokers, the jokers `k` the first part used (by exactly so many, `at[k].0`) and the most
/// `most` both parts used, with `at[k].0 + later[most - k] == target`; the fewest jokers first.
/// `None` when no split reaches it.
pub(crate) fn split<T>(
    at: &[(i64, T); MOST_JOKERS + 1],
    later: &Values,
    j: usize,
    target: i64,
) -> Option<(usize, usize)> {
    (0..=j).rev().find_map(|most| {
        (0..=most)
            .find(|&k| possible(at[k].0) && at[k].0 + later[most - k] == target)
            .map(|k| (k, most))
    })
}
