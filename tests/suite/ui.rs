//! The window, headless (egui_kittest), with a fake clock and a recording sounder injected.

use std::sync::Arc;
use std::time::Duration;

use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use rummikub_companion::evening::{Command, DraftEdit};
use rummikub_companion::lang::Language;
use rummikub_companion::runtime::ManualClock;
use rummikub_companion::sound::{Cue, RecordingSounder};
use rummikub_companion::tile::TileSet;
use rummikub_companion::timer::Phase;
use rummikub_companion::ui::app::{Action, MeldMode, SheetRequest, TimerCommand, View};
use rummikub_companion::ui::{App, AppDeps};

struct Table {
    harness: Harness<'static, App>,
    clock: Arc<ManualClock>,
    sounder: Arc<RecordingSounder>,
    data: tempfile::TempDir,
}

/// The app on a fresh data folder, with the language and seats set through the UI's actions.
fn table(lang: Language) -> Table {
    table_with(lang, &["Ann", "Bo", "Cy", "Dee"])
}

fn table_with(lang: Language, players: &[&str]) -> Table {
    let data = tempfile::tempdir().expect("temporary data folder");
    let mut t = reopen(data);
    let mut settings = t.harness.state().settings().clone();
    settings.language = lang;
    apply(&mut t.harness, Action::Settings(settings));
    let names = players.iter().map(|p| p.to_string()).collect();
    apply(
        &mut t.harness,
        Action::Timer(TimerCommand::SetPlayers(names)),
    );
    t.harness.run();
    t
}

/// Starts the app (again) on an existing data folder.
fn reopen(data: tempfile::TempDir) -> Table {
    reopen_with(data, |_, _| {})
}

/// Starts the app on a data folder with some dependencies changed (a save dialog, say).
fn reopen_with(
    data: tempfile::TempDir,
    change: impl FnOnce(&mut AppDeps, &Arc<ManualClock>),
) -> Table {
    let clock = Arc::new(ManualClock::default());
    let sounder = Arc::new(RecordingSounder::default());
    let mut deps = AppDeps::manual(clock.clone(), sounder.clone(), data.path());
    change(&mut deps, &clock);
    // A form that opens scrolls into view over a few frames, and rows coming into view are
    // styled on their second frame: more frames to settle than egui's default of 4.
    let mut harness = Harness::builder()
        .with_max_steps(12)
        .with_size([1100.0, 900.0])
        .build_eframe(move |cc| App::new(cc, deps));
    harness.run();
    Table {
        harness,
        clock,
        sounder,
        data,
    }
}

fn apply(harness: &mut Harness<'static, App>, action: Action) {
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, action);
}

/// Types a game into the form through the evening's commands (as the view does) and saves it.
fn save_game(harness: &mut Harness<'static, App>, game: &rummikub_companion::score::Game) {
    apply(harness, Action::Evening(Command::AddGame));
    for (seat, hand) in game.hands.iter().enumerate() {
        let left = DraftEdit::Left(seat, hand.left.to_string());
        apply(harness, Action::Evening(Command::Draft(left)));
        if hand.not_melded {
            let mark = DraftEdit::NotMelded(seat, true);
            apply(harness, Action::Evening(Command::Draft(mark)));
        }
    }
    if let Some(winner) = game.winner {
        let winner = DraftEdit::TieWinner(Some(winner));
        apply(harness, Action::Evening(Command::Draft(winner)));
    }
    apply(harness, Action::Evening(Command::SaveGame));
}

impl Table {
    fn advance(&mut self, secs: f64) {
        self.clock.advance(Duration::from_secs_f64(secs));
        self.harness.run();
    }

    fn key(&mut self, key: Key) {
        self.harness.key_press(key);
        self.harness.run();
    }

    fn read<R>(&self, f: impl FnOnce(&rummikub_companion::timer::Timer, Duration) -> R) -> R {
        self.harness.state().read_timer(f)
    }

    fn click_tile(&mut self, label: &str) {
        self.harness
            .get_by_role_and_label(egui::Role::Button, label)
            .click();
        self.harness.run();
    }

    fn shows(&self, text: &str) -> bool {
        self.harness
            .query_all_by_label_contains(text)
            .next()
            .is_some()
    }
}

#[test]
fn a_turn_with_warning_time_up_and_the_next_player() {
    let mut t = table(Language::English);
    assert!(t.shows("Now · Ann"), "first seat plays first");
    t.key(Key::Space);
    assert_eq!(t.read(|timer, _| timer.phase()), Phase::Running);
    assert!(t.shows("Running 1:00"));

    t.advance(49.9);
    assert!(t.sounder.played().is_empty(), "nothing before 50 s");
    assert!(t.shows("Running 0:11"));
    t.advance(0.1);
    assert_eq!(
        t.sounder.played(),
        [Cue::Warning],
        "warning sound requested once"
    );
    assert!(t.shows("Hurry up! 0:10"));
    t.advance(5.0);
    assert_eq!(t.sounder.played(), [Cue::Warning], "and only once");

    t.advance(5.0);
    assert_eq!(t.sounder.played(), [Cue::Warning, Cue::TimeUp]);
    assert!(t.shows("Time's up! (+0:00) 0:00"));
    assert!(t.shows("Draw 1 tile and end the turn."));
    assert!(t.shows("draw 3"));

    // Space: the next player's turn starts at once, with a full minute.
    t.key(Key::Space);
    assert_eq!(t.read(|timer, _| timer.current_player()), 1);
    assert_eq!(
        t.read(|timer, now| timer.remaining(now)),
        Duration::from_secs(60)
    );
    assert!(t.shows("Now · Bo"));
    assert!(
        !t.shows("Draw 1 tile"),
        "the reminder belongs to the timed-out turn"
    );

    // P pauses: time does not run; P again resumes.
    t.advance(3.0);
    t.key(Key::P);
    assert_eq!(t.read(|timer, _| timer.phase()), Phase::Paused);
    t.advance(20.0);
    assert_eq!(
        t.read(|timer, now| timer.remaining(now)),
        Duration::from_secs(57)
    );
    assert!(t.shows("Paused 0:57"));
    t.key(Key::P);
    t.advance(1.0);
    assert_eq!(
        t.read(|timer, now| timer.remaining(now)),
        Duration::from_secs(56)
    );

    // Backspace takes back the last changes one by one: the resume, the pause, the end of
    // turn; then Ann's timed-out turn is back.
    t.key(Key::Backspace);
    assert_eq!(t.read(|timer, _| timer.phase()), Phase::Paused);
    t.key(Key::Backspace);
    assert_eq!(t.read(|timer, _| timer.phase()), Phase::Running);
    t.key(Key::Backspace);
    assert_eq!(t.read(|timer, _| timer.current_player()), 0);
    assert!(t.shows("Now · Ann"));
    assert_eq!(
        t.sounder.played(),
        [Cue::Warning, Cue::TimeUp],
        "no new sounds"
    );
}

#[test]
fn clicking_the_clock_ends_the_turn_and_stats_count_it() {
    let mut t = table(Language::English);
    t.harness.get_by_label_contains("Ready 1:00").click();
    t.harness.run();
    t.advance(12.0);
    t.harness.get_by_label_contains("Running 0:48").click();
    t.harness.run();
    let stats = t.read(|timer, _| timer.stats().to_vec());
    assert_eq!(stats[0].turns, 1);
    assert_eq!(stats[0].total, Duration::from_secs(12));
    let shown = t.harness.query_all_by_label_contains("12.0s").count();
    assert_eq!(shown, 2, "Ann's total and average are both 12 s");
}

#[test]
fn korean_timer_view_renders_with_the_bundled_font() {
    let mut t = table(Language::Korean);
    assert!(t.shows("지금 · Ann"));
    t.key(Key::Enter);
    t.advance(60.0);
    assert!(t.shows("시간 초과!"));
    assert!(t.shows("타일 1개를 가져가고 턴을 마치세요."));
    // Every view renders in Korean without a missing glyph (kittest panics on one).
    for view in [View::Meld, View::Sheet, View::Settings, View::Timer] {
        apply(&mut t.harness, Action::Show(view));
        t.harness.run();
    }
    assert!(t.shows("설정"));
}

#[test]
fn meld_check_by_clicking_tiles() {
    let mut t = table(Language::English);
    apply(&mut t.harness, Action::Show(View::Meld));
    t.harness.run();
    for tile in ["R10", "R11", "R12"] {
        t.click_tile(tile);
    }
    assert!(t.shows("33 points"));
    assert!(t.shows("Valid initial meld"));

    t.harness.get_by_label("Clear").click();
    t.harness.run();
    for tile in ["R4", "B4", "O4"] {
        t.click_tile(tile);
    }
    assert!(t.shows("total 12 is below 30"));
    assert!(t.shows("Not a valid initial meld"));
}

#[test]
fn ambiguous_set_offers_the_declaration() {
    let mut t = table(Language::English);
    apply(&mut t.harness, Action::Show(View::Meld));
    t.harness.run();
    for tile in ["R5", "J", "J"] {
        t.click_tile(tile);
    }
    assert!(t.shows("read as a run = 18; as a group it would be 15"));
    t.harness.get_by_label("group").click();
    t.harness.run();
    assert!(t.shows("group · 15 points"));
    assert!(t.shows("Not a valid initial meld"));
}

#[test]
fn settings_persist_across_a_restart() {
    let mut t = table(Language::Korean);
    let mut settings = t.harness.state().settings().clone();
    settings.rules.turn_seconds = 45;
    settings.volume = 0.25;
    apply(&mut t.harness, Action::Settings(settings.clone()));
    let data = t.data;
    drop(t.harness);
    let t = reopen(data);
    assert_eq!(t.harness.state().settings(), settings);
    assert_eq!(
        t.read(|timer, now| timer.remaining(now)),
        Duration::from_secs(45),
        "the restored rules drive the timer"
    );
    assert!(t.shows("지금 · Ann"), "Korean and the seats came back");
}

/// Seed 002's four games as the table counted them: what each player had left.
const SEED_002: [[&str; 4]; 4] = [
    ["0", "5", "16", "3"],
    ["6", "11", "0", "5"],
    ["32", "13", "2", "0"],
    ["0", "14", "16", "19"],
];
const SEED_PLAYERS: [&str; 4] = ["루미", "큐브", "퍼니", "알토"];

fn enter_game(t: &mut Table, left: &[&str]) {
    t.harness.get_by_label("Add game").click();
    t.harness.run();
    for (name, value) in SEED_PLAYERS.iter().zip(left) {
        let field = t.harness.get_by_role_and_label(egui::Role::TextInput, name);
        field.focus();
        field.type_text(value);
        t.harness.run();
    }
    t.key(Key::Enter);
}

#[test]
fn seed_002_through_the_add_game_form_survives_a_restart() {
    let mut t = table_with(Language::English, &SEED_PLAYERS);
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t.harness.get_by_label("New sheet").click();
    t.harness.run();
    for game in SEED_002 {
        enter_game(&mut t, &game);
    }
    let sheet = t.harness.state().sheet().expect("a sheet is open").clone();
    let rows: Vec<Vec<i64>> = sheet.scores().iter().map(|g| g.points.clone()).collect();
    assert_eq!(
        rows,
        vec![
            vec![24, -5, -16, -3],
            vec![-6, -11, 22, -5],
            vec![-32, -13, -2, 47],
            vec![49, -14, -16, -19],
        ]
    );
    let standings = sheet.standings();
    // By hand: 루미 24-6-32+49 = 35, 큐브 -5-11-13-14 = -43, 퍼니 -16+22-2-16 = -12,
    // 알토 -3-5+47-19 = 20; wins 2, 0, 1, 1; by total 1, 4, 3, 2 (the same by wins).
    assert_eq!(standings.totals, vec![35, -43, -12, 20]);
    assert_eq!(standings.wins, vec![2, 0, 1, 1]);
    assert_eq!(standings.by_total, vec![1, 4, 3, 2]);
    assert_eq!(standings.by_wins, vec![1, 4, 3, 2]);
    assert!(t.shows("+35"));
    assert!(t.shows("−43"));
    assert!(t.shows("Winner by highest total: 루미"));
    assert!(t.shows("Winner by most wins: 루미"));

    let data = t.data;
    drop(t.harness);
    let t = reopen(data);
    assert_eq!(
        t.harness.state().sheet(),
        Some(sheet),
        "the sheet survives closing the app"
    );
}

