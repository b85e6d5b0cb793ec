//! The phones as the table's buttons: the server's life in the evening (on, off, its link and
//! QR code, a new link when asked) and the host that carries a phone's request out as a
//! [`Command::Phone`] — the same guard, undo history and saving as a click.
//!
//! Why the link outlives a sheet: six players scanning a QR code again because someone started
//! a new sheet is friction nobody at a table accepts. The evening keeps its secret across new
//! sheets and restarts; "New link" (or turning phones off and on) makes a new one, and the old
//! link is answered 403 from then on.
//!
//! Which address the link names: the first of [`link_addresses`] (only addresses a phone can
//! reach: private IPv4, then unique-local IPv6; the default route's interface first; no
//! virtual or down interface). The server listens on IPv6 and IPv4 both (`[::]`, falling back
//! to `0.0.0.0` where the machine has no IPv6), so a network with only unique-local IPv6
//! addresses is offered too. The others are kept for the window's chooser; choosing one
//! ([`Command::ChooseAddress`]) re-makes the link and its QR code for that address with the
//! same secret, so phones that joined through another address keep working. The choice is
//! kept for the evening's next links while the app runs. When no address can be reached the
//! link is not shown at all ([`PhoneLink::unreachable`]): the window says so, and
//! [`Command::FindAddresses`] looks again once the laptop is on the phones' Wi-Fi.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use super::command::{Command, Refusal};
use super::{Evening, Shared, Waited};
use crate::i18n;
use crate::lang::Language;
use crate::server::{
    Acted, AddressLister, LinkAddress, PhoneAction, PhoneHost, PhoneServer, Rejection, Secret,
    ServerOptions, TableState, link_addresses, qr_modules,
};

/// How long a phone's answer waits for its change to reach the disk.
pub const SAVE_WAIT: Duration = Duration::from_secs(2);

/// The running server and what the window shows of it.
pub struct PhoneLink {
    server: Option<PhoneServer>,
    /// The link the QR code carries.
    url: Option<String>,
    /// The QR code: width in modules and the dark modules, row by row.
    qr: Option<(usize, Vec<bool>)>,
    /// Why the server could not start (e.g. the port is in use), in both languages.
    error: Option<super::Worded>,
    /// Counts links: a request from a page of an earlier link is refused.
    link: u64,
    /// The evening's secret, kept across new sheets (and, saved, across restarts).
    secret: Option<Secret>,
    /// The addresses the link may name, best first (while the server runs).
    addresses: Vec<LinkAddress>,
    /// The address the link names (one of `addresses`).
    chosen: Option<LinkAddress>,
    /// The address chosen in the window, used again by the next link if it is still there.
    preferred: Option<IpAddr>,
    /// Lists the addresses a link may name ([`link_addresses`], or a test's machine).
    list: AddressLister,
}

impl std::fmt::Debug for PhoneLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PhoneLink")
            .field("on", &self.server.is_some())
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

impl Default for PhoneLink {
    fn default() -> Self {
        PhoneLink {
            server: None,
            url: None,
            qr: None,
            error: None,
            link: 1,
            secret: None,
            addresses: Vec::new(),
            chosen: None,
            preferred: None,
            list: link_addresses,
        }
    }
}

impl PhoneLink {
    /// A link that lists the machine's addresses with `list` (the real machine's is
    /// [`link_addresses`]).
    pub fn listing(list: AddressLister) -> PhoneLink {
        PhoneLink {
            list,
            ..PhoneLink::default()
        }
    }

    /// Whether the server runs.
    pub fn is_on(&self) -> bool {
        self.server.is_some()
    }

    /// The link to open on the phones, while the server runs.
    pub fn url(&self) -> Option<&str> {
        self.url.as_deref()
    }

    /// The QR code of the link: width in modules and the dark modules, row by row.
    pub fn qr(&self) -> Option<&(usize, Vec<bool>)> {
        self.qr.as_ref()
    }

