//! The demo station's landing page: three header slides, a section of every type (1 to 9)
//! in order, and an about page ('Quem somos') its links open, with pictures drawn by
//! [`super::art`] (never fetched). The app badges' section (type 6) is there but shows only
//! to a station with an app, which the demo is not. Seeded once: a station whose landing has
//! any slide or section is left as it is.

use domain::infra::objects::Objects;
use domain::shared::ids::StationId;
use domain::stations::landing::{
    self, Background, LinkInput, NewAboutPage, NewItem, NewSection, NewSlide, SectionType,
};
use sqlx::PgPool;

use super::DemoStation;
use super::art::{self, Palette};

pub const ABOUT_TITLE: &str = "Quem somos";
pub const SLIDE_TITLES: [&str; 3] = [
    "Benefícios para quem faz parte",
    "Participe e acumule pontos",
    "Conheça a nossa história",
];

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

const ABOUT_BODY: &str = "A Associação Filia Demo reúne trabalhadores e suas famílias \
desde 1990, com benefícios, serviços e uma comunidade que cuida de quem faz parte.\n\n\
Nosso programa de benefícios transforma a sua participação em pontos, que viram \
descontos, produtos e experiências.\n\n\
Fale com a gente pelo telefone (11) 4000-1234 ou pelo formulário de contato.";

