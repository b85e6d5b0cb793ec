//! Every word in the table's language: each error kind the window or the command line can show
//! exists in Korean with no Latin words (beyond tile-colour codes in a hint, file names and the
//! like the user gave), the Korean string table has no English left in it, full-width (전각)
//! input from a Korean IME reads as ASCII, and the command line follows `--lang` and the locale.
//!
//! The variant lists are exhaustive by construction: each enum has an `index` function with a
//! `match` naming every variant (no `_` arm), so a new variant does not compile until it gets an
//! index, and the coverage check then fails until the list holds an example of it.

use std::io;
use std::path::PathBuf;
use std::process::Command;

use rummikub_companion::evening::{DraftProblem, Refusal, SheetError};
use rummikub_companion::i18n;
use rummikub_companion::lang::Language;
use rummikub_companion::meld::{MeldProblem, SetProblem};
use rummikub_companion::rules::RulesError;
use rummikub_companion::score::audit::Finding;
use rummikub_companion::score::table::{CellError, TableError, TableProblem, Written};
use rummikub_companion::score::{Remaining, RemainingError, ScoreError, Seat, SeatProblem};
use rummikub_companion::solver::SolveError;
use rummikub_companion::sound::SoundError;
use rummikub_companion::store::{DATA_ENV, FileProblem, Notice, ReadOnlyReason, StoreError};
use rummikub_companion::tile::{
    Color, NotationError, Position, Tile, TileError, TileSet, TooManyCopies, normalize_width,
    parse_rack, parse_sets,
};
use rummikub_companion::timer::TimerError;

const KO: Language = Language::Korean;
const EN: Language = Language::English;

/// Latin words a Korean error may contain: the colour codes of the notation hint
/// (`R·B·K·O`), the file format, the XP set's name and the `audit` command a CSV error points to.
const ERROR_WORDS: &[&str] = &["R", "B", "K", "O", "CSV", "XP", "audit", "QR"];

/// Latin words the Korean string table may contain: keys (F1–F4, F11, P, Tab, Enter, Esc),
/// the XP set, the CSV format and the notation example (`R10`, `J`).
const TABLE_WORDS: &[&str] = &[
    "F1", "F4", "F11", "P", "Tab", "Enter", "Esc", "XP", "CSV", "R10", "J",
    // A program's name: what to install for a save dialog.
    "zenity",
];

/// The words of `text` made of ASCII letters and digits that hold a letter.
fn latin_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
        .map(str::to_owned)
        .collect()
}

/// Asserts the Korean text has Hangul, no Latin word outside `allowed`, and differs from
/// the English text (a fallback to English would not).
fn assert_korean(what: &str, korean: &str, english: &str, allowed: &[&str]) {
    let stripped = korean.replace(DATA_ENV, "");
    let stray: Vec<String> = latin_words(&stripped)
        .into_iter()
        .filter(|w| !allowed.contains(&w.as_str()))
        .collect();
    assert!(
        stray.is_empty(),
        "{what}: Latin words {stray:?} in Korean text {korean:?}"
    );
    assert!(
        korean.chars().any(|c| ('가'..='힣').contains(&c)),
        "{what}: no Hangul in {korean:?}"
    );
    assert_ne!(korean, english, "{what}: Korean text is the English text");
}

/// Asserts every index `0..count` is produced by some example.
fn assert_covers<T>(what: &str, examples: &[T], index: fn(&T) -> usize, count: usize) {
    let mut seen = vec![false; count];
    for e in examples {
        seen[index(e)] = true;
    }
    let missing: Vec<usize> = (0..count).filter(|i| !seen[*i]).collect();
    assert!(
        missing.is_empty(),
        "{what}: no example of variants {missing:?}"
    );
}

fn check_all<T>(
    what: &str,
    examples: &[T],
    index: fn(&T) -> usize,
    count: usize,
    translate: fn(Language, &T) -> String,
) {
    assert_covers(what, examples, index, count);
    for e in examples {
        let label = format!("{what} #{}", index(e));
        let korean = translate(KO, e);
        assert_korean(&label, &korean, &translate(EN, e), ERROR_WORDS);
        // Issue 49.11: the particle the word before takes, never both ways ("은(는)").
        assert!(
            !FALLBACK_PARTICLES.iter().any(|p| korean.contains(p)),
            "{label}: a particle written both ways in {korean:?}"
        );
    }
}

fn r7() -> Tile {
    Tile::numbered(Color::Red, 7).expect("R7")
}

fn k8() -> Tile {
    Tile::numbered(Color::Black, 8).expect("K8")
}

fn seat(index: usize, name: &str) -> Seat {
    Seat {
        index,
        name: name.to_owned(),
    }
}

fn at() -> Position {
    Position {
        set: 2,
        tile: Some(3),
        column: 11,
    }
}

// ---- the variants ----

fn tile_error_index(e: &TileError) -> usize {
    match e {
        TileError::Empty => 0,
        TileError::UnknownColor(..) => 1,
        TileError::MissingNumber(_) => 2,
        TileError::MissingColor(_) => 3,
        TileError::NotANumber(..) => 4,
        TileError::NumberOutOfRange(..) => 5,
    }
}

fn tile_errors() -> Vec<TileError> {
    vec![
        TileError::Empty,
        TileError::UnknownColor("커".into(), "커9".into()),
        TileError::MissingNumber("빨강".into()),
        TileError::MissingColor("12".into()),
        TileError::NotANumber("일".into(), "빨일".into()),
        TileError::NumberOutOfRange("14".into(), "빨14".into()),
    ]
}

fn notation_error_index(e: &NotationError) -> usize {
    match e {
        NotationError::EmptyInput => 0,
        NotationError::BadTile { .. } => 1,
        NotationError::EmptySet { .. } => 2,
        NotationError::StraySeparator { .. } => 3,
        NotationError::UnknownDeclaration { .. } => 4,
        NotationError::NotARack { .. } => 5,
    }
}

fn notation_errors() -> Vec<NotationError> {
    let mut all = vec![
        NotationError::EmptyInput,
        NotationError::EmptySet { at: at() },
        NotationError::StraySeparator { at: at() },
        NotationError::UnknownDeclaration {
            word: "줄".into(),
            at: at(),
        },
        NotationError::NotARack {
            found: "|".into(),
            at: at(),
        },
    ];
    all.extend(
        tile_errors()
            .into_iter()
            .map(|error| NotationError::BadTile { error, at: at() }),
    );
    all
}

fn set_problem_index(p: &SetProblem) -> usize {
    match p {
        SetProblem::TooFewTiles => 0,
        SetProblem::NoNumberedTile => 1,
        SetProblem::GroupTooLarge => 2,
        SetProblem::RunTooLong => 3,
        SetProblem::GroupRepeatsColor(..) => 4,
        SetProblem::GroupMixesNumbers(..) => 5,
        SetProblem::RunMixesColors(..) => 6,
        SetProblem::RunAbove13(_) => 7,
        SetProblem::RunBelow1(_) => 8,
        SetProblem::ThirteenThenOne => 9,
        SetProblem::NotConsecutive { .. } => 10,
        SetProblem::Neither { .. } => 11,
    }
}

fn set_problems() -> Vec<SetProblem> {
    vec![
        SetProblem::TooFewTiles,
        SetProblem::NoNumberedTile,
        SetProblem::GroupTooLarge,
        SetProblem::RunTooLong,
        SetProblem::GroupRepeatsColor(r7(), r7()),
        SetProblem::GroupMixesNumbers(r7(), k8()),
        SetProblem::RunMixesColors(r7(), k8()),
        SetProblem::RunAbove13(r7()),
        SetProblem::RunBelow1(r7()),
        SetProblem::ThirteenThenOne,
        SetProblem::NotConsecutive {
            found: k8(),
            after: r7(),
            expected: 8,
        },
        SetProblem::Neither {
            run: Box::new(SetProblem::RunMixesColors(r7(), k8())),
            group: Box::new(SetProblem::GroupMixesNumbers(r7(), k8())),
        },
    ]
}

