//! The phones of a club night's tables, through its owner: each player claims a seat from their
//! own phone and only that phone acts for it (a stranger who opened the TV and the table's
//! link cannot); the game's end is a step of its own (a rack typed mid-game leaves the clock
//! running); a confirmation names the game and the racks it saw, so a replayed one changes
//! nothing; the round's last confirmed game lands in the event file; what was confirmed, the
//! seats' phones and the keys survive a restart of the host; a page of an earlier round is
//! told to scan its new table; the organiser frees a dead phone's seat; one host per folder.

use std::time::Duration;

use rummikub_companion::club::{ClubCommand, ClubRefusal};
use rummikub_companion::event::live::{Actor, TableCommand};
use rummikub_companion::lang::Language;
use rummikub_companion::store::HolderKind;
use serde_json::{Value, json};

use crate::util::club::{Night, Phone, key, owner, seated_phones};
use crate::util::phones::{Feed, get};

/// Table `t`'s result in the event as it is on disk, its games as JSON.
fn table_result(night: &Night, t: u32) -> Option<Vec<Value>> {
    let event = night.on_disk();
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
    let addr = night.host(Language::English, false);
    let names = night
        .event()
        .seat_names(&night.event().rounds()[0].tables[0]);
    let k = key(addr, 1);

    // The table's page is the phones' page only with its key.
    let page = get(addr, &format!("/table/1?key={k}")).body;
    assert!(page.contains("table.js"), "{page}");
    assert!(!get(addr, "/table/1?key=nope").body.contains("table.js"));

    let mut phones = seated_phones(addr, 1, 4);
    assert!(
        phones.iter().all(|p| p.device.is_some()),
        "each phone got its token"
    );
    assert_eq!(phones[0].table()["held"], json!([true, true, true, true]));
    let (status, answer) = phones[0].act(json!({"action": "start"}));
    assert_eq!((status, &answer["ok"]), (200, &json!(true)), "{answer}");
    // The table's one-press guard: the start and an end of turn are two gestures.
    std::thread::sleep(Duration::from_millis(450));
    let (status, answer) = phones[2].end_turn();
    assert_eq!(status, 409);
    assert_eq!(
        answer["message"],
        format!("It is {}'s turn, not yours", names[0])
    );
    assert_eq!(phones[0].end_turn().0, 200);
    // Another table's key does not act here.
    let mut lost = phones[1].clone();
    lost.key = key(addr, 2);
    lost.lang = "ko";
    let (status, answer) = lost.end_turn();
    assert_eq!(status, 403, "{answer}");
    assert!(
        answer["message"].as_str().is_some_and(|m| m.contains("QR")),
        "{answer}"
    );

    // The game ends by a step of its own: the player who went out says so.
    let (status, answer) = phones[1].act(json!({"action": "game_over", "went_out": true}));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(phones[0].table()["running"], false, "the clock stops there");
    // A rack that is not tiles or a value, worded in the phone's language.
    phones[2].lang = "ko";
    let (status, answer) = phones[2].rack("R5 Q9");
    assert_eq!(status, 422, "{answer}");
    assert!(answer["message"].as_str().is_some_and(|m| m.contains("Q9")));
    phones[2].lang = "en";
    for (seat, text) in [(0, "R5 J"), (2, "12")] {
        let (status, answer) = phones[seat].rack(text);
        assert_eq!((status, &answer["saved"]), (200, &json!(true)), "{answer}");
    }
    let (status, answer) = phones[0].confirm();
    assert_eq!(status, 409);
    assert_eq!(
        answer["message"],
        format!("Still to enter their rack: {}", names[3])
    );
    phones[3].rack("B13 K13");
    for phone in &mut phones[..3] {
        assert_eq!(phone.confirm().0, 200);
        assert!(table_result(&night, 1).is_none(), "not before every seat");
    }
    let (status, answer) = phones[3].confirm();
    assert_eq!((status, &answer["saved"]), (200, &json!(true)), "{answer}");
    let games = table_result(&night, 1).expect("the event has table 1's result");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["hands"][0]["left"], json!(["R5", "J"]));
    assert_eq!(games[0]["hands"][1]["left"], 0, "the one who went out");
    // The table is done: phones are told so.
    let (status, answer) = phones[0].act(json!({"action": "start"}));
    assert_eq!(status, 409);
    assert!(
        answer["message"]
            .as_str()
            .is_some_and(|m| m.contains("already")),
        "{answer}"
    );
}

