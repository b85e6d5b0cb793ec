//! What the table says, and when: the happenings of an evening ([`Happening`]) and their words
//! in Korean and English ([`phrase`]).
//!
//! Pure, like the timer: no clock, no process, no file. The laptop's speaker
//! ([`crate::speech`]) and the tests call it with what happened; the phone page has its own
//! copies of these words in `i18n/phone.rs` (checked equal to these by a test), since a phone
//! speaks in its page's language.
//!
//! Which happenings there are, and what they say:
//!
//! | happening | English | 한국어 |
//! |---|---|---|
//! | a turn starts | "Rumi's turn" | "루미 차례입니다" |
//! | the warning | "ten seconds" | "10초" |
//! | time is up (per turn) | "time's up — draw one" | "시간 초과 — 한 장 가져가세요" |
//! | a chess-clock flag | "Rumi is out of time" | "루미, 시간이 다 됐습니다" |
//! | pause / resume | "paused" / "resumed" | "일시 정지" / "다시 시작" |
//! | a game saved | "Rumi wins the game" | "루미 승리입니다" |
//! | the match over | "Rumi wins the match" | "루미 최종 우승입니다" |
//!
//! The time-up phrase names the rules' draw ([`Penalty::RULES`]): the timer cannot know whether
//! the table was left invalid (then 3), so the spoken reminder is the plain case and the screen
//! keeps the full reminder.
//!
//! # Example
//! ```
//! use rummikub_companion::lang::Language;
//! use rummikub_companion::speech::phrases::{phrase, Happening};
//! let turn = Happening::Turn { name: "루미".into() };
//! assert_eq!(phrase(Language::Korean, &turn), "루미 차례입니다");
//! assert_eq!(phrase(Language::English, &Happening::Warning { seconds: 10 }), "ten seconds");
//! ```

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::lang::Language;
use crate::timer::{Alert, Penalty, TimerEvent, TimerMode};

/// Something the table is told aloud.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Happening {
    /// A turn starts: the player's name (their spoken form, when they have one).
    Turn {
        /// Who plays now.
        name: String,
    },
    /// The warning time is reached.
    Warning {
        /// Whole seconds left.
        seconds: u32,
    },
    /// A per-turn clock ran out: draw this many tiles.
    TimeUp {
        /// Tiles to draw ([`Penalty::draw`]).
        draw: u8,
    },
    /// A chess-clock bank ran out: this player is flagged.
    Flag {
        /// Who is out of time.
        name: String,
    },
    /// The clock was paused.
    Paused,
    /// The clock runs again.
    Resumed,
    /// A game was saved: its winner.
    GameWon {
        /// The game's winner.
        name: String,
    },
    /// The match is over: everyone ranked first.
    MatchWon {
        /// The winners (several share the place).
        names: Vec<String>,
    },
    /// "Test voice" in Settings.
    Test {
        /// A name to say (the first seat's).
        name: String,
    },
}

/// Kinds of happening, each switched on or off in Settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Whose turn it is.
    Turn,
    /// The warning.
    Warning,
    /// Time-up.
    TimeUp,
    /// A chess-clock flag.
    Flag,
    /// Pause and resume.
    Pause,
    /// End of a game or match.
    Result,
}

impl Happening {
    /// Its kind; `None` for the test, which is always said.
    pub fn kind(&self) -> Option<Kind> {
        match self {
            Happening::Turn { .. } => Some(Kind::Turn),
            Happening::Warning { .. } => Some(Kind::Warning),
            Happening::TimeUp { .. } => Some(Kind::TimeUp),
            Happening::Flag { .. } => Some(Kind::Flag),
            Happening::Paused | Happening::Resumed => Some(Kind::Pause),
            Happening::GameWon { .. } | Happening::MatchWon { .. } => Some(Kind::Result),
            Happening::Test { .. } => None,
        }
    }

