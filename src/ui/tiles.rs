//! Tiles drawn like the physical ones: an ivory face with a coloured number.
//!
//! A tile is one custom widget in four steps (size, allocate, interact, paint) that reports its
//! name as the table calls it (`R7`, `J`; `빨7`, `조커` at a Korean table) through `widget_info`, so
//! tests and screen readers find it by name. A Korean table's joker reads 조커 on its face.

use egui::{Color32, CornerRadius, FontId, Response, Sense, Stroke, StrokeKind, Ui, Vec2};

use crate::i18n;
use crate::lang::Language;
use crate::tile::{Color, FACES, Tile, TileSet};

/// Ink colour of a tile's number.
pub fn ink(color: Option<Color>) -> Color32 {
    match color {
        Some(Color::Red) => Color32::from_rgb(0xd3, 0x2f, 0x2f),
        Some(Color::Blue) => Color32::from_rgb(0x19, 0x5f, 0xc8),
        Some(Color::Black) => Color32::from_rgb(0x21, 0x21, 0x21),
        Some(Color::Orange) => Color32::from_rgb(0xef, 0x7d, 0x00),
        None => Color32::from_rgb(0x8e, 0x24, 0xaa),
    }
}

/// How a tile is shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TileLook {
    /// Height in points (width is 0.72 of it).
    pub height: f32,
    /// Greyed out and not clickable.
    pub enabled: bool,
    /// A button (picker) rather than a picture (a set on the table).
    pub button: bool,
    /// For jokers: the tile it stands for, shown small under the joker mark.
    pub stands_for: Option<Tile>,
    /// The table's language: the joker reads `J` or `조커`, and a screen reader hears the tile
    /// as the table calls it (`R5`, `빨5`).
    pub lang: Language,
}

impl TileLook {
    /// A tile of the given height, enabled, named in `lang`.
    pub fn new(height: f32, lang: Language) -> Self {
        TileLook {
            height,
            enabled: true,
            button: false,
            stands_for: None,
            lang,
        }
    }
}

/// One tile; returns the response (clicked when enabled and clicked).
pub fn tile(ui: &mut Ui, tile: Tile, look: TileLook) -> Response {
    // 1. size
    let size = Vec2::new(look.height * 0.72, look.height);
    // 2. allocate
    let sense = if look.enabled && look.button {
        Sense::click()
    } else {
        Sense::hover()
    };
    let (rect, response) = ui.allocate_exact_size(size, sense);
    // 3. interact: tell tests and screen readers what this is
    let name = |t| i18n::tile(look.lang, t);
    let label = match look.stands_for {
        Some(t) => format!("{} ({})", name(tile), name(t)),
        None => name(tile),
    };
    let enabled = look.enabled;
    let role = if look.button {
        egui::Role::Button
    } else {
        egui::Role::Image
    };
    response.widget_info(|| egui::WidgetInfo::labeled(role, enabled, &label));
    // 4. paint
    if ui.is_rect_visible(rect) {
        let hovered = look.button && look.enabled && response.hovered();
        let face = if !look.enabled {
            Color32::from_gray(200)
        } else if hovered {
            Color32::from_rgb(0xff, 0xf3, 0xd6)
        } else {
            Color32::from_rgb(0xfb, 0xf6, 0xe9)
        };
        let painter = ui.painter();
        let rounding = CornerRadius::same((look.height * 0.12) as u8);
        painter.rect(
            rect.shrink(1.0),
            rounding,
            face,
            Stroke::new(1.0, Color32::from_gray(140)),
            StrokeKind::Inside,
        );
        let mut color = ink(tile.color());
        if !look.enabled {
            color = color.gamma_multiply(0.35);
        }
        let text = match tile.number() {
            Some(n) => n.to_string(),
            None => joker_mark(look.lang).to_owned(),
        };
        let main_size = look.height
            * match (tile.is_joker(), look.lang) {
                (false, _) => 0.46,
                (true, Language::English) => 0.5,
                // Two Hangul syllables on a tile 0.72 of its height wide.
                (true, Language::Korean) => 0.28,
            };
        let center = match look.stands_for {
            Some(_) => rect.center() - Vec2::new(0.0, look.height * 0.12),
            None => rect.center(),
        };
        painter.text(
            center,
            egui::Align2::CENTER_CENTER,
            text,
            FontId::proportional(main_size),
            color,
        );
        if let Some(stands_for) = look.stands_for {
            // The number in the colour's ink: reads the same in every language ("R12" is
            // the notation, not what a Korean table calls the tile).
            let number = stands_for
                .number()
                .map_or_else(String::new, |n| n.to_string());
            painter.text(
                rect.center_bottom() - Vec2::new(0.0, look.height * 0.2),
                egui::Align2::CENTER_CENTER,
                number,
                FontId::proportional(look.height * 0.22),
                ink(stands_for.color()),
            );
        }
    }
    response
}

/// What a joker's face reads at a table of `lang`: `J`, or `조커` as a Korean table calls it.
pub fn joker_mark(lang: Language) -> &'static str {
    match lang {
        Language::English => "J",
        Language::Korean => "조커",
    }
}

/// A row of tiles, jokers annotated with what they stand for. Not clickable.
pub fn tile_row(
    ui: &mut Ui,
    lang: Language,
    tiles: &[Tile],
    represented: Option<&[Tile]>,
    height: f32,
) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 3.0;
        for (i, &t) in tiles.iter().enumerate() {
            let stands_for = represented
                .and_then(|r| r.get(i).copied())
                .filter(|_| t.is_joker());
            tile(
                ui,
                t,
                TileLook {
                    stands_for,
                    ..TileLook::new(height, lang)
                },
            );
        }
    });
}

/// The picker: four rows of 13 coloured tiles and a joker. Tiles whose copies are all in use
/// (`used[face] >= copies in the tile set`) are greyed out. Returns the clicked tile.
pub fn picker(
    ui: &mut Ui,
    lang: Language,
    used: &[usize; FACES],
    tile_set: TileSet,
    height: f32,
) -> Option<Tile> {
    let mut clicked = None;
    let mut one = |ui: &mut Ui, t: Tile| {
        let look = TileLook {
            enabled: used[t.index()] < usize::from(tile_set.copies_of(t)),
            button: true,
            ..TileLook::new(height, lang)
        };
        if tile(ui, t, look).clicked() {
            clicked = Some(t);
        }
    };
    ui.vertical(|ui| {
        ui.spacing_mut().item_spacing = Vec2::new(3.0, 3.0);
        for color in Color::ALL {
            ui.horizontal(|ui| {
                for n in 1..=13 {
                    if let Some(t) = Tile::numbered(color, n) {
                        one(ui, t);
                    }
                }
                if color == Color::Red {
                    ui.add_space(height * 0.3);
                    one(ui, Tile::JOKER);
                }
            });
        }
    });
    clicked
}

/// How many of each face the tiles use.
pub fn counts(tiles: impl IntoIterator<Item = Tile>) -> [usize; FACES] {
    let mut counts = [0; FACES];
    for t in tiles {
        counts[t.index()] += 1;
    }
    counts
}
