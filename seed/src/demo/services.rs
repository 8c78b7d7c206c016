//! The demo station's member services: legal, accounting, health and the political-union
//! page turned on, each desk with its address, contacts and texts (no video playlists: the
//! demo fetches nothing from the internet), an office per desk, the demo member's cases and
//! legal appointments under their CPF (given one when the account has none), three
//! political themes, and six news items for each desk's tag, with pictures drawn here.
//! Seeded once: every row is keyed (desk, office name, case number, the appointment's own
//! reference, theme and news titles) and rows that exist are left as they are; the settings
//! are turned on again.

use std::collections::HashMap;

use chrono::{Duration, Utc};
use serde_json::{Value, json};
use sqlx::{PgConnection, PgPool};

use super::art::{self, CARD_SIZE, Motif, Palette};
use super::{DemoStation, activities};
use domain::content::news;
use domain::infra::objects::Objects;
use domain::political::{self, Highlight, NewTheme, ThemeProcess, UnionAction};

/// The demo member's CPF, when the account has none.
pub const DEMO_MEMBER_CPF: &str = "27403518012";
pub const LEGAL_OFFICE: &str = "Alves & Lima Advogados";
pub const ACCOUNTING_OFFICE: &str = "Contábil Horizonte";
pub const HEALTH_OFFICE: &str = "Clínica Sorriso";

struct Desk {
    service: &'static str,
    email: &'static str,
    guidance: &'static str,
    information: &'static str,
}

const DESKS: [Desk; 4] = [
    Desk {
        service: "legal",
        email: "juridico@demo.filia.com.br",
        guidance: "Antes do atendimento, separe seus documentos pessoais, a carteira de trabalho e os \
                   contracheques dos últimos meses.\n\nO atendimento é individual e sigiloso. Se \
                   não puder comparecer, cancele com mais de 48 horas de antecedência.",
        information: "A consultoria jurídica atende associados de segunda a sexta-feira, das 9h às \
                      17h, em questões trabalhistas, previdenciárias e do consumidor.\n\nAs causas \
                      coletivas são acompanhadas pelo escritório parceiro e publicadas no portal.",
    },
    Desk {
        service: "accounting",
        email: "contabil@demo.filia.com.br",
        guidance: "Traga os informes de rendimentos, recibos de despesas médicas e de educação e a \
                   declaração do ano anterior.\n\nO atendimento contábil acontece às quintas-feiras.",
        information: "A consultoria contábil orienta associados sobre imposto de renda, MEI e \
                      planejamento financeiro pessoal.",
    },
    Desk {
        service: "health",
        email: "saude@demo.filia.com.br",
        guidance: "Chegue com 15 minutos de antecedência e traga sua carteirinha de associado.\n\n\
                   Parte da coparticipação volta para você como cashback.",
        information: "Atendimento odontológico de segunda a sábado, psicológico de segunda a sexta e \
                      nutricional às terças e quintas-feiras.",
    },
    Desk {
        service: "political",
        email: "politico@demo.filia.com.br",
        guidance: "Sugira temas que afetam a categoria: a equipe político-sindical analisa cada \
                   sugestão e responde nas assembleias.",
        information: "A área político-sindical acompanha projetos de lei, negociações coletivas e \
                      ações judiciais de interesse dos associados.",
    },
];