fn meld_problem_index(p: &MeldProblem) -> usize {
    match p {
        MeldProblem::Set(..) => 0,
        MeldProblem::TooManyCopies { .. } => 1,
        MeldProblem::JokersNotAllowed => 2,
        MeldProblem::BelowThreshold { .. } => 3,
    }
}

fn meld_problems() -> Vec<MeldProblem> {
    vec![
        MeldProblem::Set(0, SetProblem::TooFewTiles),
        MeldProblem::TooManyCopies {
            tile: r7(),
            count: 3,
            tile_set: TileSet::Standard,
        },
        MeldProblem::TooManyCopies {
            tile: Tile::JOKER,
            count: 5,
            tile_set: TileSet::Xp,
        },
        MeldProblem::JokersNotAllowed,
        MeldProblem::BelowThreshold {
            total: 28,
            threshold: 30,
        },
    ]
}

fn remaining_error_index(e: &RemainingError) -> usize {
    match e {
        RemainingError::Empty => 0,
        RemainingError::Negative(_) => 1,
        RemainingError::NotANumber(_) => 2,
        RemainingError::TooLarge(_) => 3,
        RemainingError::BadTiles { .. } => 4,
        RemainingError::TooManyTiles(_) => 5,
    }
}

fn remaining_errors() -> Vec<RemainingError> {
    let mut all = vec![
        RemainingError::Empty,
        RemainingError::Negative("-5".into()),
        RemainingError::NotANumber("5.5".into()),
        RemainingError::TooLarge("10000".into()),
        RemainingError::TooManyTiles(161),
    ];
    all.extend(
        notation_errors()
            .into_iter()
            .map(|problem| RemainingError::BadTiles {
                text: "커9".into(),
                problem,
            }),
    );
    all
}

fn score_error_index(e: &ScoreError) -> usize {
    match e {
        ScoreError::PlayerCount(_) => 0,
        ScoreError::EmptyName(_) => 1,
        ScoreError::DuplicateName(_) => 2,
        ScoreError::HandCount { .. } => 3,
        ScoreError::ValueTooLarge { .. } => 4,
        ScoreError::TooManyTiles { .. } => 5,
        ScoreError::TooManyCopies { .. } => 6,
        ScoreError::TwoWentOut { .. } => 7,
        ScoreError::WentOutNotMelded(_) => 8,
        ScoreError::NoSuchPlayer(_) => 9,
        ScoreError::WinnerDidNotGoOut { .. } => 10,
        ScoreError::WinnerNotLowest { .. } => 11,
        ScoreError::Tie { .. } => 12,
        ScoreError::InGame { .. } => 13,
        ScoreError::NoSuchGame(_) => 14,
        ScoreError::ZeroRounds => 15,
        ScoreError::TargetNotPositive(_) => 16,
        ScoreError::TooManyCopiesInGame { .. } => 17,
    }
}

fn score_errors() -> Vec<ScoreError> {
    vec![
        ScoreError::PlayerCount(7),
        ScoreError::EmptyName(2),
        ScoreError::DuplicateName("민수".into()),
        ScoreError::HandCount {
            expected: 4,
            found: 3,
        },
        ScoreError::ValueTooLarge {
            player: seat(0, "민수"),
            value: 10_000,
        },
        ScoreError::TooManyTiles {
            player: seat(0, "민수"),
            count: 200,
        },
        ScoreError::TooManyCopies {
            player: seat(1, "지영"),
            excess: TooManyCopies {
                tile: r7(),
                count: 3,
                tile_set: TileSet::Standard,
            },
        },
        ScoreError::TooManyCopiesInGame {
            excess: TooManyCopies {
                tile: r7(),
                count: 3,
                tile_set: TileSet::Standard,
            },
        },
        ScoreError::TwoWentOut {
            first: seat(0, "민수"),
            second: seat(1, "지영"),
        },
        ScoreError::WentOutNotMelded(seat(0, "민수")),
        ScoreError::NoSuchPlayer(5),
        ScoreError::WinnerDidNotGoOut {
            named: seat(0, "민수"),
            went_out: seat(1, "지영"),
        },
        ScoreError::WinnerNotLowest {
            named: seat(0, "민수"),
            named_value: 12,
            lowest: seat(1, "지영"),
            lowest_value: 3,
        },
        ScoreError::Tie {
            tied: vec![seat(0, "민수"), seat(1, "지영")],
            value: 4,
        },
        ScoreError::InGame {
            number: 3,
            source: Box::new(ScoreError::ZeroRounds),
        },
        ScoreError::NoSuchGame(9),
        ScoreError::ZeroRounds,
        ScoreError::TargetNotPositive(-5),
    ]
}

fn timer_error_index(e: &TimerError) -> usize {
    match e {
        TimerError::NotStarted => 0,
        TimerError::AlreadyStarted => 1,
        TimerError::NotRunning => 2,
        TimerError::NotPaused => 3,
        TimerError::TurnInProgress => 4,
        TimerError::ClockRunning => 5,
        TimerError::CurrentPlayerRemoved(_) => 6,
        TimerError::PlayerCount(_) => 7,
        TimerError::EmptyName(_) => 8,
        TimerError::DuplicateName(_) => 9,
        TimerError::NoSuchPlayer(_) => 10,
    }
}

fn timer_errors() -> Vec<TimerError> {
    vec![
        TimerError::NotStarted,
        TimerError::AlreadyStarted,
        TimerError::NotRunning,
        TimerError::NotPaused,
        TimerError::TurnInProgress,
        TimerError::ClockRunning,
        TimerError::CurrentPlayerRemoved("민수".into()),
        TimerError::PlayerCount(7),
        TimerError::EmptyName(1),
        TimerError::DuplicateName("지영".into()),
        TimerError::NoSuchPlayer(6),
    ]
}

fn seat_problem_index(p: &SeatProblem) -> usize {
    match p {
        SeatProblem::Count(_) => 0,
        SeatProblem::Empty(_) => 1,
        SeatProblem::Duplicate(_) => 2,
    }
}

fn seat_problems() -> Vec<SeatProblem> {
    vec![
        SeatProblem::Count(1),
        SeatProblem::Empty(0),
        SeatProblem::Duplicate("민수".into()),
    ]
}

fn rules_error_index(e: &RulesError) -> usize {
    match e {
        RulesError::TurnLength(_) => 0,
        RulesError::Warning(_) => 1,
        RulesError::Ticks(_) => 2,
        RulesError::Bank(_) => 3,
        RulesError::Increment(_) => 4,
    }
}

fn rules_errors() -> Vec<RulesError> {
    vec![
        RulesError::TurnLength(5),
        RulesError::Warning(40),
        RulesError::Ticks(40),
        RulesError::Bank(200),
        RulesError::Increment(90),
    ]
}

fn solve_error_index(e: &SolveError) -> usize {
    match e {
        SolveError::TooManyCopies { .. } => 0,
    }
}

fn solve_errors() -> Vec<SolveError> {
    vec![SolveError::TooManyCopies {
        tile: r7(),
        count: 3,
        tile_set: TileSet::Standard,
    }]
}

fn sound_error_index(e: &SoundError) -> usize {
    match e {
        SoundError::NotBuilt => 0,
        SoundError::NoOutput(_) => 1,
        SoundError::Failed(_) => 2,
        SoundError::Decode { .. } => 3,
    }
}

