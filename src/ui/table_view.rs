//! Table view: the whole screen for the clock, read from every seat.
//!
//! The name of the player whose turn it is is as large as the clock, the next player and the
//! penalty reminder are in large type, and the whole clock is one big target to end the turn.
//! In the face-to-face layout the screen is split: the far half is turned 180° for the players
//! across the table, and either half ends the turn. Every control is at least 44 px high, for
//! fingers on a touchscreen laptop or a tablet.

use egui::{Color32, FontId, RichText, Sense, Ui, Vec2};

use super::clock::{self, ClockSnapshot, RED};
use super::timer_view::{TableInput, TimerCommand};
use crate::lang::Language;
use crate::timer::Phase;

/// What the table view asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableCommand {
    /// A timer command (end turn, pause).
    Timer(TimerCommand),
    /// Switch the face-to-face layout on or off.
    ToggleFaceToFace,
    /// Leave the table view.
    Exit,
}

/// The smallest touch target, in points.
pub const TOUCH: f32 = 44.0;

/// Draws the table view; returns what the table asked for.
#[must_use]
pub fn ui(
    ui: &mut Ui,
    lang: Language,
    snap: &ClockSnapshot,
    input: &TableInput,
    face_to_face: bool,
) -> Vec<TableCommand> {
    let s = lang.strings();
    let mut commands = Vec::new();
    if input.pressed(egui::Key::Escape) {
        commands.push(TableCommand::Exit);
    }
    let normal = ui.visuals().strong_text_color();
    // The controls row at the bottom: pause, layout, exit.
    let controls = TOUCH + 16.0;
    let full = ui.available_rect_before_wrap();
    let clock_area =
        egui::Rect::from_min_max(full.min, egui::pos2(full.max.x, full.max.y - controls));
    let clicked = |r: &egui::Response| r.clicked() && !input.activation_click;
    if face_to_face {
        let half = clock_area.height() / 2.0;
        let far = egui::Rect::from_min_size(clock_area.min, Vec2::new(clock_area.width(), half));
        let near = far.translate(Vec2::new(0.0, half));
        for (rect, flipped, id) in [(far, true, "far"), (near, false, "near")] {
            let response = ui.interact(rect.shrink(4.0), ui.scope_id().with(id), Sense::click());
            let label = format!("{} · {}", snap.current, snap.accessible_name(lang));
            response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
            if clicked(&response) {
                commands.push(TableCommand::Timer(TimerCommand::Primary));
            }
            // Each side reads, below its clock, who is next and the penalty: "below" is the
            // screen's top edge for the side across the table. After time-up the penalty takes
            // more of the side, in type as large as the one-sided view's.
            let info = rect.height() * side_share(snap);
            let (face, info_rect) = if flipped {
                let (top, bottom) = rect.split_top_bottom_at_y(rect.min.y + info);
                (bottom, top)
            } else {
                let (top, bottom) = rect.split_top_bottom_at_y(rect.max.y - info);
                (top, bottom)
            };
            clock::paint_face(
                ui.painter(),
                face.shrink(4.0),
                snap,
                lang,
                normal,
                true,
                flipped,
            );
            side_info(ui, lang, snap, info_rect, flipped);
        }
        ui.painter().hline(
            clock_area.x_range(),
            clock_area.center().y,
            egui::Stroke::new(2.0, Color32::from_gray(90)),
        );
    } else {
        let flag = snap.flag_lines(lang);
        let lines = if snap.penalty.is_some() || !flag.is_empty() {
            0.72
        } else {
            0.84
        };
        let face = egui::Rect::from_min_size(
            clock_area.min,
            Vec2::new(clock_area.width(), clock_area.height() * lines),
        );
        let response = ui.interact(face, ui.scope_id().with("face"), Sense::click());
        let label = format!("{} · {}", snap.current, snap.accessible_name(lang));
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
        if clicked(&response) {
            commands.push(TableCommand::Timer(TimerCommand::Primary));
        }
        clock::paint_face(ui.painter(), face, snap, lang, normal, true, false);
        let h = clock_area.height();
        let mut y = face.max.y + h * 0.05;
        let painter = ui.painter();
        // Every line is made smaller to fit the screen's width, never cut.
        let width = clock_area.width() - 16.0;
        let fit = |text: &str, size: f32| FontId::proportional(fitted(painter, text, size, width));
        clock::centered_text(
            painter,
            egui::pos2(face.center().x, y),
            &format!("{}: {}", s.timer.next_player, snap.next),
            FontId::proportional((h * 0.06).max(24.0)),
            ui.visuals().text_color(),
            false,
        );
        if let Some(p) = snap.penalty {
            y += h * 0.08;
            let draw = (s.timer.penalty_draw)(p.draw);
            clock::centered_text(
                painter,
                egui::pos2(face.center().x, y),
                &draw,
                fit(&draw, (h * 0.06).max(24.0)),
                RED,
                false,
            );
            y += h * 0.06;
            let rearranging = (s.timer.penalty_rearranging)(p.draw_if_table_invalid);
            clock::centered_text(
                painter,
                egui::pos2(face.center().x, y),
                &rearranging,
                fit(&rearranging, (h * 0.03).max(16.0)),
                ui.visuals().text_color(),
                false,
            );
        }
        for (k, line) in flag.iter().enumerate() {
            y += h * if k == 0 { 0.08 } else { 0.06 };
            let (size, color) = if k == 0 {
                ((h * 0.05).max(22.0), RED)
            } else {
                ((h * 0.03).max(16.0), ui.visuals().text_color())
            };
            clock::centered_text(
                painter,
                egui::pos2(face.center().x, y),
                line,
                fit(line, size),
                color,
                false,
            );
        }
    }
    ui.allocate_rect(clock_area, Sense::hover());
    ui.add_space(8.0);
    ui.horizontal(|ui| {
        let button = |text: &str| {
            egui::Button::new(RichText::new(text).size(22.0)).min_size(Vec2::new(180.0, TOUCH))
        };
        let primary = if snap.phase == Phase::Idle {
            s.timer.start
        } else {
            s.timer.end_turn
        };
        if clicked(&ui.add(button(primary))) {
            commands.push(TableCommand::Timer(TimerCommand::Primary));
        }
        let pause = if snap.phase == Phase::Paused {
            s.timer.resume
        } else {
            s.timer.pause
        };
        if ui
            .add_enabled(snap.phase != Phase::Idle, button(pause))
            .clicked()
        {
            commands.push(TableCommand::Timer(TimerCommand::TogglePause));
        }
        let layout = if face_to_face {
            s.table_view.one_sided
        } else {
            s.table_view.face_to_face
        };
        if ui.add(button(layout)).clicked() {
            commands.push(TableCommand::ToggleFaceToFace);
        }
        if ui.add(button(s.table_view.exit_table_view)).clicked() {
            commands.push(TableCommand::Exit);
        }
    });
    commands
}