fn contacts(service: &str) -> Value {
    let person = |name: &str, role: &str, email: &str, phone: &str| json!({ "name": name, "role": role, "email": email, "phone": phone });
    match service {
        "legal" => json!([
            person(
                "Dra. Marina Alves",
                "Advogada trabalhista",
                "marina.alves@demo.filia.com.br",
                "1133334444"
            ),
            person(
                "Dr. Ricardo Lima",
                "Advogado previdenciário",
                "ricardo.lima@demo.filia.com.br",
                "1133334445"
            ),
            person(
                "Dra. Fernanda Rocha",
                "Advogada do consumidor",
                "fernanda.rocha@demo.filia.com.br",
                "1133334446"
            ),
            person(
                "Carlos Mendes",
                "Atendimento jurídico",
                "juridico@demo.filia.com.br",
                "1133334447"
            ),
        ]),
        "accounting" => json!([
            person(
                "Paulo Henrique Souza",
                "Contador",
                "paulo.souza@demo.filia.com.br",
                "1133335550"
            ),
            person(
                "Juliana Castro",
                "Contadora",
                "juliana.castro@demo.filia.com.br",
                "1133335551"
            ),
            person(
                "Rafael Nunes",
                "Assistente contábil",
                "rafael.nunes@demo.filia.com.br",
                "1133335552"
            ),
            person(
                "Beatriz Ramos",
                "Atendimento contábil",
                "contabil@demo.filia.com.br",
                "1133335553"
            ),
        ]),
        "political" => json!([
            person(
                "Ana Paula Ferreira",
                "Diretora político-sindical",
                "ana.ferreira@demo.filia.com.br",
                "1133336660"
            ),
            person(
                "José Carlos Pereira",
                "Assessor parlamentar",
                "jose.pereira@demo.filia.com.br",
                "1133336661"
            ),
            person(
                "Luciana Martins",
                "Secretária de formação",
                "luciana.martins@demo.filia.com.br",
                "1133336662"
            ),
            person(
                "Marcos Vinícius Silva",
                "Coordenador de mobilização",
                "marcos.silva@demo.filia.com.br",
                "1133336663"
            ),
            person(
                "Patrícia Gomes",
                "Comunicação sindical",
                "politico@demo.filia.com.br",
                "1133336664"
            ),
        ]),
        _ => json!([
            person(
                "Dra. Camila Duarte",
                "Cirurgiã-dentista",
                "camila.duarte@demo.filia.com.br",
                "1133337770"
            ),
            person(
                "Renata Barros",
                "Psicóloga",
                "renata.barros@demo.filia.com.br",
                "1133337771"
            ),
            person(
                "Tiago Moreira",
                "Nutricionista",
                "tiago.moreira@demo.filia.com.br",
                "1133337772"
            ),
        ]),
    }
}

struct Case {
    service: &'static str,
    number: &'static str,
    kind: &'static str,
    situation: &'static str,
    filed_on: &'static str,
    court: &'static str,
    title: &'static str,
    claim_cents: Option<i64>,
    collective: bool,
}

const CASES: [Case; 6] = [
    Case {
        service: "legal",
        number: "0001234-56.2025.5.02.0001",
        kind: "Trabalhista",
        situation: "Em andamento",
        filed_on: "2025-03-14",
        court: "TRT-2",
        title: "Horas extras da categoria",
        claim_cents: Some(125_000_000),
        collective: true,
    },
    Case {
        service: "legal",
        number: "0004567-89.2024.5.02.0010",
        kind: "Trabalhista",
        situation: "Aguardando julgamento",
        filed_on: "2024-08-02",
        court: "TRT-2",
        title: "Reajuste do piso salarial",
        claim_cents: None,
        collective: true,
    },
    Case {
        service: "legal",
        number: "5012345-67.2025.4.03.6100",
        kind: "Previdenciário",
        situation: "Em andamento",
        filed_on: "2025-06-20",
        court: "TRF-3",
        title: "Revisão de aposentadoria",
        claim_cents: Some(4_830_000),
        collective: false,
    },
    Case {
        service: "legal",
        number: "1009876-54.2023.8.26.0100",
        kind: "Consumidor",
        situation: "Encerrado",
        filed_on: "2023-11-09",
        court: "TJSP",
        title: "Cobrança indevida de plano de saúde",
        claim_cents: Some(1_200_000),
        collective: false,
    },
    Case {
        service: "accounting",
        number: "IRPF-2025-000123",
        kind: "Imposto de renda",
        situation: "Em análise",
        filed_on: "2025-04-28",
        court: "Receita Federal",
        title: "Declaração de IRPF 2025",
        claim_cents: None,
        collective: false,
    },
    Case {
        service: "accounting",
        number: "MEI-2024-004567",
        kind: "MEI",
        situation: "Concluído",
        filed_on: "2024-05-15",
        court: "Receita Federal",
        title: "Regularização do MEI",
        claim_cents: None,
        collective: false,
    },
];

struct Theme {
    kind: &'static str,
    title: &'static str,
    description: &'static str,
    interested: &'static [&'static str],
    highlights: &'static [(&'static str, &'static str)],
    actions: &'static [(&'static str, &'static str)],
    processes: &'static [(&'static str, &'static str)],
}