    /// Why the server could not start, in `lang`.
    pub fn error(&self, lang: Language) -> Option<&str> {
        self.error.as_ref().map(|why| why.get(lang))
    }

    /// The link number the pages see (it changes with every new link).
    pub fn evening(&self) -> u64 {
        self.link
    }

    /// The addresses of this machine the link may name, best first (the window's chooser),
    /// while the server runs.
    pub fn addresses(&self) -> &[LinkAddress] {
        &self.addresses
    }

    /// How this link lists the machine's addresses (tests list their own): the club night's
    /// tables are offered the same way.
    pub fn lister(&self) -> AddressLister {
        self.list
    }

    /// The address the link names, while the server runs.
    pub fn chosen(&self) -> Option<&LinkAddress> {
        self.chosen.as_ref()
    }

    /// The address the server listens on, while it runs.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.server.as_ref().map(PhoneServer::local_addr)
    }

    /// Starts the server on `bind` with the evening's secret (a new one the first time);
    /// `host` makes the host for this link's number. Nothing happens while it runs already.
    pub fn start(
        &mut self,
        bind: SocketAddr,
        state: TableState,
        host: impl FnOnce(u64) -> Arc<dyn PhoneHost>,
    ) {
        if self.server.is_some() {
            return;
        }
        let secret = match self.secret.clone().map(Ok).unwrap_or_else(Secret::random) {
            Ok(secret) => secret,
            Err(e) => {
                self.error = Some(super::Worded::new(|lang| i18n::io_error(lang, &e)));
                return;
            }
        };
        let mut options = ServerOptions::new(secret.clone());
        options.bind = bind;
        let host = host(self.link);
        let mut started = PhoneServer::start(options.clone(), state.clone(), Arc::clone(&host));
        // A machine without IPv6: the same port on every IPv4 interface.
        if started.is_err() && bind.is_ipv6() && bind.ip().is_unspecified() {
            options.bind = SocketAddr::from((Ipv4Addr::UNSPECIFIED, bind.port()));
            started = PhoneServer::start(options, state, host);
        }
        match started {
            Ok(server) => {
                self.error = None;
                self.secret = Some(secret);
                self.addresses = (self.list)(server.local_addr());
                self.server = Some(server);
                let ip = self
                    .preferred
                    .filter(|ip| self.addresses.iter().any(|a| a.ip == *ip));
                self.show(ip);
            }
            Err(e) => self.error = Some(super::Worded::new(|lang| i18n::io_error(lang, &e))),
        }
    }

    /// Makes the link name `ip` (the machine's addresses are listed again: the window's list
    /// may be older than a Wi-Fi change). The secret stays, so no phone scans again; the
    /// choice is kept for the next links. While the server is off, the choice waits for the
    /// next start.
    pub fn choose(&mut self, ip: IpAddr) -> Result<(), Refusal> {
        let Some(bind) = self.local_addr() else {
            self.preferred = Some(ip);
            return Ok(());
        };
        self.addresses = (self.list)(bind);
        if !self.addresses.iter().any(|a| a.ip == ip) {
            return Err(Refusal::NoSuchAddress(ip));
        }
        self.preferred = Some(ip);
        self.show(Some(ip));
        Ok(())
    }

    /// Lists the machine's addresses again (the laptop joined the phones' Wi-Fi since): the
    /// link names the chosen one if it is still there, else the best; the secret stays.
    pub fn find_addresses(&mut self) {
        let Some(bind) = self.local_addr() else {
            return;
        };
        self.addresses = (self.list)(bind);
        let ip = self
            .preferred
            .or(self.chosen.as_ref().map(|a| a.ip))
            .filter(|ip| self.addresses.iter().any(|a| a.ip == *ip));
        self.show(ip);
    }

    /// The server runs but no address of this machine can be reached by a phone: no link is
    /// shown (the window says so in words).
    pub fn unreachable(&self) -> bool {
        self.server.is_some() && self.url.is_none()
    }

    /// The link and its QR code for `ip` (the best address when `None`); none at all when
    /// no address can be reached.
    fn show(&mut self, ip: Option<IpAddr>) {
        let Some(server) = &self.server else {
            return;
        };
        let chosen = ip
            .and_then(|ip| self.addresses.iter().find(|a| a.ip == ip))
            .or_else(|| self.addresses.first())
            .cloned();
        let Some(chosen) = chosen else {
            self.url = None;
            self.qr = None;
            self.chosen = None;
            return;
        };
        let url = server.url(chosen.ip);
        self.qr = qr_modules(&url);
        self.url = Some(url);
        self.chosen = Some(chosen);
    }

    /// Stops the server: every page is disconnected and the link stops working (the next
    /// start makes a new one). Returns the server; dropping it ends it.
    pub fn stop(&mut self) -> Option<PhoneServer> {
        self.url = None;
        self.qr = None;
        self.addresses.clear();
        self.chosen = None;
        self.secret = None;
        self.link += 1;
        self.server.take()
    }

    /// The evening's secret, to be kept with the saved evening.
    pub fn secret(&self) -> Option<&Secret> {
        self.secret.as_ref()
    }

    /// Takes a secret kept from before (the next start uses it).
    pub fn keep_secret(&mut self, secret: Secret) {
        self.secret = Some(secret);
    }

    /// Pushes the table's state to every page (only when it changed in a way a page cannot
    /// predict).
    pub fn publish(&self, state: TableState) {
        if let Some(server) = &self.server {
            server.publish(state);
        }
    }
}

