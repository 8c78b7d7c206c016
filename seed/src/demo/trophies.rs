//! The demo station's trophies, one per rule, seeded once (by name).

use sqlx::PgPool;

use super::activities::{CATEGORIES, JOURNEYS};
use domain::activities::trophies::{self, NewTrophy, Rule};

/// The trophy the demo member earns by winning the demo quiz (the browser test looks for it).
pub const FIRST_QUIZ_WON: &str = "Primeira vitória no quiz";

pub async fn seed(db: &PgPool, station_id: i64) -> anyhow::Result<()> {
    let id_of = |table: &'static str, name: &'static str| async move {
        let sql = format!("SELECT id FROM {table} WHERE station_id = $1 AND name = $2");
        sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql))
            .bind(station_id)
            .bind(name)
            .fetch_optional(db)
            .await
    };
    let mut seeds = vec![
        (
            FIRST_QUIZ_WON,
            "Venceu o primeiro quiz do clube.",
            Some(Rule::QuizzesWon(1)),
        ),
        (
            "Participativo",
            "Participou de cinco atividades diferentes.",
            Some(Rule::ActivitiesDone(5)),
        ),
    ];
    let participe = id_of("participant_categories", CATEGORIES[1]).await?;
    seeds.push((
        "Voz ativa",
        "Participou de três atividades da categoria Participe.",
        participe.map(|category_id| Rule::CategoryDone {
            category_id,
            threshold: 3,
        }),
    ));
    let journey = id_of("journeys", JOURNEYS[0]).await?;
    seeds.push((
        "Novo associado",
        "Concluiu a Trilha do novo associado.",
        journey.map(Rule::JourneyDone),
    ));
    for (name, description, rule) in seeds {
        let Some(rule) = rule else { continue };
        let exists: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM trophies WHERE station_id = $1 AND name = $2)",
        )
        .bind(station_id)
        .bind(name)
        .fetch_one(db)
        .await?;
        if !exists {
            let trophy = NewTrophy {
                station_id,
                name: name.into(),
                description: description.into(),
                image_key: None,
                rule,
            };
            trophies::create(db, &trophy).await?;
        }
    }
    Ok(())
}
