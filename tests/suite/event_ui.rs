//! The window's Event view, headless (egui_kittest): a club night created, seated, scored and
//! ranked through the view's own widgets, its file written by the event desk's thread.

use std::sync::Arc;
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use rummikub_companion::event::Ranking;
use rummikub_companion::lang::Language;
use rummikub_companion::runtime::ManualClock;
use rummikub_companion::sound::RecordingSounder;
use rummikub_companion::store::Store;
use rummikub_companion::ui::app::{Action, View};
use rummikub_companion::ui::{App, AppDeps};

const TWELVE: [&str; 12] = [
    "Ann", "Bo", "Cy", "Di", "Ed", "Fa", "Gu", "Hal", "Ivo", "Jo", "Kai", "Lu",
];

fn window(lang: Language) -> (Harness<'static, App>, tempfile::TempDir) {
    let data = tempfile::tempdir().expect("temporary data folder");
    let clock = Arc::new(ManualClock::default());
    let deps = AppDeps::manual(clock, Arc::new(RecordingSounder::default()), data.path());
    let mut harness = Harness::builder()
        .with_max_steps(12)
        .with_size([1100.0, 2400.0])
        .build_eframe(move |cc| App::new(cc, deps));
    harness.run();
    let mut settings = harness.state().settings().clone();
    settings.language = lang;
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, Action::Settings(settings));
    harness.state_mut().apply(&ctx, Action::Show(View::Event));
    harness.run();
    (harness, data)
}

fn type_into(harness: &mut Harness<'static, App>, label: &str, text: &str) {
    type_as(harness, egui::Role::TextInput, label, text);
}

fn type_as(harness: &mut Harness<'static, App>, role: egui::Role, label: &str, text: &str) {
    let field = harness.get_by_role_and_label(role, label);
    field.focus();
    field.type_text(text);
    harness.run();
}

fn click(harness: &mut Harness<'static, App>, label: &str) {
    harness.get_by_label(label).click();
    harness.run();
}

fn shows(harness: &Harness<'static, App>, text: &str) -> bool {
    harness.query_all_by_label_contains(text).next().is_some()
}

/// Creates a one-game event of the twelve through the form.
fn create(harness: &mut Harness<'static, App>, name_label: &str, players_label: &str) {
    type_into(harness, name_label, "Thursday club");
    let players = TWELVE.join("\n");
    type_as(
        harness,
        egui::Role::MultilineTextInput,
        players_label,
        &players,
    );
}

/// The names at a table of the open event, in seat order.
fn seated(harness: &Harness<'static, App>, table: usize) -> Vec<String> {
    let (_, event) = harness.state().club().open_event().expect("an open event");
    let round = event.rounds().last().expect("a round");
    event.seat_names(&round.tables[table])
}

