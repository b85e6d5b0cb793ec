//! The phone page's words: every message the page shows, both languages side by side, served
//! to the page as `words.js` ([`script`]).
//!
//! Why here and not in `app.js`: one home per message. A message the page shows lives next to
//! its translation, in Rust, where `tests/suite/i18n.rs` checks every message has both
//! languages and the same placeholders in each, and `tests/suite/server.rs` checks that every
//! word the page asks for exists here and no word is left in the script. The page stays a
//! plain file with no build step: the server makes the small `words.js` from this table, once.
//!
//! A message with values is a template: `{name}` (a player's name) or `{n}` (a number), filled
//! in by the page. The evening's refusals are not here: the page shows the words the evening
//! sends with each refusal, already in the page's language (`crate::evening::words::refusal`).

use std::sync::LazyLock;

use crate::lang::{Language, Text};

/// Every message of the phone page: its key (what `app.js` asks for) and its words.
pub const WORDS: &[(&str, Text)] = &[
    // Loading and the link.
    (
        "connecting",
        Text {
            en: "Connecting to the laptop…",
            ko: "노트북에 연결하는 중…",
        },
    ),
    (
        "offline",
        Text {
            en: "This link no longer works. Scan the new QR code on the laptop.",
            ko: "이 링크는 더 이상 쓸 수 없습니다. 노트북의 새 QR 코드를 스캔하세요.",
        },
    ),
    (
        "noPlayers",
        Text {
            en: "No players yet: set them up on the laptop.",
            ko: "아직 플레이어가 없습니다: 노트북에서 정하세요.",
        },
    ),
    // The connection.
    (
        "disconnected",
        Text {
            en: "Disconnected from the laptop · reconnecting…",
            ko: "노트북과 연결이 끊겼습니다 · 다시 연결 중…",
        },
    ),
    (
        "reconnectIn",
        Text {
            en: "Disconnected from the laptop · retrying in {n} s",
            ko: "노트북과 연결이 끊겼습니다 · {n}초 후 다시 시도",
        },
    ),
    (
        "lost",
        Text {
            en: "Connection lost",
            ko: "연결이 끊겼습니다",
        },
    ),
    (
        "lostHint",
        Text {
            en: "The clock is hidden until the laptop answers again.",
            ko: "노트북과 다시 연결될 때까지 시계를 표시하지 않습니다.",
        },
    ),
    // Picking a seat.
    (
        "pickTitle",
        Text {
            en: "Which seat is yours?",
            ko: "내 자리를 고르세요",
        },
    ),
    (
        "seatTaken",
        Text {
            en: "Already on another phone",
            ko: "이미 다른 휴대폰에서 쓰는 중",
        },
    ),
    (
        "takeSeatQuestion",
        Text {
            en: "{name} is already on another phone. Use this seat on this phone too?",
            ko: "{name} 자리는 이미 다른 휴대폰에서 쓰고 있습니다. 이 휴대폰에서도 쓸까요?",
        },
    ),
    (
        "takeSeat",
        Text {
            en: "Use it here too",
            ko: "여기서도 쓰기",
        },
    ),
    (
        "cancel",
        Text {
            en: "Cancel",
            ko: "취소",
        },
    ),
    (
        "change",
        Text {
            en: "Change seat",
            ko: "자리 바꾸기",
        },
    ),
    (
        "me",
        Text {
            en: "You: {name}",
            ko: "나: {name}",
        },
    ),
    (
        "alsoElsewhere",
        Text {
            en: "This seat is open on another phone too.",
            ko: "이 자리는 다른 휴대폰에서도 열려 있습니다.",
        },
    ),
    // Whose turn.
    (
        "yourTurn",
        Text {
            en: "Your turn",
            ko: "내 차례",
        },
    ),
    (
        "turnOf",
        Text {
            en: "{name}'s turn",
            ko: "{name} 차례",
        },
    ),
    (
        "notStarted",
        Text {
            en: "Not started · {name} starts",
            ko: "시작 전 · {name} 먼저",
        },
    ),
    (
        "paused",
        Text {
            en: "Paused",
            ko: "일시정지",
        },
    ),
    (
        "next",
        Text {
            en: "Next: {name}",
            ko: "다음: {name}",
        },
    ),
    (
        "youNext",
        Text {
            en: "You are next",
            ko: "다음은 내 차례",
        },
    ),
    // The buttons.
    (
        "endMine",
        Text {
            en: "End my turn",
            ko: "내 차례 끝내기",
        },
    ),
    (
        "endOf",
        Text {
            en: "End {name}'s turn",
            ko: "{name} 차례 끝내기",
        },
    ),
    (
        "pause",
        Text {
            en: "Pause",
            ko: "일시정지",
        },
    ),
    (
        "resume",
        Text {
            en: "Resume",
            ko: "계속",
        },
    ),
    (
        "start",
        Text {
            en: "Start",
            ko: "시작",
        },
    ),
    // The clock's cues.
    (
        "warning",
        Text {
            en: "Hurry up!",
            ko: "서두르세요!",
        },
    ),
    (
        "timeUp",
        Text {
            en: "Time's up! Draw a tile and end your turn.",
            ko: "시간 끝! 타일 한 장을 가져가고 차례를 끝내세요.",
        },
    ),
    (
        "timeUpOther",
        Text {
            en: "{name}'s time is up",
            ko: "{name}의 시간이 끝났습니다",
        },
    ),
    // The rack at the end of a game.
    (
        "rackLabel",
        Text {
            en: "Your remaining tiles (a number or tiles)",
            ko: "내 남은 타일 (숫자 또는 타일)",
        },
    ),
    (
        "rackHint",
        Text {
            en: "e.g. 17, or R5 K7 J · 0 if you went out",
            ko: "예: 17 또는 R5 K7 J · 다 냈으면 0",
        },
    ),
    (
        "send",
        Text {
            en: "Send",
            ko: "보내기",
        },
    ),
    (
        "sent",
        Text {
            en: "Sent to the laptop",
            ko: "노트북에 보냈습니다",
        },
    ),
    // Speech: the switches, and what the phone says (the words the laptop says too, as
    // `speech::phrases` words them; a test keeps the two the same).
    (
        "speakLabel",
        Text {
            en: "Speak (my turn)",
            ko: "음성 안내 (내 차례)",
        },
    ),
    (
        "speakAllLabel",
        Text {
            en: "Speak every event",
            ko: "모든 안내 듣기",
        },
    ),
    (
        "sayYourTurn",
        Text {
            en: "{name}, your turn",
            ko: "{name} 차례입니다",
        },
    ),
    (
        "sayTurnOf",
        Text {
            en: "{name}'s turn",
            ko: "{name} 차례입니다",
        },
    ),
    (
        "sayWarning",
        Text {
            en: "{n} seconds",
            ko: "{n}초",
        },
    ),
    (
        "sayTimeUp",
        Text {
            en: "time's up — draw one",
            ko: "시간 초과 — 한 장 가져가세요",
        },
    ),
    (
        "sayFlag",
        Text {
            en: "{name} is out of time",
            ko: "{name}, 시간이 다 됐습니다",
        },
    ),
    (
        "sayPaused",
        Text {
            en: "paused",
            ko: "일시 정지",
        },
    ),
    (
        "sayResumed",
        Text {
            en: "resumed",
            ko: "다시 시작",
        },
    ),
    // The footer.
    (
        "beep",
        Text {
            en: "Beep",
            ko: "알림음",
        },
    ),
    (
        "noWakeLock",
        Text {
            en: "Tip: set a long screen timeout (keep-awake needs https).",
            ko: "팁: 화면 꺼짐 시간을 길게 하세요 (화면 유지는 https 필요).",
        },
    ),
    // What the server or the network refused (the evening words its own refusals).
    (
        "errForbidden",
        Text {
            en: "This link no longer works.",
            ko: "이 링크는 더 이상 쓸 수 없습니다.",
        },
    ),
    (
        "errBadRequest",
        Text {
            en: "The laptop did not understand.",
            ko: "노트북이 이해하지 못했습니다.",
        },
    ),
    (
        "errBusy",
        Text {
            en: "The laptop is busy, try again.",
            ko: "노트북이 바쁩니다. 다시 해 보세요.",
        },
    ),
    (
        "errNetwork",
        Text {
            en: "Not sent: no connection.",
            ko: "보내지 못했습니다: 연결 없음.",
        },
    ),
];