#[test]
fn a_tie_for_lowest_asks_who_won() {
    let mut t = table_with(Language::English, &SEED_PLAYERS);
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t.harness.get_by_label("New sheet").click();
    t.harness.run();
    enter_game(&mut t, &["4", "4", "9", "R5 J"]);
    assert!(
        t.harness.state().sheet().expect("sheet").games().is_empty(),
        "not saved yet"
    );
    assert!(t.shows("name the winner"));
    t.harness
        .get_by_role_and_label(egui::Role::RadioButton, "큐브")
        .click();
    t.harness.run();
    t.harness.get_by_label("Save game").click();
    t.harness.run();
    let sheet = t.harness.state().sheet().expect("sheet");
    // Joker on the rack counts 30: 알토 has 35. Winner 큐브 gets 0 + 5 + 31 = 36.
    assert_eq!(sheet.scores()[0].points, vec![0, 36, -5, -31]);
}

#[test]
fn a_corrupt_sheet_file_shows_a_banner_and_the_app_still_works() {
    let mut t = table_with(Language::English, &SEED_PLAYERS);
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t.harness.get_by_label("New sheet").click();
    t.harness.run();
    enter_game(&mut t, &SEED_002[0]);
    let data = t.data;
    drop(t.harness);
    let broken = data.path().join("sheets").join("broken.json");
    std::fs::write(&broken, "{\"version\": 1, \"sheet\": {\"players\": [").expect("write");

    let mut t = reopen(data);
    // The saved sheets are read in the background: the banner comes a moment after the window.
    let started = std::time::Instant::now();
    let notices = loop {
        t.harness.run();
        let notices = t.harness.state().notices().join("\n");
        if notices.contains("set aside") || started.elapsed() > Duration::from_secs(10) {
            break notices;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(notices.contains("set aside"), "{notices}");
    assert!(notices.contains("broken.json.corrupt-"), "{notices}");
    assert!(
        !broken.exists(),
        "the bad file was moved aside, not overwritten"
    );
    assert!(t.shows("set aside"), "the banner is on screen");
    // The good sheet is open and takes another game.
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    enter_game(&mut t, &SEED_002[1]);
    assert_eq!(t.harness.state().sheet().expect("sheet").games().len(), 2);
}

#[test]
fn best_meld_from_a_rack_shows_the_solver_sets() {
    let mut t = table(Language::English);
    apply(&mut t.harness, Action::Show(View::Meld));
    t.harness.run();
    t.harness.get_by_label("Best meld from a rack").click();
    t.harness.run();
    for tile in ["K9", "B9", "O9", "J", "R2", "K5"] {
        t.click_tile(tile);
    }
    assert!(
        t.shows("group · 36 points"),
        "the 36-point group with the joker"
    );
    assert!(t.shows("36 points: the initial meld (30) is possible"));
    // The joker is drawn as the tile it stands for: the missing red 9.
    assert!(t.harness.query_by_label("J (R9)").is_some());
    // By tiles: nothing more can be laid, so the same answer.
    t.harness.get_by_label("most tiles").click();
    t.harness.run();
    assert!(t.shows("group · 36 points"));
    // Remove the joker: 27 is not enough.
    t.harness.get_by_label("Clear").click();
    t.harness.run();
    for tile in ["K9", "B9", "O9", "R2"] {
        t.click_tile(tile);
    }
    assert!(t.shows("At most 27 points: the initial meld (30) is not possible yet"));
}

#[test]
fn korean_meld_and_sheet_views_render_with_data() {
    let mut t = table_with(Language::Korean, &SEED_PLAYERS);
    apply(
        &mut t.harness,
        Action::Meld(
            MeldMode::Check,
            "R11 J R13 | K9 B9 O9 | R7 R7 B7 | R5 J J".into(),
        ),
    );
    t.harness.run();
    assert!(t.shows("그룹에 빨강 타일이 두 개 있습니다 (빨7, 빨7)"));
    assert!(t.shows("런으로 읽어 18점; 그룹으로 읽으면 15점"));
    assert!(t.shows("등록 불가"));
    apply(
        &mut t.harness,
        Action::Meld(MeldMode::Solve, "K9 B9 O9 J R2 K5".into()),
    );
    t.harness.run();
    assert!(t.shows("36점: 등록(30점)할 수 있습니다"));
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t.harness.get_by_label("새 점수표").click();
    t.harness.run();
    t.harness.get_by_label("게임 추가").click();
    t.harness.run();
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, "큐브");
    field.focus();
    field.type_text("-3");
    t.harness.run();
    assert!(t.shows("음수입니다"), "the field problem is in Korean");
}

#[test]
fn edit_and_delete_a_game_with_undo() {
    let mut t = table_with(Language::English, &SEED_PLAYERS);
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t.harness.get_by_label("New sheet").click();
    t.harness.run();
    for game in &SEED_002[..3] {
        enter_game(&mut t, game);
    }
    let points = |t: &Table| -> Vec<Vec<i64>> {
        let sheet = t.harness.state().sheet().expect("sheet");
        sheet.scores().iter().map(|g| g.points.clone()).collect()
    };
    let before = points(&t);

    // Delete the middle game, then undo: it comes back in its place.
    t.harness
        .get_all_by_label("Delete")
        .nth(1)
        .expect("a delete button per game")
        .click();
    t.harness.run();
    assert_eq!(points(&t), vec![before[0].clone(), before[2].clone()]);
    t.harness.get_by_label("Undo").click();
    t.harness.run();
    assert_eq!(points(&t), before);

    // Edit the first game: 큐브 had 15 left, not 5.
    t.harness
        .get_all_by_label("Edit")
        .next()
        .expect("an edit button")
        .click();
    t.harness.run();
    t.harness
        .get_by_role_and_label(egui::Role::TextInput, "큐브")
        .focus();
    t.harness.run();
    t.key(Key::Backspace);
    t.harness
        .get_by_role_and_label(egui::Role::TextInput, "큐브")
        .type_text("15");
    t.harness.run();
    t.harness.get_by_label("Save game").click();
    t.harness.run();
    assert_eq!(points(&t)[0], vec![34, -15, -16, -3]);
    assert_eq!(
        points(&t)[1..],
        before[1..],
        "the other games are untouched"
    );
}

#[test]
fn space_on_a_focused_button_ends_one_turn_not_two() {
    let mut t = table(Language::English);
    t.harness.get_by_label("Start").click();
    t.harness.run();
    t.advance(3.0);
    t.harness.get_by_label("End turn").focus();
    t.harness.run();
    t.key(Key::Space);
    assert_eq!(
        t.read(|timer, _| timer.current_player()),
        1,
        "Bo's turn, not Cy's"
    );
    let turns: u32 = t.read(|timer, _| timer.stats().iter().map(|s| s.turns).sum());
    assert_eq!(turns, 1);
}

#[test]
fn a_rack_can_be_picked_as_tiles_in_the_game_form() {
    let mut t = table_with(Language::English, &SEED_PLAYERS);
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t.harness.get_by_label("New sheet").click();
    t.harness.run();
    t.harness.get_by_label("Add game").click();
    t.harness.run();
    for (name, value) in SEED_PLAYERS.iter().zip(["0", "5", "16"]) {
        let field = t.harness.get_by_role_and_label(egui::Role::TextInput, name);
        field.focus();
        field.type_text(value);
        t.harness.run();
    }
    // 알토's rack: picked, not typed.
    t.harness.get_by_label("Pick tiles: 알토").click();
    t.harness.run();
    t.click_tile("R5");
    t.click_tile("J");
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, "알토");
    assert_eq!(field.value().as_deref(), Some("R5 J"));
    t.harness.get_by_label("Save game").click();
    t.harness.run();
    let sheet = t.harness.state().sheet().expect("sheet");
    // The joker on 알토's rack counts 30: 35 left. 루미 wins 5 + 16 + 35 = 56.
    assert_eq!(sheet.scores()[0].points, vec![56, -5, -16, -35]);
}

#[test]
fn a_hand_edited_settings_file_with_a_bad_turn_length_falls_back_to_the_default() {
    let data = tempfile::tempdir().expect("temporary data folder");
    let settings =
        r#"{"version": 1, "settings": {"language": "English", "rules": {"turn_seconds": 3}}}"#;
    std::fs::write(data.path().join("settings.json"), settings).expect("write settings");
    let t = reopen(data);
    assert_eq!(t.harness.state().settings().rules.turn_seconds, 60);
    assert_eq!(
        t.read(|timer, now| timer.remaining(now)),
        Duration::from_secs(60)
    );
    assert!(t.shows("outside what the game allows"));
}

// ---- One gesture, one effect (issue "table-proof input") ----

/// Sends one frame with these raw events.
fn events(t: &mut Table, events: Vec<egui::Event>) {
    for event in events {
        t.harness.event(event);
    }
    t.harness.run();
}

fn space(pressed: bool, repeat: bool) -> egui::Event {
    egui::Event::Key {
        key: Key::Space,
        physical_key: None,
        pressed,
        repeat,
        modifiers: egui::Modifiers::NONE,
    }
}

fn turns_ended(t: &Table) -> u32 {
    t.read(|timer, _| timer.stats().iter().map(|s| s.turns).sum())
}

#[test]
fn holding_space_with_key_repeat_ends_one_turn() {
    let mut t = table(Language::English);
    t.key(Key::Space); // start
    t.advance(2.0);
    // Held for 1.2 s: one press, then key-repeat events 25 times a second, then the release.
    events(&mut t, vec![space(true, false)]);
    for _ in 0..30 {
        t.clock.advance(Duration::from_millis(40));
        events(&mut t, vec![space(true, true)]);
    }
    events(&mut t, vec![space(false, false)]);
    assert_eq!(turns_ended(&t), 1, "one press, one turn");
    assert_eq!(t.read(|timer, _| timer.current_player()), 1);
}

#[test]
fn a_held_key_without_repeat_flags_is_still_one_press() {
    // Some platforms report repeats as plain presses: a press of a key already down is not new.
    let mut t = table(Language::English);
    t.key(Key::Space);
    t.advance(2.0);
    for _ in 0..20 {
        t.clock.advance(Duration::from_millis(100));
        events(&mut t, vec![space(true, false)]);
    }
    events(&mut t, vec![space(false, false)]);
    assert_eq!(turns_ended(&t), 1);
}

#[test]
fn two_end_turn_inputs_inside_the_guard_end_one_turn() {
    let mut t = table(Language::English);
    t.key(Key::Space);
    t.advance(5.0);
    t.key(Key::Space);
    t.advance(0.2); // a bounce, or Space and a click on the clock together
    t.harness.get_by_label_contains("Running").click();
    t.harness.run();
    assert_eq!(turns_ended(&t), 1, "the second input is inside the guard");
    t.advance(0.5);
    t.key(Key::Enter);
    assert_eq!(turns_ended(&t), 2, "after the guard a new press counts");
}

