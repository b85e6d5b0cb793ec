//! The club night's owner takes commands from the command line of the same machine: a
//! listener on loopback that answers only requests carrying the owner's secret (written into
//! the folder's club lock, which only the user can read). So while a host runs, `event
//! result` in a terminal goes through the host's own `apply` — one owner, one copy of the
//! event — instead of waiting for a lock that is held all evening.
//!
//! Plain HTTP/1.1, one request a connection: `POST /control` with `Authorization: Bearer
//! <secret>` and a JSON body; the answer is JSON. [`send`] is the command line's side.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use tokio::sync::oneshot;

use super::http::{self, Limits, Peer};
use super::net::Secret;

/// What the owner does with a command: JSON in, JSON out (it may wait for the disk; it runs on
/// the blocking pool).
pub type Handler = Arc<dyn Fn(serde_json::Value) -> serde_json::Value + Send + Sync>;

/// The largest command body (a result of 24 games of 6 racks is a few kB).
const MAX_BODY: usize = 256 * 1024;

struct Shared {
    secret: Secret,
    handler: Handler,
}

/// The owner's loopback listener; see the [module docs](self).
pub struct ControlServer {
    port: u16,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for ControlServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ControlServer")
            .field("port", &self.port)
            .finish_non_exhaustive()
    }
}

impl ControlServer {
    /// Listens on a free loopback port for commands carrying `secret`.
    pub fn start(secret: Secret, handler: Handler) -> std::io::Result<ControlServer> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let std_listener = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
        std_listener.set_nonblocking(true)?;
        let port = std_listener.local_addr()?.port();
        let listener = {
            let _inside = runtime.enter();
            tokio::net::TcpListener::from_std(std_listener)?
        };
        let shared = Arc::new(Shared { secret, handler });
        let router = Router::new()
            .route("/control", post(control))
            .layer(DefaultBodyLimit::max(MAX_BODY))
            .layer(middleware::from_fn_with_state(Arc::clone(&shared), guard))
            .with_state(shared);
        let (stop_tx, stop_rx) = oneshot::channel();
        let limits = Limits {
            total: 8,
            per_peer: 8,
        };
        let thread = std::thread::Builder::new()
            .name("club-control".into())
            .spawn(move || {
                runtime.block_on(http::serve(listener, router, limits, stop_rx));
                runtime.shutdown_timeout(Duration::from_secs(1));
            })?;
        Ok(ControlServer {
            port,
            shutdown: Some(stop_tx),
            thread: Some(thread),
        })
    }

    /// The loopback port.
    pub fn port(&self) -> u16 {
        self.port
    }
}

impl Drop for ControlServer {
    fn drop(&mut self) {
        if let Some(stop) = self.shutdown.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Loopback peers with the secret only.
async fn guard(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let loopback = request
        .extensions()
        .get::<Peer>()
        .is_some_and(|peer| peer.0.ip().is_loopback());
    let bearer = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    if !loopback || !bearer.is_some_and(|b| shared.secret.matches(b)) {
        return StatusCode::FORBIDDEN.into_response();
    }
    next.run(request).await
}

async fn control(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    let Ok(command) = serde_json::from_slice::<serde_json::Value>(&body) else {
        return StatusCode::BAD_REQUEST.into_response();
    };
    let handler = Arc::clone(&shared.handler);
    match tokio::task::spawn_blocking(move || handler(command)).await {
        Ok(answer) => (
            [(header::CONTENT_TYPE, "application/json")],
            answer.to_string(),
        )
            .into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

/// Hands `command` to the owner listening on loopback `port` with `secret`, and waits (at most
/// `timeout`) for its answer.
pub fn send(
    port: u16,
    secret: &str,
    command: &serde_json::Value,
    timeout: Duration,
) -> std::io::Result<serde_json::Value> {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let mut stream = TcpStream::connect_timeout(&address, timeout)?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    let body = command.to_string();
    let request = format!(
        "POST /control HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {secret}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes())?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer)?;
    let text = String::from_utf8_lossy(&answer);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| std::io::Error::other("no answer"))?;
    let ok = head
        .lines()
        .next()
        .is_some_and(|status| status.split(' ').nth(1) == Some("200"));
    if !ok {
        return Err(std::io::Error::other(
            head.lines().next().unwrap_or_default().to_owned(),
        ));
    }
    serde_json::from_str(body).map_err(std::io::Error::other)
}
