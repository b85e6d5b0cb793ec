//! The secret in the link, which peers may talk to the server, the machine's addresses a link
//! may name, and the QR code that carries the link.
//!
//! Why the addresses are ranked the way they are: a laptop at a table often has more
//! interfaces than the Wi-Fi the phones are on (Docker's bridge, a VPN, a virtual machine's
//! network, an IPv6 address the server does not listen on, loopback). A link naming any of
//! those scans fine and then never loads. So only private IPv4 and unique-local IPv6
//! addresses are offered; the interface of the default route is where the laptop's own
//! traffic goes, so it is almost always the phones' network and comes first; the others stay
//! in the list for the window's chooser; and when nothing is left the caller says so instead
//! of showing a link that cannot work ([`LinkChoice`]). The choice is a pure function
//! ([`rank_link_addresses`]) of what the system lists, so it is tested with tables; reading
//! the system ([`link_addresses`], [`link_choice`]) is a few thin lines.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use subtle::ConstantTimeEq;

/// Random bytes in a secret: 128 bits.
const SECRET_BYTES: usize = 16;

/// The per-evening secret every request must carry: 128 random bits from the operating
/// system's CSPRNG, written as 32 lowercase hex digits (safe in a URL path).
///
/// Equality is constant-time, so a wrong guess learns nothing from how long the answer took.
/// `Debug` does not print it.
///
/// # Example
/// ```
/// use rummikub_companion::server::Secret;
/// let a = Secret::random().unwrap();
/// assert_eq!(a.as_str().len(), 32);
/// assert_ne!(a, Secret::random().unwrap());
/// assert!(a.matches(a.as_str()));
/// assert!(!a.matches("0123"));
/// ```
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    /// A new random secret. Fails only if the operating system has no random source.
    pub fn random() -> std::io::Result<Secret> {
        let mut bytes = [0u8; SECRET_BYTES];
        getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
        Ok(Secret(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// A secret kept from before (the evening's link survives a restart); `None` unless it
    /// has the form of one this module made.
    ///
    /// # Example
    /// ```
    /// use rummikub_companion::server::Secret;
    /// let a = Secret::random().unwrap();
    /// assert_eq!(Secret::from_saved(a.as_str()), Some(a));
    /// assert_eq!(Secret::from_saved("abc"), None);
    /// ```
    pub fn from_saved(text: &str) -> Option<Secret> {
        let ok = text.len() == SECRET_BYTES * 2
            && text
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        ok.then(|| Secret(text.to_owned()))
    }

    /// The text that goes into the link.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `candidate` is this secret, compared in constant time (for equal lengths; the
    /// length of a secret is no secret).
    pub fn matches(&self, candidate: &str) -> bool {
        self.0.as_bytes().ct_eq(candidate.as_bytes()).into()
    }
}

impl PartialEq for Secret {
    fn eq(&self, other: &Secret) -> bool {
        self.matches(&other.0)
    }
}

impl Eq for Secret {}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(…)")
    }
}

/// Whether a peer may talk to the server at all: loopback, private (10/8, 172.16/12,
/// 192.168/16), link-local (169.254/16, fe80::/10), or unique-local IPv6 (fc00::/7); IPv4
/// written as IPv6 (`::ffff:a.b.c.d`) counts as its IPv4 address. Anything else (the internet,
/// carrier-grade NAT, multicast) is refused.
///
/// # Example
/// ```
/// use rummikub_companion::server::is_local_peer;
/// assert!(is_local_peer("192.168.1.20".parse().unwrap()));
/// assert!(is_local_peer("fd12::7".parse().unwrap()));
/// assert!(!is_local_peer("8.8.8.8".parse().unwrap()));
/// ```
pub fn is_local_peer(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => local_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => local_v4(v4),
            None => v6.is_loopback() || unique_local(v6) || link_local_v6(v6),
        },
    }
}

fn local_v4(ip: Ipv4Addr) -> bool {
    ip.is_loopback() || ip.is_private() || ip.is_link_local()
}

fn unique_local(ip: Ipv6Addr) -> bool {
    ip.segments()[0] & 0xfe00 == 0xfc00
}

fn link_local_v6(ip: Ipv6Addr) -> bool {
    ip.segments()[0] & 0xffc0 == 0xfe80
}

