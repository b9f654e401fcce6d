//! Putting a diagram into a page: inline in HTML (an SVG document is valid
//! HTML content as it is), wrapped in a figure, or as a `data:` URI for an
//! image in Markdown.

use super::writer::escape;

/// `svg` in an HTML `<figure>` with `caption` (escaped) under it. The SVG
/// is inlined unchanged, so the page needs no other file.
pub fn figure(svg: &str, caption: &str) -> String {
    format!("<figure class=\"diagram\">{svg}<figcaption>{}</figcaption></figure>", escape(caption))
}

/// `svg` as a `data:image/svg+xml` URI, for `![alt](…)` in Markdown or an
/// `<img src>`: every byte outside the unreserved URI characters and a few
/// punctuation marks is percent-encoded (parentheses and quotes too, so the
/// URI fits in a Markdown link and in an HTML attribute), so the URI is plain
/// ASCII and deterministic.
pub fn data_uri(svg: &str) -> String {
    let mut out = String::from("data:image/svg+xml,");
    for b in svg.bytes() {
        let safe = b.is_ascii_alphanumeric() || b"-_.~!$*+,;=:@/?".contains(&b);
        if safe {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_uri_encodes_markup() {
        assert_eq!(data_uri("<svg a=\"1 2\">é</svg>"), "data:image/svg+xml,%3Csvg%20a=%221%202%22%3E%C3%A9%3C/svg%3E");
        assert_eq!(data_uri("(a'b)#"), "data:image/svg+xml,%28a%27b%29%23");
    }

    #[test]
    fn figure_escapes_its_caption() {
        assert_eq!(figure("<svg/>", "a<b"), "<figure class=\"diagram\"><svg/><figcaption>a&lt;b</figcaption></figure>");
    }
}
