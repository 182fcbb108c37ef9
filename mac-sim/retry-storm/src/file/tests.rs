//! Every key of the scenario file's schema, given a bad value, gives one line naming
//! that key and the line it is written on; and the walk covers every key serde knows.

use std::collections::{BTreeMap, BTreeSet};

use super::parse;
use crate::error::FileProblem;

/// A table of a file: its header (empty for the top level) and its keys, each with a
/// good value and a bad one.
type Table = (
    &'static str,
    &'static [(&'static str, &'static str, &'static str)],
);

/// A file with every key of the schema, an open load: (header, [(key, good, bad)]).
/// The bad values are out of range where the key has a range, else of the wrong type.
const OPEN: &[Table] = &[
    (
        "",
        &[
            ("experiment", "\"storm\"", "\"storms\""),
            ("name", "\"full\"", "1"),
            ("title", "\"every key\"", "1"),
            ("expectation", "\"nothing\"", "[]"),
            ("horizon", "\"60s\"", "\"0s\""),
            ("bin", "\"1s\"", "\"1us\""),
            ("warmup", "\"5s\"", "\"20s\""),
            ("seed", "7", "-1"),
            ("users", "100", "0"),
            ("timeouts", "[\"1s\", \"2s\"]", "[]"),
        ],
    ),
    (
        "[load]",
        &[
            ("kind", "\"open\"", "\"opened\""),
            ("clients", "10", "0"),
            ("rate", "50.0", "-1.0"),
        ],
    ),
    (
        "[server]",
        &[
            ("workers", "8", "0"),
            ("service", "\"exponential\"", "\"normal\""),
            ("mean", "\"50ms\"", "\"50\""),
            ("error_time", "\"1ms\"", "\"0s\""),
            ("error_work_fraction", "0.4", "1.5"),
            ("rtt", "\"10ms\"", "\"10\""),
            ("queue_limit", "20", "-1"),
            ("listen_backlog", "10", "-1"),
            ("retry_after", "\"1s\"", "1"),
            ("reject_answer", "\"retry-after\"", "\"maybe\""),
            ("latency", "\"re-evaluated\"", "\"sometimes\""),
            ("pause_intake", "\"backlog\"", "\"all\""),
        ],
    ),
    (
        "[server.slowdown]",
        &[
            ("limit", "4", "-4"),
            ("factor", "2.0", "0.5"),
            ("step", "1.0", "0.0"),
            ("max", "\"1s\"", "\"1ms\""),
        ],
    ),
    (
        "[server.rate_limit]",
        &[("per_s", "100.0", "-1.0"), ("burst", "5", "0")],
    ),
    (
        "[[trigger]]",
        &[
            ("kind", "\"partial\"", "\"partly\""),
            ("start", "\"20s\"", "\"later\""),
            ("end", "\"30s\"", "\"10s\""),
            ("fraction", "0.5", "1.5"),
            ("error_work_fraction", "0.25", "0.0"),
        ],
    ),
    (
        "[[trigger]]",
        &[
            ("kind", "\"shard\"", "\"shards\""),
            ("start", "\"32s\"", "1"),
            ("end", "\"40s\"", "\"99s\""),
            ("shards", "4", "0"),
            ("failing", "1", "4"),
            ("error_work", "\"5ms\"", "\"5\""),
        ],
    ),
    (
        "[[trigger]]",
        &[
            ("kind", "\"load-spike\"", "2"),
            ("start", "\"41s\"", "\"41\""),
            ("end", "\"45s\"", "\"41s\""),
            ("factor", "2.0", "0.0"),
        ],
    ),
    (
        "[[trigger]]",
        &[
            ("kind", "\"capacity-loss\"", "\"outages\""),
            ("start", "\"46s\"", "\"-1s\""),
            ("end", "\"50s\"", "\"61s\""),
            ("fraction", "0.5", "-0.5"),
        ],
    ),
    (
        "[[trigger]]",
        &[
            ("kind", "\"overloaded\"", "\"overload\""),
            ("start", "\"51s\"", "\"51\""),
            ("end", "\"55s\"", "\"50s\""),
        ],
    ),
    (
        "[[trigger]]",
        &[
            ("kind", "\"slow\"", "\"slowly\""),
            ("start", "\"52s\"", "\"52\""),
            ("end", "\"54s\"", "\"51s\""),
            ("added", "\"200ms\"", "\"0s\""),
        ],
    ),
    (
        "[recovery]",
        &[
            ("success_fraction", "0.9", "2.0"),
            ("concurrency_factor", "2.0", "0.5"),
            ("concurrency_slack", "5.0", "-1.0"),
            ("sustain", "\"3s\"", "\"0s\""),
        ],
    ),
    (
        "[[strategy]]",
        &[
            ("name", "\"plain\"", "1"),
            ("spec", "\"exp+retries=3\"", "\"exp+retries=x\""),
            ("jitter_sigma", "\"50ms\"", "\"0s\""),
            ("timeouts", "[\"1s\"]", "[]"),
        ],
    ),
    (
        "[[strategy]]",
        &[
            ("name", "\"budget\"", "false"),
            (
                "spec",
                "\"exp-full+retries=3+budget=10\"",
                "\"exp+budget=250\"",
            ),
            ("timeouts", "[\"2s\"]", "[\"2\"]"),
        ],
    ),
    (
        "[[chain]]",
        &[
            ("name", "\"api\"", "1"),
            ("spec", "\"exp-full+retries=2\"", "\"exp-fuller\""),
            ("timeout", "\"2s\"", "\"0s\""),
            ("overloaded", "true", "\"yes\""),
        ],
    ),
    (
        "[[chain]]",
        &[
            ("name", "\"db-proxy\"", "[1]"),
            ("spec", "\"exp-full+retries=1\"", "\"exp+retries=-1\""),
            ("timeout", "\"1s\"", "2"),
        ],
    ),
];