#[test]
fn the_event_view_creates_seats_scores_and_releases_standings() {
    let (mut h, data) = window(Language::English);
    assert!(shows(&h, "No event saved yet."));
    create(
        &mut h,
        "Event name",
        "Players, one a line: name, name,club or name,club,division",
    );
    // Games a round: 4 → 1 (the field starts at 4).
    let games = h.get_by_role_and_label(egui::Role::TextInput, "Games a round");
    games.focus();
    h.run();
    h.key_press(egui::Key::Backspace);
    h.run();
    type_into(&mut h, "Games a round", "1");
    type_into(&mut h, "Seed (blank: random)", "7");
    // The ranking menu, then its choice.
    h.get_by_role_and_label(egui::Role::ComboBox, "Ranking")
        .click();
    h.run();
    h.get_by_label("most points, then wins").click();
    h.run();
    click(&mut h, "Create event");
    {
        let (_, event) = h.state().club().open_event().expect("created and opened");
        assert_eq!(event.players().len(), 12);
        assert_eq!(event.setup().games, 1);
        assert_eq!(event.setup().seed, 7);
        assert_eq!(event.setup().ranking, Ranking::Total);
    }
    assert!(shows(&h, "12 players · round 0"));

    click(&mut h, "Seat the next round");
    assert!(shows(&h, "Round 1 is seated"));
    assert!(shows(&h, "0 of 3 tables have their result"));
    let first = seated(&h, 0);
    assert_eq!(first.len(), 4);
    assert!(
        shows(&h, &format!("1. {} (starts game 1)", first[0])),
        "the first seat is marked as the one who starts"
    );
    // The next round cannot be seated while tables play.
    assert!(
        h.get_by_label("Seat the next round")
            .accesskit_node()
            .is_disabled()
    );

    // Each table: the first seat goes out, the others keep 10, 20, 30.
    for table in 0..3 {
        let names = seated(&h, table);
        click(&mut h, &format!("Enter result · Table {}", table + 1));
        for (seat, name) in names.iter().enumerate() {
            type_into(
                &mut h,
                &format!("Game 1 · {name}"),
                &(seat * 10).to_string(),
            );
        }
        click(&mut h, "Save result");
        assert!(
            shows(
                &h,
                &format!("round 1, table {}: result recorded", table + 1)
            ),
            "table {table}"
        );
        assert!(shows(
            &h,
            &format!("{} of 3 tables have their result", table + 1)
        ));
    }
    assert!(shows(&h, "every table of the round has its result"));

    click(&mut h, "Release the standings after round 1");
    assert!(shows(
        &h,
        "Standings after round 1 (ranking: most points, then wins)"
    ));
    let (event_id, standings) = {
        let (id, event) = h.state().club().open_event().expect("open");
        (id.clone(), event.standings())
    };
    // The three who went out share rank 1 with +60 each (10 + 20 + 30 from their table).
    let leaders: Vec<&str> = standings
        .rows
        .iter()
        .filter(|s| s.rank == 1)
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(leaders.len(), 3);
    assert!(
        standings
            .rows
            .iter()
            .filter(|s| s.rank == 1)
            .all(|s| s.points == 60)
    );
    for name in leaders {
        assert!(shows(&h, name));
    }
    assert!(shows(&h, "+60"), "the leaders' points are shown");

    // On disk, written by the desk's thread: the file reads back as the event shown.
    assert!(
        h.state().club().flush(Duration::from_secs(5)),
        "every change written"
    );
    let reader = Store::open_reader(data.path());
    let saved = reader.load_event(&event_id).expect("the event file").event;
    assert_eq!(
        saved.rounds()[0]
            .tables
            .iter()
            .filter(|t| t.is_finished())
            .count(),
        3
    );
    assert_eq!(saved.standings(), standings);

    // The standings export: no dialog here, so the exports folder, with a BOM.
    click(&mut h, "Standings (CSV)");
    assert!(h.state().club().flush(Duration::from_secs(5)));
    h.run();
    let exports = data.path().join("exports");
    let file = std::fs::read_dir(&exports)
        .expect("an exports folder")
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().ends_with("standings.csv"))
        .expect("the standings file");
    let text = std::fs::read_to_string(file.path()).expect("readable");
    assert!(text.starts_with("\u{feff}rank,name,wins,points,percent,games,dropped\n"));
    // A header, a line a player, and the rules the night is scored under.
    assert_eq!(text.lines().count(), 14);
    assert!(
        text.ends_with("# Scored with a joker on a rack at 50 · not melded 100 · 40 s turns\n")
    );
    assert!(shows(&h, "Saved as"), "the export is reported");

    // The seating sheet as CSV: one line a seat.
    click(&mut h, "Seating sheet (CSV)");
    assert!(h.state().club().flush(Duration::from_secs(5)));
    let seating = std::fs::read_to_string(exports.join(format!("{event_id}-round1-seating.csv")))
        .expect("the seating file");
    assert_eq!(seating.lines().count(), 14);
    // Each seat with the games it starts.
    assert!(
        seating.contains(&format!("1,1,{},,1\n", first[0])),
        "{seating}"
    );

    // The seating sheet and the standings as pictures: drawn off the window (no button or
    // path of the window on them), written to the exports folder.
    click(&mut h, "Seating sheet (picture)");
    click(&mut h, "Standings (picture)");
    for kind in ["seating", "standings"] {
        let path = exports.join(format!("{event_id}-round1-{kind}.png"));
        let started = std::time::Instant::now();
        while !path.exists() || !h.state().club().flush(Duration::from_millis(100)) {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "{kind} picture"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let png = std::fs::read(&path).expect("the picture");
        assert!(png.starts_with(b"\x89PNG"), "{kind} is a PNG");
        // Kept beside the tests' other pictures, to look at.
        let look =
            std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("event-{kind}.png"));
        std::fs::write(look, &png).expect("a copy to look at");
    }
    let (_, event) = h.state().club().open_event().expect("open");
    let now = chrono::Utc::now();
    let sheet = rummikub_companion::ui::event_card::seating(&event, 1, Language::English, now)
        .expect("round 1");
    for table in &event.rounds()[0].tables {
        for (i, name) in event.seat_names(table).iter().enumerate() {
            // The first seat starts the round's one game: marked "(1)".
            let text = match i {
                0 => format!("1. {name} (1)"),
                _ => format!("{}. {name}", i + 1),
            };
            assert!(sheet.texts.contains(&text), "{text}: {:?}", sheet.texts);
        }
    }
    // The rules the night is scored under are on the sheet.
    assert!(
        sheet
            .texts
            .iter()
            .any(|t| t.starts_with("Scored with a joker on a rack at 50")),
        "{:?}",
        sheet.texts
    );
    assert!(
        !sheet
            .texts
            .iter()
            .any(|t| t.contains("Seat the next round"))
    );
    let ranked = rummikub_companion::ui::event_card::standings(&event, 1, Language::Korean, now);
    assert!(ranked.texts.iter().any(|t| t == "1라운드 후 순위"));
    assert_eq!(ranked.texts.iter().filter(|t| *t == "+60").count(), 3);
    assert!(
        rummikub_companion::ui::event_card::seating(&event, 9, Language::English, now).is_none()
    );

    // Round 2 seats now; closing and reopening the event from the list shows it again.
    click(&mut h, "Seat the next round");
    assert!(shows(&h, "Round 2 is seated"));
    // The note is worded when drawn: it follows a change of the table's language.
    let mut settings = h.state().settings().clone();
    settings.language = Language::Korean;
    let ctx = h.ctx.clone();
    h.state_mut()
        .apply(&ctx, Action::Settings(settings.clone()));
    h.run();
    assert!(shows(&h, "2라운드를 배정했습니다"));
    settings.language = Language::English;
    h.state_mut().apply(&ctx, Action::Settings(settings));
    h.run();
    click(&mut h, "Close event");
    assert!(h.state().club().flush(Duration::from_secs(5)), "listed");
    h.run();
    let known = h.state().club().known().to_vec();
    assert!(
        known.iter().any(|k| k.id == event_id && k.round == 2),
        "listed: {known:?}, refused: {:?}",
        h.state().refused()
    );
    click(&mut h, &format!("Open · {event_id}"));
    assert!(shows(&h, "12 players · round 2"));
    // The release is kept with the event: reopened, round 1's standings are still shown.
    assert!(shows(
        &h,
        "Standings after round 1 (ranking: most points, then wins)"
    ));
    assert_eq!(
        h.state().club().open_event().map(|(_, e)| e.released()),
        Some(1)
    );
}

