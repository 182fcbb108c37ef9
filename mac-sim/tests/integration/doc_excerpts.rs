//! The command outputs and figures quoted in README.md, mac-sim/README.md and
//! firmware/README.md are checked against the binary, so that a quote cannot go stale.
//!
//! A quote is marked in the Markdown by an HTML comment (invisible on GitHub) on the line
//! before it:
//!
//! * `<!-- checked: exact -->` before a fenced block: each `$ COMMAND` line of the block is
//!   run by bash in an empty folder with this binary first on `PATH` (`cargo run --release
//!   -p mac-sim [--]` reads as `mac-sim`; `mac-sim/scenarios/` and
//!   `mac-sim/retry-storm/policies/` are there), standard error
//!   merged into standard output, and the lines up to the next `$ ` line must equal what
//!   it prints.
//! * `<!-- checked: excerpt -->` the same, but the quoted lines need only appear in the
//!   output in order: a line `...` (any indentation) marks where lines are left out. The
//!   first quoted line must be the output's first and the last its last unless a `...`
//!   stands before or after them.
//! * `<!-- checked: parses -->` before a block of commands (a `$ ` and a trailing
//!   `# comment` are allowed): each `mac-sim ARGS` must be accepted by the argument
//!   parser, checked by running `mac-sim ARGS --help` (exit status 0: the subcommand
//!   and the flags exist; the values are not checked). For commands whose output is not
//!   quoted, or too long to run in a test, such as the measurements of BENCHMARKS.md.
//! * `<!-- checked: commands -->` before a paragraph or a table (up to the next blank
//!   line), such as the figures of measurements: every inline code span that is a
//!   `mac-sim` command must parse as above, and every one that starts with a script of
//!   this repository (`firmware/run-tests.sh`, `mac-sim/macsim-web/bench.py`) must name a
//!   file that exists.
//! * `<!-- checked: runs -->` the same as `commands`, for the figures of measurements
//!   (performance tables): each distinct `mac-sim` command is also run, in an empty
//!   folder, and must exit 0, so a figure always names a command that still works
//!   (its numbers are not compared: they are wall-clock measurements, dated in the doc).
//!   These run after every document's sessions, and a command that a session already
//!   ran to exit status 0 as the first of its block (so in an empty folder, as here), a
//!   plain command without shell syntax, is not run again.
//! * `<!-- checked: numbers -->` before a paragraph or a table: every number in it must
//!   appear in the output of the last `exact` or `excerpt` block above it (or in its
//!   commands), as printed or rounded to the digits the paragraph shows (20 for 20.4,
//!   0.85 for 0.847), so prose that quotes a figure of an output cannot disagree with it.
//!
//! Three things are not compared: the line a sweep prints on a non-terminal standard
//! error as its runs start (`mac-sim: sweep: N runs to do`; a terminal shows a progress
//! bar and erases it), wall-clock times in `M events in T s`, and tshark's warning when
//! run as root. A command that calls tshark is skipped, with a note on stderr, where
//! tshark is missing, unless `MAC_SIM_REQUIRE_TSHARK` is set (as `test.sh` sets it).
//!
//! `DOCS_RECORD=1 cargo test -p mac-sim --test integration doc_excerpts::` rewrites the
//! quoted output of every `exact` and `excerpt` block from the current binary (an excerpt
//! keeps its `...` and takes each of its lines from the output line with the same first
//! word and the same words without digits) and then checks as usual; review the diff.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

const DOCS: [&str; 3] = ["README.md", "mac-sim/README.md", "firmware/README.md"];

