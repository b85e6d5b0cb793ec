//! Phones per table at a club night (`event serve`, `src/server/club.rs`): a table's phones run
//! its clock, enter their own racks and each confirm the game; the round's last confirmed game
//! lands in the event file as the table's result, checked as `event result` checks one; what
//! was confirmed survives a restart of the host; a folder the window holds refuses the save and
//! keeps nothing half-done; a tap at one table wakes only that table's pages.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use rummikub_companion::lang::Language;
use rummikub_companion::server::tv::{TvOptions, TvServer};
use rummikub_companion::store::Store;
use serde_json::{Value, json};

use crate::event_serve::Night;
use crate::util::phones::{Feed, get, post};

pub(crate) fn serve(night: &Night) -> TvServer {
    TvServer::start(TvOptions {
        bind: (Ipv4Addr::LOCALHOST, 0).into(),
        data_dir: night.dir().to_path_buf(),
        event: night.id().clone(),
        lang: Language::English,
        link_host: IpAddr::V4(Ipv4Addr::LOCALHOST),
        round_minutes: Some(90),
        max_connections: 64,
    })
    .expect("the host starts")
}

/// The round clock's time left on the TV page, in ms.
fn round_left_ms(addr: SocketAddr) -> i64 {
    let page = get(addr, "/tv").body;
    let marker = "id=\"round-clock\" data-ends-in=\"";
    let at = page.find(marker).expect("the round clock") + marker.len();
    page[at..]
        .split('"')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("milliseconds")
}

/// Table `t`'s key, read from its link on the TV page (as a phone gets it from the QR code).
pub(crate) fn key(addr: SocketAddr, t: u32) -> String {
    let page = get(addr, "/tv").body;
    let marker = format!("/table/{t}?lang=en&amp;key=");
    let at = page
        .find(&marker)
        .expect("the TV page links the table with its key")
        + marker.len();
    page[at..]
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect()
}

/// Asks table `t` as the phone of `seat`; (status, answer).
pub(crate) fn act(addr: SocketAddr, t: u32, key: &str, lang: &str, body: Value) -> (u16, Value) {
    let mut body = body;
    body["key"] = key.into();
    let reply = post(
        addr,
        &format!("/table/{t}/act?lang={lang}"),
        &body.to_string(),
    );
    (reply.status, reply.json())
}

pub(crate) fn rack(addr: SocketAddr, t: u32, key: &str, seat: usize, rack: &str) -> (u16, Value) {
    act(
        addr,
        t,
        key,
        "en",
        json!({"seat": seat, "action": "rack", "rack": rack}),
    )
}

pub(crate) fn confirm(addr: SocketAddr, t: u32, key: &str, seat: usize) -> (u16, Value) {
    act(
        addr,
        t,
        key,
        "en",
        json!({"seat": seat, "action": "confirm"}),
    )
}

pub(crate) fn table_result(night: &Night, t: u32) -> Option<Vec<Value>> {
    let event = night.event();
    let table = event
        .rounds()
        .last()?
        .tables
        .iter()
        .find(|x| x.number == t)?;
    let result = table.result()?;
    Some(
        result
            .games
            .iter()
            .map(|g| serde_json::to_value(g).expect("a game serialises"))
            .collect(),
    )
}

