//! The phone server over real HTTP on loopback, with the real evening behind it on a fake
//! clock (see `util::phones`): no window draws a frame in any of these tests, so every answer
//! here is one a phone gets while the laptop's window is minimised.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, TcpStream};
use std::time::{Duration, Instant};

use rummikub_companion::evening::Command;
use rummikub_companion::server::qr_modules;
use rummikub_companion::timer::Phase;

use crate::peer::{connect_from, request_from};
use crate::util::phones::{Feed, Table, get, post};

fn table() -> Table {
    Table::start(0)
}

/// The seat whose turn it is.
fn current(t: &Table) -> usize {
    t.timer(|timer, _| timer.current_player())
}

fn end_turn(seat: usize, turn: u64) -> String {
    format!(r#"{{"action":"end_turn","seat":{seat},"turn":{turn}}}"#)
}

#[test]
fn join_serves_the_page_and_the_state() {
    let t = table();
    let page = get(t.addr, &t.path(""));
    assert_eq!(page.status, 200);
    assert!(
        page.header("content-type")
            .is_some_and(|c| c.starts_with("text/html"))
    );
    assert!(page.body.contains("app.js") && page.body.contains("style.css"));
    let (words, app) = (
        page.body
            .find("words.js")
            .expect("the page loads its words"),
        page.body.find("app.js").expect("and its script"),
    );
    assert!(words < app, "the words before the script that uses them");
    assert_eq!(page.header("cache-control").as_deref(), Some("no-store"));
    assert_eq!(
        page.header("referrer-policy").as_deref(),
        Some("no-referrer")
    );
    for (asset, kind) in [
        ("app.js", "text/javascript"),
        ("style.css", "text/css"),
        ("words.js", "text/javascript"),
    ] {
        let r = get(t.addr, &t.path(asset));
        assert_eq!(r.status, 200, "{asset}");
        assert!(
            r.header("content-type")
                .is_some_and(|c| c.starts_with(kind)),
            "{asset}"
        );
        assert!(r.body.len() > 1000, "{asset} is the real file");
    }
    let state = get(t.addr, &t.path("state")).json();
    assert_eq!(
        state["players"],
        serde_json::json!(["Ann", "Bo", "Cy", "Dee"])
    );
    assert_eq!(state["phase"], "running");
    assert_eq!(state["current"], 0);
    assert_eq!(state["next"], 1);
    assert_eq!(state["turn"], 1);
    assert_eq!(state["turn_ms"], 60_000);
    assert_eq!(state["warning_ms"], 10_000);
    assert_eq!(state["entry"], serde_json::Value::Null);
    assert_eq!(
        state["phones"],
        serde_json::json!([0, 0, 0, 0]),
        "no page names a seat"
    );
    // Nothing but names, the clock and the open game's entries (and, when a seat has one, how
    // its name is said: `spoken`, absent here).
    let keys: Vec<&str> = state
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    let mut keys = keys;
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "anyone_may_end",
            "chess_clock",
            "current",
            "entry",
            "evening",
            "next",
            "overtime_ms",
            "phase",
            "phones",
            "players",
            "remaining_ms",
            "timed_out",
            "turn",
            "turn_ms",
            "warning_ms"
        ]
    );
    // Without the trailing slash the page redirects to it, so relative links work.
    let bare = get(t.addr, t.base.trim_end_matches('/'));
    assert_eq!(bare.status, 308);
    assert_eq!(bare.header("location").as_deref(), Some(t.base.as_str()));
    t.stop();
}

#[test]
fn only_the_current_seat_ends_the_turn_and_only_once() {
    let t = table();
    t.advance(Duration::from_secs(12));
    let other = post(t.addr, &t.path("action"), &end_turn(2, 1));
    assert_eq!(other.status, 403, "{}", other.body);
    assert_eq!(other.json()["error"], "not_your_turn");
    assert_eq!(other.json()["message"], "It is not your turn.");
    assert_eq!(current(&t), 0, "a refused end changes nothing");
    assert_eq!(t.evening.lock().undo_depth(), 3, "nothing recorded either");

    let mine = post(t.addr, &t.path("action"), &end_turn(0, 1));
    assert_eq!(mine.status, 200, "{}", mine.body);
    assert_eq!(mine.json()["ok"], true);
    assert_eq!(
        mine.json()["saved"],
        true,
        "on disk before the phone is told"
    );
    t.timer(|timer, _| {
        assert_eq!(timer.current_player(), 1);
        assert_eq!(timer.turn_id(), Some(2));
        assert_eq!(timer.stats()[0].turns, 1);
        assert_eq!(timer.stats()[0].total, Duration::from_secs(12));
    });
    // A double tap names the turn that has just ended: refused, the timer moves once.
    let again = post(t.addr, &t.path("action"), &end_turn(0, 1));
    assert_eq!(again.status, 409, "{}", again.body);
    assert_eq!(again.json()["error"], "stale_turn");
    assert_eq!(current(&t), 1);

    let state = get(t.addr, &t.path("state")).json();
    assert_eq!(
        (state["current"].as_u64(), state["turn"].as_u64()),
        (Some(1), Some(2))
    );
    let no_seat = post(t.addr, &t.path("action"), &end_turn(4, 2));
    assert_eq!(no_seat.status, 404);
    assert_eq!(no_seat.json()["error"], "no_such_seat");
    t.stop();
}

