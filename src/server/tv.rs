//! The club night's pages: the TV page (the round, every table's clock and QR code, the
//! standings) and a page per table for its phones — served for the club night's owner, as the
//! phone server serves the evening.
//!
//! - **The server decides nothing.** A table page's request (a typed [`PageAction`]) goes to
//!   the [`TablesHost`] the server was started with (the club night's owner, `club::Club`),
//!   on the runtime's blocking pool; the owner checks the table's key, the seat's phone, the
//!   turn and the game, and answers once what it changed is on disk. The owner
//!   [`publish`](TvServer::publish)es each new [`TvView`] at once; nothing polls.
//! - **What changed, not the board.** The TV page gets the whole board once, then only the
//!   parts of it that changed (a table's live line, a table, the standings, the heading): a
//!   tap at a table sends that table's line, not every table's QR code. A table's page gets
//!   its table's part, only when it changed.
//! - **Words from Rust, in the reader's language.** The pages are made here from `i18n`; the
//!   TV page in the host's language or `?lang=`, a table's page in the phone's own language
//!   (`Accept-Language`) unless its player picked one (`?lang=`); a refusal — a body too large
//!   or not a request included — is JSON worded in the page's language. The app's Hangul font
//!   is served (`/font.otf`), so a TV box with no Korean font shows no boxes.
//! - **Bounded** like the phones' server (the same accept loop, 8 connections per address) and
//!   only the local network is answered.
//!
//! Routes: `GET /` and `GET /tv` the TV page, `GET /table/<T>?key=K` a table's page (with its
//! key: the phones' controls; without: the table's board), `GET /tv/state` the [`TvView`] as
//! JSON (no keys, no devices), `GET /tv/events?lang=&table=T&key=K&device=D` (SSE, event
//! `state`), `POST /table/<T>/act?lang=` (JSON [`PageRequest`] → `{ok, saved, device}` or
//! `{ok: false, error, message}`), `GET /tv.js`, `/table.js`, `/tv.css`, `/font.otf`.

use std::collections::HashMap;
use std::convert::Infallible;
use std::fmt::Write as _;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::stream::{self, Stream};
use serde::{Deserialize, Serialize};
use tokio::sync::{oneshot, watch};

use super::http::{self, Limits, Peer};
use super::net::{is_local_peer, qr_modules};
use crate::i18n::club as club_words;
use crate::i18n::event::{cli as cli_words, tv as words};
use crate::lang::Language;

/// The port `event serve` listens on unless told otherwise.
pub const TV_PORT: u16 = 8765;

const TV_JS: &str = include_str!("../../assets/web/tv.js");
const TV_CSS: &str = include_str!("../../assets/web/tv.css");
const TABLE_JS: &str = include_str!("../../assets/web/table.js");

/// The largest request body a table page sends (a rack is at most a few hundred bytes).
const MAX_BODY: usize = 4096;

/// A keep-alive `ping` after this much silence on a feed.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Connections the tables' server serves at once unless told otherwise: 25 tables of 4
/// phones, 2 TV pages and room to spare.
pub const TV_MAX_CONNECTIONS: usize = 160;

/// One table of the current round as the pages show it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TvTable {
    /// Its number.
    pub table: u32,
    /// Its players in seat order (game k is started by seat k mod n).
    pub players: Vec<String>,
    /// Who starts each game of the round (seat numbers).
    pub starts: Vec<usize>,
    /// Its result is in.
    pub finished: bool,
    /// Games of the round its players confirmed on their phones (or in the result).
    pub games_done: usize,
    /// Games a round has.
    pub games: u32,
    /// The seat whose turn it is, while the table's clock has a turn (running or paused).
    pub turn: Option<usize>,
    /// The turn's number: an end of turn names it, so a late or repeated tap ends nothing.
    pub turn_id: Option<u64>,
    /// The table's clock runs.
    pub running: bool,
    /// While it runs: when the turn's time is up, in ms on the host's clock.
    pub ends_at_ms: Option<u64>,
    /// While paused: the turn's time left, in ms.
    pub left_ms: Option<u64>,
    /// Which seats a phone holds.
    pub held: Vec<bool>,
    /// Anyone at the table may end a turn.
    pub shared: bool,
    /// The game being settled on the phones.
    pub settling: Option<TvSettling>,
    /// Once the result is in: each game's points and winner.
    pub results: Vec<TvGame>,
    /// The table's key this round (its link and QR code carry it; never in the JSON).
    #[serde(skip)]
    pub key: String,
    /// Each seat's device token (to tell a page which seat is its own; never in the JSON).
    #[serde(skip)]
    pub devices: Vec<Option<String>>,
}