/// The keys only a closed load has.
const CLOSED: &[Table] = &[(
    "[load]",
    &[
        ("kind", "\"closed\"", "\"close\""),
        ("clients", "10", "1000001"),
        ("think", "\"1s\"", "\"0s\""),
    ],
)];

/// The keys only a lognormal service time has, and error work as a time.
const LOGNORMAL: &[Table] = &[(
    "[server]",
    &[
        ("workers", "8", "-8"),
        ("service", "\"lognormal\"", "\"log-normal\""),
        ("mean", "\"20ms\"", "\"0s\""),
        ("sigma", "0.5", "0.0"),
        ("error_work", "\"10ms\"", "\"0s\""),
    ],
)];

/// The keys only a capped load has: its arrivals wait for a free client.
const CAPPED: &[Table] = &[(
    "[load]",
    &[
        ("kind", "\"capped\"", "\"cap\""),
        ("clients", "10", "0"),
        ("rate", "50.0", "-1.0"),
        ("when_busy", "\"wait\"", "\"queue\""),
        ("wait_limit", "100", "0"),
    ],
)];

/// The file of `tables` (with `swap`'s tables in place of those with the same
/// header), the value of key `bad` (table, key index) replaced by its bad value;
/// also the 1-based line of each (table, key).
fn text(tables: &[Table], bad: Option<(usize, usize)>) -> (String, Vec<Vec<usize>>) {
    let mut out = String::new();
    let mut lines = Vec::new();
    let mut line = 0;
    for (t, (header, keys)) in tables.iter().enumerate() {
        if !header.is_empty() {
            out.push_str(header);
            out.push('\n');
            line += 1;
        }
        let mut at = Vec::new();
        for (k, (key, good, worse)) in keys.iter().enumerate() {
            let v = if bad == Some((t, k)) { worse } else { good };
            out.push_str(&format!("{key} = {v}\n"));
            line += 1;
            at.push(line);
        }
        out.push('\n');
        line += 1;
        lines.push(at);
    }
    (out, lines)
}

/// `OPEN` with the tables of `swap` in place of those with the same header.
fn with(swap: &[Table]) -> Vec<Table> {
    OPEN.iter()
        .map(|t| *swap.iter().find(|s| s.0 == t.0).unwrap_or(t))
        .collect()
}

#[test]
fn the_full_files_are_good() {
    for tables in [with(&[]), with(CLOSED), with(LOGNORMAL), with(CAPPED)] {
        let (t, _) = text(&tables, None);
        let sc = parse(&t, "full.toml").unwrap_or_else(|e| panic!("{e}\n{t}"));
        assert_eq!(sc.runs.len(), 2);
        assert_eq!(sc.runs[0].triggers.len(), 6);
        assert_eq!(sc.runs[0].chain.len(), 2);
    }
}

