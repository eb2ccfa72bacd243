//! A built binary run by the tests (`icebound` through `env!("CARGO_BIN_EXE_icebound")`,
//! which only its own crate's tests can name), and child processes that never outlive the
//! test that started them.

use std::io::Write;
use std::net::SocketAddr;
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

use crate::net::listens;

/// A binary to run, by path.
#[derive(Clone, Debug)]
pub struct Binary {
    path: PathBuf,
}

impl Binary {
    /// The binary at `path`.
    pub fn new(path: impl Into<PathBuf>) -> Binary {
        Binary { path: path.into() }
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A command running it, for a test that sets more (arguments, stdio, environment).
    pub fn command(&self) -> Command {
        Command::new(&self.path)
    }

    /// Runs it with `args` and no input to the end.
    pub fn run<S: AsRef<std::ffi::OsStr>>(&self, args: &[S]) -> Output {
        self.command()
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("run {}: {e}", self.path.display()))
    }

    /// Runs it with `args` and `input` on its stdin to the end. A process that exits
    /// before reading all its input is no error here: its status says what it did.
    pub fn run_with_input<S: AsRef<std::ffi::OsStr>>(&self, args: &[S], input: &[u8]) -> Output {
        let mut child = self
            .command()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("run {}: {e}", self.path.display()));
        let _ = child.stdin.take().expect("stdin").write_all(input);
        child
            .wait_with_output()
            .unwrap_or_else(|e| panic!("wait for {}: {e}", self.path.display()))
    }

    /// Starts it with `args`, its stdin closed, stdout discarded and stderr the test's.
    pub fn spawn<S: AsRef<std::ffi::OsStr>>(&self, args: &[S]) -> Spawned {
        let child = self
            .command()
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("start {}: {e}", self.path.display()));
        Spawned::new(child)
    }
}

/// The text of a process's stdout (lossy UTF-8).
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The text of a process's stderr (lossy UTF-8).
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A child process killed (and reaped) when dropped, however the test ends: a failed
/// assertion must not leave a server running. Derefs to its [`Child`].
#[derive(Debug)]
pub struct Spawned {
    child: Child,
}

impl Spawned {
    /// Takes charge of `child`.
    pub fn new(child: Child) -> Spawned {
        Spawned { child }
    }

    /// Its exit status if it has exited.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().expect("poll the child process")
    }

    /// Waits until it accepts connections on `addr` (`limit` at most); fails at once, with
    /// its exit status, when it has exited instead.
    pub fn wait_for_port(&mut self, addr: SocketAddr, limit: Duration) {
        self.wait_until(limit, &format!("listen on {addr}"), || listens(addr));
    }

    /// Waits until `ready` holds, polling every 50 ms for `limit` at most; fails at once,
    /// with its exit status, when the process has exited instead. `what` names the wait.
    pub fn wait_until(&mut self, limit: Duration, what: &str, mut ready: impl FnMut() -> bool) {
        let end = Instant::now() + limit;
        loop {
            if ready() {
                return;
            }
            if let Some(status) = self.exited() {
                panic!("the process exited ({status}) before it could {what}");
            }
            assert!(
                Instant::now() < end,
                "the process did not {what} within {limit:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Kills it (SIGKILL) and reaps it; nothing if it has already ended.
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Deref for Spawned {
    type Target = Child;

    fn deref(&self) -> &Child {
        &self.child
    }
}

impl DerefMut for Spawned {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.child
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        self.stop();
    }
}
