//! Vouchers of paid orders (spec 002): one per unit of a line whose activity sells them,
//! created once however often asked (unique line and unit); family vouchers list the
//! member's dependents. Members read their own; a partner's staff validate them, once.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::documents;
use super::fulfilment::{Document, logo_key, validator_base, voucher_link};
use super::status::OrderStatus;
use crate::shared::NOT_AUTHORIZED;
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{Cents, OrderId, StationId, UserId};
use crate::stations::station;
use crate::wallet::ledger::LedgerError;

/// Spec 002: a voucher whose `validated` is not '0'.
pub const ALREADY_USED: &str = "Este voucher já foi utilizado!";
pub const VOUCHER_NOT_FOUND: &str = "Voucher não encontrado";
/// Spec 002's voucher creation failure.
pub const NOT_CREATED: &str = "Erro ao gerar os vouchers.";

/// A fresh voucher code: 12 characters of a ULID's random part (Crockford base 32, 60
/// random bits), unguessable and easy to read aloud.
fn new_code() -> String {
    let id = ulid::Ulid::generate().to_string();
    id[id.len() - 12..].to_string()
}

/// Creates the vouchers an order is owed (one per unit not refunded of its lines whose
/// activity sells vouchers: a refund applied before the confirmation leaves its units
/// without one), on the caller's transaction; vouchers made before are left as they are.
/// Counted, not numbered: a refund voids unused vouchers whatever their unit, so a line
/// of 2 with one refunded may hold unit 2 only, and owes nothing more. Sets the order's
/// `create_vouchers` flag when it has any. Answers how many were new.
pub async fn create_for_order(conn: &mut PgConnection, order_id: i64) -> sqlx::Result<u64> {
    let units: Vec<(i64, i64, i64, i32, bool)> = sqlx::query_as(
        "SELECT l.id, o.station_id, o.user_id, u.unit, a.familiar_voucher
           FROM order_lines l
           JOIN orders o ON o.id = l.order_id
           JOIN actions a ON a.id = l.action_id
           CROSS JOIN LATERAL (
               SELECT s.unit FROM generate_series(1, l.quantity) AS s(unit)
                WHERE NOT EXISTS (SELECT 1 FROM vouchers v
                                   WHERE v.order_line_id = l.id AND v.unit = s.unit)
                ORDER BY s.unit
                LIMIT greatest(0, l.quantity - l.refunded_quantity
                                  - (SELECT count(*) FROM vouchers v WHERE v.order_line_id = l.id))
           ) AS u
          WHERE l.order_id = $1 AND a.sell_vouchers
          ORDER BY l.id, u.unit",
    )
    .bind(order_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut created = 0;
    for (line_id, station_id, user_id, unit, family) in units {
        let voucher_id: Option<i64> = sqlx::query_scalar(
            "INSERT INTO vouchers (station_id, user_id, order_line_id, unit, code)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (order_line_id, unit) DO NOTHING RETURNING id",
        )
        .bind(station_id)
        .bind(user_id)
        .bind(line_id)
        .bind(unit)
        .bind(new_code())
        .fetch_optional(&mut *conn)
        .await?;
        let Some(voucher_id) = voucher_id else {
            continue;
        };
        created += 1;
        if family {
            sqlx::query(
                "INSERT INTO voucher_dependents (voucher_id, dependent_id)
                 SELECT $1, id FROM dependents WHERE user_id = $2 ON CONFLICT DO NOTHING",
            )
            .bind(voucher_id)
            .bind(user_id)
            .execute(&mut *conn)
            .await?;
        }
    }
    sqlx::query(
        "UPDATE orders SET create_vouchers = true
          WHERE id = $1 AND NOT create_vouchers
            AND EXISTS (SELECT 1 FROM vouchers v JOIN order_lines l ON l.id = v.order_line_id
                         WHERE l.order_id = $1)",
    )
    .bind(order_id)
    .execute(&mut *conn)
    .await?;
    Ok(created)
}

pub async fn ids_of_order(conn: &mut PgConnection, order_id: i64) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(
        "SELECT v.id FROM vouchers v JOIN order_lines l ON l.id = v.order_line_id
          WHERE l.order_id = $1 ORDER BY v.id",
    )
    .bind(order_id)
    .fetch_all(&mut *conn)
    .await
}

