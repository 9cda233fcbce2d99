//! --strace: one line per system call, "[pid] name(args) = result", with
//! arguments decoded by the kinds the table gives.

use super::{Arg, Args, Ret, SysResult, Syscall};
use crate::process::Process;

/// Bytes of a string or write buffer shown before "...".
const SHOW_MAX: usize = 32;

/// `name(args)`; a syssgi request shows as `syssgi(SGI_NAME, args)`.
pub fn format_call(p: &Process, def: &Syscall, args: &Args, family: Option<&str>) -> String {
    let args = args.words();
    let shown: Vec<String> = family
        .map(|_| def.name.to_string())
        .into_iter()
        .chain(def.args.iter().enumerate().map(|(i, kind)| {
            match kind {
                // A syssgi request irix-emu lacks is still named, when IRIX
                // names it.
                Arg::Int if i == 0 && family.is_none() && def.nr == crate::abi::sys::SYSSGI => {
                    crate::abi::names::syssgi_request_name(args[0])
                        .map_or_else(|| (args[0] as i32).to_string(), str::to_string)
                }
                Arg::Int | Arg::Fd => (args[i] as i32).to_string(),
                Arg::Hex | Arg::Ptr => format!("0x{:x}", args[i]),
                Arg::Oct => format!("0{:o}", args[i]),
                Arg::Str => match p.mem.read_cstr(args[i], 4096) {
                    Ok(s) => quote(&s),
                    Err(_) => format!("0x{:x}", args[i]),
                },
                Arg::Buf => {
                    let len = (args.get(i + 1).copied().unwrap_or(0) as usize).min(SHOW_MAX);
                    let mut b = vec![0; len];
                    match p.mem.read_bytes(args[i], &mut b) {
                        Ok(()) => quote(&b),
                        Err(_) => format!("0x{:x}", args[i]),
                    }
                }
            }
        }))
        .collect();
    format!("{}({})", family.unwrap_or(def.name), shown.join(", "))
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

/// A C-style quoted string, cut at SHOW_MAX bytes.
fn quote(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes.iter().take(SHOW_MAX) {
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
    if bytes.len() > SHOW_MAX {
        s.push_str("...");
    }
    s
}
