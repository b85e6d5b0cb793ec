//! The table speaks (issue 22): the Korean respelling for espeak-ng, the happenings' words in
//! both languages, the voice settings' old files, and the laptop's engines run as programs
//! (fake `spd-say` and `espeak-ng` scripts first on `PATH` that record what they are asked).

use std::time::Duration;

use rummikub_companion::i18n::Language;
use rummikub_companion::speech::phrases::{Happening, VoiceSettings, phrase};
use rummikub_companion::speech::respell::{for_engine, respell_korean, sino_korean};
use rummikub_companion::timer::{Alert, ChessClock, TimerEvent, TimerMode};

/// Written → as espeak-ng must be given it; every case of standard pronunciation the pass
/// implements, and words it must leave alone.
const RESPELLED: &[(&str, &str)] = &[
    // The phrases the table says.
    ("루미 차례입니다", "루미 차례임니다"),
    ("게임 종료", "게임 종뇨"),
    (
        "시간 초과 — 한 장 가져가세요",
        "시간 초과 — 한 장 가져가세요",
    ),
    ("루미 승리입니다", "루미 승니임니다"),
    ("루미 최종 우승입니다", "루미 최종 우승임니다"),
    ("10초", "십초"),
    ("25초", "이십오초"),
    // Nasalisation: a stop before ㄴ or ㅁ.
    ("입니다", "임니다"),
    ("합니다", "함니다"),
    ("국물", "궁물"),
    ("끝나다", "끈나다"),
    ("없는", "엄는"),
    ("읽는", "잉는"),
    // ㄹ said ㄴ after ㅁ, ㅇ or a stop (then the stop is nasal).
    ("종료", "종뇨"),
    ("심리", "심니"),
    ("국립", "궁닙"),
    ("협력", "혐녁"),
    // Lateralisation.
    ("신라", "실라"),
    ("설날", "설랄"),
    // ㅎ: aspiration and silence.
    ("좋다", "조타"),
    ("많다", "만타"),
    ("축하", "추카"),
    ("입학", "이팍"),
    ("좋아", "조아"),
    ("놓는", "논는"),
    // Tensing after a stop.
    ("학교", "학꾜"),
    ("했습니다", "했씀니다"),
    // Palatalisation.
    ("같이", "가치"),
    ("굳이", "구지"),
    // Left alone: no sound change, a space between words, Latin letters, punctuation.
    ("다시 시작", "다시 시작"),
    ("일시 정지", "일시 정지"),
    ("입 니다", "입 니다"),
    ("Rumi's turn", "Rumi's turn"),
    ("루미", "루미"),
];

#[test]
fn the_korean_respelling_writes_words_as_pronounced() {
    for (written, said) in RESPELLED {
        assert_eq!(respell_korean(written), *said, "respelling {written}");
    }
    // The pass is idempotent on its own output for these (nothing is changed twice).
    for (_, said) in RESPELLED
        .iter()
        .filter(|(w, _)| !w.chars().any(|c| c.is_ascii_digit()))
    {
        assert_eq!(respell_korean(said), *said, "respelling {said} again");
    }
}

#[test]
fn sino_korean_numbers_read_as_before_cho() {
    let cases = [
        (1, "일"),
        (10, "십"),
        (11, "십일"),
        (20, "이십"),
        (30, "삼십"),
        (100, "백"),
        (110, "백십"),
        (1000, "천"),
        (10_000, "만"),
        (12_345, "만이천삼백사십오"),
    ];
    for (n, words) in cases {
        assert_eq!(sino_korean(n), words, "{n}");
    }
}

#[test]
fn the_engine_gets_a_comma_for_the_dash_and_korean_respelled() {
    assert_eq!(
        for_engine(Language::Korean, "시간 초과 — 한 장 가져가세요"),
        "시간 초과, 한 장 가져가세요"
    );
    assert_eq!(
        for_engine(Language::Korean, "루미 차례입니다"),
        "루미 차례임니다"
    );
    // English is never respelled.
    assert_eq!(for_engine(Language::English, "Rumi's turn"), "Rumi's turn");
}

fn both(h: &Happening) -> (String, String) {
    (phrase(Language::English, h), phrase(Language::Korean, h))
}

