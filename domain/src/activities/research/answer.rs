//! Answering a question: checked against its type, saved in the member's open attempt
//! (one row per question, a file answer stored first), judged at once for a quiz.

use super::*;

/// An answer as the member gives it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Given {
    pub options: Vec<i64>,
    pub text: Option<String>,
    pub other: Option<String>,
}

/// Why an answer was not saved.
#[derive(Debug, thiserror::Error)]
pub enum NotSaved {
    #[error("{}", .0.message())]
    Refused(Refused),
    /// Not a question of the research.
    #[error("{}", participation::UNAVAILABLE)]
    UnknownQuestion,
    /// A field error, with its text.
    #[error("{0}")]
    Invalid(&'static str),
    /// A quiz question already answered right.
    #[error("{ALREADY_RIGHT}")]
    AlreadyRight,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

participation::through_the_rules!(NotSaved);

/// An unknown question reads as an unknown research (404); a quiz question answered right
/// is locked (409).
impl IntoFailure for NotSaved {
    fn into_failure(self) -> Failure {
        match self {
            Self::Refused(refused) => refused.into_failure(),
            Self::UnknownQuestion => Failure::NotFound(self.to_string()),
            Self::AlreadyRight => Failure::Conflict(self.to_string()),
            Self::Invalid(text) => Failure::invalid(text),
            Self::Internal(err) => Failure::Internal(err),
        }
    }
}

/// `given` checked against `question`: blanks trimmed away, options deduplicated.
pub(super) fn validate(question: &KeyedQuestion, given: &Given) -> Result<Given, &'static str> {
    let kind = question.kind();
    if kind.takes_file() {
        return Err(FILE_NEEDED);
    }
    let filled = |text: &Option<String>| {
        text.as_deref()
            .map(str::trim)
            .filter(|text| !text.is_empty())
            .map(str::to_owned)
    };
    let text = filled(&given.text);
    let other = filled(&given.other);
    for text in [&text, &other].into_iter().flatten() {
        if text.chars().count() > MAX_TEXT {
            return Err(TEXT_TOO_LONG);
        }
    }
    if kind == QuestionType::Text {
        return match text {
            Some(text) => Ok(Given {
                text: Some(text),
                ..Given::default()
            }),
            None => Err(crate::shared::validate::message::REQUIRED),
        };
    }
    let mut options = Vec::new();
    for id in &given.options {
        if !question.options.iter().any(|option| option.id == *id) {
            return Err(INVALID_OPTION);
        }
        if !options.contains(id) {
            options.push(*id);
        }
    }
    let other = other.filter(|_| kind.takes_other());
    if kind.single() && options.len() + usize::from(other.is_some()) > 1 {
        return Err(ONE_OPTION);
    }
    if kind.required() && options.is_empty() && other.is_none() {
        return Err(crate::shared::validate::message::REQUIRED);
    }
    Ok(Given {
        options,
        text: None,
        other,
    })
}

/// Opens the member's attempt at the research if none is open.
pub(super) async fn ensure_attempt(
    conn: &mut PgConnection,
    head: &Head,
    user_id: UserId,
    station_id: StationId,
) -> sqlx::Result<i64> {
    if let Some(id) = open_attempt_id(&mut *conn, head.id, user_id).await? {
        return Ok(id);
    }
    sqlx::query_scalar(
        "INSERT INTO research_attempts (research_id, user_id, station_id, author)
         VALUES ($1, $2, $3, $4) RETURNING id",
    )
    .bind(head.id)
    .bind(user_id)
    .bind(station_id)
    .bind(head.author())
    .fetch_one(conn)
    .await
}

pub(super) async fn stored_answer(
    conn: &mut PgConnection,
    attempt_id: i64,
    question_id: i64,
) -> sqlx::Result<Option<Stored>> {
    sqlx::query_as(concat!(
        "SELECT ",
        stored_columns!(),
        " FROM research_answers WHERE attempt_id = $1 AND question_id = $2"
    ))
    .bind(attempt_id)
    .bind(question_id)
    .fetch_optional(conn)
    .await
}

/// Saves `given` for `question` in the open attempt, judged when the research is a quiz.
/// The member's lock is held (by `admit`).
pub(super) async fn save_checked(
    conn: &mut PgConnection,
    head: &Head,
    question: &KeyedQuestion,
    user_id: UserId,
    station_id: StationId,
    given: &Given,
) -> Result<AnswerState, NotSaved> {
    let given = validate(question, given).map_err(NotSaved::Invalid)?;
    let attempt_id = ensure_attempt(&mut *conn, head, user_id, station_id).await?;
    let earlier = stored_answer(&mut *conn, attempt_id, question.id)
        .await?
        .unwrap_or_default();
    let verdict = if head.is_quiz() {
        if earlier.correct == Some(true) {
            return Err(NotSaved::AlreadyRight);
        }
        // An empty choice is no try: it must not spend the first one.
        if given.options.is_empty() && given.other.is_none() {
            return Err(NotSaved::Invalid(
                crate::shared::validate::message::REQUIRED,
            ));
        }
        question.judge(&given.options)
    } else {
        None
    };
    // Only a single choice's wrong option is surely wrong; a wrong set may hold right ones.
    let mut tried = earlier.tried.clone();
    if verdict == Some(false) && question.kind().single() {
        tried.extend(
            given
                .options
                .iter()
                .filter(|id| !earlier.tried.contains(id)),
        );
    }
    let stored: Stored = sqlx::query_as(concat!(
        "INSERT INTO research_answers (attempt_id, question_id, option_ids, text, other,
                                       tried, first_try_correct, correct)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
         ON CONFLICT (attempt_id, question_id) DO UPDATE
            SET option_ids = EXCLUDED.option_ids, text = EXCLUDED.text,
                other = EXCLUDED.other, file_key = NULL, file_name = NULL,
                tried = EXCLUDED.tried,
                first_try_correct = coalesce(research_answers.first_try_correct,
                                             EXCLUDED.first_try_correct),
                correct = EXCLUDED.correct, updated_at = now()
         RETURNING ",
        stored_columns!()
    ))
    .bind(attempt_id)
    .bind(question.id)
    .bind(&given.options)
    .bind(&given.text)
    .bind(&given.other)
    .bind(&tried)
    .bind(verdict)
    .fetch_one(&mut *conn)
    .await?;
    Ok(state_of(head, question, attempt_id, &stored))
}

