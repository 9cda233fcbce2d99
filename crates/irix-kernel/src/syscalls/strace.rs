//! --strace: one line per system call, "[pid] name(args) = result", as
//! strace(1) prints them: arguments decoded by the kinds the table gives
//! (flags and commands by name, signals by name, strings quoted), and the
//! structures a call fills in (stat, timeval) shown after it returns.
//!
//! Lengths: a path (`Arg::Str`) is shown whole up to `PATH_SHOWN` bytes;
//! a buffer (`Arg::Buf`, what write(2) and its kin send) up to
//! `BUF_SHOWN` bytes. Anything cut ends in `...` after the closing quote,
//! so a cut is never silent.

use super::{Arg, Args, Ret, SysResult, Syscall};
use crate::abi::flags::{fcntl, ioctl, mmap, oflag, seek, sigmask};
use crate::process::Process;

/// Bytes of a write buffer shown before "...".
pub const BUF_SHOWN: usize = 64;
/// Bytes of a path shown before "..." (IRIX's PATH_MAX).
pub const PATH_SHOWN: usize = 1024;

/// A call's decoded arguments, kept until it returns so that what it
/// wrote (a stat, a timeval) can be shown.
pub struct Shown {
    name: String,
    args: Vec<String>,
}

/// Decodes a call's arguments before it runs: a read(2) buffer is shown
/// as its pointer, a write(2) buffer by its contents. A syssgi request
/// shows as `syssgi(SGI_NAME, args)`.
pub fn format_call(p: &Process, def: &Syscall, args: &Args, family: Option<&str>) -> Shown {
    let words = args.words();
    let args = family
        .map(|_| def.name.to_string())
        .into_iter()
        .chain(
            def.args
                .iter()
                .enumerate()
                .map(|(i, &kind)| before(p, def, family, words, i, kind)),
        )
        .collect();
    Shown {
        name: family.unwrap_or(def.name).to_string(),
        args,
    }
}

/// The finished call: the arguments, those the call filled in decoded
/// now that it succeeded.
pub fn finish(
    p: &Process,
    def: &Syscall,
    args: &Args,
    mut shown: Shown,
    result: &SysResult,
) -> Shown {
    if result.is_ok() {
        let words = args.words();
        let offset = usize::from(shown.args.len() > def.args.len());
        for (i, &kind) in def.args.iter().enumerate() {
            if let Some(text) = after(p, words, i, kind) {
                shown.args[i + offset] = text;
            }
        }
    }
    shown
}

impl Shown {
    /// The --strace line: `name(args) = result`.
    pub fn line(&self, result: &SysResult) -> String {
        format!(
            "{}({}) = {}",
            self.name,
            self.args.join(", "),
            format_result(result)
        )
    }

    /// The call's name and its decoded arguments.
    pub fn into_parts(self) -> (String, Vec<String>) {
        (self.name, self.args)
    }
}

