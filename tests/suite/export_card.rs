//! "Export picture" writes a score card of the sheet — title, date, players, every game,
//! totals, winner or leader, the running-total chart — drawn on its own, never a screenshot of
//! the window: the same picture at any window size, with no button, notice or path in it, and a
//! long sheet whole. `RC_CARD_OUT=DIR` keeps the pictures made here, to look at.

use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rummikub_companion::evening::{Command, DraftEdit};
use rummikub_companion::lang::Language;
use rummikub_companion::rules::RuleSet;
use rummikub_companion::runtime::ManualClock;
use rummikub_companion::sound::RecordingSounder;
use rummikub_companion::ui::app::{Action, TimerCommand, View};
use rummikub_companion::ui::card::{self, CARD_WIDTH, CardInfo};
use rummikub_companion::ui::{App, AppDeps};

use crate::util::sheets::random_sheet;
use crate::util::{rng, seed_sheet, t0};

fn keep(name: &str, image: &egui::ColorImage) {
    if let Some(dir) = std::env::var_os("RC_CARD_OUT") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).expect("RC_CARD_OUT folder");
        rummikub_companion::ui::save_png(&dir.join(name), image).expect("kept picture");
    }
}

fn apply(harness: &mut Harness<'static, App>, action: Action) {
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, action);
}

/// A decoded PNG: width, height, RGBA bytes.
fn decode(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let file = std::fs::File::open(path).expect("the exported picture");
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .expect("a PNG");
    let mut bytes = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut bytes).expect("a frame");
    assert_eq!(info.color_type, png::ColorType::Rgba);
    bytes.truncate(info.buffer_size());
    (info.width, info.height, bytes)
}

/// The window at `size`, a sheet of three games typed through the evening's commands, then a
/// click on "Export picture": the PNG it wrote, decoded, and the notice's words.
fn export_at(lang: Language, size: [f32; 2]) -> ((u32, u32, Vec<u8>), String) {
    let data = tempfile::tempdir().expect("temporary data folder");
    let clock = Arc::new(ManualClock::default());
    let sounder = Arc::new(RecordingSounder::default());
    let deps = AppDeps::manual(clock, sounder, data.path());
    let mut harness = Harness::builder()
        .with_max_steps(12)
        .with_size(size)
        .build_eframe(move |cc| App::new(cc, deps));
    harness.run();
    let mut settings = harness.state().settings().clone();
    settings.language = lang;
    apply(&mut harness, Action::Settings(settings));
    let names = ["Ann", "Bo", "Cy", "Dee"].map(String::from).to_vec();
    apply(&mut harness, Action::Timer(TimerCommand::SetPlayers(names)));
    apply(&mut harness, Action::Show(View::Sheet));
    apply(
        &mut harness,
        Action::Evening(Command::NewSheet {
            rounds: Some(1),
            target: None,
        }),
    );
    for left in [[0, 12, 30, 7], [25, 0, 4, 18], [9, 14, 0, 3]] {
        apply(&mut harness, Action::Evening(Command::AddGame));
        for (seat, v) in left.iter().enumerate() {
            let edit = DraftEdit::Left(seat, v.to_string());
            apply(&mut harness, Action::Evening(Command::Draft(edit)));
        }
        apply(&mut harness, Action::Evening(Command::SaveGame));
    }
    harness.run();
    let button = match lang {
        Language::English => "Export picture",
        Language::Korean => "그림으로 내보내기",
    };
    harness.get_by_label(button).click();
    let exports = data.path().join("exports");
    let started = Instant::now();
    let png = loop {
        harness.run();
        let written = std::fs::read_dir(&exports)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "png"));
        let told = harness.state().notices().iter().any(|n| n.contains(".png"));
        if let Some(png) = written.filter(|_| told) {
            break png;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no picture written and told within 60 s: {:?}",
            harness.state().notices()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let notice = harness.state().notices().join(" | ");
    (decode(&png), notice)
}

fn is_paper(px: &[u8]) -> bool {
    px.iter().all(|&c| c >= 250)
}