fn sound_errors() -> Vec<SoundError> {
    // The audio system's own (English) detail is left out of the Korean line.
    vec![
        SoundError::NotBuilt,
        SoundError::NoOutput("no default output device".into()),
        SoundError::Failed("ALSA lib pcm.c panicked".into()),
        SoundError::Decode {
            cue: "warning",
            reason: "unexpected end of file".into(),
        },
    ]
}

fn file_problem_index(p: &FileProblem) -> usize {
    match p {
        FileProblem::Unreadable(_) => 0,
        FileProblem::Empty => 1,
        FileProblem::NotJson(_) => 2,
        FileProblem::NoVersion => 3,
        FileProblem::Newer(_) => 4,
        FileProblem::Invalid(_) => 5,
        FileProblem::NotAFile => 6,
    }
}

fn file_problems() -> Vec<FileProblem> {
    // Library details (English) are left out of the Korean text.
    vec![
        FileProblem::Unreadable("permission denied".into()),
        FileProblem::Empty,
        FileProblem::NotJson("EOF while parsing at line 1".into()),
        FileProblem::NoVersion,
        FileProblem::Newer(3),
        FileProblem::Invalid("missing field `players`".into()),
        FileProblem::NotAFile,
    ]
}

/// A file name the user's folder could hold, with no Latin letters.
fn file(name: &str) -> PathBuf {
    PathBuf::from("/자료").join(name)
}

fn notice_index(n: &Notice) -> usize {
    match n {
        Notice::SetAside { .. } => 0,
        Notice::LeftInPlace { .. } => 1,
        Notice::Recovered { .. } => 2,
    }
}

fn notices() -> Vec<Notice> {
    let mut all: Vec<Notice> = file_problems()
        .into_iter()
        .map(|problem| Notice::SetAside {
            file: file("설정"),
            moved_to: file("설정.손상"),
            problem,
        })
        .collect();
    all.push(Notice::LeftInPlace {
        file: file("설정"),
        problem: FileProblem::Empty,
        error: "permission denied".into(),
    });
    all.push(Notice::Recovered {
        file: file("저녁"),
        backup: file("저녁.백업"),
    });
    all
}

fn read_only_index(r: &ReadOnlyReason) -> usize {
    match r {
        ReadOnlyReason::NotWritable { .. } => 0,
        ReadOnlyReason::InUse { .. } => 1,
        ReadOnlyReason::Reading { .. } => 2,
    }
}

fn read_only_reasons() -> Vec<ReadOnlyReason> {
    vec![
        ReadOnlyReason::NotWritable {
            dir: file("폴더"),
            kind: io::ErrorKind::PermissionDenied,
        },
        ReadOnlyReason::NotWritable {
            dir: file("폴더"),
            kind: io::ErrorKind::Other,
        },
        ReadOnlyReason::InUse {
            dir: file("폴더")
        },
        ReadOnlyReason::Reading {
            dir: file("폴더")
        },
    ]
}

fn store_error_index(e: &StoreError) -> usize {
    match e {
        StoreError::NoDataFolder => 0,
        StoreError::Folder { .. } => 1,
        StoreError::NotAFolder { .. } => 2,
        StoreError::ReadOnly(_) => 3,
        StoreError::ChangedOnDisk { .. } => 4,
        StoreError::Write { .. } => 5,
        StoreError::Encode { .. } => 6,
        StoreError::BadId(_) => 7,
        StoreError::NotFound { .. } => 8,
        StoreError::Unrecoverable { .. } => 9,
        StoreError::Newer { .. } => 10,
    }
}

fn store_errors() -> Vec<StoreError> {
    let json_error = serde_json::from_str::<u8>("x").expect_err("not a number");
    vec![
        StoreError::NoDataFolder,
        StoreError::Folder {
            dir: file("폴더"),
            source: io::Error::new(io::ErrorKind::PermissionDenied, "permission denied"),
        },
        StoreError::NotAFolder {
            dir: file("폴더")
        },
        StoreError::ReadOnly(ReadOnlyReason::InUse {
            dir: file("폴더")
        }),
        StoreError::ChangedOnDisk {
            file: file("점수표"),
        },
        StoreError::Write {
            file: file("점수표"),
            source: io::Error::new(io::ErrorKind::StorageFull, "no space left on device"),
        },
        StoreError::Encode {
            file: file("점수표"),
            source: json_error,
        },
        StoreError::BadId("점수표/하나".into()),
        StoreError::NotFound {
            file: file("점수표"),
        },
        StoreError::Newer {
            file: file("대회"),
            version: 2,
        },
        StoreError::Unrecoverable {
            file: file("점수표"),
            notices: notices(),
        },
    ]
}

fn table_problem_index(e: &TableError) -> usize {
    match &e.problem {
        TableProblem::Csv(_) => 0,
        TableProblem::NoHeader => 1,
        TableProblem::Header(_) => 2,
        TableProblem::ColumnCount { .. } => 3,
        TableProblem::Cell { .. } => 4,
        TableProblem::TwoWinnerMarks { .. } => 5,
        TableProblem::Game(_) => 6,
        TableProblem::DuplicateRow(_) => 7,
        TableProblem::Delimiter(_) => 8,
        TableProblem::SummaryRow { .. } => 9,
    }
}

fn table_errors() -> Vec<TableError> {
    let problems = vec![
        TableProblem::Csv("unequal lengths".into()),
        TableProblem::NoHeader,
        TableProblem::Header(Box::new(ScoreError::PlayerCount(1))),
        TableProblem::ColumnCount {
            found: 3,
            expected: 5,
        },
        // Every kind of unreadable cell, typed so each language words it.
        TableProblem::Cell {
            player: "민수".into(),
            problem: Box::new(CellError::MarksOnly("!*".into())),
        },
        TableProblem::Cell {
            player: "민수".into(),
            problem: Box::new(CellError::Remaining(RemainingError::NotANumber(
                "3.5".into(),
            ))),
        },
        TableProblem::Cell {
            player: "민수".into(),
            problem: Box::new(CellError::NotWritten {
                text: "다섯".into(),
                expected: Written::Points,
            }),
        },
        TableProblem::Cell {
            player: "민수".into(),
            problem: Box::new(CellError::NotWritten {
                text: "한 번".into(),
                expected: Written::Wins,
            }),
        },
        TableProblem::Cell {
            player: "민수".into(),
            problem: Box::new(CellError::NotWritten {
                text: "한 번".into(),
                expected: Written::Rank,
            }),
        },
        TableProblem::TwoWinnerMarks {
            first: "민수".into(),
            second: "지영".into(),
        },
        TableProblem::Game(Box::new(ScoreError::Tie {
            tied: vec![seat(0, "민수"), seat(1, "지영")],
            value: 4,
        })),
        TableProblem::Game(Box::new(ScoreError::ZeroRounds)),
        TableProblem::DuplicateRow("합계".into()),
        TableProblem::Delimiter(';'),
        TableProblem::Delimiter('\t'),
        TableProblem::SummaryRow {
            label: "합계".into(),
            kind: "total",
        },
    ];
    problems
        .into_iter()
        .enumerate()
        .map(|(i, problem)| TableError {
            row: (i % 2 == 0).then_some(3),
            columns: match i % 3 {
                0 => vec![],
                1 => vec![2],
                _ => vec![2, 4],
            },
            problem,
        })
        .collect()
}

fn finding_index(f: &Finding) -> usize {
    match f {
        Finding::NotZeroSum { .. } => 0,
        Finding::SeveralWinners { .. } => 1,
        Finding::WrongTotal { .. } => 2,
        Finding::WrongWins { .. } => 3,
        Finding::WrongRank { .. } => 4,
    }
}

