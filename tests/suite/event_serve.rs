//! `event serve`: the TV page and the per-table page, served in-process on loopback against
//! a temporary data folder; results written to the store (as `event result` does, from
//! another process) reach an open feed without the page asking; a round's standings are held
//! back until all its tables are in; the pages' words in Korean.

use std::net::{IpAddr, Ipv4Addr};
use std::path::Path;
use std::time::{Duration, Instant};

use rummikub_companion::event::{Command, Event, EventSetup};
use rummikub_companion::lang::Language;
use rummikub_companion::score::{Game, Hand};
use rummikub_companion::server::tv::{TvOptions, TvServer, TvView};
use rummikub_companion::store::{EventId, Store};
use serde_json::Value;

use crate::util::phones::{Feed, get};

/// A failure bound only: an update normally arrives within one watch period (500 ms).
const BOUND: Duration = Duration::from_secs(5);

pub(crate) struct Night {
    dir: tempfile::TempDir,
    id: EventId,
}

impl Night {
    /// Eight players, one game a round, round 1 seated (two tables of 4).
    pub(crate) fn new() -> Night {
        let names = ["Ann", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"].map(String::from);
        Night::seated("Club <night> & co", 7, 1, names, "20261202-190000")
    }

    /// `players` players (names of every length, a few Korean), four games a round, round 1
    /// seated.
    pub(crate) fn of(players: usize) -> Night {
        const NAMES: [&str; 12] = [
            "Ann",
            "Bartholomew",
            "김민지",
            "Dmitri",
            "Eun-ji Park",
            "Fay",
            "Guadalupe",
            "이서준",
            "Hal",
            "Ingrid",
            "Jae-won",
            "Kofi",
        ];
        let names = (0..players).map(|i| match i / NAMES.len() {
            0 => NAMES[i].to_string(),
            n => format!("{} {}", NAMES[i % NAMES.len()], n + 1),
        });
        Night::seated("Thursday club night", 3, 4, names, "20261203-190000")
    }

    /// An event `name` of `players` (seating seed `seed`, `games` a round) with round 1
    /// seated, saved as `id` in a new data folder.
    fn seated(
        name: &str,
        seed: u64,
        games: u32,
        players: impl IntoIterator<Item = String>,
        id: &str,
    ) -> Night {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut setup = EventSetup::new(name, seed);
        setup.games = games;
        let mut event = Event::new(setup).expect("setup");
        for name in players {
            event
                .apply(Command::AddPlayer { name, club: None })
                .expect("player");
        }
        event.apply(Command::SeatRound).expect("seated");
        let store = Store::open(dir.path()).expect("store");
        let id = EventId::new(id).expect("id");
        store.save_event(&id, &event).expect("saved");
        Night { dir, id }
    }

    /// The data folder.
    pub(crate) fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The event's id.
    pub(crate) fn id(&self) -> &EventId {
        &self.id
    }

    pub(crate) fn store(&self) -> Store {
        Store::open(self.dir.path()).expect("store")
    }

    pub(crate) fn event(&self) -> Event {
        self.store().load_event(&self.id).expect("loads").value
    }

    /// Records table `table`'s game of the current round (its first seat goes out) and saves,
    /// as `event result` does.
    pub(crate) fn result(&self, table: u32) {
        let store = self.store();
        let mut event = store.load_event(&self.id).expect("loads").value;
        let round = event.rounds().last().expect("a round");
        let t = round
            .tables
            .iter()
            .find(|t| t.number == table)
            .expect("the table");
        let players = event.seat_names(t);
        let values: Vec<u32> = (0..players.len() as u32).map(|i| i * 10).collect();
        event
            .apply(Command::Result {
                round: None,
                table,
                players,
                games: vec![Game::new(
                    values.iter().map(|&v| Hand::of_value(v)).collect(),
                )],
                correct: false,
            })
            .expect("a valid result");
        store.save_event(&self.id, &event).expect("saved");
    }

    fn seat(&self) {
        let store = self.store();
        let mut event = store.load_event(&self.id).expect("loads").value;
        event.apply(Command::SeatRound).expect("seated");
        store.save_event(&self.id, &event).expect("saved");
    }

    pub(crate) fn serve(&self, lang: Language) -> TvServer {
        serve(self.dir.path(), &self.id, lang)
    }
}

fn serve(dir: &Path, id: &EventId, lang: Language) -> TvServer {
    TvServer::start(TvOptions {
        bind: (Ipv4Addr::LOCALHOST, 0).into(),
        data_dir: dir.to_path_buf(),
        event: id.clone(),
        lang,
        link_host: IpAddr::V4(Ipv4Addr::LOCALHOST),
        round_minutes: None,
        max_connections: 64,
    })
    .expect("the TV server starts")
}

/// The next `state` on the feed that satisfies `want`, and how long it took.
fn wait_for(feed: &mut Feed, want: impl Fn(&Value) -> bool) -> (Value, Duration) {
    let start = Instant::now();
    loop {
        let left = BOUND.saturating_sub(start.elapsed());
        assert!(!left.is_zero(), "no matching update within {BOUND:?}");
        if let Some(state) = feed.next_state(left).expect("the feed stays open")
            && want(&state)
        {
            return (state, start.elapsed());
        }
    }
}

fn finished(state: &Value, table: usize) -> bool {
    state["view"]["tables"][table]["finished"] == Value::Bool(true)
}

#[test]
fn the_tv_page_shows_every_table_with_its_players_link_and_qr_code() {
    let night = Night::new();
    let server = night.serve(Language::English);
    let addr = server.local_addr();
    assert!(server.url().ends_with("/tv"));
    let page = get(addr, "/tv");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains("Club &lt;night&gt; &amp; co"),
        "escaped name"
    );
    assert!(page.body.contains("Round 1"));
    let event = night.event();
    for t in &event.rounds()[0].tables {
        assert!(page.body.contains(&format!("Table {}", t.number)));
        assert!(page.body.contains(&format!("/table/{}?lang=en", t.number)));
        for name in event.seat_names(t) {
            assert!(page.body.contains(&name), "{name} on the TV page");
        }
    }
    assert_eq!(
        page.body.matches("<svg class=\"qr\"").count(),
        2,
        "a QR code per table"
    );
    assert!(page.body.contains("still playing: table 1, 2"));
    assert!(
        page.body
            .contains("Standings appear when every table of round 1")
    );
    assert!(page.body.contains("/tv.js"));

