//! The HTTP side: the accept loop (connections bounded in all and per address), the guard
//! (peer and secret), the routes, and the embedded page.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use futures_util::stream::{self, Stream};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::oneshot;

use crate::i18n::phone as phone_words;
use crate::lang::Language;
use tower::ServiceExt;

use super::net::is_local_peer;
use super::{PhoneAction, Rejection, Shared};

const INDEX_HTML: &str = include_str!("../../assets/web/index.html");
const APP_JS: &str = include_str!("../../assets/web/app.js");
const STYLE_CSS: &str = include_str!("../../assets/web/style.css");

/// A comment line on every SSE stream this often, so dead Wi-Fi connections are noticed and
/// proxies keep the stream open; the only periodic work the server does.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// A client has this long to send its request headers (a slow client cannot hold a slot).
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a replaced connection that is answering a request may take to finish it.
const EVICT_GRACE: Duration = Duration::from_secs(1);

/// The connection's peer, put into each request by the accept loop.
#[derive(Clone, Copy, Debug)]
pub(super) struct Peer(pub(super) SocketAddr);

/// How many connections are held open: in all, and per address.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    pub(super) total: usize,
    pub(super) per_peer: usize,
}

/// One held connection, as the accept loop knows it.
struct Held {
    id: u64,
    /// Requests being answered on it right now (an event stream, once its head is sent, is
    /// not being answered: it only waits).
    busy: Arc<AtomicUsize>,
    /// Tells the connection's task to close.
    close: oneshot::Sender<()>,
}

/// The held connections by address, oldest first.
#[derive(Default)]
struct Registry {
    next_id: u64,
    total: usize,
    by_peer: HashMap<IpAddr, VecDeque<Held>>,
}

impl Registry {
    fn count(&self, ip: IpAddr) -> usize {
        self.by_peer.get(&ip).map_or(0, VecDeque::len)
    }

    /// Whether a newcomer from `ip` may be served, making room if it must: its own oldest
    /// connection goes when the address has its share; when the server is full, the oldest of
    /// the address holding the most goes if that address holds more than `ip` would.
    fn make_room(&mut self, ip: IpAddr, limits: Limits) -> bool {
        let mine = self.count(ip);
        if mine >= limits.per_peer {
            self.evict_oldest(ip);
            return true;
        }
        if self.total < limits.total {
            return true;
        }
        let heaviest = self
            .by_peer
            .iter()
            .max_by_key(|(_, held)| held.len())
            .map(|(peer, held)| (*peer, held.len()));
        match heaviest {
            Some((peer, held)) if held > mine + 1 => {
                self.evict_oldest(peer);
                true
            }
            _ => false,
        }
    }

    /// Closes the oldest connection of `ip` that is not answering a request (the oldest of
    /// all if every one is).
    fn evict_oldest(&mut self, ip: IpAddr) {
        let Some(held) = self.by_peer.get_mut(&ip) else {
            return;
        };
        let index = held
            .iter()
            .position(|h| h.busy.load(Ordering::Acquire) == 0)
            .unwrap_or(0);
        if let Some(gone) = held.remove(index) {
            let _ = gone.close.send(());
            self.total -= 1;
        }
        if held.is_empty() {
            self.by_peer.remove(&ip);
        }
    }

    fn admit(&mut self, ip: IpAddr) -> (u64, Arc<AtomicUsize>, oneshot::Receiver<()>) {
        let id = self.next_id;
        self.next_id += 1;
        let busy = Arc::new(AtomicUsize::new(0));
        let (close, closed) = oneshot::channel();
        self.by_peer.entry(ip).or_default().push_back(Held {
            id,
            busy: Arc::clone(&busy),
            close,
        });
        self.total += 1;
        (id, busy, closed)
    }

    /// A connection ended by itself (an evicted one is already gone).
    fn remove(&mut self, ip: IpAddr, id: u64) {
        let Some(held) = self.by_peer.get_mut(&ip) else {
            return;
        };
        if let Some(index) = held.iter().position(|h| h.id == id) {
            held.remove(index);
            self.total -= 1;
        }
        if held.is_empty() {
            self.by_peer.remove(&ip);
        }
    }
}

