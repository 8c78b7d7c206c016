//! BR Codes ("Pix copia e cola"): the EMV text a bank app reads from a PIX QR code. Builds
//! and parses them as `../shared/PAYMENTS.md` describes: `ID + LENGTH + VALUE` fields (26 and
//! 62 nested), CRC-16/CCITT-FALSE over the whole text including `6304`, ASCII only, merchant
//! name at most 25 and city at most 15 characters. Also renders the QR image as PNG.

use std::io::Cursor;

/// The PIX arrangement's identifier in field 26/00 (upper case, like the rest of the text;
/// bank apps compare it without case).
pub const PIX_GUI: &str = "BR.GOV.BCB.PIX";
pub const MERCHANT_NAME_MAX: usize = 25;
pub const MERCHANT_CITY_MAX: usize = 15;
/// A static code's txid: at most 25 letters and digits (or `***`, "none").
pub const STATIC_TXID_MAX: usize = 25;
/// The txid of a dynamic code, and of a static code without one.
pub const NO_TXID: &str = "***";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BrCodeError {
    #[error("field {0} is longer than 99 characters")]
    FieldTooLong(String),
    #[error("BR Codes are ASCII; field {0} is not")]
    NotAscii(String),
    #[error("txid must be 1 to 25 letters and digits, or ***")]
    InvalidTxid,
    #[error("the amount must be positive")]
    InvalidAmount,
    #[error("merchant name and city must keep at least one letter or digit")]
    EmptyMerchant,
    #[error("truncated or malformed field at position {0}")]
    Malformed(usize),
    #[error("CRC does not match: found {found}, computed {computed}")]
    Crc { found: String, computed: String },
    #[error("field {0} is missing")]
    Missing(&'static str),
    #[error("field {field} has an invalid value {value:?}")]
    InvalidValue { field: &'static str, value: String },
}

/// Who receives: the name and city the payer's bank app shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merchant {
    pub name: String,
    pub city: String,
}

impl Merchant {
    /// Accents removed, upper case, cut to the limits (25 and 15).
    pub fn new(name: &str, city: &str) -> Result<Self, BrCodeError> {
        let name = normalize_text(name, MERCHANT_NAME_MAX);
        let city = normalize_text(city, MERCHANT_CITY_MAX);
        if name.is_empty() || city.is_empty() {
            return Err(BrCodeError::EmptyMerchant);
        }
        Ok(Self { name, city })
    }
}

/// Where field 26 sends the payer's bank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Account {
    /// Static code: a PIX key (26/01) and an optional free text (26/02).
    Key {
        key: String,
        description: Option<String>,
    },
    /// Dynamic code: the charge's location URL without `https://` (26/25).
    Location(String),
}

/// Every field of a BR Code, written exactly as held: `encode` changes nothing, so a parsed
/// code encodes back to the same text. The constructors (`static_code`, `dynamic_code`)
/// apply the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrCode {
    /// Field 01: `Some(true)` is `12` (single use), `Some(false)` is `11` (reusable).
    pub single_use: Option<bool>,
    /// Field 26/00 as written (`br.gov.bcb.pix` in any case).
    pub gui: String,
    pub account: Account,
    /// Field 54 in centavos; `None` lets the payer type it (static) or the location
    /// give it (dynamic).
    pub amount_cents: Option<i64>,
    pub merchant_name: String,
    pub merchant_city: String,
    /// Field 62/05.
    pub txid: String,
}

impl BrCode {
    /// A static code for a PIX key, optionally for an amount and with a txid (else `***`).
    pub fn static_code(
        merchant: &Merchant,
        key: &str,
        amount_cents: Option<i64>,
        txid: Option<&str>,
    ) -> Result<Self, BrCodeError> {
        let txid = match txid {
            None => NO_TXID.to_string(),
            Some(txid) if is_valid_static_txid(txid) => txid.to_string(),
            Some(_) => return Err(BrCodeError::InvalidTxid),
        };
        check_amount(amount_cents)?;
        Ok(Self {
            single_use: None,
            gui: PIX_GUI.into(),
            account: Account::Key {
                key: key.trim().to_string(),
                description: None,
            },
            amount_cents,
            merchant_name: merchant.name.clone(),
            merchant_city: merchant.city.clone(),
            txid,
        })
    }

