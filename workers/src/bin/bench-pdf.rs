//! The Rust side of `ops/bench/pdf`: renders a receipt or a voucher many times through
//! [`documents::Renderer`], the code the `receipt.pdf` and `voucher.pdf` jobs
//! call, and reports the time per document and the memory one render takes. Not part of
//! the product; the script runs it once per document kind, each in a process of its own.
//!
//! ```text
//! bench-pdf <receipt|receipt-60|voucher> <iterations>
//!     receipt: 3 lines, delivery, coupon, wallet + card, cashback, QR code, a logo;
//!     receipt-60: the same with 60 lines (two pages); voucher: two dependents, HTML
//!     rules, QR code, a logo. Prints `load_ms=<reading Lato> bytes=<pdf size>
//!     pages=<count> p50_ms= p95_ms= max_ms= rss_kb=<resident after warm-up>
//!     peak_kb=<highest resident set while rendering, above rss_kb>`.
//! ```
//! Reads FILIA_PDF_FONT_DIR (default: Debian's fonts-lato directory). Memory figures come
//! from /proc (Linux): the peak is reset after the warm-up render, so it measures what
//! rendering adds, not the process's start.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, bail, ensure};
use documents::{
    DEFAULT_FONT_DIR, Delivery, Dependent, Discount, Payment, PaymentMethod, Receipt, ReceiptLine,
    Renderer, Voucher,
};
use domain::shared::money::{NamePosition, StationCurrency};
use seed::demo::art::{Palette, banner};
use sqlx::types::chrono::Utc;

const USAGE: &str = "usage: bench-pdf <receipt|receipt-60|voucher> <iterations>";

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind = args.first().context(USAGE)?.clone();
    let iterations: usize = args
        .get(1)
        .context(USAGE)?
        .parse()
        .context("iterations: not a number")?;
    ensure!(iterations >= 1, "iterations must be at least 1");

    let font_dir = std::env::var("FILIA_PDF_FONT_DIR").unwrap_or_else(|_| DEFAULT_FONT_DIR.into());
    let started = Instant::now();
    let renderer = Renderer::load(Path::new(&font_dir))?;
    let load_ms = started.elapsed().as_secs_f64() * 1000.0;

    let logo = banner(
        (600, 200),
        Palette {
            from: [20, 90, 200],
            to: [240, 120, 40],
        },
        1,
    )?;
    let render: Box<dyn Fn() -> Vec<u8>> = match kind.as_str() {
        "receipt" => {
            let receipt = receipt(logo, 3);
            Box::new(move || renderer.receipt(&receipt))
        }
        "receipt-60" => {
            let receipt = receipt(logo, 60);
            Box::new(move || renderer.receipt(&receipt))
        }
        "voucher" => {
            let voucher = voucher(logo);
            Box::new(move || renderer.voucher(&voucher))
        }
        other => bail!("unknown document {other:?}\n{USAGE}"),
    };

    // The first render pays for one-off allocations; the figures are for the steady state.
    let sample = render();
    let pages = count_pages(&sample);
    reset_peak();
    let rss_kb = proc_status_kb("VmRSS");
    let mut times = Vec::with_capacity(iterations);
    for _ in 0..iterations {
        let started = Instant::now();
        let pdf = render();
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        ensure!(pdf.len() == sample.len(), "renders differ in size");
    }
    let peak_kb = proc_status_kb("VmHWM")
        .zip(rss_kb)
        .map(|(peak, base)| peak.saturating_sub(base));
    times.sort_by(f64::total_cmp);
    let percentile = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    let kb = |value: Option<u64>| value.map_or_else(|| "n/a".to_owned(), |kb| kb.to_string());
    writeln!(
        std::io::stdout(),
        "load_ms={load_ms:.1} bytes={} pages={pages} p50_ms={:.2} p95_ms={:.2} max_ms={:.2} \
         rss_kb={} peak_kb={}",
        sample.len(),
        percentile(0.5),
        percentile(0.95),
        times[times.len() - 1],
        kb(rss_kb),
        kb(peak_kb),
    )?;
    Ok(())
}

/// Pages in a PDF we wrote: its page objects are `/Type /Page` (the tree is `/Pages`).
fn count_pages(pdf: &[u8]) -> usize {
    let needle = b"/Type/Page";
    let spaced = b"/Type /Page";
    let count = |needle: &[u8]| {
        pdf.windows(needle.len() + 1)
            .filter(|window| window.starts_with(needle) && window[needle.len()] != b's')
            .count()
    };
    count(needle) + count(spaced)
}

/// Linux: writing 5 to clear_refs resets the process's peak resident set (VmHWM).
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

fn proc_status_kb(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
}

fn receipt(logo: Vec<u8>, lines: i64) -> Receipt {
    let lines: Vec<ReceiptLine> = (1..=lines)
        .map(|n| ReceiptLine {
            product: format!("Camiseta oficial — edição {n:02}, tamanho médio"),
            quantity: 1 + n % 3,
            unit_cents: 4_990 + n,
            total_cents: (4_990 + n) * (1 + n % 3),
        })
        .collect();
    let items: i64 = lines.iter().map(|line| line.total_cents).sum();
    Receipt {
        station_name: "Associação dos Servidores".into(),
        logo: Some(logo),
        order_code: "PED-2026-004217".into(),
        created_at: Utc::now(),
        zone: domain::shared::time::DEFAULT_ZONE,
        member_name: "João Conceição".into(),
        status: "Pagamento confirmado".into(),
        lines,
        deliveries: vec![Delivery {
            location: "Entrega em domicílio".into(),
            pickup: false,
            address: Some("Rua Barão de Jaguara, 1481 - Centro, Campinas/SP".into()),
            fee_cents: 1_500,
        }],
        items_cents: items,
        discounts: vec![Discount {
            label: "Cupom PRIMAVERA".into(),
            cents: 2_000,
        }],
        total_cents: items - 500,
        wallet_cents: 5_000,
        payment: Some(Payment {
            method: PaymentMethod::Card { installments: 3 },
            cents: items - 5_500,
        }),
        refunded_cents: None,
        cashback: Some(1_550),
        currency: StationCurrency {
            multiplier: 1.into(),
            name: "Pontos".into(),
            position: NamePosition::After,
        },
        validator_link: Some("https://parceiros.filia.app/validar/PED-2026-004217".into()),
    }
}

fn voucher(logo: Vec<u8>) -> Voucher {
    Voucher {
        station_name: "Clube Atlético Paulistano".into(),
        logo: Some(logo),
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
        created_at: Utc::now(),
        zone: domain::shared::time::DEFAULT_ZONE,
        valid_until: Some(Utc::now()),
        place: Some("Auditório Térreo".into()),
        code: "VCH-7Q2K9".into(),
        rules_html: "<p>Válido para <strong>uma</strong> aula.</p><ul><li>Não cumulativo</li>\
                     <li>Traga um documento com foto &amp; este voucher</li></ul>"
            .repeat(4),
        validator_link: "https://app.filia.app/validador/VCH-7Q2K9".into(),
        used: false,
    }
}