fn link(link_type: &'static str) -> LinkInput<'static> {
    LinkInput {
        link_type,
        ..LinkInput::default()
    }
}

/// Draws and stores a picture under `landing/demo/{name}.png` with its narrower copies,
/// answering its key.
async fn picture(
    db: &PgPool,
    objects: &Objects,
    name: &str,
    size: (u32, u32),
    palette: Palette,
    variant: u32,
) -> anyhow::Result<String> {
    let key = format!("landing/demo/{name}.png");
    objects
        .put(&key, art::banner(size, palette, variant)?)
        .await?;
    super::make_variants(db, objects, &key).await?;
    Ok(key)
}

pub async fn seed(db: &PgPool, objects: &Objects, demo: &DemoStation) -> anyhow::Result<()> {
    let station = StationId(demo.station_id);
    if landing::is_configured(db, station).await? {
        return Ok(());
    }
    let about_image = picture(db, objects, "sobre", art::CARD_SIZE, GREEN, 41).await?;
    let mut slide_images = Vec::new();
    for (index, palette) in [GREEN, AMBER, BLUE].into_iter().enumerate() {
        let name = format!("slide-{}", index + 1);
        slide_images.push(
            picture(
                db,
                objects,
                &name,
                art::FEATURED_SIZE,
                palette,
                50 + index as u32,
            )
            .await?,
        );
    }
    let mut cards = Vec::new();
    for (index, palette) in [AMBER, BLUE, GREEN, AMBER, BLUE].into_iter().enumerate() {
        let name = format!("card-{}", index + 1);
        cards.push(
            picture(
                db,
                objects,
                &name,
                art::CARD_SIZE,
                palette,
                60 + index as u32,
            )
            .await?,
        );
    }
    let background = picture(db, objects, "fundo", art::FEATURED_SIZE, BLUE, 70).await?;

    let mut tx = db.begin().await?;
    let about = landing::upsert_about_page(
        &mut *tx,
        station,
        &NewAboutPage {
            title: ABOUT_TITLE,
            body: ABOUT_BODY,
            image_key: Some(&about_image),
        },
    )
    .await?;
    let about_link = LinkInput {
        link_type: "additional",
        about_page_id: Some(about),
        ..LinkInput::default()
    };

    let slide_links = [link("signup"), link("login"), about_link.clone()];
    let slide_subtitles = [
        "Descontos, produtos e experiências para associados e suas famílias.",
        "Cada atividade vale pontos que viram benefícios.",
        "Mais de 30 anos cuidando de quem faz parte.",
    ];
    let slide_buttons = ["Quero participar", "Entrar", "Saiba mais"];
    for index in 0..3 {
        landing::insert_slide(
            &mut *tx,
            station,
            &NewSlide {
                position: index as i32 + 1,
                title: SLIDE_TITLES[index],
                subtitle: Some(slide_subtitles[index]),
                image_key: &slide_images[index],
                link: slide_links[index].clone(),
                button_label: Some(slide_buttons[index]),
            },
        )
        .await?;
    }

    let section =
        |position: i32, type_id, title: &'static str, subtitle: Option<&'static str>| NewSection {
            position,
            type_id,
            title: Some(title),
            subtitle,
            title_color: None,
            text_color: None,
            background: Background::Color(None),
        };
    // 1: cards.
    let cards_id = landing::insert_section(
        &mut *tx,
        station,
        &section(
            1,
            SectionType::Cards,
            "Seus benefícios",
            Some("O que você ganha ao se associar."),
        ),
    )
    .await?;
    let card_items = [
        (
            "Descontos em parceiros",
            "Farmácias, academias e lojas com preços especiais.",
            link("signup"),
        ),
        (
            "Loja de pontos",
            "Troque seus pontos por produtos e vale-compras.",
            link("login"),
        ),
        (
            "Assessoria jurídica",
            "Orientação e acompanhamento para associados.",
            about_link.clone(),
        ),
    ];
    for (position, (name, description, link)) in card_items.into_iter().enumerate() {
        landing::insert_item(
            &mut *tx,
            station,
            cards_id,
            &NewItem {
                position: position as i32 + 1,
                name: Some(name),
                description: Some(description),
                image_key: Some(&cards[position]),
                link,
                ..NewItem::default()
            },
        )
        .await?;
    }
    // 2: blocks, the picture left then right.
    let blocks_id = landing::insert_section(
        &mut *tx,
        station,
        &section(2, SectionType::Blocks, "Como funciona", None),
    )
    .await?;
    let blocks = [
        (
            "Participe das atividades",
            "Quizzes, pesquisas, vídeos e eventos valem pontos.",
            true,
        ),
        (
            "Troque por benefícios",
            "Seus pontos viram descontos e produtos na loja do clube.",
            false,
        ),
    ];
    for (position, (name, description, image_left)) in blocks.into_iter().enumerate() {
        landing::insert_item(
            &mut *tx,
            station,
            blocks_id,
            &NewItem {
                position: position as i32 + 1,
                name: Some(name),
                description: Some(description),
                image_key: Some(&cards[3 + position]),
                link: link("signup"),
                button_label: Some("Cadastre-se"),
                image_left,
                ..NewItem::default()
            },
        )
        .await?;
    }
    // 3: a card carousel of partners.
    let carousel_id = landing::insert_section(
        &mut *tx,
        station,
        &section(
            3,
            SectionType::CardCarousel,
            "Parceiros",
            Some("Quem oferece vantagens a você."),
        ),
    )
    .await?;
    let partners = [
        "Farmácia Saúde",
        "Academia Movimento",
        "Livraria Leitura",
        "Ótica Visão",
        "Mercado Bom Preço",
    ];
    for (position, name) in partners.into_iter().enumerate() {
        landing::insert_item(
            &mut *tx,
            station,
            carousel_id,
            &NewItem {
                position: position as i32 + 1,
                name: Some(name),
                description: Some("Desconto exclusivo para associados."),
                image_key: Some(&cards[position]),
                link: LinkInput {
                    link_type: "external",
                    external_link: Some("https://www.gov.br"),
                    ..LinkInput::default()
                },
                button_label: Some("Visitar"),
                ..NewItem::default()
            },
        )
        .await?;
    }
    // 4: centred text on a picture.
    let centred_id = landing::insert_section(
        &mut *tx,
        station,
        &NewSection {
            title_color: Some("#FFFFFF"),
            text_color: Some("#FFFFFF"),
            background: Background::Image(background.clone()),
            ..section(4, SectionType::CentredText, "Nossa missão", None)
        },
    )
    .await?;
    landing::insert_item(
        &mut *tx,
        station,
        centred_id,
        &NewItem {
            position: 1,
            description: Some("Cuidar de quem faz o clube, todos os dias."),
            link: about_link.clone(),
            button_label: Some("Conheça a nossa história"),
            ..NewItem::default()
        },
    )
    .await?;
    // 5 to 8: public activities, app badges, plans, the support form.
    let rest = [
        (5, SectionType::PublicActivities, "Atividades abertas", None),
        (6, SectionType::AppBadges, "Baixe o aplicativo", None),
        (
            7,
            SectionType::Plans,
            "Planos",
            Some("Escolha o plano ideal para você."),
        ),
        (
            8,
            SectionType::SupportForm,
            "Fale conosco",
            Some("Dúvidas? Escreva para a gente."),
        ),
    ];
    for (position, type_id, title, subtitle) in rest {
        landing::insert_section(
            &mut *tx,
            station,
            &section(position, type_id, title, subtitle),
        )
        .await?;
    }
    // 9: media only.
    let media_id = landing::insert_section(
        &mut *tx,
        station,
        &section(9, SectionType::MediaOnly, "Galeria", None),
    )
    .await?;
    landing::insert_item(
        &mut *tx,
        station,
        media_id,
        &NewItem {
            position: 1,
            name: Some("Festa dos associados"),
            image_key: Some(&background),
            ..NewItem::default()
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}
