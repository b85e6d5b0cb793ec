//! The exported picture: a score card of the open sheet, drawn with egui on a context of its
//! own (never the window's, so no button, no notice and no path can be in it) and painted into
//! an image by a small software rasteriser of egui's triangles. Its size follows the sheet
//! only: a fixed logical width (wider, in columns of games, for long sheets), as tall as its
//! content, whatever the window's size — and it needs no GPU, so it works wherever the app runs.
//!
//! The card: title, the sheet's name and date, the rules, the players, every game's points (the
//! winner's in green, as on the sheet), totals, wins, ranks, winner (or leader) under both
//! rules, how the match stands, and the running-total chart.

use std::collections::HashMap;

use chrono::{DateTime, Local, Utc};
use egui::epaint::{ClippedPrimitive, Primitive};
use egui::{Color32, RichText, TextureId, Ui};

use super::signed;
use crate::i18n;
use crate::lang::Language;
use crate::score::Sheet;

/// The card's width in points for a short sheet.
pub const CARD_WIDTH: f32 = 760.0;
/// Pixels per point, unless the card would be larger than [`PIXEL_BUDGET`].
const SCALE: f32 = 2.0;
/// The most pixels a card is painted with (a long sheet gets a lower scale, never below 1).
const PIXEL_BUDGET: f32 = 24_000_000.0;
/// Games per column before the games go into a second column (at most [`MAX_COLUMNS`]).
const GAMES_PER_COLUMN: usize = 60;
const MAX_COLUMNS: usize = 4;
pub(crate) const MARGIN: f32 = 28.0;
const COLUMN_GAP: f32 = 28.0;
const LABEL_W: f32 = 150.0;
const PLAYER_W: f32 = 84.0;
const ROW_H: f32 = 22.0;
const GREEN: Color32 = Color32::from_rgb(0x2e, 0x7d, 0x32);
pub(crate) const PAPER: Color32 = Color32::WHITE;
const RULE: Color32 = Color32::from_rgb(0xcf, 0xd8, 0xdc);

/// What the card says besides the sheet: its name and when it was made.
pub struct CardInfo<'a> {
    /// The sheet's name (its id).
    pub name: &'a str,
    /// When the picture was made.
    pub made: DateTime<Utc>,
}

pub(crate) fn local(t: DateTime<Utc>) -> String {
    t.with_timezone(&Local).format("%Y-%m-%d %H:%M").to_string()
}

/// How the games are laid out: in `columns` columns of `rows` games each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    columns: usize,
    rows: usize,
}

impl Layout {
    fn of(games: usize) -> Layout {
        let columns = games.div_ceil(GAMES_PER_COLUMN).clamp(1, MAX_COLUMNS);
        Layout {
            columns,
            rows: games.div_ceil(columns).max(1),
        }
    }

    /// The card's width in points for `players` players.
    fn width(self, players: usize) -> f32 {
        let column = LABEL_W + players as f32 * PLAYER_W;
        let games = self.columns as f32 * column + (self.columns - 1) as f32 * COLUMN_GAP;
        games.max(CARD_WIDTH - 2.0 * MARGIN) + 2.0 * MARGIN
    }
}

/// A drawn card: its image and every text on it (for checks that it is complete).
pub struct Card {
    /// The picture (RGBA, premultiplied, opaque).
    pub image: egui::ColorImage,
    /// Each text drawn wholly inside the picture, in drawing order.
    pub texts: Vec<String>,
}

/// Draws the score card of `sheet` into an image (RGBA, premultiplied, opaque).
pub fn render(sheet: &Sheet, lang: Language, info: &CardInfo<'_>) -> egui::ColorImage {
    draw(sheet, lang, info).image
}

/// Draws the score card of `sheet`: the image and the texts on it.
pub fn draw(sheet: &Sheet, lang: Language, info: &CardInfo<'_>) -> Card {
    let layout = Layout::of(sheet.games().len());
    let width = layout.width(sheet.players().len());
    draw_page(width, &|ui| card_ui(ui, sheet, lang, info, layout))
}

