//! The window's words about the voice (Settings, the notices), both languages side by side.
//! What the voice *says* is not here: it is [`crate::speech::phrases`], pure and tested with
//! the happenings it words.

use crate::lang::{Language, Text};
use crate::speech::Engine;
use crate::speech::phrases::Kind;

/// The section's heading in Settings.
pub const HEADING: Text = Text {
    en: "Voice",
    ko: "음성 안내",
};

/// The voice's main switch.
pub const ON: Text = Text {
    en: "Say whose turn it is, the warning and time-up aloud",
    ko: "차례, 경고, 시간 초과를 소리 내어 알려 주기",
};

/// The voice's volume (apart from the alarm's).
pub const VOLUME: Text = Text {
    en: "Voice volume",
    ko: "음성 음량",
};

/// What each kind of happening is called in Settings.
pub fn kind(lang: Language, kind: Kind) -> &'static str {
    let text = match kind {
        Kind::Turn => Text {
            en: "Whose turn (\"Rumi's turn\")",
            ko: "차례 (\"루미 차례입니다\")",
        },
        Kind::Warning => Text {
            en: "Warning (\"ten seconds\")",
            ko: "경고 (\"10초\")",
        },
        Kind::TimeUp => Text {
            en: "Time's up, with the draw",
            ko: "시간 초과와 가져갈 타일",
        },
        Kind::Flag => Text {
            en: "Chess clock: out of time",
            ko: "체스 시계: 시간 다 씀",
        },
        Kind::Pause => Text {
            en: "Pause and resume",
            ko: "일시정지와 계속",
        },
        Kind::Result => Text {
            en: "Winner of a game and of the match",
            ko: "판 승자와 최종 우승",
        },
    };
    text.get(lang)
}

/// "Test voice" in one language, named in that language.
pub fn test_button(lang: Language, spoken: Language) -> String {
    match lang {
        Language::English => format!("Test voice ({})", spoken.native_name()),
        Language::Korean => format!("음성 시험 ({})", spoken.native_name()),
    }
}

/// Which engine speaks, or that none does.
pub fn engine_line(lang: Language, engine: Option<Engine>) -> String {
    match (lang, engine) {
        (Language::English, Some(e)) => format!("Speech engine: {}", e.program()),
        (Language::Korean, Some(e)) => format!("음성 엔진: {}", e.program()),
        (_, None) => NO_VOICE.get(lang).to_owned(),
    }
}

/// The notice: the voice is on and nothing can speak.
pub const NO_VOICE: Text = Text {
    en: "No speech engine on this computer: nothing is said aloud (the sounds work as before).",
    ko: "이 컴퓨터에 음성 엔진이 없어 소리 내어 알려 줄 수 없습니다 (알림음은 그대로 울립니다).",
};

/// The notice's detail: what to install.
pub const NO_VOICE_DETAIL: Text = Text {
    en: "Install speech-dispatcher (spd-say) or espeak-ng, then start the program again.",
    ko: "speech-dispatcher(spd-say)나 espeak-ng를 설치한 뒤 프로그램을 다시 시작하세요.",
};

/// The notice: the engine failed.
pub const VOICE_FAILED: Text = Text {
    en: "The speech engine failed: some words were not said (the sounds work as before).",
    ko: "음성 엔진이 실패해 일부 안내를 말하지 못했습니다 (알림음은 그대로 울립니다).",
};

/// The spoken names' heading.
pub const SPOKEN_NAMES: Text = Text {
    en: "How names are said",
    ko: "이름 읽는 법",
};

/// The spoken names' hint.
pub const SPOKEN_HINT: Text = Text {
    en: "Optional: a nickname in Hangul, or the name as it should sound. Empty: said as written.",
    ko: "선택: 한글 별명이나 소리 나는 대로 쓴 이름. 비워 두면 쓰인 대로 읽습니다.",
};
