//! Submitting an attempt: scored from the stored answers, closed as one participation,
//! and its result read back.

use super::*;

/// Which call submits: the quiz's or the surveys'.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Quiz,
    Survey,
}

impl Form {
    fn accepts(self, kind: ActivityType) -> bool {
        match self {
            Self::Quiz => kind == ActivityType::Quiz,
            Self::Survey => ActivityType::SURVEYS.contains(&kind),
        }
    }
}

/// A submission as the member sends it.
#[derive(Debug, Clone, Default)]
pub struct Submission {
    pub research_id: i64,
    /// The activity the client names; another than the research's is refused.
    pub action_id: Option<i64>,
    /// The attempt being submitted: sent again, the same attempt answers its result.
    pub attempt_id: Option<i64>,
    /// Answers to save before scoring, by question.
    pub answers: Vec<(i64, Given)>,
}

#[derive(Debug, thiserror::Error)]
pub enum NotSubmitted {
    #[error("{}", .0.message())]
    Refused(Refused),
    /// An answer of the submission was not saved.
    #[error("{not}")]
    Answer { question_id: i64, not: NotSaved },
    /// A required question (any question of a quiz) has no answer.
    #[error("{UNANSWERED}")]
    Unanswered,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

participation::through_the_rules!(NotSubmitted);

impl IntoFailure for NotSubmitted {
    fn into_failure(self) -> Failure {
        match self {
            Self::Refused(refused) => refused.into_failure(),
            Self::Answer { not, .. } => not.into_failure(),
            Self::Unanswered => Failure::invalid(UNANSWERED),
            Self::Internal(err) => Failure::Internal(err),
        }
    }
}

/// The stored result of the submitted attempt `attempt_id` of `head`'s research.
pub(super) async fn result_of(
    conn: &mut PgConnection,
    head: &Head,
    attempt_id: i64,
    recorded: bool,
) -> sqlx::Result<Option<ResearchResult>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        participation_id: Option<i64>,
        question_count: i32,
        answered_count: i32,
        correct_count: i32,
        correct_answer_percentage: Option<f64>,
        answer_percentage: f64,
        won: Option<bool>,
        earns: Option<bool>,
        #[sqlx(json)]
        question_results: Vec<QuestionResult>,
        feedback: Option<String>,
        feedback_lottie_id: Option<i64>,
    }
    let row: Option<Row> = sqlx::query_as(
        "SELECT t.participation_id, t.question_count, t.answered_count, t.correct_count,
                t.correct_answer_percentage, t.answer_percentage, t.won, p.earns,
                t.question_results, f.feedback, f.feedback_lottie_id
           FROM research_attempts t
           LEFT JOIN participations p ON p.id = t.participation_id
           LEFT JOIN quiz_feedbacks f ON f.id = t.quiz_feedback_id
          WHERE t.id = $1 AND t.submitted_at IS NOT NULL",
    )
    .bind(attempt_id)
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|row| ResearchResult {
        recorded,
        attempt_id,
        participation_id: row.participation_id,
        action_id: head.action_id.0,
        research_id: head.id,
        question_count: row.question_count,
        answered_count: row.answered_count,
        correct_count: row.correct_count,
        correct_answer_percentage: row.correct_answer_percentage,
        answer_percentage: row.answer_percentage,
        won: row.won,
        earned: row.earns.unwrap_or(false) && head.points + head.additional_cashback > 0,
        points: head.points,
        cashback: i64::from(head.points) + i64::from(head.additional_cashback),
        job_id: None,
        feedback: row.feedback.map(|feedback| QuizFeedback {
            feedback,
            feedback_lottie_id: row.feedback_lottie_id,
        }),
        questions: row.question_results,
    }))
}

