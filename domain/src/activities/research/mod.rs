//! Quizzes and surveys (spec 001 types 6 to 12; docs/api-activities.md "Quizzes and
//! surveys"). The server is the judge: the answer key (which options are right, the
//! questions' messages and explanations, the feedbacks' ranges) never leaves this module
//! before the member answers. A member's answers are saved question by question in an
//! attempt, so the member resumes on another device; the submission scores the stored
//! answers (never a client's percentage) and closes the attempt as one participation.
//!
//! Here: the key and what a member sees of a research ([`load`]); beside it, `answer`
//! (saving an answer or a file), `submit` (closing an attempt), `scoring` (pure functions),
//! `polls` (poll counts, the quiz list) and `authoring` (creating researches).

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgExecutor};

use super::ActivityType;
use super::catalogue::{ActivityCard, CardRow, card_columns};
use super::participation::{self, Admitted, Refused};
use crate::infra::objects::Objects;
use crate::infra::uploads::{FILE_INVALID, FileKind};
use crate::shared::failure::{Failure, IntoFailure};
use crate::shared::ids::{ActivityId, StationId, UserId};

/// The longest free text (and "other" text) answer, in characters.
pub const MAX_TEXT: usize = 600;
/// The largest video or file answer.
pub const MAX_FILE_BYTES: usize = 10_000_000;
/// A quiz is won at this share of questions right at the first try (spec 001).
pub const PASS_MARK: f64 = 0.5;

pub const ONE_OPTION: &str = "Apenas uma opção por pergunta";
pub const INVALID_OPTION: &str = "Opção inválida.";
pub const TEXT_TOO_LONG: &str = "Esse campo deve possuir no máximo 600 caracteres";
pub const FILE_NEEDED: &str = "Envie o arquivo da resposta.";
pub const NOT_A_FILE_QUESTION: &str = "Esta pergunta não recebe arquivos.";
pub const ALREADY_RIGHT: &str = "Esta pergunta já foi respondida.";
pub const UNANSWERED: &str = "Uma pergunta não foi respondida!";
pub const RESULTS_LOCKED: &str = "Responda a enquete para ver o resultado.";
/// What a right or wrong quiz answer says when the question has no message of its own.
pub const RIGHT_DEFAULT: &str = "Resposta correta!";
pub const WRONG_DEFAULT: &str = "Resposta errada, tente novamente.";

/// A question's kind (spec 001 "Question").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuestionType {
    Single,
    Multiple,
    Text,
    SingleOther,
    MultipleOther,
    Video,
    File,
}

impl QuestionType {
    pub fn from_id(id: i16) -> Option<Self> {
        Some(match id {
            1 => Self::Single,
            2 => Self::Multiple,
            3 => Self::Text,
            4 => Self::SingleOther,
            5 => Self::MultipleOther,
            6 => Self::Video,
            7 => Self::File,
            _ => return None,
        })
    }

    /// Free text and single choice are required (spec 001), and so are the file answers
    /// (a question asking for one means it); multiple choice may be left empty.
    pub fn required(self) -> bool {
        !matches!(self, Self::Multiple | Self::MultipleOther)
    }

    fn single(self) -> bool {
        matches!(self, Self::Single | Self::SingleOther)
    }

    fn takes_other(self) -> bool {
        matches!(self, Self::SingleOther | Self::MultipleOther)
    }

    pub fn takes_file(self) -> bool {
        matches!(self, Self::Video | Self::File)
    }

    /// Whether an upload of `kind` answers this question: a video a video question, a
    /// document or image a file question.
    pub fn accepts(self, kind: FileKind) -> bool {
        match self {
            Self::Video => kind.is_video(),
            Self::File => kind.is_document(),
            _ => false,
        }
    }
}

// ---- What members see --------------------------------------------------------------------

/// An option of a question, without whether it is right.
#[derive(Debug, Clone)]
pub struct Choice {
    pub id: i64,
    pub label: String,
    pub color: Option<String>,
    pub text_color: Option<String>,
    pub image: Option<String>,
}