/// Regression: "Correct result" opened an empty grid; it opens on the result as entered (each
/// cell as `score` reads it: a value, the tiles, `!` on a tie's winner, `*` not melded).
#[test]
fn correct_result_opens_the_result_as_it_was_entered() {
    let (mut h, _data) = window(Language::English);
    create(
        &mut h,
        "Event name",
        "Players, one a line: name, name,club or name,club,division",
    );
    click(&mut h, "Create event");
    click(&mut h, "Seat the next round");
    let names = seated(&h, 0);
    click(&mut h, "Enter result · Table 1");
    let typed = ["0", "R5 K7 J", "12*", "30"];
    for (seat, name) in names.iter().enumerate() {
        for game in 1..=4 {
            type_into(
                &mut h,
                &format!("Game {game} · {name}"),
                typed[(seat + game - 1) % 4],
            );
        }
    }
    click(&mut h, "Save result");
    assert!(
        shows(&h, "round 1, table 1: result recorded"),
        "{:?}",
        h.state().refused()
    );
    click(&mut h, "Correct result · Table 1");
    for (seat, name) in names.iter().enumerate() {
        for game in 1..=4 {
            let label = format!("Game {game} · {name}");
            let cell = h.get_by_role_and_label(egui::Role::TextInput, &label);
            assert_eq!(
                cell.value().as_deref(),
                Some(typed[(seat + game - 1) % 4]),
                "game {game}, {name}"
            );
        }
    }
}

#[test]
fn a_bad_result_is_refused_in_korean_and_keeps_what_was_typed() {
    let (mut h, data) = window(Language::Korean);
    assert!(shows(&h, "저장된 대회가 없습니다."));
    create(
        &mut h,
        "대회 이름",
        "선수, 한 줄에 한 명: 이름, 이름,클럽 또는 이름,클럽,부",
    );
    // A games count that is no number is the form's own refusal, in Korean.
    type_into(&mut h, "라운드당 게임 수", "x");
    click(&mut h, "대회 만들기");
    assert!(shows(&h, "라운드당 게임 수: \"4x\"는 정수가 아닙니다"));
    assert!(h.state().club().open_event().is_none(), "nothing created");
    h.get_by_role_and_label(egui::Role::TextInput, "라운드당 게임 수")
        .focus();
    h.run();
    h.key_press(egui::Key::Backspace);
    h.run();
    click(&mut h, "대회 만들기");
    click(&mut h, "다음 라운드 배정");
    assert!(shows(&h, "1라운드를 배정했습니다"));
    let names = seated(&h, 0);
    click(&mut h, "결과 입력 · 1번 테이블");
    // Game 1: two players at 0 and no winner marked: the sheet's own check refuses it.
    for (seat, name) in names.iter().enumerate() {
        let value = if seat < 2 { "0" } else { "15" };
        type_into(&mut h, &format!("1게임 · {name}"), value);
    }
    click(&mut h, "결과 저장");
    let refusal = h
        .state()
        .refused()
        .expect("the result is refused")
        .to_owned();
    // The score reader's own refusal, in Korean, naming both players at 0.
    assert!(
        refusal.contains(&names[0]) && refusal.contains(&names[1]),
        "{refusal}"
    );
    assert!(
        refusal.contains("모두 0입니다: 한 게임에 한 명만 다 낼 수 있습니다"),
        "worded in Korean: {refusal}"
    );
    assert!(shows(&h, &refusal), "the refusal is shown in the view");
    // The cells it names are marked (game 1, the two players at 0), and it is said under the
    // grid, beside them, not at the top of the view.
    let marked = h.state().event_marked().expect("cells marked").clone();
    assert_eq!((marked.games, marked.seats), (vec![0], vec![0, 1]));
    let said = h.get_by_label(&refusal).rect();
    let cell = h
        .get_by_role_and_label(egui::Role::TextInput, &format!("1게임 · {}", names[3]))
        .rect();
    assert!(
        said.top() >= cell.bottom(),
        "under the grid: {said:?} / {cell:?}"
    );
    {
        let (_, event) = h.state().club().open_event().expect("open");
        assert!(
            !event.rounds()[0].tables[0].is_finished(),
            "nothing recorded"
        );
    }
    // What was typed is still there: the form is open with its cells.
    let label = format!("1게임 · {}", names[2]);
    let cell = h.get_by_role_and_label(egui::Role::TextInput, &label);
    assert_eq!(cell.value().as_deref(), Some("15"));

    // A file the window holds: the command line's write commands are refused meanwhile (the
    // window holds the folder's lock), and the file on disk is the window's.
    assert!(h.state().club().flush(Duration::from_secs(5)));
    let store = Store::open(data.path()).expect("the folder");
    assert!(!store.access().is_writable(), "the window holds the lock");
}

