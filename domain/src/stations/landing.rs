//! A station's landing page for visitors (spec 002 section 2 "Landing page (visitors)"):
//! header slides, sections of nine types in the configured order with their items, and
//! the about pages their links open (`/sobre/{id}`). All of it is public: what a station
//! shows anyone who opens its site.

use std::collections::HashMap;

use sqlx::{PgConnection, PgExecutor};

use crate::infra::variants;
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::StationId;
use crate::stations::STATION_NOT_FOUND;

/// An about page that does not exist, or is another station's.
pub const ABOUT_NOT_FOUND: &str = "Página não encontrada";
pub const EXTERNAL_LINK_INVALID: &str = "Informe um link externo começando com http:// ou https://";
pub const ABOUT_PAGE_REQUIRED: &str = "Escolha a página 'Sobre' do link";
pub const YOUTUBE_ID_INVALID: &str = "Informe o código do vídeo do YouTube (11 caracteres)";
pub const COLOR_INVALID: &str = "Informe a cor no formato #RRGGBB";
pub const BACKGROUND_IMAGE_REQUIRED: &str = "Envie a imagem de fundo da seção";
pub const TITLE_REQUIRED: &str = "Informe o título";

#[derive(Debug, thiserror::Error)]
pub enum LandingError {
    #[error("no such station")]
    StationNotFound,
    #[error("no such about page")]
    AboutNotFound,
    #[error("invalid landing content: {0:?}")]
    Invalid(Vec<String>),
    #[error(transparent)]
    Internal(#[from] sqlx::Error),
}

impl IntoFailure for LandingError {
    fn into_failure(self) -> Failure {
        match self {
            Self::StationNotFound => Failure::NotFound(STATION_NOT_FOUND.into()),
            Self::AboutNotFound => Failure::NotFound(ABOUT_NOT_FOUND.into()),
            Self::Invalid(messages) => Failure::Invalid(messages),
            Self::Internal(err) => Failure::Internal(err.into()),
        }
    }
}

/// The spec's nine section types, by their `type_id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionType {
    Cards = 1,
    /// Image, video or text blocks; an item's `image_left` puts its picture on the left.
    Blocks = 2,
    CardCarousel = 3,
    CentredText = 4,
    /// The station's public activities, as a carousel.
    PublicActivities = 5,
    /// The app stores' badges, shown only when the station has an app.
    AppBadges = 6,
    Plans = 7,
    SupportForm = 8,
    MediaOnly = 9,
}

impl SectionType {
    pub const ALL: [SectionType; 9] = [
        Self::Cards,
        Self::Blocks,
        Self::CardCarousel,
        Self::CentredText,
        Self::PublicActivities,
        Self::AppBadges,
        Self::Plans,
        Self::SupportForm,
        Self::MediaOnly,
    ];

    pub fn id(self) -> i16 {
        self as i16
    }

    pub fn from_id(id: i16) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.id() == id)
    }
}

/// Where a slide's or an item's button leads (the spec's `link_type`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// `nolink`: no button.
    None,
    /// `login`: /login.
    Login,
    /// `signup`: /cadastrar.
    Signup,
    /// `additional`: the station's about page /sobre/{id}.
    About(i64),
    /// `external`: an http(s) address, opened as it is.
    External(String),
}

impl Link {
    /// The spec's `link_type`.
    pub fn link_type(&self) -> &'static str {
        match self {
            Self::None => "nolink",
            Self::Login => "login",
            Self::Signup => "signup",
            Self::About(_) => "additional",
            Self::External(_) => "external",
        }
    }

    pub fn external_link(&self) -> Option<&str> {
        match self {
            Self::External(url) => Some(url),
            _ => None,
        }
    }

    pub fn about_page_id(&self) -> Option<i64> {
        match self {
            Self::About(id) => Some(*id),
            _ => None,
        }
    }

    /// A stored row's link. The table's checks hold what this needs; an unknown type reads
    /// as no link rather than failing a visitor's page.
    fn from_row(
        link_type: &str,
        external_link: Option<String>,
        about_page_id: Option<i64>,
    ) -> Self {
        match (link_type, external_link, about_page_id) {
            ("login", _, _) => Self::Login,
            ("signup", _, _) => Self::Signup,
            ("additional", _, Some(id)) => Self::About(id),
            ("external", Some(url), _) => Self::External(url),
            _ => Self::None,
        }
    }
}

