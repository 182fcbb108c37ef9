//! One emulated MCU: a QEMU process running `bus-node`, its UART0 (the bus) and
//! UART1 (the control channel) on two local sockets, its semihosting output (the
//! defmt log) collected by a thread. QEMU is killed when the value is dropped.

use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::error::{HubError, HubErrorKind};

/// QEMU, killed when dropped, so that no failure leaves it running.
struct Qemu(Child);

impl Drop for Qemu {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A running node.
pub struct Node {
    index: usize,
    qemu: Qemu,
    bus: TcpStream,
    ctl: TcpStream,
    log: Option<JoinHandle<Vec<u8>>>,
}

fn listener() -> Result<(TcpListener, u16), HubError> {
    let l = TcpListener::bind("127.0.0.1:0").map_err(|e| HubError::io("bind a local port", e))?;
    let port = l
        .local_addr()
        .map_err(|e| HubError::io("read a local port", e))?
        .port();
    l.set_nonblocking(true)
        .map_err(|e| HubError::io("set a listener non-blocking", e))?;
    Ok((l, port))
}

fn accept(l: &TcpListener, what: &str, deadline: Instant) -> Result<TcpStream, HubError> {
    loop {
        match l.accept() {
            Ok((s, _)) => {
                s.set_nonblocking(false)
                    .and_then(|()| s.set_nodelay(true))
                    .map_err(|e| HubError::io("configure a node socket", e))?;
                return Ok(s);
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    return Err(HubError::new(
                        HubErrorKind::Timeout,
                        format!("QEMU did not connect its {what} in time"),
                    ));
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => return Err(HubError::io("accept a node connection", e)),
        }
    }
}

impl Node {
    /// Start QEMU with `elf` and wait (until `deadline`) for both UARTs to connect.
    ///
    /// # Errors
    ///
    /// [`HubErrorKind::Spawn`] if QEMU cannot be started, [`HubErrorKind::Timeout`]
    /// if it does not connect in time, [`HubErrorKind::Io`] for socket failures.
    pub fn start(
        index: usize,
        qemu: &str,
        elf: &Path,
        deadline: Instant,
    ) -> Result<Self, HubError> {
        let (bus_l, bus_port) = listener()?;
        let (ctl_l, ctl_port) = listener()?;
        let child = Command::new(qemu)
            .args(["-cpu", "cortex-m4", "-machine", "mps2-an386", "-nographic"])
            .args(["-monitor", "none"])
            .args(["-semihosting-config", "enable=on,target=native"])
            .args(["-serial", &format!("tcp:127.0.0.1:{bus_port},nodelay=on")])
            .args(["-serial", &format!("tcp:127.0.0.1:{ctl_port},nodelay=on")])
            .arg("-kernel")
            .arg(elf)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| HubError::new(HubErrorKind::Spawn, format!("cannot start {qemu}: {e}")))?;
        let mut qemu_process = Qemu(child);
        let mut stdout = qemu_process.0.stdout.take();
        let log = std::thread::spawn(move || {
            let mut raw = Vec::new();
            if let Some(out) = stdout.as_mut() {
                let _ = out.read_to_end(&mut raw);
            }
            raw
        });
        let bus = accept(&bus_l, "UART0 (bus)", deadline)?;
        let ctl = accept(&ctl_l, "UART1 (control)", deadline)?;
        let node = Self {
            index,
            qemu: qemu_process,
            bus,
            ctl,
            log: Some(log),
        };
        Ok(node)
    }

    fn read_exact(
        stream: &mut TcpStream,
        buf: &mut [u8],
        what: &str,
        index: usize,
        deadline: Instant,
    ) -> Result<(), HubError> {
        let mut done = 0;
        while done < buf.len() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(HubError::new(
                    HubErrorKind::Timeout,
                    format!("node{index}: no {what} before the time limit"),
                ));
            }
            stream
                .set_read_timeout(Some(left))
                .map_err(|e| HubError::io("set a read timeout", e))?;
            match stream.read(&mut buf[done..]) {
                Ok(0) => {
                    return Err(HubError::new(
                        HubErrorKind::NodeFailed,
                        format!("node{index} closed its {what} (QEMU exited)"),
                    ));
                }
                Ok(n) => done += n,
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(HubError::io(what, e)),
            }
        }
        Ok(())
    }

    /// Send on the control channel.
    ///
    /// # Errors
    ///
    /// [`HubErrorKind::Io`] if the socket fails.
    pub fn send_ctl(&mut self, bytes: &[u8]) -> Result<(), HubError> {
        self.ctl
            .write_all(bytes)
            .map_err(|e| HubError::io("write to a node's UART1", e))
    }

    /// Read from the control channel, waiting until `deadline`.
    ///
    /// # Errors
    ///
    /// [`HubErrorKind::Timeout`] past the deadline, [`HubErrorKind::NodeFailed`] if
    /// QEMU closed the socket.
    pub fn read_ctl(&mut self, buf: &mut [u8], deadline: Instant) -> Result<(), HubError> {
        Self::read_exact(&mut self.ctl, buf, "report", self.index, deadline)
    }

    /// Write a line byte to the node's UART0.
    ///
    /// # Errors
    ///
    /// [`HubErrorKind::Io`] if the socket fails.
    pub fn send_bus(&mut self, byte: u8) -> Result<(), HubError> {
        self.bus
            .write_all(&[byte])
            .map_err(|e| HubError::io("write to a node's UART0", e))
    }

    /// Read the byte the node wrote on its UART0.
    ///
    /// # Errors
    ///
    /// As [`read_ctl`](Self::read_ctl).
    pub fn read_bus(&mut self, deadline: Instant) -> Result<u8, HubError> {
        let mut b = [0u8];
        Self::read_exact(&mut self.bus, &mut b, "bus byte", self.index, deadline)?;
        Ok(b[0])
    }

    /// Wait for QEMU to exit (until `deadline`) and return its success and the raw
    /// defmt log.
    ///
    /// # Errors
    ///
    /// [`HubErrorKind::Timeout`] if QEMU is still running at the deadline.
    pub fn finish(mut self, deadline: Instant) -> Result<(bool, Vec<u8>), HubError> {
        let status = loop {
            match self.qemu.0.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(2));
                }
                Ok(None) => {
                    return Err(HubError::new(
                        HubErrorKind::Timeout,
                        format!("node{} did not exit before the time limit", self.index),
                    ));
                }
                Err(e) => return Err(HubError::io("wait for QEMU", e)),
            }
        };
        let raw = self
            .log
            .take()
            .and_then(|h| h.join().ok())
            .unwrap_or_default();
        Ok((status.success(), raw))
    }
}
