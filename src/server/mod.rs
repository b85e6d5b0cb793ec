//! The phone companion: a small HTTP server on the local network that lets each player's phone
//! show the clock, end its own turn, pause, and enter its own rack at the end of a game.
//!
//! The server never decides anything. A phone's action goes to the [`PhoneHost`] it was started
//! with (the evening), on the server's own thread, at once: the window does not have to draw a
//! frame for a phone to be answered, so a minimised or covered laptop answers as fast as a
//! visible one. The host [`publish`](PhoneServer::publish)es the new [`TableState`] and every
//! connected page gets it by server-sent events.
//!
//! Why this shape:
//! - **No polling.** A page counts the clock down by itself from the last state; the server
//!   pushes only when something changes that a page could not predict
//!   ([`TableState::same_course`]), so `publish` may be called after every change for free.
//!   Idle, with phones connected, the server sleeps (one SSE keep-alive comment per 15 s per
//!   page).
//! - **One judge.** Whether a phone may end this turn, whether a rack can be read, whether a form
//!   is open: the host decides, against the evening as it is at that moment, and answers with a
//!   [`Rejection`] worded in the phone's language. The server only refuses what is not a request
//!   at all (no secret, not from the local network, too large, not JSON).
//! - **Bounded, and fair between addresses.** At most [`ServerOptions::max_per_peer`]
//!   connections per address (8) and [`ServerOptions::max_connections`] in all (64), bodies of
//!   at most [`ServerOptions::max_body`] bytes, a 10-second limit to send request headers. One
//!   address cannot starve the table: its ninth connection replaces its own oldest one, and
//!   when the server is full a newcomer replaces the oldest connection of the address holding
//!   the most. Replacing the oldest rather than refusing the newest is what a phone needs: the
//!   connections a phone leaves behind when its Wi-Fi blinks or it sleeps stay open on this
//!   side (nothing tells the laptop), and a phone refused because of its own dead connections
//!   would be locked out; a noisy address only ever pushes out its own connections. (The
//!   price: phones behind one NAT address share 8 connections; on a home network each phone
//!   has its own address.)
//! - **Its own thread and tokio runtime**, so the GUI needs no async code; the host's work runs
//!   on the runtime's blocking pool. [`PhoneServer::stop`] ends the runtime, which closes every
//!   connection, and the next server gets a new [`Secret`], so old links are answered 403.
//!
//! Routes (all under `/p/<secret>/`): `GET /` the page, `GET app.js`, `GET style.css`,
//! `GET words.js` (the page's words, both languages or `?lang=ko`; see
//! [`crate::i18n::phone`]), `GET state` (JSON [`TableState`]), `GET events?seat=N` (SSE:
//! event `state`, and `ping` every 15 s of silence so a page notices a dead connection; the
//! streams naming a seat are counted in [`TableState::phones`]), `POST action?lang=ko`
//! (JSON [`PhoneAction`]; `{"ok": true, "saved": bool}` or a 4xx with `{"error": code,
//! "message": text}`).
//!
//! # Example
//! ```
//! use std::net::{IpAddr, Ipv4Addr};
//! use std::sync::Arc;
//! use rummikub_companion::lang::Language;
//! use rummikub_companion::server::{
//!     Acted, PhoneAction, PhoneHost, PhoneServer, Rejection, Secret, ServerOptions, TableState,
//! };
//!
//! struct Nobody;
//! impl PhoneHost for Nobody {
//!     fn act(&self, _: PhoneAction, _: Language) -> Result<Acted, Rejection> {
//!         Err(Rejection::new(409, "not_started", "not yet"))
//!     }
//! }
//! let mut options = ServerOptions::new(Secret::random().unwrap());
//! options.bind = (Ipv4Addr::LOCALHOST, 0).into();
//! let state = TableState { players: vec!["Ann".into(), "Bo".into()], next: 1, ..TableState::default() };
//! let server = PhoneServer::start(options, state, Arc::new(Nobody)).unwrap();
//! let url = server.url(IpAddr::V4(Ipv4Addr::LOCALHOST));
//! assert!(url.starts_with("http://127.0.0.1:") && url.ends_with('/'));
//! server.stop();
//! ```

