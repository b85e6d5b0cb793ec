//! The command line's words: every message the subcommands print, both languages side by side.
//!
//! Why one home: when the English of a message sat in `src/cli/*.rs` behind `if ko { … } else
//! { … }`, the two languages drifted (one line said more in English than in Korean, `score`
//! had a rules line of its own beside the window's) and a Korean branch could be forgotten
//! without anything failing. Here a fixed message is a [`Text`] holding both, and a message with
//! values is a `fn` of the [`Language`] whose two `match` arms sit together; Korean particles
//! follow the word before them ([`josa`]). `src/cli/` lays the words out and holds no Korean
//! at all (a test reads its files). Grouped per subcommand, like the command line itself.
//!
//! clap has no translations, so its help and errors are given here too: [`help`] holds the
//! about and help texts of every subcommand and option (applied to clap's command in both
//! languages, so English and Korean stay one entry), [`clap_error`] words clap's errors in
//! Korean (in English clap's own words stay as they are).

use std::io;

use super::{Josa, io_error, josa};
use crate::lang::{Language, Text};
use crate::meld::Reading;
use crate::rules::FinalRule;
use crate::solver::{Objective, SolvedSet};
use crate::tile::{SetInput, Tile};

/// The word before an error on stderr.
pub const ERROR: Text = Text {
    en: "error:",
    ko: "오류:",
};

/// The word before a warning on stderr.
pub const WARNING: Text = Text {
    en: "warning:",
    ko: "경고:",
};

/// The word before a notice on stderr (a skipped file).
pub const NOTICE: Text = Text {
    en: "notice:",
    ko: "알림:",
};

/// The language a `--lang` value names: `ko`/`kr`/`korean`/`한국어` or `en`/`english`, in any
/// case.
///
/// # Example
/// ```
/// use rummikub_companion::i18n::{cli::language_named};
/// use rummikub_companion::lang::Language;
/// assert_eq!(language_named("KO"), Some(Language::Korean));
/// assert_eq!(language_named("한국어"), Some(Language::Korean));
/// assert_eq!(language_named("fr"), None);
/// ```
pub fn language_named(text: &str) -> Option<Language> {
    match text.trim().to_lowercase().as_str() {
        "ko" | "kr" | "korean" | "한국어" => Some(Language::Korean),
        "en" | "english" => Some(Language::English),
        _ => None,
    }
}

/// A `--lang` value that names no language (`text` as typed; it is cut to a readable length).
pub fn not_a_language(lang: Language, text: &str) -> String {
    let text = format!("\"{}\"", crate::tile::shorten(text));
    match lang {
        Language::English => format!("{text} is not a language (ko or en)"),
        Language::Korean => format!(
            "{} 언어가 아닙니다 (ko 또는 en)",
            josa(&text, Josa::EunNeun)
        ),
    }
}

/// Argument `n` (1 = the subcommand) is not UTF-8; its first bad byte is at `offset`.
pub fn argument_not_utf8(lang: Language, n: usize, offset: usize) -> String {
    match lang {
        Language::English => {
            format!("argument {n} is not UTF-8 text (invalid byte at offset {offset})")
        }
        Language::Korean => {
            format!("{n}번째 인자가 UTF-8 글자가 아닙니다 ({offset}번째 바이트가 잘못됨)")
        }
    }
}

/// A file that cannot be read, with the system's reason (in Korean words for Korean).
pub fn cannot_read(lang: Language, path: &str, error: &io::Error) -> String {
    match lang {
        Language::English => format!("cannot read {path}: {error}"),
        Language::Korean => format!(
            "{} 읽을 수 없습니다 ({})",
            josa(path, Josa::EulReul),
            io_error(lang, error)
        ),
    }
}

/// A file that is not UTF-8 text; its first bad byte is at `offset`.
pub fn file_not_utf8(lang: Language, path: &str, offset: usize) -> String {
    match lang {
        Language::English => {
            format!("{path} is not UTF-8 text (invalid byte at offset {offset})")
        }
        Language::Korean => format!(
            "{} UTF-8 글자가 아닙니다 ({offset}번째 바이트가 잘못됨)",
            josa(path, Josa::EunNeun)
        ),
    }
}

/// " points" after a number (`36 points`, `36점`).
pub const POINTS_AFTER: Text = Text {
    en: " points",
    ko: "점",
};

/// The words of `check`.
pub mod check {
    use super::*;

    /// A set, before its number (`set 1`, `묶음 1`).
    pub const SET: Text = Text {
        en: "set",
        ko: "묶음",
    };

    /// Before an ambiguity note.
    pub const NOTE: Text = Text {
        en: "note",
        ko: "참고",
    };

    /// The verdict for a valid initial meld.
    pub const VALID: Text = Text {
        en: "valid initial meld",
        ko: "등록할 수 있습니다",
    };