#[test]
fn with_anyone_may_end_any_phone_ends_the_turn() {
    let t = table();
    let mut settings = t.evening.lock().settings().clone();
    settings.anyone_may_end = true;
    t.apply(Command::Settings(Box::new(settings)))
        .expect("settings");
    t.advance(Duration::from_secs(3));
    let r = post(t.addr, &t.path("action"), &end_turn(3, 1));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(current(&t), 1);
    t.stop();
}

#[test]
fn every_phone_may_pause_and_resume() {
    let t = table();
    let toggle = |seat: usize| {
        post(
            t.addr,
            &t.path("action"),
            &format!(r#"{{"action":"toggle_pause","seat":{seat}}}"#),
        )
    };
    let phase = || t.timer(|timer, _| timer.phase());
    assert_eq!(toggle(2).status, 200);
    assert_eq!(phase(), Phase::Paused);
    assert_eq!(get(t.addr, &t.path("state")).json()["phase"], "paused");
    assert_eq!(toggle(3).status, 200);
    assert_eq!(phase(), Phase::Running);
    assert_eq!(toggle(9).status, 404);
    assert_eq!(phase(), Phase::Running);
    t.stop();
}

#[test]
fn score_entry_fills_the_open_form_only() {
    let t = table();
    let rack = |seat: usize, text: &str| {
        let body =
            serde_json::json!({ "action": "enter_rack", "seat": seat, "text": text }).to_string();
        post(t.addr, &t.path("action"), &body)
    };
    t.apply(Command::AddGame).expect("the add-game form opens");
    assert_eq!(
        get(t.addr, &t.path("state")).json()["entry"],
        serde_json::json!(["", "", "", ""])
    );
    assert_eq!(rack(1, "R5 K7 J").status, 200);
    assert_eq!(rack(2, "0").status, 200);
    let bad = rack(3, "Q9 R5");
    assert_eq!(bad.status, 422, "{}", bad.body);
    assert_eq!(bad.json()["error"], "bad_rack");
    assert!(
        bad.json()["message"]
            .as_str()
            .is_some_and(|m| m.contains("Q9")),
        "{}",
        bad.body
    );
    assert_eq!(rack(3, "-4").status, 422);
    let expected = ["", "R5 K7 J", "0", ""].map(String::from).to_vec();
    assert_eq!(
        t.evening.lock().draft().map(|d| d.left.clone()),
        Some(expected.clone())
    );
    // Pushed back to every phone, so the table sees the fields fill in.
    assert_eq!(
        get(t.addr, &t.path("state")).json()["entry"],
        serde_json::json!(expected)
    );
    t.stop();
}

#[test]
fn a_wrong_or_missing_secret_is_403_and_changes_nothing() {
    let t = table();
    let good = t
        .base
        .trim_matches('/')
        .trim_start_matches("p/")
        .to_string();
    let mut flipped = good.clone().into_bytes();
    flipped[31] = if flipped[31] == b'0' { b'1' } else { b'0' };
    let flipped = String::from_utf8(flipped).expect("hex");
    for path in [
        format!("/p/{flipped}/state"),
        format!("/p/{}/state", &good[..31]),
        format!("/p/{good}0/state"),
        "/p//state".to_string(),
        "/state".to_string(),
        "/".to_string(),
        "/p/".to_string(),
        format!("/x/{good}/state"),
        format!("/p/{}/state", good.to_uppercase()),
    ] {
        let r = get(t.addr, &path);
        assert_eq!(r.status, 403, "{path}: {}", r.body);
        assert_eq!(r.json()["error"], "forbidden");
    }
    let r = post(t.addr, &format!("/p/{flipped}/action"), &end_turn(0, 1));
    assert_eq!(r.status, 403);
    assert_eq!(current(&t), 0);
    t.stop();
}

#[test]
fn malformed_json_is_400_and_changes_nothing() {
    let t = table();
    for body in [
        "",
        "{",
        "not json",
        r#"{"action":"end_turn"}"#,
        r#"{"action":"end_turn","seat":0}"#,
        r#"{"action":"end_turn","seat":"0","turn":1}"#,
        r#"{"action":"end_turn","seat":-1,"turn":1}"#,
        r#"{"action":"explode","seat":0}"#,
        r#"{"seat":0,"turn":1}"#,
        "[1,2,3]",
        "\u{0}\u{1}",
    ] {
        let r = post(t.addr, &t.path("action"), body);
        assert_eq!(r.status, 400, "{body:?}: {}", r.body);
        assert_eq!(r.json()["error"], "bad_request");
    }
    assert_eq!(current(&t), 0);
    t.stop();
}

#[test]
fn an_oversized_body_is_413() {
    let t = table();
    let text = "R5 ".repeat(2_000);
    let body = serde_json::json!({ "action": "enter_rack", "seat": 0, "text": text }).to_string();
    assert!(body.len() > 4 * 1024);
    let r = post(t.addr, &t.path("action"), &body);
    assert_eq!(r.status, 413);
    // Announced small but sent large, without a length: still bounded.
    let mut s = TcpStream::connect(t.addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    let head = format!(
        "POST {} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n",
        t.path("action")
    );
    s.write_all(head.as_bytes()).expect("write");
    for _ in 0..10 {
        let chunk = "x".repeat(1000);
        if s.write_all(format!("{:x}\r\n{chunk}\r\n", chunk.len()).as_bytes())
            .is_err()
        {
            break; // the server already answered and closed
        }
    }
    let _ = s.write_all(b"0\r\n\r\n");
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer:?}");
    assert!(t.evening.lock().draft().is_none(), "nothing was entered");
    t.stop();
}

#[test]
fn five_hundred_connections_from_one_address_leave_it_eight_and_the_server_survives() {
    let t = table();
    let started = Instant::now();
    let path = t.path("state");
    // Open 500 connections at once (held open, keep-alive), each with a request written.
    let mut streams = Vec::new();
    let mut refused_at_connect = 0;
    for _ in 0..500 {
        match TcpStream::connect_timeout(&t.addr, Duration::from_secs(2)) {
            Ok(mut s) => {
                let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
                let _ = s.write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes());
                streams.push(s);
            }
            Err(_) => refused_at_connect += 1,
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "bounded in time"
        );
    }
    // Each is answered or closed; afterwards only the newest few are still open.
    let (mut served, mut closed) = (0, refused_at_connect);
    let mut open = 0;
    for mut s in streams {
        let mut buf = [0u8; 12];
        match s.read(&mut buf) {
            Ok(n) if n >= 12 && buf.starts_with(b"HTTP/1.1 200") => served += 1,
            _ => closed += 1,
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "bounded in time"
        );
        // Still open (a keep-alive connection waiting) or closed by the server?
        let _ = s.set_read_timeout(Some(Duration::from_millis(1500)));
        let mut rest = [0u8; 4096];
        loop {
            match s.read(&mut rest) {
                Ok(0) => break,
                Ok(_) => continue, // the rest of the answer
                Err(_) => {
                    open += 1;
                    break;
                }
            }
        }
    }
    assert_eq!(served + closed, 500);
    assert!(served > 0, "connections were served: {served}");
    assert!(
        open <= 8,
        "one address holds at most 8 connections, {open} were still open"
    );
    // The server answers as before.
    let after = get(t.addr, &t.path("state"));
    assert_eq!(after.status, 200);
    t.advance(Duration::from_secs(3));
    assert_eq!(post(t.addr, &t.path("action"), &end_turn(0, 1)).status, 200);
    t.stop();
}

