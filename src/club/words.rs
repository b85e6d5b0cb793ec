//! The club night owner's words: why it refused (for the organiser, and for a phone — never a
//! path of the laptop), what a damaged event file lost and how it was restored, how an export
//! went, the rules a night is scored under. Both languages of each message side by side.

use super::{ClubNotice, ClubRefusal, ExportReport};
use crate::event::live::TableRefusal;
use crate::i18n::event::{cli as cli_words, refusal as event_refusal, tv as tv_words};
use crate::i18n::{self, store_error};
use crate::lang::{Language, Text};
use crate::rules::RuleSet;
use crate::store::{Damage, Holder, HolderKind, RestoredFrom};

/// A phone's change is kept but not yet on the laptop's disk.
pub const NOT_SAVED_YET: Text = Text {
    en: "Not on the laptop's disk yet (it keeps trying): tell the organiser",
    ko: "아직 노트북 디스크에 저장되지 않았습니다 (계속 시도합니다). 진행자에게 알려 주세요",
};

/// Who holds a folder's club nights, in a sentence for the organiser.
pub fn holder(lang: Language, holder: Option<&Holder>) -> String {
    let Some(h) = holder else {
        return match lang {
            Language::English => {
                "another program holds this data folder's club nights; try again when it is done"
                    .into()
            }
            Language::Korean => {
                "다른 프로그램이 이 데이터 폴더의 대회를 쓰고 있습니다. 끝난 뒤 다시 하세요".into()
            }
        };
    };
    let port = h.tables.map(|p| p.to_string());
    match (lang, h.kind, port) {
        (Language::English, HolderKind::Serve, Some(port)) => format!(
            "this data folder's club night is hosted by `event serve` (process {}) on port {port}: \
             use that host (its TV page is http://<this laptop>:{port}/tv), or stop it first",
            h.pid
        ),
        (Language::Korean, HolderKind::Serve, Some(port)) => format!(
            "이 데이터 폴더의 대회는 `event serve`(프로세스 {})가 {port}번 포트에서 진행 중입니다: \
             그 진행을 쓰거나(TV 화면 http://<이 노트북>:{port}/tv) 먼저 멈추세요",
            h.pid
        ),
        (Language::English, HolderKind::Window, Some(port)) => format!(
            "this data folder's club night is hosted by the app's window (process {}) on port \
             {port}: use the window, or stop hosting and close the event there first",
            h.pid
        ),
        (Language::Korean, HolderKind::Window, Some(port)) => format!(
            "이 데이터 폴더의 대회는 앱 창(프로세스 {})이 {port}번 포트에서 진행 중입니다: 그 창을 \
             쓰거나, 창에서 진행을 멈추고 대회를 닫으세요",
            h.pid
        ),
        (Language::English, HolderKind::Window, None) => format!(
            "this data folder's club night is open in the app's window (process {}): use the \
             window, or close the event there first",
            h.pid
        ),
        (Language::Korean, HolderKind::Window, None) => format!(
            "이 데이터 폴더의 대회가 앱 창(프로세스 {})에 열려 있습니다: 그 창을 쓰거나 먼저 창에서 \
             대회를 닫으세요",
            h.pid
        ),
        (Language::English, _, _) => format!(
            "another program (process {}) holds this data folder's club nights; try again when it \
             is done",
            h.pid
        ),
        (Language::Korean, _, _) => format!(
            "다른 프로그램(프로세스 {})이 이 데이터 폴더의 대회를 쓰고 있습니다. 끝난 뒤 다시 하세요",
            h.pid
        ),
    }
}

