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

use cpu_mips::Observer;
use gdbstub::target::ext::libraries::Libraries;
use gdbstub::target::TargetResult;
use irix_kernel::memory::MappedObject;

use super::target::Debuggee;
use crate::report::svg::xml_escape;

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

/// Copies the part of `doc` from `offset` on that fits `length` and `buf`.
fn copy_part(doc: &[u8], offset: u64, length: usize, buf: &mut [u8]) -> usize {
    let start = usize::try_from(offset).unwrap_or(usize::MAX).min(doc.len());
    let n = (doc.len() - start).min(length).min(buf.len());
    buf[..n].copy_from_slice(&doc[start..start + n]);
    n
}

impl<O: Observer> Libraries for Debuggee<'_, O> {
    fn get_libraries(
        &self,
        offset: u64,
        length: usize,
        buf: &mut [u8],
    ) -> TargetResult<usize, Self> {
        let doc = library_list(self.kernel.debug_objects(self.state.pid));
        Ok(copy_part(doc.as_bytes(), offset, length, buf))
    }
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

    #[test]
    fn parts_of_the_document_are_served_by_offset() {
        let doc = b"0123456789";
        let mut buf = [0u8; 4];
        assert_eq!(copy_part(doc, 0, 4, &mut buf), 4);
        assert_eq!(&buf, b"0123");
        assert_eq!(copy_part(doc, 8, 4, &mut buf), 2);
        assert_eq!(&buf[..2], b"89");
        assert_eq!(copy_part(doc, 10, 4, &mut buf), 0);
        assert_eq!(copy_part(doc, 99, 4, &mut buf), 0);
    }
}
