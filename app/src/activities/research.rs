//! Quiz and survey answers, saved one by one before the attempt is submitted (the
//! submission records the participation: `participation::submit_research`). File answers
//! are stored in the object store outside the transaction; a file nobody's answer keeps is
//! deleted.

use chrono::{DateTime, Utc};
use sqlx::PgPool;

use domain::activities::research::{self, AnswerState, Given, GivenFile, NotSaved, QuestionType};
use domain::infra::objects::Objects;
use domain::shared::ids::{StationId, UserId};

/// The member answering and the question answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answering {
    pub user_id: UserId,
    pub station_id: StationId,
    pub research_id: i64,
    pub question_id: i64,
}

/// Saves (and for a quiz, judges) the member's answer to a question.
pub async fn save_answer(
    db: &PgPool,
    answering: Answering,
    given: &Given,
    now: DateTime<Utc>,
) -> Result<AnswerState, NotSaved> {
    let mut tx = db.begin().await?;
    let saved = research::save_answer(
        &mut tx,
        answering.user_id,
        answering.station_id,
        answering.research_id,
        answering.question_id,
        given,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(saved)
}

/// The kind of a file question the member may answer now, checked before a file is read,
/// so a member who may not answer stores nothing. Changes nothing.
pub async fn file_question(
    db: &PgPool,
    answering: Answering,
    now: DateTime<Utc>,
) -> Result<QuestionType, NotSaved> {
    let mut check = db.begin().await?;
    let found = research::file_question(
        &mut check,
        answering.user_id,
        answering.station_id,
        answering.research_id,
        answering.question_id,
        now,
    )
    .await?;
    check.rollback().await?;
    Ok(found)
}

/// A file sent as the member's answer: stored privately, then saved as the answer; the
/// stored file is deleted when the answer is refused, and the one it replaces once saved.
#[derive(Debug)]
pub struct FileSent {
    pub bytes: Vec<u8>,
    pub name: String,
    /// The extension its content shows (`pdf`, `mp4` ...).
    pub extension: &'static str,
}

pub async fn save_file(
    db: &PgPool,
    objects: &Objects,
    answering: Answering,
    sent: FileSent,
    now: DateTime<Utc>,
) -> Result<AnswerState, NotSaved> {
    let key = Objects::new_private_key("research-answers", sent.extension);
    objects.put(&key, sent.bytes).await?;
    let mut tx = db.begin().await?;
    let file = GivenFile {
        key: key.clone(),
        name: sent.name,
    };
    let saved = research::save_file(
        &mut tx,
        answering.user_id,
        answering.station_id,
        answering.research_id,
        answering.question_id,
        &file,
        now,
    )
    .await;
    let (answer, replaced) = match saved {
        Ok(saved) => saved,
        Err(not) => {
            drop(tx);
            delete_quietly(objects, &key).await;
            return Err(not);
        }
    };
    tx.commit().await?;
    if let Some(replaced) = replaced {
        delete_quietly(objects, &replaced).await;
    }
    Ok(answer)
}

/// The member's own upload made before (`reference`) becomes the answer; a file it
/// replaces is deleted.
pub async fn save_uploaded_file(
    db: &PgPool,
    objects: &Objects,
    answering: Answering,
    reference: &str,
    now: DateTime<Utc>,
) -> Result<AnswerState, NotSaved> {
    let mut tx = db.begin().await?;
    let (answer, replaced) = research::save_uploaded_file(
        &mut tx,
        answering.user_id,
        answering.station_id,
        answering.research_id,
        answering.question_id,
        reference,
        now,
    )
    .await?;
    tx.commit().await?;
    if let Some(replaced) = replaced {
        delete_quietly(objects, &replaced).await;
    }
    Ok(answer)
}

/// An orphaned file costs storage, not correctness: a failed delete is logged.
async fn delete_quietly(objects: &Objects, key: &str) {
    if let Err(err) = objects.delete(key).await {
        tracing::warn!(error = %err, key, "research answer file not deleted");
    }
}
