//! Scenarios by name or path: a preset's name, a file on disk, and the errors for a
//! name that is neither and a file that cannot be read.

use retry_storm::StormError;
use retry_storm::error::FileProblem;
use retry_storm::presets;
use retry_storm_host::scenario_file::load;

#[test]
fn names_and_paths() {
    let o = presets::Options::default();
    assert!(matches!(
        load("nope", &o),
        Err(StormError::UnknownScenario(_))
    ));
    match load("no/such/file.toml", &o) {
        Err(StormError::File(e)) => {
            assert!(matches!(e.problem, FileProblem::Read(_)));
            assert_eq!(e.line, None);
        }
        other => panic!("{other:?}"),
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.toml");
    // The preset's file without its name: a file's name is then its stem.
    let text = presets::text("partial").unwrap();
    std::fs::write(&path, text.replacen("name = \"partial\"\n", "", 1)).unwrap();
    let sc = load(path.to_str().unwrap(), &o).unwrap();
    assert_eq!(sc.name, "mine");
    let preset = load("partial", &o).unwrap();
    assert_eq!(preset.name, "partial");
    assert_eq!(format!("{:?}", sc.runs), format!("{:?}", preset.runs));
}
