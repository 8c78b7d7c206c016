//! Receipts and vouchers read back the way a person or a partner's phone reads them: the
//! text through poppler's `pdftotext`, the page through `pdftoppm` and the QR code through
//! a decoder. Needs poppler-utils and fonts-lato (`ops/lib.sh` installs both).

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Command;

use chrono::{DateTime, TimeZone, Utc};
use documents::{
    DEFAULT_FONT_DIR, Delivery, Dependent, Discount, Payment, PaymentMethod, Receipt, ReceiptLine,
    Renderer, Voucher,
};
use domain::shared::money::{NamePosition, StationCurrency};
use domain::shared::time::DEFAULT_ZONE;
use image::{ImageFormat, Rgba, RgbaImage};

fn renderer() -> Renderer {
    let dir = std::env::var("FILIA_PDF_FONT_DIR").unwrap_or_else(|_| DEFAULT_FONT_DIR.into());
    Renderer::load(Path::new(&dir)).expect("Lato is installed (ops/lib.sh installs fonts-lato)")
}

/// A scratch directory of its own per call, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Self {
        let dir = std::env::temp_dir().join(format!("filia-pdf-{}", ulid::Ulid::generate()));
        std::fs::create_dir_all(&dir).expect("scratch dir");
        Self(dir)
    }

    fn write(&self, pdf: &[u8]) -> PathBuf {
        let path = self.0.join("document.pdf");
        std::fs::write(&path, pdf).expect("write pdf");
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(program: &str, args: &[&str]) -> String {
    let output = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|error| panic!("{program} runs (poppler-utils installed?): {error}"));
    assert!(
        output.status.success(),
        "{program} {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8 output")
}

fn text_of(pdf: &[u8]) -> String {
    let scratch = Scratch::new();
    let path = scratch.write(pdf);
    run(
        "pdftotext",
        &[
            "-layout",
            "-enc",
            "UTF-8",
            path.to_str().expect("path"),
            "-",
        ],
    )
}

fn page_count(pdf: &[u8]) -> usize {
    let scratch = Scratch::new();
    let path = scratch.write(pdf);
    let info = run("pdfinfo", &[path.to_str().expect("path")]);
    info.lines()
        .find_map(|line| line.strip_prefix("Pages:"))
        .and_then(|count| count.trim().parse().ok())
        .expect("pdfinfo gives the page count")
}

/// Every QR code on the first page, rendered at 150 dpi and decoded.
fn qr_codes_on_first_page(pdf: &[u8]) -> Vec<String> {
    let scratch = Scratch::new();
    let path = scratch.write(pdf);
    let prefix = scratch.0.join("page");
    run(
        "pdftoppm",
        &[
            "-png",
            "-r",
            "150",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            path.to_str().expect("path"),
            prefix.to_str().expect("path"),
        ],
    );
    let page = image::open(scratch.0.join("page.png"))
        .expect("pdftoppm wrote page.png")
        .to_luma8();
    let mut prepared = rqrr::PreparedImage::prepare_from_greyscale(
        page.width() as usize,
        page.height() as usize,
        |x, y| page.get_pixel(x as u32, y as u32).0[0],
    );
    prepared
        .detect_grids()
        .iter()
        .map(|grid| grid.decode().expect("the QR code decodes").1)
        .collect()
}

fn at(year: i32, month: u32, day: u32, hour: u32, minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(year, month, day, hour, minute, 0)
        .single()
        .expect("valid date")
}

fn points() -> StationCurrency {
    StationCurrency {
        multiplier: "1".parse().expect("decimal"),
        name: "Pontos".into(),
        position: NamePosition::After,
    }
}

/// A logo with transparent corners, as stations upload them.
fn logo_png() -> Vec<u8> {
    let logo = RgbaImage::from_fn(240, 80, |x, y| {
        if (x + y) % 7 == 0 {
            Rgba([0, 0, 0, 0])
        } else {
            Rgba([20, 90, 200, 255])
        }
    });
    let mut bytes = Vec::new();
    logo.write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
        .expect("png");
    bytes
}

fn receipt(lines: Vec<ReceiptLine>) -> Receipt {
    Receipt {
        station_name: "Associação dos Servidores".into(),
        logo: Some(logo_png()),
        order_code: "PED-2026-004217".into(),
        // 17:45 UTC is 14:45 in Brasília.
        created_at: at(2026, 11, 24, 17, 45),
        zone: DEFAULT_ZONE,
        member_name: "João Conceição".into(),
        status: "Pagamento confirmado".into(),
        lines,
        deliveries: vec![Delivery {
            location: "Sede Campinas — retirada no balcão".into(),
            pickup: true,
            address: Some("Rua Barão de Jaguara, 1481 - Centro, Campinas/SP".into()),
            fee_cents: 1_500,
        }],
        items_cents: 123_456,
        discounts: vec![Discount {
            label: "Cupom PRIMAVERA".into(),
            cents: 2_000,
        }],
        total_cents: 122_956,
        wallet_cents: 22_956,
        payment: Some(Payment {
            method: PaymentMethod::Card { installments: 3 },
            cents: 100_000,
        }),
        refunded_cents: None,
        cashback: Some(1_550),
        currency: points(),
        validator_link: Some("https://parceiros.filia.app/validar/PED-2026-004217".into()),
    }
}