/// The activity of a voucher as spec 002 names it (`presential_course`).
#[derive(Debug, Clone)]
pub struct PresentialCourse {
    pub name: String,
    /// HTML, as staff wrote it.
    pub rules: String,
    pub local: Option<String>,
    pub date: Option<DateTime<Utc>>,
    pub action: VoucherAction,
}

#[derive(Debug, Clone)]
pub struct VoucherAction {
    pub id: i64,
    pub name: String,
    pub type_id: i16,
    pub image: Option<String>,
    pub familiar_voucher: bool,
}

#[derive(Debug, Clone)]
pub struct DependentView {
    pub dependente: String,
    pub parentesco: String,
}

/// A voucher as the member's list and dialog read it.
#[derive(Debug, Clone)]
pub struct VoucherView {
    pub id: i64,
    pub code: String,
    pub created_at: DateTime<Utc>,
    /// '0': not used; anything else: used.
    pub validated: String,
    pub order_id: i64,
    pub order_code: String,
    pub product: String,
    pub validator_link: String,
    pub presential_course: PresentialCourse,
    /// The member's dependents, for family vouchers; empty otherwise.
    pub dependents: Vec<DependentView>,
}

#[derive(Debug, sqlx::FromRow)]
struct VoucherRow {
    id: i64,
    user_id: i64,
    code: String,
    created_at: DateTime<Utc>,
    validated: String,
    order_id: i64,
    order_code: String,
    product: String,
    action_id: i64,
    action_name: String,
    action_type: i16,
    action_image: Option<String>,
    rules: String,
    familiar_voucher: bool,
    partner_host: Option<String>,
    station_url: String,
    pdf_key: Option<String>,
    partner_id: Option<i64>,
}

macro_rules! select_vouchers {
    () => {
        "
    SELECT v.id, v.user_id, v.code, v.created_at, v.validated, o.id AS order_id,
           o.code AS order_code, p.name AS product, a.id AS action_id, a.name AS action_name,
           a.type_id::int2 AS action_type, a.image_key AS action_image, a.rules,
           a.familiar_voucher, pa.validator_host AS partner_host, s.url AS station_url,
           v.pdf_key, a.partner_id
      FROM vouchers v
      JOIN order_lines l ON l.id = v.order_line_id
      JOIN orders o ON o.id = l.order_id
      JOIN products p ON p.id = l.product_id
      JOIN actions a ON a.id = l.action_id
      JOIN stations s ON s.id = v.station_id
      LEFT JOIN partners pa ON pa.id = a.partner_id"
    };
}

async fn dependents(conn: &mut PgConnection, voucher_id: i64) -> sqlx::Result<Vec<DependentView>> {
    let rows: Vec<(String, String)> = sqlx::query_as(
        "SELECT d.dependente, d.parentesco FROM voucher_dependents vd
           JOIN dependents d ON d.id = vd.dependent_id
          WHERE vd.voucher_id = $1 ORDER BY d.id",
    )
    .bind(voucher_id)
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(dependente, parentesco)| DependentView {
            dependente,
            parentesco,
        })
        .collect())
}

async fn view(conn: &mut PgConnection, row: VoucherRow) -> sqlx::Result<VoucherView> {
    let dependents = if row.familiar_voucher {
        dependents(conn, row.id).await?
    } else {
        Vec::new()
    };
    let base = validator_base(&row.station_url, row.partner_host.as_deref());
    Ok(VoucherView {
        id: row.id,
        validator_link: voucher_link(&base, &row.code),
        code: row.code,
        created_at: row.created_at,
        validated: row.validated,
        order_id: row.order_id,
        order_code: row.order_code,
        product: row.product,
        presential_course: PresentialCourse {
            name: row.action_name.clone(),
            rules: row.rules,
            local: None,
            date: None,
            action: VoucherAction {
                id: row.action_id,
                name: row.action_name,
                type_id: row.action_type,
                image: row
                    .action_image
                    .map(|key| crate::infra::objects::Objects::url(&key)),
                familiar_voucher: row.familiar_voucher,
            },
        },
        dependents,
    })
}

/// The member's vouchers, newest first.
pub async fn of_member(conn: &mut PgConnection, user_id: i64) -> sqlx::Result<Vec<VoucherView>> {
    let rows: Vec<VoucherRow> = sqlx::query_as(concat!(
        select_vouchers!(),
        " WHERE v.user_id = $1 ORDER BY v.id DESC"
    ))
    .bind(user_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        out.push(view(conn, row).await?);
    }
    Ok(out)
}

