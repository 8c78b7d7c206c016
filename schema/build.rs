// sqlx::migrate! embeds the migration files; a new file must rebuild this crate too.
fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
