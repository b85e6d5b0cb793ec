//! Every string the program shows, in Korean and English.
//!
//! Each message has one home, with its two languages side by side:
//! - the window's words are one `words!` table below, nested per area (`s.timer.start`,
//!   `s.sheet.add_game`): each entry is written `name: type = en: …, ko: …;`, and the macro makes
//!   the typed per-language tables [`EN`] and [`KO`] from it, so a message missing a language
//!   does not compile (the approach of egui_dock's `translations.rs`, with both languages in one
//!   place);
//! - the evening's refusals ([`evening`]), the phone page's words ([`phone`], served to the
//!   page as `words.js`) and the other areas' messages live in submodules, as [`Text`] pairs
//!   and functions of the [`Language`] whose two arms sit together;
//! - engine problems (set readings, meld verdicts, sheet and store errors) are translated by
//!   exhaustive `match`es, so a new problem kind cannot reach a person untranslated. Their
//!   English is the error's own `Display` text, written where the error is defined.

use std::io;

use crate::meld::{MeldProblem, SetProblem};
use crate::rules::{FinalRule, Preset, RuleSet, RulesError};
use crate::score::audit::Finding;
use crate::score::table::{CellError, TableError, TableProblem, Written};
use crate::score::{RemainingError, ScoreError, SeatProblem};
use crate::solver::SolveError;
use crate::sound::SoundError;
use crate::store::{DATA_ENV, FORMAT_VERSION, FileProblem, Notice, ReadOnlyReason, StoreError};
use crate::tile::{Color, Kind, NotationError, Position, Tile, TileError};
use crate::timer::TimerError;

pub mod card;
pub mod cli;
pub mod club;
pub mod evening;
pub mod event;
pub mod phone;
pub mod play;
pub mod speech;
/// The languages moved to [`crate::lang`]; named here too while callers move.
use crate::lang::{Language, Text};
pub use evening::{evening_set_aside, saving_fails};

impl Language {
    /// The string table of this language.
    pub fn strings(self) -> &'static Strings {
        match self {
            Language::English => &EN,
            Language::Korean => &KO,
        }
    }
}