fn two_lines() -> Vec<ReceiptLine> {
    vec![
        ReceiptLine {
            product: "Camiseta oficial — edição Açaí".into(),
            quantity: 2,
            unit_cents: 4_990,
            total_cents: 9_980,
        },
        ReceiptLine {
            product: "Ingresso para o show de São João".into(),
            quantity: 1,
            unit_cents: 113_476,
            total_cents: 113_476,
        },
    ]
}

#[test]
fn a_receipt_reads_back_with_its_number_amounts_accents_and_status() {
    let pdf = renderer().receipt(&receipt(two_lines()));
    let text = text_of(&pdf);
    for expected in [
        "Associação dos Servidores",
        "Comprovante do pedido",
        "Pedido nº PED-2026-004217",
        "Data: 24/11/2026 14:45",
        "Nome: João Conceição",
        "Situação: Pagamento confirmado",
        "Camiseta oficial — edição Açaí",
        "Ingresso para o show de São João",
        "R$ 49,90",
        "R$ 99,80",
        "R$ 1.134,76",
        "Retirada",
        "Sede Campinas — retirada no balcão",
        "Rua Barão de Jaguara, 1481 - Centro, Campinas/SP",
        "R$ 1.234,56",
        "Taxa de entrega",
        "R$ 15,00",
        "Cupom PRIMAVERA",
        "-R$ 20,00",
        "R$ 1.229,56",
        "Pago com saldo",
        "R$ 229,56",
        "Pago com cartão de crédito (3x)",
        "R$ 1.000,00",
        "Cashback",
        "15,50 Pontos",
        "Página 1 de 1",
    ] {
        assert!(
            text.contains(expected),
            "{expected:?} missing from:\n{text}"
        );
    }
    assert_eq!(page_count(&pdf), 1);
}

#[test]
fn a_documents_dates_are_read_on_its_stations_clock() {
    let manaus = chrono_tz::America::Manaus;
    let receipt = Receipt {
        zone: manaus,
        ..receipt(two_lines())
    };
    let text = text_of(&renderer().receipt(&receipt));
    assert!(text.contains("Data: 24/11/2026 13:45"), "{text}");
    // 02:30 UTC on the 24th is 22:30 on the 23rd in Manaus; 03:30 UTC on 1 January is
    // still 31 December there.
    let voucher = Voucher {
        zone: manaus,
        valid_until: Some(at(2027, 1, 1, 3, 30)),
        ..voucher()
    };
    let text = text_of(&renderer().voucher(&voucher));
    assert!(text.contains("Criado em: 23/11/2026"), "{text}");
    assert!(text.contains("Válido até: 31/12/2026"), "{text}");
}

#[test]
fn a_receipt_lists_each_activity_s_place_and_adds_their_fees() {
    let mut order = receipt(two_lines());
    order.deliveries.push(Delivery {
        location: "Entrega em domicílio".into(),
        pickup: false,
        address: Some("Av. Paulista, 1000, 01310-100".into()),
        fee_cents: 2_000,
    });
    let text = text_of(&renderer().receipt(&order));
    for expected in [
        "Retirada",
        "Sede Campinas — retirada no balcão",
        "Entrega",
        "Entrega em domicílio",
        "Av. Paulista, 1000, 01310-100",
        "R$ 35,00",
    ] {
        assert!(
            text.contains(expected),
            "{expected:?} missing from:\n{text}"
        );
    }
    assert!(!text.contains("R$ 15,00"), "the fee is one total:\n{text}");
}

#[test]
fn a_receipt_qr_code_holds_the_validator_link() {
    let pdf = renderer().receipt(&receipt(two_lines()));
    assert_eq!(
        qr_codes_on_first_page(&pdf),
        vec!["https://parceiros.filia.app/validar/PED-2026-004217".to_owned()]
    );
}

