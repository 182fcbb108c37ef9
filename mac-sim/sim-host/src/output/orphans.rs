//! The temporaries of processes killed without warning (SIGKILL, a power cut, the
//! out-of-memory killer), which could not remove their own.
//!
//! Every temporary's name carries its maker: `.NAME.partial-HOST-PID-N`, where HOST
//! is 8 hex digits of a hash of the machine's name and PID the process's id. The
//! first time a process makes a temporary in a folder, it removes from that folder
//! every temporary of its own machine whose process no longer runs (`/proc/PID` does
//! not exist). A temporary of a process that still runs, or of another machine (a
//! folder shared over the network by the nodes of a cluster), is never touched; on a
//! system without `/proc`, nothing is removed.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};

use sim_kit::hash::fnv1a;

/// This machine's name, as the kernel has it (`""` where it cannot be read).
fn host_name() -> String {
    ["/proc/sys/kernel/hostname", "/etc/hostname"]
        .iter()
        .find_map(|p| fs::read_to_string(p).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// This machine's tag in a temporary's name: 8 hex digits.
fn host() -> &'static str {
    static HOST: OnceLock<String> = OnceLock::new();
    HOST.get_or_init(|| format!("{:08x}", fnv1a(host_name().as_bytes()) as u32))
}

/// `HOST-PID` of this process, for a temporary's name (`.NAME.partial-HOST-PID-N`).
pub fn mark() -> String {
    format!("{}-{}", host(), std::process::id())
}

/// The host tag and the process id of the temporary named `name`, if it is one.
pub fn owner(name: &str) -> Option<(&str, u32)> {
    if !name.starts_with('.') {
        return None;
    }
    let (_, rest) = name.split_once(".partial-")?;
    let mut parts = rest.splitn(3, '-');
    let host = parts.next()?;
    let pid = parts.next()?.parse().ok()?;
    let n = parts.next()?;
    let tagged = host.len() == 8 && host.bytes().all(|b| b.is_ascii_hexdigit());
    (tagged && n.starts_with(|c: char| c.is_ascii_digit())).then_some((host, pid))
}

/// Remove, once per folder and process, the temporaries in `dir` of this machine's
/// processes that no longer run (see the module docs). Errors are ignored: a
/// temporary that cannot be removed stays, as it would have anyway.
pub fn clean(dir: &Path) {
    static DONE: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    {
        let mut done = DONE.lock().unwrap_or_else(PoisonError::into_inner);
        if !done
            .get_or_insert_with(HashSet::new)
            .insert(dir.to_path_buf())
        {
            return;
        }
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some((h, pid)) = owner(&name) else {
            continue;
        };
        if h != host() || pid == std::process::id() || proc.join(pid.to_string()).exists() {
            continue;
        }
        let path = e.path();
        let _ = if e.file_type().is_ok_and(|t| t.is_dir()) {
            fs::remove_dir_all(&path)
        } else {
            fs::remove_file(&path)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The module's example: a temporary's name says whose it is.
    #[test]
    fn the_module_example() {
        let name = format!(".r.partial-{}-0.csv", mark());
        let (host, pid) = owner(&name).unwrap();
        assert_eq!(pid, std::process::id());
        assert_eq!(format!("{host}-{pid}"), mark());
        assert_eq!(owner("results.csv"), None);
    }

    /// A pid above Linux's largest (2^22), so no process has it.
    const GONE: u32 = 4_194_305;

    #[test]
    fn only_this_machines_temporaries_of_gone_processes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let alive = std::process::id();
        let made = [
            format!(".t.partial-{}-{GONE}-0.csv", host()),
            format!(".db.partial-{}-{GONE}-1.db-wal", host()),
            format!(".out.partial-{}-{GONE}-2", host()),
            format!(".t.partial-{}-{alive}-0.csv", host()),
            format!(".t.partial-0badf00d-{GONE}-0.csv"),
            "t.csv".to_string(),
            ".t.partial-5-0.csv".to_string(),
        ];
        for m in &made[..2] {
            fs::write(d.join(m), "x").unwrap();
        }
        fs::create_dir(d.join(&made[2])).unwrap();
        fs::write(d.join(&made[2]).join("results.csv"), "x").unwrap();
        for m in &made[3..] {
            fs::write(d.join(m), "x").unwrap();
        }
        clean(d);
        let mut left: Vec<String> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        let mut kept = made[3..].to_vec();
        kept.sort();
        assert_eq!(left, kept);
    }
}
