//! The fuel campaign (spec 002 "Fuel campaign", issue 31): a station's campaigns, each
//! giving its members a fuel voucher (a code for some litres of a fuel, worth an amount,
//! valid some days) once per member, up to the campaign's budget. Only where the station
//! turns it on (`stations.fuel_campaign_access`); elsewhere every call reads as absent.

pub mod campaigns;
pub mod vouchers;

use sqlx::PgExecutor;

use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::StationId;

pub const FUEL_UNAVAILABLE: &str = "Campanha de combustível não disponível.";
pub const CAMPAIGN_NOT_FOUND: &str = "Campanha não encontrada.";
pub const CAMPAIGN_CLOSED: &str = "Esta campanha não está aberta para novos vouchers.";
pub const CAMPAIGN_SOLD_OUT: &str = "Os vouchers desta campanha se esgotaram.";
pub const ALREADY_TAKEN: &str = "Você já possui um voucher desta campanha.";
/// The form's one required field (spec 002: "Fuel form: fuel_id required").
pub const FUEL_ID_REQUIRED: &str = "fuel_id: Esse campo é obrigatório";

#[derive(Debug, thiserror::Error)]
pub enum FuelRefused {
    /// The station offers no fuel campaign (`stations.fuel_campaign_access` off).
    #[error("{FUEL_UNAVAILABLE}")]
    Unavailable,
    #[error("{FUEL_ID_REQUIRED}")]
    CampaignRequired,
    /// Unknown, unpublished or another station's.
    #[error("{CAMPAIGN_NOT_FOUND}")]
    NotFound,
    /// Before its start or after its end.
    #[error("{CAMPAIGN_CLOSED}")]
    Closed,
    /// Its budget is given.
    #[error("{CAMPAIGN_SOLD_OUT}")]
    SoldOut,
    /// The member holds this campaign's voucher already.
    #[error("{ALREADY_TAKEN}")]
    AlreadyTaken,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// A missing field is the member's to fix (422); a station without the campaign and a
/// campaign not theirs are not there (404); a campaign closed, spent or already taken by
/// the member is a state that refuses this (409).
impl IntoFailure for FuelRefused {
    fn into_failure(self) -> Failure {
        match self {
            Self::CampaignRequired => Failure::invalid(self.to_string()),
            Self::Unavailable | Self::NotFound => Failure::NotFound(self.to_string()),
            Self::Closed | Self::SoldOut | Self::AlreadyTaken => {
                Failure::Conflict(self.to_string())
            }
            Self::Db(err) => err.into_failure(),
            Self::Internal(err) => err.into_failure(),
        }
    }
}

/// Refuses a station that offers no fuel campaign, as its menu does not show one.
pub async fn offered(db: impl PgExecutor<'_>, station: StationId) -> Result<(), FuelRefused> {
    let shown: Option<bool> =
        sqlx::query_scalar("SELECT fuel_campaign_access FROM stations WHERE id = $1")
            .bind(station.0)
            .fetch_optional(db)
            .await?;
    match shown {
        Some(true) => Ok(()),
        _ => Err(FuelRefused::Unavailable),
    }
}
