//! A voucher as the member prints it: what it is for, whose it is (with the dependents of a
//! family voucher), its dates, its code and the QR code a partner scans to validate it.

use domain::commerce::documents::{Dependent, Voucher};

use super::canvas::{
    Align, CONTENT_WIDTH, Canvas, Cell, INK, MARGIN, MUTED, PAGE_WIDTH, line_height,
};
use super::fonts::{Face, Fonts};
use super::html::plain_text;
use super::{header, local_date, qr_code};

pub const TITLE: &str = "Voucher";
/// Spec 002's text for a voucher already validated.
pub const USED: &str = "Este voucher já foi utilizado!";

const BODY: f32 = 10.0;
const QR_SIZE: f32 = 170.0;

pub(super) fn render(fonts: &Fonts, voucher: &Voucher) -> Vec<u8> {
    let mut canvas = Canvas::new(fonts);
    header(
        &mut canvas,
        &voucher.station_name,
        voucher.logo.as_deref(),
        TITLE,
    );
    canvas.paragraph(
        MARGIN,
        CONTENT_WIDTH,
        Face::Bold,
        16.0,
        INK,
        &voucher.activity_name,
    );
    canvas.space(4.0);
    let mut facts = vec![
        ("Nome", voucher.member_name.clone()),
        ("Criado em", local_date(&voucher.created_at, voucher.zone)),
    ];
    if let Some(valid_until) = &voucher.valid_until {
        facts.push(("Válido até", local_date(valid_until, voucher.zone)));
    }
    if let Some(place) = &voucher.place {
        facts.push(("Local", place.clone()));
    }
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
    if !voucher.dependents.is_empty() {
        dependents(&mut canvas, &voucher.dependents);
    }
    if voucher.used {
        canvas.space(8.0);
        canvas.paragraph(MARGIN, CONTENT_WIDTH, Face::Bold, 13.0, INK, USED);
    }
    code_block(&mut canvas, voucher);
    let rules = plain_text(&voucher.rules_html);
    if !rules.is_empty() {
        canvas.space(10.0);
        canvas.rule();
        canvas.paragraph(MARGIN, CONTENT_WIDTH, Face::Bold, BODY, INK, "Regras");
        canvas.space(2.0);
        canvas.paragraph(MARGIN, CONTENT_WIDTH, Face::Regular, BODY, INK, &rules);
    }
    canvas.finish(&format!("{TITLE} {}", voucher.code))
}

fn dependents(canvas: &mut Canvas<'_>, dependents: &[Dependent]) {
    let half = CONTENT_WIDTH / 2.0;
    let cells = |name, relationship, face| {
        [
            Cell {
                x: MARGIN,
                width: half - 10.0,
                align: Align::Left,
                face,
                text: name,
            },
            Cell {
                x: MARGIN + half,
                width: half,
                align: Align::Left,
                face,
                text: relationship,
            },
        ]
    };
    canvas.space(8.0);
    canvas.paragraph(MARGIN, CONTENT_WIDTH, Face::Bold, BODY, INK, "Dependentes");
    canvas.row(&cells("Dependente", "Parentesco", Face::Bold), BODY, MUTED);
    for dependent in dependents {
        canvas.row(
            &cells(&dependent.name, &dependent.relationship, Face::Regular),
            BODY,
            INK,
        );
    }
}

/// The QR code centred, the code under it.
fn code_block(canvas: &mut Canvas<'_>, voucher: &Voucher) {
    canvas.space(12.0);
    match qr_code(&voucher.validator_link) {
        Some(code) => {
            canvas.ensure(QR_SIZE + 30.0);
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
            &voucher.validator_link,
        ),
    }
    let label = format!("Código: {}", voucher.code);
    let size = 13.0;
    let width = canvas.width(Face::Bold, size, &label);
    if width > CONTENT_WIDTH {
        canvas.paragraph(MARGIN, CONTENT_WIDTH, Face::Bold, size, INK, &label);
        return;
    }
    canvas.ensure(line_height(size));
    let baseline = canvas.y() - size;
    canvas.text_at(
        (PAGE_WIDTH - width) / 2.0,
        baseline,
        Face::Bold,
        size,
        INK,
        &label,
    );
    canvas.space(line_height(size));
}