const THEMES: [Theme; 3] = [
    Theme {
        kind: "Projeto de lei",
        title: "Piso salarial nacional da categoria",
        description: "Projeto que fixa um piso salarial nacional e a sua correção anual pela inflação.",
        interested: &["Trabalhadores da ativa", "Recém-contratados"],
        highlights: &[
            ("Piso nacional com correção anual", "Favorável"),
            (
                "Prazo de dois anos para adaptação das empresas",
                "Contrário",
            ),
        ],
        actions: &[
            ("2026-09-10", "Audiência pública na Câmara dos Deputados"),
            (
                "2026-10-22",
                "Entrega de abaixo-assinado com 12 mil assinaturas",
            ),
        ],
        processes: &[("PL 1234/2025", "Câmara dos Deputados")],
    },
    Theme {
        kind: "Reforma",
        title: "Reforma da previdência estadual",
        description: "Mudanças nas regras de aposentadoria dos servidores estaduais e na alíquota de contribuição.",
        interested: &["Servidores estaduais", "Aposentados", "Pensionistas"],
        highlights: &[
            ("Aumento da alíquota de contribuição para 16%", "Contrário"),
            (
                "Regra de transição para quem está perto de se aposentar",
                "Favorável com ressalvas",
            ),
        ],
        actions: &[
            (
                "2026-08-05",
                "Ato público em frente à Assembleia Legislativa",
            ),
            ("2026-11-03", "Reunião com a liderança do governo"),
        ],
        processes: &[("ADI 7123", "STF"), ("0012345-67.2026.8.26.0000", "TJSP")],
    },
    Theme {
        kind: "Negociação coletiva",
        title: "Convenção coletiva 2026/2027",
        description: "Pauta de reivindicações da campanha salarial: reajuste, vale-alimentação e jornada.",
        interested: &["Toda a categoria"],
        highlights: &[
            ("Reajuste de 8% nos salários", "Reivindicado"),
            ("Vale-alimentação de R$ 900,00", "Reivindicado"),
            ("Banco de horas sem acordo individual", "Contrário"),
        ],
        actions: &[
            ("2026-07-15", "Assembleia geral aprova a pauta"),
            (
                "2026-09-30",
                "Primeira rodada de negociação com o sindicato patronal",
            ),
        ],
        processes: &[("DC 1000123-45.2026.5.02.0000", "TRT-2")],
    },
];

struct NewsItem {
    title: &'static str,
    subtitle: &'static str,
    body: &'static str,
}

const LEGAL_NEWS: [NewsItem; 6] = [
    NewsItem {
        title: "Escritório vence ação coletiva de horas extras",
        subtitle: "Decisão beneficia mais de 300 associados",
        body: "<p>O TRT-2 reconheceu o direito às horas extras não pagas. Os valores serão calculados na fase de execução.</p>",
    },
    NewsItem {
        title: "Plantão jurídico tira dúvidas sobre férias",
        subtitle: "Atendimento especial durante todo o mês",
        body: "<p>Associados podem agendar consultas sobre férias, abono e fracionamento.</p>",
    },
    NewsItem {
        title: "Nova regra do FGTS: o que muda para você",
        subtitle: "Entenda o saque-aniversário",
        body: "<p>Nossa equipe jurídica explica as mudanças e quando vale a pena aderir.</p>",
    },
    NewsItem {
        title: "Assédio moral no trabalho: saiba como agir",
        subtitle: "Guia prático da consultoria jurídica",
        body: "<p>Registre os fatos, guarde provas e procure a consultoria jurídica.</p>",
    },
    NewsItem {
        title: "Revisão da vida toda: situação atual",
        subtitle: "O que os aposentados precisam saber",
        body: "<p>Veja em que pé estão os processos de revisão acompanhados pelo escritório.</p>",
    },
    NewsItem {
        title: "Direitos do consumidor em planos de saúde",
        subtitle: "Reajustes abusivos podem ser contestados",
        body: "<p>Saiba quando o reajuste do plano pode ser questionado na Justiça.</p>",
    },
];

const ACCOUNTING_NEWS: [NewsItem; 6] = [
    NewsItem {
        title: "Prazo do imposto de renda: não deixe para a última hora",
        subtitle: "Agende seu atendimento contábil",
        body: "<p>A consultoria contábil atende às quintas-feiras. Traga seus informes de rendimentos.</p>",
    },
    NewsItem {
        title: "Despesas médicas que você pode deduzir",
        subtitle: "Guarde os recibos o ano inteiro",
        body: "<p>Consultas, exames e planos de saúde reduzem o imposto devido.</p>",
    },
    NewsItem {
        title: "MEI: declaração anual está aberta",
        subtitle: "Evite multas e mantenha o CNPJ regular",
        body: "<p>Microempreendedores devem entregar a DASN-SIMEI até o fim de maio.</p>",
    },
    NewsItem {
        title: "Como organizar o orçamento da família",
        subtitle: "Dicas da consultoria contábil",
        body: "<p>Planilhas simples ajudam a controlar gastos e a formar uma reserva.</p>",
    },
    NewsItem {
        title: "Restituição do IR: consulte o lote",
        subtitle: "Veja como acompanhar pelo aplicativo da Receita",
        body: "<p>O calendário de restituições vai de maio a setembro.</p>",
    },
    NewsItem {
        title: "Previdência privada vale a pena?",
        subtitle: "PGBL e VGBL explicados",
        body: "<p>Entenda as diferenças e o benefício fiscal de cada modalidade.</p>",
    },
];

