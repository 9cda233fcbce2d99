//! A debugging session: the packets GDB sends, answered one by one until
//! GDB detaches, kills, closes the connection or the last debugged
//! process ends. `query` answers the `q` packets, `resume` the packets that
//! run the machine; this file the rest (registers, memory, breakpoints,
//! threads, detach and kill).

use std::io;

use cpu_mips::Observer;
use irix_kernel::process::{Pid, RunState};
use irix_kernel::{signals, Kernel, Outcome};

use super::conn::{Conn, Incoming};
use super::history::History;
use super::packet::{addr_len, from_hex, hex_u64, to_hex, ThreadId};
use super::stop::DebugState;
use super::target::{self, Point};

/// The machine under GDB.
pub struct Session<'k, O: Observer> {
    pub kernel: &'k mut Kernel,
    pub obs: &'k mut O,
    pub state: DebugState,
    pub history: History,
    /// The process `Hg` selected: the one registers, memory and
    /// breakpoints are read and set in.
    pub general: Pid,
    /// Set when the run ended while GDB watched it.
    pub finished: Option<Outcome>,
    /// The process the stub started (the run's first).
    pub started: Pid,
}

/// How a session ended.
#[derive(Debug, PartialEq, Eq)]
pub enum End {
    /// GDB detached every process: the run goes on undebugged.
    Detached,
    /// GDB killed the program.
    Killed,
    /// The last debugged process ended (the run may go on).
    Exited,
}

/// What to do after a packet.
pub enum Then {
    Reply(Vec<u8>),
    /// Run the machine; the stop reply answers the packet.
    Resume,
    /// Send the reply, then end the session.
    End(Vec<u8>, End),
    /// `QStartNoAckMode`: `OK`, then no more acknowledgements.
    NoAcks,
}

fn reply(s: impl Into<Vec<u8>>) -> Then {
    Then::Reply(s.into())
}

const OK: &str = "OK";
/// An error reply (the number means nothing to GDB).
const ERROR: &str = "E01";

