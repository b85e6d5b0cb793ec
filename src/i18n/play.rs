//! Words of the table solver (`play`) and the turn referee (`referee`), both languages side by
//! side, tiles named as the table calls them (`R5 J`, `빨5 조커`). Kept apart from
//! [`super::cli`] so the two features' words live in one place.

use super::set_problem;
use super::tiles;
use crate::lang::{Language, Text};
use crate::play::PlayError;
use crate::play::moves::{Layout, Source, Step, StepKind, Target};
use crate::referee::{Reason, Verdict};
use crate::tile::{SetInput, Tile};

/// Heading of a play: how many rack tiles can be laid and their value.
pub fn heading(lang: Language, count: usize, points: u32) -> String {
    match lang {
        Language::English => {
            let tiles = if count == 1 { "tile" } else { "tiles" };
            format!("Best play: {count} {tiles} from the rack ({points} points)")
        }
        Language::Korean => format!("가장 좋은 수: 받침대에서 {count}개 ({points}점)"),
    }
}

/// What the best play lays, known before its arrangement: what counts first only (the
/// points by tiles come with the arrangement, see [`crate::play::Most`]).
pub fn most(lang: Language, most: crate::play::Most) -> String {
    use crate::play::Most;
    match (lang, most) {
        (Language::English, Most::Tiles(1)) => "Best play: 1 tile from the rack".into(),
        (Language::English, Most::Tiles(n)) => format!("Best play: {n} tiles from the rack"),
        (Language::English, Most::Points(p)) => {
            format!("Best play: {p} points from the rack")
        }
        (Language::Korean, Most::Tiles(n)) => format!("가장 좋은 수: 받침대에서 {n}개"),
        (Language::Korean, Most::Points(p)) => format!("가장 좋은 수: 받침대에서 {p}점"),
    }
}

/// Nothing from the rack fits.
pub const NOTHING: Text = Text {
    en: "Nothing from the rack can be laid: draw a tile.",
    ko: "받침대의 타일을 하나도 놓을 수 없습니다: 타일을 한 장 가져가세요.",
};

/// The tiles laid.
pub fn placed(lang: Language, placed: &[crate::tile::Tile]) -> String {
    format!("{} {}", LAY.get(lang), tiles(lang, placed))
}

/// The label before the tiles to lay (the window draws the tiles after it).
pub const LAY: Text = Text {
    en: "Lay:",
    ko: "놓을 타일:",
};

/// The mark of a changed or new set.
pub const CHANGED: Text = Text {
    en: "changed",
    ko: "바뀜",
};

/// The mark of a set left as it was.
pub const KEPT: Text = Text {
    en: "as it was",
    ko: "그대로",
};

/// The mark of a set that is new on the table.
pub const NEW: Text = Text {
    en: "new",
    ko: "새로 만듦",
};

/// How many tiles the steps move.
pub fn moves(lang: Language, n: usize) -> String {
    match lang {
        Language::English if n == 1 => "Tiles moved: 1".into(),
        Language::English => format!("Tiles moved: {n}"),
        Language::Korean => format!("옮기는 타일: {n}개"),
    }
}

/// The heading of the steps.
pub const HOW: Text = Text {
    en: "How to play it:",
    ko: "놓는 순서:",
};

