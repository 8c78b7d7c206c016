//! Value types and validators every area uses: CPF, CNPJ, money formatting, field
//! validators, secrets, civil time in a station's zone.

pub mod cnpj;
pub mod cpf;
pub mod money;
pub mod secret;
pub mod time;
pub mod validate;

/// The spec's text for a page or call the caller may not see (its 401 page, answered with
/// 403 for a member of the wrong station or a closed feature): one text for every area.
pub const NOT_AUTHORIZED: &str = "Você não possui autorização para acessar esta página.";
