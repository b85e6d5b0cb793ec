//! The event engine through the public API, and the event on disk through its one owner: a
//! round trip with results of every kind (tiles, flags); a damaged file restored from its
//! backup and its log with what the backup lacked said, never a silent roll-back; a newer
//! version's file refused untouched; stale temporary files removed; seating 100 players.

use std::time::{Duration, Instant};

use rummikub_companion::club::{ClubCommand, ClubNotice, ClubOptions, ClubShared};
use rummikub_companion::event::seating::Rng;
use rummikub_companion::event::{Command, Event, EventSetup, Outcome, Ranking};
use rummikub_companion::lang::Language;
use rummikub_companion::score::{Game, Hand};
use rummikub_companion::store::{EventId, HolderKind, RestoredFrom, Store, StoreError};
use rummikub_companion::tile::parse_rack;

fn event_of(n: usize, seed: u64) -> Event {
    let mut setup = EventSetup::new("Club night", seed);
    setup.games = 2;
    setup.ranking = Ranking::Percent;
    let mut event = Event::new(setup).expect("valid");
    for i in 0..n {
        event
            .apply(Command::AddPlayer {
                name: format!("Player {i}"),
                club: (i % 3 == 0).then(|| "Seoul".to_owned()),
                division: None,
                id: None,
            })
            .expect("new name");
    }
    event
}

/// Every table of the current round plays: one goes out, one keeps tiles, one had not melded.
fn play_round(event: &mut Event, rng: &mut Rng) {
    let round = event.rounds().last().expect("round").clone();
    for table in &round.tables {
        let names = event.seat_names(table);
        let games = (0..event.setup().games)
            .map(|_| {
                let out = rng.below(names.len() as u64) as usize;
                Game::new(
                    (0..names.len())
                        .map(|i| match (i == out, (i + out) % 3) {
                            (true, _) => Hand::of_value(0),
                            (false, 0) => Hand::of_tiles(parse_rack("R5 K7 J").expect("tiles")),
                            (false, 1) => Hand::of_value(20).without_meld(),
                            _ => Hand::of_value(1 + rng.below(40) as u32),
                        })
                        .collect(),
                )
            })
            .collect();
        event
            .apply(Command::Result {
                round: None,
                table: table.number,
                players: names,
                games,
                correct: false,
            })
            .expect("valid result");
    }
}

/// An owner of the folder `dir` for the tests (as a command line command is).
fn owner(dir: &std::path::Path) -> ClubShared {
    ClubShared::new(ClubOptions::new(
        dir,
        HolderKind::Command,
        Language::English,
    ))
}

/// Writes `event` through an owner: made from its setup and players, then every later command
/// of its log applied, each saved as a command line command would (the log, then the file).
fn save_through_owner(dir: &std::path::Path, event: &Event) -> EventId {
    let club = owner(dir);
    let players: String = event
        .players()
        .iter()
        .map(|p| match &p.club {
            Some(club) => format!("{},{club}\n", p.name),
            None => format!("{}\n", p.name),
        })
        .collect();
    let made = club
        .apply(ClubCommand::Create {
            setup: Box::new(event.setup().clone()),
            players,
            open: true,
        })
        .expect("made");
    let id = match made.did {
        rummikub_companion::club::Did::Created(id) => id,
        other => panic!("made: {other:?}"),
    };
    let added = event.players().len();
    // One command at a time, each written before the next (as command line commands are).
    assert!(club.flush(Duration::from_secs(10)), "written");
    for entry in &event.log()[added..] {
        club.apply(ClubCommand::Event(entry.command.clone()))
            .expect("the same command applies again");
        assert!(club.flush(Duration::from_secs(10)), "written");
    }
    assert!(club.flush(Duration::from_secs(10)), "written");
    id
}

