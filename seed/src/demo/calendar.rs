//! The demo station's calendar: a month of events around the day it is seeded (from twelve
//! days before to three weeks after, in the station's time zone), some with a picture drawn
//! here, one of them hidden (unpublished). Seeded once: a station with any schedule is left
//! as it is.

use chrono::{Duration, NaiveTime, TimeZone};
use sqlx::PgPool;

use super::DemoStation;
use super::art::{self, Palette};
use domain::calendar::schedules::{self, NewSchedule};
use domain::infra::objects::Objects;
use domain::shared::time::{station_zone, today_in};

/// Today's event, which the browser test opens from the calendar.
pub const TODAY_EVENT: &str = "Torneio de futebol society";
/// The one event members never see.
pub const HIDDEN_EVENT: &str = "Reunião da diretoria (rascunho)";

const GREEN: Palette = Palette {
    from: [14, 124, 102],
    to: [120, 200, 160],
};
const AMBER: Palette = Palette {
    from: [242, 165, 65],
    to: [214, 90, 49],
};
const BLUE: Palette = Palette {
    from: [38, 84, 160],
    to: [90, 180, 220],
};

struct Event {
    name: &'static str,
    description: &'static str,
    /// Days from the seed's day.
    day: i64,
    /// Start and end, "HH:MM" on the station's clock; the end may fall `days_long` later.
    start: (u32, u32),
    end: (u32, u32),
    days_long: i64,
    day_description: Option<&'static str>,
    picture: Option<(Palette, u32)>,
    published: bool,
}

const fn event(name: &'static str, description: &'static str, day: i64) -> Event {
    Event {
        name,
        description,
        day,
        start: (19, 0),
        end: (21, 0),
        days_long: 0,
        day_description: None,
        picture: None,
        published: true,
    }
}

const EVENTS: [Event; 12] = [
    Event {
        picture: Some((BLUE, 21)),
        ..event(
            "Assembleia geral do clube",
            "Prestação de contas do semestre e votação do calendário de atividades. \
             Traga sua carteirinha.",
            -10,
        )
    },
    Event {
        start: (8, 0),
        end: (9, 0),
        ..event(
            "Aula aberta de ioga",
            "Aula para todos os níveis no gramado da sede. Leve seu tapete.",
            -5,
        )
    },
    Event {
        start: (10, 0),
        end: (17, 0),
        picture: Some((AMBER, 22)),
        ..event(
            "Feira de descontos dos parceiros",
            "Os parceiros do clube com ofertas exclusivas para associados.",
            -2,
        )
    },
    Event {
        start: (7, 0),
        end: (8, 0),
        ..event(
            "Aula de natação",
            "Turma da manhã na piscina coberta. Vagas limitadas por ordem de chegada.",
            0,
        )
    },
    Event {
        start: (14, 0),
        end: (18, 0),
        picture: Some((GREEN, 23)),
        ..event(
            TODAY_EVENT,
            "Times de sete jogadores, inscrições na hora. Premiação para os três primeiros \
             colocados.",
            0,
        )
    },
    Event {
        start: (18, 0),
        end: (19, 0),
        published: false,
        ..event(
            HIDDEN_EVENT,
            "Pauta interna; ainda não divulgada aos associados.",
            1,
        )
    },
    Event {
        start: (19, 30),
        end: (21, 0),
        ..event(
            "Palestra: planejamento financeiro",
            "Como organizar o orçamento da família e usar os benefícios do clube.",
            2,
        )
    },
    Event {
        start: (9, 0),
        end: (18, 0),
        day_description: Some("Dia do associado"),
        picture: Some((AMBER, 24)),
        ..event(
            "Dia do associado",
            "Entrada livre para a família, brinquedos para as crianças e sorteios de \
             brindes.",
            5,
        )
    },
    Event {
        start: (9, 0),
        end: (12, 0),
        ..event(
            "Mutirão de plantio",
            "Plantio de mudas nativas no parque do clube. Luvas e ferramentas por nossa \
             conta.",
            8,
        )
    },
    Event {
        start: (0, 0),
        end: (23, 45),
        day_description: Some("Feriado"),
        ..event(
            "Sede fechada",
            "A sede não abre no feriado. O atendimento on-line segue normalmente.",
            12,
        )
    },
    Event {
        start: (20, 0),
        end: (23, 30),
        picture: Some((BLUE, 25)),
        ..event(
            "Festa de fim de ano",
            "Jantar, música ao vivo e a entrega dos troféus do ano.",
            15,
        )
    },
    Event {
        start: (9, 0),
        end: (17, 0),
        days_long: 1,
        ..event(
            "Retiro de fim de semana",
            "Dois dias de trilhas e oficinas na serra, com transporte saindo da sede.",
            20,
        )
    },
];

pub async fn seed(db: &PgPool, objects: &Objects, demo: &DemoStation) -> anyhow::Result<()> {
    let station_id = demo.station_id;
    let seeded: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM schedules WHERE station_id = $1)")
            .bind(station_id)
            .fetch_one(db)
            .await?;
    if seeded {
        return Ok(());
    }
    let zone = station_zone(db, station_id).await?;
    let today = today_in(zone);
    let at = |day: i64, (hour, minute): (u32, u32)| {
        let time = NaiveTime::from_hms_opt(hour, minute, 0).expect("a time of day");
        zone.from_local_datetime(&(today + Duration::days(day)).and_time(time))
            .earliest()
            .map(|local| local.to_utc())
            .ok_or_else(|| anyhow::anyhow!("no such time on the station's clock"))
    };
    // The pictures first: the rows then commit together, so a failed seed leaves none.
    let mut rows = Vec::new();
    for (index, event) in EVENTS.iter().enumerate() {
        let image_key = match event.picture {
            Some((palette, variant)) => {
                let key = format!("demo/calendar/{index}.png");
                objects
                    .put(&key, art::banner(art::CARD_SIZE, palette, variant)?)
                    .await?;
                Some(key)
            }
            None => None,
        };
        rows.push(NewSchedule {
            station_id,
            name: event.name.into(),
            description: event.description.into(),
            image_key,
            starts_at: at(event.day, event.start)?,
            ends_at: at(event.day + event.days_long, event.end)?,
            day_description: event.day_description.map(String::from),
            published: event.published,
        });
    }
    let mut tx = db.begin().await?;
    for row in &rows {
        schedules::create(&mut *tx, row).await?;
    }
    tx.commit().await?;
    Ok(())
}