fn findings() -> Vec<Finding> {
    let mut all = vec![
        Finding::NotZeroSum {
            line: 3,
            label: "1".into(),
            sum: 5,
        },
        Finding::SeveralWinners {
            line: 4,
            label: "2".into(),
            players: vec![seat(0, "민수"), seat(1, "지영")],
        },
        Finding::WrongTotal {
            player: seat(0, "민수"),
            written: 20,
            correct: 15,
        },
        Finding::WrongTotal {
            player: seat(0, "민수"),
            written: 10,
            correct: 15,
        },
        Finding::WrongWins {
            player: seat(1, "지영"),
            written: 2,
            correct: 3,
        },
    ];
    for (written, by_total, by_wins) in [(1, 2, 2), (1, 2, 1), (1, 1, 2), (3, 1, 2)] {
        all.push(Finding::WrongRank {
            player: seat(0, "민수"),
            written,
            by_total,
            by_wins,
        });
    }
    all
}

// ---- the tests ----

#[test]
fn every_error_variant_reads_in_korean_without_latin_words() {
    check_all(
        "TileError",
        &tile_errors(),
        tile_error_index,
        6,
        i18n::tile_error,
    );
    check_all(
        "NotationError",
        &notation_errors(),
        notation_error_index,
        6,
        i18n::notation_error,
    );
    check_all(
        "SetProblem",
        &set_problems(),
        set_problem_index,
        12,
        i18n::set_problem,
    );
    check_all(
        "MeldProblem",
        &meld_problems(),
        meld_problem_index,
        4,
        i18n::meld_problem,
    );
    check_all(
        "RemainingError",
        &remaining_errors(),
        remaining_error_index,
        6,
        i18n::remaining_error,
    );
    check_all(
        "ScoreError",
        &score_errors(),
        score_error_index,
        18,
        i18n::score_error,
    );
    check_all(
        "TimerError",
        &timer_errors(),
        timer_error_index,
        11,
        i18n::timer_error,
    );
    check_all(
        "SeatProblem",
        &seat_problems(),
        seat_problem_index,
        3,
        i18n::seat_problem,
    );
    check_all(
        "RulesError",
        &rules_errors(),
        rules_error_index,
        5,
        i18n::rules_error,
    );
    check_all(
        "SolveError",
        &solve_errors(),
        solve_error_index,
        1,
        i18n::solve_error,
    );
    check_all(
        "SoundError",
        &sound_errors(),
        sound_error_index,
        4,
        i18n::sound_error,
    );
    check_all(
        "FileProblem",
        &file_problems(),
        file_problem_index,
        7,
        i18n::file_problem,
    );
    check_all("Notice", &notices(), notice_index, 3, i18n::notice);
    check_all(
        "ReadOnlyReason",
        &read_only_reasons(),
        read_only_index,
        3,
        i18n::read_only_reason,
    );
    check_all(
        "StoreError",
        &store_errors(),
        store_error_index,
        11,
        i18n::store_error,
    );
    check_all(
        "TableError",
        &table_errors(),
        table_problem_index,
        10,
        i18n::table_error,
    );
    check_all("Finding", &findings(), finding_index, 5, i18n::finding);
    check_all(
        "Refusal",
        &refusals(),
        refusal_index,
        19,
        rummikub_companion::evening::words::refusal,
    );
    check_all(
        "DraftProblem",
        &draft_problems(),
        draft_problem_index,
        5,
        rummikub_companion::evening::words::draft_problem,
    );
}

fn refusal_index(r: &Refusal) -> usize {
    match r {
        Refusal::Guarded => 0,
        Refusal::NotStarted => 1,
        Refusal::StaleTurn => 2,
        Refusal::NotYourTurn => 3,
        Refusal::NoSuchSeat(_) => 4,
        Refusal::NotOnSheet(_) => 5,
        Refusal::NoForm => 6,
        Refusal::EditingSavedGame => 7,
        Refusal::BadRack(_) => 8,
        Refusal::RackTooLong(_) => 9,
        Refusal::Draft(_) => 10,
        Refusal::Timer(_) => 11,
        Refusal::Sheet(_) => 12,
        Refusal::NothingToUndo => 13,
        Refusal::NothingToRedo => 14,
        Refusal::OldLink => 15,
        Refusal::AlreadyStarted => 16,
        Refusal::NoSuchAddress(_) => 17,
        Refusal::SameName(..) => 18,
    }
}

fn refusals() -> Vec<Refusal> {
    let bad_rack = "빨5 커9".parse::<Remaining>().expect_err("no colour 커");
    let mut all = vec![
        Refusal::Guarded,
        Refusal::NotStarted,
        Refusal::StaleTurn,
        Refusal::NotYourTurn,
        Refusal::NoSuchSeat(4),
        Refusal::NotOnSheet("루미".into()),
        Refusal::NoForm,
        Refusal::EditingSavedGame,
        Refusal::BadRack(bad_rack),
        Refusal::RackTooLong(512),
        Refusal::from(DraftProblem::Missing("큐브".into())),
        Refusal::Timer(TimerError::DuplicateName("루미".into())),
        Refusal::from(SheetError::NoSheet),
        Refusal::NothingToUndo,
        Refusal::NothingToRedo,
        Refusal::OldLink,
        Refusal::AlreadyStarted,
        Refusal::NoSuchAddress("192.168.1.77".parse().expect("an address")),
        Refusal::SameName("벤".into(), "벤니".into()),
    ];
    // The sheet's refusals in their other forms too.
    all.push(Refusal::from(SheetError::NoDataFolder));
    all.push(Refusal::from(SheetError::Score(ScoreError::NoSuchGame(3))));
    all
}

fn draft_problem_index(p: &DraftProblem) -> usize {
    match p {
        DraftProblem::Missing(_) => 0,
        DraftProblem::Unreadable { .. } => 1,
        DraftProblem::Score(_) => 2,
        DraftProblem::EditedGameChanged(_) => 3,
        DraftProblem::Players { .. } => 4,
    }
}

fn draft_problems() -> Vec<DraftProblem> {
    vec![
        DraftProblem::Missing("큐브".into()),
        DraftProblem::Unreadable {
            name: "퍼니".into(),
            error: Box::new("빨5 커9".parse::<Remaining>().expect_err("no colour 커")),
        },
        DraftProblem::Score(ScoreError::NoSuchGame(3)),
        DraftProblem::EditedGameChanged(2),
        DraftProblem::Players { form: 3, sheet: 4 },
    ]
}

#[test]
fn korean_errors_name_tiles_in_korean_and_keep_what_the_user_typed() {
    let copies = MeldProblem::TooManyCopies {
        tile: r7(),
        count: 3,
        tile_set: TileSet::Standard,
    };
    assert_eq!(
        i18n::meld_problem(KO, &copies),
        "빨7이 3개지만 기본 세트에는 2개뿐입니다"
    );
    // The user's own token is echoed as typed.
    let e = parse_rack("R5 X9").expect_err("X is no colour");
    let text = i18n::notation_error(KO, &e);
    assert!(text.contains("\"X9\""), "{text}");
    // A score cell's tile problem is translated, not pasted in English.
    let cell: RemainingError = "빨5 커9".parse::<Remaining>().expect_err("bad tile");
    let text = i18n::remaining_error(KO, &cell);
    assert!(
        text.contains("\"커9\"의 \"커\"는 알 수 없는 색입니다"),
        "{text}"
    );
    assert!(!text.contains("unknown"), "{text}");
    assert!(cell.to_string().contains("unknown colour \"커\""), "{cell}");
}

