//! Two peers on one machine: connections to the phone server from another loopback address
//! (`127.0.0.2`; Linux answers all of 127/8), for the tests of the per-address limits. Not in
//! `util`, which the benchmarks include and which must not need tokio.

use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::Duration;

use crate::util::phones::{IO_TIMEOUT, Reply, read_reply};

/// A connection to `addr` from the loopback address `from` (e.g. `127.0.0.2`: Linux answers
/// all of 127/8), so a test can be two peers on one machine.
pub fn connect_from(from: Ipv4Addr, addr: SocketAddr) -> std::io::Result<TcpStream> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()?;
    let stream = runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.bind((from, 0).into())?;
        tokio::time::timeout(IO_TIMEOUT, socket.connect(addr))
            .await
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "connect"))?
    })?;
    let stream = stream.into_std()?;
    stream.set_nonblocking(false)?;
    Ok(stream)
}

/// One request from the loopback address `from` (see [`connect_from`]), read to the end.
pub fn request_from(
    from: Ipv4Addr,
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &[u8],
    limit: Duration,
) -> std::io::Result<Reply> {
    let mut stream = connect_from(from, addr)?;
    stream.set_read_timeout(Some(limit))?;
    stream.set_write_timeout(Some(limit))?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    read_reply(stream)
}
