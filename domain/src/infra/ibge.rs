//! A state's cities, asked from an IBGE-localidades-like provider
//! (`GET {base}/api/v1/localidades/estados/{UF}/municipios`, `FILIA_IBGE_URL`), the public
//! service's documented shape `[{"id": 3550308, "nome": "São Paulo", ...}]`: the server asks
//! it so the browser calls no third party. A provider that cannot be reached, answers
//! nonsense or answers no city for one of the 27 states is [`CitiesUnavailable`].

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::accounts::signup::STATES;
use crate::infra::config::Config;

/// One city: its name and its IBGE code (`3550308`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct City {
    pub name: String,
    pub ibge: String,
}

#[derive(Debug, thiserror::Error)]
#[error("cities provider unavailable: {0}")]
pub struct CitiesUnavailable(pub String);

/// The state's code as the provider and our lists write it (`SP`), for one of the 27
/// federative units typed in either case; `None` for anything else.
pub fn state_code(uf: &str) -> Option<&'static str> {
    let upper = uf.to_ascii_uppercase();
    STATES.iter().copied().find(|code| *code == upper)
}

/// The provider's client.
#[derive(Debug, Clone)]
pub struct CitiesProvider {
    client: reqwest::Client,
    base_url: String,
}

#[derive(Debug, Deserialize)]
struct Municipio {
    id: serde_json::Value,
    nome: String,
}

impl CitiesProvider {
    /// The form falls back to a typed city when the provider does not answer in time.
    pub fn from_config(config: &Config) -> Self {
        Self {
            client: super::cep::form_lookup_client(),
            base_url: config.ibge_url.clone(),
        }
    }

    /// The cities of `state` (a code [`state_code`] gave), sorted as Brazilians read them.
    pub async fn cities(&self, state: &'static str) -> Result<Vec<City>, CitiesUnavailable> {
        let url = format!(
            "{}/api/v1/localidades/estados/{state}/municipios",
            self.base_url
        );
        let answer = self
            .client
            .get(url)
            .header("accept", "application/json")
            .send()
            .await
            .map_err(|err| CitiesUnavailable(err.without_url().to_string()))?;
        let status = answer.status();
        if !status.is_success() {
            return Err(CitiesUnavailable(format!("HTTP {}", status.as_u16())));
        }
        let body: Vec<Municipio> = answer
            .json()
            .await
            .map_err(|err| CitiesUnavailable(format!("answer: {}", err.without_url())))?;
        read(body)
    }
}

fn read(body: Vec<Municipio>) -> Result<Vec<City>, CitiesUnavailable> {
    let mut cities: Vec<City> = body
        .into_iter()
        .filter_map(|municipio| {
            let ibge = match municipio.id {
                serde_json::Value::Number(id) => id.to_string(),
                serde_json::Value::String(id) => id.trim().to_string(),
                _ => return None,
            };
            let name = municipio.nome.trim().to_string();
            (!name.is_empty() && !ibge.is_empty()).then_some(City { name, ibge })
        })
        .collect();
    // Every state has cities: none is a provider answering nonsense, not worth caching.
    if cities.is_empty() {
        return Err(CitiesUnavailable("no cities".into()));
    }
    cities.sort_by(|a, b| pt_br_order(&a.name, &b.name));
    cities.dedup_by(|a, b| a.ibge == b.ibge);
    Ok(cities)
}

/// Alphabetical order as a Brazilian reads it: accents and case second to the letters
/// (`Águas` beside `Aguaí`, not after `Z`), then the exact text, so the order is total.
pub fn pt_br_order(a: &str, b: &str) -> Ordering {
    folded(a)
        .cmp(&folded(b))
        .then_with(|| a.to_lowercase().cmp(&b.to_lowercase()))
        .then_with(|| a.cmp(b))
}

fn folded(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ã' | 'ä' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'ó' | 'ò' | 'ô' | 'õ' | 'ö' => 'o',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            other => other,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_is_one_of_the_27_in_either_case() {
        assert_eq!(state_code("sp"), Some("SP"));
        assert_eq!(state_code("DF"), Some("DF"));
        for bad in ["", "S", "SPP", "XX", "../", "s p", "Sã"] {
            assert_eq!(state_code(bad), None, "{bad}");
        }
    }

    #[test]
    fn ibge_answers_read_as_cities_in_pt_br_order() {
        let body: Vec<Municipio> = serde_json::from_str(
            r#"[{"id":3550308,"nome":"São Paulo","microrregiao":{"id":35061}},
                {"id":3500105,"nome":"Adamantina"},
                {"id":3500709,"nome":"Águas de Lindóia"},
                {"id":3500600,"nome":"Aguaí"},
                {"id":"3554102","nome":"Tatuí"},
                {"id":3549805,"nome":"São José do Rio Preto"},
                {"id":3549904,"nome":"São José dos Campos"},
                {"id":3500000,"nome":"  "}]"#,
        )
        .expect("json");
        let names: Vec<String> = read(body)
            .expect("cities")
            .into_iter()
            .map(|city| city.name)
            .collect();
        assert_eq!(
            names,
            [
                "Adamantina",
                "Aguaí",
                "Águas de Lindóia",
                "São José do Rio Preto",
                "São José dos Campos",
                "São Paulo",
                "Tatuí"
            ]
        );
        assert!(read(Vec::new()).is_err());
    }
}