/// One step in words: `from` and `to` the sets as they stand before it (`None`: the rack, a
/// new set).
pub fn step(lang: Language, step: &Step, from: Option<&[Tile]>, to: Option<&[Tile]>) -> String {
    let moved = tiles(lang, &step.tiles);
    let from = from.map(|t| tiles(lang, t));
    let to = to.map(|t| tiles(lang, t));
    let one = step.tiles.len() == 1;
    let joker = step.tiles == [Tile::JOKER];
    match lang {
        Language::English => {
            let it = if one { "it" } else { "them" };
            match (step.kind, from, to) {
                (StepKind::Lay, _, _) => format!("Lay {moved} as a new set."),
                (StepKind::Add, _, Some(to)) => format!("Add {moved} to {to}."),
                (StepKind::Swap, None, Some(to)) => {
                    format!("Put {moved} in place of the joker in {to}.")
                }
                (StepKind::Swap, Some(from), Some(to)) if joker => {
                    format!("Take the freed joker from {from} and put it with {to}.")
                }
                (StepKind::Swap, Some(from), None) => {
                    format!("Take the freed joker from {from} to start a new set.")
                }
                (StepKind::Swap, Some(from), Some(to)) => {
                    format!("Take {moved} from {from} and put it in place of the joker in {to}.")
                }
                (StepKind::Split, Some(from), _) => {
                    format!("Split {moved} off {from} as a new set.")
                }
                (StepKind::Join, Some(from), Some(to)) => format!("Join {from} to {to}."),
                (_, Some(from), Some(to)) => {
                    format!("Take {moved} from {from} and put {it} with {to}.")
                }
                (_, Some(from), None) => {
                    format!("Take {moved} from {from} to start a new set.")
                }
                (_, None, Some(to)) => format!("Add {moved} to {to}."),
                (_, None, None) => format!("Lay {moved} as a new set."),
            }
        }
        Language::Korean => match (step.kind, from, to) {
            (StepKind::Lay, _, _) => format!("새 묶음으로 내려놓기: {moved}"),
            (StepKind::Add, _, Some(to)) => format!("{to}에 붙이기: {moved}"),
            (StepKind::Swap, None, Some(to)) => format!("{to}의 조커 자리에 놓기: {moved}"),
            (StepKind::Swap, Some(from), Some(to)) if joker => {
                format!("풀려난 조커를 {from}에서 떼어 {to}에 붙이기")
            }
            (StepKind::Swap, Some(from), None) => {
                format!("풀려난 조커를 {from}에서 떼어 새 묶음 만들기")
            }
            (StepKind::Swap, Some(from), Some(to)) => {
                format!("{from}에서 떼어 {to}의 조커 자리에 놓기: {moved}")
            }
            (StepKind::Split, Some(from), _) => format!("{from} 나누기, 새 묶음으로: {moved}"),
            (StepKind::Join, Some(from), Some(to)) => format!("{from} 묶음을 {to}에 합치기"),
            (_, Some(from), Some(to)) => format!("{from}에서 떼어 {to}에 붙이기: {moved}"),
            (_, Some(from), None) => format!("{from}에서 떼어 새 묶음 만들기: {moved}"),
            (_, None, Some(to)) => format!("{to}에 붙이기: {moved}"),
            (_, None, None) => format!("새 묶음으로 내려놓기: {moved}"),
        },
    }
}

/// Every step of a play in words, in order, each worded with the sets as they stand before it
/// (the table before replayed step by step).
pub fn steps(lang: Language, before: &[SetInput], steps: &[Step]) -> Vec<String> {
    let mut layout = Layout::new(before);
    steps
        .iter()
        .map(|s| {
            let (from, to) = places(&layout, s);
            let line = step(lang, s, from.as_deref(), to.as_deref());
            layout.apply(s);
            line
        })
        .collect()
}

/// The tiles of a step's two places as the table stands before it (`None`: the rack, a new
/// set).
pub fn places(layout: &Layout, step: &Step) -> (Option<Vec<Tile>>, Option<Vec<Tile>>) {
    let set = |i: usize| layout.sets().get(i).cloned();
    let from = match step.from {
        Source::Rack => None,
        Source::Set(i) => set(i),
    };
    let to = match step.to {
        Target::New => None,
        Target::Set(k) => set(k),
    };
    (from, to)
}

/// How many table sets change.
pub fn sets_changed(lang: Language, n: usize) -> String {
    match lang {
        Language::English => format!("Table sets changed: {n}"),
        Language::Korean => format!("바뀌는 테이블 묶음: {n}개"),
    }
}

/// Why a table and rack cannot be played.
pub fn play_error(lang: Language, error: &PlayError) -> String {
    match (lang, error) {
        (Language::English, e) => e.to_string(),
        (Language::Korean, PlayError::InvalidSet { index, problem }) => format!(
            "테이블의 {}번째 묶음이 올바르지 않습니다: {}",
            index + 1,
            set_problem(lang, problem)
        ),
        (Language::Korean, PlayError::TooManyCopies(e)) => {
            format!("테이블과 받침대: {}", copies(lang, e))
        }
    }
}

