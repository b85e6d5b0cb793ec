//! The words of a club night ([`crate::event`]): refusals, the `event` subcommands' output and
//! messages, both languages side by side (as in [`super::cli`]).
//!
//! Kept in a file of its own so the event's words grow without touching the other tables.

use super::{Josa, josa, score_error};
use crate::event::Refusal;
use crate::lang::Language;

fn list(items: &[String]) -> String {
    items.join(", ")
}

fn numbers(items: &[u32]) -> String {
    items
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why the event refused a command.
pub fn refusal(lang: Language, refusal: &Refusal) -> String {
    use Language::{English as En, Korean as Ko};
    match (lang, refusal) {
        (En, refusal) => refusal.to_string(),
        (Ko, Refusal::EmptyEventName) => "대회 이름이 필요합니다".into(),
        (Ko, Refusal::BadGameCount(n)) => format!(
            "라운드당 {n}게임: 한 테이블은 1~{}게임을 합니다",
            crate::event::MAX_GAMES
        ),
        (Ko, Refusal::EmptyName) => "선수 이름이 비어 있습니다".into(),
        (Ko, Refusal::DuplicateName(n)) => format!("{} 이미 등록되어 있습니다", josa(&format!("\"{n}\""), Josa::EunNeun)),
        (Ko, Refusal::TooManyPlayers) => format!(
            "대회 정원이 찼습니다 ({}명)",
            crate::event::MAX_EVENT_PLAYERS
        ),
        (Ko, Refusal::UnknownPlayer(n)) => format!("이름이 \"{n}\"인 선수가 없습니다"),
        (Ko, Refusal::AlreadyDropped(n)) => format!("{} 이미 기권했습니다", josa(n, Josa::EunNeun)),
        (Ko, Refusal::CannotSeat { players, xp_table }) => {
            let mut text = format!(
                "{players}명은 4인·3인 테이블로 나눌 수 없습니다 (3, 4명과 6명 이상은 됩니다)"
            );
            if *xp_table {
                text.push_str(
                    "; 5명은 XP 세트(5~6인용)로 한 테이블에서 할 수 있습니다: XP 테이블 허용 (event new --xp)",
                );
            }
            text
        }
        (Ko, Refusal::RoundOpen { round, tables }) => format!(
            "{round}라운드가 끝나지 않았습니다: {}번 테이블의 결과가 아직 없습니다",
            numbers(tables)
        ),
        (Ko, Refusal::NotSeated) => "아직 배정된 라운드가 없습니다 (event seat)".into(),
        (Ko, Refusal::NoSuchRound(r)) => format!("{r}라운드는 없습니다"),
        (
            Ko,
            Refusal::NoSuchTable {
                round,
                table,
                tables,
            },
        ) => format!("{round}라운드에 {table}번 테이블은 없습니다 (테이블 {tables}개)"),
        (Ko, Refusal::WrongPlayers { expected, found }) => format!(
            "결과의 선수는 {}인데 이 테이블의 선수는 {}입니다",
            list(found),
            list(expected)
        ),
        (Ko, Refusal::WrongGameCount { expected, found }) => {
            format!("결과는 {found}게임인데 한 라운드는 {expected}게임입니다")
        }
        (Ko, Refusal::Game { game, error }) => {
            format!("{game}번째 게임: {}", score_error(lang, error))
        }
        (Ko, Refusal::NotZeroSum { game }) => format!("{game}번째 게임의 합이 0이 아닙니다"),
        (Ko, Refusal::AlreadyRecorded { round, table }) => format!(
            "{round}라운드 {table}번 테이블은 이미 결과가 있습니다; 바꾸려면 --correct (이전 결과는 보관됩니다)"
        ),
        (Ko, Refusal::CannotSeatDivision { division, players }) => format!(
            "{} 부는 {players}명이라 자기 부끼리 4인·3인 테이블로 나눌 수 없습니다 (--divisions-apart \
             없이 부를 섞어 앉히세요)",
            division_name(Ko, division)
        ),
        (Ko, Refusal::FinalsStarted) => {
            "본선이 시작되었습니다: 본선 뒤에는 예선 라운드를 배정하지 않습니다 (다음 단계는 event final)".into()
        }
        (Ko, Refusal::FinalPlayed) => "결승이 이미 배정되었습니다: 그 뒤 단계는 없습니다".into(),
        (Ko, Refusal::BadTop { top, players }) => format!(
            "상위 {top}명은 본선으로 앉힐 수 없습니다: 본선은 4인·3인 테이블로 3, 4명 또는 6명 \
             이상, 순위에 있는 현역 선수 {players}명 이하여야 합니다"
        ),
        (Ko, Refusal::BadPlacement(problem)) => placement_problem(Ko, problem),
        (Ko, Refusal::BadWinBonus(n)) => format!(
            "승리 보너스 {n}: 0~{} 사이여야 합니다",
            crate::event::MAX_WIN_BONUS
        ),
    }
}

/// A division's name as a sentence names it ("" is the players without one).
pub fn division_name(lang: Language, division: &str) -> String {
    match (lang, division.trim()) {
        (Language::English, "") => "of players without a division".into(),
        (Language::Korean, "") => "부가 없는 선수들의".into(),
        (_, name) => format!("\"{name}\""),
    }
}

/// Why a placement list is refused.
pub fn placement_problem(
    lang: Language,
    problem: &crate::event::format::PlacementProblem,
) -> String {
    use crate::event::format::{MAX_PLACEMENT_POINTS, PlacementProblem};
    match (lang, problem) {
        (Language::English, problem) => problem.to_string(),
        (Language::Korean, PlacementProblem::Length(n)) => {
            format!("순위 점수 목록이 {n}개입니다: 한 테이블은 2~6명, 자리마다 값 하나")
        }
        (Language::Korean, PlacementProblem::TooLarge(v)) => {
            format!("순위 점수 {v}: 최대 {MAX_PLACEMENT_POINTS}")
        }
    }
}

/// The headers of an exported standings file.
pub fn standings_labels(lang: Language) -> crate::event::export::StandingsLabels<'static> {
    use crate::event::export::StandingsLabels;
    match lang {
        Language::English => StandingsLabels::ENGLISH,
        Language::Korean => StandingsLabels {
            rank: "순위",
            name: "이름",
            wins: "승",
            points: "점수",
            percent: "백분율",
            games: "게임",
            dropped: "기권",
            yes: "예",
        },
    }
}

/// The headers of an exported seating sheet.
pub fn seating_labels(lang: Language) -> crate::event::export::SeatingLabels<'static> {
    use crate::event::export::SeatingLabels;
    match lang {
        Language::English => SeatingLabels {
            table: "table",
            seat: "seat",
            name: "name",
            club: "club",
            starts: "starts games",
        },
        Language::Korean => SeatingLabels {
            table: "테이블",
            seat: "자리",
            name: "이름",
            club: "클럽",
            starts: "선 게임",
        },
    }
}

/// `event` subcommands' words.
pub mod cli {
    use crate::lang::{Language, Text};

    /// Heading of a seating: round R.
    pub fn round(lang: Language, round: u32) -> String {
        match lang {
            Language::English => format!("Round {round}"),
            Language::Korean => format!("{round}라운드"),
        }
    }

    /// Table T in a seating.
    pub fn table(lang: Language, table: u32) -> String {
        match lang {
            Language::English => format!("Table {table}"),
            Language::Korean => format!("{table}번 테이블"),
        }
    }

    /// Repeated meetings that could not be avoided.
    pub fn repeats(lang: Language, n: usize) -> String {
        match lang {
            Language::English => {
                format!("{n} pair(s) meet again: no seating avoids every repeat")
            }
            Language::Korean => {
                format!("{n}쌍이 다시 만납니다: 모든 재대결을 피하는 배정이 없습니다")
            }
        }
    }