/// Draws a page `width` points wide, as tall as `content` says it is (the bottom of what it
/// drew, in points), off the window: its own context, light colours, the software painter.
pub(crate) fn draw_page(width: f32, content: &dyn Fn(&mut Ui) -> f32) -> Card {
    let ctx = egui::Context::default();
    super::install_fonts(&ctx);
    ctx.set_visuals(egui::Visuals::light());
    ctx.options_mut(|o| o.max_passes = std::num::NonZeroUsize::MIN.saturating_add(2));
    let mut textures = Textures::default();
    // First at one pixel a point, as tall as anything could be, to learn the card's height.
    let mut height = 0.0_f32;
    for _ in 0..2 {
        let mut output = ctx.run_ui(input(width, 1_000_000.0, 1.0), |ui| {
            height = content(ui);
        });
        textures.apply(&mut output.textures_delta);
    }
    let height = (height + MARGIN).ceil().max(1.0);
    let scale = (PIXEL_BUDGET / (width * height)).sqrt().clamp(1.0, SCALE);
    let mut output = None;
    for _ in 0..2 {
        let mut out = ctx.run_ui(input(width, height, scale), |ui| {
            content(ui);
        });
        textures.apply(&mut out.textures_delta);
        output = Some(out);
    }
    let size = [
        (width * scale).round() as usize,
        (height * scale).round() as usize,
    ];
    let Some(output) = output else {
        return Card {
            image: egui::ColorImage::filled(size, PAPER),
            texts: Vec::new(),
        };
    };
    let bounds = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(width, height));
    let mut texts = Vec::new();
    for clipped in &output.shapes {
        collect_texts(
            &clipped.shape,
            clipped.clip_rect.intersect(bounds),
            &mut texts,
        );
    }
    let primitives = ctx.tessellate(output.shapes, output.pixels_per_point);
    Card {
        image: paint(&primitives, &textures, output.pixels_per_point, size),
        texts,
    }
}

/// The texts of `shape` that are wholly inside `visible`.
fn collect_texts(shape: &egui::Shape, visible: egui::Rect, texts: &mut Vec<String>) {
    match shape {
        egui::Shape::Text(text) => {
            let rect = text.visual_bounding_rect();
            if !text.galley.text().trim().is_empty() && visible.expand(0.5).contains_rect(rect) {
                texts.push(text.galley.text().to_owned());
            }
        }
        egui::Shape::Vec(shapes) => {
            for shape in shapes {
                collect_texts(shape, visible, texts);
            }
        }
        _ => {}
    }
}

fn input(width: f32, height: f32, scale: f32) -> egui::RawInput {
    let mut input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(width, height),
        )),
        max_texture_side: Some(8192),
        ..Default::default()
    };
    if let Some(viewport) = input.viewports.get_mut(&egui::ViewportId::ROOT) {
        viewport.native_pixels_per_point = Some(scale);
    } else {
        input.viewports.insert(
            egui::ViewportId::ROOT,
            egui::ViewportInfo {
                native_pixels_per_point: Some(scale),
                ..Default::default()
            },
        );
    }
    input
}

