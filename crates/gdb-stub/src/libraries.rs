//! The shared objects of the traced process, for GDB's `info
//! sharedlibrary` and breakpoints in them.
//!
//! GDB has no IRIX OS ABI, and the SVR4 list (`qXfer:libraries-svr4`)
//! describes glibc's link map, which IRIX's rld does not keep; so the
//! stub serves the target-side list (`qXfer:libraries:read`): every object
//! mapped besides the program (the interpreter, each object SGI_ELFMAP
//! mapped), named by its guest path, with the run-time address of each
//! loaded segment. GDB finds the file under its `sysroot` and relocates
//! the object's symbols by the segments' moves. The target description
//! names the OS ABI "none", which selects that list in GDB (its default
//! GNU/Linux ABI would look for glibc's link map instead).
//!
//! Right after the system call that mapped a new object, the stub reports
//! a library event (`library:`), on which GDB reads the list again and
//! resumes; while GDB steps, the event waits for the next system call (a
//! step must stop where it ends).

use std::fmt::Write;

use irix_kernel::memory::MappedObject;

/// The library list document for `objects`.
pub fn library_list(objects: &[MappedObject]) -> String {
    let mut xml = String::from("<library-list version=\"1.0\">");
    for o in objects {
        let _ = write!(xml, "<library name=\"{}\">", xml_escape(&o.path));
        for s in &o.segments {
            let _ = write!(xml, "<segment address=\"{s:#x}\"/>");
        }
        xml.push_str("</library>");
    }
    xml.push_str("</library-list>");
    xml
}

/// `s` as XML attribute text.
fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 forbids: shown as U+FFFD.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_names_each_object_with_its_segments() {
        let objects = [
            MappedObject {
                path: "/lib/rld".into(),
                text: vec![(0x0fb6_0000, 0x0fb8_0000)],
                segments: vec![0x0fb6_0000, 0x0fbb_0000],
            },
            MappedObject {
                path: "/usr/lib/a&b\".so".into(),
                text: vec![],
                segments: vec![0x0fa0_0000],
            },
        ];
        assert_eq!(
            library_list(&objects),
            "<library-list version=\"1.0\">\
             <library name=\"/lib/rld\"><segment address=\"0xfb60000\"/>\
             <segment address=\"0xfbb0000\"/></library>\
             <library name=\"/usr/lib/a&amp;b&quot;.so\"><segment address=\"0xfa00000\"/></library>\
             </library-list>"
        );
        assert_eq!(
            library_list(&[]),
            "<library-list version=\"1.0\"></library-list>"
        );
    }
}
