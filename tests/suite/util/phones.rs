//! Helpers for the phone-server tests, the browser test and the server benchmark
//! (`benches/server.rs` includes this file by path): a tiny HTTP/1 client on `TcpStream`, an
//! SSE reader, and a test authority that plays the app: it drains the server's requests,
//! applies them to a real `Timer` on a fake clock, and publishes the new state.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use rummikub_companion::server::{
    PhoneAction, PhoneServer, Refusal, Secret, ServerOptions, TableState, check_rack,
};
use rummikub_companion::timer::{Timer, TimerSettings};

/// How long any single read or write in these helpers may block.
pub const IO_TIMEOUT: Duration = Duration::from_secs(10);

/// An HTTP answer.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub head: String,
    pub body: String,
}

impl Reply {
    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }

    /// A header's value (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    }
}

/// One request on a fresh connection (`Connection: close`), read to the end.
pub fn request(addr: SocketAddr, method: &str, path: &str, body: &[u8]) -> std::io::Result<Reply> {
    request_within(addr, method, path, body, IO_TIMEOUT)
}

/// `request` with its own time limit for each read and write.
pub fn request_within(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &[u8],
    limit: Duration,
) -> std::io::Result<Reply> {
    let mut stream = TcpStream::connect_timeout(&addr, limit)?;
    stream.set_read_timeout(Some(limit))?;
    stream.set_write_timeout(Some(limit))?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    read_reply(stream)
}

/// Reads one answer: by its Content-Length when it has one (chromedriver keeps the connection
/// open despite `Connection: close`), else to the end of the stream.
fn read_reply(stream: TcpStream) -> std::io::Result<Reply> {
    let mut reader = BufReader::new(stream);
    let mut raw = Vec::new();
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            break;
        }
        raw.extend_from_slice(line.as_bytes());
        if line == "\r\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse::<usize>().ok();
        }
    }
    match length {
        Some(n) => {
            let mut body = vec![0; n];
            reader.read_exact(&mut body)?;
            raw.extend_from_slice(&body);
        }
        None => {
            reader.read_to_end(&mut raw)?;
        }
    }
    parse_reply(&raw)
}

/// `GET path`.
pub fn get(addr: SocketAddr, path: &str) -> Reply {
    request(addr, "GET", path, b"").unwrap_or_else(|e| panic!("GET {path}: {e}"))
}

/// `POST path` with a JSON body.
pub fn post(addr: SocketAddr, path: &str, body: &str) -> Reply {
    request(addr, "POST", path, body.as_bytes()).unwrap_or_else(|e| panic!("POST {path}: {e}"))
}

fn parse_reply(raw: &[u8]) -> std::io::Result<Reply> {
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
    let text = String::from_utf8_lossy(raw).into_owned();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| bad("no header end"))?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("no status"))?;
    let chunked = head.lines().any(|l| {
        l.to_ascii_lowercase().starts_with("transfer-encoding:")
            && l.to_ascii_lowercase().contains("chunked")
    });
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_string()
    };
    Ok(Reply {
        status,
        head: head.to_string(),
        body,
    })
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A connected server-sent-events feed (HTTP/1.0, so the body is not chunked).
pub struct Feed {
    reader: BufReader<TcpStream>,
}

impl Feed {
    /// Opens `path` (the `events` route) and checks the answer is an event stream.
    pub fn open(addr: SocketAddr, path: &str) -> std::io::Result<Feed> {
        let mut stream = TcpStream::connect_timeout(&addr, IO_TIMEOUT)?;
        stream.set_read_timeout(Some(IO_TIMEOUT))?;
        stream.set_nodelay(true)?;
        write!(
            stream,
            "GET {path} HTTP/1.0\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        )?;
        let mut reader = BufReader::new(stream);
        let mut head = String::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line)? == 0 {
                return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, head));
            }
            if line == "\r\n" {
                break;
            }
            head.push_str(&line);
        }
        if !head.starts_with("HTTP/1.")
            || !head.contains(" 200 ")
            || !head.contains("text/event-stream")
        {
            return Err(std::io::Error::other(format!(
                "not an event stream: {head}"
            )));
        }
        Ok(Feed { reader })
    }

    /// The next `state` event's data as JSON, waiting at most `wait`. `Ok(None)` on timeout;
    /// an error when the server closed the stream.
    pub fn next_state(&mut self, wait: Duration) -> std::io::Result<Option<serde_json::Value>> {
        self.reader.get_ref().set_read_timeout(Some(wait))?;
        let mut data = String::new();
        loop {
            let mut line = String::new();
            match self.reader.read_line(&mut line) {
                Ok(0) => {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::UnexpectedEof,
                        "stream closed",
                    ));
                }
                Ok(_) => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    return Ok(None);
                }
                Err(e) => return Err(e),
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if let Some(d) = line.strip_prefix("data:") {
                data.push_str(d.trim_start());
            } else if line.is_empty() && !data.is_empty() {
                return serde_json::from_str(&data)
                    .map(Some)
                    .map_err(|e| std::io::Error::other(format!("bad event {data:?}: {e}")));
            }
        }
    }
}