/// The verdict line.
pub fn verdict(lang: Language, verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Legal => Text {
            en: "Legal turn.",
            ko: "올바른 차례입니다.",
        },
        Verdict::Draw => Text {
            en: "Nothing laid: the player draws a tile.",
            ko: "놓은 타일이 없습니다: 타일을 한 장 가져갑니다.",
        },
        Verdict::Illegal => Text {
            en: "Illegal turn:",
            ko: "잘못된 차례입니다:",
        },
    }
    .get(lang)
}

/// One reason, naming its tiles.
pub fn reason(lang: Language, reason: &Reason) -> String {
    match (lang, reason) {
        (
            Language::English,
            Reason::BrokenSet {
                index,
                tiles: t,
                problem,
            },
        ) => format!(
            "set {} ({}) is not valid: {}",
            index + 1,
            tiles(lang, t),
            set_problem(lang, problem)
        ),
        (
            Language::Korean,
            Reason::BrokenSet {
                index,
                tiles: t,
                problem,
            },
        ) => format!(
            "{}번째 묶음({})이 올바르지 않습니다: {}",
            index + 1,
            tiles(lang, t),
            set_problem(lang, problem)
        ),
        (Language::English, Reason::Pocketed(t)) => {
            format!("taken off the table: {}", tiles(lang, t))
        }
        (Language::Korean, Reason::Pocketed(t)) => {
            format!("테이블에서 사라진 타일: {}", tiles(lang, t))
        }
        (Language::English, Reason::NotFromRack(t)) => {
            format!("not from the player's rack: {}", tiles(lang, t))
        }
        (Language::Korean, Reason::NotFromRack(t)) => {
            format!("받침대에 없던 타일: {}", tiles(lang, t))
        }
        (Language::English, Reason::RearrangedWithoutLaying) => {
            "the table was rearranged but no tile was laid".into()
        }
        (Language::Korean, Reason::RearrangedWithoutLaying) => {
            "타일을 놓지 않고 테이블을 바꾸었습니다".into()
        }
        (Language::English, Reason::TouchedBeforeMeld(sets)) => format!(
            "before the initial meld the table may not be touched (set {} changed)",
            numbers(sets)
        ),
        (Language::Korean, Reason::TouchedBeforeMeld(sets)) => format!(
            "등록 전에는 테이블의 묶음을 건드릴 수 없습니다 ({}번째 묶음이 바뀜)",
            numbers(sets)
        ),
        (Language::English, Reason::MeldTooSmall { total, threshold }) => {
            format!("the initial meld is worth {total}, it needs {threshold}")
        }
        (Language::Korean, Reason::MeldTooSmall { total, threshold }) => {
            format!("등록은 {threshold}점 이상이어야 하는데 {total}점입니다")
        }
        (Language::English, Reason::TooManyCopies(e)) => copies(lang, e),
        (Language::Korean, Reason::TooManyCopies(e)) => copies(lang, e),
    }
}

/// Too many copies of a tile, worded as the meld checker words it.
fn copies(lang: Language, e: &crate::tile::TooManyCopies) -> String {
    super::meld_problem(lang, &crate::meld::MeldProblem::from(*e))
}