/// Why a table refused, naming players by `names` (seat order).
pub fn table_refusal(lang: Language, refusal: &TableRefusal, names: &[String]) -> String {
    let en = lang == Language::English;
    let name = |seat: usize| {
        names
            .get(seat)
            .cloned()
            .unwrap_or_else(|| (seat as u64 + 1).to_string())
    };
    let pick = |e: &str, k: &str| if en { e.to_owned() } else { k.to_owned() };
    match refusal {
        TableRefusal::NoSuchSeat(s) => {
            if en {
                format!("This table has no seat {}", s.saturating_add(1))
            } else {
                format!("이 테이블에 {}번 자리가 없습니다", s.saturating_add(1))
            }
        }
        TableRefusal::SeatTaken(s) => {
            if en {
                format!(
                    "{}'s seat is taken by another phone; if that is wrong, the organiser can free it",
                    name(*s)
                )
            } else {
                format!(
                    "{} 자리는 다른 휴대폰이 가져갔습니다. 잘못됐다면 진행자가 자리를 비울 수 있습니다",
                    name(*s)
                )
            }
        }
        TableRefusal::NoSeat => pick(
            "This phone holds no seat at this table: pick your seat first",
            "이 휴대폰은 이 테이블에 자리가 없습니다. 먼저 내 자리를 고르세요",
        ),
        TableRefusal::OrganiserOnly => {
            pick("Only the organiser can do that", "진행자만 할 수 있습니다")
        }
        TableRefusal::NotYourTurn { turn } => {
            if en {
                format!("It is {}'s turn, not yours", name(*turn))
            } else {
                format!("지금은 {} 차례입니다", name(*turn))
            }
        }
        TableRefusal::StaleTurn => pick("That turn has ended already", "그 차례는 이미 끝났습니다"),
        TableRefusal::Guarded => pick(
            "A second press: one turn ended",
            "두 번 눌렸습니다. 차례는 한 번만 넘어갔습니다",
        ),
        TableRefusal::NotStarted => pick(
            "The clock has not started: start it first",
            "시계가 시작되지 않았습니다. 먼저 시작하세요",
        ),
        TableRefusal::NotRunning => pick("The clock is not running", "시계가 멈춰 있습니다"),
        TableRefusal::AlreadyRunning => pick(
            "The clock is running already",
            "시계가 이미 돌아가고 있습니다",
        ),
        TableRefusal::Settling => pick(
            "The game is over: racks are being entered",
            "게임이 끝나 남은 패를 입력하는 중입니다",
        ),
        TableRefusal::NotOver => pick(
            "The game is not over: say so first (I went out / the pool ran out)",
            "게임이 아직 끝나지 않았습니다. 먼저 끝났다고 알려 주세요 (내가 다 냄 / 더미가 떨어짐)",
        ),
        TableRefusal::ConfirmedAlready => pick(
            "Someone confirmed this game already: it cannot go back",
            "누군가 이 게임을 이미 확인해서 되돌릴 수 없습니다",
        ),
        TableRefusal::Missing { seats } => {
            let who: Vec<String> = seats.iter().map(|&s| name(s)).collect();
            if en {
                format!("Still to enter their rack: {}", who.join(", "))
            } else {
                format!("아직 남은 패를 입력하지 않은 사람: {}", who.join(", "))
            }
        }
        TableRefusal::WrongGame { current } => match (en, current) {
            (true, Some(n)) => {
                format!("That confirmation is for another game: game {n} is being settled")
            }
            (false, Some(n)) => {
                format!("다른 게임의 확인입니다. 지금은 {n}번째 게임을 정리하고 있습니다")
            }
            (true, None) => "No game is being settled now".into(),
            (false, None) => "지금 정리 중인 게임이 없습니다".into(),
        },
        TableRefusal::Changed => pick(
            "The racks changed since your page showed them: check them again",
            "화면에 보인 뒤로 남은 패가 바뀌었습니다. 다시 확인하세요",
        ),
        TableRefusal::Game(e) => i18n::score_error(lang, e),
        TableRefusal::Finished => pick(
            "Every game of this round is in",
            "이번 라운드의 게임이 모두 입력되었습니다",
        ),
    }
}

/// Why the owner refused, for the organiser (the window, the command line): a file's path may
/// be named. `names` name a table's seats.
pub fn refusal(lang: Language, refusal: &ClubRefusal, names: &[String]) -> String {
    use Language::{English as En, Korean as Ko};
    match (lang, refusal) {
        (En, ClubRefusal::NoDataFolder) => "there is no data folder to keep events in".into(),
        (Ko, ClubRefusal::NoDataFolder) => "대회를 저장할 데이터 폴더가 없습니다".into(),
        (_, ClubRefusal::Held(h)) => holder(lang, h.as_ref()),
        (En, ClubRefusal::NotOpen) => "no event is open".into(),
        (Ko, ClubRefusal::NotOpen) => "열린 대회가 없습니다".into(),
        (_, ClubRefusal::NoPlayers) => cli_words::NO_PLAYERS.get(lang).into(),
        (_, ClubRefusal::PlayersLine { line, why }) => {
            let why = event_refusal(lang, why);
            match lang {
                En => format!("players, line {line}: {why}"),
                Ko => format!("선수 {line}번째 줄: {why}"),
            }
        }
        (_, ClubRefusal::Event(why)) => event_refusal(lang, why),
        (_, ClubRefusal::Cells(e)) => cells(lang, e),
        (_, ClubRefusal::Store(e)) => store_error(lang, e),
        (_, ClubRefusal::NoReachableAddress) => tv_words::NO_TABLES_ADDRESS.get(lang).into(),
        (_, ClubRefusal::Listen { address, error }) => {
            tv_words::cannot_listen(lang, address, error)
        }
        (_, ClubRefusal::NoSuchTable(t)) => tv_words::no_table(lang, &t.to_string()),
        (En, ClubRefusal::WrongKey) => {
            "This link is not for this round's table: scan your table's QR code on the TV".into()
        }
        (Ko, ClubRefusal::WrongKey) => {
            "이번 라운드 테이블의 링크가 아닙니다. TV에서 테이블의 QR 코드를 스캔하세요".into()
        }
        (En, ClubRefusal::Recorded(t)) => {
            format!("Table {t}'s result is in already; ask the organiser for a correction")
        }
        (Ko, ClubRefusal::Recorded(t)) => {
            format!("{t}번 테이블의 결과가 이미 입력되었습니다. 수정은 진행자에게 요청하세요")
        }
        (_, ClubRefusal::Table(t)) => table_refusal(lang, t, names),
        (_, ClubRefusal::NotSaved(e)) => {
            let why = store_error(lang, e);
            match lang {
                En => format!("not saved yet (it is tried again): {why}"),
                Ko => format!("아직 저장하지 못했습니다 (다시 시도합니다): {why}"),
            }
        }
    }
}

