//! A club night at full size on one laptop (issue 20): 100 players at 25 tables, every player's
//! phone and 2 TV pages connected to `event serve`'s host over loopback (a bounded custom
//! measurement, not criterion: one sample is a whole round trip through a table's pages).
//!
//! 1. **Seating 100 players**: round 2 of a 100-player event seated from the standings with
//!    no repeat meeting (round 1's results in); 20 seatings, median and max.
//! 2. **Tap → every page of its table**: 100 phone feeds (4 per table, each table's from an
//!    address of its own, 127.0.1.T, as phones on a Wi-Fi have) and 2 TV feeds; a phone ends its
//!    turn; the time until the new state is on that table's 4 pages and both TV pages. 250
//!    taps going round the tables (each table's taps 0.5 s apart, past the one-press guard);
//!    median, p99, max. Then 100 racks entered (each saved to disk before the answer).
//! 3. **Idle CPU** with all 102 pages connected and nothing happening, 10 s: the process's CPU
//!    time (each thread's `/proc/self/task/*/schedstat`, in nanoseconds).
//! 4. **The Event view's list of saved events**: a data folder of 50 finished nights (100
//!    players, 5 rounds each), listed by `EventDesk::refresh` as the window does when the view
//!    is first shown: the time the window waits (the folder's names; the files are read on a
//!    thread of the desk's) and the time until the list is read; 10 listings.
//!
//! `cargo bench -p rummikub-companion-benches --bench club`

#[path = "../tests/suite/util/phones.rs"]
mod phones;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use phones::{Feed, get, post};
use rummikub_companion::event::{Command, Event, EventSetup};
use rummikub_companion::lang::Language;
use rummikub_companion::score::{Game, Hand};
use rummikub_companion::server::tv::{TV_MAX_CONNECTIONS, TvOptions, TvServer};
use rummikub_companion::store::{EventId, Store};

const PLAYERS: usize = 100;
const TAPS: usize = 250;
const RACKS: usize = 100;
const IDLE: Duration = Duration::from_secs(10);
const WAIT: Duration = Duration::from_secs(5);

fn event_of(players: usize) -> Event {
    let mut setup = EventSetup::new("Bench night", 11);
    setup.games = 1;
    let mut event = Event::new(setup).expect("setup");
    for i in 0..players {
        event
            .apply(Command::AddPlayer {
                name: format!("P{i:03}"),
                club: None,
                division: None,
                id: None,
            })
            .expect("player");
    }
    event.apply(Command::SeatRound).expect("round 1");
    event
}

fn finish_round(event: &mut Event) {
    let tables = event.rounds().last().expect("a round").tables.clone();
    for table in &tables {
        let players = event.seat_names(table);
        let hands = (0..players.len() as u32)
            .map(|i| Hand::of_value(i * 7 % 40 + if i == 0 { 0 } else { 1 }))
            .collect();
        event
            .apply(Command::Result {
                round: None,
                table: table.number,
                players,
                games: vec![Game::new(hands)],
                correct: false,
            })
            .expect("a result");
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn report(what: &str, samples: &mut [Duration]) {
    samples.sort_unstable();
    let pick = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    println!(
        "{what} ({} samples): median {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        samples.len(),
        ms(pick(0.5)),
        ms(pick(0.99)),
        ms(pick(1.0))
    );
}

/// A feed from the source address `from` (phones on a network each have their own).
fn feed_from(from: Ipv4Addr, addr: SocketAddr, path: &str) -> Feed {
    let socket =
        socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).expect("a socket");
    socket
        .bind(&SocketAddr::new(IpAddr::V4(from), 0).into())
        .expect("bind the phone's address");
    socket.connect_timeout(&addr.into(), WAIT).expect("connect");
    let mut feed = Feed::over(socket.into(), addr, path).expect("an event stream");
    feed.next_state(WAIT)
        .expect("feed")
        .expect("the state at once");
    feed
}

/// The CPU time of this process's threads so far, in nanoseconds: the first field of each
/// thread's `/proc/self/task/*/schedstat`.
fn cpu_time() -> Duration {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Duration::ZERO;
    };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse().ok())
        .map(Duration::from_nanos)
        .sum()
}