    /// A result was recorded.
    pub fn recorded(lang: Language, round: u32, table: u32, corrected: bool) -> String {
        match (lang, corrected) {
            (Language::English, false) => format!("round {round}, table {table}: result recorded"),
            (Language::English, true) => format!(
                "round {round}, table {table}: result corrected (the earlier one is kept in the log)"
            ),
            (Language::Korean, false) => {
                format!("{round}라운드 {table}번 테이블: 결과를 기록했습니다")
            }
            (Language::Korean, true) => format!(
                "{round}라운드 {table}번 테이블: 결과를 정정했습니다 (이전 결과는 기록에 남습니다)"
            ),
        }
    }

    /// The round is complete.
    pub const ROUND_COMPLETE: Text = Text {
        en: "every table of the round has its result",
        ko: "이 라운드의 모든 테이블 결과가 들어왔습니다",
    };

    /// Standings heading columns: rank, name, wins, points, games.
    pub const COLUMNS: [Text; 5] = [
        Text {
            en: "rank",
            ko: "순위",
        },
        Text {
            en: "name",
            ko: "이름",
        },
        Text {
            en: "wins",
            ko: "승",
        },
        Text {
            en: "points",
            ko: "점수",
        },
        Text {
            en: "games",
            ko: "게임",
        },
    ];

    /// Standings title.
    pub fn standings(lang: Language, round: u32, complete: bool, ranking: &str) -> String {
        match (lang, complete) {
            (Language::English, true) => {
                format!("Standings after round {round} (ranking: {ranking})")
            }
            (Language::English, false) => format!(
                "Standings during round {round}, not every table has finished (ranking: {ranking})"
            ),
            (Language::Korean, true) => format!("{round}라운드 후 순위 (기준: {ranking})"),
            (Language::Korean, false) => format!(
                "{round}라운드 진행 중 순위, 아직 끝나지 않은 테이블이 있습니다 (기준: {ranking})"
            ),
        }
    }

    /// A dropped player's mark in the standings.
    pub const DROPPED: Text = Text {
        en: "(dropped)",
        ko: "(기권)",
    };

    /// No event in the data folder.
    pub const NO_EVENT: Text = Text {
        en: "there is no event in the data folder (event new NAME --players FILE)",
        ko: "데이터 폴더에 대회가 없습니다 (event new NAME --players FILE)",
    };

    /// No event with this id.
    pub fn no_such_event(lang: Language, id: &str) -> String {
        match lang {
            Language::English => format!("there is no event \"{id}\""),
            Language::Korean => format!("\"{id}\" 대회가 없습니다"),
        }
    }

    /// An event file that could not be read.
    pub fn unreadable_event(lang: Language, detail: &str) -> String {
        match lang {
            Language::English => format!("the event cannot be read: {detail}"),
            Language::Korean => format!("대회 파일을 읽을 수 없습니다: {detail}"),
        }
    }

    /// The host that holds the folder could not be reached on its loopback port.
    pub fn host_unreachable(lang: Language, port: u16, detail: &str) -> String {
        match lang {
            Language::English => format!(
                "the host of this data folder (loopback port {port}) did not take the command: \
                 {detail}"
            ),
            Language::Korean => format!(
                "이 데이터 폴더를 진행 중인 호스트(루프백 포트 {port})가 명령을 받지 않았습니다: {detail}"
            ),
        }
    }

    /// A seat was freed.
    pub fn seat_freed(lang: Language, table: u32, seat: u32) -> String {
        match lang {
            Language::English => {
                format!("table {table}, seat {seat} is free: the next phone to pick it holds it")
            }
            Language::Korean => format!(
                "{table}번 테이블 {seat}번 자리를 비웠습니다: 다음에 고르는 휴대폰이 그 자리를 갖습니다"
            ),
        }
    }

    /// The event could not be saved.
    pub fn cannot_save(lang: Language, detail: &str) -> String {
        match lang {
            Language::English => format!("the event could not be saved: {detail}"),
            Language::Korean => format!("대회를 저장하지 못했습니다: {detail}"),
        }
    }

    /// A line of the players file that is refused.
    pub fn players_line(lang: Language, line: usize, why: &str) -> String {
        match lang {
            Language::English => format!("players file, line {line}: {why}"),
            Language::Korean => format!("선수 파일 {line}번째 줄: {why}"),
        }
    }

    /// A file that could not be written.
    pub fn cannot_write(lang: Language, file: &str, detail: &str) -> String {
        match lang {
            Language::English => format!("{file} could not be written: {detail}"),
            Language::Korean => format!("{file} 파일을 쓰지 못했습니다: {detail}"),
        }
    }

    /// A players file with nobody in it.
    pub const NO_PLAYERS: Text = Text {
        en: "the players file names nobody (one name a line, optionally name,club)",
        ko: "선수 파일에 이름이 없습니다 (한 줄에 이름 하나, 또는 이름,클럽)",
    };

    /// A --ranking value that names no ranking.
    pub fn not_a_ranking(lang: Language, text: &str) -> String {
        match lang {
            Language::English => {
                format!("\"{text}\" is not a ranking: wins, total, percent or placement")
            }
            Language::Korean => {
                format!(
                    "{} 순위 기준이 아닙니다: wins, total, percent, placement 중 하나",
                    crate::i18n::josa(&format!("\"{text}\""), crate::i18n::Josa::EunNeun)
                )
            }
        }
    }

    /// A value that is none of the names an option takes.
    pub fn not_one_of(lang: Language, text: &str, names: &[&str]) -> String {
        let names = names.join(", ");
        match lang {
            Language::English => format!("\"{text}\" is not one of {names}"),
            Language::Korean => format!(
                "{} 쓸 수 없습니다: {names} 중 하나",
                crate::i18n::josa(&format!("\"{text}\""), crate::i18n::Josa::EunNeun)
            ),
        }
    }

    /// A list that is not whole numbers separated by commas.
    pub fn not_a_list(lang: Language, text: &str) -> String {
        match lang {
            Language::English => {
                format!("\"{text}\" is not a list of whole numbers (e.g. 4,3,1,0)")
            }
            Language::Korean => {
                format!(
                    "{} 쉼표로 나눈 정수 목록이 아닙니다 (예: 4,3,1,0)",
                    crate::i18n::josa(&format!("\"{text}\""), crate::i18n::Josa::EunNeun)
                )
            }
        }
    }

    /// A stage, as a heading names it.
    pub fn stage_name(lang: Language, stage: crate::event::Stage) -> &'static str {
        use crate::event::Stage;
        match (lang, stage) {
            (Language::English, Stage::Round) => "Round",
            (Language::Korean, Stage::Round) => "라운드",
            (Language::English, Stage::Semi) => "Semi-final",
            (Language::Korean, Stage::Semi) => "준결승",
            (Language::English, Stage::Final) => "Final",
            (Language::Korean, Stage::Final) => "결승",
        }
    }

    /// Heading of a seating: round R, or the stage and its round.
    pub fn stage_heading(lang: Language, stage: crate::event::Stage, round: u32) -> String {
        match (lang, stage) {
            (_, crate::event::Stage::Round) => self::round(lang, round),
            (Language::English, stage) => format!("{} (round {round})", stage_name(lang, stage)),
            (Language::Korean, stage) => format!("{} ({round}라운드)", stage_name(lang, stage)),
        }
    }

    /// Who starts each game of a table, in game order.
    pub fn starts(lang: Language, names: &[String]) -> String {
        let names = names.join(", ");
        match lang {
            Language::English => format!("games started by {names}"),
            Language::Korean => format!("게임별 선: {names}"),
        }
    }

    /// The heading line of one division's standings.
    pub fn division(lang: Language, division: &str) -> String {
        match lang {
            Language::English => format!("Division: {division}"),
            Language::Korean => format!("부: {division}"),
        }
    }

    /// No player is in this division.
    pub fn no_such_division(lang: Language, division: &str, known: &[String]) -> String {
        let known = if known.is_empty() {
            match lang {
                Language::English => "none".to_owned(),
                Language::Korean => "없음".to_owned(),
            }
        } else {
            known.join(", ")
        };
        match lang {
            Language::English => {
                format!("no player is in the division \"{division}\" (the divisions: {known})")
            }
            Language::Korean => format!("\"{division}\" 부에는 선수가 없습니다 (부: {known})"),
        }
    }

    /// The column of placement points.
    pub const PLACEMENT: Text = Text {
        en: "placement",
        ko: "순위점수",
    };

    /// An event exported as a bundle.
    pub fn exported(lang: Language, id: &str, file: &str, venue: &str) -> String {
        match lang {
            Language::English => {
                format!("Event {id} exported to {file}, signed by the venue \"{venue}\"")
            }
            Language::Korean => {
                format!(
                    "대회 {} {} 내보냈습니다. 장소 \"{venue}\"의 키로 서명했습니다",
                    crate::i18n::josa(id, crate::i18n::Josa::EulReul),
                    crate::i18n::josa(file, crate::i18n::Josa::EuroRo)
                )
            }
        }
    }
}