    /// A single-use dynamic code pointing at a charge's location (`https://` is dropped).
    pub fn dynamic_code(
        merchant: &Merchant,
        location: &str,
        amount_cents: Option<i64>,
    ) -> Result<Self, BrCodeError> {
        check_amount(amount_cents)?;
        let location = location
            .strip_prefix("https://")
            .or_else(|| location.strip_prefix("http://"))
            .unwrap_or(location);
        Ok(Self {
            single_use: Some(true),
            gui: PIX_GUI.into(),
            account: Account::Location(location.to_string()),
            amount_cents,
            merchant_name: merchant.name.clone(),
            merchant_city: merchant.city.clone(),
            txid: NO_TXID.into(),
        })
    }

    /// The "copia e cola" text, CRC included.
    pub fn encode(&self) -> Result<String, BrCodeError> {
        let mut account = String::new();
        push_field(&mut account, "00", &self.gui)?;
        match &self.account {
            Account::Key { key, description } => {
                push_field(&mut account, "01", key)?;
                if let Some(description) = description {
                    push_field(&mut account, "02", description)?;
                }
            }
            Account::Location(url) => push_field(&mut account, "25", url)?,
        }
        let mut additional = String::new();
        push_field(&mut additional, "05", &self.txid)?;

        let mut out = String::new();
        push_field(&mut out, "00", "01")?;
        if let Some(single_use) = self.single_use {
            push_field(&mut out, "01", if single_use { "12" } else { "11" })?;
        }
        push_field(&mut out, "26", &account)?;
        push_field(&mut out, "52", "0000")?;
        push_field(&mut out, "53", "986")?;
        if let Some(cents) = self.amount_cents {
            push_field(&mut out, "54", &format_amount(cents))?;
        }
        push_field(&mut out, "58", "BR")?;
        push_field(&mut out, "59", &self.merchant_name)?;
        push_field(&mut out, "60", &self.merchant_city)?;
        push_field(&mut out, "62", &additional)?;
        out.push_str("6304");
        let crc = crc16_ccitt_false(out.as_bytes());
        out.push_str(&format!("{crc:04X}"));
        Ok(out)
    }

    /// Reads a BR Code, checking the CRC, the fixed fields and the limits.
    pub fn parse(text: &str) -> Result<Self, BrCodeError> {
        if !text.is_ascii() {
            return Err(BrCodeError::NotAscii("payload".into()));
        }
        let fields = split_fields(text, 0)?;
        let Some((crc_field, crc_value, crc_at)) = fields.last().cloned() else {
            return Err(BrCodeError::Missing("63"));
        };
        if crc_field != "63" || crc_value.len() != 4 {
            return Err(BrCodeError::Missing("63"));
        }
        let computed = format!("{:04X}", crc16_ccitt_false(&text.as_bytes()[..crc_at + 4]));
        if !crc_value.eq_ignore_ascii_case(&computed) {
            return Err(BrCodeError::Crc {
                found: crc_value,
                computed,
            });
        }
        let get = |id: &'static str| {
            fields
                .iter()
                .find(|(field, _, _)| field == id)
                .map(|(_, value, _)| value.clone())
        };
        let require = |id: &'static str| get(id).ok_or(BrCodeError::Missing(id));
        expect_value("00", &require("00")?, "01")?;
        expect_value("52", &require("52")?, "0000")?;
        expect_value("53", &require("53")?, "986")?;
        expect_value("58", &require("58")?, "BR")?;
        let single_use = match get("01").as_deref() {
            None => None,
            Some("12") => Some(true),
            Some("11") => Some(false),
            Some(other) => {
                return Err(BrCodeError::InvalidValue {
                    field: "01",
                    value: other.into(),
                });
            }
        };