/// An address of this machine to put in the phones' link, with the interface it is on (what
/// the window's chooser shows: `192.168.1.5 (wlan0)`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LinkAddress {
    /// The address.
    pub ip: IpAddr,
    /// The interface's name (`wlan0`, `eth0`, `en0`, …).
    pub interface: String,
}

/// One address of one interface, as the system lists it (the input of
/// [`rank_link_addresses`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterfaceAddress {
    /// The interface's name.
    pub interface: String,
    /// The address.
    pub ip: IpAddr,
    /// The interface is up and running (an interface that is down carries no phone's packets).
    pub up: bool,
}

/// The interfaces that carry this machine's default routes: where its traffic to the rest of
/// the network goes, so where the phones most likely are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DefaultRoutes {
    /// The IPv4 default route's interface.
    pub v4: Option<String>,
    /// The IPv6 default route's interface.
    pub v6: Option<String>,
}

/// What the server's socket accepts, which decides which addresses a link may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listening {
    /// Bound to one address: the link names it.
    Only(IpAddr),
    /// Bound to every interface, for these families.
    Any {
        /// IPv4 connections are accepted.
        v4: bool,
        /// IPv6 connections are accepted.
        v6: bool,
    },
}

impl Listening {
    /// What a socket bound to `bind` accepts: `0.0.0.0` is IPv4 only (so no IPv6 address may
    /// be offered: a phone could not connect to it); `::` is IPv6, and IPv4 too where the
    /// system makes such sockets dual-stack by default (Linux, macOS; not Windows).
    pub fn of(bind: IpAddr) -> Listening {
        match bind {
            IpAddr::V4(v4) if v4.is_unspecified() => Listening::Any {
                v4: true,
                v6: false,
            },
            IpAddr::V6(v6) if v6.is_unspecified() => Listening::Any {
                v4: !cfg!(windows),
                v6: true,
            },
            ip => Listening::Only(ip),
        }
    }

    fn accepts(self, ip: IpAddr) -> bool {
        match self {
            Listening::Only(only) => only == ip,
            Listening::Any { v4, v6 } => match ip {
                IpAddr::V4(_) => v4,
                IpAddr::V6(_) => v6,
            },
        }
    }
}

/// Interface names of virtual networks that phones are never on: containers and their bridges
/// (`docker0`, `br-1a2b…`, `veth…`, `cni…`, `podman…`, `lxcbr…`), virtual machines (`virbr…`,
/// `vmnet…`, `vboxnet…`, Windows' `vEthernet (…)`), and tunnels and VPNs (`tun…`, `tap…`,
/// `utun…`, `wg…`, `zt…`, `tailscale…`). Compared without regard to case.
const VIRTUAL_PREFIXES: [&str; 17] = [
    "docker",
    "br-",
    "veth",
    "cni",
    "flannel",
    "podman",
    "lxcbr",
    "lxdbr",
    "virbr",
    "vmnet",
    "vboxnet",
    "vethernet",
    "tun",
    "tap",
    "utun",
    "wg",
    "zt",
];

