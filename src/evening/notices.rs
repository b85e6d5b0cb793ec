//! What the table must be told that is not the answer to a command: a file set aside, no
//! audio, an export written, a saved evening that could not be read.
//!
//! Notices stay typed until drawn, so they re-render in the language chosen later, and a cause
//! is told once however often it recurs. A notice that reports success (an export) is marked so:
//! the window lets it fade, while warnings stay until closed. Failing saves are not notices: the
//! saver keeps one standing line while they last ([`crate::store::saver::SaveStatus`]).

use std::time::Duration;

use crate::i18n;
use crate::lang::Language;
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

/// Something to tell the table.
#[derive(Clone, Debug, PartialEq)]
pub enum TableNotice {
    /// A store notice (a file set aside or recovered).
    Store(Notice),
    /// The settings could not be saved.
    SettingsNotSaved(Worded),
    /// Something could not be done with the data folder (open a sheet, export); the detail
    /// names the file and the system's reason.
    Failed(Worded),
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
    /// The saved evening could not be restored; it was kept aside here (the seats were kept).
    EveningSetAside(String),
    /// The voice is on and the machine has no speech engine (nothing is said; sounds as
    /// before).
    NoVoice,
    /// A speech engine failed (or hung, and another took over).
    VoiceFailed(crate::speech::SpeechProblem),
}

impl TableNotice {
    /// Whether this reports something done (it may fade) rather than a problem (it stays).
    pub fn is_success(&self) -> bool {
        matches!(self, TableNotice::Exported(_))
    }

    /// Whether this only informs (no sound, the screen may dim, no voice): nothing to do about
    /// it at the table, so once read it folds into one line (its [`TableNotice::short`]).
    pub fn is_informational(&self) -> bool {
        matches!(
            self,
            TableNotice::NoAudio(_)
                | TableNotice::NoKeepAwake(_)
                | TableNotice::NoVoice
                | TableNotice::VoiceFailed(_)
                | TableNotice::NothingToPlay
                | TableNotice::TimerSettingsReset
        )
    }

    /// A few words for the folded line of informational notices ("No sound · Screen may
    /// dim").
    pub fn short(&self, lang: Language) -> &'static str {
        let text = match self {
            TableNotice::NoAudio(_) | TableNotice::NothingToPlay => crate::lang::Text {
                en: "No sound",
                ko: "소리 없음",
            },
            TableNotice::NoKeepAwake(_) => crate::lang::Text {
                en: "Screen may dim",
                ko: "화면이 어두워질 수 있음",
            },
            TableNotice::NoVoice => crate::lang::Text {
                en: "No voice",
                ko: "음성 없음",
            },
            TableNotice::VoiceFailed(_) => crate::lang::Text {
                en: "Voice problem",
                ko: "음성 문제",
            },
            TableNotice::TimerSettingsReset => crate::lang::Text {
                en: "Timer values reset",
                ko: "타이머 값 초기화",
            },
            _ => crate::lang::Text {
                en: "Notice",
                ko: "알림",
            },
        };
        text.get(lang)
    }

    /// The folder this notice points at (an export's), for an "Open folder" button.
    pub fn folder(&self) -> Option<&std::path::Path> {
        match self {
            TableNotice::Exported(path) | TableNotice::ExportedNoDialog(path) => {
                std::path::Path::new(path).parent()
            }
            _ => None,
        }
    }

    /// The line to show and the technical detail for its tooltip.
    pub fn text(&self, lang: Language) -> (String, Option<String>) {
        let s = lang.strings();
        match self {
            TableNotice::Store(notice) => {
                let line = match notice {
                    Notice::SetAside { moved_to, .. } if notice.is_newer_version() => {
                        (s.saving.kept_aside_newer)(&moved_to.display().to_string())
                    }
                    Notice::SetAside { moved_to, .. } => {
                        (s.sheet.set_aside)(&moved_to.display().to_string())
                    }
                    Notice::Recovered { file, .. } => {
                        (s.sheet.recovered_from_backup)(&file.display().to_string())
                    }
                    Notice::LeftInPlace { file, .. } => {
                        (s.table.left_in_place)(&file.display().to_string())
                    }
                };
                (line, Some(i18n::notice(lang, notice)))
            }
            TableNotice::Failed(why) => ((s.sheet.save_failed)(why.get(lang)), None),
            TableNotice::SettingsNotSaved(why) => {
                ((s.settings.settings_not_saved)(why.get(lang)), None)
            }
            TableNotice::NoAudio(why) => (
                s.timer.no_audio.to_owned(),
                Some((s.timer.no_audio_detail)(why)),
            ),
            TableNotice::TimerSettingsReset => (s.settings.timer_settings_reset.to_owned(), None),
            TableNotice::Exported(path) => ((s.sheet.exported_to)(path), None),
            TableNotice::ExportedNoDialog(path) => ((s.sheet.exported_no_dialog)(path), None),
            TableNotice::NothingToPlay => (s.table_view.nothing_to_play.to_owned(), None),
            TableNotice::NoKeepAwake(why) => {
                let detail = i18n::keep_awake_detail(lang, why);
                (s.table_view.no_keep_awake.to_owned(), Some(detail))
            }
            TableNotice::EveningSetAside(path) => (i18n::evening_set_aside(lang, path), None),
            TableNotice::NoVoice => (
                i18n::speech::NO_VOICE.get(lang).to_owned(),
                Some(i18n::speech::NO_VOICE_DETAIL.get(lang).to_owned()),
            ),
            TableNotice::VoiceFailed(problem) => (
                i18n::speech::failed_line(lang, problem),
                Some(i18n::speech::trouble(lang, problem)),
            ),
        }
    }
}

/// A notice and when (on the evening's clock) it was given.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    /// The notice.
    pub notice: TableNotice,
    /// When it was given (or last given again).
    pub at: Duration,
}

/// The notices shown, oldest first, each cause once.
#[derive(Debug, Default)]
pub struct Notices {
    shown: Vec<Shown>,
}

impl Notices {
    /// Adds a notice at `at` unless the same one is already shown (then it is given anew).
    pub fn push(&mut self, notice: TableNotice, at: Duration) {
        match self.shown.iter_mut().find(|s| s.notice == notice) {
            Some(shown) => shown.at = at,
            None => self.shown.push(Shown { notice, at }),
        }
    }

    /// Adds store notices.
    pub fn extend_store(&mut self, notices: impl IntoIterator<Item = Notice>, at: Duration) {
        for notice in notices {
            self.push(TableNotice::Store(notice), at);
        }
    }

    /// Hides the notice with this index.
    pub fn dismiss(&mut self, index: usize) {
        if index < self.shown.len() {
            self.shown.remove(index);
        }
    }

    /// The notices shown, oldest first.
    pub fn shown(&self) -> &[Shown] {
        &self.shown
    }

    /// The lines as shown in `lang`.
    pub fn lines(&self, lang: Language) -> Vec<String> {
        self.shown.iter().map(|s| s.notice.text(lang).0).collect()
    }
}
