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

use std::collections::HashMap;
use std::convert::Infallible;
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::stream::{self, Stream};
use serde::Serialize;
use tokio::sync::{oneshot, watch};

use super::club::{ClubHost, HostRefusal};
use super::http::{self, Limits, Peer};
use super::net::{is_local_peer, qr_modules};
use crate::event::Event;
use crate::event::live::TableCommand;
use crate::i18n::club as club_words;
use crate::i18n::event::{cli as cli_words, tv as words};
use crate::lang::Language;
use crate::score::{Hand, Remaining};
use crate::store::{EventId, StoreError};
use crate::timer::Phase;

/// The port `event serve` listens on unless told otherwise.
pub const TV_PORT: u16 = 8765;

/// How often the event file's modification time is checked.
pub const WATCH_EVERY: Duration = Duration::from_millis(500);

const TV_JS: &str = include_str!("../../assets/web/tv.js");
const TV_CSS: &str = include_str!("../../assets/web/tv.css");
const TABLE_JS: &str = include_str!("../../assets/web/table.js");

/// The largest request body a table page sends (a rack is at most a few hundred bytes).
const MAX_BODY: usize = 4096;

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
    /// Games of the round its players confirmed on their phones.
    pub games_done: usize,
    /// Games a round has.
    pub games: u32,
    /// The seat whose turn it is, while the table's clock has a turn (running or paused).
    pub turn: Option<usize>,
    /// The table's clock runs.
    pub running: bool,
    /// While it runs: when the turn's time is up, in ms on the host's clock (`now_ms` of each
    /// message is the same clock, so a page counts down without asking).
    pub ends_at_ms: Option<u64>,
    /// While paused: the turn's time left, in ms.
    pub left_ms: Option<u64>,
    /// The game being settled on the phones.
    pub settling: Option<TvSettling>,
    /// The table's key (its link and QR code carry it; never in the JSON).
    #[serde(skip)]
    pub key: String,
}

/// The game being settled at a table: what the phones entered and who confirmed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TvSettling {
    /// Each seat's rack as entered (`R5 J`, a value), `None` until entered.
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
    /// When the round's clock runs out, in ms on the host's clock (`event serve
    /// --round-minutes`).
    pub round_ends_at_ms: Option<u64>,
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
                        games_done: t.result().map_or(0, |r| r.games.len()),
                        games: event.setup().games,
                        turn: None,
                        running: false,
                        ends_at_ms: None,
                        left_ms: None,
                        settling: None,
                        key: String::new(),
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
            round_ends_at_ms: None,
        }
    }

    /// The view of the tables at play: [`TvView::of`] the host's event, with each table's
    /// clock, games confirmed, racks being settled and key, and the round clock.
    pub fn of_host(host: &ClubHost) -> TvView {
        let mut view = TvView::of(host.event());
        let now = host.now();
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        view.round_ends_at_ms = host.round_ends().map(ms);
        for t in &mut view.tables {
            t.key = host.key(t.table).unwrap_or_default().to_owned();
            let Some(live) = host.tables().get(&t.table) else {
                continue;
            };
            if t.finished {
                continue;
            }
            t.games_done = live.games().len();
            let timer = live.timer();
            if timer.phase() != Phase::Idle {
                t.turn = Some(timer.current_player());
                t.running = live.is_running();
                let left = timer.remaining(now);
                if t.running {
                    // The same instant however late it is asked: when the turn began plus its
                    // length (the time over, once it ran out).
                    let at = if left.is_zero() {
                        now.saturating_sub(timer.overtime(now))
                    } else {
                        now + left
                    };
                    t.ends_at_ms = Some(ms(at));
                } else {
                    t.left_ms = Some(ms(left));
                }
            }
            t.settling = live.settling().map(|s| TvSettling {
                racks: s
                    .hands
                    .iter()
                    .map(|h| h.as_ref().map(|h| h.left.to_string()))
                    .collect(),
                not_melded: s
                    .hands
                    .iter()
                    .map(|h| h.as_ref().is_some_and(|h| h.not_melded))
                    .collect(),
                winner: s.winner,
                confirmed: s.confirmed.clone(),
                points: live
                    .settling_score()
                    .and_then(Result::ok)
                    .map(|scored| scored.points),
                hands: s.hands.clone(),
                problem: live.settling_score().and_then(Result::err),
            });
        }
        view
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
    /// The round's length on the TV's round clock, if it has one.
    pub round_minutes: Option<u32>,
    /// Connections served at once (each phone and TV page holds one); a club night of 25
    /// tables needs about 110.
    pub max_connections: usize,
}

/// Connections `event serve` serves at once unless told otherwise: 25 tables of 4 phones, 2 TV
/// pages and room to spare.
pub const TV_MAX_CONNECTIONS: usize = 160;