#[derive(Clone, Copy, PartialEq, Debug)]
enum Mode {
    Exact,
    Excerpt,
    Parses,
    Numbers,
    Commands,
    Runs,
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn marker_mode(line: &str) -> Option<Mode> {
    let rest = line.trim().strip_prefix("<!-- checked:")?;
    let mode = rest.strip_suffix("-->")?.trim();
    Some(match mode {
        "exact" => Mode::Exact,
        "excerpt" => Mode::Excerpt,
        "parses" => Mode::Parses,
        "numbers" => Mode::Numbers,
        "commands" => Mode::Commands,
        "runs" => Mode::Runs,
        other => panic!("unknown marker mode {other:?} in {line:?}"),
    })
}

/// The command a reader types, as the test runs it.
fn as_run(cmd: &str) -> String {
    cmd.replace("cargo run --release -p mac-sim --", "mac-sim")
        .replace("cargo run --release -p mac-sim", "mac-sim")
}

/// A folder to run the commands in: empty but for `mac-sim/scenarios` and the storm's
/// example retry configurations, `mac-sim/retry-storm/policies`.
fn workdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("mac-sim/retry-storm")).unwrap();
    for linked in ["mac-sim/scenarios", "mac-sim/retry-storm/policies"] {
        std::os::unix::fs::symlink(repo_root().join(linked), dir.path().join(linked)).unwrap();
    }
    dir
}

