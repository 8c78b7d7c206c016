//! The demo station's activities catalogue: one or more activities of every type (1 to 21)
//! with pictures drawn by [`super::art`], three categories, two journeys, a now-playing row,
//! a featured carousel, a feedback animation, and the cases a member meets: prerequisites
//! not done, a window that ended last month, a limit already reached, an external link and
//! two public activities, both in the visitors' featured carousel. The video playlist and
//! the agreement have videos drawn by ffmpeg ([`art::clip`]; left out, with a log line,
//! when ffmpeg is not installed). Activities, categories, journeys and rows are found by
//! name and, like every demo row, left as they are when they exist; their pictures are
//! stored only when they are created, and an activity's videos only while it has none.

use std::collections::HashMap;

use anyhow::Context;
use chrono::{DateTime, Duration, Utc};
use sqlx::PgPool;

use super::DemoStation;
use super::art::{self, Motif, Palette};
use domain::activities::ActivityType;
use domain::activities::catalogue::{self, Agreement, NewActivity, sanitise_html};
use domain::activities::participation::{self, NotTaken, Refused};
use domain::activities::videos::{NewVideo, VideoSource};
use domain::infra::objects::Objects;
use domain::shared::ids::{ActivityId, StationId, UserId};

/// The feedback animation of the raw content activity, a check mark that draws itself.
pub const FEEDBACK_LOTTIE: &str = include_str!("feedback-check.json");
const FEEDBACK_LOTTIE_KEY: &str = "demo/lottie/feedback-check.json";

/// The public activity, found by a search for "cafe"; first in the visitors' carousel.
pub const PUBLIC_ACTIVITY: &str = "Café com o presidente";
/// Public too, second in the visitors' carousel.
pub const PUBLIC_DONATION: &str = "Doação para a campanha do agasalho";
/// Requires [`PREREQUISITES`], which the demo member has not done.
pub const GATED_ACTIVITY: &str = "Desafio final da trilha do conhecimento";
pub const PREREQUISITES: [&str; 2] = ["Quiz: conheça seus direitos", "Pesquisa de satisfação 2026"];
/// Its window ended last month.
pub const ENDED_ACTIVITY: &str = "Enquete: festa de fim de ano";
/// Limit 1, and the demo member took part once.
pub const LIMITED_ACTIVITY: &str = "Termo de adesão ao programa de benefícios";
pub const EXTERNAL_ACTIVITY: &str = "Serviços públicos no gov.br";
pub const EXTERNAL_URL: &str = "https://www.gov.br";
pub const RAW_CONTENT_ACTIVITY: &str = "Conheça a história do clube";
/// The book club (type 21): a monthly subscription to its 'Livro do mês'.
pub const BOOK_CLUB_ACTIVITY: &str = "Clube do livro";
pub const JOURNEY_ACTIVITY: &str = "Playlist: primeiros passos no clube";
/// The activities with videos, each with its videos' names: the first is required.
pub const VIDEOS: [(&str, &[&str]); 2] = [
    (
        JOURNEY_ACTIVITY,
        &[
            "Como juntar pontos",
            "Como trocar pontos por benefícios",
            "Como falar com o clube",
        ],
    ),
    (
        LIMITED_ACTIVITY,
        &["Apresentação do programa de benefícios"],
    ),
];
pub const CATEGORIES: [&str; 3] = ["Benefícios", "Participe", "Comunidade"];
pub const JOURNEYS: [&str; 2] = ["Trilha do novo associado", "Trilha do conhecimento"];
pub const NOW_PLAYING: &str = "Acontecendo agora";

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
const PLUM: Palette = Palette {
    from: [120, 52, 120],
    to: [236, 120, 140],
};
const PALETTES: [Palette; 4] = [GREEN, AMBER, BLUE, PLUM];

/// An activity of the catalogue; what only a few have is set by name in [`new_activity`].
struct Seed {
    slug: &'static str,
    type_id: i16,
    name: &'static str,
    description: &'static str,
    rules: &'static str,
    points: i32,
    additional_cashback: i32,
    click_me_label: Option<&'static str>,
    /// Its place in the featured carousel.
    carousel: Option<i32>,
    public: bool,
}