#[test]
fn a_double_click_on_the_clock_is_one_end_of_turn() {
    let mut t = table(Language::English);
    t.key(Key::Space);
    t.advance(5.0);
    let clock = t.harness.get_by_label_contains("Running");
    clock.click();
    clock.click();
    t.harness.run();
    t.harness.run();
    assert_eq!(turns_ended(&t), 1);
}

#[test]
fn the_click_that_brings_the_window_to_the_front_is_not_a_turn_end() {
    let mut t = table(Language::English);
    t.key(Key::Space);
    t.advance(5.0);
    events(&mut t, vec![egui::Event::WindowFocused(false)]);
    t.advance(30.0);
    t.harness.event(egui::Event::WindowFocused(true));
    t.harness.get_by_label_contains("Running").click();
    t.harness.run();
    t.harness.run();
    assert_eq!(turns_ended(&t), 0, "the activating click only focuses");
    t.advance(1.0);
    t.harness.get_by_label_contains("Running").click();
    t.harness.run();
    assert_eq!(turns_ended(&t), 1, "the next click ends the turn");
}

#[test]
fn a_double_click_on_delete_removes_one_game_and_undo_brings_it_back() {
    let mut t = table_with(Language::English, &SEED_PLAYERS);
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t.harness.get_by_label("New sheet").click();
    t.harness.run();
    for game in &SEED_002 {
        enter_game(&mut t, game);
    }
    let games = |t: &Table| t.harness.state().sheet().expect("sheet").games().to_vec();
    let before = games(&t);
    let second = t
        .harness
        .get_all_by_label("Delete")
        .nth(1)
        .expect("a delete button per game");
    second.click();
    t.harness.run();
    // The second click lands on the same place, where game 3 now is.
    t.harness
        .get_all_by_label("Delete")
        .nth(1)
        .expect("a delete button per game")
        .click();
    t.harness.run();
    let after = games(&t);
    assert_eq!(after.len(), 3, "one game deleted, not two");
    assert_eq!(after, [&before[..1], &before[2..]].concat());
    assert!(
        t.shows("Round 1, game 2 deleted"),
        "the undo offer names it"
    );
    t.harness.get_by_label("Undo").click();
    t.harness.run();
    assert_eq!(games(&t), before, "every game is back, in its place");
}

#[test]
fn tab_goes_from_one_players_field_to_the_next() {
    let mut t = table_with(Language::English, &SEED_PLAYERS);
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t.harness.get_by_label("New sheet").click();
    t.harness.run();
    t.harness.get_by_label("Add game").click();
    t.harness.run();
    t.harness.run();
    // The first field has the cursor; type, Tab, type, … as a scorer does.
    for (i, value) in ["12", "0", "R12 R13 J", "7"].iter().enumerate() {
        if i > 0 {
            t.key(Key::Tab);
        }
        t.harness.event(egui::Event::Text((*value).into()));
        t.harness.run();
    }
    for (name, value) in SEED_PLAYERS.iter().zip(["12", "0", "R12 R13 J", "7"]) {
        let field = t.harness.get_by_role_and_label(egui::Role::TextInput, name);
        assert_eq!(field.value().as_deref(), Some(value), "{name}'s field");
    }
    t.key(Key::Enter);
    let sheet = t.harness.state().sheet().expect("sheet");
    assert_eq!(sheet.games().len(), 1, "Enter saved the game");
    // 큐브 went out; 퍼니 holds R12 R13 J = 12 + 13 + 30.
    assert_eq!(sheet.scores()[0].points, vec![-12, 74, -55, -7]);
}

#[test]
fn save_says_why_it_is_not_possible_yet() {
    let mut t = table_with(Language::English, &SEED_PLAYERS);
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t.harness.get_by_label("New sheet").click();
    t.harness.run();
    t.harness.get_by_label("Add game").click();
    t.harness.run();
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, "루미");
    field.focus();
    field.type_text("0");
    t.harness.run();
    assert!(t.shows("큐브: type what is left (0 if they went out)"));
}

#[test]
fn a_name_typed_just_before_start_is_kept() {
    let mut t = table(Language::English);
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, "Player 2");
    field.focus();
    t.harness.run();
    t.harness
        .get_by_role_and_label(egui::Role::TextInput, "Player 2")
        .type_text("ea");
    t.harness.run();
    t.harness.get_by_label("Start").click();
    t.harness.run();
    t.harness.run();
    assert_eq!(t.read(|timer, _| timer.players()[1].clone()), "Boea");
    assert_eq!(t.read(|timer, _| timer.phase()), Phase::Running);
    assert_eq!(t.harness.state().settings().players[1], "Boea");
}

#[test]
fn a_players_error_disappears_once_the_names_are_fixed() {
    let mut t = table(Language::English);
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, "Player 2");
    field.focus();
    t.harness.run();
    for _ in 0..2 {
        t.key(Key::Backspace);
    }
    t.harness
        .get_by_role_and_label(egui::Role::TextInput, "Player 2")
        .type_text("ann");
    t.harness.run();
    assert!(t.shows("two players are called \"ann\""));
    t.key(Key::Backspace);
    t.harness
        .get_by_role_and_label(egui::Role::TextInput, "Player 2")
        .type_text("x");
    t.harness.run();
    assert!(
        !t.shows("two players are called"),
        "the error went with its cause"
    );
}

#[test]
fn typing_a_turn_length_applies_on_enter_and_says_when_the_warning_moves() {
    let mut t = table(Language::English);
    apply(&mut t.harness, Action::Show(View::Settings));
    t.harness.run();
    let turn = t
        .harness
        .get_all_by_role_and_label(egui::Role::SpinButton, "Turn length")
        .next()
        .expect("the turn length box");
    turn.focus();
    t.harness.run();
    t.harness
        .key_press_modifiers(egui::Modifiers::COMMAND, Key::A);
    t.harness.event(egui::Event::Text("10".into()));
    t.harness.run();
    assert_eq!(
        t.harness.state().settings().rules.turn_seconds,
        60,
        "nothing applies while typing"
    );
    t.key(Key::Enter);
    t.harness.run();
    let rules = t.harness.state().settings().rules;
    assert_eq!(rules.turn_seconds, 10);
    assert_eq!(rules.warning_seconds, 9, "the warning comes before the end");
    assert!(t.shows("The warning was moved to 9 s"));
    // A longer turn again: the warning the table chose comes back.
    let turn = t
        .harness
        .get_all_by_role_and_label(egui::Role::SpinButton, "Turn length")
        .next()
        .expect("the turn length box");
    turn.focus();
    t.harness.run();
    t.harness
        .key_press_modifiers(egui::Modifiers::COMMAND, Key::A);
    t.harness.event(egui::Event::Text("45".into()));
    t.key(Key::Enter);
    t.harness.run();
    let rules = t.harness.state().settings().rules;
    assert_eq!(rules.turn_seconds, 45);
    assert_eq!(rules.warning_seconds, 10, "the chosen warning is back");
    assert!(!t.shows("The warning was moved"));
}

#[test]
fn enter_in_the_meld_field_starts_a_new_set_and_keeps_the_cursor() {
    let mut t = table(Language::English);
    apply(&mut t.harness, Action::Show(View::Meld));
    t.harness.run();
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, "Check a meld");
    field.focus();
    field.type_text("R10 R11 R12");
    t.harness.run();
    t.key(Key::Enter);
    t.harness.run();
    t.harness.event(egui::Event::Text("K9 B9 O9".into()));
    t.harness.run();
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, "Check a meld");
    assert_eq!(field.value().as_deref(), Some("R10 R11 R12 | K9 B9 O9"));
    assert!(t.shows("Valid initial meld"));
}

#[test]
fn the_clock_strip_shows_time_and_time_up_on_the_meld_and_sheet_tabs() {
    let mut t = table(Language::English);
    t.key(Key::Space);
    t.advance(20.0);
    for view in [View::Meld, View::Sheet] {
        apply(&mut t.harness, Action::Show(view));
        t.harness.run();
        assert!(t.shows("Now · Ann"), "{view:?}");
        assert!(
            t.shows("Running 0:40"),
            "{view:?}: the clock is named with its time"
        );
    }
    t.advance(45.0);
    assert!(
        t.shows("Time's up! (+0:05) 0:00"),
        "time-up and overtime in the strip"
    );
    assert!(t.shows("Time's up!"));
}

#[test]
fn space_on_the_meld_tab_ends_the_turn_with_the_same_guard() {
    let mut t = table(Language::English);
    apply(&mut t.harness, Action::Show(View::Meld));
    t.harness.run();
    t.key(Key::Space); // start, from the meld tab
    assert_eq!(t.read(|timer, _| timer.phase()), Phase::Running);
    t.advance(4.0);
    t.key(Key::Space);
    t.advance(0.1);
    t.key(Key::Enter); // inside the guard: not a second end
    assert_eq!(turns_ended(&t), 1);
    assert_eq!(t.read(|timer, _| timer.current_player()), 1);
    // Typing in the meld field is typing, not ending turns.
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, "Check a meld");
    field.focus();
    t.harness.run();
    t.advance(1.0);
    t.harness.event(egui::Event::Text("R5 ".into()));
    t.key(Key::Space);
    assert_eq!(turns_ended(&t), 1);
}

#[test]
fn the_face_to_face_table_view_shows_the_clock_twice() {
    let mut t = table(Language::English);
    t.key(Key::Space);
    t.advance(61.5);
    let mut settings = t.harness.state().settings().clone();
    settings.face_to_face = true;
    apply(&mut t.harness, Action::Settings(settings));
    apply(&mut t.harness, Action::Show(View::Table));
    t.harness.run();
    let halves = t
        .harness
        .query_all_by_label("Ann · Time's up! (+0:01) 0:00")
        .count();
    assert_eq!(halves, 2, "one half for each side of the table");
    // Either half ends the turn.
    t.harness
        .query_all_by_label("Ann · Time's up! (+0:01) 0:00")
        .next()
        .expect("the far half")
        .click();
    t.harness.run();
    assert_eq!(t.read(|timer, _| timer.current_player()), 1);
    assert!(t.shows("Bo · Running 1:00"));
    // Escape leaves the table view for the tab it came from.
    t.key(Key::Escape);
    assert!(t.shows("Statistics"), "back on the timer tab");
}

#[test]
fn the_screen_is_kept_awake_only_while_a_turn_runs_and_a_refusal_is_told_once() {
    fn granted() -> Result<Box<dyn std::any::Any + Send>, String> {
        Ok(Box::new(()))
    }
    fn refused() -> Result<Box<dyn std::any::Any + Send>, String> {
        Err("no session bus".into())
    }
    for (keep_awake, works) in [(granted as _, true), (refused as _, false)] {
        let data = tempfile::tempdir().expect("temporary data folder");
        let clock = Arc::new(ManualClock::default());
        let mut deps = AppDeps::manual(
            clock.clone(),
            Arc::new(RecordingSounder::default()),
            data.path(),
        );
        deps.evening.keep_awake = Some(keep_awake);
        let mut harness = Harness::builder()
            .with_size([1100.0, 900.0])
            .build_eframe(move |cc| App::new(cc, deps));
        harness.run();
        assert!(
            !harness.state().keeping_awake(),
            "idle: the screen may sleep"
        );
        let ctx = harness.ctx.clone();
        harness
            .state_mut()
            .apply(&ctx, Action::Timer(TimerCommand::Primary));
        harness.run();
        assert_eq!(harness.state().keeping_awake(), works);
        clock.advance(Duration::from_secs(1));
        harness
            .state_mut()
            .apply(&ctx, Action::Timer(TimerCommand::TogglePause));
        harness.run();
        assert!(!harness.state().keeping_awake(), "paused: released");
        for _ in 0..3 {
            clock.advance(Duration::from_secs(1));
            harness
                .state_mut()
                .apply(&ctx, Action::Timer(TimerCommand::TogglePause));
            harness.run();
        }
        let told = harness
            .state()
            .notices()
            .iter()
            .filter(|n| n.contains("cannot be kept awake"))
            .count();
        assert_eq!(told, usize::from(!works), "said once, not per turn");
    }
}

