//! The evening's words that name its own values: why a command was refused, what a draft still
//! lacks, and the change an undo offer names — both languages side by side. They live with the
//! evening (not in `i18n`, which sits below it and words the engine's values) so that `i18n`
//! never imports what stands above it.

use crate::i18n::{Josa, josa, remaining_error, rule_changes, score_error, timer_error};
use crate::lang::Language;

use super::{Change, DraftProblem, Refusal};

/// Why the evening would not do what was asked, for the window or a phone.
pub fn refusal(lang: Language, refusal: &Refusal) -> String {
    let en = lang == Language::English;
    match refusal {
        Refusal::Guarded => pick(
            en,
            "That press was part of the one before.",
            "방금 누른 것과 같은 동작으로 보았습니다.",
        ),
        Refusal::NotStarted => pick(
            en,
            "The timer has not been started.",
            "타이머가 시작되지 않았습니다.",
        ),
        Refusal::AlreadyStarted => pick(
            en,
            "The clock was already started.",
            "타이머가 이미 시작되었습니다.",
        ),
        Refusal::StaleTurn => pick(
            en,
            "That turn has already ended.",
            "그 차례는 이미 끝났습니다.",
        ),
        Refusal::NotYourTurn => pick(en, "It is not your turn.", "내 차례가 아닙니다."),
        Refusal::NoSuchSeat(seat) => match lang {
            Language::English => format!("There is no player {}.", seat + 1),
            Language::Korean => format!("{}번 자리에 플레이어가 없습니다.", seat + 1),
        },
        Refusal::SameName(a, b) => match lang {
            Language::English => format!("{a} and {b} are already counted as one player."),
            Language::Korean => format!(
                "{} {} 이미 한 사람으로 셉니다.",
                josa(a, Josa::GwaWa),
                josa(b, Josa::EunNeun)
            ),
        },
        Refusal::NotOnSheet(name) => match lang {
            Language::English => format!("{name} is not on the open sheet."),
            Language::Korean => format!("{} 열린 점수표에 없습니다.", josa(name, Josa::EunNeun)),
        },
        Refusal::NoForm => pick(
            en,
            "No game is being entered on the laptop.",
            "노트북에서 판 점수를 입력하고 있지 않습니다.",
        ),
        Refusal::EditingSavedGame => pick(
            en,
            "A saved game is being changed on the laptop: enter it there.",
            "노트북에서 저장된 판을 고치는 중입니다: 노트북에서 입력하세요.",
        ),
        Refusal::BadRack(e) => match lang {
            Language::English => format!("Not a number or tiles: {}", remaining_error(lang, e)),
            Language::Korean => format!("숫자나 타일이 아닙니다: {}", remaining_error(lang, e)),
        },
        Refusal::RackTooLong(n) => match lang {
            Language::English => format!(
                "{n} characters is too long for a rack (at most {}).",
                crate::server::MAX_RACK_TEXT
            ),
            Language::Korean => format!(
                "{n}자는 너무 깁니다 (최대 {}자).",
                crate::server::MAX_RACK_TEXT
            ),
        },
        Refusal::Draft(problem) => draft_problem(lang, problem),
        Refusal::Timer(e) => timer_error(lang, e),
        Refusal::Sheet(e) => e.worded(lang),
        Refusal::NothingToUndo => pick(en, "Nothing to undo here.", "되돌릴 것이 없습니다."),
        Refusal::NothingToRedo => pick(en, "Nothing to redo here.", "다시 할 것이 없습니다."),
        Refusal::OldLink => pick(
            en,
            "This link no longer works. Scan the new QR code on the laptop.",
            "이 링크는 더 이상 쓸 수 없습니다. 노트북의 새 QR 코드를 스캔하세요.",
        ),
        Refusal::NoSuchAddress(ip) => match lang {
            Language::English => {
                format!("{ip} is not an address of this laptop that phones can reach.")
            }
            Language::Korean => {
                format!("{ip} 주소는 휴대폰이 연결할 수 있는 이 노트북의 주소가 아닙니다.")
            }
        },
    }
}

/// What the form's game still lacks, in the language.
pub fn draft_problem(lang: Language, problem: &DraftProblem) -> String {
    match problem {
        DraftProblem::Missing(name) => (lang.strings().table.missing_left)(name),
        DraftProblem::Unreadable { name, error } => {
            format!("{name}: {}", remaining_error(lang, error))
        }
        DraftProblem::Score(e) => score_error(lang, e),
        DraftProblem::EditedGameChanged(n) => match lang {
            Language::English => {
                format!("Game {n} changed while it was being edited: cancel and edit it again.")
            }
            Language::Korean => {
                format!("{n}번째 판이 고치는 동안 바뀌었습니다: 취소하고 다시 고치세요.")
            }
        },
        DraftProblem::Players { form, sheet } => match lang {
            Language::English => {
                format!("The form is for {form} players and the sheet has {sheet}.")
            }
            Language::Korean => format!("입력란은 {form}명, 점수표는 {sheet}명입니다."),
        },
    }
}