/// One argument as the call starts.
fn before(
    p: &Process,
    def: &Syscall,
    family: Option<&str>,
    words: &[u32],
    i: usize,
    kind: Arg,
) -> String {
    let w = words[i];
    let hex = || format!("0x{w:x}");
    if let Some(cmd) = ipc_cmd(def.nr, words, i) {
        return cmd;
    }
    match kind {
        // A syssgi request irix-emu lacks is still named, when IRIX
        // names it.
        Arg::Int if i == 0 && family.is_none() && def.nr == crate::abi::sys::SYSSGI => {
            crate::abi::names::syssgi_request_name(w)
                .map_or_else(|| (w as i32).to_string(), str::to_string)
        }
        Arg::Int | Arg::Fd => (w as i32).to_string(),
        Arg::Hex | Arg::Ptr | Arg::StatOut | Arg::TimevalOut => hex(),
        Arg::Oct => format!("0{w:o}"),
        Arg::Str => match p.mem.read_cstr(w, PATH_SHOWN + 1) {
            Ok(s) => quote(&s, PATH_SHOWN),
            Err(_) => hex(),
        },
        Arg::Buf => {
            let len = words.get(i + 1).copied().unwrap_or(0) as usize;
            let mut b = vec![0; len.min(BUF_SHOWN)];
            match p.mem.read_bytes(w, &mut b) {
                Ok(()) => quote_cut(&b, len > BUF_SHOWN),
                Err(_) => hex(),
            }
        }
        Arg::OpenFlags => open_flags(w),
        Arg::Access => access_mode(w),
        Arg::Whence => named(
            w,
            &[
                (seek::SEEK_SET, "SEEK_SET"),
                (seek::SEEK_CUR, "SEEK_CUR"),
                (seek::SEEK_END, "SEEK_END"),
            ],
        ),
        Arg::Signal => match w {
            0 => "0".into(),
            s => crate::signals::name(s),
        },
        Arg::SigHow => named(
            w,
            &[
                (sigmask::SIG_BLOCK, "SIG_BLOCK"),
                (sigmask::SIG_UNBLOCK, "SIG_UNBLOCK"),
                (sigmask::SIG_SETMASK, "SIG_SETMASK"),
            ],
        ),
        Arg::FcntlCmd => named(
            w,
            &[
                (fcntl::F_DUPFD, "F_DUPFD"),
                (fcntl::F_GETFD, "F_GETFD"),
                (fcntl::F_SETFD, "F_SETFD"),
                (fcntl::F_GETFL, "F_GETFL"),
                (fcntl::F_SETFL, "F_SETFL"),
                (fcntl::F_SETLK, "F_SETLK"),
                (fcntl::F_SETLKW, "F_SETLKW"),
                (fcntl::F_ALLOCSP, "F_ALLOCSP"),
                (fcntl::F_FREESP, "F_FREESP"),
                (fcntl::F_GETLK, "F_GETLK"),
            ],
        ),
        Arg::IoctlReq => named(w, &[(ioctl::TCGETA, "TCGETA")]),
        Arg::Prot => prot(w),
        Arg::MapFlags => map_flags(w),
        Arg::TimespecIn => read_pair(p, w, "tv_sec", "tv_nsec").unwrap_or_else(hex),
        Arg::IpcOp => ipc_op(def.nr, w),
        Arg::SockAddr => {
            let len = words.get(i + 1).copied().unwrap_or(0).min(128) as usize;
            let mut b = vec![0; len];
            match p
                .mem
                .read_bytes(w, &mut b)
                .map(|()| crate::net::Addr::decode(&b))
            {
                Ok(Ok(crate::net::Addr::Inet { ip, port })) => {
                    let [a, b, c, d] = ip.to_be_bytes();
                    format!("{{AF_INET, {a}.{b}.{c}.{d}:{port}}}")
                }
                Ok(Ok(crate::net::Addr::Unix(path))) => {
                    format!("{{AF_UNIX, {}}}", quote(&path, PATH_SHOWN))
                }
                _ => hex(),
            }
        }
        Arg::Family => named(w, &[(1, "AF_UNIX"), (2, "AF_INET")]),
        Arg::SockType => named(w, &[(1, "SOCK_DGRAM"), (2, "SOCK_STREAM"), (4, "SOCK_RAW")]),
        Arg::SockLevel => named(w, &[(0xffff, "SOL_SOCKET"), (6, "IPPROTO_TCP")]),
        Arg::MsgFlags => bits(
            w,
            &[(1, "MSG_OOB"), (2, "MSG_PEEK"), (4, "MSG_DONTROUTE")],
            "0",
        ),
    }
}

/// The control command of msgctl, semctl or shmctl, by name, when
/// argument `i` of msgsys, semsys or shmsys is one.
fn ipc_cmd(nr: u32, words: &[u32], i: usize) -> Option<String> {
    use crate::abi::sys::{MSGSYS, SEMSYS, SHMSYS};
    let (common, extra): (usize, &[(u32, &str)]) = match (nr, words[0]) {
        (MSGSYS, 1) => (2, &[]),
        (SHMSYS, 1) => (2, &[(3, "SHM_LOCK"), (4, "SHM_UNLOCK")]),
        (SEMSYS, 0) => (
            3,
            &[
                (3, "GETNCNT"),
                (4, "GETPID"),
                (5, "GETVAL"),
                (6, "GETALL"),
                (7, "GETZCNT"),
                (8, "SETVAL"),
                (9, "SETALL"),
            ],
        ),
        _ => return None,
    };
    if i != common {
        return None;
    }
    let w = words[i];
    let base = [(10, "IPC_RMID"), (11, "IPC_SET"), (12, "IPC_STAT")];
    Some(
        base.iter()
            .chain(extra)
            .find(|(v, _)| *v == w)
            .map_or_else(|| (w as i32).to_string(), |(_, n)| n.to_string()),
    )
}