/// The vouchers of one order, in line and unit order.
pub async fn of_order(conn: &mut PgConnection, order_id: i64) -> sqlx::Result<Vec<VoucherView>> {
    let rows: Vec<VoucherRow> = sqlx::query_as(concat!(
        select_vouchers!(),
        " WHERE o.id = $1 ORDER BY l.id, v.unit"
    ))
    .bind(order_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        out.push(view(conn, row).await?);
    }
    Ok(out)
}

/// A voucher found by its code in a station: whose it is and where its PDF is.
#[derive(Debug, Clone)]
pub struct Found {
    pub voucher_id: i64,
    pub user_id: i64,
    pub pdf_key: Option<String>,
    pub partner_id: Option<i64>,
    pub view: VoucherView,
}

pub async fn by_code(
    conn: &mut PgConnection,
    station_id: i64,
    code: &str,
) -> sqlx::Result<Option<Found>> {
    let row: Option<VoucherRow> = sqlx::query_as(concat!(
        select_vouchers!(),
        " WHERE v.station_id = $1 AND v.code = $2"
    ))
    .bind(station_id)
    .bind(code.trim().to_uppercase())
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let (voucher_id, user_id, pdf_key, partner_id) =
        (row.id, row.user_id, row.pdf_key.clone(), row.partner_id);
    Ok(Some(Found {
        voucher_id,
        user_id,
        pdf_key,
        partner_id,
        view: view(conn, row).await?,
    }))
}

/// The voucher as its PDF shows it. `None` for an unknown voucher.
pub async fn voucher_document(
    conn: &mut PgConnection,
    voucher_id: i64,
) -> sqlx::Result<Option<Document<documents::Voucher>>> {
    let row: Option<VoucherRow> = sqlx::query_as(concat!(select_vouchers!(), " WHERE v.id = $1"))
        .bind(voucher_id)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let station_id: i64 = sqlx::query_scalar("SELECT station_id FROM vouchers WHERE id = $1")
        .bind(voucher_id)
        .fetch_one(&mut *conn)
        .await?;
    let Some(station) = station::find(&mut *conn, station_id).await? else {
        return Ok(None);
    };
    let member_name: String = sqlx::query_scalar("SELECT name FROM users WHERE id = $1")
        .bind(row.user_id)
        .fetch_one(&mut *conn)
        .await?;
    let stored = row.pdf_key.clone();
    let view = view(conn, row).await?;
    Ok(Some(Document {
        stored,
        logo_key: logo_key(&station),
        data: documents::Voucher {
            station_name: station.name.clone(),
            logo: None,
            activity_name: view.presential_course.name.clone(),
            member_name,
            dependents: view
                .dependents
                .iter()
                .map(|d| documents::Dependent {
                    name: d.dependente.clone(),
                    relationship: d.parentesco.clone(),
                })
                .collect(),
            created_at: view.created_at,
            zone: station.zone(),
            valid_until: view.presential_course.date,
            place: view.presential_course.local.clone(),
            code: view.code.clone(),
            rules_html: view.presential_course.rules.clone(),
            validator_link: view.validator_link.clone(),
            used: view.validated != "0",
        },
    }))
}

/// Records where a voucher's PDF is; a PDF recorded before is kept and its key answered.
pub async fn record_pdf(
    conn: &mut PgConnection,
    voucher_id: i64,
    key: &str,
) -> sqlx::Result<String> {
    sqlx::query_scalar(
        "UPDATE vouchers SET pdf_key = coalesce(pdf_key, $2) WHERE id = $1 RETURNING pdf_key",
    )
    .bind(voucher_id)
    .bind(key)
    .fetch_one(&mut *conn)
    .await
}

/// A coupon purchase as `/homepage/minhas-compras` reads it (spec 002, "Coupon purchase"):
/// one per paid line of a type 3 activity.
#[derive(Debug, Clone)]
pub struct CouponPurchase {
    pub id: i64,
    pub created_at: DateTime<Utc>,
    /// What the line cost.
    pub price: Cents,
    /// The order's code.
    pub code: String,
    pub order_id: i64,
    pub quantity: i32,
    pub presential_course: Option<PresentialCourse>,
    pub cupom: CouponOf,
}