/// The words of `event serve` and its pages (the TV page and the per-table page). The pages
/// are made in Rust in the page's language, so every word they show is here.
pub mod tv {
    use super::numbers;
    use crate::lang::{Language, Text};

    /// A table's result is in.
    pub const FINISHED: Text = Text {
        en: "result in",
        ko: "결과 입력됨",
    };

    /// A table is still playing.
    pub const PLAYING: Text = Text {
        en: "playing",
        ko: "진행 중",
    };

    /// The mark of the player who starts (the first seat).
    pub const STARTS: Text = Text {
        en: "starts",
        ko: "선",
    };

    /// No round is seated yet.
    pub const NOT_SEATED: Text = Text {
        en: "No round is seated yet",
        ko: "아직 배정된 라운드가 없습니다",
    };

    /// Heading of the tables.
    pub const TABLES: Text = Text {
        en: "Tables",
        ko: "테이블",
    };

    /// Under each table's QR code.
    pub const SCAN: Text = Text {
        en: "Scan: your table",
        ko: "스캔: 내 테이블",
    };

    /// The page lost the laptop (shown while the page reconnects).
    pub const OFFLINE: Text = Text {
        en: "Reconnecting to the laptop…",
        ko: "노트북에 다시 연결하는 중…",
    };

    /// The standings heading: after round R.
    pub fn standings_after(lang: Language, round: u32) -> String {
        match lang {
            Language::English => format!("Standings after round {round}"),
            Language::Korean => format!("{round}라운드 후 순위"),
        }
    }

    /// No round is complete yet: no standings.
    pub fn no_standings(lang: Language, round: u32) -> String {
        match lang {
            Language::English => {
                format!("Standings appear when every table of round {round} has finished")
            }
            Language::Korean => format!("{round}라운드의 모든 테이블이 끝나면 순위가 나옵니다"),
        }
    }

    /// The tables of the round still playing (why newer standings are not shown).
    pub fn still_playing(lang: Language, round: u32, tables: &[u32]) -> String {
        match lang {
            Language::English => format!(
                "Round {round} is under way; still playing: table {}",
                numbers(tables)
            ),
            Language::Korean => format!(
                "{round}라운드 진행 중, 아직 끝나지 않은 테이블: {}번",
                numbers(tables)
            ),
        }
    }

    /// A table the round does not have.
    pub fn no_table(lang: Language, table: &str) -> String {
        match lang {
            Language::English => format!("there is no table {table} in this round"),
            Language::Korean => format!("이번 라운드에 {table}번 테이블이 없습니다"),
        }
    }

    /// The placement points column.
    pub const PLACEMENT: Text = Text {
        en: "placement",
        ko: "순위점수",
    };

    /// A page that does not exist.
    pub const NOT_FOUND: Text = Text {
        en: "no such page",
        ko: "없는 페이지입니다",
    };

    /// The rules a night is scored under, in a line: a joker on a rack, not melded, the turn
    /// (the TV, the Event tab, the pictures and CSVs).
    pub fn rules(lang: Language, rules: &crate::rules::RuleSet) -> String {
        let not_melded = rules.not_melded_value.map(|v| v.to_string());
        match lang {
            Language::English => format!(
                "Scored with a joker on a rack at {} · not melded {} · {} s turns",
                rules.joker_penalty,
                not_melded.unwrap_or_else(|| "as left".into()),
                rules.turn_seconds
            ),
            Language::Korean => format!(
                "점수: 남은 조커 {} · 미등록 {} · 차례 {}초",
                rules.joker_penalty,
                not_melded.unwrap_or_else(|| "남은 대로".into()),
                rules.turn_seconds
            ),
        }
    }

    /// Printed by `event serve`: where the TV page is.
    pub fn serving(lang: Language, url: &str) -> String {
        match lang {
            Language::English => format!("TV page: {url} (Ctrl+C stops)"),
            Language::Korean => format!("TV 화면: {url} (Ctrl+C로 멈춥니다)"),
        }
    }

    /// The server could not listen.
    pub fn cannot_listen(lang: Language, address: &str, detail: &str) -> String {
        match lang {
            Language::English => format!("cannot listen on {address}: {detail}"),
            Language::Korean => format!("{address}에서 연결을 받을 수 없습니다: {detail}"),
        }
    }

    /// Hosting on every interface while no phone can reach this machine.
    pub const NO_TABLES_ADDRESS: Text = Text {
        en: "The tables cannot be hosted for phones: this laptop has no address that phones can \
             reach (no private IPv4 or local IPv6 address). Join the club's Wi-Fi and try again \
             (event serve --bind 127.0.0.1 serves this laptop alone).",
        ko: "휴대폰용으로 테이블을 열 수 없습니다: 이 노트북에는 휴대폰이 닿을 수 있는 주소(사설 \
             IPv4나 로컬 IPv6 주소)가 없습니다. 클럽 와이파이에 연결한 뒤 다시 하세요 (event serve \
             --bind 127.0.0.1 은 이 노트북에서만 열립니다).",
    };

    /// A --bind value that is not an address.
    pub fn not_an_address(lang: Language, text: &str) -> String {
        match lang {
            Language::English => {
                format!("\"{text}\" is not an IP address (e.g. 0.0.0.0 or 127.0.0.1)")
            }
            Language::Korean => {
                format!(
                    "{} IP 주소가 아닙니다 (예: 0.0.0.0, 127.0.0.1)",
                    crate::i18n::josa(&format!("\"{text}\""), crate::i18n::Josa::EunNeun)
                )
            }
        }
    }
}

/// The help of the `event` subcommands and their options (the command line's
/// [`super::cli::help`] asks here for what it does not know).
pub mod help {
    use crate::lang::Text;