#[test]
fn the_window_icon_is_a_256_pixel_png() {
    let icon = eframe::icon_data::from_png_bytes(rummikub_companion::ui::ICON).expect("decodes");
    assert_eq!((icon.width, icon.height), (256, 256));
    let desktop = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rummikub-companion.desktop"),
    )
    .expect("the desktop entry");
    assert!(desktop.contains("Exec=rummikub-companion"));
    assert!(desktop.contains("Icon=rummikub-companion"));
}

#[test]
fn korean_results_name_tiles_in_korean() {
    let mut t = table(Language::Korean);
    apply(
        &mut t.harness,
        Action::Meld(MeldMode::Check, "빨11 조커 빨13 | 빨3 파4 빨5".into()),
    );
    t.harness.run();
    assert!(t.shows("조커 = 빨12"), "the joker is named in Korean");
    assert!(t.shows("런의 색이 다릅니다 (빨3, 파4)"));
    apply(&mut t.harness, Action::Meld(MeldMode::Check, "커5".into()));
    t.harness.run();
    assert!(t.shows("알 수 없는 색"), "a notation error in Korean");
    assert!(!t.shows("unknown colour"));
}

// ---- Phones through the window (issue "phones as the table's buttons") ----

/// POSTs a phone's action. No frame is drawn meanwhile: the evening answers by itself.
fn phone_post(t: &Table, action: serde_json::Value) -> crate::util::phones::Reply {
    let url = t.harness.state().phone_url().expect("the phones' link");
    let (host, path) = url
        .trim_start_matches("http://")
        .split_once('/')
        .expect("a path");
    let addr = host.parse().expect("an address");
    crate::util::phones::post(addr, &format!("/{path}action"), &action.to_string())
}

#[test]
fn a_rack_typed_on_a_phone_fills_the_windows_form_and_the_table_saves_it_there() {
    let mut t = table(Language::English);
    let loopback = "127.0.0.1:0".parse().expect("address");
    t.harness.state().shared().start_phones_on(loopback);
    apply(
        &mut t.harness,
        Action::Evening(Command::NewSheet {
            rounds: None,
            target: None,
        }),
    );
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    let rack = phone_post(
        &t,
        serde_json::json!({"action": "enter_rack", "seat": 2, "text": "R5 J"}),
    );
    assert_eq!(rack.status, 200, "{}", rack.body);
    t.harness.run();
    let field = t.harness.get_by_role_and_label(egui::Role::TextInput, "Cy");
    assert_eq!(field.value().as_deref(), Some("R5 J"));
    assert!(
        t.harness.state().sheet().expect("sheet").games().is_empty(),
        "not saved yet: the table confirms on the laptop"
    );
}

// ---- Two windows, a read-only folder, the chess clock ----

#[test]
fn the_chess_clock_shows_each_players_bank_and_who_is_flagged() {
    let mut t = table(Language::English);
    let mut settings = t.harness.state().settings().clone();
    settings.rules.clock_mode = rummikub_companion::rules::ClockMode::ChessClock;
    settings.rules.bank_minutes = 1;
    settings.rules.increment_seconds = 5;
    apply(&mut t.harness, Action::Settings(settings));
    t.harness.run();
    assert!(t.shows("Time bank"));
    t.key(Key::Space);
    t.advance(20.0);
    t.key(Key::Space); // Ann: 60 - 20 + 5 = 45 s left
    assert!(t.shows("0:45"), "Ann's bank after the increment");
    assert!(t.shows("Running 1:00"), "Bo's clock shows Bo's bank");
    t.advance(61.0);
    assert!(t.shows("Flagged"), "Bo's bank ran out");
    assert!(
        !t.shows("Draw 1 tile"),
        "the table decides: no draw penalty on a flag"
    );
    // The table sees it under the clock, not only in the statistics (issue 23, chess clock).
    assert!(
        t.shows("Bo is flagged: the time bank is empty."),
        "named, flagged"
    );
    assert!(t.shows("The rules set no draw for a flag"), "and the rule");
    // Bo's later turns say why they open in red.
    for _ in 0..4 {
        t.advance(2.0);
        t.key(Key::Space);
    }
    assert!(t.shows("Now · Bo"), "Bo again");
    assert!(
        t.shows("Bo was flagged earlier: every turn opens out of time."),
        "why the turn opens in red"
    );
    // The turn-length field is for per-turn timing only.
    apply(&mut t.harness, Action::Show(View::Settings));
    t.harness.run();
    assert!(!t.shows("Turn length"), "hidden on a chess clock");
}

// ---- The sheet owns its rules; a match has an end; export; history (issue "sheet rules") ----

fn seed_sheet_table() -> Table {
    let mut t = table_with(Language::English, &SEED_PLAYERS);
    apply(
        &mut t.harness,
        Action::Evening(Command::NewSheet {
            rounds: Some(1),
            target: None,
        }),
    );
    for left in SEED_002 {
        let hands = left
            .iter()
            .map(|v| rummikub_companion::score::Hand::of_value(v.parse().expect("a number")))
            .collect();
        save_game(&mut t.harness, &rummikub_companion::score::Game::new(hands));
    }
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t
}

#[test]
fn a_planned_match_ends_with_the_winner_large_and_export_never_overwrites() {
    let mut t = seed_sheet_table();
    assert!(
        t.shows("Match over after game 4 · Winner: 루미"),
        "one round of four players: the match ends after game 4"
    );
    assert!(t.shows("Winner by most wins: 루미"));
    apply(&mut t.harness, Action::Evening(Command::ExportCsv(None)));
    apply(&mut t.harness, Action::Evening(Command::ExportCsv(None)));
    let exports: Vec<_> = std::fs::read_dir(t.data.path().join("exports"))
        .expect("the exports folder")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    assert_eq!(exports.len(), 2, "the second export is a new file");
    t.harness.run();
    assert!(
        t.shows("Open folder"),
        "the export's folder is one click away"
    );
    let text = std::fs::read_to_string(&exports[0]).expect("readable");
    assert!(
        text.starts_with('\u{feff}'),
        "a BOM for spreadsheet programs"
    );
    assert!(
        text.contains("Round 1, game 2"),
        "rows labelled as on screen"
    );
    assert!(text.contains("루미"));
}

#[test]
fn the_history_view_shows_every_player_across_evenings() {
    let mut t = seed_sheet_table();
    apply(
        &mut t.harness,
        Action::Sheet(rummikub_companion::ui::app::SheetRequest::History(true)),
    );
    t.harness.run();
    assert!(t.shows("Head to head"));
    assert!(t.shows("Match wins"));
    assert!(t.shows("+35"), "루미's total over the evenings");
    assert!(
        t.shows("−10.8"),
        "큐브's average, with the sheet's typographic minus"
    );
}

#[test]
fn a_preset_says_what_it_would_change_and_edited_values_show_as_custom() {
    let mut t = table(Language::English);
    apply(&mut t.harness, Action::Show(View::Settings));
    t.harness.run();
    t.harness.get_by_label("Tournament").hover();
    t.harness.run();
    t.harness.run();
    assert!(
        t.shows("Turn length: 60s → 40s"),
        "the hover lists the changes"
    );
    assert!(t.shows("Joker left on a rack counts: 30 → 50"));
    assert!(!t.shows("Custom"));
    let mut settings = t.harness.state().settings().clone();
    settings.rules.joker_penalty = 35;
    apply(&mut t.harness, Action::Settings(settings));
    t.harness.run();
    assert!(t.shows("Custom"), "edited after a preset");
}

#[test]
fn the_remaining_value_fields_are_wide_enough_for_a_rack() {
    let mut t = table_with(Language::English, &SEED_PLAYERS);
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t.harness.get_by_label("New sheet").click();
    t.harness.run();
    t.harness.get_by_label("Add game").click();
    t.harness.run();
    t.harness.run();
    for name in SEED_PLAYERS {
        let field = t.harness.get_by_role_and_label(egui::Role::TextInput, name);
        let width = field.rect().width();
        assert!(width >= 300.0, "{name}'s field is {width} px wide");
    }
}

// ---- "Save CSV as…": the dialog chooses, a cancel writes nothing, no dialog says so ----

/// The seeded sheet in a window whose save dialog is `dialog` (given the clock, to take time).
fn sheet_with_dialog(
    dialog: impl Fn(&Arc<ManualClock>, &str) -> Option<std::path::PathBuf> + Send + Sync + 'static,
) -> Table {
    let seeded = seed_sheet_table();
    let Table { harness, data, .. } = seeded;
    drop(harness);
    let mut t = reopen_with(data, move |deps, clock| {
        let clock = Arc::clone(clock);
        deps.save_dialog = Arc::new(move |name: &str| dialog(&clock, name));
    });
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    assert_eq!(
        t.harness.state().sheet().map(|s| s.games().len()),
        Some(4),
        "the seeded sheet reopened"
    );
    t
}

