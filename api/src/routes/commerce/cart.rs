//! The member's cart and the shop's product reads: `GET /user-shopping-cart`,
//! `POST /add-products-to-shoppping-cart` (the contract's spelling),
//! `DELETE /remove-product-from-shopping-cart/{id}`, `PUT /update-shopping-cart`,
//! `GET /get-product-stock/{id}` and the products of a shop activity.

use axum::extract::State;
use domain::commerce::cart::{self, CartLine, Wanted};
use domain::commerce::catalogue::{self, Product};
use domain::commerce::{PRODUCT_NOT_FOUND, Refusal};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::whole;
use crate::error::{ApiError, ApiResult, ErrorMessage, Messages};
use crate::extract::{Json, Path};
use crate::member::Member;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(user_shopping_cart))
        .routes(routes!(add_products))
        .routes(routes!(remove_product))
        .routes(routes!(update_cart))
        .routes(routes!(product_stock))
        .routes(routes!(action_products))
}

async fn read_cart(state: &AppState, member: Member) -> ApiResult<Json<Vec<CartLine>>> {
    let mut conn = state.db.acquire().await?;
    Ok(Json(
        cart::lines(&mut conn, member.station_id, member.user_id).await?,
    ))
}

/// The caller's cart
#[utoipa::path(
    get,
    path = "/user-shopping-cart",
    tag = "commerce",
    security(("member" = [])),
    responses((status = 200, description = "The cart's lines", body = Vec<CartLine>))
)]
async fn user_shopping_cart(
    State(state): State<AppState>,
    member: Member,
) -> ApiResult<Json<Vec<CartLine>>> {
    read_cart(&state, member).await
}

/// A product and a quantity (`{"id": 3, "quantity": 2}`).
#[derive(Debug, Deserialize, ToSchema)]
struct ProductQuantity {
    #[serde(alias = "product_id")]
    #[schema(value_type = i64)]
    id: Value,
    #[schema(value_type = i64)]
    quantity: Value,
}

impl ProductQuantity {
    fn wanted(&self) -> ApiResult<Wanted> {
        let product_id =
            whole(&self.id).ok_or_else(|| ApiError::invalid(Refusal::ProductNotFound.message()))?;
        let quantity = whole(&self.quantity)
            .ok_or_else(|| ApiError::invalid(Refusal::BadQuantity.message()))?;
        Ok(Wanted {
            product_id,
            quantity,
        })
    }
}

#[derive(Debug, Deserialize, ToSchema)]
struct AddProducts {
    products: Vec<ProductQuantity>,
}

/// Adds quantities to the caller's cart
///
/// Each line stays within what the member may have: the per-member limit less earlier
/// orders, and the stock.
#[utoipa::path(
    post,
    path = "/add-products-to-shoppping-cart",
    tag = "commerce",
    security(("member" = [])),
    request_body = AddProducts,
    responses(
        (status = 200, description = "The cart after the change", body = Vec<CartLine>),
        (status = 404, description = "A product is not on sale in the caller's station", body = ErrorMessage),
        (status = 422, description = "Over the stock or the per-member limit, or a bad quantity", body = Messages),
    )
)]
async fn add_products(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<AddProducts>,
) -> ApiResult<Json<Vec<CartLine>>> {
    let items = request
        .products
        .iter()
        .map(ProductQuantity::wanted)
        .collect::<ApiResult<Vec<_>>>()?;
    app::commerce::cart::add(&state.db, member.station(), member.user(), &items).await?;
    read_cart(&state, member).await
}

/// Removes a product's line from the caller's cart
#[utoipa::path(
    delete,
    path = "/remove-product-from-shopping-cart/{id}",
    tag = "commerce",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The product's id")),
    responses(
        (status = 200, description = "The cart after the change", body = Vec<CartLine>),
        (status = 400, description = "The id is not a number", body = Messages),
    )
)]
async fn remove_product(
    State(state): State<AppState>,
    member: Member,
    Path(product_id): Path<i64>,
) -> ApiResult<Json<Vec<CartLine>>> {
    let mut conn = state.db.acquire().await?;
    cart::remove(&mut conn, member.user_id, product_id).await?;
    drop(conn);
    read_cart(&state, member).await
}

/// A cart line as the cart sends it back (`product_id` or `id`, and `quantity`).
#[derive(Debug, Deserialize, ToSchema)]
struct UpdateCart {
    #[serde(rename = "shoppingItems")]
    shopping_items: Vec<ProductQuantity>,
}

/// Sets the quantities of the caller's cart lines (0 removes a line)
#[utoipa::path(
    put,
    path = "/update-shopping-cart",
    tag = "commerce",
    security(("member" = [])),
    request_body = UpdateCart,
    responses(
        (status = 200, description = "The cart after the change", body = Vec<CartLine>),
        (status = 404, description = "A product is not on sale in the caller's station", body = ErrorMessage),
        (status = 422, description = "Over the stock or the per-member limit, or a bad quantity", body = Messages),
    )
)]
async fn update_cart(
    State(state): State<AppState>,
    member: Member,
    Json(request): Json<UpdateCart>,
) -> ApiResult<Json<Vec<CartLine>>> {
    let items = request
        .shopping_items
        .iter()
        .map(ProductQuantity::wanted)
        .collect::<ApiResult<Vec<_>>>()?;
    app::commerce::cart::update(&state.db, member.station(), member.user(), &items).await?;
    read_cart(&state, member).await
}

/// A product's stock now, and what the caller may still have of it.
#[derive(Debug, Serialize, ToSchema)]
struct ProductStock {
    product_id: i64,
    /// Units available now (expired holds count as released).
    stock: i64,
    /// The lower of the per-member limit less the caller's orders and the stock.
    limit: i64,
}

/// A product's available stock
#[utoipa::path(
    get,
    path = "/get-product-stock/{id}",
    tag = "commerce",
    security(("member" = [])),
    params(("id" = i64, Path, description = "The product's id")),
    responses(
        (status = 200, description = "Its stock", body = ProductStock),
        (status = 400, description = "The id is not a number", body = Messages),
        (status = 404, description = "Not on sale in the caller's station", body = ErrorMessage),
    )
)]
async fn product_stock(
    State(state): State<AppState>,
    member: Member,
    Path(product_id): Path<i64>,
) -> ApiResult<Json<ProductStock>> {
    let mut conn = state.db.acquire().await?;
    let product = catalogue::product(&mut conn, member.station_id, member.user_id, product_id)
        .await?
        .ok_or_else(|| ApiError::not_found(PRODUCT_NOT_FOUND))?;
    Ok(Json(ProductStock {
        product_id,
        stock: product.stock,
        limit: product.limit,
    }))
}

/// The products on sale of a shop activity (the shopping page)
#[utoipa::path(
    get,
    path = "/action-products/{actionId}",
    tag = "commerce",
    security(("member" = [])),
    params(("actionId" = i64, Path, description = "The activity's id")),
    responses(
        (status = 200, description = "Its products (none for an activity of another station)", body = Vec<Product>),
        (status = 400, description = "The id is not a number", body = Messages),
    )
)]
async fn action_products(
    State(state): State<AppState>,
    member: Member,
    Path(action_id): Path<i64>,
) -> ApiResult<Json<Vec<Product>>> {
    let mut conn = state.db.acquire().await?;
    Ok(Json(
        catalogue::products_of_action(&mut conn, member.station_id, member.user_id, action_id)
            .await?,
    ))
}