/// The card's content; returns the bottom of what it drew (points).
fn card_ui(ui: &mut Ui, sheet: &Sheet, lang: Language, info: &CardInfo<'_>, layout: Layout) -> f32 {
    let s = lang.strings();
    let rect = ui.max_rect();
    ui.painter().rect_filled(rect, 0.0, PAPER);
    let inner = rect.shrink(MARGIN);
    let mut content = ui.new_child(
        egui::UiBuilder::new()
            .max_rect(inner)
            .layout(egui::Layout::top_down(egui::Align::Min)),
    );
    let ui = &mut content;
    ui.label(
        RichText::new(i18n::card::TITLE.get(lang))
            .size(28.0)
            .strong(),
    );
    ui.label(RichText::new(i18n::card::sheet_line(
        lang,
        info.name,
        &local(sheet.created()),
        sheet.games().len(),
    )));
    ui.label(RichText::new(i18n::rules_line(lang, sheet.rules())).weak());
    ui.add_space(10.0);
    let names = sheet.players().names();
    if sheet.games().is_empty() {
        header_row(ui, names);
        ui.label(s.sheet.no_games_yet);
    } else {
        ui.horizontal_top(|ui| {
            ui.spacing_mut().item_spacing.x = COLUMN_GAP;
            for column in 0..layout.columns {
                let first = column * layout.rows;
                let last = (first + layout.rows).min(sheet.games().len());
                if first >= last {
                    break;
                }
                ui.vertical(|ui| {
                    ui.spacing_mut().item_spacing.x = 0.0;
                    header_row(ui, names);
                    for i in first..last {
                        game_row(ui, lang, sheet, i);
                    }
                });
            }
        });
    }
    ui.add_space(6.0);
    let standings = sheet.standings();
    let width = LABEL_W + names.len() as f32 * PLAYER_W;
    let (line, _) = ui.allocate_exact_size(egui::vec2(width, 2.0), egui::Sense::hover());
    ui.painter().hline(
        line.x_range(),
        line.center().y,
        egui::Stroke::new(1.5, Color32::DARK_GRAY),
    );
    let rank = standings.ranks(sheet.rules().final_rule).to_vec();
    let rows: [(&str, Vec<String>, bool); 3] = [
        (
            s.sheet.totals,
            standings.totals.iter().map(|t| signed(*t)).collect(),
            true,
        ),
        (
            s.sheet.wins,
            standings.wins.iter().map(ToString::to_string).collect(),
            false,
        ),
        (
            s.sheet.rank,
            rank.iter().map(ToString::to_string).collect(),
            true,
        ),
    ];
    for (label, cells, strong) in rows {
        row(ui, |ui| {
            cell(ui, LABEL_W, RichText::new(label).strong());
            for text in cells {
                let text = RichText::new(text).size(17.0);
                cell(ui, PLAYER_W, if strong { text.strong() } else { text });
            }
        });
    }
    ui.add_space(8.0);
    super::sheet_view::result_lines(ui, lang, sheet);
    super::sheet_view::match_ui(ui, lang, sheet);
    if !sheet.games().is_empty() {
        ui.add_space(12.0);
        ui.label(
            RichText::new(i18n::card::RUNNING_TOTALS.get(lang))
                .strong()
                .size(17.0),
        );
        let series = super::sheet_view::running_totals(sheet);
        super::chart::lines_in(
            ui,
            "card-running-totals",
            series,
            260.0,
            s.results.games_axis,
            &super::chart::ON_WHITE,
            5,
        );
    }
    ui.add_space(10.0);
    ui.label(RichText::new(i18n::card::footer(lang, &local(info.made))).weak());
    ui.min_rect().bottom()
}

pub(crate) fn row(ui: &mut Ui, f: impl FnOnce(&mut Ui)) {
    ui.allocate_ui_with_layout(
        egui::vec2(ui.available_width(), ROW_H),
        egui::Layout::left_to_right(egui::Align::Center),
        |ui| {
            ui.spacing_mut().item_spacing.x = 0.0;
            ui.set_min_height(ROW_H);
            f(ui);
        },
    );
}

pub(crate) fn cell(ui: &mut Ui, width: f32, text: RichText) {
    ui.allocate_ui_with_layout(
        egui::vec2(width, ROW_H),
        egui::Layout::left_to_right(egui::Align::Center),
        |ui| {
            ui.set_min_width(width);
            ui.set_max_width(width);
            ui.add(egui::Label::new(text).truncate());
        },
    );
}

fn header_row(ui: &mut Ui, names: &[String]) {
    row(ui, |ui| {
        cell(ui, LABEL_W, RichText::new(""));
        for name in names {
            cell(ui, PLAYER_W, RichText::new(name).strong().size(17.0));
        }
    });
}

/// One game: its label, then each player's points, the winner's in green; a thin rule above a
/// round's first game.
fn game_row(ui: &mut Ui, lang: Language, sheet: &Sheet, i: usize) {
    let s = lang.strings();
    let Some(score) = sheet.scores().get(i) else {
        return;
    };
    let number = sheet.number(i);
    let top = ui.cursor().top();
    row(ui, |ui| {
        cell(
            ui,
            LABEL_W,
            RichText::new((s.sheet.game_label)(number.round, number.in_round)).weak(),
        );
        for (seat, points) in score.points.iter().enumerate() {
            let text = RichText::new(signed(*points)).size(16.0);
            let text = if seat == score.winner {
                text.strong().color(GREEN)
            } else {
                text
            };
            cell(ui, PLAYER_W, text);
        }
    });
    if number.in_round == 1 && i > 0 {
        let left = ui.min_rect().left();
        let width = LABEL_W + score.points.len() as f32 * PLAYER_W;
        ui.painter().hline(
            left..=left + width,
            top - ui.spacing().item_spacing.y / 2.0,
            egui::Stroke::new(1.0, RULE),
        );
    }
}