/// An external link as a landing stores it: an absolute http or https address with a host
/// (never `javascript:` or a relative path, which would run or navigate inside our site).
pub fn external_url(value: &str) -> Result<String, String> {
    let value = value.trim();
    match url::Url::parse(value) {
        Ok(url)
            if matches!(url.scheme(), "http" | "https")
                && url.host_str().is_some_and(|h| !h.is_empty())
                && !value.chars().any(char::is_whitespace) =>
        {
            Ok(value.to_owned())
        }
        _ => Err(EXTERNAL_LINK_INVALID.to_owned()),
    }
}

fn is_color(value: &str) -> bool {
    let bytes = value.as_bytes();
    bytes.len() == 7 && bytes[0] == b'#' && bytes[1..].iter().all(u8::is_ascii_hexdigit)
}

fn is_youtube_id(value: &str) -> bool {
    value.len() == 11
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// An about page's text as paragraphs: split on blank lines, each paragraph's lines joined
/// by a space and trimmed. The body is plain text: markup is shown as written, never run.
pub fn paragraphs(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for line in body.lines().map(str::trim) {
        if line.is_empty() {
            if !current.is_empty() {
                out.push(current.join(" "));
                current.clear();
            }
        } else {
            current.push(line);
        }
    }
    if !current.is_empty() {
        out.push(current.join(" "));
    }
    out
}

/// A header slide: a picture with a title, rotated every 5000 ms by the web.
#[derive(Debug, Clone)]
pub struct Slide {
    pub id: i64,
    pub title: String,
    pub subtitle: Option<String>,
    pub image_key: String,
    /// The picture's widths (`url 480w, ...`), once its variants exist.
    pub image_srcset: Option<String>,
    pub link: Link,
    pub button_label: Option<String>,
}

/// A section's background: a colour (or none) or a picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Background {
    Color(Option<String>),
    Image(String),
}

#[derive(Debug, Clone)]
pub struct Section {
    pub id: i64,
    pub type_id: SectionType,
    pub title: Option<String>,
    pub subtitle: Option<String>,
    pub title_color: Option<String>,
    pub text_color: Option<String>,
    pub background: Background,
    /// The background picture's widths, once its variants exist.
    pub background_srcset: Option<String>,
    pub items: Vec<Item>,
}

/// A card, block or media of a section.
#[derive(Debug, Clone)]
pub struct Item {
    pub id: i64,
    pub name: Option<String>,
    pub description: Option<String>,
    pub image_key: Option<String>,
    /// The picture's widths, once its variants exist.
    pub image_srcset: Option<String>,
    /// A stored video's key.
    pub video_key: Option<String>,
    /// A YouTube video's id.
    pub video_id: Option<String>,
    pub link: Link,
    pub button_label: Option<String>,
    pub image_left: bool,
}

/// An about page as the landing lists it (its footer's links).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AboutLink {
    pub id: i64,
    pub title: String,
}

/// The whole landing of a station, in order.
#[derive(Debug, Clone)]
pub struct Landing {
    pub slides: Vec<Slide>,
    pub sections: Vec<Section>,
    pub about_pages: Vec<AboutLink>,
}

#[derive(sqlx::FromRow)]
struct SlideRow {
    id: i64,
    title: String,
    subtitle: Option<String>,
    image_key: String,
    link_type: String,
    external_link: Option<String>,
    about_page_id: Option<i64>,
    button_label: Option<String>,
}

#[derive(sqlx::FromRow)]
struct SectionRow {
    id: i64,
    type_id: i16,
    title: Option<String>,
    subtitle: Option<String>,
    title_color: Option<String>,
    text_color: Option<String>,
    background_type: String,
    background_image: Option<String>,
    background_color: Option<String>,
}

#[derive(sqlx::FromRow)]
struct ItemRow {
    id: i64,
    section_id: i64,
    name: Option<String>,
    description: Option<String>,
    image_key: Option<String>,
    video_key: Option<String>,
    video_id: Option<String>,
    link_type: String,
    external_link: Option<String>,
    about_page_id: Option<i64>,
    button_label: Option<String>,
    image_left: bool,
}