#[test]
fn an_addresss_ninth_connection_replaces_its_oldest_event_stream() {
    let t = table();
    let mut feeds: Vec<Feed> = (0..8)
        .map(|_| Feed::open(t.addr, &t.path("events")).expect("event stream"))
        .collect();
    for feed in &mut feeds {
        assert!(
            feed.next_state(Duration::from_secs(5))
                .expect("feed")
                .is_some()
        );
    }
    // The ninth connection of 127.0.0.1 is served; the oldest of its eight streams goes.
    assert_eq!(get(t.addr, &t.path("state")).status, 200);
    let started = Instant::now();
    assert!(
        feeds[0].next_state(Duration::from_secs(5)).is_err(),
        "the oldest stream was closed"
    );
    assert!(started.elapsed() < Duration::from_secs(3), "promptly");
    // The other seven still get every push.
    t.advance(Duration::from_secs(2));
    assert_eq!(post(t.addr, &t.path("action"), &end_turn(0, 1)).status, 200);
    for (i, feed) in feeds.iter_mut().enumerate().skip(1) {
        let mut turn = None;
        while turn != Some(2) {
            let state = feed
                .next_state(Duration::from_secs(5))
                .unwrap_or_else(|e| panic!("stream {i} still open: {e}"))
                .unwrap_or_else(|| panic!("stream {i} got the push"));
            turn = state["turn"].as_u64();
        }
    }
    t.stop();
}

