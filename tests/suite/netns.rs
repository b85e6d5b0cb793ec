//! The phones' link in a Linux network namespace made for the test: a "LAN" interface with the
//! default route, a second network, Docker's `docker0` and an interface that is down. The link
//! must name the default route's address (not `docker0`'s), offer the second network in the
//! chooser, leave out the interface that is down and, with the server on `0.0.0.0`, offer no
//! IPv6. Choosing the other address re-makes the link with the same secret.
//!
//! The test runs itself again inside `unshare --net` (root, and `ip` from iproute2): nothing
//! it creates is seen outside the namespace, and nothing leaves the machine (the namespace has
//! no way out; the one request made goes to its own address). `.ci/run` runs it as root. The
//! "LAN" is a veth pair where the kernel has veth, else a VXLAN interface (some VM kernels have
//! neither veth nor dummy); `docker0` is a dummy interface, else a bridge (what Docker makes).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::Command;
use std::sync::Arc;

use rummikub_companion::evening::{Command as Do, Deps, Refusal, Shared};
use rummikub_companion::runtime::ManualClock;
use rummikub_companion::server::link_addresses;
use rummikub_companion::sound::RecordingSounder;

use crate::util::phones::get;

const INSIDE: &str = "RC_NETNS_INSIDE";

/// Makes the interfaces, shows them, then runs the command given (`"$@"`).
const SETUP: &str = r#"
ip link set lo up
if ip link add lan0 type veth peer name veth-lan0 2>/dev/null; then
  ip link set veth-lan0 up
else
  ip link add lan0 type vxlan id 10 dstport 4789
fi
ip addr add 192.168.50.2/24 dev lan0
ip -6 addr add fd00:50::2/64 dev lan0 nodad
ip link set lan0 up
ip link add wlan9 type vxlan id 11 dstport 4790
ip addr add 10.77.0.5/24 dev wlan9
ip link set wlan9 up
if ! ip link add docker0 type dummy 2>/dev/null; then
  ip link add docker0 type bridge stp_state 0 forward_delay 0
  ip link add vxd type vxlan id 12 dstport 4791
  ip link set vxd master docker0
  ip link set vxd up
fi
ip addr add 172.17.0.1/16 dev docker0
ip link set docker0 up
# docker0 must be up and running, so that only its name leaves it out.
for _ in $(seq 50); do
  ip -o link show docker0 | grep -q 'state UP' && break
  sleep 0.1
done
ip link add eth5 type vxlan id 13 dstport 4792
ip addr add 192.168.60.9/24 dev eth5
ip route add default via 192.168.50.1 dev lan0
ip -6 route add default via fd00:50::1 dev lan0
echo "--- the namespace's interfaces and routes"
ip -br link
ip -br addr
ip route
ip -6 route show default
exec "$@"
"#;

#[test]
#[ignore = "needs root, unshare(1) and ip(8); .ci/run runs ignored tests as root"]
fn in_a_network_namespace_the_link_names_the_default_routes_interface_not_docker0() {
    let name =
        "netns::in_a_network_namespace_the_link_names_the_default_routes_interface_not_docker0";
    if std::env::var_os(INSIDE).is_none() {
        let exe = std::env::current_exe().expect("the test binary");
        let status = Command::new("unshare")
            .args(["--net", "--", "sh", "-euc", SETUP, "sh"])
            .arg(exe)
            .args([name, "--exact", "--include-ignored", "--nocapture"])
            .env(INSIDE, "1")
            .status()
            .expect("unshare runs (util-linux)");
        assert!(status.success(), "the check inside the namespace: {status}");
        return;
    }

    // Inside the namespace. docker0 is up and running (only its name may leave it out) and
    // eth5 is down.
    let interfaces = if_addrs_up();
    assert!(
        interfaces.contains(&("docker0".into(), true)),
        "{interfaces:?}"
    );
    assert!(
        interfaces.contains(&("eth5".into(), false)),
        "{interfaces:?}"
    );
    // The addresses as the app reads them.
    let on_ipv4: SocketAddr = (Ipv4Addr::UNSPECIFIED, 0).into();
    let listed = link_addresses(on_ipv4);
    println!("--- link_addresses(0.0.0.0): {listed:?}");
    let ips: Vec<String> = listed
        .iter()
        .map(|a| format!("{} {}", a.interface, a.ip))
        .collect();
    assert_eq!(ips, ["lan0 192.168.50.2", "wlan9 10.77.0.5"]);
    let on_both: SocketAddr = ("::".parse::<IpAddr>().expect("::"), 0).into();
    let both = link_addresses(on_both);
    println!("--- link_addresses([::]): {both:?}");
    assert_eq!(
        both.iter().map(|a| a.ip.to_string()).collect::<Vec<_>>(),
        ["192.168.50.2", "10.77.0.5", "fd00:50::2"],
        "IPv6 only when the server listens on it"
    );

    // The evening's phones on every interface of the namespace, as the app runs them.
    let data = tempfile::tempdir().expect("a data folder");
    let deps = Deps::manual(
        Arc::new(ManualClock::default()),
        Arc::new(RecordingSounder::default()),
        data.path(),
    );
    let evening = Shared::open(deps);
    evening
        .apply(Do::SetPlayers(vec!["Ann".into(), "Bo".into()]))
        .expect("players");
    evening.start_phones_on(on_ipv4);
    let (url, chosen, port) = {
        let e = evening.lock();
        let phones = e.phones();
        (
            phones.url().expect("a link").to_owned(),
            phones.chosen().cloned().expect("a chosen address"),
            phones.local_addr().expect("running").port(),
        )
    };
    println!("--- the link: {url} (on {})", chosen.interface);
    assert_eq!(chosen.interface, "lan0");
    assert!(
        url.starts_with(&format!("http://192.168.50.2:{port}/p/")),
        "{url}"
    );
    let path = url
        .split_once(&format!(":{port}"))
        .map(|(_, path)| path.to_owned())
        .expect("a path");
    let reply = get(
        (Ipv4Addr::new(192, 168, 50, 2), port).into(),
        &format!("{path}state"),
    );
    assert_eq!(reply.status, 200, "the link answers on its address");

    // The chooser: the other network, same secret; docker0 cannot be chosen.
    evening
        .apply(Do::ChooseAddress("10.77.0.5".parse().expect("ip")))
        .expect("the second network");
    let other = evening.lock().phones().url().expect("a link").to_owned();
    println!("--- chosen 10.77.0.5: {other}");
    assert_eq!(
        other,
        format!("http://10.77.0.5:{port}{path}"),
        "same secret"
    );
    let docker = evening.apply(Do::ChooseAddress("172.17.0.1".parse().expect("ip")));
    assert!(
        matches!(docker, Err(Refusal::NoSuchAddress(_))),
        "{docker:?}"
    );
    assert_eq!(evening.lock().phones().url(), Some(other.as_str()));
    evening.apply(Do::Phones(false)).expect("phones off");
}

/// Each interface with an IPv4 address and whether it is up and running, as the system lists
/// them to the app (`if_addrs`: IFF_UP and IFF_RUNNING).
fn if_addrs_up() -> Vec<(String, bool)> {
    if_addrs::get_if_addrs()
        .expect("the interfaces")
        .into_iter()
        .filter(|i| i.ip().is_ipv4())
        .map(|i| (i.name.clone(), i.is_oper_up()))
        .collect()
}