/// The attack: a device seated at no table reads the TV (every table's link is on it)
/// and opens table 1's page. It cannot take a held seat, cannot act for one, and a phone cannot
/// hold two seats; replayed confirmations change nothing.
#[test]
fn a_device_that_opened_the_tv_and_the_tables_link_cannot_act_for_a_held_seat() {
    let night = Night::of_games(8, 2);
    let addr = night.host(Language::English, false);
    let mut phones = seated_phones(addr, 1, 4);
    let mut stranger = Phone::at(addr, 1);
    for seat in 0..4 {
        let (status, answer) = stranger.claim(seat);
        assert_eq!(status, 409, "seat {seat}: {answer}");
        assert_eq!(answer["error"], "seat_taken");
    }
    // Without a seat it can do nothing at the table, whatever it names.
    let mut forged = stranger.clone();
    forged.device = Some("0123456789abcdef0123456789abcdef".into());
    for body in [
        json!({"action": "start"}),
        json!({"action": "game_over", "went_out": true}),
        json!({"action": "rack", "rack": "0"}),
        json!({"action": "confirm", "game": 1, "digest": "x"}),
        json!({"action": "seat", "seat": 0}),
    ] {
        let (status, answer) = forged.act(body.clone());
        assert!(status >= 400, "{body}: {answer}");
    }
    let (status, _) = stranger.act(json!({"action": "start"}));
    assert_eq!(status, 403);

    // Game 1, confirmed by every seat.
    phones[0].act(json!({"action": "start"}));
    phones[0].act(json!({"action": "game_over", "went_out": true}));
    for (seat, rack) in [(1, "5"), (2, "7"), (3, "9")] {
        phones[seat].rack(rack);
    }
    let game_one = phones[0].table()["settling"].clone();
    let one_confirm = |phone: &mut Phone| {
        phone.act(json!({
            "action": "confirm",
            "game": game_one["game"],
            "digest": game_one["digest"],
        }))
    };
    for phone in &mut phones {
        assert_eq!(one_confirm(phone).0, 200);
    }
    let before = night.on_disk();
    // Game 2: replaying game 1's four confirmations settles nothing.
    phones[1].act(json!({"action": "game_over", "went_out": true}));
    for (seat, rack) in [(0, "5"), (2, "7"), (3, "9")] {
        phones[seat].rack(rack);
    }
    for phone in &mut phones {
        let (status, answer) = one_confirm(phone);
        assert_eq!(status, 409, "{answer}");
        assert!(
            answer["message"]
                .as_str()
                .is_some_and(|m| m.contains("another game"))
        );
    }
    let now = phones[0].table()["settling"].clone();
    assert_eq!(now["confirmed"], json!([false, false, false, false]));
    assert_eq!(night.on_disk(), before, "nothing changed");
    // A confirmation of racks as they were before a change is refused too.
    let shown = phones[0].table()["settling"]["digest"].clone();
    phones[3].rack("10");
    let (status, answer) = phones[0].act(json!({"action": "confirm", "game": 2, "digest": shown}));
    assert_eq!(status, 409, "{answer}");
}

