//! A club night at full size on one laptop (issues 20 and 46): 100 players at 25 tables, every
//! player's phone page and 2 TV pages connected over loopback to the club night's owner
//! (`club::Club`, hosting as `event serve` does). A bounded custom measurement, not criterion:
//! one sample is a whole round trip through a table's pages.
//!
//! 1. **Seating 100 players**: round 2 of a 100-player event seated from the standings with
//!    no repeat meeting (round 1's results in); 20 seatings, median and max.
//! 2. **Tap → its table's pages and both TVs**: 100 phones, each holding its seat with its own
//!    device token (claimed over HTTP as the page does), each with its page's feed
//!    (`/tv/events?table=T&key=K&device=D`, a table's four from an address of its own,
//!    127.0.1.T, as phones on a Wi-Fi have) and 2 TV feeds. A phone ends its turn (naming the
//!    turn its feed showed); the time until that table's 4 pages and both TV pages have the new
//!    state. 250 taps going round the tables (each table's taps 0.5 s apart, past the
//!    one-press guard); median, p99, max. The TV's message per tap in bytes (the whole board
//!    is sent once, when the page opens) and the table page's.
//! 3. **A rack → the pages**: each table's game declared over, then 75 racks entered (each on
//!    disk before the answer) until they reach the table's 4 pages (the TV's line counts
//!    confirmations, so a rack changes nothing there).
//! 4. **Idle CPU** with all 102 pages connected and nothing happening, 10 s: the process's CPU
//!    time (each thread's `/proc/self/task/*/schedstat`, in nanoseconds).
//! 5. **The Event view's list of saved events**: a data folder of 50 finished nights (100
//!    players, 5 rounds each), listed by the owner (`ClubCommand::Refresh`) as the window asks
//!    when the view is first shown: the time the window waits and the time until the list is
//!    read; 10 listings.
//!
//! The machine's load average is printed before and after (other builds share it).
//!
//! `cargo bench -p rummikub-companion-benches --bench club`

#[path = "../tests/suite/util/phones.rs"]
mod phones;

#[path = "../tests/suite/util/club.rs"]
mod club;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use club::{Night, Phone};
use phones::Feed;
use rummikub_companion::club::ClubCommand;
use rummikub_companion::event::{Command, Event, EventSetup};
use rummikub_companion::lang::Language;
use rummikub_companion::score::{Game, Hand};
use rummikub_companion::store::{ClubStore, EventId, Holder, HolderKind};
use serde_json::{Value, json};

const PLAYERS: usize = 100;
const TAPS: usize = 250;
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

fn pick<T: Copy + Ord>(samples: &mut [T], q: f64) -> T {
    samples.sort_unstable();
    samples[((samples.len() - 1) as f64 * q).round() as usize]
}

fn report(what: &str, samples: &mut [Duration]) {
    println!(
        "{what} ({} samples): median {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        samples.len(),
        ms(pick(samples, 0.5)),
        ms(pick(samples, 0.99)),
        ms(pick(samples, 1.0))
    );
}

fn report_bytes(what: &str, sizes: &mut [usize]) {
    println!(
        "{what} ({} messages): median {} B, max {} B",
        sizes.len(),
        pick(sizes, 0.5),
        pick(sizes, 1.0)
    );
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// A feed from the source address `from` (phones on a network each have their own), and the
/// first message it was sent.
fn feed_from(from: Ipv4Addr, addr: SocketAddr, path: &str) -> (Feed, Value) {
    let socket =
        socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).expect("a socket");
    socket
        .bind(&SocketAddr::new(IpAddr::V4(from), 0).into())
        .expect("bind the phone's address");
    socket.connect_timeout(&addr.into(), WAIT).expect("connect");
    let mut feed = Feed::over(socket.into(), addr, path).expect("an event stream");
    let first = feed
        .next_state(WAIT)
        .expect("feed")
        .expect("the state at once");
    (feed, first)
}

/// The next message on `feed` that `want` accepts.
fn next_where(feed: &mut Feed, want: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let left = WAIT.saturating_sub(started.elapsed());
        assert!(!left.is_zero(), "no matching message within {WAIT:?}");
        if let Some(state) = feed.next_state(left).expect("the feed stays open")
            && want(&state)
        {
            return state;
        }
    }
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

/// A table's four phones, their pages' feeds and the turn their pages show.
struct Table {
    number: u32,
    phones: Vec<Phone>,
    feeds: Vec<Feed>,
    turn: Option<(usize, u64)>,
}

impl Table {
    /// Waits until each of the table's pages shows `want`; the last message.
    fn pages_show(&mut self, want: impl Fn(&Value) -> bool + Copy) -> Value {
        let mut last = Value::Null;
        for feed in &mut self.feeds {
            last = next_where(feed, want);
        }
        last
    }
}

