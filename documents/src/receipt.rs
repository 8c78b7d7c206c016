//! An order's receipt: who bought what, where it goes, how it was paid and what it earns.

use domain::commerce::documents::{Delivery, PaymentMethod, Receipt, ReceiptLine};
use domain::shared::money::format_brl;

use super::canvas::{Align, CONTENT_WIDTH, Canvas, Cell, INK, MARGIN, MUTED, line_height};
use super::fonts::{Face, Fonts};
use super::{header, local_date_time, qr_code};

pub const TITLE: &str = "Comprovante do pedido";

const BODY: f32 = 10.0;
const QR_SIZE: f32 = 110.0;

pub(super) fn render(fonts: &Fonts, receipt: &Receipt) -> Vec<u8> {
    let mut canvas = Canvas::new(fonts);
    header(
        &mut canvas,
        &receipt.station_name,
        receipt.logo.as_deref(),
        TITLE,
    );
    order_facts(&mut canvas, receipt);
    products(&mut canvas, &receipt.lines);
    for delivery in &receipt.deliveries {
        delivery_block(&mut canvas, delivery);
    }
    totals(&mut canvas, receipt);
    canvas.finish(&format!("{TITLE} {}", receipt.order_code))
}

/// Order number, date, member and status, with the validator QR code beside them.
fn order_facts(canvas: &mut Canvas<'_>, receipt: &Receipt) {
    let top = canvas.y();
    let code = receipt.validator_link.as_deref().and_then(qr_code);
    let text_width = if code.is_some() {
        CONTENT_WIDTH - QR_SIZE - 12.0
    } else {
        CONTENT_WIDTH
    };
    if let Some(code) = &code {
        canvas.qr(code, MARGIN + CONTENT_WIDTH - QR_SIZE, top, QR_SIZE);
    }
    canvas.paragraph(
        MARGIN,
        text_width,
        Face::Bold,
        15.0,
        INK,
        &format!("Pedido nº {}", receipt.order_code),
    );
    canvas.space(4.0);
    for (label, value) in [
        ("Data", local_date_time(&receipt.created_at, receipt.zone)),
        ("Nome", receipt.member_name.clone()),
        ("Situação", receipt.status.clone()),
    ] {
        canvas.paragraph(
            MARGIN,
            text_width,
            Face::Regular,
            BODY,
            INK,
            &format!("{label}: {value}"),
        );
    }
    if code.is_some() {
        canvas.set_y(canvas.y().min(top - QR_SIZE));
    }
    canvas.space(10.0);
}

fn product_cells<'t>(texts: [&'t str; 4], face: Face) -> [Cell<'t>; 4] {
    const QUANTITY: f32 = 40.0;
    const MONEY: f32 = 95.0;
    const GAP: f32 = 10.0;
    let product_width = CONTENT_WIDTH - QUANTITY - 2.0 * MONEY - 3.0 * GAP;
    let quantity_x = MARGIN + product_width + GAP;
    let unit_x = quantity_x + QUANTITY + GAP;
    let total_x = unit_x + MONEY + GAP;
    let cell = |x, width, align, text| Cell {
        x,
        width,
        align,
        face,
        text,
    };
    [
        cell(MARGIN, product_width, Align::Left, texts[0]),
        cell(quantity_x, QUANTITY, Align::Right, texts[1]),
        cell(unit_x, MONEY, Align::Right, texts[2]),
        cell(total_x, MONEY, Align::Right, texts[3]),
    ]
}

fn table_header(canvas: &mut Canvas<'_>) {
    let cells = product_cells(["Produto", "Qtd.", "Valor unitário", "Total"], Face::Bold);
    canvas.row(&cells, BODY, INK);
    canvas.rule();
}

/// One row per line; a row that starts a new page gets the column titles again.
fn products(canvas: &mut Canvas<'_>, lines: &[ReceiptLine]) {
    table_header(canvas);
    for line in lines {
        let quantity = line.quantity.to_string();
        let unit = format_brl(line.unit_cents);
        let total = format_brl(line.total_cents);
        let cells = product_cells(
            [line.product.as_str(), &quantity, &unit, &total],
            Face::Regular,
        );
        let (_, height) = canvas.row_lines(&cells, BODY);
        if canvas.ensure(height) {
            table_header(canvas);
        }
        canvas.row(&cells, BODY, INK);
        canvas.space(2.0);
    }
    canvas.rule();
    canvas.space(4.0);
}

fn delivery_block(canvas: &mut Canvas<'_>, delivery: &Delivery) {
    let title = if delivery.pickup {
        "Retirada"
    } else {
        "Entrega"
    };
    canvas.ensure(3.0 * line_height(BODY));
    canvas.paragraph(MARGIN, CONTENT_WIDTH, Face::Bold, BODY, INK, title);
    canvas.paragraph(
        MARGIN,
        CONTENT_WIDTH,
        Face::Regular,
        BODY,
        INK,
        &delivery.location,
    );
    if let Some(address) = &delivery.address {
        canvas.paragraph(MARGIN, CONTENT_WIDTH, Face::Regular, BODY, MUTED, address);
    }
    canvas.space(8.0);
}

/// Label on the left, amount on the right, one line each.
fn totals(canvas: &mut Canvas<'_>, receipt: &Receipt) {
    let mut rows: Vec<(String, String, Face)> = vec![(
        "Produtos".into(),
        format_brl(receipt.items_cents),
        Face::Regular,
    )];
    if !receipt.deliveries.is_empty() {
        let fees: i64 = receipt.deliveries.iter().map(|d| d.fee_cents).sum();
        rows.push(("Taxa de entrega".into(), format_brl(fees), Face::Regular));
    }
    for discount in &receipt.discounts {
        rows.push((
            discount.label.clone(),
            format_brl(-discount.cents.abs()),
            Face::Regular,
        ));
    }
    rows.push(("Total".into(), format_brl(receipt.total_cents), Face::Bold));
    if receipt.wallet_cents != 0 {
        rows.push((
            "Pago com saldo".into(),
            format_brl(receipt.wallet_cents),
            Face::Regular,
        ));
    }
    if let Some(payment) = &receipt.payment {
        let label = match payment.method {
            PaymentMethod::Card { installments } if installments > 1 => {
                format!("Pago com cartão de crédito ({installments}x)")
            }
            PaymentMethod::Card { .. } => "Pago com cartão de crédito".into(),
            PaymentMethod::Pix => "Pago com PIX".into(),
        };
        rows.push((label, format_brl(payment.cents), Face::Regular));
    }
    if let Some(refunded) = receipt.refunded_cents {
        rows.push((
            "Valor estornado".into(),
            format_brl(refunded),
            Face::Regular,
        ));
    }
    if let Some(cashback) = receipt.cashback {
        rows.push((
            "Cashback".into(),
            receipt.currency.format(cashback),
            Face::Regular,
        ));
    }
    const AMOUNT: f32 = 140.0;
    // The block stays together: a total alone at the top of a page reads like a new order.
    canvas.ensure(rows.len() as f32 * line_height(BODY));
    for (label, amount, face) in &rows {
        let cells = [
            Cell {
                x: MARGIN,
                width: CONTENT_WIDTH - AMOUNT - 10.0,
                align: Align::Left,
                face: *face,
                text: label,
            },
            Cell {
                x: MARGIN + CONTENT_WIDTH - AMOUNT,
                width: AMOUNT,
                align: Align::Right,
                face: *face,
                text: amount,
            },
        ];
        canvas.row(&cells, BODY, INK);
    }
}
