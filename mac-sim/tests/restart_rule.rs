//! `--ifg-rule restart` is the deference of the model before the IEEE 802.3 gap
//! became the default: the default run's output recorded then
//! (`tests/golden/before-8023/run-default.txt`) is byte for byte the output recorded
//! now for `run --ifg-rule restart` (`tests/golden/expected/run-restart.txt`, which the
//! golden test checks against the binary).

use std::path::Path;

#[test]
fn restart_rule_reproduces_the_earlier_default_output() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let before = std::fs::read(dir.join("before-8023/run-default.txt")).expect("old recording");
    let now = std::fs::read(dir.join("expected/run-restart.txt")).expect("restart recording");
    assert_eq!(before, now);
    // And the default has really changed.
    let default = std::fs::read(dir.join("expected/run-default.txt")).expect("default recording");
    assert_ne!(before, default);
}
