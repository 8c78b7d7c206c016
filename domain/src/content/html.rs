//! The HTML a station's news and downloads are written in, kept to an allow-list on the way
//! in (and cleaned again by the browser before it is shown, web/src/components/safe-html):
//! text structure, emphasis, lists, quotes and links. No images (a news item has its own
//! picture), tables, forms, frames, scripts, styles, classes or event handlers; links only
//! to `http`, `https`, `mailto` and `tel`, opened with `rel="noopener noreferrer nofollow"`.

use std::collections::HashSet;
use std::sync::LazyLock;

/// The tags a body keeps; anything else is dropped (its text stays, but for `script` and
/// `style`, whose content goes too).
pub const ALLOWED_TAGS: &[&str] = &[
    "p",
    "br",
    "hr",
    "h2",
    "h3",
    "h4",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "small",
    "sub",
    "sup",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
];

/// The attributes a body keeps, by tag: a link's target and its title.
pub const ALLOWED_LINK_ATTRIBUTES: &[&str] = &["href", "title"];

/// The schemes a link may use; relative links (to the portal's own pages) are kept.
pub const ALLOWED_URL_SCHEMES: &[&str] = &["http", "https", "mailto", "tel"];

static CLEANER: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
    let mut builder = ammonia::Builder::empty();
    builder
        .tags(ALLOWED_TAGS.iter().copied().collect::<HashSet<_>>())
        .tag_attributes(
            [("a", ALLOWED_LINK_ATTRIBUTES.iter().copied().collect())]
                .into_iter()
                .collect(),
        )
        .url_schemes(ALLOWED_URL_SCHEMES.iter().copied().collect())
        .link_rel(Some("noopener noreferrer nofollow"))
        .url_relative(ammonia::UrlRelative::Custom(Box::new(on_the_portal)))
        .clean_content_tags(["script", "style"].into_iter().collect())
        .strip_comments(true);
    builder
});

/// A relative link stays on the portal; one starting "//" (or "\\\\") names another host,
/// so it is dropped like a scheme off the list.
fn on_the_portal(url: &str) -> Option<std::borrow::Cow<'_, str>> {
    (!url.starts_with("//") && !url.starts_with("\\\\")).then_some(std::borrow::Cow::Borrowed(url))
}

/// `html` with only the allow-list above left.
pub fn sanitise(html: &str) -> String {
    CLEANER.clean(html).to_string()
}

#[cfg(test)]
mod tests {
    use super::sanitise;

    #[test]
    fn drops_protocol_relative_links_and_keeps_the_portals_own() {
        let cleaned =
            sanitise(r#"<a href="//evil.example/x">a</a><a href="/homepage/downloads">b</a>"#);
        assert!(!cleaned.contains("evil.example"), "{cleaned}");
        assert!(
            cleaned.contains(r#"href="/homepage/downloads""#),
            "{cleaned}"
        );
    }

    #[test]
    fn keeps_text_structure_and_safe_links() {
        let kept = "<h2>Assembleia</h2><p>Dia <strong>10</strong> às <em>19h</em>.</p>\
                    <ul><li>Pauta</li></ul><blockquote>Citação</blockquote>";
        assert_eq!(sanitise(kept), kept);
        assert_eq!(
            sanitise(r#"<a href="https://filia.com.br/x" title="Ver">link</a>"#),
            r#"<a href="https://filia.com.br/x" title="Ver" rel="noopener noreferrer nofollow">link</a>"#
        );
        assert_eq!(
            sanitise(r#"<a href="/homepage/planos">planos</a>"#),
            r#"<a href="/homepage/planos" rel="noopener noreferrer nofollow">planos</a>"#
        );
    }

    #[test]
    fn drops_scripts_handlers_styles_and_unsafe_urls() {
        assert_eq!(sanitise("<p>oi<script>alert(1)</script></p>"), "<p>oi</p>");
        assert_eq!(sanitise("<style>p{}</style><p>oi</p>"), "<p>oi</p>");
        assert_eq!(
            sanitise(r#"<p onclick="x()" style="color:red" class="c">oi</p>"#),
            "<p>oi</p>"
        );
        assert_eq!(
            sanitise(r#"<a href="javascript:alert(1)">x</a>"#),
            r#"<a rel="noopener noreferrer nofollow">x</a>"#
        );
        assert_eq!(
            sanitise(r#"<a href="data:text/html,<script>">x</a>"#),
            r#"<a rel="noopener noreferrer nofollow">x</a>"#
        );
        assert_eq!(sanitise(r#"<img src="x" onerror="alert(1)">"#), "");
        assert_eq!(
            sanitise(r#"<iframe src="https://x"></iframe><form><input></form>texto"#),
            "texto"
        );
        assert_eq!(sanitise("<p>a<!-- nota -->b</p>"), "<p>ab</p>");
        assert_eq!(sanitise("<svg><script>1</script></svg>ok"), "ok");
    }

    #[test]
    fn text_is_escaped_not_interpreted() {
        assert_eq!(sanitise("1 < 2 & 3"), "1 &lt; 2 &amp; 3");
        assert_eq!(sanitise("<p>\"aspas\"</p>"), "<p>\"aspas\"</p>");
    }
}
