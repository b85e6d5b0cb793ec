//! Checking a play's steps (`play::moves`) without its code: the steps replayed by hand on the
//! table before, and the fewest tiles any way from the table before to the table after can
//! move, from an assignment between the sets before and after found by trying every one
//! (a set before pairs with at most one set after; the tiles they share stay, every other
//! tile moves). Obviously correct, exponential in the sets after: only for small tables.

use rummikub_companion::play::moves::{Source, Step, StepKind, Target};
use rummikub_companion::tile::{FACES, SetInput, Tile};

type Counts = [u32; FACES];

fn counts<'a>(tiles: impl IntoIterator<Item = &'a Tile>) -> Counts {
    let mut c = [0; FACES];
    for t in tiles {
        c[t.index()] += 1;
    }
    c
}

fn shared(a: &Counts, b: &Counts) -> u32 {
    a.iter().zip(b).map(|(x, y)| *x.min(y)).sum()
}

/// Most sets after [`fewest_moves`] takes (2^n pairings of what is used).
pub const MOST_SETS_AFTER: usize = 16;

/// The fewest tile moves from `before` to `after` (every set after holding the sets before's
/// tiles and the rack tiles laid): the tiles laid, plus the table tiles that do not stay, with
/// the pairing that keeps the most in place found by trying every pairing (memoised on which
/// sets after are taken). Panics past [`MOST_SETS_AFTER`] sets after.
pub fn fewest_moves(before: &[SetInput], after: &[Vec<Tile>]) -> u32 {
    assert!(
        after.len() <= MOST_SETS_AFTER,
        "too many sets for the oracle"
    );
    let b: Vec<Counts> = before.iter().map(|s| counts(&s.tiles)).collect();
    let a: Vec<Counts> = after.iter().map(counts).collect();
    // best[mask] after the sets before seen so far: the most tiles in place with `mask` the
    // sets after taken (None: not reachable).
    let mut best: Vec<Option<u32>> = vec![None; 1 << a.len()];
    best[0] = Some(0);
    for set in &b {
        let mut next = best.clone(); // this set pairs with nothing
        for (mask, value) in best.iter().enumerate() {
            let Some(value) = *value else { continue };
            for (j, after) in a.iter().enumerate() {
                if mask & (1 << j) == 0 {
                    let m = mask | (1 << j);
                    let v = value + shared(set, after);
                    if next[m].is_none_or(|x| v > x) {
                        next[m] = Some(v);
                    }
                }
            }
        }
        best = next;
    }
    let in_place = best.iter().flatten().copied().max().unwrap_or(0);
    let tiles_after: u32 = a.iter().flatten().sum();
    tiles_after - in_place
}

/// What [`replay`] found wrong, if anything.
pub type Checked = Result<Vec<Vec<Tile>>, String>;

