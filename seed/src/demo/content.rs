//! The demo station's content: news with pictures drawn here ([`art::banner`]), files to
//! download drawn as PDFs (one of them private to members) and transparency documents over
//! three years. Each row is seeded once, by its title or name; its file is stored under a
//! fixed key, so seeding again writes the same bytes to the same place and adds no row.

use std::path::Path;

use chrono::{Duration, Utc};
use documents::{Notice, Renderer};
use domain::content::{downloads, news, transparency};
use domain::infra::objects::{Objects, PRIVATE_ROOT};
use sqlx::PgPool;

use super::art::{self, CARD_SIZE, Palette};
use super::{DEMO_STATION_NAME, DemoStation};

/// The news item the browser test opens.
pub const FIRST_NEWS_TITLE: &str = "Assembleia geral ordinária de 2026";
/// The public download the browser test opens.
pub const PUBLIC_DOWNLOAD_TITLE: &str = "Estatuto Social";
/// The download only members of the station may read.
pub const PRIVATE_DOWNLOAD_TITLE: &str = "Convenção Coletiva 2026";
/// A news item kept unpublished (a draft), never shown.
pub const DRAFT_NEWS_TITLE: &str = "Rascunho: programação de fim de ano";

struct DemoNews {
    slug: &'static str,
    title: &'static str,
    subtitle: &'static str,
    body: &'static str,
    palette: Palette,
    published: bool,
    days_ago: i64,
}

const NEWS: &[DemoNews] = &[
    DemoNews {
        slug: "assembleia-2026",
        title: FIRST_NEWS_TITLE,
        subtitle: "Participe e vote nas decisões do clube no dia 15 de março",
        body: "<h2>Pauta</h2><p>A assembleia acontece na sede, às <strong>19h</strong>, \
               com transmissão ao vivo para quem não puder comparecer.</p>\
               <ul><li>Prestação de contas de 2025</li><li>Eleição do conselho fiscal</li>\
               <li>Plano de atividades de 2026</li></ul>\
               <p>Os documentos estão em <a href=\"/homepage/prestacao-de-contas\">Prestação \
               de contas</a>.</p>",
        palette: Palette {
            from: [14, 124, 102],
            to: [242, 165, 65],
        },
        published: true,
        days_ago: 1,
    },
    DemoNews {
        slug: "convenio-academias",
        title: "Novo convênio com academias",
        subtitle: "Descontos de até 30% na mensalidade para associados",
        body: "<p>Associados e dependentes têm desconto nas academias parceiras de toda a \
               cidade. Basta apresentar a <em>carteirinha</em> na recepção.</p>\
               <blockquote>Cuidar da saúde também é um benefício do clube.</blockquote>",
        palette: Palette {
            from: [40, 70, 160],
            to: [120, 200, 220],
        },
        published: true,
        days_ago: 8,
    },
    DemoNews {
        slug: "campanha-agasalho",
        title: "Campanha do agasalho",
        subtitle: "Doe roupas e cobertores na sede até o fim do mês",
        body: "<p>As doações serão entregues a instituições da região. Cada doação rende \
               pontos na sua carteira.</p>",
        palette: Palette {
            from: [160, 50, 80],
            to: [250, 190, 120],
        },
        published: true,
        days_ago: 20,
    },
    DemoNews {
        slug: "rascunho-fim-de-ano",
        title: DRAFT_NEWS_TITLE,
        subtitle: "Ainda em preparação",
        body: "<p>Não publicada.</p>",
        palette: Palette {
            from: [90, 90, 90],
            to: [200, 200, 200],
        },
        published: false,
        days_ago: 0,
    },
];

struct DemoDownload {
    slug: &'static str,
    title: &'static str,
    subtitle: &'static str,
    description: &'static str,
    body: &'static str,
    private: bool,
    paragraphs: &'static [&'static str],
}

const DOWNLOADS: &[DemoDownload] = &[
    DemoDownload {
        slug: "estatuto-social",
        title: PUBLIC_DOWNLOAD_TITLE,
        subtitle: "Versão aprovada em assembleia",
        description: "O estatuto que rege o clube, seus associados e sua diretoria.",
        body: "<p>Aprovado na assembleia geral de 2024. Em caso de dúvida, fale com a \
               secretaria.</p>",
        private: false,
        paragraphs: &[
            "Capítulo I. Da denominação, sede e fins: o Clube Filia Demo é uma associação sem \
             fins lucrativos, com sede em São Paulo.",
            "Capítulo II. Dos associados: são direitos dos associados participar das \
             assembleias, votar e ser votado, e usufruir dos benefícios do clube.",
            "Capítulo III. Da administração: o clube é administrado pela diretoria, eleita \
             para mandato de dois anos, e fiscalizado pelo conselho fiscal.",
        ],
    },
    DemoDownload {
        slug: "regimento-interno",
        title: "Regimento Interno",
        subtitle: "Regras de uso da sede e dos espaços",
        description: "Horários, reservas de espaços e convivência na sede.",
        body: "<p>Leia antes de reservar um espaço.</p>",
        private: false,
        paragraphs: &[
            "A sede funciona de segunda a sexta, das 9h às 18h, e aos sábados, das 9h às 13h.",
            "Os espaços podem ser reservados com até trinta dias de antecedência pela \
             secretaria.",
        ],
    },
    DemoDownload {
        slug: "convencao-coletiva-2026",
        title: PRIVATE_DOWNLOAD_TITLE,
        subtitle: "Exclusivo para associados",
        description: "O texto integral da convenção coletiva negociada pelo clube.",
        body: "<p>Documento <strong>exclusivo para associados</strong>: não compartilhe.</p>",
        private: true,
        paragraphs: &[
            "Cláusula primeira. Reajuste: os salários da categoria serão reajustados em \
             5,2% a partir de 1º de maio de 2026.",
            "Cláusula segunda. Vale-alimentação: o valor diário passa a R$ 42,00.",
            "Cláusula terceira. Vigência: esta convenção vigora por doze meses.",
        ],
    },
];

