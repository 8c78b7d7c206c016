//! The visitors' landing page (spec 002 section 2): `GET /api/stations/{id}/landing`, the
//! slides and sections of a station in order, and `GET /api/station-about-participant/{id}/{station}`,
//! an about page (`/sobre/{id}`). Both are public and the same for every visitor, so they
//! are cacheable: a short `max-age` and an ETag of the answer (docs/decisions.md "The
//! station's landing page").

use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use domain::infra::objects::Objects;
use domain::shared::ids::StationId;
use domain::stations::landing::{self, Background, Link};
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorMessage, Messages};
use crate::extract::Path;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(station_landing))
        .routes(routes!(about_page))
}

/// Visitors may see a change a minute late; after that the browser (or a CDN) asks again
/// with the ETag and mostly gets a 304.
const CACHE: &str = "public, max-age=60, stale-while-revalidate=300";

/// A station's landing page, in the configured order.
#[derive(Debug, Serialize, ToSchema)]
pub struct Landing {
    /// The header's slides, rotated every 5000 ms.
    slides: Vec<LandingSlide>,
    sections: Vec<LandingSection>,
    /// The station's about pages (/sobre/{id}), for the footer's links.
    about_pages: Vec<AboutPageLink>,
}

/// Where a button leads: `nolink`, `login` (/login), `signup` (/cadastrar), `additional`
/// (/sobre/{about_page_id}) or `external` (`external_link`, http or https).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum LandingLinkType {
    Nolink,
    Login,
    Signup,
    Additional,
    External,
}

