//! The sets being laid while the best sweep is replayed.

use super::SolvedSet;
use super::groups;
use super::supply::{ColourMove, Move, Supply};
use crate::tile::{Color, Kind, SetInput, Tile};

/// A run being laid during the rebuild.
pub(super) struct RunBuild {
    pub(super) color: Color,
    pub(super) start: u8,
    pub(super) tiles: Vec<Tile>,
}

impl RunBuild {
    pub(super) fn into_set(self) -> SolvedSet {
        let end = self.start + self.tiles.len() as u8 - 1;
        let represented: Vec<Tile> = (self.start..=end)
            .filter_map(|n| Tile::numbered(self.color, n))
            .collect();
        finished(Kind::Run, self.tiles, represented)
    }
}

/// A set with its reading. One numbered tile can be read either way, so it is declared.
pub(super) fn finished(kind: Kind, tiles: Vec<Tile>, represented: Vec<Tile>) -> SolvedSet {
    let numbered = tiles.iter().filter(|t| !t.is_joker()).count();
    let points = represented
        .iter()
        .filter_map(|t| t.number())
        .map(u32::from)
        .sum();
    SolvedSet {
        input: SetInput {
            declared: (numbered == 1).then_some(kind),
            tiles,
        },
        kind,
        represented,
        points,
    }
}

/// The sets laid so far during the rebuild.
#[derive(Default)]
pub(super) struct Table {
    pub(super) open: [Vec<RunBuild>; 4],
    pub(super) done: Vec<SolvedSet>,
}

impl Table {
    /// Lays the tiles of number `v` as move `m` says.
    pub(super) fn lay(&mut self, v: u8, m: &Move, supply: &Supply) {
        for (c, color) in Color::ALL.into_iter().enumerate() {
            self.lay_runs(v, color, &m.colours[c], supply.count(c, v));
        }
        let left = m.colours.map(|cm| cm.left);
        self.lay_groups(v, left, m.group_jokers, m.must_use);
    }

    pub(super) fn lay_runs(&mut self, v: u8, color: Color, m: &ColourMove, real: u8) {
        let Some(tile) = Tile::numbered(color, v) else {
            return;
        };
        let opening: u8 = m.opened.iter().sum();
        let mut reals = real - opening - m.left;
        let mut kept = 0;
        let mut still_open = Vec::new();
        for mut run in std::mem::take(&mut self.open[color.index()]) {
            if run.tiles.len() >= 3 {
                if kept == m.keep {
                    self.done.push(run.into_set());
                    continue;
                }
                kept += 1;
            }
            if reals > 0 {
                reals -= 1;
                run.tiles.push(tile);
            } else {
                run.tiles.push(Tile::JOKER);
            }
            still_open.push(run);
        }
        for (lead, &n) in m.opened.iter().enumerate() {
            for _ in 0..n {
                let mut tiles = vec![Tile::JOKER; lead];
                tiles.push(tile);
                still_open.push(RunBuild {
                    color,
                    start: v - lead as u8,
                    tiles,
                });
            }
        }
        self.open[color.index()] = still_open;
    }

    /// Forms the groups of number `v` from the real tiles `left` and `jokers` jokers.
    pub(super) fn lay_groups(&mut self, v: u8, left: [u8; 4], jokers: u8, must_use: u8) {
        for shape in groups::arrange(v, left, jokers, must_use) {
            let mut tiles = Vec::new();
            let mut missing = Vec::new();
            for (c, color) in Color::ALL.into_iter().enumerate() {
                let Some(tile) = Tile::numbered(color, v) else {
                    continue;
                };
                if shape.colours >> c & 1 == 1 {
                    tiles.push(tile);
                } else {
                    missing.push(tile);
                }
            }
            // Jokers stand for the missing colours in order, as `meld::read_set` reads them.
            let mut represented = tiles.clone();
            represented.extend(missing.into_iter().take(usize::from(shape.jokers)));
            tiles.extend(std::iter::repeat_n(Tile::JOKER, usize::from(shape.jokers)));
            self.done.push(finished(Kind::Group, tiles, represented));
        }
    }

    pub(super) fn finish(mut self) -> Vec<SolvedSet> {
        for runs in &mut self.open {
            for run in runs.drain(..) {
                self.done.push(run.into_set());
            }
        }
        self.done
    }
}