#[test]
fn english_cell_error_text_is_unchanged_by_the_typed_problem() {
    let e = "R5 X9".parse::<Remaining>().expect_err("bad tile");
    assert_eq!(
        e.to_string(),
        "\"R5 X9\" is neither a number nor tiles: unknown colour \"X\" in \"X9\""
    );
    let e = "R5 | K7".parse::<Remaining>().expect_err("not a rack");
    assert_eq!(
        e.to_string(),
        "\"R5 | K7\" is neither a number nor tiles: \"|\" cannot appear in a rack"
    );
}

/// The `"…"` literals of the Korean side of the window's words (`ko: …` of each message in the
/// `words!` table of src/i18n.rs), placeholders (`{n}`) removed.
fn korean_table_literals() -> Vec<String> {
    let source = include_str!("../../src/i18n.rs");
    let start = source.find("\nwords! {").expect("the words table");
    let end = start
        + source[start..]
            .find("\n}\n")
            .expect("the end of the words table");
    let mut literals = Vec::new();
    // A message's Korean starts at `ko:` and ends with the `;` that closes the message.
    let mut korean = false;
    for line in source[start..end].lines() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        let text = match line.find("ko: ") {
            Some(at) if line.starts_with("ko: ") || line.contains(", ko: ") => {
                korean = true;
                &line[at..]
            }
            _ => line,
        };
        if !korean {
            continue;
        }
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c != '"' {
                continue;
            }
            let mut literal = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => {
                        chars.next();
                    }
                    '"' => break,
                    c => literal.push(c),
                }
            }
            literals.push(literal);
        }
        if line.ends_with(';') {
            korean = false;
        }
    }
    literals
        .into_iter()
        .map(|l| {
            let mut out = String::new();
            let mut depth = 0;
            for c in l.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    c if depth == 0 => out.push(c),
                    _ => {}
                }
            }
            out
        })
        .collect()
}

#[test]
fn the_korean_string_table_has_no_english_words() {
    let literals = korean_table_literals();
    assert!(
        literals.len() > 150,
        "only {} literals found: the table was not read",
        literals.len()
    );
    let mut stray = Vec::new();
    for literal in &literals {
        for word in latin_words(literal) {
            if !TABLE_WORDS.contains(&word.as_str()) {
                stray.push(format!("{word} in {literal:?}"));
            }
        }
    }
    assert!(stray.is_empty(), "English left in KO: {stray:#?}");
    // A few fields through the typed table itself (the fn fields too).
    let s = Language::Korean.strings();
    assert_korean(
        "tab_timer",
        s.tabs.tab_timer,
        Language::English.strings().tabs.tab_timer,
        TABLE_WORDS,
    );
    assert_korean(
        "joker_is",
        &(s.meld.joker_is)("빨12"),
        &(Language::English.strings().meld.joker_is)("R12"),
        TABLE_WORDS,
    );
}

// ---- full-width (전각) input ----

#[test]
fn full_width_letters_digits_and_spaces_read_as_ascii() {
    assert_eq!(normalize_width("ＲＯ１２"), "RO12");
    assert_eq!(normalize_width("Ｒ５\u{3000}Ｋ７"), "R5 K7");
    assert_eq!(normalize_width("빨강７"), "빨강7");
    assert_eq!(
        "Ｒ１２".parse::<Tile>(),
        Ok(Tile::numbered(Color::Red, 12).expect("R12"))
    );
    assert_eq!("ｊ".parse::<Tile>(), Ok(Tile::JOKER));
    let wide =
        parse_sets("Ｒ１０ Ｒ１１ Ｒ１２｜ｇｒｏｕｐ：Ｋ９，Ｂ９\u{3000}Ｏ９").expect("sets");
    let narrow = parse_sets("R10 R11 R12|group:K9,B9 O9").expect("sets");
    assert_eq!(wide, narrow);
    assert_eq!(wide.len(), 2);
    assert_eq!(
        parse_rack("Ｋ９ Ｂ９ 주９ ＪＯＫＥＲ").expect("rack"),
        parse_rack("K9 B9 주9 JOKER").expect("rack")
    );
}

#[test]
fn full_width_errors_echo_the_ascii_token_at_the_same_column() {
    let e = parse_sets("Ｒ１ Ｒ２ ＲＯ１２").expect_err("RO is no colour");
    let narrow = parse_sets("R1 R2 RO12").expect_err("RO is no colour");
    assert_eq!(e, narrow);
    assert!(e.to_string().contains("\"RO12\""), "{e}");
    // A full-width bar in a rack is still a set separator, refused in a rack.
    let e = parse_rack("Ｒ５｜Ｋ７").expect_err("not a rack");
    assert!(
        matches!(&e, NotationError::NotARack { found, at } if found == "|" && at.column == 3),
        "{e:?}"
    );
}

#[test]
fn full_width_score_cells_read_as_tiles_and_numbers() {
    assert_eq!(
        "Ｒ５ Ｋ７".parse::<Remaining>(),
        "R5 K7".parse::<Remaining>()
    );
    assert_eq!("１７".parse::<Remaining>(), Ok(Remaining::Value(17)));
    assert_eq!(
        "－５".parse::<Remaining>(),
        Err(RemainingError::Negative("-5".into()))
    );
    let e = "Ｒ５ Ｘ９".parse::<Remaining>().expect_err("bad tile");
    assert!(
        matches!(&e, RemainingError::BadTiles { text, .. } if text == "R5 X9"),
        "{e:?}"
    );
}

// ---- the command line ----

const BIN: &str = env!("CARGO_BIN_EXE_rummikub-companion");

/// Runs the binary with no locale set but `lang` (None: no `LANG` at all): (code, stdout,
/// stderr).
fn cli(args: &[&str], locale: Option<&str>) -> (i32, String, String) {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG");
    if let Some(locale) = locale {
        cmd.env("LANG", locale);
    }
    let out = cmd.output().expect("the binary runs");
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

fn assert_no_latin_beyond(text: &str, allowed: &[&str]) {
    let stray: Vec<String> = latin_words(text)
        .into_iter()
        .filter(|w| !allowed.contains(&w.as_str()))
        .collect();
    assert!(stray.is_empty(), "Latin words {stray:?} in {text:?}");
}

#[test]
fn check_speaks_korean_with_lang_anywhere_on_the_line() {
    for args in [
        ["--lang", "ko", "check", "R10 J R12 |", "K9 B9 O9"],
        ["check", "--lang", "ko", "R10 J R12 |", "K9 B9 O9"],
        ["check", "R10 J R12 |", "K9 B9 O9", "--lang", "ko"],
    ] {
        let (code, out, err) = cli(&args, Some("C"));
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("조커 = 빨11"), "{out}");
        assert!(out.contains("등록할 수 있습니다"), "{out}");
        assert_no_latin_beyond(&out, &[]);
    }
    let (code, out, _) = cli(&["check", "R10 J R12", "--lang", "en"], Some("ko_KR.UTF-8"));
    assert_eq!(code, 0);
    assert!(out.contains("joker = R11"), "{out}");
}

#[test]
fn the_locale_chooses_the_language_without_lang() {
    let (code, out, _) = cli(&["check", "R1 R2 R3"], Some("ko_KR.UTF-8"));
    assert_eq!(code, 1);
    assert!(out.contains("등록할 수 없습니다"), "{out}");
    assert!(out.contains("합계 6점은 30점보다 적습니다"), "{out}");
    let (code, out, _) = cli(&["check", "R1 R2 R3"], Some("en_US.UTF-8"));
    assert_eq!(code, 1);
    assert!(out.contains("NOT a valid initial meld"), "{out}");
    // LC_ALL wins over LANG, as POSIX says.
    let out = Command::new(BIN)
        .args(["check", "R1 R2 R3"])
        .env("LANG", "ko_KR.UTF-8")
        .env("LC_ALL", "C")
        .output()
        .expect("runs");
    let out = String::from_utf8(out.stdout).expect("utf-8");
    assert!(out.contains("NOT a valid initial meld"), "{out}");
}