#[test]
fn export_picture_is_a_score_card_the_same_at_any_window_size_not_the_window() {
    let ((w1, h1, small), notice) = export_at(Language::English, [560.0, 440.0]);
    let ((w2, h2, large), _) = export_at(Language::English, [1400.0, 1000.0]);
    assert!(notice.contains("Exported to"), "{notice}");
    // The card's own size: its fixed width at two pixels a point, whatever the window's.
    assert_eq!((w1, h1), (w2, h2), "the same card at both window sizes");
    assert_eq!(w1, (CARD_WIDTH * 2.0) as u32);
    assert!(h1 > 600, "title, games, totals and chart: {h1} px tall");
    // The same picture (the footer's minute may turn between the two).
    let differ = small
        .chunks_exact(4)
        .zip(large.chunks_exact(4))
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        differ * 100 < (w1 * h1) as usize,
        "{differ} pixels differ between the two window sizes"
    );
    // Paper, not the window: white corners where a screenshot has the dark toolbar and panel,
    // and mostly white.
    let at = |x: u32, y: u32| &small[((y * w1 + x) * 4) as usize..][..4];
    for (x, y) in [
        (2, 2),
        (w1 - 3, 2),
        (2, h1 - 3),
        (w1 - 3, h1 - 3),
        (w1 / 2, 10),
    ] {
        assert!(is_paper(at(x, y)), "paper at ({x}, {y}): {:?}", at(x, y));
    }
    let paper = small.chunks_exact(4).filter(|p| is_paper(p)).count();
    assert!(
        paper * 10 > (w1 * h1) as usize * 6,
        "{paper} of {} pixels are paper",
        w1 * h1
    );
    // The winner's points in the sheet's green are on it.
    let green = small
        .chunks_exact(4)
        .filter(|p| p[1] > 100 && p[0] < 80 && p[2] < 80)
        .count();
    assert!(green > 50, "{green} green pixels");
}

#[test]
fn export_picture_in_korean_writes_the_card() {
    let ((w, h, bytes), notice) = export_at(Language::Korean, [900.0, 700.0]);
    assert!(notice.contains(".png"), "{notice}");
    assert_eq!(w, (CARD_WIDTH * 2.0) as u32);
    assert!(h > 600);
    let paper = bytes.chunks_exact(4).filter(|p| is_paper(p)).count();
    assert!(paper * 10 > (w * h) as usize * 6);
}

#[test]
fn a_score_card_holds_title_date_players_every_game_totals_winner_and_chart() {
    let sheet = seed_sheet(RuleSet::default());
    let info = CardInfo {
        name: "20240501-190000",
        made: t0(),
    };
    let en = card::draw(&sheet, Language::English, &info);
    keep("card-en.png", &en.image);
    let has = |texts: &[String], t: &str| texts.iter().any(|x| x.contains(t));
    for t in [
        "Rummikub score sheet",
        "Sheet 20240501-190000",
        "started ",
        "루미",
        "알토",
        "Total",
        "Wins",
        "Rank",
        "Running totals",
        "Rummikub Companion · exported",
    ] {
        assert!(has(&en.texts, t), "{t:?} on the card: {:?}", en.texts);
    }
    for n in 1..=sheet.games().len() {
        let label = format!("Round 1, game {n}");
        assert!(en.texts.contains(&label), "{label} on the card");
    }
    assert!(
        has(&en.texts, "Winner by") || has(&en.texts, "Leader by"),
        "{:?}",
        en.texts
    );
    for total in sheet.standings().totals {
        let total = rummikub_companion::score::table::signed(total).replace('-', "−");
        assert!(en.texts.contains(&total), "total {total} on the card");
    }
    // No button, no notice, no path.
    for t in [
        "Export picture",
        "New sheet",
        "Edit",
        "Delete",
        "Exported to",
    ] {
        assert!(!has(&en.texts, t), "{t:?} is not on a card");
    }
    assert!(
        en.texts
            .iter()
            .all(|t| !t.contains('/') && !t.contains('\\')),
        "{:?}",
        en.texts
    );
    let ko = card::draw(&sheet, Language::Korean, &info);
    keep("card-ko.png", &ko.image);
    for t in [
        "루미큐브 점수표",
        "1라운드 1게임",
        "점수합계",
        "순위",
        "누적 점수",
    ] {
        assert!(
            has(&ko.texts, t),
            "{t:?} on the Korean card: {:?}",
            ko.texts
        );
    }
    assert_eq!(
        en.image.size, ko.image.size,
        "the card's size is the sheet's"
    );
}

#[test]
fn a_long_sheet_card_holds_all_200_games_in_columns() {
    let names = ["Ann", "Bo", "Cy", "Dee"];
    let sheet = random_sheet(&mut rng(23), &names, RuleSet::default(), None, t0(), 200);
    let info = CardInfo {
        name: "20240501-190000",
        made: t0(),
    };
    let started = Instant::now();
    let card = card::draw(&sheet, Language::English, &info);
    let took = started.elapsed();
    keep("card-200.png", &card.image);
    for i in 0..sheet.games().len() {
        let n = sheet.number(i);
        let label = format!("Round {}, game {}", n.round, n.in_round);
        assert!(card.texts.contains(&label), "{label} on the 200-game card");
    }
    let [w, h] = card.image.size;
    assert!(w > h / 3, "columns, not one strip: {w}×{h}");
    assert!(w * h <= 24_000_000, "{w}×{h}");
    assert!(took < Duration::from_secs(30), "drawn in {took:?}");
    eprintln!("200-game card: {w}×{h} px in {took:?}");
}
