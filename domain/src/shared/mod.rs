//! Value types and validators every area uses: ids and money as types, CPF, CNPJ, money
//! formatting, field validators, secrets, civil time in a station's zone, and the one way a
//! refusal reaches the caller (`failure`).

pub mod cnpj;
pub mod cpf;
pub mod failure;
pub mod ids;
pub mod money;
pub mod secret;
pub mod time;
pub mod validate;

/// The spec's text for a page or call the caller may not see (its 401 page, answered with
/// 403 for a member of the wrong station or a closed feature): one text for every area.
pub const NOT_AUTHORIZED: &str = "Você não possui autorização para acessar esta página.";

/// The spec's text for a member past a per-member limit of calls (or of uploads started),
/// answered with 429: one text for every area.
pub const TOO_MANY_ACTIONS: &str =
    "Muitas ações em pouco tempo. Aguarde alguns minutos e tente novamente.";