/// The game being settled at a table: what the phones entered and who confirmed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TvSettling {
    /// Its number in the round (1-based): a confirmation names it.
    pub game: usize,
    /// What a confirmation names: the digest of the racks as shown.
    pub digest: String,
    /// The seat that went out, if one did (else the pool ran out).
    pub went_out: Option<usize>,
    /// Each seat's rack as entered, `None` until entered.
    pub racks: Vec<Option<String>>,
    /// Each seat had not made the initial meld.
    pub not_melded: Vec<bool>,
    /// The winner named, if any.
    pub winner: Option<usize>,
    /// Who confirmed.
    pub confirmed: Vec<bool>,
    /// The points of each seat, once the game as entered scores.
    pub points: Option<Vec<i64>>,
    /// The hands as entered (worded per page language).
    #[serde(skip)]
    pub hands: Vec<Option<crate::score::Hand>>,
    /// Why the game as entered does not score yet, with every rack in.
    #[serde(skip)]
    pub problem: Option<crate::score::ScoreError>,
}

/// A game of a finished table: each seat's points and the winner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TvGame {
    /// Points by seat.
    pub points: Vec<i64>,
    /// The seat that won it.
    pub winner: usize,
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
    /// Placement points (in `PLACEMENT_UNIT`ths), when the event ranks by them.
    pub placement: Option<i64>,
}

/// A division's released standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TvDivision {
    /// The division.
    pub name: String,
    /// Its standings.
    pub standings: Vec<TvStanding>,
}

/// A season's standings, when the organiser shows them on the TV.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TvSeason {
    /// The season's name.
    pub name: String,
    /// Events counted.
    pub events: usize,
    /// Its standings: rank, name, club, points, events played.
    pub rows: Vec<(usize, String, Option<String>, i64, usize)>,
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
    /// When the round's clock runs out, in ms on the host's clock.
    pub round_ends_at_ms: Option<u64>,
    /// The rules the games are scored under (each page words them in its language).
    pub rules: crate::rules::RuleSet,
    /// The current round's stage (a round, a semi-final, the final).
    pub stage: crate::event::Stage,
    /// Each division's standings after `standings_round` (empty without divisions).
    pub divisions: Vec<TvDivision>,
    /// A season's standings, when shown.
    pub season: Option<TvSeason>,
}

/// What a table's page asks.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct PageRequest {
    /// The table's key for this round (its link carries it).
    pub key: String,
    /// The device token the page keeps (none before its first claim).
    #[serde(default)]
    pub device: Option<String>,
    /// What.
    #[serde(flatten)]
    pub action: PageAction,
}

/// The actions of a table's page.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum PageAction {
    /// Claim a seat (0-based).
    Claim {
        /// The seat.
        seat: u64,
    },
    /// Give the seat up.
    Leave,
    /// Start (or resume) the clock.
    Start,
    /// Pause the clock.
    Pause,
    /// Resume the clock.
    Resume,
    /// End the turn the page showed.
    EndTurn {
        /// [`TvTable::turn_id`].
        turn: u64,
    },
    /// The game is over: I went out, or the pool ran out.
    GameOver {
        /// I went out.
        #[serde(default)]
        went_out: bool,
    },
    /// Back to the game.
    Reopen,
    /// My rack: tiles or a value.
    Rack {
        /// As typed.
        rack: String,
        /// I had not made my initial meld.
        #[serde(default)]
        not_melded: bool,
    },
    /// Take my rack back.
    Withdraw,
    /// The winner of a tie when the pool ran out (or none).
    Winner {
        /// The seat.
        #[serde(default)]
        winner: Option<u64>,
    },
    /// I confirm game `game` as shown (`digest`).
    Confirm {
        /// [`TvSettling::game`].
        game: u64,
        /// [`TvSettling::digest`].
        digest: String,
    },
}

/// A page's request carried out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageAnswer {
    /// On disk before this answer.
    pub saved: bool,
    /// The device token the page is to keep (after its first claim).
    pub device: Option<String>,
}

/// A page's request refused: the status and a code for the page, the message in its language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageRefusal {
    /// HTTP status.
    pub status: u16,
    /// A code for tests and the page.
    pub code: &'static str,
    /// The message, in the page's language.
    pub message: String,
}

/// What the tables' server asks of the club night's owner.
pub trait TablesHost: Send + Sync + 'static {
    /// A table page's request, in the page's language; may wait for the disk (it runs on the
    /// blocking pool).
    fn act(
        &self,
        table: u32,
        request: PageRequest,
        lang: Language,
    ) -> Result<PageAnswer, PageRefusal>;
    /// The host's clock now, in ms (the views' times are on it).
    fn now_ms(&self) -> u64;
}

/// How to serve the tables.
#[derive(Clone, Debug)]
pub struct TvOptions {
    /// Where to listen (`0.0.0.0:8765`; `127.0.0.1:0` in tests).
    pub bind: SocketAddr,
    /// The pages' language unless a page asks for another.
    pub lang: Language,
    /// The address the tables' links and QR codes name (where phones reach this machine).
    pub link_host: IpAddr,
    /// Connections served at once (each phone and TV page holds one).
    pub max_connections: usize,
}