    /// What an `event` subcommand does.
    pub fn about(command: &str) -> Option<Text> {
        Some(match command {
            "event" => Text {
                en: "Run a club night: register, seat rounds, enter results, print standings",
                ko: "클럽 대회를 진행합니다: 등록, 라운드 배정, 결과 입력, 순위",
            },
            "new" => Text {
                en: "Create an event from a file of players; prints its id",
                ko: "선수 파일로 대회를 만들고 그 번호를 보여 줍니다",
            },
            "seat" => Text {
                en: "Seat the next round (the current one must be finished)",
                ko: "다음 라운드 자리를 배정합니다 (지금 라운드가 끝나야 합니다)",
            },
            "result" => Text {
                en: "Enter a table's games: the CSV that score reads, header = the seated names",
                ko: "테이블의 게임 결과를 입력합니다: score가 읽는 CSV, 머리글은 앉은 선수 이름",
            },
            "serve" => Text {
                en: "Host the tables: a TV page (every table live, the round clock, standings) \
                     and a page per table for its phones (clock, end my turn, racks confirmed by \
                     every player)",
                ko: "테이블을 진행합니다: TV 화면(모든 테이블 실시간, 라운드 시계, 순위)과 \
                     테이블별 휴대폰 페이지(시계, 내 차례 끝, 모두가 확인하는 남은 패)",
            },
            "standings" => Text {
                en: "Print the standings with every tie-break applied",
                ko: "동점 규칙을 모두 적용한 순위를 보여 줍니다",
            },
            "final" => Text {
                en: "Seat the top N of the standings as the next stage (8: two semi-final tables, \
                     4: the final table)",
                ko: "순위 상위 N명을 다음 단계로 앉힙니다 (8명: 준결승 두 테이블, 4명: 결승 테이블)",
            },
            "export" => Text {
                en: "Write the event as a bundle signed with this venue's key, for a season",
                ko: "대회를 이 장소의 키로 서명한 묶음 파일로 씁니다 (시즌용)",
            },
            "season" => Text {
                en: "A season across venues: add up the ranking points of exported events",
                ko: "여러 장소에 걸친 시즌: 내보낸 대회들의 랭킹 점수를 더합니다",
            },
            "free-seat" => Text {
                en: "Free a seat whose phone died, so another phone can take it",
                ko: "휴대폰이 꺼진 자리를 비워 다른 휴대폰이 앉을 수 있게 합니다",
            },
            _ => return None,
        })
    }

    /// The help of an argument of an `event` subcommand.
    pub fn arg(command: &str, arg: &str) -> Option<Text> {
        Some(match (command, arg) {
            ("new", "name") => Text {
                en: "The event's name",
                ko: "대회 이름",
            },
            ("new", "players") => Text {
                en: "File of players: one a line, name[,club[,division[,id]]] (a first line \
                     name,club,division,id may name the columns)",
                ko: "선수 파일: 한 줄에 한 명, 이름[,클럽[,부[,아이디]]] (첫 줄에 name,club,\
                     division,id로 열 이름을 적어도 됨)",
            },
            ("new", "format") => Text {
                en: "A federation's format, setting games, seating, ranking, placement points, \
                     win bonus, joker value and finals at once (options given beside it win): \
                     germany (by standings, placement 4/3/1/0), japan (points, +100 a win, joker \
                     50, the final carries all), belgium (3 games, points, joker 25, semi-finals \
                     1-3-5-7/2-4-6-8 of 2 games, a final of 1 on the semi's points), poland (4 \
                     games by points), korea (wins then points, joker 50)",
                ko: "연맹 형식: 게임 수, 자리 배정, 순위 기준, 순위 점수, 승리 보너스, 조커 점수, \
                     본선을 한 번에 정합니다 (함께 준 옵션이 우선): germany(순위별 배정, 순위 \
                     점수 4/3/1/0), japan(점수, 승리 +100, 조커 50, 결승은 모두 이어감), \
                     belgium(3게임, 점수, 조커 25, 준결승 1-3-5-7/2-4-6-8 2게임, 준결승 점수만으로 \
                     결승 1게임), poland(4게임 점수), korea(승수 다음 점수, 조커 50)",
            },
            ("new", "seating") => Text {
                en: "Later rounds: mixed (fewest repeat meetings, the default) or standings \
                     (table 1 the top of the standings, table 2 the next, …); round 1 is drawn",
                ko: "2라운드부터: mixed(다시 만나는 일이 가장 적게, 기본값) 또는 standings(1번 \
                     테이블에 순위 상위, 2번에 다음, …); 1라운드는 추첨",
            },
            ("new", "placement") => Text {
                en: "Placement points for places 1..n at a table of n, e.g. 4,3,1,0; give it \
                     once per table size (defaults: 4,2,0 / 4,3,1,0 / 4,3,2,1,0); tied places \
                     share the average",
                ko: "n인 테이블의 1..n위 순위 점수, 예: 4,3,1,0; 테이블 크기마다 한 번 (기본값: \
                     4,2,0 / 4,3,1,0 / 4,3,2,1,0); 동순위는 평균을 나눔",
            },
            ("new", "win_bonus") => Text {
                en: "Points added to each game's winner (e.g. 100)",
                ko: "게임마다 이긴 사람에게 더하는 점수 (예: 100)",
            },
            ("new", "divisions_apart") => Text {
                en: "Seat each division at tables of its own (default: divisions play together)",
                ko: "부마다 따로 테이블에 앉힙니다 (기본값: 부를 섞어 앉힘)",
            },
            ("final", "top") => Text {
                en: "How many of the standings' top go on: 8 seats two tables, 4 one",
                ko: "순위 상위 몇 명이 올라가는지: 8명이면 두 테이블, 4명이면 한 테이블",
            },
            ("final", "games") => Text {
                en: "Games at each table of the stage (default: the format's, else the event's)",
                ko: "이 단계 테이블마다 하는 게임 수 (기본값: 형식의 값, 없으면 대회의 값)",
            },
            ("final", "seeding") => Text {
                en: "snake: 1-3-5-7 / 2-4-6-8 (the default); order: 1-2-3-4 / 5-6-7-8",
                ko: "snake: 1-3-5-7 / 2-4-6-8 (기본값); order: 1-2-3-4 / 5-6-7-8",
            },
            ("final", "carry") => Text {
                en: "What players bring into the stage: none (only its games), half (rounded up) \
                     or all (everything since round 1; the default)",
                ko: "이 단계로 가져가는 점수: none(이 단계 게임만), half(절반, 올림), all(1라운드부터 \
                     전부; 기본값)",
            },
            ("export", "out") => Text {
                en: "The bundle's file",
                ko: "묶음 파일",
            },
            ("export", "venue") => Text {
                en: "This venue's name (kept for later exports; default: the one kept)",
                ko: "이 장소의 이름 (다음 내보내기에도 씀; 기본값: 저장된 이름)",
            },
            ("standings", "division") => Text {
                en: "One division's standings, ranked among its own players",
                ko: "한 부의 순위 (그 부 선수끼리)",
            },
            ("new", "games") => Text {
                en: "Games each table plays a round (default: the format's, else 4)",
                ko: "한 라운드에 테이블마다 하는 게임 수 (기본값: 형식의 값, 없으면 4)",
            },
            (_, "ranking") => Text {
                en: "Ranking: wins (wins, then points), total (points, then wins), percent \
                     (points as a percentage of the table winner's) or placement (placement \
                     points a game, then points)",
                ko: "순위 기준: wins(승수, 다음 점수), total(점수, 다음 승수), percent(테이블 \
                     1위 점수 대비 백분율), placement(게임마다 순위 점수, 다음 점수)",
            },
            ("new", "seed") => Text {
                en: "Seed of every draw (default: random)",
                ko: "모든 추첨의 시드 (기본값: 무작위)",
            },
            ("new", "clubs_apart") => Text {
                en: "Round 1 keeps players of one club at different tables",
                ko: "1라운드에서 같은 클럽 선수를 다른 테이블에 앉힙니다",
            },
            ("new", "xp") => Text {
                en: "Allow a table of 5 on the XP set when tables of 4 and 3 cannot seat everyone",
                ko: "4인·3인 테이블로 나눌 수 없을 때 XP 세트로 5인 테이블을 허용합니다",
            },
            ("standings", "csv") => Text {
                en: "Also write the standings as CSV (with a BOM, for spreadsheets) to FILE",
                ko: "순위를 CSV(스프레드시트용 BOM 포함)로 FILE에도 씁니다",
            },
            (_, "event") => Text {
                en: "The event's id (default: the most recent)",
                ko: "대회 번호 (기본값: 가장 최근 대회)",
            },
            ("result", "table") => Text {
                en: "The table number",
                ko: "테이블 번호",
            },
            ("result", "round") => Text {
                en: "The round (default: the current one)",
                ko: "라운드 (기본값: 지금 라운드)",
            },
            ("result", "correct") => Text {
                en: "Replace a result given before (the old one stays in the log)",
                ko: "이미 입력한 결과를 바꿉니다 (이전 결과는 기록에 남습니다)",
            },
            ("result", "file") => Text {
                en: "The table's games as CSV (header game,<seated names>); - reads standard input",
                ko: "테이블의 게임을 적은 CSV (머리글 game,<앉은 선수들>); -는 표준 입력",
            },
            ("serve", "port") => Text {
                en: "The port to listen on (default 8765)",
                ko: "연결을 받을 포트 (기본값 8765)",
            },
            ("serve", "round_minutes") => Text {
                en: "Length of a round on the TV's round clock, in minutes (default: no clock)",
                ko: "TV 라운드 시계의 라운드 길이, 분 단위 (기본값: 시계 없음)",
            },
            ("serve", "bind") => Text {
                en: "The address to listen on (default ::, every interface, IPv6 and IPv4; \
                     0.0.0.0 where there is no IPv6): the local network",
                ko: "연결을 받을 주소 (기본값 ::, 모든 인터페이스의 IPv6와 IPv4; IPv6가 없으면 \
                     0.0.0.0): 로컬 네트워크",
            },
            _ => return None,
        })
    }