/// msgsys, semsys or shmsys's first argument: the operation's name
/// (syscalls/ipc.rs numbers them).
fn ipc_op(nr: u32, w: u32) -> String {
    use crate::abi::sys::{MSGSYS, SEMSYS, SHMSYS};
    let names: &[&str] = match nr {
        MSGSYS => &["msgget", "msgctl", "msgrcv", "msgsnd"],
        SEMSYS => &["semctl", "semget", "semop"],
        SHMSYS => &["shmat", "shmctl", "shmdt", "shmget"],
        _ => &[],
    };
    names
        .get(w as usize)
        .map_or_else(|| (w as i32).to_string(), |n| n.to_string())
}

/// An argument the call filled in, decoded after it succeeded; `None`
/// leaves what [`before`] showed.
fn after(p: &Process, words: &[u32], i: usize, kind: Arg) -> Option<String> {
    let w = words[i];
    match kind {
        // xstat's version 2 (o32 stat: st_mode at 20, a 32-bit st_size at
        // 48) and 3 (stat64: st_mode at 24, a 64-bit st_size at 56); the
        // layouts are in syscalls/stat.rs.
        Arg::StatOut => {
            let (mode_at, size_at, wide) = match words[0] {
                crate::abi::flags::STAT_VER_O32 => (20, 48, false),
                crate::abi::flags::STAT64_VER => (24, 56, true),
                _ => return None,
            };
            let mode = p.mem.read_u32(w.wrapping_add(mode_at)).ok()?;
            let size = if wide {
                let hi = p.mem.read_u32(w.wrapping_add(size_at)).ok()?;
                let lo = p.mem.read_u32(w.wrapping_add(size_at + 4)).ok()?;
                u64::from(hi) << 32 | u64::from(lo)
            } else {
                u64::from(p.mem.read_u32(w.wrapping_add(size_at)).ok()?)
            };
            Some(format!(
                "{{st_mode={}, st_size={size}, ...}}",
                file_mode(mode)
            ))
        }
        Arg::TimevalOut => read_pair(p, w, "tv_sec", "tv_usec"),
        _ => None,
    }
}

pub fn format_result(r: &SysResult) -> String {
    match r {
        Ok(Ret::Val(v)) => format!("{}", *v as i32),
        Ok(Ret::Pair(a, b)) => format!("{} ({})", *a as i32, *b as i32),
        Err(e) => format!("-1 {}", e.name()),
        Ok(Ret::Block | Ret::WaitHost) => "? (blocked)".into(),
        Ok(Ret::Exit(_)) => "?".into(),
        Ok(Ret::Jumped) => "0".into(),
    }
}

/// `{a=N, b=M}` from two 32-bit words at `addr`.
fn read_pair(p: &Process, addr: u32, a: &str, b: &str) -> Option<String> {
    let x = p.mem.read_u32(addr).ok()?;
    let y = p.mem.read_u32(addr.wrapping_add(4)).ok()?;
    Some(format!("{{{a}={}, {b}={}}}", x as i32, y as i32))
}

/// `value`'s name in `names`, else the number.
fn named(value: u32, names: &[(u32, &str)]) -> String {
    names
        .iter()
        .find(|(v, _)| *v == value)
        .map_or_else(|| (value as i32).to_string(), |(_, n)| n.to_string())
}

/// The set bits of `value` named by `names`, `|`-joined, with any bits
/// left over in hex; `zero` when nothing is set.
fn bits(value: u32, names: &[(u32, &str)], zero: &str) -> String {
    let mut parts = Vec::new();
    let mut rest = value;
    for &(bit, name) in names {
        if bit != 0 && value & bit == bit {
            parts.push(name.to_string());
            rest &= !bit;
        }
    }
    if rest != 0 {
        parts.push(format!("0x{rest:x}"));
    }
    if parts.is_empty() {
        zero.to_string()
    } else {
        parts.join("|")
    }
}

