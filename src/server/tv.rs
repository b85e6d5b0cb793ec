//! The club night's TV page (`event serve`): a host without a window that shows an event on a
//! big screen and, per table, a small page a phone opens from the table's QR code.
//!
//! - **Read only.** The event file is read through the store's reader
//!   ([`Store::open_reader`]); `event result` (another process) writes it. The server checks
//!   the file's modification time and length every [`WATCH_EVERY`] and, when they change,
//!   reads the event again; pages are pushed the new view by server-sent events only when what
//!   they show changed. Pages never poll. A file that cannot be read keeps the last view.
//! - **Standings are released per round**: those of a round are shown only once every table
//!   of it has its result; until then the page shows the standings after the last complete
//!   round and which tables are still playing ([`TvView::of`]).
//! - **Words from Rust.** The pages are made here, in the page's language (`--lang`, or
//!   `?lang=ko|en`), from [`crate::i18n::event::tv`]; `tv.js` only swaps in what the server
//!   sends and holds no words.
//! - **Bounded** like the phones' server (the same accept loop: 64 connections, 8 per
//!   address) and only the local network is answered.
//!
//! Routes: `GET /` and `GET /tv` the TV page, `GET /table/<T>` the table's page, `GET
//! /tv/state` the [`TvView`] as JSON, `GET /tv/events?lang=ko&table=T` (SSE: event `state`,
//! data `{"view": TvView, "html": the page's board}`; `ping` after 15 s of silence),
//! `GET /tv.js`, `GET /tv.css`.
//!
//! Not here (issue 20, item 4): scoring from the phones per table. The table page shows the
//! seating and whether the result is in; results are entered with `event result`.

use std::convert::Infallible;
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime};

use axum::Router;
use axum::extract::{Path, Request, State};
use axum::http::{StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use futures_util::stream::{self, Stream};
use serde::Serialize;
use tokio::sync::{oneshot, watch};

use super::http::{self, Limits, Peer};
use super::net::{is_local_peer, qr_modules};
use crate::event::Event;
use crate::i18n::Language;
use crate::i18n::event::{cli as cli_words, tv as words};
use crate::store::{EventId, Store, StoreError};

/// The port `event serve` listens on unless told otherwise.
pub const TV_PORT: u16 = 8765;

/// How often the event file's modification time is checked.
pub const WATCH_EVERY: Duration = Duration::from_millis(500);

const TV_JS: &str = include_str!("../../assets/web/tv.js");
const TV_CSS: &str = include_str!("../../assets/web/tv.css");

/// A keep-alive `ping` after this much silence on a feed.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// One table of the current round as the pages show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TvTable {
    /// Its number.
    pub table: u32,
    /// Its players in seat order (the first starts).
    pub players: Vec<String>,
    /// Its result is in.
    pub finished: bool,
}

/// One row of the released standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TvStanding {
    /// Rank (equal players share it).
    pub rank: usize,
    /// Name.
    pub name: String,
    /// Games won.
    pub wins: usize,
    /// Points.
    pub points: i64,
    /// Games played.
    pub games: usize,
}

/// What the pages show: the event as the TV sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TvView {
    /// The event's name.
    pub name: String,
    /// The current round (0 before the first seating).
    pub round: u32,
    /// Every table of the current round has its result.
    pub complete: bool,
    /// The current round's tables.
    pub tables: Vec<TvTable>,
    /// The tables of the current round still playing.
    pub playing: Vec<u32>,
    /// The last complete round: the standings shown are after it (0: none yet).
    pub standings_round: u32,
    /// The standings after `standings_round` (empty when it is 0).
    pub standings: Vec<TvStanding>,
}

