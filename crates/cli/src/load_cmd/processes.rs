//! The serving processes a load run talks to: their distinct addresses, and the pid of the
//! one `--kill-one` stops (Linux /proc).

use std::net::SocketAddr;

/// The pid of the process listening on TCP `addr` (Linux: /proc/net/tcp{,6} give the
/// listening socket's inode, a process's /proc/PID/fd links name it).
pub(super) fn listener_pid(addr: SocketAddr) -> Result<u32, String> {
    let port = format!(":{:04X}", addr.port());
    let mut inode = None;
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let text = std::fs::read_to_string(table).unwrap_or_default();
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split_whitespace().collect();
            // local_address, ..., st (0A = LISTEN), ..., inode
            if f.len() > 9 && f[1].ends_with(&port) && f[3] == "0A" {
                inode = Some(f[9].to_string());
            }
        }
    }
    let inode = inode.ok_or(format!("no process listens on {addr}"))?;
    let wanted = format!("socket:[{inode}]");
    let procs = std::fs::read_dir("/proc").map_err(|e| format!("/proc: {e}"))?;
    for p in procs.flatten() {
        let Ok(pid) = p.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(fds) = std::fs::read_dir(p.path().join("fd")) else {
            continue;
        };
        for fd in fds.flatten() {
            if std::fs::read_link(fd.path()).is_ok_and(|l| l.to_string_lossy() == wanted) {
                return Ok(pid);
            }
        }
    }
    Err(format!(
        "the process listening on {addr} is not visible here"
    ))
}

/// `addrs` without repeats, in their order.
pub(super) fn distinct(addrs: &[SocketAddr]) -> Vec<SocketAddr> {
    let mut out: Vec<SocketAddr> = Vec::new();
    for a in addrs {
        if !out.contains(a) {
            out.push(*a);
        }
    }
    out
}