#[test]
fn the_window_hosts_the_tables_and_a_game_its_phones_confirm_is_recorded_by_the_owner() {
    let (mut h, data) = window(Language::Korean);
    create(
        &mut h,
        "대회 이름",
        "선수, 한 줄에 한 명: 이름, 이름,클럽 또는 이름,클럽,부",
    );
    let games = h.get_by_role_and_label(egui::Role::TextInput, "라운드당 게임 수");
    games.focus();
    h.run();
    h.key_press(egui::Key::Backspace);
    h.run();
    type_into(&mut h, "라운드당 게임 수", "1");
    click(&mut h, "대회 만들기");
    click(&mut h, "다음 라운드 배정");
    h.state_mut()
        .set_tables_bind((std::net::Ipv4Addr::LOCALHOST, 0).into());
    // A 45-minute round clock, set beside the button (a setting).
    assert!(shows(&h, "라운드 시간:"));
    let ctx = h.ctx.clone();
    h.state_mut().apply(
        &ctx,
        Action::Event(rummikub_companion::ui::event_view::EventRequest::RoundMinutes(45)),
    );
    h.run();
    assert_eq!(h.state().settings().event_round_minutes, 45);
    click(&mut h, "테이블 진행: TV 화면과 휴대폰");
    let addr = h
        .state()
        .tables_host_addr()
        .expect("the window hosts the tables");
    assert!(shows(&h, "테이블 진행 중"));
    let tv = crate::util::phones::get(addr, "/tv?lang=ko").body;
    assert!(
        tv.contains("라운드 종료까지 45분"),
        "the TV page's round clock"
    );

    // Table 1's four phones: each holds its seat, the one who went out ends the game, each
    // enters its rack, then each confirms.
    let mut phones = crate::util::club::seated_phones(addr, 1, 4);
    for phone in &mut phones {
        phone.lang = "ko";
    }
    let (status, answer) =
        phones[0].act(serde_json::json!({"action": "game_over", "went_out": true}));
    assert_eq!(status, 200, "{answer}");
    for (seat, rack) in [(1, "빨5 조커"), (2, "12"), (3, "파13")] {
        let (status, answer) = phones[seat].rack(rack);
        assert_eq!(status, 200, "{answer}");
    }
    for phone in &mut phones {
        let (status, answer) = phone.confirm();
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["saved"], serde_json::json!(true));
    }
    // The owner has it: the window shows it, and its writer put it on disk.
    let (_, event) = h.state().club().open_event().expect("open");
    let table = &event.rounds()[0].tables[0];
    assert!(table.is_finished(), "the phones' result is the owner's");
    h.run();
    assert!(shows(&h, "테이블 3개 중 1개 결과 입력"));
    assert!(h.state().club().flush(Duration::from_secs(5)));
    let store = Store::open_reader(data.path());
    let id = store.latest_event().expect("reads").expect("an event");
    let on_disk = store.load_event(&id).expect("loads").event;
    assert!(on_disk.rounds()[0].tables[0].is_finished());

    // The organiser enters table 2 in the window: its phones are told it is in.
    let names = seated(&h, 1);
    click(&mut h, "결과 입력 · 2번 테이블");
    for (seat, name) in names.iter().enumerate() {
        type_into(&mut h, &format!("1게임 · {name}"), &(seat * 10).to_string());
    }
    click(&mut h, "결과 저장");
    let mut table_2 = crate::util::club::Phone::at(addr, 2);
    table_2.lang = "ko";
    let started = std::time::Instant::now();
    loop {
        let (status, answer) = table_2.claim(0);
        if status == 409 && answer.to_string().contains("이미 입력") {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(5), "{answer}");
        std::thread::sleep(Duration::from_millis(100));
    }
    click(&mut h, "진행 멈추기");
    assert!(h.state().tables_host_addr().is_none());
    assert!(
        std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(1)).is_err(),
        "stopped: nothing listens"
    );
}

