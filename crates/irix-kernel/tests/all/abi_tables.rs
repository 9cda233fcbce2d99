//! The system call tables against the two copies outside the kernel: the
//! support list in docs/syscalls.md and the guest libc's numbers
//! (guest/libc/sysnr.h).

use std::path::Path;

use irix_kernel::syscalls::{self, syssgi};

fn repo_file(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const BEGIN: &str = "<!-- support summary: generated from the system call tables -->\n";
const END: &str = "<!-- end of support summary -->";

#[test]
fn docs_support_list_is_the_tables() {
    let path = "docs/syscalls.md";
    let doc = repo_file(path);
    let want = syscalls::support_summary();
    let (before, block, after) = doc
        .split_once(BEGIN)
        .and_then(|(before, rest)| {
            rest.split_once(END)
                .map(|(block, after)| (before, block, after))
        })
        .unwrap_or_else(|| panic!("{path} lacks the block between {BEGIN:?} and {END:?}"));
    let got = block.trim_start_matches('\n').trim_end();
    if got != want.trim_end() && std::env::var("IRIX_EMU_BLESS").as_deref() == Ok("1") {
        let blessed = format!("{before}{BEGIN}{}\n{END}{after}", want.trim_end());
        let file = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(path);
        std::fs::write(&file, blessed).unwrap_or_else(|e| panic!("{path}: {e}"));
        return;
    }
    assert_eq!(
        got,
        want.trim_end(),
        "{path}'s support list differs from the tables; IRIX_EMU_BLESS=1 rewrites it"
    );
}

/// `(name, number)` of every `#define PREFIXname N` in the IRIX part of
/// sysnr.h (the part before the Linux branch).
fn defines(text: &str, prefix: &str) -> Vec<(String, u32)> {
    text.lines()
        .take_while(|l| !l.starts_with("#elif defined(GUEST_LINUX)"))
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            (w.next()? == "#define").then_some(())?;
            let name = w.next()?.strip_prefix(prefix)?;
            Some((name.to_string(), w.next()?.parse().ok()?))
        })
        .collect()
}

#[test]
fn guest_libc_system_call_numbers_match_the_kernel_table() {
    let header = repo_file("guest/libc/sysnr.h");
    let numbers = defines(&header, "SYS_");
    assert!(numbers.len() > 20, "parsed {numbers:?}");
    for (name, nr) in numbers {
        let row = syscalls::lookup(nr)
            .unwrap_or_else(|| panic!("sysnr.h: SYS_{name} = {nr} is not in the table"));
        assert_eq!(row.name, name, "sysnr.h: number {nr}");
    }
}

#[test]
fn guest_syssgi_requests_match_the_kernel_table() {
    let header = repo_file("guest/include/sys/profil.h");
    let requests = defines(&header, "SGI_");
    assert!(!requests.is_empty());
    for (name, nr) in requests {
        let row = syssgi::lookup(nr)
            .unwrap_or_else(|| panic!("profil.h: SGI_{name} = {nr} is not in the table"));
        assert_eq!(row.name, format!("SGI_{name}"));
    }
}