fn main() {
    println!("load average before: {}", load());
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

    // 2. The owner hosting 25 tables, every phone and two TV pages.
    let night = Night::of(PLAYERS);
    let addr = night.host(Language::English, true);
    let count = night.event().rounds()[0].tables.len() as u32;
    let mut tables: Vec<Table> = (1..=count)
        .map(|n| {
            let from = Ipv4Addr::new(127, 0, 1, n as u8);
            let phones = club::seated_phones(addr, n, 4);
            let feeds = phones
                .iter()
                .map(|p| {
                    let path = format!(
                        "/tv/events?lang=en&table={n}&key={}&device={}",
                        p.key,
                        p.device.as_deref().unwrap_or_default()
                    );
                    feed_from(from, addr, &path).0
                })
                .collect();
            Table {
                number: n,
                phones,
                feeds,
                turn: None,
            }
        })
        .collect();
    let mut board_size = 0;
    let mut tvs: Vec<Feed> = (1..=2)
        .map(|i| {
            let (feed, board) = feed_from(Ipv4Addr::new(127, 0, 2, i), addr, "/tv/events?lang=ko");
            board_size = board.to_string().len();
            feed
        })
        .collect();
    println!(
        "connected: {} phone pages at {count} tables and {} TV pages; the TV's whole board, \
         sent once when a TV page opens: {board_size} B",
        tables.iter().map(|t| t.feeds.len()).sum::<usize>(),
        tvs.len(),
    );

    let mut samples = Vec::with_capacity(TAPS);
    let (mut tv_sizes, mut page_sizes) = (Vec::new(), Vec::new());
    let pace = Duration::from_millis(500) / count;
    let (cpu_before, taps_began) = (cpu_time(), Instant::now());
    for i in 0..TAPS {
        let tapped = Instant::now();
        let table = &mut tables[i % count as usize];
        let live = format!("t{}-live", table.number);
        let started = Instant::now();
        let (status, answer) = match table.turn {
            None => table.phones[0].act(json!({"action": "start"})),
            Some((seat, turn)) => {
                table.phones[seat].act(json!({"action": "end_turn", "turn": turn}))
            }
        };
        assert_eq!(status, 200, "{answer}");
        let before = table.turn.map(|(_, id)| id);
        let shown = table.pages_show(|s| {
            s["table"]["turn_id"].as_u64().is_some() && s["table"]["turn_id"].as_u64() != before
        });
        for tv in &mut tvs {
            let message = next_where(tv, |s| s["parts"].get(&live).is_some());
            tv_sizes.push(message.to_string().len());
        }
        samples.push(started.elapsed());
        page_sizes.push(shown.to_string().len());
        let seat = shown["table"]["turn"].as_u64().expect("a turn") as usize;
        let id = shown["table"]["turn_id"].as_u64().expect("a turn id");
        table.turn = Some((seat, id));
        std::thread::sleep(pace.saturating_sub(tapped.elapsed()));
    }
    report(
        &format!(
            "end of turn -> its table's 4 pages and 2 TV pages (all {} connected)",
            4 * count + 2
        ),
        &mut samples,
    );
    println!(
        "CPU while tapping (the whole process, the test's own clients included): {:.0} ms in {:.1} s",
        ms(cpu_time().saturating_sub(cpu_before)),
        taps_began.elapsed().as_secs_f64()
    );
    report_bytes("a TV page's message per tap", &mut tv_sizes);
    report_bytes("a table page's message per tap", &mut page_sizes);

    // 3. Racks, each saved before the answer, to every page of the table and both TVs.
    for table in &mut tables {
        let (status, answer) =
            table.phones[0].act(json!({"action": "game_over", "went_out": true}));
        assert_eq!(status, 200, "{answer}");
        table.pages_show(|s| !s["table"]["settling"].is_null());
        for tv in &mut tvs {
            next_where(tv, |s| {
                s["parts"].get(format!("t{}-live", table.number)).is_some()
            });
        }
    }
    let mut racks = Vec::new();
    for seat in 1..4 {
        for table in &mut tables {
            let started = Instant::now();
            let (status, answer) = table.phones[seat].rack(&format!("R5 J B{}", seat + 3));
            assert_eq!((status, &answer["saved"]), (200, &json!(true)), "{answer}");
            // The TV's live line counts confirmations, not racks: a rack reaches the pages.
            table.pages_show(|s| !s["table"]["settling"]["racks"][seat].is_null());
            racks.push(started.elapsed());
        }
    }
    report(
        "rack entered (on disk before the answer) -> its table's 4 pages",
        &mut racks,
    );

    // 4. Idle: everything connected, nothing happening.
    let before = cpu_time();
    let started = Instant::now();
    std::thread::sleep(IDLE);
    let used = cpu_time().saturating_sub(before);
    println!(
        "idle with {} pages connected for {:.0} s: {:.3} ms of CPU ({:.5} % of one core)",
        4 * count + 2,
        started.elapsed().as_secs_f64(),
        ms(used),
        used.as_secs_f64() / started.elapsed().as_secs_f64() * 100.0
    );
    drop(tables);
    drop(tvs);
    drop(night);

    // 5. Listing a season's events, as the Event view asks for them.
    let season = tempfile::tempdir().expect("temp dir");
    let mut night = event_of(PLAYERS);
    for round in 1..=5 {
        if round > 1 {
            night.apply(Command::SeatRound).expect("a round");
        }
        finish_round(&mut night);
    }
    let size = serde_json::to_vec(&night).map_or(0, |b| b.len());
    {
        let holder = Holder {
            pid: std::process::id(),
            kind: HolderKind::Command,
            ..Holder::default()
        };
        let store = ClubStore::open(season.path(), &holder).expect("the folder");
        for n in 0..50 {
            let id = EventId::new(&format!("20260101-19{n:04}")).expect("id");
            store.save_event(&id, &night).expect("saved");
        }
    }
    let owner = club::owner(season.path(), HolderKind::Window);
    let (mut asked, mut listed) = (Vec::new(), Vec::new());
    for _ in 0..10 {
        let started = Instant::now();
        owner.apply(ClubCommand::Refresh).expect("the folder reads");
        asked.push(started.elapsed());
        while owner.lock().listing() {
            assert!(started.elapsed() < Duration::from_secs(30), "listed");
            std::thread::sleep(Duration::from_micros(200));
        }
        listed.push(started.elapsed());
        assert_eq!(owner.known().len(), 50);
    }
    let what = format!(
        "50 saved events of 100 players, 5 rounds ({} KB each)",
        size / 1024
    );
    report(&format!("listing {what}: the window's wait"), &mut asked);
    report(&format!("listing {what}: until listed"), &mut listed);
    println!("load average after: {}", load());
}