fn lock(registry: &Mutex<Registry>) -> MutexGuard<'_, Registry> {
    registry.lock().unwrap_or_else(|e| e.into_inner())
}

/// The address a peer is counted under: IPv4 written as IPv6 is its IPv4 address.
fn peer_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// Counts a request as being answered while it lives.
struct Answering(Arc<AtomicUsize>);

impl Answering {
    fn start(busy: &Arc<AtomicUsize>) -> Answering {
        busy.fetch_add(1, Ordering::AcqRel);
        Answering(Arc::clone(busy))
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Accepts connections until `stop`, within `limits` (see [`Registry::make_room`]); a
/// connection that finds no room is closed at once (the phone's page retries with backoff).
pub(super) async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    mut stop: oneshot::Receiver<()>,
) {
    let registry = Arc::new(Mutex::new(Registry::default()));
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = &mut stop => return,
        };
        let (stream, peer) = match accepted {
            Ok(pair) => pair,
            Err(_) => {
                // Out of file descriptors or a connection reset while queued: back off briefly.
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let ip = peer_key(peer.ip());
        let (id, busy, mut closed) = {
            let mut held = lock(&registry);
            if !held.make_room(ip, limits) {
                drop(stream);
                continue;
            }
            held.admit(ip)
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let registry = Arc::clone(&registry);
        tokio::spawn(async move {
            let answering = busy;
            let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
                request.extensions_mut().insert(Peer(peer));
                let answer = router.clone().oneshot(request);
                let counted = Answering::start(&answering);
                async move {
                    let response = answer.await;
                    drop(counted);
                    response
                }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service);
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                Ok(()) = &mut closed => {
                    // Replaced by a newer connection: an idle one closes at once, one that is
                    // answering a request or streaming events is given a moment to finish.
                    connection.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(EVICT_GRACE, connection).await;
                }
            }
            lock(&registry).remove(ip, id);
        });
    }
}

/// Every route, behind the guard.
pub(super) fn router(shared: Arc<Shared>) -> Router {
    let max_body = shared.max_body;
    Router::new()
        .route("/p/{secret}", get(to_slash))
        .route("/p/{secret}/", get(index))
        .route("/p/{secret}/app.js", get(app_js))
        .route("/p/{secret}/style.css", get(style_css))
        .route("/p/{secret}/words.js", get(words_js))
        .route("/p/{secret}/state", get(state))
        .route("/p/{secret}/events", get(events))
        .route("/p/{secret}/action", post(action))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(max_body))
        .layer(middleware::from_fn_with_state(Arc::clone(&shared), guard))
        .with_state(shared)
}

/// Refuses peers outside the local network and requests without the secret (403), and adds
/// the headers every answer carries.
async fn guard(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let local = request
        .extensions()
        .get::<Peer>()
        .is_some_and(|peer| is_local_peer(peer.0.ip()));
    if !local {
        return problem(StatusCode::FORBIDDEN, "forbidden", "only the local network");
    }
    let secret = request
        .uri()
        .path()
        .strip_prefix("/p/")
        .map(|rest| rest.split('/').next().unwrap_or_default());
    if !secret.is_some_and(|s| shared.secret.matches(s)) {
        return problem(StatusCode::FORBIDDEN, "forbidden", "this link is not valid");
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    page_headers(headers);
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

/// What every served page carries (the phones' and the TV's): never cached, no sniffing, only
/// its own scripts and styles, never framed.
pub(super) fn page_headers(headers: &mut axum::http::HeaderMap) {
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'none'",
        ),
    );
}

async fn to_slash(request: Request) -> Redirect {
    Redirect::permanent(&format!("{}/", request.uri().path()))
}

async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

async fn app_js() -> Response {
    asset("text/javascript; charset=utf-8", APP_JS)
}

async fn style_css() -> Response {
    asset("text/css; charset=utf-8", STYLE_CSS)
}

