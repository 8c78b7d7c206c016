//! Writing researches: the console, the demo seed and tests create them here.

use super::*;

#[derive(Debug, Clone, Default)]
pub struct NewOption {
    pub label: String,
    pub correct: bool,
    /// The index of the research's feedback it points to (personality tests).
    pub feedback: Option<usize>,
}

#[derive(Debug, Clone, Default)]
pub struct NewQuestion {
    pub question: String,
    pub type_id: i16,
    pub options: Vec<NewOption>,
    pub message_for_correct: Option<String>,
    pub message_for_incorrect: Option<String>,
    pub explanation: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct NewFeedback {
    pub range_from: i16,
    pub range_to: i16,
    pub feedback: String,
    pub feedback_lottie_id: Option<i64>,
}

#[derive(Debug, Clone, Default)]
pub struct NewResearch {
    pub action_id: i64,
    pub name: String,
    pub synopsis: String,
    pub questions: Vec<NewQuestion>,
    pub feedbacks: Vec<NewFeedback>,
}

/// Writes `research` with its questions, options and feedbacks (HTML sanitised); answers
/// its id.
pub async fn create(conn: &mut PgConnection, research: &NewResearch) -> sqlx::Result<i64> {
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO researches (action_id, name, synopsis) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(research.action_id)
    .bind(&research.name)
    .bind(&research.synopsis)
    .fetch_one(&mut *conn)
    .await?;
    let mut feedback_ids = Vec::with_capacity(research.feedbacks.len());
    for feedback in &research.feedbacks {
        let feedback_id: i64 = sqlx::query_scalar(
            "INSERT INTO quiz_feedbacks (research_id, range_from, range_to, feedback,
                                         feedback_lottie_id)
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(id)
        .bind(feedback.range_from)
        .bind(feedback.range_to)
        .bind(crate::activities::catalogue::sanitise_html(
            &feedback.feedback,
        ))
        .bind(feedback.feedback_lottie_id)
        .fetch_one(&mut *conn)
        .await?;
        feedback_ids.push(feedback_id);
    }
    for (position, question) in research.questions.iter().enumerate() {
        let question_id: i64 = sqlx::query_scalar(
            "INSERT INTO research_questions (research_id, position, question, type_id,
                                             message_for_correct, message_for_incorrect,
                                             explanation)
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(id)
        .bind(position as i32)
        .bind(&question.question)
        .bind(question.type_id)
        .bind(&question.message_for_correct)
        .bind(&question.message_for_incorrect)
        .bind(&question.explanation)
        .fetch_one(&mut *conn)
        .await?;
        for (position, option) in question.options.iter().enumerate() {
            sqlx::query(
                "INSERT INTO research_options (question_id, position, label, correct,
                                               quiz_feedback_id)
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(question_id)
            .bind(position as i32)
            .bind(&option.label)
            .bind(option.correct)
            .bind(
                option
                    .feedback
                    .and_then(|index| feedback_ids.get(index).copied()),
            )
            .execute(&mut *conn)
            .await?;
        }
    }
    Ok(id)
}
