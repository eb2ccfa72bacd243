//! A `redis-server` of the test's own on a free port, for the tests of live play across
//! processes (this crate's, and `crates/cli/tests/processes.rs`, which includes this file).
//! Debian's `redis-server` (`.ci/setup-redis.sh`); its absence skips those tests, and fails
//! them under CI=true.
#![allow(dead_code)]

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `redis-server`, or `None` (skipped) outside CI.
pub fn redis_binary() -> Option<PathBuf> {
    let named = std::env::var("ICEBOUND_TEST_REDIS_SERVER")
        .ok()
        .map(PathBuf::from);
    let found = named
        .or_else(|| Some(PathBuf::from("/usr/bin/redis-server")))
        .filter(|p| p.exists());
    if found.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but redis-server is missing: .ci/setup-redis.sh must run first"
        );
        eprintln!("redis-server not found: the cross-process tests are skipped");
    }
    found
}

/// A redis-server of this test, killed when dropped.
pub struct Redis {
    binary: PathBuf,
    port: u16,
    child: Option<Child>,
}

impl Redis {
    pub fn start(binary: PathBuf) -> Redis {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let mut r = Redis {
            binary,
            port,
            child: None,
        };
        r.up();
        r
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    pub fn up(&mut self) {
        let child = Command::new(&self.binary)
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start redis-server");
        self.child = Some(child);
        let end = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                Instant::now() < end,
                "redis-server did not listen within 10 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Sends one inline command (`CLIENT PAUSE 3000`) and reads the first line of the answer.
    pub fn command(&self, line: &str) {
        use std::io::{BufRead, BufReader, Write};
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", self.port)).expect("redis");
        stream
            .write_all(format!("{line}\r\n").as_bytes())
            .expect("send to redis");
        let mut answer = String::new();
        BufReader::new(stream)
            .read_line(&mut answer)
            .expect("redis answers");
        assert!(answer.starts_with('+'), "{line}: {answer}");
    }

    pub fn down(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.down();
    }
}
