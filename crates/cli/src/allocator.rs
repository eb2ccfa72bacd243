//! The process's allocator: mimalloc instead of glibc's malloc.
//!
//! Measured in docs/performance.md (2026-12-02, one server, SQLite, 200 games, no think): glibc's
//! malloc and free were about 17 % of the server's samples, and with mimalloc the site made
//! 6,130-6,609 moves/s against 5,041-5,221 in alternating runs. mimalloc is built with the crate's
//! `no_thp` feature: with transparent huge pages its arenas held about a third more resident
//! memory with 1,000 games open (100-111 KB a game against glibc's 82 KB); without them 80-82 KB.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
