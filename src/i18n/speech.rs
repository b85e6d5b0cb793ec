//! The window's words about the voice (Settings, the notices), both languages side by side.
//! What the voice *says* is not here: it is [`crate::speech::phrases`], pure and tested with
//! the happenings it words.

use super::{Josa, josa};
use crate::lang::{Language, Text};
use crate::speech::phrases::Kind;
use crate::speech::{Engine, SpeechProblem, Trouble};

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

/// The notice's line for an engine's failure: another engine took over, or some words were
/// not said.
pub fn failed_line(lang: Language, problem: &SpeechProblem) -> String {
    match (lang, problem.instead) {
        (Language::English, Some(instead)) => format!(
            "{} did not answer: the voice speaks through {} from now on.",
            problem.engine.program(),
            instead.program()
        ),
        (Language::Korean, Some(instead)) => format!(
            "{} 응답하지 않아 이제부터 {} 말합니다.",
            josa(problem.engine.program(), Josa::IGa),
            josa(instead.program(), Josa::EuroRo)
        ),
        (_, None) => VOICE_FAILED.get(lang).to_owned(),
    }
}

/// What went wrong with the engine, in words (the notice's detail).
pub fn trouble(lang: Language, problem: &SpeechProblem) -> String {
    let program = problem.engine.program();
    match (lang, &problem.trouble) {
        (Language::English, Trouble::Hung(limit)) => format!(
            "{program} gave no answer within {} s and was stopped.",
            limit.as_secs()
        ),
        (Language::Korean, Trouble::Hung(limit)) => format!(
            "{} {}초 안에 답하지 않아 멈췄습니다.",
            josa(program, Josa::IGa),
            limit.as_secs()
        ),
        (Language::English, Trouble::Failed(Some(code))) => {
            format!("{program} ended with error code {code}.")
        }
        (Language::Korean, Trouble::Failed(Some(code))) => {
            format!(
                "{} 오류 코드 {} 끝났습니다.",
                josa(program, Josa::IGa),
                josa(&code.to_string(), Josa::EuroRo)
            )
        }
        (Language::English, Trouble::Failed(None)) => format!("{program} was stopped."),
        (Language::Korean, Trouble::Failed(None)) => {
            format!("{} 중간에 멈췄습니다.", josa(program, Josa::IGa))
        }
        (lang, Trouble::NotStarted(kind)) => match lang {
            Language::English => format!(
                "{program} could not be started: {}",
                super::io_error(lang, &std::io::Error::from(*kind))
            ),
            Language::Korean => format!(
                "{} 시작할 수 없습니다: {}",
                josa(program, Josa::EulReul),
                super::io_error(lang, &std::io::Error::from(*kind))
            ),
        },
        (Language::English, Trouble::ThreadGone) => "The speaking thread has stopped.".to_owned(),
        (Language::Korean, Trouble::ThreadGone) => "말하는 스레드가 멈췄습니다.".to_owned(),
    }
}

/// The spoken names' heading.
pub const SPOKEN_NAMES: Text = Text {
    en: "How names are said",
    ko: "이름 읽는 법",
};

/// The spoken names' hint: what a table in this language writes there (an English table
/// spells a name as it sounds; a Korean one writes a name in Hangul).
pub const SPOKEN_HINT: Text = Text {
    en: "Optional: the name as it should sound (\"Jee-hoon\" for 지훈). Empty: said as \
         written, a Hangul name with the Korean voice.",
    ko: "선택: 소리 나는 대로 쓴 이름 (예: Ann → 앤). 비워 두면 쓰인 대로 읽고, 영문 이름은 \
         영어 음성으로 읽습니다.",
};