/// Transparency documents, named with their year after a hyphen as the spec reads them.
const TRANSPARENCY: &[(&str, &str)] = &[
    ("balancete-2024", "Balancete - 2024"),
    ("relatorio-anual-2024", "Relatório anual - 2024"),
    ("balancete-2025", "Balancete - 2025"),
    ("relatorio-anual-2025", "Relatório anual - 2025"),
    ("balancete-2026", "Balancete parcial - 2026"),
    ("ata-assembleia-2026", "Ata da assembleia/2026"),
];

const PDF: &str = "application/pdf";

pub async fn seed(
    db: &PgPool,
    objects: &Objects,
    font_dir: &Path,
    demo: &DemoStation,
) -> anyhow::Result<()> {
    // The PDFs are drawn in Lato, as receipts are: no font, no demo files.
    let renderer = Renderer::load(font_dir)?;
    let station_id = demo.station_id;
    let exists = async |table: &'static str, column: &'static str, value: &str| {
        let sql = format!(
            "SELECT EXISTS (SELECT 1 FROM {table} WHERE station_id = $1 AND {column} = $2)"
        );
        sqlx::query_scalar::<_, bool>(sqlx::AssertSqlSafe(sql))
            .bind(station_id)
            .bind(value)
            .fetch_one(db)
            .await
    };
    let pdf = |title: &str, paragraphs: Vec<String>| {
        renderer.notice(&Notice {
            station_name: DEMO_STATION_NAME.into(),
            logo: None,
            title: title.into(),
            paragraphs,
        })
    };

    for (variant, item) in NEWS.iter().enumerate() {
        if exists("station_news", "title", item.title).await? {
            continue;
        }
        let image_key = format!("demo/news/{}.png", item.slug);
        objects
            .put(
                &image_key,
                art::banner(CARD_SIZE, item.palette, variant as u32)?,
            )
            .await?;
        super::make_variants(db, objects, &image_key).await?;
        news::create(
            db,
            &news::NewNews {
                station_id,
                title: item.title.into(),
                subtitle: item.subtitle.into(),
                body: item.body.into(),
                image_key: Some(image_key),
                published: item.published,
                published_at: Some(Utc::now() - Duration::days(item.days_ago)),
            },
        )
        .await?;
    }

    for (order, item) in DOWNLOADS.iter().enumerate() {
        if exists("station_downloads", "title", item.title).await? {
            continue;
        }
        let folder = if item.private { PRIVATE_ROOT } else { "" };
        let file_key = format!("{folder}demo/downloads/{}.pdf", item.slug);
        let bytes = pdf(
            item.title,
            item.paragraphs.iter().map(|p| p.to_string()).collect(),
        );
        let size = bytes.len() as i64;
        objects.put(&file_key, bytes).await?;
        downloads::create(
            db,
            &downloads::NewDownload {
                station_id,
                name: item.slug.into(),
                title: item.title.into(),
                subtitle: item.subtitle.into(),
                description: item.description.into(),
                body: item.body.into(),
                file_key,
                content_type: PDF.into(),
                size,
                private: item.private,
                published: true,
                // Listed in the order above, newest first.
                published_at: Some(Utc::now() - Duration::days(order as i64)),
            },
        )
        .await?;
    }

    for (slug, nome) in TRANSPARENCY {
        if exists("transparency_documents", "nome", nome).await? {
            continue;
        }
        let file_key = format!("demo/transparency/{slug}.pdf");
        let bytes = pdf(
            nome,
            vec![
                format!("{nome}: documento de prestação de contas do {DEMO_STATION_NAME}."),
                "Receitas, despesas e saldos do período, aprovados pelo conselho fiscal."
                    .to_string(),
            ],
        );
        let size = bytes.len() as i64;
        objects.put(&file_key, bytes).await?;
        transparency::create(
            db,
            &transparency::NewDocument {
                station_id,
                nome: (*nome).into(),
                file_key,
                content_type: PDF.into(),
                size,
                published: true,
            },
        )
        .await?;
    }
    Ok(())
}