/// The landing of `station`, every part in its position's order; an empty landing for a
/// station that configured none.
pub async fn landing(db: &mut PgConnection, station: StationId) -> Result<Landing, LandingError> {
    let exists: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM stations WHERE id = $1)")
        .bind(station)
        .fetch_one(&mut *db)
        .await?;
    if !exists {
        return Err(LandingError::StationNotFound);
    }
    let slides: Vec<SlideRow> = sqlx::query_as(
        "SELECT id, title, subtitle, image_key, link_type, external_link, about_page_id,
                button_label
           FROM landing_slides WHERE station_id = $1 ORDER BY position, id",
    )
    .bind(station)
    .fetch_all(&mut *db)
    .await?;
    let sections: Vec<SectionRow> = sqlx::query_as(
        "SELECT id, type_id, title, subtitle, title_color, text_color, background_type,
                background_image, background_color
           FROM landing_sections WHERE station_id = $1 ORDER BY position, id",
    )
    .bind(station)
    .fetch_all(&mut *db)
    .await?;
    let items: Vec<ItemRow> = sqlx::query_as(
        "SELECT id, section_id, name, description, image_key, video_key, video_id, link_type,
                external_link, about_page_id, button_label, image_left
           FROM landing_items WHERE station_id = $1 ORDER BY section_id, position, id",
    )
    .bind(station)
    .fetch_all(&mut *db)
    .await?;
    let about_pages: Vec<AboutLink> = sqlx::query_as(
        "SELECT id, title FROM about_pages WHERE station_id = $1 ORDER BY position, id",
    )
    .bind(station)
    .fetch_all(&mut *db)
    .await?;
    let pictures = slides
        .iter()
        .map(|row| row.image_key.as_str())
        .chain(items.iter().filter_map(|row| row.image_key.as_deref()))
        .chain(
            sections
                .iter()
                .filter_map(|row| row.background_image.as_deref()),
        );
    let srcsets = variants::srcsets(&mut *db, pictures).await?;

    let mut items_of: HashMap<i64, Vec<Item>> = HashMap::new();
    for row in items {
        items_of.entry(row.section_id).or_default().push(Item {
            id: row.id,
            name: row.name,
            description: row.description,
            image_srcset: srcsets.of_opt(row.image_key.as_deref()),
            image_key: row.image_key,
            video_key: row.video_key,
            video_id: row.video_id,
            link: Link::from_row(&row.link_type, row.external_link, row.about_page_id),
            button_label: row.button_label,
            image_left: row.image_left,
        });
    }
    let sections = sections
        .into_iter()
        .filter_map(|row| {
            let type_id = SectionType::from_id(row.type_id)?;
            let background = match (row.background_type.as_str(), row.background_image) {
                ("image", Some(key)) => Background::Image(key),
                _ => Background::Color(row.background_color),
            };
            Some(Section {
                id: row.id,
                type_id,
                title: row.title,
                subtitle: row.subtitle,
                title_color: row.title_color,
                text_color: row.text_color,
                background_srcset: match &background {
                    Background::Image(key) => srcsets.of(key),
                    Background::Color(_) => None,
                },
                background,
                items: items_of.remove(&row.id).unwrap_or_default(),
            })
        })
        .collect();
    let slides = slides
        .into_iter()
        .map(|row| Slide {
            id: row.id,
            title: row.title,
            subtitle: row.subtitle,
            image_srcset: srcsets.of(&row.image_key),
            image_key: row.image_key,
            link: Link::from_row(&row.link_type, row.external_link, row.about_page_id),
            button_label: row.button_label,
        })
        .collect();
    Ok(Landing {
        slides,
        sections,
        about_pages,
    })
}

/// An about page, its text as paragraphs.
#[derive(Debug, Clone)]
pub struct AboutPage {
    pub id: i64,
    pub station_id: StationId,
    pub title: String,
    pub paragraphs: Vec<String>,
    pub image_key: Option<String>,
    /// The picture's widths, once its variants exist.
    pub image_srcset: Option<String>,
}

/// About page `id` of `station`: another station's page is not found, like a missing one.
pub async fn about_page(
    db: &mut PgConnection,
    station: StationId,
    id: i64,
) -> Result<AboutPage, LandingError> {
    let exists: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM stations WHERE id = $1)")
        .bind(station)
        .fetch_one(&mut *db)
        .await?;
    if !exists {
        return Err(LandingError::StationNotFound);
    }
    let row: Option<(String, String, Option<String>)> = sqlx::query_as(
        "SELECT title, body, image_key FROM about_pages WHERE station_id = $1 AND id = $2",
    )
    .bind(station)
    .bind(id)
    .fetch_optional(&mut *db)
    .await?;
    let (title, body, image_key) = row.ok_or(LandingError::AboutNotFound)?;
    let srcsets = variants::srcsets(&mut *db, image_key.as_deref()).await?;
    Ok(AboutPage {
        id,
        station_id: station,
        title,
        paragraphs: paragraphs(&body),
        image_srcset: srcsets.of_opt(image_key.as_deref()),
        image_key,
    })
}

// --- Writing a landing (the demo seed, tests; the console later) ---

