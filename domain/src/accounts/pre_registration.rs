//! The profile's pre-registration change request (spec 002, `POST pre-registration-change`):
//! a member of a station that offers it (`stations.pre_registration_access`) asks the
//! station's registry to change their phones, e-mail, situation or address. The request is
//! stored and e-mailed to the station's contact address; staff change the registry
//! themselves, so nothing of the account changes here.

use sqlx::PgConnection;

use crate::accounts::change::{AccountError, FollowUp, Mail};
use crate::accounts::signup::{self, Problems};
use crate::infra::mail::{Branding, Notice, OutgoingMail};
use crate::shared::ids::{StationId, UserId};
use crate::shared::validate;
use crate::stations::station;

/// The spec's success text.
pub const SENT: &str = "Solicitação enviada com sucesso.";
/// 404 where the station does not offer the request.
pub const NOT_OFFERED: &str = "Esta estação não recebe solicitações de alteração cadastral.";
/// A `situacao` outside the spec's options.
pub const INVALID_SITUATION: &str = "Situação inválida";
/// The spec's options for `situacao`.
pub const SITUATIONS: [&str; 4] = ["Ativo", "Aposentado", "Inativo", "Pensionista"];
pub const SUBJECT: &str = "Solicitação de alteração cadastral";
/// The longest address a request takes.
const ADDRESS_MAX: usize = 500;

/// The form as sent: every field optional here, the rules say which are needed.
#[derive(Debug, Clone, Default)]
pub struct ChangeRequest {
    pub telefonefixo: Option<String>,
    pub celular: Option<String>,
    pub email: Option<String>,
    pub situacao: Option<String>,
    pub endereco: Option<String>,
}

/// A request that passed the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Checked {
    telefonefixo: Option<String>,
    celular: Option<String>,
    email: String,
    situacao: &'static str,
    endereco: Option<String>,
}

/// E-mail required and valid, `situacao` one of [`SITUATIONS`], phones (when sent) with
/// their area code, the address at most [`ADDRESS_MAX`] characters. Every broken rule is
/// listed, in field order.
fn check(request: &ChangeRequest) -> Result<Checked, Vec<String>> {
    let mut problems = Problems::default();
    let p = &mut problems;
    let telefonefixo = signup::phone(p, request.telefonefixo.as_deref(), false);
    let celular = signup::phone(p, request.celular.as_deref(), false);
    let email = signup::email(p, request.email.as_deref(), true);
    let situacao = signup::required_text(p, request.situacao.as_deref()).and_then(|sent| {
        let found = SITUATIONS.iter().copied().find(|option| *option == sent);
        if found.is_none() {
            p.push(INVALID_SITUATION);
        }
        found
    });
    let endereco = signup::present(request.endereco.as_deref()).map(str::to_string);
    if let Some(endereco) = &endereco {
        p.check(validate::max_length(endereco, ADDRESS_MAX));
    }
    match (email, situacao) {
        (Some(email), Some(situacao)) if problems.is_empty() => Ok(Checked {
            telefonefixo,
            celular,
            email,
            situacao,
            endereco,
        }),
        _ => Err(problems.into_messages()),
    }
}

/// Records the member's request on `tx` and answers the e-mail to the station (none when
/// the station has no contact address: the request stays recorded for staff).
pub async fn request(
    tx: &mut PgConnection,
    station_id: StationId,
    user_id: UserId,
    request: &ChangeRequest,
    public_url: &str,
) -> Result<FollowUp, AccountError> {
    let station = station::find(&mut *tx, station_id.0)
        .await?
        .filter(|station| station.pre_registration_access)
        .ok_or_else(|| AccountError::NotFound(NOT_OFFERED.into()))?;
    let checked = check(request).map_err(AccountError::Invalid)?;
    let (id, name, cpf): (i64, String, Option<String>) = sqlx::query_as(
        "INSERT INTO pre_registration_changes
                (station_id, user_id, telefonefixo, celular, email, situacao, endereco)
         SELECT $1, u.id, $3, $4, $5, $6, $7 FROM users u WHERE u.id = $2 AND u.station_id = $1
         RETURNING id, (SELECT name FROM users WHERE id = $2), (SELECT cpf FROM users WHERE id = $2)",
    )
    .bind(station_id)
    .bind(user_id)
    .bind(&checked.telefonefixo)
    .bind(&checked.celular)
    .bind(&checked.email)
    .bind(checked.situacao)
    .bind(&checked.endereco)
    .fetch_one(&mut *tx)
    .await?;
    let Some(to) = station
        .contact_mail
        .clone()
        .filter(|mail| !mail.trim().is_empty())
    else {
        return Ok(FollowUp::default());
    };
    let or_none = |value: &Option<String>| value.clone().unwrap_or_else(|| "—".into());
    let notice = Notice {
        heading: SUBJECT.into(),
        paragraphs: vec![
            format!(
                "{name} (matrícula {}, CPF {}) pediu a alteração dos seus dados cadastrais:",
                crate::accounts::member_card::number(user_id.0),
                cpf.unwrap_or_else(|| "—".into())
            ),
            format!(
                "Telefone fixo: {}\nCelular: {}\nE-mail: {}\nSituação: {}\nEndereço: {}",
                or_none(&checked.telefonefixo),
                or_none(&checked.celular),
                checked.email,
                checked.situacao,
                or_none(&checked.endereco),
            ),
        ],
        button: None,
    };
    Ok(FollowUp::mail(Mail {
        mail: OutgoingMail::notice(&Branding::of(&station, public_url), to, SUBJECT, &notice),
        station_id: station_id.0,
        user_id: Some(user_id.0),
        about: ("pre_registration_change", id),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::signup::INVALID_PHONE;
    use crate::shared::validate::message;

    #[test]
    fn email_and_situation_are_required() {
        let errors = check(&ChangeRequest::default()).expect_err("empty");
        assert_eq!(errors, [message::REQUIRED]);
    }

    #[test]
    fn every_broken_rule_is_listed() {
        let request = ChangeRequest {
            telefonefixo: Some("123".into()),
            email: Some("sem-arroba".into()),
            situacao: Some("Demitido".into()),
            ..ChangeRequest::default()
        };
        let errors = check(&request).expect_err("invalid");
        assert_eq!(errors, [INVALID_PHONE, message::EMAIL, INVALID_SITUATION]);
    }

    #[test]
    fn a_valid_request_is_trimmed() {
        let request = ChangeRequest {
            celular: Some("(11) 91234-5678".into()),
            email: Some(" Ana@Example.com ".into()),
            situacao: Some("Aposentado".into()),
            endereco: Some("  ".into()),
            ..ChangeRequest::default()
        };
        let checked = check(&request).expect("valid");
        assert_eq!(checked.email, "ana@example.com");
        assert_eq!(checked.situacao, "Aposentado");
        assert_eq!(checked.endereco, None);
    }
}