/// A question as the member answers it: no answer key.
#[derive(Debug, Clone)]
pub struct Question {
    pub id: i64,
    pub question: String,
    /// 1 single choice, 2 multiple choice, 3 free text, 4 single choice with "other",
    /// 5 multiple choice with "other", 6 video answer, 7 file answer.
    pub type_id: i16,
    pub required: bool,
    pub color: Option<String>,
    pub text_color: Option<String>,
    pub image: Option<String>,
    pub options: Vec<Choice>,
}

/// Whether a quiz answer is right, said once the member answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub correct: bool,
    pub message: String,
    /// Only once the answer is right.
    pub explanation: Option<String>,
}

/// A file answer, by its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerFile {
    pub name: String,
}

/// One saved answer of the member's open attempt.
#[derive(Debug, Clone)]
pub struct AnswerState {
    pub attempt_id: i64,
    pub question_id: i64,
    pub options: Vec<i64>,
    pub text: Option<String>,
    pub other: Option<String>,
    pub file: Option<AnswerFile>,
    /// A quiz question's verdict on the latest answer; null for surveys.
    pub verdict: Option<Verdict>,
    /// The quiz options judged wrong so far.
    pub tried: Vec<i64>,
}

/// What a quiz says of a result, by its range of right answers.
#[derive(Debug, Clone)]
pub struct QuizFeedback {
    /// Sanitised HTML.
    pub feedback: String,
    pub feedback_lottie_id: Option<i64>,
}

/// Whether one question was answered right (kept with the attempt, as JSON).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionResult {
    pub question_id: i64,
    /// Null for a question without a right answer.
    pub correct: Option<bool>,
}

/// A submitted attempt's result.
#[derive(Debug, Clone)]
pub struct ResearchResult {
    /// False when the call answered an earlier submission of the attempt (200).
    pub recorded: bool,
    pub attempt_id: i64,
    pub participation_id: Option<i64>,
    pub action_id: i64,
    pub research_id: i64,
    pub question_count: i32,
    pub answered_count: i32,
    pub correct_count: i32,
    /// Right answers over questions (a quiz counts the first try); null without a key.
    pub correct_answer_percentage: Option<f64>,
    pub answer_percentage: f64,
    /// Quizzes only.
    pub won: Option<bool>,
    /// Whether the participation earns the activity's points (a lost quiz does not).
    pub earned: bool,
    pub points: i32,
    /// `points` + `additional_cashback`.
    pub cashback: i64,
    /// The `points.credit` job the submission queued; set by the caller that queued it.
    pub job_id: Option<String>,
    pub feedback: Option<QuizFeedback>,
    pub questions: Vec<QuestionResult>,
}

/// A research as the member answers it: no answer key.
#[derive(Debug, Clone)]
pub struct Research {
    pub id: i64,
    pub action_id: i64,
    /// The activity's type: 6 quiz, 7 to 12 surveys.
    pub type_id: ActivityType,
    pub name: String,
    pub synopsis: String,
    pub points: i32,
    pub cashback: i64,
    /// `contact` for a contact survey (type 7), else `user`.
    pub author: String,
    pub questions: Vec<Question>,
    /// The member's open attempt, if any.
    pub attempt_id: Option<i64>,
    pub answers: Vec<AnswerState>,
    /// The member's latest submission.
    pub last_result: Option<ResearchResult>,
}

// ---- Loading ---------------------------------------------------------------------------

/// A research's activity, as the calls check it.
#[derive(Debug, Clone, sqlx::FromRow)]
struct Head {
    id: i64,
    action_id: ActivityId,
    type_id: ActivityType,
    name: String,
    synopsis: String,
    points: i32,
    additional_cashback: i32,
}

impl Head {
    fn is_quiz(&self) -> bool {
        self.type_id == ActivityType::Quiz
    }

    fn author(&self) -> &'static str {
        if self.type_id == ActivityType::ContactSurvey {
            "contact"
        } else {
            "user"
        }
    }
}

/// The research `id` of a published quiz or survey of `station_id`.
async fn head(
    db: impl PgExecutor<'_>,
    station_id: StationId,
    id: i64,
) -> sqlx::Result<Option<Head>> {
    sqlx::query_as(
        "SELECT r.id, r.action_id, a.type_id, r.name, r.synopsis, a.points,
                a.additional_cashback
           FROM researches r JOIN actions a ON a.id = r.action_id
          WHERE r.id = $1 AND a.station_id = $2 AND a.active AND a.type_id = ANY ($3)",
    )
    .bind(id)
    .bind(station_id)
    .bind(research_types())
    .fetch_optional(db)
    .await
}