/// A link as a form gives it: the spec's `link_type` with its address or page.
#[derive(Debug, Clone, Default)]
pub struct LinkInput<'a> {
    pub link_type: &'a str,
    pub external_link: Option<&'a str>,
    pub about_page_id: Option<i64>,
}

impl LinkInput<'_> {
    /// The link, or the texts of what is wrong with it. Whether the about page is the
    /// station's is the table's to hold (its key includes the station).
    pub fn validate(&self) -> Result<Link, Vec<String>> {
        match self.link_type {
            "" | "nolink" => Ok(Link::None),
            "login" => Ok(Link::Login),
            "signup" => Ok(Link::Signup),
            "additional" => self
                .about_page_id
                .map(Link::About)
                .ok_or_else(|| vec![ABOUT_PAGE_REQUIRED.to_owned()]),
            "external" => external_url(self.external_link.unwrap_or_default())
                .map(Link::External)
                .map_err(|e| vec![e]),
            _ => Err(vec!["Tipo de link inválido".to_owned()]),
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct NewAboutPage<'a> {
    pub title: &'a str,
    pub body: &'a str,
    pub image_key: Option<&'a str>,
}

/// Adds an about page to `station`, or answers the one of the same title (idempotent).
pub async fn upsert_about_page(
    db: impl PgExecutor<'_>,
    station: StationId,
    page: &NewAboutPage<'_>,
) -> Result<i64, LandingError> {
    if page.title.trim().is_empty() {
        return Err(LandingError::Invalid(vec![TITLE_REQUIRED.to_owned()]));
    }
    let id = sqlx::query_scalar(
        "INSERT INTO about_pages (station_id, title, body, image_key) VALUES ($1, $2, $3, $4)
         ON CONFLICT (station_id, title) DO UPDATE SET title = EXCLUDED.title
         RETURNING id",
    )
    .bind(station)
    .bind(page.title.trim())
    .bind(page.body)
    .bind(page.image_key)
    .fetch_one(db)
    .await?;
    Ok(id)
}

#[derive(Debug, Clone, Default)]
pub struct NewSlide<'a> {
    pub position: i32,
    pub title: &'a str,
    pub subtitle: Option<&'a str>,
    pub image_key: &'a str,
    pub link: LinkInput<'a>,
    pub button_label: Option<&'a str>,
}

pub async fn insert_slide(
    db: impl PgExecutor<'_>,
    station: StationId,
    slide: &NewSlide<'_>,
) -> Result<i64, LandingError> {
    let link = slide.link.validate().map_err(LandingError::Invalid)?;
    let id = sqlx::query_scalar(
        "INSERT INTO landing_slides (station_id, position, title, subtitle, image_key,
                                     link_type, external_link, about_page_id, button_label)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
    )
    .bind(station)
    .bind(slide.position)
    .bind(slide.title)
    .bind(slide.subtitle)
    .bind(slide.image_key)
    .bind(link.link_type())
    .bind(link.external_link())
    .bind(link.about_page_id())
    .bind(slide.button_label)
    .fetch_one(db)
    .await?;
    Ok(id)
}

#[derive(Debug, Clone)]
pub struct NewSection<'a> {
    pub position: i32,
    pub type_id: SectionType,
    pub title: Option<&'a str>,
    pub subtitle: Option<&'a str>,
    pub title_color: Option<&'a str>,
    pub text_color: Option<&'a str>,
    pub background: Background,
}

pub async fn insert_section(
    db: impl PgExecutor<'_>,
    station: StationId,
    section: &NewSection<'_>,
) -> Result<i64, LandingError> {
    let mut wrong = Vec::new();
    let colors = [section.title_color, section.text_color];
    let background_color = match &section.background {
        Background::Color(color) => color.as_deref(),
        Background::Image(_) => None,
    };
    if colors
        .into_iter()
        .chain([background_color])
        .flatten()
        .any(|c| !is_color(c))
    {
        wrong.push(COLOR_INVALID.to_owned());
    }
    if matches!(&section.background, Background::Image(key) if key.trim().is_empty()) {
        wrong.push(BACKGROUND_IMAGE_REQUIRED.to_owned());
    }
    if !wrong.is_empty() {
        return Err(LandingError::Invalid(wrong));
    }
    let (background_type, background_image) = match &section.background {
        Background::Color(_) => ("color", None),
        Background::Image(key) => ("image", Some(key.as_str())),
    };
    let id = sqlx::query_scalar(
        "INSERT INTO landing_sections (station_id, position, type_id, title, subtitle,
                                       title_color, text_color, background_type,
                                       background_image, background_color)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
    )
    .bind(station)
    .bind(section.position)
    .bind(section.type_id.id())
    .bind(section.title)
    .bind(section.subtitle)
    .bind(section.title_color)
    .bind(section.text_color)
    .bind(background_type)
    .bind(background_image)
    .bind(background_color)
    .fetch_one(db)
    .await?;
    Ok(id)
}