pub mod control;
mod http;
mod net;
mod state;
pub mod tv;

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tokio::sync::{oneshot, watch};

use crate::lang::Language;

pub use net::{
    AddressLister, DefaultRoutes, InterfaceAddress, LinkAddress, LinkChoice, Listening, Secret,
    default_route_v4, default_route_v6, is_local_peer, is_virtual_interface, link_addresses,
    link_choice, qr_modules, rank_link_addresses,
};
pub use state::{MAX_RACK_TEXT, PhoneAction, PhonePhase, TableState};

/// The port the app listens on unless Settings say otherwise.
pub const DEFAULT_PORT: u16 = 7373;

/// How long stopping waits for requests still being answered.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// How to run the server.
#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// Where to listen: `0.0.0.0:7373` for the table's network (peers outside the local
    /// ranges are refused anyway), `127.0.0.1:0` in tests.
    pub bind: SocketAddr,
    /// The evening's secret; every link carries it.
    pub secret: Secret,
    /// Connections served at once. When all are taken, a newcomer takes the oldest
    /// connection of the address holding the most, if that address holds more than the
    /// newcomer's would; otherwise the newcomer is closed at once.
    pub max_connections: usize,
    /// Connections one address may hold open at once (event streams included). A further one
    /// replaces that address's oldest connection (one not being answered, if there is one).
    pub max_per_peer: usize,
    /// The largest request body accepted (larger ones get 413).
    pub max_body: usize,
}

impl ServerOptions {
    /// `0.0.0.0:7373`, 64 connections (8 per address), 4 KiB bodies, with this secret.
    pub fn new(secret: Secret) -> ServerOptions {
        ServerOptions {
            bind: (Ipv4Addr::UNSPECIFIED, DEFAULT_PORT).into(),
            secret,
            max_connections: 64,
            max_per_peer: 8,
            max_body: 4 * 1024,
        }
    }
}

/// What a phone's action did: carried out (and whether it is on disk yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Acted {
    /// The change is on disk.
    pub saved: bool,
}

/// Why a phone's action was not carried out: an HTTP status, a stable code the page can act
/// on (`"not_your_turn"`, `"stale_turn"`, …) and the reason worded in the phone's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// The HTTP status (403, 404, 409, 422, …).
    pub status: u16,
    /// The stable code.
    pub code: &'static str,
    /// The reason, in the phone's language.
    pub message: String,
}

impl Rejection {
    /// A rejection.
    pub fn new(status: u16, code: &'static str, message: impl Into<String>) -> Rejection {
        Rejection {
            status,
            code,
            message: message.into(),
        }
    }
}

/// Who carries out the phones' actions (the evening). Called on the server's blocking pool,
/// once per action; it may take a moment (the evening waits for its save).
pub trait PhoneHost: Send + Sync + 'static {
    /// Carries out `action` from a phone whose page is in `lang`.
    fn act(&self, action: PhoneAction, lang: Language) -> Result<Acted, Rejection>;
}

/// What the HTTP side shares with the host's side.
pub(crate) struct Shared {
    secret: Secret,
    max_body: usize,
    published: Mutex<Published>,
    /// Bumped on every pushed change; each SSE stream watches it.
    version: watch::Sender<u64>,
    /// The open event streams per seat (a page names its seat: `events?seat=N`).
    seats: Mutex<BTreeMap<usize, u32>>,
    host: Arc<dyn PhoneHost>,
}

struct Published {
    state: TableState,
    at: Instant,
}

impl Shared {
    fn published(&self) -> MutexGuard<'_, Published> {
        self.published.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The last published state with its clock moved on to now, and the pages open on each
    /// seat.
    pub(crate) fn current(&self) -> TableState {
        let mut state = {
            let p = self.published();
            p.state.projected(p.at.elapsed())
        };
        let seats = self.seats.lock().unwrap_or_else(|e| e.into_inner());
        state.phones = (0..state.players.len())
            .map(|seat| seats.get(&seat).copied().unwrap_or(0))
            .collect();
        state
    }