const POLITICAL_NEWS: [NewsItem; 6] = [
    NewsItem {
        title: "Audiência pública debate piso salarial",
        subtitle: "Sindicato leva a pauta à Câmara",
        body: "<p>A diretoria político-sindical apresentou os dados da categoria aos deputados.</p>",
    },
    NewsItem {
        title: "Assembleia aprova pauta da campanha salarial",
        subtitle: "Reajuste de 8% é a principal reivindicação",
        body: "<p>A pauta segue agora para a negociação com o sindicato patronal.</p>",
    },
    NewsItem {
        title: "Reforma da previdência estadual: o que está em jogo",
        subtitle: "Entenda as propostas em debate",
        body: "<p>O sindicato é contra o aumento da alíquota e defende regras de transição justas.</p>",
    },
    NewsItem {
        title: "Café com Política recebe vereadores",
        subtitle: "Encontro mensal com os associados",
        body: "<p>O próximo encontro discute mobilidade urbana e transporte público.</p>",
    },
    NewsItem {
        title: "Abaixo-assinado chega a 12 mil assinaturas",
        subtitle: "Apoio ao piso nacional cresce",
        body: "<p>As assinaturas foram entregues ao relator do projeto de lei.</p>",
    },
    NewsItem {
        title: "Formação sindical: inscrições abertas",
        subtitle: "Curso gratuito para associados",
        body: "<p>O curso Transforma aborda negociação coletiva e direitos trabalhistas.</p>",
    },
];

const LEGAL_BLUE: Palette = Palette {
    from: [30, 60, 120],
    to: [110, 160, 220],
};
const ACCOUNTING_GREEN: Palette = Palette {
    from: [14, 110, 90],
    to: [150, 210, 120],
};
const POLITICAL_RED: Palette = Palette {
    from: [170, 30, 45],
    to: [245, 150, 70],
};

pub async fn seed(db: &PgPool, objects: &Objects, demo: &DemoStation) -> anyhow::Result<()> {
    let station_id = demo.station_id;
    sqlx::query(
        "UPDATE stations SET legal_access = true, accounting_access = true,
                             health_access = true, political_access = true
          WHERE id = $1",
    )
    .bind(station_id)
    .execute(db)
    .await?;
    // The pictures first, outside the transaction (one per desk, shared by its news).
    let mut pictures = Vec::new();
    for (variant, (slug, palette)) in [
        ("juridico", LEGAL_BLUE),
        ("contabil", ACCOUNTING_GREEN),
        ("politico-sindical", POLITICAL_RED),
    ]
    .into_iter()
    .enumerate()
    {
        let key = format!("demo/services/{slug}.png");
        if objects.head(&key).await?.is_none() {
            objects
                .put(&key, art::banner(CARD_SIZE, palette, 80 + variant as u32)?)
                .await?;
            super::make_variants(db, objects, &key).await?;
        }
        pictures.push(key);
    }
    legal_category(db, objects, station_id).await?;
    let mut tx = db.begin().await?;
    desks(&mut tx, station_id).await?;
    legal_carousel(&mut tx, station_id).await?;
    let offices = offices(&mut tx, station_id).await?;
    let cpf = member_cpf(&mut tx, demo).await?;
    cases(&mut tx, station_id, &cpf).await?;
    appointments(&mut tx, station_id, demo.member_id, &cpf, offices.legal).await?;
    themes(&mut tx, station_id).await?;
    for ((tag, items), picture) in [
        (13752, &LEGAL_NEWS),
        (13754, &ACCOUNTING_NEWS),
        (13755, &POLITICAL_NEWS),
    ]
    .into_iter()
    .zip(&pictures)
    {
        tagged_news(&mut tx, station_id, tag, items, picture).await?;
    }
    tx.commit().await?;
    Ok(())
}