/// Defines the window's words: each message once, with its English and its Korean side by side,
/// nested per area. It makes [`Strings`] (one struct per area) and the two tables [`EN`] and
/// [`KO`]; a message missing a language does not compile.
macro_rules! words {
    ($(
        $(#[$area_doc:meta])*
        $area:ident: $Area:ident {
            $( $(#[$doc:meta])* $field:ident: $ty:ty = en: $en:expr, ko: $ko:expr; )*
        }
    )*) => {
        /// Every visible string of the window in one language, per area.
        pub struct Strings {
            $( $(#[$area_doc])* pub $area: $Area, )*
        }
        $(
            $(#[$area_doc])*
            #[allow(missing_docs)] // each field is named for what it says
            pub struct $Area {
                $( $(#[$doc])* pub $field: $ty, )*
            }
        )*
        /// English.
        pub static EN: Strings = Strings { $( $area: $Area { $( $field: $en, )* }, )* };
        /// 한국어.
        pub static KO: Strings = Strings { $( $area: $Area { $( $field: $ko, )* }, )* };
    };
}

words! {
    /// The tabs across the top.
    tabs: Tabs {
        tab_timer: &'static str = en: "Timer", ko: "타이머";
        tab_meld: &'static str = en: "Meld check", ko: "등록 확인";
        tab_sheet: &'static str = en: "Score sheet", ko: "점수표";
        tab_settings: &'static str = en: "Settings", ko: "설정";
    }
    /// The timer tab: the clock, the players, the statistics.
    timer: TimerWords {
        start: &'static str = en: "Start", ko: "시작";
        pause: &'static str = en: "Pause", ko: "일시정지";
        resume: &'static str = en: "Resume", ko: "계속";
        end_turn: &'static str = en: "End turn", ko: "턴 넘기기";
        reset: &'static str = en: "Reset", ko: "초기화";
        now_playing: &'static str = en: "Now", ko: "지금";
        next_player: &'static str = en: "Next", ko: "다음";
        state_ready: &'static str = en: "Ready", ko: "준비";
        state_running: &'static str = en: "Running", ko: "진행 중";
        state_paused: &'static str = en: "Paused", ko: "일시정지";
        state_warning: &'static str = en: "Hurry up!", ko: "서두르세요!";
        state_time_up: &'static str = en: "Time's up!", ko: "시간 초과!";
        penalty_draw: fn(u8) -> String =
            en: |n| {
                format!(
                    "Draw {n} tile{} and end the turn.",
                    if n == 1 { "" } else { "s" }
                )
            },
            ko: |n| format!("타일 {n}개를 가져가고 턴을 마치세요.");
        penalty_rearranging: fn(u8) -> String =
            en: |n| {
                format!(
                    "Rearranging and the table is not valid? Put every moved tile back, take back your own tiles and draw {n}."
                )
            },
            ko: |n| {
                format!(
                    "재배열하다 테이블을 맞추지 못했나요? 움직인 타일을 모두 되돌리고, 낸 타일을 도로 가져간 뒤 {n}개를 가져가세요."
                )
            };
        click_clock_hint: &'static str =
            en: "Click the clock to end the turn",
            ko: "시계를 누르면 턴이 넘어갑니다";
        keys_hint: &'static str =
            en: "Space / Enter: end turn · P: pause · Backspace: undo on the clock · F1–F4: views · F11: full screen",
            ko: "스페이스 / 엔터: 턴 넘기기 · P: 일시정지 · 백스페이스: 시계 되돌리기 · F1–F4: 화면 전환 · F11: 전체 화면";
        statistics: &'static str = en: "Statistics", ko: "통계";
        player: &'static str = en: "Player", ko: "플레이어";
        turns: &'static str = en: "Turns", ko: "턴 수";
        total_time: &'static str = en: "Total", ko: "합계";
        average_time: &'static str = en: "Average", ko: "평균";
        time_outs: &'static str = en: "Time-outs", ko: "시간 초과";
        players_heading: &'static str =
            en: "Players (seat order, clockwise)",
            ko: "플레이어 (자리 순서, 시계 방향)";
        add_player: &'static str = en: "Add player", ko: "플레이어 추가";
        remove_player: &'static str = en: "Remove", ko: "삭제";
        move_up: &'static str = en: "Move up", ko: "위로";
        xp_suggested: fn(usize) -> String =
            en: |n| format!("{n} players: the standard set is for 2–4. The XP set (160 tiles) is made for 5–6."),
            ko: |n| format!("{n}명: 기본 세트는 2–4명용입니다. 5–6명은 XP 세트(160개)로 합니다.");
        use_xp_set: &'static str = en: "Play the XP set", ko: "XP 세트로 하기";
        default_player: fn(usize) -> String =
            en: |n| format!("Player {n}"),
            ko: |n| format!("플레이어 {n}");
        players_fixed_while_running: &'static str =
            en: "Pause or reset the timer to change the players.",
            ko: "플레이어를 바꾸려면 타이머를 일시정지하거나 초기화하세요.";
        no_audio: &'static str =
            en: "No sound output was found: alerts are shown on screen only.",
            ko: "소리를 낼 장치가 없습니다: 알림은 화면으로만 표시됩니다.";
        /// The tooltip of "no sound": the audio system's own (English) message after the words.
        no_audio_detail: fn(&str) -> String =
            en: |detail| format!("The audio system (ALSA) said: {detail}"),
            ko: |detail| format!("오디오 시스템이 보낸 메시지: {detail}");
    }
    /// The settings tab.
    settings: SettingsWords {
        preset: &'static str = en: "Rules preset", ko: "규칙 프리셋";
        preset_korean: &'static str = en: "Korean manual", ko: "한국어판 설명서";
        preset_english: &'static str = en: "English rulebook", ko: "영문 규칙서";
        preset_tournament: &'static str = en: "Tournament", ko: "대회";
        preset_custom: &'static str = en: "Custom", ko: "사용자 지정";
        turn_length: &'static str = en: "Turn length", ko: "턴 시간";
        warning_time: &'static str = en: "Warning before the end", ko: "종료 전 경고";
        tick_time: &'static str = en: "Tick in the last seconds", ko: "마지막 몇 초 똑딱 소리";
        seconds: &'static str = en: "s", ko: "초";
        off: &'static str = en: "off", ko: "끔";
        volume: &'static str = en: "Volume", ko: "음량";
        mute: &'static str = en: "Mute", ko: "음소거";
        test_sound: &'static str = en: "Test sounds", ko: "소리 시험";
        threshold: &'static str = en: "Initial meld needs", ko: "등록 기준 점수";
        jokers_in_meld: &'static str = en: "Jokers allowed in the initial meld", ko: "등록에 조커 사용 허용";
        joker_penalty: &'static str = en: "Joker left on a rack counts", ko: "받침대에 남은 조커 점수";
        not_melded: &'static str = en: "Player who never melded counts", ko: "등록하지 못한 플레이어 점수";
        not_melded_rack: &'static str = en: "their rack", ko: "받침대 합계";
        not_melded_flat: &'static str = en: "a flat value", ko: "고정 점수";
        final_rule: &'static str = en: "Final winner", ko: "최종 우승";
        final_total: &'static str = en: "Highest total (Korean manual)", ko: "점수 합계 최고 (한국어판)";
        final_wins: &'static str =
            en: "Most wins, then total (English rulebook)",
            ko: "최다 승, 같으면 점수 합계 (영문판)";
        tile_set: &'static str = en: "Tile set", ko: "타일 세트";
        tile_set_standard: &'static str =
            en: "Standard (2–4 players, 106 tiles)",
            ko: "기본 (2~4인, 106개)";
        tile_set_xp: &'static str = en: "XP (5–6 players, 160 tiles)", ko: "XP (5~6인, 160개)";
        language: &'static str = en: "Language", ko: "언어";
        settings_next_turn: &'static str =
            en: "Timer changes take effect from the next turn.",
            ko: "타이머 설정은 다음 턴부터 적용됩니다.";
        settings_saved_in: fn(&str) -> String =
            en: |path| format!("Saved in {path}"),
            ko: |path| format!("저장 위치: {path}");
        settings_not_saved: fn(&str) -> String =
            en: |why| format!("Settings could not be saved: {why}"),
            ko: |why| format!("설정을 저장하지 못했습니다: {why}");
        timer_settings_reset: &'static str =
            en: "The saved turn, warning or tick time was outside what the game allows; the defaults (60 s turn, warning at 10 s, no ticks) are used.",
            ko: "저장된 턴·경고·똑딱 시간이 허용 범위를 벗어나 기본값(턴 60초, 10초 전 경고, 똑딱 없음)을 씁니다.";
    }
    /// The meld tab: checking a meld, the best meld from a rack.
    meld: MeldWords {
        mode_check: &'static str = en: "Check a meld", ko: "등록 확인";
        mode_solve: &'static str = en: "Best meld from a rack", ko: "받침대에서 최선의 등록 찾기";
        new_set: &'static str = en: "New set", ko: "새 묶음";
        remove_last: &'static str = en: "Remove last", ko: "마지막 삭제";
        clear: &'static str = en: "Clear", ko: "모두 지우기";
        notation_hint: &'static str =
            en: "or type: R10 R11 R12 | K9 B9 O9 J (빨강7, 조커 work too)",
            ko: "또는 입력: 빨강10 빨강11 빨강12 | 검9 파9 주9 조커 (R10, J도 됩니다)";
        set_n: fn(usize) -> String = en: |n| format!("Set {n}"), ko: |n| format!("묶음 {n}");
        declare: &'static str = en: "Read as", ko: "읽기";
        declare_auto: &'static str = en: "best", ko: "최고 점수";
        kind_run: &'static str = en: "run", ko: "런";
        kind_group: &'static str = en: "group", ko: "그룹";
        points: fn(u32) -> String = en: |p| format!("{p} points"), ko: |p| format!("{p}점");
        joker_is: fn(&str) -> String = en: |t| format!("joker = {t}"), ko: |t| format!("조커 = {t}");
        ambiguity_note: fn(Kind, u32, Kind, u32) -> String =
            en: |kind, points, other, other_points| {
                format!(
                    "read as a {} = {points}; as a {} it would be {other_points}",
                    kind.name(),
                    other.name()
                )
            },
            ko: |kind, points, other, other_points| {
                format!(
                    "{} 읽어 {points}점; {} 읽으면 {other_points}점",
                    josa(kind_ko(kind), Josa::EuroRo),
                    josa(kind_ko(other), Josa::EuroRo)
                )
            };
        total_of: fn(u32, u32) -> String =
            en: |total, threshold| format!("Total {total} of {threshold} needed"),
            ko: |total, threshold| format!("합계 {total}점 (기준 {threshold}점)");
        verdict_valid: &'static str = en: "Valid initial meld", ko: "등록 가능";
        verdict_invalid: &'static str = en: "Not a valid initial meld", ko: "등록 불가";
        empty_meld: &'static str =
            en: "Pick tiles or type them to check a meld.",
            ko: "타일을 누르거나 입력하면 등록을 확인합니다.";
        /// The solver's prompt while the rack is empty.
        empty_rack: &'static str =
            en: "Pick tiles or type a rack to find its best initial meld.",
            ko: "타일을 누르거나 받침대를 입력하면 가장 좋은 첫 등록을 찾습니다.";
        rack: &'static str = en: "Rack", ko: "받침대";
        objective: &'static str = en: "Best by", ko: "기준";
        objective_points: &'static str = en: "most points", ko: "최고 점수";
        objective_tiles: &'static str = en: "most tiles", ko: "최다 타일";
        best_meld: &'static str = en: "Best meld", ko: "최선의 등록";
        unused_tiles: &'static str = en: "Left on the rack", ko: "받침대에 남는 타일";
        reachable: fn(u32, u32) -> String =
            en: |total, threshold| {
                format!("{total} points: the initial meld ({threshold}) is possible")
            },
            ko: |total, threshold| format!("{total}점: 등록({threshold}점)할 수 있습니다");
        unreachable: fn(u32, u32) -> String =
            en: |total, threshold| {
                format!("At most {total} points: the initial meld ({threshold}) is not possible yet")
            },
            ko: |total, threshold| {
                format!("최대 {total}점: 아직 등록({threshold}점)할 수 없습니다")
            };
        nothing_to_meld: &'static str =
            en: "No valid set in this rack.",
            ko: "이 받침대로 만들 수 있는 묶음이 없습니다.";
    }
    /// The score sheet: its toolbar, the game form, the rows.
    sheet: SheetWords {
        new_sheet: &'static str = en: "New sheet", ko: "새 점수표";
        open_sheet: &'static str = en: "Open", ko: "열기";
        export_csv: &'static str = en: "Export CSV", ko: "CSV 내보내기";
        exported_to: fn(&str) -> String =
            en: |path| format!("Exported to {path}"),
            ko: |path| format!("내보낸 파일: {path}");
        /// After an undo: what it took back.
        undone: fn(&str) -> String =
            en: |change| format!("Undone: {change}"),
            ko: |change| format!("되돌렸습니다: {change}");
        /// "Save CSV as…" could not show a dialog: where the CSV went instead.
        exported_no_dialog: fn(&str) -> String =
            en: |path| {
                format!(
                    "No save dialog could open on this system (it needs a desktop portal or zenity), so the CSV was saved in the exports folder: {path}"
                )
            },
            ko: |path| {
                format!(
                    "이 시스템에서는 저장 대화 상자를 열 수 없어(데스크톱 포털이나 zenity가 필요합니다) CSV를 내보내기 폴더에 저장했습니다: {path}"
                )
            };
        /// "Save CSV as…" while its dialog is open.
        choosing_where_to_save: &'static str =
            en: "The save dialog is open",
            ko: "저장 대화 상자가 열려 있습니다";
        add_game: &'static str = en: "Add game", ko: "게임 추가";
        edit_game: &'static str = en: "Edit", ko: "고치기";
        delete_game: &'static str = en: "Delete", ko: "지우기";
        game_label: fn(usize, usize) -> String =
            en: |round, game| format!("Round {round}, game {game}"),
            ko: |round, game| format!("{round}라운드 {game}게임");
        round_label: fn(usize) -> String =
            en: |round| format!("Round {round}"),
            ko: |round| format!("{round}라운드");
        went_out: &'static str = en: "Went out", ko: "다 낸 사람";
        pool_ran_out: &'static str = en: "Pool ran out (lowest wins)", ko: "타일 더미 소진 (가장 적은 사람 승)";
        remaining_hint: &'static str =
            en: "What each player has left: a number or the tiles (R5 K7 J). 0 = went out; no 0 = the pool ran out. Tab moves on, Enter saves.",
            ko: "각자 남은 타일: 숫자 합이나 타일(빨5 검7 조커). 0 = 다 낸 사람, 0이 없으면 더미 소진. Tab으로 다음 칸, Enter로 저장.";
        not_melded_flag: &'static str = en: "not melded", ko: "미등록";
        pick_tiles: &'static str = en: "Pick tiles", ko: "타일 고르기";
        tie_winner: &'static str = en: "Tied for lowest: who wins?", ko: "가장 적은 점수가 같습니다: 누가 이겼나요?";
        save_game: &'static str = en: "Save game", ko: "게임 저장";
        cancel: &'static str = en: "Cancel", ko: "취소";
        totals: &'static str = en: "Total", ko: "점수합계";
        wins: &'static str = en: "Wins", ko: "승 수";
        rank: &'static str = en: "Rank", ko: "순위";
        winner_under: fn(&str, &str) -> String =
            en: |rule, names| format!("Winner by {rule}: {names}"),
            ko: |rule, names| format!("{rule} 기준 우승: {names}");
        /// "Leader by highest total: 루미" (before the match is over).
        leader_under: fn(&str, &str) -> String =
            en: |rule, names| format!("Leader by {rule}: {names}"),
            ko: |rule, names| format!("{rule} 기준 선두: {names}");
        /// The match options beside "New sheet": what they apply to.
        for_new_sheets: &'static str =
            en: "For the next new sheet: the open sheet keeps the end it was started with.",
            ko: "다음 새 점수표에 쓰입니다: 열린 점수표는 시작할 때 정한 끝을 그대로 씁니다.";
        rule_total_short: &'static str = en: "highest total", ko: "점수 합계";
        rule_wins_short: &'static str = en: "most wins", ko: "최다 승";
        planned_rounds: &'static str = en: "Rounds", ko: "라운드";
        open_ended: &'static str = en: "open-ended", ko: "정하지 않음";
        no_games_yet: &'static str =
            en: "No games yet: add the first one when someone goes out.",
            ko: "아직 게임이 없습니다. 누군가 다 내면 첫 게임을 추가하세요.";
        no_sheets: &'static str = en: "No saved sheets yet.", ko: "저장된 점수표가 없습니다.";
        set_aside: fn(&str) -> String =
            en: |file| {
                format!("A file could not be read and was set aside as {file}. Nothing was overwritten.")
            },
            ko: |file| {
                format!(
                    "읽을 수 없는 파일을 {} 옮겨 두었습니다. 덮어쓴 것은 없습니다.",
                    josa(file, Josa::EuroRo)
                )
            };
        recovered_from_backup: fn(&str) -> String =
            en: |file| format!("{file} was damaged; the previous copy was restored."),
            ko: |file| format!("{file} 파일이 손상되어 이전 사본으로 복구했습니다.");
        save_failed: fn(&str) -> String =
            en: |why| format!("Could not save: {why}. Your data is still in the window."),
            ko: |why| format!("저장하지 못했습니다: {why}. 데이터는 창에 그대로 있습니다.");
        dismiss: &'static str = en: "Dismiss", ko: "닫기";
    }
    /// What every tab shares: undo, notices, the seats' defaults.
    table: TableWords {
        undo: &'static str = en: "Undo", ko: "되돌리기";
        redo: &'static str = en: "Redo", ko: "다시 하기";
        left_in_place: fn(&str) -> String =
            en: |file| {
                format!("{file} could not be read and was left as it is; nothing was overwritten.")
            },
            ko: |file| {
                format!(
                    "{} 읽을 수 없어 그대로 두었습니다. 덮어쓴 것은 없습니다.",
                    josa(file, Josa::EulReul)
                )
            };
        remaining_placeholder: &'static str =
            en: "tiles (R5 K7 J) or a number",
            ko: "타일(빨5 검7 조커) 또는 숫자";
        missing_left: fn(&str) -> String =
            en: |name| format!("{name}: type what is left (0 if they went out)"),
            ko: |name| format!("{name}: 남은 값을 입력하세요 (다 냈으면 0)");
        pick_tiles_for: &'static str = en: "Pick tiles for", ko: "타일 고르기";
        choose_tie_winner: &'static str =
            en: "Tied for lowest: choose who wins",
            ko: "가장 적은 점수가 같습니다: 우승자를 고르세요";
        warning_adjusted: fn(u32, u32) -> String =
            en: |warning, turn| {
                format!(
                    "The warning was moved to {warning} s so that it comes before the end of a {turn} s turn."
                )
            },
            ko: |warning, turn| {
                format!("경고가 {turn}초 턴이 끝나기 전에 오도록 {warning}초로 바뀌었습니다.")
            };
    }
    /// The table view and the clock strip.
    table_view: TableViewWords {
        table_view: &'static str = en: "Table view", ko: "테이블 화면";
        face_to_face: &'static str = en: "Face to face", ko: "마주 보기";
        one_sided: &'static str = en: "One side", ko: "한쪽 보기";
        exit_table_view: &'static str = en: "Exit (Esc)", ko: "나가기 (Esc)";
        nothing_to_play: &'static str =
            en: "There is no sound output, so there is nothing to play: alerts are shown on screen.",
            ko: "소리를 낼 장치가 없어 들려줄 수 없습니다: 알림은 화면으로 표시됩니다.";
        /// The tooltip of "cannot keep awake" when the reason is not one [`keep_awake_detail`]
        /// knows: the system's own (English) reason after the words.
        no_keep_awake_detail: fn(&str) -> String =
            en: |detail| format!("The desktop's screen saver (over D-Bus) refused: {detail}"),
            ko: |detail| format!("데스크톱의 화면 보호기가 거절한 이유: {detail}");
        no_keep_awake: &'static str =
            en: "The screen cannot be kept awake on this system: it may dim during a turn.",
            ko: "이 시스템에서는 화면을 켜 둘 수 없습니다: 턴 중에 화면이 어두워질 수 있습니다.";
    }
    /// The phones' section of the settings.
    phones: PhoneWords {
        phones_heading: &'static str = en: "Phones", ko: "휴대폰";
        phones_switch: &'static str =
            en: "Phones as the table's buttons (local network)",
            ko: "휴대폰을 테이블 버튼으로 (같은 네트워크)";
        phones_port: &'static str = en: "Port", ko: "포트";
        phones_anyone_may_end: &'static str =
            en: "Any phone may end any turn",
            ko: "어느 휴대폰이든 누구의 턴이든 넘길 수 있음";
        phones_failed: fn(&str) -> String =
            en: |why| format!("The phones' page could not start: {why}"),
            ko: |why| format!("휴대폰 페이지를 시작하지 못했습니다: {why}");
        phones_scan: &'static str =
            en: "Scan with each phone, or open this link on the same Wi-Fi:",
            ko: "각 휴대폰으로 스캔하거나, 같은 와이파이에서 이 링크를 여세요:";
        phones_off_hint: &'static str =
            en: "Off: nothing is served. On: a page on this network only, behind a secret link that changes every evening.",
            ko: "꺼짐: 아무것도 열지 않습니다. 켜짐: 이 네트워크에서만, 매 저녁 바뀌는 비밀 링크로 페이지를 엽니다.";
        copy_link: &'static str = en: "Copy link", ko: "링크 복사";
    }
    /// The chess clock.
    chess: ChessWords {
        clock_mode: &'static str = en: "Clock", ko: "시계";
        per_turn: &'static str = en: "Per turn", ko: "턴마다";
        chess_clock: &'static str =
            en: "Chess clock (time bank + increment)",
            ko: "체스 시계 (시간 저금 + 턴마다 추가)";
        time_bank: &'static str = en: "Time bank", ko: "시간 저금";
        increment: &'static str = en: "Increment per turn", ko: "턴마다 추가";
        minutes: &'static str = en: " min", ko: "분";
        clock_mode_next_game: &'static str =
            en: "The clock mode and bank apply from the next game (Reset).",
            ko: "시계 방식과 시간 저금은 다음 게임(초기화)부터 적용됩니다.";
        flagged: &'static str = en: "Flagged", ko: "시간 소진";
        flagged_now: fn(&str) -> String =
            en: |name| format!("{name} is flagged: the time bank is empty."),
            ko: |name| format!("{} 시간 저금을 다 썼습니다 (시간 소진).", josa(name, Josa::IGa));
        flagged_earlier: fn(&str) -> String =
            en: |name| format!("{name} was flagged earlier: every turn opens out of time."),
            ko: |name| format!("{} 이미 시간을 다 써서 턴마다 시간 초과로 시작합니다.", josa(name, Josa::EunNeun));
        flag_rule: &'static str =
            en: "The rules set no draw for a flag: the table decides.",
            ko: "시간 소진에는 정해진 벌칙이 없습니다: 테이블이 정합니다.";
    }
    /// Saving: files set aside, recovered, the data folder.
    saving: SavingWords {
        not_saving: &'static str =
            en: "Nothing is being saved: there is no usable data folder. Changes last only while the window is open.",
            ko: "저장되지 않습니다: 쓸 수 있는 데이터 폴더가 없습니다. 바뀐 내용은 창을 닫으면 사라집니다.";
        read_only_in_use: &'static str =
            en: "Read-only: another window has this data folder open. Everything is shown; changes here are not saved.",
            ko: "읽기 전용: 다른 창이 이 데이터 폴더를 열고 있습니다. 모두 보이지만 여기서 바꾼 내용은 저장되지 않습니다.";
        read_only_folder: &'static str =
            en: "Read-only: the data folder cannot be written. Everything is shown; changes here are not saved.",
            ko: "읽기 전용: 데이터 폴더에 쓸 수 없습니다. 모두 보이지만 여기서 바꾼 내용은 저장되지 않습니다.";
        kept_aside_newer: fn(&str) -> String =
            en: |file| {
                format!(
                    "A file was made by a newer version of the app; it was kept aside as {file}, untouched."
                )
            },
            ko: |file| {
                format!(
                    "새 버전의 앱이 만든 파일이라 {} 따로 두었습니다. 건드리지 않았습니다.",
                    josa(file, Josa::EuroRo)
                )
            };
    }
    /// The sheet's rules line, the match's end, exports and the history.
    results: ResultWords {
        joker_counts: fn(u32) -> String = en: |n| format!("joker {n}"), ko: |n| format!("조커 {n}점");
        not_melded_counts: fn(u32) -> String =
            en: |n| format!("not melded {n}"),
            ko: |n| format!("미등록 {n}점");
        settings_rules_differ: fn(&str) -> String =
            en: |rules| {
                format!(
                    "The settings now say {rules}; this sheet keeps its own rules unless you apply them."
                )
            },
            ko: |rules| {
                format!("설정의 규칙은 지금 {rules}입니다. 적용하지 않으면 이 점수표는 원래 규칙을 씁니다.")
            };
        no_points_move: &'static str = en: "No points would change.", ko: "바뀌는 점수가 없습니다.";
        winner_would_change: fn(&str, &str) -> String =
            en: |was, will| format!("The leader would change: {was} → {will}"),
            ko: |was, will| format!("선두가 바뀝니다: {was} → {will}");
        apply_to_sheet: &'static str = en: "Apply to this sheet", ko: "이 점수표에 적용";
        match_over: fn(usize, &str) -> String =
            en: |game, who| format!("Match over after game {game} · Winner: {who}"),
            ko: |game, who| format!("{game}번째 게임으로 경기 끝 · 우승: {who}");
        games_after_end: fn(usize) -> String =
            en: |n| format!("{n} game(s) added after the end: they do not change the result."),
            ko: |n| format!("경기가 끝난 뒤 추가된 게임 {n}개는 결과를 바꾸지 않습니다.");
        games_left: fn(usize) -> String =
            en: |n| format!("{n} game(s) left"),
            ko: |n| format!("남은 게임 {n}개");
        points_to_target: fn(i64) -> String =
            en: |p| format!("the leader needs {p} more to reach the target"),
            ko: |p| format!("선두가 목표까지 {p}점 남았습니다");
        target_total: &'static str = en: "target total", ko: "목표 점수";
        export_picture: &'static str = en: "Export picture", ko: "그림으로 내보내기";
        history: &'static str = en: "History", ko: "지난 기록";
        state_finished: &'static str = en: "finished", ko: "끝남";
        state_playing: &'static str = en: "playing", ko: "진행 중";
        games_count: fn(usize) -> String = en: |n| format!("{n} games"), ko: |n| format!("게임 {n}개");
        leader: &'static str = en: "leader", ko: "선두";
        games_axis: &'static str = en: "game", ko: "게임";
        csv_game: &'static str = en: "game", ko: "게임";
        csv_points: &'static str = en: "points", ko: "점수";
        csv_winner: &'static str = en: "winner", ko: "우승";
        csv_other_winner: &'static str = en: "winner by the other rule", ko: "다른 규칙의 우승";
        csv_other_leader: &'static str = en: "leader by the other rule", ko: "다른 규칙의 선두";
        csv_rules: &'static str = en: "rules", ko: "규칙";
        csv_remaining: &'static str = en: "left on the rack", ko: "받침대에 남은 값";
        history_skipped: fn(&str) -> String =
            en: |file| format!("{file} could not be read and is left out."),
            ko: |file| format!("{} 읽을 수 없어 빼고 셉니다.", josa(file, Josa::EunNeun));
        history_empty: &'static str = en: "No games saved yet.", ko: "저장된 게임이 아직 없습니다.";
        evenings: &'static str = en: "Evenings", ko: "저녁";
        games_heading: &'static str = en: "Games", ko: "게임";
        match_wins: &'static str = en: "Match wins", ko: "경기 우승";
        average: &'static str = en: "Average", ko: "평균";
        best_game: &'static str = en: "Best game", ko: "최고 게임";
        head_to_head: &'static str = en: "Head to head (games won against)", ko: "맞대결 (이긴 게임 수)";
        open_folder: &'static str = en: "Open folder", ko: "폴더 열기";
        export_csv_as: &'static str = en: "Save CSV as…", ko: "CSV 다른 이름으로 저장…";
    }
}

fn kind_ko(kind: Kind) -> &'static str {
    match kind {
        Kind::Run => "런",
        Kind::Group => "그룹",
    }
}

/// Tiles as the language writes them, space-separated (`R5 J`, `빨5 조커`).
pub fn tiles(lang: Language, tiles: &[Tile]) -> String {
    match lang {
        Language::English => crate::tile::join_tiles(tiles),
        Language::Korean => {
            let words: Vec<String> = tiles.iter().map(|t| tile(lang, *t)).collect();
            words.join(" ")
        }
    }
}

/// A tile as the language writes it: `R12` and `J`, or `빨12` and `조커`.
///
/// # Example
/// ```
/// use rummikub_companion::i18n::{tile};
/// use rummikub_companion::lang::Language;
/// use rummikub_companion::tile::{Color, Tile};
/// let r12 = Tile::numbered(Color::Red, 12).unwrap();
/// assert_eq!(tile(Language::English, r12), "R12");
/// assert_eq!(tile(Language::Korean, r12), "빨12");
/// assert_eq!(tile(Language::Korean, Tile::JOKER), "조커");
/// ```
pub fn tile(lang: Language, tile: Tile) -> String {
    match (lang, tile.color(), tile.number()) {
        (Language::Korean, Some(color), Some(n)) => {
            let short = match color {
                Color::Red => "빨",
                Color::Blue => "파",
                Color::Black => "검",
                Color::Orange => "주",
            };
            format!("{short}{n}")
        }
        (Language::Korean, _, _) => "조커".to_owned(),
        (Language::English, _, _) => tile.to_string(),
    }
}

/// Where a notation problem is, in the language.
fn position(lang: Language, at: &Position) -> String {
    match (lang, at.tile) {
        (Language::English, _) => at.to_string(),
        (Language::Korean, Some(t)) => {
            format!("묶음 {}, 타일 {t}, {}번째 글자", at.set, at.column)
        }
        (Language::Korean, None) => format!("묶음 {}, {}번째 글자", at.set, at.column),
    }
}

/// Why a tile token could not be read, in the language.
pub fn tile_error(lang: Language, error: &TileError) -> String {
    if lang == Language::English {
        return error.to_string();
    }
    match error {
        TileError::Empty => "타일이 비어 있습니다".into(),
        TileError::UnknownColor(word, token) => {
            format!(
                "\"{token}\"의 {} 알 수 없는 색입니다 (빨강·파랑·검정·주황 또는 R·B·K·O)",
                josa(&format!("\"{word}\""), Josa::EunNeun)
            )
        }
        TileError::MissingNumber(token) => format!("\"{token}\"에 숫자가 없습니다"),
        TileError::MissingColor(token) => format!("\"{token}\"에 색이 없습니다"),
        TileError::NotANumber(part, token) => {
            format!(
                "\"{token}\"의 {} 숫자가 아닙니다",
                josa(&format!("\"{part}\""), Josa::EunNeun)
            )
        }
        TileError::NumberOutOfRange(n, token) => {
            format!(
                "\"{token}\"의 숫자 {} 1~13이 아닙니다",
                josa(&n.to_string(), Josa::EunNeun)
            )
        }
    }
}

/// Why a meld or rack text could not be read, in the language.
pub fn notation_error(lang: Language, error: &NotationError) -> String {
    if lang == Language::English {
        return error.to_string();
    }
    match error {
        NotationError::EmptyInput => "입력한 타일이 없습니다".into(),
        NotationError::BadTile { error, at } => {
            format!("{} ({})", tile_error(lang, error), position(lang, at))
        }
        NotationError::EmptySet { at } => {
            format!(
                "빈 묶음: 구분자 사이에 타일이 없습니다 ({})",
                position(lang, at)
            )
        }
        NotationError::StraySeparator { at } => {
            format!("쉼표 앞에 타일이 없습니다 ({})", position(lang, at))
        }
        NotationError::UnknownDeclaration { word, at } => format!(
            "{} 알 수 없는 선언입니다 (런: 또는 그룹:) ({})",
            josa(&format!("\"{word}:\""), Josa::EunNeun),
            position(lang, at)
        ),
        NotationError::NotARack { found, at } => format!(
            "받침대는 타일 목록 하나입니다: \"{found}\" 표시는 쓸 수 없습니다 ({})",
            position(lang, at)
        ),
    }
}

/// A colour's name in the language ("red", "빨강").
pub fn color_name(lang: Language, color: Color) -> &'static str {
    match lang {
        Language::English => color.name(),
        Language::Korean => match color {
            Color::Red => "빨강",
            Color::Blue => "파랑",
            Color::Black => "검정",
            Color::Orange => "주황",
        },
    }
}

/// A set kind's name in the language.
pub fn kind_name(lang: Language, kind: Kind) -> &'static str {
    let s = lang.strings();
    match kind {
        Kind::Run => s.meld.kind_run,
        Kind::Group => s.meld.kind_group,
    }
}

/// Why a set is invalid, in the language.
///
/// # Example
/// ```
/// use rummikub_companion::i18n::{set_problem};
/// use rummikub_companion::lang::Language;
/// use rummikub_companion::meld::SetProblem;
/// assert_eq!(set_problem(Language::Korean, &SetProblem::TooFewTiles), "묶음은 타일이 3개 이상이어야 합니다");
/// assert_eq!(set_problem(Language::English, &SetProblem::TooFewTiles), "a set needs at least 3 tiles");
/// ```
pub fn set_problem(lang: Language, problem: &SetProblem) -> String {
    if lang == Language::English {
        return problem.to_string();
    }
    match problem {
        SetProblem::TooFewTiles => "묶음은 타일이 3개 이상이어야 합니다".into(),
        SetProblem::NoNumberedTile => "묶음에는 숫자 타일이 하나 이상 있어야 합니다".into(),
        SetProblem::GroupTooLarge => "그룹은 최대 4개입니다".into(),
        SetProblem::RunTooLong => "런은 최대 13개입니다".into(),
        SetProblem::GroupRepeatsColor(a, b) => {
            let color = a.color().map_or("", |c| color_name(lang, c));
            format!(
                "그룹에 {color} 타일이 두 개 있습니다 ({}, {})",
                tile(lang, *a),
                tile(lang, *b)
            )
        }
        SetProblem::GroupMixesNumbers(a, b) => {
            format!(
                "그룹의 숫자가 다릅니다 ({}, {})",
                tile(lang, *a),
                tile(lang, *b)
            )
        }
        SetProblem::RunMixesColors(a, b) => {
            format!(
                "런의 색이 다릅니다 ({}, {})",
                tile(lang, *a),
                tile(lang, *b)
            )
        }
        SetProblem::RunAbove13(t) => format!("{} 다음에 14가 필요합니다", tile(lang, *t)),
        SetProblem::RunBelow1(t) => format!("{} 앞에 0이 필요합니다", tile(lang, *t)),
        SetProblem::ThirteenThenOne => "13 다음에 1을 붙일 수 없습니다".into(),
        SetProblem::NotConsecutive {
            found,
            after,
            expected,
        } => {
            let need = match (found.color(), u8::try_from(*expected)) {
                (Some(c), Ok(n)) => {
                    Tile::numbered(c, n).map_or(expected.to_string(), |t| tile(lang, t))
                }
                _ => expected.to_string(),
            };
            format!(
                "{} {} 다음에 올 수 없습니다: 그 자리에는 {} 필요합니다",
                josa(&tile(lang, *found), Josa::EunNeun),
                tile(lang, *after),
                josa(&need, Josa::IGa)
            )
        }
        SetProblem::Neither { run, group } => format!(
            "런도 그룹도 아닙니다: {}; {}",
            set_problem(lang, run),
            set_problem(lang, group)
        ),
    }
}

/// Why a meld is not a valid initial meld, in the language.
pub fn meld_problem(lang: Language, problem: &MeldProblem) -> String {
    if lang == Language::English {
        return problem.to_string();
    }
    match problem {
        MeldProblem::Set(i, p) => format!("묶음 {}: {}", i + 1, set_problem(lang, p)),
        MeldProblem::TooManyCopies {
            tile,
            count,
            tile_set,
        } => {
            let set_name = match tile_set {
                crate::tile::TileSet::Standard => "기본 세트",
                crate::tile::TileSet::Xp => "XP 세트",
            };
            let what = self::tile(lang, *tile);
            format!(
                "{} {count}개지만 {set_name}에는 {}개뿐입니다",
                josa(&what, Josa::IGa),
                tile_set.copies_of(*tile)
            )
        }
        MeldProblem::JokersNotAllowed => "등록에는 조커를 쓸 수 없습니다 (집 규칙)".into(),
        MeldProblem::BelowThreshold { total, threshold } => {
            format!("합계 {total}점은 {threshold}점보다 적습니다")
        }
    }
}

/// A timer command that could not be carried out, in the language.
pub fn timer_error(lang: Language, error: &TimerError) -> String {
    if lang == Language::English {
        return error.to_string();
    }
    match error {
        TimerError::NotStarted => "타이머가 시작되지 않았습니다".into(),
        TimerError::AlreadyStarted => "이미 턴이 진행 중입니다".into(),
        TimerError::NotRunning => "시계가 멈춰 있습니다".into(),
        TimerError::NotPaused => "시계가 일시정지 상태가 아닙니다".into(),
        TimerError::TurnInProgress => "게임이 진행 중입니다 (먼저 초기화하세요)".into(),
        TimerError::ClockRunning => "플레이어를 바꾸려면 시계를 일시정지하세요".into(),
        TimerError::CurrentPlayerRemoved(name) => {
            format!("지금은 {name}의 차례입니다: 턴을 마친 뒤 삭제하세요")
        }
        TimerError::PlayerCount(n) => format!("플레이어 {n}명: 2~6명이어야 합니다"),
        TimerError::EmptyName(seat) => format!("{}번 플레이어의 이름이 비어 있습니다", seat + 1),
        TimerError::DuplicateName(name) => format!("\"{name}\" 이름이 두 번 있습니다"),
        TimerError::NoSuchPlayer(seat) => format!("{}번 플레이어가 없습니다", seat + 1),
    }
}

/// Why a seat list is not a table, in the language.
pub fn seat_problem(lang: Language, problem: &SeatProblem) -> String {
    match (lang, problem) {
        (Language::English, SeatProblem::Count(n)) => format!("{n} players: a table has 2 to 6"),
        (Language::English, SeatProblem::Empty(seat)) => format!("player {} has no name", seat + 1),
        (Language::English, SeatProblem::Duplicate(name)) => {
            format!("two players are called \"{name}\"")
        }
        (Language::Korean, SeatProblem::Count(n)) => format!("플레이어 {n}명: 2~6명이어야 합니다"),
        (Language::Korean, SeatProblem::Empty(seat)) => {
            format!("{}번 플레이어의 이름이 비어 있습니다", seat + 1)
        }
        (Language::Korean, SeatProblem::Duplicate(name)) => {
            format!("\"{name}\" 이름이 두 번 있습니다")
        }
    }
}

/// What changes from one rule set to another, one line per value: "Turn length: 60s → 20s"
/// (the settings' preset hover and the undo offer of a rule change).
pub fn rule_changes(lang: Language, from: &RuleSet, to: &RuleSet) -> Vec<String> {
    use crate::rules::ClockMode;
    use crate::tile::TileSet;
    let s = lang.strings();
    let secs = |v: u32| {
        if v == 0 {
            s.settings.off.to_owned()
        } else {
            format!("{v}{}", s.settings.seconds)
        }
    };
    let not_melded =
        |v: Option<u32>| v.map_or(s.settings.not_melded_rack.to_owned(), |v| v.to_string());
    let rule = |r: FinalRule| match r {
        FinalRule::Total => s.settings.final_total,
        FinalRule::Wins => s.settings.final_wins,
    };
    let clock = |c: ClockMode| match c {
        ClockMode::PerTurn => s.chess.per_turn,
        ClockMode::ChessClock => s.chess.chess_clock,
    };
    let set = |t: TileSet| match t {
        TileSet::Standard => s.settings.tile_set_standard,
        TileSet::Xp => s.settings.tile_set_xp,
    };
    let yes_no = |b: bool| {
        match (lang, b) {
            (Language::English, true) => "yes",
            (Language::English, false) => "no",
            (Language::Korean, true) => "예",
            (Language::Korean, false) => "아니요",
        }
        .to_owned()
    };
    let mut lines = Vec::new();
    let mut line = |label: &str, a: String, b: String| {
        if a != b {
            lines.push(format!("{label}: {a} → {b}"));
        }
    };
    line(
        s.chess.clock_mode,
        clock(from.clock_mode).to_owned(),
        clock(to.clock_mode).to_owned(),
    );
    line(
        s.settings.turn_length,
        secs(from.turn_seconds),
        secs(to.turn_seconds),
    );
    line(
        s.chess.time_bank,
        format!("{}{}", from.bank_minutes, s.chess.minutes),
        format!("{}{}", to.bank_minutes, s.chess.minutes),
    );
    line(
        s.chess.increment,
        secs(from.increment_seconds),
        secs(to.increment_seconds),
    );
    line(
        s.settings.warning_time,
        secs(from.warning_seconds),
        secs(to.warning_seconds),
    );
    line(
        s.settings.tick_time,
        secs(from.tick_seconds),
        secs(to.tick_seconds),
    );
    line(
        s.settings.threshold,
        from.meld_threshold.to_string(),
        to.meld_threshold.to_string(),
    );
    line(
        s.settings.jokers_in_meld,
        yes_no(from.jokers_in_initial_meld),
        yes_no(to.jokers_in_initial_meld),
    );
    line(
        s.settings.joker_penalty,
        from.joker_penalty.to_string(),
        to.joker_penalty.to_string(),
    );
    line(
        s.settings.not_melded,
        not_melded(from.not_melded_value),
        not_melded(to.not_melded_value),
    );
    line(
        s.settings.final_rule,
        rule(from.final_rule).to_owned(),
        rule(to.final_rule).to_owned(),
    );
    line(
        s.settings.tile_set,
        set(from.tile_set).to_owned(),
        set(to.tile_set).to_owned(),
    );
    lines
}

/// Why a typed remaining value could not be read, in the language.
pub fn remaining_error(lang: Language, error: &RemainingError) -> String {
    if lang == Language::English {
        return error.to_string();
    }
    match error {
        RemainingError::Empty => "남은 점수가 없습니다 (다 냈으면 0)".into(),
        RemainingError::Negative(t) => {
            format!(
                "{} 음수입니다: 점수가 아니라 받침대에 남은 값을 입력하세요 (0 = 다 냄)",
                josa(&format!("\"{t}\""), Josa::EunNeun)
            )
        }
        RemainingError::NotANumber(t) => {
            format!(
                "{} 정수가 아닙니다",
                josa(&format!("\"{t}\""), Josa::EunNeun)
            )
        }
        RemainingError::TooLarge(t) => {
            format!("{} 너무 큽니다 (최대 9999)", josa(t, Josa::EunNeun))
        }
        RemainingError::BadTiles { text, problem } => {
            // Inside one score cell the set/column position means little: name the tile only.
            let problem = match problem {
                NotationError::BadTile { error, .. } => tile_error(lang, error),
                NotationError::NotARack { found, .. } => {
                    format!("\"{found}\" 표시는 받침대에 쓸 수 없습니다")
                }
                other => notation_error(lang, other),
            };
            format!(
                "{} 숫자도 타일도 아닙니다: {problem}",
                josa(&format!("\"{text}\""), Josa::EunNeun)
            )
        }
        RemainingError::TooManyTiles(n) => {
            format!("타일 {n}개는 세트 전체보다 많습니다 (최대 160)")
        }
    }
}

/// Why a game or sheet change was refused, in the language.
pub fn score_error(lang: Language, error: &ScoreError) -> String {
    if lang == Language::English {
        return error.to_string();
    }
    match error {
        ScoreError::PlayerCount(n) => format!("점수표는 2~6명이어야 합니다 ({n}명)"),
        ScoreError::EmptyName(seat) => format!("{seat}번 플레이어의 이름이 비어 있습니다"),
        ScoreError::DuplicateName(name) => format!("\"{name}\" 이름이 두 번 있습니다"),
        ScoreError::HandCount { expected, found } => {
            format!("플레이어 {expected}명 모두의 남은 점수가 필요합니다 ({found}명 입력)")
        }
        ScoreError::ValueTooLarge { player, value } => {
            format!(
                "{player}의 남은 점수 {} 너무 큽니다 (최대 9999)",
                josa(&value.to_string(), Josa::EunNeun)
            )
        }
        ScoreError::TooManyTiles { player, count } => {
            format!("{player}의 타일 {count}개는 세트 전체보다 많습니다 (최대 160)")
        }
        ScoreError::TooManyCopies { player, excess } => format!(
            "{player}의 받침대: {}",
            meld_problem(lang, &MeldProblem::from(*excess))
        ),
        ScoreError::TooManyCopiesInGame { excess } => format!(
            "받침대를 모두 합치면: {}",
            meld_problem(lang, &MeldProblem::from(*excess))
        ),
        ScoreError::TwoWentOut { first, second } => {
            format!(
                "{} {second} 모두 0입니다: 한 게임에 한 명만 다 낼 수 있습니다",
                josa(&first.to_string(), Josa::GwaWa)
            )
        }
        ScoreError::WentOutNotMelded(p) => format!(
            "{} 다 냈으므로(0) 미등록일 수 없습니다",
            josa(&p.to_string(), Josa::EunNeun)
        ),
        ScoreError::NoSuchPlayer(seat) => format!("{}번 자리는 이 점수표에 없습니다", seat + 1),
        ScoreError::WinnerDidNotGoOut { named, went_out } => {
            format!(
                "{} 우승자로 지정됐지만 다 낸 사람은 {went_out}입니다",
                josa(&named.to_string(), Josa::IGa)
            )
        }
        ScoreError::WinnerNotLowest {
            named,
            named_value,
            lowest,
            lowest_value,
        } => format!(
            "우승자로 지정된 {named}({named_value})보다 {lowest}({lowest_value})의 남은 값이 더 적습니다"
        ),
        ScoreError::Tie { tied, value } => {
            let names: Vec<String> = tied.iter().map(ToString::to_string).collect();
            format!(
                "{}의 남은 점수가 {} 같습니다: 우승자를 고르세요",
                names.join(", "),
                josa(&value.to_string(), Josa::EuroRo)
            )
        }
        ScoreError::InGame { number, source } => {
            format!("{number}번 게임: {}", score_error(lang, source))
        }
        ScoreError::NoSuchGame(n) => format!("{n}번 게임이 없습니다"),
        ScoreError::ZeroRounds => "라운드는 1 이상이어야 합니다 (또는 정하지 않음)".into(),
        ScoreError::TargetNotPositive(t) => {
            format!("목표 점수는 1 이상이어야 합니다 (또는 정하지 않음): {t}")
        }
    }
}

/// A rule value out of range, in the language.
pub fn rules_error(lang: Language, error: &RulesError) -> String {
    if lang == Language::English {
        return error.to_string();
    }
    match error {
        RulesError::TurnLength(n) => format!("턴 시간 {n}초는 10~300초 범위 밖입니다"),
        RulesError::Warning(n) => {
            format!("경고 시간 {n}초는 0~30초이고 턴 시간보다 짧아야 합니다")
        }
        RulesError::Ticks(n) => {
            format!("째깍 소리 시간 {n}초는 0~30초이고 턴 시간보다 짧아야 합니다")
        }
        RulesError::Bank(n) => format!("시간 은행 {n}분은 1~120분 범위 밖입니다"),
        RulesError::Increment(n) => format!("턴마다 더하는 시간 {n}초는 0~60초 범위 밖입니다"),
    }
}

/// Why a rack cannot be solved, in the language.
pub fn solve_error(lang: Language, error: &SolveError) -> String {
    match *error {
        SolveError::TooManyCopies {
            tile,
            count,
            tile_set,
        } => meld_problem(
            lang,
            &MeldProblem::TooManyCopies {
                tile,
                count,
                tile_set,
            },
        ),
    }
}

/// Why there is no sound, in the language. The Korean text leaves out the audio system's own
/// (English) detail: the window shows [`SoundError`]'s `Display` as the tooltip.
pub fn sound_error(lang: Language, error: &SoundError) -> String {
    if lang == Language::English {
        return error.to_string();
    }
    match error {
        SoundError::NotBuilt => "소리 없음: 이 빌드에는 소리 기능이 없습니다".into(),
        SoundError::NoOutput(_) => "소리 없음: 소리를 낼 장치를 열 수 없습니다".into(),
        SoundError::Failed(_) => "소리 없음: 소리 시스템을 시작하지 못했습니다".into(),
        SoundError::Decode { .. } => "알림음 하나를 읽을 수 없습니다 (빌드 문제)".into(),
    }
}

/// A system error (a file that could not be read or written, a port that could not be
/// opened) in the language: the system's own text in English, the error's kind in Korean words
/// (never the system's English text inside a Korean message). Every message about a failed
/// read or write words its cause with this one function (`store_error`, the CLI's file
/// errors, the window's notices).
///
/// # Example
/// ```
/// use rummikub_companion::{i18n::io_error, lang::Language};
/// let full = std::io::Error::from_raw_os_error(28); // ENOSPC
/// assert_eq!(io_error(Language::Korean, &full), "디스크 공간 부족");
/// assert!(io_error(Language::English, &full).contains("No space left on device"));
/// ```
pub fn io_error(lang: Language, error: &io::Error) -> String {
    match lang {
        Language::English => error.to_string(),
        Language::Korean => match (io_kind_ko(error.kind()), error.raw_os_error()) {
            ("시스템 오류", Some(code)) => format!("시스템 오류 (코드 {code})"),
            (words, _) => words.to_owned(),
        },
    }
}

/// Why the screen cannot be kept awake, from the platform's own (D-Bus) message: the usual
/// causes in plain words, without the D-Bus error text (no screen-saver service on this
/// desktop, no session bus, refused, no answer); anything else names the system's text after
/// the words.
///
/// # Example
/// ```
/// use rummikub_companion::{i18n::keep_awake_detail, lang::Language};
/// let dbus = "system: org.freedesktop.DBus.Error.ServiceUnknown: The name \
///             org.freedesktop.ScreenSaver was not provided by any .service files";
/// let ko = keep_awake_detail(Language::Korean, dbus);
/// assert!(!ko.contains("org.freedesktop"), "{ko}");
/// ```
pub fn keep_awake_detail(lang: Language, raw: &str) -> String {
    let has = |needle: &str| raw.contains(needle);
    let known = if has("ServiceUnknown") || has("was not provided by any") {
        Some(Text {
            en: "This desktop has no screen-saver service to ask (nothing answers for \
                 org.freedesktop.ScreenSaver).",
            ko: "이 데스크톱에는 화면을 켜 두도록 부탁할 화면 보호기 서비스가 없습니다.",
        })
    } else if has("DBUS_SESSION_BUS_ADDRESS")
        || has("Failed to connect to socket")
        || has("NoServer")
        || has("autolaunch")
    {
        Some(Text {
            en: "There is no desktop session (D-Bus session bus) to ask.",
            ko: "물어볼 데스크톱 세션(D-Bus 세션 버스)이 없습니다.",
        })
    } else if has("AccessDenied") || has("NotSupported") {
        Some(Text {
            en: "The desktop does not let this program keep the screen on.",
            ko: "데스크톱이 이 프로그램에 화면을 켜 두는 것을 허락하지 않습니다.",
        })
    } else if has("NoReply") || has("Timeout") || has("TimedOut") {
        Some(Text {
            en: "The desktop's screen saver did not answer.",
            ko: "데스크톱의 화면 보호기가 답하지 않았습니다.",
        })
    } else {
        None
    };
    match known {
        Some(text) => text.get(lang).to_owned(),
        None => (lang.strings().table_view.no_keep_awake_detail)(raw),
    }
}

/// A system error kind in Korean words (the common ones; others are "시스템 오류").
pub(crate) fn io_kind_ko(kind: io::ErrorKind) -> &'static str {
    match kind {
        io::ErrorKind::NotFound => "찾을 수 없음",
        io::ErrorKind::PermissionDenied => "권한 없음",
        io::ErrorKind::AlreadyExists => "이미 있음",
        io::ErrorKind::ReadOnlyFilesystem => "읽기 전용 디스크",
        io::ErrorKind::StorageFull => "디스크 공간 부족",
        io::ErrorKind::QuotaExceeded => "할당량 초과",
        io::ErrorKind::NotADirectory => "폴더가 아님",
        io::ErrorKind::IsADirectory => "파일이 아니라 폴더임",
        io::ErrorKind::InvalidData => "잘못된 데이터",
        io::ErrorKind::Interrupted => "중단됨",
        io::ErrorKind::ResourceBusy => "사용 중",
        io::ErrorKind::OutOfMemory => "메모리 부족",
        io::ErrorKind::AddrInUse => "다른 프로그램이 이미 쓰는 포트",
        io::ErrorKind::AddrNotAvailable => "이 컴퓨터에 없는 주소",
        io::ErrorKind::TimedOut => "시간 초과",
        io::ErrorKind::WouldBlock => "잠시 쓸 수 없음",
        io::ErrorKind::BrokenPipe => "연결이 끊김",
        io::ErrorKind::InvalidInput | io::ErrorKind::InvalidFilename => "잘못된 이름",
        io::ErrorKind::FileTooLarge => "파일이 너무 큼",
        io::ErrorKind::DirectoryNotEmpty => "폴더가 비어 있지 않음",
        io::ErrorKind::CrossesDevices => "다른 디스크로는 옮길 수 없음",
        io::ErrorKind::Unsupported => "이 시스템에서 지원하지 않음",
        _ => "시스템 오류",
    }
}

/// What is wrong with a data file, in the language: a predicate in English ("cannot be
/// read"), a sentence about "the file" in Korean; with the file's name, [`file_and_problem`].
pub fn file_problem(lang: Language, problem: &FileProblem) -> String {
    if lang == Language::English {
        return problem.to_string();
    }
    file_and_problem(lang, "파일", problem)
}

/// A file's name and what is wrong with it, in the language: "settings.json을 읽을 수
/// 없습니다" (the particle the file's name takes).
pub fn file_and_problem(lang: Language, file: &str, problem: &FileProblem) -> String {
    if lang == Language::English {
        return format!("{file} {problem}");
    }
    let (particle, rest) = match problem {
        FileProblem::Unreadable(_) => (Some(Josa::EulReul), " 읽을 수 없습니다".to_owned()),
        FileProblem::Empty => (Some(Josa::IGa), " 비어 있습니다".to_owned()),
        FileProblem::NotJson(_) => (Some(Josa::IGa), " 잘렸거나 저장 형식이 아닙니다".to_owned()),
        FileProblem::NoVersion => (None, "에 형식 번호가 없습니다".to_owned()),
        FileProblem::Newer(v) => (
            Some(Josa::EunNeun),
            format!(
                " 이 앱의 새 버전이 만든 파일입니다 (형식 {v}, 이 버전은 {FORMAT_VERSION}까지 읽음)"
            ),
        ),
        FileProblem::Invalid(_) => (None, "에 올바른 데이터가 없습니다".to_owned()),
        FileProblem::NotAFile => (Some(Josa::EunNeun), " 보통 파일이 아닙니다".to_owned()),
    };
    match particle {
        Some(particle) => format!("{}{rest}", josa(file, particle)),
        None => format!("{file}{rest}"),
    }
}

/// A load or save notice (a file set aside, recovered, …), in the language. File names are
/// the user's own and stay as they are.
pub fn notice(lang: Language, notice: &Notice) -> String {
    if lang == Language::English {
        return notice.to_string();
    }
    match notice {
        Notice::SetAside {
            file,
            moved_to,
            problem: problem @ FileProblem::Newer(_),
        } => format!(
            "{}: {} 따로 보관했습니다",
            file_and_problem(lang, &file.display().to_string(), problem),
            josa(&moved_to.display().to_string(), Josa::EuroRo)
        ),
        Notice::SetAside {
            file,
            moved_to,
            problem,
        } => format!(
            "{}: {} 보관했습니다",
            file_and_problem(lang, &file.display().to_string(), problem),
            josa(&moved_to.display().to_string(), Josa::EuroRo)
        ),
        Notice::LeftInPlace { file, problem, .. } => format!(
            "{}: 이름을 바꿀 수도 없어 그대로 두었습니다",
            file_and_problem(lang, &file.display().to_string(), problem)
        ),
        Notice::Recovered { file, backup } => format!(
            "{} 백업 {}에서 되살렸습니다",
            josa(&file.display().to_string(), Josa::EulReul),
            backup.display()
        ),
    }
}

/// Why nothing can be saved, in the language.
pub fn read_only_reason(lang: Language, reason: &ReadOnlyReason) -> String {
    if lang == Language::English {
        return reason.to_string();
    }
    match reason {
        ReadOnlyReason::NotWritable { dir, kind } => format!(
            "데이터 폴더 {}에 쓸 수 없습니다 ({})",
            dir.display(),
            io_kind_ko(*kind)
        ),
        ReadOnlyReason::InUse { dir } => {
            format!(
                "데이터 폴더 {} 다른 창이 쓰고 있습니다",
                josa(&dir.display().to_string(), Josa::EulReul)
            )
        }
        ReadOnlyReason::Reading { dir } => {
            format!(
                "데이터 폴더 {} 읽기만 하려고 열었습니다",
                josa(&dir.display().to_string(), Josa::EulReul)
            )
        }
    }
}

/// Why the store could not do what was asked, in the language.
///
/// # Example
/// ```
/// use rummikub_companion::i18n::{store_error};
/// use rummikub_companion::lang::Language;
/// use rummikub_companion::store::StoreError;
/// let e = StoreError::BadId("../x".into());
/// assert!(store_error(Language::English, &e).contains("is not a sheet name"));
/// assert!(store_error(Language::Korean, &e).contains("점수표 이름이 아닙니다"));
/// ```
pub fn store_error(lang: Language, error: &StoreError) -> String {
    if lang == Language::English {
        return error.to_string();
    }
    match error {
        StoreError::NoDataFolder => {
            format!("데이터 폴더가 없습니다: 홈 폴더를 찾지 못했습니다 ({DATA_ENV}로 정하세요)")
        }
        StoreError::Folder { dir, source } => format!(
            "데이터 폴더 {} 쓸 수 없습니다: {}",
            josa(&dir.display().to_string(), Josa::EulReul),
            io_error(lang, source)
        ),
        StoreError::NotAFolder { dir } => format!(
            "데이터 폴더 {} 쓸 수 없습니다: 폴더가 아니라 파일입니다",
            josa(&dir.display().to_string(), Josa::EulReul)
        ),
        StoreError::ReadOnly(reason) => {
            format!("저장하지 않음: {}", read_only_reason(lang, reason))
        }
        StoreError::ChangedOnDisk { file } => format!(
            "저장하지 않음: {} 여기서 연 뒤 다른 창이나 프로그램이 바꿨습니다. 그대로 두었습니다",
            josa(&file.display().to_string(), Josa::EulReul)
        ),
        StoreError::Write { file, source } => format!(
            "{} 저장하지 못했습니다: {}",
            josa(&file.display().to_string(), Josa::EulReul),
            io_error(lang, source)
        ),
        StoreError::Encode { file, .. } => {
            format!("{}에 쓸 내용을 만들지 못했습니다", file.display())
        }
        StoreError::BadId(id) => {
            format!(
                "{} 점수표 이름이 아닙니다 (글자, 숫자, -, _만 씁니다)",
                josa(&format!("\"{id}\""), Josa::EunNeun)
            )
        }
        StoreError::NotFound { file } => format!(
            "저장된 점수표 {} 없습니다",
            josa(&file.display().to_string(), Josa::IGa)
        ),
        StoreError::Newer { file, version } => format!(
            "{} 더 새 버전의 앱이 쓴 파일입니다 (형식 {version}, 이 버전은 {FORMAT_VERSION}까지 읽습니다): 그대로 두었습니다. 새 버전을 쓰세요",
            josa(&file.display().to_string(), Josa::EunNeun)
        ),
        StoreError::Unrecoverable { file, notices } => {
            let notices: Vec<String> = notices.iter().map(|n| notice(lang, n)).collect();
            format!(
                "{}도 그 백업도 읽을 수 없습니다: {}",
                file.display(),
                notices.join("; ")
            )
        }
    }
}

/// "Not melded" when it counts the rack, in the rules line.
const NOT_MELDED_RACK: Text = Text {
    en: "not melded counts the rack",
    ko: "미등록은 받침대 합계",
};

/// The wins rule with its tie-break, in the rules line.
const MOST_WINS_THEN_TOTAL: Text = Text {
    en: "most wins, then total",
    ko: "최다 승, 같으면 점수 합계",
};

/// The rules a sheet is scored under, in one line: "Korean manual · joker 30 · highest total ·
/// not melded counts the rack". The one rules line of the program: the window's sheet, its CSV
/// export (which [`read_rules_line`] reads back) and the `score` command all show this one.
/// It names every rule that changes points — the joker's value, what a player who never
/// melded counts, the final rule with its tie-break — and the preset those rules are.
pub fn rules_line(lang: Language, rules: &RuleSet) -> String {
    let s = lang.strings();
    let preset = match scoring_preset(rules) {
        Some(Preset::Korean) => s.settings.preset_korean,
        Some(Preset::English) => s.settings.preset_english,
        Some(Preset::Tournament) => s.settings.preset_tournament,
        None => s.settings.preset_custom,
    };
    let rule = match rules.final_rule {
        FinalRule::Total => s.sheet.rule_total_short,
        FinalRule::Wins => MOST_WINS_THEN_TOTAL.get(lang),
    };
    let not_melded = match rules.not_melded_value {
        Some(v) => (s.results.not_melded_counts)(v),
        None => NOT_MELDED_RACK.get(lang).to_owned(),
    };
    format!(
        "{preset} · {} · {rule} · {not_melded}",
        (s.results.joker_counts)(rules.joker_penalty)
    )
}

/// The preset whose scoring `rules` are (timer values and the tile set do not score).
fn scoring_preset(rules: &RuleSet) -> Option<Preset> {
    Preset::ALL.into_iter().find(|p| {
        let r = p.rules();
        (r.joker_penalty, r.not_melded_value, r.final_rule)
            == (
                rules.joker_penalty,
                rules.not_melded_value,
                rules.final_rule,
            )
    })
}

/// The rules a [`rules_line`] names, read back from its text in either language — also the
/// shorter line earlier versions wrote ("Korean manual · joker 30 · most wins", the rack
/// implied): the named preset's rules with the line's joker value, not-melded value and final
/// rule. `None` when the text is not such a line (every part must be read, none twice).
///
/// # Example
/// ```
/// use rummikub_companion::i18n::{read_rules_line, rules_line};
/// use rummikub_companion::lang::Language;
/// use rummikub_companion::rules::Preset;
/// let rules = Preset::Tournament.rules();
/// for lang in Language::ALL {
///     assert_eq!(read_rules_line(&rules_line(lang, &rules)), Some(rules.clone()));
/// }
/// assert_eq!(read_rules_line("house rules"), None);
/// ```
pub fn read_rules_line(text: &str) -> Option<RuleSet> {
    Language::ALL
        .into_iter()
        .find_map(|lang| read_rules_line_in(lang, text.trim()))
}

fn read_rules_line_in(lang: Language, text: &str) -> Option<RuleSet> {
    let s = lang.strings();
    let mut parts = text.split(" · ").map(str::trim);
    let preset = match parts.next()? {
        p if p == s.settings.preset_korean => Some(Preset::Korean),
        p if p == s.settings.preset_english => Some(Preset::English),
        p if p == s.settings.preset_tournament => Some(Preset::Tournament),
        p if p == s.settings.preset_custom => None,
        _ => return None,
    };
    // A number in a part, when the part is exactly `words(number)`.
    let number_in = |part: &str, words: fn(u32) -> String| {
        let digits: String = part.chars().filter(char::is_ascii_digit).collect();
        digits.parse().ok().filter(|&n| words(n) == part)
    };
    let (mut joker, mut not_melded, mut rule) = (None, None, None);
    for part in parts {
        let slot_was_empty = if let Some(n) = number_in(part, s.results.joker_counts) {
            joker.replace(n).is_none()
        } else if let Some(n) = number_in(part, s.results.not_melded_counts) {
            not_melded.replace(Some(n)).is_none()
        } else if part == NOT_MELDED_RACK.get(lang) {
            not_melded.replace(None).is_none()
        } else if part == s.sheet.rule_total_short {
            rule.replace(FinalRule::Total).is_none()
        } else if part == MOST_WINS_THEN_TOTAL.get(lang) || part == s.sheet.rule_wins_short {
            rule.replace(FinalRule::Wins).is_none()
        } else {
            return None;
        };
        if !slot_was_empty {
            return None;
        }
    }
    let mut rules = preset.unwrap_or_default().rules();
    rules.joker_penalty = joker?;
    rules.final_rule = rule?;
    rules.not_melded_value = not_melded.unwrap_or(None);
    Some(rules)
}

/// A Korean particle whose form depends on the sound before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Josa {
    /// 이 / 가 (subject).
    IGa,
    /// 은 / 는 (topic).
    EunNeun,
    /// 을 / 를 (object).
    EulReul,
    /// 과 / 와 (and).
    GwaWa,
    /// 으로 / 로 (as, to; 로 after ㄹ too).
    EuroRo,
}

/// How `word` ends when read aloud: (ends in a consonant (받침), that consonant is ㄹ); `None`
/// when it cannot be told (then both forms are written, "이(가)"). Digits are read the
/// Sino-Korean way (14 사, 10 십), Latin letters by their Korean names (L 엘, R 알).
fn final_sound(word: &str) -> Option<(bool, bool)> {
    let last = word
        .chars()
        .rev()
        .find(|c| c.is_alphanumeric() || ('\u{AC00}'..='\u{D7A3}').contains(c))?;
    match last {
        '\u{AC00}'..='\u{D7A3}' => {
            let jong = (last as u32 - 0xAC00) % 28;
            Some((jong != 0, jong == 8))
        }
        '0'..='9' => {
            // Sino-Korean reading of the last non-zero digit, or of the power of ten.
            let digits: Vec<char> = word.chars().filter(char::is_ascii_digit).collect();
            let zeros = digits.iter().rev().take_while(|&&d| d == '0').count();
            if zeros > 0 && zeros < digits.len() {
                // 십 (ㅂ), 백 (ㄱ), 천 (ㄴ), 만 (ㄴ)
                return Some((true, false));
            }
            match last {
                '0' | '1' | '3' | '6' | '7' | '8' => Some((true, matches!(last, '1' | '7' | '8'))),
                _ => Some((false, false)),
            }
        }
        // Latin letters as Koreans read them: L 엘, M 엠, N 엔, R 알.
        c if c.is_ascii_alphabetic() => match c.to_ascii_uppercase() {
            'L' | 'R' => Some((true, true)),
            'M' | 'N' => Some((true, false)),
            _ => Some((false, false)),
        },
        _ => None,
    }
}

/// `word` followed by the particle in the form its last sound takes: "조커가", "런으로",
/// "민수는", "R5는"; both forms ("이(가)") when the end cannot be read.
///
/// # Example
/// ```
/// use rummikub_companion::i18n::{josa, Josa};
/// assert_eq!(josa("조커", Josa::IGa), "조커가");
/// assert_eq!(josa("런", Josa::EuroRo), "런으로");
/// assert_eq!(josa("빨7", Josa::IGa), "빨7이");
/// assert_eq!(josa("\"abc\"", Josa::EunNeun), "\"abc\"는");
/// ```
pub fn josa(word: &str, particle: Josa) -> String {
    let (with, without, both) = match particle {
        Josa::IGa => ("이", "가", "이(가)"),
        Josa::EunNeun => ("은", "는", "은(는)"),
        Josa::EulReul => ("을", "를", "을(를)"),
        Josa::GwaWa => ("과", "와", "과(와)"),
        Josa::EuroRo => ("으로", "로", "(으)로"),
    };
    let form = match final_sound(word) {
        None => both,
        Some((_, true)) if particle == Josa::EuroRo => without,
        Some((true, _)) => with,
        Some((false, _)) => without,
    };
    format!("{word}{form}")
}

/// Names joined the Korean way: "A", "A, B", "A, B, C".
fn list_ko<T: std::fmt::Display>(items: &[T]) -> String {
    let words: Vec<String> = items.iter().map(ToString::to_string).collect();
    words.join(", ")
}

/// Why a cell could not be read, in Korean.
fn cell_error(error: &CellError) -> String {
    match error {
        CellError::MarksOnly(text) => {
            format!("\"{text}\"에는 표시만 있고 그 앞에 남은 점수가 없습니다")
        }
        CellError::Remaining(e) => remaining_error(Language::Korean, e),
        CellError::NotWritten { text, expected } => {
            let expected = match expected {
                Written::Points => "부호 있는 점수(+24, -5)",
                Written::Wins => "승 수(2, 2 승)",
                Written::Rank => "순위(1, 1 위)",
            };
            format!(
                "{} {expected}가 아닙니다",
                josa(&format!("\"{text}\""), Josa::EunNeun)
            )
        }
    }
}

/// Why a CSV sheet could not be read or scored, in the language.
pub fn table_error(lang: Language, error: &TableError) -> String {
    if lang == Language::English {
        return error.to_string();
    }
    let columns = match error.columns.as_slice() {
        [] => String::new(),
        [one] => format!("{one}열"),
        more => format!("{}열", list_ko(more)),
    };
    let place = match (error.row, columns.is_empty()) {
        (Some(r), true) => format!("{r}행: "),
        (Some(r), false) => format!("{r}행 {columns}: "),
        (None, false) => format!("{columns}: "),
        (None, true) => String::new(),
    };
    let problem = match &error.problem {
        TableProblem::Csv(_) => "CSV로 읽을 수 없습니다".to_owned(),
        TableProblem::NoHeader => {
            "파일이 비어 있습니다: 첫 줄은 머리글(이름표 칸, 플레이어 이름들)이어야 합니다"
                .to_owned()
        }
        TableProblem::Header(e) => format!("머리글: {}", score_error(lang, e)),
        TableProblem::ColumnCount { found, expected } => {
            format!("칸이 {found}개입니다. {expected}개여야 합니다 (이름표와 플레이어마다 하나)")
        }
        TableProblem::Cell { player, problem } => format!("{player}: {}", cell_error(problem)),
        TableProblem::TwoWinnerMarks { first, second } => format!(
            "{} {second} 모두 \"!\"로 우승 표시됐습니다: 한 게임의 우승자는 한 명입니다",
            josa(first, Josa::GwaWa)
        ),
        TableProblem::Game(e) => match e.as_ref() {
            ScoreError::Tie { tied, value } => format!(
                "{}의 남은 점수가 {} 같습니다: 우승자에 \"!\"를 붙이세요",
                list_ko(tied),
                josa(&value.to_string(), Josa::EuroRo)
            ),
            other => score_error(lang, other),
        },
        TableProblem::DuplicateRow(label) => format!("\"{label}\" 행이 두 번 있습니다"),
        TableProblem::Delimiter(c) => {
            let name = if *c == '\t' {
                "탭".to_owned()
            } else {
                format!("'{c}'")
            };
            format!("파일이 {name} 문자로 나뉘어 있습니다. 쉼표(',')여야 합니다")
        }
        TableProblem::SummaryRow { label, .. } => format!(
            "{} 게임이 아니라 요약 행입니다: 이 명령은 남은 값을 읽어 합계와 순위를 \
             직접 계산합니다. 합계가 적힌 점수표를 검사하려면 audit 명령을 쓰세요",
            josa(&format!("\"{label}\""), Josa::EunNeun)
        ),
    };
    format!("{place}{problem}")
}

/// One slip found on a hand-kept sheet, in the language.
pub fn finding(lang: Language, finding: &Finding) -> String {
    if lang == Language::English {
        return finding.to_string();
    }
    let signed = crate::score::table::signed;
    match finding {
        Finding::NotZeroSum { line, label, sum } => {
            format!(
                "{line}행 ({label}): 점수 합이 0이 아니라 {}입니다",
                signed(*sum)
            )
        }
        Finding::SeveralWinners {
            line,
            label,
            players,
        } => format!(
            "{line}행 ({label}): {} 모두 점수가 양수입니다: 한 게임의 우승자는 한 명입니다",
            list_ko(players)
        ),
        Finding::WrongTotal {
            player,
            written,
            correct,
        } => {
            let diff = written - correct;
            let how = if diff > 0 {
                format!("{diff} 많음")
            } else {
                format!("{} 적음", -diff)
            };
            format!(
                "{player}의 합계: {}(이)라고 적혔지만 {}이어야 합니다 ({how})",
                signed(*written),
                signed(*correct)
            )
        }
        Finding::WrongWins {
            player,
            written,
            correct,
        } => format!("{player}의 승 수: {written}(이)라고 적혔지만 {correct}이어야 합니다"),
        Finding::WrongRank {
            player,
            written,
            by_total,
            by_wins,
        } => {
            let same = |correct: usize| usize::try_from(*written) == Ok(correct);
            let should = match (same(*by_total), same(*by_wins)) {
                _ if by_total == by_wins => format!("두 규칙 모두 {by_total}위여야 합니다"),
                (false, true) => {
                    format!("최다 승으로는 맞지만 최고 합계로는 {by_total}위여야 합니다")
                }
                (true, false) => {
                    format!("최고 합계로는 맞지만 최다 승으로는 {by_wins}위여야 합니다")
                }
                _ => format!("최고 합계로는 {by_total}위, 최다 승으로는 {by_wins}위여야 합니다"),
            };
            format!("{player}의 순위: {written}위라고 적혔지만 {should}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use super::{Josa, josa};

    #[test]
    fn korean_problem_messages_name_the_tiles() {
        let r7 = Tile::numbered(Color::Red, 7).expect("tile");
        assert_eq!(
            set_problem(Language::Korean, &SetProblem::GroupRepeatsColor(r7, r7)),
            "그룹에 빨강 타일이 두 개 있습니다 (빨7, 빨7)"
        );
        assert_eq!(
            meld_problem(
                Language::Korean,
                &MeldProblem::BelowThreshold {
                    total: 28,
                    threshold: 30
                }
            ),
            "합계 28점은 30점보다 적습니다"
        );
        assert_eq!(
            meld_problem(
                Language::English,
                &MeldProblem::BelowThreshold {
                    total: 28,
                    threshold: 30
                }
            ),
            "total 28 is below 30"
        );
    }

    #[test]
    fn particles_follow_the_last_sound() {
        assert_eq!(josa("민수", Josa::EunNeun), "민수는");
        assert_eq!(josa("지영", Josa::IGa), "지영이");
        assert_eq!(josa("서연", Josa::GwaWa), "서연과");
        assert_eq!(josa("루미", Josa::GwaWa), "루미와");
        assert_eq!(josa("그룹", Josa::EuroRo), "그룹으로");
        assert_eq!(josa("런", Josa::EuroRo), "런으로");
        assert_eq!(josa("파일", Josa::EuroRo), "파일로", "ㄹ takes 로");
        assert_eq!(josa("14", Josa::EunNeun), "14는", "사");
        assert_eq!(josa("10", Josa::EunNeun), "10은", "십");
        assert_eq!(josa("0", Josa::EulReul), "0을", "영");
        assert_eq!(josa("7", Josa::EuroRo), "7로", "칠");
        assert_eq!(josa("Bob", Josa::IGa), "Bob가");
        assert_eq!(josa("Bill", Josa::EuroRo), "Bill로", "엘");
        assert_eq!(josa("\"3.5\"", Josa::EunNeun), "\"3.5\"는");
        assert_eq!(josa("!*", Josa::IGa), "!*이(가)", "unreadable: both forms");
    }
}