/// Makes `steps` on `before` by hand, as the JSON contract says: a set's index is its place as
/// the table stands before the step (the sets before from 0, new sets appended in the order
/// they are made, emptied sets keeping their index), every step moves its tiles from one place
/// to one place, the rack's tiles are `rack`'s, a tile once moved is never moved again, and the
/// kinds say what each step does. Returns the table after the last step (empty sets left out).
pub fn replay(before: &[SetInput], rack: &[Tile], steps: &[Step]) -> Checked {
    let mut sets: Vec<Vec<Tile>> = before.iter().map(|s| s.tiles.clone()).collect();
    // Per set: the tiles of it that arrived with a step (they may not move again).
    let mut arrived: Vec<Counts> = vec![[0; FACES]; sets.len()];
    let mut rack_left = counts(rack);
    let mut k = 0;
    while k < steps.len() {
        let step = &steps[k];
        if step.tiles.is_empty() {
            return Err(format!("step {k} moves nothing"));
        }
        match step.from {
            Source::Rack => {
                for t in &step.tiles {
                    let left = &mut rack_left[t.index()];
                    if *left == 0 {
                        return Err(format!("step {k}: {t} is not on the rack"));
                    }
                    *left -= 1;
                }
            }
            Source::Set(i) => {
                let Some(set) = sets.get_mut(i) else {
                    return Err(format!("step {k}: no set {i}"));
                };
                let mut have = counts(set.iter());
                for t in &step.tiles {
                    let f = t.index();
                    // Only a tile that was there before the steps may leave.
                    if have[f] <= arrived[i][f] {
                        return Err(format!(
                            "step {k}: {t} leaves set {i} twice or never was in it"
                        ));
                    }
                    have[f] -= 1;
                    let at = set.iter().position(|x| x == t).expect("counted");
                    set.remove(at);
                }
            }
        }
        let target = match step.to {
            Target::New => {
                sets.push(Vec::new());
                arrived.push([0; FACES]);
                sets.len() - 1
            }
            Target::Set(j) if j < sets.len() => j,
            Target::Set(j) => return Err(format!("step {k}: no set {j}")),
        };
        if step.from == Source::Set(target) {
            return Err(format!("step {k} moves tiles onto their own set"));
        }
        let emptied = matches!(step.from, Source::Set(i) if sets[i].is_empty());
        let kind_fits = match step.kind {
            StepKind::Lay => step.from == Source::Rack && step.to == Target::New,
            StepKind::Add => step.from == Source::Rack && step.to != Target::New,
            StepKind::Take => matches!(step.from, Source::Set(_)),
            StepKind::Split => matches!(step.from, Source::Set(_)) && step.to == Target::New,
            StepKind::Join => emptied && step.to != Target::New,
            // The tile the joker stood for in, then the joker out of that same set.
            StepKind::Swap => {
                let tile_in = step.tiles.len() == 1 && !step.tiles[0].is_joker();
                let next = steps.get(k + 1);
                tile_in
                    && next.is_some_and(|n| {
                        n.kind == StepKind::Swap
                            && n.tiles == [Tile::JOKER]
                            && Target::Set(match n.from {
                                Source::Set(i) => i,
                                Source::Rack => usize::MAX,
                            }) == step.to
                    })
            }
        };
        if !kind_fits {
            return Err(format!("step {k} is not a {:?}: {step:?}", step.kind));
        }
        for t in &step.tiles {
            sets[target].push(*t);
            arrived[target][t.index()] += 1;
        }
        // A swap's joker out is checked with its tile in.
        if step.kind == StepKind::Swap {
            let out = &steps[k + 1];
            let Source::Set(i) = out.from else {
                unreachable!("checked above")
            };
            let at = sets[i].iter().position(|t| t.is_joker());
            let original =
                counts(sets[i].iter())[Tile::JOKER.index()] > arrived[i][Tile::JOKER.index()];
            let Some(at) = at.filter(|_| original) else {
                return Err(format!("step {}: no joker of set {i} to free", k + 1));
            };
            sets[i].remove(at);
            let to = match out.to {
                Target::New => {
                    sets.push(Vec::new());
                    arrived.push([0; FACES]);
                    sets.len() - 1
                }
                Target::Set(j) if j < sets.len() && j != i => j,
                Target::Set(j) => return Err(format!("step {}: no set {j}", k + 1)),
            };
            sets[to].push(Tile::JOKER);
            arrived[to][Tile::JOKER.index()] += 1;
            k += 2;
        } else {
            k += 1;
        }
    }
    Ok(sets.into_iter().filter(|s| !s.is_empty()).collect())
}

/// Whether two tables hold the same sets, each as a multiset of tiles, in any order.
pub fn same_sets(a: &[Vec<Tile>], b: &[Vec<Tile>]) -> bool {
    let norm = |t: &[Vec<Tile>]| {
        let mut sets: Vec<Vec<Tile>> = t
            .iter()
            .map(|s| {
                let mut s = s.clone();
                s.sort();
                s
            })
            .collect();
        sets.sort();
        sets
    };
    norm(a) == norm(b)
}