#[test]
fn korean_bad_input_and_json_keep_their_codes() {
    let (code, out, err) = cli(&["check", "R5 커9", "--json", "--lang", "ko"], None);
    assert_eq!(code, 2);
    assert!(err.starts_with("오류: "), "{err}");
    assert!(
        err.contains("\"커9\"의 \"커\"는 알 수 없는 색입니다"),
        "{err}"
    );
    let json: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(json["error"]["kind"], "notation");
    assert!(
        json["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("알 수 없는 색")),
        "{json}"
    );
    let (code, out, _) = cli(&["check", "R1 R2 R3", "--json", "--lang", "ko"], None);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(json["valid"], false);
    assert_eq!(json["sets"][0]["kind"], "run");
    assert_eq!(json["sets"][0]["tiles"][0], "R1");
    assert_eq!(json["problems"][0], "합계 6점은 30점보다 적습니다");
}

#[test]
fn solve_and_score_speak_korean() {
    let (code, out, err) = cli(&["solve", "--lang", "ko", "R11 R12 J K9 B9 O9 O1"], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("조커=빨13"), "{out}");
    assert!(out.contains("남는 타일: 주1"), "{out}");
    assert_no_latin_beyond(&out, &[]);

    let dir = tempfile::tempdir().expect("temp dir");
    let sheet = dir.path().join("sheet.csv");
    std::fs::write(&sheet, "game,민수,지영\n1,0,Ｒ５ Ｋ７\n2,8,0\n").expect("write");
    let path = sheet.to_str().expect("utf-8 path");
    let (code, out, err) = cli(&["score", path, "--lang", "ko"], None);
    assert_eq!(code, 0, "{err}");
    // The window's rules line (the CLI had its own, naming the preset "한국식" where the
    // window says "한국어판 설명서").
    assert!(out.contains("규칙: 한국어판 설명서 · 조커 30점"), "{out}");
    assert!(out.contains("+12"), "full-width R5 K7 counts 12: {out}");
    assert_no_latin_beyond(&out, &[]);

    std::fs::write(&sheet, "game,민수,지영\n1,0,커9\n").expect("write");
    let (code, _, err) = cli(&["score", path, "--lang", "ko"], None);
    assert_eq!(code, 2);
    assert!(err.contains("2행 3열"), "{err}");
}

/// Latin words the phone page's Korean may contain: the notation example (`R5 K7 J`), the QR
/// code and https.
const PHONE_WORDS: &[&str] = &["R5", "K7", "J", "QR", "https"];

/// The placeholders (`{name}`, `{n}`) of a template, sorted.
fn placeholders(text: &str) -> Vec<String> {
    let mut found: Vec<String> = text
        .split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name.to_owned()))
        .collect();
    found.sort();
    found
}

#[test]
fn every_phone_page_message_has_both_languages_and_the_same_placeholders() {
    let mut keys = std::collections::HashSet::new();
    for (key, text) in i18n::phone::WORDS {
        assert!(keys.insert(*key), "{key} twice");
        assert!(!text.en.trim().is_empty(), "{key}: no English");
        // The placeholders are filled in by the page; the words around them are checked.
        let bare = |t: &str| t.replace("{name}", "").replace("{n}", "");
        assert_korean(key, &bare(text.ko), &bare(text.en), PHONE_WORDS);
        assert_eq!(
            placeholders(text.en),
            placeholders(text.ko),
            "{key}: the same values in both languages"
        );
        for name in placeholders(text.en) {
            assert!(
                ["name", "n"].contains(&name.as_str()),
                "{key}: unknown placeholder {{{name}}}"
            );
        }
    }
    // The words the page had before kept their Korean.
    let ko = |key: &str| i18n::phone::word(key).map(|t| t.ko);
    assert_eq!(ko("pickTitle"), Some("내 자리를 고르세요"));
    assert_eq!(ko("endMine"), Some("내 차례 끝내기"));
    assert_eq!(ko("turnOf"), Some("{name} 차례"));
    assert_eq!(
        ko("reconnectIn"),
        Some("노트북과 연결이 끊겼습니다 · {n}초 후 다시 시도")
    );
}

// ---- the command line's messages: one home, both languages (issue 19) ----

/// Every file of `src/cli/`, as compiled in.
const CLI_SOURCES: &[(&str, &str)] = &[
    ("check.rs", include_str!("../../src/cli/check.rs")),
    ("event.rs", include_str!("../../src/cli/event.rs")),
    ("history.rs", include_str!("../../src/cli/history.rs")),
    ("mod.rs", include_str!("../../src/cli/mod.rs")),
    ("play.rs", include_str!("../../src/cli/play.rs")),
    ("score.rs", include_str!("../../src/cli/score.rs")),
    ("season.rs", include_str!("../../src/cli/season.rs")),
    ("solve.rs", include_str!("../../src/cli/solve.rs")),
    ("sound_test.rs", include_str!("../../src/cli/sound_test.rs")),
    ("status.rs", include_str!("../../src/cli/status.rs")),
    ("window.rs", include_str!("../../src/cli/window.rs")),
];

/// Hangul in any form: syllables, jamo and compatibility jamo.
fn is_hangul(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{11FF}'
        | '\u{3130}'..='\u{318F}'
        | '\u{A960}'..='\u{A97F}'
        | '\u{AC00}'..='\u{D7FF}')
}

#[test]
fn no_file_in_src_cli_holds_korean() {
    for (name, text) in CLI_SOURCES {
        for (n, line) in text.lines().enumerate() {
            assert!(
                !line.chars().any(is_hangul),
                "src/cli/{name}:{}: Korean belongs in src/i18n/cli.rs, beside its English: {line}",
                n + 1
            );
        }
    }
    // A new file in src/cli/ must be listed above, or it would escape the check.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("src/cli")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let listed: Vec<String> = CLI_SOURCES.iter().map(|(n, _)| (*n).to_owned()).collect();
    assert_eq!(on_disk, listed, "every file of src/cli/ is checked");
}

/// Runs the CLI in-process: (exit code, stdout, stderr).
fn run_cli(args: &[&str]) -> (i32, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let argv = std::iter::once("rummikub-companion").chain(args.iter().copied());
    let code = rummikub_companion::cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).expect("utf-8 stdout"),
        String::from_utf8(err).expect("utf-8 stderr"),
    )
}

/// The output of `args` with `--lang en` and with `--lang ko`.
fn both(args: &[&str]) -> [(i32, String, String); 2] {
    ["en", "ko"].map(|lang| {
        let mut all = args.to_vec();
        all.extend(["--lang", lang]);
        run_cli(&all)
    })
}

