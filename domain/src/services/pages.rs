//! A desk's pages ('contato', 'orientacoes', 'informacoes', the video playlists, the
//! landing's category carousel), from its `service_desks` row; a desk without one answers
//! empty lists and texts and no carousel.

use serde::Deserialize;
use sqlx::PgConnection;
use sqlx::types::Json;

use super::{Desk, ServiceRefused};
use crate::shared::ids::StationId;

/// One person of the 'contato' page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Contact {
    pub name: String,
    pub role: String,
    pub email: String,
    pub phone: String,
}

/// One video page (`videos`, `cafe-com-politica`, `transforma`): an https embed address.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Playlist {
    pub slug: String,
    pub title: String,
    pub url: String,
}

/// What a desk's pages show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub desk: Desk,
    pub contacts: Vec<Contact>,
    pub guidance: String,
    pub information: String,
    pub playlists: Vec<Playlist>,
    /// The activity category the landing's carousel shows, one of the station's own.
    pub category_id: Option<i64>,
}

type Row = (
    Json<Vec<Contact>>,
    String,
    String,
    Json<Vec<Playlist>>,
    Option<i64>,
);

/// The desk's pages in the station; the station must offer the desk.
pub async fn page(
    conn: &mut PgConnection,
    station: StationId,
    desk: Desk,
) -> Result<Page, ServiceRefused> {
    super::offered(&mut *conn, station, desk).await?;
    let row: Option<Row> = sqlx::query_as(
        "SELECT contacts, guidance, information, playlists, category_id FROM service_desks
          WHERE station_id = $1 AND service = $2",
    )
    .bind(station)
    .bind(desk)
    .fetch_optional(&mut *conn)
    .await?;
    let (contacts, guidance, information, playlists, category_id) = row.map_or_else(
        || (Vec::new(), String::new(), String::new(), Vec::new(), None),
        |(contacts, guidance, information, playlists, category_id)| {
            (contacts.0, guidance, information, playlists.0, category_id)
        },
    );
    Ok(Page {
        desk,
        contacts,
        guidance,
        information,
        // The page embeds each address in a frame: only https ever leaves here.
        playlists: playlists
            .into_iter()
            .filter(|playlist| playlist.url.starts_with("https://"))
            .collect(),
        category_id,
    })
}
