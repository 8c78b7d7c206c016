//! Value types and validators every area uses: ids and money as types, CPF, CNPJ, money
//! formatting, field validators, secrets, civil time in a station's zone, lists read a page
//! at a time (`paging`), and the one way a refusal reaches the caller (`failure`).

pub mod cnpj;
pub mod cpf;
pub mod failure;
pub mod ids;
pub mod money;
pub mod paging;
pub mod secret;
pub mod time;
pub mod validate;

/// A state stored as a TEXT column with its `CHECK (x IN (...))`: an enum read and written by
/// sqlx and serde as the snake_case word, with `as_str` for the word itself.
macro_rules! text_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, sqlx::Type)]
        #[serde(rename_all = "snake_case")]
        #[sqlx(type_name = "text", rename_all = "snake_case")]
        pub enum $name {
            $($(#[$vdoc])* $variant),+
        }

        impl $name {
            /// The column's word.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $text),+
                }
            }
        }
    };
}
pub(crate) use text_enum;

/// The spec's text for a page or call the caller may not see (its 401 page, answered with
/// 403 for a member of the wrong station or a closed feature): one text for every area.
pub const NOT_AUTHORIZED: &str = "Você não possui autorização para acessar esta página.";

/// The spec's text for a member past a per-member limit of calls (or of uploads started),
/// answered with 429: one text for every area.
pub const TOO_MANY_ACTIONS: &str =
    "Muitas ações em pouco tempo. Aguarde alguns minutos e tente novamente.";