/// The night from the window: 24 players, three rounds of two games, each round seated
/// and each table's result entered through the Event view's own requests (what its buttons
/// and result form send); no pair of players meets twice, the standings equal a plain
/// recomputation under each ranking, the event on disk is the one the window shows, and the
/// released standings name the leader.
#[test]
fn a_24_player_night_of_three_rounds_runs_from_the_window_with_no_repeat_meeting() {
    use proptest::prelude::RngExt;
    use rummikub_companion::event::EventSetup;
    use rummikub_companion::ui::event_view::EventRequest;
    #[derive(Clone, Copy, Default)]
    struct Tally {
        points: i64,
        wins: usize,
        percent: i64,
    }
    let (mut h, data) = window(Language::English);
    let ctx = h.ctx.clone();
    let names: Vec<String> = (1..=24).map(|i| format!("P{i:02}")).collect();
    let mut setup = EventSetup::new("Big night", 24);
    setup.games = 2;
    h.state_mut().apply(
        &ctx,
        Action::Event(EventRequest::Create {
            setup: Box::new(setup),
            players: names.join("\n"),
        }),
    );
    let mut rng = crate::util::rng(24);
    let mut tally = vec![Tally::default(); 24];
    let mut met = std::collections::HashSet::new();
    for round in 1..=3u32 {
        h.state_mut().apply(&ctx, Action::Event(EventRequest::Seat));
        h.run();
        assert!(
            shows(&h, &format!("Round {round} is seated")),
            "round {round}"
        );
        let (_, event) = h.state().club().open_event().expect("open");
        let r = event.rounds().last().expect("seated");
        assert_eq!((r.tables.len(), r.repeats), (6, 0));
        for table in &r.tables {
            for (i, &a) in table.seats.iter().enumerate() {
                for &b in &table.seats[i + 1..] {
                    assert!(
                        met.insert((a.min(b), a.max(b))),
                        "a repeat meeting in round {round}"
                    );
                }
            }
            let mut cells = Vec::new();
            let mut points = [0i64; 4];
            for _ in 0..2 {
                let out = rng.random_range(0..4usize);
                let left: Vec<i64> = (0..4)
                    .map(|s| {
                        if s == out {
                            0
                        } else {
                            rng.random_range(1..=60i64)
                        }
                    })
                    .collect();
                for s in 0..4 {
                    points[s] += if s == out {
                        left.iter().sum()
                    } else {
                        -left[s]
                    };
                }
                tally[table.seats[out]].wins += 1;
                cells.push(left.iter().map(i64::to_string).collect());
            }
            let best = *points.iter().max().expect("four seats");
            for (s, &p) in table.seats.iter().enumerate() {
                tally[p].points += points[s];
                if best > 0 {
                    tally[p].percent += (points[s] * 10_000).div_euclid(best);
                }
            }
            h.state_mut().apply(
                &ctx,
                Action::Event(EventRequest::Result {
                    round,
                    table: table.number,
                    cells,
                    correct: false,
                }),
            );
        }
        h.run();
        assert!(
            shows(&h, "6 of 6 tables have their result"),
            "round {round}"
        );
    }
    assert!(h.state().club().flush(Duration::from_secs(5)));
    let (id, shown) = h.state().club().open_event().expect("open");
    let saved = Store::open_reader(data.path())
        .load_event(&id)
        .expect("on disk")
        .event;
    assert_eq!(saved, *shown);
    for ranking in [Ranking::Wins, Ranking::Total, Ranking::Percent] {
        let rows = saved.standings_by(ranking).rows;
        assert_eq!(rows.len(), 24);
        let key = |s: &rummikub_companion::event::ranking::Standing| {
            let t = tally[s.player];
            assert_eq!(
                (s.points, s.wins, s.games),
                (t.points, t.wins, 6),
                "{}",
                s.name
            );
            assert_eq!(s.percent, t.percent, "{}", s.name);
            match ranking {
                Ranking::Wins => (t.wins as i64, t.points),
                Ranking::Total => (t.points, t.wins as i64),
                Ranking::Percent => (t.percent, t.wins as i64),
                // Placement points are recomputed in event_formats.rs; here only the order.
                Ranking::Placement => (s.placement, t.points),
            }
        };
        for pair in rows.windows(2) {
            let (a, b) = (key(&pair[0]), key(&pair[1]));
            assert!(
                a >= b,
                "{ranking:?}: {} before {}",
                pair[0].name,
                pair[1].name
            );
            assert!(pair[0].rank <= pair[1].rank);
            if a > b {
                assert!(pair[0].rank < pair[1].rank, "{ranking:?}");
            }
        }
        assert_eq!(rows.iter().map(|s| s.points).sum::<i64>(), 0, "zero-sum");
    }
    h.state_mut()
        .apply(&ctx, Action::Event(EventRequest::Release(3)));
    h.run();
    assert!(shows(
        &h,
        "Standings after round 3 (ranking: most wins, then points)"
    ));
    let leader = &saved.standings_through(3).rows[0];
    let points = rummikub_companion::score::table::signed(leader.points).replace('-', "−");
    assert!(shows(&h, &points), "the released standings show {points}");
}