/// The quiz and the surveys, as the column holds them.
fn research_types() -> Vec<i16> {
    std::iter::once(ActivityType::Quiz)
        .chain(ActivityType::SURVEYS)
        .map(ActivityType::id)
        .collect()
}

#[derive(Debug, Clone, Deserialize)]
struct KeyedOption {
    id: i64,
    label: String,
    color: Option<String>,
    text_color: Option<String>,
    image_key: Option<String>,
    correct: bool,
    quiz_feedback_id: Option<i64>,
}

/// A question with its answer key: only this module reads one.
#[derive(Debug, Clone, sqlx::FromRow)]
struct KeyedQuestion {
    id: i64,
    question: String,
    type_id: i16,
    color: Option<String>,
    text_color: Option<String>,
    image_key: Option<String>,
    message_for_correct: Option<String>,
    message_for_incorrect: Option<String>,
    explanation: Option<String>,
    #[sqlx(json)]
    options: Vec<KeyedOption>,
}

impl KeyedQuestion {
    fn kind(&self) -> QuestionType {
        // The table's CHECK keeps type_id in 1..=7.
        QuestionType::from_id(self.type_id).unwrap_or(QuestionType::Text)
    }

    fn right_options(&self) -> Vec<i64> {
        self.options
            .iter()
            .filter(|option| option.correct)
            .map(|option| option.id)
            .collect()
    }

    /// Whether `chosen` is right: a single choice when the chosen option is a right one,
    /// a multiple choice when the chosen set is the right set (spec 001). `None` for a
    /// question without a right answer.
    fn judge(&self, chosen: &[i64]) -> Option<bool> {
        let right = self.right_options();
        if right.is_empty() {
            return None;
        }
        Some(if self.kind().single() {
            chosen.len() == 1 && right.contains(&chosen[0])
        } else {
            let chosen: HashSet<_> = chosen.iter().collect();
            chosen.len() == right.len() && right.iter().all(|id| chosen.contains(id))
        })
    }

    fn verdict(&self, correct: bool) -> Verdict {
        if correct {
            Verdict {
                correct,
                message: self
                    .message_for_correct
                    .clone()
                    .unwrap_or_else(|| RIGHT_DEFAULT.into()),
                explanation: self.explanation.clone(),
            }
        } else {
            Verdict {
                correct,
                message: self
                    .message_for_incorrect
                    .clone()
                    .unwrap_or_else(|| WRONG_DEFAULT.into()),
                explanation: None,
            }
        }
    }

    fn public(&self) -> Question {
        Question {
            id: self.id,
            question: self.question.clone(),
            type_id: self.type_id,
            required: self.kind().required(),
            color: self.color.clone(),
            text_color: self.text_color.clone(),
            image: self.image_key.as_deref().map(Objects::url),
            options: self
                .options
                .iter()
                .map(|option| Choice {
                    id: option.id,
                    label: option.label.clone(),
                    color: option.color.clone(),
                    text_color: option.text_color.clone(),
                    image: option.image_key.as_deref().map(Objects::url),
                })
                .collect(),
        }
    }
}

async fn questions(db: impl PgExecutor<'_>, research_id: i64) -> sqlx::Result<Vec<KeyedQuestion>> {
    sqlx::query_as(
        "SELECT q.id, q.question, q.type_id, q.color, q.text_color, q.image_key,
                q.message_for_correct, q.message_for_incorrect, q.explanation,
                coalesce(jsonb_agg(jsonb_build_object(
                             'id', o.id, 'label', o.label, 'color', o.color,
                             'text_color', o.text_color, 'image_key', o.image_key,
                             'correct', o.correct, 'quiz_feedback_id', o.quiz_feedback_id)
                           ORDER BY o.position, o.id) FILTER (WHERE o.id IS NOT NULL), '[]')
                  AS options
           FROM research_questions q
           LEFT JOIN research_options o ON o.question_id = q.id
          WHERE q.research_id = $1
          GROUP BY q.id
          ORDER BY q.position, q.id",
    )
    .bind(research_id)
    .fetch_all(db)
    .await
}