/// Why the cells of a result typed in the window do not read: the game, then the problem (the
/// cells it names are marked on the grid; a CSV's row and columns would mean nothing there).
fn cells(lang: Language, error: &crate::score::table::TableError) -> String {
    let bare = crate::score::table::TableError {
        row: None,
        columns: Vec::new(),
        problem: error.problem.clone(),
    };
    let problem = i18n::table_error(lang, &bare);
    // The header is row 1: game g is row g + 1.
    match error.row.and_then(|r| r.checked_sub(1)).filter(|&g| g > 0) {
        Some(game) => format!(
            "{}: {problem}",
            crate::i18n::event::window::game(lang, game)
        ),
        None => problem,
    }
}

/// Why the owner refused, for a phone: as [`refusal`], but a disk's trouble is said without
/// any path of the laptop.
pub fn page_refusal(lang: Language, refusal: &ClubRefusal, names: &[String]) -> String {
    match refusal {
        ClubRefusal::Store(_) | ClubRefusal::NotSaved(_) => NOT_SAVED_YET.get(lang).into(),
        ClubRefusal::NotOpen | ClubRefusal::NoDataFolder => match lang {
            Language::English => "The laptop is not hosting this table now".into(),
            Language::Korean => "노트북이 지금 이 테이블을 진행하고 있지 않습니다".into(),
        },
        ClubRefusal::Held(_) | ClubRefusal::Listen { .. } | ClubRefusal::Cells(_) => match lang {
            Language::English => "The laptop refused: tell the organiser".into(),
            Language::Korean => "노트북이 거절했습니다. 진행자에게 알려 주세요".into(),
        },
        other => self::refusal(lang, other, names),
    }
}

/// The command line's exit code and kind for a refusal: 1 (a clear no of the event), else 2.
pub fn exit_of(refusal: &ClubRefusal) -> (i32, &'static str) {
    use crate::event::Refusal;
    match refusal {
        ClubRefusal::Event(
            Refusal::RoundOpen { .. }
            | Refusal::CannotSeat { .. }
            | Refusal::NotSeated
            | Refusal::AlreadyRecorded { .. }
            | Refusal::AlreadyDropped(_)
            | Refusal::TooManyPlayers
            | Refusal::CannotSeatDivision { .. }
            | Refusal::FinalsStarted
            | Refusal::FinalPlayed,
        )
        | ClubRefusal::Held(_) => (1, "refused"),
        ClubRefusal::Event(_) | ClubRefusal::PlayersLine { .. } | ClubRefusal::Cells(_) => {
            (2, "event")
        }
        _ => (2, "store"),
    }
}

/// The rules a night is scored under, in a line: a joker on a rack, not melded, the turn.
pub fn rules(lang: Language, rules: &RuleSet) -> String {
    crate::i18n::event::tv::rules(lang, rules)
}

/// A command of an event's log, named for the organiser (which result, which correction).
fn entry(lang: Language, entry: &crate::event::LogEntry) -> String {
    use crate::event::Command;
    match (&entry.command, lang) {
        (
            Command::Result {
                round,
                table,
                correct,
                ..
            },
            _,
        ) => {
            let round = round.unwrap_or(entry.round);
            match (lang, correct) {
                (Language::English, false) => format!("round {round}, table {table}: result"),
                (Language::English, true) => format!("round {round}, table {table}: correction"),
                (Language::Korean, false) => format!("{round}라운드 {table}번 테이블 결과"),
                (Language::Korean, true) => format!("{round}라운드 {table}번 테이블 정정"),
            }
        }
        (Command::SeatRound, Language::English) => format!("seating of round {}", entry.round),
        (Command::SeatRound, Language::Korean) => format!("{}라운드 배정", entry.round),
        (Command::SeatFinal { top, .. }, Language::English) => {
            format!("seating of the top {top} (round {})", entry.round)
        }
        (Command::SeatFinal { top, .. }, Language::Korean) => {
            format!("상위 {top}명 본선 배정 ({}라운드)", entry.round)
        }
        (Command::AddPlayer { name, .. }, Language::English) => format!("player {name} added"),
        (Command::AddPlayer { name, .. }, Language::Korean) => format!("선수 {name} 추가"),
        (Command::Drop { name }, Language::English) => format!("{name} dropped"),
        (Command::Drop { name }, Language::Korean) => format!("{name} 기권"),
        (Command::Release { round }, Language::English) => {
            format!("standings after round {round} released")
        }
        (Command::Release { round }, Language::Korean) => format!("{round}라운드 후 순위 발표"),
    }
}