/// Regression: typing the round clock's minutes once set the clock at every key, and the note
/// above the field vanished with the first, moving the view under the pointer; in the real
/// window the next key missed the field and Return closed the event. Typed minutes count when
/// typing ends, and setting them keeps the note.
#[test]
fn typing_the_round_clock_sets_it_when_typing_ends_and_keeps_the_view_still() {
    let (mut h, _data) = window(Language::English);
    create(
        &mut h,
        "Event name",
        "Players, one a line: name, name,club or name,club,division",
    );
    click(&mut h, "Create event");
    click(&mut h, "Seat the next round");
    assert!(shows(&h, "Round 1 is seated"));
    let field = h.get_by_role_and_label(egui::Role::SpinButton, "Round clock:");
    field.click();
    h.run();
    for digit in ["3", "0"] {
        h.get_by_role_and_label(egui::Role::SpinButton, "Round clock:")
            .type_text(digit);
        h.run();
        assert_eq!(
            h.state().settings().event_round_minutes,
            0,
            "not yet: typing goes on"
        );
        assert!(shows(&h, "Round 1 is seated"), "the note stays");
    }
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().settings().event_round_minutes, 30);
    assert!(shows(&h, "Round 1 is seated"), "the note stays");
    assert!(
        h.state().club().open_event().is_some(),
        "the event stays open"
    );
}

/// Enters every unfinished table of the current round: in each game the first seat goes out
/// and seat i keeps i × 10. `enter` and `game` word the buttons and cells in the window's
/// language; `save` is the Save button.
fn enter_round(
    h: &mut Harness<'static, App>,
    enter: impl Fn(u32) -> String,
    game: impl Fn(usize) -> String,
    save: &str,
) {
    let (tables, games) = {
        let (_, event) = h.state().club().open_event().expect("an open event");
        let round = event.rounds().last().expect("a round");
        let tables: Vec<(u32, Vec<String>)> = round
            .tables
            .iter()
            .filter(|t| !t.is_finished())
            .map(|t| (t.number, event.seat_names(t)))
            .collect();
        (tables, event.round_games(round) as usize)
    };
    for (table, names) in tables {
        click(h, &enter(table));
        for g in 1..=games {
            for (seat, name) in names.iter().enumerate() {
                let label = format!("{} · {name}", game(g));
                type_into(h, &label, &(seat * 10).to_string());
            }
        }
        click(h, save);
    }
    let (_, event) = h.state().club().open_event().expect("an open event");
    assert!(
        event.rounds().last().is_some_and(|r| r.is_complete()),
        "every table entered: {:?}",
        h.state().refused()
    );
}

/// Picks `choice` in the menu labelled `menu`.
fn choose(h: &mut Harness<'static, App>, menu: &str, choice: &str) {
    h.get_by_role_and_label(egui::Role::ComboBox, menu).click();
    h.run();
    h.get_by_label(choice).click();
    h.run();
}

/// The English form's event name and players typed.
fn name_and_players(h: &mut Harness<'static, App>, name: &str, players: &[&str]) {
    type_into(h, "Event name", name);
    type_as(
        h,
        egui::Role::MultilineTextInput,
        "Players, one a line: name, name,club or name,club,division",
        &players.join("\n"),
    );
}

/// The stage of each player's latest table, by name.
fn stages(h: &Harness<'static, App>) -> Vec<(String, rummikub_companion::event::Stage)> {
    let (_, event) = h.state().club().open_event().expect("open");
    event
        .standings()
        .rows
        .iter()
        .map(|s| (s.name.clone(), s.stage))
        .collect()
}