/// A night of 8 with two finished rounds and a correction, its id in the folder.
fn night_on_disk(dir: &std::path::Path) -> (EventId, Event) {
    let mut event = event_of(8, 3);
    let mut rng = Rng::new(3);
    for _ in 0..2 {
        event.apply(Command::SeatRound).expect("8 sit");
        play_round(&mut event, &mut rng);
    }
    let names = event.seat_names(&event.rounds()[0].tables[0]);
    let games = event.rounds()[0].tables[0].results[0].games.clone();
    event
        .apply(Command::Result {
            round: Some(1),
            table: 1,
            players: names,
            games,
            correct: true,
        })
        .expect("a correction");
    let id = save_through_owner(dir, &event);
    (id, event)
}

#[test]
fn event_round_trips_through_the_store_with_its_log() {
    let dir = tempfile::tempdir().expect("temp");
    let mut event = event_of(13, 42);
    let mut rng = Rng::new(1);
    for _ in 0..2 {
        event.apply(Command::SeatRound).expect("13 sit");
        play_round(&mut event, &mut rng);
    }
    let id = save_through_owner(dir.path(), &event);
    let store = Store::open_reader(dir.path());
    let loaded = store.load_event(&id).expect("loads");
    assert!(loaded.damage.is_none() && loaded.caught_up.is_empty());
    assert!(!loaded.log_needed, "the log holds every command");
    assert_eq!(loaded.event, event);
    assert_eq!(loaded.event.standings(), event.standings());
    assert_eq!(store.latest_event().expect("lists"), Some(id));
}

/// The repro `event-bak-rollback.sh`: a damaged event file with its `.bak` beside it. A reader
/// restores it in memory from the backup and the log, says what the backup lacked, and
/// changes nothing; the owner does the same, keeps the damaged file aside and writes the
/// restored event — no confirmed result disappears.
#[test]
fn a_damaged_event_file_is_restored_from_its_backup_and_log_and_said_so() {
    for damage in [
        &b"{\"version\": 1, \"event\": "[..],
        b"",
        b"garbage \x00\x01",
    ] {
        let dir = tempfile::tempdir().expect("temp");
        let (id, event) = night_on_disk(dir.path());
        let file = dir.path().join(format!("events/{id}.json"));
        std::fs::write(&file, damage).expect("damage it");
        let before: Vec<_> = listing(dir.path());
        // A reader: the whole event, from the backup and the log; nothing touched.
        let loaded = Store::open_reader(dir.path())
            .load_event(&id)
            .expect("restored");
        assert_eq!(loaded.event, event, "nothing lost");
        let said = loaded.damage.expect("the damage is said");
        let RestoredFrom::Backup { commands } = said.from else {
            panic!("from the backup: {:?}", said.from);
        };
        assert_eq!(commands + said.recovered.len(), event.log().len());
        assert!(
            !said.recovered.is_empty(),
            "the backup lacked the last command"
        );
        assert!(!said.log_damaged);
        assert_eq!(listing(dir.path()), before, "a reader moves nothing");
        assert_eq!(std::fs::read(&file).expect("still there"), damage);
        // The owner: the same event, the damaged file kept aside, the restored one written.
        let club = owner(dir.path());
        club.apply(ClubCommand::Open(id.clone())).expect("opens");
        assert!(club.flush(Duration::from_secs(10)));
        let club_now = club.lock();
        assert_eq!(
            club_now.open_event().map(|(_, e)| (**e).clone()),
            Some(event.clone())
        );
        let notice = club_now.notices().first().expect("a notice").clone();
        drop(club_now);
        let ClubNotice::Damaged { damage: d, .. } = &notice else {
            panic!("{notice:?}");
        };
        let kept = d.kept_as.clone().expect("the damaged file kept aside");
        assert_eq!(std::fs::read(&kept).expect("kept"), damage);
        let statement = rummikub_companion::club::words::notice(Language::English, &notice);
        assert!(
            statement.contains("round 1, table 1: correction"),
            "{statement}"
        );
        let statement_ko = rummikub_companion::club::words::notice(Language::Korean, &notice);
        assert!(
            statement_ko.contains("1라운드 1번 테이블 정정"),
            "{statement_ko}"
        );
        drop(club);
        let again = Store::open_reader(dir.path())
            .load_event(&id)
            .expect("reads");
        assert!(again.damage.is_none(), "the restored event was written");
        assert_eq!(again.event, event);
    }
}