#[test]
fn check_and_solve_read_as_before_in_both_languages() {
    let [en, ko] = both(&["check", "R10 J R12 | K9 B9 O9 | 빨강5 조커 조커"]);
    assert_eq!(
        en,
        (
            1,
            "set 1  R10 J R12  ✓ run R10 R11 R12 (joker = R11) = 33 points\n\
             set 2  K9 B9 O9   ✓ group K9 B9 O9 = 27 points\n\
             set 3  R5 J J     ✓ run R5 R6 R7 (joker = R6, joker = R7) = 18 points\n       \
             note: read as run R5 R6 R7 = 18; as a group it would be 15\n\
             total 78 (needs 30): NOT a valid initial meld\n  \
             - three jokers but a standard set has two\n"
                .to_owned(),
            String::new()
        )
    );
    assert_eq!(
        ko,
        (
            1,
            "묶음 1  빨10 조커 빨12  ✓ 런 빨10 빨11 빨12 (조커 = 빨11) = 33점\n\
             묶음 2  검9 파9 주9     ✓ 그룹 검9 파9 주9 = 27점\n\
             묶음 3  빨5 조커 조커   ✓ 런 빨5 빨6 빨7 (조커 = 빨6, 조커 = 빨7) = 18점\n       \
             참고: 런으로 읽어 18점; 그룹으로 읽으면 15점\n\
             합계 78 (필요 30): 등록할 수 없습니다\n  \
             - 조커가 3개지만 기본 세트에는 2개뿐입니다\n"
                .to_owned(),
            String::new()
        )
    );
    let [en, ko] = both(&["solve", "--objective", "tiles", "R1 R2 R3 O1"]);
    assert_eq!(
        en.1,
        "no meld from these 4 tiles reaches 30; the best by points:\n  \
         run    R1 R2 R3    6 points\n\
         unused: O1\n\
         total 6 from 3 tiles (needs 30): threshold NOT reachable\n"
    );
    assert_eq!(
        ko.1,
        "타일 4개로는 30점에 닿는 등록이 없습니다. 점수로 가장 좋은 등록:\n  \
         런     빨1 빨2 빨3    6점\n\
         남는 타일: 주1\n\
         타일 3개로 합계 6 (필요 30): 기준 점수에 닿을 수 없습니다\n"
    );
    let [en, ko] = both(&["solve", "R10 R11 R12 O1 B1 K1"]);
    assert!(
        en.1.ends_with("unused: none\ntotal 36 from 6 tiles (needs 30): threshold reached\n"),
        "{}",
        en.1
    );
    assert!(
        ko.1.ends_with("남는 타일: 없음\n타일 6개로 합계 36 (필요 30): 기준 점수에 닿습니다\n"),
        "{}",
        ko.1
    );
}

#[test]
fn score_and_audit_read_as_before_in_both_languages() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sheet = dir.path().join("sheet.csv");
    std::fs::write(&sheet, "game,Ann,Bo,Cy\n1,0,R5 J,12*\n2,6,6!,9\n3,3,10,0\n").expect("write");
    let path = sheet.to_str().expect("UTF-8 path");
    let [en, ko] = both(&["score", "--final", "wins", path]);
    assert_eq!(
        en.1,
        "rules: English rulebook · joker 30 · most wins, then total · not melded counts the rack\n\
         \n\
         game   Ann   Bo   Cy  winner\n\
         1      +47  -35  -12  Ann\n\
         2        0   +3   -3  Bo (pool out)\n\
         3       -3  -10  +13  Cy\n\
         total  +44  -42   -2\n\
         wins     1    1    1\n\
         rank     1    3    2  by most wins, then total\n\
         rank     1    3    2  by highest total\n\
         \n\
         winner by most wins, then total: Ann\n\
         winner by highest total (the other rule): Ann\n"
    );
    assert_eq!(
        ko.1,
        "규칙: 영문 규칙서 · 조커 30점 · 최다 승, 같으면 점수 합계 · 미등록은 받침대 합계\n\
         \n\
         게임   Ann   Bo   Cy  우승\n\
         1      +47  -35  -12  Ann\n\
         2        0   +3   -3  Bo (더미 소진)\n\
         3       -3  -10  +13  Cy\n\
         합계   +44  -42   -2\n\
         승 수    1    1    1\n\
         순위     1    3    2  최다 승, 그다음 합계 기준\n\
         순위     1    3    2  최고 합계 기준\n\
         \n\
         최다 승, 그다음 합계 기준 우승: Ann\n\
         최고 합계 기준 우승 (다른 규칙): Ann\n"
    );
    std::fs::write(
        &sheet,
        "game,Ann,Bo,Cy\n1,0,+2,−2\n2,+ 5,- 3,- 1\n3,-4,+10,-6\n승 수,1,2,0\n합계,+1,+9,-9\n순위,2,1,3\n",
    )
    .expect("write");
    let [en, ko] = both(&["audit", path]);
    assert_eq!(
        en,
        (
            1,
            "               Ann   Bo  Cy\n\
             1                0   +2  -2  sums to 0\n\
             2               +5   -3  -1  sums to +1\n\
             3               -4  +10  -6  sums to 0\n\
             wins written     1    2   0\n\
             wins correct     1    2   0\n\
             total written   +1   +9  -9\n\
             total correct   +1   +9  -9\n\
             rank written     2    1   3\n\
             rank by total    2    1   3  highest total\n\
             rank by wins     2    1   3  most wins, then total\n\
             \n\
             the written ranks match both final rules\n\
             1 problem found:\n  \
             - row 3 (2): points sum to +1, not 0\n"
                .to_owned(),
            String::new()
        )
    );
    assert_eq!(
        ko.1,
        "                             Ann   Bo  Cy\n\
         1                              0   +2  -2  합 0\n\
         2                             +5   -3  -1  합 +1\n\
         3                             -4  +10  -6  합 0\n\
         승 수 (적힌 값)                1    2   0\n\
         승 수 (바른 값)                1    2   0\n\
         합계 (적힌 값)                +1   +9  -9\n\
         합계 (바른 값)                +1   +9  -9\n\
         순위 (적힌 값)                 2    1   3\n\
         순위 (최고 합계)               2    1   3\n\
         순위 (최다 승, 그다음 합계)    2    1   3\n\
         \n\
         적힌 순위는 두 최종 규칙 모두와 맞습니다\n\
         문제 1개:\n  \
         - 3행 (2): 점수 합이 0이 아니라 +1입니다\n"
    );
    // A file that is not UTF-8, in both languages.
    std::fs::write(&sheet, b"game,Ren\xe9,Bo\n1,0,3\n").expect("write");
    let [en, ko] = both(&["score", path]);
    assert_eq!(
        en.2,
        format!("error: {path} is not UTF-8 text (invalid byte at offset 8)\n")
    );
    assert_eq!(
        ko.2,
        format!("오류: {path}는 UTF-8 글자가 아닙니다 (8번째 바이트가 잘못됨)\n")
    );
}

