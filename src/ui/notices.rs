//! Drawing the evening's notices: a panel at the bottom, wrapped, with the close button first
//! so it is visible at any window width, never pushing the rows under the pointer.
//!
//! A standing line (nothing can be saved now) comes first, in red, without a close button: it
//! stays as long as its cause. Warnings stay until closed, in amber. A success (an export) is
//! green and fades after [`SUCCESS_SHOWN`]. A notice that only informs (no sound, the screen
//! may dim: nothing to do about it) is shown whole for [`READ_FOR`], then folds with the
//! others like it into one short line ("No sound · Screen may dim"), whose "Show" brings them
//! back whole on demand: the table's view keeps its room.

use std::time::Duration;

use egui::{Color32, RichText, Ui};

use crate::evening::Notices;
use crate::lang::Language;

/// How long a success notice stays.
pub const SUCCESS_SHOWN: Duration = Duration::from_secs(6);

/// How long a notice that only informs is shown whole before it folds into the short line.
pub const READ_FOR: Duration = Duration::from_secs(8);

const AMBER: Color32 = Color32::from_rgb(0xef, 0x7d, 0x00);
const GREEN: Color32 = Color32::from_rgb(0x43, 0xa0, 0x47);

/// What was clicked in the notices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoticeClick {
    /// Close the notice with this index.
    Dismiss(usize),
    /// Show this folder (an export's).
    OpenFolder(std::path::PathBuf),
    /// Show the folded notices whole (`true`) or fold them again.
    Unfold(bool),
}

/// When the next success notice fades, or the next informing one folds, from `now` (to
/// repaint then).
pub fn next_fade(notices: &Notices, now: Duration) -> Option<Duration> {
    notices
        .shown()
        .iter()
        .filter_map(|s| {
            if s.notice.is_success() {
                Some(s.at + SUCCESS_SHOWN)
            } else if s.notice.is_informational() {
                Some(s.at + READ_FOR)
            } else {
                None
            }
        })
        .map(|due| due.saturating_sub(now))
        .filter(|left| !left.is_zero())
        .min()
}

/// Whether a notice faded or folded within the last half second (the window draws a few more
/// frames so its panels settle).
pub fn just_changed(notices: &Notices, now: Duration) -> bool {
    let settle = Duration::from_millis(500);
    notices.shown().iter().any(|s| {
        let due = if s.notice.is_success() {
            s.at + SUCCESS_SHOWN
        } else if s.notice.is_informational() {
            s.at + READ_FOR
        } else {
            return false;
        };
        now >= due && now < due + settle
    })
}

/// Draws the notices in a bottom panel; returns what was clicked. `unfolded`: the folded
/// notices are shown whole (the table asked with "Show").
#[must_use]
pub fn ui(
    ui: &mut Ui,
    lang: Language,
    notices: &Notices,
    now: Duration,
    standing: Option<(String, String)>,
    unfolded: bool,
) -> Option<NoticeClick> {
    let read = |s: &crate::evening::Shown| {
        s.notice.is_informational() && now.saturating_sub(s.at) >= READ_FOR
    };
    let all: Vec<(usize, &crate::evening::Shown)> = notices
        .shown()
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.notice.is_success() || now.saturating_sub(s.at) < SUCCESS_SHOWN)
        .collect();
    let folded: Vec<&crate::evening::Shown> = all
        .iter()
        .filter(|(_, s)| read(s))
        .map(|(_, s)| *s)
        .collect();
    let shown: Vec<(usize, &crate::evening::Shown)> = all
        .iter()
        .filter(|(_, s)| unfolded || !read(s))
        .copied()
        .collect();
    if all.is_empty() && standing.is_none() {
        return None;
    }
    let s = lang.strings();
    let mut clicked = None;
    egui::Panel::bottom("notices").show(ui, |ui| {
        ui.add_space(4.0);
        // The informing notices already read: one short line, whole again on demand.
        if !folded.is_empty() {
            ui.horizontal(|ui| {
                let mut words: Vec<&str> = folded.iter().map(|f| f.notice.short(lang)).collect();
                words.dedup();
                let toggle = if unfolded {
                    crate::i18n::evening::HIDE_NOTICES.get(lang)
                } else {
                    crate::i18n::evening::SHOW_NOTICES.get(lang)
                };
                let button = egui::Button::new(toggle).min_size(egui::vec2(0.0, 28.0));
                if ui.add(button).clicked() {
                    clicked = Some(NoticeClick::Unfold(!unfolded));
                }
                let line = words.join(" · ");
                ui.add(egui::Label::new(RichText::new(line).color(AMBER)).truncate());
            });
        }
        if let Some((line, detail)) = &standing {
            let text = RichText::new(line)
                .color(Color32::WHITE)
                .background_color(Color32::from_rgb(0xb7, 0x1c, 0x1c))
                .strong();
            ui.add(egui::Label::new(text).wrap()).on_hover_text(detail);
        }
        for (i, shown) in shown {
            let notice = &shown.notice;
            let (line, detail) = notice.text(lang);
            ui.horizontal(|ui| {
                let close = ui
                    .add(egui::Button::new("×").min_size(egui::vec2(32.0, 32.0)))
                    .on_hover_text(s.sheet.dismiss);
                close.widget_info(|| {
                    egui::WidgetInfo::labeled(egui::Role::Button, true, s.sheet.dismiss)
                });
                if close.clicked() {
                    clicked = Some(NoticeClick::Dismiss(i));
                }
                // After an export: the folder it went to, one click away.
                if let Some(folder) = notice.folder()
                    && ui
                        .add(
                            egui::Button::new(s.results.open_folder)
                                .min_size(egui::vec2(0.0, 32.0)),
                        )
                        .clicked()
                {
                    clicked = Some(NoticeClick::OpenFolder(folder.to_path_buf()));
                }
                let color = if notice.is_success() { GREEN } else { AMBER };
                let label = egui::Label::new(RichText::new(line).color(color)).wrap();
                let drawn = ui.add(label);
                if let Some(detail) = detail {
                    drawn.on_hover_text(detail);
                }
            });
        }
        ui.add_space(4.0);
    });
    clicked
}