fn numbers(sets: &[usize]) -> String {
    sets.iter()
        .map(|i| (i + 1).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// After a time-out with a broken table: what to restore.
pub fn restore(lang: Language, take_back: &[crate::tile::Tile], draw: u8) -> String {
    match lang {
        Language::English => format!(
            "Time is up with the table broken: put every moved tile back as before, take back {}, and draw {draw}.",
            if take_back.is_empty() {
                "nothing".to_owned()
            } else {
                tiles(lang, take_back)
            }
        ),
        Language::Korean => format!(
            "시간이 끝났는데 테이블이 올바르지 않습니다: 옮긴 타일을 모두 원래대로 되돌리고, {}, 타일을 {draw}장 가져가세요.",
            if take_back.is_empty() {
                "되가져갈 타일은 없고".to_owned()
            } else {
                format!("{}{} 되가져가고", tiles(lang, take_back), "를")
            }
        ),
    }
}

/// The table before, to restore.
pub fn table_before(lang: Language) -> &'static str {
    Text {
        en: "Table to restore:",
        ko: "되돌릴 테이블:",
    }
    .get(lang)
}

/// Tiles laid in a turn.
pub fn laid(lang: Language, t: &[crate::tile::Tile]) -> String {
    format!("{} {}", LAID.get(lang), tiles(lang, t))
}

/// The label before the tiles laid in a turn (the window draws the tiles after it).
pub const LAID: Text = Text {
    en: "Laid:",
    ko: "놓은 타일:",
};

/// The about text of `play` and `referee` (consulted by [`super::cli::help::about`]).
pub fn about(command: &str) -> Option<Text> {
    Some(match command {
        "play" => Text {
            en: "The best play from a rack with the whole table rearranged",
            ko: "테이블 전체를 다시 짜서 받침대에서 가장 많이 놓는 수를 찾습니다",
        },
        "referee" => Text {
            en: "Check a turn: the table before and after, and the rack",
            ko: "한 차례를 검사합니다: 전후의 테이블과 받침대",
        },
        _ => return None,
    })
}

/// The help of `play`'s and `referee`'s options (consulted by [`super::cli::help::arg`]).
pub fn arg(command: &str, arg: &str) -> Option<Text> {
    Some(match (command, arg) {
        ("play", "table") => Text {
            en: "The sets on the table, as check reads them (|, ; or new lines)",
            ko: "테이블의 묶음 (check처럼 |, ; 또는 줄바꿈으로 나눔)",
        },
        (_, "rack") => Text {
            en: "The player's rack",
            ko: "플레이어의 받침대",
        },
        ("play", "by") => Text {
            en: "What to maximise: tiles (then fewest changed table sets, then fewest tiles moved, then most points) or points (a joker at the joker penalty; then fewest changed sets, then fewest tiles moved with the same rack tiles). The steps move no more",
            ko: "무엇을 가장 많이: tiles(타일 수, 같으면 바뀌는 테이블 묶음이 적은 수, 그다음 옮기는 타일이 적은 수, 그다음 점수가 큰 수) 또는 points(점수, 조커는 벌점 값; 같으면 바뀌는 묶음이 적은 수, 그다음 같은 받침대 타일로 옮기는 타일이 적은 수). 단계도 그만큼만 옮김",
        },
        ("referee", "before") => Text {
            en: "The table before the turn",
            ko: "차례 전의 테이블",
        },
        ("referee", "after") => Text {
            en: "The table after the turn",
            ko: "차례 후의 테이블",
        },
        ("referee", "not_melded") => Text {
            en: "The player had not made the initial meld",
            ko: "플레이어가 아직 등록하지 않았습니다",
        },
        ("referee", "threshold") => Text {
            en: "Points the initial meld needs",
            ko: "등록에 필요한 점수",
        },
        ("referee", "timeout") => Text {
            en: "The turn ended by the timer",
            ko: "시간이 다 되어 차례가 끝났습니다",
        },
        _ => return None,
    })
}

/// Words of the Meld tab's "Whole table" and "Referee" modes (the window).
pub mod window {
    use crate::lang::Text;

    /// The mode "what can I play, the whole table rearranged".
    pub const MODE_TABLE: Text = Text {
        en: "Whole table",
        ko: "테이블 전체",
    };
    /// The mode "check a turn".
    pub const MODE_REFEREE: Text = Text {
        en: "Referee a turn",
        ko: "차례 판정",
    };
    /// Where the picker's tiles go.
    pub const ADD_TO: Text = Text {
        en: "Picked tiles go to:",
        ko: "고른 타일을 넣을 곳:",
    };
    /// The table's field.
    pub const TABLE: Text = Text {
        en: "Table",
        ko: "테이블",
    };
    /// The rack's field.
    pub const RACK: Text = Text {
        en: "Rack",
        ko: "받침대",
    };
    /// The table before the turn.
    pub const BEFORE: Text = Text {
        en: "Table before",
        ko: "차례 전 테이블",
    };
    /// The table after the turn.
    pub const AFTER: Text = Text {
        en: "Table after",
        ko: "차례 후 테이블",
    };
    /// The rack before the turn (optional).
    pub const RACK_BEFORE: Text = Text {
        en: "Rack before (optional)",
        ko: "차례 전 받침대 (선택)",
    };
    /// Copies the table before into the table after, to edit it.
    pub const COPY_BEFORE: Text = Text {
        en: "Copy before → after",
        ko: "전 → 후로 복사",
    };
    /// The player had made the initial meld.
    pub const MELDED: Text = Text {
        en: "Initial meld made before this turn",
        ko: "이 차례 전에 첫 등록을 했음",
    };
    /// The turn ended by the timer.
    pub const TIMED_OUT: Text = Text {
        en: "Time ran out",
        ko: "시간 초과로 끝남",
    };
    /// How plays rank by tiles (the hover text of the tiles choice).
    pub const RANK_TILES: Text = Text {
        en: "Most tiles from the rack, then the fewest table sets changed, then the fewest tiles moved, then the most points",
        ko: "받침대 타일을 가장 많이, 같으면 바뀌는 테이블 묶음을 가장 적게, 그다음 옮기는 타일을 가장 적게, 그다음 점수를 가장 크게",
    };
    /// How plays rank by points (the hover text of the points choice).
    pub const RANK_POINTS: Text = Text {
        en: "Most points from the rack (a joker at the joker penalty), then the fewest table sets changed, then the fewest tiles moved",
        ko: "받침대 점수를 가장 크게(조커는 벌점 값), 같으면 바뀌는 테이블 묶음을 가장 적게, 그다음 옮기는 타일을 가장 적게",
    };
    /// The solver is still working.
    pub const WORKING: Text = Text {
        en: "Working it out…",
        ko: "계산 중…",
    };
    /// Shown under what the best play lays while its arrangement is still being worked out.
    pub const ARRANGING: Text = Text {
        en: "Finding the arrangement that changes the fewest sets…",
        ko: "테이블 묶음을 가장 적게 바꾸는 배치를 찾는 중…",
    };
    /// Hint of the table field.
    pub const TABLE_HINT: Text = Text {
        en: "sets on the table, | between sets: R5 R6 R7 | B9 K9 O9",
        ko: "테이블의 묶음, 묶음 사이에 |: 빨5 빨6 빨7 | 파9 검9 주9",
    };
    /// Hint of the rack field.
    pub const RACK_HINT: Text = Text {
        en: "tiles on the rack: R8 K2 J",
        ko: "받침대의 타일: 빨8 검2 조커",
    };
    /// Nothing entered yet.
    pub const EMPTY: Text = Text {
        en: "Enter the table and the rack (the picker or typing).",
        ko: "테이블과 받침대를 입력하세요 (타일 고르기 또는 타자).",
    };
    /// Nothing entered yet for the referee.
    pub const EMPTY_TURN: Text = Text {
        en: "Enter the table before and after the turn.",
        ko: "차례 전과 후의 테이블을 입력하세요.",
    };
    /// The new table's heading.
    pub const NEW_TABLE: Text = Text {
        en: "The table after this play:",
        ko: "이렇게 놓은 뒤의 테이블:",
    };
    /// Back one step (also the left arrow key).
    pub const BACK: Text = Text {
        en: "Back",
        ko: "이전",
    };
    /// On one step (also the right arrow key).
    pub const NEXT: Text = Text {
        en: "Next",
        ko: "다음",
    };
    /// The key of Back.
    pub const BACK_KEY: Text = Text {
        en: "Left arrow key",
        ko: "왼쪽 화살표 키",
    };
    /// The key of Next.
    pub const NEXT_KEY: Text = Text {
        en: "Right arrow key",
        ko: "오른쪽 화살표 키",
    };
    /// The table as it stands before the step shown.
    pub const TABLE_NOW: Text = Text {
        en: "The table before this step:",
        ko: "이 단계 전의 테이블:",
    };
    /// Beside the set a step's tiles leave.
    pub const FROM_HERE: Text = Text {
        en: "take from here",
        ko: "여기서 떼기",
    };
    /// Beside the set a step's tiles go to.
    pub const TO_HERE: Text = Text {
        en: "put here",
        ko: "여기에 놓기",
    };
    /// Where a step starts a new set.
    pub const NEW_SET_HERE: Text = Text {
        en: "a new set: put here",
        ko: "새 묶음: 여기에 놓기",
    };

    /// Which step is shown (`cursor` from 0), or that all are done.
    pub fn position(lang: super::Language, cursor: usize, n: usize) -> String {
        match lang {
            super::Language::English if cursor >= n => format!("All {n} steps done"),
            super::Language::English => format!("Step {} of {n}", cursor + 1),
            super::Language::Korean if cursor >= n => format!("{n}단계 모두 끝"),
            super::Language::Korean => format!("{n}단계 중 {}단계", cursor + 1),
        }
    }
}