/// Whether an interface's name says it is a virtual network phones are never on (see
/// [`rank_link_addresses`]).
///
/// # Example
/// ```
/// use rummikub_companion::server::is_virtual_interface;
/// assert!(is_virtual_interface("docker0") && is_virtual_interface("veth3f2a1b"));
/// assert!(!is_virtual_interface("wlan0") && !is_virtual_interface("eth0"));
/// ```
pub fn is_virtual_interface(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.starts_with("tailscale") || VIRTUAL_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// The addresses a phone's link may name, best first, from the machine's interfaces, its
/// default routes and what the server listens on. Pure: [`link_addresses`] reads the inputs
/// from the system, and [`LinkChoice::of`] says what to offer.
///
/// Only addresses a phone on the table's network can reach are offered: **private IPv4**
/// (10/8, 172.16/12, 192.168/16), **then unique-local IPv6** (fc00::/7), of interfaces that
/// are up and not virtual ([`is_virtual_interface`]), of a family the server listens on (a
/// server on `0.0.0.0` offers no IPv6 address). Never loopback (a phone that opens
/// `127.0.0.1` opens itself), link-local (a link would need a zone id, and a phone rarely sits
/// on a self-assigned network) or a global address (the server refuses peers from outside the
/// local ranges, so a phone that reaches one is refused). Within each family the default
/// route's interface comes first, then by interface name and address, so the order is stable.
/// A server bound to one address offers that address only (whoever bound it chose it:
/// `event serve --bind`, a test on loopback). An empty list means no phone can reach this machine: the caller says so plainly rather than show a
/// link that cannot work.
///
/// # Example
/// ```
/// use rummikub_companion::server::{
///     DefaultRoutes, InterfaceAddress, Listening, rank_link_addresses,
/// };
/// let on = |interface: &str, ip: &str| InterfaceAddress {
///     interface: interface.into(), ip: ip.parse().unwrap(), up: true,
/// };
/// let interfaces = [on("docker0", "172.17.0.1"), on("eth0", "10.0.0.9"), on("wlan0", "192.168.1.5"), on("wlan0", "fd00::5")];
/// let routes = DefaultRoutes { v4: Some("wlan0".into()), v6: None };
/// let ipv4_only = Listening::Any { v4: true, v6: false };
/// let ranked = rank_link_addresses(&interfaces, &routes, ipv4_only);
/// let ips: Vec<String> = ranked.iter().map(|a| a.ip.to_string()).collect();
/// assert_eq!(ips, ["192.168.1.5", "10.0.0.9"]);
/// ```
pub fn rank_link_addresses(
    interfaces: &[InterfaceAddress],
    routes: &DefaultRoutes,
    listening: Listening,
) -> Vec<LinkAddress> {
    let address = |i: &InterfaceAddress| LinkAddress {
        ip: i.ip,
        interface: i.interface.clone(),
    };
    if let Listening::Only(ip) = listening {
        let interface = interfaces
            .iter()
            .find(|i| i.ip == ip)
            .map(|i| i.interface.clone())
            .unwrap_or_default();
        return vec![LinkAddress { ip, interface }];
    }
    let on_default_route = |i: &InterfaceAddress| {
        Some(&i.interface) == routes.v4.as_ref() || Some(&i.interface) == routes.v6.as_ref()
    };
    let mut ranked: Vec<(u8, &InterfaceAddress)> = interfaces
        .iter()
        .filter(|i| i.up && listening.accepts(i.ip) && !is_virtual_interface(&i.interface))
        .filter_map(|i| phone_reachable(i.ip).map(|rank| (rank, i)))
        .collect();
    ranked.sort_by(|(rank_a, a), (rank_b, b)| {
        (rank_a, !on_default_route(a))
            .cmp(&(rank_b, !on_default_route(b)))
            .then_with(|| a.interface.cmp(&b.interface))
            .then_with(|| a.ip.cmp(&b.ip))
    });
    let mut seen = std::collections::HashSet::new();
    ranked
        .into_iter()
        .map(|(_, i)| i)
        .filter(|i| seen.insert(i.ip))
        .map(address)
        .collect()
}

/// Whether a phone on the table's network can reach `ip`, and how good a guess it is for the
/// link: 0 for private IPv4, 1 for unique-local IPv6, `None` for anything else.
fn phone_reachable(ip: IpAddr) -> Option<u8> {
    match ip {
        IpAddr::V4(v4) if v4.is_private() => Some(0),
        IpAddr::V6(v6) if v6.to_ipv4_mapped().is_some_and(|v4| v4.is_private()) => Some(0),
        IpAddr::V6(v6) if unique_local(v6) => Some(1),
        _ => None,
    }
}

/// What the phones' link can offer: no address (say so plainly, show no link), one, or
/// several to choose from (the best first). The rule every link of the program follows (the
/// table's phones, the club night's tables and `event serve`): see [`rank_link_addresses`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkChoice {
    /// No address of this machine can be reached by a phone (no private IPv4 address, no
    /// unique-local IPv6 one the server listens on): no link can work.
    Unreachable,
    /// One address: the link names it.
    One(LinkAddress),
    /// Several: the link names the first, and the user may choose another.
    Several(Vec<LinkAddress>),
}

impl LinkChoice {
    /// The choice among `addresses` (best first, as [`rank_link_addresses`] gives them).
    pub fn of(mut addresses: Vec<LinkAddress>) -> LinkChoice {
        match addresses.len() {
            0 => LinkChoice::Unreachable,
            1 => LinkChoice::One(addresses.remove(0)),
            _ => LinkChoice::Several(addresses),
        }
    }

