//! The station-branded layout every e-mail shares. A message is a [`Notice`] (heading,
//! paragraphs, an optional button) rendered twice: HTML for mail clients that show it, plain
//! text for the rest. Every interpolated value is HTML-escaped; nothing here trusts its input.

use crate::stations::station::Station;

/// Used when a station's colour is not a `#RRGGBB` value, which the database already forbids.
const FALLBACK_COLOR: &str = "#0E7C66";

/// What an e-mail says, independent of the station that sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub heading: String,
    /// Plain text; a line break inside a paragraph is kept.
    pub paragraphs: Vec<String>,
    pub button: Option<Button>,
}

/// A call to action: a link shown as a button in HTML and as `label: url` in plain text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Button {
    pub label: String,
    pub url: String,
}

/// The station's identity as an e-mail shows it: all the mail module needs of a station.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branding {
    pub name: String,
    /// Absolute, so it loads inside a mail client.
    pub logo_url: Option<String>,
    /// `#RRGGBB`.
    pub color: String,
    /// `"Station name" <nao-responda@host of the public URL>`.
    pub sender: String,
}

impl Branding {
    /// `public_url` turns a logo stored as a path (`/brand/demo/logo.svg`) into an absolute
    /// URL and names the sender's host.
    pub fn new(
        name: &str,
        logo_image: Option<&str>,
        main_brand_color: &str,
        public_url: &str,
    ) -> Self {
        Self {
            name: name.to_string(),
            logo_url: logo_image.and_then(|logo| absolute_url(public_url, logo)),
            color: if is_hex_color(main_brand_color) {
                main_brand_color.to_string()
            } else {
                FALLBACK_COLOR.to_string()
            },
            sender: super::sender(name, public_url),
        }
    }

    pub fn of(station: &Station, public_url: &str) -> Self {
        Self::new(
            &station.name,
            station.logo_image.as_deref(),
            &station.main_brand_color,
            public_url,
        )
    }
}

/// A link that works outside the app: absolute URLs are kept, paths are joined to `base`.
pub fn absolute_url(base: &str, link: &str) -> Option<String> {
    let link = link.trim();
    if link.is_empty() {
        None
    } else if link.starts_with("https://") || link.starts_with("http://") {
        Some(link.to_string())
    } else {
        Some(format!(
            "{}/{}",
            base.trim_end_matches('/'),
            link.trim_start_matches('/')
        ))
    }
}

/// Escapes text for HTML element content and quoted attribute values.
pub fn escape_html(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            c => escaped.push(c),
        }
    }
    escaped
}