/// A rack typed mid-game is refused and the clock keeps running; a game declared over by
/// mistake goes back; each game's rack fields start empty (the racks of the last game are gone).
#[test]
fn a_rack_typed_mid_game_leaves_the_clock_running() {
    let night = Night::of_games(8, 2);
    let addr = night.host(Language::English, false);
    let mut phones = seated_phones(addr, 2, 4);
    phones[0].act(json!({"action": "start"}));
    std::thread::sleep(Duration::from_millis(450));
    let (status, answer) = phones[2].rack("R5 J");
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["message"]
            .as_str()
            .is_some_and(|m| m.contains("not over"))
    );
    let table = phones[0].table();
    assert_eq!(table["running"], true, "the clock still runs");
    assert!(table["settling"].is_null());
    assert_eq!(phones[0].end_turn().0, 200, "and the table plays on");
    // Declared over by mistake: back to the game; the clock resumes.
    phones[1].act(json!({"action": "game_over", "went_out": false}));
    assert_eq!(phones[1].table()["running"], false);
    assert_eq!(phones[3].act(json!({"action": "reopen"})).0, 200);
    assert_eq!(phones[3].act(json!({"action": "resume"})).0, 200);
    assert_eq!(phones[3].table()["running"], true);
    // Game 1 ends and is confirmed; game 2 starts with no racks.
    phones[1].act(json!({"action": "game_over", "went_out": true}));
    for (seat, rack) in [(0, "3"), (2, "4"), (3, "5")] {
        phones[seat].rack(rack);
    }
    for phone in &mut phones {
        assert_eq!(phone.confirm().0, 200);
    }
    let table = phones[0].table();
    assert!(table["settling"].is_null(), "{table}");
    assert_eq!(table["games_done"], 1);
    // A rack withdrawn before everyone confirms is missing again.
    phones[2].act(json!({"action": "game_over", "went_out": true}));
    phones[3].rack("9");
    assert_eq!(phones[3].act(json!({"action": "withdraw"})).0, 200);
    assert_eq!(
        phones[0].table()["settling"]["racks"],
        json!([null, null, "0", null])
    );
}

#[test]
fn racks_beyond_the_tile_supply_cannot_be_confirmed_and_a_correction_withdraws_confirmations() {
    let night = Night::new();
    let addr = night.host(Language::English, false);
    let mut phones = seated_phones(addr, 2, 4);
    phones[2].act(json!({"action": "game_over", "went_out": true}));
    for (seat, text) in [(0, "J J"), (1, "J"), (3, "7")] {
        phones[seat].rack(text);
    }
    phones[2].lang = "ko";
    let (status, answer) = phones[2].confirm();
    assert_eq!(status, 409);
    assert!(
        answer["message"]
            .as_str()
            .is_some_and(|m| m.contains("조커")),
        "the racks together hold 3 jokers: {answer}"
    );
    phones[1].rack("R1");
    assert_eq!(phones[0].confirm().0, 200);
    assert_eq!(phones[1].confirm().0, 200);
    // A rack changed after two confirmed: both must confirm again.
    phones[3].rack("8");
    let state: Value = get(addr, "/tv/state").json();
    assert_eq!(
        state["tables"][1]["settling"]["confirmed"],
        json!([false, false, false, false])
    );
}

/// The round clock's end on the TV page (ms on the host's clock) and the page's clock then.
fn round_left_ms(addr: std::net::SocketAddr) -> i64 {
    let page = get(addr, "/tv").body;
    let number = |marker: &str| -> i64 {
        let at = page.find(marker).expect(marker) + marker.len();
        page[at..]
            .split('"')
            .next()
            .and_then(|n| n.parse().ok())
            .expect("milliseconds")
    };
    number("id=\"round-clock\" data-ends-at=\"") - number("data-now=\"")
}

#[test]
fn what_a_table_confirmed_its_seats_and_keys_survive_a_restart_of_the_host() {
    let night = Night::new();
    let addr = night.host(Language::English, true);
    let k = key(addr, 1);
    let mut phones = seated_phones(addr, 1, 4);
    phones[0].act(json!({"action": "game_over", "went_out": true}));
    for (seat, text) in [(1, "4"), (2, "9"), (3, "11")] {
        phones[seat].rack(text);
    }
    phones[0].confirm();
    phones[2].confirm();
    let before = round_left_ms(addr);
    let dir = night.dir().to_path_buf();
    let id = night.id().clone();
    drop(night.club().apply(ClubCommand::Close));
    std::thread::sleep(Duration::from_millis(1200));

    // Another owner hosts the folder: the same keys (the QR codes), the same seats' phones.
    let again = owner(&dir, HolderKind::Serve);
    again.apply(ClubCommand::Open(id)).expect("opens");
    again
        .apply(ClubCommand::Host {
            bind: (std::net::Ipv4Addr::LOCALHOST, 0).into(),
            link: rummikub_companion::club::LinkPick::Address(std::net::Ipv4Addr::LOCALHOST.into()),
            round_minutes: Some(90),
        })
        .expect("hosts");
    let addr = again.lock().hosting_addr().expect("hosting");
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
    assert_eq!(state["tables"][0]["held"], json!([true, true, true, true]));
    for phone in &mut phones {
        phone.addr = addr;
    }
    // The phones act with the tokens they kept; a stranger still cannot take a seat.
    assert_eq!(phones[1].confirm().0, 200);
    assert_eq!(Phone::at(addr, 1).claim(3).0, 409);
    assert_eq!(phones[3].confirm().0, 200);
    assert!(again.flush(Duration::from_secs(10)));
}