#[test]
fn a_format_fills_the_form_and_its_finals_are_seated_from_the_window() {
    use rummikub_companion::event::{Carry, Format, Stage};
    let (mut h, _data) = window(Language::English);
    name_and_players(&mut h, "Belgian open", &TWELVE[..8]);
    choose(
        &mut h,
        "Format",
        "Belgium: 3 games by points, joker 25, semi-finals 1-3-5-7 / 2-4-6-8",
    );
    // The format filled the games (3) and the ranking; the rules are its own.
    let games = h.get_by_role_and_label(egui::Role::TextInput, "Games a round");
    assert_eq!(games.value().as_deref(), Some("3"));
    let ranking = h.get_by_role_and_label(egui::Role::ComboBox, "Ranking");
    assert_eq!(ranking.value().as_deref(), Some("most points, then wins"));
    assert!(shows(&h, "joker on a rack at 25"), "the format's rules");
    // One game a round, to keep the test short: a format's field can still be changed.
    games.focus();
    h.run();
    h.key_press(egui::Key::Backspace);
    h.run();
    type_into(&mut h, "Games a round", "1");
    click(&mut h, "Create event");
    {
        let (_, event) = h.state().club().open_event().expect("created");
        let setup = event.setup();
        assert_eq!(setup.format, Some(Format::Belgium));
        assert_eq!((setup.games, setup.ranking), (1, Ranking::Total));
        assert_eq!(setup.rules.joker_penalty, 25);
        assert_eq!(setup.finals.semi_games, Some(2));
    }
    let enter = |t: u32| format!("Enter result · Table {t}");
    let game = |g: usize| format!("Game {g}");
    click(&mut h, "Seat the next round");
    enter_round(&mut h, enter, game, "Save result");

    // The finals: the format's semi-finals of eight, snake-seeded, two games, nothing carried.
    h.get_by_label("Finals").click();
    h.run();
    let seeds: Vec<String> = {
        let (_, event) = h.state().club().open_event().expect("open");
        event
            .standings()
            .rows
            .iter()
            .map(|s| s.name.clone())
            .collect()
    };
    click(&mut h, "Seat the finals");
    assert!(shows(&h, "Semi-final (round 2)"), "the stage is named");
    {
        let (_, event) = h.state().club().open_event().expect("open");
        let semi = event.rounds().last().expect("the semi-finals");
        assert_eq!(
            (semi.stage, semi.games, semi.carry),
            (Stage::Semi, 2, Some(Carry::None))
        );
        let first = event.seat_names(&semi.tables[0]);
        let mut expected = vec![
            seeds[0].clone(),
            seeds[2].clone(),
            seeds[4].clone(),
            seeds[6].clone(),
        ];
        let mut got = first.clone();
        expected.sort();
        got.sort();
        assert_eq!(got, expected, "seeds 1-3-5-7 at table 1");
    }
    // No qualifying round after the finals began.
    assert!(
        h.get_by_label("Seat the next round")
            .accesskit_node()
            .is_disabled()
    );
    enter_round(&mut h, enter, game, "Save result");
    // After the semi-finals, the form offers the final table of four.
    click(&mut h, "Seat the finals");
    assert!(shows(&h, "Final (round 3)"));
    {
        let (_, event) = h.state().club().open_event().expect("open");
        let last = event.rounds().last().expect("the final");
        assert_eq!(
            (last.stage, last.games, last.tables.len()),
            (Stage::Final, 1, 1)
        );
    }
    enter_round(&mut h, enter, game, "Save result");
    assert!(
        h.query_by_label("Seat the finals").is_none(),
        "nothing after the final"
    );
    click(&mut h, "Release the standings after round 3");
    let marked = stages(&h);
    assert_eq!(marked.iter().filter(|(_, s)| *s == Stage::Final).count(), 4);
    assert_eq!(marked.iter().filter(|(_, s)| *s == Stage::Semi).count(), 4);
    // The finalists lead, each marked with the stage reached.
    for (name, stage) in &marked {
        let text = match stage {
            Stage::Final => format!("{name} (Final)"),
            _ => format!("{name} (Semi-final)"),
        };
        assert!(shows(&h, &text), "{text}");
    }
    assert!(marked[..4].iter().all(|(_, s)| *s == Stage::Final));
}

#[test]
fn a_german_night_in_korean_ranks_by_placement_points_and_each_division_apart() {
    use rummikub_companion::event::{Format, SeatingRule};
    let (mut h, _data) = window(Language::Korean);
    type_into(&mut h, "대회 이름", "Stadtmeisterschaft");
    let players: Vec<String> = TWELVE[..8]
        .iter()
        .enumerate()
        .map(|(i, name)| format!("{name},,{}", if i < 4 { "A" } else { "B" }))
        .collect();
    type_as(
        &mut h,
        egui::Role::MultilineTextInput,
        "선수, 한 줄에 한 명: 이름, 이름,클럽 또는 이름,클럽,부",
        &players.join("\n"),
    );
    choose(&mut h, "대회 방식", "독일: 순위별 배정, 순위 점수 4/3/1/0");
    // Placement points rank: their field is offered, blank for the 4/3/1/0 default.
    assert!(shows(&h, "4인 테이블의 순위 점수 (1위, 2위, 3위, 4위)"));
    let games = h.get_by_role_and_label(egui::Role::TextInput, "라운드당 게임 수");
    games.focus();
    h.run();
    h.key_press(egui::Key::Backspace);
    h.run();
    type_into(&mut h, "라운드당 게임 수", "1");
    h.get_by_label("부마다 따로 배정 (선수: 이름,클럽,부)")
        .click();
    h.run();
    click(&mut h, "대회 만들기");
    {
        let (_, event) = h.state().club().open_event().expect("created");
        let setup = event.setup();
        assert_eq!(setup.format, Some(Format::Germany));
        assert_eq!(setup.ranking, Ranking::Placement);
        assert_eq!(setup.seating, SeatingRule::Standings);
        assert!(setup.divisions_apart);
    }
    click(&mut h, "다음 라운드 배정");
    {
        // Each table one division.
        let (_, event) = h.state().club().open_event().expect("open");
        for table in &event.rounds()[0].tables {
            let divisions: std::collections::BTreeSet<_> = table
                .seats
                .iter()
                .map(|&p| event.players()[p].division.clone())
                .collect();
            assert_eq!(divisions.len(), 1, "{table:?}");
        }
    }
    enter_round(
        &mut h,
        |t| format!("결과 입력 · {t}번 테이블"),
        |g| format!("{g}게임"),
        "결과 저장",
    );
    click(&mut h, "1라운드 후 순위 발표");
    // The ranking in Korean words (it once read "기준: placement", the command line's value).
    assert!(shows(
        &h,
        "1라운드 후 순위 (기준: 게임마다 순위 점수, 다음 점수)"
    ));
    // The placement column, in Korean: the winner of each table has 4.
    assert!(shows(&h, "순위점수"));
    let winners: Vec<String> = {
        let (_, event) = h.state().club().open_event().expect("open");
        event.rounds()[0]
            .tables
            .iter()
            .map(|t| event.seat_names(t)[0].clone())
            .collect()
    };
    // Division A alone: its four players, ranked among themselves.
    choose(&mut h, "부", "A");
    for (i, name) in TWELVE[..8].iter().enumerate() {
        let listed = h.query_all_by_label(name).next().is_some();
        assert_eq!(listed, i < 4, "{name} in division A's standings");
    }
    let a_winner = winners
        .iter()
        .find(|w| TWELVE[..4].contains(&w.as_str()))
        .expect("division A's table winner");
    let (_, event) = h.state().club().open_event().expect("open");
    let a = event.division_standings(Ranking::Placement, "A");
    assert_eq!(&a.rows[0].name, a_winner);
    assert_eq!(
        a.rows[0].placement,
        4 * rummikub_companion::event::format::PLACEMENT_UNIT
    );
    assert!(shows(&h, "4"), "the winner's placement points");
}