async fn desks(tx: &mut PgConnection, station_id: i64) -> sqlx::Result<()> {
    for desk in &DESKS {
        sqlx::query(
            "INSERT INTO service_desks (station_id, service, email, contacts, guidance,
                                        information, playlists)
             VALUES ($1, $2, $3, $4, $5, $6, '[]')
             ON CONFLICT (station_id, service) DO NOTHING",
        )
        .bind(station_id)
        .bind(desk.service)
        .bind(desk.email)
        .bind(contacts(desk.service))
        .bind(desk.guidance)
        .bind(desk.information)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

/// The legal landing's carousel: a category of activities that speak to members' rights.
pub const LEGAL_CATEGORY: &str = "Direitos em foco";
const LEGAL_CATEGORY_ACTIVITIES: &[&str] = &[
    "Quiz: saúde no trabalho",
    "Oficina de educação financeira",
    "Enquete: tema da próxima palestra",
    "Pesquisa de contato: fale com a gente",
];

/// The legal desk's carousel: its category, after the activities seed's (the home lists it
/// last), made once like theirs.
async fn legal_category(db: &PgPool, objects: &Objects, station_id: i64) -> anyhow::Result<()> {
    let ids: HashMap<String, i64> =
        sqlx::query_as("SELECT name, id FROM actions WHERE station_id = $1 AND name = ANY($2)")
            .bind(station_id)
            .bind(LEGAL_CATEGORY_ACTIVITIES)
            .fetch_all(db)
            .await?
            .into_iter()
            .collect();
    let row = (
        LEGAL_CATEGORY,
        Motif::Star,
        LEGAL_BLUE,
        LEGAL_CATEGORY_ACTIVITIES,
    );
    activities::category(
        db,
        objects,
        station_id,
        activities::CATEGORIES.len(),
        &row,
        &ids,
    )
    .await
}

/// The legal landing shows that category; a desk that shows one already keeps it.
async fn legal_carousel(tx: &mut PgConnection, station_id: i64) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE service_desks
            SET category_id = (SELECT id FROM participant_categories
                                WHERE station_id = $1 AND name = $2)
          WHERE station_id = $1 AND service = 'legal' AND category_id IS NULL",
    )
    .bind(station_id)
    .bind(LEGAL_CATEGORY)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

struct Offices {
    legal: i64,
}

async fn offices(tx: &mut PgConnection, station_id: i64) -> sqlx::Result<Offices> {
    let mut legal = 0;
    for (service, name) in [
        ("legal", LEGAL_OFFICE),
        ("accounting", ACCOUNTING_OFFICE),
        ("health", HEALTH_OFFICE),
    ] {
        sqlx::query(
            "INSERT INTO service_offices (station_id, service, name) VALUES ($1, $2, $3)
             ON CONFLICT ON CONSTRAINT service_offices_one_name DO NOTHING",
        )
        .bind(station_id)
        .bind(service)
        .bind(name)
        .execute(&mut *tx)
        .await?;
        let id: i64 = sqlx::query_scalar(
            "SELECT id FROM service_offices WHERE station_id = $1 AND service = $2 AND name = $3",
        )
        .bind(station_id)
        .bind(service)
        .bind(name)
        .fetch_one(&mut *tx)
        .await?;
        if service == "legal" {
            legal = id;
        }
    }
    Ok(Offices { legal })
}

/// The demo member's CPF: theirs, or [`DEMO_MEMBER_CPF`] given to an account without one.
async fn member_cpf(tx: &mut PgConnection, demo: &DemoStation) -> sqlx::Result<String> {
    sqlx::query("UPDATE users SET cpf = $2 WHERE id = $1 AND cpf IS NULL")
        .bind(demo.member_id)
        .bind(DEMO_MEMBER_CPF)
        .execute(&mut *tx)
        .await?;
    sqlx::query_scalar("SELECT cpf FROM users WHERE id = $1")
        .bind(demo.member_id)
        .fetch_one(&mut *tx)
        .await
}