#[test]
fn a_full_server_makes_room_for_a_quiet_address_from_the_busiest() {
    let t = table();
    // Eight addresses hold eight idle connections each: the 64 the server allows in all.
    let mut held = Vec::new();
    for last in 1..=8u8 {
        for _ in 0..8 {
            held.push(connect_from(Ipv4Addr::new(127, 0, 0, last), t.addr).expect("connect"));
        }
    }
    // A ninth address still gets its answer (before: refused, the server being full).
    let started = Instant::now();
    let tap = request_from(
        Ipv4Addr::new(127, 0, 0, 9),
        t.addr,
        "POST",
        &t.path("action"),
        br#"{"action":"toggle_pause","seat":2}"#,
        Duration::from_secs(5),
    )
    .expect("an answer");
    assert_eq!(tap.status, 200, "{}", tap.body);
    assert!(started.elapsed() < Duration::from_secs(3));
    assert_eq!(t.timer(|timer, _| timer.phase()), Phase::Paused);
    drop(held);
    t.stop();
}

#[test]
fn sse_pushes_the_new_state_after_an_action() {
    let t = table();
    let mut feed = Feed::open(t.addr, &t.path("events")).expect("event stream");
    let first = feed
        .next_state(Duration::from_secs(5))
        .expect("feed")
        .expect("a first state at once");
    assert_eq!(first["current"], 0);
    // (The fake clock jumps 3 s, which the pages could not foresee: that is pushed too.)
    t.advance(Duration::from_secs(3));
    let jumped = feed
        .next_state(Duration::from_secs(5))
        .expect("feed")
        .expect("the clock's jump");
    assert_eq!(jumped["current"], 0);
    assert_eq!(post(t.addr, &t.path("action"), &end_turn(0, 1)).status, 200);
    let pushed = feed
        .next_state(Duration::from_secs(5))
        .expect("feed")
        .expect("a pushed state");
    assert_eq!(pushed["current"], 1);
    assert_eq!(pushed["turn"], 2);
    assert_eq!(pushed["next"], 2);
    t.stop();
}

#[test]
fn a_clock_that_merely_runs_is_not_pushed_but_a_pause_is() {
    let t = table();
    let mut feed = Feed::open(t.addr, &t.path("events")).expect("event stream");
    assert!(
        feed.next_state(Duration::from_secs(5))
            .expect("feed")
            .is_some()
    );
    // The evening publishes after every command while the clock runs: nothing new for the
    // phones.
    for _ in 0..10 {
        t.advance(Duration::from_millis(16));
    }
    // Publishing projects with the real clock: the fake clock moved 160 ms in almost no real
    // time, which is still within the drift allowed (250 ms).
    assert_eq!(
        feed.next_state(Duration::from_millis(300)).expect("feed"),
        None
    );
    t.apply(Command::TogglePause).expect("pause");
    let paused = feed
        .next_state(Duration::from_secs(5))
        .expect("feed")
        .expect("pushed");
    assert_eq!(paused["phase"], "paused");
    t.stop();
}

#[test]
fn after_stop_and_a_new_secret_the_old_link_is_403() {
    let t = table();
    let port = t.addr.port();
    let old_state = t.path("state");
    let old_events = t.path("events");
    let mut feed = Feed::open(t.addr, &old_events).expect("event stream");
    assert!(
        feed.next_state(Duration::from_secs(5))
            .expect("feed")
            .is_some()
    );
    t.stop();
    // Every connection was closed by stop.
    assert!(
        feed.next_state(Duration::from_secs(5)).is_err(),
        "the stream ended"
    );
    let t2 = Table::start(port);
    assert_eq!(t2.addr.port(), port);
    assert_eq!(get(t2.addr, &old_state).status, 403);
    assert_eq!(get(t2.addr, &t2.path("state")).status, 200);
    assert_ne!(t2.path("state"), old_state);
    t2.stop();
}

#[test]
fn a_phones_refusal_is_worded_in_the_phones_language() {
    let t = table();
    let other = post(t.addr, &t.path("action?lang=ko"), &end_turn(2, 1));
    assert_eq!(other.status, 403, "{}", other.body);
    assert_eq!(other.json()["error"], "not_your_turn");
    assert_eq!(other.json()["message"], "내 차례가 아닙니다.");
    let body = serde_json::json!({ "action": "enter_rack", "seat": 1, "text": "Q9" }).to_string();
    t.apply(Command::AddGame).expect("a form");
    let bad = post(t.addr, &t.path("action?lang=ko"), &body);
    assert_eq!(bad.status, 422, "{}", bad.body);
    let message = bad.json()["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        message.starts_with("숫자나 타일이 아닙니다") && message.contains("Q9"),
        "Korean words, the bad token named: {message}"
    );
    assert!(!message.contains("not a"), "no English detail: {message}");
    t.stop();
}

