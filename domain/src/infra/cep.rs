//! The address of a CEP, asked from a ViaCEP-like provider (`GET {base}/{8 digits}/json/`,
//! `FILIA_CEP_URL`): the server looks it up so the browser calls no third party. What the
//! provider answers is read into [`CepAnswer`]; an unknown CEP is an answer (ViaCEP's
//! `{"erro": true}`), a provider that cannot be reached or answers nonsense is
//! [`CepUnavailable`].

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::infra::config::Config;

/// A CEP's address, in the spec's words (`cep, street, neighborhood, city, state` and more).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CepAddress {
    /// `01310-100`.
    pub cep: String,
    pub street: String,
    pub complement: String,
    pub neighborhood: String,
    pub city: String,
    /// The state's two letters (`SP`).
    pub state: String,
    /// The city's IBGE code, when the provider gives it.
    pub ibge: String,
}

/// What the provider says of a CEP.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CepAnswer {
    Found(CepAddress),
    /// No such CEP.
    Unknown,
}

#[derive(Debug, thiserror::Error)]
#[error("CEP provider unavailable: {0}")]
pub struct CepUnavailable(pub String);

/// The eight digits of a CEP typed with or without its mask (`01.310-100`, `01310-100`,
/// `01310100`); `None` for anything else.
pub fn digits(cep: &str) -> Option<String> {
    let cep = cep.trim();
    if !cep
        .chars()
        .all(|c| c.is_ascii_digit() || c == '.' || c == '-')
    {
        return None;
    }
    let digits: String = cep.chars().filter(char::is_ascii_digit).collect();
    (digits.len() == 8).then_some(digits)
}

/// The provider's client.
#[derive(Debug, Clone)]
pub struct CepProvider {
    client: reqwest::Client,
    base_url: String,
}

#[derive(Debug, Deserialize)]
struct ViaCep {
    #[serde(default)]
    cep: Option<String>,
    #[serde(default)]
    logradouro: Option<String>,
    #[serde(default)]
    complemento: Option<String>,
    #[serde(default)]
    bairro: Option<String>,
    #[serde(default)]
    localidade: Option<String>,
    #[serde(default)]
    uf: Option<String>,
    #[serde(default)]
    ibge: Option<String>,
    /// `true` (older answers: `"true"`) for a CEP that does not exist.
    #[serde(default)]
    erro: Option<serde_json::Value>,
}

/// The client of a lookup a form waits on (a CEP's address, a state's cities): a provider
/// call waits at most 5 seconds.
pub(crate) fn form_lookup_client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .connect_timeout(Duration::from_secs(5))
        .build()
        .unwrap_or_default()
}

impl CepProvider {
    pub fn from_config(config: &Config) -> Self {
        Self {
            client: form_lookup_client(),
            base_url: config.cep_url.clone(),
        }
    }

    /// Asks the provider about the CEP of `digits` (eight digits, see [`digits`]).
    pub async fn lookup(&self, digits: &str) -> Result<CepAnswer, CepUnavailable> {
        let url = format!("{}/{digits}/json/", self.base_url);
        let answer = self
            .client
            .get(url)
            .header("accept", "application/json")
            .send()
            .await
            .map_err(|err| CepUnavailable(err.without_url().to_string()))?;
        let status = answer.status();
        // ViaCEP answers 400 for a CEP it cannot read; ours are eight digits, so a 400 or a
        // 404 says it does not know it.
        if status == reqwest::StatusCode::BAD_REQUEST || status == reqwest::StatusCode::NOT_FOUND {
            return Ok(CepAnswer::Unknown);
        }
        if !status.is_success() {
            return Err(CepUnavailable(format!("HTTP {}", status.as_u16())));
        }
        let body: ViaCep = answer
            .json()
            .await
            .map_err(|err| CepUnavailable(format!("answer: {}", err.without_url())))?;
        Ok(read(body, digits))
    }
}

fn read(body: ViaCep, digits: &str) -> CepAnswer {
    let unknown = match &body.erro {
        Some(serde_json::Value::Bool(erro)) => *erro,
        Some(serde_json::Value::String(erro)) => erro == "true",
        _ => false,
    };
    let text = |value: Option<String>| value.unwrap_or_default().trim().to_string();
    let city = text(body.localidade);
    if unknown || city.is_empty() {
        return CepAnswer::Unknown;
    }
    CepAnswer::Found(CepAddress {
        cep: body
            .cep
            .filter(|cep| !cep.trim().is_empty())
            .unwrap_or_else(|| format!("{}-{}", &digits[..5], &digits[5..])),
        street: text(body.logradouro),
        complement: text(body.complemento),
        neighborhood: text(body.bairro),
        city,
        state: text(body.uf).to_ascii_uppercase(),
        ibge: text(body.ibge),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cep_is_eight_digits_with_or_without_its_mask() {
        for cep in ["01310100", "01310-100", "01.310-100", " 01310100 "] {
            assert_eq!(digits(cep).as_deref(), Some("01310100"), "{cep}");
        }
        for cep in [
            "",
            "0131010",
            "013101000",
            "01310a10",
            "01310 100",
            "../../x",
        ] {
            assert_eq!(digits(cep), None, "{cep}");
        }
    }

    #[test]
    fn viacep_answers_read_as_ours() {
        let found: ViaCep = serde_json::from_str(
            r#"{"cep":"01310-100","logradouro":"Avenida Paulista","complemento":"de 612 a 1510 - lado par","bairro":"Bela Vista","localidade":"São Paulo","uf":"SP","ibge":"3550308"}"#,
        )
        .expect("json");
        let CepAnswer::Found(address) = read(found, "01310100") else {
            panic!("found");
        };
        assert_eq!(
            (
                address.street.as_str(),
                address.city.as_str(),
                address.state.as_str()
            ),
            ("Avenida Paulista", "São Paulo", "SP")
        );
        for unknown in [r#"{"erro": true}"#, r#"{"erro": "true"}"#, "{}"] {
            let body: ViaCep = serde_json::from_str(unknown).expect("json");
            assert_eq!(read(body, "99999999"), CepAnswer::Unknown, "{unknown}");
        }
    }
}
