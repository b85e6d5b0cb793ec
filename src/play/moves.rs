//! The moves that take the table before to a play's table, as steps a person can make.
//!
//! # Fewest moves
//! A tile moves when it ends in another set than the one it started in; a rack tile laid
//! always moves. Which set after *is* which set before decides the rest: pair each set after
//! with at most one set before, and a tile stays in place where its set before and its set
//! after are a pair and both hold it (tiles slid along inside a set do not count). The
//! pairing that leaves the most tiles in place is an assignment problem, the weight of a pair
//! the tiles the two sets share (as multisets: one joker is as good as another), solved
//! exactly by the Hungarian method (Kuhn–Munkres, `assign`). A set left as it was pairs with
//! itself first: that is never worse (per face, `a + min(b, x) ≥ min(a, x) + min(b, a)`).
//! Every other tile then moves once, straight to its set after.
//!
//! # Steps
//! Tiles moving from one place to one place are one step (one hand carries them), named by
//! what a player does: `lay` a new set from the rack, `add` rack tiles to a set, `take` tiles
//! from a set to another or to a new one, `split` the end of a run off into a new set, `join`
//! what is left of a set to another, and a joker `swap`, two steps: the tile it stands for in,
//! then the freed joker out. Which leaving tile goes to which set is a transport of equal
//! totals per face; it is filled greedily, the pair of places that can exchange the most tiles
//! first, so that few steps carry many tiles.
//!
//! # Order
//! Table to table first, set by set, a set's own leaving tiles before any other set's tiles
//! come into it (the sets it sends to are worked before it, depth first), a joker swap before
//! the set's other leaving tiles, and the step that empties a set last; then the rack's tiles.
//! A set's index is its place on the table as it stands before the step: the sets before from
//! 0 in input order, new sets appended in the order they are made, an emptied set keeping its
//! index.

use crate::meld::read_set;
use crate::tile::{FACES, Kind, SetInput, Tile};

use super::TableSet;

/// What a step does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StepKind {
    /// A new set from rack tiles.
    Lay,
    /// Rack tiles added to a set.
    Add,
    /// Tiles taken from a set to another set or to a new one.
    Take,
    /// The end of a run split off into a new set.
    Split,
    /// What is left of a set joined to another set.
    Join,
    /// A joker swap: the tile the joker stands for put in its set, then the freed joker out
    /// (two steps).
    Swap,
}

impl StepKind {
    /// `"lay"`, `"add"`, `"take"`, `"split"`, `"join"` or `"swap"`, as `play --json` writes it.
    pub const fn name(self) -> &'static str {
        match self {
            StepKind::Lay => "lay",
            StepKind::Add => "add",
            StepKind::Take => "take",
            StepKind::Split => "split",
            StepKind::Join => "join",
            StepKind::Swap => "swap",
        }
    }
}

/// Where a step's tiles come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// The player's rack.
    Rack,
    /// A set of the table as it stands before the step.
    Set(usize),
}

/// Where a step's tiles go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A new set, appended to the table.
    New,
    /// A set of the table as it stands before the step.
    Set(usize),
}

/// One step: tiles from one place to one place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// What the step does.
    pub kind: StepKind,
    /// The tiles moved.
    pub tiles: Vec<Tile>,
    /// Where from.
    pub from: Source,
    /// Where to.
    pub to: Target,
}

/// The steps from a table before to a table after, and how the sets pair.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// The steps, in the order to make them.
    pub steps: Vec<Step>,
    /// Per set after: the set before it is (its tiles in common stay in place), or `None` for
    /// a new set.
    pub homes: Vec<Option<usize>>,
}

impl Plan {
    /// How many tiles move (each once).
    pub fn moves(&self) -> usize {
        self.steps.iter().map(|s| s.tiles.len()).sum()
    }
}

/// Tiles counted per face.
pub(super) type Counts = [u8; FACES];

/// `tiles` counted per face.
pub(super) fn counts(tiles: &[Tile]) -> Counts {
    let mut c = [0; FACES];
    for t in tiles {
        c[t.index()] += 1;
    }
    c
}

/// The tiles two multisets share.
pub(super) fn shared(a: &Counts, b: &Counts) -> u32 {
    a.iter().zip(b).map(|(&x, &y)| u32::from(x.min(y))).sum()
}