#[test]
fn every_key_with_a_bad_value_is_named_with_its_line() {
    for tables in [with(&[]), with(CLOSED), with(LOGNORMAL), with(CAPPED)] {
        for (t, (header, keys)) in tables.iter().enumerate() {
            for (k, (key, _, bad)) in keys.iter().enumerate() {
                let (text, lines) = text(&tables, Some((t, k)));
                let line = lines[t][k];
                let e = match parse(&text, "full.toml") {
                    Err(e) => e,
                    Ok(_) => panic!("{header} {key} = {bad} accepted"),
                };
                let shown = e.to_string();
                assert_eq!(
                    (e.line, e.key.as_str()),
                    (Some(line), *key),
                    "{header} {key} = {bad} (line {line}): {shown}"
                );
                assert_eq!(shown.lines().count(), 1, "{shown}");
                assert!(
                    shown.starts_with(&format!("full.toml:{line}: {key}: ")),
                    "{shown}"
                );
            }
        }
    }
}

/// A trigger's error names that trigger's line, also when another trigger, alone,
/// would be refused for something else (here the first, starting within the warm-up).
#[test]
fn a_triggers_error_names_the_trigger_at_fault() {
    let (good, lines) = text(&with(&[]), None);
    let early = good.replacen("start = \"20s\"", "start = \"2s\"", 1);
    let bad = early
        .replacen("fraction = 0.5", "fraction = 0.25", 1)
        .replacen("fraction = 0.5", "fraction = 1.5", 1);
    let e = parse(&bad, "full.toml").expect_err("a fraction out of range");
    // The fourth table of triggers (index 8 of OPEN), its `fraction` (index 3).
    assert_eq!(
        (e.line, e.key.as_str()),
        (Some(lines[8][3]), "fraction"),
        "{e}"
    );
}

/// The keys serde expects in the table with `header`, from its "unknown field"
/// message: a key added to the schema shows up here.
fn keys_serde_expects(tables: &[Table], header: &str) -> BTreeSet<String> {
    let (full, _) = text(tables, None);
    let unknown = "not_a_key_of_the_schema = 1\n";
    let text = if header.is_empty() {
        format!("{unknown}{full}")
    } else {
        full.replacen(&format!("{header}\n"), &format!("{header}\n{unknown}"), 1)
    };
    let e = parse(&text, "full.toml").expect_err("an unknown key");
    let FileProblem::Toml(message) = &e.problem else {
        panic!("{e}")
    };
    let expected = message
        .split_once("expected")
        .unwrap_or_else(|| panic!("{message}"))
        .1;
    expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The sub-tables of the table with `header`: keys of their parent in serde's list.
fn tables_of(header: &str) -> &'static [&'static str] {
    match header {
        "" => &["load", "server", "trigger", "recovery", "strategy", "chain"],
        "[server]" => &["slowdown", "rate_limit"],
        _ => &[],
    }
}

/// The reference (`mac-sim storm --keys`, the README) documents every key the schema
/// accepts, in every table, and nothing else.
#[test]
fn the_reference_documents_every_key_of_the_schema() {
    // The contention file's table is compared with its own schema in file::contention.
    let storm = || {
        super::keys::TABLES
            .iter()
            .filter(|t| t.header != "[contention]")
    };
    let documented: BTreeSet<&str> = storm().map(|t| t.header).collect();
    let walked: BTreeSet<&str> = OPEN.iter().chain(CLOSED).map(|t| t.0).collect();
    assert_eq!(
        documented, walked,
        "the reference's tables and the schema's differ"
    );
    for t in storm() {
        let mut expected = keys_serde_expects(&with(&[]), t.header);
        for table in tables_of(t.header) {
            assert!(expected.remove(*table), "{}: no table {table}", t.header);
        }
        let listed: BTreeSet<String> = t.keys.iter().map(|k| k.key.to_string()).collect();
        assert_eq!(
            listed, expected,
            "{}: the reference and the schema differ",
            t.header
        );
    }
}

#[test]
fn the_walk_covers_every_key_of_the_schema() {
    let mut walked: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (header, keys) in OPEN.iter().chain(CLOSED).chain(LOGNORMAL).chain(CAPPED) {
        let set = walked.entry(header).or_default();
        set.extend(keys.iter().map(|(k, _, _)| k.to_string()));
    }
    // Tables are keys of their parent in serde's list; each is walked on its own.
    for (header, keys) in &walked {
        let mut expected = keys_serde_expects(&with(&[]), header);
        for table in tables_of(header) {
            let name = header.trim_matches(['[', ']']);
            let sub = if name.is_empty() {
                table.to_string()
            } else {
                format!("{name}.{table}")
            };
            let walked_as = [format!("[{sub}]"), format!("[[{sub}]]")];
            assert!(
                walked_as.iter().any(|h| walked.contains_key(h.as_str())),
                "{sub} is not walked"
            );
            assert!(expected.remove(*table), "{header}: no table {table}");
        }
        assert_eq!(&expected, keys, "{header}: the walk and the schema differ");
    }
}

