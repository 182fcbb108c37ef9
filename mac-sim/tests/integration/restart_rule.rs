//! `--ifg-rule restart` is the deference of the model before the IEEE 802.3 gap
//! became the default: the default run's output recorded then
//! (`tests/golden/before-8023/run-default.txt`) is, but for the report line that
//! names the deference rule, the output recorded now for `run --ifg-rule restart`
//! (`tests/golden/expected/run-restart.txt`, which the golden test checks against the
//! binary).

use std::path::Path;

/// The report without the line that names the deference and jam rules (new in 0.2).
fn without_rule_line(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("  deference "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn restart_rule_reproduces_the_earlier_default_output() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let read = |p: &str| std::fs::read_to_string(dir.join(p)).expect(p);
    let before = read("before-8023/run-default.txt");
    let now = read("expected/run-restart.txt");
    assert!(now.contains("  deference       restarting gap"));
    assert_eq!(before, without_rule_line(&now) + "\n");
    // And the default has really changed.
    let default = read("expected/run-default.txt");
    assert_ne!(before, without_rule_line(&default) + "\n");
}
