//! Brute force for checking the table solver (`play`): every sub-multiset of table + rack that
//! is a valid set ([`super::oracle::set_value`], straight from the rules), then every
//! collection of them that lays every table tile, scored as `play` scores it. "Kept" here is
//! the most table sets found again as the same multiset of tiles. Obviously correct, slow:
//! only for small cases.

use std::collections::HashMap;

use rummikub_companion::play::By;
use rummikub_companion::tile::{FACES, SetInput, Tile};

use super::oracle::set_value;

/// The oracle's best: (rack tiles laid, their value, table sets kept, the fewest tiles its
/// table moves), compared on the score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Best {
    pub tiles: u32,
    pub points: u32,
    pub kept: u32,
    pub moves: u32,
}

impl Best {
    /// What `by` ranks, most important first, each to be as large as can be: by tiles the
    /// tiles, the sets kept, the points; by points the points, the sets kept (ties past those
    /// may go either way).
    pub fn rank(&self, by: By) -> Vec<u32> {
        match by {
            By::Tiles => vec![self.tiles, self.kept, self.points],
            By::Points => vec![self.points, self.kept],
        }
    }

    /// By tiles, the whole order `play` ranks by: the tiles, the sets kept, the fewest moves,
    /// the points.
    pub fn rank_with_moves(&self) -> Vec<u32> {
        vec![self.tiles, self.kept, u32::MAX - self.moves, self.points]
    }
}

fn counts(tiles: &[Tile]) -> [u8; FACES] {
    let mut c = [0u8; FACES];
    for t in tiles {
        c[t.index()] += 1;
    }
    c
}

/// The tiles counted per face in `c`, in face order.
fn tiles_of(c: &[u8; FACES]) -> Vec<Tile> {
    (0..FACES)
        .flat_map(|f| std::iter::repeat_n(Tile::from_index(f).expect("face"), usize::from(c[f])))
        .collect()
}

/// Every sub-multiset of `pool` (3..=13 tiles) that some reading makes a valid set.
fn candidates(pool: &[u8; FACES]) -> Vec<[u8; FACES]> {
    let faces: Vec<usize> = (0..FACES).filter(|&f| pool[f] > 0).collect();
    let mut out = Vec::new();
    let mut take = [0u8; FACES];
    fn walk(
        i: usize,
        faces: &[usize],
        pool: &[u8; FACES],
        take: &mut [u8; FACES],
        size: usize,
        out: &mut Vec<[u8; FACES]>,
    ) {
        if size > 13 {
            return;
        }
        if i == faces.len() {
            if size >= 3 && set_value(&tiles_of(take)).is_some() {
                out.push(*take);
            }
            return;
        }
        let f = faces[i];
        for n in 0..=pool[f] {
            take[f] = n;
            walk(i + 1, faces, pool, take, size + usize::from(n), out);
        }
        take[f] = 0;
    }
    walk(0, &faces, pool, &mut take, 0, &mut out);
    out
}

struct Search<'a> {
    cands: &'a [[u8; FACES]],
    need: [u8; FACES],
    originals: HashMap<[u8; FACES], u32>,
    by: By,
    /// Ranked by [`Best::rank_with_moves`] (by tiles) rather than [`Best::rank`].
    with_moves: bool,
    table: &'a [SetInput],
    joker_value: u32,
    best: Option<(Vec<u32>, Best)>,
}

impl Search<'_> {
    fn evaluate(&mut self, placed: &[u8; FACES], chosen: &[usize]) {
        let mut tiles = 0;
        let mut points = 0;
        for (f, (&p, &n)) in placed.iter().zip(&self.need).enumerate() {
            let extra = u32::from(p - n);
            tiles += extra;
            let value = Tile::from_index(f)
                .and_then(Tile::number)
                .map_or(self.joker_value, u32::from);
            points += extra * value;
        }
        let mut seen: HashMap<[u8; FACES], u32> = HashMap::new();
        for &c in chosen {
            *seen.entry(self.cands[c]).or_default() += 1;
        }
        let kept = self
            .originals
            .iter()
            .map(|(k, &n)| n.min(seen.get(k).copied().unwrap_or(0)))
            .sum();
        let moves = if self.with_moves {
            let after: Vec<Vec<Tile>> = chosen.iter().map(|&c| tiles_of(&self.cands[c])).collect();
            super::moves_oracle::fewest_moves(self.table, &after)
        } else {
            0
        };
        // Compared as lists (no packed number), whatever a joker is worth.
        let best = Best {
            tiles,
            points,
            kept,
            moves,
        };
        let score = if self.with_moves {
            best.rank_with_moves()
        } else {
            best.rank(self.by)
        };
        if self.best.as_ref().is_none_or(|(s, _)| score > *s) {
            self.best = Some((score, best));
        }
    }

    fn go(
        &mut self,
        left: &mut [u8; FACES],
        placed: &mut [u8; FACES],
        chosen: &mut Vec<usize>,
        from: usize,
    ) {
        let unmet = (0..FACES).find(|&f| placed[f] < self.need[f]);
        let range: Vec<usize> = match unmet {
            Some(f) => (0..self.cands.len())
                .filter(|&c| self.cands[c][f] > 0)
                .collect(),
            None => {
                self.evaluate(placed, chosen);
                (from..self.cands.len()).collect()
            }
        };
        for c in range {
            let cand = self.cands[c];
            if (0..FACES).any(|f| cand[f] > left[f]) {
                continue;
            }
            for f in 0..FACES {
                left[f] -= cand[f];
                placed[f] += cand[f];
            }
            chosen.push(c);
            let next_from = if unmet.is_some() { from } else { c };
            self.go(left, placed, chosen, next_from);
            chosen.pop();
            for f in 0..FACES {
                left[f] += cand[f];
                placed[f] -= cand[f];
            }
        }
    }
}