#[test]
fn status_and_history_read_as_before_in_both_languages() {
    let data = tempfile::tempdir().expect("temp dir");
    let store = rummikub_companion::store::Store::open(data.path()).expect("opens");
    let id = rummikub_companion::store::SheetId::new("seed").expect("id");
    store
        .save_sheet(
            &id,
            &crate::util::seed_sheet(rummikub_companion::rules::Preset::Korean.rules()),
        )
        .expect("saves");
    let run = |args: &[&str]| {
        let out = Command::new(BIN)
            .args(args)
            .env(DATA_ENV, data.path())
            .output()
            .expect("runs");
        (
            out.status.code(),
            String::from_utf8(out.stdout).expect("utf-8"),
            String::from_utf8(out.stderr).expect("utf-8"),
        )
    };
    let (code, en, err) = run(&["history", "--lang", "en"]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert_eq!(
        en,
        "1 evenings, 1 decided matches; match winners by each sheet's own final rule\n\
         \n\
         player  evenings  games  matches  match wins  total  average  best game\n\
         루미           1      4        1           1    +35     +8.8        +49\n\
         알토           1      4        1           0    +20     +5.0        +47\n\
         퍼니           1      4        1           0    -12     -3.0        +22\n\
         큐브           1      4        1           0    -43    -10.8         -5\n\
         \n\
         head to head (games won against):\n\
         \x20     루미  알토  퍼니  큐브\n\
         루미     -     2     2     3\n\
         알토     2     -     2     3\n\
         퍼니     2     2     -     2\n\
         큐브     1     1     2     -\n"
    );
    let (code, ko, _) = run(&["history", "--lang", "ko"]);
    assert_eq!(code, Some(0));
    assert!(
        ko.starts_with(
            "저녁 1번, 승부가 난 경기 1번; 경기 우승은 점수표마다 정한 규칙으로\n\n\
             플레이어  저녁  게임  경기  경기 우승  합계   평균  최고 게임\n"
        ),
        "{ko}"
    );
    assert!(ko.contains("\n맞대결 (상대에게 이긴 게임 수):\n"), "{ko}");
    // A folder that does not exist, in both languages.
    let gone = data.path().join("gone");
    let missing = |lang: &str| {
        let out = Command::new(BIN)
            .args(["status", "--lang", lang])
            .env(DATA_ENV, &gone)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8(out.stderr).expect("utf-8")
    };
    let shown = gone.display();
    assert_eq!(
        missing("en"),
        format!("error: the data folder {shown} cannot be read: it does not exist\n")
    );
    assert_eq!(
        missing("ko"),
        format!("오류: 데이터 폴더 {shown}를 읽을 수 없습니다: 없는 폴더입니다\n")
    );
}

/// Issue 23.9: the technical tooltips (no sound, cannot keep the screen awake) are worded in
/// the window's language, with the system's own message after the words when it is not one
/// the words know.
#[test]
fn technical_tooltips_are_worded_in_korean_with_the_detail_after() {
    use rummikub_companion::evening::TableNotice;
    let alsa = "ALSA function 'snd_pcm_open' failed with error 'No such file or directory'";
    let dbus = "org.freedesktop.DBus.Error.UnknownMethod: no Inhibit here";
    for (notice, system) in [
        (TableNotice::NoAudio(alsa.into()), alsa),
        (TableNotice::NoKeepAwake(dbus.into()), dbus),
    ] {
        let (line, detail) = notice.text(Language::Korean);
        let detail = detail.expect("a tooltip");
        assert!(has_hangul(&line), "{line}");
        let words = detail
            .strip_suffix(system)
            .expect("the system's message last");
        assert!(has_hangul(words) && words.ends_with(": "), "{detail}");
        let (_, english) = notice.text(Language::English);
        let english = english.expect("a tooltip");
        assert!(
            english.ends_with(system) && !has_hangul(&english),
            "{english}"
        );
    }
}

/// Issue 49.11: the usual reason a laptop cannot keep its screen awake (no screen-saver
/// service on the desktop) is said in plain words, never as the raw D-Bus error, in Korean
/// and in English.
#[test]
fn the_keep_awake_notice_words_a_missing_screen_saver_without_the_dbus_error() {
    use rummikub_companion::evening::TableNotice;
    // What this machine's desktop said under Xvfb (the window's notice showed it as it was).
    let dbus = "system: org.freedesktop.DBus.Error.ServiceUnknown: The name \
                org.freedesktop.ScreenSaver was not provided by any .service files";
    let notice = TableNotice::NoKeepAwake(dbus.into());
    let (_, ko) = notice.text(Language::Korean);
    let ko = ko.expect("a tooltip");
    assert!(
        has_hangul(&ko) && !ko.contains("DBus") && !ko.contains("service"),
        "{ko}"
    );
    let (_, en) = notice.text(Language::English);
    let en = en.expect("a tooltip");
    assert!(
        en.starts_with("This desktop has no screen-saver service"),
        "{en}"
    );
    assert!(!en.contains("DBus.Error"), "{en}");
    // No session bus at all: said so, in words.
    let nobus = "Cannot autolaunch D-Bus without X11 $DISPLAY";
    let (_, ko) = TableNotice::NoKeepAwake(nobus.into()).text(Language::Korean);
    assert!(ko.expect("a tooltip").contains("D-Bus 세션 버스"));
}

fn has_hangul(text: &str) -> bool {
    text.chars().any(|c| ('가'..='힣').contains(&c))
}

fn change_index(c: &rummikub_companion::evening::Change) -> usize {
    use rummikub_companion::evening::Change;
    match c {
        Change::Started => 0,
        Change::TurnEnded(_) => 1,
        Change::Paused => 2,
        Change::Resumed => 3,
        Change::TimerReset => 4,
        Change::PlayersChanged => 5,
        Change::Renamed { .. } => 6,
        Change::PlayerAdded(_) => 7,
        Change::PlayerRemoved(_) => 8,
        Change::PlayerMoved { .. } => 9,
        Change::SeatsChanged(_) => 10,
        Change::GameAdded(..) => 11,
        Change::GameEdited(..) => 12,
        Change::GameDeleted(..) => 13,
        Change::DraftDiscarded => 14,
        Change::RulesChanged => 15,
        Change::RuleChanged { .. } => 16,
        Change::NamesMerged { .. } => 17,
        Change::NamesSeparated { .. } => 18,
        Change::NewSheet => 19,
        Change::SheetOpened => 20,
        Change::RulesApplied => 21,
    }
}

/// Korean particles written both ways ("이(가)"): what a message shows when it did not look at
/// the word before it.
const FALLBACK_PARTICLES: [&str; 5] = ["(가)", "(는)", "(를)", "(으)로", "(와)"];

/// Issue 49.8: every undo offer names what it undoes, in both languages, with the particles a
/// Korean reader expects (never "을(를)").
#[test]
fn every_undo_offer_names_its_change_in_korean_with_real_particles() {
    use rummikub_companion::evening::Change;
    use rummikub_companion::rules::Preset;
    let names = |list: &[&str]| list.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    let mut short = Preset::Korean.rules();
    short.turn_seconds = 20;
    let changes = vec![
        Change::Started,
        Change::TurnEnded("루미".into()),
        Change::Paused,
        Change::Resumed,
        Change::TimerReset,
        Change::PlayersChanged,
        Change::Renamed {
            from: "큐브".into(),
            to: "큐브리".into(),
        },
        Change::Renamed {
            from: "민준".into(),
            to: "철".into(),
        },
        Change::PlayerAdded("퍼니".into()),
        Change::PlayerRemoved("알토".into()),
        Change::PlayerMoved {
            name: "루미".into(),
            seat: 2,
        },
        Change::SeatsChanged(names(&["루미", "큐브"])),
        Change::GameAdded(1, 2),
        Change::GameEdited(1, 2),
        Change::GameDeleted(2, 1),
        Change::DraftDiscarded,
        Change::RulesChanged,
        Change::RuleChanged {
            from: Preset::Korean.rules(),
            to: short,
        },
        Change::RuleChanged {
            from: Preset::Korean.rules(),
            to: Preset::Tournament.rules(),
        },
        Change::NamesMerged {
            from: "벤".into(),
            into: "벤니".into(),
        },
        Change::NamesSeparated {
            from: "벤".into(),
            into: "벤니".into(),
        },
        Change::NewSheet,
        Change::SheetOpened,
        Change::RulesApplied,
    ];
    check_all(
        "Change",
        &changes,
        change_index,
        22,
        rummikub_companion::evening::words::change_done,
    );
    for change in &changes {
        let ko = rummikub_companion::evening::words::change_done(KO, change);
        assert!(
            !FALLBACK_PARTICLES.iter().any(|p| ko.contains(p)),
            "{change:?}: {ko}"
        );
    }
    assert_eq!(
        rummikub_companion::evening::words::change_done(KO, &changes[6]),
        "큐브를 큐브리로 바꿈"
    );
    assert_eq!(
        rummikub_companion::evening::words::change_done(KO, &changes[7]),
        "민준을 철로 바꿈"
    );
    assert_eq!(
        rummikub_companion::evening::words::change_done(EN, &changes[17]),
        "Turn length: 60s → 20s"
    );
}