/// Runs frames until the save dialog's answer has been acted on (bounded).
fn until_answered(t: &mut Table) {
    for _ in 0..200 {
        // One frame at a time: the dialog's thread asks for repaints of its own.
        t.harness.step();
        if !t.harness.state().choosing_where_to_save() {
            t.harness.run();
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("the save dialog's answer never arrived");
}

fn exports(t: &Table) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(t.data.path().join("exports"))
        .map(|dir| dir.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default()
}

#[test]
fn save_csv_as_writes_the_file_the_dialog_chose_and_says_where() {
    let target = tempfile::tempdir().expect("a folder to save in");
    let chosen = target.path().join("우리 모임.csv");
    let answer = chosen.clone();
    let mut t = sheet_with_dialog(move |clock, name| {
        assert!(name.ends_with(".csv"), "a suggested name: {name}");
        clock.advance(Duration::from_secs(4)); // someone picks a folder
        Some(answer.clone())
    });
    t.harness.get_by_label("Save CSV as…").click();
    until_answered(&mut t);
    let text = std::fs::read_to_string(&chosen).expect("written where chosen");
    assert!(text.starts_with('\u{feff}'));
    assert!(text.contains("Round 1, game 4"));
    assert!(t.shows(&format!("Exported to {}", chosen.display())));
    assert!(exports(&t).is_empty(), "nothing else written");
}

#[test]
fn save_csv_as_cancelled_writes_nothing() {
    let mut t = sheet_with_dialog(|clock, _| {
        clock.advance(Duration::from_secs(2)); // looked, then pressed Cancel
        None
    });
    t.harness.get_by_label("Save CSV as…").click();
    until_answered(&mut t);
    assert!(exports(&t).is_empty(), "a cancel writes nothing");
    assert!(!t.shows("Exported"));
    assert!(t.harness.state().notices().is_empty(), "and says nothing");
}

#[test]
fn save_csv_as_without_a_dialog_saves_in_the_exports_folder_and_says_why() {
    // As on a machine with no desktop portal and no zenity: the answer comes at once.
    let mut t = sheet_with_dialog(|_, _| None);
    t.harness.get_by_label("Save CSV as…").click();
    until_answered(&mut t);
    let written = exports(&t);
    assert_eq!(written.len(), 1, "the CSV is not lost: {written:?}");
    let notice = format!(
        "No save dialog could open on this system (it needs a desktop portal or zenity), so the \
         CSV was saved in the exports folder: {}",
        written[0].display()
    );
    assert!(t.shows(&notice), "{:?}", t.harness.state().notices());
    assert!(t.shows("Open folder"));
    let mut settings = t.harness.state().settings().clone();
    settings.language = Language::Korean;
    apply(&mut t.harness, Action::Settings(settings));
    t.harness.run();
    assert!(t.shows("저장 대화 상자를 열 수 없어"), "and in Korean");
}

#[test]
fn save_csv_as_clicked_twice_opens_one_dialog() {
    let asked = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (release, wait) = std::sync::mpsc::channel::<()>();
    let wait = std::sync::Mutex::new(wait);
    let count = Arc::clone(&asked);
    let mut t = sheet_with_dialog(move |clock, _| {
        count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        // The dialog stays open until the test closes it.
        let _ = wait.lock().map(|w| w.recv_timeout(Duration::from_secs(10)));
        clock.advance(Duration::from_secs(3));
        None
    });
    apply(&mut t.harness, Action::Sheet(SheetRequest::ExportAs));
    apply(&mut t.harness, Action::Sheet(SheetRequest::ExportAs));
    t.harness.run();
    assert!(t.harness.state().choosing_where_to_save());
    assert!(
        t.harness
            .get_by_label("Save CSV as…")
            .accesskit_node()
            .is_disabled(),
        "the button waits for the open dialog"
    );
    t.advance(1.0);
    assert!(
        t.harness.state().read_timer(|_, now| now) >= Duration::from_secs(1),
        "the window goes on while the dialog is open"
    );
    release.send(()).expect("the dialog is waiting");
    until_answered(&mut t);
    assert_eq!(asked.load(std::sync::atomic::Ordering::SeqCst), 1);
}

#[test]
fn backspace_on_the_timer_never_takes_back_a_score() {
    let mut t = seed_sheet_table();
    let before = t.harness.state().sheet().expect("sheet");
    apply(&mut t.harness, Action::Show(View::Timer));
    t.harness.run();
    t.key(Key::Backspace);
    t.key(Key::Backspace);
    assert_eq!(
        t.harness.state().sheet().expect("sheet"),
        before,
        "the sheet's changes are undone on the sheet only"
    );
    // The clock's own change is what Backspace takes back.
    t.key(Key::Space);
    assert_eq!(t.read(|timer, _| timer.phase()), Phase::Running);
    t.key(Key::Backspace);
    assert_eq!(t.read(|timer, _| timer.phase()), Phase::Idle);
    assert_eq!(t.harness.state().sheet().expect("sheet"), before);
    assert!(t.shows("Undone: Timer started"), "and says so");
}

/// Adds a game of remaining values to the open sheet through the app's own action.
fn save_values(t: &mut Table, left: [u32; 4]) {
    let game = rummikub_companion::score::Game::new(
        left.map(rummikub_companion::score::Hand::of_value).to_vec(),
    );
    save_game(&mut t.harness, &game);
    t.harness.run();
}

#[test]
fn after_the_match_the_winner_lines_keep_its_result_and_before_it_they_name_leaders() {
    let mut t = seed_sheet_table();
    assert!(t.shows("Match over after game 4 · Winner: 루미"));
    // A fifth game, after the end, that would put 큐브 far ahead.
    save_values(&mut t, [40, 0, 40, 40]);
    assert!(
        t.shows("Winner by highest total: 루미"),
        "the match's result"
    );
    assert!(!t.shows("Winner by highest total: 큐브"));
    assert!(!t.shows("Leader by"));
    // A new sheet: leaders until its match is over.
    apply(
        &mut t.harness,
        Action::Evening(Command::NewSheet {
            rounds: Some(1),
            target: None,
        }),
    );
    save_values(&mut t, [0, 5, 16, 3]);
    assert!(t.shows("Leader by highest total: 루미"), "one game of four");
    assert!(!t.shows("Winner by"));
}

#[test]
fn the_match_options_say_they_are_for_the_next_new_sheet() {
    let mut t = seed_sheet_table();
    t.harness
        .get_by_role_and_label(egui::Role::CheckBox, "target total")
        .hover();
    for _ in 0..4 {
        t.advance(0.3); // the tooltip's delay
    }
    assert!(
        t.shows("For the next new sheet: the open sheet keeps the end it was started with."),
        "the open sheet's end is not changed by these"
    );
}

#[test]
fn the_solver_asks_for_a_rack_not_a_meld() {
    let mut t = table(Language::English);
    apply(&mut t.harness, Action::Meld(MeldMode::Solve, String::new()));
    t.harness.run();
    assert!(t.shows("Pick tiles or type a rack to find its best initial meld."));
    assert!(!t.shows("to check a meld"));
}

#[test]
fn enter_in_the_score_form_saves_or_says_why_and_never_ends_a_turn() {
    // Regression: with no field holding the cursor (after choosing a tie winner, picking
    // tiles, Esc), Enter ended the turn and restarted a paused clock, while the form said
    // "Enter saves".
    let mut t = table_with(Language::English, &SEED_PLAYERS);
    t.key(Key::Space); // the clock runs
    t.advance(2.0);
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t.harness.get_by_label("New sheet").click();
    t.harness.run();
    t.harness.get_by_label("Add game").click();
    t.harness.run();
    t.harness.event(egui::Event::Text("0".into()));
    t.harness.run();
    // The cursor leaves the field (Esc), then Enter.
    t.key(Key::Escape);
    t.advance(1.0);
    t.key(Key::Enter);
    t.harness.run();
    assert_eq!(turns_ended(&t), 0, "no turn ended");
    assert!(
        t.shows("큐브: type what is left"),
        "it says why it cannot save"
    );
    // Filled in, Enter saves the game, still without ending a turn.
    for (i, value) in ["5", "16", "3"].iter().enumerate() {
        let field = t
            .harness
            .get_by_role_and_label(egui::Role::TextInput, SEED_PLAYERS[i + 1]);
        field.focus();
        field.type_text(value);
        t.harness.run();
    }
    t.key(Key::Escape);
    t.advance(1.0);
    t.key(Key::Enter);
    t.harness.run();
    assert_eq!(t.harness.state().sheet().expect("sheet").games().len(), 1);
    assert_eq!(turns_ended(&t), 0, "saving a game is not an end of turn");
    // With the form closed, Enter is the clock's key again.
    t.advance(1.0);
    t.key(Key::Enter);
    assert_eq!(turns_ended(&t), 1);
}

#[test]
fn keys_typed_after_a_tab_in_one_frame_go_to_the_next_field() {
    // Regression (tab-typing.sh): `0⇥12⇥22⇥32` typed faster than frames gave `0 / 122 / 2 / 32`.
    let mut t = table_with(Language::English, &SEED_PLAYERS);
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t.harness.get_by_label("New sheet").click();
    t.harness.run();
    t.harness.get_by_label("Add game").click();
    t.harness.run();
    t.harness.run();
    // Every key of the stream arrives before a single frame is drawn.
    let tab = |pressed| egui::Event::Key {
        key: Key::Tab,
        physical_key: None,
        pressed,
        repeat: false,
        modifiers: egui::Modifiers::NONE,
    };
    for (i, value) in ["0", "12", "22", "32"].iter().enumerate() {
        if i > 0 {
            t.harness.event(tab(true));
            t.harness.event(tab(false));
        }
        for c in value.chars() {
            t.harness.event(egui::Event::Text(c.to_string()));
        }
    }
    for _ in 0..8 {
        t.harness.step();
    }
    t.harness.run();
    for (name, value) in SEED_PLAYERS.iter().zip(["0", "12", "22", "32"]) {
        let field = t.harness.get_by_role_and_label(egui::Role::TextInput, name);
        assert_eq!(field.value().as_deref(), Some(value), "{name}'s field");
    }
}

#[test]
fn a_long_sheet_draws_only_the_rows_in_view_and_keeps_its_toolbar() {
    // Regression: a 2,000-game sheet was drawn whole every frame (a screen reader's full read of
    // its tree did not finish in 150 s).
    let t = table_with(Language::English, &SEED_PLAYERS);
    let mut sheet = rummikub_companion::score::Sheet::new(
        rummikub_companion::score::Players::new(SEED_PLAYERS).expect("players"),
        rummikub_companion::rules::RuleSet::default(),
        None,
        chrono::Utc::now(),
    )
    .expect("sheet");
    for g in 0..2_000u32 {
        let left = [0, 1 + g % 30, 5, 9];
        let hands = left
            .iter()
            .map(|&v| rummikub_companion::score::Hand::of_value(v));
        sheet
            .add_game(rummikub_companion::score::Game::new(hands.collect()))
            .expect("game");
    }
    let store = rummikub_companion::store::Store::open_reader(t.data.path());
    drop(store);
    let data = t.data;
    drop(t.harness);
    let writer = rummikub_companion::store::Store::open(data.path()).expect("store");
    let id = writer.new_sheet_id(chrono::Utc::now());
    writer.save_sheet(&id, &sheet).expect("saved");
    drop(writer);
    let mut t = reopen(data);
    apply(&mut t.harness, Action::Evening(Command::OpenSheet(id)));
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    let deletes = t.harness.get_all_by_label("Delete").count();
    assert!(
        (1..60).contains(&deletes),
        "only the rows in view are drawn: {deletes} of 2,000"
    );
    assert!(t.shows("Round 1, game 1"), "the first rows are in view");
    assert!(
        t.harness.query_by_label("New sheet").is_some(),
        "the toolbar"
    );
}

#[test]
fn time_up_moves_no_button_of_the_timer_tab() {
    // Regression: the penalty text pushed the buttons down 50–90 px at time-up.
    let mut t = table(Language::English);
    t.key(Key::Space);
    t.harness.run();
    let at = |t: &Table| t.harness.get_by_label("End turn").rect().min;
    let before = at(&t);
    t.advance(61.0);
    assert!(t.shows("Time's up"), "time is up");
    assert_eq!(at(&t), before, "End turn stays where it was");
}

/// Issue 23.13: five or six at a table on the standard set are offered the XP set, one click.
#[test]
fn five_players_on_the_standard_set_are_offered_the_xp_set_in_one_click() {
    let four = table_with(Language::English, &["Ann", "Bo", "Cy", "Dee"]);
    assert!(
        !four.shows("Play the XP set"),
        "four players: the standard set is theirs"
    );
    let mut t = table_with(Language::English, &["Ann", "Bo", "Cy", "Dee", "Eun"]);
    assert_eq!(
        t.harness.state().settings().rules.tile_set,
        TileSet::Standard
    );
    assert!(t.shows("5 players: the standard set is for 2–4."));
    // Below the seats, which the clock pushes down: scrolled to, as a person would.
    t.harness.get_by_label("Play the XP set").scroll_to_me();
    t.harness.run();
    t.harness.get_by_label("Play the XP set").click();
    t.harness.run();
    assert_eq!(t.harness.state().settings().rules.tile_set, TileSet::Xp);
    assert!(!t.shows("Play the XP set"));

    let k = table_with(Language::Korean, &["루미", "Bo", "Cy", "Dee", "Eun", "Fa"]);
    assert!(k.shows("6명: 기본 세트는 2–4명용입니다."));
    assert!(k.shows("XP 세트로 하기"));
}

/// Issue 23.13: the game form's tile picker allows the copies of the set the sheet's racks are
/// checked against: five players play the XP set (three of each tile) even when the rules
/// name the standard set.
#[test]
fn the_game_forms_picker_follows_the_set_five_players_play() {
    let players = ["Ann", "Bo", "Cy", "Dee", "Eun"];
    let mut t = table_with(Language::English, &players);
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t.harness.get_by_label("New sheet").click();
    t.harness.run();
    t.harness.get_by_label("Add game").click();
    t.harness.run();
    t.harness.get_by_label("Pick tiles: Bo").click();
    t.harness.run();
    for _ in 0..3 {
        t.click_tile("R5");
    }
    let field = t.harness.get_by_role_and_label(egui::Role::TextInput, "Bo");
    assert_eq!(field.value().as_deref(), Some("R5 R5 R5"));
}

/// Issue 23.9: at a Korean table the picker's joker reads 조커, its tiles are named as the table
/// calls them, and a picked meld is written in Korean notation (`빨10 빨11 조커`).
#[test]
fn a_korean_tables_picker_names_its_tiles_in_korean_and_the_joker_reads_jokeo() {
    let mut t = table(Language::Korean);
    apply(&mut t.harness, Action::Show(View::Meld));
    t.harness.run();
    assert!(t.harness.query_by_label("J").is_none(), "no English joker");
    for tile in ["빨10", "빨11", "조커"] {
        t.click_tile(tile);
    }
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, "등록 확인");
    assert_eq!(field.value().as_deref(), Some("빨10 빨11 조커"));
    // The checker reads the Korean notation back: the joker stands for 빨12 (33 points).
    assert!(t.shows("조커 (빨12)"));
    assert!(t.shows("33"));
}

/// A press and release of the primary button at `pos`.
fn click_events(pos: egui::Pos2) -> Vec<egui::Event> {
    let button = |pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    vec![egui::Event::PointerMoved(pos), button(true), button(false)]
}

/// The timer view with three seats, in a harness whose frames are 50 ms of input time.
fn three_seats_fast_frames() -> Harness<'static, App> {
    let data = tempfile::tempdir().expect("temporary data folder");
    let clock = Arc::new(ManualClock::default());
    let sounder = Arc::new(RecordingSounder::default());
    let deps = AppDeps::manual(clock, sounder, data.path());
    let mut harness = Harness::builder()
        .with_max_steps(12)
        .with_step_dt(0.05)
        .with_size([1100.0, 900.0])
        .build_eframe(move |cc| App::new(cc, deps));
    harness.run();
    let names = ["Ann", "Bo", "Cy"].map(String::from).to_vec();
    apply(&mut harness, Action::Timer(TimerCommand::SetPlayers(names)));
    harness.run();
    // The data folder lives as long as the process: the harness keeps using it.
    std::mem::forget(data);
    harness
}

