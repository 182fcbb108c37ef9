//! The memory a command may use on this host, and the check of a run's estimate
//! ([`sim_kit::memory::MemoryEstimate`]) against it before any work.
//!
//! The room a process has is the least of what Linux states for it, each read from
//! `/proc` and `/sys` (no call into the C library):
//!
//! | source | room |
//! | --- | --- |
//! | the machine | `MemAvailable` of `/proc/meminfo`, plus what the process already holds |
//! | its cgroup (a container, a Slurm job) | `memory.max` − `memory.current` of its cgroup and of each parent, plus what the process holds |
//! | `ulimit -v` (`RLIMIT_AS`) | the limit − the address space reserved and not yet resident |
//! | `ulimit -d` (`RLIMIT_DATA`) | the limit − the data segment reserved and not yet resident |
//!
//! A limit the user gives (`--max-memory SIZE`, Python's `max_memory=`) is one more
//! source; the word `none` turns the check off. On a system without these files
//! nothing is known and only a given limit applies.
//!
//! ```
//! use sim_host::memory::{self, Allowance, Source};
//! use sim_kit::memory::{Bytes, MemoryEstimate};
//! let mut run = MemoryEstimate::new();
//! run.add("stations", Bytes::gib(6));
//! let given: Allowance = "4G".parse().unwrap();
//! let e = memory::check("run", &run, 1, given).unwrap_err();
//! assert_eq!(e.limit.source, Source::Given);
//! assert!(e.to_string().starts_with("the run needs about 6.0 GiB (stations 6.0 GiB, the program 16.0 MiB"), "{e}");
//! assert!(memory::check("run", &run, 1, "none".parse().unwrap()).is_ok());
//! ```

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use sim_kit::memory::{Bytes, BytesParseError, MemoryEstimate};

/// What limits a command's memory besides what the host states: a size the user
/// gives, nothing more, or no check at all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Allowance {
    /// Only the host's limits (the default).
    #[default]
    Host,
    /// The host's limits and this size, whichever is less.
    AtMost(Bytes),
    /// No check: the run may fail by running out of memory.
    Unchecked,
}

impl FromStr for Allowance {
    type Err = BytesParseError;

    /// A size ([`Bytes`]: `4G`, `512MiB`) or `none`.
    ///
    /// # Errors
    ///
    /// The [`BytesParseError`] of a text that is neither.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text.trim() == "none" {
            return Ok(Self::Unchecked);
        }
        text.parse().map(Self::AtMost)
    }
}

/// Where a limit comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The size the user gave.
    Given,
    /// The machine's available memory.
    Machine,
    /// The cgroup's `memory.max` (a container, a batch job).
    Cgroup,
    /// `ulimit -v`.
    AddressSpace,
    /// `ulimit -d`.
    DataSegment,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Given => "the --max-memory given",
            Self::Machine => "the memory the machine has available",
            Self::Cgroup => "the limit of this process's cgroup (memory.max)",
            Self::AddressSpace => "the address space ulimit -v allows",
            Self::DataSegment => "the data segment ulimit -d allows",
        })
    }
}

/// The room a process has, and what sets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// The bytes it may come to hold in all.
    pub bytes: Bytes,
    /// What sets the limit.
    pub source: Source,
}

/// What a process of this program holds before any work (its code, libraries and
/// first allocations, measured at about 14 MiB), and each thread's stack.
pub fn program(threads: usize) -> MemoryEstimate {
    let mut m = MemoryEstimate::new();
    m.add("the program", Bytes::mib(16));
    m.add("thread stacks", Bytes::mib(2).times(threads as u64));
    m
}

/// Each thread that allocates may get a heap arena of its own from the C library,
/// reserved whole in the address space (64 MiB on 64-bit glibc) though little of it
/// becomes resident: counted only against the address-space limit.
const ARENA: Bytes = Bytes::mib(64);

/// The room the host gives this process, the least of every source it states (see the
/// module docs), or `None` when it states none.
pub fn host_limit() -> Option<Limit> {
    let status = read("/proc/self/status");
    let field = |name: &str| status.as_deref().and_then(|s| kib_field(s, name));
    let resident = field("VmRSS:").unwrap_or(Bytes::ZERO);
    let mut limits = Vec::new();
    if let Some(avail) = read("/proc/meminfo").and_then(|s| kib_field(&s, "MemAvailable:")) {
        limits.push(Limit {
            bytes: avail.plus(resident),
            source: Source::Machine,
        });
    }
    if let Some(room) = cgroup_room() {
        limits.push(Limit {
            bytes: room.plus(resident),
            source: Source::Cgroup,
        });
    }
    if let Some(text) = read("/proc/self/limits") {
        let reserved = |name| field(name).unwrap_or(Bytes::ZERO).minus(resident);
        for (name, vm, source) in [
            ("Max address space", "VmSize:", Source::AddressSpace),
            ("Max data size", "VmData:", Source::DataSegment),
        ] {
            if let Some(soft) = rlimit(&text, name) {
                limits.push(Limit {
                    bytes: soft.minus(reserved(vm)),
                    source,
                });
            }
        }
    }
    limits.into_iter().min_by_key(|l| l.bytes)
}

/// A run that would not fit: its estimate and the limit it is over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooBig {
    /// What would not fit (`"run"`, `"sweep"`), for the message.
    pub what: &'static str,
    /// What the work would need, the program included.
    pub estimate: MemoryEstimate,
    /// The limit it exceeds.
    pub limit: Limit,
}

impl fmt::Display for TooBig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the {} needs about {}, more than the {} of {}: make it smaller, or give --max-memory none to run it anyway",
            self.what, self.estimate, self.limit.bytes, self.limit.source
        )
    }
}

impl std::error::Error for TooBig {}

