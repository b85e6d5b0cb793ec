//! The two languages of the program, at the ground floor: every module may name a
//! [`Language`], and a fixed message in both languages is a [`Text`]. The words themselves
//! live with what they word (`i18n` for the engine's values and the window, `evening::words`,
//! `speech::words`, `club::words` for their own types), so no module is both floor and roof.

use serde::{Deserialize, Serialize};

/// The bundled Korean font (Noto Sans CJK KR, every Hangul syllable; SIL OFL 1.1, see
/// `assets/fonts/OFL.txt`), embedded once: the window draws Korean with it, and the club
/// night's TV and table pages are served it, so a screen with no Korean font shows no boxes.
pub const HANGUL_FONT: &[u8] = include_bytes!("../assets/fonts/NotoSansCJKkr-Hangul.otf");

/// A UI language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Language {
    /// English.
    #[default]
    English,
    /// 한국어.
    Korean,
}

impl Language {
    /// Both languages, in menu order.
    pub const ALL: [Language; 2] = [Language::Korean, Language::English];

    /// The language for a BCP 47 locale tag such as `ko-KR` or `en_US.UTF-8`: Korean for `ko`,
    /// English otherwise.
    ///
    /// # Example
    /// ```
    /// use rummikub_companion::lang::Language;
    /// assert_eq!(Language::from_locale("ko-KR"), Language::Korean);
    /// assert_eq!(Language::from_locale("en_GB.UTF-8"), Language::English);
    /// ```
    pub fn from_locale(tag: &str) -> Language {
        if tag.to_lowercase().starts_with("ko") {
            Language::Korean
        } else {
            Language::English
        }
    }

    /// The language of the user's locale: the first non-empty of `LC_ALL`, `LC_MESSAGES` and
    /// `LANG` (POSIX order; `C` and `POSIX` are English), else the system's setting.
    pub fn of_system() -> Language {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|var| std::env::var(var).ok())
            .find(|value| !value.is_empty())
            .or_else(sys_locale::get_locale)
            .map_or(Language::English, |tag| Language::from_locale(&tag))
    }

    /// The language's own name ("English", "한국어").
    pub fn native_name(self) -> &'static str {
        match self {
            Language::English => "English",
            Language::Korean => "한국어",
        }
    }
}

/// A fixed message in both languages, side by side (the submodules' messages). A message
/// with values is a function of the [`Language`] whose two arms sit together in one `match`.
///
/// # Example
/// ```
/// use rummikub_companion::lang::{Language, Text};
/// const UNDO: Text = Text { en: "Undo", ko: "되돌리기" };
/// assert_eq!(UNDO.get(Language::Korean), "되돌리기");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Text {
    /// English.
    pub en: &'static str,
    /// 한국어.
    pub ko: &'static str,
}

impl Text {
    /// The message in `lang`.
    pub const fn get(self, lang: Language) -> &'static str {
        match lang {
            Language::English => self.en,
            Language::Korean => self.ko,
        }
    }
}
