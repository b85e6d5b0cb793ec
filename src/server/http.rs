//! The HTTP side: the accept loop (bounded connections), the guard (peer and secret), the
//! routes, and the embedded page.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
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
use tokio::sync::{Semaphore, oneshot};

use crate::i18n::Language;
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

/// The connection's peer, put into each request by the accept loop.
#[derive(Clone, Copy, Debug)]
struct Peer(SocketAddr);

/// Accepts connections until `stop`, serving at most `max_connections` at once; a connection
/// beyond that is closed at once (the phone's page retries with backoff).
pub(super) async fn serve(
    listener: TcpListener,
    router: Router,
    max_connections: usize,
    mut stop: oneshot::Receiver<()>,
) {
    let slots = Arc::new(Semaphore::new(max_connections));
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
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
                request.extensions_mut().insert(Peer(peer));
                router.clone().oneshot(request)
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service)
                .await;
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
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
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
    response
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

fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

async fn state(State(shared): State<Arc<Shared>>) -> Response {
    json_response(StatusCode::OK, &shared.current())
}

/// The page's live feed: the current state at once, then each change.
async fn events(
    State(shared): State<Arc<Shared>>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let mut seen = shared.version.subscribe();
    seen.mark_changed();
    let feed = stream::unfold((seen, shared), |(mut seen, shared)| async move {
        seen.changed().await.ok()?;
        seen.mark_unchanged();
        let json = serde_json::to_string(&shared.current()).unwrap_or_default();
        Some((
            Ok(Event::default().event("state").data(json)),
            (seen, shared),
        ))
    });
    Sse::new(feed).keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
}

/// The page's language from the query (`?lang=ko`), for the words of a refusal.
fn page_language(uri: &Uri) -> Language {
    uri.query()
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix("lang="))
        .map_or(Language::English, Language::from_locale)
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
