//! The phone companion: a small HTTP server on the local network that lets each player's phone
//! show the clock, end its own turn, pause, and enter its own rack at the end of a game.
//!
//! The laptop stays the one authority. The server never changes anything itself: a phone's
//! action becomes a [`PhoneRequest`] that the app takes with [`PhoneServer::try_next`] once per
//! frame, carries out through the same `apply` path as a click (so the guard against double
//! ends and the undo history see it) and answers with [`PhoneRequest::reply`]. The app then
//! [`publish`](PhoneServer::publish)es the new [`TableState`] and every connected page gets it
//! by server-sent events.
//!
//! Why this shape:
//! - **No polling.** A page counts the clock down by itself from the last state; the server
//!   pushes only when something changes that a page could not predict
//!   ([`TableState::same_course`]), so `publish` may be called every frame for free. Idle, with
//!   phones connected, the server sleeps (one SSE keep-alive comment per 15 s per page).
//! - **Nothing reaches the app that the server can refuse itself.** A request without the
//!   secret, from outside the local network, too large, malformed, or for the wrong seat or a
//!   stale turn is answered at once ([`TableState::precheck`]).
//! - **Bounded.** At most [`ServerOptions::max_connections`] connections (more are closed at
//!   once), bodies of at most [`ServerOptions::max_body`] bytes, a few waiting requests, a
//!   10-second limit to send request headers, a reply timeout.
//! - **Its own thread and tokio runtime**, so the GUI needs no async code; [`PhoneServer::stop`]
//!   drops the runtime, which closes every connection, and the next evening's server gets a new
//!   [`Secret`], so old links are answered 403.
//!
//! Routes (all under `/p/<secret>/`): `GET /` the page, `GET app.js`, `GET style.css`,
//! `GET state` (JSON [`TableState`]), `GET events` (SSE, event `state`), `POST action`
//! (JSON [`PhoneAction`]; `{"ok": true}` or a 4xx/503 with `{"error": code, "message": text}`).
//!
//! # Example
//! ```
//! use std::net::{IpAddr, Ipv4Addr};
//! use rummikub_companion::server::{PhoneServer, Secret, ServerOptions, TableState};
//!
//! let mut options = ServerOptions::new(Secret::random().unwrap());
//! options.bind = (Ipv4Addr::LOCALHOST, 0).into();
//! let state = TableState { players: vec!["Ann".into(), "Bo".into()], next: 1, ..TableState::default() };
//! let server = PhoneServer::start(options, state, || {}).unwrap();
//! let url = server.url(IpAddr::V4(Ipv4Addr::LOCALHOST));
//! assert!(url.starts_with("http://127.0.0.1:") && url.ends_with('/'));
//! assert!(server.try_next().is_none());
//! server.stop();
//! ```

mod http;
mod net;
mod state;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot, watch};

pub use net::{Secret, is_local_peer, lan_addresses, qr_modules};
pub use state::{MAX_RACK_TEXT, PhoneAction, PhonePhase, Refusal, TableState, check_rack};

/// The port the app listens on unless Settings say otherwise.
pub const DEFAULT_PORT: u16 = 7373;

/// How long a phone's request waits for the app's answer before it is told the laptop is busy.
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(3);

/// How many phone actions may wait for the app at once (more are answered 503 at once).
const QUEUE: usize = 32;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// Where to listen: `0.0.0.0:7373` for the table's network (peers outside the local
    /// ranges are refused anyway), `127.0.0.1:0` in tests.
    pub bind: SocketAddr,
    /// The evening's secret; every link carries it.
    pub secret: Secret,
    /// Connections served at once; further ones are closed at once.
    pub max_connections: usize,
    /// The largest request body accepted (larger ones get 413).
    pub max_body: usize,
}

impl ServerOptions {
    /// `0.0.0.0:7373`, 64 connections, 4 KiB bodies, with this secret.
    pub fn new(secret: Secret) -> ServerOptions {
        ServerOptions {
            bind: (Ipv4Addr::UNSPECIFIED, DEFAULT_PORT).into(),
            secret,
            max_connections: 64,
            max_body: 4 * 1024,
        }
    }
}