/// Submits the member's attempt (`POST /answer-quiz` for a quiz, `POST /answer` for a
/// survey): saves the answers sent with it, scores the stored answers and records the
/// attempt as one participation through the rules, on the caller's transaction (rolled
/// back on a refusal); a lost quiz is recorded without reward. The member's lock is taken
/// first, so an attempt sent again (a retry, a double click, two at once) finds the first
/// submission and answers its result with `recorded: false`.
pub async fn submit(
    conn: &mut PgConnection,
    user_id: UserId,
    station_id: StationId,
    form: Form,
    submission: &Submission,
    now: DateTime<Utc>,
) -> Result<ResearchResult, NotSubmitted> {
    let unavailable = Err(NotSubmitted::Refused(Refused::Unavailable));
    participation::lock_member(&mut *conn, user_id).await?;
    let Some(head) = head(&mut *conn, station_id, submission.research_id).await? else {
        return unavailable;
    };
    if !form.accepts(head.type_id)
        || submission
            .action_id
            .is_some_and(|action_id| action_id != head.action_id.0)
    {
        return unavailable;
    }
    if let Some(attempt_id) = submission.attempt_id {
        let submitted: Option<bool> = sqlx::query_scalar(
            "SELECT submitted_at IS NOT NULL FROM research_attempts
              WHERE id = $1 AND user_id = $2 AND research_id = $3",
        )
        .bind(attempt_id)
        .bind(user_id)
        .bind(head.id)
        .fetch_optional(&mut *conn)
        .await?;
        match submitted {
            None => return unavailable,
            Some(true) => {
                return Ok(result_of(conn, &head, attempt_id, false)
                    .await?
                    .expect("a submitted attempt has a result"));
            }
            Some(false) => {}
        }
    }
    let admitted = participation::admit(
        &mut *conn,
        user_id,
        station_id,
        head.action_id,
        &[head.type_id],
        now,
    )
    .await?;
    let keyed = questions(&mut *conn, head.id).await?;
    for (question_id, given) in &submission.answers {
        let not = |not| NotSubmitted::Answer {
            question_id: *question_id,
            not,
        };
        let Some(question) = keyed.iter().find(|question| question.id == *question_id) else {
            return Err(not(NotSaved::UnknownQuestion));
        };
        match save_checked(&mut *conn, &head, question, user_id, station_id, given).await {
            Ok(_) | Err(NotSaved::AlreadyRight) => {}
            Err(NotSaved::Internal(err)) => return Err(NotSubmitted::Internal(err)),
            Err(other) => return Err(not(other)),
        }
    }
    let Some(attempt_id) = open_attempt_id(&mut *conn, head.id, user_id).await? else {
        return Err(NotSubmitted::Unanswered);
    };
    let answers = stored_answers(&mut *conn, attempt_id).await?;
    let score = score(head.type_id, &keyed, &answers);
    if !score.complete {
        return Err(NotSubmitted::Unanswered);
    }
    let ranges: Vec<(i64, i16, i16)> = sqlx::query_as(
        "SELECT id, range_from, range_to FROM quiz_feedbacks WHERE research_id = $1
          ORDER BY range_from, id",
    )
    .bind(head.id)
    .fetch_all(&mut *conn)
    .await?;
    let feedback = feedback_of(head.type_id, &keyed, &score, &ranges);
    let admitted: Admitted = if score.won == Some(false) {
        admitted.without_reward()
    } else {
        admitted
    };
    let participation_id = participation::record(&mut *conn, admitted).await?;
    sqlx::query(
        "UPDATE research_attempts
            SET submitted_at = $2, participation_id = $3, question_count = $4,
                answered_count = $5, correct_count = $6, correct_answer_percentage = $7,
                answer_percentage = $8, won = $9, quiz_feedback_id = $10,
                question_results = $11
          WHERE id = $1",
    )
    .bind(attempt_id)
    .bind(now)
    .bind(participation_id)
    .bind(score.question_count)
    .bind(score.answered_count)
    .bind(score.correct_count)
    .bind(score.correct_answer_percentage)
    .bind(score.answer_percentage)
    .bind(score.won)
    .bind(feedback)
    .bind(sqlx::types::Json(&score.questions))
    .execute(&mut *conn)
    .await?;
    Ok(result_of(conn, &head, attempt_id, true)
        .await?
        .expect("the attempt was just submitted"))
}