/// The tiles counted in `c`, in face order.
pub(super) fn tiles_of(c: &Counts) -> Vec<Tile> {
    (0..FACES)
        .filter_map(|f| Tile::from_index(f).map(|t| (t, c[f])))
        .flat_map(|(t, n)| std::iter::repeat_n(t, usize::from(n)))
        .collect()
}

/// The tiles moved fewest: per set after, the set before it pairs with. `after`'s kept sets
/// pair with the set they keep (when it is the same tiles), other identical sets with each
/// other, the rest by [`assign`].
fn pair(before: &[Counts], after: &[Counts], kept: &[Option<usize>]) -> Vec<Option<usize>> {
    let mut homes: Vec<Option<usize>> = vec![None; after.len()];
    let mut taken = vec![false; before.len()];
    for (j, &k) in kept.iter().enumerate() {
        if let Some(i) = k.filter(|&i| i < before.len() && !taken[i] && before[i] == after[j]) {
            homes[j] = Some(i);
            taken[i] = true;
        }
    }
    for j in 0..after.len() {
        if homes[j].is_some() {
            continue;
        }
        if let Some(i) = (0..before.len()).find(|&i| !taken[i] && before[i] == after[j]) {
            homes[j] = Some(i);
            taken[i] = true;
        }
    }
    let rows: Vec<usize> = (0..before.len()).filter(|&i| !taken[i]).collect();
    let cols: Vec<usize> = (0..after.len()).filter(|&j| homes[j].is_none()).collect();
    let weights: Vec<Vec<i64>> = rows
        .iter()
        .map(|&i| {
            cols.iter()
                .map(|&j| i64::from(shared(&before[i], &after[j])))
                .collect()
        })
        .collect();
    for (r, c) in assign(&weights).into_iter().enumerate() {
        if let Some(c) = c {
            homes[cols[c]] = Some(rows[r]);
        }
    }
    homes
}

/// The most tiles that stay in place from the sets `before` to the sets `after` (tile counts
/// per face), over every pairing (see [`assign`]).
pub(super) fn most_in_place(before: &[Counts], after: &[Counts]) -> u32 {
    let weights: Vec<Vec<i64>> = before
        .iter()
        .map(|b| after.iter().map(|a| i64::from(shared(b, a))).collect())
        .collect();
    assign(&weights)
        .into_iter()
        .enumerate()
        .filter_map(|(i, j)| j.map(|j| shared(&before[i], &after[j])))
        .sum()
}

