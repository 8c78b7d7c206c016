//! Who may work the service desks (`/api/ops/desk`, docs/api-services.md "The desk in the
//! console"): [`DeskStaff`] is a signed-in, activated staff account with a desk grant or a
//! console grant (`domain::services::access`). Everyone else gets 403 before anything
//! else is read; a record of a station out of reach is 404, as if it were not there.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use domain::accounts::session;
use domain::services::Desk;
use domain::services::access::{self, DeskReach};

use crate::error::ApiError;
use crate::member::bearer_token;
use crate::staff::{OpsError, OpsResult, READ_ONLY, STAFF_ONLY};
use crate::state::AppState;

/// A staff member who reaches at least one desk.
#[derive(Debug, Clone)]
pub struct DeskStaff(pub DeskReach);

impl DeskStaff {
    pub fn user_id(&self) -> i64 {
        self.0.user_id.0
    }

    /// Reading a desk of a station: 404 (`not_found`) when the station is out of reach,
    /// 403 when the station is in reach but this desk is not.
    pub fn require_read(&self, station_id: i64, desk: Desk, not_found: &str) -> OpsResult<()> {
        self.require(station_id, desk, false, not_found)
    }

    /// Acting on a desk of a station: as [`Self::require_read`], and 403 for a viewer.
    pub fn require_act(&self, station_id: i64, desk: Desk, not_found: &str) -> OpsResult<()> {
        self.require(station_id, desk, true, not_found)
    }

    fn require(&self, station_id: i64, desk: Desk, act: bool, not_found: &str) -> OpsResult<()> {
        if !self.0.sees_station(station_id) {
            return Err(ApiError::not_found(not_found).into());
        }
        if self.0.allows(station_id, desk, act) {
            Ok(())
        } else if self.0.allows(station_id, desk, false) {
            Err(OpsError::forbidden(READ_ONLY))
        } else {
            Err(OpsError::forbidden(STAFF_ONLY))
        }
    }
}

impl FromRequestParts<AppState> for DeskStaff {
    type Rejection = OpsError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> OpsResult<Self> {
        let refused = || OpsError::forbidden(STAFF_ONLY);
        let token = bearer_token(parts).ok_or_else(refused)?;
        let user = session::authenticate(&state.db, token)
            .await?
            .ok_or_else(refused)?;
        if !user.is_member_in_good_standing() {
            return Err(refused());
        }
        let mut conn = state.db.acquire().await.map_err(ApiError::from)?;
        let reach = access::reach_of(&mut conn, user.user_id)
            .await
            .map_err(ApiError::from)?
            .ok_or_else(refused)?;
        Ok(Self(reach))
    }
}