/// The keys of error work and of a lognormal service time that do not fit their
/// table, each named with its line.
#[test]
fn error_work_and_sigma_out_of_place_are_named() {
    let (good, lines) = text(&with(&[]), None);
    let problem = |text: &str| {
        let e = parse(text, "full.toml").expect_err(text);
        assert_eq!(e.to_string().lines().count(), 1, "{e}");
        (e.line, e.key.clone(), e.problem)
    };
    // Both forms of error work in one table: the second is named.
    let both = good.replacen(
        "error_work_fraction = 0.4\n",
        "error_work_fraction = 0.4\nerror_work = \"2ms\"\n",
        1,
    );
    let (line, key, p) = problem(&both);
    assert_eq!(
        (line, key.as_str()),
        (Some(lines[2][4]), "error_work_fraction")
    );
    assert!(p.to_string().contains("exclude each other"), "{p}");
    // sigma with an exponential service time; a lognormal one without it.
    let sigma = good.replacen("mean = \"50ms\"\n", "mean = \"50ms\"\nsigma = 0.5\n", 1);
    let (_, key, p) = problem(&sigma);
    assert_eq!((key.as_str(), p), ("sigma", FileProblem::NotForKind));
    let lognormal = good.replacen("\"exponential\"", "\"lognormal\"", 1);
    let (line, key, p) = problem(&lognormal);
    assert_eq!(
        (line, key.as_str(), p),
        (Some(lines[2][0] - 1), "sigma", FileProblem::Missing)
    );
    // Error work on a trigger that answers no error (the load spike).
    let spike = good.replacen(
        "factor = 2.0\n\n",
        "factor = 2.0\nerror_work = \"1ms\"\n\n",
        1,
    );
    let (line, key, p) = problem(&spike);
    assert_eq!(
        (line, key.as_str(), p),
        (Some(lines[7][3] + 1), "error_work", FileProblem::NotForKind)
    );
}

/// The keys read into the configuration as written.
#[test]
fn the_new_server_keys_are_read() {
    use crate::config::{ErrorWork, ServiceTime};
    use sim_kit::time::Time;
    let (t, _) = text(&with(&[]), None);
    let run = &parse(&t, "full.toml").unwrap().runs[0];
    assert_eq!(run.server.error_work, Some(ErrorWork::Fraction(0.4)));
    assert_eq!(run.server.rtt_ps, Time::from_ms(10));
    assert_eq!(run.triggers[0].error_work, Some(ErrorWork::Fraction(0.25)));
    assert_eq!(
        run.triggers[1].error_work,
        Some(ErrorWork::Time(Time::from_ms(5)))
    );
    assert_eq!(run.triggers[2].error_work, None);
    let (t, _) = text(&with(LOGNORMAL), None);
    let run = &parse(&t, "full.toml").unwrap().runs[0];
    let mean = Time::from_ms(20);
    assert_eq!(
        run.server.service,
        ServiceTime::LogNormal { mean, sigma: 0.5 }
    );
    assert_eq!(
        run.server.error_work,
        Some(ErrorWork::Time(Time::from_ms(10)))
    );
    assert_eq!(run.server.rtt_ps, Time::ZERO);
}