    /// The address the link names first, if any.
    pub fn best(&self) -> Option<&LinkAddress> {
        self.addresses().first()
    }

    /// The address a link names: `chosen` while it is still offered, else the best; `None`
    /// when no phone can reach this machine (say so; never fall back to loopback).
    pub fn pick(&self, chosen: Option<IpAddr>) -> Option<IpAddr> {
        let offered = self.addresses();
        chosen
            .filter(|ip| offered.iter().any(|a| a.ip == *ip))
            .or_else(|| offered.first().map(|a| a.ip))
    }

    /// Every address offered, best first (empty when none can be reached).
    pub fn addresses(&self) -> &[LinkAddress] {
        match self {
            LinkChoice::Unreachable => &[],
            LinkChoice::One(one) => std::slice::from_ref(one),
            LinkChoice::Several(all) => all,
        }
    }
}

/// A function that lists the addresses a link may name for a server bound to an address
/// ([`link_addresses`] reads this machine; tests pass one of their own).
pub type AddressLister = fn(SocketAddr) -> Vec<LinkAddress>;

/// What the phones' link can offer for a server bound to `bind`, read from this machine (see
/// [`LinkChoice`] and [`rank_link_addresses`]). The one function to call before showing a
/// link: `LinkChoice::Unreachable` is to be said in words (`i18n::evening::NO_PHONE_ADDRESS`), never
/// papered over with `127.0.0.1`.
pub fn link_choice(bind: SocketAddr) -> LinkChoice {
    LinkChoice::of(link_addresses(bind))
}

/// The addresses of this machine a phone's link may name for a server bound to `bind`, best
/// first (see [`rank_link_addresses`]): the interfaces as the system lists them and, on Linux,
/// the default routes from `/proc/net/route` and `/proc/net/ipv6_route` and whether an IPv6
/// socket on `::` takes IPv4 too (`/proc/sys/net/ipv6/bindv6only`; elsewhere the ranking
/// alone decides). Empty when no phone can reach this machine (or the interfaces cannot be
/// listed).
pub fn link_addresses(bind: SocketAddr) -> Vec<LinkAddress> {
    let interfaces: Vec<InterfaceAddress> = if_addrs::get_if_addrs()
        .map(|list| {
            list.into_iter()
                .map(|i| InterfaceAddress {
                    ip: i.ip(),
                    up: i.is_oper_up(),
                    interface: i.name,
                })
                .collect()
        })
        .unwrap_or_default();
    let mut listening = Listening::of(bind.ip());
    if let Listening::Any { v4, v6: true } = &mut listening
        && cfg!(target_os = "linux")
        && std::fs::read_to_string("/proc/sys/net/ipv6/bindv6only").is_ok_and(|v| v.trim() == "1")
    {
        *v4 = false;
    }
    rank_link_addresses(&interfaces, &default_routes(), listening)
}

/// The default routes' interfaces, as the kernel lists them.
fn default_routes() -> DefaultRoutes {
    if cfg!(target_os = "linux") {
        let read = |path: &str| std::fs::read_to_string(path).unwrap_or_default();
        DefaultRoutes {
            v4: default_route_v4(&read("/proc/net/route")),
            v6: default_route_v6(&read("/proc/net/ipv6_route")),
        }
    } else {
        DefaultRoutes::default()
    }
}

/// A route that is up (`RTF_UP`).
const RTF_UP: u32 = 0x0001;
/// A route that refuses traffic (`RTF_REJECT`: "unreachable").
const RTF_REJECT: u32 = 0x0200;

/// The interface of the IPv4 default route in the text of `/proc/net/route` (destination and
/// mask 0, up, not a reject route; the lowest metric wins).
///
/// # Example
/// ```
/// use rummikub_companion::server::default_route_v4;
/// let table = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n\
///              wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n\
///              wlan0\t0001A8C0\t00000000\t0001\t0\t0\t600\t00FFFFFF\t0\t0\t0\n";
/// assert_eq!(default_route_v4(table).as_deref(), Some("wlan0"));
/// ```
pub fn default_route_v4(proc_net_route: &str) -> Option<String> {
    proc_net_route
        .lines()
        .skip(1)
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let (iface, dest, flags, metric, mask) =
                (f.first()?, f.get(1)?, f.get(3)?, f.get(6)?, f.get(7)?);
            let flags = u32::from_str_radix(flags, 16).ok()?;
            let metric: u64 = metric.parse().ok()?;
            let default = u32::from_str_radix(dest, 16).ok()? == 0
                && u32::from_str_radix(mask, 16).ok()? == 0;
            (default && flags & RTF_UP != 0 && flags & RTF_REJECT == 0)
                .then(|| (metric, (*iface).to_owned()))
        })
        .min()
        .map(|(_, iface)| iface)
}