impl<O: Observer> Session<'_, O> {
    /// Serves GDB until the session ends. An error is a lost connection.
    pub fn serve(&mut self, conn: &mut Conn) -> io::Result<End> {
        loop {
            let packet = match conn.read()? {
                Incoming::Packet(p) => p,
                // An interrupt while the machine is stopped: nothing to do.
                Incoming::Interrupt => continue,
            };
            match self.handle(&packet, conn)? {
                Then::Reply(r) => conn.send(&r)?,
                Then::NoAcks => {
                    conn.send(OK.as_bytes())?;
                    conn.no_acks();
                }
                Then::Resume => {
                    let (stop, end) = self.wait(conn)?;
                    conn.send(&stop)?;
                    if let Some(end) = end {
                        return Ok(end);
                    }
                }
                Then::End(r, end) => {
                    // `k` has no reply.
                    if !r.is_empty() {
                        conn.send(&r)?;
                    }
                    return Ok(end);
                }
            }
        }
    }

    /// Answers one packet.
    fn handle(&mut self, packet: &[u8], conn: &mut Conn) -> io::Result<Then> {
        let Some((&kind, rest)) = packet.split_first() else {
            return Ok(reply(""));
        };
        Ok(match kind {
            b'?' => reply(self.halt_reason()),
            b'q' => self.query(rest, conn)?,
            b'Q' if rest == b"StartNoAckMode" => Then::NoAcks,
            b'H' => self.set_thread(rest),
            b'T' => reply(match ThreadId::parse(rest) {
                Some(ThreadId::Process(pid)) if self.alive(pid) => OK,
                _ => ERROR,
            }),
            b'g' => reply(match target::read_registers(self.kernel, self.general) {
                Some(r) => to_hex(&r.to_bytes()),
                None => ERROR.into(),
            }),
            b'G' => reply(self.write_registers(rest)),
            b'p' => reply(self.read_register(rest)),
            b'P' => reply(self.write_register(rest)),
            b'm' => reply(self.read_memory(rest)),
            b'M' => reply(self.write_memory(rest)),
            b'Z' | b'z' => reply(self.point(kind == b'Z', rest)),
            b'c' | b'C' | b's' | b'S' | b'v' | b'b' => self.resume_packet(packet),
            b'D' => self.detach(rest),
            // Kills every debugged process (GDB uses it when vKill fails).
            b'k' => {
                let pids: Vec<Pid> = self.state.procs.keys().copied().collect();
                let mut then = Then::End(Vec::new(), End::Killed);
                for pid in pids.into_iter().rev() {
                    then = self.kill(pid);
                }
                match then {
                    Then::End(_, end) => Then::End(Vec::new(), end),
                    _ => Then::End(Vec::new(), End::Exited),
                }
            }
            _ => reply(""),
        })
    }

    /// Whether GDB debugs `pid` and it still exists.
    pub fn alive(&self, pid: Pid) -> bool {
        self.state.procs.contains_key(&pid) && self.kernel.debug_process(pid).is_some()
    }

    /// `Hg` picks the process registers and memory are read from; `Hc`
    /// (the legacy resume's thread) is accepted and ignored: `vCont` names
    /// its threads.
    fn set_thread(&mut self, rest: &[u8]) -> Then {
        let Some((&op, id)) = rest.split_first() else {
            return reply(ERROR);
        };
        match (op, ThreadId::parse(id)) {
            (b'g', Some(ThreadId::Process(pid))) if self.alive(pid) => {
                self.general = pid;
                reply(OK)
            }
            (b'g', Some(ThreadId::Any | ThreadId::All)) | (b'c', Some(_)) => reply(OK),
            _ => reply(ERROR),
        }
    }

    fn write_registers(&mut self, hex: &[u8]) -> String {
        let (Some(bytes), Some(mut regs)) = (
            from_hex(hex),
            target::read_registers(self.kernel, self.general),
        ) else {
            return ERROR.into();
        };
        if regs.write_bytes(&bytes).is_err()
            || !target::write_registers(self.kernel, self.general, &regs)
        {
            return ERROR.into();
        }
        OK.into()
    }

    fn read_register(&mut self, n: &[u8]) -> String {
        let regs = target::read_registers(self.kernel, self.general);
        match (hex_u64(n), regs) {
            (Some(n), Some(regs)) => match regs.get(n as usize) {
                Some(v) => to_hex(&v.to_be_bytes()),
                None => ERROR.into(),
            },
            _ => ERROR.into(),
        }
    }

    fn write_register(&mut self, rest: &[u8]) -> String {
        let Some(eq) = rest.iter().position(|&b| b == b'=') else {
            return ERROR.into();
        };
        let n = hex_u64(&rest[..eq]);
        let value = from_hex(&rest[eq + 1..]).and_then(|b| <[u8; 4]>::try_from(b).ok());
        let regs = target::read_registers(self.kernel, self.general);
        let (Some(n), Some(value), Some(mut regs)) = (n, value, regs) else {
            return ERROR.into();
        };
        if !regs.set(n as usize, u32::from_be_bytes(value))
            || !target::write_registers(self.kernel, self.general, &regs)
        {
            return ERROR.into();
        }
        OK.into()
    }

    /// `m addr,len`: as many bytes as are readable (an error if none).
    fn read_memory(&mut self, rest: &[u8]) -> String {
        let Some((addr, len)) = addr_len(rest) else {
            return ERROR.into();
        };
        let mut buf = vec![0u8; len.min(0x4000)];
        let n = self.kernel.debug_read(self.general, addr, &mut buf);
        if n == 0 && len > 0 {
            return ERROR.into();
        }
        to_hex(&buf[..n])
    }

    /// `M addr,len:hex` (text included: breakpoints are not written into
    /// memory, but GDB may patch code).
    fn write_memory(&mut self, rest: &[u8]) -> String {
        let Some(colon) = rest.iter().position(|&b| b == b':') else {
            return ERROR.into();
        };
        let (Some((addr, len)), Some(data)) =
            (addr_len(&rest[..colon]), from_hex(&rest[colon + 1..]))
        else {
            return ERROR.into();
        };
        if data.len() != len || self.kernel.debug_write(self.general, addr, &data).is_err() {
            return ERROR.into();
        }
        OK.into()
    }

    /// `Z type,addr,kind` and `z type,addr,kind`, in the `Hg` process.
    fn point(&mut self, insert: bool, rest: &[u8]) -> String {
        let Some(point) = rest.first().and_then(|&t| Point::from_type(t)) else {
            return String::new();
        };
        let fields = rest.get(2..).unwrap_or_default();
        let fields = match fields.iter().position(|&b| b == b';') {
            Some(semi) => &fields[..semi],
            None => fields,
        };
        let (Some((addr, len)), Some(t)) =
            (addr_len(fields), self.state.procs.get_mut(&self.general))
        else {
            return ERROR.into();
        };
        let len = len as u32;
        let done = if insert {
            t.insert(point, addr, len)
        } else {
            t.remove(point, addr, len)
        };
        if done || !insert { OK } else { ERROR }.into()
    }

    /// `D` detaches every process (the session ends); `D;pid` one, and the
    /// session goes on while GDB debugs others. A detached process runs on
    /// undebugged.
    fn detach(&mut self, rest: &[u8]) -> Then {
        let pid = match rest.strip_prefix(b";") {
            None => None,
            Some(pid) => match hex_u64(pid).and_then(|p| u32::try_from(p).ok()) {
                Some(pid) if self.state.procs.contains_key(&pid) => Some(pid),
                _ => return reply(ERROR),
            },
        };
        match pid {
            Some(pid) if self.state.procs.len() > 1 => {
                self.state.procs.remove(&pid);
                self.refocus();
                reply(OK)
            }
            _ => Then::End(OK.into(), End::Detached),
        }
    }

    /// `vKill;pid`: the process gets SIGKILL and leaves the session. The
    /// program the stub started, when it is the last debugged process,
    /// ends the run as killed by SIGKILL at once; the others die when
    /// they next run (their parents see them killed), and with the last
    /// of them the session ends while the run goes on.
    pub fn kill(&mut self, pid: Pid) -> Then {
        if !self.state.procs.contains_key(&pid) {
            return reply(ERROR);
        }
        self.state.procs.remove(&pid);
        if self.state.procs.is_empty() && pid == self.started {
            return Then::End(OK.into(), End::Killed);
        }
        if let Some(p) = self.kernel.debug_process_mut(pid) {
            p.signals.pending |= signals::bit(signals::SIGKILL);
            if p.state == RunState::Blocked {
                p.state = RunState::Runnable;
            }
        }
        if self.state.procs.is_empty() {
            return Then::End(OK.into(), End::Exited);
        }
        self.refocus();
        reply(OK)
    }

    /// After a process left the session: the focus and `Hg` move to one
    /// that is still debugged.
    pub fn refocus(&mut self) {
        let first = self.state.procs.keys().next().copied();
        if let Some(first) = first {
            if !self.state.procs.contains_key(&self.state.pid) {
                self.state.pid = first;
            }
            if !self.state.procs.contains_key(&self.general) {
                self.general = first;
            }
        }
    }
}
