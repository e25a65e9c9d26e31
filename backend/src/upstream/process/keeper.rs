//! The keeper (Linux): the process between the relay and a server that makes sure nothing
//! the server started outlives it. Everything here runs in a child forked from the
//! multi-threaded relay, so it uses raw, async-signal-safe `libc` calls only: no
//! allocation, no locks, no Rust I/O (another thread may have held a lock at the fork).
//!
//! See the module doc of `process` for the design; in short the keeper is a child
//! subreaper, so every orphan of the server becomes its child, and it kills only its own
//! unreaped children, whose ids cannot be reused.
#![allow(unsafe_code, reason = "the keeper runs between fork and exec, on raw system calls")]

use std::io;
use std::mem::MaybeUninit;
use std::os::fd::RawFd;
use std::ptr;

use libc::c_int;

use super::reap::{kill_descendants, reap_exited};

/// The byte the relay writes on the control socket to ask for a graceful stop (SIGTERM to
/// the server's process group). Closing the socket means: kill everything now.
pub const TERMINATE: u8 = b'T';

/// Signals the keeper takes through its signalfd rather than by their default action:
/// a child's end; a request to stop, passed on to the server as SIGTERM; and SIGUSR1,
/// "kill now", as the relay's closed socket says (for a person, `kill -USR1 KEEPER`).
const HANDLED: [c_int; 5] = [libc::SIGCHLD, libc::SIGTERM, libc::SIGINT, libc::SIGHUP, libc::SIGUSR1];

/// The keeper's control socket, moved to this descriptor once every other one is closed.
const CONTROL: c_int = 0;