/// Clicks "Add player" where it is now, then lets `frames` frames pass.
fn click_add_player(harness: &mut Harness<'static, App>, frames: usize) {
    let at = harness.get_by_label("Add player").rect().center();
    harness.input_mut().events.extend(click_events(at));
    for _ in 0..frames {
        harness.step();
    }
}

fn seats(harness: &Harness<'static, App>) -> usize {
    harness
        .state()
        .evening()
        .timer()
        .read(|timer, _| timer.players().len())
}

#[test]
fn a_double_click_on_add_player_adds_one_player() {
    // Regression (issue 23, item 10): the second click of a double-click added a second player.
    // The second click lands on the button where it is after the first (it moves down with
    // the new row), 0.1 s later: inside egui's 0.3 s double-click delay.
    let mut harness = three_seats_fast_frames();
    click_add_player(&mut harness, 2);
    click_add_player(&mut harness, 1);
    harness.run();
    assert_eq!(seats(&harness), 4, "a double-click adds one player");
    // Both clicks before the window draws again: one player too.
    let mut harness = three_seats_fast_frames();
    let at = harness.get_by_label("Add player").rect().center();
    harness.input_mut().events.extend(click_events(at));
    harness.input_mut().events.extend(click_events(at));
    harness.run();
    assert_eq!(seats(&harness), 4, "two clicks in one frame add one player");
    // Two clicks half a second apart are two players.
    let mut harness = three_seats_fast_frames();
    click_add_player(&mut harness, 10);
    click_add_player(&mut harness, 1);
    harness.run();
    assert_eq!(seats(&harness), 5, "two deliberate clicks, two players");
}

/// Runs frames until `text` shows (the table solver answers from a thread of its own), at most
/// ten seconds.
fn wait_for(t: &mut Table, text: &str) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        t.harness.run();
        if t.shows(text) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn whole_table_by_the_picker_shows_the_best_play_with_the_changed_set_marked() {
    let mut t = table(Language::English);
    apply(&mut t.harness, Action::Show(View::Meld));
    t.harness.run();
    t.harness.get_by_label("Whole table").click();
    t.harness.run();
    for tile in ["R5", "R6", "R7"] {
        t.click_tile(tile);
    }
    t.harness.get_by_label("New set").click();
    t.harness.run();
    for tile in ["B9", "K9", "O9"] {
        t.click_tile(tile);
    }
    // The picker now writes to the rack.
    t.harness
        .get_by_role_and_label(egui::Role::Button, "Rack")
        .click();
    t.harness.run();
    for tile in ["R8", "K2"] {
        t.click_tile(tile);
    }
    let table = t.harness.state().meld_texts();
    assert_eq!(table.0, "R5 R6 R7 | B9 K9 O9");
    assert_eq!(table.1, "R8 K2");
    assert!(
        wait_for(&mut t, "Best play: 1 tile from the rack (8 points)"),
        "the solver's answer appears"
    );
    assert!(t.shows("Table sets changed: 1"));
    // One step (R8 onto the run); past it, the table after the play with its marks.
    assert!(t.shows("Step 1 of 1"));
    t.harness.get_by_label("Next").click();
    t.harness.run();
    assert!(t.shows("The table after this play:"));
    assert!(
        t.harness.query_by_label("changed").is_some(),
        "the run R5–R8 is marked changed"
    );
    assert!(
        t.harness.query_by_label("as it was").is_some(),
        "the group is kept"
    );
    // A rack that lays nothing says so.
    apply(
        &mut t.harness,
        Action::WholeTable {
            table: "R5 R6 R7".into(),
            rack: "K1 B13".into(),
        },
    );
    assert!(wait_for(
        &mut t,
        "Nothing from the rack can be laid: draw a tile."
    ));
}

#[test]
fn whole_table_in_korean_reads_korean_notation_and_names_a_bad_set() {
    let mut t = table_with(Language::Korean, &SEED_PLAYERS);
    apply(
        &mut t.harness,
        Action::WholeTable {
            table: "빨5 빨6 빨7 | 파9 검9 주9".into(),
            rack: "빨8 조커".into(),
        },
    );
    assert!(wait_for(&mut t, "가장 좋은 수: 받침대에서 2개"));
    // Past the steps (다음 to the end), the table after the play with its marks.
    for _ in 0..5 {
        if t.shows("단계 모두 끝") {
            break;
        }
        t.harness.get_by_label("다음").click();
        t.harness.run();
    }
    assert!(t.shows("이렇게 놓은 뒤의 테이블:"));
    assert!(t.harness.query_by_label("바뀜").is_some());
    apply(
        &mut t.harness,
        Action::WholeTable {
            table: "빨5 빨6 빨7 | 빨1 파2 검3".into(),
            rack: "빨8".into(),
        },
    );
    assert!(wait_for(&mut t, "테이블의 2번째 묶음이 올바르지 않습니다"));
}

#[test]
fn the_referee_catches_a_pocketed_tile_and_a_broken_set_in_both_languages() {
    for (lang, illegal, pocketed, broken) in [
        (
            Language::English,
            "Illegal turn:",
            "taken off the table: O9",
            "set 2 (B9 K9) is not valid",
        ),
        (
            Language::Korean,
            "잘못된 차례입니다:",
            "테이블에서 사라진 타일: 주9",
            "2번째 묶음(파9 검9)이 올바르지 않습니다",
        ),
    ] {
        let mut t = table_with(lang, &SEED_PLAYERS);
        apply(
            &mut t.harness,
            Action::Referee {
                before: "R5 R6 R7 | B9 K9 O9".into(),
                after: "R5 R6 R7 R8 | B9 K9".into(),
                rack: "R8 K1".into(),
            },
        );
        t.harness.run();
        assert!(t.shows(illegal), "{lang:?}");
        assert!(t.shows(pocketed), "{lang:?}");
        assert!(t.shows(broken), "{lang:?}");
        // The same turn laid properly is legal.
        apply(
            &mut t.harness,
            Action::Referee {
                before: "R5 R6 R7 | B9 K9 O9".into(),
                after: "R5 R6 R7 R8 | B9 K9 O9".into(),
                rack: "R8 K1".into(),
            },
        );
        t.harness.run();
        assert!(!t.shows(illegal), "{lang:?}");
    }
}

// ---- Issue 49: the first minute at a table, and keys that never surprise ----

/// The machine of the phones' link test: no address a phone can reach until the laptop
/// "joins the Wi-Fi" (`JOINED`).
static JOINED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn wifi_machine(_bind: std::net::SocketAddr) -> Vec<rummikub_companion::server::LinkAddress> {
    if JOINED.load(std::sync::atomic::Ordering::SeqCst) {
        vec![rummikub_companion::server::LinkAddress {
            ip: "192.168.1.23".parse().expect("an address"),
            interface: "wlan0".into(),
        }]
    } else {
        Vec::new()
    }
}

/// Issue 49.5: with no address a phone can reach, Settings offered `http://127.0.0.1:…` and
/// its QR code as the Wi-Fi link. Now it says plainly that there is none (both languages),
/// shows no link, and "Look again" finds the Wi-Fi once the laptop has joined it.
#[test]
fn with_no_address_a_phone_can_reach_settings_says_so_and_shows_no_link() {
    for (lang, none, again) in [
        (Language::English, "No link can be shown", "Look again"),
        (Language::Korean, "링크를 보여 줄 수 없습니다", "다시 찾기"),
    ] {
        JOINED.store(false, std::sync::atomic::Ordering::SeqCst);
        let data = tempfile::tempdir().expect("a data folder");
        let mut t = reopen_with(data, |deps, _| deps.evening.addresses = wifi_machine);
        let mut settings = t.harness.state().settings().clone();
        settings.language = lang;
        apply(&mut t.harness, Action::Settings(settings));
        let loopback = "127.0.0.1:0".parse().expect("an address");
        t.harness.state().shared().start_phones_on(loopback);
        apply(&mut t.harness, Action::Show(View::Settings));
        t.harness.run();
        assert!(t.shows(none), "{lang:?}: the plain words");
        assert_eq!(
            t.harness.state().phone_url(),
            None,
            "no link that cannot work"
        );
        assert!(!t.shows("http://"), "{lang:?}: no address shown");
        JOINED.store(true, std::sync::atomic::Ordering::SeqCst);
        t.harness.get_by_label(again).click();
        t.harness.run();
        let url = t.harness.state().phone_url().expect("the Wi-Fi's link");
        assert!(url.starts_with("http://192.168.1.23:"), "{url}");
        assert!(t.shows("http://192.168.1.23:"), "{lang:?}");
        assert!(!t.shows(none));
    }
}

fn ctrl(t: &mut Table, key: Key) {
    t.harness.key_press_modifiers(egui::Modifiers::COMMAND, key);
    t.harness.run();
}