/// The research and question a save is for, through the participation rules (which take
/// the member's lock).
pub(super) async fn admitted_question(
    conn: &mut PgConnection,
    user_id: UserId,
    station_id: StationId,
    research_id: i64,
    question_id: i64,
    now: DateTime<Utc>,
) -> Result<(Head, KeyedQuestion), NotSaved> {
    let Some(head) = head(&mut *conn, station_id, research_id).await? else {
        return Err(NotSaved::Refused(Refused::Unavailable));
    };
    participation::admit(
        &mut *conn,
        user_id,
        station_id,
        head.action_id,
        &[head.type_id],
        now,
    )
    .await?;
    let question = questions(&mut *conn, research_id)
        .await?
        .into_iter()
        .find(|question| question.id == question_id);
    match question {
        Some(question) => Ok((head, question)),
        None => Err(NotSaved::UnknownQuestion),
    }
}

/// Saves the member's answer to one question (`PUT /research/{id}/answers/{questionId}`),
/// opening an attempt through the participation rules; a quiz answer comes back judged.
/// On the caller's transaction, rolled back on a refusal.
pub async fn save_answer(
    conn: &mut PgConnection,
    user_id: UserId,
    station_id: StationId,
    research_id: i64,
    question_id: i64,
    given: &Given,
    now: DateTime<Utc>,
) -> Result<AnswerState, NotSaved> {
    let (head, question) = admitted_question(
        &mut *conn,
        user_id,
        station_id,
        research_id,
        question_id,
        now,
    )
    .await?;
    save_checked(conn, &head, &question, user_id, station_id, given).await
}

/// [`admitted_question`] for a video or file answer: another question takes no file.
pub(super) async fn admitted_file_question(
    conn: &mut PgConnection,
    user_id: UserId,
    station_id: StationId,
    research_id: i64,
    question_id: i64,
    now: DateTime<Utc>,
) -> Result<(Head, KeyedQuestion), NotSaved> {
    let (head, question) =
        admitted_question(conn, user_id, station_id, research_id, question_id, now).await?;
    if question.kind().takes_file() {
        Ok((head, question))
    } else {
        Err(NotSaved::Invalid(NOT_A_FILE_QUESTION))
    }
}