        let account_text = require("26")?;
        let account_fields = split_fields(&account_text, 0)?;
        let sub = |fields: &[(String, String, usize)], id: &str| {
            fields
                .iter()
                .find(|(field, _, _)| field == id)
                .map(|(_, value, _)| value.clone())
        };
        let gui = sub(&account_fields, "00").ok_or(BrCodeError::Missing("26/00"))?;
        if !gui.eq_ignore_ascii_case(PIX_GUI) {
            return Err(BrCodeError::InvalidValue {
                field: "26/00",
                value: gui,
            });
        }
        let account = match (sub(&account_fields, "01"), sub(&account_fields, "25")) {
            (Some(key), None) => Account::Key {
                key,
                description: sub(&account_fields, "02"),
            },
            (None, Some(url)) => Account::Location(url),
            _ => return Err(BrCodeError::Missing("26/01 or 26/25")),
        };

        let amount_cents = match get("54") {
            None => None,
            Some(amount) => Some(parse_amount(&amount).ok_or(BrCodeError::InvalidValue {
                field: "54",
                value: amount,
            })?),
        };
        let merchant_name = require("59")?;
        if merchant_name.is_empty() || merchant_name.len() > MERCHANT_NAME_MAX {
            return Err(BrCodeError::InvalidValue {
                field: "59",
                value: merchant_name,
            });
        }
        let merchant_city = require("60")?;
        if merchant_city.is_empty() || merchant_city.len() > MERCHANT_CITY_MAX {
            return Err(BrCodeError::InvalidValue {
                field: "60",
                value: merchant_city,
            });
        }
        let additional = split_fields(&require("62")?, 0)?;
        let txid = sub(&additional, "05").ok_or(BrCodeError::Missing("62/05"))?;
        let txid_ok = match account {
            Account::Key { .. } => is_valid_static_txid(&txid),
            Account::Location(_) => txid == NO_TXID,
        };
        if !txid_ok {
            return Err(BrCodeError::InvalidTxid);
        }
        Ok(Self {
            single_use,
            gui,
            account,
            amount_cents,
            merchant_name,
            merchant_city,
            txid,
        })
    }
}

/// CRC-16/CCITT-FALSE (the catalogue's CRC-16/IBM-3740): polynomial 0x1021, initial
/// 0xFFFF, no reflection, no final xor.
const CRC16: crc::Crc<u16> = crc::Crc::<u16>::new(&crc::CRC_16_IBM_3740);

/// The BR Code's checksum of `bytes` (CRC-16/CCITT-FALSE).
pub fn crc16_ccitt_false(bytes: &[u8]) -> u16 {
    CRC16.checksum(bytes)
}

/// Accents removed (Portuguese letters mapped to their base letter, anything else outside
/// ASCII dropped), upper case, runs of spaces folded, cut to `max` characters.
pub fn normalize_text(text: &str, max: usize) -> String {
    let mut out = String::new();
    for ch in text.chars() {
        let base = match ch {
            'á' | 'à' | 'â' | 'ã' | 'ä' | 'Á' | 'À' | 'Â' | 'Ã' | 'Ä' => 'A',
            'é' | 'è' | 'ê' | 'ë' | 'É' | 'È' | 'Ê' | 'Ë' => 'E',
            'í' | 'ì' | 'î' | 'ï' | 'Í' | 'Ì' | 'Î' | 'Ï' => 'I',
            'ó' | 'ò' | 'ô' | 'õ' | 'ö' | 'Ó' | 'Ò' | 'Ô' | 'Õ' | 'Ö' => 'O',
            'ú' | 'ù' | 'û' | 'ü' | 'Ú' | 'Ù' | 'Û' | 'Ü' => 'U',
            'ç' | 'Ç' => 'C',
            'ñ' | 'Ñ' => 'N',
            c if c.is_ascii_whitespace() => ' ',
            c if c.is_ascii_graphic() => c.to_ascii_uppercase(),
            _ => continue,
        };
        if base == ' ' && (out.is_empty() || out.ends_with(' ')) {
            continue;
        }
        out.push(base);
    }
    let mut cut: String = out.chars().take(max).collect();
    cut.truncate(cut.trim_end().len());
    cut
}

