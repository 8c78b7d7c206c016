//! Quizzes and surveys (spec 001 types 6 to 12; docs/api-activities.md "Quizzes and
//! surveys"). The server is the judge: the answer key (which options are right, the
//! questions' messages and explanations, the feedbacks' ranges) never leaves this module
//! before the member answers. A member's answers are saved question by question in an
//! attempt, so the member resumes on another device; the submission scores the stored
//! answers (never a client's percentage) and closes the attempt as one participation.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgExecutor};
use utoipa::ToSchema;

use super::catalogue::{ActivityCard, CardRow, card_columns};
use super::participation::{self, Admitted, Refused};
use crate::infra::objects::Objects;
use crate::infra::uploads::{FILE_INVALID, FileKind};

/// The quiz: judged answer by answer, won at half the questions right at the first try.
pub const QUIZ_TYPE: i16 = 6;
/// The contact survey: its answers are a contact's, recorded by the member.
pub const CONTACT_SURVEY_TYPE: i16 = 7;
/// The poll whose results chart the member sees after answering.
pub const POLL_CHART_TYPE: i16 = 10;
/// The personality test: its result is the feedback its chosen options point to most.
pub const PERSONALITY_TYPE: i16 = 12;
/// The surveys, submitted by `POST /answer`.
pub const SURVEY_TYPES: [i16; 6] = [7, 8, 9, 10, 11, 12];

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

#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ResearchOption)]
pub struct Choice {
    pub id: i64,
    pub label: String,
    pub color: Option<String>,
    #[serde(rename = "textColor")]
    pub text_color: Option<String>,
    pub image: Option<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ResearchQuestion)]
pub struct Question {
    pub id: i64,
    pub question: String,
    /// 1 single choice, 2 multiple choice, 3 free text, 4 single choice with "other",
    /// 5 multiple choice with "other", 6 video answer, 7 file answer.
    pub type_id: i16,
    pub required: bool,
    pub color: Option<String>,
    #[serde(rename = "textColor")]
    pub text_color: Option<String>,
    pub image: Option<String>,
    pub options: Vec<Choice>,
}

/// Whether a quiz answer is right, said once the member answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Verdict {
    pub correct: bool,
    pub message: String,
    /// Only once the answer is right.
    pub explanation: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct AnswerFile {
    pub name: String,
}

/// One saved answer of the member's open attempt.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ResearchAnswer)]
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

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct QuizFeedback {
    /// Sanitised HTML.
    pub feedback: String,
    pub feedback_lottie_id: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct QuestionResult {
    pub question_id: i64,
    /// Null for a question without a right answer.
    pub correct: Option<bool>,
}

/// A submitted attempt's result.
#[derive(Debug, Clone, Serialize, ToSchema)]
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
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Research {
    pub id: i64,
    pub action_id: i64,
    /// The activity's type: 6 quiz, 7 to 12 surveys.
    pub type_id: i16,
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
    action_id: i64,
    type_id: i16,
    name: String,
    synopsis: String,
    points: i32,
    additional_cashback: i32,
}

impl Head {
    fn is_quiz(&self) -> bool {
        self.type_id == QUIZ_TYPE
    }

    fn author(&self) -> &'static str {
        if self.type_id == CONTACT_SURVEY_TYPE {
            "contact"
        } else {
            "user"
        }
    }
}

/// The research `id` of a published activity of types 6 to 12 of `station_id`.
async fn head(db: impl PgExecutor<'_>, station_id: i64, id: i64) -> sqlx::Result<Option<Head>> {
    sqlx::query_as(
        "SELECT r.id, r.action_id, a.type_id, r.name, r.synopsis, a.points,
                a.additional_cashback
           FROM researches r JOIN actions a ON a.id = r.action_id
          WHERE r.id = $1 AND a.station_id = $2 AND a.active AND a.type_id BETWEEN 6 AND 12",
    )
    .bind(id)
    .bind(station_id)
    .fetch_optional(db)
    .await
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
    user_id: i64,
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
    user_id: i64,
    station_id: i64,
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
        action_id: head.action_id,
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

// ---- Answering -------------------------------------------------------------------------

/// An answer as the member gives it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Given {
    pub options: Vec<i64>,
    pub text: Option<String>,
    pub other: Option<String>,
}