#[test]
fn a_tables_phones_run_its_clock_confirm_its_racks_and_the_result_lands_in_the_event() {
    let night = Night::new();
    let server = serve(&night);
    let addr = server.local_addr();
    let k = key(addr, 1);
    let names = night
        .event()
        .seat_names(&night.event().rounds()[0].tables[0]);

    // The table's page is the phones' page only with its key.
    let page = get(addr, &format!("/table/1?lang=en&key={k}")).body;
    assert!(
        page.contains("table.js") && page.contains("End my turn"),
        "{page}"
    );
    assert!(
        !get(addr, "/table/1?lang=en&key=nope")
            .body
            .contains("table.js")
    );

    let (status, answer) = act(addr, 1, &k, "en", json!({"seat": 0, "action": "start"}));
    assert_eq!((status, &answer["ok"]), (200, &json!(true)), "{answer}");
    let (status, answer) = act(addr, 1, &k, "en", json!({"seat": 2, "action": "end_turn"}));
    assert_eq!(status, 409);
    assert_eq!(
        answer["message"],
        format!("It is {}'s turn, not yours", names[0])
    );
    let (status, _) = act(addr, 1, &k, "en", json!({"seat": 0, "action": "end_turn"}));
    assert_eq!(status, 200);
    // Another table's key does not act here.
    let other = key(addr, 2);
    let (status, answer) = act(
        addr,
        1,
        &other,
        "ko",
        json!({"seat": 1, "action": "end_turn"}),
    );
    assert_eq!(status, 403);
    assert!(
        answer["message"].as_str().is_some_and(|m| m.contains("QR")),
        "{answer}"
    );

    // A rack that is not tiles or a value, worded in the phone's language.
    let (status, answer) = act(
        addr,
        1,
        &k,
        "ko",
        json!({"seat": 1, "action": "rack", "rack": "R5 Q9"}),
    );
    assert_eq!(status, 422, "{answer}");
    assert!(answer["message"].as_str().is_some_and(|m| m.contains("Q9")));

    for (seat, text) in [(0, "0"), (1, "R5 J"), (2, "12")] {
        let (status, answer) = rack(addr, 1, &k, seat, text);
        assert_eq!((status, &answer["saved"]), (200, &json!(true)), "{answer}");
    }
    let (status, answer) = confirm(addr, 1, &k, 0);
    assert_eq!(status, 409);
    assert_eq!(
        answer["message"],
        format!("Still to enter their rack: {}", names[3])
    );
    rack(addr, 1, &k, 3, "B13 K13");
    for seat in 0..3 {
        assert_eq!(confirm(addr, 1, &k, seat).0, 200);
        assert!(table_result(&night, 1).is_none(), "not before every seat");
    }
    let (status, answer) = confirm(addr, 1, &k, 3);
    assert_eq!((status, &answer["saved"]), (200, &json!(true)), "{answer}");
    let games = table_result(&night, 1).expect("the event has table 1's result");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["hands"][1]["left"], json!(["R5", "J"]));
    // The table is done: phones are told so.
    let (status, answer) = act(addr, 1, &k, "en", json!({"seat": 0, "action": "start"}));
    assert_eq!(status, 409);
    assert!(
        answer["message"]
            .as_str()
            .is_some_and(|m| m.contains("already"))
    );
    server.stop();
}

#[test]
fn racks_beyond_the_tile_supply_cannot_be_confirmed_and_a_correction_withdraws_confirmations() {
    let night = Night::new();
    let server = serve(&night);
    let addr = server.local_addr();
    let k = key(addr, 2);
    for (seat, text) in [(0, "J J"), (1, "J"), (2, "0"), (3, "7")] {
        rack(addr, 2, &k, seat, text);
    }
    let (status, answer) = act(addr, 2, &k, "ko", json!({"seat": 2, "action": "confirm"}));
    assert_eq!(status, 409);
    assert!(
        answer["message"]
            .as_str()
            .is_some_and(|m| m.contains("조커")),
        "the racks together hold 3 jokers: {answer}"
    );
    rack(addr, 2, &k, 1, "R1");
    assert_eq!(confirm(addr, 2, &k, 0).0, 200);
    assert_eq!(confirm(addr, 2, &k, 1).0, 200);
    // A rack changed after two confirmed: both must confirm again.
    rack(addr, 2, &k, 3, "8");
    let state: Value = get(addr, "/tv/state").json();
    assert_eq!(
        state["tables"][1]["settling"]["confirmed"],
        json!([false, false, false, false])
    );
    server.stop();
}

