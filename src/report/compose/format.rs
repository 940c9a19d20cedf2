//! How the report prints the numbers it reads from CSV files. Each function takes the CSV's text
//! and changes only its presentation: a percent is the fraction times 100 rounded to the shown
//! decimals, a count gets thousands separators, a pay loses trailing zeros. Text that is not a
//! number ("-", "") is printed as "-", so a missing figure never looks like a zero.

/// The number a CSV cell holds.
pub fn number(cell: &str) -> Option<f64> {
    cell.trim().parse::<f64>().ok().filter(|x| x.is_finite())
}

/// A fraction as a percent with `decimals` decimals ("-2.7152%").
pub fn percent(cell: &str, decimals: usize) -> String {
    number(cell).map_or("-".to_string(), |x| percent_of(x, decimals))
}

/// A fraction as a percent with a sign always shown ("+0.1799%").
pub fn signed_percent(cell: &str, decimals: usize) -> String {
    number(cell).map_or("-".to_string(), |x| {
        let text = percent_of(x, decimals);
        if text.starts_with('-') {
            text
        } else {
            format!("+{text}")
        }
    })
}

/// A fraction `x` as a percent, never "-0".
pub fn percent_of(x: f64, decimals: usize) -> String {
    let text = format!("{:.*}%", decimals, 100.0 * x);
    match text.strip_prefix('-') {
        Some(rest)
            if rest
                .trim_end_matches('%')
                .bytes()
                .all(|b| b == b'0' || b == b'.') =>
        {
            rest.to_string()
        }
        _ => text,
    }
}

/// A whole number with thousands separators ("177,100,560"); other text as it is.
pub fn count(cell: &str) -> String {
    let digits = cell.trim();
    let (sign, body) = digits.strip_prefix('-').map_or(("", digits), |b| ("-", b));
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
        return dash(cell);
    }
    format!("{sign}{}", crate::combin::grouped(body))
}

/// A decimal with `decimals` decimals and grouped thousands ("5,534,392.50").
pub fn decimal(cell: &str, decimals: usize) -> String {
    number(cell).map_or("-".to_string(), |x| {
        let text = format!("{:.*}", decimals, x.abs());
        let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
        let sign = if x < 0.0 && text.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
            "-"
        } else {
            ""
        };
        match fraction {
            "" => format!("{sign}{}", crate::combin::grouped(whole)),
            f => format!("{sign}{}.{f}", crate::combin::grouped(whole)),
        }
    })
}

/// A pay, the net per unit bet, without trailing zeros ("8888.0000" is "8888", "0.9500" "0.95").
pub fn pays(cell: &str) -> String {
    let t = cell.trim();
    if number(t).is_none() {
        return dash(t);
    }
    if !t.contains('.') {
        return t.to_string();
    }
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The cell as it is, or "-" for an empty one.
pub fn dash(cell: &str) -> String {
    match cell.trim() {
        "" => "-".to_string(),
        t => t.to_string(),
    }
}

/// A manifest's thread count in words: "1 thread", "8 threads", "- threads" when not recorded.
pub fn threads(cell: &str) -> String {
    match cell.trim() {
        "1" => "1 thread".to_string(),
        t => format!("{} threads", dash(t)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_read_as_words() {
        assert_eq!(threads("1"), "1 thread");
        assert_eq!(threads("16"), "16 threads");
        assert_eq!(threads(""), "- threads");
    }

    #[test]
    fn numbers_keep_their_value() {
        assert_eq!(percent("-0.0271516100", 4), "-2.7152%");
        assert_eq!(percent("-0.0000000001", 4), "0.0000%");
        assert_eq!(signed_percent("0.0017986900", 4), "+0.1799%");
        assert_eq!(percent("-", 4), "-");
        assert_eq!(count("177100560"), "177,100,560");
        assert_eq!(count("-1234"), "-1,234");
        assert_eq!(count("12.5"), "12.5");
        assert_eq!(decimal("5534392.5", 2), "5,534,392.50");
        assert_eq!(decimal("-0.001", 2), "0.00");
        assert_eq!(pays("8888.0000"), "8888");
        assert_eq!(pays("0.9500"), "0.95");
        assert_eq!(pays("-1.0000"), "-1");
        assert_eq!(pays("0.0000"), "0");
        assert_eq!(pays("-"), "-");
    }
}
