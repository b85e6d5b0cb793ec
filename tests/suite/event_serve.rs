//! The club night's pages, served by its owner on loopback: the TV page and a table's page;
//! results the organiser records reach an open feed at once, the TV sent only what changed;
//! a round's standings are held back until all its tables are in; the pages' words in the
//! reader's language (a Korean phone scanning an English TV's code reads Korean), refusals as
//! JSON in it (413 included); `event serve` from the command line, with `event result` from
//! another process handed to it, and a second host on the folder refused, naming the port.

use std::path::Path;
use std::time::{Duration, Instant};

use rummikub_companion::lang::Language;
use serde_json::{Value, json};

use crate::util::club::{Night, Phone, key};
use crate::util::phones::{Feed, get, post, request};

/// A failure bound only: an update normally arrives within milliseconds.
const BOUND: Duration = Duration::from_secs(5);

/// The next `state` on the feed that satisfies `want`, and how long it took.
pub(crate) fn wait_for(feed: &mut Feed, want: impl Fn(&Value) -> bool) -> (Value, Duration) {
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

/// The TV's JSON view.
fn view(addr: std::net::SocketAddr) -> Value {
    get(addr, "/tv/state").json()
}

#[test]
fn the_tv_page_shows_every_table_with_its_players_link_and_qr_code() {
    let night = Night::new();
    let addr = night.host(Language::English, false);
    let page = get(addr, "/tv");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains("Club &lt;night&gt; &amp; co"),
        "escaped name"
    );
    assert!(page.body.contains("Round 1"));
    // The rules the games are scored under are named.
    assert!(page.body.contains("joker on a rack at 50"), "{}", page.body);
    let event = night.event();
    for t in &event.rounds()[0].tables {
        assert!(page.body.contains(&format!("Table {}", t.number)));
        // The link carries the table's key and no language: a phone reads its own.
        assert!(page.body.contains(&format!("/table/{}?key=", t.number)));
        assert!(!page.body.contains(&format!("/table/{}?lang=", t.number)));
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
    // The JSON view carries no key and no device.
    let state = get(addr, "/tv/state").body;
    assert!(!state.contains(&key(addr, 1)), "no key in the JSON");

    let table = get(addr, "/table/1");
    assert_eq!(table.status, 200);
    let seated = event.seat_names(&event.rounds()[0].tables[0]);
    let mut at = 0;
    for name in &seated {
        let found = table.body[at..].find(name.as_str()).expect("in seat order");
        at += found;
    }
    assert!(table.body.contains("playing") && table.body.contains("data-table=\"1\""));
    for missing in ["/table/9", "/table/x", "/nothing"] {
        let reply = get(addr, missing);
        assert_eq!(reply.status, 404, "{missing}");
        assert_eq!(reply.json()["ok"], false, "{missing}: a refusal is JSON");
    }
    let script = get(addr, "/tv.js");
    assert_eq!(script.status, 200);
    // Pushed, never polled: the script counts clocks down itself but never asks the server.
    assert!(
        script.body.contains("EventSource")
            && !script.body.contains("fetch(")
            && !script.body.contains("XMLHttpRequest")
    );
    // The app's own Hangul font is served, and the pages ask for it.
    let font = request(addr, "GET", "/font.otf", b"").expect("font");
    assert_eq!(font.status, 200);
    assert_eq!(font.header("content-type").as_deref(), Some("font/otf"));
    let css = get(addr, "/tv.css").body;
    assert!(
        css.contains("@font-face") && css.contains("/font.otf"),
        "{css}"
    );
}

#[test]
fn a_result_the_organiser_records_is_pushed_and_standings_wait_for_the_round() {
    let night = Night::new();
    let addr = night.host(Language::English, false);
    let mut feed = Feed::open(addr, "/tv/events").expect("event stream");
    let (first, _) = wait_for(&mut feed, |_| true);
    assert!(first["html"].is_string(), "the whole board first");
    assert_eq!(first["summary"]["playing"], json!([1, 2]));

    night.result(1);
    let (one, took) = wait_for(&mut feed, |s| s["summary"]["playing"] == json!([2]));
    eprintln!("table 1's result reached the feed in {took:?}");
    assert!(one["html"].is_null(), "after the board, only what changed");
    let parts = one["parts"].as_object().expect("parts");
    assert!(
        parts.contains_key("t1-live") && !parts.contains_key("t2"),
        "{parts:?}"
    );
    let v = view(addr);
    assert_eq!(v["standings_round"], 0, "held back: table 2 plays");
    assert_eq!(v["standings"], json!([]));
    assert!(
        parts["standings"]
            .as_str()
            .expect("the standings part")
            .contains("still playing: table 2")
    );
    // A finished table on the TV shows its games, points and winner.
    assert!(parts["t1-live"].as_str().expect("t1").contains("Winner:"));

    night.result(2);
    let (_, took) = wait_for(&mut feed, |s| s["summary"]["standings_round"] == 1);
    eprintln!("table 2's result reached the feed in {took:?}");
    let v = view(addr);
    assert_eq!(v["complete"], true);
    assert_eq!(v["standings"].as_array().expect("rows").len(), 8);
    let round_1 = v["standings"].clone();

    // Round 2: one table in is not enough to show new standings.
    night.seat();
    let (seated, _) = wait_for(&mut feed, |s| s["summary"]["round"] == 2);
    let heading = seated["parts"]["head"].as_str().or(seated["html"].as_str());
    assert!(heading.is_some_and(|h| h.contains("Round 2")), "{seated}");
    assert_eq!(view(addr)["standings"], round_1);
    night.result(1);
    wait_for(&mut feed, |s| s["summary"]["playing"] == json!([2]));
    let v = view(addr);
    assert_eq!(v["standings_round"], 1);
    assert_eq!(v["standings"], round_1, "round 2 held back");
    night.result(2);
    wait_for(&mut feed, |s| s["summary"]["standings_round"] == 2);
    assert!(
        view(addr)["standings"]
            .as_array()
            .expect("rows")
            .iter()
            .all(|s| s["games"] == 2)
    );
    // The table page's own feed names that table only.
    let mut table = Feed::open(addr, "/tv/events?table=2").expect("feed");
    let (t2, _) = wait_for(&mut table, |_| true);
    assert!(t2["html"].as_str().expect("html").contains("Table 2"));
    assert!(!t2["html"].as_str().expect("html").contains("Table 1"));
}

/// The TV is sent what a tap changed, not the board: a table's live line.
#[test]
fn a_tap_sends_the_tv_a_few_hundred_bytes_not_the_board() {
    let night = Night::of(24);
    let addr = night.host(Language::English, true);
    let mut tv = Feed::open(addr, "/tv/events").expect("feed");
    let (board, _) = wait_for(&mut tv, |_| true);
    let board_size = board.to_string().len();
    let mut phones = crate::util::club::seated_phones(addr, 3, 4);
    let (status, _) = phones[0].act(json!({"action": "start"}));
    assert_eq!(status, 200);
    let (started, _) = wait_for(&mut tv, |s| {
        s["parts"]["t3-live"]
            .as_str()
            .is_some_and(|h| h.contains("data-ends-at"))
    });
    let tap = started.to_string().len();
    eprintln!("TV board {board_size} bytes; a tap {tap} bytes");
    assert!(
        started["parts"].as_object().expect("parts").len() == 1,
        "{started}"
    );
    assert!(tap * 20 < board_size, "board {board_size}, tap {tap}");
}

#[test]
fn the_pages_speak_the_readers_language_and_refuse_in_it() {
    let night = Night::new();
    let addr = night.host(Language::Korean, false);
    let page = get(addr, "/tv");
    for word in [
        "1라운드",
        "1번 테이블",
        "진행 중",
        "아직 끝나지 않은 테이블: 1, 2번",
    ] {
        assert!(page.body.contains(word), "{word} on the Korean page");
    }
    assert!(page.body.contains("lang=\"ko\"") && !page.body.contains("Round 1"));
    let english = get(addr, "/tv?lang=en");
    assert!(english.body.contains("Round 1") && !english.body.contains("1라운드"));

    // A table's page follows the phone (Accept-Language), not the TV; a pick (?lang=) wins.
    let k = key(addr, 2);
    let phone_page = |accept: &str, query: &str| {
        let path = format!("/table/2?key={k}{query}");
        let raw = format!(
            "GET {path} HTTP/1.1\r\nHost: x\r\nAccept-Language: {accept}\r\nConnection: close\r\n\r\n"
        );
        raw_request(addr, &raw)
    };
    let english_phone = phone_page("en-GB,en;q=0.9", "");
    assert!(english_phone.contains("lang=\"en\"") && english_phone.contains("Table 2"));
    let korean_phone = phone_page("ko-KR,ko;q=0.9,en;q=0.8", "");
    assert!(korean_phone.contains("lang=\"ko\"") && korean_phone.contains("2번 테이블"));
    let picked = phone_page("ko-KR", "&lang=en");
    assert!(picked.contains("lang=\"en\""));

    // Every refusal is JSON in the page's language: not a request, too large, a seat that
    // does not exist (named as asked, never wrapped).
    let bad = post(addr, "/table/1/act?lang=ko", "not json");
    assert_eq!(bad.status, 400);
    assert_eq!(bad.json()["message"], "이 페이지가 보내는 요청이 아닙니다");
    let huge = format!("{{\"key\": \"{}\"}}", "x".repeat(10_000));
    let big = post(addr, "/table/1/act?lang=ko", &huge);
    assert_eq!(big.status, 413);
    assert_eq!(
        big.json()["message"],
        "이 페이지가 보내기에는 너무 큰 요청입니다"
    );
    let big_en = post(addr, "/table/1/act?lang=en", &huge);
    assert_eq!(
        big_en.json()["message"],
        "That request is too large for this page"
    );
    let mut phone = Phone::at(addr, 1);
    let (status, answer) = phone.act(json!({"action": "claim", "seat": u64::MAX}));
    assert_eq!(status, 409, "{answer}");
    let message = answer["message"].as_str().expect("message");
    assert!(message.contains("18446744073709551615"), "{message}");
    assert!(!message.contains("seat 0"), "{message}");
}

/// A raw HTTP request, the answer's body.
fn raw_request(addr: std::net::SocketAddr, raw: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    stream.write_all(raw.as_bytes()).expect("sent");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer
}

/// The built binary's `event serve`, ended on drop.
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

/// Starts `event serve` on the folder; the process and its address.
fn serve(data: &Path) -> (Served, std::net::SocketAddr) {
    use std::io::BufRead;
    let mut child = binary(data)
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
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches("/tv")
        .parse()
        .expect("host:port");
    (served, addr)
}

/// `event serve` holds the folder: `event result` in another process is handed to it (it
/// lands, and the TV shows it at once); a second `event serve` is refused at once, naming the
/// port that serves the folder.
#[test]
fn event_serve_takes_event_result_from_another_process_and_a_second_host_is_refused() {
    let night = Night::new();
    let dir = night.dir().to_path_buf();
    let event = night.event();
    // The test's own owner lets the folder go for the command line's host.
    drop(
        night
            .club()
            .apply(rummikub_companion::club::ClubCommand::Close),
    );
    let (served, addr) = serve(&dir);
    let mut feed = Feed::open(addr, "/tv/events").expect("event stream");
    let (first, _) = wait_for(&mut feed, |_| true);
    assert_eq!(first["summary"]["playing"], json!([1, 2]));

    let names = event.seat_names(&event.rounds()[0].tables[1]);
    let csv = format!("game,{}\n1,0,10,20,30\n", names.join(","));
    let file = dir.join("t2.csv");
    std::fs::write(&file, csv).expect("csv");
    let started = Instant::now();
    let recorded = binary(&dir)
        .args(["event", "result", "--table", "2"])
        .arg(&file)
        .output()
        .expect("event result runs");
    assert!(recorded.status.success(), "{recorded:?}");
    let (_, took) = wait_for(&mut feed, |s| s["summary"]["playing"] == json!([1]));
    eprintln!(
        "event result in another process: {:?} to run, on the TV {took:?} after",
        started.elapsed()
    );

    let second = binary(&dir)
        .args(["event", "serve", "--bind", "127.0.0.1", "--port", "0"])
        .output()
        .expect("runs");
    assert_eq!(second.status.code(), Some(1), "{second:?}");
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(err.contains(&format!("port {}", addr.port())), "{err}");
    // The refused host changed nothing: the first still serves.
    assert_eq!(get(addr, "/tv/state").status, 200);
    drop(served);

    let refused = binary(&dir)
        .args(["--lang", "ko", "event", "serve", "--bind", "nowhere"])
        .output()
        .expect("runs");
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("\"nowhere\"는 IP 주소가 아닙니다"), "{err}");
}

