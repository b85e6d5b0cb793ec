//! The words of a club night's tables at play: the table page a phone opens from its table's QR
//! code (handed to `table.js` as JSON, so the page holds no words of its own), the TV page's
//! live parts (whose turn, games done, the round clock) and the host's refusals.

use crate::lang::{Language, Text};

/// The table page's fixed words, by the key `table.js` looks them up with.
pub const PAGE: &[(&str, Text)] = &[
    (
        "who",
        Text {
            en: "Which seat is yours?",
            ko: "내 자리를 고르세요",
        },
    ),
    (
        "taken",
        Text {
            en: "taken",
            ko: "사용 중",
        },
    ),
    (
        "all_taken",
        Text {
            en: "Every seat at this table is held by a phone. If one of them is yours, ask the \
                 organiser to free it.",
            ko: "이 테이블의 자리는 모두 휴대폰이 가져갔습니다. 그중 내 자리가 있다면 진행자에게 \
                 비워 달라고 하세요.",
        },
    ),
    (
        "change_seat",
        Text {
            en: "Not me: change seat",
            ko: "내 자리가 아님: 자리 바꾸기",
        },
    ),
    (
        "start",
        Text {
            en: "Start the clock",
            ko: "시계 시작",
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
        "end_turn",
        Text {
            en: "End my turn",
            ko: "내 차례 끝",
        },
    ),
    (
        "your_turn",
        Text {
            en: "Your turn",
            ko: "내 차례입니다",
        },
    ),
    (
        "turn_of",
        Text {
            en: "{name}'s turn",
            ko: "{name} 차례",
        },
    ),
    (
        "paused",
        Text {
            en: "Paused",
            ko: "일시정지됨",
        },
    ),
    (
        "stopped",
        Text {
            en: "The clock is stopped",
            ko: "시계가 멈춰 있습니다",
        },
    ),
    (
        "time_up",
        Text {
            en: "Time is up",
            ko: "시간 초과",
        },
    ),
    (
        "game_of",
        Text {
            en: "Game {n} of {total}",
            ko: "{total}게임 중 {n}번째 게임",
        },
    ),
    (
        "game_end",
        Text {
            en: "Is the game over?",
            ko: "게임이 끝났나요?",
        },
    ),
    (
        "went_out",
        Text {
            en: "I went out",
            ko: "내가 다 냈음",
        },
    ),
    (
        "pool_out",
        Text {
            en: "The pool ran out",
            ko: "더미가 떨어졌음",
        },
    ),
    (
        "again",
        Text {
            en: "{what}: tap again to end the game",
            ko: "{what}: 게임을 끝내려면 한 번 더 누르세요",
        },
    ),
    (
        "ended_out",
        Text {
            en: "Game over: {name} went out",
            ko: "게임 종료: {name} 님이 다 냈습니다",
        },
    ),
    (
        "ended_pool",
        Text {
            en: "Game over: the pool ran out",
            ko: "게임 종료: 더미가 떨어졌습니다",
        },
    ),
    (
        "game_over",
        Text {
            en: "Each player enters their own rack, then everyone confirms the game.",
            ko: "각자 자기 남은 패를 입력하고, 모두가 게임을 확인합니다.",
        },
    ),
    (
        "you_out",
        Text {
            en: "You went out: 0 left",
            ko: "내가 다 냈음: 남은 패 0",
        },
    ),
    (
        "my_rack",
        Text {
            en: "My rack: tiles (R5 J) or their value",
            ko: "내 남은 패: 타일(빨5 조커) 또는 합계",
        },
    ),
    (
        "not_melded",
        Text {
            en: "I had not made my initial meld",
            ko: "아직 등록하지 못했음",
        },
    ),
    (
        "save_rack",
        Text {
            en: "Save my rack",
            ko: "내 남은 패 저장",
        },
    ),
    (
        "withdraw",
        Text {
            en: "Take my rack back",
            ko: "내 남은 패 취소",
        },
    ),
    (
        "reopen",
        Text {
            en: "Back to the game (not over)",
            ko: "게임으로 돌아가기 (아직 안 끝남)",
        },
    ),
    (
        "racks",
        Text {
            en: "Racks of this game",
            ko: "이번 게임의 남은 패",
        },
    ),
    (
        "not_entered",
        Text {
            en: "not entered",
            ko: "입력 전",
        },
    ),
    (
        "confirmed",
        Text {
            en: "confirmed",
            ko: "확인함",
        },
    ),
    (
        "to_confirm",
        Text {
            en: "to confirm",
            ko: "확인 전",
        },
    ),
    (
        "confirm",
        Text {
            en: "Confirm this game",
            ko: "이 게임이 맞습니다",
        },
    ),
    (
        "you_confirmed",
        Text {
            en: "You confirmed: waiting for the others",
            ko: "확인함: 다른 사람을 기다리는 중",
        },
    ),
    (
        "winner",
        Text {
            en: "Winner (only when the pool ran out in a tie)",
            ko: "승자 (더미가 떨어져 동점일 때만)",
        },
    ),
    (
        "no_winner",
        Text {
            en: "not named",
            ko: "지정 안 함",
        },
    ),
    (
        "points",
        Text {
            en: "{n} points",
            ko: "{n}점",
        },
    ),
    (
        "saved",
        Text {
            en: "Saved on the laptop",
            ko: "노트북에 저장됨",
        },
    ),
    (
        "finished",
        Text {
            en: "Every game of this round is in. Thank you!",
            ko: "이번 라운드의 게임이 모두 입력되었습니다. 감사합니다!",
        },
    ),
    (
        "recorded",
        Text {
            en: "This table's result is in.",
            ko: "이 테이블의 결과가 입력되었습니다.",
        },
    ),
    (
        "failed",
        Text {
            en: "The laptop did not answer; try again",
            ko: "노트북이 응답하지 않았습니다. 다시 시도하세요",
        },
    ),
    (
        "language",
        Text {
            en: "Language",
            ko: "언어",
        },
    ),
];

/// The mark of a rack of a player who had not melded (also on the page).
pub const PAGE_NOT_MELDED: Text = Text {
    en: "not melded",
    ko: "미등록",
};

/// A paused table clock, on the TV page.
pub const PAGE_PAUSED: Text = Text {
    en: "paused",
    ko: "일시정지",
};

/// The table page's words in `lang`, as the JSON object `table.js` reads.
pub fn page_words(lang: Language) -> serde_json::Value {
    PAGE.iter()
        .map(|(key, text)| ((*key).to_owned(), text.get(lang).into()))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// The round clock on the TV page: `{m}` is filled in by `tv.js` as it counts down.
pub const ROUND_LEFT: Text = Text {
    en: "{m} min left in the round",
    ko: "라운드 종료까지 {m}분",
};

/// The round clock ran out.
pub const ROUND_OVER: Text = Text {
    en: "Round time is up: finish the game in play",
    ko: "라운드 시간 종료: 진행 중인 게임까지만 합니다",
};

/// Whose turn it is, on the TV page.
pub fn to_play(lang: Language, name: &str) -> String {
    match lang {
        Language::English => format!("{name} to play"),
        Language::Korean => format!("{name} 차례"),
    }
}

/// Games done of the round's, on the TV page.
pub fn games_done(lang: Language, done: usize, total: u32) -> String {
    match lang {
        Language::English => format!("{done} of {total} games"),
        Language::Korean => format!("{total}게임 중 {done}게임 완료"),
    }
}

/// Racks being entered and confirmed, on the TV page.
pub fn settling(lang: Language, confirmed: usize, seats: usize) -> String {
    match lang {
        Language::English => format!("racks: {confirmed} of {seats} confirmed"),
        Language::Korean => format!("남은 패: {seats}명 중 {confirmed}명 확인"),
    }
}

/// A rack that is not tiles or a value.
pub const BAD_REQUEST: Text = Text {
    en: "That is not a request this page sends",
    ko: "이 페이지가 보내는 요청이 아닙니다",
};

/// A request from outside the local network.
pub const ONLY_LOCAL: Text = Text {
    en: "Only the local network is answered",
    ko: "로컬 네트워크에서만 응답합니다",
};

/// A request body larger than a table page ever sends.
pub const TOO_LARGE: Text = Text {
    en: "That request is too large for this page",
    ko: "이 페이지가 보내기에는 너무 큰 요청입니다",
};

/// The host failed to answer (it stopped meanwhile).
pub const FAILED: Text = Text {
    en: "The laptop could not answer; try again",
    ko: "노트북이 응답하지 못했습니다. 다시 시도하세요",
};

/// A page of an earlier round, or a link that is not this table's any more.
pub const SCAN_NEW: Text = Text {
    en: "This round is over for this page: scan your new table's QR code on the TV",
    ko: "이 페이지의 라운드는 끝났습니다. TV에서 새 테이블의 QR 코드를 스캔하세요",
};

/// How many games a seat starts this round (beside the name on the TV).
pub fn starts(lang: Language, games: usize) -> String {
    match (lang, games) {
        (Language::English, 1) => "starts a game".into(),
        (Language::English, n) => format!("starts {n} games"),
        (Language::Korean, n) => format!("선 {n}게임"),
    }
}

/// A finished table's winner (most points; several when tied).
pub fn table_winner(lang: Language, names: &[&str]) -> String {
    let names = names.join(", ");
    match lang {
        Language::English => format!("Winner: {names}"),
        Language::Korean => format!("1위: {names}"),
    }
}

/// The Event view's button: host the tables from the window.
pub const HOST_START: Text = Text {
    en: "Host the tables: TV page and phones",
    ko: "테이블 진행: TV 화면과 휴대폰",
};

/// Beside "Host the tables": the round clock the TV page shows.
pub const ROUND_CLOCK: Text = Text {
    en: "Round clock:",
    ko: "라운드 시간:",
};

/// The round clock's field at 0.
pub const ROUND_CLOCK_NONE: Text = Text {
    en: "none",
    ko: "없음",
};

/// The round clock's field, on hover.
pub const ROUND_CLOCK_HINT: Text = Text {
    en: "Minutes per round, from when the hosting first shows it; the TV page counts them down \
         (0: no round clock)",
    ko: "라운드마다의 시간(분), 진행이 그 라운드를 처음 보여 줄 때부터; TV 화면이 거꾸로 셉니다 \
         (0: 라운드 시계 없음)",
};

/// After the round clock's field.
pub const MINUTES: Text = Text {
    en: "min",
    ko: "분",
};

/// The Event view's button while hosting.
pub const HOST_STOP: Text = Text {
    en: "Stop hosting",
    ko: "진행 멈추기",
};

/// While the window hosts the tables: where the TV page is (each table's QR code is on it).
pub fn hosting(lang: Language, url: &str) -> String {
    match lang {
        Language::English => {
            format!("Hosting the tables. TV page (each table's QR code is on it): {url}")
        }
        Language::Korean => {
            format!("테이블 진행 중. TV 화면(테이블마다 QR 코드가 있습니다): {url}")
        }
    }
}

/// The seating sheet's heading: round R.
pub fn seating_title(lang: Language, round: u32) -> String {
    match lang {
        Language::English => format!("Round {round}: seating"),
        Language::Korean => format!("{round}라운드 자리 배정"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys `table.js` looks words up with (`words.key`).
    fn keys_the_page_reads() -> Vec<String> {
        let script = include_str!("../../assets/web/table.js");
        let mut keys: Vec<String> = script
            .split("words.")
            .skip(1)
            .map(|rest| {
                rest.chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect()
            })
            .collect();
        keys.sort();
        keys.dedup();
        keys
    }

    #[test]
    fn every_word_the_table_page_reads_is_in_both_languages_and_every_page_word_is_read() {
        let read = keys_the_page_reads();
        assert!(read.len() > 20, "{read:?}");
        let have: Vec<&str> = PAGE.iter().map(|(k, _)| *k).collect();
        for key in &read {
            assert!(have.contains(&key.as_str()), "table.js reads words.{key}");
        }
        for (key, text) in PAGE {
            assert!(read.iter().any(|k| k == key), "{key} is never shown");
            assert!(!text.en.is_empty(), "{key}");
            assert_ne!(text.en, text.ko, "{key} has no Korean");
            assert!(
                text.ko.chars().any(|c| ('가'..='힣').contains(&c)),
                "{key}: {}",
                text.ko
            );
            // A template's blanks are the same in both languages.
            let blanks = |s: &str| {
                let mut b: Vec<String> = s
                    .split('{')
                    .skip(1)
                    .filter_map(|r| r.split_once('}').map(|(n, _)| n.to_owned()))
                    .collect();
                b.sort();
                b
            };
            assert_eq!(blanks(text.en), blanks(text.ko), "{key}");
        }
        let words = page_words(Language::Korean);
        assert_eq!(words["who"], "내 자리를 고르세요");
    }
}
