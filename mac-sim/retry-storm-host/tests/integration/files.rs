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

/// The names the files module declares for `--out` are the files it writes, so that
/// the command line's check before the runs sees every one.
#[test]
fn declared_names_are_the_files_written() {
    use retry_storm::contention::{ContentionConfig, run_contention};
    use retry_storm::sweep::parse_axis;
    use retry_storm_host::contention::run_contention_seeds;
    use retry_storm_host::{files, replicate, run_comparison, sweep};
    let listing = |write: &dyn Fn(&std::path::Path)| {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path());
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let sc = load("partial", &presets::Options::default()).unwrap();
    let r = run_comparison(&sc).unwrap();
    assert_eq!(
        listing(&|d| files::write_scenario(d, &r).unwrap()),
        sorted(files::scenario_files("partial"))
    );
    let r = replicate::run_seeds(&sc, 2).unwrap();
    assert_eq!(
        listing(&|d| files::write_replicated(d, &r, None).unwrap()),
        sorted(files::replicated_files("partial"))
    );
    let spec = parse_axis("retries=0,1").unwrap();
    let (_, points) = sweep::run_sweep(
        &presets::Source::preset("partial").unwrap(),
        &presets::Options::default(),
        &spec,
        1,
        &sim_kit::progress::Quiet,
        &std::sync::atomic::AtomicBool::new(false),
    )
    .unwrap();
    assert_eq!(
        listing(&|d| files::write_sweep(d, &sc, &spec, &points).unwrap()),
        sorted(files::sweep_files("partial"))
    );
    let cfg = ContentionConfig {
        clients: vec![5],
        ..ContentionConfig::default()
    };
    let rows = run_contention(&cfg).unwrap();
    assert_eq!(
        listing(&|d| files::write_contention(d, "mine", &rows).unwrap()),
        sorted(files::contention_files("mine"))
    );
    let rows = run_contention_seeds(&cfg, 2).unwrap();
    assert_eq!(
        listing(&|d| files::write_contention_seeds(d, "mine", &rows).unwrap()),
        sorted(files::contention_seeds_files("mine"))
    );
}