fn main() {
    // 1. Seating 100 players from the standings.
    let mut seatings = Vec::new();
    let mut round_two = None;
    for _ in 0..20 {
        let mut event = event_of(PLAYERS);
        finish_round(&mut event);
        let started = Instant::now();
        event.apply(Command::SeatRound).expect("round 2");
        seatings.push(started.elapsed());
        round_two = Some(event.rounds()[1].repeats);
    }
    report(
        &format!(
            "seating round 2 of {PLAYERS} players ({} repeat meetings)",
            round_two.unwrap_or(0)
        ),
        &mut seatings,
    );

    // 2. The host with every phone and two TV pages.
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open(dir.path()).expect("store");
    let id = EventId::new("20261202-190000").expect("id");
    let event = event_of(PLAYERS);
    store.save_event(&id, &event).expect("saved");
    drop(store);
    let tables = event.rounds()[0].tables.len();
    let server = TvServer::start(TvOptions {
        bind: (Ipv4Addr::LOCALHOST, 0).into(),
        data_dir: dir.path().to_path_buf(),
        event: id,
        lang: Language::English,
        link_host: IpAddr::V4(Ipv4Addr::LOCALHOST),
        round_minutes: Some(90),
        max_connections: TV_MAX_CONNECTIONS,
    })
    .expect("the host starts");
    let addr = server.local_addr();
    let page = get(addr, "/tv").body;
    let keys: Vec<String> = (1..=tables)
        .map(|t| {
            let marker = format!("/table/{t}?lang=en&amp;key=");
            let at = page.find(&marker).expect("a table link") + marker.len();
            page[at..]
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect()
        })
        .collect();
    let mut phones: Vec<Vec<Feed>> = (1..=tables)
        .map(|t| {
            let from = Ipv4Addr::new(127, 0, 1, t as u8);
            (0..4)
                .map(|_| feed_from(from, addr, &format!("/tv/events?lang=en&table={t}")))
                .collect()
        })
        .collect();
    let mut tvs: Vec<Feed> = (1..=2)
        .map(|i| feed_from(Ipv4Addr::new(127, 0, 2, i), addr, "/tv/events?lang=ko"))
        .collect();
    println!(
        "connected: {} phone pages at {tables} tables and {} TV pages",
        phones.iter().map(Vec::len).sum::<usize>(),
        tvs.len()
    );

    let mut turn = vec![None::<usize>; tables];
    let mut samples = Vec::with_capacity(TAPS);
    let pace = Duration::from_millis(500) / tables as u32;
    for i in 0..TAPS {
        let t = i % tables;
        let tapped = Instant::now();
        let body = match turn[t] {
            None => format!(r#"{{"key":"{}","seat":0,"action":"start"}}"#, keys[t]),
            Some(seat) => format!(
                r#"{{"key":"{}","seat":{seat},"action":"end_turn"}}"#,
                keys[t]
            ),
        };
        let started = Instant::now();
        let reply = post(addr, &format!("/table/{}/act", t + 1), &body);
        assert_eq!(reply.status, 200, "{}", reply.body);
        for feed in phones[t].iter_mut().chain(tvs.iter_mut()) {
            feed.next_state(WAIT)
                .expect("feed")
                .expect("a pushed state");
        }
        samples.push(started.elapsed());
        turn[t] = Some(turn[t].map_or(0, |s| (s + 1) % 4));
        std::thread::sleep(pace.saturating_sub(tapped.elapsed()));
    }
    report(
        &format!(
            "end of turn -> its table's 4 pages and 2 TV pages (all {} connected)",
            4 * tables + 2
        ),
        &mut samples,
    );

    let mut racks = Vec::with_capacity(RACKS);
    for i in 0..RACKS {
        let t = i % tables;
        let body = format!(
            r#"{{"key":"{}","seat":{},"action":"rack","rack":"R5 J B{}"}}"#,
            keys[t],
            i / tables % 4,
            1 + i % 13
        );
        let started = Instant::now();
        let reply = post(addr, &format!("/table/{}/act", t + 1), &body);
        assert_eq!(reply.status, 200, "{}", reply.body);
        for feed in phones[t].iter_mut().chain(tvs.iter_mut()) {
            feed.next_state(WAIT)
                .expect("feed")
                .expect("a pushed state");
        }
        racks.push(started.elapsed());
    }
    report(
        "rack entered (saved to disk first) -> its table's 4 pages and 2 TV pages",
        &mut racks,
    );

    // 3. Idle: everything connected, nothing happening.
    let before = cpu_time();
    let started = Instant::now();
    std::thread::sleep(IDLE);
    let used = cpu_time().saturating_sub(before);
    println!(
        "idle with {} pages connected for {:.0} s: {:.2} ms of CPU ({:.4} % of one core)",
        4 * tables + 2,
        started.elapsed().as_secs_f64(),
        ms(used),
        used.as_secs_f64() / started.elapsed().as_secs_f64() * 100.0
    );
    drop(phones);
    drop(tvs);
    server.stop();

    // 4. Listing a season's events, as the Event view asks for them.
    let season = tempfile::tempdir().expect("temp dir");
    let store = Store::open(season.path()).expect("store");
    let mut night = event_of(PLAYERS);
    for round in 1..=5 {
        if round > 1 {
            night.apply(Command::SeatRound).expect("a round");
        }
        finish_round(&mut night);
    }
    let size = serde_json::to_vec(&night).map_or(0, |b| b.len());
    for n in 0..50 {
        let id = EventId::new(&format!("20260101-19{:04}", n)).expect("id");
        store.save_event(&id, &night).expect("saved");
    }
    let mut desk = rummikub_companion::evening::event_desk::EventDesk::start(Some(store), || {});
    let (mut asked, mut listed) = (Vec::new(), Vec::new());
    for _ in 0..10 {
        let started = Instant::now();
        desk.refresh().expect("the folder reads");
        asked.push(started.elapsed());
        assert!(desk.flush(Duration::from_secs(10)), "listed");
        listed.push(started.elapsed());
        assert_eq!(desk.known().len(), 50);
    }
    let what = format!(
        "50 saved events of 100 players, 5 rounds ({} KB each)",
        size / 1024
    );
    report(&format!("listing {what}: the window's wait"), &mut asked);
    report(&format!("listing {what}: until listed"), &mut listed);
}