    /// The verdict for a meld that is not a valid initial meld.
    pub const INVALID: Text = Text {
        en: "NOT a valid initial meld",
        ko: "등록할 수 없습니다",
    };

    /// A set as entered (`group: K9 B9 O9`, `그룹: 검9 파9 주9`).
    pub fn entered(lang: Language, input: &SetInput) -> String {
        match lang {
            Language::English => input.to_string(),
            Language::Korean => {
                let tiles = super::super::tiles(lang, &input.tiles);
                match input.declared {
                    Some(kind) => format!("{}: {tiles}", super::super::kind_name(lang, kind)),
                    None => tiles,
                }
            }
        }
    }

    /// What a joker stands for (`joker = R12`, `조커 = 빨12`).
    pub fn joker_is(lang: Language, tile: Tile) -> String {
        match lang {
            Language::English => format!("joker = {tile}"),
            Language::Korean => format!("조커 = {}", super::super::tile(lang, tile)),
        }
    }

    /// The ambiguity note of a reading (a run that would also be a group, …).
    pub fn note(lang: Language, reading: &Reading) -> Option<String> {
        match lang {
            Language::English => reading.note(),
            Language::Korean => reading.alternative.map(|(kind, points)| {
                (lang.strings().meld.ambiguity_note)(reading.kind, reading.points, kind, points)
            }),
        }
    }

    /// The verdict line: the total, the threshold and `verdict` ([`VALID`] or [`INVALID`]).
    pub fn total(lang: Language, total: u32, threshold: u32, verdict: Text) -> String {
        let verdict = verdict.get(lang);
        match lang {
            Language::English => format!("total {total} (needs {threshold}): {verdict}"),
            Language::Korean => format!("합계 {total} (필요 {threshold}): {verdict}"),
        }
    }
}

/// The words of `solve`.
pub mod solve {
    use super::*;

    /// The heading above the sets found in a rack of `rack` tiles.
    pub fn heading(
        lang: Language,
        objective: Objective,
        meets: bool,
        rack: usize,
        threshold: u32,
    ) -> String {
        match (lang, objective) {
            (Language::English, Objective::Tiles) if !meets => {
                format!("no meld from these {rack} tiles reaches {threshold}; the best by points:")
            }
            (Language::Korean, Objective::Tiles) if !meets => format!(
                "타일 {rack}개로는 {threshold}점에 닿는 등록이 없습니다. 점수로 가장 좋은 등록:"
            ),
            (Language::English, Objective::Tiles) => {
                format!("most tiles laid in a meld reaching {threshold}, from {rack} tiles:")
            }
            (Language::Korean, Objective::Tiles) => {
                format!("타일 {rack}개 중 {threshold}점에 닿으면서 가장 많이 내려놓는 등록:")
            }
            (Language::English, Objective::Points) => {
                format!("best meld by points from {rack} tiles:")
            }
            (Language::Korean, Objective::Points) => {
                format!("타일 {rack}개로 점수가 가장 높은 등록:")
            }
        }
    }

