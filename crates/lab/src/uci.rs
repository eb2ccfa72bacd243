//! A minimal client of the Universal Chess Interface (S. Meyer-Kahlen, 2000), to run a
//! chess engine such as Debian's `stockfish` on the same suite positions as icebound:
//! `uci`, `setoption`, `isready`, `ucinewgame`, `position fen`, `go movetime`, `bestmove`.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// What went wrong talking to a UCI engine.
#[derive(Debug, thiserror::Error)]
pub enum UciError {
    /// The program could not be started.
    #[error("cannot start the UCI engine {path}: {source}")]
    Start {
        /// The program.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// Reading or writing its pipes failed.
    #[error("the UCI engine's pipe failed: {0}")]
    Io(#[from] std::io::Error),
    /// It ended before answering.
    #[error("the UCI engine ended while icebound waited for '{0}'")]
    Ended(&'static str),
}

/// A running UCI engine.
pub struct UciEngine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    /// The engine's `id name`, once known.
    pub name: String,
}

impl UciEngine {
    /// Starts `path` and sets it up with `options` (`setoption name N value V` for each).
    pub fn start(path: &Path, options: &[(&str, String)]) -> Result<UciEngine, UciError> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| UciError::Start {
                path: path.display().to_string(),
                source,
            })?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(UciError::Ended("its pipes"));
        };
        let mut engine = UciEngine {
            child,
            input,
            output: BufReader::new(output),
            name: path.display().to_string(),
        };
        engine.send("uci")?;
        engine.wait_for("uciok")?;
        for (name, value) in options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.send("isready")?;
        engine.wait_for("readyok")?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), UciError> {
        writeln!(self.input, "{line}")?;
        self.input.flush()?;
        Ok(())
    }

    /// Reads lines until one starts with `token`; returns that line.
    fn wait_for(&mut self, token: &'static str) -> Result<String, UciError> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.output.read_line(&mut line)? == 0 {
                return Err(UciError::Ended(token));
            }
            let l = line.trim();
            if let Some(name) = l.strip_prefix("id name ") {
                self.name = name.to_string();
            }
            if l.split_whitespace().next() == Some(token) {
                return Ok(l.to_string());
            }
        }
    }

    /// The engine's move (UCI text, `e2e4`) in the position `fen` after thinking
    /// `movetime_ms` milliseconds, from a new game (no table kept between positions).
    pub fn best_move(&mut self, fen: &str, movetime_ms: u64) -> Result<String, UciError> {
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok")?;
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go movetime {movetime_ms}"))?;
        let line = self.wait_for("bestmove")?;
        Ok(line
            .split_whitespace()
            .nth(1)
            .unwrap_or("(none)")
            .to_string())
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake UCI engine (a shell script) that always answers `bestmove e2e4`: the client
    /// is tested without any real engine installed.
    #[test]
    fn talks_to_a_uci_engine() {
        let dir = std::env::temp_dir().join(format!("icebound-uci-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let script = dir.join("fake-uci.sh");
        std::fs::write(
            &script,
            "#!/bin/sh\nwhile read line; do case \"$line\" in\n\
             uci) echo 'id name Fake 1'; echo uciok;;\n\
             isready) echo readyok;;\n\
             go*) echo 'info depth 1'; echo 'bestmove e2e4 ponder e7e5';;\n\
             quit) exit 0;;\n\
             esac; done\n",
        )
        .expect("script");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
                .expect("chmod");
        }
        let mut e = UciEngine::start(&script, &[("Threads", "1".to_string())]).expect("starts");
        assert_eq!(e.name, "Fake 1");
        let mv = e
            .best_move(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                10,
            )
            .expect("a move");
        assert_eq!(mv, "e2e4");
        drop(e);
        let missing = UciEngine::start(&dir.join("no-such-engine"), &[]);
        assert!(matches!(missing, Err(UciError::Start { .. })));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