#[test]
fn a_pix_receipt_names_pix_and_a_refund() {
    let mut pix = receipt(two_lines());
    pix.payment = Some(Payment {
        method: PaymentMethod::Pix,
        cents: 100_000,
    });
    pix.status = "Parcialmente estornada".into();
    pix.refunded_cents = Some(61_478);
    pix.validator_link = None;
    let pdf = renderer().receipt(&pix);
    let text = text_of(&pdf);
    for expected in [
        "Pago com PIX",
        "Situação: Parcialmente estornada",
        "Valor estornado",
        "R$ 614,78",
    ] {
        assert!(
            text.contains(expected),
            "{expected:?} missing from:\n{text}"
        );
    }
    assert!(!text.contains("cartão de crédito"), "{text}");
    assert!(qr_codes_on_first_page(&pdf).is_empty());
}

#[test]
fn a_receipt_with_sixty_lines_spans_pages_and_keeps_every_line() {
    let lines: Vec<ReceiptLine> = (1..=60)
        .map(|n| ReceiptLine {
            product: format!("Produto número {n:02} com acentuação"),
            quantity: n,
            unit_cents: 1_000 + n,
            total_cents: (1_000 + n) * n,
        })
        .collect();
    let pdf = renderer().receipt(&receipt(lines));
    let pages = page_count(&pdf);
    assert!(pages >= 2, "60 lines fit on {pages} page");
    let text = text_of(&pdf);
    for n in 1..=60_i64 {
        let product = format!("Produto número {n:02} com acentuação");
        assert_eq!(
            text.matches(&product).count(),
            1,
            "{product} once in:\n{text}"
        );
        let total = domain::shared::money::format_brl((1_000 + n) * n);
        assert!(text.contains(&total), "{total} missing");
    }
    // The column titles start every page the table runs on.
    assert_eq!(text.matches("Valor unitário").count(), pages, "{text}");
    assert!(
        text.contains(&format!("Página {pages} de {pages}")),
        "{text}"
    );
    // The totals come after the last line.
    let last_line = text.find("Produto número 60").expect("last line");
    let total = text.find("Pago com saldo").expect("totals");
    assert!(last_line < total);
}

#[test]
fn long_product_names_wrap_inside_their_column() {
    let name = "Kit de boas-vindas com caneca térmica, camiseta, boné, chaveiro, adesivos, \
                caderno de anotações e uma garrafa reutilizável de alumínio";
    let pdf = renderer().receipt(&receipt(vec![ReceiptLine {
        product: name.into(),
        quantity: 1,
        unit_cents: 123_456,
        total_cents: 123_456,
    }]));
    let text = text_of(&pdf);
    let words: Vec<&str> = name.split(' ').collect();
    for word in &words {
        assert!(text.contains(word), "{word:?} missing from:\n{text}");
    }
    // Wrapped: the name's first and last words are on different lines.
    let line_of = |word: &str| {
        text.lines()
            .position(|line| line.contains(word))
            .expect("word present")
    };
    assert!(line_of("Kit de boas-vindas") < line_of("alumínio"));
}

#[test]
fn a_row_taller_than_a_page_continues_on_the_next() {
    // 1 500 numbered words: about 70 lines in the product column, more than a page holds.
    let name: Vec<String> = (1..=1_500).map(|n| format!("p{n:04}")).collect();
    let pdf = renderer().receipt(&receipt(vec![ReceiptLine {
        product: name.join(" "),
        quantity: 1,
        unit_cents: 100,
        total_cents: 100,
    }]));
    assert!(page_count(&pdf) >= 2);
    let text = text_of(&pdf);
    for word in &name {
        assert_eq!(text.matches(word.as_str()).count(), 1, "{word} once");
    }
}

fn voucher() -> Voucher {
    Voucher {
        station_name: "Clube Atlético Paulistano".into(),
        logo: Some(logo_png()),
        activity_name: "Curso de Fotografia — Módulo Básico".into(),
        member_name: "Maria Antônia Gonçalves".into(),
        dependents: vec![
            Dependent {
                name: "Luíza Gonçalves".into(),
                relationship: "Filha".into(),
            },
            Dependent {
                name: "Sebastião Gonçalves".into(),
                relationship: "Cônjuge".into(),
            },
        ],
        created_at: at(2026, 11, 24, 2, 30),
        zone: DEFAULT_ZONE,
        valid_until: Some(at(2026, 12, 31, 15, 0)),
        place: Some("Auditório Térreo".into()),
        code: "VCH-7Q2K9".into(),
        rules_html: "<p>Válido para <strong>uma</strong> aula.</p><ul><li>Não cumulativo</li>\
                     <li>Traga um documento com foto &amp; este voucher</li></ul>"
            .into(),
        validator_link: "https://app.filia.app/validador/VCH-7Q2K9".into(),
        used: false,
    }
}

