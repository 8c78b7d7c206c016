//! The accounts' jobs: the member card's PDF. (Their e-mails go through `infra::mail_send`.)

pub mod member_card_pdf;