const RULES: &str = "<p><strong>Regulamento</strong></p><ul><li>Válido para associados \
    ativos do Clube Filia Demo.</li><li>Os pontos são creditados após a confirmação da \
    participação e liberados na data de liberação do clube.</li><li>Participações \
    fraudulentas são canceladas.</li></ul>";

const SEEDS: &[Seed] = &[
    Seed {
        slug: "quiz-direitos",
        type_id: 6,
        name: PREREQUISITES[0],
        description: "<p>Teste o que você sabe sobre os <strong>direitos do \
            trabalhador</strong> em três perguntas rápidas.</p><p>Acerte metade e ganhe \
            os pontos.</p>",
        rules: RULES,
        points: 30,
        additional_cashback: 10,
        click_me_label: Some("Iniciar Quiz"),
        carousel: Some(3),
        public: false,
    },
    Seed {
        slug: "pesquisa-satisfacao",
        type_id: 8,
        name: PREREQUISITES[1],
        description: "<p>Conte como foi o seu ano no clube. A pesquisa tem <strong>três \
            etapas</strong> e leva menos de cinco minutos.</p>",
        rules: RULES,
        points: 40,
        additional_cashback: 0,
        click_me_label: None,
        carousel: None,
        public: false,
    },
    Seed {
        slug: "desafio-final",
        type_id: 11,
        name: GATED_ACTIVITY,
        description: "<p>O último passo da trilha: perguntas de múltipla escolha sobre \
            tudo o que você aprendeu.</p><ul><li>4 perguntas</li><li>Sem limite de \
            tempo</li></ul>",
        rules: RULES,
        points: 80,
        additional_cashback: 20,
        click_me_label: None,
        carousel: None,
        public: false,
    },
    Seed {
        slug: "cafe-presidente",
        type_id: 4,
        name: PUBLIC_ACTIVITY,
        description: "<p>Um café da manhã com o presidente da associação para conversar \
            sobre os <strong>projetos de 2027</strong>.</p><ul><li>Sábado, às 9h</li>\
            <li>Sede: Av. Paulista, 1000</li><li>Vagas limitadas</li></ul>",
        rules: RULES,
        points: 50,
        additional_cashback: 25,
        click_me_label: Some("Quero participar"),
        carousel: Some(1),
        public: true,
    },
    Seed {
        slug: "indique-anterior",
        type_id: 1,
        name: "Convide amigos para o clube",
        description: "<p>Mande um convite por e-mail a até <strong>cinco amigos</strong>. \
            Você ganha pontos quando cada um se associa.</p>",
        rules: RULES,
        points: 100,
        additional_cashback: 0,
        click_me_label: Some("Convidar"),
        carousel: None,
        public: false,
    },
    Seed {
        slug: "cinema",
        type_id: 3,
        name: "Ingresso com desconto no Cine Paulista",
        description: "<p>Troque seus pontos por um ingresso com <strong>50% de \
            desconto</strong> em qualquer sessão de segunda a quinta.</p>",
        rules: RULES,
        points: 0,
        additional_cashback: 5,
        click_me_label: Some("Pagar"),
        carousel: None,
        public: false,
    },
    Seed {
        slug: "oficina-financas",
        type_id: 4,
        name: "Oficina de educação financeira",
        description: "<p>Aprenda a montar o orçamento da família em uma oficina \
            presencial de duas horas.</p><ol><li>Planejamento</li><li>Dívidas</li>\
            <li>Reserva de emergência</li></ol>",
        rules: RULES,
        points: 60,
        additional_cashback: 0,
        click_me_label: Some("Inscrever-se"),
        carousel: None,
        public: false,
    },
    Seed {
        slug: "fale-conosco",
        type_id: 7,
        name: "Pesquisa de contato: fale com a gente",
        description: "<p>Deixe seu contato e diga como prefere receber as novidades do \
            clube.</p>",
        rules: "",
        points: 15,
        additional_cashback: 0,
        click_me_label: None,
        carousel: None,
        public: false,
    },
    Seed {
        slug: "horario-eventos",
        type_id: 9,
        name: "Enquete: melhor horário para os eventos",
        description: "<p>Manhã, tarde ou noite? Marque <strong>todos</strong> os \
            horários em que você pode participar.</p>",
        rules: RULES,
        points: 10,
        additional_cashback: 0,
        click_me_label: Some("Votar"),
        carousel: None,
        public: false,
    },
    Seed {
        slug: "tema-palestra",
        type_id: 10,
        name: "Enquete: tema da próxima palestra",
        description: "<p>Escolha o tema da palestra de dezembro e veja o resultado \
            parcial logo depois de votar.</p>",
        rules: RULES,
        points: 10,
        additional_cashback: 5,
        click_me_label: Some("Votar"),
        carousel: None,
        public: false,
    },
    Seed {
        slug: "saude-trabalho",
        type_id: 11,
        name: "Quiz: saúde no trabalho",
        description: "<p>Ergonomia, pausas e hidratação: quanto você sabe sobre \
            <strong>saúde no trabalho</strong>?</p>",
        rules: RULES,
        points: 30,
        additional_cashback: 0,
        click_me_label: None,
        carousel: None,
        public: false,
    },
    Seed {
        slug: "perfil-investidor",
        type_id: 12,
        name: "Teste: qual é o seu perfil de investidor?",
        description: "<p>Responda três perguntas e descubra se você é conservador, \
            moderado ou arrojado.</p>",
        rules: RULES,
        points: 20,
        additional_cashback: 0,
        click_me_label: None,
        carousel: None,
        public: false,
    },
    Seed {
        slug: "gov-br",
        type_id: 13,
        name: EXTERNAL_ACTIVITY,
        description: "<p>Acesse sua carteira de trabalho digital e outros serviços no \
            portal <strong>gov.br</strong>.</p>",
        rules: "",
        points: 5,
        additional_cashback: 0,
        click_me_label: Some("Acessar o gov.br"),
        carousel: None,
        public: false,
    },
    Seed {
        slug: "kit-boas-vindas",
        type_id: 14,
        name: "Kit de boas-vindas: peça o seu",
        description: "<p>Camiseta, caneca e caderno do clube entregues no seu \
            endereço.</p><ul><li>Entrega em até 15 dias úteis</li><li>Frete \
            grátis</li></ul>",
        rules: RULES,
        points: 0,
        additional_cashback: 10,
        click_me_label: Some("Pedir o kit"),
        carousel: None,
        public: false,
    },
    Seed {
        slug: "termo-adesao",
        type_id: 15,
        name: LIMITED_ACTIVITY,
        description: "<p>Leia o termo, assista ao vídeo de apresentação e confirme sua \
            adesão ao <strong>programa de benefícios</strong>.</p>",
        rules: RULES,
        points: 25,
        additional_cashback: 0,
        click_me_label: Some("Aceitar o termo"),
        carousel: None,
        public: false,
    },
    Seed {
        slug: "historia-clube",
        type_id: 16,
        name: RAW_CONTENT_ACTIVITY,
        description: "<p>O Clube Filia Demo nasceu em 1998, quando <strong>doze \
            associados</strong> se reuniram na Av. Paulista.</p><p>Hoje são mais de \
            vinte mil associados em todo o estado.</p><ul><li>1998: fundação</li>\
            <li>2010: primeira sede própria</li><li>2026: clube de vantagens \
            digital</li></ul>",
        rules: "",
        points: 10,
        additional_cashback: 0,
        click_me_label: None,
        carousel: None,
        public: false,
    },
    Seed {
        slug: "voucher-farmacia",
        type_id: 17,
        name: "Voucher de 20% na farmácia parceira",
        description: "<p>Apresente o voucher no caixa e ganhe <strong>20% de \
            desconto</strong> em medicamentos e higiene.</p>",
        rules: RULES,
        points: 0,
        additional_cashback: 15,
        click_me_label: Some("Pegar voucher"),
        carousel: Some(4),
        public: false,
    },
    Seed {
        slug: "playlist-primeiros-passos",
        type_id: 18,
        name: JOURNEY_ACTIVITY,
        description: "<p>Três vídeos curtos mostram como juntar pontos, trocar por \
            benefícios e falar com o clube.</p>",
        rules: RULES,
        points: 20,
        additional_cashback: 0,
        click_me_label: None,
        carousel: None,
        public: false,
    },
    Seed {
        slug: "indique-ganhe",
        type_id: 19,
        name: "Indique e ganhe",
        description: "<p>Indique amigos com o seu link: <strong>100 pontos</strong> para \
            você e 50 para quem se associar.</p>",
        rules: RULES,
        points: 100,
        additional_cashback: 0,
        click_me_label: Some("Indicar amigos"),
        carousel: None,
        public: false,
    },
    Seed {
        slug: "campanha-agasalho",
        type_id: 20,
        name: PUBLIC_DONATION,
        description: "<p>Doe a partir de R$ 0,50 e o clube dobra o valor. Toda a \
            arrecadação vira cobertores para abrigos de São Paulo.</p>",
        rules: RULES,
        points: 20,
        additional_cashback: 0,
        click_me_label: Some("Doar"),
        carousel: Some(2),
        public: true,
    },
    Seed {
        slug: "clube-livros",
        type_id: 21,
        name: BOOK_CLUB_ACTIVITY,
        description: "<p>Um livro por mês na sua casa, escolhido por uma curadoria de \
            associados.</p><ul><li>Mensal</li><li>Cancele quando quiser</li></ul>",
        rules: RULES,
        points: 0,
        additional_cashback: 30,
        click_me_label: Some("Assinar"),
        carousel: None,
        public: false,
    },
    Seed {
        slug: "festa-fim-de-ano",
        type_id: 9,
        name: ENDED_ACTIVITY,
        description: "<p>A votação do tema da festa de fim de ano foi encerrada. \
            Obrigado a todos que votaram!</p>",
        rules: RULES,
        points: 10,
        additional_cashback: 0,
        click_me_label: None,
        carousel: None,
        public: false,
    },
];

