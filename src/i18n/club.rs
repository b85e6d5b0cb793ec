//! The words of a club night's tables at play: the table page a phone opens from its table's QR
//! code (handed to `table.js` as JSON, so the page holds no words of its own), the TV page's
//! live parts (whose turn, games done, the round clock) and the host's refusals.

use crate::event::live::TableRefusal;
use crate::lang::{Language, Text};
use crate::server::club::HostRefusal;

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
        "game_over",
        Text {
            en: "Game over? Each player enters their own rack, then everyone confirms.",
            ko: "게임이 끝났나요? 각자 자기 남은 패를 입력하고, 모두가 확인합니다.",
        },
    ),
    (
        "my_rack",
        Text {
            en: "My rack: tiles (R5 J) or their value; 0 if I went out",
            ko: "내 남은 패: 타일(빨5 조커) 또는 합계, 다 냈으면 0",
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
            en: "points",
            ko: "점",
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
        "offline",
        Text {
            en: "Reconnecting to the laptop…",
            ko: "노트북에 다시 연결하는 중…",
        },
    ),
    (
        "failed",
        Text {
            en: "The laptop did not answer; try again",
            ko: "노트북이 응답하지 않았습니다. 다시 시도하세요",
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

/// Why a phone's request was refused, in the phone's language; `names` are the table's players
/// in seat order (to name whose turn it is).
pub fn refusal(lang: Language, refusal: &HostRefusal, names: &[String]) -> String {
    let en = lang == Language::English;
    let name = |seat: usize| {
        names
            .get(seat)
            .cloned()
            .unwrap_or_else(|| (seat + 1).to_string())
    };
    match refusal {
        HostRefusal::NoSuchTable(t) => super::event::tv::no_table(lang, &t.to_string()),
        HostRefusal::WrongKey => if en {
            "This link is not this table's: scan your table's QR code again"
        } else {
            "이 테이블의 링크가 아닙니다. 테이블의 QR 코드를 다시 스캔하세요"
        }
        .into(),
        HostRefusal::Recorded(t) => {
            if en {
                format!("Table {t}'s result is in already; ask the organiser for a correction")
            } else {
                format!("{t}번 테이블의 결과가 이미 입력되었습니다. 수정은 진행자에게 요청하세요")
            }
        }
        HostRefusal::Event(r) => super::event::refusal(lang, r),
        HostRefusal::NotSaved(e) => {
            let why = super::store_error(lang, e);
            if en {
                format!(
                    "Not saved ({why}), so it was not kept. If the event is open in the app's \
                     window, enter the game there."
                )
            } else {
                format!(
                    "저장하지 못해({why}) 반영하지 않았습니다. 앱 창에서 이벤트가 열려 있으면 \
                     그곳에서 입력하세요."
                )
            }
        }
        HostRefusal::Table(t) => match t {
            TableRefusal::NoSuchSeat(s) => {
                if en {
                    format!("This table has no seat {}", s + 1)
                } else {
                    format!("이 테이블에 {}번 자리가 없습니다", s + 1)
                }
            }
            TableRefusal::NotYourTurn { turn } => {
                if en {
                    format!("It is {}'s turn, not yours", name(*turn))
                } else {
                    format!("지금은 {} 차례입니다", name(*turn))
                }
            }
            TableRefusal::Guarded => if en {
                "A second press: one turn ended"
            } else {
                "두 번 눌렸습니다. 차례는 한 번만 넘어갔습니다"
            }
            .into(),
            TableRefusal::NotRunning => if en {
                "The clock is not running: start it first"
            } else {
                "시계가 멈춰 있습니다. 먼저 시작하세요"
            }
            .into(),
            TableRefusal::AlreadyRunning => if en {
                "The clock is running already"
            } else {
                "시계가 이미 돌아가고 있습니다"
            }
            .into(),
            TableRefusal::Settling => if en {
                "Racks are being entered: this game's clock is over"
            } else {
                "남은 패를 입력하는 중입니다. 이번 게임의 시계는 끝났습니다"
            }
            .into(),
            TableRefusal::NotSettling => if en {
                "No rack has been entered yet"
            } else {
                "아직 입력된 남은 패가 없습니다"
            }
            .into(),
            TableRefusal::Missing { seats } => {
                let who: Vec<String> = seats.iter().map(|&s| name(s)).collect();
                if en {
                    format!("Still to enter their rack: {}", who.join(", "))
                } else {
                    format!("아직 남은 패를 입력하지 않은 사람: {}", who.join(", "))
                }
            }
            TableRefusal::Game(e) => super::score_error(lang, e),
            TableRefusal::Finished => if en {
                "Every game of this round is in"
            } else {
                "이번 라운드의 게임이 모두 입력되었습니다"
            }
            .into(),
        },
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
        Language::English => format!("Round {round}: seating (seat 1 starts)"),
        Language::Korean => format!("{round}라운드 자리 배정 (1번 자리가 선)"),
    }
}
