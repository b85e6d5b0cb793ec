//! The window, headless (egui_kittest), with a fake clock and a recording sounder injected.

use std::sync::Arc;
use std::time::Duration;

use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rummikub_companion::i18n::Language;
use rummikub_companion::runtime::ManualClock;
use rummikub_companion::sound::{Cue, RecordingSounder};
use rummikub_companion::timer::Phase;
use rummikub_companion::ui::app::{Action, View};
use rummikub_companion::ui::{App, AppDeps};

struct Table {
    harness: Harness<'static, App>,
    clock: Arc<ManualClock>,
    sounder: Arc<RecordingSounder>,
}

fn table(lang: Language) -> Table {
    let clock = Arc::new(ManualClock::default());
    let sounder = Arc::new(RecordingSounder::default());
    let deps = AppDeps::manual(clock.clone(), sounder.clone());
    let mut harness = Harness::builder()
        .with_size([1100.0, 900.0])
        .build_eframe(move |cc| App::new(cc, deps));
    let mut settings = harness.state().settings().clone();
    settings.language = lang;
    settings.players = ["Ann", "Bo", "Cy", "Dee"].map(String::from).to_vec();
    apply(&mut harness, Action::Settings(settings.clone()));
    apply(
        &mut harness,
        Action::Timer(rummikub_companion::ui::app::TimerCommand::SetPlayers(
            settings.players,
        )),
    );
    harness.run();
    Table {
        harness,
        clock,
        sounder,
    }
}

fn apply(harness: &mut Harness<'static, App>, action: Action) {
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, action);
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
        self.harness.state().timer().read(f)
    }

    fn click_tile(&mut self, label: &str) {
        self.harness
            .get_by_role_and_label(egui::Role::Button, label)
            .click();
        self.harness.run();
    }

    fn shows(&self, text: &str) -> bool {
        self.harness.query_by_label_contains(text).is_some()
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
    assert!(t.shows("Time's up! 0:00"));
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

    // Backspace undoes the end-turn: Ann's timed-out turn is back.
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
