//! The phone server over real HTTP on loopback, with the real evening behind it on a fake
//! clock (see `util::phones`): no window draws a frame in any of these tests, so every answer
//! here is one a phone gets while the laptop's window is minimised.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use rummikub_companion::evening::Command;
use rummikub_companion::server::qr_modules;
use rummikub_companion::timer::Phase;

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
    assert_eq!(page.header("cache-control").as_deref(), Some("no-store"));
    assert_eq!(
        page.header("referrer-policy").as_deref(),
        Some("no-referrer")
    );
    for (asset, kind) in [("app.js", "text/javascript"), ("style.css", "text/css")] {
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
    // Nothing but names, the clock and the open game's entries.
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
            "current",
            "entry",
            "evening",
            "next",
            "overtime_ms",
            "phase",
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
fn five_hundred_connections_are_served_or_refused_and_the_server_survives() {
    let t = table();
    let started = Instant::now();
    let path = t.path("state");
    // Open 500 connections at once (held open), each with a request written.
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
    let (mut served, mut refused) = (0, refused_at_connect);
    for mut s in streams {
        let mut buf = [0u8; 12];
        match s.read(&mut buf) {
            Ok(n) if n >= 12 && buf.starts_with(b"HTTP/1.1 200") => served += 1,
            _ => refused += 1,
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "bounded in time"
        );
    }
    assert_eq!(served + refused, 500);
    assert!(
        served >= 64,
        "at least the allowed connections were served: {served}"
    );
    assert!(refused > 0, "the limit of 64 held connections was enforced");
    // The held connections are gone; the server answers as before.
    let after = get(t.addr, &t.path("state"));
    assert_eq!(after.status, 200);
    t.advance(Duration::from_secs(3));
    assert_eq!(post(t.addr, &t.path("action"), &end_turn(0, 1)).status, 200);
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