struct TvShared {
    lang: Language,
    /// `http://host:port`, for the tables' links.
    base: String,
    view: watch::Sender<Arc<TvView>>,
    /// The tables at play: phones' requests and the file watch go through it.
    host: Mutex<ClubHost>,
    /// Each link's QR code, drawn once.
    qr: Mutex<HashMap<String, Arc<str>>>,
}

impl TvShared {
    fn host(&self) -> std::sync::MutexGuard<'_, ClubHost> {
        self.host.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Pushes the host's view to every page, if it shows something new.
    fn publish(&self, view: TvView) {
        self.view.send_if_modified(|old| {
            if **old == view {
                false
            } else {
                *old = Arc::new(view);
                true
            }
        });
    }

    /// The host's clock, in ms.
    fn now_ms(&self) -> u64 {
        u64::try_from(self.host().now().as_millis()).unwrap_or(u64::MAX)
    }

    fn qr(&self, link: &str) -> Arc<str> {
        let mut cache = self.qr.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(
            cache
                .entry(link.to_owned())
                .or_insert_with(|| qr_svg(link).into()),
        )
    }
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
        let host = ClubHost::open(
            options.data_dir.clone(),
            options.event.clone(),
            options.round_minutes,
        )
        .map_err(TvError::Store)?;
        TvServer::start_with(options, host)
    }

    /// Serves `host` (the window's, recording through its event desk) as
    /// [`TvServer::start`] does; `options.data_dir` and `options.event` are the host's.
    pub fn start_with(options: TvOptions, mut host: ClubHost) -> Result<TvServer, TvError> {
        // Keys kept before the first QR code is shown; a folder another holds (the window)
        // keeps them in memory, and phones are told when a game cannot be saved.
        let _ = host.save_keys();
        let first = TvView::of_host(&host);
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
            view: watch::Sender::new(Arc::new(first)),
            host: Mutex::new(host),
            qr: Mutex::new(HashMap::new()),
        });
        let router = router(Arc::clone(&shared));
        let (stop_tx, stop_rx) = oneshot::channel();
        let limits = Limits {
            total: options.max_connections.max(8),
            per_peer: 8,
        };
        let thread = std::thread::Builder::new()
            .name("tv-server".into())
            .spawn(move || {
                runtime.spawn(watch_file(Arc::clone(&shared)));
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

/// Every [`WATCH_EVERY`] the host looks whether the event file changed (another process's
/// `event result`, a new seating) and, if so, pushes the new view.
async fn watch_file(shared: Arc<TvShared>) {
    let mut tick = tokio::time::interval(WATCH_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tick.tick().await;
        let shared = Arc::clone(&shared);
        let _ = tokio::task::spawn_blocking(move || {
            let view = {
                let mut host = shared.host();
                let changed = host.reload_if_changed();
                // A new round's keys are kept before its QR codes are shown (the folder may be
                // held by the window: then they are tried again at the next look).
                let _ = host.save_keys();
                changed.then(|| TvView::of_host(&host))
            };
            if let Some(view) = view {
                shared.publish(view);
            }
        })
        .await;
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
            get(|| async { asset("text/javascript; charset=utf-8", TABLE_JS) }),
        )
        .route(
            "/tv.js",
            get(|| async { asset("text/javascript; charset=utf-8", TV_JS) }),
        )
        .route(
            "/tv.css",
            get(|| async { asset("text/css; charset=utf-8", TV_CSS) }),
        )
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
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
        "/tv.js",
        &board(lang, &view, &shared, shared.now_ms()),
        "",
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
    let Some(t) = table
        .parse::<u32>()
        .ok()
        .and_then(|n| view.tables.iter().find(|t| t.table == n))
    else {
        return (StatusCode::NOT_FOUND, words::no_table(lang, &table)).into_response();
    };
    let title = format!("{} · {}", view.name, cli_words::table(lang, t.table));
    let board = table_board(lang, &view, t, shared.now_ms());
    // The table's own link (its QR code) carries its key: the page for its phones.
    let key = query_value(&uri, "key").unwrap_or_default();
    if !key.is_empty() && key == t.key {
        let play = format!(
            "<section id=\"play\" data-key=\"{key}\" data-players=\"{players}\"></section>\
             <script id=\"words\" type=\"application/json\">{words}</script>",
            key = esc(key),
            players = esc(&serde_json::to_string(&t.players).unwrap_or_default()),
            words = club_words::page_words(lang)
                .to_string()
                .replace("</", "<\\/"),
        );
        return Html(page(
            lang,
            &title,
            Some(t.table),
            "/table.js",
            &board,
            &play,
        ))
        .into_response();
    }
    Html(page(lang, &title, Some(t.table), "/tv.js", &board, "")).into_response()
}

/// What a table page sends.
#[derive(serde::Deserialize)]
struct ActRequest {
    key: String,
    #[serde(default)]
    seat: usize,
    action: String,
    #[serde(default)]
    rack: String,
    #[serde(default)]
    not_melded: bool,
    #[serde(default)]
    winner: Option<usize>,
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
/// done and, for a rack or a confirmation, saved.
async fn act(
    State(shared): State<Arc<TvShared>>,
    Path(table): Path<u32>,
    uri: Uri,
    body: String,
) -> Response {
    let lang = page_lang(&shared, &uri);
    let Ok(request) = serde_json::from_str::<ActRequest>(&body) else {
        return refused(
            StatusCode::BAD_REQUEST,
            "bad_request",
            club_words::BAD_REQUEST.get(lang),
        );
    };
    let seat = request.seat;
    let command = match request.action.as_str() {
        "start" => TableCommand::Start,
        "end_turn" => TableCommand::EndTurn { seat },
        "pause" => TableCommand::Pause,
        "resume" => TableCommand::Resume,
        "winner" => TableCommand::Winner {
            seat: request.winner,
        },
        "confirm" => TableCommand::Confirm { seat },
        "rack" => match request.rack.parse::<Remaining>() {
            Ok(left) => TableCommand::Rack {
                seat,
                hand: Hand {
                    left,
                    not_melded: request.not_melded,
                },
            },
            Err(e) => {
                let message = crate::i18n::remaining_error(lang, &e);
                return refused(StatusCode::UNPROCESSABLE_ENTITY, "bad_rack", &message);
            }
        },
        _ => {
            return refused(
                StatusCode::BAD_REQUEST,
                "bad_request",
                club_words::BAD_REQUEST.get(lang),
            );
        }
    };
    let host_shared = Arc::clone(&shared);
    let done = tokio::task::spawn_blocking(move || {
        let mut host = host_shared.host();
        let names = host
            .tables()
            .get(&table)
            .map(|t| t.players().names().to_vec())
            .unwrap_or_default();
        let acted = host.act(table, &request.key, command);
        let view = TvView::of_host(&host);
        drop(host);
        host_shared.publish(view);
        (acted, names)
    })
    .await;
    let Ok((acted, names)) = done else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    match acted {
        Ok(acted) => json(
            StatusCode::OK,
            &serde_json::json!({ "ok": true, "saved": acted.saved }),
        ),
        Err(refusal) => {
            let (status, code) = match &refusal {
                HostRefusal::NoSuchTable(_) => (StatusCode::NOT_FOUND, "no_table"),
                HostRefusal::WrongKey => (StatusCode::FORBIDDEN, "wrong_key"),
                HostRefusal::NotSaved(_) => (StatusCode::SERVICE_UNAVAILABLE, "not_saved"),
                _ => (StatusCode::CONFLICT, "refused"),
            };
            refused(status, code, &club_words::refusal(lang, &refusal, &names))
        }
    }
}

async fn not_found(State(shared): State<Arc<TvShared>>, uri: Uri) -> Response {
    let lang = page_lang(&shared, &uri);
    (StatusCode::NOT_FOUND, words::NOT_FOUND.get(lang)).into_response()
}

/// The feed: the view at once, then each change; `?table=T` sends that table's part (and
/// only when it changed: a tap at one table does not wake the phones of the others).
async fn events(
    State(shared): State<Arc<TvShared>>,
    uri: Uri,
) -> Sse<impl Stream<Item = Result<SseEvent, Infallible>>> {
    let lang = page_lang(&shared, &uri);
    let table = query_value(&uri, "table").and_then(|t| t.parse::<u32>().ok());
    let mut seen = shared.view.subscribe();
    seen.mark_changed();
    let feed = stream::unfold(
        (seen, shared, String::new()),
        move |(mut seen, shared, mut last)| async move {
            loop {
                seen.changed().await.ok()?;
                let view = Arc::clone(&seen.borrow_and_update());
                let now_ms = shared.now_ms();
                let data = match table {
                    None => serde_json::json!({
                        "view": view.as_ref(),
                        "html": board(lang, &view, &shared, now_ms),
                        "now_ms": now_ms,
                    })
                    .to_string(),
                    Some(n) => {
                        // Compared without the clock's relative times, which change each send.
                        let key = table_part(lang, &view, n, 0).to_string();
                        if key == last {
                            continue;
                        }
                        last = key;
                        let mut part = table_part(lang, &view, n, now_ms);
                        part["now_ms"] = now_ms.into();
                        part.to_string()
                    }
                };
                return Some((
                    Ok(SseEvent::default().event("state").data(data)),
                    (seen, shared, last),
                ));
            }
        },
    );
    let ping = SseEvent::default().event("ping").data("1");
    Sse::new(feed).keep_alive(KeepAlive::new().interval(KEEP_ALIVE).event(ping))
}

/// What a table's page is sent: its table of the view, its racks and problem worded in the
/// page's language, its board, the round clock.
fn table_part(lang: Language, view: &TvView, n: u32, now_ms: u64) -> serde_json::Value {
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
        "html": table_board(lang, view, t, now_ms),
    })
}

/// A rack as the table calls its tiles (`빨5 조커` in Korean).
fn rack_text(lang: Language, hand: &Hand) -> String {
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

/// A whole page around its board; `tv.js` keeps the board live.
fn page(
    lang: Language,
    title: &str,
    table: Option<u32>,
    script: &str,
    board: &str,
    extra: &str,
) -> String {
    let table = table.map(|t| t.to_string()).unwrap_or_default();
    format!(
        "<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><link rel=\"stylesheet\" href=\"/tv.css\">\
         <script src=\"{script}\" defer></script></head>\
         <body data-lang=\"{lang}\" data-table=\"{table}\">\
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

/// `m:ss`.
fn mm_ss(ms: u64) -> String {
    let secs = ms.div_ceil(1000);
    format!("{}:{:02}", secs / 60, secs % 60)
}

/// A table's clock and games, live: whose turn it is and its time (`tv.js` / `table.js` count
/// `data-ends-in` down from when the message came), or how far the racks are confirmed.
fn live_line(lang: Language, t: &TvTable, now_ms: u64) -> String {
    let mut out = String::new();
    if t.finished {
        return out;
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
            (Some(ends), _) => {
                let left = ends.saturating_sub(now_ms);
                format!(
                    "<span class=\"clock\" data-ends-in=\"{}\">{}</span>",
                    ends as i64 - now_ms as i64,
                    mm_ss(left)
                )
            }
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

/// The round clock: minutes left, counted down by `tv.js`.
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
        "<p id=\"round-clock\" data-ends-in=\"{}\" data-template=\"{}\" data-over=\"{}\">{}</p>",
        ends as i64 - now_ms as i64,
        esc(club_words::ROUND_LEFT.get(lang)),
        esc(club_words::ROUND_OVER.get(lang)),
        esc(&text)
    )
}

/// The TV page's board: heading and round clock, every table (its link and QR code, whose
/// turn, games done), the standings.
fn board(lang: Language, view: &TvView, shared: &TvShared, now_ms: u64) -> String {
    let mut out = format!("<header><h1>{}</h1>", esc(&view.name));
    if view.round == 0 {
        let _ = write!(out, "<p>{}</p></header>", esc(words::NOT_SEATED.get(lang)));
        return out;
    }
    let _ = write!(
        out,
        "<h2 id=\"round\">{}</h2>{}</header>",
        esc(&cli_words::round(lang, view.round)),
        round_clock(lang, view, now_ms)
    );
    let _ = write!(
        out,
        "<section class=\"tables\" aria-label=\"{}\">",
        esc(words::TABLES.get(lang))
    );
    for t in &view.tables {
        let link = format!(
            "{}/table/{}?lang={}&key={}",
            shared.base,
            t.table,
            code(lang),
            t.key
        );
        let _ = write!(
            out,
            "<article class=\"table\" data-table=\"{n}\" data-finished=\"{f}\">\
             <h3><a href=\"{link}\">{title}</a> {status}</h3><div class=\"card\">\
             <div class=\"info\">{seats}{live}</div>\
             <figure>{qr}<figcaption>{scan}</figcaption></figure></div></article>",
            n = t.table,
            f = t.finished,
            link = esc(&link),
            title = esc(&cli_words::table(lang, t.table)),
            status = status(lang, t.finished),
            seats = seat_list(lang, &t.players),
            live = live_line(lang, t, now_ms),
            qr = shared.qr(&link),
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

/// A table's page: its seating, whether its result is in, its clock and games.
fn table_board(lang: Language, view: &TvView, table: &TvTable, now_ms: u64) -> String {
    format!(
        "<header><h1>{name}</h1><h2>{round} · {title}</h2></header>\
         <section class=\"table\" data-table=\"{n}\" data-finished=\"{f}\">\
         <p>{status}</p>{seats}{live}</section>",
        live = live_line(lang, table, now_ms),
        name = esc(&view.name),
        round = esc(&cli_words::round(lang, view.round)),
        title = esc(&cli_words::table(lang, table.table)),
        n = table.table,
        f = table.finished,
        status = status(lang, table.finished),
        seats = seat_list(lang, &table.players),
    )
}