    /// A page opened (`true`) or closed its event stream on `seat`; every page is told.
    pub(crate) fn seat_stream(&self, seat: usize, opened: bool) {
        {
            let mut seats = self.seats.lock().unwrap_or_else(|e| e.into_inner());
            let count = seats.entry(seat).or_insert(0);
            if opened {
                *count = count.saturating_add(1);
            } else {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    seats.remove(&seat);
                }
            }
        }
        self.version.send_modify(|v| *v += 1);
    }

    /// How many seats the table has now (a stream naming another seat is not counted).
    pub(crate) fn seat_count(&self) -> usize {
        self.published().state.players.len()
    }
}

/// The running server; see the [module docs](self).
pub struct PhoneServer {
    shared: Arc<Shared>,
    local_addr: SocketAddr,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl PhoneServer {
    /// Starts serving on its own thread (with its own tokio runtime). `initial` is what the
    /// first page sees; `host` carries out the phones' actions. Fails if the address cannot be
    /// bound (port in use) or the thread cannot be started.
    pub fn start(
        options: ServerOptions,
        initial: TableState,
        host: Arc<dyn PhoneHost>,
    ) -> std::io::Result<PhoneServer> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let std_listener = std::net::TcpListener::bind(options.bind)?;
        std_listener.set_nonblocking(true)?;
        let local_addr = std_listener.local_addr()?;
        let listener = {
            let _inside = runtime.enter();
            tokio::net::TcpListener::from_std(std_listener)?
        };
        let shared = Arc::new(Shared {
            secret: options.secret,
            max_body: options.max_body,
            published: Mutex::new(Published {
                state: initial,
                at: Instant::now(),
            }),
            version: watch::Sender::new(0),
            seats: Mutex::new(BTreeMap::new()),
            host,
        });
        let (stop_tx, stop_rx) = oneshot::channel();
        let router = http::router(Arc::clone(&shared));
        let limits = http::Limits {
            total: options.max_connections.max(1),
            per_peer: options.max_per_peer.max(1),
        };
        let thread = std::thread::Builder::new()
            .name("phone-server".into())
            .spawn(move || {
                runtime.block_on(http::serve(listener, router, limits, stop_rx));
                // Ending the runtime drops every connection task: all sockets close. A host
                // still answering a request is given a moment, never waited for forever.
                runtime.shutdown_timeout(STOP_GRACE);
            })?;
        Ok(PhoneServer {
            shared,
            local_addr,
            shutdown: Some(stop_tx),
            thread: Some(thread),
        })
    }

    /// The address actually bound (the real port when bound to port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The link a QR code carries for phones that reach this machine at `host`
    /// (see [`link_addresses`]), secret included.
    pub fn url(&self, host: IpAddr) -> String {
        net::link(host, self.local_addr.port(), &self.shared.secret)
    }

    /// Makes `state` what the phones see. Pushed to every page only if it differs from what
    /// the pages already show (a clock that merely ran on is not a change), so calling it
    /// every frame costs nothing.
    pub fn publish(&self, state: TableState) {
        {
            let mut p = self.shared.published();
            if p.state.same_course(&state, p.at.elapsed()) {
                return;
            }
            p.state = state;
            p.at = Instant::now();
        }
        self.shared.version.send_modify(|v| *v += 1);
    }

    /// Stops serving and closes every connection; the pages say they are disconnected, and
    /// their links stop working for good once the next server has a new secret.
    pub fn stop(mut self) {
        self.shut_down();
    }

    fn shut_down(&mut self) {
        if let Some(stop) = self.shutdown.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for PhoneServer {
    fn drop(&mut self) {
        self.shut_down();
    }
}

impl std::fmt::Debug for PhoneServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PhoneServer")
            .field("local_addr", &self.local_addr)
            .finish_non_exhaustive()
    }
}
