//! Plain text laid out for a reader: lines wrapped at spaces.

/// `line` cut at spaces into pieces of at most `width` characters (a longer word
/// stays whole, on a piece of its own); an empty line stays one empty piece.
///
/// ```
/// use sim_kit::output::wrap;
/// assert_eq!(wrap("aaa bbb ccc ddd", 7), ["aaa bbb", "ccc ddd"]);
/// assert_eq!(wrap("averyveryverylongword x", 5), ["averyveryverylongword", "x"]);
/// assert_eq!(wrap("", 5), [""]);
/// ```
pub fn wrap(line: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for word in line.split_whitespace() {
        if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    out.push(cur);
    out
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn every_word_is_kept_and_no_piece_is_too_wide() {
        let text = "a bb ccc dddd eeeee ffffff ggggggg";
        let pieces = wrap(text, 10);
        assert_eq!(pieces.join(" "), text);
        assert!(pieces.iter().all(|l| l.len() <= 10), "{pieces:?}");
        assert_eq!(wrap("short", 10), ["short"]);
    }
}
