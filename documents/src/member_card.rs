//! The virtual member card as the member prints or saves it: the station's logo and name,
//! the member's number, name, CPF, birth date and establishments, the card's validity and
//! the QR code of the public validator page.

use domain::accounts::member_card::MemberCard;

use super::canvas::{CONTENT_WIDTH, Canvas, INK, MARGIN, PAGE_WIDTH, line_height};
use super::fonts::{Face, Fonts};
use super::{header, qr_code};

pub const TITLE: &str = "Carteirinha";

const BODY: f32 = 11.0;
const QR_SIZE: f32 = 150.0;

pub(super) fn render(fonts: &Fonts, card: &MemberCard) -> Vec<u8> {
    let mut canvas = Canvas::new(fonts);
    header(&mut canvas, &card.station_name, card.logo.as_deref(), TITLE);
    canvas.paragraph(MARGIN, CONTENT_WIDTH, Face::Bold, 16.0, INK, &card.name);
    canvas.space(4.0);
    let date = |d: chrono::NaiveDate| d.format("%d/%m/%Y").to_string();
    let mut facts = vec![("Matrícula", card.number.clone())];
    if let Some(cpf) = &card.cpf {
        facts.push(("CPF", cpf.clone()));
    }
    if let Some(birthday) = card.birthday {
        facts.push(("Data de nascimento", date(birthday)));
    }
    if !card.establishments.is_empty() {
        facts.push(("Estabelecimentos", card.establishments.join(", ")));
    }
    facts.push(("Válida até", date(card.valid_until)));
    for (label, value) in facts {
        canvas.paragraph(
            MARGIN,
            CONTENT_WIDTH,
            Face::Regular,
            BODY,
            INK,
            &format!("{label}: {value}"),
        );
    }
    canvas.space(12.0);
    match qr_code(&card.validator_link) {
        Some(code) => {
            canvas.ensure(QR_SIZE + line_height(BODY));
            let top = canvas.y();
            canvas.qr(&code, (PAGE_WIDTH - QR_SIZE) / 2.0, top, QR_SIZE);
            canvas.space(QR_SIZE);
        }
        None => canvas.paragraph(
            MARGIN,
            CONTENT_WIDTH,
            Face::Regular,
            BODY,
            INK,
            &card.validator_link,
        ),
    }
    canvas.finish(&format!("{TITLE} {}", card.number))
}
