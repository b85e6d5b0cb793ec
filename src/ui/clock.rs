//! The clock as every view shows it: the timer read once per frame, and one way of painting it.
//!
//! The timer tab, the clock strip on the other tabs and the table view must never disagree, so
//! they share this: what state the clock is in, its colours, its accessible name (with the
//! overtime, so screen readers and tests read it), and the time-up flash. Time-up does not rely
//! on colour alone: the state is written out and a warning sign is drawn, so a colour-blind
//! player sees it as surely as anyone.

use std::f32::consts::PI;
use std::time::Duration;

use egui::epaint::TextShape;
use egui::{Color32, FontId, Painter, Pos2, Rect, Stroke, Vec2};

use crate::lang::Language;
use crate::timer::{Penalty, Phase, PlayerStats, Timer};

/// Amber: from the warning on.
pub const AMBER: Color32 = Color32::from_rgb(0xff, 0xa0, 0x00);
/// Red: time is up.
pub const RED: Color32 = Color32::from_rgb(0xd3, 0x2f, 0x2f);
/// The full-strength flash colour.
pub const FLASH: Color32 = Color32::from_rgb(0xff, 0x1a, 0x1a);

/// What one frame of the timer looks like, read from the timer in one go.
#[derive(Clone, Debug)]
pub struct ClockSnapshot {
    /// Idle, running or paused.
    pub phase: Phase,
    /// Whole seconds left (rounded up).
    pub seconds: u64,
    /// Time past the end of the turn.
    pub overtime: Duration,
    /// The warning time has been reached.
    pub warning: bool,
    /// The turn's time is up.
    pub timed_out: bool,
    /// Whose turn it is.
    pub current: String,
    /// Who plays next.
    pub next: String,
    /// Everyone, in seat order.
    pub players: Vec<String>,
    /// Statistics per player.
    pub stats: Vec<(String, PlayerStats)>,
    /// The penalty to remind of, after time-up.
    pub penalty: Option<Penalty>,
    /// The time-up flash is in its bright half.
    pub flash_on: bool,
    /// Chess-clock mode: each seat's time bank now (`None` in per-turn mode).
    pub banks: Vec<Option<Duration>>,
    /// Chess-clock mode: the seats whose bank has run out.
    pub flagged: Vec<bool>,
    /// Chess-clock mode: the current player is flagged (their bank is empty), and whether it
    /// was so before this turn began.
    pub flag: Option<Flag>,
}

/// The current player's flag on a chess clock: what the table is told about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// Their bank ran out during this turn.
    Now,
    /// It ran out on an earlier turn: this one opens out of time.
    Earlier,
}

impl ClockSnapshot {
    /// The lines that tell the table about the current player's flag (name, "flagged", the
    /// rule), under the clock; empty when nobody is flagged.
    pub fn flag_lines(&self, lang: Language) -> Vec<String> {
        let s = lang.strings();
        match self.flag {
            None => Vec::new(),
            Some(Flag::Now) => vec![
                (s.chess.flagged_now)(&self.current),
                s.chess.flag_rule.to_owned(),
            ],
            Some(Flag::Earlier) => vec![
                (s.chess.flagged_earlier)(&self.current),
                s.chess.flag_rule.to_owned(),
            ],
        }
    }
}

impl ClockSnapshot {
    /// Reads the timer at `now`.
    pub fn read(timer: &Timer, now: Duration) -> ClockSnapshot {
        let players = timer.players().to_vec();
        let current = timer.current_player();
        let remaining = timer.remaining(now);
        let warning_at = timer.turn_settings().warning;
        ClockSnapshot {
            phase: timer.phase(),
            seconds: timer.display_seconds(now),
            overtime: timer.overtime(now),
            warning: timer.phase() != Phase::Idle
                && !warning_at.is_zero()
                && remaining <= warning_at,
            timed_out: timer.is_timed_out(now),
            current: players.get(current).cloned().unwrap_or_default(),
            next: players
                .get((current + 1) % players.len().max(1))
                .cloned()
                .unwrap_or_default(),
            stats: players
                .iter()
                .cloned()
                .zip(timer.stats().iter().copied())
                .collect(),
            penalty: timer.penalty(now),
            banks: (0..players.len())
                .map(|seat| timer.bank(seat, now))
                .collect(),
            flagged: (0..players.len())
                .map(|seat| timer.is_flagged(seat, now))
                .collect(),
            flag: timer.is_flagged(current, now).then(|| {
                if timer.turn_began_flagged() {
                    Flag::Earlier
                } else {
                    Flag::Now
                }
            }),
            players,
            flash_on: (now.as_millis() / 500).is_multiple_of(2),
        }
    }

