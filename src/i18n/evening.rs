//! The window's words about the evening: the standing lines about saving, the phones' link,
//! undo and History's merges — both languages side by side. Words that name the evening's own
//! values (its refusals, a draft's problems, the changes undo names) are `evening::words`.

use super::{Josa, josa};
use crate::lang::{Language, Text};

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
