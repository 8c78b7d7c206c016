//! Value types and validators every area uses: CPF, CNPJ, money formatting, field
//! validators, secrets, hexadecimal, Brasília time.

pub mod cnpj;
pub mod cpf;
pub mod hex;
pub mod money;
pub mod secret;
pub mod time;
pub mod validate;