    /// The state in words.
    pub fn state_text(&self, lang: Language) -> &'static str {
        let s = lang.strings();
        match (self.phase, self.timed_out, self.warning) {
            (Phase::Idle, _, _) => s.timer.state_ready,
            (Phase::Paused, _, _) => s.timer.state_paused,
            (_, true, _) => s.timer.state_time_up,
            (_, false, true) => s.timer.state_warning,
            _ => s.timer.state_running,
        }
    }

    /// The digits to show: the time left, or the overtime after time-up (`+0:14`).
    pub fn digits(&self) -> String {
        if self.timed_out {
            format!("+{}", mm_ss(self.overtime.as_secs()))
        } else {
            mm_ss(self.seconds)
        }
    }

    /// The clock's accessible name: state and time left, and the overtime once time is up
    /// (`Time's up! (+0:14) 0:00`).
    pub fn accessible_name(&self, lang: Language) -> String {
        let state = self.state_text(lang);
        if self.timed_out {
            format!(
                "{state} (+{}) {}",
                mm_ss(self.overtime.as_secs()),
                mm_ss(self.seconds)
            )
        } else {
            format!("{state} {}", mm_ss(self.seconds))
        }
    }

    /// The text colour and the background (if any) of the clock now.
    pub fn colors(&self, normal: Color32) -> (Color32, Option<Color32>) {
        match (self.phase, self.timed_out, self.warning) {
            (Phase::Idle, _, _) => (normal, None),
            (Phase::Paused, _, _) => (Color32::GRAY, None),
            // Full-strength flash: white on bright red, then red on the dark background.
            (_, true, _) if self.flash_on => (Color32::WHITE, Some(FLASH)),
            (_, true, _) => (FLASH, None),
            (_, false, true) => (Color32::BLACK, Some(AMBER)),
            _ => (normal, None),
        }
    }
}

/// `m:ss`.
pub fn mm_ss(seconds: u64) -> String {
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

/// Paints `text` centred on `center`, upside down when `flipped` (for the far side of the
/// table).
pub fn centered_text(
    painter: &Painter,
    center: Pos2,
    text: &str,
    font: FontId,
    color: Color32,
    flipped: bool,
) {
    let galley = painter.layout_no_wrap(text.to_owned(), font, color);
    let half = galley.size() / 2.0;
    if flipped {
        // Rotation is about the shape's position: put it at the far corner.
        let shape = TextShape::new(center + half, galley, color).with_angle(PI);
        painter.add(shape);
    } else {
        painter.add(TextShape::new(center - half, galley, color));
    }
}

/// A warning sign (triangle with an exclamation mark), drawn, not a glyph: the time-up cue
/// that does not depend on colour.
pub fn warning_sign(painter: &Painter, center: Pos2, size: f32, color: Color32, flipped: bool) {
    let k = if flipped { -1.0 } else { 1.0 };
    let h = size * 0.9;
    let top = center + Vec2::new(0.0, -h / 2.0 * k);
    let left = center + Vec2::new(-size / 2.0, h / 2.0 * k);
    let right = center + Vec2::new(size / 2.0, h / 2.0 * k);
    let stroke = Stroke::new((size * 0.08).max(2.0), color);
    painter.add(egui::Shape::closed_line(vec![top, right, left], stroke));
    let bar_top = center + Vec2::new(0.0, -h * 0.18 * k);
    let bar_bottom = center + Vec2::new(0.0, h * 0.2 * k);
    painter.line_segment([bar_top, bar_bottom], stroke);
    painter.circle_filled(
        center + Vec2::new(0.0, h * 0.32 * k),
        stroke.width * 0.6,
        color,
    );
}

/// Paints a clock face into `rect`: background, optional name, digits and state, upside down
/// when `flipped`.
pub fn paint_face(
    painter: &Painter,
    rect: Rect,
    snap: &ClockSnapshot,
    lang: Language,
    normal: Color32,
    with_name: bool,
    flipped: bool,
) {
    let (color, background) = snap.colors(normal);
    if let Some(bg) = background {
        painter.rect_filled(rect, 16.0, bg);
    }
    let h = rect.height();
    let k = if flipped { -1.0 } else { 1.0 };
    let at = |fraction: f32| rect.center() + Vec2::new(0.0, (fraction - 0.5) * h * k);
    let digits_size = if with_name { h * 0.42 } else { h * 0.6 };
    if with_name {
        let name_color = if background.is_some() { color } else { normal };
        centered_text(
            painter,
            at(0.17),
            &snap.current,
            FontId::proportional(h * 0.2),
            name_color,
            flipped,
        );
    }
    let digits_at = if with_name { 0.52 } else { 0.45 };
    centered_text(
        painter,
        at(digits_at),
        &snap.digits(),
        FontId::proportional(digits_size),
        color,
        flipped,
    );
    centered_text(
        painter,
        at(0.88),
        snap.state_text(lang),
        FontId::proportional(h * 0.09),
        color,
        flipped,
    );
    if snap.timed_out {
        let size = h * 0.16;
        let x = rect.width() * 0.38;
        for dx in [-x, x] {
            warning_sign(
                painter,
                at(digits_at) + Vec2::new(dx, 0.0),
                size,
                color,
                flipped,
            );
        }
    }
}