/// The best play by brute force; `None` when the table tiles cannot all be laid.
pub fn best(table: &[SetInput], rack: &[Tile], by: By, joker_value: u32) -> Option<Best> {
    search(table, rack, by, joker_value, false)
}

/// By tiles, the best play by brute force in the whole order `play` ranks by (see
/// [`Best::rank_with_moves`]), its moves the fewest its table takes.
pub fn best_with_moves(table: &[SetInput], rack: &[Tile], joker_value: u32) -> Option<Best> {
    search(table, rack, By::Tiles, joker_value, true)
}

fn search(
    table: &[SetInput],
    rack: &[Tile],
    by: By,
    joker_value: u32,
    with_moves: bool,
) -> Option<Best> {
    let table_tiles: Vec<Tile> = table.iter().flat_map(|s| s.tiles.iter().copied()).collect();
    let need = counts(&table_tiles);
    let mut pool = need;
    for t in rack {
        pool[t.index()] += 1;
    }
    let cands = candidates(&pool);
    let mut originals = HashMap::new();
    for s in table {
        *originals.entry(counts(&s.tiles)).or_default() += 1;
    }
    let mut search = Search {
        cands: &cands,
        need,
        originals,
        by,
        with_moves,
        table,
        joker_value,
        best: None,
    };
    let mut left = pool;
    let mut placed = [0u8; FACES];
    search.go(&mut left, &mut placed, &mut Vec::new(), 0);
    search.best.map(|(_, b)| b)
}

/// The fewest tiles any table moves (see [`super::moves_oracle::fewest_moves`]) that lays
/// every tile of `table` and exactly the rack tiles `placed` in valid sets, `kept` of its sets
/// the table's sets as they were (as multisets), every such table tried; `None` when there is
/// none.
pub fn fewest_moves_laying(table: &[SetInput], placed: &[Tile], kept: usize) -> Option<u32> {
    fn cover(
        cands: &[[u8; FACES]],
        left: &mut [u8; FACES],
        chosen: &mut Vec<usize>,
        out: &mut dyn FnMut(&[usize]),
    ) {
        let Some(f) = (0..FACES).find(|&f| left[f] > 0) else {
            out(chosen);
            return;
        };
        for (c, cand) in cands.iter().enumerate() {
            if cand[f] == 0 || (0..FACES).any(|g| cand[g] > left[g]) {
                continue;
            }
            for g in 0..FACES {
                left[g] -= cand[g];
            }
            chosen.push(c);
            cover(cands, left, chosen, out);
            chosen.pop();
            for g in 0..FACES {
                left[g] += cand[g];
            }
        }
    }
    let tiles: Vec<Tile> = table
        .iter()
        .flat_map(|s| s.tiles.iter().copied())
        .chain(placed.iter().copied())
        .collect();
    let mut left = counts(&tiles);
    let cands = candidates(&left);
    let mut originals: HashMap<[u8; FACES], usize> = HashMap::new();
    for s in table {
        *originals.entry(counts(&s.tiles)).or_default() += 1;
    }
    let mut fewest = None;
    cover(&cands, &mut left, &mut Vec::new(), &mut |chosen| {
        let mut seen: HashMap<[u8; FACES], usize> = HashMap::new();
        for &c in chosen {
            *seen.entry(cands[c]).or_default() += 1;
        }
        let same: usize = originals
            .iter()
            .map(|(k, &n)| n.min(seen.get(k).copied().unwrap_or(0)))
            .sum();
        if same != kept {
            return;
        }
        let after: Vec<Vec<Tile>> = chosen.iter().map(|&c| tiles_of(&cands[c])).collect();
        let moves = super::moves_oracle::fewest_moves(table, &after);
        if fewest.is_none_or(|m| moves < m) {
            fewest = Some(moves);
        }
    });
    fewest
}
