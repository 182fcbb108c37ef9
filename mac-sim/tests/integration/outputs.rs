//! Every output path is checked before any work, together: two outputs of one command
//! that clash (the same file given twice, a file where a folder of outputs or one of
//! its charts goes, a file inside an output folder not made yet, a database among the
//! results) or a folder in the way of a file the command will write exit 2 with one
//! line naming the path, and create nothing.

use crate::common::{assert_usage_error, mac_sim, tree};

#[test]
fn outputs_that_clash_exit_2_before_running_and_create_nothing() {
    let d = tempfile::tempdir().unwrap();
    let p = |name: &str| d.path().join(name).to_str().unwrap().to_string();
    let x = p("x.csv");
    let plots = p("plots");
    let in_plots = format!("{plots}/t.csv");
    let chart = format!("{plots}/attempts_histogram.svg");
    let dotted = p("sub/../x.csv");
    let out = p("out");
    let db_in_out = format!("{out}/results.csv");
    let merged = p("no/such/folder/merged.db");
    for (args, needle) in [
        (
            vec!["run", "-q", "-d", "1ms", "--trace", &x, "--plot", &x],
            "is both the --trace file and the --plot folder",
        ),
        (
            vec!["run", "-q", "-d", "1ms", "--trace", &x, "--pcap", &dotted],
            "is both the --trace file and the --pcap file",
        ),
        (
            vec![
                "run", "-q", "-d", "1ms", "--trace", &chart, "--plot", &plots,
            ],
            "is both the --trace file and a file of the --plot folder",
        ),
        (
            vec![
                "run", "-q", "-d", "1ms", "--trace", &in_plots, "--plot", &plots,
            ],
            "is inside the --plot folder",
        ),
        (
            vec![
                "sweep", "-n", "2", "-d", "1ms", "-o", &out, "--db", &db_in_out,
            ],
            "is both a file of the -o folder and the --db file",
        ),
        (
            vec!["sweep", "-n", "2", "-d", "1ms", "-o", &out, "--db", &out],
            "is both the -o folder and the --db file",
        ),
        (vec!["merge", "-o", &merged, "s1.db", "s2.db"], "merged.db"),
    ] {
        let o = mac_sim(&args);
        assert_usage_error(&o, needle);
        assert_eq!(
            tree(d.path()),
            Vec::<String>::new(),
            "{args:?} created files"
        );
    }
}

#[test]
fn a_folder_in_the_way_of_an_output_exits_2_before_running() {
    for (args, blocker) in [
        (
            &["run", "-q", "-d", "1ms", "--plot"][..],
            "attempts_histogram.svg",
        ),
        (&["sweep", "-n", "2", "-d", "1ms", "-o"], "results.csv"),
        (
            &["storm", "--scenario", "outage-open", "--out"],
            "storm-outage-open.json",
        ),
    ] {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("out");
        std::fs::create_dir_all(dir.join(blocker)).unwrap();
        let mut args = args.to_vec();
        args.push(dir.to_str().unwrap());
        // Not even the sweep's line "runs to do": exactly one line.
        let o = mac_sim(&args);
        assert_usage_error(&o, &format!("{blocker}': a folder is in the way"));
        assert_eq!(
            tree(d.path()),
            ["out", &format!("out/{blocker}")],
            "{args:?}"
        );
    }
}

/// A file's path that cannot name a file (it ends with `/`, or a file is where its
/// folder should be) exits 2 with one line before any work, for every file output, and
/// creates nothing, where it used to fail after the run with exit 1.
#[test]
fn a_file_path_ending_with_a_slash_or_under_a_file_exits_2_before_running() {
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let p = |name: &str| d.path().join(name).to_str().unwrap().to_string();
    let (slash, under) = (format!("{}/", p("x.out")), p("a-file/x.out"));
    let out = p("out");
    for bad in [&slash, &under] {
        let why = if bad == &slash {
            "it ends with '/', which names a folder: name a file"
        } else {
            "a file is in the way of its folder"
        };
        for args in [
            vec!["run", "-q", "-d", "1000s", "--trace", bad],
            vec!["run", "-q", "-d", "1000s", "--pcap", bad],
            vec!["radio", "-d", "1000s", "--output", bad],
            vec![
                "sweep", "-n", "2", "-d", "1ms", "-r", "1", "-q", "-o", &out, "--db", bad,
            ],
        ] {
            let o = mac_sim(&args);
            assert_usage_error(&o, &format!("cannot write '{bad}': {why}"));
            assert_eq!(tree(d.path()), ["a-file"], "{args:?}");
        }
    }
}