    /// What a subcommand does, by its path (`season new`): only paths whose last name another
    /// command also has, so a path never picks up another command's words.
    pub fn about_at(path: &str) -> Option<Text> {
        Some(match path {
            "season new" => Text {
                en: "Make a season; prints its id",
                ko: "시즌을 만들고 그 번호를 보여 줍니다",
            },
            "season add" => Text {
                en: "Import event bundles (the same event counts once; a newer export replaces \
                     an older; a tampered bundle or another venue key is refused)",
                ko: "대회 묶음을 가져옵니다 (같은 대회는 한 번, 새 내보내기가 예전 것을 대신함, \
                     변조된 묶음이나 다른 장소 키는 거부)",
            },
            "season standings" => Text {
                en: "Print the season's standings",
                ko: "시즌 순위를 보여 줍니다",
            },
            "season key" => Text {
                en: "Print this venue's public key (made once per data folder)",
                ko: "이 장소의 공개 키를 보여 줍니다 (데이터 폴더마다 한 번 만듦)",
            },
            _ => return None,
        })
    }

    /// The help of an argument of a subcommand by its path (see [`about_at`]).
    pub fn arg_at(path: &str, arg: &str) -> Option<Text> {
        Some(match (path, arg) {
            ("season key", "venue") => Text {
                en: "Name this data folder's venue (the key stays the same)",
                ko: "이 데이터 폴더의 장소 이름을 정합니다 (키는 그대로)",
            },
            ("season new", "name") => Text {
                en: "The season's name",
                ko: "시즌 이름",
            },
            ("season new", "points") => Text {
                en: "Ranking points: entrants (place p of E entrants gets E - p + 1, the \
                     default) or a list by place, e.g. 25,18,15,12 (0 past its end)",
                ko: "랭킹 점수: entrants(참가자 E명 중 p위가 E - p + 1점, 기본값) 또는 순위별 목록, \
                     예: 25,18,15,12 (목록 밖은 0점)",
            },
            ("season new", "best") => Text {
                en: "Count each player's best K events",
                ko: "선수마다 가장 좋은 대회 K개만 셉니다",
            },
            ("season add" | "season standings", "season") => Text {
                en: "The season's id or name (default: the most recent)",
                ko: "시즌 번호나 이름 (기본값: 가장 최근 시즌)",
            },
            ("season add", "files") => Text {
                en: "Event bundles made by event export",
                ko: "event export로 만든 대회 묶음 파일",
            },
            _ => return None,
        })
    }
}

/// The window's Event view.
pub mod window {
    use crate::event::Ranking;
    use crate::lang::{Language, Text};

    /// The tab.
    pub const TAB: Text = Text {
        en: "Event",
        ko: "대회",
    };
    /// Heading of the form.
    pub const NEW_EVENT: Text = Text {
        en: "New event",
        ko: "새 대회",
    };
    /// The event's name field.
    pub const NAME: Text = Text {
        en: "Event name",
        ko: "대회 이름",
    };
    /// The players field.
    pub const PLAYERS: Text = Text {
        en: "Players, one a line: name, name,club or name,club,division",
        ko: "선수, 한 줄에 한 명: 이름, 이름,클럽 또는 이름,클럽,부",
    };
    /// Games a round.
    pub const GAMES: Text = Text {
        en: "Games a round",
        ko: "라운드당 게임 수",
    };
    /// The ranking choice.
    pub const RANKING: Text = Text {
        en: "Ranking",
        ko: "순위 기준",
    };
    /// The seed field.
    pub const SEED: Text = Text {
        en: "Seed (blank: random)",
        ko: "시드 (비우면 무작위)",
    };
    /// The XP option.
    pub const XP: Text = Text {
        en: "Allow a table of 5 on the XP set when 4s and 3s cannot seat everyone",
        ko: "4인·3인 테이블로 나눌 수 없으면 XP 세트로 5인 테이블 허용",
    };
    /// Clubs apart.
    pub const CLUBS_APART: Text = Text {
        en: "Round 1 seats a club's players at different tables",
        ko: "1라운드에서 같은 클럽 선수를 다른 테이블에 배정",
    };
    /// Create.
    pub const CREATE: Text = Text {
        en: "Create event",
        ko: "대회 만들기",
    };
    /// The list of saved events.
    pub const SAVED: Text = Text {
        en: "Events in the data folder",
        ko: "데이터 폴더의 대회",
    };
    /// Read the list again.
    pub const REFRESH: Text = Text {
        en: "Refresh",
        ko: "새로 고침",
    };
    /// Open an event.
    pub const OPEN: Text = Text {
        en: "Open",
        ko: "열기",
    };
    /// No events.
    pub const NONE_YET: Text = Text {
        en: "No event saved yet.",
        ko: "저장된 대회가 없습니다.",
    };
    /// While the saved events are read.
    pub const LISTING: Text = Text {
        en: "Reading the saved events…",
        ko: "저장된 대회를 읽는 중…",
    };
    /// An unreadable event file in the list.
    pub const UNREADABLE: Text = Text {
        en: "(cannot be read)",
        ko: "(읽을 수 없음)",
    };
    /// Close the event.
    pub const CLOSE: Text = Text {
        en: "Close event",
        ko: "대회 닫기",
    };
    /// Seat the next round.
    pub const SEAT: Text = Text {
        en: "Seat the next round",
        ko: "다음 라운드 배정",
    };
    /// Marks the player who starts.
    pub const STARTS: Text = Text {
        en: "starts",
        ko: "선",
    };
    /// A table with its result.
    pub const RESULT_IN: Text = Text {
        en: "result in",
        ko: "결과 입력됨",
    };
    /// A table still playing.
    pub const PLAYING: Text = Text {
        en: "playing",
        ko: "진행 중",
    };
    /// Enter a table's result.
    pub const ENTER: Text = Text {
        en: "Enter result",
        ko: "결과 입력",
    };
    /// Correct a table's result.
    pub const CORRECT: Text = Text {
        en: "Correct result",
        ko: "결과 정정",
    };
    /// How to fill the result's cells.
    pub const CELL_HINT: Text = Text {
        en: "Each cell: what was left on the rack: 0 (went out), the points, or the tiles (R5 K7 J). \
             0! marks the winner when several have the lowest; * a player who had not melded.",
        ko: "칸마다 랙에 남은 것: 0(다 냄), 점수, 또는 타일(빨5 검7 조커). \
             가장 낮은 사람이 여럿이면 0!로 승자를, 등록하지 못한 선수는 *로 표시합니다.",
    };
    /// Save the result.
    pub const SAVE_RESULT: Text = Text {
        en: "Save result",
        ko: "결과 저장",
    };
    /// Close the result form.
    pub const CANCEL: Text = Text {
        en: "Cancel",
        ko: "취소",
    };
    /// Export the seating as CSV.
    pub const SEATING_CSV: Text = Text {
        en: "Seating sheet (CSV)",
        ko: "자리표 (CSV)",
    };
    /// Export the seating as a picture.
    pub const SEATING_PNG: Text = Text {
        en: "Seating sheet (picture)",
        ko: "자리표 (그림)",
    };
    /// Standings heading.
    pub const STANDINGS: Text = Text {
        en: "Standings",
        ko: "순위",
    };
    /// Export the standings.
    pub const STANDINGS_CSV: Text = Text {
        en: "Standings (CSV)",
        ko: "순위 (CSV)",
    };
    /// Export the standings as a picture.
    pub const STANDINGS_PNG: Text = Text {
        en: "Standings (picture)",
        ko: "순위 (그림)",
    };
    /// Before any round is complete.
    pub const NOT_RELEASED: Text = Text {
        en: "Standings are released once every table of a round has its result.",
        ko: "라운드의 모든 테이블 결과가 들어오면 순위를 발표합니다.",
    };
    /// The percent column.
    pub const PERCENT: Text = Text {
        en: "percent",
        ko: "백분율",
    };
    /// Saving in progress.
    pub const SAVING: Text = Text {
        en: "Saving…",
        ko: "저장 중…",
    };
    /// The organiser read the notices.
    pub const DISMISS: Text = Text {
        en: "Understood",
        ko: "확인했습니다",
    };
    /// The rules choice of a new event.
    pub const RULES: Text = Text {
        en: "Scoring",
        ko: "점수 규칙",
    };
    /// Free a seat whose phone died.
    pub const FREE_SEAT: Text = Text {
        en: "Free seat",
        ko: "자리 비우기",
    };
    /// On hover of "Free seat".
    pub const FREE_SEAT_HINT: Text = Text {
        en: "The phone that holds this seat is lost: free it, and the next phone to pick it holds it",
        ko: "이 자리를 가진 휴대폰을 쓸 수 없을 때: 비우면 다음에 고르는 휴대폰이 그 자리를 갖습니다",
    };
    /// Anyone at a table may end a turn.
    pub const SHARED_TURNS: Text = Text {
        en: "Anyone at this table may end a turn",
        ko: "이 테이블에서는 누구나 차례를 넘길 수 있음",
    };