#[derive(Debug, Clone)]
pub struct CouponOf {
    pub action: VoucherAction,
    pub is_donation: bool,
    pub created_at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
struct PurchaseRow {
    id: i64,
    created_at: DateTime<Utc>,
    price: Cents,
    code: String,
    order_id: i64,
    quantity: i32,
    action_id: i64,
    action_name: String,
    action_type: i16,
    action_image: Option<String>,
    familiar_voucher: bool,
    action_created_at: DateTime<Utc>,
}

/// The member's paid purchases of type 3 activities (paid coupon or voucher), newest first.
pub async fn coupon_purchases(
    conn: &mut PgConnection,
    user_id: i64,
) -> sqlx::Result<Vec<CouponPurchase>> {
    let rows: Vec<PurchaseRow> = sqlx::query_as(
        "SELECT l.id, o.created_at, (l.unit_price * l.quantity)::bigint AS price, o.code,
                o.id AS order_id, l.quantity, a.id AS action_id, a.name AS action_name,
                a.type_id::int2 AS action_type, a.image_key AS action_image,
                a.familiar_voucher, a.created_at AS action_created_at
           FROM order_lines l
           JOIN orders o ON o.id = l.order_id
           JOIN actions a ON a.id = l.action_id
          WHERE o.user_id = $1 AND a.type_id = 3
            AND o.status IN ('paid', 'partially_refunded')
          ORDER BY o.id DESC, l.id",
    )
    .bind(user_id)
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| CouponPurchase {
            id: row.id,
            created_at: row.created_at,
            price: row.price,
            code: row.code,
            order_id: row.order_id,
            quantity: row.quantity,
            presential_course: None,
            cupom: CouponOf {
                action: VoucherAction {
                    id: row.action_id,
                    name: row.action_name,
                    type_id: row.action_type,
                    image: row
                        .action_image
                        .map(|key| crate::infra::objects::Objects::url(&key)),
                    familiar_voucher: row.familiar_voucher,
                },
                is_donation: false,
                created_at: row.action_created_at,
            },
        })
        .collect())
}

/// Why vouchers were not made for a member's order.
#[derive(Debug, thiserror::Error)]
pub enum NotCreated {
    #[error("{}", super::ORDER_NOT_FOUND)]
    NotFound,
    /// Another member's order.
    #[error("{}", NOT_AUTHORIZED)]
    NotOwner,
    /// Not paid: spec 002's 'Erro ao gerar os vouchers.'.
    #[error("{}", NOT_CREATED)]
    NotPaid,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl IntoFailure for NotCreated {
    fn into_failure(self) -> Failure {
        match self {
            Self::NotFound => Failure::NotFound(self.to_string()),
            Self::NotOwner => Failure::Forbidden(self.to_string()),
            Self::NotPaid => Failure::invalid(self.to_string()),
            Self::Database(err) => err.into_failure(),
        }
    }
}

/// `POST /create-vouchers-product-order`: the vouchers of the member's paid order, made now
/// if `order.confirm` has not made them yet (the same idempotent creation), on the
/// caller's transaction. Answers the ids of every voucher of the order.
pub async fn create_for_member_order(
    conn: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    order_id: OrderId,
) -> Result<Vec<i64>, NotCreated> {
    let order: Option<(UserId, OrderStatus)> = sqlx::query_as(
        "SELECT user_id, status FROM orders WHERE id = $1 AND station_id = $2 FOR UPDATE",
    )
    .bind(order_id)
    .bind(station_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((owner, status)) = order else {
        return Err(NotCreated::NotFound);
    };
    if owner != user_id {
        return Err(NotCreated::NotOwner);
    }
    if !status.is_paid() {
        return Err(NotCreated::NotPaid);
    }
    create_for_order(conn, order_id.0).await?;
    Ok(ids_of_order(conn, order_id.0).await?)
}

/// Why a validation did not happen.
#[derive(Debug, thiserror::Error)]
pub enum NotValidated {
    #[error("{}", VOUCHER_NOT_FOUND)]
    NotFound,
    /// The caller validates for no partner of this voucher's activity.
    #[error("{}", NOT_AUTHORIZED)]
    NotPartner,
    /// Spec 002's 'Este voucher já foi utilizado!'.
    #[error("{}", ALREADY_USED)]
    AlreadyUsed,
    /// Its unit is refunded or in a refund under way ([`REFUNDED`]).
    #[error("{}", REFUNDED)]
    Refunded,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    /// The cashback the validation makes due could not be written.
    #[error(transparent)]
    Ledger(LedgerError),
}

impl From<LedgerError> for NotValidated {
    fn from(err: LedgerError) -> Self {
        match err {
            LedgerError::Db(db) => Self::Database(db),
            other => Self::Ledger(other),
        }
    }
}

impl NotValidated {
    /// A voucher that cannot be used (again): the validator answers 409.
    pub fn is_spent(&self) -> bool {
        matches!(self, Self::AlreadyUsed | Self::Refunded)
    }
}

impl IntoFailure for NotValidated {
    fn into_failure(self) -> Failure {
        match self {
            Self::NotFound => Failure::NotFound(self.to_string()),
            Self::NotPartner => Failure::Forbidden(self.to_string()),
            Self::AlreadyUsed | Self::Refunded => Failure::Conflict(self.to_string()),
            Self::Database(err) => err.into_failure(),
            Self::Ledger(err) => err.into_failure(),
        }
    }
}

/// A voucher whose line has no unit left to use: the others were used or refunded.
pub const REFUNDED: &str = "Este voucher foi estornado e não pode mais ser utilizado.";

/// The voucher as the partner's validator sees it: a voucher of the station whose
/// activity's partner granted the caller (`partner_staff`).
pub async fn for_partner(
    conn: &mut PgConnection,
    station_id: StationId,
    staff_user_id: UserId,
    code: &str,
) -> Result<Found, NotValidated> {
    let Some(found) = by_code(conn, station_id.0, code).await? else {
        return Err(NotValidated::NotFound);
    };
    let granted: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM partner_staff WHERE user_id = $1 AND partner_id = $2)",
    )
    .bind(staff_user_id)
    .bind(found.partner_id)
    .fetch_one(&mut *conn)
    .await?;
    if granted {
        Ok(found)
    } else {
        Err(NotValidated::NotPartner)
    }
}