    let table = get(addr, "/table/1");
    assert_eq!(table.status, 200);
    let seated = event.seat_names(&event.rounds()[0].tables[0]);
    let mut at = 0;
    for name in &seated {
        let found = table.body[at..].find(name.as_str()).expect("in seat order");
        at += found;
    }
    assert!(table.body.contains("playing") && table.body.contains("data-table=\"1\""));
    assert_eq!(get(addr, "/table/9").status, 404);
    assert_eq!(get(addr, "/table/x").status, 404);
    let script = get(addr, "/tv.js");
    assert_eq!(script.status, 200);
    // Pushed, never polled: the script counts clocks down itself but never asks the server.
    assert!(
        script.body.contains("EventSource")
            && !script.body.contains("fetch(")
            && !script.body.contains("XMLHttpRequest")
    );
    server.stop();
}

#[test]
fn a_result_saved_by_another_writer_is_pushed_and_standings_wait_for_the_round() {
    let night = Night::new();
    let server = night.serve(Language::English);
    let mut feed = Feed::open(server.local_addr(), "/tv/events").expect("event stream");
    let (first, _) = wait_for(&mut feed, |_| true);
    assert_eq!(first["view"]["playing"], serde_json::json!([1, 2]));

    night.result(1);
    let (one, took) = wait_for(&mut feed, |s| finished(s, 0));
    eprintln!("table 1's result reached the feed in {took:?}");
    assert_eq!(one["view"]["playing"], serde_json::json!([2]));
    assert_eq!(
        one["view"]["standings_round"], 0,
        "held back: table 2 plays"
    );
    assert_eq!(one["view"]["standings"], serde_json::json!([]));
    assert!(
        one["html"]
            .as_str()
            .expect("html")
            .contains("still playing: table 2")
    );

    night.result(2);
    let (two, took) = wait_for(&mut feed, |s| finished(s, 1));
    eprintln!("table 2's result reached the feed in {took:?}");
    assert_eq!(two["view"]["standings_round"], 1);
    assert_eq!(two["view"]["complete"], true);
    let rows = two["view"]["standings"].as_array().expect("rows");
    assert_eq!(rows.len(), 8);
    let html = two["html"].as_str().expect("html");
    assert!(html.contains("Standings after round 1") && !html.contains("still playing"));

    // Round 2: one table in is not enough to show new standings.
    night.seat();
    let (seated, _) = wait_for(&mut feed, |s| s["view"]["round"] == 2);
    assert_eq!(seated["view"]["standings"], two["view"]["standings"]);
    night.result(1);
    let (half, _) = wait_for(&mut feed, |s| finished(s, 0));
    assert_eq!(half["view"]["standings_round"], 1);
    assert_eq!(
        half["view"]["standings"], two["view"]["standings"],
        "round 2 held back"
    );
    let event = night.event();
    let after_one = TvView::of(&event);
    assert_eq!(after_one.standings.len(), 8);
    assert!(
        after_one.standings.iter().all(|s| s.games == 1),
        "only round 1's games count"
    );
    assert_ne!(
        event
            .standings()
            .rows
            .iter()
            .map(|s| s.games)
            .sum::<usize>(),
        after_one.standings.iter().map(|s| s.games).sum::<usize>(),
        "the engine's live standings already count the half round"
    );
    night.result(2);
    let (full, _) = wait_for(&mut feed, |s| s["view"]["standings_round"] == 2);
    assert!(
        full["view"]["standings"]
            .as_array()
            .expect("rows")
            .iter()
            .all(|s| s["games"] == 2)
    );
    // The table page's own feed names that table only.
    let mut table = Feed::open(server.local_addr(), "/tv/events?table=2").expect("feed");
    let (t2, _) = wait_for(&mut table, |_| true);
    assert!(t2["html"].as_str().expect("html").contains("Table 2"));
    assert!(!t2["html"].as_str().expect("html").contains("Table 1"));
    server.stop();
}

