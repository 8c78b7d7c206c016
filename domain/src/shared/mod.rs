//! Value types and validators every area uses: CPF, CNPJ, field validators, secrets.

pub mod cnpj;
pub mod cpf;
pub mod secret;
pub mod validate;
