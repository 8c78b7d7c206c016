//! Value types and validators every area uses: CPF, CNPJ, money formatting, field
//! validators, secrets, Brasília time.

pub mod cnpj;
pub mod cpf;
pub mod money;
pub mod secret;
pub mod time;
pub mod validate;