    /// Whether it cuts off words still being said: a new turn (and a test) does; the others
    /// wait for the words before them.
    pub fn cuts_off(&self) -> bool {
        matches!(self, Happening::Turn { .. } | Happening::Test { .. })
    }

    /// What the timer's alert says, if anything: `name` names a seat (its spoken form).
    /// A tick says nothing; a time-up is a flag on a chess clock.
    ///
    /// # Example
    /// ```
    /// use std::time::Duration;
    /// use rummikub_companion::speech::phrases::Happening;
    /// use rummikub_companion::timer::{Alert, TimerEvent, TimerMode};
    /// let s = Duration::from_secs;
    /// let event = TimerEvent { alert: Alert::Warning, turn: 1, player: 0, due: s(50), running: s(50) };
    /// let said = Happening::of_alert(&event, TimerMode::PerTurn, s(10), |_| "Rumi".into());
    /// assert_eq!(said, Some(Happening::Warning { seconds: 10 }));
    /// ```
    pub fn of_alert(
        event: &TimerEvent,
        mode: TimerMode,
        warning: Duration,
        name: impl Fn(usize) -> String,
    ) -> Option<Happening> {
        match (event.alert, mode) {
            (Alert::Tick(_), _) => None,
            (Alert::Warning, _) => Some(Happening::Warning {
                seconds: u32::try_from(warning.as_secs()).unwrap_or(u32::MAX),
            }),
            (Alert::TimeUp, TimerMode::PerTurn) => Some(Happening::TimeUp {
                draw: Penalty::RULES.draw,
            }),
            (Alert::TimeUp, TimerMode::ChessClock(_)) => Some(Happening::Flag {
                name: name(event.player),
            }),
        }
    }
}

/// Voice settings: on or off, its own volume, and each kind of happening on or off.
/// Saved with the settings; every field has a default, so older files load.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct VoiceSettings {
    /// Speak at all.
    pub on: bool,
    /// The voice's volume, 0–1, apart from the alarm's (1 = the engine's normal level).
    pub volume: f32,
    /// Whose turn it is.
    pub turn: bool,
    /// The warning.
    pub warning: bool,
    /// Time-up with the penalty.
    pub time_up: bool,
    /// A chess-clock flag.
    pub flag: bool,
    /// Pause and resume.
    pub pause: bool,
    /// End of a game or match, with the winner.
    pub result: bool,
}

impl Default for VoiceSettings {
    fn default() -> Self {
        VoiceSettings {
            on: true,
            volume: 1.0,
            turn: true,
            warning: true,
            time_up: true,
            flag: true,
            pause: true,
            result: true,
        }
    }
}

impl VoiceSettings {
    /// Whether `happening` is said with these settings ("Test voice" is said even with the
    /// voice off, as long as its volume is above zero).
    pub fn says(&self, happening: &Happening) -> bool {
        if self.volume.is_nan() || self.volume <= 0.0 {
            return false;
        }
        match happening.kind() {
            None => true,
            Some(kind) => self.on && self.kind_on(kind),
        }
    }

    /// Whether one kind is switched on (whatever `on` says).
    pub fn kind_on(&self, kind: Kind) -> bool {
        match kind {
            Kind::Turn => self.turn,
            Kind::Warning => self.warning,
            Kind::TimeUp => self.time_up,
            Kind::Flag => self.flag,
            Kind::Pause => self.pause,
            Kind::Result => self.result,
        }
    }

    /// The switch of one kind, to edit.
    pub fn kind_mut(&mut self, kind: Kind) -> &mut bool {
        match kind {
            Kind::Turn => &mut self.turn,
            Kind::Warning => &mut self.warning,
            Kind::TimeUp => &mut self.time_up,
            Kind::Flag => &mut self.flag,
            Kind::Pause => &mut self.pause,
            Kind::Result => &mut self.result,
        }
    }
}