/// Check a command's work (`what`, as the message names it; `work`: its runs' parts, those on `threads` threads at
/// once included), with [`program`] added, against the host's limit and the
/// `allowance`.
///
/// # Errors
///
/// [`TooBig`] with the whole estimate and the least limit it exceeds. Against the
/// address space (`ulimit -v`), each thread's arena reserve is counted too.
pub fn check(
    what: &'static str,
    work: &MemoryEstimate,
    threads: usize,
    allowance: Allowance,
) -> Result<(), TooBig> {
    check_against(what, work, threads, allowance, host_limit())
}

/// [`check`] against a host limit given (for tests, and for a caller that read it
/// once).
///
/// # Errors
///
/// As [`check`].
pub fn check_against(
    what: &'static str,
    work: &MemoryEstimate,
    threads: usize,
    allowance: Allowance,
    host: Option<Limit>,
) -> Result<(), TooBig> {
    let given = match allowance {
        Allowance::Unchecked => return Ok(()),
        Allowance::Host => None,
        Allowance::AtMost(bytes) => Some(Limit {
            bytes,
            source: Source::Given,
        }),
    };
    let mut whole = work.clone();
    whole.merge(&program(threads));
    for limit in [given, host].into_iter().flatten() {
        let mut need = whole.clone();
        if limit.source == Source::AddressSpace {
            need.add("heap arenas (address space)", ARENA.times(threads as u64));
        }
        if need.total() > limit.bytes {
            return Err(TooBig {
                what,
                estimate: need,
                limit,
            });
        }
    }
    Ok(())
}

fn read(path: impl AsRef<Path>) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// `NAME:   123 kB` of `/proc/self/status` or `/proc/meminfo`.
fn kib_field(text: &str, name: &str) -> Option<Bytes> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib = line[name.len()..].split_whitespace().next()?.parse().ok()?;
    Some(Bytes::kib(kib))
}

/// The soft limit of `name` in `/proc/self/limits`, unless unlimited.
fn rlimit(text: &str, name: &str) -> Option<Bytes> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let soft = line[name.len()..].split_whitespace().next()?;
    soft.parse().ok().map(Bytes::new)
}

/// The least room (`memory.max` − `memory.current`) of this process's cgroup (v2)
/// and its parents.
fn cgroup_room() -> Option<Bytes> {
    let own = read("/proc/self/cgroup")?;
    let rel = own.lines().find_map(|l| l.strip_prefix("0::"))?.trim();
    let mut dir = PathBuf::from("/sys/fs/cgroup").join(rel.trim_start_matches('/'));
    let mut least: Option<Bytes> = None;
    loop {
        let max = read(dir.join("memory.max")).and_then(|s| s.trim().parse::<u64>().ok());
        let current = read(dir.join("memory.current")).and_then(|s| s.trim().parse::<u64>().ok());
        if let (Some(max), Some(current)) = (max, current) {
            let room = Bytes::new(max).minus(Bytes::new(current));
            least = Some(least.map_or(room, |l| l.min(room)));
        }
        if dir == Path::new("/sys/fs/cgroup") || !dir.pop() {
            break;
        }
    }
    least
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(gib: u64) -> MemoryEstimate {
        let mut m = MemoryEstimate::new();
        m.add("stations", Bytes::gib(gib));
        m
    }

    #[test]
    fn the_least_limit_refuses() {
        let machine = Limit {
            bytes: Bytes::gib(8),
            source: Source::Machine,
        };
        let host = Some(machine);
        assert!(check_against("run", &run(4), 2, Allowance::Host, host).is_ok());
        let e = check_against("run", &run(9), 2, Allowance::Host, host).unwrap_err();
        assert_eq!(e.limit, machine);
        let given = Allowance::AtMost(Bytes::gib(2));
        let e = check_against("run", &run(4), 2, given, host).unwrap_err();
        assert_eq!(e.limit.source, Source::Given);
        assert!(check_against("run", &run(100), 2, Allowance::Unchecked, host).is_ok());
        assert!(check_against("run", &run(100), 2, Allowance::Host, None).is_ok());
    }

    #[test]
    fn the_address_space_counts_each_threads_arena() {
        let host = Some(Limit {
            bytes: Bytes::gib(1).plus(Bytes::mib(100)),
            source: Source::AddressSpace,
        });
        // 1 GiB + 16 MiB + 2 × 2 MiB fits in 1 GiB + 100 MiB, not with 2 × 64 MiB of
        // arenas.
        let e = check_against("run", &run(1), 2, Allowance::Host, host).unwrap_err();
        assert!(
            e.to_string()
                .contains("heap arenas (address space) 128.0 MiB"),
            "{e}"
        );
        assert!(check_against("run", &run(1), 1, Allowance::Host, host).is_ok());
    }

    #[test]
    fn allowances_read() {
        assert_eq!("none".parse(), Ok(Allowance::Unchecked));
        assert_eq!("3G".parse(), Ok(Allowance::AtMost(Bytes::gib(3))));
        assert!("lots".parse::<Allowance>().is_err());
    }

    #[test]
    fn proc_fields_read() {
        assert_eq!(
            kib_field("VmHWM:\t  2048 kB\nVmRSS:\t 1024 kB\n", "VmRSS:"),
            Some(Bytes::mib(1))
        );
        let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                      Max data size             unlimited            unlimited            bytes     \n\
                      Max address space         4294967296           unlimited            bytes     \n";
        assert_eq!(rlimit(limits, "Max address space"), Some(Bytes::gib(4)));
        assert_eq!(rlimit(limits, "Max data size"), None);
        // On Linux the host states at least the machine's memory.
        if Path::new("/proc/meminfo").exists() {
            assert!(host_limit().is_some());
        }
    }
}
