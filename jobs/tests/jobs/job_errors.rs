//! A failed attempt's detail is logged and kept for staff: a database error is kept by its
//! code and constraint, never by its message or detail, which quote the data.

use jobs::JobError;
use sqlx::PgPool;

#[testkit::db_test]
async fn a_database_error_is_kept_by_code_without_the_data(db: PgPool) {
    sqlx::query("CREATE TABLE people (email text UNIQUE)")
        .execute(&db)
        .await
        .expect("table");
    let insert =
        || sqlx::query("INSERT INTO people (email) VALUES ('maria@example.com')").execute(&db);
    insert().await.expect("first");
    let duplicate = insert().await.expect_err("taken");
    let not_a_number = sqlx::query("SELECT $1::bigint")
        .bind("maria@example.com")
        .execute(&db)
        .await
        .expect_err("not a number");

    let duplicate = JobError::permanent("Falhou.", duplicate);
    assert!(
        duplicate.detail.contains("23505") && duplicate.detail.contains("people_email_key"),
        "{}",
        duplicate.detail
    );
    let not_a_number = JobError::retry("Falhou.", not_a_number);
    assert!(
        not_a_number.detail.contains("22P02"),
        "{}",
        not_a_number.detail
    );
    for error in [duplicate, not_a_number] {
        assert!(!error.detail.contains("maria@"), "{}", error.detail);
    }
}