/// Types `text` at the end of the timer's name field `label` and leaves the field (Esc, as a
/// click beside it would).
fn rename_seat(t: &mut Table, label: &str, text: &str) {
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, label);
    field.focus();
    t.harness.run();
    t.harness
        .get_by_role_and_label(egui::Role::TextInput, label)
        .type_text(text);
    t.harness.run();
    t.key(Key::Escape);
}

/// Issue 49.3: Backspace on the timer ("undo on the clock") took back the last rename, so a
/// click that missed a name field and a Backspace renamed a player back. Backspace takes back
/// only the clock's changes and says when there is none; Ctrl+Z on the timer tab still takes
/// back the rename, and the offer names it.
#[test]
fn backspace_on_the_timer_never_takes_back_a_rename() {
    for (lang, offer, nothing, undone) in [
        (
            Language::English,
            "Bo renamed Boby",
            "Nothing to undo on the clock",
            "Undone: Bo renamed Boby",
        ),
        (
            Language::Korean,
            "Bo를 Boby로 바꿈",
            "시계에는 되돌릴 것이 없습니다",
            "Bo를 Boby로 바꿈",
        ),
    ] {
        let mut t = table(lang);
        let label = (lang.strings().timer.default_player)(2);
        rename_seat(&mut t, &label, "by");
        assert_eq!(t.harness.state().settings().players[1], "Boby");
        assert!(t.shows(offer), "{lang:?}: the offer names the rename");
        t.key(Key::Backspace);
        assert_eq!(
            t.harness.state().settings().players[1],
            "Boby",
            "{lang:?}: Backspace is the clock's"
        );
        assert!(t.shows(nothing), "{lang:?}: and says there is nothing");
        ctrl(&mut t, Key::Z);
        assert_eq!(t.harness.state().settings().players[1], "Bo", "{lang:?}");
        assert!(t.shows(undone), "{lang:?}");
        // The clock's own change is still Backspace's.
        t.key(Key::Space);
        assert_eq!(t.read(|timer, _| timer.phase()), Phase::Running);
        t.key(Key::Backspace);
        assert_eq!(t.read(|timer, _| timer.phase()), Phase::Idle);
    }
}

/// Issue 49.8: Ctrl+Z on the Meld tab silently undid a game on the score sheet. Undo acts on
/// the tab in view; the Meld tab has nothing of the evening's to undo and says so.
#[test]
fn ctrl_z_on_the_meld_tab_changes_no_sheet_and_says_there_is_nothing_to_undo() {
    for (lang, nothing) in [
        (Language::English, "Nothing to undo on this tab."),
        (Language::Korean, "이 탭에는 되돌릴 것이 없습니다."),
    ] {
        let mut t = seed_sheet_table();
        let mut settings = t.harness.state().settings().clone();
        settings.language = lang;
        apply(&mut t.harness, Action::Settings(settings));
        let before = t.harness.state().sheet().expect("a sheet");
        assert_eq!(before.games().len(), 4);
        apply(&mut t.harness, Action::Show(View::Meld));
        t.harness.run();
        t.click_tile(if lang == Language::Korean {
            "빨10"
        } else {
            "R10"
        });
        ctrl(&mut t, Key::Z);
        assert_eq!(
            t.harness.state().sheet().expect("a sheet"),
            before,
            "{lang:?}: no game undone"
        );
        assert!(t.shows(nothing), "{lang:?}");
        ctrl(&mut t, Key::Y);
        assert_eq!(t.harness.state().sheet().expect("a sheet"), before);
        // On the sheet, the sheet's undo takes back its last game.
        apply(&mut t.harness, Action::Show(View::Sheet));
        t.harness.run();
        assert!(!t.shows(nothing), "the note belongs to the Meld tab");
        ctrl(&mut t, Key::Z);
        assert_eq!(t.harness.state().sheet().expect("a sheet").games().len(), 3);
    }
}

/// Issue 49.8: every undo offer names what it undoes: a rule change by its values.
#[test]
fn a_rule_change_is_offered_for_undo_by_its_values() {
    let mut t = table(Language::English);
    let mut settings = t.harness.state().settings().clone();
    settings.rules.turn_seconds = 20;
    settings.rules.warning_seconds = 5;
    apply(&mut t.harness, Action::Settings(settings));
    apply(&mut t.harness, Action::Show(View::Settings));
    t.harness.run();
    assert!(
        t.shows("Turn length: 60s → 20s, Warning before the end: 10s → 5s"),
        "the offer names the values"
    );
    ctrl(&mut t, Key::Z);
    assert_eq!(t.harness.state().settings().rules.turn_seconds, 60);
    assert!(t.shows("Undone: Turn length: 60s → 20s"));
}

/// Issue 49.9: the sheet's "Rounds / open-ended / target" choice for new sheets was not saved,
/// and after a restart the next sheet silently became a 1-round match. Every choice a table
/// makes is kept: the sheet's plan and the Meld tab's mode and "best by".
#[test]
fn the_choices_for_new_sheets_and_the_meld_tab_survive_a_restart() {
    let mut t = table(Language::English);
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t.harness
        .get_by_role_and_label(egui::Role::CheckBox, "target total")
        .click();
    t.harness.run();
    t.harness
        .get_by_role_and_label(egui::Role::CheckBox, "open-ended")
        .click();
    t.harness.run();
    let plan = t.harness.state().settings().new_sheet;
    assert!(plan.open_ended && plan.use_target, "{plan:?}");
    apply(&mut t.harness, Action::Show(View::Meld));
    t.harness.run();
    t.harness.get_by_label("Best meld from a rack").click();
    t.harness.run();
    t.harness.get_by_label("most tiles").click();
    t.harness.run();
    let data = t.data;
    drop(t.harness);

    let mut t = reopen(data);
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t.harness.get_by_label("New sheet").click();
    t.harness.run();
    let sheet = t.harness.state().sheet().expect("a new sheet");
    assert_eq!(
        sheet.planned_rounds(),
        None,
        "open-ended, as chosen before the restart"
    );
    assert_eq!(sheet.target(), Some(100), "with its target");
    let meld = t.harness.state().settings().meld;
    assert_eq!(meld.mode, MeldMode::Solve);
    assert_eq!(meld.solve, rummikub_companion::solver::Objective::Tiles);
    apply(&mut t.harness, Action::Show(View::Meld));
    t.harness.run();
    assert!(t.shows("Rack"), "the Meld tab opens where it was left");
}

/// Issue 49.10: the history can count two names as one player, lists each merge with a way
/// back ("Count apart"), and both are undone on the sheet tab.
#[test]
fn the_history_counts_two_names_as_one_and_counts_them_apart_again() {
    for (lang, merged, apart) in [
        (Language::English, "퍼니 is counted as 루미", "Count apart"),
        (Language::Korean, "퍼니를 루미로 셉니다", "따로 세기"),
    ] {
        let mut t = seed_sheet_table();
        let mut settings = t.harness.state().settings().clone();
        settings.language = lang;
        apply(&mut t.harness, Action::Settings(settings));
        apply(&mut t.harness, Action::Sheet(SheetRequest::History(true)));
        assert!(wait_for(&mut t, "알토"), "{lang:?}: the history is shown");
        apply(
            &mut t.harness,
            Action::Evening(Command::MergeNames {
                from: "퍼니".into(),
                into: "루미".into(),
            }),
        );
        assert!(wait_for(&mut t, merged), "{lang:?}");
        t.harness.get_by_label(apart).click();
        t.harness.run();
        assert!(
            t.harness.state().settings().merged_names.is_empty(),
            "{lang:?}"
        );
        assert!(!t.shows(merged));
        ctrl(&mut t, Key::Z);
        assert_eq!(
            t.harness.state().settings().merged_names.len(),
            1,
            "{lang:?}: undone"
        );
        assert!(wait_for(&mut t, merged));
    }
}

/// Issue 49.7: a tie's winner, once chosen, blocked Save for good when the values changed so
/// that the tie was gone (the radios went with it). A choice that no longer applies is
/// dropped.
#[test]
fn a_tie_winner_that_no_longer_applies_is_dropped_and_save_works() {
    let mut t = table_with(Language::English, &SEED_PLAYERS);
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t.harness.get_by_label("New sheet").click();
    t.harness.run();
    enter_game(&mut t, &["4", "4", "9", "12"]);
    t.harness
        .get_by_role_and_label(egui::Role::RadioButton, "큐브")
        .click();
    t.harness.run();
    // 큐브 had 4 too: now 6, so 루미 is lowest alone, and no tie is left to decide.
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, "큐브");
    field.focus();
    t.harness.run();
    t.harness
        .key_press_modifiers(egui::Modifiers::COMMAND, Key::A);
    t.harness.run();
    t.harness
        .get_by_role_and_label(egui::Role::TextInput, "큐브")
        .type_text("6");
    t.harness.run();
    assert_eq!(
        t.harness.state().evening().draft().map(|d| d.tie_winner),
        Some(None),
        "the choice went with the tie"
    );
    t.key(Key::Enter);
    let sheet = t.harness.state().sheet().expect("sheet");
    assert_eq!(sheet.games().len(), 1, "saved");
    assert_eq!(sheet.scores()[0].winner, 0, "루미, lowest");
}

/// Delivers `events` as eframe does: through the window's input hook (`raw_input_hook`) first,
/// then to the frame.
fn through_the_window(t: &mut Table, events: Vec<egui::Event>) {
    use eframe::App as _;
    let mut raw = egui::RawInput {
        events,
        ..Default::default()
    };
    let ctx = t.harness.ctx.clone();
    t.harness.state_mut().raw_input_hook(&ctx, &mut raw);
    for event in raw.events {
        t.harness.event(event);
    }
    t.harness.run();
}

/// One key press and release, as a keyboard sends it.
fn press(t: &mut Table, key: Key) {
    for pressed in [true, false] {
        t.harness.event(egui::Event::Key {
            key,
            physical_key: None,
            pressed,
            repeat: false,
            modifiers: egui::Modifiers::NONE,
        });
    }
}

/// Types `stream` a key at a time, a frame after each (Tab as `\t`).
fn type_stream(t: &mut Table, stream: &str) {
    for c in stream.chars() {
        if c == '\t' {
            press(t, Key::Tab);
        } else {
            t.harness.event(egui::Event::Text(c.to_string()));
        }
        t.harness.run();
    }
}

/// Issue 49.6: after a refused Enter in the score form the first key lost the cursor (the
/// form moved 18 px, the cursor went to the Meld check tab) and the rest was lost: `12` was
/// saved as `1`. The field keeps the cursor and every key, and the form does not move.
#[test]
fn after_a_refused_enter_the_field_keeps_the_cursor_and_every_key_typed() {
    for (lang, why) in [
        (Language::English, "type what is left"),
        (Language::Korean, "남은 값을 입력하세요"),
    ] {
        let mut t = table_with(lang, &SEED_PLAYERS);
        apply(&mut t.harness, Action::Show(View::Sheet));
        apply(
            &mut t.harness,
            Action::Evening(Command::NewSheet {
                rounds: None,
                target: None,
            }),
        );
        t.harness.run();
        t.harness
            .get_by_label(lang.strings().sheet.add_game)
            .click();
        t.harness.run();
        t.harness.run();
        let field = |t: &Table, i: usize| {
            t.harness
                .get_by_role_and_label(egui::Role::TextInput, SEED_PLAYERS[i])
                .rect()
        };
        let at = field(&t, 1);
        type_stream(&mut t, "0\t");
        press(&mut t, Key::Enter);
        t.harness.run();
        assert!(t.shows(why), "{lang:?}: it says why it cannot save");
        assert!(
            t.harness
                .get_by_role_and_label(egui::Role::TextInput, SEED_PLAYERS[1])
                .is_focused(),
            "{lang:?}: the cursor stays in 큐브's field"
        );
        assert_eq!(field(&t, 1), at, "{lang:?}: the form did not move");
        type_stream(&mut t, "12\t7\t3");
        assert_eq!(field(&t, 1), at, "{lang:?}: nor while typing");
        press(&mut t, Key::Enter);
        t.harness.run();
        let sheet = t.harness.state().sheet().expect("a sheet");
        assert_eq!(sheet.games().len(), 1, "{lang:?}: saved");
        let left: Vec<String> = sheet.games()[0]
            .hands
            .iter()
            .map(|h| h.left.to_string())
            .collect();
        assert_eq!(left, ["0", "12", "7", "3"], "{lang:?}: every key landed");
    }
}