/// A phone left on last round's page is told to scan its new table, and shown nothing of the
/// new round.
#[test]
fn a_page_of_an_earlier_round_is_told_to_scan_its_new_table() {
    let night = Night::new();
    let addr = night.host(Language::English, false);
    let mut old = seated_phones(addr, 1, 1).remove(0);
    let mut feed = Feed::open(
        addr,
        &format!(
            "/tv/events?table=1&key={}&device={}",
            old.key,
            old.device.clone().unwrap_or_default()
        ),
    )
    .expect("the page's feed");
    let first = feed
        .next_state(Duration::from_secs(5))
        .expect("open")
        .expect("at once");
    assert_eq!(first["you"], 0, "the feed tells the page its seat: {first}");
    night.result(1);
    night.result(2);
    night.seat();
    let gone = loop {
        let state = feed
            .next_state(Duration::from_secs(5))
            .expect("open")
            .expect("the new round is told");
        if state["gone"] == true {
            break state;
        }
    };
    let html = gone["html"].as_str().expect("html");
    assert!(html.contains("scan your new table"), "{html}");
    assert!(gone["table"].is_null(), "nothing of the new round");
    let (status, answer) = old.act(json!({"action": "start"}));
    assert_eq!(status, 403, "{answer}");
    let page = get(addr, &format!("/table/1?key={}", old.key)).body;
    assert!(page.contains("scan your new table") && !page.contains("table.js"));
}

/// The organiser frees the seat of a phone that died, from the window or the command line;
/// the new phone takes it, the old one's token acts no more.
#[test]
fn the_organiser_frees_a_dead_phones_seat_and_a_new_phone_takes_it() {
    let night = Night::new();
    let addr = night.host(Language::English, false);
    let mut phones = seated_phones(addr, 1, 4);
    let mut new_phone = Phone::at(addr, 1);
    assert_eq!(new_phone.claim(2).0, 409);
    night
        .club()
        .apply(ClubCommand::Table {
            table: 1,
            key: None,
            actor: Actor::Organiser,
            command: TableCommand::Free { seat: 2 },
        })
        .expect("freed");
    assert_eq!(new_phone.claim(2).0, 200);
    assert_eq!(
        phones[2].act(json!({"action": "start"})).0,
        403,
        "the dead phone's token"
    );
    assert_eq!(new_phone.act(json!({"action": "start"})).0, 200);
    std::thread::sleep(Duration::from_millis(450));
    // A shared table: anyone seated ends the turn under way.
    night
        .club()
        .apply(ClubCommand::Table {
            table: 1,
            key: None,
            actor: Actor::Organiser,
            command: TableCommand::Shared(true),
        })
        .expect("shared");
    assert_eq!(phones[3].end_turn().0, 200);
}

#[test]
fn a_tap_at_one_table_reaches_its_pages_and_not_the_other_tables() {
    let night = Night::new();
    let addr = night.host(Language::English, true);
    let mut phones = seated_phones(addr, 1, 1);
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
    let board = first(&mut tv);
    assert!(
        board["html"]
            .as_str()
            .is_some_and(|h| h.contains("id=\"round-clock\"")),
        "the round clock"
    );
    phones[0].act(json!({"action": "start"}));
    let got = first(&mut mine);
    assert_eq!(got["table"]["running"], json!(true), "{got}");
    assert!(got["table"]["ends_at_ms"].as_u64() > got["now_ms"].as_u64());
    let shown = first(&mut tv);
    assert!(
        shown["parts"]["t1-live"]
            .as_str()
            .is_some_and(|h| h.contains("to play") && h.contains("data-ends-at")),
        "the TV shows whose turn and the clock: {shown}"
    );
    assert_eq!(
        other.next_state(Duration::from_millis(800)).expect("open"),
        None,
        "table 2's pages are not woken by table 1"
    );
}