/// The two-host race: two `event serve` started at the same moment on one folder. Exactly one
/// serves; the other exits 1 at once, naming the port that serves the folder; the one serving
/// keeps what its phones were told is saved.
#[test]
fn two_hosts_started_at_once_on_one_folder_one_serves_and_the_other_names_its_port() {
    let night = Night::new();
    let dir = night.dir().to_path_buf();
    drop(
        night
            .club()
            .apply(rummikub_companion::club::ClubCommand::Close),
    );
    for _ in 0..3 {
        let spawn = || {
            binary(&dir)
                .args(["event", "serve", "--bind", "127.0.0.1", "--port", "0"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("starts")
        };
        let (a, b) = (spawn(), spawn());
        // The loser ends by itself; the winner serves until killed.
        let started = Instant::now();
        let (mut a, mut b) = (Served(a), Served(b));
        let loser = loop {
            if let Some(status) = a.0.try_wait().expect("a") {
                break (status, &mut a, &mut b);
            }
            if let Some(status) = b.0.try_wait().expect("b") {
                break (status, &mut b, &mut a);
            }
            assert!(
                started.elapsed() < BOUND * 2,
                "one of the two must give way"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let (status, lost, won) = loser;
        assert_eq!(status.code(), Some(1));
        let mut err = String::new();
        std::io::Read::read_to_string(lost.0.stderr.as_mut().expect("stderr"), &mut err)
            .expect("reads");
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(won.0.stdout.as_mut().expect("stdout")),
            &mut line,
        )
        .expect("the winner prints its link");
        let port = line
            .rsplit(':')
            .next()
            .and_then(|p| p.split('/').next())
            .expect("a port");
        assert!(err.contains(&format!("port {port}")), "{err} / {line}");
        let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().expect("addr");
        let mut phone = Phone::at(addr, 1);
        phone.device = Some("race-phone-token-0123456789".into());
        let (status, answer) = phone.claim(0);
        assert_eq!((status, &answer["ok"]), (200, &json!(true)), "{answer}");
        drop(a);
        drop(b);
        std::thread::sleep(Duration::from_millis(100));
    }
}
