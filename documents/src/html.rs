//! Rich text (a voucher's rules are HTML from the staff editor) as plain lines for a PDF:
//! tags dropped, block ends and `<br>` as line breaks, list items with a bullet, entities
//! decoded, script and style contents left out.

/// Plain text of an HTML fragment, one paragraph per line, no blank lines at either end.
pub fn plain_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    let mut skipping: Option<&'static str> = None;
    while let Some(start) = rest.find(['<', '&']) {
        let (before, tail) = rest.split_at(start);
        if skipping.is_none() {
            push_text(&mut out, before);
        }
        if tail.starts_with('&') {
            let (decoded, consumed) = entity(tail);
            if skipping.is_none() {
                push_text(&mut out, &decoded);
            }
            rest = &tail[consumed..];
            continue;
        }
        let Some(end) = tail.find('>') else {
            // A lone "<" is text.
            if skipping.is_none() {
                push_text(&mut out, tail);
            }
            rest = "";
            break;
        };
        let tag = &tail[1..end];
        rest = &tail[end + 1..];
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        if let Some(skipped) = skipping {
            if closing && name == skipped {
                skipping = None;
            }
            continue;
        }
        match (name.as_str(), closing) {
            ("script", false) => skipping = Some("script"),
            ("style", false) => skipping = Some("style"),
            ("br", _) => out.push('\n'),
            ("li", false) => {
                line_break(&mut out);
                out.push_str("• ");
            }
            (
                "p" | "div" | "li" | "ul" | "ol" | "tr" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6"
                | "blockquote" | "table",
                _,
            ) => line_break(&mut out),
            ("td" | "th", true) => out.push(' '),
            _ => {}
        }
    }
    if skipping.is_none() {
        push_text(&mut out, rest);
    }
    out.lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n")
        .trim_matches('\n')
        .to_owned()
}

/// Source whitespace (HTML's line breaks and indentation) collapses to single spaces.
fn push_text(out: &mut String, text: &str) {
    for c in text.chars() {
        if c.is_whitespace() && c != '\u{a0}' {
            if !out.ends_with([' ', '\n']) && !out.is_empty() {
                out.push(' ');
            }
        } else {
            out.push(if c == '\u{a0}' { ' ' } else { c });
        }
    }
}

fn line_break(out: &mut String) {
    while out.ends_with(' ') {
        out.pop();
    }
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
}

/// The character an entity at the start of `text` stands for, and how many bytes it took;
/// an unknown or unterminated one is kept as written.
fn entity(text: &str) -> (String, usize) {
    let Some(end) = text[..text.len().min(12)].find(';') else {
        return ("&".into(), 1);
    };
    let body = &text[1..end];
    let numeric = body
        .strip_prefix("#x")
        .or_else(|| body.strip_prefix("#X"))
        .map(|hex| u32::from_str_radix(hex, 16))
        .or_else(|| body.strip_prefix('#').map(str::parse::<u32>));
    let decoded = match numeric {
        Some(code) => code.ok().and_then(char::from_u32),
        None => named(body),
    };
    match decoded {
        Some(c) => (c.to_string(), end + 1),
        None => ("&".into(), 1),
    }
}

fn named(name: &str) -> Option<char> {
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{a0}',
        "ordm" => 'º',
        "ordf" => 'ª',
        "deg" => '°',
        "euro" => '€',
        "ndash" => '–',
        "mdash" => '—',
        "hellip" => '…',
        "laquo" => '«',
        "raquo" => '»',
        "ldquo" => '“',
        "rdquo" => '”',
        "lsquo" => '‘',
        "rsquo" => '’',
        "bull" => '•',
        "middot" => '·',
        _ => return accented(name),
    })
}

/// The Latin letters Portuguese writes with accents, as `&aacute;`, `&Ccedil;`, ...
fn accented(name: &str) -> Option<char> {
    let mut chars = name.chars();
    let letter = chars.next()?;
    let mark = chars.as_str();
    let table: &[(char, &str, char)] = &[
        ('a', "acute", 'á'),
        ('a', "grave", 'à'),
        ('a', "circ", 'â'),
        ('a', "tilde", 'ã'),
        ('e', "acute", 'é'),
        ('e', "circ", 'ê'),
        ('i', "acute", 'í'),
        ('o', "acute", 'ó'),
        ('o', "circ", 'ô'),
        ('o', "tilde", 'õ'),
        ('u', "acute", 'ú'),
        ('u', "uml", 'ü'),
        ('c', "cedil", 'ç'),
    ];
    let lower = letter.to_ascii_lowercase();
    let found = table
        .iter()
        .find(|(base, suffix, _)| *base == lower && *suffix == mark)?
        .2;
    Some(if letter.is_ascii_uppercase() {
        found.to_uppercase().next().unwrap_or(found)
    } else {
        found
    })
}

#[cfg(test)]
mod tests {
    use super::plain_text;

    #[test]
    fn paragraphs_breaks_and_lists_become_lines() {
        let html = "<p>Válido para <strong>uma</strong> pessoa.</p><p>Apresente na entrada.<br>Sem troca.</p>\
                    <ul><li>Não cumulativo</li><li>Sujeito à lotação</li></ul>";
        assert_eq!(
            plain_text(html),
            "Válido para uma pessoa.\nApresente na entrada.\nSem troca.\n• Não cumulativo\n• Sujeito à lotação"
        );
    }

    #[test]
    fn entities_decode_and_unknown_ones_stay() {
        assert_eq!(
            plain_text(
                "Caf&eacute; &amp; p&atilde;o &#8211; R&#x24; 10 &Ccedil;&nbsp;x &bogus; a < b"
            ),
            "Café & pão – R$ 10 Ç x &bogus; a < b"
        );
    }

    #[test]
    fn scripts_styles_and_source_whitespace_vanish() {
        let html = "\n  <style>p { color: red }</style>\n<p>\n   Regras\n   da casa\n</p><script>alert('x')</script>";
        assert_eq!(plain_text(html), "Regras da casa");
    }

    #[test]
    fn plain_text_passes_through() {
        assert_eq!(plain_text("Sem HTML algum"), "Sem HTML algum");
        assert_eq!(plain_text(""), "");
    }
}
