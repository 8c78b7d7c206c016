//! What the checkout reads of the member: `GET /dependents/{id}` (family vouchers) and
//! `GET /user-addresses/{id}` (the delivery step), both the caller's own only.

use axum::extract::State;
use domain::commerce::members;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::own;
use crate::error::{ApiResult, Messages};
use crate::extract::{Json, Path};
use crate::member::Member;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(dependents))
        .routes(routes!(user_addresses))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Dependent {
    pub id: i64,
    pub dependente: String,
    pub parentesco: String,
}

impl From<members::Dependent> for Dependent {
    fn from(dependent: members::Dependent) -> Self {
        let members::Dependent {
            id,
            dependente,
            parentesco,
        } = dependent;
        Self {
            id,
            dependente,
            parentesco,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Address {
    pub id: i64,
    pub zipcode: String,
    pub street: String,
    pub number: String,
    pub complement: Option<String>,
    pub neighborhood: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
}

impl From<members::Address> for Address {
    fn from(address: members::Address) -> Self {
        let members::Address {
            id,
            zipcode,
            street,
            number,
            complement,
            neighborhood,
            city,
            state,
        } = address;
        Self {
            id,
            zipcode,
            street,
            number,
            complement,
            neighborhood,
            city,
            state,
        }
    }
}

/// The caller's dependents (dependente, parentesco)
#[utoipa::path(
    get,
    path = "/dependents/{id}",
    tag = "commerce",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The caller's own user id")),
    responses(
        (status = 200, description = "The dependents", body = Vec<Dependent>),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "The id is not the caller's", body = Messages),
    )
)]
async fn dependents(
    State(state): State<AppState>,
    member: Member,
    Path(user_id): Path<i64>,
) -> ApiResult<Json<Vec<Dependent>>> {
    let user_id = own(member, user_id)?;
    let dependents = members::dependents(&state.db, user_id).await?;
    Ok(Json(dependents.into_iter().map(Dependent::from).collect()))
}

/// The caller's saved addresses, the main one first
#[utoipa::path(
    get,
    path = "/user-addresses/{id}",
    tag = "commerce",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The caller's own user id")),
    responses(
        (status = 200, description = "The addresses", body = Vec<Address>),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 403, description = "The id is not the caller's", body = Messages),
    )
)]
async fn user_addresses(
    State(state): State<AppState>,
    member: Member,
    Path(user_id): Path<i64>,
) -> ApiResult<Json<Vec<Address>>> {
    let user_id = own(member, user_id)?;
    let addresses = members::addresses(&state.db, user_id).await?;
    Ok(Json(addresses.into_iter().map(Address::from).collect()))
}