/// One stored answer.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
struct Stored {
    question_id: i64,
    option_ids: Vec<i64>,
    text: Option<String>,
    other: Option<String>,
    file_name: Option<String>,
    tried: Vec<i64>,
    first_try_correct: Option<bool>,
    correct: Option<bool>,
}

impl Stored {
    fn answered(&self) -> bool {
        !self.option_ids.is_empty()
            || self.text.is_some()
            || self.other.is_some()
            || self.file_name.is_some()
    }
}

/// The columns a [`Stored`] answer is read from, in `SELECT` and `RETURNING` alike.
macro_rules! stored_columns {
    () => {
        "question_id, option_ids, text, other, file_name, tried, first_try_correct, correct"
    };
}

async fn stored_answers(conn: &mut PgConnection, attempt_id: i64) -> sqlx::Result<Vec<Stored>> {
    sqlx::query_as(concat!(
        "SELECT ",
        stored_columns!(),
        " FROM research_answers WHERE attempt_id = $1"
    ))
    .bind(attempt_id)
    .fetch_all(conn)
    .await
}

fn state_of(
    head: &Head,
    question: &KeyedQuestion,
    attempt_id: i64,
    stored: &Stored,
) -> AnswerState {
    let verdict = if head.is_quiz() {
        stored.correct.map(|correct| question.verdict(correct))
    } else {
        None
    };
    AnswerState {
        attempt_id,
        question_id: stored.question_id,
        options: stored.option_ids.clone(),
        text: stored.text.clone(),
        other: stored.other.clone(),
        file: stored.file_name.clone().map(|name| AnswerFile { name }),
        verdict,
        tried: stored.tried.clone(),
    }
}

async fn open_attempt_id(
    conn: &mut PgConnection,
    research_id: i64,
    user_id: UserId,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        "SELECT id FROM research_attempts
          WHERE research_id = $1 AND user_id = $2 AND submitted_at IS NULL",
    )
    .bind(research_id)
    .bind(user_id)
    .fetch_optional(conn)
    .await
}

/// The research `id` of `station_id` as `user_id` answers it: the questions without the
/// key, the open attempt's answers and the latest result. `None`: unknown, another
/// station's, unpublished or not of a research type.
pub async fn load(
    conn: &mut PgConnection,
    user_id: UserId,
    station_id: StationId,
    id: i64,
) -> sqlx::Result<Option<Research>> {
    let Some(head) = head(&mut *conn, station_id, id).await? else {
        return Ok(None);
    };
    let keyed = questions(&mut *conn, id).await?;
    let attempt_id = open_attempt_id(conn, id, user_id).await?;
    let mut answers = Vec::new();
    if let Some(attempt_id) = attempt_id {
        let by_question: HashMap<i64, &KeyedQuestion> = keyed
            .iter()
            .map(|question| (question.id, question))
            .collect();
        for stored in stored_answers(conn, attempt_id).await? {
            if let Some(question) = by_question.get(&stored.question_id) {
                answers.push(state_of(&head, question, attempt_id, &stored));
            }
        }
    }
    let last: Option<i64> = sqlx::query_scalar(
        "SELECT max(id) FROM research_attempts
          WHERE research_id = $1 AND user_id = $2 AND submitted_at IS NOT NULL",
    )
    .bind(id)
    .bind(user_id)
    .fetch_one(&mut *conn)
    .await?;
    let last_result = match last {
        Some(attempt_id) => result_of(conn, &head, attempt_id, false).await?,
        None => None,
    };
    Ok(Some(Research {
        id: head.id,
        action_id: head.action_id.0,
        type_id: head.type_id,
        name: head.name.clone(),
        synopsis: head.synopsis.clone(),
        points: head.points,
        cashback: i64::from(head.points) + i64::from(head.additional_cashback),
        author: head.author().into(),
        questions: keyed.iter().map(KeyedQuestion::public).collect(),
        attempt_id,
        answers,
        last_result,
    }))
}

// Last in the file: the submodules use `stored_columns!`, which only what follows a
// macro's definition sees.
mod answer;
mod authoring;
mod polls;
mod scoring;
mod submit;
#[cfg(test)]
mod tests;

pub use answer::*;
pub use authoring::*;
pub use polls::*;
use scoring::*;
pub use submit::*;
