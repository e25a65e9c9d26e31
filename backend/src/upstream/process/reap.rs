//! How the keeper (Linux) ends what a server started: it kills and reaps its own children
//! only, over and over, until none is left. Raw, async-signal-safe `libc` calls only, as
//! in `keeper.rs`.
#![allow(unsafe_code, reason = "the keeper runs after a fork, on raw system calls")]

use std::ptr;

use libc::c_int;

use super::keeper::{retry, signal_set};

/// Reaps every child that has exited; the server's status when it is among them.
pub(super) unsafe fn reap_exited(server: libc::pid_t) -> Option<c_int> {
    let mut found = None;
    loop {
        let mut status = 0;
        // SAFETY: waitpid writes to a local.
        let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if pid <= 0 {
            return found;
        }
        if pid == server {
            found = Some(status);
        }
    }
}

/// SIGKILLs every child of the keeper and reaps it, until none is left: an orphan
/// reparents to the keeper before its parent can be reaped, so every descendant is reached.
/// A process is signalled only while it is an unreaped child, so no reused id is hit.
pub(super) unsafe fn kill_descendants(server: libc::pid_t, status: &mut Option<c_int>) {
    // SAFETY: system calls on locals.
    unsafe {
        let child_ended = signal_set(&[libc::SIGCHLD]);
        // The kernel's list of children may miss one that came or went while it was read:
        // the list is read again on every child's end and on this tick, never waited on
        // blindly.
        let tick = libc::timespec { tv_sec: 0, tv_nsec: 50_000_000 };
        loop {
            let listed = kill_children();
            if !listed && status.is_none() {
                // No list (a kernel without CONFIG_PROC_CHILDREN): the server's group and
                // the server are killed; what else is left reparents past the keeper.
                libc::kill(-server, libc::SIGKILL);
                libc::kill(server, libc::SIGKILL);
            }
            loop {
                let mut s = 0;
                match libc::waitpid(-1, &mut s, libc::WNOHANG) {
                    // Children are left, none has ended yet.
                    0 => break,
                    -1 if retry() => continue,
                    // ECHILD: none left.
                    -1 => return,
                    pid if pid == server => *status = Some(s),
                    _ => {}
                }
            }
            if !listed && status.is_some() {
                return;
            }
            libc::sigtimedwait(&child_ended, ptr::null_mut(), &tick);
        }
    }
}

/// SIGKILLs each child listed in `/proc/thread-self/children`; false if it cannot be read.
unsafe fn kill_children() -> bool {
    // SAFETY: open/read/close on a static path and a stack buffer.
    unsafe {
        let fd = libc::open(c"/proc/thread-self/children".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return false;
        }
        let mut buf = [0u8; 512];
        let mut pid: libc::pid_t = 0;
        loop {
            let n = libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
            if n < 0 && retry() {
                continue;
            }
            // The list is "1234 5678 ": digits are read by hand, a number may span two reads.
            for &b in &buf[..n.max(0) as usize] {
                if b.is_ascii_digit() {
                    pid = pid.saturating_mul(10).saturating_add((b - b'0') as libc::pid_t);
                } else if pid > 0 {
                    libc::kill(pid, libc::SIGKILL);
                    pid = 0;
                }
            }
            if n <= 0 {
                break;
            }
        }
        if pid > 0 {
            libc::kill(pid, libc::SIGKILL);
        }
        libc::close(fd);
        true
    }
}