    /// The games a seat starts this round (`starts games 1, 3`).
    pub fn starts(lang: Language, games: &[usize]) -> String {
        let list: Vec<String> = games.iter().map(ToString::to_string).collect();
        match lang {
            Language::English => format!("starts game {}", list.join(", ")),
            Language::Korean => format!("{}게임 선", list.join(", ")),
        }
    }

    /// The format choice of a new event.
    pub const FORMAT: Text = Text {
        en: "Format",
        ko: "대회 방식",
    };
    /// No federation's format: each rule as chosen.
    pub const CUSTOM: Text = Text {
        en: "Custom: each rule as chosen below",
        ko: "직접 정하기: 아래에서 규칙마다 고름",
    };
    /// The seating choice.
    pub const SEATING: Text = Text {
        en: "Seating after round 1",
        ko: "2라운드부터 자리 배정",
    };
    /// Placement points field.
    pub const PLACEMENT_POINTS: Text = Text {
        en: "Placement points at a table of 4 (places 1, 2, 3, 4)",
        ko: "4인 테이블의 순위 점수 (1위, 2위, 3위, 4위)",
    };
    /// Win bonus field.
    pub const WIN_BONUS: Text = Text {
        en: "Win bonus (points added to a game's winner)",
        ko: "승리 보너스 (게임 승자에게 더하는 점수)",
    };
    /// Divisions seated apart.
    pub const DIVISIONS_APART: Text = Text {
        en: "Seat each division apart (players: name,club,division)",
        ko: "부마다 따로 배정 (선수: 이름,클럽,부)",
    };
    /// The finals' heading.
    pub const FINALS: Text = Text {
        en: "Finals",
        ko: "결선",
    };
    /// How many go on.
    pub const TOP: Text = Text {
        en: "Top of the standings",
        ko: "순위 상위",
    };
    /// The seeding choice.
    pub const SEEDING: Text = Text {
        en: "Seeding",
        ko: "시드 배치",
    };
    /// The carry choice.
    pub const CARRY: Text = Text {
        en: "What carries in",
        ko: "이어지는 점수",
    };
    /// Seat the finals.
    pub const SEAT_FINALS: Text = Text {
        en: "Seat the finals",
        ko: "결선 배정",
    };
    /// Export the open event for a season.
    pub const EXPORT_BUNDLE: Text = Text {
        en: "Export for a season (signed)",
        ko: "시즌용으로 내보내기 (서명)",
    };
    /// The division choice of the standings.
    pub const DIVISION: Text = Text {
        en: "Division",
        ko: "부",
    };
    /// Every division's standings.
    pub const ALL_DIVISIONS: Text = Text {
        en: "everyone",
        ko: "전체",
    };
    /// The two parts of the Event tab.
    pub const CLUB_NIGHT: Text = Text {
        en: "Club night",
        ko: "대회",
    };
    /// The Season part.
    pub const SEASON: Text = Text {
        en: "Season",
        ko: "시즌",
    };
    /// New season heading.
    pub const NEW_SEASON: Text = Text {
        en: "New season",
        ko: "새 시즌",
    };
    /// The season's name.
    pub const SEASON_NAME: Text = Text {
        en: "Season name",
        ko: "시즌 이름",
    };
    /// Season points.
    pub const SEASON_POINTS: Text = Text {
        en: "Points: entrants (place p of E gets E − p + 1), or a list by place (25,18,15,…)",
        ko: "점수: entrants (참가자 E명 중 p위는 E − p + 1점) 또는 순위별 목록 (25,18,15,…)",
    };
    /// Best K.
    pub const SEASON_BEST: Text = Text {
        en: "Count each player's best events (blank: all)",
        ko: "선수마다 좋은 대회만 셈 (비우면 전부)",
    };
    /// Create the season.
    pub const CREATE_SEASON: Text = Text {
        en: "Create season",
        ko: "시즌 만들기",
    };
    /// The seasons list.
    pub const SEASONS: Text = Text {
        en: "Seasons in the data folder",
        ko: "데이터 폴더의 시즌",
    };
    /// No season yet.
    pub const NO_SEASONS: Text = Text {
        en: "No season yet.",
        ko: "아직 시즌이 없습니다.",
    };
    /// Bundle files to import.
    pub const BUNDLES: Text = Text {
        en: "Bundle files to import (event export), one a line",
        ko: "가져올 번들 파일 (event export), 한 줄에 하나",
    };
    /// Import them.
    pub const IMPORT: Text = Text {
        en: "Import into this season",
        ko: "이 시즌으로 가져오기",
    };
    /// Show a season on the TV.
    pub const SHOW_ON_TV: Text = Text {
        en: "Show on the TV",
        ko: "TV에 보이기",
    };
    /// Take it off the TV.
    pub const HIDE_FROM_TV: Text = Text {
        en: "Take off the TV",
        ko: "TV에서 내리기",
    };