async fn cases(tx: &mut PgConnection, station_id: i64, cpf: &str) -> sqlx::Result<()> {
    for case in &CASES {
        sqlx::query(
            "INSERT INTO service_cases (station_id, service, cpf, case_number, kind, situation,
                                        filed_on, court, title, claim_cents, collective)
             VALUES ($1, $2, $3, $4, $5, $6, $7::date, $8, $9, $10, $11)
             ON CONFLICT ON CONSTRAINT service_cases_one_per_party DO NOTHING",
        )
        .bind(station_id)
        .bind(case.service)
        .bind(cpf)
        .bind(case.number)
        .bind(case.kind)
        .bind(case.situation)
        .bind(case.filed_on)
        .bind(case.court)
        .bind(case.title)
        .bind(case.claim_cents)
        .bind(case.collective)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

/// The legal appointments: one confirmed on the first weekday (Monday to Friday) at least 5
/// days ahead, at 10:00 in the station's time zone; one done and one missed in the past.
async fn appointments(
    tx: &mut PgConnection,
    station_id: i64,
    member_id: i64,
    cpf: &str,
    office_id: i64,
) -> sqlx::Result<()> {
    for (reference, status, description) in [
        (
            "demo-legal-confirmed",
            "confirmed",
            "Dúvida sobre o cálculo das férias",
        ),
        (
            "demo-legal-done",
            "done",
            "Orientação sobre rescisão de contrato",
        ),
        ("demo-legal-absent", "absent", "Revisão de horas extras"),
    ] {
        sqlx::query(
            "WITH zone AS (
                 SELECT time_zone AS tz, (now() AT TIME ZONE time_zone)::date AS today
                   FROM stations WHERE id = $1
             ), day AS (
                 SELECT CASE $5
                          WHEN 'confirmed' THEN (SELECT min(d)::date FROM generate_series(
                                   today + 5, today + 7, interval '1 day') d
                                   WHERE extract(isodow FROM d) BETWEEN 1 AND 5)
                          WHEN 'done' THEN today - 21
                          ELSE today - 42
                        END AS on_day, tz
                   FROM zone
             )
             INSERT INTO service_appointments (station_id, service, cpf, user_id, office_id,
                                               preferred_weekday, description, status,
                                               scheduled_at, status_at, external_ref)
             SELECT $1, 'legal', $2, $3, $4, extract(isodow FROM on_day)::smallint, $6, $5,
                    (on_day + time '10:00') AT TIME ZONE tz, now(), $7
               FROM day
             ON CONFLICT ON CONSTRAINT service_appointments_one_ref DO NOTHING",
        )
        .bind(station_id)
        .bind(cpf)
        .bind(member_id)
        .bind(office_id)
        .bind(status)
        .bind(description)
        .bind(reference)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

async fn themes(tx: &mut PgConnection, station_id: i64) -> sqlx::Result<()> {
    for (position, theme) in THEMES.iter().enumerate() {
        let exists: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM political_themes WHERE station_id = $1 AND title = $2)",
        )
        .bind(station_id)
        .bind(theme.title)
        .fetch_one(&mut *tx)
        .await?;
        if exists {
            continue;
        }
        political::create_theme(
            &mut *tx,
            &NewTheme {
                station_id,
                kind: theme.kind.into(),
                title: theme.title.into(),
                description: theme.description.into(),
                interested: theme.interested.iter().map(|who| who.to_string()).collect(),
                highlights: theme
                    .highlights
                    .iter()
                    .map(|(item, position)| Highlight {
                        descricao_item: item.to_string(),
                        posicionamento: position.to_string(),
                    })
                    .collect(),
                actions: theme
                    .actions
                    .iter()
                    .map(|(on, what)| UnionAction {
                        data_acao: on.to_string(),
                        descricao_acao: what.to_string(),
                    })
                    .collect(),
                processes: theme
                    .processes
                    .iter()
                    .map(|(id, court)| ThemeProcess {
                        identificacao_processo: id.to_string(),
                        court: court.to_string(),
                    })
                    .collect(),
                published: true,
                position: position as i32,
            },
        )
        .await?;
    }
    Ok(())
}

async fn tagged_news(
    tx: &mut PgConnection,
    station_id: i64,
    tag: i64,
    items: &[NewsItem],
    picture: &str,
) -> sqlx::Result<()> {
    for (index, item) in items.iter().enumerate() {
        let found: Option<i64> =
            sqlx::query_scalar("SELECT id FROM station_news WHERE station_id = $1 AND title = $2")
                .bind(station_id)
                .bind(item.title)
                .fetch_optional(&mut *tx)
                .await?;
        let id = match found {
            Some(id) => id,
            None => {
                news::create(
                    &mut *tx,
                    &news::NewNews {
                        station_id,
                        title: item.title.into(),
                        subtitle: item.subtitle.into(),
                        body: item.body.into(),
                        image_key: Some(picture.into()),
                        published: true,
                        published_at: Some(Utc::now() - Duration::days(2 + 3 * index as i64)),
                    },
                )
                .await?
            }
        };
        news::tag(&mut *tx, id, &[tag]).await?;
    }
    Ok(())
}