/// The share of a face-to-face half kept under its clock for the next player and, after
/// time-up, the penalty (both of its lines) or a flag.
fn side_share(snap: &ClockSnapshot) -> f32 {
    if snap.penalty.is_some() || snap.flag.is_some() {
        0.38
    } else {
        0.2
    }
}

/// A line of one side's information: its words, its size in points, and whether it is red.
type SideLine = (String, f32, bool);

/// What one side of the face-to-face view reads under its clock, in an area `height` tall:
/// the next player; after time-up the draw in large red type and what to do when the table
/// was being rearranged; a chess clock's flag. The same for both sides.
fn side_lines(lang: Language, snap: &ClockSnapshot, height: f32) -> Vec<SideLine> {
    let s = lang.strings();
    let next = (height * 0.2).clamp(18.0, 34.0);
    let mut lines = vec![(
        format!("{}: {}", s.timer.next_player, snap.next),
        next,
        false,
    )];
    if let Some(p) = snap.penalty {
        lines.push((
            (s.timer.penalty_draw)(p.draw),
            (height * 0.28).clamp(28.0, 52.0),
            true,
        ));
        lines.push((
            (s.timer.penalty_rearranging)(p.draw_if_table_invalid),
            (height * 0.16).clamp(18.0, 30.0),
            false,
        ));
    }
    if let Some(flag) = snap.flag_lines(lang).into_iter().next() {
        lines.push((flag, (height * 0.24).clamp(24.0, 44.0), true));
    }
    lines
}