/// open(2)'s flags: the access mode, then the others (`O_WRONLY|O_CREAT|O_TRUNC`).
fn open_flags(w: u32) -> String {
    let mode = match w & oflag::O_ACCMODE {
        oflag::O_RDONLY => "O_RDONLY".to_string(),
        oflag::O_WRONLY => "O_WRONLY".to_string(),
        oflag::O_RDWR => "O_RDWR".to_string(),
        other => format!("0x{other:x}"),
    };
    let others = bits(
        w & !oflag::O_ACCMODE,
        &[
            (oflag::O_NDELAY, "O_NDELAY"),
            (oflag::O_APPEND, "O_APPEND"),
            (oflag::O_SYNC, "O_SYNC"),
            (oflag::O_NONBLOCK, "O_NONBLOCK"),
            (oflag::O_CREAT, "O_CREAT"),
            (oflag::O_TRUNC, "O_TRUNC"),
            (oflag::O_EXCL, "O_EXCL"),
            (oflag::O_NOCTTY, "O_NOCTTY"),
        ],
        "",
    );
    if others.is_empty() {
        mode
    } else {
        format!("{mode}|{others}")
    }
}

/// access(2)'s mode: F_OK, or R_OK|W_OK|X_OK.
fn access_mode(w: u32) -> String {
    bits(w, &[(4, "R_OK"), (2, "W_OK"), (1, "X_OK")], "F_OK")
}

fn prot(w: u32) -> String {
    bits(
        w,
        &[
            (1, "PROT_READ"),
            (mmap::PROT_WRITE, "PROT_WRITE"),
            (4, "PROT_EXEC"),
        ],
        "PROT_NONE",
    )
}

fn map_flags(w: u32) -> String {
    bits(
        w,
        &[
            (mmap::MAP_SHARED, "MAP_SHARED"),
            (mmap::MAP_PRIVATE, "MAP_PRIVATE"),
            (mmap::MAP_FIXED, "MAP_FIXED"),
            (mmap::MAP_ANONYMOUS, "MAP_ANONYMOUS"),
        ],
        "0",
    )
}

/// A stat's st_mode: the file type by name, then the permissions in octal
/// (`S_IFREG|0644`).
fn file_mode(mode: u32) -> String {
    let kind = match mode & 0o170000 {
        0o010000 => "S_IFIFO",
        0o020000 => "S_IFCHR",
        0o040000 => "S_IFDIR",
        0o060000 => "S_IFBLK",
        0o100000 => "S_IFREG",
        0o120000 => "S_IFLNK",
        0o140000 => "S_IFSOCK",
        _ => return format!("0{mode:o}"),
    };
    format!("{kind}|0{:o}", mode & 0o7777)
}

/// A C-style quoted string, cut at `max` bytes.
fn quote(bytes: &[u8], max: usize) -> String {
    quote_cut(&bytes[..bytes.len().min(max)], bytes.len() > max)
}

/// `bytes` quoted, then `...` when they were cut from something longer.
fn quote_cut(bytes: &[u8], cut: bool) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7e => s.push(b as char),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    s.push('"');
    if cut {
        s.push_str("...");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_flags_are_named_as_strace_names_them() {
        assert_eq!(open_flags(0), "O_RDONLY");
        assert_eq!(open_flags(0x302), "O_RDWR|O_CREAT|O_TRUNC");
        assert_eq!(open_flags(0x301), "O_WRONLY|O_CREAT|O_TRUNC");
        assert_eq!(open_flags(0x1_0008), "O_RDONLY|O_APPEND|0x10000");
    }

    #[test]
    fn bits_name_what_they_know_and_show_the_rest() {
        assert_eq!(access_mode(0), "F_OK");
        assert_eq!(access_mode(6), "R_OK|W_OK");
        assert_eq!(prot(0), "PROT_NONE");
        assert_eq!(prot(7), "PROT_READ|PROT_WRITE|PROT_EXEC");
        assert_eq!(map_flags(0x102), "MAP_PRIVATE|MAP_ANONYMOUS");
        assert_eq!(file_mode(0o100644), "S_IFREG|0644");
        assert_eq!(file_mode(0o040755), "S_IFDIR|0755");
        let msg = [(1, "MSG_OOB"), (2, "MSG_PEEK")];
        assert_eq!(bits(3, &msg, "0"), "MSG_OOB|MSG_PEEK");
        assert_eq!(bits(0, &msg, "0"), "0");
    }

    #[test]
    fn a_cut_string_says_so() {
        assert_eq!(quote(b"abc", 4), "\"abc\"");
        assert_eq!(quote(b"abcdef", 4), "\"abcd\"...");
        assert_eq!(quote_cut(b"a\n\"", false), "\"a\\n\\\"\"");
    }
}
