//! Serves the phone page with a fixed table, for screenshots and for trying the page by hand:
//! `cargo run --example phone_demo -- [en|ko] [PORT] [SECONDS] [SCENE]` prints the page's loopback URL
//! on the first line of stdout, serves for SECONDS (default 60), then stops.
//!
//! The table: four players, the second player's turn. SCENE `turn` (default): 42 s left of 60;
//! `warning`: 7 s left; `timeup`: 4 s over; `entry`: the add-game form open, the first
//! player's field filled. No evening behind it: every action is answered "busy".
//! `scripts/phone_screenshots.sh` uses it.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::Duration;

use rummikub_companion::lang::Language;
use rummikub_companion::server::{
    Acted, PhoneAction, PhoneHost, PhoneServer, Rejection, Secret, ServerOptions, TableState,
};
use rummikub_companion::timer::{Timer, TimerSettings};

/// No evening: every action is answered "busy".
struct Nobody;

impl PhoneHost for Nobody {
    fn act(&self, _: PhoneAction, _: Language) -> Result<Acted, Rejection> {
        Err(Rejection::new(503, "busy", "this is a demonstration page"))
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let korean = args.first().is_some_and(|l| l == "ko");
    let port: u16 = args.get(1).map(|p| p.parse()).transpose()?.unwrap_or(0);
    let seconds: u64 = args.get(2).map(|s| s.parse()).transpose()?.unwrap_or(60);
    let names = if korean {
        ["루미", "큐브", "퍼니", "알토"]
    } else {
        ["Ann", "Bo", "Cy", "Dee"]
    };
    let s = Duration::from_secs;
    let mut timer = Timer::new(names, TimerSettings::default())?;
    timer.start(s(0))?;
    timer.end_turn(s(35))?;
    let scene = args.get(3).map_or("turn", String::as_str);
    let (at, entry) = match scene {
        "warning" => (s(88), None),
        "timeup" => (s(99), None),
        "entry" => (
            s(53),
            Some(vec![
                "0".to_string(),
                String::new(),
                "R5 K7 J".into(),
                String::new(),
            ]),
        ),
        _ => (s(53), None),
    };
    let state = TableState::from_timer(&timer, at, 1, false, entry);

    let mut options = ServerOptions::new(Secret::random()?);
    options.bind = (Ipv4Addr::LOCALHOST, port).into();
    let server = PhoneServer::start(options, state, Arc::new(Nobody))?;
    println!("{}", server.url(IpAddr::V4(Ipv4Addr::LOCALHOST)));
    std::io::stdout().flush()?;
    std::thread::sleep(s(seconds));
    server.stop();
    Ok(())
}
