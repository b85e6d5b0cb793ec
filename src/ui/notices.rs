//! Notices: what the window must tell the table (a file set aside, no audio, a failed save).
//!
//! They stay typed until drawn, so they re-render in the language chosen later, and a cause is
//! told once however often it recurs (a failing save does not add a line per frame). They are
//! drawn in one place, a panel at the bottom, wrapped, with the close button first so it is
//! visible at any window width, and they never push the rows under the pointer.

use egui::{Color32, RichText, Ui};

use crate::i18n::Language;
use crate::store::Notice;

/// A reason worded in both languages when it happened (the error itself is gone by then), so
/// the notice follows a later change of language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worded {
    en: String,
    ko: String,
}

impl Worded {
    /// The reason as `word` puts it in each language.
    pub fn new(word: impl Fn(Language) -> String) -> Worded {
        Worded {
            en: word(Language::English),
            ko: word(Language::Korean),
        }
    }

    /// A reason that reads the same in both (a system message, a path).
    pub fn same(text: String) -> Worded {
        Worded {
            en: text.clone(),
            ko: text,
        }
    }

    /// The reason in `lang`.
    pub fn get(&self, lang: Language) -> &str {
        match lang {
            Language::English => &self.en,
            Language::Korean => &self.ko,
        }
    }
}

/// Something to tell the user.
#[derive(Clone, Debug, PartialEq)]
pub enum AppNotice {
    /// A store notice (a file set aside or recovered).
    Store(Notice),
    /// A save failed; the detail names the file and the system's reason.
    SaveFailed(Worded),
    /// The settings could not be saved.
    SettingsNotSaved(Worded),
    /// No audio output; the detail is the audio library's message.
    NoAudio(String),
    /// Timer values of the settings file were out of range.
    TimerSettingsReset,
    /// The sheet was exported to this file.
    Exported(String),
    /// "Save CSV as…" could not show a dialog; the sheet went to this file instead.
    ExportedNoDialog(String),
    /// "Test sounds" with no sound output.
    NothingToPlay,
    /// The screen cannot be kept awake; the detail is the platform's reason.
    NoKeepAwake(String),
}

impl AppNotice {
    /// The line to show and the technical detail for its tooltip.
    fn text(&self, lang: Language) -> (String, Option<String>) {
        let s = lang.strings();
        match self {
            AppNotice::Store(notice) => {
                let line = match notice {
                    Notice::SetAside { moved_to, .. } if notice.is_newer_version() => {
                        (s.kept_aside_newer)(&moved_to.display().to_string())
                    }
                    Notice::SetAside { moved_to, .. } => {
                        (s.set_aside)(&moved_to.display().to_string())
                    }
                    Notice::Recovered { file, .. } => {
                        (s.recovered_from_backup)(&file.display().to_string())
                    }
                    Notice::LeftInPlace { file, .. } => {
                        (s.left_in_place)(&file.display().to_string())
                    }
                };
                (line, Some(crate::i18n::notice(lang, notice)))
            }
            AppNotice::SaveFailed(why) => ((s.save_failed)(why.get(lang)), None),
            AppNotice::SettingsNotSaved(why) => ((s.settings_not_saved)(why.get(lang)), None),
            AppNotice::NoAudio(why) => (s.no_audio.to_owned(), Some(why.clone())),
            AppNotice::TimerSettingsReset => (s.timer_settings_reset.to_owned(), None),
            AppNotice::Exported(path) => ((s.exported_to)(path), None),
            AppNotice::ExportedNoDialog(path) => ((s.exported_no_dialog)(path), None),
            AppNotice::NothingToPlay => (s.nothing_to_play.to_owned(), None),
            AppNotice::NoKeepAwake(why) => (s.no_keep_awake.to_owned(), Some(why.clone())),
        }
    }
}

/// What was clicked in the notices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoticeClick {
    /// Close the notice with this index.
    Dismiss(usize),
    /// Show this folder (an export's).
    OpenFolder(std::path::PathBuf),
}

/// The notices shown, oldest first, each cause once.
#[derive(Debug, Default)]
pub struct Notices {
    shown: Vec<AppNotice>,
}

impl Notices {
    /// Adds a notice unless the same one is already shown.
    pub fn push(&mut self, notice: AppNotice) {
        if !self.shown.contains(&notice) {
            self.shown.push(notice);
        }
    }

    /// Adds store notices.
    pub fn extend_store(&mut self, notices: impl IntoIterator<Item = Notice>) {
        for notice in notices {
            self.push(AppNotice::Store(notice));
        }
    }

    /// Hides the notice with this index.
    pub fn dismiss(&mut self, index: usize) {
        if index < self.shown.len() {
            self.shown.remove(index);
        }
    }

    /// The lines as shown in `lang`.
    pub fn lines(&self, lang: Language) -> Vec<String> {
        self.shown.iter().map(|n| n.text(lang).0).collect()
    }

    /// Draws the notices in a bottom panel; returns the index of one the user closed. A
    /// `standing` line (nothing can be saved now) comes first and has no close button: it
    /// stays as long as its cause.
    pub fn ui(
        &self,
        ui: &mut Ui,
        lang: Language,
        standing: Option<(String, String)>,
    ) -> Option<NoticeClick> {
        if self.shown.is_empty() && standing.is_none() {
            return None;
        }
        let s = lang.strings();
        let mut closed = None;
        egui::Panel::bottom("notices").show(ui, |ui| {
            ui.add_space(4.0);
            if let Some((line, detail)) = &standing {
                let text = RichText::new(line)
                    .color(Color32::WHITE)
                    .background_color(Color32::from_rgb(0xb7, 0x1c, 0x1c))
                    .strong();
                ui.add(egui::Label::new(text).wrap()).on_hover_text(detail);
            }
            for (i, notice) in self.shown.iter().enumerate() {
                let (line, detail) = notice.text(lang);
                ui.horizontal(|ui| {
                    let close = ui
                        .add(egui::Button::new("×").min_size(egui::vec2(28.0, 28.0)))
                        .on_hover_text(s.dismiss);
                    close.widget_info(|| {
                        egui::WidgetInfo::labeled(egui::Role::Button, true, s.dismiss)
                    });
                    if close.clicked() {
                        closed = Some(NoticeClick::Dismiss(i));
                    }
                    // After an export: the folder it went to, one click away.
                    if let AppNotice::Exported(path) | AppNotice::ExportedNoDialog(path) = notice
                        && let Some(folder) = std::path::Path::new(path).parent()
                        && ui.button(s.open_folder).clicked()
                    {
                        closed = Some(NoticeClick::OpenFolder(folder.to_path_buf()));
                    }
                    let label = egui::Label::new(
                        RichText::new(line).color(Color32::from_rgb(0xef, 0x7d, 0x00)),
                    )
                    .wrap();
                    let shown = ui.add(label);
                    if let Some(detail) = detail {
                        shown.on_hover_text(detail);
                    }
                });
            }
            ui.add_space(4.0);
        });
        closed
    }
}