/// What a damaged event file lost, and how it was restored: a plain statement.
pub fn damage(lang: Language, damage: &Damage) -> String {
    let file = damage.file.display();
    let problem = i18n::file_problem(lang, &damage.problem);
    let kept = damage.kept_as.as_ref().map(|p| p.display().to_string());
    let recovered: Vec<String> = damage.recovered.iter().map(|e| entry(lang, e)).collect();
    let mut text = match (lang, &damage.from) {
        (Language::English, RestoredFrom::Backup { commands }) => format!(
            "The event file {file} {problem}. It was restored from its backup, which holds \
             {commands} commands"
        ),
        (Language::Korean, RestoredFrom::Backup { commands }) => {
            format!("대회 파일 {file}: {problem}. 명령 {commands}개가 담긴 백업에서 되살렸습니다")
        }
        (Language::English, RestoredFrom::Log) => format!(
            "The event file {file} {problem}, and so does its backup. It was rebuilt from the \
             event's log"
        ),
        (Language::Korean, RestoredFrom::Log) => format!(
            "대회 파일 {file}: {problem}. 백업도 읽을 수 없어 대회 기록(log)에서 다시 만들었습니다"
        ),
    };
    match (lang, recovered.is_empty()) {
        (Language::English, true) => text.push_str("; the backup lacked nothing the log holds."),
        (Language::Korean, true) => text.push_str(". 백업에 빠진 것은 기록에 없습니다."),
        (Language::English, false) => text.push_str(&format!(
            "; what the backup lacked was taken from the log: {}.",
            recovered.join("; ")
        )),
        (Language::Korean, false) => text.push_str(&format!(
            ". 백업에 없던 것은 기록에서 되찾았습니다: {}.",
            recovered.join("; ")
        )),
    }
    if damage.log_damaged {
        text.push_str(match lang {
            Language::English => {
                " The log could not be read to its end: results entered after those may be \
                 missing — check each table's result."
            }
            Language::Korean => {
                " 기록을 끝까지 읽을 수 없었습니다: 그 뒤에 입력한 결과가 빠졌을 수 있으니 테이블마다 \
                 결과를 확인하세요."
            }
        });
    }
    if let Some(kept) = kept {
        text.push_str(&match lang {
            Language::English => format!(" The damaged file is kept as {kept}."),
            Language::Korean => format!(
                " 손상된 파일은 {} 보관했습니다.",
                crate::i18n::josa(&kept.to_string(), crate::i18n::Josa::EuroRo)
            ),
        });
    }
    text
}

/// A notice for the organiser.
pub fn notice(lang: Language, notice: &ClubNotice) -> String {
    match notice {
        ClubNotice::Damaged { damage: d, .. } => damage(lang, d),
        ClubNotice::CaughtUp { id, commands } => match lang {
            Language::English => format!(
                "Event {id}: {commands} command(s) of its log were not in its file yet (a write \
                 was cut off) and were applied again"
            ),
            Language::Korean => format!(
                "{id} 대회: 파일에 아직 없던 기록의 명령 {commands}개를 다시 적용했습니다 (쓰기가 \
                 중간에 끊겼음)"
            ),
        },
        ClubNotice::Tables(notices) => notices
            .iter()
            .map(|n| i18n::notice(lang, n))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// How an export went.
pub fn export(lang: Language, report: &ExportReport) -> String {
    match (lang, report) {
        (Language::English, ExportReport::Wrote { path, to_exports }) => {
            let mut text = format!("Saved as {}", path.display());
            if *to_exports {
                text.push_str(" (no save dialog here: the exports folder)");
            }
            text
        }
        (Language::Korean, ExportReport::Wrote { path, to_exports }) => {
            let mut text = format!("{}에 저장했습니다", path.display());
            if *to_exports {
                text.push_str(" (저장 대화 상자가 없어 내보내기 폴더에)");
            }
            text
        }
        (Language::English, ExportReport::Failed { path, error }) => {
            format!("{} could not be written: {error}", path.display())
        }
        (Language::Korean, ExportReport::Failed { path, error }) => {
            format!("{} 파일을 쓰지 못했습니다: {error}", path.display())
        }
    }
}