#[derive(Debug, Clone, Default)]
pub struct NewItem<'a> {
    pub position: i32,
    pub name: Option<&'a str>,
    pub description: Option<&'a str>,
    pub image_key: Option<&'a str>,
    pub video_key: Option<&'a str>,
    pub video_id: Option<&'a str>,
    pub link: LinkInput<'a>,
    pub button_label: Option<&'a str>,
    pub image_left: bool,
}

/// Adds an item to section `section_id` of `station` (a section of another station is
/// refused by the table's key).
pub async fn insert_item(
    db: impl PgExecutor<'_>,
    station: StationId,
    section_id: i64,
    item: &NewItem<'_>,
) -> Result<i64, LandingError> {
    let mut wrong = Vec::new();
    let link = item.link.validate().unwrap_or_else(|mut texts| {
        wrong.append(&mut texts);
        Link::None
    });
    if item.video_id.is_some_and(|id| !is_youtube_id(id)) {
        wrong.push(YOUTUBE_ID_INVALID.to_owned());
    }
    if !wrong.is_empty() {
        return Err(LandingError::Invalid(wrong));
    }
    let id = sqlx::query_scalar(
        "INSERT INTO landing_items (station_id, section_id, position, name, description,
                                    image_key, video_key, video_id, link_type, external_link,
                                    about_page_id, button_label, image_left)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id",
    )
    .bind(station)
    .bind(section_id)
    .bind(item.position)
    .bind(item.name)
    .bind(item.description)
    .bind(item.image_key)
    .bind(item.video_key)
    .bind(item.video_id)
    .bind(link.link_type())
    .bind(link.external_link())
    .bind(link.about_page_id())
    .bind(item.button_label)
    .bind(item.image_left)
    .fetch_one(db)
    .await?;
    Ok(id)
}

/// Whether `station` has a landing configured (a slide or a section).
pub async fn is_configured(db: impl PgExecutor<'_>, station: StationId) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM landing_slides WHERE station_id = $1)
             OR EXISTS (SELECT 1 FROM landing_sections WHERE station_id = $1)",
    )
    .bind(station)
    .fetch_one(db)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn external_links_are_absolute_http_addresses() {
        assert!(external_url("https://www.gov.br/servicos").is_ok());
        assert!(external_url("http://exemplo.com.br").is_ok());
        for bad in [
            "javascript:alert(1)",
            "/sobre/1",
            "ftp://exemplo.com",
            "https://",
            "https://a b.com",
            "www.exemplo.com",
            "",
        ] {
            assert_eq!(
                external_url(bad),
                Err(EXTERNAL_LINK_INVALID.to_owned()),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_link_needs_what_its_type_names() {
        let additional = LinkInput {
            link_type: "additional",
            ..LinkInput::default()
        };
        assert_eq!(
            additional.validate(),
            Err(vec![ABOUT_PAGE_REQUIRED.to_owned()])
        );
        let about = LinkInput {
            link_type: "additional",
            about_page_id: Some(4),
            ..LinkInput::default()
        };
        assert_eq!(about.validate(), Ok(Link::About(4)));
        let external = LinkInput {
            link_type: "external",
            external_link: Some("javascript:void(0)"),
            ..LinkInput::default()
        };
        assert_eq!(
            external.validate(),
            Err(vec![EXTERNAL_LINK_INVALID.to_owned()])
        );
        let login = LinkInput {
            link_type: "login",
            ..LinkInput::default()
        };
        assert_eq!(login.validate(), Ok(Link::Login));
    }

    #[test]
    fn a_body_reads_as_paragraphs() {
        assert_eq!(
            paragraphs("  Primeira linha\ncontinua.\n\n\n<b>Segundo</b>\n"),
            vec!["Primeira linha continua.", "<b>Segundo</b>"]
        );
        assert!(paragraphs("\n \n").is_empty());
    }

    #[test]
    fn section_types_are_the_spec_s_nine() {
        assert_eq!(SectionType::from_id(1), Some(SectionType::Cards));
        assert_eq!(SectionType::from_id(9), Some(SectionType::MediaOnly));
        assert_eq!(SectionType::from_id(0), None);
        assert_eq!(SectionType::from_id(10), None);
    }
}