#[test]
fn a_new_link_keeps_the_evening_and_stops_the_old_link() {
    let t = table();
    let old = t.path("state");
    assert_eq!(get(t.addr, &old).status, 200);
    // A new sheet keeps the link: six phones do not scan again.
    t.apply(Command::NewSheet {
        rounds: None,
        target: None,
    })
    .expect("a new sheet");
    assert_eq!(
        get(t.addr, &old).status,
        200,
        "the same link after a new sheet"
    );
    t.apply(Command::NewLink).expect("a new link");
    let (addr, url) = {
        let e = t.evening.lock();
        (
            e.phones().local_addr().expect("on"),
            e.phones().url().expect("a link").to_owned(),
        )
    };
    assert_eq!(addr, t.addr, "the same address");
    let new = format!(
        "{}state",
        url.split_once(&format!(":{}", addr.port()))
            .expect("port")
            .1
    );
    assert_ne!(new, old);
    assert_eq!(get(t.addr, &old).status, 403, "the old link stops working");
    assert_eq!(get(t.addr, &new).status, 200);
    t.stop();
}

#[test]
fn the_qr_code_of_a_link_is_square_and_decodable_in_size() {
    let url = "http://192.168.1.23:7373/p/0123456789abcdef0123456789abcdef/";
    let (width, dark) = qr_modules(url).expect("fits a QR code");
    assert_eq!(dark.len(), width * width);
    assert!(
        (25..=41).contains(&width),
        "a small code scans easily: {width}"
    );
    // Finder patterns in three corners: a 7×7 dark ring.
    for (x0, y0) in [(0, 0), (width - 7, 0), (0, width - 7)] {
        for i in 0..7 {
            assert!(dark[y0 * width + x0 + i] && dark[(y0 + 6) * width + x0 + i]);
        }
    }
    assert!(qr_modules(&"x".repeat(5_000)).is_none());
}

