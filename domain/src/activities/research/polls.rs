//! What members read of others' answers (a poll's counts) and the quiz list.

use super::*;

/// How many members chose an option.
#[derive(Debug, Clone)]
pub struct OptionCount {
    pub id: i64,
    pub label: String,
    pub count: i64,
}

/// A poll's question and its options' counts.
#[derive(Debug, Clone)]
pub struct QuestionCounts {
    pub id: i64,
    pub question: String,
    pub options: Vec<OptionCount>,
}

/// A poll's results (type 10): how many members chose each option, each member's latest
/// submission counting (a vote sent again replaces the earlier one).
#[derive(Debug, Clone)]
pub struct PollResults {
    pub research_id: i64,
    /// Members who voted.
    pub respondents: i64,
    pub questions: Vec<QuestionCounts>,
}

#[derive(Debug, thiserror::Error)]
pub enum NoResults {
    /// Unknown, another station's, unpublished or not a poll with a chart.
    #[error("{}", participation::UNAVAILABLE)]
    Unavailable,
    /// The member has not answered it yet.
    #[error("{RESULTS_LOCKED}")]
    NotAnswered,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for NoResults {
    fn from(err: sqlx::Error) -> Self {
        Self::Internal(err.into())
    }
}

/// The results are the answering members' (403 before the member answers).
impl IntoFailure for NoResults {
    fn into_failure(self) -> Failure {
        match self {
            Self::Unavailable => Failure::NotFound(self.to_string()),
            Self::NotAnswered => Failure::Forbidden(self.to_string()),
            Self::Internal(err) => Failure::Internal(err),
        }
    }
}

/// A poll's results (type 10), once the member has submitted an attempt at it.
pub async fn poll_results(
    conn: &mut PgConnection,
    user_id: UserId,
    station_id: StationId,
    research_id: i64,
) -> Result<PollResults, NoResults> {
    let head = head(&mut *conn, station_id, research_id).await?;
    if head.is_none_or(|head| head.type_id != ActivityType::ChartPoll) {
        return Err(NoResults::Unavailable);
    }
    let answered: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM research_attempts
                         WHERE research_id = $1 AND user_id = $2 AND submitted_at IS NOT NULL)",
    )
    .bind(research_id)
    .bind(user_id)
    .fetch_one(&mut *conn)
    .await?;
    if !answered {
        return Err(NoResults::NotAnswered);
    }
    let respondents: i64 = sqlx::query_scalar(
        "SELECT count(DISTINCT user_id) FROM research_attempts
          WHERE research_id = $1 AND submitted_at IS NOT NULL",
    )
    .bind(research_id)
    .fetch_one(&mut *conn)
    .await?;
    let rows: Vec<(i64, String, i64, String, i64)> = sqlx::query_as(
        "WITH votes AS (SELECT DISTINCT ON (user_id) id FROM research_attempts
                         WHERE research_id = $1 AND submitted_at IS NOT NULL
                         ORDER BY user_id, id DESC)
         SELECT q.id, q.question, o.id, o.label,
                (SELECT count(*) FROM research_answers a
                   JOIN votes v ON v.id = a.attempt_id
                  WHERE a.question_id = q.id AND o.id = ANY (a.option_ids))
           FROM research_questions q
           JOIN research_options o ON o.question_id = q.id
          WHERE q.research_id = $1
          ORDER BY q.position, q.id, o.position, o.id",
    )
    .bind(research_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut questions: Vec<QuestionCounts> = Vec::new();
    for (question_id, question, id, label, count) in rows {
        if questions.last().is_none_or(|last| last.id != question_id) {
            questions.push(QuestionCounts {
                id: question_id,
                question,
                options: Vec::new(),
            });
        }
        if let Some(last) = questions.last_mut() {
            last.options.push(OptionCount { id, label, count });
        }
    }
    Ok(PollResults {
        research_id,
        respondents,
        questions,
    })
}

/// A quiz in the quiz list (`/homepage/quizzes`).
#[derive(Debug, Clone)]
pub struct QuizCard {
    pub card: ActivityCard,
    pub research_id: i64,
    /// Sanitised HTML.
    pub description: String,
    /// When it closes: `participationEnd`.
    pub expiration: Option<DateTime<Utc>>,
    pub question_count: i64,
}

/// The published quizzes (type 6) of `station_id` as `user_id` sees them, by priority.
pub async fn quizzes(
    db: impl PgExecutor<'_>,
    station_id: StationId,
    user_id: UserId,
) -> sqlx::Result<Vec<QuizCard>> {
    #[derive(sqlx::FromRow)]
    struct Row {
        #[sqlx(flatten)]
        card: CardRow,
        research_id: i64,
        description: String,
        question_count: i64,
    }
    let rows: Vec<Row> = sqlx::query_as(concat!(
        "SELECT ",
        card_columns!("$2"),
        ", r.id AS research_id, a.description,
           (SELECT count(*) FROM research_questions q WHERE q.research_id = r.id)
             AS question_count
           FROM actions a
           JOIN action_types t ON t.id = a.type_id
           JOIN researches r ON r.action_id = a.id
          WHERE a.station_id = $1 AND a.active AND a.type_id = $3
          ORDER BY a.priority DESC, a.id"
    ))
    .bind(station_id)
    .bind(user_id)
    .bind(ActivityType::Quiz)
    .fetch_all(db)
    .await?;
    let now = Utc::now();
    Ok(rows
        .into_iter()
        .map(|row| {
            let card = row.card.into_card(now);
            QuizCard {
                expiration: card.participation_end,
                card,
                research_id: row.research_id,
                description: row.description,
                question_count: row.question_count,
            }
        })
        .collect())
}