#[test]
fn the_pages_speak_korean_by_option_or_by_query() {
    let night = Night::new();
    let server = night.serve(Language::Korean);
    let addr = server.local_addr();
    let page = get(addr, "/tv");
    for word in [
        "1라운드",
        "1번 테이블",
        "진행 중",
        "선",
        "아직 끝나지 않은 테이블: 1, 2번",
    ] {
        assert!(page.body.contains(word), "{word} on the Korean page");
    }
    assert!(page.body.contains("lang=\"ko\"") && !page.body.contains("Round 1"));
    let table = get(addr, "/table/2");
    assert!(table.body.contains("2번 테이블"));
    assert!(get(addr, "/table/7").body.contains("7번 테이블이 없습니다"));
    let english = get(addr, "/tv?lang=en");
    assert!(english.body.contains("Round 1") && !english.body.contains("1라운드"));
    server.stop();
    let server = night.serve(Language::English);
    assert!(
        get(server.local_addr(), "/tv?lang=ko")
            .body
            .contains("1라운드")
    );
    server.stop();
}

/// The built binary's `event serve`, ended (by its own id) on drop.
struct Served(std::process::Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn binary(data: &Path) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_rummikub-companion"));
    command
        .env("RUMMIKUB_COMPANION_DATA", data)
        .env("LC_ALL", "C");
    command
}

#[test]
fn event_serve_from_the_command_line_shows_what_event_result_in_another_process_records() {
    use std::io::BufRead;
    let night = Night::new();
    let mut child = binary(night.dir.path())
        .args(["event", "serve", "--bind", "127.0.0.1", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("event serve starts");
    let stdout = child.stdout.take().expect("stdout");
    let served = Served(child);
    let mut line = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the URL line");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("a URL in {line:?}"));
    let addr: std::net::SocketAddr = url
        .trim_start_matches("http://")
        .trim_end_matches("/tv")
        .parse()
        .expect("host:port");
    let mut feed = Feed::open(addr, "/tv/events").expect("event stream");
    let (first, _) = wait_for(&mut feed, |_| true);
    assert_eq!(first["view"]["playing"], serde_json::json!([1, 2]));

    let event = night.event();
    let names = event.seat_names(&event.rounds()[0].tables[1]);
    let csv = format!("game,{}\n1,0,10,20,30\n", names.join(","));
    let file = night.dir.path().join("t2.csv");
    std::fs::write(&file, csv).expect("csv");
    let recorded = binary(night.dir.path())
        .args(["event", "result", "--table", "2"])
        .arg(&file)
        .output()
        .expect("event result runs");
    assert!(recorded.status.success(), "{recorded:?}");
    let (two, took) = wait_for(&mut feed, |s| finished(s, 1));
    eprintln!("event result in another process reached the feed in {took:?}");
    assert_eq!(two["view"]["playing"], serde_json::json!([1]));
    drop(served);

    let refused = binary(night.dir.path())
        .args(["--lang", "ko", "event", "serve", "--bind", "nowhere"])
        .output()
        .expect("runs");
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("\"nowhere\"은(는) IP 주소가 아닙니다"),
        "{err}"
    );
}