/// Issue 49.1: four names typed with Return between them: Return goes to the next seat's
/// name (all of it selected, so typing replaces it) and leaves the last one; the clock stays
/// stopped (before, the Return after a name that went nowhere started it).
#[test]
fn four_names_typed_with_return_between_them_set_every_seat_and_start_no_clock() {
    let mut t = table_with(
        Language::English,
        &["Player 1", "Player 2", "Player 3", "Player 4"],
    );
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, "Player 1");
    field.focus();
    t.harness.run();
    ctrl(&mut t, Key::A);
    for name in ["Ann", "Bo", "Cy", "Dee"] {
        type_stream(&mut t, name);
        press(&mut t, Key::Enter);
        t.harness.run();
    }
    t.harness.run();
    assert_eq!(
        t.harness.state().settings().players,
        ["Ann", "Bo", "Cy", "Dee"]
    );
    assert_eq!(
        t.read(|timer, _| timer.phase()),
        Phase::Idle,
        "no clock started"
    );
    // The cursor left the names: now Return is the table's key.
    press(&mut t, Key::Enter);
    t.harness.run();
    assert_eq!(t.read(|timer, _| timer.phase()), Phase::Running);
}

/// Issue 49.2: Tab from the last name landed on "↑ Move up", and Space then swapped two seats.
/// The seat controls are not in the Tab order, and Space with a button focused is the
/// table's key (the window lets that focus go before the frame: `raw_input_hook`).
#[test]
fn tab_from_the_last_name_then_space_swaps_no_seat_and_starts_the_clock() {
    let mut t = table(Language::English);
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, "Player 4");
    field.focus();
    t.harness.run();
    press(&mut t, Key::Tab);
    t.harness.run();
    t.harness.run();
    for control in ["Move up", "Remove", "Add player"] {
        for node in t.harness.query_all_by_label(control) {
            assert!(!node.is_focused(), "{control} is not reached by Tab");
        }
    }
    // Space as eframe delivers it: through the window's input hook first.
    let space = |pressed| egui::Event::Key {
        key: Key::Space,
        physical_key: None,
        pressed,
        repeat: false,
        modifiers: egui::Modifiers::NONE,
    };
    through_the_window(&mut t, vec![space(true), space(false)]);
    assert_eq!(
        t.harness.state().settings().players,
        ["Ann", "Bo", "Cy", "Dee"],
        "no seat moved"
    );
    assert_eq!(
        t.read(|timer, _| timer.phase()),
        Phase::Running,
        "Space started the clock"
    );
}

/// Issue 49.1: the notices a laptop without sound or a screen saver shows ("No sound
/// output…", "The screen cannot be kept awake…") need no action: once read they fold into one
/// short line, and "Show" brings them back whole.
#[test]
fn notices_that_need_no_action_fold_into_one_line_once_read_and_come_back_on_demand() {
    fn refused() -> Result<Box<dyn std::any::Any + Send>, String> {
        Err("org.freedesktop.DBus.Error.ServiceUnknown".into())
    }
    for (lang, whole, short, show) in [
        (
            Language::English,
            "The screen cannot be kept awake",
            "Screen may dim",
            "Show",
        ),
        (
            Language::Korean,
            "화면을 켜 둘 수 없습니다",
            "화면이 어두워질 수 있음",
            "보기",
        ),
    ] {
        let data = tempfile::tempdir().expect("a data folder");
        let mut t = reopen_with(data, |deps, _| deps.evening.keep_awake = Some(refused));
        let mut settings = t.harness.state().settings().clone();
        settings.language = lang;
        apply(&mut t.harness, Action::Settings(settings));
        t.key(Key::Space);
        assert!(t.shows(whole), "{lang:?}: said whole at first");
        t.advance(9.0);
        assert!(!t.shows(whole), "{lang:?}: folded once read");
        assert!(t.shows(short), "{lang:?}: one short line");
        t.harness.get_by_label(show).click();
        t.harness.run();
        assert!(t.shows(whole), "{lang:?}: back on demand");
    }
}

/// Issue 49.11: the small things a table still met. Ctrl+N adds a game (from any tab; the
/// button shows the key); a long sheet keeps its players' names in sight; "Open" and the
/// sheet's check boxes are 44 px targets; full-width input (`Ｒ１２`) is shown as what it reads.
#[test]
fn ctrl_n_adds_a_game_the_names_stay_in_sight_targets_are_44_px_and_full_width_is_folded() {
    let mut t = seed_sheet_table();
    // 40 games: a sheet longer than the window.
    for _ in 0..36 {
        let hands = ["0", "5", "16", "3"]
            .iter()
            .map(|v| rummikub_companion::score::Hand::of_value(v.parse().expect("a number")))
            .collect();
        save_game(&mut t.harness, &rummikub_companion::score::Game::new(hands));
    }
    apply(&mut t.harness, Action::Show(View::Timer));
    t.harness.run();
    ctrl(&mut t, Key::N);
    t.harness.run();
    assert_eq!(
        t.harness.state().view(),
        View::Sheet,
        "Ctrl+N shows the sheet"
    );
    assert!(
        t.harness.state().evening().draft().is_some(),
        "with the form open"
    );
    // The form is at the bottom of a long sheet: the names are still in sight at the top.
    let names = t.harness.query_all_by_label("알토").count();
    assert!(names >= 2, "the header's name and the form's field label");
    let header = t
        .harness
        .query_all_by_label("알토")
        .map(|n| n.rect())
        .min_by(|a, b| a.min.y.total_cmp(&b.min.y))
        .expect("a name");
    assert!(
        header.min.y < 200.0,
        "the header stays under the toolbar: {header:?}"
    );
    // Full-width typed into 큐브's field reads and shows as ASCII.
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, "큐브");
    field.focus();
    t.harness.run();
    through_the_window(&mut t, vec![egui::Event::Text("Ｒ１２　Ｊ".into())]);
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, "큐브");
    assert_eq!(field.value().as_deref(), Some("R12 J"));
    // Touch targets.
    for (role, label) in [
        (egui::Role::Button, "Open"),
        (egui::Role::CheckBox, "open-ended"),
        (egui::Role::CheckBox, "target total"),
    ] {
        let rect = t.harness.get_by_role_and_label(role, label).rect();
        assert!(rect.height() >= 44.0, "{label}: {rect:?}");
    }
}

/// Issue 49.6, the edit form too: after a refused Enter while editing a game, the field keeps
/// the cursor and every key typed after it lands (`12` saved as `12`, not `1`).
#[test]
fn after_a_refused_enter_in_the_edit_form_the_field_keeps_every_key() {
    let mut t = seed_sheet_table();
    apply(&mut t.harness, Action::Show(View::Sheet));
    t.harness.run();
    t.harness
        .get_all_by_label("Edit")
        .next()
        .expect("an edit button")
        .click();
    t.harness.run();
    t.harness.run();
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, SEED_PLAYERS[1]);
    field.focus();
    t.harness.run();
    let at = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, SEED_PLAYERS[1])
        .rect();
    ctrl(&mut t, Key::A);
    press(&mut t, Key::Backspace);
    press(&mut t, Key::Enter);
    t.harness.run();
    assert!(t.shows("type what is left"), "it says why it cannot save");
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, SEED_PLAYERS[1]);
    assert!(field.is_focused(), "the cursor stays in 큐브's field");
    assert_eq!(field.rect(), at, "the form did not move");
    type_stream(&mut t, "12");
    press(&mut t, Key::Enter);
    t.harness.run();
    let sheet = t.harness.state().sheet().expect("a sheet");
    assert!(t.harness.state().evening().draft().is_none(), "saved");
    assert_eq!(
        sheet.games()[0].hands[1].left.to_string(),
        "12",
        "every key landed"
    );
}

/// Issue 49.8: Ctrl+Z typed in a meld field is that field's own undo: it takes back typing in
/// the field, and neither the evening's undo nor "nothing to undo" comes into it.
#[test]
fn undo_in_a_meld_field_stays_in_the_field() {
    let mut t = seed_sheet_table();
    let before = t.harness.state().sheet().expect("a sheet");
    apply(&mut t.harness, Action::Show(View::Meld));
    t.harness.run();
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, "Check a meld");
    field.focus();
    t.harness.run();
    type_stream(&mut t, "R10 R11 R12");
    let typed = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, "Check a meld")
        .value();
    assert_eq!(typed.as_deref(), Some("R10 R11 R12"));
    ctrl(&mut t, Key::Z);
    t.harness.run();
    let field = t
        .harness
        .get_by_role_and_label(egui::Role::TextInput, "Check a meld");
    assert!(field.is_focused(), "still in the field");
    assert_ne!(field.value(), typed, "the field took back its typing");
    assert_eq!(
        t.harness.state().sheet().expect("a sheet"),
        before,
        "no game undone"
    );
    assert!(!t.shows("Nothing to undo on this tab."));
}

/// At 960×720 with a notice a saved game went out of sight: the sheet stayed scrolled to where
/// the form was, past its games (the real window's card_export test could not find "Round 1,
/// game 1"). After a new game is saved, the totals and the game just saved are in view; 560 px
/// is the height the window had left for the view.
#[test]
fn a_game_saved_in_a_short_window_stays_in_sight_with_the_totals() {
    let mut t = table_with(Language::English, &SEED_PLAYERS);
    t.harness.set_size(egui::vec2(960.0, 560.0));
    apply(&mut t.harness, Action::Show(View::Sheet));
    apply(
        &mut t.harness,
        Action::Evening(Command::NewSheet {
            rounds: None,
            target: None,
        }),
    );
    t.harness.run();
    for game in 1..=3 {
        t.harness.get_by_label("Add game").click();
        t.harness.run();
        t.harness.run();
        type_stream(&mut t, "0\t12\t7\t3");
        press(&mut t, Key::Enter);
        t.harness.run();
        t.harness.run();
        assert!(t.harness.state().evening().draft().is_none(), "saved");
        let row = format!("Round 1, game {game}");
        let rect = t
            .harness
            .query_by_label(&row)
            .unwrap_or_else(|| panic!("{row} is drawn (in view)"))
            .rect();
        // In sight: below the names above the scrolling rows, and above the window's bottom.
        let names = t
            .harness
            .query_all_by_label(SEED_PLAYERS[0])
            .map(|n| n.rect())
            .min_by(|a, b| a.min.y.total_cmp(&b.min.y))
            .expect("the names' row");
        assert!(
            rect.min.y >= names.max.y && rect.max.y <= 560.0,
            "{row} at {rect:?}, the names end at {}",
            names.max.y
        );
        let total = t.harness.get_by_label("Total").rect();
        assert!(
            total.min.y >= names.max.y && total.max.y <= 560.0,
            "the totals at {total:?}"
        );
    }
}