/// One side of the face-to-face view, below its clock ([`side_lines`], in that side's
/// reading order: from the screen's bottom up when flipped).
fn side_info(ui: &Ui, lang: Language, snap: &ClockSnapshot, rect: egui::Rect, flipped: bool) {
    let lines = side_lines(lang, snap, rect.height());
    let total: f32 = lines.iter().map(|(_, size, _)| size * 1.25).sum();
    let mut offset = ((rect.height() - total) / 2.0).max(0.0);
    let width = rect.width() - 16.0;
    for (text, size, red) in &lines {
        // A line too long for the side is made smaller to fit it, never cut.
        let size = fitted(ui.painter(), text, *size, width);
        let centre = offset + size * 1.25 / 2.0;
        let y = if flipped {
            rect.max.y - centre
        } else {
            rect.min.y + centre
        };
        let color = if *red { RED } else { ui.visuals().text_color() };
        clock::centered_text(
            ui.painter(),
            egui::pos2(rect.center().x, y),
            text,
            FontId::proportional(size),
            color,
            flipped,
        );
        offset += size * 1.25;
    }
}

/// The size at which `text` in proportional type fits `width`: `size`, or smaller for a line
/// too long at it.
fn fitted(painter: &egui::Painter, text: &str, size: f32, width: f32) -> f32 {
    let galley =
        painter.layout_no_wrap(text.to_owned(), FontId::proportional(size), Color32::WHITE);
    if galley.size().x > width {
        size * width / galley.size().x
    } else {
        size
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timer::Penalty;

    /// Issue 49.11: at 1280×900 the far side of face-to-face showed the penalty in about 20 px
    /// and had lost "if rearranging: restore and draw 3". Both sides read both lines, the draw
    /// as large as the one-sided view's.
    #[test]
    fn each_side_of_face_to_face_reads_the_whole_penalty_in_large_type() {
        let snap = ClockSnapshot {
            phase: crate::timer::Phase::Running,
            seconds: 0,
            overtime: std::time::Duration::from_secs(2),
            warning: true,
            timed_out: true,
            current: "Ann".into(),
            next: "Bo".into(),
            players: vec!["Ann".into(), "Bo".into()],
            stats: Vec::new(),
            penalty: Some(Penalty::RULES),
            flash_on: true,
            banks: Vec::new(),
            flagged: Vec::new(),
            flag: None,
        };
        // 1280×900 full screen: the clock area is the screen less the controls row, and each
        // half of it is one side.
        let half = (900.0 - (TOUCH + 16.0)) / 2.0;
        for lang in Language::ALL {
            let lines = side_lines(lang, &snap, half * side_share(&snap));
            let s = lang.strings();
            let find = |text: &str| lines.iter().find(|(t, _, _)| t == text);
            let draw = find(&(s.timer.penalty_draw)(1)).expect("the draw");
            assert!(
                draw.1 >= 36.0 && draw.2,
                "{lang:?}: the draw in {} px",
                draw.1
            );
            let rearranging =
                find(&(s.timer.penalty_rearranging)(3)).expect("the rearranging line");
            assert!(rearranging.1 >= 20.0, "{lang:?}: {} px", rearranging.1);
        }
    }

    /// The one-sided view cut "재배열하다 테이블을 맞추지 못했나요? …" at both edges of a
    /// 1000 px window (it was drawn at a fixed size). Each line is made smaller to fit.
    #[test]
    fn a_line_too_wide_for_the_table_view_is_made_smaller_to_fit() {
        let ctx = egui::Context::default();
        crate::ui::install_fonts(&ctx);
        let mut checked = 0;
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            let painter = ui.painter();
            for lang in Language::ALL {
                let text = (lang.strings().timer.penalty_rearranging)(3);
                let width = 1000.0 - 16.0 - 16.0;
                let size = fitted(painter, &text, 26.0, width);
                if lang == Language::Korean {
                    let whole = painter.layout_no_wrap(
                        text.clone(),
                        FontId::proportional(26.0),
                        Color32::WHITE,
                    );
                    assert!(
                        whole.size().x > width,
                        "the Korean line is too wide at 26 px"
                    );
                }
                let galley = painter.layout_no_wrap(
                    text.clone(),
                    FontId::proportional(size),
                    Color32::WHITE,
                );
                assert!(
                    galley.size().x <= width + 0.5,
                    "{lang:?}: {:?}",
                    galley.size()
                );
                assert!(size >= 16.0, "{lang:?}: still readable, {size} px");
                // A short line keeps its size.
                assert_eq!(fitted(painter, "Bo", 26.0, width), 26.0);
                checked += 1;
            }
        });
        output.textures_delta.clear();
        assert_eq!(checked, 2);
    }
}