#[test]
fn each_happening_has_its_words_in_both_languages() {
    let name = |n: &str| n.to_owned();
    let cases: Vec<(Happening, &str, &str)> = vec![
        (
            Happening::Turn { name: name("Rumi") },
            "Rumi's turn",
            "Rumi 차례입니다",
        ),
        (
            Happening::Turn {
                name: name("루미")
            },
            "루미's turn",
            "루미 차례입니다",
        ),
        (Happening::Warning { seconds: 10 }, "ten seconds", "10초"),
        (
            Happening::Warning { seconds: 15 },
            "fifteen seconds",
            "15초",
        ),
        (
            Happening::Warning { seconds: 25 },
            "twenty-five seconds",
            "25초",
        ),
        (Happening::Warning { seconds: 1 }, "one second", "1초"),
        (
            Happening::TimeUp { draw: 1 },
            "time's up — draw one",
            "시간 초과 — 한 장 가져가세요",
        ),
        (
            Happening::TimeUp { draw: 3 },
            "time's up — draw three",
            "시간 초과 — 세 장 가져가세요",
        ),
        (
            Happening::Flag {
                name: name("큐브")
            },
            "큐브 is out of time",
            "큐브, 시간이 다 됐습니다",
        ),
        (Happening::Paused, "paused", "일시 정지"),
        (Happening::Resumed, "resumed", "다시 시작"),
        (
            Happening::GameWon {
                name: name("퍼니")
            },
            "퍼니 wins the game",
            "퍼니 승리입니다",
        ),
        (
            Happening::MatchWon {
                names: vec![name("알토")],
            },
            "알토 wins the match",
            "알토 최종 우승입니다",
        ),
        (
            Happening::MatchWon {
                names: vec![name("루미"), name("큐브")],
            },
            "루미 and 큐브 share the win",
            "루미, 큐브 공동 우승입니다",
        ),
    ];
    for (happening, en, ko) in cases {
        assert_eq!(
            both(&happening),
            (en.to_owned(), ko.to_owned()),
            "{happening:?}"
        );
    }
}

#[test]
fn timer_alerts_map_to_what_is_said() {
    let s = Duration::from_secs;
    let event = |alert| TimerEvent {
        alert,
        turn: 3,
        player: 1,
        due: s(50),
        running: s(50),
    };
    let seat = |i: usize| ["루미", "큐브"][i].to_owned();
    let chess = TimerMode::ChessClock(ChessClock::default());
    // The warning says the table's warning time, whatever it is.
    assert_eq!(
        Happening::of_alert(&event(Alert::Warning), TimerMode::PerTurn, s(15), seat),
        Some(Happening::Warning { seconds: 15 })
    );
    // A per-turn time-up names the rules' draw (1); a chess clock's is the player's flag.
    assert_eq!(
        Happening::of_alert(&event(Alert::TimeUp), TimerMode::PerTurn, s(10), seat),
        Some(Happening::TimeUp { draw: 1 })
    );
    assert_eq!(
        Happening::of_alert(&event(Alert::TimeUp), chess, s(10), seat),
        Some(Happening::Flag {
            name: "큐브".into()
        })
    );
    // Ticks are sounds only.
    assert_eq!(
        Happening::of_alert(&event(Alert::Tick(3)), TimerMode::PerTurn, s(10), seat),
        None
    );
}

#[test]
fn voice_settings_switch_each_kind_and_the_test_speaks_even_when_off() {
    let turn = Happening::Turn {
        name: "Rumi".into(),
    };
    let test = Happening::Test {
        name: "Rumi".into(),
    };
    let on = VoiceSettings::default();
    assert!(on.says(&turn) && on.says(&Happening::Paused));
    let no_turns = VoiceSettings { turn: false, ..on };
    assert!(!no_turns.says(&turn));
    assert!(no_turns.says(&Happening::Warning { seconds: 10 }));
    let off = VoiceSettings { on: false, ..on };
    assert!(!off.says(&turn));
    assert!(off.says(&test));
    let silent = VoiceSettings { volume: 0.0, ..on };
    assert!(!silent.says(&test));
}
