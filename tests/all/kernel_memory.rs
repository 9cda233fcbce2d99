//! The calls that tell the kernel how memory is held (crates/irix-kernel/
//! src/syscalls/cache.rs): cacheflush(2), cachectl(2) and madvise(2), on
//! the committed guest program mem_hints (guest/src). Each test is named
//! after the sentence of the page it holds the kernel to, quoted in it.

use crate::common;

use std::sync::OnceLock;

use common::{exited, guest_program, run_emu, Scratch};

/// mem_hints' output, run once for every test (None: not built).
fn output() -> Option<&'static str> {
    static OUT: OnceLock<Option<String>> = OnceLock::new();
    OUT.get_or_init(|| {
        let program = guest_program("irix", "mem_hints")?;
        let dir = Scratch::new("mem-hints");
        let r = run_emu(["run".as_ref(), program.as_os_str()], dir.path());
        assert_eq!(r.status, exited(0), "stderr: {}", r.stderr);
        assert_eq!(r.stderr, "");
        Some(r.stdout_text())
    })
    .as_deref()
}

/// The lines of mem_hints' output that start with one of `prefixes`.
fn lines(prefixes: &[&str]) -> Vec<&'static str> {
    output().map_or_else(Vec::new, |out| {
        out.lines()
            .filter(|l| prefixes.iter().any(|p| l.starts_with(p)))
            .collect()
    })
}

#[test]
fn cacheflush_flushes_the_range_so_rewritten_code_runs() {
    // cacheflush(2): "They flush the contents of the indicated cache(s) for
    // user addresses in the range addr to (addr+nbytes-1)": code rewritten
    // and flushed runs as rewritten.
    if output().is_none() {
        return;
    }
    assert_eq!(
        lines(&[
            "cacheflush ICACHE",
            "code",
            "cacheflush BCACHE",
            "rewritten",
            "cacheflush DCACHE"
        ]),
        [
            "cacheflush ICACHE: 0",
            "code returns 11",
            "cacheflush BCACHE: 0",
            "rewritten code returns 22",
            "cacheflush DCACHE: 0",
        ]
    );
}

#[test]
fn cacheflush_is_einval_for_another_cache_and_efault_for_an_inaccessible_range() {
    // cacheflush(2): "[EINVAL] The cache parameter is not one of ICACHE,
    // DCACHE, or BCACHE. [EFAULT] Some or all of the address range addr to
    // (addr+nbytes-1) is not accessible." A negative nbytes: EINVAL.
    if output().is_none() {
        return;
    }
    assert_eq!(
        lines(&[
            "cacheflush cache",
            "cacheflush unmapped",
            "cacheflush past",
            "cacheflush negative"
        ]),
        [
            "cacheflush cache 4: -1 EINVAL",
            "cacheflush unmapped: -1 EFAULT",
            "cacheflush past the mapping: -1 EFAULT",
            "cacheflush negative nbytes: -1 EINVAL",
        ]
    );
}

#[test]
fn cachectl_makes_page_aligned_ranges_uncacheable_or_cacheable_and_checks_its_arguments() {
    // cachectl(2): "addr must be page aligned and nbytes must be a multiple
    // of the page size"; "[EINVAL] The op parameter is not one of CACHEABLE
    // or UNCACHEABLE", "[EFAULT] Some or all of the address range ... is
    // not accessible." Uncacheable code still runs.
    if output().is_none() {
        return;
    }
    assert_eq!(
        lines(&["cachectl", "uncacheable"]),
        [
            "cachectl UNCACHEABLE: 0",
            "uncacheable code returns 22",
            "cachectl CACHEABLE: 0",
            "cachectl op 2: -1 EINVAL",
            "cachectl unaligned addr: -1 EINVAL",
            "cachectl nbytes 100: -1 EINVAL",
            "cachectl unmapped: -1 EFAULT",
        ]
    );
}

#[test]
fn madvise_dontneed_keeps_the_contents_and_refuses_other_advice_and_unmapped_ranges() {
    // madvise(2): MADV_DONTNEED: the pages "will be the first to be
    // reclaimed", not lost; "[ENOMEM] Addresses in the range (addr, addr +
    // len) are outside the valid range for the address space of the
    // process. [EINVAL] behavior is not recognized by the system."
    if output().is_none() {
        return;
    }
    assert_eq!(
        lines(&["madvise", "contents"]),
        [
            "madvise MADV_DONTNEED: 0",
            "contents kept: k",
            "madvise behavior 0: -1 EINVAL",
            "madvise unmapped: -1 ENOMEM",
        ]
    );
}