/// The keys that need another: re-evaluated latency needs a slowdown, a Retry-After
/// needs rejections that carry it; each error names its own key and line.
#[test]
fn keys_that_need_another_name_their_line() {
    let (good, lines) = text(&with(&[]), None);
    // [server] is OPEN's table 2; its keys: retry_after 8, reject_answer 9, latency 10.
    let slow = good.find("[server.slowdown]").unwrap();
    let end = slow + good[slow..].find("\n\n").unwrap();
    let unslowed = format!("{}{}", &good[..slow], &good[end..]);
    let e = parse(&unslowed, "full.toml").expect_err("no slowdown");
    assert_eq!(
        (e.line, e.key.as_str()),
        (Some(lines[2][10]), "latency"),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("re-evaluated latency needs a slowdown"),
        "{e}"
    );
    for answer in ["error", "do-not-retry"] {
        let other = good.replacen(
            "reject_answer = \"retry-after\"",
            &format!("reject_answer = \"{answer}\""),
            1,
        );
        let e = parse(&other, "full.toml").expect_err("a Retry-After not carried");
        assert_eq!(
            (e.line, e.key.as_str()),
            (Some(lines[2][8]), "retry_after"),
            "{e}"
        );
        assert!(e.to_string().contains("a Retry-After of 1 s needs"), "{e}");
        let without = other.replacen("retry_after = \"1s\"\n", "", 1);
        let sc = parse(&without, "full.toml").unwrap_or_else(|e| panic!("{e}"));
        let want = if answer == "error" {
            crate::config::RejectAnswer::Error
        } else {
            crate::config::RejectAnswer::DoNotRetry
        };
        assert_eq!(sc.runs[0].server.reject_answer, want);
    }
    let sc = parse(&good, "full.toml").unwrap();
    assert_eq!(
        sc.runs[0].server.latency,
        crate::config::Latency::ReEvaluated
    );
    assert!(sc.runs[0].chain[0].overloaded && !sc.runs[0].chain[1].overloaded);
    assert_eq!(
        sc.runs[0].triggers[4].kind,
        crate::config::TriggerKind::Overloaded
    );
}

/// `when_busy` and `wait_limit` belong to a capped load, and `wait_limit` to arrivals
/// that wait: elsewhere each is refused on its own line; a waiting line without a
/// limit gets the default.
#[test]
fn waiting_keys_only_where_arrivals_wait() {
    use crate::config::{Load, WhenBusy};
    let (capped, lines) = text(&with(CAPPED), None);
    let line = |k: usize| lines[1][k];
    let sc = parse(&capped, "full.toml").unwrap();
    assert!(matches!(
        sc.runs[0].load,
        Load::Capped {
            max_active: 10,
            when_busy: WhenBusy::Wait { limit: 100 },
            ..
        }
    ));
    let unlimited = capped.replacen("wait_limit = 100\n", "\n", 1);
    let sc = parse(&unlimited, "full.toml").unwrap();
    assert!(matches!(
        sc.runs[0].load,
        Load::Capped {
            when_busy: WhenBusy::Wait {
                limit: WhenBusy::DEFAULT_LIMIT
            },
            ..
        }
    ));
    let cases = [
        (
            capped.replacen("\"wait\"", "\"turn-away\"", 1),
            line(4),
            "wait_limit",
            "wait_limit: has no effect without when_busy = \"wait\" (arrivals turned away form no line): remove it, or add that",
        ),
        (
            capped.replacen("\"capped\"", "\"open\"", 1),
            line(3),
            "when_busy",
            "not used by this kind",
        ),
        (
            capped.replacen("wait_limit = 100", "wait_limit = 10000001", 1),
            line(4),
            "wait_limit",
            "wait limit 10000001: between 1 and 10000000",
        ),
    ];
    for (text, line, key, needle) in cases {
        let e = parse(&text, "full.toml").expect_err(key);
        assert_eq!((e.line, e.key.as_str()), (Some(line), key), "{e}");
        assert!(e.to_string().contains(needle), "{e}");
    }
}

/// `jitter_sigma` is the spec's part `sigma=DUR`: absolute normal jitter on the
/// strategy's exponential backoff; with a spec that has a jitter of its own it is
/// refused on its own line.
#[test]
fn jitter_sigma_is_absolute_normal_jitter() {
    use backoff_core::Jitter;
    let tables = with(&[]);
    let (full, lines) = text(&tables, None);
    let sc = parse(&full, "full.toml").unwrap();
    let policy = sc.runs[0].strategy.policy.unwrap();
    assert_eq!(
        policy.jitter(),
        Jitter::AbsoluteNormal {
            sigma_ns: 50_000_000
        }
    );
    let same = crate::strategy::Strategy::parse("exp+retries=3+sigma=50ms").unwrap();
    assert_eq!(same.policy, sc.runs[0].strategy.policy);
    let bad = full.replacen("\"exp+retries=3\"", "\"exp-full+retries=3\"", 1);
    let e = parse(&bad, "full.toml").unwrap_err();
    let t = tables.iter().position(|t| t.0 == "[[strategy]]").unwrap();
    assert_eq!(
        (e.line, e.key.as_str()),
        (Some(lines[t][2]), "jitter_sigma"),
        "{e}"
    );
    assert!(
        e.to_string().contains("'sigma' needs 'exp or exp-normal'"),
        "{e}"
    );
}
