//! The phones switch: the phone server's life in the window (start, stop, a new secret per
//! evening), the link and its QR code, and turning each phone's request into the app's own
//! action so that it goes through the same guard and undo history as a click.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use egui::{Color32, Rect, Sense, Ui, Vec2};

use crate::server::{
    self, PhoneRequest, PhoneServer, Refusal, Secret, ServerOptions, TableState, lan_addresses,
    qr_modules,
};

/// The running server and what the window shows of it.
pub struct Phones {
    server: Option<PhoneServer>,
    /// The link the QR code carries.
    url: Option<String>,
    /// The QR code: width in modules and the dark modules, row by row.
    qr: Option<(usize, Vec<bool>)>,
    /// Why the server could not start (e.g. the port is in use).
    pub error: Option<String>,
    /// Counts evenings: a page from an earlier evening sees the number change.
    evening: u64,
    /// Where the server listens (kept for the next evening's server).
    bind: Option<SocketAddr>,
}

impl std::fmt::Debug for Phones {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Phones")
            .field("on", &self.server.is_some())
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

impl Default for Phones {
    fn default() -> Self {
        Phones {
            server: None,
            url: None,
            qr: None,
            error: None,
            evening: 1,
            bind: None,
        }
    }
}

impl Phones {
    /// Whether the server runs.
    pub fn is_on(&self) -> bool {
        self.server.is_some()
    }

    /// The link to open on the phones, while the server runs.
    pub fn url(&self) -> Option<&str> {
        self.url.as_deref()
    }

    /// The evening number the pages see.
    pub fn evening(&self) -> u64 {
        self.evening
    }

    /// Starts the server on `bind` with a new secret (every older link stops working).
    pub fn start(
        &mut self,
        bind: SocketAddr,
        state: TableState,
        wake: impl Fn() + Send + Sync + 'static,
    ) {
        self.stop();
        let secret = match Secret::random() {
            Ok(secret) => secret,
            Err(e) => {
                self.error = Some(e.to_string());
                return;
            }
        };
        let mut options = ServerOptions::new(secret);
        options.bind = bind;
        self.bind = Some(bind);
        match PhoneServer::start(options, state, wake) {
            Ok(server) => {
                let host = if bind.ip().is_loopback() {
                    bind.ip()
                } else {
                    lan_addresses()
                        .into_iter()
                        .next()
                        .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))
                };
                let url = server.url(host);
                self.qr = qr_modules(&url);
                self.url = Some(url);
                self.error = None;
                self.server = Some(server);
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Stops the server: every page is disconnected and every link stops working.
    pub fn stop(&mut self) {
        if let Some(server) = self.server.take() {
            server.stop();
        }
        self.url = None;
        self.qr = None;
    }

    /// A new evening: a new secret on the same address, so the old links stop working.
    pub fn new_evening(&mut self, state: TableState, wake: impl Fn() + Send + Sync + 'static) {
        self.evening += 1;
        if let (true, Some(bind)) = (self.is_on(), self.bind) {
            self.start(bind, state, wake);
        }
    }

    /// The phones' requests waiting for the app.
    pub fn take_requests(&self) -> Vec<PhoneRequest> {
        let Some(server) = &self.server else {
            return Vec::new();
        };
        std::iter::from_fn(|| server.try_next()).collect()
    }

    /// Pushes the table's state to every page (only when it changed in a way a page cannot
    /// predict, so this may be called every frame).
    pub fn publish(&self, state: TableState) {
        if let Some(server) = &self.server {
            server.publish(state);
        }
    }

    /// Paints the QR code, `side` points square, dark modules on a white field with the quiet
    /// zone a scanner needs.
    pub fn qr_ui(&self, ui: &mut Ui, side: f32) {
        let Some((width, modules)) = &self.qr else {
            return;
        };
        let (rect, _) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
        let painter = ui.painter();
        painter.rect_filled(rect, 4.0, Color32::WHITE);
        let quiet = 4.0;
        let cell = side / (*width as f32 + 2.0 * quiet);
        for (i, dark) in modules.iter().enumerate() {
            if *dark {
                let (x, y) = ((i % width) as f32, (i / width) as f32);
                let min = rect.min + Vec2::new((x + quiet) * cell, (y + quiet) * cell);
                painter.rect_filled(
                    Rect::from_min_size(min, Vec2::splat(cell)),
                    0.0,
                    Color32::BLACK,
                );
            }
        }
    }
}

/// Where the server listens for the table: every interface of this machine, on `port`
/// (requests from outside the local network ranges are refused by the server).
pub fn table_bind(port: u16) -> SocketAddr {
    SocketAddr::from((Ipv4Addr::UNSPECIFIED, port))
}

/// Re-exported for the app: a refusal worded by the app.
pub fn rejected(why: String) -> Refusal {
    Refusal::Rejected(why)
}

/// The default port, shown in Settings.
pub const DEFAULT_PORT: u16 = server::DEFAULT_PORT;
