//! Value types and validators every area uses: CPF, CNPJ, money formatting, field
//! validators, secrets.

pub mod cnpj;
pub mod cpf;
pub mod money;
pub mod secret;
pub mod validate;