/// What `cmd` printed (standard error merged in), and whether it exited with status 0.
fn run_shell(cmd: &str, dir: &Path) -> (String, bool) {
    let bin = Path::new(env!("CARGO_BIN_EXE_mac-sim"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("exec 2>&1\n{}", as_run(cmd)))
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("NO_COLOR")
        .output()
        .expect("bash runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.success(),
    )
}

/// Whether `cmd` is one `mac-sim` process with its arguments and nothing for the shell to
/// do (no pipe, redirection, variable or quoting): run by bash or directly, the same.
fn is_plain(cmd: &str) -> bool {
    cmd.starts_with("mac-sim ")
        && !cmd.contains(|c: char| "|&;<>$`'\"\\()*?~{}#".contains(c) || c == '\n')
}

/// What one document's check found.
struct DocResult {
    /// Markers checked.
    checked: usize,
    failures: Vec<String>,
    /// The `runs` commands to run once every document is done, with where they are.
    runs: Vec<(String, String)>,
    /// Plain commands that a session ran to exit status 0 in an empty folder.
    ran_ok: HashSet<String>,
}

fn have_tshark() -> bool {
    Command::new("tshark")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What is compared of an output line: `None` for a line left out.
fn normalise(line: &str) -> Option<String> {
    let l = line.trim_end();
    // tshark's warning when run as root (as in CI's container) is no part of its output.
    let tshark_root = l.starts_with("Running as user \"root\"");
    if tshark_root || (l.starts_with("mac-sim: ") && l.ends_with(" runs to do")) {
        return None;
    }
    let mut s = l.to_string();
    if let Some(i) = s.find(" M events in ") {
        let start = i + " M events in ".len();
        if let Some(len) = s[start..].find(" s") {
            s.replace_range(start..start + len, "T");
        }
    }
    Some(s)
}

fn normalised(text: &str) -> Vec<String> {
    text.lines().filter_map(normalise).collect()
}

fn is_ellipsis(line: &str) -> bool {
    line.trim() == "..."
}

/// A line's first word and its other words without digits, to find where an
/// excerpt's line moved (the first word is a table row's key).
fn shape(line: &str) -> String {
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or("");
    std::iter::once(first)
        .chain(words.filter(|w| !w.chars().any(|c| c.is_ascii_digit())))
        .collect::<Vec<_>>()
        .join(" ")
}

/// An excerpt's lines without its `...`, and whether it is open at each end.
fn excerpt_lines(expected: &[String]) -> (Vec<&String>, bool, bool) {
    let open_start = expected.first().is_some_and(|l| is_ellipsis(l));
    let open_end = expected.last().is_some_and(|l| is_ellipsis(l));
    let lines = expected.iter().filter(|l| !is_ellipsis(l)).collect();
    (lines, open_start, open_end)
}

/// Checks an excerpt against the output: its lines in order, the first and the last
/// at the output's ends unless a `...` stands there.
fn check_excerpt(expected: &[String], actual: &[String]) -> Result<(), String> {
    let (lines, open_start, open_end) = excerpt_lines(expected);
    if !open_start && lines.first() != actual.first().as_ref() {
        return Err(format!(
            "the output starts with {:?}, not {:?} (start the excerpt with `...`)",
            actual.first(),
            lines.first()
        ));
    }
    if !open_end && lines.last() != actual.last().as_ref() {
        return Err(format!(
            "the output ends with {:?}, not {:?} (end the excerpt with `...`)",
            actual.last(),
            lines.last()
        ));
    }
    let mut cursor = 0;
    for l in lines {
        match (cursor..actual.len()).find(|&at| actual[at] == *l) {
            Some(at) => cursor = at + 1,
            None => return Err(format!("not in the output (in order): {l:?}")),
        }
    }
    Ok(())
}

/// The excerpt with its lines replaced by the output's: the lines before the first `...`
/// from the output's start, those after the last from its end, each other line the next
/// one with the same [`shape`].
fn record_excerpt(expected: &[String], actual: &[String]) -> Result<Vec<String>, String> {
    let head = expected.iter().take_while(|l| !is_ellipsis(l)).count();
    let tail = expected
        .iter()
        .rev()
        .take_while(|l| !is_ellipsis(l))
        .count();
    if head == expected.len() {
        return Ok(actual.to_vec());
    }
    if head > actual.len() || tail > actual.len() {
        return Err("the output is shorter than the excerpt".into());
    }
    let mut out = actual[..head].to_vec();
    let mut cursor = head;
    for l in &expected[head..expected.len() - tail] {
        if is_ellipsis(l) {
            out.push(l.clone());
            continue;
        }
        let want = shape(l);
        let at = (cursor..actual.len())
            .find(|&at| shape(&actual[at]) == want)
            .ok_or_else(|| format!("no output line like {l:?}"))?;
        out.push(actual[at].clone());
        cursor = at + 1;
    }
    out.extend_from_slice(&actual[actual.len() - tail..]);
    Ok(out)
}

fn numbers(text: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let dot_in_number =
            c == '.' && !cur.is_empty() && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
        if c.is_ascii_digit() || dot_in_number {
            cur.push(c);
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Whether `mac-sim ARGS` is accepted by the argument parser: `mac-sim ARGS --help`
/// exits 0. That checks the subcommand and every flag's name (and that a flag that takes
/// a value has one), not the values, which the schema checks only when the command runs.
fn check_parses(cmd: &str) -> Option<String> {
    let mut words = cmd.split_whitespace();
    if words.next() != Some("mac-sim") {
        return Some(format!("not a mac-sim command: {cmd:?}"));
    }
    let args: Vec<&str> = words.chain(["--help"]).collect();
    let o = crate::common::mac_sim(&args);
    (o.status.code() != Some(0))
        .then(|| format!("`{cmd}` is refused: {}", crate::common::stderr(&o).trim()))
}

/// Whether `mac-sim ARGS` runs to its end (exit status 0) in an empty folder; its output
/// is not compared.
fn check_runs(cmd: &str) -> Option<String> {
    let dir = workdir();
    let bin = Path::new(env!("CARGO_BIN_EXE_mac-sim"));
    let args: Vec<&str> = cmd.split_whitespace().skip(1).collect();
    let o = Command::new(bin)
        .args(&args)
        .current_dir(dir.path())
        .output()
        .expect("mac-sim runs");
    (!o.status.success()).then(|| {
        format!(
            "`{cmd}` failed ({}): {}",
            o.status,
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .last()
                .unwrap_or("")
        )
    })
}

/// Whether the number `n` of a paragraph is one of `known` as printed, or one of them
/// rounded to `n`'s decimals (prose may say 20 s for 20.4 s, 0.85 for 0.847; a change
/// in a digit it shows still fails).
fn quotes(n: &str, known: &HashSet<String>) -> bool {
    if known.contains(n) {
        return true;
    }
    let decimals = n.split_once('.').map_or(0, |(_, f)| f.len());
    known.iter().any(|k| {
        k.parse::<f64>()
            .is_ok_and(|v| format!("{v:.decimals$}") == n)
    })
}

/// The fenced block whose opening fence is the first non-blank line from `from`: the
/// indices of its first line and of its closing fence.
fn fenced_block(lines: &[String], from: usize, what: &str) -> (usize, usize) {
    let open = (from..lines.len())
        .find(|&i| !lines[i].trim().is_empty())
        .filter(|&i| lines[i].trim_start().starts_with("```"))
        .unwrap_or_else(|| panic!("{what}: the marker is not followed by a fenced block"));
    let close = (open + 1..lines.len())
        .find(|&i| lines[i].trim_start().starts_with("```"))
        .unwrap_or_else(|| panic!("{what}: the fenced block is not closed"));
    (open + 1, close)
}

/// Checks (or, recording, rewrites) one document; the failures found.
fn check_doc(rel: &str, record: bool) -> DocResult {
    let path = repo_root().join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut failures = vec![];
    let mut checked = 0;
    let mut runs = vec![];
    let mut ran_ok = HashSet::new();
    // The numbers of the last checked output, for `numbers` paragraphs.
    let mut last_numbers: Option<HashSet<String>> = None;
    let mut i = 0;
    while i < lines.len() {
        let Some(mode) = marker_mode(&lines[i]) else {
            i += 1;
            continue;
        };
        checked += 1;
        let what = format!("{rel}:{}", i + 1);
        if mode == Mode::Commands || mode == Mode::Runs {
            let start = i + 1;
            let end = (start..lines.len())
                .find(|&j| lines[j].trim().is_empty())
                .unwrap_or(lines.len());
            let text = lines[start..end].join("\n");
            let spans: Vec<&str> = text.split('`').skip(1).step_by(2).collect();
            let mut commands = 0;
            for span in spans {
                let cmd = as_run(span);
                let first = cmd.split_whitespace().next().unwrap_or("");
                if first == "mac-sim" {
                    commands += 1;
                    let refused = check_parses(&cmd);
                    if mode == Mode::Runs && refused.is_none() {
                        runs.push((what.clone(), cmd.clone()));
                    }
                    failures.extend(refused.map(|e| format!("{what}: {e}")));
                } else if first.contains('/') && (first.ends_with(".sh") || first.ends_with(".py"))
                {
                    commands += 1;
                    if !repo_root().join(first).is_file() {
                        failures.push(format!("{what}: `{span}`: no file {first}"));
                    }
                }
            }
            if commands == 0 {
                failures.push(format!("{what}: no command to check"));
            }
            i = end;
            continue;
        }
        if mode == Mode::Numbers {
            let start = i + 1;
            let end = (start..lines.len())
                .find(|&j| lines[j].trim().is_empty())
                .unwrap_or(lines.len());
            let Some(known) = &last_numbers else {
                failures.push(format!("{what}: no checked output above"));
                i = end;
                continue;
            };
            for n in numbers(&lines[start..end].join("\n")) {
                if !quotes(&n, known) {
                    failures.push(format!(
                        "{what}: the paragraph quotes {n}, which the output above does not print"
                    ));
                }
            }
            i = end;
            continue;
        }
        let (first, close) = fenced_block(&lines, i + 1, &what);
        let block: Vec<String> = lines[first..close].to_vec();
        if mode == Mode::Parses {
            // In a block that quotes output too, only the `$ ` lines are commands.
            let quoted_output = block.iter().any(|l| l.starts_with("$ "));
            for l in block
                .iter()
                .filter(|l| !quoted_output || l.starts_with("$ "))
            {
                let cmd = l.split(" #").next().unwrap().trim();
                let cmd = as_run(cmd.strip_prefix("$ ").unwrap_or(cmd));
                if cmd.is_empty() {
                    continue;
                }
                failures.extend(check_parses(&cmd).map(|e| format!("{what}: {e}")));
            }
            i = close + 1;
            continue;
        }
        // Sessions: a `$ ` line and the lines quoted as its output.
        let dir = workdir();
        let mut new_block = vec![];
        let mut known = HashSet::new();
        let mut j = 0;
        if !block.first().is_some_and(|l| l.starts_with("$ ")) {
            failures.push(format!(
                "{what}: the block does not start with a `$ ` command"
            ));
            i = close + 1;
            continue;
        }
        while j < block.len() {
            let cmd = block[j].strip_prefix("$ ").unwrap().to_string();
            new_block.push(block[j].clone());
            known.extend(numbers(&cmd));
            let end = (j + 1..block.len())
                .find(|&k| block[k].starts_with("$ "))
                .unwrap_or(block.len());
            let expected: Vec<String> = block[j + 1..end].to_vec();
            if cmd.contains("tshark") && !have_tshark() {
                // As pcap_cli.rs: test.sh installs tshark and sets MAC_SIM_REQUIRE_TSHARK.
                assert!(
                    std::env::var_os("MAC_SIM_REQUIRE_TSHARK").is_none(),
                    "{what}: tshark is required (MAC_SIM_REQUIRE_TSHARK) but not found"
                );
                eprintln!("{what}: tshark not found: `{cmd}` not checked");
                new_block.extend(expected);
                j = end;
                continue;
            }
            let (output, success) = run_shell(&cmd, dir.path());
            let typed = as_run(&cmd);
            if success && j == 0 && is_plain(&typed) {
                ran_ok.insert(typed);
            }
            known.extend(numbers(&output));
            let actual = normalised(&output);
            let expected_n: Vec<String> = expected
                .iter()
                .map(|l| normalise(l).unwrap_or_default())
                .collect();
            let result = match mode {
                Mode::Exact if expected_n == actual => Ok(()),
                Mode::Exact => Err(format!(
                    "the output differs:\n--- quoted\n{}\n--- printed\n{}",
                    expected.join("\n"),
                    actual.join("\n")
                )),
                _ => check_excerpt(&expected_n, &actual),
            };
            if let Err(e) = result {
                if record {
                    // The output as printed, less what is not compared.
                    let printed: Vec<String> = output
                        .lines()
                        .filter(|l| normalise(l).is_some())
                        .map(|l| l.trim_end().to_string())
                        .collect();
                    let recorded = match mode {
                        Mode::Exact => Ok(printed),
                        _ => record_excerpt(&expected, &printed),
                    };
                    match recorded {
                        Ok(r) => new_block.extend(r),
                        Err(r) => {
                            failures.push(format!("{what}: `{cmd}`: {e}; cannot record: {r}"));
                            new_block.extend(expected);
                        }
                    }
                } else {
                    failures.push(format!("{what}: `{cmd}`: {e}"));
                }
            } else {
                new_block.extend(expected);
            }
            j = end;
        }
        last_numbers = Some(known);
        let delta = new_block.len() as isize - block.len() as isize;
        lines.splice(first..close, new_block);
        i = (close as isize + delta) as usize + 1;
    }
    if record {
        let mut new_text = lines.join("\n");
        if text.ends_with('\n') {
            new_text.push('\n');
        }
        if new_text != text {
            std::fs::write(&path, new_text).unwrap();
        }
    }
    DocResult {
        checked,
        failures,
        runs,
        ran_ok,
    }
}

#[test]
fn every_quoted_output_is_what_the_binary_prints() {
    let record = std::env::var_os("DOCS_RECORD").is_some();
    let mut all = vec![];
    let mut total = 0;
    // One thread per document: most of the time is the commands' runs.
    let results: Vec<DocResult> = std::thread::scope(|scope| {
        let handles: Vec<_> = DOCS
            .iter()
            .map(|doc| {
                scope.spawn(move || {
                    let mut result = check_doc(doc, record);
                    if record {
                        // Check what was written.
                        result.failures.extend(check_doc(doc, false).failures);
                    }
                    result
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut ran_ok = HashSet::new();
    let mut runs = vec![];
    for result in results {
        total += result.checked;
        all.extend(result.failures);
        ran_ok.extend(result.ran_ok);
        runs.extend(result.runs);
    }
    // The `runs` commands no session has run already, each once, one thread each.
    let mut seen = HashSet::new();
    runs.retain(|(_, cmd)| !ran_ok.contains(cmd) && seen.insert(cmd.clone()));
    all.extend(std::thread::scope(|scope| {
        let handles: Vec<_> = runs
            .iter()
            .map(|(what, cmd)| scope.spawn(move || check_runs(cmd).map(|e| format!("{what}: {e}"))))
            .collect();
        handles
            .into_iter()
            .filter_map(|h| h.join().unwrap())
            .collect::<Vec<_>>()
    }));
    assert!(total > 0, "no checked quotes found");
    assert!(
        all.is_empty(),
        "{} stale quote(s) in the docs (DOCS_RECORD=1 rewrites the outputs; see doc_excerpts.rs):\n{}",
        all.len(),
        all.join("\n\n")
    );
}

#[test]
fn an_excerpt_matches_in_order_and_anchored() {
    let out: Vec<String> = ["a", "b 1", "c", "d 2", "e"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let v = |s: &[&str]| s.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(check_excerpt(&v(&["a", "b 1", "...", "e"]), &out).is_ok());
    assert!(check_excerpt(&v(&["...", "c", "...", "d 2", "..."]), &out).is_ok());
    assert!(check_excerpt(&v(&["a", "..."]), &out).is_ok());
    // Stale, out of order, not at the start, not at the end.
    assert!(check_excerpt(&v(&["a", "b 9", "..."]), &out).is_err());
    assert!(check_excerpt(&v(&["...", "d 2", "...", "b 1", "..."]), &out).is_err());
    assert!(check_excerpt(&v(&["b 1", "..."]), &out).is_err());
    assert!(check_excerpt(&v(&["a", "b 1"]), &out).is_err());
    assert_eq!(
        record_excerpt(&v(&["a", "b 9", "...", "d 7", "...", "e"]), &out).unwrap(),
        v(&["a", "b 1", "...", "d 2", "...", "e"])
    );
    assert_eq!(
        normalise("mac-sim: 27 points x 5 replications: 62.3 M events in 2.9 s; wrote").unwrap(),
        "mac-sim: 27 points x 5 replications: 62.3 M events in T s; wrote"
    );
    assert_eq!(
        numbers("0.93-1.02x, 34× at N = 32."),
        ["0.93", "1.02", "34", "32"]
    );
    let known: HashSet<String> = ["20.4", "0.847", "4.00"].map(String::from).into();
    for n in ["20", "20.4", "0.85", "0.847", "4.0", "4"] {
        assert!(quotes(n, &known), "{n}");
    }
    for n in ["21", "20.5", "0.84", "4.1"] {
        assert!(!quotes(n, &known), "{n}");
    }
}

#[test]
fn only_a_plain_command_counts_as_already_run() {
    assert!(is_plain("mac-sim radio --check bianchi"));
    assert!(is_plain("mac-sim sweep --stations 1..=256:x2 -o out"));
    for cmd in [
        "mac-sim run | head -3",
        "mac-sim run > out.txt",
        "mac-sim run -o \"a b\"",
        "mac-sim run && ls",
        "mac-sim run -o $HOME",
        "tshark -r x.pcapng",
    ] {
        assert!(!is_plain(cmd), "{cmd}");
    }
}

#[test]
fn a_runs_command_must_work_not_only_parse() {
    // Accepted by the parser, refused when it runs.
    let cmd = "mac-sim storm --scenario no-such-scenario";
    assert!(check_parses(cmd).is_none());
    let e = check_runs(cmd).expect("a failing command is reported");
    assert!(e.contains("no-such-scenario"), "{e}");
    assert!(check_runs("mac-sim theory").is_none());
}
