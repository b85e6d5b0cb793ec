//! Words of the exported score card (the picture "Export picture" writes), both languages side
//! by side. Kept apart from the window's words so the card's live in one place.

use crate::lang::{Language, Text};

/// The card's title.
pub const TITLE: Text = Text {
    en: "Rummikub score sheet",
    ko: "루미큐브 점수표",
};

/// The chart's heading.
pub const RUNNING_TOTALS: Text = Text {
    en: "Running totals",
    ko: "누적 점수",
};

/// Under the title: the sheet's name, when it was started and how many games it holds.
pub fn sheet_line(lang: Language, sheet: &str, started: &str, games: usize) -> String {
    match lang {
        Language::English => {
            let games = if games == 1 {
                "1 game".to_owned()
            } else {
                format!("{games} games")
            };
            format!("Sheet {sheet} · started {started} · {games}")
        }
        Language::Korean => format!("점수표 {sheet} · {started} 시작 · {games}게임"),
    }
}

/// At the bottom: what made the card, and when.
pub fn footer(lang: Language, made: &str) -> String {
    match lang {
        Language::English => format!("Rummikub Companion · exported {made}"),
        Language::Korean => format!("루미큐브 도우미 · {made} 내보냄"),
    }
}

/// The card could not be drawn (a fault in drawing it; the sheet is untouched).
pub const NOT_DRAWN: Text = Text {
    en: "the score card could not be drawn",
    ko: "점수표 그림을 그리지 못했습니다",
};