impl Kind {
    /// Every kind, in the order Settings lists them.
    pub const ALL: [Kind; 6] = [
        Kind::Turn,
        Kind::Warning,
        Kind::TimeUp,
        Kind::Flag,
        Kind::Pause,
        Kind::Result,
    ];
}

/// What is said for `happening` in `lang` (the written form; the laptop's espeak-ng gets it
/// through [`super::respell::for_engine`]).
pub fn phrase(lang: Language, happening: &Happening) -> String {
    match (lang, happening) {
        (Language::English, Happening::Turn { name }) => format!("{name}'s turn"),
        (Language::Korean, Happening::Turn { name }) => format!("{name} 차례입니다"),
        (Language::English, Happening::Warning { seconds: 1 }) => "one second".to_owned(),
        (Language::English, Happening::Warning { seconds }) => {
            format!("{} seconds", english_number(*seconds))
        }
        (Language::Korean, Happening::Warning { seconds }) => format!("{seconds}초"),
        (Language::English, Happening::TimeUp { draw }) => {
            format!("time's up — draw {}", english_number(u32::from(*draw)))
        }
        (Language::Korean, Happening::TimeUp { draw }) => {
            format!("시간 초과 — {} 장 가져가세요", korean_count(*draw))
        }
        (Language::English, Happening::Flag { name }) => format!("{name} is out of time"),
        (Language::Korean, Happening::Flag { name }) => format!("{name}, 시간이 다 됐습니다"),
        (Language::English, Happening::Paused) => "paused".to_owned(),
        (Language::Korean, Happening::Paused) => "일시 정지".to_owned(),
        (Language::English, Happening::Resumed) => "resumed".to_owned(),
        (Language::Korean, Happening::Resumed) => "다시 시작".to_owned(),
        (Language::English, Happening::GameWon { name }) => format!("{name} wins the game"),
        (Language::Korean, Happening::GameWon { name }) => format!("{name} 승리입니다"),
        (Language::English, Happening::MatchWon { names }) => match names.as_slice() {
            [] => "the match is over".to_owned(),
            [one] => format!("{one} wins the match"),
            [rest @ .., last] => format!("{} and {last} share the win", rest.join(", ")),
        },
        (Language::Korean, Happening::MatchWon { names }) => match names.as_slice() {
            [] => "경기가 끝났습니다".to_owned(),
            [one] => format!("{one} 최종 우승입니다"),
            several => format!("{} 공동 우승입니다", several.join(", ")),
        },
        (Language::English, Happening::Test { name }) => format!("Voice test. {name}'s turn"),
        (Language::Korean, Happening::Test { name }) => {
            format!("음성 안내 시험입니다. {name} 차례입니다")
        }
    }
}

/// The language a name is best said in: Korean for a name with Hangul in it, English for one
/// in Latin letters, `None` (the sentence's own) for anything else (digits, other scripts).
///
/// # Example
/// ```
/// use rummikub_companion::lang::Language;
/// use rummikub_companion::speech::phrases::script_of;
/// assert_eq!(script_of("루미"), Some(Language::Korean));
/// assert_eq!(script_of("Ann"), Some(Language::English));
/// assert_eq!(script_of("7"), None);
/// ```
pub fn script_of(name: &str) -> Option<Language> {
    let hangul = |c: char| {
        ('\u{AC00}'..='\u{D7A3}').contains(&c)
            || ('\u{1100}'..='\u{11FF}').contains(&c)
            || ('\u{3130}'..='\u{318F}').contains(&c)
    };
    if name.chars().any(hangul) {
        Some(Language::Korean)
    } else if name.chars().any(|c| c.is_ascii_alphabetic()) {
        Some(Language::English)
    } else {
        None
    }
}

/// Marks a name's place in a phrase (private-use characters, never in a typed name).
const NAME_OPEN: char = '\u{E000}';
const NAME_CLOSE: char = '\u{E001}';