/// A phone's action waiting for the app. Reply exactly once; dropping it unanswered tells the
/// phone the laptop is busy.
#[derive(Debug)]
pub struct PhoneRequest {
    /// What the phone asks; already checked against the last published state.
    pub action: PhoneAction,
    reply: oneshot::Sender<Result<(), Refusal>>,
}

impl PhoneRequest {
    /// Answers the phone: `Ok(())` when done, or why not. A phone that gave up waiting is
    /// simply not told.
    pub fn reply(self, result: Result<(), Refusal>) {
        let _ = self.reply.send(result);
    }
}

/// What the HTTP side shares with the app side.
pub(crate) struct Shared {
    secret: Secret,
    max_body: usize,
    published: Mutex<Published>,
    /// Bumped on every pushed change; each SSE stream watches it.
    version: watch::Sender<u64>,
    requests: mpsc::Sender<PhoneRequest>,
    wake: Box<dyn Fn() + Send + Sync>,
}

struct Published {
    state: TableState,
    at: Instant,
    /// The turn a phone ended last, until the next publish: refuses a second end of it even
    /// before the app has published the new turn.
    ended_turn: Option<u64>,
}

impl Shared {
    fn published(&self) -> MutexGuard<'_, Published> {
        self.published.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The last published state with its clock moved on to now.
    pub(crate) fn current(&self) -> TableState {
        let p = self.published();
        p.state.projected(p.at.elapsed())
    }

    pub(crate) fn precheck(&self, action: &PhoneAction) -> Result<(), Refusal> {
        let p = self.published();
        if let PhoneAction::EndTurn { turn, .. } = action
            && p.ended_turn == Some(*turn)
        {
            return Err(Refusal::StaleTurn);
        }
        p.state.precheck(action)
    }

    pub(crate) fn done(&self, action: &PhoneAction) {
        if let PhoneAction::EndTurn { turn, .. } = action {
            self.published().ended_turn = Some(*turn);
        }
    }
}

/// The running server; see the [module docs](self).
pub struct PhoneServer {
    shared: Arc<Shared>,
    local_addr: SocketAddr,
    requests: Mutex<mpsc::Receiver<PhoneRequest>>,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl PhoneServer {
    /// Starts serving on its own thread (with its own tokio runtime). `initial` is what the
    /// first page sees; `wake` is called whenever a request waits for [`try_next`]
    /// (the app passes `ctx.request_repaint()`). Fails if the address cannot be bound (port in
    /// use) or the thread cannot be started.
    ///
    /// [`try_next`]: PhoneServer::try_next
    pub fn start(
        options: ServerOptions,
        initial: TableState,
        wake: impl Fn() + Send + Sync + 'static,
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
        let (tx, rx) = mpsc::channel(QUEUE);
        let shared = Arc::new(Shared {
            secret: options.secret,
            max_body: options.max_body,
            published: Mutex::new(Published {
                state: initial,
                at: Instant::now(),
                ended_turn: None,
            }),
            version: watch::Sender::new(0),
            requests: tx,
            wake: Box::new(wake),
        });
        let (stop_tx, stop_rx) = oneshot::channel();
        let router = http::router(Arc::clone(&shared));
        let max_connections = options.max_connections.max(1);
        let thread = std::thread::Builder::new()
            .name("phone-server".into())
            .spawn(move || {
                runtime.block_on(http::serve(listener, router, max_connections, stop_rx));
                // Dropping the runtime here drops every connection task: all sockets close.
                drop(runtime);
            })?;
        Ok(PhoneServer {
            shared,
            local_addr,
            requests: Mutex::new(rx),
            shutdown: Some(stop_tx),
            thread: Some(thread),
        })
    }

    /// The address actually bound (the real port when bound to port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The link a QR code carries for phones that reach this machine at `host`
    /// (see [`lan_addresses`]), secret included.
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
            p.ended_turn = None;
        }
        self.shared.version.send_modify(|v| *v += 1);
    }

    /// The next phone action waiting for the app, if any. Drain it once per frame, apply each
    /// action through the app's one path, and [`reply`](PhoneRequest::reply).
    pub fn try_next(&self) -> Option<PhoneRequest> {
        self.requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .try_recv()
            .ok()
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
        // Requests still waiting are answered "busy" by dropping them.
        let mut rx = self.requests.lock().unwrap_or_else(|e| e.into_inner());
        rx.close();
        while rx.try_recv().is_ok() {}
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