    /// A set's tiles in laying order, each joker followed by what it stands for
    /// (`R11 R12 J=R13`, `빨11 빨12 조커=빨13`).
    pub fn shown(lang: Language, set: &SolvedSet) -> String {
        let tile = |t: &Tile| super::super::tile(lang, *t);
        set.input
            .tiles
            .iter()
            .zip(&set.represented)
            .map(|(t, r)| {
                if t.is_joker() {
                    format!("{}={}", tile(t), tile(r))
                } else {
                    tile(t)
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// When the rack holds no valid set at all.
    pub const NO_SET: Text = Text {
        en: "no valid set can be made from this rack",
        ko: "이 받침대로는 올바른 묶음을 만들 수 없습니다",
    };

    /// No tile left over.
    pub const NONE: Text = Text {
        en: "none",
        ko: "없음",
    };

    /// The tiles left over (`unused` already in the language).
    pub fn unused(lang: Language, unused: &str) -> String {
        match lang {
            Language::English => format!("unused: {unused}"),
            Language::Korean => format!("남는 타일: {unused}"),
        }
    }

    /// The last line: the total, how many tiles it lays, the threshold and whether it is met
    /// (nothing laid is no meld, whatever the threshold).
    pub fn total(lang: Language, total: u32, laid: usize, threshold: u32, meets: bool) -> String {
        match lang {
            Language::English => {
                let verdict = if laid == 0 {
                    "no meld (nothing can be laid)"
                } else if meets {
                    "threshold reached"
                } else {
                    "threshold NOT reachable"
                };
                format!("total {total} from {laid} tiles (needs {threshold}): {verdict}")
            }
            Language::Korean => {
                let verdict = if laid == 0 {
                    "등록할 수 없습니다 (내려놓을 묶음이 없음)"
                } else if meets {
                    "기준 점수에 닿습니다"
                } else {
                    "기준 점수에 닿을 수 없습니다"
                };
                format!("타일 {laid}개로 합계 {total} (필요 {threshold}): {verdict}")
            }
        }
    }
}

/// The words of `score`.
pub mod score {
    use super::*;

    /// A final rule in words, as the rank rows and the winner lines name it.
    pub fn rule_words(lang: Language, rule: FinalRule) -> &'static str {
        match (lang, rule) {
            (Language::English, FinalRule::Total) => "highest total",
            (Language::English, FinalRule::Wins) => "most wins, then total",
            (Language::Korean, FinalRule::Total) => "최고 합계",
            (Language::Korean, FinalRule::Wins) => "최다 승, 그다음 합계",
        }
    }

    /// The first line: the rules the sheet is scored under ([`crate::i18n::rules_line`]).
    pub fn rules(lang: Language, line: &str) -> String {
        match lang {
            Language::English => format!("rules: {line}"),
            Language::Korean => format!("규칙: {line}"),
        }
    }

    /// Header of the label column.
    pub const GAME: Text = Text {
        en: "game",
        ko: "게임",
    };

    /// Header of the winner column.
    pub const WINNER: Text = Text {
        en: "winner",
        ko: "우승",
    };

    /// After a winner who won with the pool empty.
    pub const POOL_OUT: Text = Text {
        en: " (pool out)",
        ko: " (더미 소진)",
    };

    /// The totals row (also `audit`'s).
    pub const TOTAL: Text = Text {
        en: "total",
        ko: "합계",
    };

    /// The wins row (also `audit`'s).
    pub const WINS: Text = Text {
        en: "wins",
        ko: "승 수",
    };

    /// The rank rows (also `audit`'s).
    pub const RANK: Text = Text {
        en: "rank",
        ko: "순위",
    };

    /// After a rank row: the rule it ranks by.
    pub fn by(lang: Language, rule: FinalRule) -> String {
        let words = rule_words(lang, rule);
        match lang {
            Language::English => format!("by {words}"),
            Language::Korean => format!("{words} 기준"),
        }
    }

    /// The winners under `rule`; `other` when it is not the sheet's final rule.
    pub fn winner(lang: Language, rule: FinalRule, other: bool, winners: &str) -> String {
        let words = rule_words(lang, rule);
        match lang {
            Language::English => {
                let other = if other { " (the other rule)" } else { "" };
                format!("winner by {words}{other}: {winners}")
            }
            Language::Korean => {
                let other = if other { " (다른 규칙)" } else { "" };
                format!("{words} 기준 우승{other}: {winners}")
            }
        }
    }

    /// The rule options differ from the rules written in the file: both rules lines.
    pub fn rules_differ(lang: Language, written: &str, used: &str) -> String {
        match lang {
            Language::English => format!(
                "the file says it was scored under {written}; scoring under the options' rules: \
                 {used}"
            ),
            Language::Korean => format!(
                "파일에 적힌 규칙은 {written}입니다. 옵션대로 {} 계산합니다",
                josa(used, Josa::EuroRo)
            ),
        }
    }

    /// The file's rules line cannot be read (`text` as written): the rules used instead.
    pub fn rules_unreadable(lang: Language, text: &str, used: &str) -> String {
        let text = format!("\"{}\"", crate::tile::shorten(text));
        match lang {
            Language::English => {
                format!(
                    "the rules written in the file ({text}) cannot be read; scoring under {used}"
                )
            }
            Language::Korean => format!(
                "파일에 적힌 규칙 {} 읽을 수 없어 {used} 규칙으로 계산합니다",
                josa(&text, Josa::EulReul)
            ),
        }
    }
}

/// The words of `audit`.
pub mod audit {
    use super::*;

    /// After a game row: what its points sum to.
    pub fn sums_to(lang: Language, sum: &str) -> String {
        match lang {
            Language::English => format!("sums to {sum}"),
            Language::Korean => format!("합 {sum}"),
        }
    }

    /// A row as written on the sheet (`what` is a row's name: wins, total, rank).
    pub fn written(lang: Language, what: &str) -> String {
        match lang {
            Language::English => format!("{what} written"),
            Language::Korean => format!("{what} (적힌 값)"),
        }
    }

    /// A row as it should be.
    pub fn correct(lang: Language, what: &str) -> String {
        match lang {
            Language::English => format!("{what} correct"),
            Language::Korean => format!("{what} (바른 값)"),
        }
    }

    /// The label of the ranks under `rule` and the note after them.
    pub fn rank_by(lang: Language, rule: FinalRule) -> (String, &'static str) {
        let words = super::score::rule_words(lang, rule);
        match lang {
            Language::English => (format!("rank by {}", rule.name()), words),
            Language::Korean => (format!("순위 ({words})"), ""),
        }
    }

    /// How many problems were found (the list follows).
    pub fn problems(lang: Language, count: usize) -> String {
        match (lang, count) {
            (Language::English, 0) => "no problems found".to_owned(),
            (Language::English, 1) => "1 problem found:".to_owned(),
            (Language::English, n) => format!("{n} problems found:"),
            (Language::Korean, 0) => "문제가 없습니다".to_owned(),
            (Language::Korean, n) => format!("문제 {n}개:"),
        }
    }

    /// Which final rules the written ranks follow (none, one, or both).
    pub fn ranks_match(lang: Language, rules: &[FinalRule]) -> String {
        let words = |rule| super::score::rule_words(lang, rule);
        match (lang, rules) {
            (Language::English, []) => "the written ranks match neither final rule".to_owned(),
            (Language::English, [one]) => {
                format!("the written ranks match the {} rule", words(*one))
            }
            (Language::English, _) => "the written ranks match both final rules".to_owned(),
            (Language::Korean, []) => "적힌 순위는 어느 최종 규칙과도 맞지 않습니다".to_owned(),
            (Language::Korean, [one]) => {
                format!("적힌 순위는 {} 규칙과 맞습니다", words(*one))
            }
            (Language::Korean, _) => "적힌 순위는 두 최종 규칙 모두와 맞습니다".to_owned(),
        }
    }

    /// Added when the written ranks rank the written (wrong) totals by `rule`.
    pub fn ranks_follow_written_totals(lang: Language, rule: FinalRule) -> String {
        let words = super::score::rule_words(lang, rule);
        match lang {
            Language::English => format!("; they rank the written (wrong) totals by {words}"),
            Language::Korean => format!("; 적힌 (틀린) 합계를 {words} 기준으로 매긴 순위입니다"),
        }
    }
}

/// The words of `status`.
pub mod status {
    use super::*;
    use crate::timer::Phase;

    /// The timer's phase in words (in English the JSON code).
    pub fn phase(lang: Language, phase: Phase) -> &'static str {
        match (lang, phase) {
            (Language::English, Phase::Idle) => "idle",
            (Language::English, Phase::Running) => "running",
            (Language::English, Phase::Paused) => "paused",
            (Language::Korean, Phase::Idle) => "대기",
            (Language::Korean, Phase::Running) => "진행 중",
            (Language::Korean, Phase::Paused) => "일시정지",
        }
    }

    /// The timer line: its phase and whose turn it is.
    pub fn turn_of(lang: Language, phase: Phase, name: &str) -> String {
        let phase = self::phase(lang, phase);
        match lang {
            Language::English => format!("timer: {phase} · {name}'s turn"),
            Language::Korean => format!("타이머: {phase} · {name}의 차례"),
        }
    }

    /// One seat's statistics.
    pub fn player(lang: Language, name: &str, turns: u32, seconds: f64, timeouts: u32) -> String {
        match lang {
            Language::English => {
                format!("  {name}: {turns} turns, {seconds:.1} s, {timeouts} time-outs")
            }
            Language::Korean => {
                format!("  {name}: 턴 {turns}번, {seconds:.1}초, 시간 초과 {timeouts}번")
            }
        }
    }

    /// No evening saved.
    pub const NO_EVENING: Text = Text {
        en: "timer: no saved evening",
        ko: "타이머: 저장된 저녁이 없습니다",
    };

    /// The open sheet: its id, how many games, its final rule.
    pub fn sheet(lang: Language, id: &str, games: usize, rule: FinalRule) -> String {
        match lang {
            Language::English => {
                format!("sheet {id}: {games} games, final winner by {}", rule.name())
            }
            Language::Korean => {
                let by = match rule {
                    FinalRule::Total => "최고 합계",
                    FinalRule::Wins => "최다 승",
                };
                format!(
                    "점수표 {id}: 게임 {games}개, 최종 우승은 {}",
                    josa(by, Josa::EuroRo)
                )
            }
        }
    }

    /// One player's standing on the open sheet.
    pub fn standing(lang: Language, name: &str, total: &str, rank: usize) -> String {
        match lang {
            Language::English => format!("  {name}: {total} (rank {rank})"),
            Language::Korean => format!("  {name}: {total} ({rank}위)"),
        }
    }

    /// No sheet open.
    pub const NO_SHEET: Text = Text {
        en: "sheet: none open",
        ko: "점수표: 열린 것이 없습니다",
    };

    /// The data folder does not exist.
    pub fn no_folder(lang: Language, dir: &str) -> String {
        match lang {
            Language::English => {
                format!("the data folder {dir} cannot be read: it does not exist")
            }
            Language::Korean => format!(
                "데이터 폴더 {} 읽을 수 없습니다: 없는 폴더입니다",
                josa(dir, Josa::EulReul)
            ),
        }
    }

    /// The data folder cannot be listed, with the system's reason.
    pub fn folder_unreadable(lang: Language, dir: &str, error: &io::Error) -> String {
        match lang {
            Language::English => format!("the data folder {dir} cannot be read: {error}"),
            Language::Korean => format!(
                "데이터 폴더 {} 읽을 수 없습니다 ({})",
                josa(dir, Josa::EulReul),
                io_error(lang, error)
            ),
        }
    }
}

/// The words of `history`.
pub mod history {
    use super::*;
    use crate::store::FileProblem;

    /// A saved sheet that was skipped, or read from its backup.
    pub fn skipped(lang: Language, file: &str, problem: &FileProblem, backup_used: bool) -> String {
        match lang {
            Language::English => {
                let then = if backup_used {
                    "its backup was used"
                } else {
                    "skipped"
                };
                format!("{file} {problem}; {then}")
            }
            Language::Korean => {
                let then = if backup_used {
                    "백업을 썼습니다"
                } else {
                    "빼고 셉니다"
                };
                let problem = super::super::file_and_problem(lang, file, problem);
                format!("{problem}: {then}")
            }
        }
    }

    /// The first line: evenings, decided matches, and how match winners are decided.
    pub fn heading(
        lang: Language,
        evenings: usize,
        matches: usize,
        rule: Option<FinalRule>,
    ) -> String {
        match lang {
            Language::English => {
                let by = match rule {
                    None => "each sheet's own final rule",
                    Some(FinalRule::Total) => "highest total",
                    Some(FinalRule::Wins) => "most wins, then total",
                };
                format!("{evenings} evenings, {matches} decided matches; match winners by {by}")
            }
            Language::Korean => {
                let by = match rule {
                    None => "점수표마다 정한 규칙",
                    Some(FinalRule::Total) => "최고 합계",
                    Some(FinalRule::Wins) => "최다 승, 그다음 합계",
                };
                format!(
                    "저녁 {evenings}번, 승부가 난 경기 {matches}번; 경기 우승은 {}",
                    josa(by, Josa::EuroRo)
                )
            }
        }
    }

    /// Nothing saved yet.
    pub const NO_GAMES: Text = Text {
        en: "no games saved yet",
        ko: "저장된 게임이 아직 없습니다",
    };

    /// The columns of the players' table.
    pub const COLUMNS: [Text; 8] = [
        Text {
            en: "player",
            ko: "플레이어",
        },
        Text {
            en: "evenings",
            ko: "저녁",
        },
        Text {
            en: "games",
            ko: "게임",
        },
        Text {
            en: "matches",
            ko: "경기",
        },
        Text {
            en: "match wins",
            ko: "경기 우승",
        },
        Text {
            en: "total",
            ko: "합계",
        },
        Text {
            en: "average",
            ko: "평균",
        },
        Text {
            en: "best game",
            ko: "최고 게임",
        },
    ];

    /// The heading of the head-to-head table.
    pub const HEAD_TO_HEAD: Text = Text {
        en: "head to head (games won against):",
        ko: "맞대결 (상대에게 이긴 게임 수):",
    };
}

/// The words of `sound-test`.
pub mod sound {
    use super::*;
    use crate::sound::Cue;

    /// One sound starts playing, `seconds` long.
    pub fn playing(lang: Language, cue: Cue, seconds: f64) -> String {
        match lang {
            Language::English => format!("playing {} ({seconds:.2} s)", cue.name()),
            Language::Korean => {
                let name = match cue {
                    Cue::Warning => "경고음",
                    Cue::Tick => "째깍 소리",
                    Cue::TimeUp => "시간 끝 소리",
                };
                format!("{name} 재생 ({seconds:.2}초)")
            }
        }
    }

    /// Every sound was played.
    pub fn done(lang: Language, count: usize) -> String {
        match lang {
            Language::English => format!("done: played {count} sounds"),
            Language::Korean => format!("끝: 소리 {count}개를 재생했습니다"),
        }
    }
}

/// The window could not be opened (the program was started with no arguments).
pub mod window {
    use super::*;

    /// There is no display to open a window on: what to do instead.
    pub const NO_DISPLAY: Text = Text {
        en: "no display found: set DISPLAY or WAYLAND_DISPLAY, or use the command line \
             (rummikub-companion --help)",
        ko: "화면(디스플레이)을 찾을 수 없습니다: DISPLAY나 WAYLAND_DISPLAY를 설정하거나 \
             명령줄로 쓰세요 (rummikub-companion --help)",
    };

    /// Another reason; `detail` is the graphics system's own message.
    pub fn cannot_open(lang: Language, detail: &str) -> String {
        match lang {
            Language::English => format!("could not open the window: {detail}"),
            Language::Korean => format!("창을 열 수 없습니다 (그래픽 시스템의 말: {detail})"),
        }
    }
}

/// The about and help texts of the command line, for clap, in both languages. The keys are
/// clap's: a subcommand's name and an argument's id (the field name).
pub mod help {
    use super::*;

    /// What the program is (the top of `--help`).
    pub const ABOUT: Text = Text {
        en: "Table-side Rummikub companion: turn timer, initial-meld checker, score sheet.",
        ko: "테이블 옆 루미큐브 도우미: 턴 타이머, 첫 등록 검사, 점수표.",
    };

    /// The notation, below the top `--help`.
    pub const AFTER_HELP: Text = Text {
        en: "Tiles: R7 B7 K7 O7 (also 빨강7 파랑7 검정7 주황7), joker J or 조커.\n\
             Sets: separated by | ; or new lines, optionally declared run: / group:.",
        ko: "타일: 빨강7 파랑7 검정7 주황7 (줄여서 빨7 파7 검7 주7, 또는 R7 B7 K7 O7), 조커는 \
             조커 또는 J.\n묶음: | ; 또는 줄바꿈으로 나누고, 앞에 런: / 그룹: 으로 종류를 밝힐 \
             수 있습니다.",
    };

    /// What a subcommand does (`help` is clap's own).
    pub fn about(command: &str) -> Option<Text> {
        Some(match command {
            "check" => Text {
                en: "Check an initial meld as laid on the table",
                ko: "테이블에 내려놓은 첫 등록을 검사합니다",
            },
            "solve" => Text {
                en: "Find the best initial meld hidden in an unordered rack",
                ko: "순서 없는 받침대에서 가장 좋은 첫 등록을 찾습니다",
            },
            "score" => Text {
                en: "Score a multi-game sheet of remaining values (CSV)",
                ko: "게임마다 남은 값을 적은 점수표(CSV)를 계산합니다",
            },
            "audit" => Text {
                en: "Audit a hand-kept sheet of points (CSV)",
                ko: "손으로 적은 점수표(CSV)를 검사합니다",
            },
            "sound-test" => Text {
                en: "Play the warning, tick and time-up sounds on the default output",
                ko: "기본 출력 장치로 경고음, 째깍 소리, 시간 끝 소리를 재생합니다",
            },
            "history" => Text {
                en: "Add up every saved sheet per player: evenings, games, match wins, points, \
                     head-to-head",
                ko: "저장된 점수표를 플레이어별로 모두 더합니다: 저녁, 게임, 경기 우승, 점수, \
                     맞대결",
            },
            "status" => Text {
                en: "Print the saved evening: the timer's table and the open sheet",
                ko: "저장된 저녁을 보여 줍니다: 타이머의 자리와 열린 점수표",
            },
            "help" => Text {
                en: "Print this message or the help of the given subcommand(s)",
                ko: "이 도움말이나 지정한 명령의 도움말을 보여 줍니다",
            },
            _ => {
                return crate::i18n::event::help::about(command)
                    .or_else(|| super::super::play::about(command));
            }
        })
    }

    /// The help of an argument (`arg` is its id) of `command` ("" for the top level).
    pub fn arg(command: &str, arg: &str) -> Option<Text> {
        Some(match (command, arg) {
            (_, "lang") => Text {
                en: "Language of the output: ko (한국어) or en (default: the locale)",
                ko: "출력 언어: ko(한국어) 또는 en (기본값: 시스템의 언어 설정)",
            },
            (_, "help") => Text {
                en: "Print help",
                ko: "도움말을 보여 줍니다",
            },
            (_, "version") => Text {
                en: "Print version",
                ko: "버전을 보여 줍니다",
            },
            (_, "json") => Text {
                en: "Print one JSON object",
                ko: "JSON 객체 하나로 출력합니다",
            },
            ("score", "preset") => Text {
                en: "Rule preset: korean, english or tournament (default: the rules written in \
                     the file, else korean)",
                ko: "규칙 프리셋: korean(한국어판), english(영문판) 또는 tournament(대회) \
                     (기본값: 파일에 적힌 규칙, 없으면 korean)",
            },
            (_, "preset") => Text {
                en: "Rule preset: korean, english or tournament",
                ko: "규칙 프리셋: korean(한국어판), english(영문판) 또는 tournament(대회)",
            },
            (_, "threshold") => Text {
                en: "Points the initial meld needs (default from the preset: 30)",
                ko: "첫 등록에 필요한 점수 (기본값은 프리셋에 따름: 30)",
            },
            ("score", "xp") => Text {
                en: "Use the XP set (three copies of each tile, four jokers): racks are checked \
                     against it (always so with five or six players)",
                ko: "XP 세트를 씁니다 (타일마다 3장, 조커 4장): 받침대를 이 세트로 확인합니다 \
                     (5~6명이면 늘 이 세트)",
            },
            (_, "xp") => Text {
                en: "Use the XP set (three copies of each tile, four jokers)",
                ko: "XP 세트를 씁니다 (타일마다 3장, 조커 4장)",
            },
            ("solve", "no_joker_meld") => Text {
                en: "House rule: no jokers in the initial meld (they stay on the rack)",
                ko: "집 규칙: 첫 등록에 조커를 쓰지 않습니다 (조커는 받침대에 남음)",
            },
            (_, "no_joker_meld") => Text {
                en: "House rule: no jokers in the initial meld",
                ko: "집 규칙: 첫 등록에 조커를 쓰지 않습니다",
            },
            (_, "meld") => Text {
                en: "The sets as laid on the table (arguments are joined with spaces)",
                ko: "테이블에 내려놓은 묶음들 (인자는 공백으로 이어 붙임)",
            },
            (_, "objective") => Text {
                en: "What to maximise: points (the meld's value) or tiles (the most tiles laid \
                     among melds that reach the threshold)",
                ko: "무엇을 가장 크게 할지: points(등록 점수) 또는 tiles(기준 점수에 닿는 등록 \
                     중 가장 많이 내려놓기) (기본값: points)",
            },
            (_, "tiles") => Text {
                en: "The rack, in any order (arguments are joined with spaces)",
                ko: "받침대의 타일, 순서는 상관없음 (인자는 공백으로 이어 붙임)",
            },
            ("history", "final_rule") => Text {
                en: "Final-winner rule deciding match wins: total or wins (default: each \
                     sheet's own rule)",
                ko: "경기 우승을 정하는 최종 규칙: total 또는 wins (기본값: 점수표마다 정한 규칙)",
            },
            (_, "final_rule") => Text {
                en: "Final-winner rule: total (highest total) or wins (most wins, then total)",
                ko: "최종 우승 규칙: total(최고 합계) 또는 wins(최다 승, 그다음 합계)",
            },
            (_, "joker") => Text {
                en: "What a joker left on a rack counts (default from the preset: 30; \
                     tournament 50)",
                ko: "받침대에 남은 조커의 점수 (기본값은 프리셋에 따름: 30, 대회 50)",
            },
            ("audit", "file") => Text {
                en: "CSV sheet as kept by hand: header game,<player 1>,…; game rows of signed \
                     points (+24, -5); optional rows `total` (점수합계), `wins` (승 수) and \
                     `rank` (순위). `-` reads standard input",
                ko: "손으로 적은 CSV 점수표: 머리글 game,<플레이어 1>,…; 게임 행마다 부호 있는 \
                     점수 (+24, -5); 넣어도 되는 행 `total`(점수합계), `wins`(승 수), \
                     `rank`(순위). `-`는 표준 입력을 읽습니다",
            },
            (_, "file") => Text {
                en: "CSV sheet: header game,<player 1>,…; each row a label and every player's \
                     remaining value (a number or tiles; 0 = went out; `!` = named winner of a \
                     tie; `*` = had not melded). `-` reads standard input",
                ko: "CSV 점수표: 머리글 game,<플레이어 1>,…; 행마다 이름표와 플레이어별 남은 값 \
                     (숫자나 타일; 0 = 다 냄; `!` = 동점일 때 정한 우승자; `*` = 등록하지 못함). \
                     `-`는 표준 입력을 읽습니다",
            },
            _ => {
                return crate::i18n::event::help::arg(command, arg)
                    .or_else(|| super::super::play::arg(command, arg));
            }
        })
    }

    /// The headings of `--help`.
    pub const USAGE: Text = Text {
        en: "Usage",
        ko: "사용법",
    };
    /// The heading of the positional arguments.
    pub const ARGUMENTS: Text = Text {
        en: "Arguments",
        ko: "인자",
    };
    /// The heading of the options.
    pub const OPTIONS: Text = Text {
        en: "Options",
        ko: "옵션",
    };
    /// The heading of the subcommands.
    pub const COMMANDS: Text = Text {
        en: "Commands",
        ko: "명령",
    };
    /// The placeholders of a usage line, `[OPTIONS]` and `[COMMAND]`, in the language.
    pub fn usage_words(lang: Language, usage: &str) -> String {
        match lang {
            Language::English => usage.to_owned(),
            Language::Korean => usage
                .replace("[OPTIONS]", "[옵션]")
                .replace("[COMMAND]", "[명령]")
                .replace("<COMMAND>", "<명령>"),
        }
    }

    /// The last line of a usage error.
    pub const MORE: Text = Text {
        en: "For more information, try '--help'.",
        ko: "자세한 내용은 '--help'로 보세요.",
    };
}

/// clap's errors in Korean (in English clap's own words stay). Each names the argument clap
/// refused, as typed on the command line; [`clap_error::message`] picks the wording by kind.
pub mod clap_error {
    use super::*;

    /// What was wrong, from clap's error kind and the context it names. `arg` is the argument
    /// as clap names it (`--preset <P>`), `value` the value typed, `valid` the values or
    /// subcommands clap would take.
    pub struct Refused<'a> {
        /// The kind of error.
        pub kind: clap::error::ErrorKind,
        /// The argument or subcommand clap names.
        pub arg: Option<&'a str>,
        /// The value typed.
        pub value: Option<&'a str>,
        /// Required arguments that were not given, or an argument the refused one conflicts with.
        pub others: Vec<&'a str>,
        /// Numbers clap names: (expected, actual).
        pub counts: Option<(isize, isize)>,
    }

    /// The Korean message (without the `오류:` word).
    pub fn message(e: &Refused<'_>) -> String {
        use clap::error::ErrorKind as K;
        let quoted = |s: &str| format!("'{s}'");
        let arg = e.arg.map(quoted).unwrap_or_default();
        let value = e.value.map(quoted).unwrap_or_default();
        match e.kind {
            K::UnknownArgument => format!("알 수 없는 인자 {arg}"),
            K::InvalidSubcommand => format!("알 수 없는 명령 {arg}"),
            K::InvalidValue if value.is_empty() || value == "''" => {
                format!("{}에 값이 필요합니다", arg)
            }
            K::InvalidValue | K::ValueValidation => format!(
                "{arg}의 값 {} 쓸 수 없습니다: {}",
                josa(&value, Josa::EulReul),
                value_hint(e.arg.unwrap_or_default())
            ),
            K::NoEquals => format!("{arg}에 값을 줄 때는 등호(=)가 필요합니다"),
            K::TooManyValues => format!(
                "{arg}에 값 {} 더 왔습니다: 더는 받지 않습니다",
                josa(&value, Josa::IGa)
            ),
            K::TooFewValues | K::WrongNumberOfValues => match e.counts {
                Some((expected, actual)) => {
                    format!("{arg}에는 값이 {expected}개 필요한데 {actual}개가 왔습니다")
                }
                None => format!("{arg}의 값 개수가 맞지 않습니다"),
            },
            K::ArgumentConflict => match e.others.first() {
                Some(other) if Some(*other) == e.arg => {
                    format!("{} 한 번만 쓸 수 있습니다", josa(&arg, Josa::EunNeun))
                }
                Some(other) => format!(
                    "{} {} 함께 쓸 수 없습니다",
                    josa(&arg, Josa::GwaWa),
                    josa(&quoted(other), Josa::EunNeun)
                ),
                None => format!(
                    "{} 다른 인자와 함께 쓸 수 없습니다",
                    josa(&arg, Josa::EunNeun)
                ),
            },
            K::MissingRequiredArgument => {
                format!("꼭 필요한 인자가 없습니다: {}", e.others.join(", "))
            }
            K::MissingSubcommand => format!("{arg}에는 명령이 필요합니다"),
            K::InvalidUtf8 => "인자가 UTF-8 글자가 아닙니다".to_owned(),
            _ => "명령줄을 읽을 수 없습니다".to_owned(),
        }
    }

    /// What an option takes, named by its long form (`--preset <P>` → the presets).
    fn value_hint(arg: &str) -> &'static str {
        let long = arg.split_whitespace().next().unwrap_or_default();
        match long.trim_start_matches('-') {
            "preset" => "korean, english, tournament 중 하나를 쓰세요",
            "final" => "total 또는 wins를 쓰세요",
            "objective" => "points 또는 tiles를 쓰세요",
            "lang" => "ko 또는 en을 쓰세요",
            "threshold" | "joker" => "0 이상의 정수를 쓰세요",
            _ => "올바른 값이 아닙니다",
        }
    }