/// Two hosts on one folder: the second is refused at once, naming the port that serves it, and
/// nothing the first was told is saved is lost.
#[test]
fn a_second_host_on_the_folder_is_refused_and_nothing_saved_is_lost() {
    let night = Night::new();
    let addr = night.host(Language::English, false);
    let mut phones = seated_phones(addr, 1, 4);
    phones[0].act(json!({"action": "game_over", "went_out": true}));
    for (seat, text) in [(1, "4"), (2, "9"), (3, "11")] {
        let (status, answer) = phones[seat].rack(text);
        assert_eq!(answer["saved"], true, "{status} {answer}");
    }
    for kind in [HolderKind::Serve, HolderKind::Window] {
        let second = owner(night.dir(), kind);
        let refused = second
            .apply(ClubCommand::Open(night.id().clone()))
            .expect_err("a second host");
        let ClubRefusal::Held(Some(holder)) = &refused else {
            panic!("{refused:?}");
        };
        assert_eq!(holder.tables, Some(addr.port()));
        let said = rummikub_companion::club::words::refusal(Language::English, &refused, &[]);
        assert!(said.contains(&format!("port {}", addr.port())), "{said}");
    }
    // The first host's tables file still holds every rack it was told is saved.
    let kept = rummikub_companion::store::Store::open_reader(night.dir())
        .load_event_live(night.id())
        .expect("the tables file");
    let racks = &kept.tables[&1].settling.as_ref().expect("settling").hands;
    assert!(racks.iter().all(Option::is_some), "{racks:?}");
}

/// Regression (issue 49.5 for the club night): with no address a phone can reach, "Host the
/// tables" and `event serve` offered `http://127.0.0.1:…` as the Wi-Fi link and its QR codes.
/// Hosting is refused and said; with several addresses the one chosen for the phones is named,
/// and a choice no longer offered gives way to the best.
#[test]
fn the_tables_links_name_only_an_address_phones_reach() {
    use rummikub_companion::club::{Did, LinkPick};
    use rummikub_companion::server::LinkAddress;
    use std::net::{IpAddr, Ipv4Addr, SocketAddr};
    fn none(_: SocketAddr) -> Vec<LinkAddress> {
        Vec::new()
    }
    fn two(_: SocketAddr) -> Vec<LinkAddress> {
        ["192.168.1.20", "10.0.0.7"]
            .iter()
            .map(|ip| LinkAddress {
                ip: ip.parse().expect("an address"),
                interface: "wlan0".into(),
            })
            .collect()
    }
    let night = Night::new();
    let host = |list, prefer: Option<IpAddr>| {
        night.club().apply(ClubCommand::Host {
            bind: (Ipv4Addr::LOCALHOST, 0).into(),
            link: LinkPick::Reachable { list, prefer },
            round_minutes: None,
        })
    };
    let refused = host(none, None).expect_err("no address phones reach");
    assert!(
        matches!(refused, ClubRefusal::NoReachableAddress),
        "{refused:?}"
    );
    assert!(night.club().lock().hosting_addr().is_none(), "not hosting");
    let said = rummikub_companion::club::words::refusal(Language::Korean, &refused, &[]);
    assert!(said.contains("휴대폰이 닿을 수 있는 주소"), "{said}");
    assert!(!said.contains("127.0.0.1:"), "{said}");

    let url = |done: rummikub_companion::club::ClubDone| match done.did {
        Did::Hosting { url } => url,
        other => panic!("{other:?}"),
    };
    let chosen = url(host(two, Some("10.0.0.7".parse().expect("ip"))).expect("hosts"));
    assert!(chosen.starts_with("http://10.0.0.7:"), "{chosen}");
    let best = url(host(two, Some("172.16.0.1".parse().expect("ip"))).expect("hosts"));
    assert!(best.starts_with("http://192.168.1.20:"), "{best}");
    let addr = night.club().lock().hosting_addr().expect("hosting");
    let tv = get(addr, "/tv").body;
    assert!(
        tv.contains("192.168.1.20"),
        "the TV's links name the address"
    );
    assert!(!tv.contains("127.0.0.1"), "and never loopback");
}