/// The page's words (`?lang=ko` or `?lang=en` for one language, both otherwise), made from
/// [`crate::i18n::phone`], where each message has its two languages side by side.
async fn words_js(uri: Uri) -> Response {
    let lang = query_value(&uri, "lang").map(Language::from_locale);
    asset("text/javascript; charset=utf-8", phone_words::script(lang))
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

async fn state(State(shared): State<Arc<Shared>>) -> Response {
    json_response(StatusCode::OK, &shared.current())
}

/// The page's live feed: the current state at once, then each change; a `ping` event after
/// every 15 s of silence (a page that hears nothing for longer knows its connection is dead,
/// which a comment line would not tell it). `?seat=N` counts the page on that seat while the
/// stream lasts ([`TableState::phones`](super::TableState::phones)).
async fn events(
    State(shared): State<Arc<Shared>>,
    uri: Uri,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let seat = query_value(&uri, "seat")
        .and_then(|s| s.parse::<usize>().ok())
        .filter(|seat| *seat < shared.seat_count());
    let mut seen = shared.version.subscribe();
    seen.mark_changed();
    let watch = SeatWatch::open(Arc::clone(&shared), seat);
    let feed = stream::unfold((seen, watch), |(mut seen, watch)| async move {
        seen.changed().await.ok()?;
        seen.mark_unchanged();
        let json = serde_json::to_string(&watch.shared.current()).unwrap_or_default();
        Some((
            Ok(Event::default().event("state").data(json)),
            (seen, watch),
        ))
    });
    let ping = Event::default().event("ping").data("1");
    Sse::new(feed).keep_alive(KeepAlive::new().interval(KEEP_ALIVE).event(ping))
}

/// An event stream's seat, counted while the stream lives (dropped with it when the page goes).
struct SeatWatch {
    shared: Arc<Shared>,
    seat: Option<usize>,
}

impl SeatWatch {
    fn open(shared: Arc<Shared>, seat: Option<usize>) -> SeatWatch {
        if let Some(seat) = seat {
            shared.seat_stream(seat, true);
        }
        SeatWatch { shared, seat }
    }
}

impl Drop for SeatWatch {
    fn drop(&mut self) {
        if let Some(seat) = self.seat {
            self.shared.seat_stream(seat, false);
        }
    }
}

/// The value of `name=` in the query, if any.
fn query_value<'a>(uri: &'a Uri, name: &str) -> Option<&'a str> {
    uri.query()
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
}

/// The page's language from the query (`?lang=ko`), for the words of a refusal.
fn page_language(uri: &Uri) -> Language {
    query_value(uri, "lang").map_or(Language::English, Language::from_locale)
}

/// A phone's action: parsed, handed to the host on the blocking pool (it may wait for a save),
/// answered with what the host says. No frame of the window is waited for.
async fn action(State(shared): State<Arc<Shared>>, uri: Uri, body: Bytes) -> Response {
    let lang = page_language(&uri);
    let action: PhoneAction = match serde_json::from_slice(&body) {
        Ok(action) => action,
        Err(e) => return problem(StatusCode::BAD_REQUEST, "bad_request", &e.to_string()),
    };
    let host = Arc::clone(&shared.host);
    match tokio::task::spawn_blocking(move || host.act(action, lang)).await {
        Ok(Ok(acted)) => json_response(
            StatusCode::OK,
            &serde_json::json!({ "ok": true, "saved": acted.saved }),
        ),
        Ok(Err(rejection)) => refused(&rejection),
        Err(_) => problem(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            "the laptop could not answer",
        ),
    }
}

async fn not_found() -> Response {
    problem(StatusCode::NOT_FOUND, "not_found", "no such page")
}

fn refused(rejection: &Rejection) -> Response {
    let status = StatusCode::from_u16(rejection.status).unwrap_or(StatusCode::CONFLICT);
    problem(status, rejection.code, &rejection.message)
}

fn problem(status: StatusCode, code: &str, message: &str) -> Response {
    json_response(
        status,
        &serde_json::json!({ "error": code, "message": message }),
    )
}

fn json_response(status: StatusCode, value: &impl serde::Serialize) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => (
            status,
            [(header::CONTENT_TYPE, "application/json")],
            Body::from(body),
        )
            .into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}