/// `10.00` from 1000 centavos.
pub fn format_amount(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// The PNG of the code's QR image, at least `size` pixels wide (with the quiet zone).
pub fn qr_png(text: &str, size: u32) -> anyhow::Result<Vec<u8>> {
    let code = qrcode::QrCode::new(text.as_bytes())?;
    let image = code
        .render::<image::Luma<u8>>()
        .min_dimensions(size, size)
        .build();
    let mut png = Cursor::new(Vec::new());
    image.write_to(&mut png, image::ImageFormat::Png)?;
    Ok(png.into_inner())
}

fn is_valid_static_txid(txid: &str) -> bool {
    txid == NO_TXID
        || (!txid.is_empty()
            && txid.len() <= STATIC_TXID_MAX
            && txid.bytes().all(|b| b.is_ascii_alphanumeric()))
}

fn check_amount(amount_cents: Option<i64>) -> Result<(), BrCodeError> {
    match amount_cents {
        Some(cents) if cents <= 0 => Err(BrCodeError::InvalidAmount),
        _ => Ok(()),
    }
}

fn parse_amount(text: &str) -> Option<i64> {
    let (units, decimals) = text.split_once('.').unwrap_or((text, ""));
    if units.is_empty()
        || decimals.len() > 2
        || !units.bytes().all(|b| b.is_ascii_digit())
        || !decimals.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let units: i64 = units.parse().ok()?;
    let decimals: i64 = format!("{decimals:0<2}").parse().ok()?;
    let cents = units.checked_mul(100)?.checked_add(decimals)?;
    (cents > 0).then_some(cents)
}

fn push_field(out: &mut String, id: &str, value: &str) -> Result<(), BrCodeError> {
    if !value.is_ascii() {
        return Err(BrCodeError::NotAscii(id.into()));
    }
    if value.len() > 99 {
        return Err(BrCodeError::FieldTooLong(id.into()));
    }
    out.push_str(id);
    out.push_str(&format!("{:02}", value.len()));
    out.push_str(value);
    Ok(())
}

fn expect_value(field: &'static str, found: &str, expected: &str) -> Result<(), BrCodeError> {
    if found == expected {
        Ok(())
    } else {
        Err(BrCodeError::InvalidValue {
            field,
            value: found.into(),
        })
    }
}

/// `(id, value, position of the field's start)` for each field of an ASCII TLV list.
fn split_fields(text: &str, base: usize) -> Result<Vec<(String, String, usize)>, BrCodeError> {
    let bytes = text.as_bytes();
    let mut fields = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let header = text
            .get(at..at + 4)
            .filter(|h| h.bytes().all(|b| b.is_ascii_digit()))
            .ok_or(BrCodeError::Malformed(base + at))?;
        let len: usize = header[2..]
            .parse()
            .map_err(|_| BrCodeError::Malformed(base + at))?;
        let value = text
            .get(at + 4..at + 4 + len)
            .ok_or(BrCodeError::Malformed(base + at))?;
        fields.push((header[..2].to_string(), value.to_string(), base + at));
        at += 4 + len;
    }
    Ok(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BCB_STATIC: &str = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";
    const DYNAMIC: &str = "00020101021226770014BR.GOV.BCB.PIX2555pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a995204000053039865802BR5907EMPRESA6009SAO PAULO62070503***6304EEAB";

    #[test]
    fn crc_check_value() {
        assert_eq!(crc16_ccitt_false(b"123456789"), 0x29B1);
        assert_eq!(format!("{:04X}", crc16_ccitt_false(b"")), "FFFF");
    }

    #[test]
    fn the_central_banks_static_example_is_reproduced_byte_for_byte() {
        let code = BrCode {
            single_use: None,
            gui: "br.gov.bcb.pix".into(),
            account: Account::Key {
                key: "123e4567-e12b-12d1-a456-426655440000".into(),
                description: None,
            },
            amount_cents: None,
            merchant_name: "Fulano de Tal".into(),
            merchant_city: "BRASILIA".into(),
            txid: NO_TXID.into(),
        };
        assert_eq!(code.encode().expect("encodes"), BCB_STATIC);
        assert_eq!(BrCode::parse(BCB_STATIC).expect("parses"), code);
    }

    #[test]
    fn the_dynamic_example_is_reproduced_from_our_builder() {
        let merchant = Merchant::new("Empresa", "São Paulo").expect("merchant");
        let code = BrCode::dynamic_code(
            &merchant,
            "https://pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a99",
            None,
        )
        .expect("builds");
        assert_eq!(code.encode().expect("encodes"), DYNAMIC);
        assert_eq!(BrCode::parse(DYNAMIC).expect("parses"), code);
    }

    #[test]
    fn our_own_output_parses_back_with_its_amount() {
        let merchant =
            Merchant::new("Clube Filia Demonstração Ltda", "Florianópolis").expect("valid");
        let code = BrCode::static_code(
            &merchant,
            "pagamentos@filia.com.br",
            Some(123_456),
            Some("PEDIDO42"),
        )
        .expect("valid");
        let text = code.encode().expect("valid");
        assert!(text.contains("54071234.56"), "{text}");
        assert!(
            text.contains("5924CLUBE FILIA DEMONSTRACAO6013FLORIANOPOLIS"),
            "{text}"
        );
        let parsed = BrCode::parse(&text).expect("valid");
        assert_eq!(parsed, code);
        assert_eq!(parsed.amount_cents, Some(123_456));
        assert_eq!(parsed.encode().expect("valid"), text);
    }

    #[test]
    fn amounts_have_a_dot_and_two_decimals() {
        assert_eq!(format_amount(1000), "10.00");
        assert_eq!(format_amount(5), "0.05");
        assert_eq!(format_amount(123_456_789), "1234567.89");
        assert_eq!(parse_amount("10.00"), Some(1000));
        assert_eq!(parse_amount("10.5"), Some(1050));
        assert_eq!(parse_amount("10"), Some(1000));
        for bad in ["", ".50", "1,00", "1.234", "-1.00", "0.00", "1e3"] {
            assert_eq!(parse_amount(bad), None, "{bad}");
        }
        let merchant = Merchant::new("A", "B").expect("valid");
        assert_eq!(
            BrCode::dynamic_code(&merchant, "x.com/1", Some(0)),
            Err(BrCodeError::InvalidAmount)
        );
    }

    #[test]
    fn merchant_name_and_city_lose_accents_and_fit_their_limits() {
        let merchant = Merchant::new(
            "  Associação  dos Funcionários Públicos de São João ",
            "São José dos Campos",
        )
        .expect("valid");
        assert_eq!(merchant.name, "ASSOCIACAO DOS FUNCIONARI");
        assert_eq!(merchant.name.len(), MERCHANT_NAME_MAX);
        assert_eq!(merchant.city, "SAO JOSE DOS CA");
        assert_eq!(merchant.city.len(), MERCHANT_CITY_MAX);
        // A cut that ends on a space does not keep it.
        assert_eq!(normalize_text("Açaí do Zé Ltda", 11), "ACAI DO ZE");
        assert_eq!(normalize_text("Café ☕ Brasil", 25), "CAFE BRASIL");
        assert_eq!(Merchant::new("☕", "Rio"), Err(BrCodeError::EmptyMerchant));
    }

    #[test]
    fn static_txids_are_up_to_25_letters_and_digits() {
        let merchant = Merchant::new("Loja", "Recife").expect("valid");
        let key = "+5581999998888";
        for good in ["***", "A", "PEDIDO123", &"a".repeat(25)] {
            assert!(
                BrCode::static_code(&merchant, key, None, Some(good)).is_ok(),
                "{good}"
            );
        }
        for bad in ["", "PEDIDO-123", "pedido 1", &"a".repeat(26), "**"] {
            assert_eq!(
                BrCode::static_code(&merchant, key, None, Some(bad)),
                Err(BrCodeError::InvalidTxid),
                "{bad}"
            );
        }
        let none = BrCode::static_code(&merchant, key, None, None).expect("valid");
        assert_eq!(none.txid, NO_TXID);
    }

    #[test]
    fn dynamic_codes_are_single_use_with_no_txid() {
        let merchant = Merchant::new("Loja", "Recife").expect("valid");
        let code =
            BrCode::dynamic_code(&merchant, "pix.example.com/qr/1", Some(990)).expect("valid");
        let text = code.encode().expect("valid");
        assert!(text.starts_with("000201010212"), "{text}");
        assert!(text.contains("62070503***"), "{text}");
        // A dynamic code carrying a txid of its own is refused.
        let forged = BrCode {
            txid: "ABC".into(),
            ..code
        }
        .encode()
        .expect("valid");
        assert_eq!(BrCode::parse(&forged), Err(BrCodeError::InvalidTxid));
    }

    #[test]
    fn parsing_rejects_bad_crcs_limits_and_structure() {
        let mut wrong_crc = BCB_STATIC.to_string();
        wrong_crc.replace_range(wrong_crc.len() - 4.., "1D3E");
        assert!(matches!(
            BrCode::parse(&wrong_crc),
            Err(BrCodeError::Crc { .. })
        ));
        // Lower-case CRC digits are read as the same number.
        let mut lower = BCB_STATIC.to_string();
        lower.replace_range(lower.len() - 4.., "1d3d");
        assert!(BrCode::parse(&lower).is_ok());
        assert!(matches!(
            BrCode::parse(&BCB_STATIC[..BCB_STATIC.len() - 10]),
            Err(BrCodeError::Malformed(_) | BrCodeError::Missing(_))
        ));
        assert!(matches!(
            BrCode::parse("00020126"),
            Err(BrCodeError::Malformed(_))
        ));

        // Over-long name and city, built by hand (the builder cannot make them), are refused.
        let base = BrCode::parse(BCB_STATIC).expect("valid");
        let long_name = BrCode {
            merchant_name: "N".repeat(26),
            ..base.clone()
        };
        assert!(matches!(
            BrCode::parse(&long_name.encode().expect("valid")),
            Err(BrCodeError::InvalidValue { field: "59", .. })
        ));
        let long_city = BrCode {
            merchant_city: "C".repeat(16),
            ..base.clone()
        };
        assert!(matches!(
            BrCode::parse(&long_city.encode().expect("valid")),
            Err(BrCodeError::InvalidValue { field: "60", .. })
        ));
        let not_pix = BrCode {
            gui: "br.gov.bcb.bix".into(),
            ..base
        };
        assert!(matches!(
            BrCode::parse(&not_pix.encode().expect("valid")),
            Err(BrCodeError::InvalidValue { field: "26/00", .. })
        ));
    }

    #[test]
    fn fields_longer_than_99_or_outside_ascii_are_refused() {
        let merchant = Merchant::new("Loja", "Recife").expect("valid");
        let long_url = format!("pix.example.com/{}", "q".repeat(80));
        let code = BrCode::dynamic_code(&merchant, &long_url, None).expect("valid");
        assert!(matches!(code.encode(), Err(BrCodeError::FieldTooLong(_))));
        let accented = BrCode::static_code(&merchant, "chave-é", None, None).expect("valid");
        assert!(matches!(accented.encode(), Err(BrCodeError::NotAscii(_))));
    }

    #[test]
    fn the_qr_image_is_a_png() {
        let png = qr_png(DYNAMIC, 256).expect("valid");
        let image =
            image::load_from_memory_with_format(&png, image::ImageFormat::Png).expect("valid");
        assert!(image.width() >= 256 && image.width() == image.height());
    }
}