/// What the test authority holds: the app's side of the table.
pub struct Model {
    pub timer: Timer,
    /// The fake clock.
    pub now: Duration,
    pub evening: u64,
    pub anyone_may_end: bool,
    /// The open add-game form's fields.
    pub entry: Option<Vec<String>>,
    /// Every action the authority applied, in order.
    pub applied: Vec<PhoneAction>,
}

impl Model {
    pub fn state(&self) -> TableState {
        TableState::from_timer(
            &self.timer,
            self.now,
            self.evening,
            self.anyone_may_end,
            self.entry.clone(),
        )
    }

    /// What the app would do with a phone's action: the same checks the window makes.
    pub fn apply(&mut self, action: &PhoneAction) -> Result<(), Refusal> {
        let now = self.now;
        let rejected = |e: rummikub_companion::timer::TimerError| Refusal::Rejected(e.to_string());
        match action {
            PhoneAction::EndTurn { seat, turn } => {
                if self.timer.turn_id() != Some(*turn) {
                    return Err(Refusal::StaleTurn);
                }
                if *seat != self.timer.current_player() && !self.anyone_may_end {
                    return Err(Refusal::NotYourTurn);
                }
                self.timer.end_turn(now).map_err(rejected)?;
            }
            PhoneAction::TogglePause { .. } => self.timer.toggle(now).map_err(rejected)?,
            PhoneAction::EnterRack { seat, text } => {
                check_rack(text)?;
                let entry = self.entry.as_mut().ok_or(Refusal::NoSheet)?;
                let field = entry.get_mut(*seat).ok_or(Refusal::NoSuchSeat(*seat))?;
                *field = text.trim().to_string();
            }
        }
        self.applied.push(action.clone());
        Ok(())
    }
}

/// A server on `127.0.0.1:<port>` (0 = any) with a thread playing the app.
pub struct Table {
    pub server: Arc<PhoneServer>,
    pub model: Arc<Mutex<Model>>,
    pub addr: SocketAddr,
    /// `/p/<secret>/`
    pub base: String,
    stop: Arc<AtomicBool>,
    authority: Option<JoinHandle<()>>,
}

/// Four players, 60-second turns with a warning at 10 s, started at fake time 0.
pub fn four_players() -> Timer {
    let mut timer =
        Timer::new(["Ann", "Bo", "Cy", "Dee"], TimerSettings::default()).expect("players");
    timer.start(Duration::ZERO).expect("start");
    timer
}

impl Table {
    /// Starts the server with `timer` and a thread that answers every request.
    pub fn start(timer: Timer, port: u16, secret: Secret) -> Table {
        Table::start_with(timer, port, secret, true)
    }

    /// Like `start`; with `answer` false nobody drains the requests (the app is "busy").
    pub fn start_with(timer: Timer, port: u16, secret: Secret, answer: bool) -> Table {
        let model = Arc::new(Mutex::new(Model {
            timer,
            now: Duration::ZERO,
            evening: 1,
            anyone_may_end: false,
            entry: None,
            applied: Vec::new(),
        }));
        let mut options = ServerOptions::new(secret);
        options.bind = (Ipv4Addr::LOCALHOST, port).into();
        let (wake_tx, wake_rx) = mpsc::channel::<()>();
        let wake_tx = Mutex::new(wake_tx);
        let initial = lock(&model).state();
        let server = PhoneServer::start(options, initial, move || {
            let _ = lock(&wake_tx).send(());
        })
        .expect("server starts on loopback");
        let server = Arc::new(server);
        let addr = server.local_addr();
        let url = server.url(addr.ip());
        let base = url
            .split_once(&format!(":{}", addr.port()))
            .map(|(_, path)| path.to_string())
            .expect("url has the port");
        let stop = Arc::new(AtomicBool::new(false));
        let authority = answer.then(|| {
            let (server, model, stop) =
                (Arc::clone(&server), Arc::clone(&model), Arc::clone(&stop));
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    // Sleep until the server says a request waits (like the app's repaint).
                    let _ = wake_rx.recv_timeout(Duration::from_millis(100));
                    while let Some(request) = server.try_next() {
                        let mut m = lock(&model);
                        let result = m.apply(&request.action);
                        server.publish(m.state());
                        drop(m);
                        request.reply(result);
                    }
                }
            })
        });
        Table {
            server,
            model,
            addr,
            base,
            stop,
            authority,
        }
    }

    /// A path under the secret, e.g. `path("state")`.
    pub fn path(&self, rest: &str) -> String {
        format!("{}{rest}", self.base)
    }

    /// Reads the model.
    pub fn model(&self) -> MutexGuard<'_, Model> {
        lock(&self.model)
    }

    /// Changes the model as the app would (e.g. opens the add-game form) and publishes.
    pub fn change(&self, f: impl FnOnce(&mut Model)) {
        let mut m = lock(&self.model);
        f(&mut m);
        self.server.publish(m.state());
    }

    /// Moves the fake clock on and publishes (as the app does every frame).
    pub fn advance(&self, by: Duration) {
        self.change(|m| m.now += by);
    }

    /// Stops the authority, then the server.
    pub fn stop(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.authority.take() {
            t.join().expect("authority thread");
        }
        let server = Arc::try_unwrap(self.server).expect("only the table holds the server");
        server.stop();
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