#[test]
fn a_voucher_reads_back_with_dependents_dates_code_and_plain_rules() {
    let pdf = renderer().voucher(&voucher());
    let text = text_of(&pdf);
    for expected in [
        "Clube Atlético Paulistano",
        "Curso de Fotografia — Módulo Básico",
        "Nome: Maria Antônia Gonçalves",
        "Dependente",
        "Parentesco",
        "Luíza Gonçalves",
        "Filha",
        "Sebastião Gonçalves",
        "Cônjuge",
        // 02:30 UTC on the 24th is still the 23rd in Brasília.
        "Criado em: 23/11/2026",
        "Válido até: 31/12/2026",
        "Local: Auditório Térreo",
        "Código: VCH-7Q2K9",
        "Regras",
        "Válido para uma aula.",
        "• Não cumulativo",
        "• Traga um documento com foto & este voucher",
    ] {
        assert!(
            text.contains(expected),
            "{expected:?} missing from:\n{text}"
        );
    }
    for absent in ["<p>", "<strong>", "&amp;", "Este voucher já foi utilizado!"] {
        assert!(!text.contains(absent), "{absent:?} in:\n{text}");
    }
}

#[test]
fn a_voucher_qr_code_holds_the_validator_link() {
    let pdf = renderer().voucher(&voucher());
    assert_eq!(
        qr_codes_on_first_page(&pdf),
        vec!["https://app.filia.app/validador/VCH-7Q2K9".to_owned()]
    );
}

#[test]
fn a_used_voucher_says_so_and_a_single_voucher_lists_no_dependents() {
    let mut used = voucher();
    used.used = true;
    used.dependents.clear();
    let text = text_of(&renderer().voucher(&used));
    assert!(text.contains("Este voucher já foi utilizado!"), "{text}");
    assert!(!text.contains("Dependentes"), "{text}");
    assert!(!text.contains("Parentesco"), "{text}");
}

#[test]
fn long_rules_continue_on_further_pages() {
    let mut long = voucher();
    long.rules_html = (1..=120)
        .map(|n| format!("<p>Regra {n:03}: o participante deve chegar com antecedência.</p>"))
        .collect();
    let pdf = renderer().voucher(&long);
    assert!(page_count(&pdf) >= 2);
    let text = text_of(&pdf);
    for n in 1..=120 {
        let rule = format!("Regra {n:03}:");
        assert_eq!(text.matches(&rule).count(), 1, "{rule} once");
    }
}

fn image_count(pdf: &[u8]) -> usize {
    let scratch = Scratch::new();
    let path = scratch.write(pdf);
    let list = run("pdfimages", &["-list", path.to_str().expect("path")]);
    // Two header lines, then one line per image.
    list.lines()
        .skip(2)
        .filter(|line| !line.trim().is_empty())
        .count()
}

#[test]
fn the_logo_is_drawn_when_it_decodes_and_left_out_when_it_does_not() {
    let renderer = renderer();
    assert_eq!(image_count(&renderer.voucher(&voucher())), 1);

    let mut broken = voucher();
    broken.logo = Some(b"<svg xmlns='http://www.w3.org/2000/svg'/>".to_vec());
    let pdf = renderer.voucher(&broken);
    assert_eq!(image_count(&pdf), 0);
    assert!(text_of(&pdf).contains("Código: VCH-7Q2K9"));

    let mut none = voucher();
    none.logo = None;
    assert_eq!(image_count(&renderer.voucher(&none)), 0);
}

#[test]
fn fonts_are_embedded_as_small_subsets() {
    let pdf = renderer().receipt(&receipt(two_lines()));
    let scratch = Scratch::new();
    let path = scratch.write(&pdf);
    let fonts = run("pdffonts", &[path.to_str().expect("path")]);
    let embedded: Vec<&str> = fonts.lines().skip(2).collect();
    assert_eq!(embedded.len(), 2, "{fonts}");
    for line in embedded {
        // Columns: name, type, encoding, emb, sub, uni, object ID.
        let columns: Vec<&str> = line.split_whitespace().collect();
        let flags = &columns[columns.len() - 5..columns.len() - 2];
        assert_eq!(flags[0], "yes", "not embedded: {line}");
        assert_eq!(flags[2], "yes", "no ToUnicode map: {line}");
    }
    // Lato is 650 KB a face whole; two subsets and a small logo stay far under that.
    assert!(pdf.len() < 120_000, "{} bytes", pdf.len());
}

#[test]
fn a_missing_font_says_what_to_install() {
    let error = Renderer::load(Path::new("/nonexistent/fonts")).expect_err("no font there");
    let message = error.to_string();
    assert!(
        message.contains("/nonexistent/fonts/Lato-Regular.ttf"),
        "{message}"
    );
    assert!(message.contains("fonts-lato"), "{message}");
    assert!(message.contains("FILIA_PDF_FONT_DIR"), "{message}");
}