struct TvShared {
    lang: Language,
    /// `http://host:port`, for the tables' links.
    base: String,
    view: watch::Sender<Arc<TvView>>,
    host: Arc<dyn TablesHost>,
    /// Each link's QR code, drawn once.
    qr: Mutex<HashMap<String, Arc<str>>>,
}

impl TvShared {
    fn qr(&self, link: &str) -> Arc<str> {
        let mut cache = self.qr.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(
            cache
                .entry(link.to_owned())
                .or_insert_with(|| qr_svg(link).into()),
        )
    }

    fn link(&self, table: &TvTable) -> String {
        format!("{}/table/{}?key={}", self.base, table.table, table.key)
    }
}

/// The running server; see the [module docs](self).
pub struct TvServer {
    local_addr: SocketAddr,
    base: String,
    shared: Arc<TvShared>,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl TvServer {
    /// Binds and serves `host`'s tables on a thread of its own, showing `first` until the
    /// host publishes another view.
    pub fn start(
        options: TvOptions,
        host: Arc<dyn TablesHost>,
        first: TvView,
    ) -> std::io::Result<TvServer> {
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
        let base = format!(
            "http://{}",
            SocketAddr::new(options.link_host, local_addr.port())
        );
        let shared = Arc::new(TvShared {
            lang: options.lang,
            base: base.clone(),
            view: watch::Sender::new(Arc::new(first)),
            host,
            qr: Mutex::new(HashMap::new()),
        });
        let router = router(Arc::clone(&shared));
        let (stop_tx, stop_rx) = oneshot::channel();
        let limits = Limits {
            total: options.max_connections.max(8),
            per_peer: 8,
        };
        let thread = std::thread::Builder::new()
            .name("tables-server".into())
            .spawn(move || {
                runtime.block_on(http::serve(listener, router, limits, stop_rx));
                runtime.shutdown_timeout(Duration::from_secs(1));
            })?;
        Ok(TvServer {
            local_addr,
            base,
            shared,
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

    /// A table's link, as its QR code carries it.
    pub fn table_url(&self, table: &TvTable) -> String {
        self.shared.link(table)
    }

    /// Shows `view` on every page (a page is sent only what changed for it).
    pub fn publish(&self, view: TvView) {
        self.shared.view.send_if_modified(|old| {
            if **old == view {
                false
            } else {
                *old = Arc::new(view);
                true
            }
        });
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

impl std::fmt::Debug for TvServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TvServer")
            .field("local_addr", &self.local_addr)
            .finish_non_exhaustive()
    }
}

fn router(shared: Arc<TvShared>) -> Router {
    Router::new()
        .route("/", get(tv_page))
        .route("/tv", get(tv_page))
        .route("/tv/state", get(state))
        .route("/tv/events", get(events))
        .route("/table/{table}", get(table_page))
        .route("/table/{table}/act", post(act))
        .route(
            "/table.js",
            get(|| async { asset("text/javascript; charset=utf-8", TABLE_JS.as_bytes()) }),
        )
        .route(
            "/tv.js",
            get(|| async { asset("text/javascript; charset=utf-8", TV_JS.as_bytes()) }),
        )
        .route(
            "/tv.css",
            get(|| async { asset("text/css; charset=utf-8", TV_CSS.as_bytes()) }),
        )
        .route("/font.otf", get(font))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(Arc::clone(&shared), guard))
        .with_state(shared)
}

/// Only the local network; every refusal the server itself makes (a body too large, a route
/// that is not one) is JSON in the page's language; the headers every answer carries.
async fn guard(State(shared): State<Arc<TvShared>>, request: Request, next: Next) -> Response {
    let lang = page_lang(&shared, request.uri(), request.headers());
    let local = request
        .extensions()
        .get::<Peer>()
        .is_some_and(|peer| is_local_peer(peer.0.ip()));
    if !local {
        return refused(
            StatusCode::FORBIDDEN,
            "forbidden",
            club_words::ONLY_LOCAL.get(lang),
        );
    }
    let mut response = next.run(request).await;
    if response.status() == StatusCode::PAYLOAD_TOO_LARGE {
        response = refused(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            club_words::TOO_LARGE.get(lang),
        );
    }
    let font = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t == "font/otf");
    super::http::page_headers(response.headers_mut());
    if font {
        // The font never changes within a build: a TV box fetches it once.
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=86400"),
        );
    }
    response
}

fn asset(kind: &'static str, body: &'static [u8]) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

async fn font() -> Response {
    asset("font/otf", crate::lang::HANGUL_FONT)
}

/// The value of `name=` in the query.
fn query_value<'a>(uri: &'a Uri, name: &str) -> Option<&'a str> {
    uri.query()
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
}