/// A maximum-weight assignment of rows to columns (weights at least 0, not every row need be
/// assigned): per row its column, `None` where the best leaves it out (weight 0). The
/// Hungarian method with potentials, O(n²m), on costs `−weight` padded square with zeros.
fn assign(weights: &[Vec<i64>]) -> Vec<Option<usize>> {
    let n = weights.len();
    let cols = weights.first().map_or(0, Vec::len);
    let m = cols.max(n);
    if n == 0 {
        return Vec::new();
    }
    let cost = |i: usize, j: usize| -> i64 { if j <= cols { -weights[i - 1][j - 1] } else { 0 } };
    const INF: i64 = i64::MAX / 4;
    let mut u = vec![0i64; n + 1];
    let mut v = vec![0i64; m + 1];
    // p[j]: the row holding column j (1-based; 0 for none); way[j]: the column before j on the
    // path being grown.
    let mut p = vec![0usize; m + 1];
    let mut way = vec![0usize; m + 1];
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0;
        let mut minv = vec![INF; m + 1];
        let mut used = vec![false; m + 1];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = INF;
            let mut j1 = 0;
            for j in 1..=m {
                if !used[j] {
                    let cur = cost(i0, j) - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=m {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    let mut out = vec![None; n];
    for j in 1..=cols {
        let i = p[j];
        if i != 0 && weights[i - 1][j - 1] > 0 {
            out[i - 1] = Some(j - 1);
        }
    }
    out
}

/// The tiles a joker of `set` could be replaced by so that it is freed: in a run the tile it
/// stands for, in a group any tile of the group's number in a colour the group lacks.
fn frees(set: &SetInput) -> Vec<Tile> {
    let Ok(reading) = read_set(set) else {
        return Vec::new();
    };
    match reading.kind {
        Kind::Run => reading.joker_values(&set.tiles).collect(),
        Kind::Group => {
            let number = set.tiles.iter().find_map(|t| t.number());
            let colours: Vec<_> = set.tiles.iter().filter_map(|t| t.color()).collect();
            crate::tile::Color::ALL
                .into_iter()
                .filter(|c| !colours.contains(c))
                .filter_map(|c| number.and_then(|n| Tile::numbered(c, n)))
                .collect()
        }
    }
}

/// Tiles moving from one place to one set after, before they are ordered into steps.
#[derive(Clone, Debug)]
struct Flow {
    from: Source,
    /// The set after.
    to: usize,
    tiles: Counts,
}

/// The steps from `before` to `after` (a play's new table), fewest tiles moved; `None` when
/// `after` lacks a tile `before` holds (that is not a play).
///
/// # Example
/// ```
/// use rummikub_companion::play::{best_play, PlayOptions};
/// use rummikub_companion::play::moves::{plan, Source, StepKind, Target};
/// use rummikub_companion::tile::{parse_rack, parse_sets};
/// let table = parse_sets("R5 J R7").unwrap();
/// let rack = parse_rack("R6 B9 K9").unwrap();
/// let play = best_play(&table, &rack, &PlayOptions::default()).unwrap();
/// let plan = plan(&table, &play.table).unwrap();
/// // R6 in the joker's place, the freed joker out to a new set, B9 K9 with it.
/// assert_eq!(plan.steps.len(), 3);
/// assert_eq!(plan.steps[0].kind, StepKind::Swap);
/// assert_eq!((plan.steps[0].from, plan.steps[0].to), (Source::Rack, Target::Set(0)));
/// assert_eq!((plan.steps[1].from, plan.steps[1].to), (Source::Set(0), Target::New));
/// assert_eq!((plan.steps[2].from, plan.steps[2].to), (Source::Rack, Target::Set(1)));
/// assert_eq!(plan.moves(), 4);
/// ```
pub fn plan(before: &[SetInput], after: &[TableSet]) -> Option<Plan> {
    let b: Vec<Counts> = before.iter().map(|s| counts(&s.tiles)).collect();
    let a: Vec<Counts> = after.iter().map(|s| counts(&s.input.tiles)).collect();
    let mut laid = [0u8; FACES];
    for f in 0..FACES {
        let had: u32 = b.iter().map(|c| u32::from(c[f])).sum();
        let has: u32 = a.iter().map(|c| u32::from(c[f])).sum();
        laid[f] = u8::try_from(has.checked_sub(had)?).ok()?;
    }
    let kept: Vec<Option<usize>> = after.iter().map(|s| s.kept).collect();
    let homes = pair(&b, &a, &kept);
    let mut partner = vec![None; before.len()];
    for (j, h) in homes.iter().enumerate() {
        if let Some(i) = *h {
            partner[i] = Some(j);
        }
    }
    // What leaves each set before, and what each set after still needs.
    let mut leave = b.clone();
    let mut need = a.clone();
    for (j, h) in homes.iter().enumerate() {
        if let Some(i) = *h {
            for f in 0..FACES {
                let stay = b[i][f].min(a[j][f]);
                leave[i][f] -= stay;
                need[j][f] -= stay;
            }
        }
    }
    let flows = transport(&leave, laid, &mut need);
    Some(order(before, &homes, &partner, flows))
}

/// Fills every set's need from the tiles leaving sets and the rack's laid tiles: the pair of
/// places that can exchange the most tiles first (ties: table before rack, lower indices), so
/// that few steps carry many tiles.
fn transport(leave: &[Counts], laid: Counts, need: &mut [Counts]) -> Vec<Flow> {
    let mut sources: Vec<(Source, Counts)> = leave
        .iter()
        .enumerate()
        .map(|(i, c)| (Source::Set(i), *c))
        .collect();
    sources.push((Source::Rack, laid));
    let mut flows: Vec<Flow> = Vec::new();
    loop {
        let mut best: Option<(u32, usize, usize)> = None;
        for (s, (_, supply)) in sources.iter().enumerate() {
            if supply.iter().all(|&n| n == 0) {
                continue;
            }
            for (j, wants) in need.iter().enumerate() {
                let n = shared(supply, wants);
                if n > 0 && best.is_none_or(|(m, _, _)| n > m) {
                    best = Some((n, s, j));
                }
            }
        }
        let Some((_, s, j)) = best else {
            break;
        };
        let mut tiles = [0u8; FACES];
        for f in 0..FACES {
            let n = sources[s].1[f].min(need[j][f]);
            tiles[f] = n;
            sources[s].1[f] -= n;
            need[j][f] -= n;
        }
        flows.push(Flow {
            from: sources[s].0,
            to: j,
            tiles,
        });
    }
    flows
}

/// One step waiting for its place in the order.
#[derive(Clone, Debug)]
struct Pending {
    from: Source,
    to: usize,
    tiles: Vec<Tile>,
    swap: bool,
}

/// Orders the flows into steps (see the module's "Order") and names them.
fn order(
    before: &[SetInput],
    homes: &[Option<usize>],
    partner: &[Option<usize>],
    flows: Vec<Flow>,
) -> Plan {
    let mut flows: Vec<Flow> = flows;
    // Joker swaps: a joker leaving a set that pairs with a set after, and coming into that set
    // after, a tile the joker stood for. Each becomes two steps of its own.
    let mut swaps: Vec<Vec<(Pending, Pending)>> = vec![Vec::new(); before.len()];
    let joker = Tile::JOKER.index();
    for (i, set) in before.iter().enumerate() {
        let Some(j) = partner[i] else {
            continue;
        };
        let mut stood_for = frees(set);
        while let Some(out) = flows
            .iter()
            .position(|f| f.from == Source::Set(i) && f.tiles[joker] > 0)
        {
            let freeing = flows.iter().enumerate().find_map(|(k, f)| {
                (f.to == j)
                    .then(|| {
                        stood_for
                            .iter()
                            .position(|t| f.tiles[t.index()] > 0)
                            .map(|x| (k, x))
                    })
                    .flatten()
            });
            let Some((k, x)) = freeing else {
                break;
            };
            let tile = stood_for.swap_remove(x);
            flows[k].tiles[tile.index()] -= 1;
            flows[out].tiles[joker] -= 1;
            swaps[i].push((
                Pending {
                    from: flows[k].from,
                    to: j,
                    tiles: vec![tile],
                    swap: true,
                },
                Pending {
                    from: Source::Set(i),
                    to: flows[out].to,
                    tiles: vec![Tile::JOKER],
                    swap: true,
                },
            ));
        }
    }
    flows.retain(|f| f.tiles.iter().any(|&n| n > 0));

    // Table to table, set by set, depth first along "sends tiles into".
    let mut sequence: Vec<Pending> = Vec::new();
    let mut visited = vec![false; before.len()];
    fn visit(
        i: usize,
        homes: &[Option<usize>],
        flows: &[Flow],
        swaps: &mut [Vec<(Pending, Pending)>],
        visited: &mut [bool],
        sequence: &mut Vec<Pending>,
    ) {
        visited[i] = true;
        let into: Vec<usize> = flows
            .iter()
            .filter(|f| f.from == Source::Set(i))
            .filter_map(|f| homes[f.to])
            .chain(
                swaps[i]
                    .iter()
                    .filter_map(|(_, out)| homes[out.to])
                    .collect::<Vec<_>>(),
            )
            .collect();
        for k in into {
            if !visited[k] {
                visit(k, homes, flows, swaps, visited, sequence);
            }
        }
        for (tile_in, joker_out) in std::mem::take(&mut swaps[i]) {
            sequence.push(tile_in);
            sequence.push(joker_out);
        }
        // To new sets first, then to sets already on the table, each in the order of the
        // table after: of a set that empties, the last of its tiles join a set on the table
        // where they can.
        let mut out: Vec<&Flow> = flows.iter().filter(|f| f.from == Source::Set(i)).collect();
        out.sort_by_key(|f| (homes[f.to].is_some(), homes[f.to], f.to));
        for f in out {
            sequence.push(Pending {
                from: f.from,
                to: f.to,
                tiles: tiles_of(&f.tiles),
                swap: false,
            });
        }
    }
    for i in 0..before.len() {
        if !visited[i] {
            visit(i, homes, &flows, &mut swaps, &mut visited, &mut sequence);
        }
    }
    // Then the rack: to sets on the table (or made by now) first, then new sets from the rack.
    let mut rack: Vec<&Flow> = flows.iter().filter(|f| f.from == Source::Rack).collect();
    let made: Vec<usize> = sequence.iter().map(|p| p.to).collect();
    rack.sort_by_key(|f| {
        let new = homes[f.to].is_none() && !made.contains(&f.to);
        (new, homes[f.to].is_none(), homes[f.to], f.to)
    });
    for f in rack {
        sequence.push(Pending {
            from: Source::Rack,
            to: f.to,
            tiles: tiles_of(&f.tiles),
            swap: false,
        });
    }
    name(before, homes, sequence)
}

/// Numbers the sets as the table stands before each step and names each step.
fn name(before: &[SetInput], homes: &[Option<usize>], sequence: Vec<Pending>) -> Plan {
    let mut layout = Layout::new(before);
    // Per set after: its index on the table once it is there.
    let mut index: Vec<Option<usize>> = homes.to_vec();
    let mut steps = Vec::with_capacity(sequence.len());
    for p in sequence {
        let to = match index[p.to] {
            Some(k) => Target::Set(k),
            None => Target::New,
        };
        let kind = if p.swap {
            StepKind::Swap
        } else {
            match (p.from, to) {
                (Source::Rack, Target::New) => StepKind::Lay,
                (Source::Rack, Target::Set(_)) => StepKind::Add,
                (Source::Set(i), to) => {
                    let now = layout.sets.get(i).map_or(&[][..], Vec::as_slice);
                    if now.len() == p.tiles.len() && matches!(to, Target::Set(_)) {
                        StepKind::Join
                    } else if to == Target::New && splits_off(now, &p.tiles) {
                        StepKind::Split
                    } else {
                        StepKind::Take
                    }
                }
            }
        };
        let step = Step {
            kind,
            tiles: p.tiles,
            from: p.from,
            to,
        };
        if let Some(k) = layout.apply(&step) {
            index[p.to] = Some(k);
        }
        steps.push(step);
    }
    Plan {
        steps,
        homes: homes.to_vec(),
    }
}

/// Whether taking `moved` off `set` (as it stands) cuts a run in two where it lies: two tiles
/// or more, numbered and consecutive, off one end of a run of one colour, and some left.
fn splits_off(set: &[Tile], moved: &[Tile]) -> bool {
    if moved.len() < 2 || moved.len() >= set.len() || moved.iter().any(|t| t.is_joker()) {
        return false;
    }
    let colour = moved[0].color();
    if set.iter().any(|t| !t.is_joker() && t.color() != colour) {
        return false;
    }
    let mut taken: Vec<u8> = moved.iter().filter_map(|t| t.number()).collect();
    taken.sort_unstable();
    if taken.windows(2).any(|w| w[1] != w[0] + 1) {
        return false;
    }
    let mut rest = set.to_vec();
    for t in moved {
        if let Some(k) = rest.iter().position(|r| r == t) {
            rest.swap_remove(k);
        }
    }
    let left: Vec<u8> = rest.iter().filter_map(|t| t.number()).collect();
    let (low, high) = (taken[0], taken[taken.len() - 1]);
    !left.is_empty() && (left.iter().all(|&n| n < low) || left.iter().all(|&n| n > high))
}

/// The table as it stands while steps are made: the sets before from 0, new sets appended,
/// emptied sets kept (empty) at their index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    sets: Vec<Vec<Tile>>,
}

impl Layout {
    /// The table before any step.
    pub fn new(before: &[SetInput]) -> Layout {
        Layout {
            sets: before.iter().map(|s| s.tiles.clone()).collect(),
        }
    }

    /// The sets as they stand (an emptied set is empty).
    pub fn sets(&self) -> &[Vec<Tile>] {
        &self.sets
    }

    /// Makes `step`: its tiles off the set it names (the rack is not tracked) and onto its
    /// target, which a new set is appended as. Returns the target's index, or `None` (the table
    /// unchanged) when the step names a set that is not there or tiles that set does not hold.
    pub fn apply(&mut self, step: &Step) -> Option<usize> {
        if let Target::Set(k) = step.to
            && k >= self.sets.len()
        {
            return None;
        }
        if let Source::Set(i) = step.from {
            let mut left = self.sets.get(i)?.clone();
            for t in &step.tiles {
                let k = left.iter().position(|x| x == t)?;
                left.remove(k);
            }
            self.sets[i] = left;
        }
        let k = match step.to {
            Target::Set(k) => k,
            Target::New => {
                self.sets.push(Vec::new());
                self.sets.len() - 1
            }
        };
        self.sets[k].extend_from_slice(&step.tiles);
        arrange(&mut self.sets[k]);
        Some(k)
    }
}

/// Puts a set's tiles in reading order: a run from its lowest number, jokers in its gaps (any
/// left over at the top end, or the bottom where the top is 13); otherwise by number and
/// colour, jokers last.
pub fn arrange(tiles: &mut Vec<Tile>) {
    let jokers = tiles.iter().filter(|t| t.is_joker()).count();
    let mut numbered: Vec<Tile> = tiles.iter().copied().filter(|t| !t.is_joker()).collect();
    numbered.sort_by_key(|t| (t.number(), t.color()));
    let colour = numbered.first().and_then(|t| t.color());
    let one_colour = numbered.iter().all(|t| t.color() == colour);
    let distinct = numbered.windows(2).all(|w| w[0].number() != w[1].number());
    if numbered.len() >= 2 && one_colour && distinct {
        let low = numbered[0].number().unwrap_or(1);
        let high = numbered[numbered.len() - 1].number().unwrap_or(1);
        let gaps = usize::from(high - low + 1) - numbered.len();
        if gaps <= jokers {
            let mut run = Vec::with_capacity(tiles.len());
            let mut next = numbered.iter().peekable();
            for n in low..=high {
                match next.peek() {
                    Some(t) if t.number() == Some(n) => {
                        run.push(**t);
                        next.next();
                    }
                    _ => run.push(Tile::JOKER),
                }
            }
            let spare = jokers - gaps;
            let above = usize::from(crate::tile::MAX_NUMBER - high).min(spare);
            run.extend(std::iter::repeat_n(Tile::JOKER, above));
            let below = std::iter::repeat_n(Tile::JOKER, spare - above);
            *tiles = below.chain(run).collect();
            return;
        }
    }
    numbered.extend(std::iter::repeat_n(Tile::JOKER, jokers));
    *tiles = numbered;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::{PlayOptions, best_play};
    use crate::tile::{parse_rack, parse_sets};

    fn steps(table: &str, rack: &str) -> Vec<(StepKind, String, Source, Target)> {
        let table = parse_sets(table).expect("table");
        let rack = parse_rack(rack).expect("rack");
        let play = best_play(&table, &rack, &PlayOptions::default()).expect("plays");
        let plan = plan(&table, &play.table).expect("a play");
        plan.steps
            .into_iter()
            .map(|s| (s.kind, crate::tile::join_tiles(&s.tiles), s.from, s.to))
            .collect()
    }

    #[test]
    fn the_hungarian_method_finds_the_heaviest_pairing() {
        // Greedy would take the 5 and be left with 1 + 1; the best is 4 + 4 + 0.
        let w = vec![vec![5, 4, 0], vec![4, 0, 0], vec![0, 0, 0]];
        assert_eq!(assign(&w), vec![Some(1), Some(0), None]);
        // More rows than columns, and more columns than rows.
        assert_eq!(assign(&[vec![1], vec![3]]), vec![None, Some(0)]);
        assert_eq!(assign(&[vec![0, 2, 7]]), vec![Some(2)]);
        assert_eq!(assign(&[]), Vec::<Option<usize>>::new());
    }

    #[test]
    fn a_tile_on_the_end_of_a_run_is_one_add() {
        assert_eq!(
            steps("R5 R6 R7 | B9 K9 O9", "R8 K2"),
            vec![(StepKind::Add, "R8".into(), Source::Rack, Target::Set(0))]
        );
    }

    #[test]
    fn a_run_split_to_take_two_tiles() {
        // R1 … R6 + R3 R4: R1 R2 R3 R4 and R3 R4 R5 R6, two of the old run's tiles move.
        let s = steps("R1 R2 R3 R4 R5 R6", "R3 R4");
        assert_eq!(s.len(), 2, "{s:?}");
        assert_eq!(s[0].0, StepKind::Split);
        assert_eq!((s[0].2, s[0].3), (Source::Set(0), Target::New));
        assert_eq!(
            (s[1].0, s[1].2, s[1].3),
            (StepKind::Add, Source::Rack, Target::Set(1))
        );
        assert_eq!(s[1].1, "R3 R4");
    }

    #[test]
    fn a_joker_swap_is_the_tile_in_then_the_joker_out() {
        // The joker stays in its run when it can: R5 R6 R7 J, one tile moved.
        assert_eq!(
            steps("R5 J R7 | B7 K7 O7", "R6"),
            vec![(StepKind::Add, "R6".into(), Source::Rack, Target::Set(0))]
        );
        // B9 K9 need it: R6 in its place, the joker out to a new set, B9 K9 with it.
        assert_eq!(
            steps("R5 J R7", "R6 B9 K9"),
            vec![
                (StepKind::Swap, "R6".into(), Source::Rack, Target::Set(0)),
                (StepKind::Swap, "J".into(), Source::Set(0), Target::New),
                (StepKind::Add, "B9 K9".into(), Source::Rack, Target::Set(1)),
            ]
        );
        // A group's joker is freed by any colour the group lacks; R1 R2 R3 stays as it was
        // (the joker starts a new set with R4 R5, set 2 once made).
        assert_eq!(
            steps("B7 K7 J | R1 R2 R3", "O7 R4 R5"),
            vec![
                (StepKind::Swap, "O7".into(), Source::Rack, Target::Set(0)),
                (StepKind::Swap, "J".into(), Source::Set(0), Target::New),
                (StepKind::Add, "R4 R5".into(), Source::Rack, Target::Set(2)),
            ]
        );
    }

    #[test]
    fn the_repro_table_takes_one_tile_then_lays_from_the_rack() {
        // O2 O3 O4 | K3 K4 K5 K6 + O5 K2 R2: O2 to a new group with K2 R2, O5 on O3 O4.
        let s = steps("O2 O3 O4 | K3 K4 K5 K6", "O5 K2 R2 K4");
        assert_eq!(s.len(), 3, "{s:?}");
        assert_eq!(
            s[0],
            (StepKind::Take, "O2".into(), Source::Set(0), Target::New)
        );
        assert!(s.contains(&(StepKind::Add, "O5".into(), Source::Rack, Target::Set(0))));
        assert!(s.contains(&(StepKind::Add, "R2 K2".into(), Source::Rack, Target::Set(2))));
    }

    #[test]
    fn what_is_left_of_a_set_joins_another() {
        // B3 B4 B5 and B6 B7 B8 become one run with B9 from the rack.
        let table = parse_sets("B3 B4 B5 | B6 B7 B8").expect("table");
        let after = vec![TableSet {
            input: parse_sets("B3 B4 B5 B6 B7 B8 B9").expect("set").remove(0),
            kind: Kind::Run,
            represented: Vec::new(),
            kept: None,
            continues: None,
        }];
        let plan = plan(&table, &after).expect("a play");
        assert_eq!(plan.moves(), 4);
        assert_eq!(plan.steps[0].kind, StepKind::Join);
        assert_eq!(plan.steps[1].kind, StepKind::Add);
        assert_eq!(plan.homes, vec![Some(0)]);
    }

    #[test]
    fn a_table_missing_a_tile_is_not_a_play() {
        let table = parse_sets("B3 B4 B5").expect("table");
        let after = vec![TableSet {
            input: parse_sets("B3 B4 B6").expect("set").remove(0),
            kind: Kind::Run,
            represented: Vec::new(),
            kept: None,
            continues: None,
        }];
        assert_eq!(plan(&table, &after), None);
    }

    #[test]
    fn runs_are_arranged_with_their_jokers_in_place() {
        let mut t = parse_rack("R7 J R5").expect("tiles");
        arrange(&mut t);
        assert_eq!(crate::tile::join_tiles(&t), "R5 J R7");
        let mut t = parse_rack("R13 J R12").expect("tiles");
        arrange(&mut t);
        assert_eq!(crate::tile::join_tiles(&t), "J R12 R13");
        let mut t = parse_rack("K7 J B7").expect("tiles");
        arrange(&mut t);
        assert_eq!(crate::tile::join_tiles(&t), "B7 K7 J");
    }
}