/// Where the server listens for the table: every interface of this machine, IPv6 and IPv4,
/// on `port` (requests from outside the local network ranges are refused by the server;
/// without IPv6 [`PhoneLink::start`] falls back to IPv4's `0.0.0.0`).
pub fn table_bind(port: u16) -> SocketAddr {
    SocketAddr::from((std::net::Ipv6Addr::UNSPECIFIED, port))
}

/// The host the server calls: it applies a phone's command to the evening and answers once
/// the change is on disk.
struct Host {
    evening: Weak<Mutex<Evening>>,
    link: u64,
}

/// The host for the server started now (its link number is the evening's current one).
pub(super) fn host(evening: Weak<Mutex<Evening>>, link: u64) -> Arc<dyn PhoneHost> {
    Arc::new(Host { evening, link })
}

impl PhoneHost for Host {
    fn act(&self, action: PhoneAction, lang: Language) -> Result<Acted, Rejection> {
        let Some(evening) = self.evening.upgrade() else {
            return Err(rejection(&Refusal::OldLink, lang));
        };
        let shared = Shared { evening };
        let (outcome, waited) = shared.apply_and_wait(
            Command::Phone {
                action,
                lang,
                link: self.link,
            },
            SAVE_WAIT,
        );
        match outcome {
            Ok(_) => Ok(Acted {
                saved: waited == Waited::Saved,
            }),
            Err(refusal) => Err(rejection(&refusal, lang)),
        }
    }
}

/// A refusal as a phone gets it: a status, a stable code and the words in its language.
fn rejection(refusal: &Refusal, lang: Language) -> Rejection {
    let (status, code) = match refusal {
        Refusal::NotYourTurn => (403, "not_your_turn"),
        Refusal::OldLink => (403, "forbidden"),
        Refusal::NoSuchSeat(_) => (404, "no_such_seat"),
        Refusal::StaleTurn | Refusal::Guarded => (409, "stale_turn"),
        Refusal::NotStarted => (409, "not_started"),
        Refusal::AlreadyStarted => (409, "already_started"),
        Refusal::NoForm => (409, "no_sheet"),
        Refusal::EditingSavedGame => (409, "editing_saved_game"),
        Refusal::NotOnSheet(_) => (409, "not_on_sheet"),
        Refusal::BadRack(_) | Refusal::RackTooLong(_) => (422, "bad_rack"),
        _ => (409, "rejected"),
    };
    Rejection::new(status, code, crate::evening::words::refusal(lang, refusal))
}