/// The textures egui asked for (its font atlas), kept up to date from each pass's changes.
#[derive(Default)]
struct Textures {
    images: HashMap<TextureId, egui::ColorImage>,
}

impl Textures {
    /// Applies (and so empties) one pass's changes.
    fn apply(&mut self, delta: &mut egui::TexturesDelta) {
        for (id, change) in delta
            .set
            .iter()
            .flat_map(|(id, c)| c.iter().map(move |c| (id, c)))
        {
            let egui::ImageData::Color(image) = &change.image;
            match change.pos {
                None => {
                    self.images.insert(*id, (**image).clone());
                }
                Some([x0, y0]) => {
                    let Some(target) = self.images.get_mut(id) else {
                        continue;
                    };
                    let [w, h] = image.size;
                    let [tw, th] = target.size;
                    for y in 0..h.min(th.saturating_sub(y0)) {
                        for x in 0..w.min(tw.saturating_sub(x0)) {
                            target.pixels[(y0 + y) * tw + x0 + x] = image.pixels[y * w + x];
                        }
                    }
                }
            }
        }
        for id in &delta.free {
            self.images.remove(id);
        }
        delta.clear();
    }

    /// Bilinear sample at `uv` (0..1), premultiplied RGBA in 0..1; white where there is no
    /// texture.
    fn sample(&self, id: TextureId, u: f32, v: f32) -> [f32; 4] {
        let Some(image) = self.images.get(&id) else {
            return [1.0; 4];
        };
        let [w, h] = image.size;
        if w == 0 || h == 0 {
            return [1.0; 4];
        }
        let x = (u * w as f32 - 0.5).clamp(0.0, (w - 1) as f32);
        let y = (v * h as f32 - 0.5).clamp(0.0, (h - 1) as f32);
        let (x0, y0) = (x.floor() as usize, y.floor() as usize);
        let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
        let (fx, fy) = (x - x0 as f32, y - y0 as f32);
        let px = |x: usize, y: usize| image.pixels[y * w + x].to_array();
        let (a, b, c, d) = (px(x0, y0), px(x1, y0), px(x0, y1), px(x1, y1));
        let mut out = [0.0; 4];
        for (k, o) in out.iter_mut().enumerate() {
            let top = f32::from(a[k]) * (1.0 - fx) + f32::from(b[k]) * fx;
            let bottom = f32::from(c[k]) * (1.0 - fx) + f32::from(d[k]) * fx;
            *o = (top * (1.0 - fy) + bottom * fy) / 255.0;
        }
        out
    }
}

