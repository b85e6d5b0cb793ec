//! The window: egui views over the [evening](crate::evening).
//!
//! Views only draw what the evening holds and turn clicks and keys into requests; the
//! [`app::App`] applies them after the frame (evening commands through the evening's one
//! `apply`). Nothing here owns the evening, saves anything or waits for a disk; only eframe's
//! own window state (`window.ron`) is written by eframe.

pub mod app;
pub mod card;
mod chart;
mod clock;
pub mod event_card;
pub mod event_view;
mod history_view;
mod meld_view;
mod notices;
mod play_view;
pub mod season_view;
mod settings_view;
mod sheet_view;
mod table_view;
pub mod tiles;
mod timer_view;

pub use crate::evening::Settings;
pub use app::{App, AppDeps};

pub use crate::lang::HANGUL_FONT as KOREAN_FONT;

/// The app icon (`assets/icons/make_icon.sh` makes it).
pub const ICON: &[u8] = include_bytes!("../../assets/icons/rummikub-companion.png");

/// Adds the Korean font as a fallback of both font families, so Latin text keeps egui's own
/// fonts and every Hangul syllable (any player name) still renders.
pub fn install_fonts(ctx: &egui::Context) {
    use egui::epaint::text::{FontInsert, FontPriority, InsertFontFamily};
    let families = [egui::FontFamily::Proportional, egui::FontFamily::Monospace]
        .into_iter()
        .map(|family| InsertFontFamily {
            family,
            priority: FontPriority::Lowest,
        })
        .collect();
    ctx.add_font(FontInsert::new(
        "noto-sans-cjk-kr-hangul",
        egui::FontData::from_static(KOREAN_FONT),
        families,
    ));
}

/// Opens the window and runs until it is closed.
pub fn run() -> eframe::Result<()> {
    // eframe's own window state lives in the data folder too, never beside it.
    let persistence_path = crate::store::data_dir_from(std::env::var_os(crate::store::DATA_ENV))
        .ok()
        .map(|dir| dir.join("window.ron"));
    let mut viewport = egui::ViewportBuilder::default()
        .with_title("Rummikub Companion · 루미큐브 도우미")
        .with_app_id("rummikub-companion")
        .with_inner_size([960.0, 720.0])
        .with_min_inner_size([520.0, 420.0]);
    // The window icon; a broken image only costs the icon.
    if let Ok(icon) = eframe::icon_data::from_png_bytes(ICON) {
        viewport = viewport.with_icon(icon);
    }
    let options = eframe::NativeOptions {
        persistence_path,
        viewport,
        renderer: eframe::Renderer::Glow,
        ..Default::default()
    };
    eframe::run_native(
        "rummikub-companion",
        options,
        Box::new(|cc| Ok(Box::new(App::new(cc, AppDeps::real())))),
    )
}

/// The smallest size of a control the table touches (the table view's rule, for touch
/// laptops): 44 points.
pub(crate) const TOUCH: f32 = 44.0;

/// A check box whose whole row is at least [`TOUCH`] high and easy to hit: the box and its
/// label are one target.
pub(crate) fn check_box(ui: &mut egui::Ui, on: &mut bool, label: &str) -> egui::Response {
    ui.scope(|ui| {
        let spacing = ui.spacing_mut();
        spacing.interact_size.y = TOUCH;
        spacing.icon_width = 22.0;
        spacing.icon_width_inner = 12.0;
        ui.checkbox(on, label)
    })
    .inner
}

/// Full-width (전각) letters, digits and spaces a Korean IME types (`Ｒ１２`) written as the
/// ASCII they are read as, in a notation field as it is typed: the window's fonts have no
/// full-width glyphs (they were drawn as boxes), and one character stays one character, so
/// the cursor keeps its place.
pub(crate) fn fold_full_width(text: &mut String) {
    if let std::borrow::Cow::Owned(folded) = crate::tile::normalize_width(text) {
        *text = folded;
    }
}

/// Signed points as on a paper sheet, with a typographic minus: `+24`, `−5`, `0`.
pub(crate) fn signed(n: i64) -> String {
    crate::score::table::signed(n).replace('-', "−")
}

/// Writes an RGBA image (a window screenshot) as a PNG file.
pub fn save_png(path: &std::path::Path, image: &egui::ColorImage) -> std::io::Result<()> {
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    write_png(file, image)
}

/// An RGBA image as the bytes of a PNG file.
pub fn png_bytes(image: &egui::ColorImage) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    write_png(&mut bytes, image)?;
    Ok(bytes)
}

fn write_png(file: impl std::io::Write, image: &egui::ColorImage) -> std::io::Result<()> {
    let [w, h] = image.size;
    let mut encoder = png::Encoder::new(file, w as u32, h as u32);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let bytes: Vec<u8> = image.pixels.iter().flat_map(|p| p.to_array()).collect();
    encoder
        .write_header()
        .and_then(|mut writer| writer.write_image_data(&bytes))
        .map_err(std::io::Error::other)
}