    /// A federation's format as the choice reads.
    pub fn format(lang: Language, format: crate::event::format::Format) -> &'static str {
        use crate::event::format::Format;
        match (lang, format) {
            (Language::English, Format::Germany) => "Germany: by standings, placement 4/3/1/0",
            (Language::Korean, Format::Germany) => "독일: 순위별 배정, 순위 점수 4/3/1/0",
            (Language::English, Format::Japan) => "Japan: points, +100 a win, joker 50",
            (Language::Korean, Format::Japan) => "일본: 점수, 승리마다 +100, 조커 50",
            (Language::English, Format::Belgium) => {
                "Belgium: 3 games by points, joker 25, semi-finals 1-3-5-7 / 2-4-6-8"
            }
            (Language::Korean, Format::Belgium) => {
                "벨기에: 3게임 점수, 조커 25, 준결승 1-3-5-7 / 2-4-6-8"
            }
            (Language::English, Format::Poland) => "Poland: 4 games by points",
            (Language::Korean, Format::Poland) => "폴란드: 4게임 점수",
            (Language::English, Format::Korea) => "Korea: wins, then points; joker 50",
            (Language::Korean, Format::Korea) => "한국: 승수 다음 점수, 조커 50",
        }
    }

    /// A seating rule as the choice reads.
    pub fn seating(lang: Language, rule: crate::event::format::SeatingRule) -> &'static str {
        use crate::event::format::SeatingRule;
        match (lang, rule) {
            (Language::English, SeatingRule::Mixed) => "fewest repeat meetings",
            (Language::Korean, SeatingRule::Mixed) => "다시 만나는 사람이 가장 적게",
            (Language::English, SeatingRule::Standings) => "by standings (leaders at table 1)",
            (Language::Korean, SeatingRule::Standings) => "순위대로 (선두는 1번 테이블)",
        }
    }

    /// A seeding as the choice reads.
    pub fn seeding(lang: Language, seeding: crate::event::format::Seeding) -> &'static str {
        use crate::event::format::Seeding;
        match (lang, seeding) {
            (Language::English, Seeding::Snake) => "snake: 1-3-5-7 / 2-4-6-8",
            (Language::Korean, Seeding::Snake) => "지그재그: 1-3-5-7 / 2-4-6-8",
            (Language::English, Seeding::Order) => "in order: 1-2-3-4 / 5-6-7-8",
            (Language::Korean, Seeding::Order) => "순서대로: 1-2-3-4 / 5-6-7-8",
        }
    }

    /// What carries into a final stage, as the choice reads.
    pub fn carry(lang: Language, carry: crate::event::format::Carry) -> &'static str {
        use crate::event::format::Carry;
        match (lang, carry) {
            (Language::English, Carry::None) => "nothing: the stage's own points",
            (Language::Korean, Carry::None) => "없음: 그 단계의 점수만",
            (Language::English, Carry::Half) => "half the points so far, rounded up",
            (Language::Korean, Carry::Half) => "지금까지 점수의 절반 (올림)",
            (Language::English, Carry::All) => "everything since round 1",
            (Language::Korean, Carry::All) => "1라운드부터 전부",
        }
    }

    /// This data folder's venue, as the Season view names it.
    pub fn venue(lang: Language, name: &str, key: &str) -> String {
        match lang {
            Language::English => format!("This laptop's venue: {name} · key {key}"),
            Language::Korean => format!("이 노트북의 장소: {name} · 키 {key}"),
        }
    }

    /// No venue key yet (made at the first export).
    pub const NO_VENUE: Text = Text {
        en: "This laptop has no venue key yet: it is made at its first export.",
        ko: "이 노트북에는 아직 장소 키가 없습니다: 처음 내보낼 때 만들어집니다.",
    };

    /// A season was made.
    pub fn season_created(lang: Language, id: &str) -> String {
        match lang {
            Language::English => format!("Season {id} created"),
            Language::Korean => format!("{id} 시즌을 만들었습니다"),
        }
    }

    /// A ranking, as the choice reads.
    pub fn ranking(lang: Language, ranking: Ranking) -> &'static str {
        match (lang, ranking) {
            (Language::English, Ranking::Wins) => "most wins, then points",
            (Language::English, Ranking::Total) => "most points, then wins",
            (Language::English, Ranking::Percent) => "points as a percentage of the table winner's",
            (Language::Korean, Ranking::Wins) => "승수 우선, 다음 점수",
            (Language::Korean, Ranking::Total) => "점수 우선, 다음 승수",
            (Language::Korean, Ranking::Percent) => "테이블 1위 점수 대비 백분율",
            (Language::English, Ranking::Placement) => "placement points a game, then points",
            (Language::Korean, Ranking::Placement) => "게임마다 순위 점수, 다음 점수",
        }
    }

    /// The open event's line.
    pub fn summary(lang: Language, players: usize, round: u32, ranking: Ranking) -> String {
        let ranking = self::ranking(lang, ranking);
        match lang {
            Language::English => format!("{players} players · round {round} · {ranking}"),
            Language::Korean => format!("선수 {players}명 · {round}라운드 · {ranking}"),
        }
    }

    /// An event in the list.
    pub fn listed(lang: Language, players: usize, round: u32) -> String {
        match lang {
            Language::English => format!("{players} players, round {round}"),
            Language::Korean => format!("선수 {players}명, {round}라운드"),
        }
    }

    /// How many tables have their result.
    pub fn tables_in(lang: Language, done: usize, tables: usize) -> String {
        match lang {
            Language::English => format!("{done} of {tables} tables have their result"),
            Language::Korean => format!("테이블 {tables}개 중 {done}개 결과 입력"),
        }
    }

    /// The result form's heading.
    pub fn entry(lang: Language, round: u32, table: u32, correct: bool) -> String {
        match (lang, correct) {
            (Language::English, false) => format!("Round {round}, table {table}: the games"),
            (Language::English, true) => format!(
                "Round {round}, table {table}: correction (the earlier result stays in the log)"
            ),
            (Language::Korean, false) => format!("{round}라운드 {table}번 테이블: 게임 결과"),
            (Language::Korean, true) => {
                format!("{round}라운드 {table}번 테이블: 정정 (이전 결과는 기록에 남습니다)")
            }
        }
    }

    /// A game's row.
    pub fn game(lang: Language, n: usize) -> String {
        match lang {
            Language::English => format!("Game {n}"),
            Language::Korean => format!("{n}게임"),
        }
    }

    /// Release the standings.
    pub fn release(lang: Language, round: u32) -> String {
        match lang {
            Language::English => format!("Release the standings after round {round}"),
            Language::Korean => format!("{round}라운드 후 순위 발표"),
        }
    }

    /// A round was seated.
    pub fn seated(lang: Language, round: u32, repeats: usize) -> String {
        let mut text = match lang {
            Language::English => format!("Round {round} is seated"),
            Language::Korean => format!("{round}라운드를 배정했습니다"),
        };
        if repeats > 0 {
            text.push_str("; ");
            text.push_str(&super::cli::repeats(lang, repeats));
        }
        text
    }

    /// An event was created.
    pub fn created(lang: Language, id: &str) -> String {
        match lang {
            Language::English => format!("Event {id} created"),
            Language::Korean => format!("{id} 대회를 만들었습니다"),
        }
    }

    /// A number field that is not a number.
    pub fn not_a_number(lang: Language, field: &str, text: &str) -> String {
        match lang {
            Language::English => format!("{field}: \"{text}\" is not a whole number"),
            Language::Korean => format!(
                "{field}: {} 정수가 아닙니다",
                crate::i18n::josa(&format!("\"{text}\""), crate::i18n::Josa::EunNeun)
            ),
        }
    }

    /// The event is not on disk yet (retried).
    pub fn not_saved(lang: Language, why: &str) -> String {
        match lang {
            Language::English => format!("The event is not saved yet (trying again): {why}"),
            Language::Korean => format!("대회를 아직 저장하지 못했습니다 (다시 시도 중): {why}"),
        }
    }
}

/// The words of `season` (a season across venues) and of the event bundles it imports.
pub mod season {
    use crate::event::bundle::BundleProblem;
    use crate::event::season::{Added, SeasonRefusal};
    use crate::lang::{Language, Text};

    /// A bundle file that cannot be read.
    pub fn unreadable(lang: Language, file: &str, detail: &str) -> String {
        match lang {
            Language::English => format!("{file} cannot be read: {detail}"),
            Language::Korean => format!("{file} 파일을 읽을 수 없습니다: {detail}"),
        }
    }