#[test]
fn what_a_table_confirmed_survives_a_restart_of_the_host() {
    let night = Night::new();
    let server = serve(&night);
    let addr = server.local_addr();
    let k = key(addr, 1);
    for (seat, text) in [(0, "0"), (1, "4"), (2, "9"), (3, "11")] {
        rack(addr, 1, &k, seat, text);
    }
    confirm(addr, 1, &k, 0);
    confirm(addr, 1, &k, 2);
    let before = round_left_ms(addr);
    server.stop();
    std::thread::sleep(Duration::from_millis(1200));

    let server = serve(&night);
    let addr = server.local_addr();
    assert_eq!(key(addr, 1), k, "the table keeps its key (and QR code)");
    let after = round_left_ms(addr);
    assert!(
        after <= before - 1000 && after > before - 60_000,
        "the round clock goes on from where it was: {before} ms left, then {after}"
    );
    let state: Value = get(addr, "/tv/state").json();
    let settling = &state["tables"][0]["settling"];
    assert_eq!(settling["racks"], json!(["0", "4", "9", "11"]));
    assert_eq!(settling["confirmed"], json!([true, false, true, false]));
    confirm(addr, 1, &k, 1);
    assert_eq!(confirm(addr, 1, &k, 3).0, 200);
    assert!(table_result(&night, 1).is_some());
    server.stop();
}

#[test]
fn while_another_holds_the_folder_a_confirmation_is_refused_and_nothing_of_it_is_kept() {
    let night = Night::new();
    let server = serve(&night);
    let addr = server.local_addr();
    let k = key(addr, 1);
    for (seat, text) in [(0, "0"), (1, "4"), (2, "9"), (3, "11")] {
        rack(addr, 1, &k, seat, text);
    }
    for seat in 0..3 {
        confirm(addr, 1, &k, seat);
    }
    // The window opens the data folder: it is its writer now.
    let window = Store::open(night.dir()).expect("the window's store");
    assert!(window.access().is_writable());
    let (status, answer) = act(addr, 1, &k, "ko", json!({"seat": 3, "action": "confirm"}));
    assert_eq!(status, 503, "{answer}");
    assert!(
        answer["message"].as_str().is_some_and(|m| m.contains("창")),
        "{answer}"
    );
    let state: Value = get(addr, "/tv/state").json();
    assert_eq!(
        state["tables"][0]["settling"]["confirmed"],
        json!([true, true, true, false]),
        "the refused confirmation was not kept"
    );
    drop(window);
    assert_eq!(confirm(addr, 1, &k, 3).0, 200);
    assert!(table_result(&night, 1).is_some());
    server.stop();
}

#[test]
fn a_tap_at_one_table_reaches_its_pages_and_not_the_other_tables() {
    let night = Night::new();
    let server = serve(&night);
    let addr = server.local_addr();
    let k = key(addr, 1);
    let mut mine = Feed::open(addr, "/tv/events?lang=en&table=1").expect("table 1's feed");
    let mut other = Feed::open(addr, "/tv/events?lang=en&table=2").expect("table 2's feed");
    let mut tv = Feed::open(addr, "/tv/events?lang=en").expect("the TV's feed");
    let first = |feed: &mut Feed| {
        feed.next_state(Duration::from_secs(5))
            .expect("open")
            .expect("the state at once")
    };
    first(&mut mine);
    first(&mut other);
    first(&mut tv);
    act(addr, 1, &k, "en", json!({"seat": 0, "action": "start"}));
    let got = first(&mut mine);
    assert_eq!(got["table"]["running"], json!(true), "{got}");
    assert!(got["table"]["ends_at_ms"].as_u64() > got["now_ms"].as_u64());
    let shown = first(&mut tv);
    assert!(
        shown["html"]
            .as_str()
            .is_some_and(|h| h.contains("to play") && h.contains("data-ends-in")),
        "the TV shows whose turn and the clock"
    );
    assert!(
        shown["html"]
            .as_str()
            .is_some_and(|h| h.contains("min left in the round")),
        "the round clock"
    );
    assert_eq!(
        other.next_state(Duration::from_millis(800)).expect("open"),
        None,
        "table 2's pages are not woken by table 1"
    );
    server.stop();
}