/// Why an answer was not saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotSaved {
    Refused(Refused),
    /// Not a question of the research.
    UnknownQuestion,
    /// A field error, with its text.
    Invalid(&'static str),
    /// A quiz question already answered right.
    AlreadyRight,
}

impl NotSaved {
    pub fn message(&self) -> String {
        match self {
            Self::Refused(refused) => refused.message(),
            Self::UnknownQuestion => participation::UNAVAILABLE.into(),
            Self::Invalid(text) => (*text).into(),
            Self::AlreadyRight => ALREADY_RIGHT.into(),
        }
    }
}

/// `given` checked against `question`: blanks trimmed away, options deduplicated.
fn validate(question: &KeyedQuestion, given: &Given) -> Result<Given, &'static str> {
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
async fn ensure_attempt(
    conn: &mut PgConnection,
    head: &Head,
    user_id: i64,
    station_id: i64,
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

async fn stored_answer(
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
async fn save_checked(
    conn: &mut PgConnection,
    head: &Head,
    question: &KeyedQuestion,
    user_id: i64,
    station_id: i64,
    given: &Given,
) -> sqlx::Result<Result<AnswerState, NotSaved>> {
    let given = match validate(question, given) {
        Ok(given) => given,
        Err(text) => return Ok(Err(NotSaved::Invalid(text))),
    };
    let attempt_id = ensure_attempt(&mut *conn, head, user_id, station_id).await?;
    let earlier = stored_answer(&mut *conn, attempt_id, question.id)
        .await?
        .unwrap_or_default();
    let verdict = if head.is_quiz() {
        if earlier.correct == Some(true) {
            return Ok(Err(NotSaved::AlreadyRight));
        }
        // An empty choice is no try: it must not spend the first one.
        if given.options.is_empty() && given.other.is_none() {
            return Ok(Err(NotSaved::Invalid(
                crate::shared::validate::message::REQUIRED,
            )));
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
    Ok(Ok(state_of(head, question, attempt_id, &stored)))
}

/// The research and question a save is for, through the participation rules (which take
/// the member's lock).
async fn admitted_question(
    conn: &mut PgConnection,
    user_id: i64,
    station_id: i64,
    research_id: i64,
    question_id: i64,
    now: DateTime<Utc>,
) -> sqlx::Result<Result<(Head, KeyedQuestion), NotSaved>> {
    let Some(head) = head(&mut *conn, station_id, research_id).await? else {
        return Ok(Err(NotSaved::Refused(Refused::Unavailable)));
    };
    if let Err(refused) = participation::admit(
        &mut *conn,
        user_id,
        station_id,
        head.action_id,
        &[head.type_id],
        now,
    )
    .await?
    {
        return Ok(Err(NotSaved::Refused(refused)));
    }
    let question = questions(&mut *conn, research_id)
        .await?
        .into_iter()
        .find(|question| question.id == question_id);
    Ok(match question {
        Some(question) => Ok((head, question)),
        None => Err(NotSaved::UnknownQuestion),
    })
}

/// Saves the member's answer to one question (`PUT /research/{id}/answers/{questionId}`),
/// opening an attempt through the participation rules; a quiz answer comes back judged.
/// On the caller's transaction, rolled back on a refusal.
pub async fn save_answer(
    conn: &mut PgConnection,
    user_id: i64,
    station_id: i64,
    research_id: i64,
    question_id: i64,
    given: &Given,
    now: DateTime<Utc>,
) -> sqlx::Result<Result<AnswerState, NotSaved>> {
    let (head, question) = match admitted_question(
        &mut *conn,
        user_id,
        station_id,
        research_id,
        question_id,
        now,
    )
    .await?
    {
        Ok(found) => found,
        Err(not) => return Ok(Err(not)),
    };
    save_checked(conn, &head, &question, user_id, station_id, given).await
}

/// [`admitted_question`] for a video or file answer: another question takes no file.
async fn admitted_file_question(
    conn: &mut PgConnection,
    user_id: i64,
    station_id: i64,
    research_id: i64,
    question_id: i64,
    now: DateTime<Utc>,
) -> sqlx::Result<Result<(Head, KeyedQuestion), NotSaved>> {
    let found = admitted_question(conn, user_id, station_id, research_id, question_id, now).await?;
    Ok(found.and_then(|(head, question)| {
        if question.kind().takes_file() {
            Ok((head, question))
        } else {
            Err(NotSaved::Invalid(NOT_A_FILE_QUESTION))
        }
    }))
}

/// The video or file question a member may answer now, checked through the participation
/// rules before an upload is stored (on a transaction the caller rolls back: it only
/// checks; `save_file` checks again when saving).
pub async fn file_question(
    conn: &mut PgConnection,
    user_id: i64,
    station_id: i64,
    research_id: i64,
    question_id: i64,
    now: DateTime<Utc>,
) -> sqlx::Result<Result<QuestionType, NotSaved>> {
    let found =
        admitted_file_question(conn, user_id, station_id, research_id, question_id, now).await?;
    Ok(found.map(|(_, question)| question.kind()))
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
    user_id: i64,
    station_id: i64,
    research_id: i64,
    question_id: i64,
    file: &GivenFile,
    now: DateTime<Utc>,
) -> sqlx::Result<Result<(AnswerState, Option<String>), NotSaved>> {
    let (head, question) = match admitted_file_question(
        &mut *conn,
        user_id,
        station_id,
        research_id,
        question_id,
        now,
    )
    .await?
    {
        Ok(found) => found,
        Err(not) => return Ok(Err(not)),
    };
    let attempt_id = ensure_attempt(&mut *conn, &head, user_id, station_id).await?;
    record_file(conn, &head, &question, attempt_id, file)
        .await
        .map(Ok)
}

/// Saves as a file answer (question type 7) an upload the member made before
/// (`files/actions` or `upload-image-to-s3`, by its `path` or `url`), attaching it on the
/// same transaction. Answers the key of the file it replaced, for the caller to delete once
/// committed.
pub async fn save_uploaded_file(
    conn: &mut PgConnection,
    user_id: i64,
    station_id: i64,
    research_id: i64,
    question_id: i64,
    reference: &str,
    now: DateTime<Utc>,
) -> sqlx::Result<Result<(AnswerState, Option<String>), NotSaved>> {
    let (head, question) = match admitted_file_question(
        &mut *conn,
        user_id,
        station_id,
        research_id,
        question_id,
        now,
    )
    .await?
    {
        Ok(found) => found,
        Err(not) => return Ok(Err(not)),
    };
    // Uploads are documents and images: a file question's answers, never a video one's.
    if question.kind() != QuestionType::File {
        return Ok(Err(NotSaved::Invalid(FILE_INVALID)));
    }
    let attempt_id = ensure_attempt(&mut *conn, &head, user_id, station_id).await?;
    let answer = format!("research_answers({attempt_id},{question_id})");
    let attached =
        match crate::feed::uploads::attach(&mut *conn, station_id, user_id, reference, &answer)
            .await?
        {
            Ok(attached) => attached,
            Err(not) => return Ok(Err(NotSaved::Invalid(not.message()))),
        };
    let file = GivenFile {
        key: attached.key,
        name: attached.name,
    };
    record_file(conn, &head, &question, attempt_id, &file)
        .await
        .map(Ok)
}

/// Writes `file` as the attempt's answer to `question`; answers the key it replaced (never
/// the same key given again), whose upload, if it was one, is no longer attached.
async fn record_file(
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

// ---- Submitting ------------------------------------------------------------------------

/// Which call submits: the quiz's or the surveys'.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Quiz,
    Survey,
}

impl Form {
    fn accepts(self, type_id: i16) -> bool {
        match self {
            Self::Quiz => type_id == QUIZ_TYPE,
            Self::Survey => SURVEY_TYPES.contains(&type_id),
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

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotSubmitted {
    Refused(Refused),
    /// An answer of the submission was not saved.
    Answer {
        question_id: i64,
        not: NotSaved,
    },
    /// A required question (any question of a quiz) has no answer.
    Unanswered,
}

impl NotSubmitted {
    pub fn message(&self) -> String {
        match self {
            Self::Refused(refused) => refused.message(),
            Self::Answer { not, .. } => not.message(),
            Self::Unanswered => UNANSWERED.into(),
        }
    }
}

/// The score of an attempt, from its stored answers and the key.
#[derive(Debug, Clone, PartialEq)]
struct Score {
    question_count: i32,
    answered_count: i32,
    correct_count: i32,
    correct_answer_percentage: Option<f64>,
    answer_percentage: f64,
    won: Option<bool>,
    /// Whether every question that must be answered is.
    complete: bool,
    questions: Vec<QuestionResult>,
    /// The options chosen, in question order (the personality test's feedback).
    chosen: Vec<i64>,
}

/// Scores `answers` against `keyed` for a research of `type_id` (spec 001 "Survey"): a
/// quiz counts the questions right at the first try, a survey the answers right as they
/// stand; the percentage is right answers over questions, null when no question has a
/// right answer. A quiz and a personality test need every question answered, a survey its
/// required ones.
fn score(type_id: i16, keyed: &[KeyedQuestion], answers: &[Stored]) -> Score {
    let quiz = type_id == QUIZ_TYPE;
    let by_question: HashMap<i64, &Stored> = answers
        .iter()
        .map(|answer| (answer.question_id, answer))
        .collect();
    let mut result = Score {
        question_count: keyed.len() as i32,
        answered_count: 0,
        correct_count: 0,
        correct_answer_percentage: None,
        answer_percentage: 0.0,
        won: None,
        complete: true,
        questions: Vec::with_capacity(keyed.len()),
        chosen: Vec::new(),
    };
    let mut keyed_any = false;
    for question in keyed {
        let answer = by_question
            .get(&question.id)
            .filter(|answer| answer.answered());
        if answer.is_some() {
            result.answered_count += 1;
        } else if quiz || type_id == PERSONALITY_TYPE || question.kind().required() {
            result.complete = false;
        }
        let has_key = !question.right_options().is_empty();
        keyed_any |= has_key;
        let correct = match answer {
            Some(answer) if quiz => answer.first_try_correct,
            Some(answer) => question.judge(&answer.option_ids),
            None if has_key => Some(false),
            None => None,
        };
        if correct == Some(true) {
            result.correct_count += 1;
        }
        if let Some(answer) = answer {
            result.chosen.extend(&answer.option_ids);
        }
        result.questions.push(QuestionResult {
            question_id: question.id,
            correct,
        });
    }
    let share = |count: i32| {
        if result.question_count == 0 {
            0.0
        } else {
            f64::from(count) / f64::from(result.question_count)
        }
    };
    result.answer_percentage = share(result.answered_count);
    if keyed_any {
        let percentage = share(result.correct_count);
        result.correct_answer_percentage = Some(percentage);
        if quiz {
            result.won = Some(percentage >= PASS_MARK);
        }
    }
    result
}

/// The feedback a result shows: for a personality test, the one its chosen options point
/// to most (the first of a tie, in the order chosen); for others, the one whose range of
/// percentages holds the score (the right answers' share, else the answered share).
fn feedback_of(
    type_id: i16,
    keyed: &[KeyedQuestion],
    score: &Score,
    ranges: &[(i64, i16, i16)],
) -> Option<i64> {
    if type_id == PERSONALITY_TYPE {
        let pointed: HashMap<i64, Option<i64>> = keyed
            .iter()
            .flat_map(|question| &question.options)
            .map(|option| (option.id, option.quiz_feedback_id))
            .collect();
        let mut counts: Vec<(i64, usize)> = Vec::new();
        for feedback in score
            .chosen
            .iter()
            .filter_map(|id| pointed.get(id).copied().flatten())
        {
            match counts.iter_mut().find(|(id, _)| *id == feedback) {
                Some((_, count)) => *count += 1,
                None => counts.push((feedback, 1)),
            }
        }
        let most = counts.iter().map(|(_, count)| *count).max()?;
        return counts
            .iter()
            .find(|(_, count)| *count == most)
            .map(|(id, _)| *id);
    }
    let share = score
        .correct_answer_percentage
        .unwrap_or(score.answer_percentage);
    let percent = (share * 100.0).round() as i16;
    ranges
        .iter()
        .find(|(_, from, to)| (*from..=*to).contains(&percent))
        .map(|(id, _, _)| *id)
}

/// The stored result of the submitted attempt `attempt_id` of `head`'s research.
async fn result_of(
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
        action_id: head.action_id,
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
    user_id: i64,
    station_id: i64,
    form: Form,
    submission: &Submission,
    now: DateTime<Utc>,
) -> sqlx::Result<Result<ResearchResult, NotSubmitted>> {
    let unavailable = Ok(Err(NotSubmitted::Refused(Refused::Unavailable)));
    participation::lock_member(&mut *conn, user_id).await?;
    let Some(head) = head(&mut *conn, station_id, submission.research_id).await? else {
        return unavailable;
    };
    if !form.accepts(head.type_id)
        || submission
            .action_id
            .is_some_and(|action_id| action_id != head.action_id)
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
                return Ok(Ok(result_of(conn, &head, attempt_id, false)
                    .await?
                    .expect("a submitted attempt has a result")));
            }
            Some(false) => {}
        }
    }
    let admitted = match participation::admit(
        &mut *conn,
        user_id,
        station_id,
        head.action_id,
        &[head.type_id],
        now,
    )
    .await?
    {
        Ok(admitted) => admitted,
        Err(refused) => return Ok(Err(NotSubmitted::Refused(refused))),
    };
    let keyed = questions(&mut *conn, head.id).await?;
    for (question_id, given) in &submission.answers {
        let not = |not| NotSubmitted::Answer {
            question_id: *question_id,
            not,
        };
        let Some(question) = keyed.iter().find(|question| question.id == *question_id) else {
            return Ok(Err(not(NotSaved::UnknownQuestion)));
        };
        match save_checked(&mut *conn, &head, question, user_id, station_id, given).await? {
            Ok(_) | Err(NotSaved::AlreadyRight) => {}
            Err(other) => return Ok(Err(not(other))),
        }
    }
    let Some(attempt_id) = open_attempt_id(&mut *conn, head.id, user_id).await? else {
        return Ok(Err(NotSubmitted::Unanswered));
    };
    let answers = stored_answers(&mut *conn, attempt_id).await?;
    let score = score(head.type_id, &keyed, &answers);
    if !score.complete {
        return Ok(Err(NotSubmitted::Unanswered));
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
    Ok(Ok(result_of(conn, &head, attempt_id, true)
        .await?
        .expect("the attempt was just submitted")))
}

// ---- Polls and the quiz list -----------------------------------------------------------

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OptionCount {
    pub id: i64,
    pub label: String,
    pub count: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct QuestionCounts {
    pub id: i64,
    pub question: String,
    pub options: Vec<OptionCount>,
}

/// A poll's results (type 10): how many members chose each option, each member's latest
/// submission counting (a vote sent again replaces the earlier one).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PollResults {
    pub research_id: i64,
    /// Members who voted.
    pub respondents: i64,
    pub questions: Vec<QuestionCounts>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoResults {
    /// Unknown, another station's, unpublished or not a poll with a chart.
    Unavailable,
    /// The member has not answered it yet.
    NotAnswered,
}

/// A poll's results (type 10), once the member has submitted an attempt at it.
pub async fn poll_results(
    conn: &mut PgConnection,
    user_id: i64,
    station_id: i64,
    research_id: i64,
) -> sqlx::Result<Result<PollResults, NoResults>> {
    let head = head(&mut *conn, station_id, research_id).await?;
    if head.is_none_or(|head| head.type_id != POLL_CHART_TYPE) {
        return Ok(Err(NoResults::Unavailable));
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
        return Ok(Err(NoResults::NotAnswered));
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
    Ok(Ok(PollResults {
        research_id,
        respondents,
        questions,
    }))
}

/// A quiz in the quiz list (`/homepage/quizzes`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct QuizCard {
    #[serde(flatten)]
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
    station_id: i64,
    user_id: i64,
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
          WHERE a.station_id = $1 AND a.active AND a.type_id = 6
          ORDER BY a.priority DESC, a.id"
    ))
    .bind(station_id)
    .bind(user_id)
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

// ---- Writing researches (the console, the demo seed, tests) --------------------------

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
        .bind(super::catalogue::sanitise_html(&feedback.feedback))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn option(id: i64, correct: bool) -> KeyedOption {
        KeyedOption {
            id,
            label: format!("Opção {id}"),
            color: None,
            text_color: None,
            image_key: None,
            correct,
            quiz_feedback_id: None,
        }
    }

    fn question(id: i64, type_id: i16, options: Vec<KeyedOption>) -> KeyedQuestion {
        KeyedQuestion {
            id,
            question: format!("Pergunta {id}"),
            type_id,
            color: None,
            text_color: None,
            image_key: None,
            message_for_correct: None,
            message_for_incorrect: Some("Quase!".into()),
            explanation: Some("Porque sim.".into()),
            options,
        }
    }

    fn chose(question_id: i64, options: &[i64]) -> Stored {
        Stored {
            question_id,
            option_ids: options.to_vec(),
            ..Stored::default()
        }
    }

    #[test]
    fn a_single_choice_is_right_when_the_chosen_option_is_and_a_multiple_when_the_set_is() {
        let single = question(1, 1, vec![option(10, false), option(11, true)]);
        assert_eq!(single.judge(&[11]), Some(true));
        assert_eq!(single.judge(&[10]), Some(false));
        let multiple = question(
            2,
            2,
            vec![option(20, true), option(21, true), option(22, false)],
        );
        assert_eq!(multiple.judge(&[21, 20]), Some(true));
        assert_eq!(multiple.judge(&[20]), Some(false), "a subset is wrong");
        assert_eq!(
            multiple.judge(&[20, 21, 22]),
            Some(false),
            "a superset is wrong"
        );
        let poll = question(3, 1, vec![option(30, false)]);
        assert_eq!(poll.judge(&[30]), None);
    }

    #[test]
    fn verdicts_say_the_question_messages_or_the_defaults_and_explain_only_when_right() {
        let q = question(1, 1, vec![option(10, true)]);
        assert_eq!(
            q.verdict(true),
            Verdict {
                correct: true,
                message: RIGHT_DEFAULT.into(),
                explanation: Some("Porque sim.".into())
            }
        );
        assert_eq!(q.verdict(false).message, "Quase!");
        assert_eq!(q.verdict(false).explanation, None);
    }

    #[test]
    fn answers_are_checked_by_question_type() {
        let single = question(1, 1, vec![option(10, false), option(11, true)]);
        let given = |options: &[i64], text: Option<&str>, other: Option<&str>| Given {
            options: options.to_vec(),
            text: text.map(str::to_owned),
            other: other.map(str::to_owned),
        };
        assert_eq!(
            validate(&single, &given(&[10, 11], None, None)),
            Err(ONE_OPTION)
        );
        assert_eq!(
            validate(&single, &given(&[99], None, None)),
            Err(INVALID_OPTION)
        );
        assert!(validate(&single, &given(&[], None, None)).is_err());
        assert_eq!(
            validate(&single, &given(&[10, 10], None, None)).map(|g| g.options),
            Ok(vec![10])
        );
        let other = question(2, 4, vec![option(20, false)]);
        assert_eq!(
            validate(&other, &given(&[20], None, Some("Outro"))),
            Err(ONE_OPTION)
        );
        assert_eq!(
            validate(&other, &given(&[], None, Some(" Outra coisa "))).map(|g| g.other),
            Ok(Some("Outra coisa".into()))
        );
        let text = question(3, 3, vec![]);
        assert!(validate(&text, &given(&[], Some("   "), None)).is_err());
        let long = "a".repeat(MAX_TEXT + 1);
        assert_eq!(
            validate(&text, &given(&[], Some(&long), None)),
            Err(TEXT_TOO_LONG)
        );
        assert!(validate(&text, &given(&[], Some(&"é".repeat(MAX_TEXT)), None)).is_ok());
        let multiple = question(4, 2, vec![option(40, false)]);
        assert!(
            validate(&multiple, &given(&[], None, None)).is_ok(),
            "not required"
        );
        let file = question(5, 7, vec![]);
        assert_eq!(
            validate(&file, &given(&[], Some("x"), None)),
            Err(FILE_NEEDED)
        );
    }

    #[test]
    fn a_quiz_scores_the_first_try_and_is_won_at_half() {
        let keyed = vec![
            question(1, 1, vec![option(10, true), option(11, false)]),
            question(2, 1, vec![option(20, true), option(21, false)]),
        ];
        let first_try = |question_id, right| Stored {
            first_try_correct: Some(right),
            correct: Some(true),
            ..chose(question_id, &[question_id * 10])
        };
        let half = score(
            QUIZ_TYPE,
            &keyed,
            &[first_try(1, true), first_try(2, false)],
        );
        assert_eq!(half.correct_count, 1);
        assert_eq!(half.correct_answer_percentage, Some(0.5));
        assert_eq!(half.won, Some(true), "0.5 wins");
        assert!(half.complete);
        let none = score(
            QUIZ_TYPE,
            &keyed,
            &[first_try(1, false), first_try(2, false)],
        );
        assert_eq!(none.won, Some(false));
        let missing = score(QUIZ_TYPE, &keyed, &[first_try(1, true)]);
        assert!(!missing.complete, "a quiz needs every question answered");
    }

    #[test]
    fn a_survey_scores_answers_as_they_stand_and_needs_only_the_required_ones() {
        let keyed = vec![
            question(1, 1, vec![option(10, true), option(11, false)]),
            question(2, 2, vec![option(20, true), option(21, true)]),
            question(3, 2, vec![option(30, false)]),
        ];
        let result = score(11, &keyed, &[chose(1, &[10]), chose(2, &[20])]);
        assert!(result.complete, "multiple choice may be left empty");
        assert_eq!(result.correct_count, 1);
        assert_eq!(result.answered_count, 2);
        assert_eq!(
            result.questions,
            vec![
                QuestionResult {
                    question_id: 1,
                    correct: Some(true)
                },
                QuestionResult {
                    question_id: 2,
                    correct: Some(false)
                },
                QuestionResult {
                    question_id: 3,
                    correct: None
                },
            ]
        );
        assert!((result.correct_answer_percentage.expect("keyed") - 1.0 / 3.0).abs() < 1e-9);
        assert_eq!(result.won, None, "only quizzes are won");
        let unanswered = score(11, &keyed, &[chose(2, &[20])]);
        assert!(!unanswered.complete);
        let optional = vec![question(1, 2, vec![option(10, false)])];
        assert!(score(9, &optional, &[]).complete);
        assert!(
            !score(PERSONALITY_TYPE, &optional, &[]).complete,
            "a personality test needs every answer"
        );
        let poll = vec![question(1, 1, vec![option(10, false)])];
        assert_eq!(
            score(9, &poll, &[chose(1, &[10])]).correct_answer_percentage,
            None
        );
    }

    #[test]
    fn a_personality_test_shows_the_feedback_its_options_point_to_most() {
        let pointing = |id, feedback| KeyedOption {
            quiz_feedback_id: Some(feedback),
            ..option(id, false)
        };
        let keyed = vec![
            question(1, 1, vec![pointing(10, 100), pointing(11, 200)]),
            question(2, 1, vec![pointing(20, 100), pointing(21, 200)]),
            question(3, 1, vec![pointing(30, 100), pointing(31, 200)]),
        ];
        let answers = [chose(1, &[11]), chose(2, &[20]), chose(3, &[31])];
        let scored = score(PERSONALITY_TYPE, &keyed, &answers);
        assert_eq!(
            feedback_of(PERSONALITY_TYPE, &keyed, &scored, &[]),
            Some(200)
        );
        let ranges = [(1, 0, 49), (2, 50, 100)];
        let quiz = vec![
            question(1, 1, vec![option(10, true)]),
            question(2, 1, vec![option(20, true)]),
        ];
        let half = score(11, &quiz, &[chose(1, &[10]), chose(2, &[21])]);
        assert_eq!(feedback_of(11, &quiz, &half, &ranges), Some(2));
    }
}
