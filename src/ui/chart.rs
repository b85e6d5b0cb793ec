//! Charts of the race: running totals game by game on a sheet, and each player's points
//! across evenings (egui_plot). The leader's line is drawn thick so who is ahead is obvious at
//! a glance, and the colours are bright enough for the dark theme.

use egui::{Color32, Ui};
use egui_plot::{Corner, GridInput, GridMark, Legend, Line, Plot, PlotPoints, uniform_grid_spacer};

/// Line colours, distinct on a dark background.
const COLORS: [Color32; 6] = [
    Color32::from_rgb(0xff, 0x70, 0x43),
    Color32::from_rgb(0x4f, 0xc3, 0xf7),
    Color32::from_rgb(0xd4, 0xe1, 0x57),
    Color32::from_rgb(0xba, 0x68, 0xc8),
    Color32::from_rgb(0x4d, 0xd0, 0xa1),
    Color32::from_rgb(0xff, 0xd5, 0x4f),
];

/// Line colours, distinct on a white background (the exported score card).
pub const ON_WHITE: [Color32; 6] = [
    Color32::from_rgb(0xd8, 0x43, 0x15),
    Color32::from_rgb(0x02, 0x77, 0xbd),
    Color32::from_rgb(0x55, 0x8b, 0x2f),
    Color32::from_rgb(0x8e, 0x24, 0xaa),
    Color32::from_rgb(0x00, 0x89, 0x7b),
    Color32::from_rgb(0xef, 0x6c, 0x00),
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
    lines_in(ui, id, series, height, x_label, &COLORS, 10);
}

/// [`lines`] in the given colours (one per seat, repeated if fewer), the points marked at the
/// powers of `y_base` (10: 1, 10, 100, …; a picture, which has no hover to read a value by,
/// takes 5 so that a range of a hundred or so keeps labels).
pub fn lines_in(
    ui: &mut Ui,
    id: &str,
    series: Vec<Series>,
    height: f32,
    x_label: &str,
    colors: &[Color32],
    y_base: i64,
) {
    Plot::new(id.to_owned())
        .height(height)
        // Top left, in the order given (seats, or standings): the lines' ends, where the
        // race stands now, stay in sight on the right.
        .legend(
            Legend::default()
                .position(Corner::LeftTop)
                .follow_insertion_order(true),
        )
        .x_axis_label(x_label.to_owned())
        // Games and evenings are whole numbers: no "game 0.3" on the axis.
        .x_grid_spacer(uniform_grid_spacer(whole_steps))
        .x_axis_formatter(|mark: GridMark, _| whole_label(mark.value))
        .y_grid_spacer(egui_plot::log_grid_spacer(y_base))
        .allow_scroll(false)
        .allow_drag(false)
        .allow_zoom(false)
        .show(ui, |plot| {
            for (i, s) in series.into_iter().enumerate() {
                let width = if s.leading { 4.0 } else { 1.5 };
                let line = Line::new(s.name, PlotPoints::from(s.points))
                    .color(
                        colors
                            .get(i % colors.len().max(1))
                            .copied()
                            .unwrap_or(Color32::GRAY),
                    )
                    .width(width);
                plot.line(line);
            }
        });
}

/// Grid steps for a count: powers of ten, never below one.
fn whole_steps(input: GridInput) -> [f64; 3] {
    let step = 10f64.powf(input.base_step_size.max(1.0).log10().ceil());
    [step, step * 10.0, step * 100.0]
}

/// The label of a mark on a count axis: whole numbers only.
fn whole_label(value: f64) -> String {
    if value.fract() == 0.0 && value >= 0.0 {
        format!("{value:.0}")
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_axis_has_whole_steps_and_whole_labels() {
        let input = |base| GridInput {
            bounds: (0.0, 1.0),
            base_step_size: base,
        };
        assert_eq!(whole_steps(input(0.01)), [1.0, 10.0, 100.0]);
        assert_eq!(whole_steps(input(3.0)), [10.0, 100.0, 1000.0]);
        assert_eq!(whole_label(3.0), "3");
        assert_eq!(whole_label(0.5), "");
        assert_eq!(whole_label(-1.0), "");
    }
}