#[test]
fn a_finished_night_is_exported_signed_and_imported_into_a_season_from_the_window() {
    let (mut h, data) = window(Language::English);
    name_and_players(&mut h, "Autumn night", &TWELVE[..4]);
    let games = h.get_by_role_and_label(egui::Role::TextInput, "Games a round");
    games.focus();
    h.run();
    h.key_press(egui::Key::Backspace);
    h.run();
    type_into(&mut h, "Games a round", "1");
    click(&mut h, "Create event");
    click(&mut h, "Seat the next round");
    enter_round(
        &mut h,
        |t| format!("Enter result · Table {t}"),
        |g| format!("Game {g}"),
        "Save result",
    );
    let id = h
        .state()
        .club()
        .open_event()
        .map(|(id, _)| id.clone())
        .expect("open");
    // No save dialog here: the bundle goes to the exports folder.
    click(&mut h, "Export for a season (signed)");
    assert!(h.state().club().flush(Duration::from_secs(10)));
    let bundle = data
        .path()
        .join("exports")
        .join(format!("{id}.bundle.json"));
    assert!(bundle.exists(), "the bundle is written");
    // A copy changed after signing is refused, and nothing is added.
    let text = std::fs::read_to_string(&bundle).expect("readable");
    let tampered = data.path().join("tampered.json");
    std::fs::write(&tampered, text.replacen("Autumn night", "Autumn nite", 1)).expect("written");

    h.get_by_label("Season").click();
    h.run();
    assert!(h.state().club().flush(Duration::from_secs(10)));
    h.run();
    assert!(shows(&h, "No season yet."));
    assert!(
        shows(&h, "This laptop's venue:"),
        "the first export made the key"
    );
    type_into(&mut h, "Season name", "Spring 2027");
    click(&mut h, "Create season");
    assert!(h.state().club().flush(Duration::from_secs(10)));
    h.run();
    assert!(shows(&h, "Spring 2027: 0 events"));
    let files = "Bundle files to import (event export), one a line";
    type_as(
        &mut h,
        egui::Role::MultilineTextInput,
        files,
        &tampered.display().to_string(),
    );
    click(&mut h, "Import into this season");
    assert!(h.state().club().flush(Duration::from_secs(10)));
    h.run();
    assert!(shows(&h, "nothing was added to the season"));
    assert!(shows(&h, "changed after the venue signed it"));
    assert!(shows(&h, "Spring 2027: 0 events"));
    // The real bundle: the season counts it, its four players ranked.
    let field = h.get_by_role_and_label(egui::Role::MultilineTextInput, files);
    field.focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    h.key_press(egui::Key::Backspace);
    h.run();
    type_as(
        &mut h,
        egui::Role::MultilineTextInput,
        files,
        &bundle.display().to_string(),
    );
    click(&mut h, "Import into this season");
    assert!(h.state().club().flush(Duration::from_secs(10)));
    h.run();
    assert!(shows(&h, "\"Autumn night\""), "the import's line");
    // Regression: the heading read "1 events".
    assert!(shows(&h, "Spring 2027: 1 event"));
    assert!(!shows(&h, "Spring 2027: 1 events"));
    for name in &TWELVE[..4] {
        assert!(h.query_all_by_label(name).next().is_some(), "{name} ranked");
    }
    // On the TV, and off again.
    click(&mut h, "Show on the TV");
    assert!(h.state().club().lock().shown_season().is_some());
    click(&mut h, "Take off the TV");
    assert!(h.state().club().lock().shown_season().is_none());
}
