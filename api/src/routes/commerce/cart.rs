//! The member's cart and the shop's product reads: `GET /user-shopping-cart`,
//! `POST /add-products-to-shoppping-cart` (the contract's spelling),
//! `DELETE /remove-product-from-shopping-cart/{id}`, `PUT /update-shopping-cart`,
//! `GET /get-product-stock/{id}` and the products of a shop activity.

use axum::extract::State;
use domain::commerce::cart::{self, Wanted};
use domain::commerce::catalogue;
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

/// A delivery or pickup place of an activity.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryLocation {
    pub id: i64,
    pub name: String,
    /// Centavos.
    pub price: i64,
    /// True: home delivery (address and CEP asked); false: pickup here.
    pub delivery: bool,
    pub helper_label_field_1: Option<String>,
    pub helper_label_field_2: Option<String>,
    pub street: Option<String>,
    pub street_number: Option<String>,
    pub zipcode: Option<String>,
}

impl From<catalogue::DeliveryLocation> for DeliveryLocation {
    fn from(location: catalogue::DeliveryLocation) -> Self {
        let catalogue::DeliveryLocation {
            id,
            name,
            price,
            delivery,
            helper_label_field_1,
            helper_label_field_2,
            street,
            street_number,
            zipcode,
        } = location;
        Self {
            id,
            name,
            price: price.into(),
            delivery,
            helper_label_field_1,
            helper_label_field_2,
            street,
            street_number,
            zipcode,
        }
    }
}

/// The commerce side of an activity (spec 002 section 3, "Action (commerce)").
#[derive(Debug, Serialize, ToSchema)]
pub struct ShopAction {
    pub id: i64,
    pub name: String,
    pub type_id: i16,
    pub digital_product: bool,
    /// `default` or `payment_only` (the wallet is not used).
    pub payment_option: String,
    pub allow_installments: bool,
    pub sell_vouchers: bool,
    pub only_one_product: bool,
    /// Centavos taken off the activity's items (floored at 0).
    pub discount_delivery: i64,
    #[serde(rename = "familiarVoucher")]
    pub familiar_voucher: bool,
    /// Whole points of cashback.
    pub points: i32,
    pub additional_cashback: i32,
    pub delivery_locations: Vec<DeliveryLocation>,
}

impl From<catalogue::ShopAction> for ShopAction {
    fn from(action: catalogue::ShopAction) -> Self {
        let catalogue::ShopAction {
            id,
            name,
            type_id,
            digital_product,
            payment_option,
            allow_installments,
            sell_vouchers,
            only_one_product,
            discount_delivery,
            familiar_voucher,
            points,
            additional_cashback,
            delivery_locations,
        } = action;
        Self {
            id,
            name,
            type_id,
            digital_product,
            payment_option,
            allow_installments,
            sell_vouchers,
            only_one_product,
            discount_delivery: discount_delivery.into(),
            familiar_voucher,
            points,
            additional_cashback,
            delivery_locations: delivery_locations
                .into_iter()
                .map(DeliveryLocation::from)
                .collect(),
        }
    }
}

/// A product as the shop and the cart show it.
#[derive(Debug, Serialize, ToSchema)]
pub struct Product {
    pub id: i64,
    pub action_id: i64,
    pub name: String,
    pub description: String,
    /// The image's URL, if it has one.
    pub image: Option<String>,
    /// Centavos.
    pub value: i64,
    pub discount_value: i64,
    /// Units available now.
    pub stock: i64,
    /// The per-member limit (default 10).
    pub limit_per_user: i32,
    /// Units of it in the caller's orders that still count.
    pub user_single_product_orders: i64,
    /// What the caller may have of it now: the lower of the limit less their orders and
    /// the stock.
    pub limit: i64,
    pub action: ShopAction,
}

impl From<catalogue::Product> for Product {
    fn from(product: catalogue::Product) -> Self {
        let catalogue::Product {
            id,
            action_id,
            name,
            description,
            image,
            value,
            discount_value,
            stock,
            limit_per_user,
            user_single_product_orders,
            limit,
            action,
        } = product;
        Self {
            id,
            action_id,
            name,
            description,
            image,
            value: value.into(),
            discount_value: discount_value.into(),
            stock,
            limit_per_user,
            user_single_product_orders,
            limit,
            action: action.into(),
        }
    }
}

/// A cart line as `GET /user-shopping-cart` lists it.
#[derive(Debug, Serialize, ToSchema)]
pub struct CartLine {
    pub product_id: i64,
    pub quantity: i64,
    pub product: Product,
}

impl From<cart::CartLine> for CartLine {
    fn from(line: cart::CartLine) -> Self {
        let cart::CartLine {
            product_id,
            quantity,
            product,
        } = line;
        Self {
            product_id,
            quantity,
            product: product.into(),
        }
    }
}

async fn read_cart(state: &AppState, member: Member) -> ApiResult<Json<Vec<CartLine>>> {
    let mut conn = state.db.acquire().await?;
    let lines = cart::lines(&mut conn, member.station_id, member.user_id).await?;
    Ok(Json(lines.into_iter().map(CartLine::from).collect()))
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
    let products =
        catalogue::products_of_action(&mut conn, member.station_id, member.user_id, action_id)
            .await?;
    Ok(Json(products.into_iter().map(Product::from).collect()))
}