impl Happening {
    /// The same happening with every name replaced by `f(index, name)`, in the order
    /// [`phrase`] says them.
    fn with_names(&self, f: impl Fn(usize, &str) -> String) -> Happening {
        match self {
            Happening::Turn { name } => Happening::Turn { name: f(0, name) },
            Happening::Flag { name } => Happening::Flag { name: f(0, name) },
            Happening::GameWon { name } => Happening::GameWon { name: f(0, name) },
            Happening::Test { name } => Happening::Test { name: f(0, name) },
            Happening::MatchWon { names } => Happening::MatchWon {
                names: names.iter().enumerate().map(|(i, n)| f(i, n)).collect(),
            },
            other => other.clone(),
        }
    }

    /// The names said, in order.
    fn names(&self) -> Vec<&str> {
        match self {
            Happening::Turn { name }
            | Happening::Flag { name }
            | Happening::GameWon { name }
            | Happening::Test { name } => vec![name.as_str()],
            Happening::MatchWon { names } => names.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        }
    }
}

/// What is said for `happening` in `lang`, in runs of one language each: a name written in
/// another script than the sentence's ([`script_of`]) is a run of its own in that script's
/// language, so an English sentence says a Hangul name with a Korean voice (an English voice
/// spells it out, "Hangul syllable …", four times as long) and a Korean sentence an English
/// name with an English one. Runs of the same language are joined; the text of all runs is
/// [`phrase`]'s.
///
/// # Example
/// ```
/// use rummikub_companion::lang::Language::{English, Korean};
/// use rummikub_companion::speech::phrases::{phrase_runs, Happening};
/// let turn = Happening::Turn { name: "루미".into() };
/// assert_eq!(
///     phrase_runs(English, &turn),
///     [(Korean, "루미".to_owned()), (English, "'s turn".to_owned())]
/// );
/// assert_eq!(phrase_runs(Korean, &turn), [(Korean, "루미 차례입니다".to_owned())]);
/// ```
pub fn phrase_runs(lang: Language, happening: &Happening) -> Vec<(Language, String)> {
    let clean = |name: &str| name.replace([NAME_OPEN, NAME_CLOSE], "");
    let names: Vec<String> = happening.names().into_iter().map(clean).collect();
    let marked = happening.with_names(|i, _| format!("{NAME_OPEN}{i}{NAME_CLOSE}"));
    let text = phrase(lang, &marked);
    let mut runs: Vec<(Language, String)> = Vec::new();
    let mut push = |run_lang: Language, words: &str| {
        if words.is_empty() {
            return;
        }
        match runs.last_mut() {
            Some((last, text)) if *last == run_lang => text.push_str(words),
            _ => runs.push((run_lang, words.to_owned())),
        }
    };
    let mut rest = text.as_str();
    while let Some(open) = rest.find(NAME_OPEN) {
        push(lang, &rest[..open]);
        let after = &rest[open + NAME_OPEN.len_utf8()..];
        let Some(close) = after.find(NAME_CLOSE) else {
            break;
        };
        let name = after[..close]
            .parse::<usize>()
            .ok()
            .and_then(|i| names.get(i))
            .map_or("", String::as_str);
        push(script_of(name).unwrap_or(lang), name);
        rest = &after[close + NAME_CLOSE.len_utf8()..];
    }
    push(lang, rest);
    runs
}

/// A number in English words up to thirty (a warning is at most 30 s), digits above.
pub fn english_number(n: u32) -> String {
    const WORDS: [&str; 21] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    match n {
        0..=20 => WORDS[n as usize].to_owned(),
        30 => "thirty".to_owned(),
        21..=29 => format!("twenty-{}", WORDS[(n - 20) as usize]),
        _ => n.to_string(),
    }
}

/// How many tiles, in the native Korean count used with 장 (한 장, 두 장, 세 장).
pub fn korean_count(n: u8) -> String {
    const WORDS: [&str; 11] = [
        "영", "한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열",
    ];
    WORDS
        .get(usize::from(n))
        .map_or_else(|| n.to_string(), |w| (*w).to_owned())
}
