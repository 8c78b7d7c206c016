//! Value types and validators every area uses: CPF, CNPJ, field validators, secrets,
//! Brasília time.

pub mod cnpj;
pub mod cpf;
pub mod secret;
pub mod time;
pub mod validate;
