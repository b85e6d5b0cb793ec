//! Charts of the race: running totals game by game on a sheet, and each player's points
//! across evenings (egui_plot). The leader's line is drawn thick so who is ahead is obvious at
//! a glance, and the colours are bright enough for the dark theme.

use egui::{Color32, Ui};
use egui_plot::{Legend, Line, Plot, PlotPoints};

/// Line colours, distinct on a dark background.
const COLORS: [Color32; 6] = [
    Color32::from_rgb(0xff, 0x70, 0x43),
    Color32::from_rgb(0x4f, 0xc3, 0xf7),
    Color32::from_rgb(0xd4, 0xe1, 0x57),
    Color32::from_rgb(0xba, 0x68, 0xc8),
    Color32::from_rgb(0x4d, 0xd0, 0xa1),
    Color32::from_rgb(0xff, 0xd5, 0x4f),
];

/// One line: a name and its points, `(x, y)`.
pub struct Series {
    /// The player.
    pub name: String,
    /// The points, in order.
    pub points: Vec<[f64; 2]>,
    /// Drawn thick: the leader.
    pub leading: bool,
}

/// Draws the series as lines, `height` points tall, with a legend; `x_label` names the axis.
pub fn lines(ui: &mut Ui, id: &str, series: Vec<Series>, height: f32, x_label: &str) {
    Plot::new(id.to_owned())
        .height(height)
        .legend(Legend::default())
        .x_axis_label(x_label.to_owned())
        .allow_scroll(false)
        .allow_drag(false)
        .allow_zoom(false)
        .show(ui, |plot| {
            for (i, s) in series.into_iter().enumerate() {
                let width = if s.leading { 4.0 } else { 1.5 };
                let line = Line::new(s.name, PlotPoints::from(s.points))
                    .color(COLORS[i % COLORS.len()])
                    .width(width);
                plot.line(line);
            }
        });
}
