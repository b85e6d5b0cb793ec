//! Helpers for the phone-server tests, the browser test and the server benchmark
//! (`benches/server.rs` includes this file by path): a tiny HTTP/1 client on `TcpStream`, an
//! SSE reader, and a real evening on a fake clock whose phone server the requests go to.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use rummikub_companion::evening::{Command, Deps, Done, Refusal, Shared};
use rummikub_companion::runtime::ManualClock;
use rummikub_companion::sound::RecordingSounder;
use rummikub_companion::timer::Timer;

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
pub fn read_reply(stream: TcpStream) -> std::io::Result<Reply> {
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
        Feed::over(TcpStream::connect_timeout(&addr, IO_TIMEOUT)?, addr, path)
    }

    /// Opens `path` over a connected stream (a benchmark's, from an address of its choosing).
    pub fn over(mut stream: TcpStream, addr: SocketAddr, path: &str) -> std::io::Result<Feed> {
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

    /// The next `state` event's data as JSON, waiting at most `wait` for each line. `Ok(None)`
    /// on timeout; an error when the server closed the stream. Other events (the `ping` after
    /// 15 s of silence) are skipped.
    pub fn next_state(&mut self, wait: Duration) -> std::io::Result<Option<serde_json::Value>> {
        self.reader.get_ref().set_read_timeout(Some(wait))?;
        let mut data = String::new();
        let mut event = String::new();
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
            } else if let Some(name) = line.strip_prefix("event:") {
                event = name.trim().to_owned();
            } else if line.is_empty() && !data.is_empty() {
                if event != "state" {
                    data.clear();
                    event.clear();
                    continue;
                }
                return serde_json::from_str(&data)
                    .map(Some)
                    .map_err(|e| std::io::Error::other(format!("bad event {data:?}: {e}")));
            }
        }
    }
}

/// A real evening on a fresh data folder and a manual clock, with its phone server on
/// loopback: the phones' requests are carried out by the evening itself, as in the app (with
/// no window at all).
pub struct Table {
    pub evening: Shared,
    pub clock: Arc<ManualClock>,
    pub addr: SocketAddr,
    /// `/p/<secret>/`
    pub base: String,
    _data: tempfile::TempDir,
}

/// The four players every phone test seats.
pub const PLAYERS: [&str; 4] = ["Ann", "Bo", "Cy", "Dee"];

impl Table {
    /// Ann, Bo, Cy and Dee with 60-second turns (warning at 10 s), a sheet open, Ann's turn
    /// started at fake time 0, and the phones on `127.0.0.1:<port>` (0 = any).
    pub fn start(port: u16) -> Table {
        let table = Table::idle(port);
        table
            .apply(Command::Primary)
            .expect("the first turn starts");
        table
    }

    /// Like [`Table::start`], with no turn started yet.
    pub fn idle(port: u16) -> Table {
        let data = tempfile::tempdir().expect("a data folder");
        let clock = Arc::new(ManualClock::default());
        let deps = Deps::manual(
            clock.clone(),
            Arc::new(RecordingSounder::default()),
            data.path(),
        );
        let evening = Shared::open(deps);
        let names = PLAYERS.map(String::from).to_vec();
        evening
            .apply(Command::SetPlayers(names))
            .expect("four players");
        evening
            .apply(Command::NewSheet {
                rounds: None,
                target: None,
            })
            .expect("a sheet");
        evening.start_phones_on((Ipv4Addr::LOCALHOST, port).into());
        let (addr, url) = {
            let e = evening.lock();
            let addr = e.phones().local_addr().expect("the phones' server runs");
            (addr, e.phones().url().expect("a link").to_owned())
        };
        let base = url
            .split_once(&format!(":{}", addr.port()))
            .map(|(_, path)| path.to_string())
            .expect("url has the port");
        Table {
            evening,
            clock,
            addr,
            base,
            _data: data,
        }
    }

    /// A path under the secret, e.g. `path("state")`.
    pub fn path(&self, rest: &str) -> String {
        format!("{}{rest}", self.base)
    }

    /// A command to the evening, as the window would give it.
    pub fn apply(&self, command: Command) -> Result<Done, Refusal> {
        self.evening.apply(command)
    }

    /// Reads the evening's timer now.
    pub fn timer<R>(&self, f: impl FnOnce(&Timer, Duration) -> R) -> R {
        self.evening.lock().timer().read(f)
    }

    /// Sets the fake clock and lets the evening publish (as it does after any command).
    pub fn set_clock(&self, at: Duration) {
        self.clock.set(at);
        let _ = self.apply(Command::Checkpoint);
    }

    /// Moves the fake clock on and lets the evening publish.
    pub fn advance(&self, by: Duration) {
        self.clock.advance(by);
        let _ = self.apply(Command::Checkpoint);
    }

    /// Turns the phones off: every connection closes, the link stops working.
    pub fn stop(self) {
        self.apply(Command::Phones(false)).expect("phones off");
    }
}