/// The interface of the IPv6 default route in the text of `/proc/net/ipv6_route` (`::/0`, up,
/// not the kernel's "unreachable" route on `lo`; the lowest metric wins).
pub fn default_route_v6(proc_net_ipv6_route: &str) -> Option<String> {
    proc_net_ipv6_route
        .lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let (dest, len, metric, flags, iface) =
                (f.first()?, f.get(1)?, f.get(5)?, f.get(8)?, f.get(9)?);
            let default = dest.len() == 32
                && dest.bytes().all(|b| b == b'0')
                && u8::from_str_radix(len, 16).ok()? == 0;
            let flags = u32::from_str_radix(flags, 16).ok()?;
            let metric = u32::from_str_radix(metric, 16).ok()?;
            (default && flags & RTF_UP != 0 && flags & RTF_REJECT == 0 && *iface != "lo")
                .then(|| (metric, (*iface).to_owned()))
        })
        .min()
        .map(|(_, iface)| iface)
}

/// The link for a host and port: `http://host:port/p/<secret>/` (IPv6 in brackets).
pub(crate) fn link(host: IpAddr, port: u16, secret: &Secret) -> String {
    let host = match host {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    };
    format!("http://{host}:{port}/p/{}/", secret.as_str())
}

/// A QR code of `text` for the window to paint: its width in modules and the modules row by
/// row (`true` = dark), without the quiet zone (leave 4 light modules around it). Medium error
/// correction, so a slightly smudged laptop screen still scans. `None` if the text is too long
/// for any QR code.
///
/// # Example
/// ```
/// use rummikub_companion::server::qr_modules;
/// let (width, dark) = qr_modules("http://192.168.1.5:7373/p/00112233445566778899aabbccddeeff/").unwrap();
/// assert_eq!(dark.len(), width * width);
/// assert!(dark[0]); // the top-left finder pattern
/// ```
pub fn qr_modules(text: &str) -> Option<(usize, Vec<bool>)> {
    let code =
        qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::M).ok()?;
    let width = code.width();
    let dark = code
        .to_colors()
        .into_iter()
        .map(|c| c == qrcode::Color::Dark)
        .collect();
    Some((width, dark))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().expect("test address")
    }

    #[test]
    fn local_peers_are_the_local_ranges_only() {
        for ok in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.9",
            "172.31.255.1",
            "192.168.0.20",
            "169.254.3.4",
            "::1",
            "fd00::1",
            "fc00::2",
            "fe80::1",
            "::ffff:192.168.1.4",
        ] {
            assert!(is_local_peer(ip(ok)), "{ok} should be local");
        }
        for no in [
            "8.8.8.8",
            "172.32.0.1",
            "100.64.0.1",
            "1.1.1.1",
            "2001:db8::1",
            "2a00:1450::1",
            "::ffff:8.8.8.8",
            "224.0.0.1",
            "0.0.0.0",
        ] {
            assert!(!is_local_peer(ip(no)), "{no} should be refused");
        }
    }

    #[test]
    fn secrets_are_128_bits_of_hex_and_differ() {
        let a = Secret::random().expect("random source");
        let b = Secret::random().expect("random source");
        assert_eq!(a.as_str().len(), 32);
        assert!(a.as_str().chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert!(!a.matches(&a.as_str()[..31]));
        assert!(!format!("{a:?}").contains(a.as_str()));
    }

    #[test]
    fn links_bracket_ipv6() {
        let s = Secret("ab".repeat(16));
        assert_eq!(
            link(ip("192.168.1.5"), 7373, &s),
            format!("http://192.168.1.5:7373/p/{}/", s.as_str())
        );
        assert!(link(ip("fd00::5"), 80, &s).starts_with("http://[fd00::5]:80/p/"));
    }
}