pub fn render_html(branding: &Branding, subject: &str, notice: &Notice) -> String {
    let name = escape_html(&branding.name);
    let color = &branding.color;
    let header = match &branding.logo_url {
        Some(logo) => format!(
            r#"<img src="{}" alt="{name}" height="48" style="display:block;height:48px;max-width:240px;border:0">"#,
            escape_html(logo)
        ),
        None => {
            format!(r#"<span style="font-size:22px;font-weight:bold;color:{color}">{name}</span>"#)
        }
    };
    let paragraphs: String = notice
        .paragraphs
        .iter()
        .map(|paragraph| {
            format!(
                "<p style=\"margin:0 0 16px;font-size:16px;line-height:24px\">{}</p>\n",
                escape_html(paragraph).replace('\n', "<br>\n")
            )
        })
        .collect();
    let button = notice.button.as_ref().map_or_else(String::new, |button| {
        let url = escape_html(&button.url);
        format!(
            r#"<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 24px"><tr><td style="border-radius:6px;background:{color}">
<a href="{url}" style="display:inline-block;padding:12px 24px;font-size:16px;font-weight:bold;color:{text_color};text-decoration:none;border-radius:6px">{label}</a>
</td></tr></table>
<p style="margin:0 0 16px;font-size:13px;line-height:20px;color:#6b7280">Se o botão não funcionar, copie e cole este endereço no navegador:<br>
<a href="{url}" style="color:{color};word-break:break-all">{url}</a></p>
"#,
            text_color = readable_text_color(color),
            label = escape_html(&button.label),
        )
    });
    format!(
        r#"<!DOCTYPE html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
</head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:Lato,Helvetica,Arial,sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:8px;border-top:6px solid {color}">
<tr><td style="padding:24px 32px 8px">{header}</td></tr>
<tr><td style="padding:16px 32px 8px">
<h1 style="margin:0 0 16px;font-size:22px;line-height:30px;color:{color}">{heading}</h1>
{paragraphs}{button}</td></tr>
<tr><td style="padding:16px 32px 24px;border-top:1px solid #e5e7eb;font-size:12px;line-height:18px;color:#6b7280">{name}<br>Este é um e-mail automático. Por favor, não responda.</td></tr>
</table>
</td></tr></table>
</body>
</html>
"#,
        title = escape_html(subject),
        heading = escape_html(&notice.heading),
    )
}

pub fn render_text(branding: &Branding, notice: &Notice) -> String {
    let mut text = format!("{}\n\n", notice.heading);
    for paragraph in &notice.paragraphs {
        text.push_str(paragraph);
        text.push_str("\n\n");
    }
    if let Some(button) = &notice.button {
        text.push_str(&format!("{}: {}\n\n", button.label, button.url));
    }
    text.push_str(&format!(
        "-- \n{}\nEste é um e-mail automático. Por favor, não responda.\n",
        branding.name
    ));
    text
}

fn is_hex_color(value: &str) -> bool {
    value.len() == 7 && value.starts_with('#') && value[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// Black or white, whichever reads better on a `#RRGGBB` background (WCAG relative luminance).
fn readable_text_color(background: &str) -> &'static str {
    if !is_hex_color(background) {
        return "#ffffff";
    }
    let channel = |range: std::ops::Range<usize>| {
        let value = f64::from(u8::from_str_radix(&background[range], 16).unwrap_or(0)) / 255.0;
        if value <= 0.04045 {
            value / 12.92
        } else {
            ((value + 0.055) / 1.055).powf(2.4)
        }
    };
    let luminance = 0.2126 * channel(1..3) + 0.7152 * channel(3..5) + 0.0722 * channel(5..7);
    // The luminance at which black and white text have the same contrast ratio.
    if luminance > 0.179 {
        "#111827"
    } else {
        "#ffffff"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn branding() -> Branding {
        Branding {
            name: "Clube <Azul> & Cia".into(),
            logo_url: Some("https://clube.example.com.br/brand/logo.svg".into()),
            color: "#1A73E8".into(),
            sender: "Clube Azul <nao-responda@clube.example.com.br>".into(),
        }
    }

    fn notice() -> Notice {
        Notice {
            heading: "Ative sua conta".into(),
            paragraphs: vec![
                "Olá, Maria!".into(),
                "Clique no botão abaixo para ativar <sua> conta.".into(),
            ],
            button: Some(Button {
                label: "Ativar conta".into(),
                url: "https://clube.example.com.br/ativar?token=a&b=\"c\"".into(),
            }),
        }
    }

    #[test]
    fn escaping_covers_markup_and_quotes() {
        assert_eq!(
            escape_html(r#"<a href="x">'Tom' & Jerry</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;Tom&#39; &amp; Jerry&lt;/a&gt;"
        );
        assert_eq!(escape_html("São Paulo"), "São Paulo");
    }

    #[test]
    fn html_carries_branding_content_and_button_escaped() {
        let html = render_html(&branding(), "Ative sua conta", &notice());
        assert!(html.contains("Clube &lt;Azul&gt; &amp; Cia"));
        assert!(!html.contains("<Azul>"));
        assert!(html.contains("#1A73E8"));
        assert!(html.contains(r#"src="https://clube.example.com.br/brand/logo.svg""#));
        assert!(html.contains("<h1"));
        assert!(html.contains("Ative sua conta</h1>"));
        assert!(html.contains("Olá, Maria!"));
        assert!(html.contains("ativar &lt;sua&gt; conta"));
        assert!(
            html.contains(
                r#"href="https://clube.example.com.br/ativar?token=a&amp;b=&quot;c&quot;""#
            )
        );
        assert!(html.contains(">Ativar conta</a>"));
        assert!(html.contains(r#"lang="pt-BR""#));
    }

    #[test]
    fn text_carries_the_same_content_unescaped() {
        let text = render_text(&branding(), &notice());
        assert!(text.starts_with("Ative sua conta\n\n"));
        assert!(text.contains("Olá, Maria!\n\n"));
        assert!(text.contains("ativar <sua> conta"));
        assert!(text.contains("Ativar conta: https://clube.example.com.br/ativar?token=a&b=\"c\""));
        assert!(text.contains("Clube <Azul> & Cia"));
        assert!(!text.contains("<p"));
    }

    #[test]
    fn notice_without_button_or_logo_renders_the_name() {
        let branding = Branding {
            logo_url: None,
            ..branding()
        };
        let notice = Notice {
            button: None,
            ..notice()
        };
        let html = render_html(&branding, "Aviso", &notice);
        assert!(!html.contains("<img"));
        assert!(!html.contains("<a href"));
        assert!(html.contains("color:#1A73E8\">Clube &lt;Azul&gt; &amp; Cia</span>"));
        assert!(!render_text(&branding, &notice).contains("http"));
    }

    #[test]
    fn logo_paths_become_absolute_urls() {
        assert_eq!(
            absolute_url("http://127.0.0.1:8080", "/brand/demo/logo.svg").as_deref(),
            Some("http://127.0.0.1:8080/brand/demo/logo.svg")
        );
        assert_eq!(
            absolute_url("https://clube.example.com.br/", "brand/logo.png").as_deref(),
            Some("https://clube.example.com.br/brand/logo.png")
        );
        assert_eq!(
            absolute_url("http://127.0.0.1:8080", "https://cdn.example.com/logo.png").as_deref(),
            Some("https://cdn.example.com/logo.png")
        );
        assert_eq!(absolute_url("http://127.0.0.1:8080", "  "), None);
    }

    #[test]
    fn button_text_contrasts_with_the_brand_colour() {
        assert_eq!(readable_text_color("#0E7C66"), "#ffffff");
        assert_eq!(readable_text_color("#000000"), "#ffffff");
        assert_eq!(readable_text_color("#FFD600"), "#111827");
        assert_eq!(readable_text_color("#FFFFFF"), "#111827");
    }
}