/// Paints egui's triangles into an image the way its GPU painters do: vertex colour times
/// texture, premultiplied alpha blended in gamma space, each triangle clipped to its rectangle.
fn paint(
    primitives: &[ClippedPrimitive],
    textures: &Textures,
    scale: f32,
    size: [usize; 2],
) -> egui::ColorImage {
    let [width, height] = size;
    let mut image = egui::ColorImage::filled(size, PAPER);
    for primitive in primitives {
        let Primitive::Mesh(mesh) = &primitive.primitive else {
            continue;
        };
        let clip = primitive.clip_rect;
        let cx0 = ((clip.min.x * scale).round().max(0.0) as usize).min(width);
        let cy0 = ((clip.min.y * scale).round().max(0.0) as usize).min(height);
        let cx1 = ((clip.max.x * scale).round().max(0.0) as usize).min(width);
        let cy1 = ((clip.max.y * scale).round().max(0.0) as usize).min(height);
        for triangle in mesh.indices.chunks_exact(3) {
            let vertex = |i: u32| mesh.vertices.get(i as usize);
            let (Some(a), Some(b), Some(c)) = (
                vertex(triangle[0]),
                vertex(triangle[1]),
                vertex(triangle[2]),
            ) else {
                continue;
            };
            let (a, mut b, mut c) = (a, b, c);
            let pos = |v: &egui::epaint::Vertex| (v.pos.x * scale, v.pos.y * scale);
            let mut area = edge(pos(a), pos(b), pos(c));
            if area.abs() < 1e-9 {
                continue;
            }
            if area < 0.0 {
                std::mem::swap(&mut b, &mut c);
                area = -area;
            }
            let (pa, pb, pc) = (pos(a), pos(b), pos(c));
            let x0 = (pa.0.min(pb.0).min(pc.0).floor().max(0.0) as usize).max(cx0);
            let y0 = (pa.1.min(pb.1).min(pc.1).floor().max(0.0) as usize).max(cy0);
            let x1 = (pa.0.max(pb.0).max(pc.0).ceil().max(0.0) as usize).min(cx1);
            let y1 = (pa.1.max(pb.1).max(pc.1).ceil().max(0.0) as usize).min(cy1);
            let colors = [a.color, b.color, c.color].map(|c| c.to_array().map(f32::from));
            for y in y0..y1 {
                for x in x0..x1 {
                    let p = (x as f32 + 0.5, y as f32 + 0.5);
                    let w0 = edge(pb, pc, p);
                    let w1 = edge(pc, pa, p);
                    let w2 = edge(pa, pb, p);
                    if !(covers(w0, pb, pc) && covers(w1, pc, pa) && covers(w2, pa, pb)) {
                        continue;
                    }
                    let (l0, l1, l2) = (w0 / area, w1 / area, w2 / area);
                    let u = a.uv.x * l0 + b.uv.x * l1 + c.uv.x * l2;
                    let v = a.uv.y * l0 + b.uv.y * l1 + c.uv.y * l2;
                    let texel = textures.sample(mesh.texture_id, u, v);
                    let mut src = [0.0; 4];
                    for (k, s) in src.iter_mut().enumerate() {
                        let vc = colors[0][k] * l0 + colors[1][k] * l1 + colors[2][k] * l2;
                        *s = (vc / 255.0) * texel[k];
                    }
                    let dst = &mut image.pixels[y * width + x];
                    let d = dst.to_array();
                    let out: [u8; 4] = std::array::from_fn(|k| {
                        let value = src[k] + f32::from(d[k]) / 255.0 * (1.0 - src[3]);
                        (value.clamp(0.0, 1.0) * 255.0).round() as u8
                    });
                    *dst = Color32::from_rgba_premultiplied(out[0], out[1], out[2], out[3]);
                }
            }
        }
    }
    image
}

/// Twice the signed area of `a b p`: positive when `p` is on the inner side of `a → b`.
fn edge(a: (f32, f32), b: (f32, f32), p: (f32, f32)) -> f32 {
    (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
}

/// A pixel centre on an edge belongs to one of the two triangles sharing it (decided by the
/// edge's direction), so a seam is painted once.
fn covers(w: f32, a: (f32, f32), b: (f32, f32)) -> bool {
    w > 0.0 || (w == 0.0 && (b.1 > a.1 || (b.1 == a.1 && b.0 < a.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_sheets_go_into_columns_and_short_ones_keep_the_fixed_width() {
        assert_eq!(
            Layout::of(0),
            Layout {
                columns: 1,
                rows: 1
            }
        );
        assert_eq!(
            Layout::of(12),
            Layout {
                columns: 1,
                rows: 12
            }
        );
        assert_eq!(
            Layout::of(200),
            Layout {
                columns: 4,
                rows: 50
            }
        );
        assert_eq!(Layout::of(2000).columns, MAX_COLUMNS);
        assert_eq!(Layout::of(12).width(4), CARD_WIDTH);
        assert!(Layout::of(200).width(4) > CARD_WIDTH);
    }

    #[test]
    fn a_seam_between_two_triangles_is_painted_once() {
        // The pixel centre (0.5, 0.5) lies on the shared diagonal of a square's two halves.
        let (a, b, c, d) = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0));
        let on = |p: (f32, f32), q: (f32, f32)| covers(edge(p, q, (0.5, 0.5)), p, q);
        // The diagonal a–c, once in each direction.
        assert_ne!(on(a, c), on(c, a));
        let _ = (b, d);
    }
}