    /// No season to work on.
    pub fn no_season(lang: Language, name: Option<&str>) -> String {
        match (lang, name) {
            (Language::English, Some(n)) => format!("there is no season \"{n}\" (season new)"),
            (Language::Korean, Some(n)) => format!("\"{n}\" 시즌이 없습니다 (season new)"),
            (Language::English, None) => "there is no season yet: make one with season new".into(),
            (Language::Korean, None) => "아직 시즌이 없습니다: season new로 만드세요".into(),
        }
    }

    /// `--points` that is neither `entrants` nor a list.
    pub fn not_points(lang: Language, text: &str) -> String {
        match lang {
            Language::English => format!(
                "\"{text}\" is not a points rule: entrants, or points by place (e.g. 25,18,15,12)"
            ),
            Language::Korean => format!(
                "{} 점수 규칙이 아닙니다: entrants, 또는 순위별 점수 (예: 25,18,15,12)",
                crate::i18n::josa(&format!("\"{text}\""), crate::i18n::Josa::EunNeun)
            ),
        }
    }

    /// Why a season or an import was refused.
    pub fn refusal(lang: Language, refusal: &SeasonRefusal) -> String {
        use Language::{English as En, Korean as Ko};
        match (lang, refusal) {
            (En, SeasonRefusal::EmptyName) => "the season needs a name".into(),
            (Ko, SeasonRefusal::EmptyName) => "시즌 이름이 필요합니다".into(),
            (En, SeasonRefusal::BadPoints) => format!(
                "a points list has 1 to {} places",
                crate::event::season::MAX_POINTS_PLACES
            ),
            (Ko, SeasonRefusal::BadPoints) => format!(
                "순위별 점수는 1~{}개입니다",
                crate::event::season::MAX_POINTS_PLACES
            ),
            (En, SeasonRefusal::BadBest) => "--best counts at least 1 event".into(),
            (Ko, SeasonRefusal::BadBest) => "--best는 대회 1개 이상입니다".into(),
            (En, SeasonRefusal::VenueKey { venue }) => format!(
                "refused: the venue \"{venue}\" signs with another key in this season; this \
                 bundle is not from that venue's laptop (season key there prints its key)"
            ),
            (Ko, SeasonRefusal::VenueKey { venue }) => format!(
                "거부: 이 시즌에서 장소 \"{venue}\"의 서명 키가 다릅니다. 이 묶음은 그 장소의 \
                 노트북에서 나오지 않았습니다 (그 노트북에서 season key로 키를 확인하세요)"
            ),
            (En, SeasonRefusal::Unfinished { event, round }) => format!(
                "the event \"{event}\" is not finished: round {round} has tables without a result"
            ),
            (Ko, SeasonRefusal::Unfinished { event, round }) => format!(
                "대회 {} 끝나지 않았습니다: {round}라운드에 결과가 없는 테이블이 있습니다",
                crate::i18n::josa(&format!("\"{event}\""), crate::i18n::Josa::IGa)
            ),
            (En, SeasonRefusal::NoResults { event }) => {
                format!("the event \"{event}\" has no game counted")
            }
            (Ko, SeasonRefusal::NoResults { event }) => {
                format!("대회 \"{event}\"에는 기록된 게임이 없습니다")
            }
        }
    }

    /// Why a bundle cannot be read.
    pub fn problem(lang: Language, problem: &BundleProblem) -> String {
        use Language::{English as En, Korean as Ko};
        match (lang, problem) {
            (En, BundleProblem::NotJson(detail)) => {
                format!("not an event bundle (not JSON: {detail})")
            }
            (Ko, BundleProblem::NotJson(detail)) => {
                format!("대회 묶음 파일이 아닙니다 (JSON이 아님: {detail})")
            }
            (En, BundleProblem::NotABundle) => {
                "not an event bundle (make one with event export)".into()
            }
            (Ko, BundleProblem::NotABundle) => {
                "대회 묶음 파일이 아닙니다 (event export로 만드세요)".into()
            }
            (En, BundleProblem::Newer(v)) => format!(
                "the bundle was made by a newer version of the app (format {v}): use the newer version"
            ),
            (Ko, BundleProblem::Newer(v)) => {
                format!("더 새 버전의 앱이 만든 묶음입니다 (형식 {v}): 새 버전을 쓰세요")
            }
            (En, BundleProblem::Tampered) => "refused: the bundle was changed after the venue \
                 signed it (tampered with or damaged); ask the venue to export it again"
                .into(),
            (Ko, BundleProblem::Tampered) => "거부: 장소가 서명한 뒤 묶음이 바뀌었습니다 \
                 (변조 또는 손상). 그 장소에서 다시 내보내 달라고 하세요"
                .into(),
            (En, BundleProblem::Invalid(detail)) => {
                format!("the bundle is signed but does not hold an event ({detail})")
            }
            (Ko, BundleProblem::Invalid(detail)) => {
                format!("서명은 맞지만 대회가 들어 있지 않습니다 ({detail})")
            }
        }
    }

    /// After refused files: the season is as it was.
    pub const NOTHING_ADDED: Text = Text {
        en: "nothing was added to the season",
        ko: "시즌에 아무것도 더하지 않았습니다",
    };

    /// What an import did with one file.
    pub fn added(lang: Language, added: &Added, file: &str, event: &str, venue: &str) -> String {
        match (lang, added) {
            (Language::English, Added::New) => {
                format!("{file}: \"{event}\" at {venue} added")
            }
            (Language::Korean, Added::New) => {
                format!("{file}: {venue}의 \"{event}\" 추가")
            }
            (Language::English, Added::Replaced) => {
                format!("{file}: \"{event}\" at {venue} replaced by this newer export")
            }
            (Language::Korean, Added::Replaced) => {
                format!("{file}: {venue}의 \"{event}\"을(를) 이 새 내보내기로 바꿈")
            }
            (Language::English, Added::AlreadyIn) => {
                format!("{file}: \"{event}\" at {venue} counts already (counted once)")
            }
            (Language::Korean, Added::AlreadyIn) => {
                format!(
                    "{file}: {venue}의 {} 이미 들어 있습니다 (한 번만 셈)",
                    crate::i18n::josa(&format!("\"{event}\""), crate::i18n::Josa::EunNeun)
                )
            }
            (Language::English, Added::OlderKept) => {
                format!("{file}: an older export of \"{event}\" at {venue}: the newer one counts")
            }
            (Language::Korean, Added::OlderKept) => {
                format!("{file}: {venue}의 \"{event}\"의 예전 내보내기입니다: 새것이 그대로 셈")
            }
        }
    }

    /// The heading of a season's standings.
    pub fn heading(lang: Language, name: &str, events: usize, best: Option<u32>) -> String {
        let noun = if events == 1 { "event" } else { "events" };
        match (lang, best) {
            (Language::English, None) => format!("{name}: {events} {noun}"),
            (Language::Korean, None) => format!("{name}: 대회 {events}개"),
            (Language::English, Some(k)) => {
                format!("{name}: {events} {noun}, each player's best {k} count")
            }
            (Language::Korean, Some(k)) => {
                format!("{name}: 대회 {events}개, 선수마다 가장 좋은 {k}개만 셈")
            }
        }
    }

    /// The columns of a season's standings.
    pub const COLUMNS: [Text; 5] = [
        Text {
            en: "rank",
            ko: "순위",
        },
        Text {
            en: "name",
            ko: "이름",
        },
        Text {
            en: "club",
            ko: "클럽",
        },
        Text {
            en: "points",
            ko: "점수",
        },
        Text {
            en: "events",
            ko: "대회",
        },
    ];

    /// The venue's key file cannot be used.
    pub fn key_unusable(lang: Language, detail: &str) -> String {
        match lang {
            Language::English => format!("the venue's key cannot be used: {detail}"),
            Language::Korean => format!("장소 키를 쓸 수 없습니다: {detail}"),
        }
    }

    /// The venue's name under its key.
    pub fn venue_line(lang: Language, venue: &str) -> String {
        match lang {
            Language::English => format!("venue: {venue}"),
            Language::Korean => format!("장소: {venue}"),
        }
    }
}
