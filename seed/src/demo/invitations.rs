//! The demo member's invitees: two people who signed up through the demo member's invite
//! link under the station's offer, so 'Meus convites' has rows to show and search. They
//! have no password (nobody logs in as them). Seeded once (by e-mail); an existing row is
//! left as it is.

use sqlx::PgPool;

use super::DemoStation;

/// Who signed up through the demo member's link, and how many days ago.
pub const INVITEES: [(&str, &str, i32); 2] = [
    ("Lúcia Andrade", "lucia.convidada@demo.filia.com.br", 12),
    ("João Pereira", "joao.convidado@demo.filia.com.br", 3),
];

pub async fn seed(db: &PgPool, demo: &DemoStation) -> anyhow::Result<()> {
    let mut tx = db.begin().await?;
    for (name, email, days_ago) in INVITEES {
        sqlx::query(
            "INSERT INTO users (station_id, name, email, type_id, role, active, briefing_done,
                                state, created_at)
             VALUES ($1, $2, $3, 2, 'member', true, true, 'SP', now() - make_interval(days => $4))
             ON CONFLICT (station_id, email) WHERE email IS NOT NULL DO NOTHING",
        )
        .bind(demo.station_id)
        .bind(name)
        .bind(email)
        .bind(days_ago)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO mgm_invitations (invitee_id, inviter_id, rule_id, station_id, created_at)
             SELECT u.id, $2, r.id, $1, u.created_at
               FROM users u,
                    (SELECT id FROM mgm_rules WHERE station_id = $1 AND active
                      ORDER BY id DESC LIMIT 1) r
              WHERE u.station_id = $1 AND u.email = $3
             ON CONFLICT (invitee_id) DO NOTHING",
        )
        .bind(demo.station_id)
        .bind(demo.member_id)
        .bind(email)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}
