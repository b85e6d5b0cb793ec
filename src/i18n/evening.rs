//! The evening's words: why a command was refused, what a draft still lacks, and the standing
//! lines about saving — both languages of each message side by side.

use super::{Josa, josa, remaining_error, score_error, timer_error};
use crate::evening::{DraftProblem, Refusal};
use crate::lang::{Language, Text};

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

/// The standing line while saving fails (the detail, on hover, names the file and why).
pub fn saving_fails(lang: Language, attempts: u32) -> String {
    match lang {
        Language::English => format!(
            "Not saved: the data folder cannot be written now · trying again ({attempts} tries)"
        ),
        Language::Korean => format!(
            "저장하지 못했습니다: 지금은 데이터 폴더에 쓸 수 없습니다 · 다시 시도하는 중 ({attempts}번째)"
        ),
    }
}

/// The saved evening could not be restored and was kept aside at `path`.
pub fn evening_set_aside(lang: Language, path: &str) -> String {
    match lang {
        Language::English => format!(
            "The saved evening could not be restored; it was kept as {path}. The seats were kept."
        ),
        Language::Korean => format!(
            "저장된 게임 상태를 되살릴 수 없어 {path}에 따로 보관했습니다. 자리 순서는 그대로 두었습니다."
        ),
    }
}

/// The English or the Korean text, owned.
fn pick(en: bool, english: &str, korean: &str) -> String {
    if en { english } else { korean }.to_owned()
}

/// The button that makes a new link for the phones.
pub const NEW_LINK: Text = Text {
    en: "New link",
    ko: "새 링크",
};

/// What "New link" does.
pub const NEW_LINK_HINT: Text = Text {
    en: "The current link stops working: every phone scans the new QR code.",
    ko: "지금 링크는 더 이상 쓸 수 없게 되고, 모든 휴대폰이 새 QR 코드를 스캔해야 합니다.",
};

/// While the saved sheets are being read (the "Open" menu).
pub const LOADING_SHEETS: Text = Text {
    en: "Reading the saved sheets…",
    ko: "저장된 점수표를 읽는 중…",
};

/// While the history across evenings is being worked out.
pub const LOADING_HISTORY: Text = Text {
    en: "Adding up every saved sheet…",
    ko: "저장된 점수표를 모두 더하는 중…",
};

/// The chooser of the network the phones' link names (when the laptop is on several).
pub const LINK_NETWORK: Text = Text {
    en: "Network of the phones",
    ko: "휴대폰이 연결된 네트워크",
};

/// No address of this laptop can be reached by a phone: no link is shown (never
/// `127.0.0.1`). Shown by every place that offers a link (the phones in Settings, the club
/// night's tables).
pub const NO_PHONE_ADDRESS: Text = Text {
    en: "No link can be shown: this laptop has no address that phones can reach (no private \
         IPv4 or local IPv6 address). Join the phones' Wi-Fi, then press \"Look again\".",
    ko: "링크를 보여 줄 수 없습니다: 이 노트북에는 휴대폰이 닿을 수 있는 주소(사설 IPv4나 \
         로컬 IPv6 주소)가 없습니다. 휴대폰과 같은 와이파이에 연결한 뒤 \"다시 찾기\"를 누르세요.",
};

/// Lists the laptop's addresses again (after joining the phones' Wi-Fi).
pub const FIND_ADDRESSES: Text = Text {
    en: "Look again",
    ko: "다시 찾기",
};

/// An undo (or redo) found nothing to take back on the tab shown; `clock`: Backspace on the
/// timer, which takes back only the clock's changes.
pub fn nothing_to_undo(lang: Language, redo: bool, clock: bool) -> String {
    match (lang, redo, clock) {
        (Language::English, false, true) => {
            "Nothing to undo on the clock (Backspace undoes only the clock; Ctrl+Z also a \
             change of players)."
                .to_owned()
        }
        (Language::Korean, false, true) => {
            "시계에는 되돌릴 것이 없습니다 (Backspace는 시계만, Ctrl+Z는 플레이어 변경도 \
             되돌립니다)."
                .to_owned()
        }
        (Language::English, false, false) => "Nothing to undo on this tab.".to_owned(),
        (Language::Korean, false, false) => "이 탭에는 되돌릴 것이 없습니다.".to_owned(),
        (Language::English, true, _) => "Nothing to redo on this tab.".to_owned(),
        (Language::Korean, true, _) => "이 탭에는 다시 할 것이 없습니다.".to_owned(),
    }
}

/// After "nothing to undo" on the Meld tab: where its undo is.
pub const MELD_HAS_NO_UNDO: Text = Text {
    en: "The score sheet's and the clock's changes are undone on their own tabs; in a field, \
         Ctrl+Z undoes the typing.",
    ko: "점수표와 시계의 변경은 각 탭에서 되돌립니다. 입력 칸 안에서는 Ctrl+Z가 입력을 \
         되돌립니다.",
};

/// After "nothing to undo" on the Event tab: a result is changed by a correction.
pub const EVENT_HAS_NO_UNDO: Text = Text {
    en: "A club night's result is changed by entering a correction.",
    ko: "대회 결과는 정정 결과를 입력해서 바꿉니다.",
};

/// The history's "same player under two names" heading.
pub const SAME_PLAYER: Text = Text {
    en: "Same player under two names? Count them as one:",
    ko: "같은 사람이 두 이름으로 나뉘었나요? 한 사람으로 세기:",
};

/// Between the two names of the merge form: "[Ben] counted as [Benny]".
pub const COUNT_AS: Text = Text {
    en: "counted as",
    ko: "→",
};

/// The merge form's first name (its accessible name).
pub const MERGE_FROM: Text = Text {
    en: "Name to count as another",
    ko: "다른 이름으로 셀 이름",
};

/// The merge form's second name (its accessible name).
pub const MERGE_INTO: Text = Text {
    en: "Name it counts as",
    ko: "합쳐서 셀 이름",
};

/// The merge form's button.
pub const MERGE: Text = Text {
    en: "Count as one",
    ko: "한 사람으로 세기",
};

/// Counts a merged name apart again.
pub const COUNT_APART: Text = Text {
    en: "Count apart",
    ko: "따로 세기",
};

/// One merge as the history lists it.
pub fn counted_as(lang: Language, from: &str, into: &str) -> String {
    match lang {
        Language::English => format!("{from} is counted as {into}"),
        Language::Korean => format!(
            "{} {} 셉니다",
            josa(from, Josa::EulReul),
            josa(into, Josa::EuroRo)
        ),
    }
}

/// Shows the folded notices whole.
pub const SHOW_NOTICES: Text = Text {
    en: "Show",
    ko: "보기",
};

/// Folds the notices that only inform again.
pub const HIDE_NOTICES: Text = Text {
    en: "Hide",
    ko: "접기",
};