/// A change of the evening as the undo offer names it ("Game 3 deleted").
pub fn change_done(lang: Language, change: &Change) -> String {
    let s = lang.strings();
    let en = lang == Language::English;
    match change {
        Change::Started => if en {
            "Timer started"
        } else {
            "타이머 시작"
        }
        .into(),
        Change::TurnEnded(name) => {
            if en {
                format!("{name}'s turn ended")
            } else {
                format!("{name}의 턴 넘김")
            }
        }
        Change::Paused => if en { "Paused" } else { "일시정지" }.into(),
        Change::Resumed => if en { "Resumed" } else { "계속" }.into(),
        Change::TimerReset => if en {
            "Timer reset"
        } else {
            "타이머 초기화"
        }
        .into(),
        Change::PlayersChanged => if en {
            "Players changed"
        } else {
            "플레이어 변경"
        }
        .into(),
        Change::Renamed { from, to } => {
            if en {
                format!("{from} renamed {to}")
            } else {
                format!(
                    "{} {} 바꿈",
                    josa(from, Josa::EulReul),
                    josa(to, Josa::EuroRo)
                )
            }
        }
        Change::PlayerAdded(name) => {
            if en {
                format!("{name} added")
            } else {
                format!("{name} 추가")
            }
        }
        Change::PlayerRemoved(name) => {
            if en {
                format!("{name} removed")
            } else {
                format!("{name} 빠짐")
            }
        }
        Change::PlayerMoved { name, seat } => {
            if en {
                format!("{name} moved to seat {seat}")
            } else {
                format!("{} {seat}번 자리로 옮김", josa(name, Josa::EulReul))
            }
        }
        Change::SeatsChanged(names) => {
            if en {
                format!("Seats: {}", names.join(", "))
            } else {
                format!("자리: {}", names.join(", "))
            }
        }
        Change::RuleChanged { from, to } => {
            let lines = rule_changes(lang, from, to);
            match lines.as_slice() {
                [] => if en { "Rules changed" } else { "규칙 변경" }.into(),
                [one] => one.clone(),
                [first, second] => format!("{first}, {second}"),
                [first, second, rest @ ..] => {
                    if en {
                        format!("{first}, {second} and {} more", rest.len())
                    } else {
                        format!("{first}, {second} 외 {}개", rest.len())
                    }
                }
            }
        }
        Change::NamesSeparated { from, into } => {
            if en {
                format!("{from} counted apart from {into} again")
            } else {
                format!(
                    "기록에서 {} {} 다시 나눔",
                    josa(from, Josa::EulReul),
                    josa(into, Josa::GwaWa)
                )
            }
        }
        Change::NamesMerged { from, into } => {
            if en {
                format!("{from} counted as {into} in the history")
            } else {
                format!(
                    "기록에서 {} {} 합침",
                    josa(from, Josa::EulReul),
                    josa(into, Josa::EuroRo)
                )
            }
        }
        Change::GameAdded(r, g) => {
            let game = (s.sheet.game_label)(*r, *g);
            if en {
                format!("{game} added")
            } else {
                format!("{game} 추가")
            }
        }
        Change::GameEdited(r, g) => {
            let game = (s.sheet.game_label)(*r, *g);
            if en {
                format!("{game} changed")
            } else {
                format!("{game} 고침")
            }
        }
        Change::GameDeleted(r, g) => {
            let game = (s.sheet.game_label)(*r, *g);
            if en {
                format!("{game} deleted")
            } else {
                format!("{game} 지움")
            }
        }
        Change::DraftDiscarded => if en {
            "Half-typed game thrown away"
        } else {
            "입력 중이던 판 지움"
        }
        .into(),
        Change::RulesChanged => if en { "Rules changed" } else { "규칙 변경" }.into(),
        Change::NewSheet => if en {
            "New sheet started"
        } else {
            "새 점수표"
        }
        .into(),
        Change::SheetOpened => if en {
            "Another sheet opened"
        } else {
            "다른 점수표 열기"
        }
        .into(),
        Change::RulesApplied => if en {
            "Rules applied to this sheet"
        } else {
            "이 점수표에 규칙 적용"
        }
        .into(),
    }
}

/// The English or the Korean text, owned.
fn pick(en: bool, english: &str, korean: &str) -> String {
    if en { english } else { korean }.to_owned()
}