/// The page's language: `?lang=` (the TV's, or a player's own pick), else the reader's own
/// (`Accept-Language`, its first language), else the host's.
fn page_lang(shared: &TvShared, uri: &Uri, headers: &HeaderMap) -> Language {
    if let Some(lang) = query_value(uri, "lang") {
        return Language::from_locale(lang);
    }
    headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .map(|tag| tag.split(';').next().unwrap_or_default().trim())
        .filter(|tag| !tag.is_empty() && *tag != "*")
        .map_or(shared.lang, Language::from_locale)
}

fn code(lang: Language) -> &'static str {
    match lang {
        Language::English => "en",
        Language::Korean => "ko",
    }
}

async fn not_found(State(shared): State<Arc<TvShared>>, uri: Uri, headers: HeaderMap) -> Response {
    let lang = page_lang(&shared, &uri, &headers);
    refused(
        StatusCode::NOT_FOUND,
        "not_found",
        words::NOT_FOUND.get(lang),
    )
}

async fn state(State(shared): State<Arc<TvShared>>) -> Response {
    let view = Arc::clone(&shared.view.borrow());
    match serde_json::to_string(view.as_ref()) {
        Ok(json) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

async fn tv_page(State(shared): State<Arc<TvShared>>, uri: Uri) -> Response {
    let lang = query_value(&uri, "lang").map_or(shared.lang, Language::from_locale);
    let view = Arc::clone(&shared.view.borrow());
    let now = shared.host.now_ms();
    let board = board(lang, &view, &shared, now);
    Html(page(lang, &view.name, None, "/tv.js", now, &board, "")).into_response()
}

async fn table_page(
    State(shared): State<Arc<TvShared>>,
    Path(table): Path<String>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let lang = page_lang(&shared, &uri, &headers);
    let view = Arc::clone(&shared.view.borrow());
    let now = shared.host.now_ms();
    let number = table.parse::<u32>().ok();
    let key = query_value(&uri, "key").unwrap_or_default();
    let Some(t) = number.and_then(|n| view.tables.iter().find(|t| t.table == n)) else {
        if !key.is_empty() {
            // A page of an earlier round (its table may be gone): scan the new one.
            return Html(page(
                lang,
                &view.name,
                number,
                "/tv.js",
                now,
                &gone(lang),
                "",
            ))
            .into_response();
        }
        return refused(
            StatusCode::NOT_FOUND,
            "no_table",
            &words::no_table(lang, &table),
        );
    };
    let title = format!("{} · {}", view.name, cli_words::table(lang, t.table));
    let board = table_board(lang, &view, t);
    if key.is_empty() {
        return Html(page(lang, &title, Some(t.table), "/tv.js", now, &board, "")).into_response();
    }
    if key != t.key {
        return Html(page(
            lang,
            &title,
            Some(t.table),
            "/tv.js",
            now,
            &gone(lang),
            "",
        ))
        .into_response();
    }
    // The table's own link (its QR code) carries its key: the page for its phones.
    let play = format!(
        "<section id=\"play\" data-key=\"{key}\" data-players=\"{players}\"></section>\
         <script id=\"words\" type=\"application/json\">{words}</script>",
        key = esc(key),
        players = esc(&serde_json::to_string(&t.players).unwrap_or_default()),
        words = club_words::page_words(lang)
            .to_string()
            .replace("</", "<\\/"),
    );
    Html(page(
        lang,
        &title,
        Some(t.table),
        "/table.js",
        now,
        &board,
        &play,
    ))
    .into_response()
}

/// A page of an earlier round (or a link that is not this table's any more).
fn gone(lang: Language) -> String {
    format!(
        "<section class=\"gone\"><h1>{}</h1></section>",
        esc(club_words::SCAN_NEW.get(lang))
    )
}

fn json(status: StatusCode, value: &serde_json::Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        value.to_string(),
    )
        .into_response()
}

fn refused(status: StatusCode, code: &str, message: &str) -> Response {
    json(
        status,
        &serde_json::json!({ "ok": false, "error": code, "message": message }),
    )
}

/// `POST /table/<T>/act?lang=ko`: a phone of the table asks the host; answered once it is
/// done and, for what the table keeps, saved.
async fn act(
    State(shared): State<Arc<TvShared>>,
    Path(table): Path<String>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let lang = page_lang(&shared, &uri, &headers);
    let Ok(table) = table.parse::<u32>() else {
        return refused(
            StatusCode::NOT_FOUND,
            "no_table",
            &words::no_table(lang, &table),
        );
    };
    let Ok(request) = serde_json::from_slice::<PageRequest>(&body) else {
        return refused(
            StatusCode::BAD_REQUEST,
            "bad_request",
            club_words::BAD_REQUEST.get(lang),
        );
    };
    let host = Arc::clone(&shared.host);
    let done = tokio::task::spawn_blocking(move || host.act(table, request, lang)).await;
    match done {
        Ok(Ok(answer)) => json(
            StatusCode::OK,
            &serde_json::json!({ "ok": true, "saved": answer.saved, "device": answer.device }),
        ),
        Ok(Err(refusal)) => refused(
            StatusCode::from_u16(refusal.status).unwrap_or(StatusCode::CONFLICT),
            refusal.code,
            &refusal.message,
        ),
        Err(_) => refused(
            StatusCode::INTERNAL_SERVER_ERROR,
            "failed",
            club_words::FAILED.get(lang),
        ),
    }
}

/// The feeds. The TV page (no `table`): the whole board at once, then only the parts that
/// changed. A table's page (`table=T`): its table's part, only when it changed; with the
/// page's `key` (a round's key) it is told when its round is over, and with its `device`
/// which seat is its own.
async fn events(
    State(shared): State<Arc<TvShared>>,
    uri: Uri,
    headers: HeaderMap,
) -> Sse<impl Stream<Item = Result<SseEvent, Infallible>>> {
    let table = query_value(&uri, "table").and_then(|t| t.parse::<u32>().ok());
    let lang = if table.is_some() {
        page_lang(&shared, &uri, &headers)
    } else {
        query_value(&uri, "lang").map_or(shared.lang, Language::from_locale)
    };
    let key = query_value(&uri, "key").map(str::to_owned);
    let device = query_value(&uri, "device").map(str::to_owned);
    let mut seen = shared.view.subscribe();
    seen.mark_changed();
    let feed = stream::unfold(
        (seen, shared, HashMap::<String, String>::new()),
        move |(mut seen, shared, mut sent)| {
            let (key, device) = (key.clone(), device.clone());
            async move {
                loop {
                    seen.changed().await.ok()?;
                    let view = Arc::clone(&seen.borrow_and_update());
                    let now_ms = shared.host.now_ms();
                    let data = match table {
                        None => tv_message(lang, &view, &shared, &mut sent, now_ms),
                        Some(n) => table_message(
                            lang,
                            &view,
                            n,
                            key.as_deref(),
                            device.as_deref(),
                            &mut sent,
                            now_ms,
                        ),
                    };
                    let Some(data) = data else { continue };
                    return Some((
                        Ok(SseEvent::default().event("state").data(data)),
                        (seen, shared, sent),
                    ));
                }
            }
        },
    );
    let ping = SseEvent::default().event("ping").data("1");
    Sse::new(feed).keep_alive(KeepAlive::new().interval(KEEP_ALIVE).event(ping))
}

/// The TV page's message: the whole board the first time, then the parts that changed since
/// what this page was sent (`None` when nothing did).
fn tv_message(
    lang: Language,
    view: &TvView,
    shared: &TvShared,
    sent: &mut HashMap<String, String>,
    now_ms: u64,
) -> Option<String> {
    let parts = board_parts(lang, view, shared, now_ms);
    let same_layout = !sent.is_empty()
        && parts.len() == sent.len()
        && parts.iter().all(|(id, _)| sent.contains_key(id));
    let message = if same_layout {
        // A card sent again empties its live line: its live line goes with it.
        let cards: Vec<String> = parts
            .iter()
            .filter(|(id, html)| !id.ends_with("-live") && sent.get(id) != Some(html))
            .map(|(id, _)| format!("{id}-live"))
            .collect();
        let changed: serde_json::Map<String, serde_json::Value> = parts
            .iter()
            .filter(|(id, html)| sent.get(id) != Some(html) || cards.contains(id))
            .map(|(id, html)| (id.clone(), html.clone().into()))
            .collect();
        if changed.is_empty() {
            return None;
        }
        serde_json::json!({ "parts": changed, "now_ms": now_ms, "summary": summary(view) })
    } else {
        serde_json::json!({
            "html": board(lang, view, shared, now_ms),
            "now_ms": now_ms,
            "summary": summary(view),
        })
    };
    *sent = parts.into_iter().collect();
    Some(message.to_string())
}

/// What every TV message says of the round in a few bytes (for tools and tests; the page uses
/// the HTML).
fn summary(view: &TvView) -> serde_json::Value {
    serde_json::json!({
        "round": view.round,
        "complete": view.complete,
        "playing": view.playing,
        "standings_round": view.standings_round,
    })
}

/// A table page's message, when what it shows changed.
fn table_message(
    lang: Language,
    view: &TvView,
    n: u32,
    key: Option<&str>,
    device: Option<&str>,
    sent: &mut HashMap<String, String>,
    now_ms: u64,
) -> Option<String> {
    let t = view.tables.iter().find(|t| t.table == n);
    let gone_now = match (key, t) {
        (Some(key), Some(t)) => key != t.key,
        (Some(_), None) => true,
        (None, _) => false,
    };
    let part = if gone_now {
        serde_json::json!({ "gone": true, "html": gone(lang) })
    } else {
        let mut part = table_part(lang, view, n);
        if let (Some(t), Some(device)) = (t, device) {
            part["you"] = t
                .devices
                .iter()
                .position(|d| d.as_deref() == Some(device))
                .into();
        }
        part
    };
    let text = part.to_string();
    if sent.get("table") == Some(&text) {
        return None;
    }
    sent.insert("table".into(), text);
    let mut part = part;
    part["now_ms"] = now_ms.into();
    Some(part.to_string())
}

/// What a table's page is sent: its table of the view, its racks and problem worded in the
/// page's language, its board, the round clock.
fn table_part(lang: Language, view: &TvView, n: u32) -> serde_json::Value {
    let Some(t) = view.tables.iter().find(|t| t.table == n) else {
        let html = format!("<p>{}</p>", esc(&words::no_table(lang, &n.to_string())));
        return serde_json::json!({ "table": null, "html": html });
    };
    let racks: Option<Vec<Option<String>>> = t.settling.as_ref().map(|s| {
        s.hands
            .iter()
            .map(|h| h.as_ref().map(|h| rack_text(lang, h)))
            .collect()
    });
    let problem = t
        .settling
        .as_ref()
        .and_then(|s| s.problem.as_ref())
        .map(|e| crate::i18n::score_error(lang, e));
    serde_json::json!({
        "table": t,
        "racks": racks,
        "problem": problem,
        "round": view.round,
        "round_ends_at_ms": view.round_ends_at_ms,
        "html": table_board(lang, view, t),
    })
}

/// A rack as the table calls its tiles (`빨5 조커` in Korean).
fn rack_text(lang: Language, hand: &crate::score::Hand) -> String {
    use crate::score::Remaining;
    let text = match &hand.left {
        Remaining::Tiles(tiles) if !tiles.is_empty() => tiles
            .iter()
            .map(|&t| crate::i18n::tile(lang, t))
            .collect::<Vec<_>>()
            .join(" "),
        other => other.to_string(),
    };
    if hand.not_melded {
        format!("{text} ({})", club_words::PAGE_NOT_MELDED.get(lang))
    } else {
        text
    }
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

/// A whole page around its board; `tv.js` keeps the board live. `data-now` is the host's
/// clock when the page was made: the clocks' `data-ends-at` are on it.
fn page(
    lang: Language,
    title: &str,
    table: Option<u32>,
    script: &str,
    now_ms: u64,
    board: &str,
    extra: &str,
) -> String {
    let table = table.map(|t| t.to_string()).unwrap_or_default();
    format!(
        "<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><link rel=\"stylesheet\" href=\"/tv.css\">\
         <script src=\"{script}\" defer></script></head>\
         <body data-lang=\"{lang}\" data-table=\"{table}\" data-now=\"{now_ms}\">\
         <p id=\"offline\" hidden>{offline}</p><main id=\"board\">{board}</main>{extra}\
         </body></html>\n",
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

/// The seats in order and who starts. When every seat starts as many games as the others
/// (games a multiple of seats), seat 1 is marked "starts" and the rest follow in turn; else
/// the seats that start more games than the fewest are marked with how many. One mark at most
/// per line and few of them, so a 1080p TV keeps six tables on a screen.
fn seat_list(lang: Language, table: &TvTable) -> String {
    let counts: Vec<usize> = (0..table.players.len())
        .map(|seat| table.starts.iter().filter(|&&s| s == seat).count())
        .collect();
    let fewest = counts.iter().min().copied().unwrap_or_default();
    let even = counts.iter().all(|&c| c == fewest);
    let mut out = String::from("<ol class=\"seats\">");
    for (i, name) in table.players.iter().enumerate() {
        let starts = counts.get(i).copied().unwrap_or_default();
        let mark = if even && i == 0 && starts > 0 {
            Some(words::STARTS.get(lang).to_owned())
        } else if !even && starts > fewest {
            Some(club_words::starts(lang, starts))
        } else {
            None
        };
        let mark = mark
            .map(|m| format!(" <small>({})</small>", esc(&m)))
            .unwrap_or_default();
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

/// `m:ss`.
fn mm_ss(ms: u64) -> String {
    let secs = ms.div_ceil(1000);
    format!("{}:{:02}", secs / 60, secs % 60)
}

/// A table's clock and games, live: whose turn it is and its time (`tv.js` / `table.js`
/// count `data-ends-at` down on the host's clock), or how far the racks are confirmed; a
/// finished table's games, points and winner.
fn live_line(lang: Language, t: &TvTable) -> String {
    let mut out = String::new();
    if t.finished {
        return results(lang, t);
    }
    if let Some(s) = &t.settling {
        let done = s.confirmed.iter().filter(|c| **c).count();
        let _ = write!(
            out,
            "<p class=\"live settling\">{}</p>",
            esc(&club_words::settling(lang, done, s.confirmed.len()))
        );
    } else if let Some(seat) = t.turn {
        let name = t.players.get(seat).map_or("", String::as_str);
        let clock = match (t.ends_at_ms, t.left_ms) {
            (Some(ends), _) => format!("<span class=\"clock\" data-ends-at=\"{ends}\"></span>"),
            (None, Some(left)) => format!(
                "<span class=\"clock paused\">{} · {}</span>",
                mm_ss(left),
                esc(club_words::PAGE_PAUSED.get(lang))
            ),
            _ => String::new(),
        };
        let _ = write!(
            out,
            "<p class=\"live\"><span class=\"turn\">{}</span> {clock}</p>",
            esc(&club_words::to_play(lang, name))
        );
    }
    let _ = write!(
        out,
        "<p class=\"games\">{}</p>",
        esc(&club_words::games_done(lang, t.games_done, t.games))
    );
    out
}

/// A finished table's games: a row per player (in seat order) with each game's points and the
/// total, each game's winner marked (`won`), the table's winners (most points) named under it. Players are rows so a card holds four games at the TV's type size.
fn results(lang: Language, t: &TvTable) -> String {
    if t.results.is_empty() {
        return String::new();
    }
    let totals: Vec<i64> = (0..t.players.len())
        .map(|seat| t.results.iter().filter_map(|g| g.points.get(seat)).sum())
        .collect();
    let best = totals.iter().max().copied().unwrap_or_default();
    let mut out = String::from("<table class=\"results\"><thead><tr><th></th>");
    for g in 1..=t.results.len() {
        let _ = write!(out, "<th>{g}</th>");
    }
    out.push_str("<th>Σ</th></tr></thead><tbody>");
    for (seat, name) in t.players.iter().enumerate() {
        let first = totals.get(seat) == Some(&best);
        let _ = write!(
            out,
            "<tr{}><th>{}</th>",
            if first { " class=\"first\"" } else { "" },
            esc(name)
        );
        for game in &t.results {
            let points = game.points.get(seat).copied().unwrap_or_default();
            let class = if seat == game.winner {
                " class=\"won\""
            } else {
                ""
            };
            let _ = write!(out, "<td{class}>{points:+}</td>");
        }
        let total = totals.get(seat).copied().unwrap_or_default();
        let _ = write!(out, "<td class=\"total\">{total:+}</td></tr>");
    }
    out.push_str("</tbody></table>");
    let winners: Vec<&str> = t
        .players
        .iter()
        .zip(&totals)
        .filter(|&(_, &p)| p == best)
        .map(|(n, _)| n.as_str())
        .collect();
    let _ = write!(
        out,
        "<p class=\"winner\">{}</p>",
        esc(&club_words::table_winner(lang, &winners))
    );
    out
}

/// The round clock: minutes left (as of `now_ms`), counted down by `tv.js`.
fn round_clock(lang: Language, view: &TvView, now_ms: u64) -> String {
    let Some(ends) = view.round_ends_at_ms else {
        return String::new();
    };
    let left = ends.saturating_sub(now_ms);
    let text = if left == 0 {
        club_words::ROUND_OVER.get(lang).to_owned()
    } else {
        club_words::ROUND_LEFT
            .get(lang)
            .replace("{m}", &left.div_ceil(60_000).to_string())
    };
    format!(
        "<p id=\"round-clock\" data-ends-at=\"{ends}\" data-template=\"{}\" data-over=\"{}\">{}</p>",
        esc(club_words::ROUND_LEFT.get(lang)),
        esc(club_words::ROUND_OVER.get(lang)),
        esc(&text)
    )
}

/// The heading: the event, the round and its clock, the rules.
fn head(lang: Language, view: &TvView, now_ms: u64) -> String {
    let mut out = format!("<header id=\"head\"><h1>{}</h1>", esc(&view.name));
    if view.round == 0 {
        let _ = write!(out, "<p>{}</p></header>", esc(words::NOT_SEATED.get(lang)));
        return out;
    }
    let _ = write!(
        out,
        "<h2 id=\"round\">{}</h2>{}<p class=\"rules\">{}</p></header>",
        esc(&cli_words::stage_heading(lang, view.stage, view.round)),
        round_clock(lang, view, now_ms),
        esc(&crate::i18n::event::tv::rules(lang, &view.rules))
    );
    out
}

/// A table's card: its link and QR code, its seats, and its live line (a part of its own).
fn table_card(lang: Language, t: &TvTable, shared: &TvShared) -> String {
    let link = shared.link(t);
    format!(
        "<article class=\"table\" id=\"t{n}\" data-table=\"{n}\" data-finished=\"{f}\">\
         <h3><a href=\"{link}\">{title}</a> {status}</h3><div class=\"card\">\
         <div class=\"info\">{seats}<div id=\"t{n}-live\">{live}</div></div>\
         <figure>{qr}<figcaption>{scan}</figcaption></figure></div></article>",
        n = t.table,
        f = t.finished,
        link = esc(&link),
        title = esc(&cli_words::table(lang, t.table)),
        status = status(lang, t.finished),
        seats = seat_list(lang, t),
        live = live_line(lang, t),
        qr = if t.finished {
            "".into()
        } else {
            shared.qr(&link)
        },
        scan = if t.finished {
            String::new()
        } else {
            esc(words::SCAN.get(lang))
        },
    )
}

/// The TV board's parts, each with the id of the element it fills: the heading, each table's
/// card, each table's live line, the standings. A tap changes one table's live line.
fn board_parts(
    lang: Language,
    view: &TvView,
    shared: &TvShared,
    now_ms: u64,
) -> Vec<(String, String)> {
    let mut parts = vec![("head".to_owned(), head(lang, view, now_ms))];
    for t in &view.tables {
        let mut card = t.clone();
        // The card without its live line, so a change of the line alone is one small part.
        card.settling = None;
        card.turn = None;
        card.turn_id = None;
        card.running = false;
        card.ends_at_ms = None;
        card.left_ms = None;
        card.games_done = 0;
        card.held = Vec::new();
        parts.push((format!("t{}", t.table), table_card(lang, &card, shared)));
        parts.push((format!("t{}-live", t.table), live_line(lang, t)));
    }
    parts.push(("standings".to_owned(), standings(lang, view)));
    parts
}

/// The TV page's board: the heading, every table, the standings.
fn board(lang: Language, view: &TvView, shared: &TvShared, now_ms: u64) -> String {
    let mut out = head(lang, view, now_ms);
    if view.round == 0 {
        return out;
    }
    let _ = write!(
        out,
        "<section class=\"tables\" aria-label=\"{}\">",
        esc(words::TABLES.get(lang))
    );
    for t in &view.tables {
        out.push_str(&table_card(lang, t, shared));
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
        let _ = write!(out, "<p>{}</p>", esc(&words::no_standings(lang, 1)));
    } else if view.divisions.is_empty() {
        let heading = words::standings_after(lang, view.standings_round);
        out.push_str(&standings_table(lang, &heading, &view.standings));
    } else {
        // Each division ranked among its own players.
        for division in &view.divisions {
            let heading = format!(
                "{} · {}",
                words::standings_after(lang, view.standings_round),
                division.name
            );
            out.push_str(&standings_table(lang, &heading, &division.standings));
        }
    }
    if let Some(season) = &view.season {
        out.push_str(&season_table(lang, season));
    }
    out.push_str("</section>");
    out
}

/// A standings table under its heading (a placement column when the event ranks by it).
fn standings_table(lang: Language, heading: &str, rows: &[TvStanding]) -> String {
    let placement = rows.iter().any(|s| s.placement.is_some());
    let mut out = format!("<h2>{}</h2><table><thead><tr>", esc(heading));
    for column in cli_words::COLUMNS {
        let _ = write!(out, "<th>{}</th>", esc(column.get(lang)));
    }
    if placement {
        let _ = write!(out, "<th>{}</th>", esc(words::PLACEMENT.get(lang)));
    }
    out.push_str("</tr></thead><tbody>");
    for s in rows {
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:+}</td><td>{}</td>",
            s.rank,
            esc(&s.name),
            s.wins,
            s.points,
            s.games
        );
        if let Some(units) = s.placement {
            let _ = write!(
                out,
                "<td>{}</td>",
                esc(&crate::event::format::placement_text(units))
            );
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

/// A season's standings: rank, name, club, points, events.
fn season_table(lang: Language, season: &TvSeason) -> String {
    let mut out = format!(
        "<section class=\"season\"><h2>{}</h2><table><thead><tr>",
        esc(&crate::i18n::event::season::heading(
            lang,
            &season.name,
            season.events,
            None
        ))
    );
    for column in crate::i18n::event::season::COLUMNS {
        let _ = write!(out, "<th>{}</th>", esc(column.get(lang)));
    }
    out.push_str("</tr></thead><tbody>");
    for (rank, name, club, points, events) in &season.rows {
        let _ = write!(
            out,
            "<tr><td>{rank}</td><td>{}</td><td>{}</td><td>{points}</td><td>{events}</td></tr>",
            esc(name),
            esc(club.as_deref().unwrap_or(""))
        );
    }
    out.push_str("</tbody></table></section>");
    out
}

/// A table's page: its seating, whether its result is in, its clock and games.
fn table_board(lang: Language, view: &TvView, table: &TvTable) -> String {
    format!(
        "<header><h1>{name}</h1><h2>{round} · {title}</h2></header>\
         <section class=\"table\" data-table=\"{n}\" data-finished=\"{f}\">\
         <p>{status}</p>{seats}{live}</section>",
        live = live_line(lang, table),
        name = esc(&view.name),
        round = esc(&cli_words::round(lang, view.round)),
        title = esc(&cli_words::table(lang, table.table)),
        n = table.table,
        f = table.finished,
        status = status(lang, table.finished),
        seats = seat_list(lang, table),
    )
}