/// The video or file question a member may answer now, checked through the participation
/// rules before an upload is stored (on a transaction the caller rolls back: it only
/// checks; `save_file` checks again when saving).
pub async fn file_question(
    conn: &mut PgConnection,
    user_id: UserId,
    station_id: StationId,
    research_id: i64,
    question_id: i64,
    now: DateTime<Utc>,
) -> Result<QuestionType, NotSaved> {
    let (_, question) =
        admitted_file_question(conn, user_id, station_id, research_id, question_id, now).await?;
    Ok(question.kind())
}

/// A video or file answer, already checked by content and stored under `file_key`.
#[derive(Debug)]
pub struct GivenFile {
    pub key: String,
    pub name: String,
}

/// Saves a video or file answer (question types 6 and 7) in the open attempt. Answers the
/// key of the file it replaced, for the caller to delete once committed.
pub async fn save_file(
    conn: &mut PgConnection,
    user_id: UserId,
    station_id: StationId,
    research_id: i64,
    question_id: i64,
    file: &GivenFile,
    now: DateTime<Utc>,
) -> Result<(AnswerState, Option<String>), NotSaved> {
    let (head, question) = admitted_file_question(
        &mut *conn,
        user_id,
        station_id,
        research_id,
        question_id,
        now,
    )
    .await?;
    let attempt_id = ensure_attempt(&mut *conn, &head, user_id, station_id).await?;
    Ok(record_file(conn, &head, &question, attempt_id, file).await?)
}

/// Saves as a file answer (question type 7) an upload the member made before
/// (`files/actions` or `upload-image-to-s3`, by its `path` or `url`), attaching it on the
/// same transaction. Answers the key of the file it replaced, for the caller to delete once
/// committed.
pub async fn save_uploaded_file(
    conn: &mut PgConnection,
    user_id: UserId,
    station_id: StationId,
    research_id: i64,
    question_id: i64,
    reference: &str,
    now: DateTime<Utc>,
) -> Result<(AnswerState, Option<String>), NotSaved> {
    let (head, question) = admitted_file_question(
        &mut *conn,
        user_id,
        station_id,
        research_id,
        question_id,
        now,
    )
    .await?;
    // Uploads are documents and images: a file question's answers, never a video one's.
    if question.kind() != QuestionType::File {
        return Err(NotSaved::Invalid(FILE_INVALID));
    }
    let attempt_id = ensure_attempt(&mut *conn, &head, user_id, station_id).await?;
    let answer = format!("research_answers({attempt_id},{question_id})");
    let attached =
        match crate::feed::uploads::attach(&mut *conn, station_id, user_id, reference, &answer)
            .await?
        {
            Ok(attached) => attached,
            Err(not) => return Err(NotSaved::Invalid(not.message())),
        };
    let file = GivenFile {
        key: attached.key,
        name: attached.name,
    };
    Ok(record_file(conn, &head, &question, attempt_id, &file).await?)
}

/// Writes `file` as the attempt's answer to `question`; answers the key it replaced (never
/// the same key given again), whose upload, if it was one, is no longer attached.
pub(super) async fn record_file(
    conn: &mut PgConnection,
    head: &Head,
    question: &KeyedQuestion,
    attempt_id: i64,
    file: &GivenFile,
) -> sqlx::Result<(AnswerState, Option<String>)> {
    let replaced: Option<String> = sqlx::query_scalar(
        "SELECT file_key FROM research_answers WHERE attempt_id = $1 AND question_id = $2",
    )
    .bind(attempt_id)
    .bind(question.id)
    .fetch_optional(&mut *conn)
    .await?
    .flatten()
    .filter(|old| *old != file.key);
    let stored: Stored = sqlx::query_as(concat!(
        "INSERT INTO research_answers (attempt_id, question_id, file_key, file_name)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (attempt_id, question_id) DO UPDATE
            SET file_key = EXCLUDED.file_key, file_name = EXCLUDED.file_name,
                updated_at = now()
         RETURNING ",
        stored_columns!()
    ))
    .bind(attempt_id)
    .bind(question.id)
    .bind(&file.key)
    .bind(&file.name)
    .fetch_one(&mut *conn)
    .await?;
    if let Some(old) = &replaced {
        crate::feed::uploads::detach(&mut *conn, old).await?;
    }
    Ok((state_of(head, question, attempt_id, &stored), replaced))
}
