//! The secret in the link, which peers may talk to the server, the machine's LAN addresses,
//! and the QR code that carries the link.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

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

/// The machine's addresses a phone on the same network could reach, best first: private IPv4
/// (the usual home Wi-Fi), unique-local IPv6, link-local IPv4, then any other non-loopback
/// address, loopback last. IPv6 link-local addresses are left out (a link needs a zone id).
/// Empty if the interfaces cannot be listed.
pub fn lan_addresses() -> Vec<IpAddr> {
    let mut ips: Vec<IpAddr> = if_addrs::get_if_addrs()
        .map(|ifs| ifs.into_iter().map(|i| i.ip()).collect())
        .unwrap_or_default();
    ips.retain(|ip| !matches!(ip, IpAddr::V6(v6) if link_local_v6(*v6)));
    ips.sort_by_key(|ip| (address_rank(*ip), *ip));
    ips.dedup();
    ips
}

fn address_rank(ip: IpAddr) -> u8 {
    match ip {
        IpAddr::V4(v4) if v4.is_private() => 0,
        IpAddr::V6(v6) if unique_local(v6) => 1,
        IpAddr::V4(v4) if v4.is_link_local() => 2,
        ip if ip.is_loopback() => 4,
        _ => 3,
    }
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

    #[test]
    fn address_ranks_put_private_first_and_loopback_last() {
        let mut ips = vec![
            ip("127.0.0.1"),
            ip("203.0.113.4"),
            ip("192.168.1.9"),
            ip("fd00::3"),
        ];
        ips.sort_by_key(|ip| address_rank(*ip));
        assert_eq!(
            ips,
            [
                ip("192.168.1.9"),
                ip("fd00::3"),
                ip("203.0.113.4"),
                ip("127.0.0.1")
            ]
        );
    }
}