/// Both the event file and its backup damaged: rebuilt from the log alone.
#[test]
fn an_event_is_rebuilt_from_its_log_when_the_backup_is_damaged_too() {
    let dir = tempfile::tempdir().expect("temp");
    let (id, event) = night_on_disk(dir.path());
    let file = dir.path().join(format!("events/{id}.json"));
    std::fs::write(&file, b"{").expect("damage");
    std::fs::write(file.with_extension("json.bak"), b"").expect("damage the backup");
    let loaded = Store::open_reader(dir.path())
        .load_event(&id)
        .expect("rebuilt");
    assert_eq!(loaded.event, event);
    assert_eq!(loaded.damage.expect("said").from, RestoredFrom::Log);
}

/// A log damaged in the middle: what it still gives is used, and the statement says results
/// after it may be missing.
#[test]
fn a_damaged_log_is_said_to_leave_results_possibly_missing() {
    let dir = tempfile::tempdir().expect("temp");
    let (id, _) = night_on_disk(dir.path());
    let log = dir.path().join(format!("events/{id}.log"));
    let text = std::fs::read_to_string(&log).expect("log");
    let lines: Vec<&str> = text.lines().collect();
    let mut broken: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    let last = broken.len() - 2;
    broken[last] = "{not json".into();
    std::fs::write(&log, broken.join("\n") + "\n").expect("break the log");
    std::fs::write(dir.path().join(format!("events/{id}.json")), b"").expect("damage");
    let loaded = Store::open_reader(dir.path())
        .load_event(&id)
        .expect("restored");
    let said = loaded.damage.expect("said");
    assert!(said.log_damaged);
    let notice = ClubNotice::Damaged { id, damage: said };
    let text = rummikub_companion::club::words::notice(Language::English, &notice);
    assert!(text.contains("may be missing"), "{text}");
}

/// A file a newer version wrote is refused (the command line exits 2) and nothing is moved
/// or rewritten, whoever reads it.
#[test]
fn an_event_file_of_a_newer_version_is_refused_and_left_as_it_is() {
    let dir = tempfile::tempdir().expect("temp");
    let (id, _) = night_on_disk(dir.path());
    let file = dir.path().join(format!("events/{id}.json"));
    let text = std::fs::read_to_string(&file).expect("file");
    let newer = text.replacen("\"version\": 1", "\"version\": 2", 1);
    std::fs::write(&file, &newer).expect("a newer version");
    let before = listing(dir.path());
    let read = Store::open_reader(dir.path()).load_event(&id);
    assert!(
        matches!(read, Err(StoreError::Newer { version: 2, .. })),
        "{read:?}"
    );
    let club = owner(dir.path());
    let opened = club.apply(ClubCommand::Open(id.clone()));
    assert!(opened.is_err());
    assert!(club.flush(Duration::from_secs(5)));
    drop(club);
    assert_eq!(std::fs::read_to_string(&file).expect("file"), newer);
    let after: Vec<_> = listing(dir.path())
        .into_iter()
        .filter(|n| n != ".lock")
        .collect();
    let before: Vec<_> = before.into_iter().filter(|n| n != ".lock").collect();
    assert_eq!(after, before, "nothing moved or made");
}

/// The repro `event-stale-tmp.sh`: temporary files of killed writes are removed when an
/// owner takes the folder.
#[test]
fn stale_temporary_files_of_killed_writes_are_removed() {
    let dir = tempfile::tempdir().expect("temp");
    let (id, _) = night_on_disk(dir.path());
    for n in 0..3 {
        std::fs::write(dir.path().join(format!("events/.tmp-killed{n}")), b"half").expect("tmp");
    }
    let club = owner(dir.path());
    club.apply(ClubCommand::Open(id)).expect("opens");
    assert!(
        !listing(dir.path()).iter().any(|n| n.starts_with(".tmp-")),
        "{:?}",
        listing(dir.path())
    );
}