fn link_parts(link: Link) -> (LandingLinkType, Option<String>, Option<i64>) {
    match link {
        Link::None => (LandingLinkType::Nolink, None, None),
        Link::Login => (LandingLinkType::Login, None, None),
        Link::Signup => (LandingLinkType::Signup, None, None),
        Link::About(id) => (LandingLinkType::Additional, None, Some(id)),
        Link::External(url) => (LandingLinkType::External, Some(url), None),
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LandingSlide {
    id: i64,
    title: String,
    subtitle: Option<String>,
    /// The picture's `/api/media/...` address.
    image: String,
    /// The picture at every width it is stored at, for an `<img srcset>`:
    /// `/api/media/a.480w.jpg 480w, /api/media/a.png 1200w`, narrowest first, the original
    /// last. Null until its narrower copies are made (a job, moments after the upload).
    #[schema(examples("/api/media/landing/a.480w.jpg 480w, /api/media/landing/a.png 1200w"))]
    image_srcset: Option<String>,
    link_type: LandingLinkType,
    external_link: Option<String>,
    about_page_id: Option<i64>,
    button_label: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LandingSection {
    id: i64,
    /// 1 cards, 2 image/video/text blocks, 3 card carousel, 4 centred text, 5 public
    /// activities carousel, 6 app badges (only when the station has_app), 7 plans, 8
    /// support form, 9 media only.
    #[schema(minimum = 1, maximum = 9)]
    type_id: i16,
    title: Option<String>,
    subtitle: Option<String>,
    /// `#RRGGBB`, or the page's own.
    title_color: Option<String>,
    text_color: Option<String>,
    /// `image` or `color`.
    #[schema(examples("image", "color"))]
    background_type: &'static str,
    background_image: Option<String>,
    /// The background picture's widths, as `image_srcset` gives a picture's.
    background_image_srcset: Option<String>,
    background_color: Option<String>,
    items: Vec<LandingItem>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LandingItem {
    id: i64,
    name: Option<String>,
    description: Option<String>,
    image: Option<String>,
    /// The picture at every width it is stored at, for an `<img srcset>`:
    /// `/api/media/a.480w.jpg 480w, /api/media/a.png 1200w`, narrowest first, the original
    /// last. Null until its narrower copies are made (a job, moments after the upload).
    #[schema(examples("/api/media/landing/a.480w.jpg 480w, /api/media/landing/a.png 1200w"))]
    image_srcset: Option<String>,
    /// A stored video's `/api/media/...` address.
    video: Option<String>,
    /// A YouTube video's id.
    video_id: Option<String>,
    link_type: LandingLinkType,
    external_link: Option<String>,
    about_page_id: Option<i64>,
    button_label: Option<String>,
    /// Blocks (type 2): the picture or video on the left of the text.
    image_left: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AboutPageLink {
    id: i64,
    title: String,
}

impl From<landing::Landing> for Landing {
    fn from(landing: landing::Landing) -> Self {
        let landing::Landing {
            slides,
            sections,
            about_pages,
        } = landing;
        Self {
            slides: slides.into_iter().map(LandingSlide::from).collect(),
            sections: sections.into_iter().map(LandingSection::from).collect(),
            about_pages: about_pages
                .into_iter()
                .map(|landing::AboutLink { id, title }| AboutPageLink { id, title })
                .collect(),
        }
    }
}

impl From<landing::Slide> for LandingSlide {
    fn from(slide: landing::Slide) -> Self {
        let landing::Slide {
            id,
            title,
            subtitle,
            image_key,
            image_srcset,
            link,
            button_label,
        } = slide;
        let (link_type, external_link, about_page_id) = link_parts(link);
        Self {
            id,
            title,
            subtitle,
            image: Objects::url(&image_key),
            image_srcset,
            link_type,
            external_link,
            about_page_id,
            button_label,
        }
    }
}

impl From<landing::Section> for LandingSection {
    fn from(section: landing::Section) -> Self {
        let landing::Section {
            id,
            type_id,
            title,
            subtitle,
            title_color,
            text_color,
            background,
            background_srcset,
            items,
        } = section;
        let (background_type, background_image, background_color) = match background {
            Background::Color(color) => ("color", None, color),
            Background::Image(key) => ("image", Some(Objects::url(&key)), None),
        };
        Self {
            id,
            type_id: type_id.id(),
            title,
            subtitle,
            title_color,
            text_color,
            background_type,
            background_image,
            background_image_srcset: background_srcset,
            background_color,
            items: items.into_iter().map(LandingItem::from).collect(),
        }
    }
}

impl From<landing::Item> for LandingItem {
    fn from(item: landing::Item) -> Self {
        let landing::Item {
            id,
            name,
            description,
            image_key,
            image_srcset,
            video_key,
            video_id,
            link,
            button_label,
            image_left,
        } = item;
        let (link_type, external_link, about_page_id) = link_parts(link);
        Self {
            id,
            name,
            description,
            image: image_key.as_deref().map(Objects::url),
            image_srcset,
            video: video_key.as_deref().map(Objects::url),
            video_id,
            link_type,
            external_link,
            about_page_id,
            button_label,
            image_left,
        }
    }
}

/// An about page (/sobre/{id}): its text is plain, in paragraphs.
#[derive(Debug, Serialize, ToSchema)]
pub struct AboutPage {
    id: i64,
    station_id: i64,
    title: String,
    /// The text, paragraph by paragraph: plain text, shown as written (never as HTML).
    paragraphs: Vec<String>,
    image: Option<String>,
    /// The picture at every width it is stored at, for an `<img srcset>`:
    /// `/api/media/a.480w.jpg 480w, /api/media/a.png 1200w`, narrowest first, the original
    /// last. Null until its narrower copies are made (a job, moments after the upload).
    #[schema(examples("/api/media/landing/a.480w.jpg 480w, /api/media/landing/a.png 1200w"))]
    image_srcset: Option<String>,
}

impl From<landing::AboutPage> for AboutPage {
    fn from(page: landing::AboutPage) -> Self {
        let landing::AboutPage {
            id,
            station_id,
            title,
            paragraphs,
            image_key,
            image_srcset,
        } = page;
        Self {
            id,
            station_id: station_id.0,
            title,
            paragraphs,
            image: image_key.as_deref().map(Objects::url),
            image_srcset,
        }
    }
}

/// The answer as JSON with the cache headers, or 304 when the caller's copy is current.
fn cacheable<T: Serialize>(request: &HeaderMap, body: &T) -> ApiResult<Response> {
    let bytes = serde_json::to_vec(body).map_err(anyhow::Error::from)?;
    let etag = format!("\"{}\"", hex::encode(&Sha256::digest(&bytes)[..16]));
    let matches = request
        .get(IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            value.split(',').any(|tag| {
                let tag = tag.trim();
                tag == "*" || tag.trim_start_matches("W/") == etag
            })
        });
    let etag = HeaderValue::from_str(&etag).map_err(anyhow::Error::from)?;
    let cache = HeaderValue::from_static(CACHE);
    if matches {
        return Ok((
            StatusCode::NOT_MODIFIED,
            [(ETAG, etag), (CACHE_CONTROL, cache)],
        )
            .into_response());
    }
    Ok((
        [
            (ETAG, etag),
            (CACHE_CONTROL, cache),
            (
                axum::http::header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
        ],
        bytes,
    )
        .into_response())
}

/// A station's landing page: header slides and sections in order, with their items
///
/// Public. An empty landing (no slides, no sections) when the station configured none; the
/// web then shows its default welcome. Cacheable: `Cache-Control` and an `ETag`, answered
/// with 304 to a matching `If-None-Match`.
#[utoipa::path(
    get,
    path = "/stations/{id}/landing",
    tag = "stations",
    params(
        ("id" = i64, Path, description = "The station's id"),
        ("If-None-Match" = Option<String>, Header, description = "The ETag of the copy the caller holds"),
    ),
    responses(
        (status = 200, description = "The landing", body = Landing,
            headers(("ETag" = String, description = "The answer's version"),
                    ("Cache-Control" = String, description = "public, max-age=60, stale-while-revalidate=300"))),
        (status = 304, description = "The caller's copy (its `If-None-Match`) is current"),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 404, description = "No such station (\"Estação não encontrada\")", body = ErrorMessage),
    )
)]
async fn station_landing(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let mut conn = state.db.acquire().await?;
    let landing = landing::landing(&mut conn, StationId(id)).await?;
    cacheable(&headers, &Landing::from(landing))
}

/// An about page of a station (/sobre/{id})
///
/// Public. Another station's page answers 404, as a missing one does. Cacheable like the
/// landing.
#[utoipa::path(
    get,
    path = "/station-about-participant/{id}/{station}",
    tag = "stations",
    params(
        ("id" = i64, Path, description = "The about page"),
        ("station" = i64, Path, description = "Its station"),
        ("If-None-Match" = Option<String>, Header, description = "The ETag of the copy the caller holds"),
    ),
    responses(
        (status = 200, description = "The about page", body = AboutPage,
            headers(("ETag" = String, description = "The answer's version"),
                    ("Cache-Control" = String, description = "public, max-age=60, stale-while-revalidate=300"))),
        (status = 304, description = "The caller's copy (its `If-None-Match`) is current"),
        (status = 400, description = "An id is not a number", body = Messages),
        (status = 404, description = "No such station (\"Estação não encontrada\"), or no such about page of it (\"Página não encontrada\")", body = ErrorMessage),
    )
)]
async fn about_page(
    State(state): State<AppState>,
    Path((id, station)): Path<(i64, i64)>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let mut conn = state.db.acquire().await?;
    let page = landing::about_page(&mut conn, StationId(station), id).await?;
    cacheable(&headers, &AboutPage::from(page))
}