/// Run as `pre_exec` in the child std forked: turns it into the keeper and forks the server.
/// Returns `Ok` only in the server's process, which std then execs (with the piped stdio
/// already in place); the keeper never returns. `control` is the keeper's end of the
/// socket the relay holds the other end of.
///
/// # Safety
/// Only between fork and exec, in the child: it forks again and never returns in the parent.
pub unsafe fn become_keeper(control: RawFd) -> io::Result<()> {
    // SAFETY: plain system calls on memory of this frame; see each step.
    unsafe {
        // Blocked before the fork, so no SIGCHLD of the server can be lost before the
        // keeper listens (a SIGCHLD left to its default action is discarded).
        let handled = signal_set(&HANDLED);
        let mut previous = MaybeUninit::<libc::sigset_t>::uninit();
        if libc::sigprocmask(libc::SIG_BLOCK, &handled, previous.as_mut_ptr()) != 0 {
            return Err(io::Error::last_os_error());
        }
        // Orphans of the server, however they detach (double fork, setsid), become the
        // keeper's children instead of init's.
        if libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0 {
            return Err(io::Error::last_os_error());
        }
        let keeper = libc::getpid();
        match libc::fork() {
            -1 => Err(io::Error::last_os_error()),
            0 => {
                // The server: in a process group of its own (so a graceful stop reaches its
                // children, not the keeper), with the signal mask std set up (empty).
                libc::setpgid(0, 0);
                libc::sigprocmask(libc::SIG_SETMASK, previous.as_ptr(), ptr::null_mut());
                // Should the keeper itself be SIGKILLed, the server goes too. (Its single
                // thread is the one that forked, so this fires only when the keeper dies.)
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
                if libc::getppid() != keeper {
                    return Err(io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            }
            server => {
                // Set on both sides, so it holds before the keeper might signal the group.
                libc::setpgid(server, server);
                keep(control, server, &handled)
            }
        }
    }
}

/// The keeper's life: wait for the server's exit, a word from the relay, or the relay's
/// end; then kill every descendant and exit as the server did.
unsafe fn keep(control: RawFd, server: libc::pid_t, handled: &libc::sigset_t) -> ! {
    // SAFETY: raw system calls on stack memory; this process is single-threaded.
    unsafe {
        // The relay learns the server's pid (the one people know) before `spawn` returns:
        // std waits for every copy of its exec-error pipe to close, including ours below.
        let pid = server.to_ne_bytes();
        libc::send(control, pid.as_ptr().cast(), pid.len(), libc::MSG_NOSIGNAL);
        // A core dump of the keeper would be a copy of the relay's memory.
        let no_core = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        libc::setrlimit(libc::RLIMIT_CORE, &no_core);
        // Hold nothing but the control socket: not the server's pipes (its stdout must end
        // when it does), not std's exec-error pipe (the relay waits for it to close).
        libc::dup2(control, CONTROL);
        close_from(CONTROL + 1);
        default_handlers();
        // Named for `ps` and `top`: a fork keeps the name of the relay's thread that forked.
        libc::prctl(libc::PR_SET_NAME, c"mcp-keeper".as_ptr());
        let signals = libc::signalfd(-1, handled, libc::SFD_CLOEXEC);

        let mut status;
        loop {
            // First of all: a SIGCHLD pending when `default_handlers` ran was discarded (so
            // POSIX says for a signal ignored by default), the server may be gone already.
            status = reap_exited(server);
            if status.is_some() {
                break;
            }
            let mut fds = [
                libc::pollfd { fd: CONTROL, events: libc::POLLIN, revents: 0 },
                libc::pollfd { fd: signals, events: libc::POLLIN, revents: 0 },
            ];
            // Without a signalfd (never seen), the keeper looks for the server's exit on a clock.
            let timeout = if signals < 0 { 100 } else { -1 };
            if libc::poll(fds.as_mut_ptr(), 2, timeout) < 0 {
                continue;
            }
            if fds[0].revents != 0 {
                let mut buf = [0u8; 64];
                let n = libc::read(CONTROL, buf.as_mut_ptr().cast(), buf.len());
                if n == 0 || (n < 0 && !retry()) {
                    // The relay closed its end, or died: kill now.
                    break;
                }
                if n > 0 && buf[..n as usize].contains(&TERMINATE) {
                    terminate(server);
                }
            }
            if fds[1].revents != 0 {
                let mut info = [MaybeUninit::<libc::signalfd_siginfo>::uninit(); 8];
                let size = size_of::<libc::signalfd_siginfo>();
                let n = libc::read(signals, info.as_mut_ptr().cast(), size * info.len());
                let mut kill_now = false;
                for entry in info.iter().take(n.max(0) as usize / size) {
                    match entry.assume_init_ref().ssi_signo as c_int {
                        libc::SIGCHLD => {}
                        libc::SIGUSR1 => kill_now = true,
                        // Someone asked the keeper to stop: the server is asked in turn.
                        _ => terminate(server),
                    }
                }
                if kill_now {
                    break;
                }
            }
        }
        kill_descendants(server, &mut status);
        exit_like(status)
    }
}

/// Asks the server's process group (its id is the server's pid, which cannot be reused
/// while the server is the keeper's unreaped child) to stop.
unsafe fn terminate(server: libc::pid_t) {
    // SAFETY: kill has no memory arguments.
    unsafe {
        if libc::kill(-server, libc::SIGTERM) != 0 {
            // The server left its group: it is still asked itself.
            libc::kill(server, libc::SIGTERM);
        }
    }
}

/// Exits as the server did: the same code, or killed by the same signal (with no core dump,
/// see `keep`), so the relay reports the server's own end.
unsafe fn exit_like(status: Option<c_int>) -> ! {
    // SAFETY: system calls on locals; _exit never returns.
    unsafe {
        match status {
            Some(s) if libc::WIFEXITED(s) => libc::_exit(libc::WEXITSTATUS(s)),
            Some(s) if libc::WIFSIGNALED(s) => {
                let signal = libc::WTERMSIG(s);
                libc::signal(signal, libc::SIG_DFL);
                let only = signal_set(&[signal]);
                libc::sigprocmask(libc::SIG_UNBLOCK, &only, ptr::null_mut());
                libc::kill(libc::getpid(), signal);
                libc::_exit(128 + signal)
            }
            _ => libc::_exit(1),
        }
    }
}

/// Closes every descriptor from `first` on.
unsafe fn close_from(first: c_int) {
    // SAFETY: close_range and close take no memory.
    unsafe {
        if libc::syscall(libc::SYS_close_range, first as libc::c_uint, libc::c_uint::MAX, 0) == 0 {
            return;
        }
        // Kernels before 5.9: one by one, up to the descriptor limit.
        let mut limit = MaybeUninit::<libc::rlimit>::uninit();
        let max = if libc::getrlimit(libc::RLIMIT_NOFILE, limit.as_mut_ptr()) == 0 {
            limit.assume_init().rlim_cur.min(1 << 20) as c_int
        } else {
            4096
        };
        for fd in first..max {
            libc::close(fd);
        }
    }
}

/// Puts every caught signal back to its default action: the relay's handlers (tokio's)
/// would write to descriptors the keeper no longer has, or has reused.
unsafe fn default_handlers() {
    // SAFETY: sigaction on locals.
    unsafe {
        // 64 signals on Linux; those glibc keeps for itself answer EINVAL and are skipped.
        for signal in 1..=64 {
            let mut current = MaybeUninit::<libc::sigaction>::zeroed();
            if libc::sigaction(signal, ptr::null(), current.as_mut_ptr()) != 0 {
                continue;
            }
            let handler = current.assume_init_ref().sa_sigaction;
            if handler != libc::SIG_DFL && handler != libc::SIG_IGN || signal == libc::SIGCHLD {
                // SIGCHLD ignored would reap children on its own, and lose the server's status.
                libc::signal(signal, libc::SIG_DFL);
            }
        }
    }
}

pub(super) fn signal_set(signals: &[c_int]) -> libc::sigset_t {
    let mut set = MaybeUninit::<libc::sigset_t>::uninit();
    // SAFETY: sigemptyset initialises the set before sigaddset and assume_init.
    unsafe {
        libc::sigemptyset(set.as_mut_ptr());
        for &s in signals {
            libc::sigaddset(set.as_mut_ptr(), s);
        }
        set.assume_init()
    }
}

/// Whether the last call failed only for a signal or a momentary lack, worth retrying.
pub(super) fn retry() -> bool {
    // SAFETY: errno is this thread's.
    let errno = unsafe { *libc::__errno_location() };
    errno == libc::EINTR || errno == libc::EAGAIN
}