/// Marks a voucher used, once, on the caller's transaction: a conditional update from
/// '0', so of two partners validating at once one succeeds and the other reads
/// 'Este voucher já foi utilizado!'; refused when its line has no unit left to use
/// (refunded, or in a refund under way). For types 3 and 4 the line's cashback lot (written now
/// if its job has not run yet) becomes due, and the station's next release batch makes it
/// spendable (spec 001: released on the partner's confirmation).
pub async fn validate(
    conn: &mut PgConnection,
    station_id: StationId,
    staff_user_id: UserId,
    code: &str,
) -> Result<Found, NotValidated> {
    let found = for_partner(conn, station_id, staff_user_id, code).await?;
    // The order's row first, as a refund's request takes it: a refund asked while this
    // voucher is validated waits for the other, then counts what it left.
    let row: Option<(i64, String)> = sqlx::query_as(
        "SELECT l.id, v.validated FROM vouchers v
           JOIN order_lines l ON l.id = v.order_line_id
           JOIN orders o ON o.id = l.order_id
          WHERE v.id = $1 FOR UPDATE OF o",
    )
    .bind(found.voucher_id)
    .fetch_optional(&mut *conn)
    .await?;
    // A refund applied meanwhile may have voided it.
    let Some((line_id, validated)) = row else {
        return Err(NotValidated::NotFound);
    };
    if validated != "0" {
        return Err(NotValidated::AlreadyUsed);
    }
    if super::refunds::units_open(conn, line_id).await? <= 0 {
        return Err(NotValidated::Refunded);
    }
    let line: Option<(i64, i64, i16)> = sqlx::query_as(
        "UPDATE vouchers v SET validated = '1', validated_at = now(), validated_by = $2
           FROM order_lines l JOIN actions a ON a.id = l.action_id
          WHERE v.id = $1 AND v.validated = '0' AND l.id = v.order_line_id
          RETURNING l.id, l.order_id, a.type_id::int2",
    )
    .bind(found.voucher_id)
    .bind(staff_user_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((line_id, order_id, action_type)) = line else {
        return Err(NotValidated::AlreadyUsed);
    };
    if super::fulfilment::PARTNER_CONFIRMED_TYPES.contains(&action_type) {
        let source = super::fulfilment::line_source(line_id);
        for credit in super::fulfilment::line_credits(conn, order_id).await? {
            if credit.source_id == source {
                crate::wallet::ledger::credit(conn, &credit, None).await?;
            }
        }
        sqlx::query(
            "UPDATE credit_lots SET available_at = least(available_at, now())
              WHERE source_kind = 'purchase' AND source_id = $1 AND state = 'pending'",
        )
        .bind(&source)
        .execute(&mut *conn)
        .await?;
    }
    let mut found = found;
    found.view.validated = "1".into();
    Ok(found)
}
