//! A `redis-server` of the test's own on a free port, for tests of live play across
//! processes: the test can stop it, start it again on the same port and pause it.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::net::{free_addr, wait_for_port};
use crate::process::Spawned;

/// A `redis-server` without persistence, killed when dropped.
pub struct Redis {
    binary: PathBuf,
    addr: SocketAddr,
    child: Option<Spawned>,
}

impl Redis {
    /// Starts `binary` (see [`crate::services::redis_server`]) on a free loopback port and
    /// waits until it listens.
    pub fn start(binary: PathBuf) -> Redis {
        let mut r = Redis {
            binary,
            addr: free_addr(),
            child: None,
        };
        r.up();
        r
    }

    /// Its URL, `redis://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("redis://{}", self.addr)
    }

    /// Starts it again on its port (after [`Redis::down`]) and waits until it listens.
    pub fn up(&mut self) {
        let port = self.addr.port().to_string();
        let child = Command::new(&self.binary)
            .args(["--port", &port, "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start redis-server");
        self.child = Some(Spawned::new(child));
        wait_for_port(self.addr, Duration::from_secs(10), "redis-server");
    }

    /// Sends one inline command (`CLIENT PAUSE 3000`) and asserts a `+` answer.
    pub fn command(&self, line: &str) {
        let mut stream = TcpStream::connect(self.addr).expect("connect to redis-server");
        stream
            .write_all(format!("{line}\r\n").as_bytes())
            .expect("send to redis");
        let mut answer = String::new();
        BufReader::new(stream)
            .read_line(&mut answer)
            .expect("redis answers");
        assert!(answer.starts_with('+'), "{line}: {answer}");
    }

    /// Kills it, as an outage would.
    pub fn down(&mut self) {
        self.child.take();
    }
}