/// The file names in the events folder, sorted.
fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("events"))
        .expect("folder")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_bad_event_id_is_refused() {
    assert!(EventId::new("../../etc/passwd").is_err());
    assert!(EventId::new("").is_err());
}

/// Seating 100 players over five rounds repeats no meeting (the time is measured in
/// `benches/club.rs`, not asserted here).
#[test]
fn seating_100_players_over_five_rounds_repeats_nothing() {
    let mut event = event_of(100, 7);
    let mut rng = Rng::new(7);
    let mut slowest = std::time::Duration::ZERO;
    for _ in 0..5 {
        let start = Instant::now();
        let outcome = event.apply(Command::SeatRound).expect("100 sit");
        slowest = slowest.max(start.elapsed());
        assert!(matches!(outcome, Outcome::Seated { repeats: 0, .. }));
        play_round(&mut event, &mut rng);
    }
    eprintln!("seating 100 players: slowest round {slowest:?}");
}

/// Every refusal of the event engine, one of each kind, with names that end in a consonant, a
/// vowel and a Latin letter (the Korean particle must follow each).
fn every_refusal() -> Vec<rummikub_companion::event::Refusal> {
    use rummikub_companion::event::Refusal as R;
    use rummikub_companion::event::format::PlacementProblem;
    let mut all = Vec::new();
    for name in ["지영", "민수", "Bob"] {
        all.push(R::DuplicateName(name.into()));
        all.push(R::UnknownPlayer(name.into()));
        all.push(R::AlreadyDropped(name.into()));
        all.push(R::CannotSeatDivision {
            division: name.into(),
            players: 5,
        });
    }
    all.extend([
        R::EmptyEventName,
        R::BadGameCount(0),
        R::EmptyName,
        R::TooManyPlayers,
        R::CannotSeat {
            players: 5,
            xp_table: true,
        },
        R::RoundOpen {
            round: 2,
            tables: vec![1, 3],
        },
        R::NotSeated,
        R::NoSuchRound(4),
        R::NoSuchTable {
            round: 1,
            table: 9,
            tables: 2,
        },
        R::WrongPlayers {
            expected: vec!["Ann".into()],
            found: vec!["Bo".into()],
        },
        R::WrongGameCount {
            expected: 2,
            found: 3,
        },
        R::NotZeroSum { game: 1 },
        R::AlreadyRecorded { round: 1, table: 2 },
        R::FinalsStarted,
        R::FinalPlayed,
        R::BadTop { top: 5, players: 8 },
        R::BadPlacement(PlacementProblem::Length(9)),
        R::BadPlacement(PlacementProblem::TooLarge(999)),
        R::BadWinBonus(-1),
    ]);
    all
}

/// Regression: the engine's refusals were worded by `i18n` (the engine imported the words above
/// it), and Korean showed "은(는)" and "(이)라는" for names. The engine's Display is the English
/// the user reads, and the Korean takes each name's particle.
#[test]
fn event_refusals_are_worded_by_the_engine_in_english_and_take_the_korean_particle() {
    use rummikub_companion::i18n::event::refusal;
    for r in every_refusal() {
        let english = r.to_string();
        assert!(!english.is_empty(), "{r:?}");
        assert_eq!(refusal(Language::English, &r), english, "{r:?}");
        let korean = refusal(Language::Korean, &r);
        assert_ne!(korean, english, "{r:?} has Korean words");
        for fallback in ["은(는)", "이(가)", "을(를)", "(이)", "(으)"] {
            assert!(!korean.contains(fallback), "{r:?}: {korean}");
        }
    }
    let r = rummikub_companion::event::Refusal::DuplicateName("지영".into());
    assert!(
        refusal(Language::Korean, &r).starts_with("\"지영\"은 "),
        "{r:?}"
    );
    let r = rummikub_companion::event::Refusal::DuplicateName("민수".into());
    assert!(
        refusal(Language::Korean, &r).starts_with("\"민수\"는 "),
        "{r:?}"
    );
}