/// The words of `key` (`None` if the page asks for a word that does not exist).
///
/// # Example
/// ```
/// use rummikub_companion::i18n::{phone};
/// use rummikub_companion::lang::Language;
/// assert_eq!(phone::word("start").map(|t| t.get(Language::Korean)), Some("시작"));
/// assert!(phone::word("no such word").is_none());
/// ```
pub fn word(key: &str) -> Option<Text> {
    WORDS.iter().find(|(k, _)| *k == key).map(|(_, text)| *text)
}

/// `words.js`: a script that sets `window.RC_WORDS` to `{"en": {key: words, …}, "ko": {…}}`,
/// with only `lang` when one is asked for. Made once per variant.
///
/// # Example
/// ```
/// use rummikub_companion::i18n::{phone};
/// use rummikub_companion::lang::Language;
/// let ko = phone::script(Some(Language::Korean));
/// assert!(ko.contains("window.RC_WORDS = {\"ko\":{") && ko.contains("\"start\":\"시작\""));
/// assert!(!ko.contains("\"en\""));
/// assert!(phone::script(None).contains("\"en\":{"));
/// ```
pub fn script(lang: Option<Language>) -> &'static str {
    static BOTH: LazyLock<String> = LazyLock::new(|| make_script(&Language::ALL));
    static EN: LazyLock<String> = LazyLock::new(|| make_script(&[Language::English]));
    static KO: LazyLock<String> = LazyLock::new(|| make_script(&[Language::Korean]));
    match lang {
        None => &BOTH,
        Some(Language::English) => &EN,
        Some(Language::Korean) => &KO,
    }
}

/// The language's code in the page (`navigator.language` starts with it).
fn code(lang: Language) -> &'static str {
    match lang {
        Language::English => "en",
        Language::Korean => "ko",
    }
}

fn make_script(langs: &[Language]) -> String {
    let table: serde_json::Map<String, serde_json::Value> = langs
        .iter()
        .map(|&lang| {
            let words: serde_json::Map<String, serde_json::Value> = WORDS
                .iter()
                .map(|(key, text)| ((*key).to_owned(), text.get(lang).into()))
                .collect();
            (code(lang).to_owned(), words.into())
        })
        .collect();
    // JSON is JavaScript; `<` is escaped so no word could ever close a script element.
    let json = serde_json::Value::Object(table)
        .to_string()
        .replace('<', "\\u003c");
    format!(
        "// The phone page's words, made by the laptop from src/i18n/phone.rs.\n\
         window.RC_WORDS = {json};\n"
    )
}