/// Existing activities of the base seed (sign-up reward, share), given a picture, a text
/// and a window once.
const BASE_ACTIVITIES: &[(i16, &str, &str)] = &[
    (
        2,
        "recompensa-cadastro",
        "<p>Bem-vindo! Você ganha pontos ao <strong>confirmar seu cadastro</strong>.</p>",
    ),
    (
        5,
        "compartilhe",
        "<p>Compartilhe o clube nas suas redes: cada amigo que abrir o seu link vale \
         pontos.</p>",
    ),
];

/// A category: its name, its icon's drawing and colours, and its activities in order.
pub(super) type CategoryRow = (&'static str, Motif, Palette, &'static [&'static str]);

const CATEGORY_ROWS: [CategoryRow; 3] = [
    (
        CATEGORIES[0],
        Motif::Gift,
        AMBER,
        &[
            "Voucher de 20% na farmácia parceira",
            "Ingresso com desconto no Cine Paulista",
            BOOK_CLUB_ACTIVITY,
            "Kit de boas-vindas: peça o seu",
            EXTERNAL_ACTIVITY,
            "Recompensa de cadastro",
        ],
    ),
    (
        CATEGORIES[1],
        Motif::Star,
        BLUE,
        &[
            PREREQUISITES[0],
            GATED_ACTIVITY,
            PREREQUISITES[1],
            "Enquete: tema da próxima palestra",
            "Enquete: melhor horário para os eventos",
            "Quiz: saúde no trabalho",
            "Teste: qual é o seu perfil de investidor?",
            "Pesquisa de contato: fale com a gente",
            ENDED_ACTIVITY,
        ],
    ),
    (
        CATEGORIES[2],
        Motif::Heart,
        PLUM,
        &[
            PUBLIC_ACTIVITY,
            PUBLIC_DONATION,
            "Indique e ganhe",
            "Convide amigos para o clube",
            "Compartilhe o Clube Filia Demo",
            "Oficina de educação financeira",
            RAW_CONTENT_ACTIVITY,
            LIMITED_ACTIVITY,
        ],
    ),
];

const JOURNEY_ROWS: [(&str, &[&str]); 2] = [
    (
        JOURNEYS[0],
        &[
            RAW_CONTENT_ACTIVITY,
            LIMITED_ACTIVITY,
            JOURNEY_ACTIVITY,
            "Kit de boas-vindas: peça o seu",
        ],
    ),
    (
        JOURNEYS[1],
        &[
            PREREQUISITES[0],
            "Quiz: saúde no trabalho",
            "Teste: qual é o seu perfil de investidor?",
            GATED_ACTIVITY,
        ],
    ),
];

const NOW_PLAYING_ROW: (&str, &[&str]) = (
    NOW_PLAYING,
    &[
        PUBLIC_ACTIVITY,
        "Enquete: tema da próxima palestra",
        PUBLIC_DONATION,
    ],
);

/// Ids of the activities the catalogue's tests and the browser tests look for.
#[derive(Debug, Clone, Default)]
pub struct Catalogue {
    /// Every activity of the demo station by name.
    pub activities: HashMap<String, i64>,
}

impl Catalogue {
    pub fn id(&self, name: &str) -> Option<i64> {
        self.activities.get(name).copied()
    }
}

/// Seeds the catalogue of the demo station `demo` (made by [`super::seed`] first), storing
/// its pictures and animation in `objects`.
pub async fn seed(db: &PgPool, objects: &Objects, demo: &DemoStation) -> anyhow::Result<Catalogue> {
    let station_id = demo.station_id;
    let now = Utc::now();
    let lottie_id = feedback_lottie(db, objects).await?;
    let partner_id = partner(db, station_id).await?;

    let mut ids: HashMap<String, i64> = HashMap::new();
    for (index, seed) in SEEDS.iter().enumerate() {
        let existing: Option<i64> =
            sqlx::query_scalar("SELECT id FROM actions WHERE station_id = $1 AND name = $2")
                .bind(station_id)
                .bind(seed.name)
                .fetch_optional(db)
                .await?;
        let id = match existing {
            Some(id) => id,
            None => {
                let mut activity = new_activity(seed, station_id, now, &ids);
                let palette = PALETTES[index % PALETTES.len()];
                let image_key = format!("demo/activities/{}.png", seed.slug);
                objects
                    .put(
                        &image_key,
                        art::banner(art::CARD_SIZE, palette, index as u32)?,
                    )
                    .await?;
                super::make_variants(db, objects, &image_key).await?;
                activity.image_key = Some(image_key);
                if activity.featured {
                    let key = format!("demo/activities/{}-destaque.png", seed.slug);
                    let picture = art::banner(art::FEATURED_SIZE, palette, index as u32 + 7)?;
                    objects.put(&key, picture).await?;
                    super::make_variants(db, objects, &key).await?;
                    activity.featured_image_key = Some(key);
                }
                if seed.type_id == ActivityType::RawContent.id() {
                    activity.feedback_message = Some(
                        "Obrigado por conhecer a nossa história! Seus pontos já estão a \
                         caminho."
                            .into(),
                    );
                    activity.feedback_lottie_id = Some(lottie_id);
                }
                if matches!(seed.type_id, 3 | 4) {
                    activity.partner_id = Some(partner_id);
                }
                catalogue::create(db, &activity).await?
            }
        };
        ids.insert(seed.name.to_owned(), id);
    }
    complete_base_activities(db, objects, station_id, now).await?;
    let base: Vec<(i64, String)> =
        sqlx::query_as("SELECT id, name FROM actions WHERE station_id = $1 AND type_id IN (2, 5)")
            .bind(station_id)
            .fetch_all(db)
            .await?;
    ids.extend(base.into_iter().map(|(id, name)| (name, id)));

    for (position, row) in CATEGORY_ROWS.iter().enumerate() {
        category(db, objects, station_id, position, row, &ids).await?;
    }
    for (position, (name, members)) in JOURNEY_ROWS.iter().enumerate() {
        row(
            db,
            RowTable::Journey,
            station_id,
            position,
            name,
            members,
            &ids,
        )
        .await?;
    }
    let (title, members) = NOW_PLAYING_ROW;
    row(
        db,
        RowTable::NowPlaying,
        station_id,
        0,
        title,
        members,
        &ids,
    )
    .await?;

    for (index, (name, titles)) in VIDEOS.iter().enumerate() {
        if let Some(&id) = ids.get(*name) {
            videos(db, objects, id, index, titles).await?;
        }
    }
    if let Some(&limited) = ids.get(LIMITED_ACTIVITY) {
        take_part(db, demo, (limited, seed_type(LIMITED_ACTIVITY)), now).await?;
    }
    super::research::seed(db, &ids).await?;
    super::trophies::seed(db, station_id).await?;
    super::invitations::seed(db, demo).await?;
    super::lucky_numbers::seed(db, demo).await?;
    Ok(Catalogue { activities: ids })
}

fn new_activity(
    seed: &Seed,
    station_id: i64,
    now: DateTime<Utc>,
    ids: &HashMap<String, i64>,
) -> NewActivity {
    let (start, end) = if seed.name == ENDED_ACTIVITY {
        (now - Duration::days(60), now - Duration::days(30))
    } else {
        (now - Duration::days(30), now + Duration::days(730))
    };
    let prerequisites = if seed.name == GATED_ACTIVITY {
        PREREQUISITES
            .iter()
            .filter_map(|name| ids.get(*name).copied().map(ActivityId))
            .collect()
    } else {
        Vec::new()
    };
    NewActivity {
        station_id,
        type_id: ActivityType::from_id(seed.type_id).expect("a type of the spec"),
        name: seed.name.into(),
        description: seed.description.into(),
        rules: seed.rules.into(),
        points: seed.points,
        additional_cashback: seed.additional_cashback,
        participation_start: Some(start),
        participation_end: Some(end),
        limit_per_user: (seed.name == LIMITED_ACTIVITY).then_some(1),
        comments_and_likes_enabled: seed.type_id == ActivityType::RawContent.id(),
        priority: seed.carousel.map_or(0, |place| 10 - place),
        priority_carousel: seed.carousel.unwrap_or(0),
        click_me_label: seed.click_me_label.map(Into::into),
        featured: seed.carousel.is_some(),
        public: seed.public,
        active: true,
        redirect_links: if seed.name == EXTERNAL_ACTIVITY {
            vec![EXTERNAL_URL.into()]
        } else {
            Vec::new()
        },
        prerequisites,
        agreements: if seed.type_id == ActivityType::Agreement.id() {
            vec![Agreement {
                checkbox: "Li e aceito o termo de adesão ao programa de benefícios.".into(),
                button: "Confirmar adesão".into(),
            }]
        } else {
            Vec::new()
        },
        ..NewActivity::default()
    }
}

fn seed_type(name: &str) -> i16 {
    SEEDS
        .iter()
        .find(|seed| seed.name == name)
        .map_or(0, |seed| seed.type_id)
}

/// The activity `action_id`'s videos, one clip drawn for each of `titles`, while it has
/// none; without ffmpeg, none (and a log line says why).
async fn videos(
    db: &PgPool,
    objects: &Objects,
    action_id: i64,
    index: usize,
    titles: &[&str],
) -> anyhow::Result<()> {
    let has_videos: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM action_videos WHERE action_id = $1)")
            .bind(action_id)
            .fetch_one(db)
            .await?;
    if has_videos {
        // Clips drawn before videos stated their length were given 60 s by the migration:
        // a 6 s clip could then never be 80% played.
        sqlx::query(
            "UPDATE action_videos SET duration_seconds = $2
              WHERE action_id = $1 AND object_key LIKE 'demo/videos/%' AND duration_seconds <> $2",
        )
        .bind(action_id)
        .bind(art::CLIP_SECONDS as i32)
        .execute(db)
        .await?;
        return Ok(());
    }
    let mut videos = Vec::new();
    for (place, title) in titles.iter().enumerate() {
        let variant = (index * 3 + place) as u32;
        let palette = PALETTES[variant as usize % PALETTES.len()];
        let Some(clip) = art::clip(palette, variant).await? else {
            tracing::warn!("ffmpeg is not installed: the demo activities have no videos");
            return Ok(());
        };
        let object_key = format!("demo/videos/{action_id}-{}.mp4", place + 1);
        objects.put(&object_key, clip).await?;
        videos.push(NewVideo {
            source: VideoSource::Custom { object_key },
            name: (*title).to_string(),
            description: format!("{title}: um vídeo curto de {} segundos.", art::CLIP_SECONDS),
            required: place == 0,
            duration_seconds: art::CLIP_SECONDS,
        });
    }
    let mut tx = db.begin().await?;
    catalogue::add_videos(&mut tx, ActivityId(action_id), &videos).await?;
    tx.commit().await?;
    Ok(())
}

/// The shared feedback animation, stored once.
async fn feedback_lottie(db: &PgPool, objects: &Objects) -> anyhow::Result<i64> {
    let existing: Option<i64> =
        sqlx::query_scalar("SELECT id FROM lottie_files WHERE object_key = $1")
            .bind(FEEDBACK_LOTTIE_KEY)
            .fetch_optional(db)
            .await?;
    if let Some(id) = existing {
        return Ok(id);
    }
    objects
        .put(FEEDBACK_LOTTIE_KEY, FEEDBACK_LOTTIE.as_bytes().to_vec())
        .await?;
    let id = sqlx::query_scalar(
        "INSERT INTO lottie_files (name, object_key) VALUES ('Confirmação', $1)
         ON CONFLICT (object_key) DO UPDATE SET name = lottie_files.name
         RETURNING id",
    )
    .bind(FEEDBACK_LOTTIE_KEY)
    .fetch_one(db)
    .await?;
    Ok(id)
}

async fn partner(db: &PgPool, station_id: i64) -> anyhow::Result<i64> {
    const NAME: &str = "Rede de Parceiros Paulista";
    sqlx::query(
        "INSERT INTO partners (station_id, name) SELECT $1, $2
          WHERE NOT EXISTS (SELECT 1 FROM partners WHERE station_id = $1 AND name = $2)",
    )
    .bind(station_id)
    .bind(NAME)
    .execute(db)
    .await?;
    Ok(
        sqlx::query_scalar("SELECT id FROM partners WHERE station_id = $1 AND name = $2")
            .bind(station_id)
            .bind(NAME)
            .fetch_one(db)
            .await?,
    )
}

/// The base seed's sign-up reward and share activity get a picture, a description and a
/// window the first time (while they have no picture); their points stay as they are.
async fn complete_base_activities(
    db: &PgPool,
    objects: &Objects,
    station_id: i64,
    now: DateTime<Utc>,
) -> anyhow::Result<()> {
    for (index, (type_id, slug, description)) in BASE_ACTIVITIES.iter().enumerate() {
        let bare: Option<i64> = sqlx::query_scalar(
            "SELECT id FROM actions
              WHERE station_id = $1 AND type_id = $2 AND image_key IS NULL
              ORDER BY id LIMIT 1",
        )
        .bind(station_id)
        .bind(type_id)
        .fetch_optional(db)
        .await?;
        let Some(id) = bare else { continue };
        let key = format!("demo/activities/{slug}.png");
        let palette = PALETTES[(index + 1) % PALETTES.len()];
        objects
            .put(
                &key,
                art::banner(art::CARD_SIZE, palette, 40 + index as u32)?,
            )
            .await?;
        super::make_variants(db, objects, &key).await?;
        sqlx::query(
            "UPDATE actions SET image_key = $2, description = $3, rules = $4,
                    participation_start = coalesce(participation_start, $5),
                    participation_end = coalesce(participation_end, $6)
              WHERE id = $1",
        )
        .bind(id)
        .bind(&key)
        .bind(sanitise_html(description))
        .bind(sanitise_html(RULES))
        .bind(now - Duration::days(30))
        .bind(now + Duration::days(730))
        .execute(db)
        .await?;
    }
    Ok(())
}

/// A category with its icon and activities (found in `ids` by name), unless one of that
/// name exists.
pub(super) async fn category(
    db: &PgPool,
    objects: &Objects,
    station_id: i64,
    position: usize,
    &(name, motif, palette, members): &CategoryRow,
    ids: &HashMap<String, i64>,
) -> anyhow::Result<()> {
    let exists: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM participant_categories WHERE station_id = $1 AND name = $2)",
    )
    .bind(station_id)
    .bind(name)
    .fetch_one(db)
    .await?;
    if exists {
        return Ok(());
    }
    let icon_key = format!("demo/categories/{}.png", position + 1);
    objects.put(&icon_key, art::icon(palette, motif)?).await?;
    let mut tx = db.begin().await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO participant_categories (station_id, name, icon_key, position)
         VALUES ($1, $2, $3, $4) RETURNING id",
    )
    .bind(station_id)
    .bind(name)
    .bind(&icon_key)
    .bind(position as i32)
    .fetch_one(&mut *tx)
    .await?;
    for (place, action_id) in member_ids(members, ids).enumerate() {
        sqlx::query(
            "INSERT INTO category_actions (category_id, action_id, position) VALUES ($1, $2, $3)",
        )
        .bind(id)
        .bind(action_id)
        .bind(place as i32)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

#[derive(Debug, Clone, Copy)]
enum RowTable {
    Journey,
    NowPlaying,
}

/// A journey or now-playing row with its activities, unless one of that name exists.
async fn row(
    db: &PgPool,
    table: RowTable,
    station_id: i64,
    position: usize,
    name: &str,
    members: &[&str],
    ids: &HashMap<String, i64>,
) -> anyhow::Result<()> {
    let (insert_head, insert_item) = match table {
        RowTable::Journey => (
            "INSERT INTO journeys (station_id, name, position) SELECT $1, $2, $3
              WHERE NOT EXISTS (SELECT 1 FROM journeys WHERE station_id = $1 AND name = $2)
             RETURNING id",
            "INSERT INTO journey_actions (journey_id, action_id, position) VALUES ($1, $2, $3)",
        ),
        RowTable::NowPlaying => (
            "INSERT INTO now_playing (station_id, title, position) SELECT $1, $2, $3
              WHERE NOT EXISTS (SELECT 1 FROM now_playing WHERE station_id = $1 AND title = $2)
             RETURNING id",
            "INSERT INTO now_playing_actions (now_playing_id, action_id, position)
             VALUES ($1, $2, $3)",
        ),
    };
    let mut tx = db.begin().await?;
    let created: Option<i64> = sqlx::query_scalar(insert_head)
        .bind(station_id)
        .bind(name)
        .bind(position as i32)
        .fetch_optional(&mut *tx)
        .await?;
    let Some(id) = created else { return Ok(()) };
    for (place, action_id) in member_ids(members, ids).enumerate() {
        sqlx::query(insert_item)
            .bind(id)
            .bind(action_id)
            .bind(place as i32)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

fn member_ids<'a>(
    members: &'a [&str],
    ids: &'a HashMap<String, i64>,
) -> impl Iterator<Item = i64> + 'a {
    members.iter().filter_map(|name| ids.get(*name).copied())
}

/// The demo member takes part in `action_id` through the participation rules, until its
/// limit refuses more.
async fn take_part(
    db: &PgPool,
    demo: &DemoStation,
    (action_id, type_id): (i64, i16),
    now: DateTime<Utc>,
) -> anyhow::Result<()> {
    let kind = ActivityType::from_id(type_id).context("a type of the spec")?;
    let mut tx = db.begin().await?;
    let admitted = participation::admit(
        &mut tx,
        UserId(demo.member_id),
        StationId(demo.station_id),
        ActivityId(action_id),
        &[kind],
        now,
    )
    .await;
    match admitted {
        Ok(admitted) => {
            participation::record(&mut tx, admitted).await?;
        }
        Err(NotTaken::Refused(Refused::LimitReached | Refused::OutsideWindow { .. })) => {}
        Err(not) => anyhow::bail!("demo participation refused: {not}"),
    }
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_feedback_animation_is_lottie_with_shape_layers() {
        let lottie: serde_json::Value = serde_json::from_str(FEEDBACK_LOTTIE).expect("json");
        assert!(lottie["v"].as_str().is_some_and(|v| v.starts_with('5')));
        let layers = lottie["layers"].as_array().expect("layers");
        assert!(!layers.is_empty());
        assert!(layers.iter().all(|layer| layer["ty"] == 4));
    }

    #[test]
    fn every_type_and_every_row_member_is_in_the_catalogue() {
        let mut types: Vec<i16> = SEEDS.iter().map(|seed| seed.type_id).collect();
        types.extend(BASE_ACTIVITIES.iter().map(|(type_id, _, _)| *type_id));
        for type_id in 1..=21 {
            assert!(types.contains(&type_id), "type {type_id}");
        }
        let names: Vec<&str> = SEEDS
            .iter()
            .map(|seed| seed.name)
            .chain(["Recompensa de cadastro", "Compartilhe o Clube Filia Demo"])
            .collect();
        let rows = CATEGORY_ROWS
            .iter()
            .flat_map(|(_, _, _, members)| members.iter())
            .chain(JOURNEY_ROWS.iter().flat_map(|(_, members)| members.iter()))
            .chain(NOW_PLAYING_ROW.1.iter());
        for member in rows {
            assert!(names.contains(member), "{member}");
        }
    }
}