    /// A hint below the message: the argument clap suggests instead.
    pub fn did_you_mean(suggested: &str) -> String {
        format!(
            "혹시 {} 쓰려던 것인가요?",
            josa(&format!("'{suggested}'"), Josa::EulReul)
        )
    }

    /// A hint below an unknown argument that starts with `-`: how to pass it as a value.
    pub fn as_value(arg: &str) -> String {
        format!("값으로 넘기려면 '-- {arg}'처럼 쓰세요")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_has_both_languages() {
        let commands = [
            "check",
            "solve",
            "score",
            "audit",
            "sound-test",
            "history",
            "status",
            "help",
        ];
        for c in commands {
            let t = help::about(c).expect("an about");
            assert!(!t.en.is_empty() && !t.ko.is_empty() && t.en != t.ko, "{c}");
        }
    }

    #[test]
    fn korean_value_hints_name_the_choices() {
        let e = clap_error::Refused {
            kind: clap::error::ErrorKind::ValueValidation,
            arg: Some("--preset <P>"),
            value: Some("casual"),
            others: Vec::new(),
            counts: None,
        };
        assert_eq!(
            clap_error::message(&e),
            "'--preset <P>'의 값 'casual'을 쓸 수 없습니다: korean, english, tournament 중 하나를 쓰세요"
        );
    }
}