fn toggle(seat: usize, start: bool) -> String {
    format!(r#"{{"action":"toggle_pause","seat":{seat},"start":{start}}}"#)
}

#[test]
fn start_from_a_phone_starts_the_first_turn_once_as_the_key_does() {
    let t = Table::idle(0);
    let depth = t.evening.lock().undo_depth();
    let first = post(t.addr, &t.path("action"), &toggle(2, true));
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(first.json()["saved"], true);
    t.timer(|timer, _| {
        assert_eq!(timer.phase(), Phase::Running);
        assert_eq!(
            timer.current_player(),
            0,
            "the first seat starts, as with the key"
        );
        assert_eq!(timer.turn_id(), Some(1));
    });
    assert_eq!(t.evening.lock().undo_depth(), depth + 1, "one undo step");
    // A second phone that also showed Start, a moment later: told, and the clock runs on.
    let second = post(t.addr, &t.path("action"), &toggle(3, true));
    assert_eq!(second.status, 409, "{}", second.body);
    assert_eq!(second.json()["error"], "already_started");
    assert_eq!(second.json()["message"], "The clock was already started.");
    assert_eq!(t.timer(|timer, _| timer.phase()), Phase::Running);
    // Undo takes the start back, like a key's.
    t.apply(Command::Undo(None)).expect("undo the start");
    assert_eq!(t.timer(|timer, _| timer.phase()), Phase::Idle);
    // An older page sends no "start": idle, it starts too; running, it pauses.
    t.advance(Duration::from_secs(1));
    let old_page = r#"{"action":"toggle_pause","seat":1}"#;
    assert_eq!(post(t.addr, &t.path("action"), old_page).status, 200);
    assert_eq!(t.timer(|timer, _| timer.phase()), Phase::Running);
    assert_eq!(post(t.addr, &t.path("action"), old_page).status, 200);
    assert_eq!(t.timer(|timer, _| timer.phase()), Phase::Paused);
    t.stop();
}

#[test]
fn the_state_counts_the_pages_open_on_each_seat() {
    let t = table();
    let phones = |feed: &mut Feed, want: serde_json::Value| {
        let started = Instant::now();
        loop {
            let state = feed
                .next_state(Duration::from_secs(5))
                .expect("feed")
                .expect("a state");
            if state["phones"] == want {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "never {want}: {}",
                state["phones"]
            );
        }
    };
    let mut watcher = Feed::open(t.addr, &t.path("events")).expect("a page picking its seat");
    phones(&mut watcher, serde_json::json!([0, 0, 0, 0]));
    let bo = Feed::open(t.addr, &t.path("events?seat=1")).expect("Bo's phone");
    phones(&mut watcher, serde_json::json!([0, 1, 0, 0]));
    let bo_again = Feed::open(t.addr, &t.path("events?seat=1")).expect("a second phone on Bo");
    phones(&mut watcher, serde_json::json!([0, 2, 0, 0]));
    // A seat that does not exist, or no number, is not counted.
    let nobody = Feed::open(t.addr, &t.path("events?seat=9")).expect("no such seat");
    let junk = Feed::open(t.addr, &t.path("events?seat=x")).expect("junk");
    assert_eq!(
        get(t.addr, &t.path("state")).json()["phones"],
        serde_json::json!([0, 2, 0, 0])
    );
    // A page that goes is no longer counted, at once.
    drop(bo_again);
    phones(&mut watcher, serde_json::json!([0, 1, 0, 0]));
    drop(bo);
    phones(&mut watcher, serde_json::json!([0, 0, 0, 0]));
    drop((nobody, junk));
    t.stop();
}

#[test]
fn words_js_serves_the_pages_words_in_both_languages_and_app_js_has_none() {
    let t = table();
    let words = |query: &str| {
        let r = get(t.addr, &t.path(&format!("words.js{query}")));
        assert_eq!(r.status, 200, "{query}");
        assert!(
            r.header("content-type")
                .is_some_and(|c| c.starts_with("text/javascript"))
        );
        let json = r
            .body
            .split_once("window.RC_WORDS = ")
            .and_then(|(_, rest)| rest.trim_end().strip_suffix(';'))
            .unwrap_or_else(|| panic!("a script setting RC_WORDS: {}", r.body));
        serde_json::from_str::<serde_json::Value>(json).expect("JSON")
    };
    let both = words("");
    assert_eq!(both["en"]["pickTitle"], "Which seat is yours?");
    assert_eq!(both["ko"]["pickTitle"], "내 자리를 고르세요");
    assert_eq!(both["ko"]["start"], "시작");
    let ko = words("?lang=ko");
    assert_eq!(ko["ko"], both["ko"]);
    assert!(ko.get("en").is_none(), "only the language asked for");
    let en = words("?lang=en");
    assert_eq!(en["en"], both["en"]);
    assert!(en.get("ko").is_none());
    for (key, text) in rummikub_companion::i18n::phone::WORDS {
        assert_eq!(both["en"][key], text.en, "{key}");
        assert_eq!(both["ko"][key], text.ko, "{key}");
    }

    // The page asks only for words that exist, uses every one, and holds no words itself.
    let app = get(t.addr, &t.path("app.js")).body;
    let keys_after = |marker: &str, prefix: &str| -> Vec<String> {
        app.split(marker)
            .skip(1)
            .filter_map(|rest| {
                rest.split_once('\'')
                    .map(|(key, _)| format!("{prefix}{key}"))
            })
            .collect()
    };
    // `w('key')`, and the refusal words the page maps from the server's codes (`: 'errBusy'`).
    let mut asked = keys_after("w('", "");
    asked.extend(keys_after(": 'err", "err"));
    asked.sort_unstable();
    asked.dedup();
    let known: Vec<&str> = rummikub_companion::i18n::phone::WORDS
        .iter()
        .map(|(k, _)| *k)
        .collect();
    for key in &asked {
        assert!(
            known.contains(&key.as_str()),
            "app.js asks for {key}, which words.js lacks"
        );
    }
    for key in &known {
        assert!(
            asked.iter().any(|k| k == key),
            "{key} is never shown by the page"
        );
    }
    assert!(
        !app.chars().any(|c| ('가'..='힣').contains(&c)),
        "no Korean left in app.js"
    );
    for english in [
        "Which seat is yours?",
        "End my turn",
        "Hurry up!",
        "Connection lost",
    ] {
        assert!(!app.contains(english), "{english:?} still in app.js");
    }
    t.stop();
}

mod link_addresses {
    use std::net::IpAddr;

    use rummikub_companion::server::{
        DefaultRoutes, InterfaceAddress, Listening, default_route_v4, default_route_v6,
        is_virtual_interface, rank_link_addresses,
    };

    const IPV4_ONLY: Listening = Listening::Any {
        v4: true,
        v6: false,
    };
    const BOTH: Listening = Listening::Any { v4: true, v6: true };

    fn ip(s: &str) -> IpAddr {
        s.parse().expect("test address")
    }

    /// `"wlan0 192.168.1.5"`, or `"eth1 10.0.0.2 down"`.
    fn interfaces(list: &[&str]) -> Vec<InterfaceAddress> {
        list.iter()
            .map(|line| {
                let mut words = line.split_whitespace();
                let interface = words.next().expect("a name").to_owned();
                let address = ip(words.next().expect("an address"));
                InterfaceAddress {
                    interface,
                    ip: address,
                    up: words.next() != Some("down"),
                }
            })
            .collect()
    }

    fn routes(v4: Option<&str>, v6: Option<&str>) -> DefaultRoutes {
        DefaultRoutes {
            v4: v4.map(str::to_owned),
            v6: v6.map(str::to_owned),
        }
    }

    /// The ranked list as `"interface address"` lines.
    fn ranked(list: &[&str], routes: &DefaultRoutes, listening: Listening) -> Vec<String> {
        rank_link_addresses(&interfaces(list), routes, listening)
            .into_iter()
            .map(|a| format!("{} {}", a.interface, a.ip))
            .collect()
    }

    #[test]
    fn the_default_routes_interface_comes_first_and_virtual_down_and_unheard_ones_are_left_out() {
        let laptop = [
            "lo 127.0.0.1",
            "lo ::1",
            "docker0 172.17.0.1",
            "br-5f2a9c 172.18.0.1",
            "veth1a2b3c 169.254.7.1",
            "virbr0 192.168.122.1",
            "tun0 10.8.0.6",
            "wg0 10.66.0.2",
            "tailscale0 100.101.102.103",
            "eth0 10.0.0.7",
            "wlan0 192.168.1.23",
            "wlan0 fd00::23",
            "wlan0 fe80::1c2b:3aff:fe4d:5e6f",
            "enp0s31f6 192.168.7.2 down",
        ];
        struct Case {
            name: &'static str,
            routes: DefaultRoutes,
            listening: Listening,
            want: &'static [&'static str],
        }
        let cases = [
            Case {
                name: "default route on the Wi-Fi, server on 0.0.0.0: no IPv6",
                routes: routes(Some("wlan0"), Some("wlan0")),
                listening: IPV4_ONLY,
                want: &["wlan0 192.168.1.23", "eth0 10.0.0.7"],
            },
            Case {
                name: "default route on the cable: it comes first, the Wi-Fi stays offered",
                routes: routes(Some("eth0"), None),
                listening: IPV4_ONLY,
                want: &["eth0 10.0.0.7", "wlan0 192.168.1.23"],
            },
            Case {
                name: "no route known (not Linux): private IPv4 by name",
                routes: routes(None, None),
                listening: IPV4_ONLY,
                want: &["eth0 10.0.0.7", "wlan0 192.168.1.23"],
            },
            Case {
                name: "a server on [::] offers the unique-local IPv6 too, after private IPv4, \
                       never link-local",
                routes: routes(Some("wlan0"), Some("wlan0")),
                listening: BOTH,
                want: &["wlan0 192.168.1.23", "eth0 10.0.0.7", "wlan0 fd00::23"],
            },
            Case {
                name: "a default route through a VPN does not make the VPN the link",
                routes: routes(Some("wg0"), None),
                listening: IPV4_ONLY,
                want: &["eth0 10.0.0.7", "wlan0 192.168.1.23"],
            },
        ];
        for case in cases {
            assert_eq!(
                ranked(&laptop, &case.routes, case.listening),
                case.want,
                "{}",
                case.name
            );
        }
    }

    #[test]
    fn the_machine_seen_here_gets_no_ipv6_link_while_the_server_listens_on_ipv4() {
        // This machine: eth0 with 192.0.2.2 (a documentation address, outside the local
        // ranges the server accepts) and fd00::2; the old ranking gave http://[fd00::2]:…
        let here = ["lo 127.0.0.1", "lo ::1", "eth0 192.0.2.2", "eth0 fd00::2"];
        let got = ranked(&here, &routes(Some("eth0"), Some("eth0")), IPV4_ONLY);
        assert!(got.is_empty(), "nothing a phone could use: {got:?}");
        let home = ["lo 127.0.0.1", "eth0 192.168.0.20", "eth0 fd00::2"];
        let got = ranked(&home, &routes(Some("eth0"), Some("eth0")), IPV4_ONLY);
        assert_eq!(got, ["eth0 192.168.0.20"]);
    }

    /// Issue 49.5: with no private IPv4 address the window offered `http://127.0.0.1:…` with
    /// its QR code. Only private IPv4, then unique-local IPv6, is offered; none is said so.
    #[test]
    fn only_addresses_a_phone_can_reach_are_offered_and_none_is_none() {
        use rummikub_companion::server::LinkChoice;
        let here = [
            "lo 127.0.0.1",
            "lo ::1",
            "eth0 192.0.2.2",
            "eth0 fd00::2",
            "eth0 fe80::fc:ff:fe00:1",
            "eth1 169.254.9.9",
            "eth2 203.0.113.7",
        ];
        let eth0 = routes(Some("eth0"), Some("eth0"));
        // A server on 0.0.0.0 here: nothing a phone can reach.
        let v4 = rank_link_addresses(&interfaces(&here), &eth0, IPV4_ONLY);
        assert_eq!(LinkChoice::of(v4), LinkChoice::Unreachable);
        // On [::] (the table's server, dual-stack): the unique-local address, alone.
        let both = rank_link_addresses(&interfaces(&here), &eth0, BOTH);
        let choice = LinkChoice::of(both);
        assert!(
            matches!(&choice, LinkChoice::One(a) if a.ip == ip("fd00::2")),
            "{choice:?}"
        );
        assert_eq!(choice.best().map(|a| a.ip), Some(ip("fd00::2")));
        // A laptop on two networks: both offered, private IPv4 first, to choose from.
        let two = [
            "wlan0 192.168.1.23",
            "eth0 10.0.0.7",
            "eth0 fd00::7",
            "lo 127.0.0.1",
        ];
        let choice = LinkChoice::of(rank_link_addresses(
            &interfaces(&two),
            &routes(Some("eth0"), None),
            BOTH,
        ));
        let offered: Vec<String> = choice
            .addresses()
            .iter()
            .map(|a| a.ip.to_string())
            .collect();
        assert_eq!(offered, ["10.0.0.7", "192.168.1.23", "fd00::7"]);
        assert!(matches!(choice, LinkChoice::Several(_)));
        // Loopback, link-local, documentation and global addresses are never offered.
        for no in [
            "127.0.0.1",
            "::1",
            "169.254.9.9",
            "fe80::1",
            "192.0.2.2",
            "8.8.8.8",
        ] {
            let list = [format!("eth0 {no}")];
            let list: Vec<&str> = list.iter().map(String::as_str).collect();
            assert!(ranked(&list, &routes(None, None), BOTH).is_empty(), "{no}");
        }
    }

    #[test]
    fn never_loopback_on_its_own_and_a_bound_address_is_the_only_one() {
        let only_virtual = [
            "lo 127.0.0.1",
            "docker0 172.17.0.1",
            "eth0 192.168.3.3 down",
        ];
        assert!(ranked(&only_virtual, &routes(None, None), IPV4_ONLY).is_empty());
        assert!(ranked(&only_virtual, &routes(None, None), BOTH).is_empty());
        let laptop = ["lo 127.0.0.1", "wlan0 192.168.1.23"];
        assert_eq!(
            ranked(
                &laptop,
                &routes(None, None),
                Listening::Only(ip("127.0.0.1"))
            ),
            ["lo 127.0.0.1"]
        );
        assert_eq!(
            ranked(
                &laptop,
                &routes(None, None),
                Listening::of(ip("192.168.1.23"))
            ),
            ["wlan0 192.168.1.23"]
        );
        assert_eq!(Listening::of(ip("0.0.0.0")), IPV4_ONLY);
        assert!(matches!(
            Listening::of(ip("::")),
            Listening::Any { v6: true, .. }
        ));
    }

    #[test]
    fn virtual_interfaces_are_known_by_name() {
        for name in [
            "docker0",
            "br-1a2b3c4d5e6f",
            "virbr0",
            "veth9f8e7d",
            "tun0",
            "tap3",
            "wg0",
            "zt5u4y6j3k",
            "tailscale0",
            "utun2",
            "vmnet8",
            "vboxnet0",
            "vEthernet (WSL)",
            "lxcbr0",
            "cni0",
            "podman1",
        ] {
            assert!(is_virtual_interface(name), "{name}");
        }
        for name in [
            "wlan0",
            "wlp3s0",
            "eth0",
            "enp0s31f6",
            "en0",
            "Wi-Fi",
            "Ethernet 2",
            "bond0",
        ] {
            assert!(!is_virtual_interface(name), "{name}");
        }
    }

    #[test]
    fn default_routes_are_read_from_the_kernels_tables() {
        // /proc/net/route as this machine has it, with a second, worse default on wlan0 and a
        // default that is down.
        let v4 = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n\
            wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n\
            eth0\t00000000\t010200C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n\
            eth1\t00000000\t010300C0\t0002\t0\t0\t0\t00000000\t0\t0\t0\n\
            eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n";
        assert_eq!(
            default_route_v4(v4).as_deref(),
            Some("eth0"),
            "lowest metric, up"
        );
        assert_eq!(default_route_v4(""), None);
        assert_eq!(
            default_route_v4("Iface\tDestination\n eth0 000200C0 00000000 0001 0 0 0 00FFFFFF"),
            None
        );
        // /proc/net/ipv6_route as this machine has it: the default via eth0, and the kernel's
        // "unreachable" default on lo (RTF_REJECT, metric ffffffff).
        let v6 = "\
fd000000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0
00000000000000000000000000000000 00 00000000000000000000000000000000 00 fd000000000000000000000000000001 00000400 00000002 00000000 00000003     eth0
00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo
";
        assert_eq!(default_route_v6(v6).as_deref(), Some("eth0"));
        let unreachable_only = v6.lines().last().unwrap_or_default();
        assert_eq!(default_route_v6(unreachable_only), None);
    }
}
