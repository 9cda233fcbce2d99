//! The `q` packets: the features the stub offers, the documents GDB reads
//! (`qXfer`: the target description and the library list), the thread
//! list (one thread per debugged process), and `monitor` commands.

use std::io;

use cpu_mips::Observer;

use super::arch::TARGET_XML;
use super::conn::Conn;
use super::libraries::library_list;
use super::packet::{addr_len, escape_binary, from_hex, thread_id, to_hex};
use super::session::{Session, Then};

/// The largest packet GDB may send us (hex, so 0x4000 memory bytes fit).
const PACKET_SIZE: usize = 0x8000;

/// The stub's features, whatever GDB offers.
const FEATURES: &str = "qXfer:features:read+;qXfer:libraries:read+;multiprocess+;\
swbreak+;QStartNoAckMode+;vContSupported+;ReverseStep+;ReverseContinue+";

impl<O: Observer> Session<'_, O> {
    pub fn query(&mut self, rest: &[u8], conn: &mut Conn) -> io::Result<Then> {
        let text = String::from_utf8_lossy(rest);
        let reply = |s: String| Ok(Then::Reply(s.into_bytes()));
        if let Some(gdb) = text.strip_prefix("Supported") {
            return reply(self.supported(gdb));
        }
        if let Some(xfer) = rest.strip_prefix(b"Xfer:") {
            return Ok(Then::Reply(self.xfer(xfer)));
        }
        if let Some(cmd) = rest.strip_prefix(b"Rcmd,") {
            let Some(cmd) = from_hex(cmd) else {
                return reply("E01".into());
            };
            let out = self.monitor(&String::from_utf8_lossy(&cmd));
            conn.send(format!("O{}", to_hex(out.as_bytes())).as_bytes())?;
            return reply("OK".into());
        }
        match text.as_ref() {
            "fThreadInfo" => {
                let ids: Vec<String> = self
                    .state
                    .procs
                    .keys()
                    .filter(|&&pid| self.alive(pid))
                    .map(|&pid| thread_id(pid))
                    .collect();
                reply(format!("m{}", ids.join(",")))
            }
            "sThreadInfo" => reply("l".into()),
            "C" => reply(format!("QC{}", thread_id(self.state.pid))),
            // The stub started the program: quitting GDB kills it.
            t if t == "Attached" || t.starts_with("Attached:") => reply("0".into()),
            _ => reply(String::new()),
        }
    }

    /// `qSupported:features`: ours, with fork and exec events when GDB
    /// handles them (no vfork events: irix-emu knows no IRIX vfork call).
    fn supported(&mut self, gdb: &str) -> String {
        let offered = |f: &str| gdb.split([':', ';']).any(|x| x == f);
        self.state.events.fork = offered("fork-events+");
        self.state.events.exec = offered("exec-events+");
        let mut features = format!("PacketSize={PACKET_SIZE:x};{FEATURES}");
        if self.state.events.fork {
            features.push_str(";fork-events+");
        }
        if self.state.events.exec {
            features.push_str(";exec-events+");
        }
        features
    }

    /// `qXfer:object:read:annex:offset,length`.
    fn xfer(&self, xfer: &[u8]) -> Vec<u8> {
        let fields: Vec<&[u8]> = xfer.splitn(4, |&b| b == b':').collect();
        let [object, b"read", annex, range] = fields.as_slice() else {
            return Vec::new();
        };
        let doc = match (*object, *annex) {
            (b"features", b"target.xml") => TARGET_XML.to_string(),
            (b"libraries", b"") => library_list(self.kernel.debug_objects(self.general)),
            (b"features" | b"libraries", _) => return b"E00".to_vec(),
            _ => return Vec::new(),
        };
        let Some((offset, length)) = addr_len(range) else {
            return b"E00".to_vec();
        };
        part(doc.as_bytes(), offset as usize, length)
    }
}

/// A `qXfer` reply: `l` and the rest of the document from `offset` when it
/// fits in `length`, else `m` and `length` bytes of it.
fn part(doc: &[u8], offset: usize, length: usize) -> Vec<u8> {
    let start = offset.min(doc.len());
    let length = length.min(PACKET_SIZE / 2);
    let end = doc.len().min(start.saturating_add(length));
    let mut out = vec![if end == doc.len() { b'l' } else { b'm' }];
    escape_binary(&doc[start..end], &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_served_in_parts_by_offset() {
        let doc = b"0123456789";
        assert_eq!(part(doc, 0, 4), b"m0123");
        assert_eq!(part(doc, 8, 4), b"l89");
        assert_eq!(part(doc, 10, 4), b"l");
        assert_eq!(part(doc, 99, 4), b"l");
        assert_eq!(part(b"a$b", 0, 10), b"la}\x04b");
    }
}