impl TvView {
    /// The view of an event: the current round's tables, and the standings after the last
    /// round all of whose tables have finished (a round's results are held back until then).
    pub fn of(event: &Event) -> TvView {
        let current = event.rounds().last();
        let tables: Vec<TvTable> = current
            .map(|r| {
                r.tables
                    .iter()
                    .map(|t| TvTable {
                        table: t.number,
                        players: event.seat_names(t),
                        finished: t.is_finished(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let playing = tables
            .iter()
            .filter(|t| !t.finished)
            .map(|t| t.table)
            .collect();
        let round = event.current_round();
        let complete = current.is_some_and(|r| r.is_complete());
        let standings_round = event
            .rounds()
            .iter()
            .rev()
            .find(|r| r.is_complete())
            .map_or(0, |r| r.number);
        let standings = if standings_round == 0 {
            Vec::new()
        } else {
            event
                .standings_through(standings_round)
                .rows
                .into_iter()
                .map(|s| TvStanding {
                    rank: s.rank,
                    name: s.name,
                    wins: s.wins,
                    points: s.points,
                    games: s.games,
                })
                .collect()
        };
        TvView {
            name: event.setup().name.clone(),
            round,
            complete,
            tables,
            playing,
            standings_round,
            standings,
        }
    }
}

/// How to run `event serve`.
#[derive(Clone, Debug)]
pub struct TvOptions {
    /// Where to listen (`0.0.0.0:8765`; `127.0.0.1:0` in tests).
    pub bind: SocketAddr,
    /// The data folder (read only).
    pub data_dir: PathBuf,
    /// The event shown.
    pub event: EventId,
    /// The pages' language unless a page asks for another (`?lang=`).
    pub lang: Language,
    /// The address the tables' links and QR codes name (where phones reach this machine).
    pub link_host: std::net::IpAddr,
}

struct TvShared {
    lang: Language,
    /// `http://host:port`, for the tables' links.
    base: String,
    view: watch::Sender<Arc<TvView>>,
}

/// The running TV server; see the [module docs](self).
pub struct TvServer {
    local_addr: SocketAddr,
    base: String,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

/// Why the TV server did not start.
#[derive(Debug)]
pub enum TvError {
    /// The event could not be read.
    Store(StoreError),
    /// The address could not be bound, or the thread not started.
    Io(std::io::Error),
}

impl TvServer {
    /// Reads the event, binds, and serves on its own thread until [`TvServer::stop`].
    pub fn start(options: TvOptions) -> Result<TvServer, TvError> {
        let store = Store::open_reader(options.data_dir.clone());
        let path = store.event_path(&options.event);
        let event = store.load_event(&options.event).map_err(TvError::Store)?;
        let first = stamp(&path);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(TvError::Io)?;
        let std_listener = std::net::TcpListener::bind(options.bind).map_err(TvError::Io)?;
        std_listener.set_nonblocking(true).map_err(TvError::Io)?;
        let local_addr = std_listener.local_addr().map_err(TvError::Io)?;
        let listener = {
            let _inside = runtime.enter();
            tokio::net::TcpListener::from_std(std_listener).map_err(TvError::Io)?
        };
        let base = format!(
            "http://{}",
            SocketAddr::new(options.link_host, local_addr.port())
        );
        let shared = Arc::new(TvShared {
            lang: options.lang,
            base: base.clone(),
            view: watch::Sender::new(Arc::new(TvView::of(&event.value))),
        });
        let router = router(Arc::clone(&shared));
        let (stop_tx, stop_rx) = oneshot::channel();
        let limits = Limits {
            total: 64,
            per_peer: 8,
        };
        let id = options.event;
        let thread = std::thread::Builder::new()
            .name("tv-server".into())
            .spawn(move || {
                runtime.spawn(watch_file(store, id, path, first, shared));
                runtime.block_on(http::serve(listener, router, limits, stop_rx));
                runtime.shutdown_timeout(Duration::from_secs(1));
            })
            .map_err(TvError::Io)?;
        Ok(TvServer {
            local_addr,
            base,
            shutdown: Some(stop_tx),
            thread: Some(thread),
        })
    }

    /// The address actually bound.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The TV page's link (naming [`TvOptions::link_host`]).
    pub fn url(&self) -> String {
        format!("{}/tv", self.base)
    }

    /// Serves until the process ends (`event serve`).
    pub fn wait(mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }

    /// Stops serving and closes every connection.
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

impl Drop for TvServer {
    fn drop(&mut self) {
        self.shut_down();
    }
}

/// What tells a changed file: its modification time and length.
fn stamp(path: &std::path::Path) -> Option<(SystemTime, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

/// Checks the file every [`WATCH_EVERY`]; reads it again when it changed, and pushes the new
/// view if the pages would show something else.
async fn watch_file(
    store: Store,
    id: EventId,
    path: PathBuf,
    mut last: Option<(SystemTime, u64)>,
    shared: Arc<TvShared>,
) {
    let store = Arc::new(store);
    let mut tick = tokio::time::interval(WATCH_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tick.tick().await;
        let now = stamp(&path);
        if now == last || now.is_none() {
            continue;
        }
        let (store, id) = (Arc::clone(&store), id.clone());
        let loaded = tokio::task::spawn_blocking(move || store.load_event(&id)).await;
        // A file caught mid-change or unreadable keeps the last view; the next tick retries.
        let Ok(Ok(event)) = loaded else {
            continue;
        };
        last = now;
        let view = TvView::of(&event.value);
        shared.view.send_if_modified(|old| {
            if **old == view {
                false
            } else {
                *old = Arc::new(view);
                true
            }
        });
    }
}

fn router(shared: Arc<TvShared>) -> Router {
    Router::new()
        .route("/", get(tv_page))
        .route("/tv", get(tv_page))
        .route("/tv/state", get(state))
        .route("/tv/events", get(events))
        .route("/table/{table}", get(table_page))
        .route(
            "/tv.js",
            get(|| async { asset("text/javascript; charset=utf-8", TV_JS) }),
        )
        .route(
            "/tv.css",
            get(|| async { asset("text/css; charset=utf-8", TV_CSS) }),
        )
        .fallback(not_found)
        .layer(middleware::from_fn(guard))
        .with_state(shared)
}

/// Only the local network; the headers every answer carries.
async fn guard(request: Request, next: Next) -> Response {
    let local = request
        .extensions()
        .get::<Peer>()
        .is_some_and(|peer| is_local_peer(peer.0.ip()));
    if !local {
        return (StatusCode::FORBIDDEN, "only the local network").into_response();
    }
    let mut response = next.run(request).await;
    super::http::page_headers(response.headers_mut());
    response
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// The value of `name=` in the query.
fn query_value<'a>(uri: &'a Uri, name: &str) -> Option<&'a str> {
    uri.query()
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
}

fn page_lang(shared: &TvShared, uri: &Uri) -> Language {
    query_value(uri, "lang").map_or(shared.lang, Language::from_locale)
}

fn code(lang: Language) -> &'static str {
    match lang {
        Language::English => "en",
        Language::Korean => "ko",
    }
}

async fn state(State(shared): State<Arc<TvShared>>) -> Response {
    let view = Arc::clone(&shared.view.borrow());
    match serde_json::to_string(view.as_ref()) {
        Ok(json) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

async fn tv_page(State(shared): State<Arc<TvShared>>, uri: Uri) -> Response {
    let lang = page_lang(&shared, &uri);
    let view = Arc::clone(&shared.view.borrow());
    Html(page(
        lang,
        &view.name,
        None,
        &board(lang, &view, &shared.base),
    ))
    .into_response()
}

async fn table_page(
    State(shared): State<Arc<TvShared>>,
    Path(table): Path<String>,
    uri: Uri,
) -> Response {
    let lang = page_lang(&shared, &uri);
    let view = Arc::clone(&shared.view.borrow());
    match table
        .parse::<u32>()
        .ok()
        .and_then(|n| view.tables.iter().find(|t| t.table == n))
    {
        Some(t) => {
            let title = format!("{} · {}", view.name, cli_words::table(lang, t.table));
            Html(page(
                lang,
                &title,
                Some(t.table),
                &table_board(lang, &view, t),
            ))
            .into_response()
        }
        None => (StatusCode::NOT_FOUND, words::no_table(lang, &table)).into_response(),
    }
}

async fn not_found(State(shared): State<Arc<TvShared>>, uri: Uri) -> Response {
    let lang = page_lang(&shared, &uri);
    (StatusCode::NOT_FOUND, words::NOT_FOUND.get(lang)).into_response()
}

/// The feed: the view at once, then each change; `?table=T` sends that table's board.
async fn events(
    State(shared): State<Arc<TvShared>>,
    uri: Uri,
) -> Sse<impl Stream<Item = Result<SseEvent, Infallible>>> {
    let lang = page_lang(&shared, &uri);
    let table = query_value(&uri, "table").and_then(|t| t.parse::<u32>().ok());
    let mut seen = shared.view.subscribe();
    seen.mark_changed();
    let feed = stream::unfold((seen, shared), move |(mut seen, shared)| async move {
        seen.changed().await.ok()?;
        let view = Arc::clone(&seen.borrow_and_update());
        let html = match table {
            None => board(lang, &view, &shared.base),
            Some(n) => match view.tables.iter().find(|t| t.table == n) {
                Some(t) => table_board(lang, &view, t),
                None => format!("<p>{}</p>", esc(&words::no_table(lang, &n.to_string()))),
            },
        };
        let data = serde_json::json!({ "view": view.as_ref(), "html": html }).to_string();
        Some((
            Ok(SseEvent::default().event("state").data(data)),
            (seen, shared),
        ))
    });
    let ping = SseEvent::default().event("ping").data("1");
    Sse::new(feed).keep_alive(KeepAlive::new().interval(KEEP_ALIVE).event(ping))
}

/// Escapes text for HTML.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A whole page around its board; `tv.js` keeps the board live.
fn page(lang: Language, title: &str, table: Option<u32>, board: &str) -> String {
    let table = table.map(|t| t.to_string()).unwrap_or_default();
    format!(
        "<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><link rel=\"stylesheet\" href=\"/tv.css\">\
         <script src=\"/tv.js\" defer></script></head>\
         <body data-lang=\"{lang}\" data-table=\"{table}\">\
         <p id=\"offline\" hidden>{offline}</p><main id=\"board\">{board}</main></body></html>\n",
        lang = code(lang),
        title = esc(title),
        offline = esc(words::OFFLINE.get(lang)),
    )
}

fn status(lang: Language, finished: bool) -> String {
    let (class, text) = if finished {
        ("done", words::FINISHED)
    } else {
        ("playing", words::PLAYING)
    };
    format!(
        "<span class=\"status {class}\">{}</span>",
        esc(text.get(lang))
    )
}

fn seat_list(lang: Language, players: &[String]) -> String {
    let mut out = String::from("<ol class=\"seats\">");
    for (i, name) in players.iter().enumerate() {
        let mark = if i == 0 {
            format!(" <small>({})</small>", esc(words::STARTS.get(lang)))
        } else {
            String::new()
        };
        let _ = write!(out, "<li>{}{mark}</li>", esc(name));
    }
    out.push_str("</ol>");
    out
}

/// A QR code as inline SVG, with the quiet zone.
fn qr_svg(text: &str) -> String {
    let Some((width, dark)) = qr_modules(text) else {
        return String::new();
    };
    let side = width + 8;
    let mut path = String::new();
    for (i, _) in dark.iter().enumerate().filter(|(_, d)| **d) {
        let _ = write!(path, "M{} {}h1v1h-1z", i % width + 4, i / width + 4);
    }
    format!(
        "<svg class=\"qr\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {side} {side}\" \
         shape-rendering=\"crispEdges\"><rect width=\"{side}\" height=\"{side}\" fill=\"#fff\"/>\
         <path d=\"{path}\" fill=\"#000\"/></svg>"
    )
}

/// The TV page's board: heading, every table with its link and QR code, the standings.
fn board(lang: Language, view: &TvView, base: &str) -> String {
    let mut out = format!("<header><h1>{}</h1>", esc(&view.name));
    if view.round == 0 {
        let _ = write!(out, "<p>{}</p></header>", esc(words::NOT_SEATED.get(lang)));
        return out;
    }
    let _ = write!(
        out,
        "<h2 id=\"round\">{}</h2></header>",
        esc(&cli_words::round(lang, view.round))
    );
    let _ = write!(
        out,
        "<section class=\"tables\" aria-label=\"{}\">",
        esc(words::TABLES.get(lang))
    );
    for t in &view.tables {
        let link = format!("{base}/table/{}?lang={}", t.table, code(lang));
        let _ = write!(
            out,
            "<article class=\"table\" data-table=\"{n}\" data-finished=\"{f}\">\
             <h3><a href=\"{link}\">{title}</a> {status}</h3>{seats}\
             <figure>{qr}<figcaption>{scan}</figcaption></figure></article>",
            n = t.table,
            f = t.finished,
            link = esc(&link),
            title = esc(&cli_words::table(lang, t.table)),
            status = status(lang, t.finished),
            seats = seat_list(lang, &t.players),
            qr = qr_svg(&link),
            scan = esc(words::SCAN.get(lang)),
        );
    }
    out.push_str("</section>");
    out.push_str(&standings(lang, view));
    out
}

fn standings(lang: Language, view: &TvView) -> String {
    let mut out = String::from("<section id=\"standings\">");
    if !view.playing.is_empty() {
        let _ = write!(
            out,
            "<p class=\"held\">{}</p>",
            esc(&words::still_playing(lang, view.round, &view.playing))
        );
    }
    if view.standings_round == 0 {
        let _ = write!(
            out,
            "<p>{}</p></section>",
            esc(&words::no_standings(lang, 1))
        );
        return out;
    }
    let _ = write!(
        out,
        "<h2>{}</h2><table><thead><tr>",
        esc(&words::standings_after(lang, view.standings_round))
    );
    for column in cli_words::COLUMNS {
        let _ = write!(out, "<th>{}</th>", esc(column.get(lang)));
    }
    out.push_str("</tr></thead><tbody>");
    for s in &view.standings {
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:+}</td><td>{}</td></tr>",
            s.rank,
            esc(&s.name),
            s.wins,
            s.points,
            s.games
        );
    }
    out.push_str("</tbody></table></section>");
    out
}

/// A table's page: its seating and whether its result is in.
fn table_board(lang: Language, view: &TvView, table: &TvTable) -> String {
    format!(
        "<header><h1>{name}</h1><h2>{round} · {title}</h2></header>\
         <section class=\"table\" data-table=\"{n}\" data-finished=\"{f}\">\
         <p>{status}</p>{seats}</section>",
        name = esc(&view.name),
        round = esc(&cli_words::round(lang, view.round)),
        title = esc(&cli_words::table(lang, table.table)),
        n = table.table,
        f = table.finished,
        status = status(lang, table.finished),
        seats = seat_list(lang, &table.players),
    )
}
