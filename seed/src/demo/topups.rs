//! The demo station's money-in (issue 29): its bank details, so 'Abastecer créditos' offers
//! the transfer method, and one bank-transfer top-up of the demo member that the demo staff
//! confirmed, credited to the wallet as `points.credit` would have written it. Made once:
//! seeding again changes nothing.

use sqlx::PgPool;

use domain::wallet::ledger;
use domain::wallet::topups::{self, BankDetails, Method, Opening};

use super::DemoStation;

/// The demo's transfer top-up: R$ 20,00, small enough that the demo member's balance
/// (R$ 50,00 with it) still leaves the shop's R$ 60,00 workshop seat to pay by card or PIX.
pub const DEMO_TOPUP_CENTS: i64 = 2000;

pub fn bank_details() -> BankDetails {
    BankDetails {
        bank_name: "Banco do Brasil".into(),
        agency: "1234-5".into(),
        account: "67890-1".into(),
        holder: "Clube Filia Demo".into(),
        document: "12.345.678/0001-90".into(),
        pix_key: Some("financeiro@demo.filia.com.br".into()),
    }
}

pub async fn seed(db: &PgPool, demo: &DemoStation) -> anyhow::Result<()> {
    let mut tx = db.begin().await?;
    if topups::bank_details(&mut tx, demo.station_id)
        .await?
        .is_none()
    {
        topups::set_bank_details(&mut tx, demo.station_id, &bank_details()).await?;
    }
    let made: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM topups WHERE user_id = $1)")
        .bind(demo.member_id)
        .fetch_one(&mut *tx)
        .await?;
    if !made {
        let opened = topups::open(
            &mut tx,
            &Opening {
                station_id: demo.station_id,
                user_id: demo.member_id,
                method: Method::Transfer,
                amount: DEMO_TOPUP_CENTS,
                saved_card_id: None,
            },
        )
        .await?;
        let confirmed = topups::confirm(&mut tx, &opened, demo.staff_id).await?;
        ledger::credit(&mut tx, &confirmed.credit(), None).await?;
    }
    tx.commit().await?;
    Ok(())
}
